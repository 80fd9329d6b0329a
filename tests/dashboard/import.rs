//! `:import FILE` through the real loop: the file's report in a dialog before anything is
//! sent, the rows sent on yes with the progress in the footer and the list reloaded, nothing
//! sent on no, and nothing at all in read-only mode.

use std::fmt::Write as _;
use std::time::Duration;

use taxdash::model::PageParams;
use taxdash::model::filters::CustomerFilter;
use taxdash::sandbox::SandboxConfig;

use crate::harness::{DEMO_ANCHOR, Dashboard, Options};

/// Opens the Customers tab and waits for its whole list of `all` rows.
async fn open_customers(d: &Dashboard, all: u64) {
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Customers")
        .expect("a Customers tab")
        + 1;
    d.char(char::from_digit(number as u32, 10).expect("a tab number key"));
    d.wait_until("the customer list", Duration::from_secs(10), |s| {
        s.contains(&format!("row 1 of {all} "))
    })
    .await;
}

async fn total(d: &Dashboard) -> u64 {
    d.client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

/// Two good customers and one whose email is not one.
fn file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("c.csv");
    std::fs::write(
        &path,
        "external_id,name,email,country\n\
         imp-1,Ada Lovelace,ada@example.com,GB\n\
         imp-2,Bob Smith,bob@example.com,US\n\
         imp-3,Eve,not-an-email,US\n",
    )
    .unwrap();
    path
}

#[tokio::test]
async fn the_report_comes_first_and_yes_sends_the_rows_that_pass() {
    let options = Options {
        sandbox: SandboxConfig {
            anchor: Some(DEMO_ANCHOR),
            // Slow enough for the footer to be seen counting.
            latency: Duration::from_millis(400),
            ..SandboxConfig::default()
        },
        ..Options::default()
    };
    let d = Dashboard::start(options).await;
    let all = total(&d).await;
    open_customers(&d, all).await;
    let dir = tempfile::tempdir().unwrap();
    let path = file(dir.path());

    d.command(&format!("import {}", path.display()));
    let screen = d.wait_for("Problems by column:").await;
    for shown in ["Import customers", "2 ready, 1 with", "email: 1", "[ Yes ]"] {
        assert!(screen.contains(shown), "{shown}:\n{screen}");
    }
    assert!(
        screen.contains("row 4, column email, value"),
        "the problem itself:\n{screen}"
    );
    assert_eq!(total(&d).await, all, "nothing sent before yes");

    d.char('y');
    d.wait_for("importing customers:").await;
    d.wait_until("the import's end", Duration::from_secs(15), |s| {
        s.contains("imported 2 customers: 2 created")
    })
    .await;
    d.wait_until("the reloaded list", Duration::from_secs(15), |s| {
        s.contains(&format!("row 1 of {} ", all + 2))
    })
    .await;
    for external_id in ["imp-1", "imp-2"] {
        d.client
            .get_customer_by_external_id(external_id)
            .await
            .expect("imported");
    }
    let results = std::fs::read_to_string(dir.path().join("c.csv.results.csv")).unwrap();
    assert!(results.contains("4,invalid"), "{results}");
    d.quit().await;
}

#[tokio::test]
async fn no_sends_nothing_and_read_only_mode_checks_nothing() {
    let d = Dashboard::start(Options::default()).await;
    let all = total(&d).await;
    open_customers(&d, all).await;
    let dir = tempfile::tempdir().unwrap();
    let path = file(dir.path());
    d.command(&format!("import {}", path.display()));
    d.wait_for("Problems by column:").await;
    d.char('n');
    d.wait_for("Import not sent").await;
    assert_eq!(total(&d).await, all);
    assert!(!dir.path().join("c.csv.results.csv").exists());
    d.quit().await;

    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    open_customers(&d, all).await;
    d.command(&format!("import {}", path.display()));
    d.wait_for("Read-only mode: nothing is imported").await;
    d.quit().await;
}

#[tokio::test]
async fn on_the_nexus_tab_import_reads_physical_presences() {
    let d = Dashboard::start(Options::default()).await;
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Nexus")
        .expect("a Nexus tab")
        + 1;
    d.char(char::from_digit(number as u32, 10).expect("a tab number key"));
    d.wait_for("row 1 of").await;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/cli/fixtures/import/physical-nexus.csv"
    );
    // The results file is written beside the file: a copy in a directory of the test's own.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("pn.csv");
    std::fs::copy(path, &copy).unwrap();
    d.command(&format!("import {}", copy.display()));
    let screen = d.wait_for("Import physical-nexus").await;
    assert!(screen.contains("Send the 2 rows?"), "{screen}");
    d.char('y');
    d.wait_until("the import's end", Duration::from_secs(15), |s| {
        s.contains("imported 2 physical-nexus: 2 created")
    })
    .await;
    d.wait_for("Reno").await;
    d.quit().await;
}

#[tokio::test]
async fn esc_stops_an_import_half_way_with_every_row_started_written() {
    let options = Options {
        sandbox: SandboxConfig {
            anchor: Some(DEMO_ANCHOR),
            latency: Duration::from_millis(300),
            ..SandboxConfig::default()
        },
        ..Options::default()
    };
    let d = Dashboard::start(options).await;
    let all = total(&d).await;
    open_customers(&d, all).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.csv");
    let mut csv = String::from("external_id,name\n");
    for n in 1..=40 {
        let _ = writeln!(csv, "esc-{n},Customer {n}");
    }
    std::fs::write(&path, csv).unwrap();
    d.command(&format!("import {}", path.display()));
    d.wait_for("Send the 40 rows?").await;
    d.char('y');
    d.wait_for("Esc stops").await;
    // Once rows are being created (the customers already there are read first).
    let results_path = dir.path().join("many.csv.results.csv");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&results_path).map_or(0, |t| t.matches(",created,").count()) < 2 {
        assert!(started.elapsed() < Duration::from_secs(20), "rows are sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    d.key(crossterm::event::KeyCode::Esc);
    let screen = d
        .wait_until("the stop", Duration::from_secs(15), |s| {
            s.contains("Import stopped")
        })
        .await;
    assert!(screen.contains("created"), "{screen}");
    let results = std::fs::read_to_string(&results_path).unwrap();
    let created = results.matches(",created,").count();
    assert!(
        !results.contains(",sending,"),
        "every row started was answered and written: {results}"
    );
    assert_eq!(
        results.lines().count(),
        1 + created,
        "one line per row: {results}"
    );
    assert!(created < 40, "stopped half way: {created}");
    assert_eq!(total(&d).await, all + created as u64);
    d.quit().await;
}
