//! A record's history across snapshots (`H`) and the flag of rows changed since the previous
//! snapshot, with a history database the test prepares.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};
use crossterm::event::KeyCode;
use serde_json::json;
use taxdash::api::CustomerFilter;
use taxdash::history::History;
use taxdash::history::snapshot::{Record, Scope};
use taxdash::model::PageParams;
use taxdash::model::Resource;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use taxdash::ui::widgets::paged_table::FLAG;

use crate::harness::{DEMO_ANCHOR, Dashboard, Options};

fn at(day: u32) -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(2026, 11, day)
        .unwrap()
        .and_hms_opt(9, 0, 0)
        .unwrap()
        .and_utc()
}

fn customer(id: &str, name: &str, email: &str) -> Record {
    Record {
        resource: Resource::Customers,
        id: id.to_owned(),
        body: json!({"id": id, "name": name, "email": email}).to_string(),
    }
}

/// Three snapshots of the demo profile: the first customer renamed in the third, its e-mail
/// changed in the second; the second customer the same throughout.
fn history(first: &str, second: &str) -> History {
    let mut h = History::in_memory();
    let scope = Scope {
        profile: "demo".into(),
        organization: DEMO_CREDENTIALS[0].0.into(),
        api: "v1".into(),
        transactions: None,
    };
    let versions = [
        ("Old Name", "old@example.com"),
        ("Old Name", "new@example.com"),
        ("New Name", "new@example.com"),
    ];
    for (day, (name, email)) in (1..).zip(versions) {
        let records = [
            customer(first, name, email),
            customer(second, "Steady", "s@example.com"),
        ];
        h.write_snapshot(&scope, at(day), &records).unwrap();
    }
    h
}

fn name(c: &taxdash::model::Customer) -> String {
    c.name.clone().unwrap_or_default()
}

#[tokio::test]
async fn h_shows_a_records_changes_across_snapshots_and_changed_rows_are_flagged() {
    let sandbox = Sandbox::start(
        SandboxConfig {
            anchor: Some(DEMO_ANCHOR),
            ..SandboxConfig::default()
        },
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap();
    let (org, key) = DEMO_CREDENTIALS[0];
    let client = taxdash::api::Client::new(taxdash::api::ClientConfig::new(
        sandbox.base_url().parse().unwrap(),
        org,
        taxdash::credentials::ApiKey::new(key).unwrap(),
    ))
    .unwrap();
    let listed = client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 2))
        .await
        .unwrap()
        .items;
    let (first, second) = (listed[0].clone(), listed[1].clone());
    let d = Dashboard::start_with_history(
        sandbox,
        history(&first.id, &second.id),
        &Options {
            first_tab: "Customers",
            ..Options::default()
        },
    );
    // The rows changed are read from the history database beside the list: both shown.
    let screen = d
        .wait_until("the customer list", Duration::from_secs(10), |s| {
            s.contains(&name(&first)) && s.contains(&name(&second)) && s.contains(FLAG)
        })
        .await;
    // The first customer changed between the two latest snapshots: its row is flagged, the
    // second's is not.
    let row = |id: &str| {
        screen
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        row(&name(&first)).contains(&format!("{FLAG} {}", name(&first))),
        "{screen}"
    );
    assert!(!row(&name(&second)).contains(FLAG), "{screen}");

    // Its detail, then its history: newest first, each change with its old and new value.
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Tax registrations").await;
    assert!(
        screen.contains("H history"),
        "the footer offers it: {screen}"
    );
    d.char('H');
    let screen = d.wait_for("History of customer").await;
    assert!(
        screen.contains(&format!(
            "History of customer {} (New Name): in 3 of 3 snapshots",
            first.id
        )),
        "{screen}"
    );
    let lines: Vec<&str> = screen.lines().filter(|l| l.contains("2026-11-0")).collect();
    assert_eq!(lines.len(), 3, "{screen}");
    assert!(
        lines[0].contains("2026-11-03 09:00 UTC  #3  Name: Old Name → New Name"),
        "{screen}"
    );
    assert!(
        lines[1].contains("2026-11-02 09:00 UTC  #2  Email: old@example.com → new@example.com"),
        "{screen}"
    );
    assert!(lines[2].contains("#1  first stored"), "{screen}");
    assert_eq!(
        crate::harness::wire_names(&lines.join("\n")),
        Vec::<String>::new(),
        "each field in words: {screen}"
    );

    // Esc goes back to the detail.
    d.key(KeyCode::Esc);
    let screen = d
        .wait_until("the detail again", Duration::from_secs(5), |s| {
            !s.contains("History of customer")
        })
        .await;
    assert!(screen.contains("Tax registrations"), "{screen}");
}

#[tokio::test]
async fn h_names_who_sent_each_change_of_the_record_through_taxdash() {
    let log = taxdash::history::AuditLog::new(History::in_memory());
    let stores = taxdash::app::Stores::default()
        .with_history(History::in_memory())
        .with_audit(log.clone());
    let changed = std::sync::Arc::new(std::sync::Mutex::new(None));
    let (seen, recorder) = (changed.clone(), log.clone());
    // Before the dashboard starts, a change to the first customer sent through taxdash's
    // client, recorded in the log the dashboard reads.
    let d = Dashboard::start_with_stores_behind(
        Options {
            first_tab: "Customers",
            ..Options::default()
        },
        stores,
        |base| async move {
            let (org, key) = DEMO_CREDENTIALS[0];
            let client = taxdash::api::Client::new(taxdash::api::ClientConfig::new(
                base.parse().unwrap(),
                org,
                taxdash::credentials::ApiKey::new(key).unwrap(),
            ))
            .unwrap()
            .with_audit(recorder.recorder("demo", org));
            let first = client
                .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
                .await
                .unwrap()
                .items
                .remove(0);
            let sent = client
                .update_customer(
                    &first.id,
                    &taxdash::model::CustomerWrite {
                        email: Some("books@example.com".into()),
                        ..Default::default()
                    },
                )
                .await;
            *seen.lock().unwrap() = Some((first, sent.is_ok()));
            base
        },
    )
    .await;
    let (first, ok) = changed.lock().unwrap().clone().unwrap();
    d.wait_until("the customer list", Duration::from_secs(10), |s| {
        s.contains(&name(&first))
    })
    .await;
    d.key(KeyCode::Enter);
    d.wait_for("Tax registrations").await;
    d.char('H');
    let screen = d.wait_for("Changes sent through taxdash").await;
    assert!(
        screen.contains(&format!("History of customer {}", first.id)),
        "{screen}"
    );
    // As much of the person as the column shows.
    let who: String = taxdash::history::who::me().chars().take(20).collect();
    let line = screen
        .lines()
        .find(|l| l.contains(" UTC  ") && l.contains("PUT"))
        .unwrap_or_else(|| panic!("the change is listed: {screen}"));
    assert!(line.contains(&format!("  {who}")), "{who:?} in {screen}");
    assert!(
        line.contains(if ok { "ok      200" } else { "refused" }),
        "{screen}"
    );
    assert!(
        screen.contains("No snapshot of this organization is stored yet"),
        "{screen}"
    );
}
