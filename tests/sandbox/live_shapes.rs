//! Every list and detail the sandbox serves on v1 carries what the live service's answers carry:
//! each required field of the live schema, present and not null, and enum fields within the live
//! values (or the values the interface document adds, listed as deliberate). The facts are the
//! project's own copy in `live_required.toml`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;
use taxdash::sandbox::SandboxConfig;

use super::common::Harness;

const FACTS: &str = include_str!("live_required.toml");

#[derive(Deserialize)]
struct Facts {
    endpoint: Vec<Endpoint>,
    deliberate: Vec<Deliberate>,
    order_by_example: Vec<OrderByExample>,
    schema: BTreeMap<String, Schema>,
}

#[derive(Deserialize)]
struct Endpoint {
    path: String,
    shape: String,
    schema: String,
    ids_from: Option<String>,
}

#[derive(Deserialize)]
struct OrderByExample {
    path: String,
    order_by: String,
}

#[derive(Deserialize)]
struct Deliberate {
    schemas: Vec<String>,
    field: String,
    values: Vec<String>,
}

#[derive(Deserialize)]
struct Schema {
    required: Vec<String>,
    #[serde(default)]
    enums: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    nested: BTreeMap<String, String>,
}

fn facts() -> Facts {
    toml::from_str(FACTS).expect("live_required.toml reads")
}

impl Facts {
    fn allowed(&self, schema: &str, field: &str, values: &[String]) -> BTreeSet<String> {
        let mut allowed: BTreeSet<String> = values.iter().cloned().collect();
        for d in &self.deliberate {
            if d.field == field && d.schemas.iter().any(|s| s == schema) {
                allowed.extend(d.values.iter().cloned());
            }
        }
        allowed
    }

    /// What `item` (at `at`) lacks or carries wrongly against `schema`, one line each.
    fn faults(&self, schema: &str, item: &Value, at: &str, out: &mut Vec<String>) {
        let facts = self
            .schema
            .get(schema)
            .unwrap_or_else(|| panic!("no facts for schema {schema}"));
        let Some(object) = item.as_object() else {
            out.push(format!("{at}: not an object ({schema})"));
            return;
        };
        for field in &facts.required {
            match object.get(field) {
                None => out.push(format!("{at}.{field}: missing ({schema})")),
                Some(Value::Null) => out.push(format!("{at}.{field}: null ({schema})")),
                Some(_) => {}
            }
        }
        for (field, values) in &facts.enums {
            let Some(value) = object.get(field).filter(|v| !v.is_null()) else {
                continue;
            };
            let allowed = self.allowed(schema, field, values);
            match value.as_str() {
                Some(text) if allowed.contains(text) => {}
                _ => out.push(format!(
                    "{at}.{field}: {value} is not a live value ({schema})"
                )),
            }
        }
        for (field, inner) in &facts.nested {
            let Some(value) = object.get(field).filter(|v| !v.is_null()) else {
                continue;
            };
            if let Some(element) = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                let Some(list) = value.as_array() else {
                    out.push(format!("{at}.{field}: not a list ({schema})"));
                    continue;
                };
                for (i, entry) in list.iter().enumerate() {
                    self.faults(element, entry, &format!("{at}.{field}[{i}]"), out);
                }
            } else {
                self.faults(inner, value, &format!("{at}.{field}"), out);
            }
        }
    }
}

/// What `item` lacks or carries wrongly against the live schema `schema`, one line each.
pub fn faults_of(schema: &str, item: &Value) -> Vec<String> {
    let mut out = Vec::new();
    facts().faults(schema, item, "item", &mut out);
    out
}

/// Every item of every page of the v1 list at `path`.
async fn all_items(h: &Harness, path: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut page = 1;
    loop {
        let sep = if path.contains('?') { '&' } else { '?' };
        let body = h
            .get_json(&format!("{path}{sep}page={page}&size=100"))
            .await;
        let batch = body["items"].as_array().expect("a page has items").clone();
        let pages = body["pages"].as_u64().expect("a page says how many pages");
        items.extend(batch);
        if u64::try_from(page).unwrap() >= pages {
            return items;
        }
        page += 1;
    }
}

/// Fetches what the endpoint at `path` serves (for every id, when it takes one) and checks each
/// item against its live schema; fails listing every fault.
async fn conforms(path: &str) {
    let facts = facts();
    let endpoint = facts
        .endpoint
        .iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("{path} is not in live_required.toml"));
    // Details are fetched one by one: no rate limit in the way.
    let h = Harness::with(SandboxConfig {
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    let urls: Vec<String> = match &endpoint.ids_from {
        None => vec![endpoint.path.clone()],
        Some(parent) => all_items(&h, parent)
            .await
            .iter()
            .map(|item| {
                let id = item["id"].as_str().expect("an item has an id");
                endpoint.path.replace("{id}", id)
            })
            .collect(),
    };
    assert!(
        !urls.is_empty(),
        "{path}: the demo data has nothing to check"
    );
    let mut checked = 0;
    let mut faults = Vec::new();
    for url in &urls {
        let items = match endpoint.shape.as_str() {
            "page" => all_items(&h, url).await,
            "array" => h
                .get_json(url)
                .await
                .as_array()
                .unwrap_or_else(|| panic!("{url} answers a list"))
                .clone(),
            "detail" => vec![h.get_json(url).await],
            other => panic!("unknown shape {other}"),
        };
        for (i, item) in items.iter().enumerate() {
            facts.faults(&endpoint.schema, item, &format!("{url}[{i}]"), &mut faults);
            checked += 1;
        }
    }
    assert!(checked > 0, "{path}: no items to check");
    let shown: Vec<&String> = faults.iter().take(40).collect();
    assert!(
        faults.is_empty(),
        "{path}: {} faults in {checked} items against the live document, first:\n{}",
        faults.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The endpoints the tests below check: the table must name each and nothing else.
const CHECKED: &[&str] = &[
    "/v1/registrations",
    "/v1/registrations/{id}",
    "/v1/nexus",
    "/v1/nexus/{id}",
    "/v1/nexus/physical_nexus",
    "/v1/customers",
    "/v1/customers/{id}",
    "/v1/exemptions",
    "/v1/exemptions/{id}",
    "/v1/exemptions/{id}/attachments",
    "/v1/transactions",
    "/v1/transactions/{id}",
    "/v1/filings",
    "/v1/filings/{id}",
    "/v1/products",
    "/v1/products/{id}",
    "/v1/products/categories",
];

#[test]
fn every_endpoint_of_the_table_has_its_test_and_every_schema_its_facts() {
    let facts = facts();
    let table: BTreeSet<&str> = facts.endpoint.iter().map(|e| e.path.as_str()).collect();
    let tested: BTreeSet<&str> = CHECKED.iter().copied().collect();
    assert_eq!(table, tested);
    for e in &facts.endpoint {
        assert!(facts.schema.contains_key(&e.schema), "{}", e.schema);
        assert!(
            ["page", "array", "detail"].contains(&e.shape.as_str()),
            "{}",
            e.path
        );
    }
    for schema in facts.schema.values() {
        for inner in schema.nested.values() {
            let name = inner.trim_start_matches('[').trim_end_matches(']');
            assert!(facts.schema.contains_key(name), "{name}");
        }
    }
}

#[test]
fn a_missing_field_a_null_and_a_value_off_the_enum_are_each_reported() {
    let facts = facts();
    let mut faults = Vec::new();
    let item = serde_json::json!({
        "id": "x", "external_id": "e", "sku": [], "code": "c", "name": "n", "description": "d",
        "status": "SOLD_OUT", "product_category": "PHYSICAL", "product_subcategory": "GENERAL",
        "tax_exempt": false, "source": "CHECKOUT", "connection_id": null,
    });
    facts.faults("ProductRead", &item, "p", &mut faults);
    assert_eq!(
        faults,
        [
            "p.connection_id: null (ProductRead)",
            "p.classification_failed: missing (ProductRead)",
            "p.status: \"SOLD_OUT\" is not a live value (ProductRead)",
        ]
    );
}

#[tokio::test]
async fn registrations_list() {
    conforms("/v1/registrations").await;
}

#[tokio::test]
async fn registration_detail() {
    conforms("/v1/registrations/{id}").await;
}

#[tokio::test]
async fn economic_nexus_list() {
    conforms("/v1/nexus").await;
}

#[tokio::test]
async fn economic_nexus_detail() {
    conforms("/v1/nexus/{id}").await;
}

#[tokio::test]
async fn physical_nexus_list() {
    conforms("/v1/nexus/physical_nexus").await;
}

#[tokio::test]
async fn customers_list() {
    conforms("/v1/customers").await;
}

#[tokio::test]
async fn customer_detail() {
    conforms("/v1/customers/{id}").await;
}

#[tokio::test]
async fn exemptions_list() {
    conforms("/v1/exemptions").await;
}

#[tokio::test]
async fn exemption_detail() {
    conforms("/v1/exemptions/{id}").await;
}

#[tokio::test]
async fn exemption_attachments() {
    conforms("/v1/exemptions/{id}/attachments").await;
}

#[tokio::test]
async fn transactions_list() {
    conforms("/v1/transactions").await;
}

#[tokio::test]
async fn transaction_detail() {
    conforms("/v1/transactions/{id}").await;
}

#[tokio::test]
async fn filings_list() {
    conforms("/v1/filings").await;
}

#[tokio::test]
async fn filing_detail() {
    conforms("/v1/filings/{id}").await;
}

#[tokio::test]
async fn products_list() {
    conforms("/v1/products").await;
}

#[tokio::test]
async fn product_detail() {
    conforms("/v1/products/{id}").await;
}

#[tokio::test]
async fn product_categories() {
    conforms("/v1/products/categories").await;
}

#[tokio::test]
async fn a_filed_return_says_the_day_it_was_filed_as_a_date() {
    let h = Harness::start().await;
    let filings = all_items(&h, "/v1/filings").await;
    let filed: Vec<&str> = filings
        .iter()
        .filter_map(|f| f["date_filed"].as_str())
        .collect();
    assert!(!filed.is_empty(), "the demo data has filed returns");
    for day in filed {
        assert!(
            chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").is_ok(),
            "date_filed {day:?} is not a YYYY-MM-DD date"
        );
    }
}

#[tokio::test]
async fn the_live_documents_order_by_examples_are_accepted() {
    let h = Harness::start().await;
    let facts = facts();
    assert!(!facts.order_by_example.is_empty());
    for example in &facts.order_by_example {
        let path = format!("{}?order_by={}", example.path, example.order_by);
        let body = h.get_json(&path).await;
        assert!(body["total"].as_u64() > Some(0), "{path} lists something");
    }
}
