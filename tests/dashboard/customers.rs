//! The Customers pane through the real loop: the list and its search, the detail with its tax
//! registrations, the new-customer form, the tax registration form, and read-only mode.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::CustomerFilter;
use taxdash::model::{Customer, CustomerTaxType, PageParams};

use crate::harness::{Dashboard, Options};

/// Switches to the Customers tab with its number key.
fn open_tab(d: &Dashboard) {
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Customers")
        .expect("a Customers tab")
        + 1;
    let key = char::from_digit(number as u32, 10).expect("a tab number key");
    d.char(key);
}

/// The customers the service lists for `filter` (the first hundred, in the list's order).
async fn customers(d: &Dashboard, filter: CustomerFilter) -> (u64, Vec<Customer>) {
    let page = d
        .client
        .list_customers(&filter, PageParams::new(1, 100))
        .await
        .unwrap();
    (page.total, page.items)
}

async fn total(d: &Dashboard) -> u64 {
    customers(d, CustomerFilter::default()).await.0
}

fn search(query: &str) -> CustomerFilter {
    CustomerFilter {
        search_query: Some(query.into()),
        ..CustomerFilter::default()
    }
}

fn submit(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

/// Opens the Customers tab and waits for its whole list.
async fn open_list(d: &Dashboard) {
    let all = total(d).await;
    open_tab(d);
    d.wait_until("the customer list", Duration::from_secs(10), |s| {
        s.contains("Customers — all customers") && s.contains(&format!("row 1 of {all} "))
    })
    .await;
}

/// Searches the list with `/` and waits for the `rows` matches.
async fn search_for(d: &Dashboard, query: &str, rows: u64) {
    d.char('/');
    d.wait_for("Search").await;
    d.type_text(query);
    submit(d);
    d.wait_for(&format!("matching \"{query}\"")).await;
    d.wait_for(&format!("row 1 of {rows} ")).await;
}

#[tokio::test]
async fn the_tab_lists_every_customer() {
    let d = Dashboard::start(Options::default()).await;
    open_list(&d).await;
    let screen = d.screen();
    for column in [
        "Name", "Company", "Email", "Country", "State", "Status", "Source",
    ] {
        assert!(screen.contains(column), "the {column} column: {screen}");
    }
    d.quit().await;
}

#[tokio::test]
async fn search_narrows_the_list_and_the_detail_shows_tax_registrations() {
    let d = Dashboard::start(Options::default()).await;
    let (_, first) = customers(&d, CustomerFilter::default()).await;
    let known = first
        .iter()
        .find(|c| {
            c.name.is_some()
                && c.customer_tax_registrations
                    .as_ref()
                    .is_some_and(|r| !r.is_empty())
        })
        .expect("a demo customer with tax registrations")
        .clone();
    let name = known.name.clone().unwrap();
    let (matches, rows) = customers(&d, search(&name)).await;
    assert!(matches < total(&d).await, "the search narrows the list");
    open_list(&d).await;

    search_for(&d, &name, matches).await;
    let screen = d.screen();
    assert!(screen.contains(&name), "{screen}");

    // Open the known customer among those of the same name.
    let index = rows.iter().position(|c| c.id == known.id).unwrap();
    for _ in 0..index {
        d.char('j');
    }
    d.key(KeyCode::Enter);
    d.wait_for(&known.id).await;
    let mut seen = String::new();
    for _ in 0..4 {
        seen.push_str(&d.screen());
        d.key(KeyCode::PageDown);
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    for section in ["Identity", "Contact", "Address", "Tax registrations"] {
        assert!(seen.contains(section), "the {section} section: {seen}");
    }
    for r in known.customer_tax_registrations.as_deref().unwrap() {
        let valid = if r.is_valid { "yes" } else { "no" };
        let line = format!(
            "{}  {}  {}  valid {valid}",
            r.country_code, r.tax_type, r.tax_id
        );
        assert!(seen.contains(&line), "{line} is shown: {seen}");
    }

    // Back to the narrowed list.
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row {} of {matches} ", index + 1))
        .await;
    d.quit().await;
}

#[tokio::test]
async fn a_bad_email_sends_nothing_and_a_good_one_creates_the_customer() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    open_list(&d).await;
    let before = total(&d).await;

    d.char('n');
    d.wait_for("new customer").await;
    d.type_text("Zed Tester");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("zed@");
    submit(&d);
    d.wait_for("Email must be an email address").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("customer_create_bad_email", d.screen());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(total(&d).await, before, "nothing was sent");

    // The focus is on the email, every value kept: finish it and send again.
    d.type_text("example.com");
    submit(&d);
    d.wait_for("Customer Zed Tester created.").await;
    let screen = d.wait_for("zed@example.com").await;
    assert!(screen.contains("Identity"), "the detail opens: {screen}");
    assert_eq!(total(&d).await, before + 1);
    let (found, rows) = customers(&d, search("zed@example.com")).await;
    assert_eq!(found, 1);
    assert_eq!(rows[0].name.as_deref(), Some("Zed Tester"));
    assert!(screen.contains(&rows[0].id), "{screen}");

    // Back on the list, which was reloaded with the new customer.
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row 1 of {} ", before + 1)).await;
    d.quit().await;
}

#[tokio::test]
async fn a_second_gst_hst_number_replaces_the_first() {
    let d = Dashboard::start(Options::default()).await;
    let canadian = CustomerFilter {
        country: vec!["CA".into()],
        ..CustomerFilter::default()
    };
    let (_, rows) = customers(&d, canadian).await;
    let customer = rows.first().expect("a Canadian demo customer").clone();
    let gst_hst = |c: &Customer| {
        c.customer_tax_registrations
            .iter()
            .flatten()
            .filter(|r| r.tax_type == CustomerTaxType::GstHst)
            .count()
    };
    let registrations = |c: &Customer| c.customer_tax_registrations.iter().flatten().count();
    let had = registrations(&customer) - gst_hst(&customer);
    open_list(&d).await;
    search_for(&d, &customer.id, 1).await;

    // From the list: the form, then the detail showing the new number.
    d.char('t');
    d.wait_for("Tax ID").await;
    d.type_text("123456789RT0001");
    d.key(KeyCode::Enter);
    d.wait_for("CA  gst_hst  123456789RT0001  valid yes").await;
    let saved = d.client.get_customer(&customer.id).await.unwrap();
    assert_eq!(gst_hst(&saved), 1);

    // From the detail: a second number takes the first one's place.
    d.char('t');
    d.wait_for("Tax ID").await;
    d.type_text("987654321RT0001");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("CA  gst_hst  987654321RT0001  valid yes").await;
    assert!(!screen.contains("123456789RT0001"), "replaced: {screen}");
    let saved = d.client.get_customer(&customer.id).await.unwrap();
    assert_eq!(gst_hst(&saved), 1, "replaced, not added");
    assert_eq!(registrations(&saved), had + 1);
    d.quit().await;
}

#[tokio::test]
async fn a_blank_tax_id_is_refused_and_closing_asks_first() {
    let d = Dashboard::start(Options::default()).await;
    open_list(&d).await;
    d.char('t');
    d.wait_for("Tax ID").await;
    d.type_text("  ");
    submit(&d);
    d.wait_for("Tax ID must not be blank").await;
    d.key(KeyCode::Esc);
    d.wait_for("Discard").await;
    d.char('y');
    d.wait_until("the form to close", Duration::from_secs(5), |s| {
        s.contains("all customers") && !s.contains("Tax ID")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn read_only_refuses_every_write() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    open_list(&d).await;
    let screen = d.screen();
    assert!(
        !screen.contains("new customer") && !screen.contains("tax registration"),
        "writes are not offered: {screen}"
    );
    let before = total(&d).await;
    d.char('n');
    let screen = d.wait_for("Read-only mode").await;
    assert!(screen.contains("all customers"), "no form: {screen}");
    assert!(!screen.contains("Postal code"), "{screen}");
    d.char(':');
    d.type_text("new");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let screen = d.screen();
    assert!(!screen.contains("new customer"), "{screen}");
    assert_eq!(total(&d).await, before);
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
    insta::assert_snapshot!("customers_list", d.screen());
    d.quit().await;
}
