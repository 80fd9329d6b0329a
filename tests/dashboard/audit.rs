//! The audit log in the dashboard: a change made through a pane is recorded by the client the
//! dashboard uses, and `:audit` lists it, filters, and shows it whole; a history file that
//! cannot be used turns changes off with a message naming it.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use taxdash::app::DashboardOptions;
use taxdash::history::audit::{Filter, Outcome};
use taxdash::history::{AuditLog, History};
use taxdash::model::{CustomerWrite, RegistrationStatus};

use crate::harness::{Dashboard, Options};

#[tokio::test]
async fn a_deregistration_made_in_the_dashboard_is_listed_by_audit_and_shown_whole() {
    let log = AuditLog::new(History::in_memory());
    let d = Dashboard::start_with_audit(Options::default(), log.clone()).await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("WA", true).await;
    d.char('D');
    d.wait_for("step 1 of 6").await;
    d.key(KeyCode::Enter);
    d.wait_for("step 2 of 6: Reason").await;
    d.key(KeyCode::Right);
    d.key(KeyCode::Enter);
    d.wait_for("step 3 of 6: Closure date").await;
    d.type_text("2026-12-31");
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6: Final return").await;
    d.key(KeyCode::Char(' '));
    d.key(KeyCode::Enter);
    d.wait_for("step 5 of 6").await;
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;
    d.type_text("WA");
    d.key(KeyCode::Enter);
    d.wait_for("DEREGISTERING").await;
    // A refused write from the same client.
    d.client
        .update_customer("cust_nowhere", &CustomerWrite::default())
        .await
        .unwrap_err();

    let entries = log.entries(&Filter::default()).unwrap();
    assert_eq!(entries.len(), 2);
    let dereg = &entries[1];
    assert_eq!(dereg.method, "POST");
    assert!(dereg.path.ends_with("/deregister"), "{}", dereg.path);
    assert_eq!((dereg.outcome, dereg.status), (Outcome::Ok, Some(200)));
    let id = dereg.record_id.clone().expect("the registration's id");
    assert_eq!(
        d.client.get_registration(&id).await.unwrap().status,
        RegistrationStatus::Deregistering
    );

    d.command("audit");
    let screen = d.wait_for("Audit log, newest first").await;
    let lines: Vec<&str> = screen.lines().collect();
    let refused = lines
        .iter()
        .position(|l| l.contains("cust_nowhere"))
        .expect("the refused write is listed");
    let done = lines
        .iter()
        .position(|l| l.contains(&id))
        .expect("the deregistration is listed");
    assert!(refused < done, "newest first: {screen}");
    assert!(
        lines[refused].contains("refused") && lines[refused].contains("404"),
        "{screen}"
    );
    assert!(
        lines[done].contains("registrations") && lines[done].contains("ok"),
        "{screen}"
    );
    assert!(
        screen.contains("r resource") && screen.contains("o outcome"),
        "{screen}"
    );

    // `o` steps to ok: only the deregistration.
    d.char('o');
    let screen = d.wait_for("outcome ok").await;
    assert!(!screen.contains("cust_nowhere"), "{screen}");
    assert!(screen.contains(&id), "{screen}");

    d.key(KeyCode::Enter);
    let screen = d.wait_for(&format!("Audit entry {}", dereg.id)).await;
    for expected in [
        "POST /v1/registrations/",
        "Outcome       ok",
        "Status        200",
        "Profile       demo",
        "Body as sent (secrets removed)",
        "\"reason\": \"FULL_BUSINESS_CLOSURE\"",
        "\"closure_date\": \"2026-12-31\"",
    ] {
        assert!(screen.contains(expected), "{expected:?} in {screen}");
    }
    assert!(
        screen.contains("Esc back") && !screen.contains("Esc close"),
        "{screen}"
    );
    d.key(KeyCode::Esc);
    d.wait_for("Audit log, newest first").await;
    d.key(KeyCode::Esc);
    d.wait_until("the audit log closed", Duration::from_secs(5), |s| {
        !s.contains("Audit log")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn a_corrupt_history_file_opens_the_dashboard_read_only_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    std::fs::write(&path, b"garbage, not a database").unwrap();
    let options = DashboardOptions {
        demo: true,
        history: Some(path.clone()),
        ..DashboardOptions::default()
    };
    let mut session = taxdash::app::prepare(&options, None).await.unwrap();
    assert!(session.shell.header().read_only);
    let mut terminal = Terminal::new(TestBackend::new(400, 30)).unwrap();
    terminal.draw(|f| session.shell.draw(f)).unwrap();
    let screen = format!("{:?}", terminal.backend().buffer());
    assert!(screen.contains("READ-ONLY"), "{screen}");
    assert!(screen.contains(&path.display().to_string()), "{screen}");
    assert!(screen.contains("Changes are turned off"), "{screen}");
    assert_eq!(std::fs::read(&path).unwrap(), b"garbage, not a database");
    if let Some(sandbox) = session.sandbox.take() {
        sandbox.stop().await;
    }
}
