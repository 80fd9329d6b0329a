//! Each documented rule answers 422 in the service's shape, naming the field.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Harness, error_locs};

async fn first_registration(h: &Harness) -> String {
    let page = h
        .get_json("/v1/registrations?status__in=REGISTERED&size=1")
        .await;
    page["items"][0]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn deregistration_rules() {
    let h = Harness::start().await;
    let id = first_registration(&h).await;
    let path = format!("/v1/registrations/{id}/deregister");

    // No body at all.
    let r = h
        .as_org(crate::common::ORG1, Method::POST, &path)
        .send()
        .await
        .unwrap();
    assert_eq!(error_locs(r).await, ["body"]);

    for (body, loc) in [
        (
            json!({"closure_date": "2026-02-31", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": true}),
            "body.closure_date",
        ),
        (
            json!({"closure_date": "31/12/2026", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": true}),
            "body.closure_date",
        ),
        (
            json!({"closure_date": "2026-12-31", "reason": "BANKRUPT", "final_return_acknowledged": true}),
            "body.reason",
        ),
        (
            json!({"closure_date": "2026-12-31", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": false}),
            "body.final_return_acknowledged",
        ),
        (
            json!({"closure_date": "2026-12-31", "reason": "FULL_BUSINESS_CLOSURE"}),
            "body.final_return_acknowledged",
        ),
        (
            json!({"closure_date": "2026-12-31", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": "maybe"}),
            "body.final_return_acknowledged",
        ),
    ] {
        let r = h.send(Method::POST, &path, &body).await;
        assert_eq!(error_locs(r).await, [loc], "{body}");
    }
    let r = h.send(Method::POST, &path, &json!({})).await;
    assert_eq!(
        error_locs(r).await.len(),
        3,
        "every missing field is reported at once"
    );

    // Nothing was changed by the refused requests.
    assert_eq!(
        h.get_json(&format!("/v1/registrations/{id}")).await["status"],
        json!("REGISTERED")
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn physical_nexus_rules() {
    let h = Harness::start().await;
    let good = json!({"country_code": "US", "state_code": "CO", "start_date": "2025-01-01", "category": "INVENTORY"});
    for (patch, loc) in [
        (json!({"country_code": null}), "body.country_code"),
        (json!({"country_code": "USA"}), "body.country_code"),
        (json!({"state_code": "Colorado!"}), "body.state_code"),
        // Well formed, but no state of the United States, nor a province of Canada.
        (json!({"state_code": "QQ"}), "body.state_code"),
        (
            json!({"country_code": "CA", "state_code": "TX"}),
            "body.state_code",
        ),
        (json!({"start_date": null}), "body.start_date"),
        (json!({"category": "CASTLE"}), "body.category"),
        (json!({"end_date": "2024-12-31"}), "body.end_date"),
    ] {
        let mut body = good.clone();
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                body.as_object_mut().unwrap().remove(k);
            } else {
                body[k] = v.clone();
            }
        }
        let r = h
            .send(Method::POST, "/v1/nexus/physical_nexus", &body)
            .await;
        assert_eq!(error_locs(r).await, [loc], "{body}");
    }
    let existing = h.get_json("/v1/nexus/physical_nexus?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = h
        .send(
            Method::PUT,
            &format!("/v1/nexus/physical_nexus/{existing}"),
            &json!({"start_date": "2025-05-01", "end_date": "2025-04-30", "category": "INVENTORY"}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.end_date"]);
    let r = h
        .send(
            Method::PUT,
            &format!("/v1/nexus/physical_nexus/{existing}"),
            &json!({"start_date": "2025-05-01"}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.category"]);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn exemption_customer_and_tax_registration_rules() {
    let h = Harness::start().await;
    let customer = h.get_json("/v1/customers?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let good = json!({
        "exemption_type": "wholesale", "status": "ACTIVE", "start_date": "2026-01-01", "customer_id": customer,
        "FEIN": "12-3456789", "sales_tax_id": "ST-1", "country_code": "US", "jurisdiction": "CA"
    });
    for (k, v, loc) in [
        ("exemption_type", json!("friendly"), "body.exemption_type"),
        ("status", json!("MAYBE"), "body.status"),
        ("start_date", json!("2026-13-01"), "body.start_date"),
        ("end_date", json!("2025-12-31"), "body.end_date"),
        ("FEIN", json!(""), "body.FEIN"),
        ("country_code", json!("XX"), "body.country_code"),
    ] {
        let mut body = good.clone();
        body[k] = v;
        let r = h.send(Method::POST, "/v1/exemptions", &body).await;
        assert_eq!(error_locs(r).await, [loc], "{k}");
    }
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("sales_tax_id");
    assert_eq!(
        error_locs(h.send(Method::POST, "/v1/exemptions", &missing).await).await,
        ["body.sales_tax_id"]
    );

    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"email": "not-an-email"}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.email"]);
    let r = h
        .send(Method::POST, "/v1/customers", &json!({"country": "Narnia"}))
        .await;
    assert_eq!(error_locs(r).await, ["body.country"]);
    let r = h
        .send(
            Method::POST,
            &format!("/v1/customers/{customer}/tax-registrations"),
            &json!({"tax_id": "   "}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.tax_id"]);
    let r = h
        .send(
            Method::POST,
            &format!("/v1/customers/{customer}/tax-registrations"),
            &json!({}),
        )
        .await;
    assert_eq!(error_locs(r).await, ["body.tax_id"]);
    h.sandbox.stop().await;
}

pub(crate) fn sale(external_id: &str) -> Value {
    json!({
        "external_id": external_id, "date": "2026-11-02T09:30:00Z", "type": "SALE", "currency": "USD",
        "customer": {"name": "Ada Lovelace", "email": "ada@example.com", "external_id": "cust-ada"},
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}],
        "transaction_items": [
            {"external_id": "l1", "date": "2026-11-02T09:30:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "129.00"},
            {"external_id": "l2", "date": "2026-11-02T09:30:00Z", "external_product_id": "prod_sku_mouse", "quantity": 2, "amount": 98}
        ]
    })
}

#[tokio::test]
async fn transaction_and_credit_note_rules() {
    let h = Harness::start().await;
    let mut body = sale("bad-1");
    body["currency"] = json!("XYZ");
    assert_eq!(
        error_locs(h.send(Method::POST, "/v1/transactions", &body).await).await,
        ["body.currency"]
    );
    let mut body = sale("bad-2");
    body["transaction_items"][1]["amount"] = json!("ninety");
    assert_eq!(
        error_locs(h.send(Method::POST, "/v1/transactions", &body).await).await,
        ["body.transaction_items.1.amount"]
    );
    let mut body = sale("bad-3");
    body.as_object_mut().unwrap().remove("customer");
    assert_eq!(
        error_locs(h.send(Method::POST, "/v1/transactions", &body).await).await,
        ["body.customer"]
    );

    let sale = h
        .get_json("/v1/transactions?transaction_type=SALE&size=1")
        .await["items"][0]
        .clone();
    let path = format!(
        "/v1/transactions/{}/credit_notes",
        sale["id"].as_str().unwrap()
    );
    let note = |patch: Value| {
        let mut b = json!({
            "external_id": "cn-1", "date": "2026-11-03T00:00:00Z", "status": "COMMITTED", "total_amount": "10.00",
            "currency": sale["currency"], "transaction_items": [
                {"external_id": "l1", "date": "2026-11-03T00:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "10.00"}
            ]
        });
        for (k, v) in patch.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    for (patch, loc) in [
        (json!({"status": "DONE"}), "body.status"),
        (json!({"currency": "ABC"}), "body.currency"),
        (json!({"total_amount": "ten"}), "body.total_amount"),
        (json!({"transaction_items": []}), "body.transaction_items"),
        (
            json!({"transaction_items": [{"external_id": "l1", "date": "2026-11-03T00:00:00Z", "external_product_id": "p", "quantity": 1}]}),
            "body.transaction_items.0.amount",
        ),
        (
            json!({"transaction_items": [{"external_id": "l1", "date": "2026-11-03T00:00:00Z", "external_product_id": "p", "quantity": 1, "amount": "10.00", "discount_amount": "10.00"}]}),
            "body.transaction_items.0.discount_amount",
        ),
    ] {
        let r = h.send(Method::POST, &path, &note(patch.clone())).await;
        assert_eq!(error_locs(r).await, [loc], "{patch}");
    }
    let r = h
        .send(Method::POST, "/v1/transactions", &json!([1, 2]))
        .await;
    assert_eq!(error_locs(r).await, ["body"]);
    let r = h
        .as_org(crate::common::ORG1, Method::POST, "/v1/transactions")
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let r = h
        .send(
            Method::POST,
            "/v1/tax/estimate",
            &json!({"external_id": "e"}),
        )
        .await;
    let locs = error_locs(r).await;
    assert!(
        locs.contains(&"body.currency".to_owned())
            && locs.contains(&"body.transaction_items".to_owned()),
        "{locs:?}"
    );
    h.sandbox.stop().await;
}
