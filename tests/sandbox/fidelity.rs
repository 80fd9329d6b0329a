//! What the contract check against the live document found the sandbox accepting, or answering
//! in another shape: values outside a closed list, a page number past what is counted, the
//! address validation's bodies, and the defaults the document gives.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Harness, error_locs};

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
