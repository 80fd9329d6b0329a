//! Answers shaped like the live service's (fields it does not always send left out, fields this
//! version does not model added), served by a tiny server over loopback: the client reads every
//! page, and what it needs is there.

use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use taxdash::api::{
    Client, CustomerFilter, ExemptionFilter, FilingFilter, PhysicalNexusFilter, ProductFilter,
    RegistrationFilter, TransactionFilter,
};
use taxdash::model::{FilingFrequency, PageParams, RegistrationStatus, RegistrationType};

use crate::common::{config, serve};

fn page(items: Value) -> Value {
    let total = items.as_array().map_or(0, Vec::len);
    json!({"items": items, "total": total, "page": 1, "size": 50, "pages": 1})
}

/// Registrations as the live list sends them: no `registration_type`, no `filing_days` on
/// either, a field this version does not know (`registration_key`).
fn registrations() -> Value {
    page(json!([
        {
            "id": "regs_live_1", "status": "REGISTERED", "country_code": "US",
            "state_code": "WA", "state_name": "Washington", "filing_frequency": "QUARTERLY",
            "registration_key": "RK-77", "registration_email": "tax@example.org",
            "registration_requested": "2024-03-02T09:15:00.000Z", "auto_registered": false,
            "has_all_credentials": true, "amount_fees": "0.00", "vda": false,
            "imported": false, "initial_sync": true, "comment": ""
        },
        {
            "id": "regs_live_2", "status": "PROCESSING", "country_code": "US",
            "state_code": "OH", "state_name": "Ohio", "filing_frequency": "MONTHLY",
            "registration_type": "OTHER", "filing_days": 23, "amount_fees": "35.00"
        }
    ]))
}

/// The catalog as the live service sends it: no `label`, subcategories with a description, an
/// example and `is_frequent`.
fn categories() -> Value {
    json!([
        {"name": "Physical", "subcategories": [
            {"name": "Footwear", "description": "", "example": "", "is_frequent": true},
            {"name": "Books", "description": "Printed books", "example": "A novel"}
        ]},
        {"name": "Digital", "subcategories": []}
    ])
}

/// The smallest records the live document promises (only its required fields), plus one field
/// this version does not model on each.
fn minimal() -> [(&'static str, Value); 6] {
    [
        (
            "/v1/nexus/physical_nexus",
            page(
                json!([{"id": "phys_min", "country_code": "US", "state_code": "TX",
                         "start_date": "2024-01-01", "category": "PHYSICAL_BUSINESS_LOCATION",
                         "note": "warehouse"}]),
            ),
        ),
        (
            "/v1/customers",
            page(json!([{"id": "cust_min", "organization_id": "orgn_x", "loyalty": 3}])),
        ),
        (
            "/v1/exemptions",
            page(json!([{"id": "exmp_min", "exemption_type": "wholesale",
                         "start_date": "2024-01-01", "status": "ACTIVE", "tier": "gold"}])),
        ),
        (
            "/v1/products",
            page(
                json!([{"id": "prod_min", "external_id": "p-1", "sku": [], "code": "C1",
                         "name": "Mug", "description": "", "status": "PENDING",
                         "product_category": "Physical", "product_subcategory": "Kitchen",
                         "tax_exempt": false, "source": null, "connection_id": null,
                         "classification_failed": false, "weight": 2}]),
            ),
        ),
        (
            "/v1/filings",
            page(json!([{"id": "file_min", "registration_id": "regs_live_1",
                         "start_date": "2024-01-01", "end_date": "2024-03-31",
                         "country_code": "US", "filing_website_url": "",
                         "date_filed": "2025-01-19", "tax_remitted": "12.00"}])),
        ),
        (
            "/v1/transactions",
            page(json!([{"id": "tran_min", "organization_id": "orgn_x",
                         "external_id": "ord-1", "date": "2025-03-01T10:30:00",
                         "type": "SALE", "addresses": [{"type": "SHIP_TO", "zip4": "1234"}],
                         "transaction_items": [{"id": "item_1", "organization_id": "orgn_x",
                             "date": "2025-03-01T10:30:00", "external_product_id": "p-1",
                             "tax_items": [{"name": "WA STATE", "rate": "0.065",
                                            "amount": "6.50", "level": "STATE"}]}],
                         "refund_status": "NOT_REFUNDED"}])),
        ),
    ]
}

async fn live() -> Client {
    let mut router = Router::new()
        .route("/v1/registrations", get(|| async { Json(registrations()) }))
        .route(
            "/v1/products/categories",
            get(|| async { Json(categories()) }),
        );
    for (path, answer) in minimal() {
        router = router.route(path, get(move || async move { Json(answer) }));
    }
    let base = serve(router).await;
    Client::new(config(&base, "orgn_x", "sk_test_live_shapes")).unwrap()
}

#[tokio::test]
async fn a_registration_without_type_or_filing_days_is_read_with_its_page() {
    let client = live().await;
    let page = client
        .list_registrations(&RegistrationFilter::default(), PageParams::default())
        .await
        .expect("the page is read");
    assert_eq!(page.total, 2);
    let [first, second] = &page.items[..] else {
        panic!("two registrations: {:?}", page.items);
    };
    assert_eq!(first.id, "regs_live_1");
    assert_eq!(first.status, RegistrationStatus::Registered);
    assert_eq!(first.filing_frequency, FilingFrequency::Quarterly);
    assert_eq!(first.registration_type, None, "absent, not invented");
    assert_eq!(first.has_all_credentials, Some(true));
    assert_eq!(second.registration_type, Some(RegistrationType::Other_));
    assert_eq!(second.filing_days, Some(23));
    assert_eq!(first.filing_days, None, "absent, not 0");
}

#[tokio::test]
async fn the_live_catalog_is_read_without_labels() {
    let client = live().await;
    let catalog = client.list_product_categories().await.expect("read");
    assert_eq!(catalog.len(), 2);
    assert_eq!(catalog[0].name, "Physical");
    let names: Vec<&str> = catalog[0]
        .subcategories
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["Footwear", "Books"]);
}

#[tokio::test]
async fn records_with_only_the_required_fields_are_read() {
    let client = live().await;
    let first = PageParams::default();
    let customers = client
        .list_customers(&CustomerFilter::default(), first)
        .await
        .expect("customers");
    assert_eq!(customers.items[0].id, "cust_min");
    assert_eq!(customers.items[0].name, None);
    let exemptions = client
        .list_exemptions(&ExemptionFilter::default(), first)
        .await
        .expect("exemptions");
    assert_eq!(exemptions.items[0].id, "exmp_min");
    let products = client
        .list_products(&ProductFilter::default(), first)
        .await
        .expect("products");
    assert_eq!(products.items[0].name, "Mug");
    let filings = client
        .list_filings(&FilingFilter::default(), first)
        .await
        .expect("filings");
    assert_eq!(filings.items[0].id, "file_min");
    assert_eq!(filings.items[0].due_date, None);
    assert_eq!(
        filings.items[0].date_filed.map(|d| d.to_string()),
        Some("2025-01-19".to_owned()),
        "a date, as the live service sends it"
    );
    let physical = client
        .list_physical_nexus(&PhysicalNexusFilter::default(), first)
        .await
        .expect("physical nexus");
    assert_eq!(physical.items[0].id, "phys_min");
    assert_eq!(physical.items[0].end_date, None);
    let transactions = client
        .list_transactions(&TransactionFilter::default(), first)
        .await
        .expect("transactions");
    let transaction = &transactions.items[0];
    assert_eq!(transaction.external_id, "ord-1");
    assert_eq!(transaction.addresses[0].address.city, None);
    assert_eq!(transaction.transaction_items[0].amount, None);
    assert_eq!(
        transaction.transaction_items[0].tax_items[0]
            .amount
            .to_string(),
        "6.50"
    );
    assert_eq!(
        transaction
            .refund_status
            .as_ref()
            .map(taxdash::model::RefundStatus::as_str),
        Some("NOT_REFUNDED"),
        "a value this version does not know is kept"
    );
}

#[tokio::test]
async fn a_raw_page_keeps_every_field_as_sent() {
    let client = live().await;
    let page = client
        .list_raw(&RegistrationFilter::default(), PageParams::default())
        .await
        .expect("the page is read");
    let sent = registrations();
    let items: Vec<Value> = page
        .items
        .iter()
        .map(|item| serde_json::from_str(item.get()).unwrap())
        .collect();
    assert_eq!(Value::from(items), sent["items"]);
    let first: taxdash::model::Registration = client.read_item(&page.items[0]).unwrap();
    assert_eq!(first.id, "regs_live_1");
}
