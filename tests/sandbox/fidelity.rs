//! What the contract check against the live document found the sandbox accepting, or answering
//! in another shape: values outside a closed list, a page number past what is counted, the
//! address validation's bodies, and the defaults the document gives.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Draw, Harness, error_locs};

/// The one error of a 422: its `loc` dotted, and its `msg`.
async fn only_error(r: reqwest::Response) -> (String, String) {
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = r.json().await.unwrap();
    let detail = body["detail"].as_array().expect("a list of errors");
    assert_eq!(detail.len(), 1, "{body}");
    let loc: Vec<String> = detail[0]["loc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned))
        .collect();
    (loc.join("."), detail[0]["msg"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_source_outside_the_documents_list_is_refused_naming_the_field() {
    let h = Harness::start().await;
    let (loc, msg) = only_error(
        h.send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "A", "source": "AAA"}),
        )
        .await,
    )
    .await;
    assert_eq!(loc, "body.source");
    assert!(msg.contains("'SHOPIFY'"), "{msg}");

    let customer = h.get_json("/v1/customers?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/v1/customers/{customer}");
    let r = h.send(Method::PUT, &path, &json!({"source": "AAA"})).await;
    assert_eq!(error_locs(r).await, ["body.source"]);
    // Nothing was stored: the record reads back as it was, and the SDK's list still reads it.
    assert_ne!(h.get_json(&path).await["source"], "AAA");

    let product = json!({"external_id": "sku-fidelity", "name": "Widget",
        "product_category": "PHYSICAL", "product_subcategory": "GENERAL_CLOTHING",
        "tax_exempt": false, "source": "AAA"});
    let r = h.send(Method::POST, "/v1/products", &product).await;
    assert_eq!(error_locs(r).await, ["body.source"]);

    // A source of the list is taken and kept.
    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "B", "source": "SHOPIFY"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.json::<Value>().await.unwrap()["source"], "SHOPIFY");
    h.sandbox.stop().await;
}

#[tokio::test]
async fn a_page_past_what_is_counted_is_refused_never_wrapped() {
    let h = Harness::start().await;
    for page in ["4294967296", "4294967297"] {
        let r = h.get(&format!("/v1/customers?page={page}")).await;
        let (loc, msg) = only_error(r).await;
        assert_eq!(loc, "query.page", "{page}");
        assert!(msg.contains("less than or equal to"), "{msg}");
    }
    // The largest page counted is a page past the end: empty, and numbered as asked.
    let page = h.get_json("/v1/customers?page=4294967295").await;
    assert_eq!(page["page"], 4294967295_u64);
    assert_eq!(page["items"], json!([]));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn the_address_validation_answers_422_naming_the_field() {
    let h = Harness::start().await;
    for (path, body, loc) in [
        (
            "/v1/address_validation/search",
            json!({"city": 12, "state": "TX"}),
            "body.city",
        ),
        ("/v1/address_validation/search", json!("AAA"), "body"),
        (
            "/v1/address_validation/suggestions",
            json!({"postalCode": ["78701"]}),
            "body.postalCode",
        ),
    ] {
        let r = h.send(Method::POST, path, &body).await;
        assert_eq!(
            r.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path} {body}"
        );
        let text = r.text().await.unwrap();
        assert!(
            !text.contains("invalid type"),
            "no deserializer text: {text}"
        );
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            answer["detail"][0]["loc"].as_array().unwrap().len(),
            loc.split('.').count()
        );
        assert_eq!(
            answer["detail"][0]["loc"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect::<Vec<_>>()
                .join("."),
            loc
        );
    }
    let r = h
        .send(
            Method::POST,
            "/v1/address_validation/search",
            &json!({"street_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn the_documents_defaults_are_applied_and_a_bad_address_status_refused() {
    let h = Harness::start().await;
    let r = h
        .send(Method::POST, "/v1/customers", &json!({"name": "C"}))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let customer: Value = r.json().await.unwrap();
    assert_eq!(customer["address_status"], "UNVERIFIED");

    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "D", "address_status": "VERIFIED"}),
        )
        .await;
    assert_eq!(
        r.json::<Value>().await.unwrap()["address_status"],
        "VERIFIED"
    );
    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "E", "address_status": "AAA"}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.address_status"]);
    let path = format!("/v1/customers/{}", customer["id"].as_str().unwrap());
    let r = h
        .send(Method::PUT, &path, &json!({"address_status": "AAA"}))
        .await;
    assert_eq!(error_locs(r).await, ["body.address_status"]);
    assert_eq!(h.get_json(&path).await["address_status"], "UNVERIFIED");

    let exemption = json!({"exemption_type": "wholesale", "status": "ACTIVE",
        "start_date": "2025-01-01", "customer_id": customer["id"], "FEIN": "12-3456789",
        "sales_tax_id": "SR-1", "country_code": "US"});
    let r = h.send(Method::POST, "/v1/exemptions", &exemption).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.json::<Value>().await.unwrap()["reseller"], false);
    h.sandbox.stop().await;
}

/// Words of a deserializer's message that a client cannot act on.
const DESERIALIZER_WORDS: &[&str] = &[
    "invalid type",
    "expected struct",
    "missing field",
    "unknown variant",
    "at line",
    "trailing characters",
    "EOF while parsing",
];

/// Values of every JSON type, and texts the write bodies take or refuse.
fn fuzz_values() -> Vec<Value> {
    vec![
        json!("AAA"),
        json!(""),
        json!("SHOPIFY"),
        json!("TX"),
        json!("78701"),
        json!("1 Main St"),
        json!("VERIFIED"),
        json!("tax@example.com"),
        Value::String("y".repeat(5_000)),
        json!(0),
        json!(-1),
        json!(2.5),
        json!(1e300),
        json!(true),
        Value::Null,
        json!([]),
        json!(["a", 1]),
        json!({}),
        json!({"street_1": "1 Main St", "city": "Austin"}),
    ]
}

/// The keys of a customer's create and update bodies the fuzz sends.
const CUSTOMER_KEYS: &[&str] = &[
    "name",
    "email",
    "source",
    "address_status",
    "address",
    "phone",
    "external_id",
];

#[tokio::test]
async fn fuzzed_customer_product_and_address_bodies_answer_200_or_a_422_in_words() {
    let h = Harness::with(taxdash::sandbox::SandboxConfig {
        rate_limit_per_min: 0,
        ..taxdash::sandbox::SandboxConfig::default()
    })
    .await;
    let customer = h.get_json("/v1/customers?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let customer_path = format!("/v1/customers/{customer}");
    let writes: [(Method, &str, &[&str]); 4] = [
        (Method::POST, "/v1/customers", CUSTOMER_KEYS),
        (Method::PUT, &customer_path, CUSTOMER_KEYS),
        (
            Method::POST,
            "/v1/products",
            &[
                "name",
                "external_id",
                "source",
                "description",
                "product_category_id",
                "sku",
            ],
        ),
        (
            Method::POST,
            "/v1/address_validation/search",
            &[
                "street_1",
                "street_2",
                "city",
                "state",
                "postal_code",
                "country",
                "county",
            ],
        ),
    ];
    let values = fuzz_values();
    let mut draw = Draw(0xf1de);
    let mut answers = std::collections::BTreeMap::<u16, usize>::new();
    for n in 0..400 {
        let (method, path, keys) = &writes[n % writes.len()];
        // One body in twelve is not an object at all.
        let body = if draw.next(12) == 0 {
            values[draw.next(values.len())].clone()
        } else {
            let mut body = serde_json::Map::new();
            for _ in 0..=draw.next(keys.len()) {
                let key = keys[draw.next(keys.len())];
                body.insert(key.to_owned(), values[draw.next(values.len())].clone());
            }
            Value::Object(body)
        };
        let r = h.send(method.clone(), path, &body).await;
        let status = r.status();
        let text = r.text().await.unwrap();
        assert!(
            status == StatusCode::OK || status == StatusCode::UNPROCESSABLE_ENTITY,
            "{method} {path} {body} answered {status}: {text}"
        );
        for words in DESERIALIZER_WORDS {
            assert!(!text.contains(words), "{method} {path} {body}: {text}");
        }
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            let answer: Value = serde_json::from_str(&text).unwrap();
            for e in answer["detail"].as_array().expect("the 422 shape") {
                assert!(e["loc"].as_array().is_some_and(|l| !l.is_empty()), "{text}");
                assert!(e["msg"].as_str().is_some_and(|m| !m.is_empty()), "{text}");
            }
        }
        *answers.entry(status.as_u16()).or_default() += 1;
    }
    assert!(
        answers.get(&200).copied().unwrap_or(0) > 20
            && answers.get(&422).copied().unwrap_or(0) > 20,
        "{answers:?}"
    );
    // A body that is not JSON at all is the service's `json_invalid` 422 at `body`, its message
    // in words (the parser's own words only in `ctx`, as the live service gives them).
    for (method, path, _) in &writes {
        let r = h
            .as_org(crate::common::ORG1, method.clone(), path)
            .header("content-type", "application/json")
            .body("{\"name\": ")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        let answer: Value = r.json().await.unwrap();
        let e = &answer["detail"][0];
        assert_eq!(e["type"], "json_invalid", "{answer}");
        assert_eq!(e["loc"][0], "body", "{answer}");
        assert_eq!(e["msg"], "JSON decode error", "{answer}");
    }
    h.sandbox.stop().await;
}
