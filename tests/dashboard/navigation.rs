//! Moving between related records through the real loop: the jump prefix (`g` then a letter)
//! lands on another tab with its list filtered to what relates to the record, and the jump
//! list (`ctrl-o` back, `ctrl-n` / `ctrl-i` forward) puts each tab back as it was.

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::{FilingFilter, RegistrationFilter, TransactionFilter};
use taxdash::model::{PageParams, Transaction};

use crate::harness::{Dashboard, Options};

fn back(d: &Dashboard) {
    d.key_with(KeyCode::Char('o'), KeyModifiers::CONTROL);
}

fn forward(d: &Dashboard) {
    d.key_with(KeyCode::Char('n'), KeyModifiers::CONTROL);
}

/// The jump prefix and a letter.
fn jump(d: &Dashboard, letter: char) {
    d.char('g');
    d.char(letter);
}

/// The title line of the pane (the line under the tabs).
fn title(screen: &str) -> &str {
    screen.lines().nth(2).unwrap_or_default()
}

/// Waits until the pane's title holds every one of `parts`.
async fn title_with(d: &Dashboard, parts: &[&str]) -> String {
    let what = parts.join(", ");
    d.wait_until(&what, std::time::Duration::from_secs(10), |s| {
        parts.iter().all(|p| title(s).contains(p))
    })
    .await
}

/// Waits until the `tab` pane shows its first row.
async fn loaded(d: &Dashboard, tab: &str) {
    d.wait_until(tab, std::time::Duration::from_secs(10), |s| {
        title(s).contains(tab) && s.contains("row 1 of")
    })
    .await;
}

/// A demo sale with a customer and a state.
async fn a_sale(d: &Dashboard) -> Transaction {
    let page = d
        .client
        .list_transactions(&TransactionFilter::default(), PageParams::new(1, 50))
        .await
        .unwrap();
    page.items
        .into_iter()
        .find(|t| {
            t.customer.as_ref().is_some_and(|c| c.name.is_some())
                && t.state.as_deref().is_some_and(|s| s.len() == 2)
        })
        .expect("a demo sale with a customer and a state")
}

/// Opens the Transactions tab narrowed to `sale` alone.
async fn show_sale(d: &Dashboard, sale: &Transaction) {
    d.wait_for("row 1 of").await;
    d.char('6');
    d.wait_for("last 12 months").await;
    d.char('/');
    d.wait_for("part of an external id").await;
    d.type_text(&sale.external_id);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("matching \"{}\"", sale.external_id))
        .await;
    d.wait_for("row 1 of 1 ").await;
}

#[tokio::test]
async fn a_transaction_leads_to_its_customer_exemptions_and_state() {
    let d = Dashboard::start(Options::default()).await;
    let sale = a_sale(&d).await;
    let state = sale.state.clone().unwrap();
    let customer = sale.customer.clone().unwrap();
    show_sale(&d, &sale).await;

    // The prefix shows the letters this record offers.
    d.char('g');
    let screen = d.wait_for("its customer").await;
    for hint in ["its exemptions", "its state's filings", "its state's nexus"] {
        assert!(screen.contains(hint), "{hint} offered: {screen}");
    }
    d.key(KeyCode::Esc);

    let state_filter = format!("state {state}");
    jump(&d, 'r');
    title_with(&d, &["Registrations", &state_filter]).await;
    back(&d);
    title_with(&d, &["Transactions", &sale.external_id]).await;
    d.wait_for("row 1 of 1 ").await;

    jump(&d, 'n');
    title_with(&d, &["Nexus", &state_filter]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    jump(&d, 'f');
    title_with(&d, &["Filings", &state_filter]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    jump(&d, 'e');
    title_with(&d, &["Exemptions", &format!("customer {}", customer.id)]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    // The customer: the list searched for the name, the customer's detail open.
    jump(&d, 'c');
    let name = customer.name.clone().unwrap();
    let screen = d.wait_for(&customer.id).await;
    assert!(title(&screen).contains("Customers"), "{screen}");
    d.key(KeyCode::Esc);
    title_with(&d, &["Customers", &format!("matching \"{name}\"")]).await;
    d.quit().await;
}

#[tokio::test]
async fn the_jump_list_puts_back_the_cursor_the_filter_and_the_detail() {
    let d = Dashboard::start(Options::default()).await;
    let all = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    d.wait_for(&format!("row 1 of {all} ")).await;
    for _ in 0..3 {
        d.char('j');
    }
    d.wait_for(&format!("row 4 of {all} ")).await;

    jump(&d, 'f');
    let filings = title_with(&d, &["Filings", "state "]).await;
    let filings_title = title(&filings).to_owned();
    back(&d);
    let screen = title_with(&d, &["Registrations", "all registrations"]).await;
    assert!(!title(&screen).contains("state "), "{screen}");
    d.wait_for(&format!("row 4 of {all} ")).await;

    // Forward again: the filings of that state, as they were left.
    forward(&d);
    let again = title_with(&d, &["Filings", "state "]).await;
    assert_eq!(title(&again), filings_title);
    back(&d);
    d.wait_for(&format!("row 4 of {all} ")).await;

    // With the detail open: back comes back to the detail.
    d.key(KeyCode::Enter);
    let detail = d.wait_for("Identity").await;
    jump(&d, 'n');
    title_with(&d, &["Nexus", "state "]).await;
    back(&d);
    let again = d.wait_for("Identity").await;
    assert_eq!(title(&again), title(&detail), "the same record's detail");
    // Going back again past the detail: the list as it was, and forward once more.
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row 4 of {all} ")).await;
    back(&d);
    d.wait_for("no earlier place").await;
    forward(&d);
    title_with(&d, &["Nexus", "state "]).await;
    d.quit().await;
}

#[tokio::test]
async fn a_filing_leads_to_the_sales_of_its_period_and_state() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('7');
    d.wait_for("file_demo").await;
    jump(&d, 't');
    let screen = title_with(&d, &["Transactions", "state "]).await;
    let title = title(&screen).to_owned();
    let state = title
        .split("state ")
        .nth(1)
        .and_then(|rest| rest.get(..2))
        .expect("a state in the title")
        .to_owned();
    let filings = d
        .client
        .list_filings(
            &FilingFilter {
                state_code: Some(state.clone()),
                ..FilingFilter::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .items;
    assert!(
        filings
            .iter()
            .any(|f| title.contains(&format!("{} to {}", f.start_date, f.end_date))),
        "the period of one of {state}'s filings: {title}"
    );
    back(&d);
    loaded(&d, "Filings").await;

    // Its registration: the registrations of its state.
    jump(&d, 'r');
    title_with(&d, &["Registrations", "state "]).await;
    d.quit().await;
}

#[tokio::test]
async fn a_relation_the_service_cannot_filter_is_said_not_listed() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('5');
    loaded(&d, "Customers").await;
    jump(&d, 't');
    let screen = d.wait_for("no customer filter").await;
    assert!(title(&screen).contains("Customers"), "{screen}");

    // Their exemptions are listed by customer.
    jump(&d, 'e');
    title_with(&d, &["Exemptions", "customer cust_"]).await;
    // An exemption's customer.
    loaded(&d, "Exemptions").await;
    jump(&d, 'c');
    title_with(&d, &["Customers", "matching"]).await;
    d.quit().await;
}
