//! Requests the live service refuses are refused alike (a product edit without a field the
//! service requires among them), and every 422 item carries `ctx`.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::common::{Harness, PRODUCT_EDIT_REQUIRED, error_locs, product_edit};
use super::rules::sale;

/// The items of a 422 answer.
async fn items_of(r: reqwest::Response) -> Vec<Value> {
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = r.json().await.expect("JSON answer");
    body["detail"].as_array().expect("a list of items").clone()
}

#[tokio::test]
async fn every_422_item_carries_ctx_an_empty_object_when_there_is_nothing_to_say() {
    let h = Harness::start().await;
    let mut missing = sale("ctx-1");
    missing.as_object_mut().unwrap().remove("date");
    missing["currency"] = json!("XYZ");
    let answers = [
        h.send(Method::POST, "/v1/transactions", &missing).await,
        h.get("/v1/filings?page=0&status__in=LOST").await,
        h.send(Method::POST, "/v1/customers", &json!({"email": 5}))
            .await,
    ];
    let mut empty = 0;
    for r in answers {
        for item in items_of(r).await {
            let ctx = item
                .get("ctx")
                .unwrap_or_else(|| panic!("no ctx in {item}"));
            assert!(ctx.is_object(), "ctx is an object in {item}");
            if ctx.as_object().is_some_and(serde_json::Map::is_empty) {
                empty += 1;
            }
        }
    }
    assert!(empty > 0, "a missing field says nothing more: ctx is {{}}");
}

#[tokio::test]
async fn a_transaction_needs_an_external_id_of_at_least_one_character() {
    let h = Harness::start().await;
    let r = h.send(Method::POST, "/v1/transactions", &sale("")).await;
    let items = items_of(r).await;
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0]["loc"], json!(["body", "external_id"]));
    assert_eq!(items[0]["type"], "string_too_short");
    assert_eq!(items[0]["ctx"], json!({"min_length": 1}));
    let r = h.send(Method::POST, "/v1/transactions", &sale("x")).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn a_transaction_line_without_quantity_or_amount_is_refused_naming_the_field() {
    let h = Harness::start().await;
    for field in ["quantity", "amount"] {
        let mut body = sale(&format!("no-{field}"));
        body["transaction_items"][1]
            .as_object_mut()
            .unwrap()
            .remove(field);
        let r = h.send(Method::POST, "/v1/transactions", &body).await;
        assert_eq!(
            error_locs(r).await,
            [format!("body.transaction_items.1.{field}")]
        );
        let r = h
            .get(&format!("/v1/transactions/external/no-{field}"))
            .await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "nothing was stored");
    }
}

#[tokio::test]
async fn a_product_edit_without_a_field_the_live_service_requires_is_refused_naming_it() {
    let h = Harness::start().await;
    let product = h.get_json("/v1/products?size=1").await["items"][0].clone();
    let path = format!("/v1/products/{}", product["id"].as_str().unwrap());
    let before = h.get_json(&path).await;
    let described = product_edit(&product, &json!({"description": "Described again"}));

    for field in PRODUCT_EDIT_REQUIRED {
        let mut body = described.clone();
        body.as_object_mut().unwrap().remove(field);
        let items = items_of(h.send(Method::PUT, &path, &body).await).await;
        assert_eq!(items.len(), 1, "without {field}: {items:?}");
        assert_eq!(items[0]["loc"], json!(["body", field]));
        assert_eq!(items[0]["type"], "missing");
        assert_eq!(items[0]["msg"], "Field required");
        assert_eq!(items[0]["ctx"], json!({}));

        // Sent as null, it is refused by its type, never a server error.
        body[field] = Value::Null;
        let r = h.send(Method::PUT, &path, &body).await;
        assert_eq!(error_locs(r).await, [format!("body.{field}")]);
    }
    let items = items_of(
        h.send(
            Method::PUT,
            &path,
            &json!({"description": "Described again"}),
        )
        .await,
    )
    .await;
    let mut fields: Vec<&str> = items.iter().filter_map(|i| i["loc"][1].as_str()).collect();
    fields.sort_unstable();
    assert_eq!(fields, PRODUCT_EDIT_REQUIRED, "each one named");
    assert_eq!(h.get_json(&path).await, before, "nothing was changed");

    let r = h.send(Method::PUT, &path, &described).await;
    assert_eq!(r.status(), StatusCode::OK);
    let edited: Value = r.json().await.unwrap();
    assert_eq!(edited["description"], "Described again");
    assert_eq!(edited["name"], product["name"]);
}
