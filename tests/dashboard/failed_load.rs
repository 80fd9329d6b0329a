//! A list page the service answers malformed: the pane shows why, `r` reads it again, and the
//! message stays with the pane that caused it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::KeyCode;

use crate::harness::{Dashboard, Options};
use crate::relay::Relay;

#[tokio::test]
async fn a_malformed_registrations_page_shows_in_the_pane_r_retries_and_the_message_stays() {
    let broken = Arc::new(AtomicBool::new(true));
    let switch = broken.clone();
    let d = Dashboard::start_behind(Options::default(), |target| {
        Relay::breaking("/v1/registrations", switch).serve(target)
    })
    .await;

    let screen = d
        .wait_until("the failure in the pane", Duration::from_secs(10), |s| {
            s.contains("registrations could not be loaded")
        })
        .await;
    assert!(screen.contains("r retries"), "{screen}");
    assert!(
        !screen.contains("loading registrations"),
        "no frozen spinner: {screen}"
    );

    // The next pane loads its own list; the registrations' failure does not come along.
    d.key(KeyCode::Tab);
    let next = d
        .wait_until("the next pane's rows", Duration::from_secs(10), |s| {
            s.contains("row 1 of")
        })
        .await;
    assert!(!next.contains("could not be loaded"), "{next}");
    assert!(!next.contains("none today"), "{next}");
    assert!(!next.contains("GET /v1/registrations"), "{next}");

    // Back on the registrations, the failure is still said there.
    d.key(KeyCode::BackTab);
    d.wait_until("the failure again", Duration::from_secs(10), |s| {
        s.contains("registrations could not be loaded")
    })
    .await;

    // The service mends; `r` reads the page again.
    broken.store(false, Ordering::SeqCst);
    d.char('r');
    let screen = d
        .wait_until("the registrations", Duration::from_secs(10), |s| {
            s.contains("row 1 of")
        })
        .await;
    assert!(!screen.contains("could not be loaded"), "{screen}");
    assert!(!screen.contains("✗"), "{screen}");
    d.quit().await;
}
