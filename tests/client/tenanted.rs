//! The client on the Tenanted API, over real loopback HTTP against the sandbox: the v1 types read
//! in both releases, writes with addresses, organization selectors, every error code reaching the
//! caller with its request ID, and the v1 client refusing what only the Tenanted API offers.

use reqwest::Method;
use serde_json::json;
use taxdash::api::{
    ApiError, ApiVersion, ApproveImport, BulkApproveImports, Client, ClientConfig,
    CredentialsUpdate, CustomerFilter, ErrorCode, Generation, RegistrationFilter, Selector,
    ServiceError, TransactionFilter,
};
use taxdash::model::{
    AddressFields, CustomerWrite, EstimateRequest, PageParams, TransactionCreate,
};
use taxdash::sandbox::{DEMO_PARTNER_KEY, Sandbox, SandboxConfig};

use crate::common::{ORG1, ORG2, config, sandbox_with};

const OLD: ApiVersion = ApiVersion::DEFAULT;
const NEW: ApiVersion = ApiVersion::LATEST;

fn all() -> PageParams {
    PageParams::new(1, 100)
}

/// A Tenanted client of `sandbox` at `version` with `key`, targeting `selector`.
fn tenanted(sandbox: &Sandbox, version: ApiVersion, key: &str, selector: Selector) -> Client {
    let mut config: ClientConfig = config(&sandbox.base_url(), "", key);
    config.generation = Generation::Tenanted(version);
    config.selector = selector;
    Client::new(config).expect("client builds")
}

/// A v1 client of `sandbox` for the demo organization `(id, key)`.
fn v1(sandbox: &Sandbox, (org, key): (&str, &str)) -> Client {
    Client::new(config(&sandbox.base_url(), org, key)).expect("client builds")
}

/// The Tenanted refusal behind `e`, checked to carry a fresh request ID.
fn service(e: &ApiError) -> &ServiceError {
    let s = e
        .service_error()
        .unwrap_or_else(|| panic!("not a Tenanted refusal: {e:?}"));
    let id = s.request_id.as_deref().expect("a request ID");
    assert!(
        id.len() == 24
            && id.starts_with("req_")
            && id[4..]
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{id}"
    );
    assert!(
        e.to_string()
            .ends_with(&format!("(request ID {id}; quote it to support)")),
        "{e}"
    );
    s
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

fn estimate(external_id: &str) -> EstimateRequest {
    serde_json::from_value(json!({
        "date": "2026-11-01T10:00:00Z", "external_id": external_id, "currency": "USD",
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Market St", "city": "San Francisco", "state": "CA", "postal_code": "94105", "country": "US"}],
        "transaction_items": [{"date": "2026-11-01T10:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "100"}]
    }))
    .expect("an estimate request")
}

#[tokio::test]
async fn lists_read_into_the_v1_types_in_both_releases() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let reference = v1(&sandbox, ORG1);
    let registrations = reference
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap();
    let customers = reference
        .list_customers(&CustomerFilter::default(), all())
        .await
        .unwrap();
    let transactions = reference
        .list_transactions(&TransactionFilter::default(), all())
        .await
        .unwrap();
    assert!(!customers.items.is_empty() && !transactions.items.is_empty());

    for version in [OLD, NEW] {
        let client = tenanted(&sandbox, version, ORG1.1, Selector::Home);
        assert_eq!(client.organization_id(), "");
        let page = client
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap();
        assert_eq!(page.total, registrations.total, "{version}");
        assert_eq!(page.items, registrations.items, "{version}");

        let page = client
            .list_customers(&CustomerFilter::default(), all())
            .await
            .unwrap();
        assert_eq!(page.total, customers.total, "{version}");
        assert_eq!(page.items, customers.items, "{version}");
        assert!(
            page.items.iter().any(|c| c.address.country.is_some()),
            "{version}"
        );

        let page = client
            .list_transactions(&TransactionFilter::default(), all())
            .await
            .unwrap();
        assert_eq!(page.total, transactions.total, "{version}");
        for (got, want) in page.items.iter().zip(&transactions.items) {
            assert_eq!(got.id, want.id, "{version}");
            assert_eq!(got.country, want.country, "{version}");
            assert_eq!(got.total_amount, want.total_amount, "{version}");
            let countries = |t: &taxdash::model::Transaction| {
                t.addresses
                    .iter()
                    .map(|a| a.address.country.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(countries(got), countries(want), "{version} {}", got.id);
        }
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn transactions_and_estimates_are_created_with_addresses_in_both_releases() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let reference = v1(&sandbox, ORG1);
    for version in [OLD, NEW] {
        let client = tenanted(&sandbox, version, ORG1.1, Selector::Home);
        let external_id = format!("ord-tenanted-{version}");
        let created = client.create_transaction(&sale(&external_id)).await;
        let created = created.unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(created.external_id, external_id);
        assert_eq!(created.addresses[0].address.country.as_deref(), Some("US"));
        assert_eq!(
            created.addresses[0].address.street_1.as_deref(),
            Some("1 Main St")
        );
        // What v1 reads back is what was sent through the Tenanted spelling.
        let stored = reference.get_transaction(&created.id).await.unwrap();
        assert_eq!(stored.addresses[0].address.country.as_deref(), Some("US"));
        assert_eq!(
            stored.addresses[0].address.postal_code.as_deref(),
            Some("78701")
        );

        let answer = client
            .estimate_tax(&estimate(&format!("est-{version}")))
            .await
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(answer.external_id, format!("est-{version}"));
        assert_eq!(answer.transaction_items.len(), 1);
        assert!(answer.total_tax_amount_calculated.is_some());
        let address = &answer.addresses[0];
        let country = address
            .get("country")
            .or_else(|| address.get("country_code"));
        assert_eq!(country, Some(&json!("US")), "{version}: {address}");
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn the_partner_key_lists_both_organizations_and_switches_between_them() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    for version in [OLD, NEW] {
        let partner = tenanted(&sandbox, version, DEMO_PARTNER_KEY, Selector::Home);
        let orgs = partner.list_organizations(all()).await.unwrap();
        let ids: Vec<&str> = orgs.items.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["orgn_demo_1", "orgn_demo_2"], "{version}");
        assert_eq!(orgs.items[0].name, "Acme Outdoor Supply");
        assert_eq!(orgs.items[0].state.as_deref(), Some("CA"));
        assert_eq!(orgs.items[0].country_code.as_deref(), Some("US"));
        assert_eq!(orgs.items[1].state, None, "{version}");
        assert_eq!(orgs.items[1].country_code, None, "{version}");

        // demo-key-1 reaches its own organization only.
        let own = tenanted(&sandbox, version, ORG1.1, Selector::Home);
        let page = own.list_organizations(all()).await.unwrap();
        assert_eq!(page.items.len(), 1);
        assert_eq!(page.items[0].id, "orgn_demo_1");

        let second = partner.with_organization(ORG2.0);
        assert_eq!(second.organization_id(), ORG2.0);
        assert_eq!(
            second.selector(),
            &Selector::Organization(ORG2.0.to_owned())
        );
        let before = partner.stats().requests;
        let got = second
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap();
        let want = v1(&sandbox, ORG2)
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap();
        assert_eq!(got.items, want.items, "{version}");
        // The switched client shares the pacing and the counters.
        assert_eq!(partner.stats().requests, before + 1);
        // And back: the home organization's registrations.
        let first = second.with_organization(ORG1.0);
        let got = first
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap();
        let want = v1(&sandbox, ORG1)
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap();
        assert_eq!(got.items, want.items, "{version}");
        // A write with a selector goes through.
        let customer = CustomerWrite {
            name: Some(format!("Selected {version}")),
            address: AddressFields {
                country: Some("US".into()),
                ..AddressFields::default()
            },
            ..CustomerWrite::default()
        };
        let created = second.create_customer(&customer).await.unwrap();
        assert_eq!(created.organization_id, ORG2.0);
        assert_eq!(created.address.country.as_deref(), Some("US"));
    }
    // An ID that cannot travel in a header fails each call before anything is sent.
    let partner = tenanted(&sandbox, NEW, DEMO_PARTNER_KEY, Selector::Home);
    let broken = partner.with_organization("orgn\nbad");
    let before = partner.stats().requests;
    let e = broken.list_organizations(all()).await.unwrap_err();
    assert!(matches!(e, ApiError::BadRequest { .. }), "{e:?}");
    assert!(e.to_string().contains("HTTP header"), "{e}");
    assert_eq!(partner.stats().requests, before);
    // v1 switches `x-organization-id`.
    let switched = v1(&sandbox, ORG1).with_organization(ORG2.0);
    assert_eq!(switched.organization_id(), ORG2.0);
    let e = switched
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Forbidden { .. }), "{e:?}");
    sandbox.stop().await;
}

#[tokio::test]
async fn selector_errors_reach_the_caller_with_their_code_and_request_id() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let partner = tenanted(&sandbox, NEW, DEMO_PARTNER_KEY, Selector::Home);

    // A write with no selector, by a key reaching two organizations.
    let e = partner
        .create_customer(&CustomerWrite {
            name: Some("Nobody".into()),
            ..CustomerWrite::default()
        })
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!(
        (s.status, &s.code),
        (400, &ErrorCode::MissingTargetSelector)
    );
    assert!(e.to_string().contains("`:org`"), "{e}");
    assert!(e.to_string().contains("organization_id"), "{e}");
    // Reads without a selector run against the home organization.
    partner
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap();

    // Selectors naming different organizations.
    let e = partner
        .raw_call(
            Method::GET,
            &["registrations"],
            &[
                ("Organization-Id", ORG1.0),
                ("Connection-Id", "conn_demo_2_billing"),
            ],
            None,
        )
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!(
        (s.status, &s.code),
        (400, &ErrorCode::ConflictingTargetSelectors)
    );

    // An organization the key does not reach reads as absent.
    let own = tenanted(&sandbox, NEW, ORG1.1, Selector::Organization(ORG2.0.into()));
    let e = own
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!((s.status, &s.code), (404, &ErrorCode::NotFound));
    let unknown = own.with_organization("orgn_nowhere");
    let e2 = unknown
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap_err();
    // The same answer as an unreachable one: nothing tells the two apart.
    let s2 = service(&e2);
    assert_eq!((s2.status, &s2.code), (404, &ErrorCode::NotFound));
    assert_eq!(
        s2.message.replace("orgn_nowhere", "ID"),
        s.message.replace(ORG2.0, "ID")
    );

    // An entity found on two connections, then told apart.
    let entity = |source: Option<&str>| Selector::Entity {
        id: "ent_store_100".into(),
        source: source.map(str::to_owned),
    };
    let ambiguous = tenanted(&sandbox, NEW, DEMO_PARTNER_KEY, entity(None));
    let e = ambiguous
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!(
        (s.status, &s.code),
        (409, &ErrorCode::EntityResolutionAmbiguous)
    );
    assert!(e.to_string().contains("entity_source"), "{e}");
    let org1 = v1(&sandbox, ORG1)
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap();
    let org2 = v1(&sandbox, ORG2)
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap();
    for (selector, want) in [
        (entity(Some("CHECKOUT")), &org1),
        (entity(Some("BILLING_PLATFORM")), &org2),
        (Selector::Connection("conn_demo_1_checkout".into()), &org1),
    ] {
        let client = tenanted(&sandbox, NEW, DEMO_PARTNER_KEY, selector.clone());
        let got = client
            .list_registrations(&RegistrationFilter::default(), all())
            .await
            .unwrap_or_else(|e| panic!("{selector}: {e}"));
        assert_eq!(got.items, want.items, "{selector}");
    }
    // With a key reaching one organization, the entity is not ambiguous.
    let own = tenanted(&sandbox, NEW, ORG1.1, entity(None));
    let got = own
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap();
    assert_eq!(got.items, org1.items);
    sandbox.stop().await;
}

#[tokio::test]
async fn credential_version_and_method_errors_are_typed() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let key = "sk_nobody_SECRET";
    let stranger = tenanted(&sandbox, NEW, key, Selector::Home);
    let e = stranger.list_organizations(all()).await.unwrap_err();
    let s = service(&e);
    assert_eq!((s.status, &s.code), (401, &ErrorCode::Unauthorized));
    assert!(e.is_unauthorized());
    assert!(e.to_string().contains("taxdash login"), "{e}");
    assert!(!e.to_string().contains("SECRET") && !format!("{e:?}").contains("SECRET"));
    // A v1 key is not a Tenanted key the other way round either: the partner key fails on v1.
    let e = v1(&sandbox, (ORG1.0, DEMO_PARTNER_KEY))
        .list_registrations(&RegistrationFilter::default(), all())
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Unauthorized { .. }), "{e:?}");

    let client = tenanted(&sandbox, NEW, ORG1.1, Selector::Home);
    let e = client
        .raw_call(
            Method::GET,
            &["registrations"],
            &[("Api-Version", "2020-01-01")],
            None,
        )
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!((s.status, &s.code), (400, &ErrorCode::InvalidApiVersion));
    assert!(e.to_string().contains("api_version"), "{e}");

    // The estimate takes POST only, and the answer says so.
    let e = client
        .raw_call(Method::GET, &["tax-estimations"], &[], None)
        .await
        .unwrap_err();
    let s = service(&e);
    assert_eq!((s.status, &s.code), (405, &ErrorCode::MethodNotAllowed));
    assert_eq!(s.allow, ["POST"]);
    assert!(e.to_string().contains("POST"), "{e}");

    // An unknown path is an envelope too.
    let e = client
        .raw_call(Method::GET, &["no-such-thing"], &[], None)
        .await
        .unwrap_err();
    assert_eq!(service(&e).code, ErrorCode::NotFound);
    sandbox.stop().await;
}

#[tokio::test]
async fn field_errors_come_back_with_snake_case_paths() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    for version in [OLD, NEW] {
        let client = tenanted(&sandbox, version, ORG1.1, Selector::Home);
        let mut bad = serde_json::to_value(sale("ord-bad")).unwrap();
        bad["transaction_items"][0]["amount"] = json!("twelve");
        bad["addresses"][0]["postal_code"] = json!(null);
        let e = client
            .raw_call(Method::POST, &["transactions"], &[], Some(&bad))
            .await
            .unwrap_err();
        let s = service(&e);
        assert_eq!((s.status, &s.code), (422, &ErrorCode::ValidationFailed));
        assert!(
            e.errors_at("transaction_items.0.amount").count() >= 1,
            "{version}: {:?}",
            e.errors_by_field()
        );
        assert!(e.to_string().contains("transaction_items.0.amount"), "{e}");
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn a_v1_client_refuses_what_only_the_tenanted_api_offers() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let client = v1(&sandbox, ORG1);
    let ids = vec!["fil_1".to_owned()];
    let results = vec![
        client.list_organizations(all()).await.err(),
        client
            .update_registration_credentials("r", &CredentialsUpdate::default())
            .await
            .err(),
        client.reveal_registration_credentials("r").await.err(),
        client.nexus_exposure_history("n", all()).await.err(),
        client.list_certificate_imports(None, all()).await.err(),
        client
            .approve_certificate_import("ci", &ApproveImport::default())
            .await
            .err(),
        client
            .bulk_approve_certificate_imports(&BulkApproveImports::default())
            .await
            .err(),
        client.back_filing_options().await.err(),
        client.bulk_approve_filings(&ids).await.err(),
        client.bulk_pause_filings(&ids).await.err(),
    ];
    for e in results {
        let e = e.expect("refused");
        assert!(matches!(e, ApiError::Unsupported { .. }), "{e:?}");
        assert!(e.to_string().contains("api = \"tenanted\""), "{e}");
    }
    // Nothing was sent.
    assert_eq!(client.stats().requests, 0);
    sandbox.stop().await;
}
