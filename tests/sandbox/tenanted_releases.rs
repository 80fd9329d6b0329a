//! The release table of the Tenanted API on the mirrored v1 records and the organizations, each
//! row in both releases, and the fixed forms of amounts, rates and timestamps.

use std::time::Duration;

use reqwest::{Method, RequestBuilder, StatusCode};
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Value, json};
use taxdash::sandbox::{DEMO_PARTNER_KEY, SandboxConfig};

use crate::common::{Harness, ORG1};

const OLD: &str = "2026-07-21";
const NEW: &str = "2026-10-06";

fn tenanted(h: &Harness, version: &str, method: Method, path: &str) -> RequestBuilder {
    h.bare(method, path)
        .header("Api-Key", ORG1.1)
        .header("Api-Version", version)
}

async fn get(h: &Harness, version: &str, path: &str) -> Value {
    let r = tenanted(h, version, Method::GET, path)
        .send()
        .await
        .expect("request sent");
    assert_eq!(r.status(), StatusCode::OK, "GET {path}");
    r.json().await.expect("JSON answer")
}

/// A sale in the Tenanted shape of `version`: camelCase, and the country field of the release.
fn sale(external_id: &str, version: &str) -> Value {
    let country = if version == NEW {
        "countryCode"
    } else {
        "country"
    };
    json!({
        "externalId": external_id, "date": "2026-11-02T09:30:00Z", "type": "SALE", "currency": "USD",
        "customer": {"name": "Ada Lovelace", "email": "ada@example.com", "externalId": "cust-ada"},
        "addresses": [{"type": "SHIP_TO", "street1": "1 Main St", "city": "Austin", "state": "TX", "postalCode": "78701", country: "US"}],
        "transactionItems": [
            {"externalId": "l1", "date": "2026-11-02T09:30:00Z", "externalProductId": "prod_sku_kbd", "quantity": 1, "amount": "129"},
            {"externalId": "l2", "date": "2026-11-02T09:30:00+02:00", "externalProductId": "prod_sku_mouse", "quantity": 2, "amount": 98.5}
        ]
    })
}

/// A v1 decimal string at `scale` places, as the Tenanted API sends it.
fn scaled(v1: &Value, scale: u32) -> Value {
    let mut d: Decimal = v1
        .as_str()
        .unwrap_or_else(|| panic!("{v1} is a decimal string"))
        .parse()
        .unwrap();
    d = d.round_dp_with_strategy(scale, RoundingStrategy::MidpointAwayFromZero);
    d.rescale(scale);
    let text = d.to_string();
    assert_eq!(
        text.split_once('.').map(|(_, f)| f.len()),
        Some(scale as usize)
    );
    json!(text)
}

#[tokio::test]
async fn transactions_carry_the_country_field_of_the_release_and_fixed_number_forms() {
    let h = Harness::with(SandboxConfig {
        processing_delay: Duration::from_millis(200),
        ..SandboxConfig::default()
    })
    .await;
    let mut ids = Vec::new();
    for version in [OLD, NEW] {
        let r = tenanted(&h, version, Method::POST, "/transactions")
            .json(&sale(&format!("ord-{version}"), version))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        let created: Value = r.json().await.unwrap();
        let t = &created[0];
        let address = &t["addresses"][0];
        let lines = t["transactionItems"].as_array().unwrap();
        if version == OLD {
            assert_eq!(address["country"], json!("US"), "{address}");
            assert!(address.get("countryCode").is_none());
            assert_eq!(lines[0]["productName"], Value::Null);
        } else {
            assert_eq!(address["countryCode"], json!("US"), "{address}");
            assert!(address.get("country").is_none());
            assert_eq!(lines[0]["productName"], json!(""));
        }
        assert_eq!(address["street1"], json!("1 Main St"));
        assert_eq!(t["totalAmount"], json!("227.50"));
        assert_eq!(
            [&lines[0]["amount"], &lines[1]["amount"]],
            [&json!("129.00"), &json!("98.50")]
        );
        assert_eq!(
            lines[0]["quantity"],
            json!("1"),
            "quantities keep their form"
        );
        assert_eq!(t["date"], json!("2026-11-02T09:30:00Z"));
        assert_eq!(lines[1]["date"], json!("2026-11-02T07:30:00Z"));
        ids.push(t["id"].as_str().unwrap().to_owned());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (version, id) in [OLD, NEW].into_iter().zip(&ids) {
        let t = get(&h, version, &format!("/transactions/{id}")).await;
        assert_eq!(t["processingStatus"], json!("PROCESSED"));
        // The v1 values at the fixed scales.
        let v1 = h.get_json(&format!("/v1/transactions/{id}")).await;
        for (key, v1_key, scale) in [
            ("taxRateCalculated", "tax_rate_calculated", 9),
            ("totalTaxAmountCalculated", "total_tax_amount_calculated", 2),
            ("finalTotalAmount", "final_total_amount", 2),
        ] {
            assert_eq!(t[key], scaled(&v1[v1_key], scale), "{key}");
        }
        let (line, v1_line) = (&t["transactionItems"][1], &v1["transaction_items"][1]);
        assert_eq!(
            line["taxRateCalculated"],
            scaled(&v1_line["tax_rate_calculated"], 9)
        );
        assert_eq!(
            line["taxAmountCalculated"],
            scaled(&v1_line["tax_amount_calculated"], 2)
        );
        assert!(t["createdAt"].as_str().is_none_or(|s| s.ends_with('Z')));
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn customers_carry_the_country_field_of_the_release() {
    let h = Harness::start().await;
    let id = h.get_json("/v1/customers?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let v1 = h.get_json(&format!("/v1/customers/{id}")).await;
    let country = v1["country"].clone();
    assert!(country.is_string(), "{v1}");
    let old = get(&h, OLD, &format!("/customers/{id}")).await;
    let new = get(&h, NEW, &format!("/customers/{id}")).await;
    assert_eq!(old["country"], country);
    assert!(old.get("countryCode").is_none());
    assert_eq!(new["countryCode"], country);
    assert!(new.get("country").is_none());
    assert_eq!(old["organizationId"], json!(ORG1.0));
    assert_eq!(
        old["street1"], v1["street_1"],
        "the other keys in camelCase"
    );

    // A write reads the country field of its release.
    for (version, field) in [(OLD, "country"), (NEW, "countryCode")] {
        let r = tenanted(&h, version, Method::PUT, &format!("/customers/{id}"))
            .json(&json!({ field: "CA" }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.json::<Value>().await.unwrap()[field], json!("CA"));
        assert_eq!(
            h.get_json(&format!("/v1/customers/{id}")).await["country"],
            json!("CA")
        );
        h.send(
            Method::PUT,
            &format!("/v1/customers/{id}"),
            &json!({"country": "US"}),
        )
        .await;
    }
    // A JSON body sent without a content type is read the same way.
    let r = tenanted(&h, NEW, Method::PUT, &format!("/customers/{id}"))
        .body(r#"{"countryCode": "MX", "postalCode": "01000"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let v1 = h.get_json(&format!("/v1/customers/{id}")).await;
    assert_eq!(
        (&v1["country"], &v1["postal_code"]),
        (&json!("MX"), &json!("01000"))
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn a_country_level_filing_has_an_empty_then_null_state() {
    let h = Harness::start().await;
    let filings = h.get_json("/v1/filings?country_code=CA&size=100").await;
    let filing = filings["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["state_code"] == json!("") || f["state_code"].is_null())
        .expect("a country-level filing in the demo data");
    let id = filing["id"].as_str().unwrap();
    let old = get(&h, OLD, &format!("/filings/{id}")).await;
    assert_eq!(
        (&old["stateCode"], &old["stateName"], &old["countryCode"]),
        (&json!(""), &json!(""), &json!("CA"))
    );
    let new = get(&h, NEW, &format!("/filings/{id}")).await;
    assert_eq!(
        (&new["stateCode"], &new["stateName"], &new["countryCode"]),
        (&Value::Null, &Value::Null, &json!("CA"))
    );
    // A state-level filing keeps its state in both.
    let listed = get(&h, NEW, "/filings?country_code=US&size=1").await;
    assert!(
        listed["items"][0]["stateCode"]
            .as_str()
            .is_some_and(|s| s.len() == 2)
    );
    for key in ["amount", "amountCalculated", "totalTaxLiability"] {
        let v = &new[key];
        assert!(
            v.is_null() || v.as_str().unwrap().split_once('.').unwrap().1.len() == 2,
            "{key}: {v}"
        );
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn organizations_show_an_unset_state_as_empty_then_null() {
    let h = Harness::start().await;
    let list = |version: &'static str| {
        h.bare(Method::GET, "/organizations")
            .header("Api-Key", DEMO_PARTNER_KEY)
            .header("Api-Version", version)
            .header("Organization-Id", "orgn_demo_2")
            .send()
    };
    let old: Value = list(OLD).await.unwrap().json().await.unwrap();
    assert_eq!(
        old,
        json!({
            "items": [
                {"id": "orgn_demo_1", "name": "Acme Outdoor Supply", "state": "CA", "countryCode": "US", "createdAt": "2024-03-04T17:20:00Z"},
                {"id": "orgn_demo_2", "name": "Northwind Digital", "state": "", "countryCode": "", "createdAt": "2025-01-13T09:05:00Z"}
            ],
            "total": 2, "page": 1, "size": 50, "pages": 1
        })
    );
    let new: Value = list(NEW).await.unwrap().json().await.unwrap();
    assert_eq!(
        new["items"][1],
        json!({"id": "orgn_demo_2", "name": "Northwind Digital", "state": null, "countryCode": null, "createdAt": "2025-01-13T09:05:00Z"})
    );
    assert_eq!(new["items"][0], old["items"][0]);
    // A key reaching one organization lists that one.
    let one = get(&h, NEW, "/organizations?size=10").await;
    assert_eq!(one["total"], json!(1));
    assert_eq!(one["items"][0]["id"], json!(ORG1.0));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn estimates_are_posted_to_tax_estimations() {
    let h = Harness::start().await;
    for version in [OLD, NEW] {
        let mut body = sale("est-1", version);
        body.as_object_mut().unwrap().remove("type");
        let r = tenanted(&h, version, Method::POST, "/tax-estimations")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let estimate: Value = r.json().await.unwrap();
        let rate = estimate["taxRateCalculated"].as_str().unwrap();
        assert_eq!(rate.split_once('.').unwrap().1.len(), 9, "{estimate}");
        let tax = estimate["totalTaxAmountCalculated"].as_str().unwrap();
        assert_eq!(tax.split_once('.').unwrap().1.len(), 2, "{estimate}");
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn registrations_are_created_and_updated_on_the_tenanted_paths() {
    let h = Harness::start().await;
    let body = json!({
        "registrationImportType": "REGULAR",
        "countryCode": "US",
        "stateCode": "WY",
        "stateName": "Wyoming",
        "filingFrequency": "BI_MONTHLY"
    });
    let r = tenanted(&h, NEW, Method::POST, "/registrations")
        .json(&body)
        .send()
        .await
        .expect("request sent");
    assert_eq!(
        r.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "a frequency Wyoming does not assign"
    );
    let mut body = body;
    body["filingFrequency"] = json!("QUARTERLY");
    let r = tenanted(&h, NEW, Method::POST, "/registrations")
        .json(&body)
        .send()
        .await
        .expect("request sent");
    assert_eq!(r.status(), StatusCode::OK);
    let made: Value = r.json().await.expect("JSON answer");
    assert_eq!(made["stateCode"], json!("WY"), "{made}");
    let id = made["id"].as_str().expect("an id").to_owned();
    let r = tenanted(&h, NEW, Method::PUT, &format!("/registrations/{id}"))
        .json(&json!({ "comment": "filed by the agent" }))
        .send()
        .await
        .expect("request sent");
    assert_eq!(r.status(), StatusCode::OK);
    let changed: Value = r.json().await.expect("JSON answer");
    assert_eq!(changed["comment"], json!("filed by the agent"), "{changed}");
    assert_eq!(changed["filingFrequency"], json!("QUARTERLY"), "{changed}");
}
