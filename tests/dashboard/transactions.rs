//! The Transactions pane through the real loop: the list and its filters, the detail with its
//! items and taxes, a new sale's tax shown as pending until the detail refreshes itself, the
//! credit note form, `:estimate` and `:terms`.

use std::time::Duration;

use chrono::{Days, Utc};
use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;
use taxdash::model::filters::TransactionFilter;
use taxdash::model::{PageParams, Transaction, TransactionCreate};
use taxdash::sandbox::SandboxConfig;
use taxdash::ui::text::thousands;

use crate::harness::{Dashboard, Options};

/// How many transactions the service lists for `filter`.
async fn total(d: &Dashboard, filter: &TransactionFilter) -> u64 {
    d.client
        .list_transactions(filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

/// Switches to the Transactions tab and waits for the default list.
async fn open_transactions(d: &Dashboard) -> String {
    let n = total(d, &TransactionFilter::default()).await;
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Transactions")
        .expect("a Transactions tab")
        + 1;
    d.wait_for("row 1 of").await;
    d.char(char::from_digit(number as u32, 10).expect("a tab number key"));
    d.wait_for(&format!("row 1 of {} ", thousands(n))).await
}

fn save(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

fn tab(d: &Dashboard, n: usize) {
    (0..n).for_each(|_| d.key(KeyCode::Tab));
}

fn clear(d: &Dashboard, n: usize) {
    (0..n).for_each(|_| d.key(KeyCode::Backspace));
}

/// A sale in Texas dated now, as a shop would send it.
fn sale(external_id: &str) -> TransactionCreate {
    serde_json::from_value(json!({
        "external_id": external_id, "date": Utc::now().to_rfc3339(), "type": "SALE",
        "currency": "USD",
        "customer": {"name": "Ada Lovelace", "email": "ada@example.com", "external_id": "cust-ada"},
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin",
                       "state": "TX", "postal_code": "78701", "country": "US"}],
        "transaction_items": [{"external_id": "l1", "date": Utc::now().to_rfc3339(),
                               "external_product_id": "prod_sku_kbd", "quantity": 1,
                               "amount": "129.00"}]
    }))
    .expect("a sale")
}

/// Opens the `/` form and types `search` into its first field.
async fn search_for(d: &Dashboard, search: &str) {
    d.char('/');
    d.wait_for("part of an external id").await;
    d.type_text(search);
}

/// Submits the search and waits for its single row.
async fn show_only(d: &Dashboard, search: &str) -> String {
    save(d);
    d.wait_for(&format!("matching \"{search}\"")).await;
    d.wait_for("row 1 of 1 ").await
}

async fn sandbox_with_delay(delay: Duration, read_only: bool) -> Dashboard {
    Dashboard::start(Options {
        sandbox: SandboxConfig {
            processing_delay: delay,
            ..SandboxConfig::default()
        },
        read_only,
        ..Options::default()
    })
    .await
}

#[tokio::test]
async fn the_list_filters_by_state_and_dates_and_opens_a_detail() {
    let d = Dashboard::start(Options::default()).await;
    let screen = open_transactions(&d).await;
    assert!(
        screen.contains("last 12 months"),
        "the default window is said: {screen}"
    );
    assert!(
        screen.contains("Processing") && screen.contains("Total"),
        "{screen}"
    );

    let today = Utc::now().date_naive();
    let (from, to) = (today - Days::new(60), today - Days::new(30));
    let filter = TransactionFilter {
        state_code: Some("TX".into()),
        date_from: Some(from),
        date_to: Some(to),
        ..TransactionFilter::default()
    };
    let n = total(&d, &filter).await;
    assert!(n > 0, "demo sales in Texas in that month");
    search_for(&d, "").await;
    tab(&d, 1);
    d.type_text(&from.to_string());
    tab(&d, 1);
    d.type_text(&to.to_string());
    tab(&d, 6);
    d.type_text("tx");
    save(&d);
    d.wait_for(&format!("{from} to {to}, state TX")).await;
    let screen = d.wait_for(&format!("row 1 of {} ", thousands(n))).await;
    assert!(!screen.contains("last 12 months"), "{screen}");
    assert!(screen.contains("TX, US"), "{screen}");

    d.key(KeyCode::Enter);
    let screen = d.wait_for("Tax calculated").await;
    assert!(screen.contains(" USD"), "amounts are money: {screen}");
    d.char('G');
    let screen = d
        .wait_until("the items and their taxes", Duration::from_secs(10), |s| {
            s.contains("Item ") && s.contains("Tax item")
        })
        .await;
    assert!(screen.contains("Quantity"), "{screen}");
    d.key(KeyCode::Esc);
    d.wait_for("state TX").await;
    d.quit().await;
}

#[tokio::test]
async fn a_new_sale_shows_pending_tax_until_the_detail_refreshes_itself() {
    let d = sandbox_with_delay(Duration::from_millis(1500), false).await;
    open_transactions(&d).await;
    search_for(&d, "ord-dash-pending").await;
    let created = d
        .client
        .create_transaction(&sale("ord-dash-pending"))
        .await
        .unwrap();
    assert!(!created.tax_is_calculated());
    show_only(&d, "ord-dash-pending").await;
    d.key(KeyCode::Enter);
    let screen = d.wait_for("pending (the service").await;
    assert!(screen.contains("129.00 USD"), "{screen}");
    let screen = d
        .wait_until("the calculated tax", Duration::from_secs(10), |s| {
            s.contains("PROCESSED") && !s.contains("pending (the service")
        })
        .await;
    assert!(screen.contains("Tax calculated      8.06 USD"), "{screen}");
    d.char('G');
    d.wait_for("Tax item").await;
    d.quit().await;
}

#[tokio::test]
async fn a_credit_note_is_refused_by_its_rules_then_issued() {
    let d = sandbox_with_delay(Duration::from_millis(100), false).await;
    let created: Transaction = d
        .client
        .create_transaction(&sale("ord-dash-credit"))
        .await
        .unwrap();
    let sale_id = created.id.clone();
    open_transactions(&d).await;
    search_for(&d, "ord-dash-credit").await;
    show_only(&d, "ord-dash-credit").await;
    d.char('c');
    d.wait_for("Credit note total: 129.00 USD").await;

    // A currency outside the list: refused under its field, nothing sent.
    tab(&d, 3);
    clear(&d, 3);
    d.type_text("XYZ");
    save(&d);
    d.wait_for("ISO 4217").await;
    // A discount as large as the amount.
    clear(&d, 3);
    d.type_text("USD");
    tab(&d, 5);
    d.type_text("500");
    save(&d);
    d.wait_for("must be less than the item's amount").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sale = d.client.get_transaction(&sale_id).await.unwrap();
    assert_eq!(sale.refund_status, None, "nothing was sent");

    // A partial credit: 20 of the 129.
    clear(&d, 3);
    d.key(KeyCode::Up);
    clear(&d, 10);
    d.type_text("20.00");
    d.wait_for("Credit note total: 20.00 USD").await;
    save(&d);
    let screen = d.wait_for("PARTIAL_CREDIT_NOTE").await;
    assert!(screen.contains("ord-dash-credit-credit"), "{screen}");
    assert!(screen.contains(&sale_id), "related to the sale: {screen}");
    d.quit().await;
}

/// A credit note of 20.00 on the sale's keyboard line, in `status`.
fn credit_of(external_id: &str, status: &str) -> taxdash::model::CreditNoteRequest {
    serde_json::from_value(json!({
        "external_id": external_id, "date": Utc::now().to_rfc3339(), "status": status,
        "total_amount": "20.00", "currency": "USD",
        "transaction_items": [{"external_id": "l1", "date": Utc::now().to_rfc3339(),
                               "external_product_id": "prod_sku_kbd", "quantity": 1,
                               "amount": "20.00"}]
    }))
    .expect("a credit note")
}

#[tokio::test]
async fn a_pending_credit_note_is_edited_and_a_committed_one_says_why_not() {
    let d = sandbox_with_delay(Duration::from_millis(100), false).await;
    let created: Transaction = d
        .client
        .create_transaction(&sale("ord-dash-cn-edit"))
        .await
        .unwrap();
    let pending = d
        .client
        .create_credit_note(&created.id, &credit_of("cn-dash-pending", "PENDING"))
        .await
        .unwrap();
    let committed = d
        .client
        .create_credit_note(&created.id, &credit_of("cn-dash-committed", "COMMITTED"))
        .await
        .unwrap();
    open_transactions(&d).await;

    // A committed credit note: why it cannot be edited, nothing sent.
    search_for(&d, "cn-dash-committed").await;
    show_only(&d, "cn-dash-committed").await;
    d.key(KeyCode::Enter);
    d.wait_for("Credit note of").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    d.char('e');
    d.wait_for("Only a pending credit note can be changed")
        .await;
    let screen = d.wait_for("nothing was sent").await;
    assert!(!screen.contains("Credit note total"), "{screen}");
    let unchanged = d.client.get_transaction(&committed.id).await.unwrap();
    assert_eq!(unchanged.total_amount, committed.total_amount);

    // The pending one: its form holds the note's own values; a line over what the sale has
    // left is refused at its field, then a change within it is saved.
    d.key(KeyCode::Esc);
    search_for(&d, "").await;
    clear(&d, 20);
    d.type_text("cn-dash-pending");
    show_only(&d, "cn-dash-pending").await;
    d.key(KeyCode::Enter);
    d.wait_for("Credit note of").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    d.char('e');
    let screen = d
        .wait_for("editing a credit note against ord-dash-cn-edit")
        .await;
    assert!(screen.contains("Credit note total: 20.00 USD"), "{screen}");
    assert!(screen.contains("cn-dash-pending"), "{screen}");
    tab(&d, 7);
    clear(&d, 10);
    d.type_text("130.00");
    save(&d);
    d.wait_for("more than the").await;
    clear(&d, 10);
    d.type_text("35.00");
    d.wait_for("Credit note total: 35.00 USD").await;
    save(&d);
    d.wait_for("Credit note cn-dash-pending saved").await;
    let saved = d.client.get_transaction(&pending.id).await.unwrap();
    assert_eq!(
        saved.total_amount,
        Some(rust_decimal::Decimal::new(3500, 2))
    );
    assert_eq!(saved.transaction_items.len(), 1);
    assert_eq!(
        saved.transaction_items[0].amount,
        Some(rust_decimal::Decimal::new(3500, 2))
    );
    d.quit().await;
}

#[tokio::test]
async fn estimate_and_terms_work_in_read_only_mode() {
    let d = sandbox_with_delay(Duration::from_millis(100), true).await;
    open_transactions(&d).await;
    d.char('c');
    let screen = d.wait_for("Read-only mode").await;
    assert!(!screen.contains("Credit note total"), "{screen}");

    d.char(':');
    d.type_text("estimate");
    d.key(KeyCode::Enter);
    d.wait_for("Ship-to state").await;
    tab(&d, 2);
    d.type_text("TX");
    tab(&d, 1);
    d.type_text("78701");
    tab(&d, 4);
    d.type_text("100.00");
    save(&d);
    let screen = d.wait_for("Total tax").await;
    let line = screen
        .lines()
        .find(|l| l.contains("Total tax"))
        .unwrap_or_default();
    assert!(line.contains(" USD"), "a tax amount: {screen}");
    assert!(screen.contains("Item 1"), "{screen}");

    d.key(KeyCode::Esc);
    d.wait_for("Ship-to state").await;
    d.key(KeyCode::Esc);
    d.key(KeyCode::Char('y'));
    d.char(':');
    d.type_text("terms");
    d.key(KeyCode::Enter);
    d.wait_for("Penalties and interest").await;
    d.quit().await;
}

#[tokio::test]
async fn the_filter_form() {
    let d = Dashboard::start(Options::default()).await;
    open_transactions(&d).await;
    d.char('/');
    d.wait_for("part of an external id").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("transactions_filter", d.screen());
    d.key(KeyCode::Esc);
    d.quit().await;
}

#[tokio::test]
async fn transactions_open_newest_first() {
    use taxdash::model::filters::Sort;
    let d = Dashboard::start(Options::default()).await;
    let newest = TransactionFilter {
        order_by: vec![Sort::desc("date")],
        ..TransactionFilter::default()
    };
    let first = d
        .client
        .list_transactions(&newest, PageParams::new(1, 3))
        .await
        .unwrap()
        .items;
    let screen = open_transactions(&d).await;
    assert!(
        screen.contains("(the service's default), sorted by date ▼"),
        "{screen}"
    );
    assert!(screen.contains("Date ▼"), "the sort indicator: {screen}");
    // The first row (after the header, tabs, box top and column titles) is the newest.
    let row = screen.lines().nth(4).unwrap_or_default();
    assert!(row.contains(&first[0].external_id), "{row}\n{screen}");
    d.quit().await;
}

/// The list at a wide and a middling terminal: columns as wide as what they hold (ids whole),
/// no band of blanks inside the table.
#[tokio::test]
async fn list_widths_follow_the_content_at_200_and_120_columns() {
    for (size, name) in [
        ((200, 50), "transactions_list_200x50"),
        ((120, 40), "transactions_list_120x40"),
    ] {
        let d = Dashboard::start(Options {
            size,
            ..Options::default()
        })
        .await;
        open_transactions(&d).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        insta::assert_snapshot!(name, d.screen());
        d.quit().await;
    }
}
