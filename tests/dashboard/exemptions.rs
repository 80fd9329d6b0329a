//! The Exemptions pane through the real loop: the list with its live search and status filter,
//! the new-exemption form, the certificate upload with path completion, and read-only mode.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::{CustomerFilter, ExemptionFilter};
use taxdash::model::{Exemption, ExemptionStatus, PageParams};

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

/// The exemptions the service lists for `filter` (the first hundred, in the list's order).
async fn exemptions(d: &Dashboard, filter: ExemptionFilter) -> (u64, Vec<Exemption>) {
    let page = d
        .client
        .list_exemptions(&filter, PageParams::new(1, 100))
        .await
        .unwrap();
    (page.total, page.items)
}

async fn total(d: &Dashboard) -> u64 {
    exemptions(d, ExemptionFilter::default()).await.0
}

fn submit(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

/// Opens the Exemptions tab and waits for its whole list.
async fn open_list(d: &Dashboard) -> u64 {
    let all = total(d).await;
    open_tab(d);
    d.wait_until("the exemption list", Duration::from_secs(10), |s| {
        s.contains("Exemptions — active, inactive and expired")
            && s.contains(&format!("row 1 of {all} "))
    })
    .await;
    all
}

/// Types `query` into the live search and waits for its `rows` matches.
async fn search_for(d: &Dashboard, query: &str, rows: u64) {
    d.char('/');
    d.type_text(query);
    d.wait_for(&format!("matching \"{query}\"")).await;
    d.wait_for(&format!("row 1 of {rows} ")).await;
}

/// Chooses `label` in the focused select once the lookup has narrowed it to that one choice
/// (earlier lookups may still be answering while the keys arrive).
async fn choose_only(d: &Dashboard, label: &str) {
    // A short select lists its choices: the chosen one, and the field's border right under it.
    let chosen = format!("(•) {label}");
    let only = |screen: &str| {
        let lines: Vec<&str> = screen.lines().collect();
        lines
            .windows(2)
            .any(|w| w[0].contains(&chosen) && w[1].contains('└'))
            && !lines.iter().any(|l| l.contains("│( ) ") && l.contains('@'))
    };
    for _ in 0..50 {
        if only(&d.screen()) {
            return;
        }
        d.key(KeyCode::Right);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "{label} was never the only choice; the screen:\n{}",
        d.screen()
    );
}

#[tokio::test]
async fn the_tab_lists_the_exemptions_of_the_default_statuses() {
    let d = Dashboard::start(Options::default()).await;
    let all = open_list(&d).await;
    assert!(all > 0, "demo exemptions");
    let screen = d.screen();
    for column in [
        "Customer",
        "Type",
        "Status",
        "Jurisdiction",
        "Country",
        "Start",
        "End",
        "FEIN",
        "Sales tax ID",
    ] {
        assert!(screen.contains(column), "the {column} column: {screen}");
    }
    d.quit().await;
}

#[tokio::test]
async fn the_live_search_narrows_the_list_and_the_status_filter_shows_expired_ones() {
    let d = Dashboard::start(Options::default()).await;
    let (all, rows) = exemptions(&d, ExemptionFilter::default()).await;
    let name = rows
        .iter()
        .find_map(|e| e.customer_name.clone())
        .expect("a demo exemption with a customer name");
    let named = ExemptionFilter {
        search_query: Some(name.clone()),
        ..ExemptionFilter::default()
    };
    let (matches, _) = exemptions(&d, named).await;
    assert!(matches < all, "the search narrows the list");
    open_list(&d).await;

    // Sent as typed: no Enter needed.
    search_for(&d, &name, matches).await;
    assert!(d.screen().contains(&name));

    // Esc clears the search; Tab from the search line opens the filters.
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row 1 of {all} ")).await;
    let expired = ExemptionFilter {
        status_in: vec![ExemptionStatus::Expired],
        ..ExemptionFilter::default()
    };
    let (expired_total, expired_rows) = exemptions(&d, expired).await;
    assert!(
        expired_total > 0 && expired_total < all,
        "some have expired"
    );
    d.char('/');
    d.key(KeyCode::Tab);
    d.wait_for("none chosen for ACTIVE, INACTIVE and EXPIRED")
        .await;
    // The cursor starts on ACTIVE: → INACTIVE → EXPIRED, and space chooses it.
    d.key(KeyCode::Right);
    d.key(KeyCode::Right);
    d.char(' ');
    submit(&d);
    d.wait_for("Exemptions — EXPIRED").await;
    let screen = d.wait_for(&format!("row 1 of {expired_total} ")).await;
    assert!(screen.contains("EXPIRED"), "{screen}");
    assert!(!screen.contains(" ACTIVE "), "{screen}");
    assert!(
        expired_rows
            .iter()
            .all(|e| e.status == Some(ExemptionStatus::Expired))
    );
    d.quit().await;
}

#[tokio::test]
async fn an_end_before_the_start_sends_nothing_and_the_fixed_form_creates_it() {
    let d = Dashboard::start(Options {
        size: (120, 40),
        ..Options::default()
    })
    .await;
    let customers = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items;
    let customer = customers
        .iter()
        .find(|c| c.name.is_some() && c.company_name.is_none() && c.email.is_some())
        .expect("a demo customer with a name and an email")
        .clone();
    let (name, email) = (customer.name.unwrap(), customer.email.unwrap());
    let before = open_list(&d).await;

    d.char('n');
    d.wait_for("new exemption").await;
    // The email finds the customer, offered by name.
    d.type_text(&email);
    d.key(KeyCode::Tab);
    choose_only(&d, &name).await;
    d.key(KeyCode::Tab);
    d.key(KeyCode::Right); // customer
    d.key(KeyCode::Tab);
    d.key(KeyCode::Right); // ACTIVE
    d.key(KeyCode::Tab);
    d.type_text("us");
    d.key(KeyCode::Tab); // jurisdiction, left empty
    d.key(KeyCode::Tab);
    d.type_text("2025-06-01");
    d.key(KeyCode::Tab);
    d.type_text("2025-01-01");
    d.key(KeyCode::Tab);
    d.type_text("12-3456789");
    d.key(KeyCode::Tab);
    d.type_text("ST-LOOP-1");
    submit(&d);
    d.wait_for("End date must not be before start date").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("exemption_create_end_before_start", d.screen());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(total(&d).await, before, "nothing was sent");

    // The focus is on the end date, every value kept: fix it and send again.
    for _ in 0.."2025-01-01".len() {
        d.key(KeyCode::Backspace);
    }
    d.type_text("2026-06-01");
    submit(&d);
    d.wait_for("created.").await;
    let screen = d.wait_for("ST-LOOP-1").await;
    assert!(screen.contains("Attachments"), "the detail opens: {screen}");
    assert_eq!(total(&d).await, before + 1);
    let made = ExemptionFilter {
        search_query: Some(email.clone()),
        ..ExemptionFilter::default()
    };
    let (_, rows) = exemptions(&d, made).await;
    let created = rows
        .iter()
        .find(|e| e.sales_tax_id.as_deref() == Some("ST-LOOP-1"))
        .expect("the new exemption is listed");
    assert_eq!(created.customer_id.as_deref(), Some(customer.id.as_str()));
    assert_eq!(created.country_code.as_deref(), Some("US"));
    assert_eq!(
        created.end_date.map(|d| d.to_string()).as_deref(),
        Some("2026-06-01")
    );
    d.quit().await;
}

#[tokio::test]
async fn a_non_pdf_is_refused_and_a_pdf_found_by_tab_is_attached() {
    let d = Dashboard::start(Options::default()).await;
    let (_, rows) = exemptions(&d, ExemptionFilter::default()).await;
    let target = rows[0].id.clone();
    let files_before = d.client.list_attachments(&target).await.unwrap().len();
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.pdf");
    std::fs::write(&text, "just some notes").unwrap();
    let pdf = dir.path().join("valid-certificate.pdf");
    std::fs::write(&pdf, "%PDF-1.4\n%%EOF").unwrap();

    open_list(&d).await;
    search_for(&d, &target, 1).await;
    d.key(KeyCode::Enter);
    d.key(KeyCode::Enter);
    d.wait_for("Attachments").await;
    d.char('a');
    d.wait_for("tab completes").await;

    let typed = text.display().to_string();
    d.type_text(&typed);
    d.key(KeyCode::Enter);
    d.wait_for("must be a PDF").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let files = d.client.list_attachments(&target).await.unwrap();
    assert_eq!(files.len(), files_before, "nothing attached");

    // Back to the directory: Tab lists both files; then it completes the only one starting
    // with `va`.
    for _ in 0.."notes.pdf".len() {
        d.key(KeyCode::Backspace);
    }
    d.key(KeyCode::Tab);
    d.wait_for("2 matching paths (tab cycles)").await;
    d.type_text("va");
    d.key(KeyCode::Tab);
    let full = pdf.display().to_string();
    d.wait_until("the path completed", Duration::from_secs(10), |s| {
        s.contains(&full) && !s.contains("matching paths")
    })
    .await;
    d.key(KeyCode::Enter);
    d.wait_for("attached to").await;
    let files = d.client.list_attachments(&target).await.unwrap();
    assert_eq!(files.len(), files_before + 1);
    assert!(
        files
            .iter()
            .any(|f| f.file_name.as_deref() == Some("valid-certificate.pdf"))
    );
    // The detail's files were fetched again.
    d.wait_for("valid-certificate.pdf  application/pdf").await;
    d.quit().await;
}

#[tokio::test]
async fn read_only_only_flashes_on_writes() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    let all = open_list(&d).await;
    let screen = d.screen();
    assert!(
        !screen.contains("new exemption") && !screen.contains("attach certificate"),
        "writes are not offered: {screen}"
    );
    for key in ['n', 'e'] {
        d.char(key);
        d.wait_for("Read-only mode").await;
        // Long enough for a form to open, had the key opened one.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let screen = d.screen();
        assert!(
            screen.contains(&format!("row 1 of {all} ")),
            "the list stays: {screen}"
        );
        assert!(
            !screen.contains("Find customer") && !screen.contains("tab completes"),
            "no form: {screen}"
        );
    }
    d.char(':');
    d.type_text("attach");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!d.screen().contains("tab completes"));
    assert_eq!(total(&d).await, all);
    d.quit().await;
}

#[tokio::test]
async fn list_snapshot() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    open_list(&d).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("exemptions_list", d.screen());
    d.quit().await;
}

#[tokio::test]
async fn e_shows_the_exemptions_expiring_within_30_days() {
    use taxdash::model::filters::DateWindow;
    let d = Dashboard::start(Options::default()).await;
    open_list(&d).await;
    let today = crate::harness::TODAY;
    let expiring = ExemptionFilter {
        status_in: vec![ExemptionStatus::Active],
        ends: Some(DateWindow::new(
            Some(today),
            today.checked_add_days(chrono::Days::new(30)),
        )),
        ..ExemptionFilter::default()
    };
    let (checked, rows) = exemptions(&d, expiring.clone()).await;
    assert!(checked <= 100, "one page holds them");
    let kept = rows.iter().filter(|e| expiring.keeps(e)).count();
    assert!(kept > 0, "the demo has certificates running out soon");
    // The key is listed in the help.
    d.char('?');
    d.wait_for("expiring within 30 days").await;
    d.key(KeyCode::Esc);
    d.wait_until("the help to close", Duration::from_secs(5), |s| {
        !s.contains("Esc close")
    })
    .await;

    d.char('E');
    let screen = d
        .wait_for(&format!("ACTIVE: {kept} of {checked} exemptions checked"))
        .await;
    assert!(
        screen.contains(&format!(
            "expiring within 30 days (ending {today} to {})",
            today + chrono::Days::new(30)
        )),
        "{screen}"
    );
    d.wait_for(&format!("row 1 of {kept} ")).await;
    // Esc goes back to every exemption.
    d.key(KeyCode::Esc);
    d.wait_for("Exemptions — active, inactive and expired")
        .await;
    d.quit().await;
}

#[tokio::test]
async fn an_attached_certificate_is_saved_where_the_user_says_and_replaced_only_when_confirmed() {
    let d = Dashboard::start(Options::default()).await;
    let (_, rows) = exemptions(&d, ExemptionFilter::default()).await;
    let target = rows
        .iter()
        .find(|e| e.attachment_id.is_none())
        .expect("an exemption without a file")
        .id
        .clone();
    let uploaded = b"%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n".to_vec();
    d.client
        .upload_attachment(
            &target,
            taxdash::api::Upload::pdf("signed-certificate.pdf", uploaded.clone()),
        )
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("kept.pdf");

    open_list(&d).await;
    search_for(&d, &target, 1).await;
    d.key(KeyCode::Enter);
    d.key(KeyCode::Enter);
    d.wait_for("signed-certificate.pdf  application/pdf").await;
    let screen = d.screen();
    assert!(
        screen.contains("save certificate") && screen.contains("view certificate"),
        "the keys are offered: {screen}"
    );
    d.char('w');
    let screen = d.wait_for("Save to").await;
    assert!(
        screen.contains("signed-certificate.pdf"),
        "the file's own name is offered: {screen}"
    );
    for _ in 0..200 {
        d.key(KeyCode::Backspace);
    }
    d.type_text(&saved.display().to_string());
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Saved ").await;
    assert!(
        screen.contains(&saved.display().to_string()),
        "it says where: {screen}"
    );
    assert_eq!(std::fs::read(&saved).unwrap(), uploaded);

    // The same path again: refused, then replaced once the user saves again.
    std::fs::write(&saved, b"older").unwrap();
    d.char('w');
    d.wait_for("Save to").await;
    for _ in 0..200 {
        d.key(KeyCode::Backspace);
    }
    d.type_text(&saved.display().to_string());
    d.key(KeyCode::Enter);
    d.wait_for("save again to replace it").await;
    assert_eq!(std::fs::read(&saved).unwrap(), b"older", "not replaced yet");
    d.key(KeyCode::Enter);
    d.wait_for("Saved ").await;
    assert_eq!(std::fs::read(&saved).unwrap(), uploaded);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file is left behind");
    d.quit().await;
}
