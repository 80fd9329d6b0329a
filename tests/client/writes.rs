//! Every write method's success path, and what the sandbox then reads back.

use std::time::Duration;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::json;
use taxdash::api::{PhysicalNexusFilter, RegistrationFilter, Upload};
use taxdash::model::{
    AddressFields, CreditNoteRequest, CustomerTaxRegistrationWrite, CustomerTaxType, CustomerWrite,
    DeregistrationReason, DeregistrationRequest, ExemptionCreate, ExemptionStatus, ExemptionType,
    PageParams, PhysicalNexusCategory, PhysicalNexusCreate, PhysicalNexusUpdate, ProcessingStatus,
    RegistrationStatus, TransactionCreate, TransactionType,
};
use taxdash::sandbox::SandboxConfig;

use crate::common::{pdf, start, start_with};

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a date")
}

#[tokio::test]
async fn deregistration() {
    let (sandbox, client) = start().await;
    let filter = RegistrationFilter {
        status_in: vec![RegistrationStatus::Registered],
        state_code: Some("WA".into()),
        ..Default::default()
    };
    let id = client
        .list_registrations(&filter, PageParams::default())
        .await
        .unwrap()
        .items[0]
        .id
        .clone();
    let request = DeregistrationRequest {
        closure_date: date(2026, 12, 31),
        reason: DeregistrationReason::ClosingNexusInState,
        final_return_acknowledged: true,
    };
    let answered = client.deregister(&id, &request).await.unwrap();
    assert_eq!(answered.status, RegistrationStatus::Deregistering);
    assert!(answered.deregistration_requested.is_some());
    assert_eq!(
        client.get_registration(&id).await.unwrap().status,
        RegistrationStatus::Deregistering
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn physical_nexus_create_update_delete() {
    let (sandbox, client) = start().await;
    let free = client
        .list_physical_nexus_categories(Some("US"), Some("CO"))
        .await
        .unwrap()
        .into_iter()
        .find(|c| !c.is_category_assigned)
        .expect("a free category in Colorado")
        .name;
    let created = client
        .create_physical_nexus(&PhysicalNexusCreate {
            country_code: "US".into(),
            state_code: "CO".into(),
            start_date: date(2025, 1, 1),
            end_date: None,
            category: free.clone(),
            external_id: Some("office-denver".into()),
            street_1: Some("1 Larimer St".into()),
            street_2: None,
            city: Some("Denver".into()),
            postal_code: Some("80202".into()),
        })
        .await
        .unwrap();
    assert!(created.id.starts_with("phys_"));
    assert_eq!(
        (created.category.clone(), created.city.as_deref()),
        (free.clone(), Some("Denver"))
    );

    let updated = client
        .update_physical_nexus(
            &created.id,
            &PhysicalNexusUpdate {
                start_date: date(2025, 2, 1),
                end_date: Some(date(2026, 1, 31)),
                category: PhysicalNexusCategory::PhysicalBusinessLocation,
                street_1: Some("2 Larimer St".into()),
                street_2: None,
                city: Some("Denver".into()),
                postal_code: Some("80202".into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(updated.id, created.id);
    assert_eq!(updated.end_date, Some(date(2026, 1, 31)));
    assert_eq!(updated.street_1.as_deref(), Some("2 Larimer St"));

    client.delete_physical_nexus(&created.id).await.unwrap();
    let left = client
        .list_physical_nexus(
            &PhysicalNexusFilter {
                state_code: Some("CO".into()),
                ..Default::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap();
    assert!(left.items.iter().all(|p| p.id != created.id));
    sandbox.stop().await;
}

#[tokio::test]
async fn exemption_with_an_uploaded_certificate() {
    let (sandbox, client) = start().await;
    let customer = client
        .list_customers(
            &taxdash::model::filters::CustomerFilter::default(),
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .items
        .remove(0);
    let created = client
        .create_exemption(&ExemptionCreate {
            exemption_type: ExemptionType::Customer,
            status: ExemptionStatus::Active,
            start_date: date(2026, 1, 1),
            end_date: Some(date(2027, 12, 31)),
            customer_id: customer.id.clone(),
            fein: "12-3456789".into(),
            sales_tax_id: "ST-99".into(),
            jurisdiction: Some("TX".into()),
            country_code: Some("US".into()),
            transaction_id: None,
            reseller: Some(false),
        })
        .await
        .unwrap();
    assert_eq!(created.customer.as_ref().map(|c| &c.id), Some(&customer.id));
    assert_eq!(created.attachment, Some(vec![]));

    let file = client
        .upload_attachment(&created.id, Upload::pdf("resale certificate.pdf", pdf()))
        .await
        .unwrap();
    assert_eq!(file.related_entity_id, created.id);
    assert_eq!(file.file_name.as_deref(), Some("resale certificate.pdf"));
    assert_eq!(file.file_size_bytes, Some(pdf().len() as u64));
    let files = client.list_attachments(&created.id).await.unwrap();
    assert_eq!(files, vec![file.clone()]);
    assert_eq!(
        client
            .get_exemption(&created.id)
            .await
            .unwrap()
            .attachment_id,
        Some(file.id)
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn customers_and_tax_registrations() {
    let (sandbox, client) = start().await;
    let created = client
        .create_customer(&CustomerWrite {
            name: Some("Maple Goods".into()),
            email: Some("ap@maple.example".into()),
            address: AddressFields {
                country: Some("CA".into()),
                state: Some("ON".into()),
                ..AddressFields::default()
            },
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(created.organization_id, client.organization_id());
    let updated = client
        .update_customer(
            &created.id,
            &CustomerWrite {
                phone: Some("+1 416 555 0100".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (updated.phone.as_deref(), updated.name.as_deref()),
        (Some("+1 416 555 0100"), Some("Maple Goods"))
    );
    let registration = client
        .put_customer_tax_registration(
            &created.id,
            &CustomerTaxRegistrationWrite {
                tax_id: "123456789RT0001".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(registration.tax_type, CustomerTaxType::GstHst);
    assert!(registration.is_valid);
    let read = client.get_customer(&created.id).await.unwrap();
    assert_eq!(read.customer_tax_registrations, Some(vec![registration]));
    sandbox.stop().await;
}

fn sale(external_id: &str) -> TransactionCreate {
    serde_json::from_value(json!({
        "external_id": external_id, "date": "2026-11-02T09:30:00Z", "type": "SALE", "currency": "USD",
        "customer": {"name": "Ada Lovelace", "email": "ada@example.com", "external_id": "cust-ada"},
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}],
        "transaction_items": [
            {"external_id": "l1", "date": "2026-11-02T09:30:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "129.00"}
        ]
    }))
    .expect("a sale")
}

#[tokio::test]
async fn a_created_sale_is_processed_then_credited() {
    let sandbox = SandboxConfig {
        processing_delay: Duration::from_millis(200),
        ..SandboxConfig::default()
    };
    let (sandbox, client) = start_with(sandbox, |_| {}).await;
    let created = client
        .create_transaction(&sale("ord-client-1"))
        .await
        .unwrap();
    assert_eq!(created.processing_status, Some(ProcessingStatus::Queued));
    assert!(!created.tax_is_calculated());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let processed = client
        .get_transaction_by_external_id("ord-client-1")
        .await
        .unwrap();
    assert_eq!(processed.id, created.id);
    assert!(processed.tax_is_calculated());

    let note: CreditNoteRequest = serde_json::from_value(json!({
        "external_id": "cn-client-1", "date": "2026-11-05T00:00:00Z", "status": "COMMITTED",
        "total_amount": "20.00", "currency": "USD",
        "transaction_items": [{"external_id": "l1", "date": "2026-11-05T00:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "20.00"}]
    }))
    .expect("a credit note");
    let credit = client.create_credit_note(&created.id, &note).await.unwrap();
    assert_eq!(credit.kind, TransactionType::PartialCreditNote);
    assert_eq!(credit.related_to.as_deref(), Some(created.id.as_str()));
    assert_eq!(credit.total_amount, Some(Decimal::new(2000, 2)));
    sandbox.stop().await;
}

#[tokio::test]
async fn a_registration_is_created_checked_against_its_schema_and_updated() {
    let (_sandbox, client) = start().await;
    // Idaho is registered in the demo: a second active one is refused.
    let idaho = json!({
        "registration_import_type": "REGULAR",
        "country_code": "US",
        "state_code": "ID",
        "state_name": "Idaho",
        "filing_frequency": "MONTHLY",
        "jurisdiction_specific_fields": {
            "registration_type": "SALES_TAX",
            "business_name": "Acme",
            "sales_tax_id": "1234567"
        }
    });
    let err = client.create_registration(&idaho).await.unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");

    // Wyoming uses the default form; a frequency it does not assign is refused.
    let mut wyoming = json!({
        "registration_import_type": "REGULAR",
        "country_code": "US",
        "state_code": "WY",
        "state_name": "Wyoming",
        "filing_frequency": "BI_MONTHLY",
        "registration_email": "tax@example.com"
    });
    let err = client.create_registration(&wyoming).await.unwrap_err();
    assert!(err.to_string().contains("filing_frequency"), "{err}");
    wyoming["filing_frequency"] = json!("QUARTERLY");
    let made = client.create_registration(&wyoming).await.unwrap();
    assert_eq!(made.state_code, "WY");
    assert_eq!(made.status, RegistrationStatus::Registered);
    assert_eq!(made.registration_email.as_deref(), Some("tax@example.com"));
    let read = client.get_registration(&made.id).await.unwrap();
    assert_eq!(read.filing_frequency.as_str(), "QUARTERLY");

    // An update changes what it names and nothing else; a status is not the user's to set.
    let changed = client
        .update_registration(&made.id, &json!({ "comment": "moved to quarterly" }))
        .await
        .unwrap();
    assert_eq!(changed.comment.as_deref(), Some("moved to quarterly"));
    assert_eq!(
        changed.registration_email.as_deref(),
        Some("tax@example.com")
    );
    let err = client
        .update_registration(&made.id, &json!({ "change_regime_status": "APPROVED" }))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("change_regime_status"), "{err}");
}
