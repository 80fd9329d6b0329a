//! `:snapshot`: a snapshot of what the dashboard is connected to, taken from the dashboard into
//! its history file while the keys keep working; what it says when it ends, and `Δ` and `H`
//! following it without a restart.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crossterm::event::KeyCode;
use serde_json::json;
use taxdash::api::{CustomerFilter, RegistrationFilter};
use taxdash::history::History;
use taxdash::model::{CustomerWrite, PageParams, Resource};
use taxdash::ui::widgets::paged_table::FLAG;

use crate::harness::{Dashboard, Options};
use crate::relay::Relay;

/// A history file in a directory of its own, opened as the dashboard opens it.
fn history_file() -> (tempfile::TempDir, PathBuf, History) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let history = History::open(&path).unwrap();
    (dir, path, history)
}

/// The snapshots stored in the file at `path` (read on a connection of the test's own).
fn stored(path: &Path) -> History {
    History::open(path).unwrap()
}

/// Runs `:snapshot` and waits for the message that it was taken.
async fn snapshot(d: &Dashboard, n: i64) -> String {
    d.command("snapshot");
    d.wait_until(&format!("snapshot {n}"), Duration::from_secs(30), |s| {
        s.contains(&format!("Snapshot {n} taken"))
    })
    .await
}

/// The screen's line that holds `text`.
fn line_of(screen: &str, text: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_snapshot_taken_from_the_dashboard_counts_the_changes_and_delta_and_h_follow_it() {
    let (_dir, path, history) = history_file();
    let d = Dashboard::start_with_history_behind(
        Options {
            first_tab: "Customers",
            size: (220, 40),
            ..Options::default()
        },
        history,
        |target| async move { target },
    )
    .await;
    let first = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    let name = first.name.clone().unwrap();
    d.wait_for(&name).await;
    // No snapshot yet: `H` says how to take one from here.
    d.key(KeyCode::Enter);
    d.wait_for("Tax registrations").await;
    d.char('H');
    d.wait_for("No snapshot of this organization is stored yet: :snapshot takes one.")
        .await;
    d.key(KeyCode::Esc);
    d.key(KeyCode::Esc);

    let screen = snapshot(&d, 1).await;
    let said = line_of(&screen, "Snapshot 1 taken");
    assert!(
        said.contains("the first of this organization"),
        "nothing to compare with yet: {said}"
    );
    let one = stored(&path);
    let customers = one.snapshot_records(1, Resource::Customers).unwrap().len();
    assert!(said.contains(&format!("{customers} customers")), "{said}");

    // One customer changed and one added, on the service the dashboard is connected to.
    d.client
        .update_customer(
            &first.id,
            &CustomerWrite {
                email: Some("changed@example.com".into()),
                ..CustomerWrite::default()
            },
        )
        .await
        .unwrap();
    d.client
        .create_customer(&CustomerWrite {
            name: Some("Added Since".into()),
            ..CustomerWrite::default()
        })
        .await
        .unwrap();
    let screen = snapshot(&d, 2).await;
    let said = line_of(&screen, "Snapshot 2 taken");
    assert!(
        said.contains("since snapshot 1: 1 added, 0 removed, 1 changed"),
        "{said}"
    );
    // The same counts `taxdash diff` lists, from the file.
    let diff = stored(&path).diff(1, 2).unwrap().unwrap();
    let tally = diff.tally();
    assert_eq!((tally.added, tally.removed, tally.changed), (1, 0, 1));

    // `Δ` flags the changed row without a restart.
    let screen = d
        .wait_until("the changed row flagged", Duration::from_secs(10), |s| {
            line_of(s, &name).contains(&format!("{FLAG} {name}"))
        })
        .await;
    assert!(
        screen.contains("H history"),
        "the footer offers it: {screen}"
    );
    // `H` reads the new snapshot.
    d.key(KeyCode::Enter);
    d.wait_for("Tax registrations").await;
    d.char('H');
    let screen = d.wait_for("History of customer").await;
    assert!(screen.contains("in 2 of 2 snapshots"), "{screen}");
    assert!(
        screen.contains("#2  Email: ") && screen.contains("→ changed@example.com"),
        "{screen}"
    );
    assert!(screen.contains("#1  first stored"), "{screen}");
    d.key(KeyCode::Esc);
    d.quit().await;
}

#[tokio::test]
async fn the_snapshot_holds_the_registrations_the_dashboard_lists() {
    let (_dir, path, history) = history_file();
    let d =
        Dashboard::start_with_history_behind(Options::default(), history, |target| async move {
            target
        })
        .await;
    d.wait_for("row 1 of").await;
    // A registration made in this session, as a user registering from the dashboard would.
    d.client
        .create_registration(&json!({
            "registration_import_type": "REGULAR",
            "country_code": "US",
            "state_code": "WY",
            "state_name": "Wyoming",
            "filing_frequency": "QUARTERLY",
            "registration_email": "tax@example.com"
        }))
        .await
        .unwrap();
    let total = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    d.char('r');
    d.wait_for(&format!("row 1 of {total} ")).await;
    let screen = snapshot(&d, 1).await;
    let said = line_of(&screen, "Snapshot 1 taken");
    assert!(said.contains(&format!("({total} registrations,")), "{said}");
    let held = stored(&path)
        .snapshot_records(1, Resource::Registrations)
        .unwrap()
        .len();
    assert_eq!(held as u64, total, "the snapshot holds the list on screen");
    d.quit().await;
}

#[tokio::test]
async fn keys_keep_working_while_a_snapshot_is_taken_and_a_second_waits_its_turn() {
    let (_dir, path, history) = history_file();
    let d = Dashboard::start_with_history_behind(Options::default(), history, |target| {
        Relay::slowing("/v1/filings", Duration::from_millis(1500)).serve(target)
    })
    .await;
    d.wait_for("row 1 of").await;
    d.command("snapshot");
    let screen = d.wait_for("taking a snapshot: ").await;
    let status = line_of(&screen, "taking a snapshot: ");
    assert!(
        status.contains("rows read") || status.contains("starting"),
        "{status}"
    );
    // Another tab opens and loads meanwhile.
    d.char('3');
    d.wait_for("Nexus —").await;
    d.command("snapshot");
    d.wait_for("A snapshot is being taken").await;
    let screen = d
        .wait_until("the snapshot's end", Duration::from_secs(30), |s| {
            s.contains("Snapshot 1 taken")
        })
        .await;
    assert!(!screen.contains("taking a snapshot: "), "{screen}");
    assert_eq!(stored(&path).snapshots(None).unwrap().len(), 1);
    d.quit().await;
}

#[tokio::test]
async fn a_list_that_cannot_be_read_stores_nothing_and_is_named() {
    let (_dir, path, history) = history_file();
    let broken = Arc::new(AtomicBool::new(true));
    let switch = broken.clone();
    let d = Dashboard::start_with_history_behind(Options::default(), history, |target| {
        Relay::breaking("/v1/customers", switch).serve(target)
    })
    .await;
    d.wait_for("row 1 of").await;
    d.command("snapshot");
    let screen = d
        .wait_until("the failure", Duration::from_secs(30), |s| {
            s.contains("no snapshot was stored")
        })
        .await;
    let said = line_of(&screen, "no snapshot was stored");
    assert!(said.contains("reading the customers failed"), "{said}");
    let history = stored(&path);
    assert!(history.snapshots(None).unwrap().is_empty());
    let bodies: i64 = history
        .sqlite()
        .unwrap()
        .query_row("SELECT count(*) FROM snapshot_bodies", [], |r| r.get(0))
        .unwrap();
    assert_eq!(bodies, 0, "the lists read whole were taken back too");
    // Once the list reads again, the snapshot is taken.
    broken.store(false, std::sync::atomic::Ordering::SeqCst);
    snapshot(&d, 1).await;
    d.quit().await;
}

#[tokio::test]
async fn the_demo_without_a_history_file_takes_snapshots_for_its_session_and_says_how_to_keep_them()
{
    let (d, dir) = Dashboard::start_as_the_demo(&Options::default()).await;
    let dir = dir.expect("the demo keeps its history for the session");
    let file = dir.path().join("history.db");
    assert!(file.exists(), "the session's history is a file of its own");
    d.wait_for("Overview — updated").await;
    d.command("snapshot");
    d.wait_for("Snapshot 1 taken").await;
    d.command("messages");
    let screen = d.wait_for("Messages").await;
    assert!(
        screen.contains("Kept until the demo ends") && screen.contains("--history FILE"),
        "{screen}"
    );
    d.key(KeyCode::Esc);
    // The second compares with the first, as with a history file.
    d.command("snapshot");
    d.wait_for("Snapshot 2 taken").await;
    d.quit().await;
    drop(dir);
    assert!(!file.exists(), "gone with the session");
}

#[tokio::test]
async fn a_service_that_dies_during_a_snapshot_is_said_in_the_header_and_its_return_clears_it() {
    let (_dir, path, history) = history_file();
    let gone = Arc::new(AtomicBool::new(false));
    let switch = gone.clone();
    let d = Dashboard::start_with_history_behind(Options::default(), history, |target| {
        Relay::slowing("/v1/filings", Duration::from_millis(1500))
            .dying(switch)
            .serve(target)
    })
    .await;
    d.wait_for("row 1 of").await;
    assert!(d.screen().lines().next().unwrap().contains("● connected"));
    d.command("snapshot");
    d.wait_for("taking a snapshot: ").await;
    // The service dies while the snapshot reads it.
    gone.store(true, std::sync::atomic::Ordering::SeqCst);
    let screen = d
        .wait_until("the failure", Duration::from_secs(30), |s| {
            s.contains("no snapshot was stored")
        })
        .await;
    let header = screen.lines().next().unwrap().to_owned();
    assert!(
        !header.contains("● connected"),
        "the header tells what the last answer showed: {header}"
    );
    assert!(stored(&path).snapshots(None).unwrap().is_empty());
    // The service is back: the next answer says so, and the stale error goes.
    gone.store(false, std::sync::atomic::Ordering::SeqCst);
    d.char('r');
    let screen = d
        .wait_until("the connection back", Duration::from_secs(30), |s| {
            s.lines().next().is_some_and(|h| h.contains("● connected"))
        })
        .await;
    assert!(!screen.contains("no snapshot was stored"), "{screen}");
    d.quit().await;
}
