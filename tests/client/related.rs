//! The client's lookups across resources, its transaction and credit-note edits, its product
//! writes and its address validation, over loopback against the sandbox.

use std::time::Duration;

use rust_decimal::Decimal;
use serde_json::json;
use taxdash::api::{ApiError, CustomerFilter, FilingFilter, RegistrationFilter};
use taxdash::model::{
    AddressFields, CreditNoteRequest, PageParams, ProductUpdate, ProductWrite, SuggestionQuery,
    TransactionCreate, TransactionStatus,
};
use taxdash::sandbox::SandboxConfig;

use crate::common::{start, start_with};

fn sale(external_id: &str) -> TransactionCreate {
    serde_json::from_value(json!({
        "external_id": external_id, "date": "2026-11-02T09:30:00Z", "type": "SALE", "currency": "USD",
        "customer": {"name": "Ada Lovelace", "email": "ada@example.com"},
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}],
        "transaction_items": [
            {"external_id": "l1", "date": "2026-11-02T09:30:00Z", "external_product_id": "sku-1", "quantity": 1, "amount": "100.00"}
        ]
    }))
    .expect("a sale")
}

#[tokio::test]
async fn a_customer_is_found_by_external_id_and_lists_and_gains_transactions() {
    let (sandbox, client) = start().await;
    let customers = client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 50))
        .await
        .unwrap()
        .items;
    let customer = customers
        .iter()
        .find(|c| c.external_id.is_some())
        .expect("a customer with an external id");
    let external = customer.external_id.clone().unwrap();
    let found = client.get_customer_by_external_id(&external).await.unwrap();
    assert_eq!(found.id, customer.id);
    assert!(matches!(
        client.get_customer_by_external_id("no-such-shop-id").await,
        Err(ApiError::NotFound { .. })
    ));

    let before = client
        .list_customer_transactions(&customer.id)
        .await
        .unwrap();
    assert!(
        before
            .iter()
            .all(|t| t.customer_id.as_deref() == Some(customer.id.as_str()))
    );
    let created = client
        .create_customer_transaction(&customer.id, &sale("ord-of-customer-1"))
        .await
        .unwrap();
    assert_eq!(created.customer_id.as_deref(), Some(customer.id.as_str()));
    let after = client
        .list_customer_transactions(&customer.id)
        .await
        .unwrap();
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.iter().any(|t| t.id == created.id));
    sandbox.stop().await;
}

#[tokio::test]
async fn a_registration_lists_its_filings_and_a_filing_its_transactions() {
    let (sandbox, client) = start().await;
    let filings = client
        .list_filings(&FilingFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items;
    let filing = filings
        .iter()
        .filter(|f| f.state_code.as_deref() == Some("CA"))
        .max_by_key(|f| f.start_date)
        .expect("a California filing");
    let of_registration = client
        .list_registration_filings(&filing.registration_id, PageParams::new(1, 100))
        .await
        .unwrap();
    assert!(of_registration.items.iter().any(|f| f.id == filing.id));
    assert!(
        of_registration
            .items
            .iter()
            .all(|f| f.registration_id == filing.registration_id)
    );
    let registrations = client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items;
    assert!(registrations.iter().any(|r| r.id == filing.registration_id));

    let covered = client.list_filing_transactions(&filing.id).await.unwrap();
    assert!(!covered.is_empty(), "a California return covers sales");
    for t in &covered {
        let day = t.date.0.date_naive();
        assert!(day >= filing.start_date && day <= filing.end_date, "{day}");
        assert_eq!(t.state.as_deref(), Some("CA"));
    }
    // Read for the filing check, the same list gives the same figures, nothing else kept.
    let figures = client.list_filing_sales(&filing.id).await.unwrap();
    assert_eq!(figures, taxdash::model::SaleFigures::of(&covered));
    sandbox.stop().await;
}

#[tokio::test]
async fn a_transaction_is_edited_and_a_pending_credit_note_too_but_not_a_committed_one() {
    let config = SandboxConfig {
        processing_delay: Duration::from_millis(50),
        ..SandboxConfig::default()
    };
    let (sandbox, client) = start_with(config, |_| {}).await;
    let created = client
        .create_transaction(&sale("ord-edit-1"))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mut edit = sale("ord-edit-1");
    edit.description = Some("corrected".into());
    edit.total_amount = Some(Decimal::new(12000, 2));
    let edited = client.update_transaction(&created.id, &edit).await.unwrap();
    assert_eq!(edited.description.as_deref(), Some("corrected"));
    assert_eq!(edited.total_amount, Some(Decimal::new(12000, 2)));

    let note = |status: &str| -> CreditNoteRequest {
        serde_json::from_value(json!({
            "external_id": format!("cn-{status}"), "date": "2026-11-05T00:00:00Z", "status": status,
            "total_amount": "20.00", "currency": "USD",
            "transaction_items": [{"external_id": "l1", "date": "2026-11-05T00:00:00Z", "external_product_id": "sku-1", "quantity": 1, "amount": "20.00"}]
        }))
        .expect("a credit note")
    };
    let pending = client
        .create_credit_note(&created.id, &note("PENDING"))
        .await
        .unwrap();
    // A rewrite is held to a new note's rules: no line past what the sale has left.
    let mut too_much = note("PENDING");
    too_much.transaction_items[0].amount = Decimal::new(999_999, 2);
    too_much.total_amount = Decimal::new(999_999, 2);
    let refused = client
        .update_credit_note(&created.id, &pending.id, &too_much)
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("exceeds"), "{refused}");
    let mut change = note("PENDING");
    change.transaction_items[0].amount = Decimal::new(1500, 2);
    change.total_amount = Decimal::new(1500, 2);
    change.status = taxdash::model::CreditNoteStatus::Committed;
    let changed = client
        .update_credit_note(&created.id, &pending.id, &change)
        .await
        .unwrap();
    assert_eq!(changed.total_amount, Some(Decimal::new(1500, 2)));
    assert_eq!(
        changed.transaction_items[0].amount,
        Some(Decimal::new(1500, 2)),
        "the lines are rewritten too"
    );
    assert_eq!(changed.status, Some(TransactionStatus::Committed));
    // Committed now: no longer editable.
    let refused = client
        .update_credit_note(&created.id, &pending.id, &change)
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("pending"), "{refused}");
    sandbox.stop().await;
}

#[tokio::test]
async fn a_filed_transaction_cannot_be_edited() {
    let (sandbox, client) = start().await;
    let filter = taxdash::api::TransactionFilter {
        processing_status_in: vec![taxdash::model::ProcessingStatus::FilingDone],
        ..Default::default()
    };
    let filed = client
        .list_transactions(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .items;
    if let Some(t) = filed.first() {
        let err = client
            .update_transaction(&t.id, &sale(&t.external_id))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("cannot be changed"), "{err}");
    } else {
        panic!("the demo data has a filed transaction");
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn products_are_created_and_edited() {
    let (sandbox, client) = start().await;
    let body = ProductWrite {
        external_id: Some("mug-1".into()),
        name: Some("Mug".into()),
        product_category: Some("PHYSICAL".into()),
        product_subcategory: Some("PHYSICAL_GENERAL".into()),
        tax_exempt: Some(false),
        ..ProductWrite::default()
    };
    let created = client.create_product(&body).await.unwrap();
    assert_eq!(created.name, "Mug");
    let wrong = ProductUpdate {
        product_subcategory: "B2B_SAAS".into(),
        ..ProductUpdate::of(&created)
    };
    assert!(matches!(
        client.update_product(&created.id, &wrong).await,
        Err(ApiError::Validation(_))
    ));
    let rename = ProductUpdate {
        name: "Enamel mug".into(),
        ..ProductUpdate::of(&created)
    };
    let edited = client.update_product(&created.id, &rename).await.unwrap();
    assert_eq!(edited.name, "Enamel mug");
    assert_eq!(edited.product_subcategory, "PHYSICAL_GENERAL");
    sandbox.stop().await;
}

#[tokio::test]
async fn addresses_verify_get_their_zip_suggested_or_get_nothing() {
    let (sandbox, client) = start().await;
    let known = AddressFields {
        street_1: Some("1 Congress Ave".into()),
        city: Some("Austin".into()),
        state: Some("TX".into()),
        postal_code: Some("78701".into()),
        country: Some("US".into()),
        ..AddressFields::default()
    };
    let checked = client.validate_address(&known).await.unwrap();
    assert_eq!(checked[0].verification_status, "VERIFIED");
    assert_eq!(
        checked[0].response_address.county.as_deref(),
        Some("TRAVIS")
    );
    assert_eq!(checked[0].enrich_fields, ["county"]);

    let wrong_zip = AddressFields {
        postal_code: Some("10001".into()),
        ..known.clone()
    };
    let checked = client.validate_address(&wrong_zip).await.unwrap();
    assert_eq!(checked[0].verification_status, "PARTIALLY_VERIFIED");
    assert_eq!(
        checked[0].response_address.postal_code.as_deref(),
        Some("78701")
    );
    let suggested = client
        .suggest_addresses(&SuggestionQuery {
            line1: Some("1 Congress Ave".into()),
            city: Some("Austin".into()),
            state: Some("TX".into()),
            postal_code: Some("10001".into()),
            country: Some("US".into()),
        })
        .await
        .unwrap();
    assert_eq!(suggested.len(), 1);
    assert_eq!(suggested[0].postal_code, "78701");

    let nonsense = SuggestionQuery {
        line1: Some("zzz".into()),
        city: Some("Qwxyz".into()),
        state: Some("ZZ".into()),
        ..SuggestionQuery::default()
    };
    assert!(
        client
            .suggest_addresses(&nonsense)
            .await
            .unwrap()
            .is_empty()
    );
    let checked = client
        .validate_address(&AddressFields {
            city: Some("Qwxyz".into()),
            ..AddressFields::default()
        })
        .await
        .unwrap();
    assert_eq!(checked[0].verification_status, "INVALID");
    sandbox.stop().await;
}

#[tokio::test]
async fn a_list_read_ahead_gives_every_row_once_whatever_number_of_pages_was_expected() {
    use taxdash::model::Transaction;
    use taxdash::reads::{Quiet, read_all_ahead};
    let (sandbox, client) = start().await;
    let filter = taxdash::checks::pace_filter(taxdash::clock::today());
    let pages = client
        .list_transactions(&filter, PageParams::new(1, 100))
        .await
        .unwrap()
        .pages;
    assert!(pages > 2, "the demo's last 90 days of sales: {pages} pages");
    let mut seen = None;
    // As long as last time, shorter (it grew since), longer (it shrank since).
    for expected in [pages, 1, pages + 3] {
        let before = client.stats().requests;
        let (rows, announced): (Vec<Transaction>, u32) =
            read_all_ahead(&client, &filter, "sales", expected, &mut Quiet)
                .await
                .unwrap();
        let asked = client.stats().requests - before;
        assert_eq!(announced, pages);
        let ids: Vec<String> = rows.into_iter().map(|t| t.id).collect();
        let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(
            unique.len(),
            ids.len(),
            "no row twice (expected {expected})"
        );
        assert!(
            asked >= u64::from(pages) && asked <= u64::from(pages.max(expected)),
            "{asked} requests for {pages} pages, {expected} expected"
        );
        match &seen {
            None => seen = Some(ids),
            Some(first) => assert_eq!(&ids, first, "the same rows (expected {expected})"),
        }
    }
    sandbox.stop().await;
}
