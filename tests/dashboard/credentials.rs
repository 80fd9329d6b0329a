//! The portal credentials form (Tenanted API): refusals before sending, a save that never shows
//! the code again, the saved values revealed on request, and the refusals by generation, state
//! and read-only mode.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::PageParams;
use taxdash::model::filters::RegistrationFilter;

use crate::harness::{Dashboard, Options};

const CODE: &str = "QZRT7351";
const PASSWORD: &str = "Pw-unique-4471";
const PIN: &str = "884213";

fn save(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

/// The registration of the selected organization in `state`.
async fn registration_in(
    client: &taxdash::api::Client,
    state: &str,
) -> taxdash::model::Registration {
    let filter = RegistrationFilter {
        state_code: Some(state.into()),
        ..Default::default()
    };
    client
        .list_registrations(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0)
}

#[tokio::test]
async fn refused_input_sends_nothing_then_a_save_hides_the_code_and_reveal_shows_it() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("CA", true).await;
    let california = registration_in(&d.client, "CA").await;
    let before = d
        .client
        .reveal_registration_credentials(&california.id)
        .await
        .unwrap()
        .fields;

    d.char('C');
    d.wait_for("Portal credentials — California (US-CA)").await;
    let screen = d.wait_for("CDTFA third-party access security code").await;
    assert!(screen.contains("Portal username") && screen.contains("Portal PIN"));

    // A blank code (spaces only) is refused at its field and nothing is sent.
    for _ in 0..3 {
        d.key(KeyCode::Tab);
    }
    d.type_text("   ");
    save(&d);
    let screen = d.wait_for("must not be blank").await;
    assert!(!screen.contains("Saved the portal credentials"), "{screen}");
    let after = d
        .client
        .reveal_registration_credentials(&california.id)
        .await
        .unwrap()
        .fields;
    assert_eq!(before, after, "nothing was sent");

    // A good code: typed hidden, saved, and never on screen.
    for _ in 0..3 {
        d.key(KeyCode::Backspace);
    }
    d.type_text(CODE);
    let typed = d.wait_for("••••••••").await;
    assert!(!typed.contains(CODE), "typed masked: {typed}");
    save(&d);
    let screen = d
        .wait_for("Saved the portal credentials of California (US-CA)")
        .await;
    assert!(
        screen.contains("CDTFA third-party access security code"),
        "the confirmation names what changed: {screen}"
    );
    assert!(!screen.contains(CODE), "the code is not shown: {screen}");
    let saved = d
        .client
        .reveal_registration_credentials(&california.id)
        .await
        .unwrap()
        .fields;
    assert_eq!(
        saved.cdtfa_third_party_access_security_code.as_deref(),
        Some(CODE)
    );
    assert_eq!(
        saved.username, before.username,
        "empty fields kept their values"
    );

    // Reopening the form shows none of it until asked; Ctrl-R reveals the saved values.
    d.char('C');
    let screen = d.wait_for("Portal credentials — California (US-CA)").await;
    assert!(!screen.contains(CODE), "{screen}");
    d.key_with(KeyCode::Char('r'), KeyModifiers::CONTROL);
    let screen = d.wait_for(CODE).await;
    assert!(screen.contains("Saved values (revealed)"), "{screen}");
    if let Some(question) = saved.security_questions.first() {
        d.wait_for(&question.question).await;
    }
    d.key(KeyCode::Esc);
    d.wait_until("the form closed", Duration::from_secs(5), |s| {
        !s.contains(CODE)
    })
    .await;

    // In the detail, v reveals every saved credential, the code included.
    d.key(KeyCode::Enter);
    d.wait_for("Identity").await;
    assert!(!d.screen().contains(CODE));
    d.char('v');
    if let Some(password) = &saved.password {
        d.wait_for(password).await;
    } else {
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let mut seen = String::new();
    for _ in 0..10 {
        seen.push_str(&d.screen());
        d.key(KeyCode::PageDown);
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    assert!(
        seen.contains("Portal credentials (revealed)") && seen.contains(CODE),
        "the saved code is revealed in the detail"
    );
    d.quit().await;
}

#[tokio::test]
async fn the_service_rule_on_registration_details_is_checked_before_sending() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.command("org orgn_demo_2");
    d.wait_for("Now acting on Northwind Digital").await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("ID", false).await;
    let other = d.client.with_organization("orgn_demo_2");
    let idaho = registration_in(&other, "ID").await;

    d.char('C');
    d.wait_for("Portal credentials — Idaho (US-ID)").await;
    d.wait_for("Idaho access code").await;
    d.type_text("pine-portal");
    save(&d);
    let screen = d.wait_for("has no sales tax id on file").await;
    assert!(screen.contains("Nothing was sent"), "{screen}");
    let saved = other
        .reveal_registration_credentials(&idaho.id)
        .await
        .unwrap()
        .fields;
    assert_ne!(saved.username.as_deref(), Some("pine-portal"));
    // The values stay for the user to close or fix.
    assert!(screen.contains("pine-portal"), "{screen}");
    d.key(KeyCode::Esc);
    d.wait_for("unsaved input").await;
    d.char('y');
    d.quit().await;
}

#[tokio::test]
async fn credentials_are_refused_read_only_on_v1_and_outside_california_and_idaho() {
    // Read-only: the key is refused before the pane sees it.
    let d = Dashboard::start_tenanted(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    d.char('C');
    let screen = d.wait_for("Read-only mode: changes are turned off.").await;
    assert!(!screen.contains("Portal credentials —"), "{screen}");
    d.quit().await;

    // Another state: says which states have portal codes.
    let d = Dashboard::start_tenanted(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("TX", true).await;
    d.char('C');
    let screen = d
        .wait_for("Portal access codes are kept for California")
        .await;
    assert!(screen.contains("Idaho"), "{screen}");
    d.quit().await;

    // v1: the help does not offer it, as the footer does not; the key says the feature needs
    // the Tenanted API.
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("CA", true).await;
    d.key(KeyCode::Enter);
    d.wait_for("regs_demo1_00001").await;
    d.char('?');
    let help = d.wait_for("this help").await;
    assert!(help.contains("deregister"), "{help}");
    assert!(
        !help
            .lines()
            .any(|l| l.contains("credentials") && !l.contains("All credentials on file")),
        "{help}"
    );
    d.key(KeyCode::Esc);
    d.char('C');
    let screen = d.wait_for("needs the Tenanted API").await;
    assert!(!screen.contains("Portal credentials —"), "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn snapshot_of_the_credentials_form() {
    let d = Dashboard::start_tenanted(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("ID", true).await;
    d.char('C');
    d.wait_for("Portal credentials — Idaho (US-ID)").await;
    d.type_text("lumen-idaho");
    d.key(KeyCode::Tab);
    d.type_text("s3cret-pass");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("  ");
    d.wait_for("must not be blank").await;
    let screen = d.wait_for("•••••••••••").await;
    assert!(!screen.contains("s3cret-pass"), "{screen}");
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("credentials_form", without_status_line(&d.screen()));
    d.key(KeyCode::Esc);
    d.wait_for("unsaved input").await;
    d.char('y');
    d.quit().await;
}

/// The screen without its status line, where a notice may or may not still show.
fn without_status_line(screen: &str) -> String {
    let mut lines: Vec<&str> = screen.lines().collect();
    if lines.len() >= 2 {
        let status = lines.len() - 2;
        lines[status] = "";
    }
    lines.join("\n")
}

/// Every file under `dir`, read as bytes, with its path.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    out
}

#[tokio::test]
async fn secrets_saved_through_the_form_are_in_no_file_of_the_state_or_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::File::create(dir.path().join("taxdash.log")).unwrap();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(log))
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .finish();
    // A global subscriber that wants every line, so that none is cached as unwanted by another
    // test's thread (see tests/client/hostile.rs).
    GLOBAL_SUBSCRIBER.call_once(|| {
        let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry());
    });
    let _log = tracing::subscriber::set_default(subscriber);
    // Every log line is asked again now that this subscriber listens (see tests/client/hostile.rs).
    tracing::callsite::rebuild_interest_cache();
    let mut options = Options::default();
    options.sandbox.state_file = Some(dir.path().join("state.db"));
    let d = Dashboard::start_tenanted(options).await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("CA", true).await;

    d.char('C');
    d.wait_for("CDTFA third-party access security code").await;
    d.key(KeyCode::Tab);
    d.type_text(PASSWORD);
    d.key(KeyCode::Tab);
    d.type_text(PIN);
    d.key(KeyCode::Tab);
    d.type_text(CODE);
    save(&d);
    let screen = d
        .wait_for("Saved the portal credentials of California (US-CA)")
        .await;
    for secret in [PASSWORD, PIN, CODE] {
        assert!(!screen.contains(secret), "{secret} on screen: {screen}");
    }
    let california = registration_in(&d.client, "CA").await;
    let saved = d
        .client
        .reveal_registration_credentials(&california.id)
        .await
        .unwrap()
        .fields;
    assert_eq!(saved.password.as_deref(), Some(PASSWORD), "saved");
    assert_eq!(saved.pin.as_deref(), Some(PIN), "saved");
    d.quit().await;

    let files = files_under(dir.path());
    assert!(
        files.iter().any(|(p, _)| p.ends_with("state.db")),
        "the state is on disk"
    );
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        for secret in [PASSWORD, PIN, CODE] {
            assert!(
                !text.contains(secret),
                "{secret} found in {}",
                path.display()
            );
        }
    }
}

/// Set once for the whole test binary (see the test that reads the log).
static GLOBAL_SUBSCRIBER: std::sync::Once = std::sync::Once::new();
