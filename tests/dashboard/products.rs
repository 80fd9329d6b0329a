//! The Products pane through the real loop: the list with its marks and filters, "needs
//! classification" on one key, the new-product form offering only the chosen category's
//! subcategories and sending nothing without them, classifying a product (approved, off the list
//! needing classification), and an edit sending the fields the service requires and the change.

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::ProductFilter;
use taxdash::model::{PageParams, ProductStatus};

use crate::harness::{Dashboard, Options};
use crate::relay::{Relay, Writes};

/// Switches to the Products tab with its number key.
fn open_tab(d: &Dashboard) {
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Products")
        .expect("a Products tab")
        + 1;
    let key = char::from_digit(number as u32, 10).expect("a tab number key");
    d.char(key);
}

async fn total(d: &Dashboard, filter: &ProductFilter) -> u64 {
    d.client
        .list_products(filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

fn submit(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

async fn open_list(d: &Dashboard) -> u64 {
    let all = total(d, &ProductFilter::default()).await;
    open_tab(d);
    d.wait_until("the product list", Duration::from_secs(10), |s| {
        s.contains("Products — all products") && s.contains(&format!("row 1 of {all} "))
    })
    .await;
    all
}

/// The dashboard behind a relay that records every write.
pub async fn recorded() -> (Dashboard, Writes) {
    let writes: Writes = Arc::default();
    let kept = Arc::clone(&writes);
    let d = Dashboard::start_behind(Options::default(), |target| {
        Relay::recording(kept).serve(target)
    })
    .await;
    (d, writes)
}

#[tokio::test]
async fn the_list_marks_unclassified_products_and_filters_them_on_one_key() {
    let d = Dashboard::start(Options::default()).await;
    let all = open_list(&d).await;
    let screen = d.screen();
    for column in ["Name", "Status", "Category", "Subcategory"] {
        assert!(screen.contains(column), "the {column} column: {screen}");
    }
    // The footer says that `e` classifies as well as edits.
    assert!(screen.contains("edit or classify"), "{screen}");
    let waiting = ProductFilter {
        status_in: vec![ProductStatus::Pending, ProductStatus::PartiallyApproved],
        ..ProductFilter::default()
    };
    let count = total(&d, &waiting).await;
    assert!(count > 0 && count < all);
    d.char('u');
    let screen = d
        .wait_until(
            "the products needing classification",
            Duration::from_secs(10),
            |s| s.contains("needing classification") && s.contains(&format!("row 1 of {count} ")),
        )
        .await;
    assert!(!screen.contains(" APPROVED "), "{screen}");
    assert!(screen.contains('!') || screen.contains('✗'), "{screen}");

    // The `/` filter: a category and a source, as the service filters them.
    let digital = ProductFilter {
        product_category_in: vec!["PHYSICAL".into()],
        source_in: vec!["API".into()],
        ..ProductFilter::default()
    };
    let count = total(&d, &digital).await;
    d.char('/');
    d.wait_for("Categories").await;
    // Clear the statuses the key chose, then name the category and the source.
    d.key(KeyCode::Tab);
    d.key(KeyCode::Backspace);
    d.key(KeyCode::Tab);
    d.type_text("physical");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("api");
    submit(&d);
    d.wait_until("the filtered list", Duration::from_secs(10), |s| {
        s.contains("category PHYSICAL, source API") && s.contains(&format!("row 1 of {count} "))
    })
    .await;
    d.quit().await;
}

/// How many subcategories the service's catalog gives `category`.
async fn subcategories(d: &Dashboard, category: &str) -> usize {
    let catalog = d.client.list_product_categories().await.unwrap();
    taxdash::rules::product_subcategories(&catalog, category).len()
}

#[tokio::test]
async fn a_new_product_is_offered_only_its_categorys_subcategories_and_sends_nothing_without_them()
{
    let (d, writes) = recorded().await;
    let before = open_list(&d).await;
    let (digital, physical) = (
        subcategories(&d, "DIGITAL").await,
        subcategories(&d, "PHYSICAL").await,
    );
    d.char('n');
    // The form opens once the catalog is read; no subcategory before a category.
    d.wait_for("External ID").await;
    d.wait_for("nothing to choose: choose the category first")
        .await;
    d.type_text("mug-001");
    d.key(KeyCode::Tab);
    d.type_text("Enamel mug");
    submit(&d);
    d.wait_for(" is required").await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");

    // DIGITAL (the refused submit put the focus on the category) offers its own subcategories,
    // clothing not among them.
    d.char('D');
    d.key(KeyCode::Tab);
    d.char('S');
    let screen = d.wait_for(&format!("of {digital}")).await;
    assert!(screen.contains("‹ SAAS ›"), "{screen}");
    d.char('G');
    assert!(!d.screen().contains("GENERAL_CLOTHING"), "{}", d.screen());

    // PHYSICAL: the DIGITAL subcategory is cleared, and the form says so.
    d.key(KeyCode::BackTab);
    d.char('P');
    d.wait_for("SAAS cleared: not a choice for category PHYSICAL")
        .await;
    submit(&d);
    d.wait_for("Not sent").await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");
    assert_eq!(total(&d, &ProductFilter::default()).await, before);

    // A clothing subcategory of PHYSICAL (the refused submit put the focus on the subcategory),
    // and it is created.
    d.char('G');
    d.wait_for(&format!("‹ GENERAL_CLOTHING ›  2 of {physical}"))
        .await;
    d.wait_for("Such as T-shirts").await;
    submit(&d);
    d.wait_for("Product Enamel mug created.").await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].0, "POST");
    assert_eq!(sent[0].2["product_category"], "PHYSICAL");
    assert_eq!(sent[0].2["product_subcategory"], "GENERAL_CLOTHING");
    assert_eq!(total(&d, &ProductFilter::default()).await, before + 1);
    d.quit().await;
}

/// The products needing classification, first page, as the service lists them.
async fn waiting(d: &Dashboard) -> (Vec<taxdash::model::Product>, u64) {
    let page = d
        .client
        .list_products(
            &ProductFilter {
                status_in: vec![ProductStatus::Pending, ProductStatus::PartiallyApproved],
                ..ProductFilter::default()
            },
            PageParams::new(1, 50),
        )
        .await
        .unwrap();
    (page.items, page.total)
}

#[tokio::test]
async fn classifying_a_product_approves_it_and_takes_it_off_the_list_needing_classification() {
    let (d, writes) = recorded().await;
    open_list(&d).await;
    let (rows, count) = waiting(&d).await;
    let first = rows[0].clone();
    assert!(!first.classification_failed, "the first waits for approval");
    let service = subcategories(&d, "SERVICE").await;
    d.char('u');
    d.wait_until(
        "the products needing classification",
        Duration::from_secs(10),
        |s| s.contains("needing classification") && s.contains(&format!("row 1 of {count} ")),
    )
    .await;

    // The detail says what is left to do.
    d.key(KeyCode::Enter);
    d.wait_for("waiting for approval: check it with e; saving approves it")
        .await;
    d.char('e');
    d.wait_for(&format!("classify {} (saving approves it)", first.name))
        .await;
    // Its category's subcategories only.
    let offered = subcategories(&d, &first.product_category).await;
    d.wait_for(&format!("‹ {} ›", first.product_subcategory))
        .await;
    assert!(
        d.screen().contains(&format!(" of {offered}")),
        "{}",
        d.screen()
    );

    // Another category: the subcategory is cleared, SERVICE's are offered.
    for _ in 0..3 {
        d.key(KeyCode::Tab);
    }
    d.char('S');
    d.wait_for(&format!(
        "{} cleared: not a choice for category SERVICE",
        first.product_subcategory
    ))
    .await;
    d.key(KeyCode::Tab);
    d.char('P');
    d.wait_for(&format!("‹ PROFESSIONAL_SERVICE ›  2 of {service}"))
        .await;
    submit(&d);

    // Sent, approved by the service, read again: the detail says nothing is left to do.
    let screen = d
        .wait_for(&format!(
            "Product {} classified: APPROVED, nothing left to do.",
            first.name
        ))
        .await;
    assert!(!screen.contains("waiting for approval"), "{screen}");
    d.wait_for("approved: nothing left to do").await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].0, "PUT");
    assert_eq!(
        sent[0].2,
        serde_json::json!({
            "name": first.name,
            "product_category": "SERVICE",
            "product_subcategory": "PROFESSIONAL_SERVICE",
            "tax_exempt": first.tax_exempt
        })
    );
    let after = d.client.get_product(&first.id).await.unwrap();
    assert_eq!(after.status, ProductStatus::Approved);

    // Back on the list, read again: one fewer, and not this one.
    d.key(KeyCode::Esc);
    let screen = d
        .wait_until("the shorter list", Duration::from_secs(10), |s| {
            s.contains(&format!(" of {} ", count - 1))
        })
        .await;
    // (The footer still names it, saying it was classified.)
    assert!(!screen.lines().any(|l| l.contains(&first.code)), "{screen}");

    // The next one, its classification right as it is: saved unchanged, it is confirmed.
    let (rows, _) = waiting(&d).await;
    let next = rows[0].clone();
    assert!(!next.classification_failed, "the next waits for approval");
    d.key(KeyCode::Home);
    d.char('e');
    d.wait_for(&format!("classify {}", next.name)).await;
    submit(&d);
    d.wait_for(&format!("Product {} classified: APPROVED", next.name))
        .await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(
        sent[1].2,
        serde_json::json!({
            "name": next.name,
            "product_category": next.product_category,
            "product_subcategory": next.product_subcategory,
            "tax_exempt": next.tax_exempt
        })
    );
    d.quit().await;
}

#[tokio::test]
async fn an_edit_sends_the_fields_the_service_requires_and_the_one_that_changed() {
    let (d, writes) = recorded().await;
    open_list(&d).await;
    let first = d
        .client
        .list_products(&ProductFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    d.char('e');
    d.wait_for(&format!("edit {}", first.name)).await;
    d.wait_for("External ID").await;
    // Saved unchanged: nothing to send.
    submit(&d);
    d.wait_for("Nothing changed.").await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");
    d.key(KeyCode::Tab);
    d.key(KeyCode::End);
    d.type_text(" v2");
    submit(&d);
    d.wait_for("saved.").await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].0, "PUT");
    assert_eq!(sent[0].1, format!("/v1/products/{}", first.id));
    // The four fields the service requires in every edit, the product's values but the name
    // changed; no other field, none having changed.
    assert_eq!(
        sent[0].2,
        serde_json::json!({
            "name": format!("{} v2", first.name),
            "product_category": first.product_category,
            "product_subcategory": first.product_subcategory,
            "tax_exempt": first.tax_exempt
        })
    );
    let after = d.client.get_product(&first.id).await.unwrap();
    assert_eq!(after.name, format!("{} v2", first.name));
    assert_eq!(after.product_category, first.product_category);
    d.quit().await;
}

/// Switches to the tab titled `title` with its number key.
fn open_titled(d: &Dashboard, title: &str) {
    let number = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == title)
        .expect("the tab")
        + 1;
    d.char(char::from_digit(number as u32, 10).expect("a tab number key"));
}

#[tokio::test]
async fn a_customer_lists_their_transactions_a_return_those_it_covers_a_registration_its_returns() {
    let d = Dashboard::start(Options {
        size: (160, 60),
        ..Options::default()
    })
    .await;
    let first = d
        .client
        .list_customers(
            &taxdash::model::filters::CustomerFilter::default(),
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .items
        .remove(0);
    let theirs = d
        .client
        .list_customer_transactions(&first.id)
        .await
        .unwrap();
    open_titled(&d, "Customers");
    d.wait_until("the customers", Duration::from_secs(10), |s| {
        s.contains("Customers — all customers") && s.contains("row 1 of")
    })
    .await;
    d.key(KeyCode::Enter);
    let expected = theirs.first().map_or("none", |t| t.external_id.as_str());
    let screen = d
        .wait_until(
            "the customer's transactions",
            Duration::from_secs(10),
            |s| s.contains("Transactions") && s.contains(expected),
        )
        .await;
    assert!(screen.contains(&first.id), "{screen}");

    let filing = d
        .client
        .list_filings(
            &taxdash::model::filters::FilingFilter::default(),
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .items
        .remove(0);
    let covered = d.client.list_filing_transactions(&filing.id).await.unwrap();
    open_titled(&d, "Filings");
    d.wait_until("the filings", Duration::from_secs(10), |s| {
        s.contains("Filings — every status") && s.contains("row 1 of")
    })
    .await;
    d.key(KeyCode::Enter);
    let expected = covered.first().map_or("none", |t| t.external_id.as_str());
    d.wait_until(
        "the transactions the return covers",
        Duration::from_secs(10),
        |s| s.contains("Transactions covered") && s.contains(expected),
    )
    .await;
    d.quit().await;
}

#[tokio::test]
async fn the_customer_form_checks_the_address_and_takes_a_suggestion() {
    let d = Dashboard::start(Options {
        size: (140, 60),
        ..Options::default()
    })
    .await;
    open_titled(&d, "Customers");
    d.wait_until("the customers", Duration::from_secs(10), |s| {
        s.contains("Customers — all customers") && s.contains("row 1 of")
    })
    .await;
    d.char('n');
    d.wait_for("Address: not checked").await;
    d.type_text("Grace Hopper");
    for _ in 0..4 {
        d.key(KeyCode::Tab);
    }
    d.type_text("1 Congress Ave");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("Austin");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("TX");
    d.key(KeyCode::Tab);
    d.type_text("10001");
    d.key(KeyCode::Tab);
    d.type_text("US");
    d.key_with(KeyCode::Char('l'), KeyModifiers::CONTROL);
    let screen = d
        .wait_until("the check", Duration::from_secs(10), |s| {
            s.contains("Address: PARTIALLY_VERIFIED")
        })
        .await;
    assert!(
        screen.contains("› 1 CONGRESS AVE, AUSTIN, TX 78701, US (TRAVIS)"),
        "{screen}"
    );
    d.key_with(KeyCode::Char('t'), KeyModifiers::CONTROL);
    d.wait_for("Address taken").await;
    d.key_with(KeyCode::Char('l'), KeyModifiers::CONTROL);
    d.wait_for("Address: VERIFIED").await;
    submit(&d);
    d.wait_for("Customer Grace Hopper created.").await;
    let found = d
        .client
        .list_customers(
            &taxdash::model::filters::CustomerFilter {
                search_query: Some("Grace Hopper".into()),
                ..Default::default()
            },
            PageParams::new(1, 5),
        )
        .await
        .unwrap()
        .items;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].address.postal_code.as_deref(), Some("78701"));
    assert_eq!(found[0].address.county.as_deref(), Some("TRAVIS"));
    assert_eq!(found[0].address.city.as_deref(), Some("AUSTIN"));
    d.quit().await;
}

#[tokio::test]
async fn a_transactions_product_opens_on_the_products_tab() {
    let d = Dashboard::start(Options::default()).await;
    open_titled(&d, "Transactions");
    d.wait_until("the transactions", Duration::from_secs(10), |s| {
        s.contains("Transactions —") && s.contains("row 1 of")
    })
    .await;
    d.key(KeyCode::Enter);
    d.wait_for("Transactions — ORD-").await;
    d.char(':');
    d.type_text("product");
    d.key(KeyCode::Enter);
    // The Products tab, searching for the first line's product by its id in the shop.
    d.wait_until("the product search", Duration::from_secs(10), |s| {
        s.contains("Products — matching \"shop-")
    })
    .await;
    d.quit().await;
}

/// The battery the other forms were put through: an empty submit, each field's bad value, a
/// value of 10,000 characters, emoji and right-to-left text, and a text typed whole at once
/// (as a paste arrives without bracketed paste). Nothing is sent while a field is refused,
/// nothing typed is lost, and what is sent is exactly what was typed.
#[tokio::test]
async fn the_new_product_form_refuses_each_bad_value_and_keeps_every_character() {
    let (d, writes) = recorded().await;
    let before = open_list(&d).await;
    d.char('n');
    d.wait_for("External ID").await;

    // Empty: every required field says so, and the footer says why nothing was sent and
    // what to fix first; nothing is sent.
    submit(&d);
    let screen = d.wait_for(" is required").await;
    assert!(
        screen.contains("Not sent: 4 fields to fix; the first: External ID is required"),
        "the footer says it: {screen}"
    );
    assert!(
        !screen.contains("Field required"),
        "each error under a field names it: {screen}"
    );
    assert!(
        screen.contains("new product"),
        "still on the form: {screen}"
    );
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");

    // Blank texts. A refused submit puts the focus on the first field in error: here the
    // external id.
    d.type_text("   ");
    d.key(KeyCode::Tab);
    d.type_text("   ");
    submit(&d);
    let screen = d.wait_for("Name must not be blank").await;
    assert!(screen.contains("External ID must not be blank"), "{screen}");
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");

    // Emoji (a joined sequence and a flag among them) in the external id; 10,000 characters in
    // the name: the field keeps what its rule allows, and says so.
    d.clear_line();
    let external_id = "mug-👩‍🍳-🇩🇪-001";
    d.type_text(external_id);
    d.key(KeyCode::Tab);
    d.clear_line();
    d.type_text(&"x".repeat(10_000));
    d.wait_until("the length bounded", Duration::from_mins(1), |s| {
        s.contains("Name keeps at most 255 characters")
    })
    .await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");

    // Right-to-left text in the name; 1,001 characters in the description, bounded too.
    d.clear_line();
    let name = "ספל קפה مج قهوة ☕🎉";
    d.type_text(name);
    d.key(KeyCode::Tab);
    d.type_text(&"d".repeat(1_001));
    d.wait_until("the description bounded", Duration::from_secs(20), |s| {
        s.contains("Description keeps at most 1,000 characters")
    })
    .await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");
    // A description typed whole, as a paste arrives without bracketed paste.
    d.clear_line();
    let description = "Enamel mug, 350 ml — blue & white; «dishwasher safe» 🍽️ / مقاوم للحرارة";
    d.type_text(description);

    // A category and its subcategory: sent, exactly as typed.
    d.key(KeyCode::Tab);
    d.char('P');
    d.key(KeyCode::Tab);
    d.char('G');
    d.wait_for("‹ GENERAL_CLOTHING ›").await;
    submit(&d);
    d.wait_until("the product made", Duration::from_secs(20), |s| {
        s.contains("created.")
    })
    .await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].2["external_id"], external_id);
    assert_eq!(sent[0].2["name"], name);
    assert_eq!(sent[0].2["description"], description);
    assert_eq!(total(&d, &ProductFilter::default()).await, before + 1);
    let made = d
        .client
        .list_products(
            &ProductFilter {
                query: Some("mug-".into()),
                ..ProductFilter::default()
            },
            PageParams::new(1, 10),
        )
        .await
        .unwrap()
        .items;
    assert!(
        made.iter()
            .any(|p| p.name == name && p.description == description),
        "{made:?}"
    );
    d.quit().await;
}
