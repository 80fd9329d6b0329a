//! The rules on lengths and forms (text bounds, US ZIP and Canadian postal codes, FEIN) and on
//! credit-note lines (positive, within what the sale's line has left): each answers 422 naming
//! the field, in the service's shape, and what passes is saved.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::SandboxConfig;

use crate::common::{Harness, error_locs};
use crate::rules::sale;

/// The first error of a 422 answer.
async fn first_error(r: reqwest::Response) -> Value {
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = r.json().await.unwrap();
    body["detail"][0].clone()
}

#[tokio::test]
async fn long_texts_and_malformed_postal_codes_are_refused() {
    let h = Harness::start().await;
    let street = "x".repeat(10_000);
    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "Long", "street_1": street}),
        )
        .await;
    let e = first_error(r).await;
    assert_eq!(e["type"], json!("string_too_long"));
    assert_eq!(e["loc"], json!(["body", "street_1"]));
    assert_eq!(
        e["msg"],
        json!("street_1 must be at most 255 characters; this one has 10000")
    );
    assert_eq!(e["ctx"], json!({"max_length": 255}));

    for (body, loc) in [
        (
            json!({"name": "Z", "country": "US", "postal_code": "9410,5"}),
            "body.postal_code",
        ),
        (
            json!({"name": "Z", "country": "US", "postal_code": "941051"}),
            "body.postal_code",
        ),
        (
            json!({"name": "Z", "country": "CA", "postal_code": "94105"}),
            "body.postal_code",
        ),
        (
            json!({"name": "Z", "country": "CA", "postal_code": "k1a 0b1"}),
            "body.postal_code",
        ),
        (json!({"name": "n".repeat(256)}), "body.name"),
    ] {
        let r = h.send(Method::POST, "/v1/customers", &body).await;
        assert_eq!(error_locs(r).await, [loc], "{body}");
    }
    for (country, code) in [
        ("US", "94105"),
        ("US", "94105-1234"),
        ("CA", "K1A 0B1"),
        ("CA", "K1A0B1"),
        ("GB", "SW1A 1AA"),
    ] {
        let body = json!({"name": "Fine", "country": country, "postal_code": code});
        let r = h.send(Method::POST, "/v1/customers", &body).await;
        assert_eq!(r.status(), StatusCode::OK, "{body}");
    }

    // An edit that sends only a postal code is held to the country on file.
    let created: Value = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "Ottawa", "country": "CA"}),
        )
        .await
        .json()
        .await
        .unwrap();
    let path = format!("/v1/customers/{}", created["id"].as_str().unwrap());
    let r = h
        .send(Method::PUT, &path, &json!({"postal_code": "10001"}))
        .await;
    assert_eq!(error_locs(r).await, ["body.postal_code"]);
    let r = h
        .send(Method::PUT, &path, &json!({"postal_code": "K2P 1L4"}))
        .await;
    assert_eq!(r.status(), StatusCode::OK);

    // Transaction addresses and physical nexus too.
    let mut body = sale("ord-zip");
    body["addresses"][0]["postal_code"] = json!("7870");
    let r = h.send(Method::POST, "/v1/transactions", &body).await;
    assert_eq!(error_locs(r).await, ["body.addresses.0.postal_code"]);
    let nexus = json!({"country_code": "US", "state_code": "UT", "start_date": "2025-03-01",
                       "category": "INVENTORY", "postal_code": "84-101"});
    let r = h
        .send(Method::POST, "/v1/nexus/physical_nexus", &nexus)
        .await;
    assert_eq!(error_locs(r).await, ["body.postal_code"]);
    let mut nexus = nexus;
    nexus["postal_code"] = json!("84101");
    let created: Value = h
        .send(Method::POST, "/v1/nexus/physical_nexus", &nexus)
        .await
        .json()
        .await
        .unwrap();
    let path = format!(
        "/v1/nexus/physical_nexus/{}",
        created["id"].as_str().unwrap()
    );
    let update =
        json!({"start_date": "2025-03-01", "category": "INVENTORY", "postal_code": "K1A 0B1"});
    let r = h.send(Method::PUT, &path, &update).await;
    assert_eq!(
        error_locs(r).await,
        ["body.postal_code"],
        "a Utah record takes a ZIP code"
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn a_fein_is_nine_digits_with_an_optional_hyphen() {
    let h = Harness::start().await;
    let customer = h.get_json("/v1/customers?size=1").await["items"][0]["id"].clone();
    let exemption = |fein: &str| {
        json!({"exemption_type": "wholesale", "status": "ACTIVE", "start_date": "2025-01-01",
               "customer_id": customer, "FEIN": fein, "sales_tax_id": "SR-1", "country_code": "US"})
    };
    for fein in ["123", "12-345678", "AB-3456789", "123-456789"] {
        let r = h
            .send(Method::POST, "/v1/exemptions", &exemption(fein))
            .await;
        let e = first_error(r).await;
        assert_eq!(e["loc"], json!(["body", "FEIN"]), "{fein}");
        assert!(e["msg"].as_str().unwrap().contains("12-3456789"), "{e}");
    }
    for fein in ["12-3456789", "123456789"] {
        let r = h
            .send(Method::POST, "/v1/exemptions", &exemption(fein))
            .await;
        assert_eq!(r.status(), StatusCode::OK, "{fein}");
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credit_note_lines_are_positive_and_within_what_is_left() {
    let h = Harness::with(SandboxConfig {
        processing_delay: Duration::from_millis(100),
        ..SandboxConfig::default()
    })
    .await;
    let created: Value = h
        .send(Method::POST, "/v1/transactions", &sale("ord-lines"))
        .await
        .json()
        .await
        .unwrap();
    let path = format!(
        "/v1/transactions/{}/credit_notes",
        created[0]["id"].as_str().unwrap()
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The sale: prod_sku_kbd 129.00 and prod_sku_mouse 98.
    let note = |ext: &str, lines: &[(&str, &str)]| {
        let items: Vec<Value> = lines
            .iter()
            .enumerate()
            .map(|(i, (product, amount))| {
                json!({"external_id": format!("{ext}-{i}"), "date": "2026-11-05T00:00:00Z",
                       "external_product_id": product, "quantity": 1, "amount": amount})
            })
            .collect();
        json!({"external_id": ext, "date": "2026-11-05T00:00:00Z", "status": "COMMITTED",
               "total_amount": "1.00", "currency": "USD", "transaction_items": items})
    };

    let r = h
        .send(
            Method::POST,
            &path,
            &note("neg", &[("prod_sku_kbd", "-5.00")]),
        )
        .await;
    let e = first_error(r).await;
    assert_eq!(e["loc"], json!(["body", "transaction_items", 0, "amount"]));
    assert!(e["msg"].as_str().unwrap().contains("more than 0"), "{e}");
    let r = h
        .send(Method::POST, &path, &note("zero", &[("prod_sku_kbd", "0")]))
        .await;
    assert_eq!(error_locs(r).await, ["body.transaction_items.0.amount"]);

    let r = h
        .send(
            Method::POST,
            &path,
            &note(
                "over",
                &[("prod_sku_mouse", "10"), ("prod_sku_kbd", "129.01")],
            ),
        )
        .await;
    let e = first_error(r).await;
    assert_eq!(e["loc"], json!(["body", "transaction_items", 1, "amount"]));
    assert!(
        e["msg"]
            .as_str()
            .unwrap()
            .contains("129.01 is more than the 129.00 left to credit on prod_sku_kbd"),
        "{e}"
    );
    let r = h
        .send(
            Method::POST,
            &path,
            &note("other", &[("prod_sku_cable", "1")]),
        )
        .await;
    assert_eq!(
        error_locs(r).await,
        ["body.transaction_items.0.external_product_id"]
    );

    // 100 of the keyboard credited; 29 left on it afterwards.
    let r = h
        .send(
            Method::POST,
            &path,
            &note("cn-a", &[("prod_sku_kbd", "100")]),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let r = h
        .send(
            Method::POST,
            &path,
            &note("cn-b", &[("prod_sku_kbd", "29.01")]),
        )
        .await;
    let e = first_error(r).await;
    assert!(e["msg"].as_str().unwrap().contains("the 29.00 left"), "{e}");
    let r = h
        .send(
            Method::POST,
            &path,
            &note("cn-c", &[("prod_sku_kbd", "29")]),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}
