//! Every read method's success path, with its filters reaching the sandbox.

use chrono::NaiveDate;
use serde_json::json;
use taxdash::api::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter, ProductFilter,
    RegistrationFilter, RevealField, Sort, TransactionFilter,
};
use taxdash::model::{
    EstimateRequest, ExemptionStatus, FilingStatus, NexusStatus, PageParams, ProductStatus,
    RegistrationStatus, TransactionType,
};

use crate::common::start;

fn all() -> PageParams {
    PageParams::new(1, 100)
}

#[tokio::test]
async fn registrations() {
    let (sandbox, client) = start().await;
    let page = client
        .list_registrations(&RegistrationFilter::default(), PageParams::default())
        .await
        .unwrap();
    assert_eq!((page.page, page.size), (1, 50));
    assert!(page.items.len() >= 25);

    let canada = RegistrationFilter {
        country_code_in: vec!["CA".into()],
        ..Default::default()
    };
    let ca = client.list_registrations(&canada, all()).await.unwrap();
    assert!(!ca.items.is_empty() && ca.items.iter().all(|r| r.country_code == "CA"));
    let two = RegistrationFilter {
        country_code_in: vec!["CA".into(), "ZZ_EU".into()],
        status_in: vec![
            RegistrationStatus::Registered,
            RegistrationStatus::Processing,
        ],
        order_by: vec![Sort::desc("state_code")],
        ..Default::default()
    };
    let both = client.list_registrations(&two, all()).await.unwrap();
    assert!(both.items.iter().any(|r| r.country_code == "ZZ_EU"));
    assert!(both.items.iter().all(|r| matches!(
        r.status,
        RegistrationStatus::Registered | RegistrationStatus::Processing
    )));
    let codes: Vec<&str> = both.items.iter().map(|r| r.state_code.as_str()).collect();
    assert!(
        codes
            .windows(2)
            .all(|w| w[0].to_lowercase() >= w[1].to_lowercase())
    );

    let california = page
        .items
        .iter()
        .find(|r| r.state_code == "CA")
        .expect("a California registration");
    let detail = client.get_registration(&california.id).await.unwrap();
    assert_eq!(detail.id, california.id);
    let revealed = client
        .reveal_registration(&california.id, RevealField::Password)
        .await
        .unwrap();
    assert!(revealed.password_encrypted.is_some());
    assert_ne!(revealed.password_encrypted, detail.password_encrypted);
    client
        .reveal_registration(&california.id, RevealField::Pin)
        .await
        .unwrap();

    let jurisdictions = client.list_registration_jurisdictions(&[]).await.unwrap();
    assert!(jurisdictions.iter().any(|j| j.state_code == "CA"));
    let registered = client
        .list_registration_jurisdictions(&[RegistrationStatus::Registered])
        .await
        .unwrap();
    assert!(registered.len() <= jurisdictions.len());

    let form = client.get_jurisdiction_form("US", "CA").await.unwrap();
    assert!(!form.default_form);
    assert!(form.jurisdiction_fields_json_schema["properties"]["sales_tax_id"].is_object());
    assert!(
        client
            .get_jurisdiction_form("US", "VT")
            .await
            .unwrap()
            .default_form
    );

    let eu = page
        .items
        .iter()
        .find(|r| r.country_code == "ZZ_EU")
        .expect("an OSS registration");
    let countries = client.list_oss_countries(&eu.id).await.unwrap();
    assert!(countries.len() >= 3);
    sandbox.stop().await;
}

#[tokio::test]
async fn nexus() {
    let (sandbox, client) = start().await;
    let page = client
        .list_nexus(&NexusFilter::default(), all())
        .await
        .unwrap();
    assert!(!page.items.is_empty());
    let filter = NexusFilter {
        status_in: vec![NexusStatus::Registered, NexusStatus::Exposed],
        country_code_in: vec!["US".into()],
        order_by: vec![Sort::asc("state_code")],
        ..Default::default()
    };
    let us = client.list_nexus(&filter, all()).await.unwrap();
    assert!(us.items.iter().all(|n| n.country_code == "US"
        && matches!(
            n.status,
            Some(NexusStatus::Registered | NexusStatus::Exposed)
        )));
    let one = client.get_nexus(&page.items[0].id).await.unwrap();
    assert_eq!(one.id, page.items[0].id);

    let physical = client
        .list_physical_nexus(&PhysicalNexusFilter::default(), all())
        .await
        .unwrap();
    assert!(!physical.items.is_empty());
    let state = physical.items[0].state_code.clone();
    let in_state = client
        .list_physical_nexus(
            &PhysicalNexusFilter {
                country_code: Some("US".into()),
                state_code: Some(state.clone()),
                order_by: vec![Sort::desc("start_date")],
            },
            all(),
        )
        .await
        .unwrap();
    assert!(in_state.items.iter().all(|p| p.state_code == state));
    let categories = client
        .list_physical_nexus_categories(Some("US"), Some("CO"))
        .await
        .unwrap();
    assert!(!categories.is_empty());
    assert!(
        !client
            .list_physical_nexus_categories(None, None)
            .await
            .unwrap()
            .is_empty()
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn exemptions_customers_filings_products() {
    let (sandbox, client) = start().await;
    let exemptions = client
        .list_exemptions(&ExemptionFilter::default(), all())
        .await
        .unwrap();
    assert!(!exemptions.items.is_empty());
    let active = ExemptionFilter {
        status_in: vec![ExemptionStatus::Active],
        order_by: vec![Sort::desc("end_date")],
        ..Default::default()
    };
    let active = client.list_exemptions(&active, all()).await.unwrap();
    assert!(
        active
            .items
            .iter()
            .all(|e| e.status == Some(ExemptionStatus::Active))
    );
    let with_file = exemptions
        .items
        .iter()
        .find(|e| e.attachment_id.is_some())
        .expect("an exemption with a certificate");
    assert_eq!(
        client.get_exemption(&with_file.id).await.unwrap().id,
        with_file.id
    );
    let files = client.list_attachments(&with_file.id).await.unwrap();
    assert!(
        files
            .iter()
            .any(|a| Some(&a.id) == with_file.attachment_id.as_ref())
    );

    let customers = client
        .list_customers(&CustomerFilter::default(), all())
        .await
        .unwrap();
    assert!(customers.total > 0);
    let first = &customers.items[0];
    assert_eq!(client.get_customer(&first.id).await.unwrap(), *first);
    if let Some(country) = &first.address.country {
        let same = CustomerFilter {
            country: vec![country.clone()],
            order_by: vec![Sort::asc("name")],
            ..Default::default()
        };
        let same = client.list_customers(&same, all()).await.unwrap();
        assert!(
            same.items
                .iter()
                .all(|c| c.address.country.as_ref() == Some(country))
        );
    }

    let filings = client
        .list_filings(&FilingFilter::default(), all())
        .await
        .unwrap();
    assert!(!filings.items.is_empty());
    let filed = FilingFilter {
        status_in: vec![FilingStatus::Filed],
        country_code: vec!["US".into()],
        ..Default::default()
    };
    let filed = client.list_filings(&filed, all()).await.unwrap();
    assert!(
        filed
            .items
            .iter()
            .all(|f| f.status == Some(FilingStatus::Filed) && f.country_code == "US")
    );
    let filing = client.get_filing(&filings.items[0].id).await.unwrap();
    assert_eq!(filing.id, filings.items[0].id);
    let terms = client.get_back_filing_terms().await.unwrap();
    assert!(terms.version >= 1);

    let products = client
        .list_products(&ProductFilter::default(), all())
        .await
        .unwrap();
    assert!(!products.items.is_empty());
    let approved = ProductFilter {
        status_in: vec![ProductStatus::Approved],
        ..Default::default()
    };
    let approved = client.list_products(&approved, all()).await.unwrap();
    assert!(
        approved
            .items
            .iter()
            .all(|p| p.status == ProductStatus::Approved)
    );
    let product = client.get_product(&products.items[0].id).await.unwrap();
    assert_eq!(product, products.items[0]);
    assert!(!client.list_product_categories().await.unwrap().is_empty());
    sandbox.stop().await;
}

#[tokio::test]
async fn transactions_and_estimates() {
    let (sandbox, client) = start().await;
    let page = client
        .list_transactions(&TransactionFilter::default(), all())
        .await
        .unwrap();
    assert!(page.total > 3_000);
    let first = &page.items[0];
    assert_eq!(
        client.get_transaction(&first.id).await.unwrap().id,
        first.id
    );
    assert_eq!(
        client
            .get_transaction_by_external_id(&first.external_id)
            .await
            .unwrap()
            .id,
        first.id
    );
    let (from, to) = (
        page.items
            .iter()
            .map(|t| t.date.0.date_naive())
            .min()
            .unwrap(),
        page.items
            .iter()
            .map(|t| t.date.0.date_naive())
            .max()
            .unwrap(),
    );
    let filter = TransactionFilter {
        country: vec!["US".into()],
        transaction_type: vec![TransactionType::Sale],
        date_from: Some(from),
        date_to: Some(to),
        order_by: vec![Sort::desc("date")],
        ..Default::default()
    };
    let sales = client.list_transactions(&filter, all()).await.unwrap();
    assert!(!sales.items.is_empty());
    assert!(sales.items.iter().all(|t| t.kind == TransactionType::Sale
        && t.date.0.date_naive() >= from
        && t.date.0.date_naive() <= to));
    let old = TransactionFilter {
        date_to: NaiveDate::from_ymd_opt(2000, 1, 1),
        ..Default::default()
    };
    assert_eq!(
        client.list_transactions(&old, all()).await.unwrap().total,
        0
    );

    let request: EstimateRequest = serde_json::from_value(json!({
        "date": "2026-11-01T10:00:00Z", "external_id": "est-1", "currency": "USD",
        "addresses": [{"type": "SHIP_TO", "city": "San Francisco", "state": "CA", "postal_code": "94105", "country": "US"}],
        "transaction_items": [{"date": "2026-11-01T10:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "100"}]
    }))
    .unwrap();
    let estimate = client.estimate_tax(&request).await.unwrap();
    assert_eq!(estimate.external_id, "est-1");
    assert_eq!(estimate.transaction_items.len(), 1);
    assert!(estimate.total_tax_amount_calculated.is_some());
    sandbox.stop().await;
}
