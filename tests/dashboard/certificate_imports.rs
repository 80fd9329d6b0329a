//! The certificate imports view of the Exemptions pane through the real loop: on a v1 profile it
//! says what it needs; on the Tenanted API it lists the imports awaiting approval, approves the
//! marked ones with the chosen exemption type, and read-only mode refuses the approval.

use std::time::Duration;

use crossterm::event::KeyCode;
use taxdash::model::PageParams;
use taxdash::model::filters::ExemptionFilter;
use taxdash::model::tenanted::{ApproveImport, CertificateImport};

use crate::harness::{Dashboard, Options};

/// Switches to the Exemptions tab with its number key.
fn open_tab(d: &Dashboard) {
    let index = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Exemptions")
        .expect("an Exemptions tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a tab number key");
    d.char(key);
}

/// Switches to the Exemptions tab and waits for its list.
async fn open_exemptions(d: &Dashboard) {
    d.wait_for("row 1 of").await;
    open_tab(d);
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

/// The imports the service lists with `status` (every status with `None`).
async fn imports(d: &Dashboard, status: Option<&str>) -> Vec<CertificateImport> {
    d.client
        .list_certificate_imports(status, PageParams::new(1, 100))
        .await
        .unwrap()
        .items
}

/// Opens the imports view on the Tenanted API and waits for the imports awaiting approval.
async fn open_imports(d: &Dashboard) -> Vec<CertificateImport> {
    let awaiting = imports(d, Some("UPLOADED")).await;
    assert!(awaiting.len() >= 2, "demo imports awaiting approval");
    d.wait_for("row 1 of").await;
    open_tab(d);
    d.wait_for("Exemptions — active").await;
    d.char('I');
    d.wait_until(
        "the imports awaiting approval",
        Duration::from_secs(10),
        |s| {
            s.contains("certificate imports awaiting approval (UPLOADED)")
                && s.contains(&format!("row 1 of {} ", awaiting.len()))
        },
    )
    .await;
    awaiting
}

#[tokio::test]
async fn two_marked_imports_are_approved_with_the_chosen_type() {
    let d = Dashboard::start_tenanted(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    let exemptions_before = d
        .client
        .list_exemptions(&ExemptionFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    let awaiting = open_imports(&d).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("certificate_imports_list", d.screen());

    // Space marks a row and moves on: the first two are marked.
    d.char(' ');
    d.char(' ');
    d.wait_for("2 marked").await;
    d.char('A');
    d.wait_for("‹ CUSTOMER ›").await;
    d.key(KeyCode::Right);
    d.wait_for("‹ WHOLESALE ›").await;
    d.key(KeyCode::Enter);
    let question = d.wait_for("as WHOLESALE exemptions?").await;
    assert!(
        question.contains("Approve 2 certificate imports"),
        "{question}"
    );
    d.char('y');
    d.wait_for("Approved 2 certificate imports as WHOLESALE")
        .await;

    let approved: Vec<CertificateImport> = imports(&d, Some("APPROVED"))
        .await
        .into_iter()
        .filter(|i| i.id == awaiting[0].id || i.id == awaiting[1].id)
        .collect();
    assert_eq!(approved.len(), 2, "both approved in the service");
    let screen = d.screen();
    for import in &approved {
        assert_eq!(import.exemption_type.as_deref(), Some("WHOLESALE"));
        let exemption = import.exemption_id.as_deref().expect("the new exemption");
        assert!(
            screen.contains(exemption),
            "{exemption} on the row: {screen}"
        );
    }
    assert_eq!(screen.matches("APPROVED").count(), 2, "{screen}");
    assert!(
        !screen.contains("marked"),
        "approved rows lose their mark: {screen}"
    );

    // The exemption list shows the new exemptions.
    let exemptions_after = d
        .client
        .list_exemptions(&ExemptionFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    assert_eq!(exemptions_after, exemptions_before + 2);
    d.char('I');
    d.wait_for(&format!("row 1 of {exemptions_after} ")).await;
    d.quit().await;
}

#[tokio::test]
async fn a_refused_approval_is_said_and_loses_nothing() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let awaiting = open_imports(&d).await;
    // Approved elsewhere meanwhile: the row on screen is stale.
    d.client
        .approve_certificate_import(&awaiting[1].id, &ApproveImport::default())
        .await
        .unwrap();
    d.char(' ');
    d.char(' ');
    d.char('A');
    d.wait_for("‹ CUSTOMER ›").await;
    d.key(KeyCode::Enter);
    d.wait_for("as CUSTOMER exemptions?").await;
    d.char('y');
    let screen = d.wait_for("Nothing was approved").await;
    assert!(
        screen.contains(&awaiting[1].id),
        "the refusal names it: {screen}"
    );
    assert!(screen.contains("2 marked"), "the marks are kept: {screen}");
    let still = imports(&d, Some("UPLOADED")).await;
    assert!(
        still.iter().any(|i| i.id == awaiting[0].id),
        "all or nothing: the other one still awaits approval"
    );
    d.quit().await;
}

#[tokio::test]
async fn read_only_refuses_the_approval() {
    let d = Dashboard::start_tenanted(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    let awaiting = open_imports(&d).await;
    d.char(' ');
    d.char('A');
    let screen = d.wait_for("Read-only mode").await;
    assert!(!screen.contains("Exemption type"), "{screen}");
    assert_eq!(imports(&d, Some("UPLOADED")).await.len(), awaiting.len());
    d.quit().await;
}
