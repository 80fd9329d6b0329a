//! Every operation of the live v1 service, as this project lists them: each is answered by the
//! sandbox (with the records it names), never with 404 or 405.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::Harness;

/// The live v1 operations: method and path, `{…}` standing for a record's id.
const LIVE_V1: &[(&str, &str)] = &[
    ("POST", "/v1/address_validation/search"),
    ("POST", "/v1/address_validation/suggestions"),
    ("GET", "/v1/customers"),
    ("POST", "/v1/customers"),
    ("GET", "/v1/customers/{customer_id}"),
    ("PUT", "/v1/customers/{customer_id}"),
    ("GET", "/v1/customers/external/{customer_external_id}"),
    ("GET", "/v1/customers/{customer_id}/transactions"),
    ("POST", "/v1/customers/{customer_id}/transactions"),
    ("GET", "/v1/exemptions"),
    ("POST", "/v1/exemptions"),
    ("GET", "/v1/exemptions/{exemption_id}"),
    ("POST", "/v1/exemptions/{exemption_id}/attachments"),
    ("GET", "/v1/exemptions/{exemption_id}/attachments"),
    ("GET", "/v1/filings"),
    ("GET", "/v1/filings/{filing_id}"),
    ("GET", "/v1/filings/registration/{registration_id}"),
    ("GET", "/v1/nexus/physical_nexus"),
    ("POST", "/v1/nexus/physical_nexus"),
    ("PUT", "/v1/nexus/physical_nexus/{physical_nexus_id}"),
    ("DELETE", "/v1/nexus/physical_nexus/{physical_nexus_id}"),
    ("GET", "/v1/nexus"),
    ("GET", "/v1/products"),
    ("POST", "/v1/products"),
    ("GET", "/v1/products/categories"),
    ("GET", "/v1/products/{product_id}"),
    ("PUT", "/v1/products/{product_id}"),
    ("GET", "/v1/registrations"),
    ("POST", "/v1/registrations"),
    ("GET", "/v1/registrations/{registration_id}"),
    ("PUT", "/v1/registrations/{registration_id}"),
    ("POST", "/v1/registrations/{registration_id}/deregister"),
    ("GET", "/v1/transactions"),
    ("POST", "/v1/transactions"),
    ("GET", "/v1/transactions/external/{transaction_external_id}"),
    ("PUT", "/v1/transactions/{transaction_id}"),
    ("GET", "/v1/transactions/{transaction_id}"),
    ("GET", "/v1/transactions/filings/{filing_id}"),
    ("POST", "/v1/transactions/{transaction_id}/credit_notes"),
    (
        "PUT",
        "/v1/transactions/{transaction_id}/credit_notes/{credit_note_id}",
    ),
    ("POST", "/v1/tax/estimate"),
];

/// Live operations the sandbox does not serve yet. Each must still answer 405; once served, it
/// is taken off this list.
const NOT_SERVED: &[(&str, &str)] = &[];

/// The first record's `field` in the list at `path`.
async fn first(h: &Harness, path: &str, field: &str) -> String {
    let page = h.get_json(path).await;
    let items = page["items"]
        .as_array()
        .or(page.as_array())
        .expect("a list");
    items
        .iter()
        .find_map(|i| i[field].as_str().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| panic!("a {field} in {path}"))
        .to_owned()
}

#[tokio::test]
async fn every_live_v1_operation_is_answered() {
    let h = Harness::start().await;
    assert_eq!(LIVE_V1.len(), 41);
    let transactions = h
        .get_json("/v1/transactions?size=100&transaction_type=FULL_CREDIT_NOTE,PARTIAL_CREDIT_NOTE")
        .await;
    let items = transactions["items"].as_array().unwrap();
    let credit_note = items
        .iter()
        .find(|t| t["related_to"].is_string())
        .expect("a credit note among the transactions");
    let ids = [
        ("{customer_id}", first(&h, "/v1/customers", "id").await),
        (
            "{customer_external_id}",
            first(&h, "/v1/customers", "external_id").await,
        ),
        ("{exemption_id}", first(&h, "/v1/exemptions", "id").await),
        ("{filing_id}", first(&h, "/v1/filings", "id").await),
        (
            "{registration_id}",
            first(&h, "/v1/registrations", "id").await,
        ),
        (
            "{physical_nexus_id}",
            first(&h, "/v1/nexus/physical_nexus", "id").await,
        ),
        ("{product_id}", first(&h, "/v1/products", "id").await),
        (
            "{transaction_external_id}",
            first(&h, "/v1/transactions", "external_id").await,
        ),
        (
            "{transaction_id}",
            credit_note["related_to"].as_str().unwrap().to_owned(),
        ),
        (
            "{credit_note_id}",
            credit_note["id"].as_str().unwrap().to_owned(),
        ),
    ];
    let mut unanswered = Vec::new();
    let mut served_now = Vec::new();
    // Deletes last, so every other operation finds its record.
    let mut ops: Vec<&(&str, &str)> = LIVE_V1.iter().collect();
    ops.sort_by_key(|(m, _)| *m == "DELETE");
    for &&(method, template) in &ops {
        let mut path = template.to_owned();
        for (name, id) in &ids {
            path = path.replace(name, id);
        }
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let request = h.as_org(crate::common::ORG1, method.clone(), &path);
        let request = if method == Method::GET || method == Method::DELETE {
            request
        } else {
            request.json(&json!({}))
        };
        let answer = request.send().await.expect("request sent");
        let status = answer.status();
        let body: Value = answer.json().await.unwrap_or(Value::Null);
        let refused = status == StatusCode::NOT_FOUND || status == StatusCode::METHOD_NOT_ALLOWED;
        let listed = NOT_SERVED.contains(&(method.as_str(), template));
        if refused && !listed {
            unanswered.push(format!("{method} {template}: {status} {body}"));
        } else if !refused && listed {
            served_now.push(format!("{method} {template}"));
        }
    }
    assert!(unanswered.is_empty(), "{unanswered:#?}");
    assert!(
        served_now.is_empty(),
        "served now, take them off NOT_SERVED: {served_now:?}"
    );
}
