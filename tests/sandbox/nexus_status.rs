//! An economic nexus row's status follows nexus met by either route: a current physical presence
//! without a registration makes a jurisdiction exposed, as the economic thresholds do.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::Harness;

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().expect("a page has items").clone()
}

fn met(n: &Value, field: &str) -> bool {
    n[field] == json!(true)
}

#[tokio::test]
async fn nexus_met_by_either_route_without_a_registration_is_exposed() {
    let h = Harness::start().await;
    let rows = items(&h.get_json("/v1/nexus?size=100").await);
    assert!(rows.len() >= 20);
    for n in &rows {
        let either = met(n, "physical_nexus_met") || met(n, "economic_nexus_met");
        assert_eq!(
            met(n, "nexus_met"),
            either,
            "nexus met by either route: {n}"
        );
        if either {
            assert!(
                !["NOT_EXPOSED", "APPROACHING"].contains(&n["status"].as_str().unwrap()),
                "nexus met but not exposed: {n}"
            );
        }
    }
    assert!(
        rows.iter()
            .any(|n| met(n, "physical_nexus_met") && n["status"] == json!("EXPOSED")),
        "some jurisdiction is exposed by its physical presence"
    );

    // A state with no nexus at all gains a physical presence: it becomes exposed.
    let quiet = rows
        .iter()
        .find(|n| {
            n["status"] == json!("NOT_EXPOSED")
                && n["country_code"] == json!("US")
                && !met(n, "nexus_met")
        })
        .expect("a US state with no nexus");
    let (id, state) = (
        quiet["id"].as_str().unwrap(),
        quiet["state_code"].as_str().unwrap(),
    );
    let categories = h
        .get_json(&format!(
            "/v1/nexus/physical_nexus/categories?country_code=US&state_code={state}"
        ))
        .await;
    let category = categories[0]["name"].clone();
    let r = h
        .send(
            Method::POST,
            "/v1/nexus/physical_nexus",
            &json!({"country_code": "US", "state_code": state, "start_date": "2025-03-01",
                    "category": category}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let record: Value = r.json().await.unwrap();
    let row = h.get_json(&format!("/v1/nexus/{id}")).await;
    assert_eq!(row["status"], json!("EXPOSED"), "{row}");
    assert_eq!(row["physical_nexus_met"], json!(true));
    assert_eq!(row["physical_nexus_met_date"], json!("2025-03-01"));
    assert_eq!(row["nexus_met"], json!(true));
    assert_eq!(row["nexus_met_date"], json!("2025-03-01"));
    let exposed = items(
        &h.get_json(&format!("/v1/nexus?status__in=EXPOSED&state_code={state}"))
            .await,
    );
    assert_eq!(exposed.len(), 1, "the status filter sees the new status");

    // The presence ends in the past: no longer current, no longer exposed.
    let r = h
        .send(
            Method::PUT,
            &format!(
                "/v1/nexus/physical_nexus/{}",
                record["id"].as_str().unwrap()
            ),
            &json!({"start_date": "2025-03-01", "end_date": "2025-06-30", "category": category}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let row = h.get_json(&format!("/v1/nexus/{id}")).await;
    assert_eq!(row["status"], json!("NOT_EXPOSED"), "{row}");
    assert_eq!(row["physical_nexus_met"], json!(false));
    assert_eq!(row["nexus_met"], json!(false));

    // Current again, then deleted.
    let r = h
        .send(
            Method::PUT,
            &format!(
                "/v1/nexus/physical_nexus/{}",
                record["id"].as_str().unwrap()
            ),
            &json!({"start_date": "2025-03-01", "category": category}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        h.get_json(&format!("/v1/nexus/{id}")).await["status"],
        json!("EXPOSED")
    );
    let r = h
        .as_org(
            crate::common::ORG1,
            Method::DELETE,
            &format!(
                "/v1/nexus/physical_nexus/{}",
                record["id"].as_str().unwrap()
            ),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let row = h.get_json(&format!("/v1/nexus/{id}")).await;
    assert_eq!(row["status"], json!("NOT_EXPOSED"), "{row}");
    assert_eq!(row["nexus_met"], json!(false));

    // A registered jurisdiction stays registered whatever its physical presence.
    let registered = rows
        .iter()
        .find(|n| n["status"] == json!("REGISTERED") && !met(n, "physical_nexus_met"))
        .expect("a registered jurisdiction without a physical presence");
    let (rid, rstate, rcountry) = (
        registered["id"].as_str().unwrap(),
        registered["state_code"].as_str().unwrap(),
        registered["country_code"].as_str().unwrap(),
    );
    if rcountry == "US" {
        let categories = h
            .get_json(&format!(
                "/v1/nexus/physical_nexus/categories?country_code=US&state_code={rstate}"
            ))
            .await;
        let r = h
            .send(
                Method::POST,
                "/v1/nexus/physical_nexus",
                &json!({"country_code": "US", "state_code": rstate, "start_date": "2025-03-01",
                        "category": categories[0]["name"]}),
            )
            .await;
        assert_eq!(r.status(), StatusCode::OK);
        let row = h.get_json(&format!("/v1/nexus/{rid}")).await;
        assert_eq!(row["status"], json!("REGISTERED"), "{row}");
        assert_eq!(row["physical_nexus_met"], json!(true));
    }
    h.sandbox.stop().await;
}
