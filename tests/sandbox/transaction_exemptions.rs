//! An exempt sale's answer embeds the exemptions that applied to it.

use serde_json::{Value, json};

use crate::common::Harness;

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().expect("a page has items").clone()
}

#[tokio::test]
async fn an_exempt_sale_embeds_the_exemptions_that_applied() {
    let h = Harness::start().await;
    let exempt = items(
        &h.get_json(
            "/v1/transactions?exempt__in=FULLY_EXEMPT&exempt__in=PARTIALLY_EXEMPT&size=100",
        )
        .await,
    );
    let linked: Vec<&Value> = exempt
        .iter()
        .filter(|t| !t["exemptions"].as_array().unwrap().is_empty())
        .collect();
    assert!(!linked.is_empty(), "some exempt sale has its exemptions");
    // A sample: each linked sale costs a few requests, and the harness has a rate limit.
    for t in linked.iter().take(12) {
        let one = h
            .get_json(&format!("/v1/transactions/{}", t["id"].as_str().unwrap()))
            .await;
        assert_eq!(one["exemptions"], t["exemptions"], "the same on its own");
        for e in t["exemptions"].as_array().unwrap() {
            let stored = h
                .get_json(&format!("/v1/exemptions/{}", e["id"].as_str().unwrap()))
                .await;
            assert_eq!(stored["status"], e["status"]);
            assert!(
                ["ACTIVE", "EXPIRED"].contains(&e["status"].as_str().unwrap()),
                "{e}"
            );
            if e["exemption_type"] == json!("transaction") {
                assert_eq!(e["transaction_id"], t["id"], "{e}");
            } else {
                assert_eq!(e["customer_id"], t["customer_id"], "{e}");
                assert_eq!(e["jurisdiction"], t["state"], "{e} on {}", t["id"]);
            }
            let day = &t["date"].as_str().unwrap()[..10];
            assert!(e["start_date"].as_str().unwrap() <= day, "{e}");
            assert!(e["end_date"].as_str().is_none_or(|end| day <= end), "{e}");
            assert!(e.get("customer_name").is_none(), "the embedded shape: {e}");
        }
    }
    let taxed = items(
        &h.get_json("/v1/transactions?exempt__in=NOT_EXEMPT&size=50")
            .await,
    );
    assert!(
        taxed.iter().all(|t| t["exemptions"] == json!([])),
        "none applied to a taxed sale"
    );
    h.sandbox.stop().await;
}
