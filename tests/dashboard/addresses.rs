//! Addresses through the real loop: the address check in the physical nexus form, and the
//! address queue of the Customers tab with a customer's address fixed from it, and a
//! transaction's edit (refused for a filed one).

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;
use taxdash::model::filters::{CustomerFilter, PhysicalNexusFilter, TransactionFilter};
use taxdash::model::{
    AddressFields, AddressStatus, Customer, CustomerWrite, PageParams, ProcessingStatus,
    TransactionCreate,
};

use crate::harness::{Dashboard, Options};

fn ctrl(d: &Dashboard, c: char) {
    d.key_with(KeyCode::Char(c), KeyModifiers::CONTROL);
}

fn tab(d: &Dashboard, n: usize) {
    (0..n).for_each(|_| d.key(KeyCode::Tab));
}

/// The line of `screen` holding `text`.
fn line_with<'s>(screen: &'s str, text: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line with {text:?}:\n{screen}"))
}

#[tokio::test]
async fn an_address_is_checked_and_a_suggestion_taken_in_the_physical_nexus_form() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('3');
    d.wait_for("Physical").await;
    d.char('n');
    d.wait_for("New physical nexus").await;
    d.wait_for("Address: not checked").await;
    d.type_text("US");
    tab(&d, 1);
    d.type_text("CO");
    tab(&d, 1);
    d.type_text("2025-03-01");
    tab(&d, 2);
    for _ in 0..50 {
        if !d.screen().contains("nothing chosen") {
            break;
        }
        d.key(KeyCode::Right);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tab(&d, 1);
    d.type_text("1600 Glenarm Pl");
    tab(&d, 2);
    d.type_text("Denver");
    tab(&d, 1);
    // Not Denver's ZIP code.
    d.type_text("80302");

    ctrl(&d, 'l');
    let screen = d.wait_for("ctrl-t takes it").await;
    assert!(
        line_with(&screen, "Address:").contains("PARTIALLY_VERIFIED"),
        "{screen}"
    );
    let offered = line_with(&screen, "› 1600");
    assert!(
        offered.contains("DENVER") && offered.contains("80202"),
        "{screen}"
    );

    ctrl(&d, 't');
    d.wait_for("Address taken").await;
    ctrl(&d, 'l');
    let screen = d.wait_for("Address: VERIFIED").await;
    assert!(
        screen.contains("New physical nexus"),
        "the form stays: {screen}"
    );

    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for("Saved physical nexus").await;
    let saved = d
        .client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items
        .into_iter()
        .find(|p| p.street_1.as_deref() == Some("1600 GLENARM PL"))
        .expect("the record saved with the address taken");
    assert_eq!(saved.postal_code.as_deref(), Some("80202"));
    assert_eq!(saved.city.as_deref(), Some("DENVER"));
    d.quit().await;
}

/// Every customer the service lists.
async fn all_customers(d: &Dashboard) -> Vec<Customer> {
    let mut all = Vec::new();
    for page in 1.. {
        let got = d
            .client
            .list_customers(&CustomerFilter::default(), PageParams::new(page, 100))
            .await
            .unwrap();
        let done = got.items.len() < 100;
        all.extend(got.items);
        if done {
            break;
        }
    }
    all
}

fn command(d: &Dashboard, name: &str) {
    d.char(':');
    d.type_text(name);
    d.key(KeyCode::Enter);
}

#[tokio::test]
async fn the_address_queue_lists_only_problem_addresses_and_a_fix_updates_the_customer() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    // One customer given an address whose ZIP code is not its city's.
    let all = all_customers(&d).await;
    let chosen = all
        .iter()
        .find(|c| c.name.as_deref().is_some_and(|n| n.len() > 4))
        .expect("a named customer")
        .clone();
    let wrong = CustomerWrite {
        address: AddressFields {
            street_1: Some("1600 Glenarm Pl".into()),
            city: Some("Denver".into()),
            state: Some("CO".into()),
            postal_code: Some("80302".into()),
            country: Some("US".into()),
            ..AddressFields::default()
        },
        ..CustomerWrite::default()
    };
    let moved = d.client.update_customer(&chosen.id, &wrong).await.unwrap();
    assert_eq!(moved.address_status, Some(AddressStatus::PartiallyVerified));
    let all = all_customers(&d).await;
    let queued = all
        .iter()
        .filter(|c| {
            c.address_status
                .as_ref()
                .is_some_and(|s| AddressStatus::NEEDS_FIXING.contains(s))
        })
        .count();
    assert!(queued < all.len(), "the demo has good addresses too");

    let tab = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Customers")
        .expect("a Customers tab")
        + 1;
    d.char(char::from_digit(u32::try_from(tab).unwrap(), 10).unwrap());
    d.wait_for(&format!("row 1 of {} ", all.len())).await;
    command(&d, "addresses");
    let screen = d.wait_for(&format!(" of {queued} ")).await;
    assert!(
        screen.contains("address INVALID or UNVERIFIED or PARTIALLY_VERIFIED or BLANK"),
        "{screen}"
    );

    // Filterable: the search narrows the queue to the customer.
    let name = chosen.name.clone().unwrap();
    d.char('/');
    d.wait_for("Address status").await;
    d.type_text(&name);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("matching \"{name}\"")).await;
    d.wait_for("row 1 of 1 ").await;
    d.key(KeyCode::Enter);
    d.wait_for("Address status").await;

    command(&d, "fix-address");
    let screen = d.wait_for("ctrl-t takes it").await;
    assert!(
        line_with(&screen, "Address:").contains("PARTIALLY_VERIFIED"),
        "{screen}"
    );
    assert!(line_with(&screen, "› 1600").contains("80202"), "{screen}");
    ctrl(&d, 't');
    d.wait_for("Address taken").await;
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    let screen = d.wait_for("Address of").await;
    assert!(screen.contains("(VERIFIED)"), "{screen}");
    let fixed = d.client.get_customer(&chosen.id).await.unwrap();
    assert_eq!(fixed.address.postal_code.as_deref(), Some("80202"));
    assert_eq!(fixed.address_status, Some(AddressStatus::Verified));

    // The Transactions tab's queue is the service's own address status filter.
    let problems = TransactionFilter {
        address_status_in: AddressStatus::NEEDS_FIXING.to_vec(),
        ..TransactionFilter::default()
    };
    let total = d
        .client
        .list_transactions(&problems, PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    let tab = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Transactions")
        .expect("a Transactions tab")
        + 1;
    d.char(char::from_digit(u32::try_from(tab).unwrap(), 10).unwrap());
    d.wait_for("Transactions — last 12 months").await;
    command(&d, "addresses");
    d.wait_for("address INVALID or UNVERIFIED or PARTIALLY_VERIFIED or BLANK")
        .await;
    d.wait_for(&format!(" of {} ", taxdash::ui::text::thousands(total)))
        .await;
    d.quit().await;
}

/// Opens the Transactions tab, shows only the transaction `external_id` and opens its detail.
async fn open_transaction(d: &Dashboard, external_id: &str) {
    let tab = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Transactions")
        .expect("a Transactions tab")
        + 1;
    d.char(char::from_digit(u32::try_from(tab).unwrap(), 10).unwrap());
    d.wait_for("Transactions — last 12 months").await;
    d.char('/');
    d.wait_for("part of an external id").await;
    (0..40).for_each(|_| d.key(KeyCode::Backspace));
    d.type_text(external_id);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for("row 1 of 1 ").await;
    d.key(KeyCode::Enter);
    d.wait_for("Tax calculated").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test]
async fn a_filed_transaction_is_not_edited_and_an_open_one_is() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    let filed = d
        .client
        .list_transactions(
            &TransactionFilter {
                processing_status_in: vec![ProcessingStatus::FilingDone],
                ..TransactionFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .items
        .pop()
        .expect("a filed demo transaction");
    open_transaction(&d, &filed.external_id).await;
    d.char('e');
    let screen = d.wait_for("nothing was sent").await;
    assert!(screen.contains("cannot be changed"), "{screen}");
    assert!(!screen.contains("Ship-to street"), "no form: {screen}");
    let after = d.client.get_transaction(&filed.id).await.unwrap();
    assert_eq!(after.description, filed.description);
    d.key(KeyCode::Esc);

    let body: TransactionCreate = serde_json::from_value(json!({
        "external_id": "ord-edit-1", "date": chrono::Utc::now().to_rfc3339(), "type": "SALE",
        "currency": "USD", "customer": {"name": "Ada Lovelace", "external_id": "cust-ada"},
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin",
                       "state": "TX", "postal_code": "78701", "country": "US"}],
        "transaction_items": [{"external_id": "l1", "date": chrono::Utc::now().to_rfc3339(),
                               "external_product_id": "prod_sku_kbd", "quantity": 1,
                               "amount": "129.00"}]
    }))
    .unwrap();
    let open = d.client.create_transaction(&body).await.unwrap();
    open_transaction(&d, "ord-edit-1").await;
    d.char('e');
    d.wait_for("Ship-to street").await;
    tab(&d, 1);
    d.type_text("Corrected order");
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for("Transaction ord-edit-1 saved.").await;
    let edited = d.client.get_transaction(&open.id).await.unwrap();
    assert_eq!(edited.description.as_deref(), Some("Corrected order"));
    assert_eq!(edited.transaction_items.len(), 1, "the line kept");
    assert_eq!(edited.state.as_deref(), Some("TX"));
    d.quit().await;
}
