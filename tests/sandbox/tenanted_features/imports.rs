//! Certificate imports and their public pages, back-filing options and the bulk filing actions.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{V0721, V1006, answer, call, fields, ok, refused};
use crate::common::Harness;

/// The imports of organization 1 with `status`, as listed at 2026-10-06.
async fn imports(h: &Harness, status: &str) -> Vec<Value> {
    ok(call(
        h,
        V1006,
        Method::GET,
        &format!("/certificate-imports?status={status}"),
    ))
    .await["items"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn certificate_import_statuses_and_exemption_ids_per_release() {
    let h = Harness::start().await;
    let old = ok(call(&h, V0721, Method::GET, "/certificate-imports")).await;
    let new = ok(call(&h, V1006, Method::GET, "/certificate-imports")).await;
    assert_eq!(old["total"], new["total"]);
    let statuses = |page: &Value| -> Vec<String> {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["status"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(statuses(&old).iter().all(|s| *s == s.to_lowercase()));
    assert!(statuses(&old).contains(&"uploaded".to_owned()));
    assert!(statuses(&new).iter().all(|s| *s == s.to_uppercase()));
    for (o, n) in old["items"]
        .as_array()
        .unwrap()
        .iter()
        .zip(new["items"].as_array().unwrap())
    {
        if n["status"] == json!("APPROVED") {
            assert!(n["exemptionId"].is_string() && n["exemptionId"] == o["exemptionId"]);
        } else {
            assert_eq!(o["exemptionId"], json!(""));
            assert_eq!(n["exemptionId"], Value::Null);
        }
    }
    // The filter reads any case.
    let uploaded = imports(&h, "uploaded").await;
    assert!(uploaded.len() >= 3);
    assert!(uploaded.iter().all(|i| i["status"] == json!("UPLOADED")));
    assert_eq!(imports(&h, "Uploaded").await.len(), uploaded.len());
    let answer = refused(
        call(&h, V1006, Method::GET, "/certificate-imports?status=LOST"),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["query.status".to_owned()]);

    // One import, by id.
    let id = uploaded[0]["id"].as_str().unwrap();
    let one = ok(call(
        &h,
        V0721,
        Method::GET,
        &format!("/certificate-imports/{id}"),
    ))
    .await;
    assert_eq!(one["status"], json!("uploaded"));
    refused(
        call(&h, V0721, Method::GET, "/certificate-imports/cimp_nowhere"),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

fn pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec()
}

fn form(bytes: Vec<u8>, customer: Option<&str>) -> reqwest::multipart::Form {
    let mut form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes)
            .file_name("resale.pdf")
            .mime_str("application/pdf")
            .unwrap(),
    );
    if let Some(customer) = customer {
        form = form.text("customerId", customer.to_owned());
    }
    form
}

#[tokio::test]
async fn uploads_answer_201_with_the_release_shape() {
    let h = Harness::start().await;
    let customer = imports(&h, "UPLOADED").await[0]["customerId"]
        .as_str()
        .unwrap()
        .to_owned();
    for (version, status, exemption) in [
        (V0721, "uploaded", json!("")),
        (V1006, "UPLOADED", Value::Null),
    ] {
        let r = call(&h, version, Method::POST, "/certificate-imports")
            .multipart(form(pdf(), Some(&customer)));
        let (code, body) = answer(r).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
        assert_eq!(body["status"], json!(status));
        assert_eq!(body["exemptionId"], exemption);
        assert_eq!(body["customerId"], json!(customer));
        assert_eq!(body["fileName"], json!("resale.pdf"));
        let id = body["id"].as_str().unwrap();
        let again = ok(call(
            &h,
            version,
            Method::GET,
            &format!("/certificate-imports/{id}"),
        ))
        .await;
        assert_eq!(again, body);
    }
    let answer = refused(
        call(&h, V1006, Method::POST, "/certificate-imports")
            .multipart(form(b"not a pdf".to_vec(), Some(&customer))),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["file".to_owned()]);
    let answer = refused(
        call(&h, V1006, Method::POST, "/certificate-imports").multipart(form(pdf(), None)),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["customerId".to_owned()]);
    refused(
        call(&h, V1006, Method::POST, "/certificate-imports")
            .multipart(form(pdf(), Some("cust_nobody"))),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn the_public_request_page_needs_no_credential() {
    let h = Harness::start().await;
    let page = |version: &str| {
        h.bare(Method::GET, "/public/certificate-requests/ctok_demo1_1")
            .header("Api-Version", version)
    };
    let old = ok(page(V0721)).await;
    assert_eq!(old["status"], json!("requested"));
    assert_eq!(old["token"], json!("ctok_demo1_1"));
    assert!(old["customerName"].as_str().is_some_and(|n| !n.is_empty()));
    assert_eq!(ok(page(V1006)).await["status"], json!("PENDING"));
    refused(
        h.bare(Method::GET, "/public/certificate-requests/ctok_nowhere"),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;

    let confirm = || {
        h.bare(
            Method::POST,
            "/public/certificate-requests/ctok_demo1_1/confirm-upload",
        )
        .header("Api-Version", V1006)
        .multipart(form(pdf(), None))
    };
    let body = ok(confirm()).await;
    assert_eq!(body["status"], json!("UPLOADED"));
    assert_eq!(body["exemptionId"], Value::Null);
    let id = body["importId"].as_str().unwrap().to_owned();
    assert_eq!(ok(page(V1006)).await["status"], json!("UPLOADED"));
    assert_eq!(ok(page(V0721)).await["status"], json!("uploaded"));
    refused(confirm(), StatusCode::CONFLICT, "conflict").await;
    // The organization sees it awaiting approval.
    assert!(
        imports(&h, "UPLOADED")
            .await
            .iter()
            .any(|i| i["id"] == json!(id))
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn approval_types_per_release_and_the_exemption_it_creates() {
    let h = Harness::start().await;
    let waiting = imports(&h, "UPLOADED").await;
    let approve = |version: &str, id: &Value| {
        call(
            &h,
            version,
            Method::POST,
            &format!("/certificate-imports/{}/approve", id.as_str().unwrap()),
        )
    };
    // 2026-10-06: the enum, else 422 on exemptionType.
    for bad in [json!("customer"), json!("resale"), json!(3)] {
        let answer = refused(
            approve(V1006, &waiting[0]["id"]).json(&json!({"exemptionType": bad})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(fields(&answer), vec!["exemptionType".to_owned()]);
    }
    let body =
        ok(approve(V1006, &waiting[0]["id"]).json(&json!({"exemptionType": "WHOLESALE"}))).await;
    assert_eq!(body["status"], json!("APPROVED"));
    assert_eq!(body["exemptionType"], json!("WHOLESALE"));
    let exemption = body["exemptionId"]
        .as_str()
        .expect("an exemption")
        .to_owned();
    // The default is CUSTOMER.
    let body = ok(approve(V1006, &waiting[1]["id"])).await;
    assert_eq!(body["exemptionType"], json!("CUSTOMER"));
    // Approving again is a conflict.
    refused(
        approve(V1006, &waiting[0]["id"]),
        StatusCode::CONFLICT,
        "conflict",
    )
    .await;

    // 2026-07-21: any text, default `customer`.
    let body =
        ok(approve(V0721, &waiting[2]["id"]).json(&json!({"exemptionType": "resale"}))).await;
    assert_eq!(body["status"], json!("approved"));
    assert_eq!(body["exemptionType"], json!("resale"));
    let customer = waiting[0]["customerId"].as_str().unwrap();

    // The exemption is there in v1.
    let listed = h
        .get_json(&format!("/v1/exemptions?customer_id={customer}&size=100"))
        .await;
    let found = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == json!(exemption))
        .unwrap_or_else(|| panic!("{exemption} is listed: {listed}"));
    assert_eq!(found["exemption_type"], json!("wholesale"));
    assert_eq!(found["status"], json!("ACTIVE"));
    refused(
        call(
            &h,
            V1006,
            Method::POST,
            "/certificate-imports/cimp_nowhere/approve",
        ),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn bulk_approval_is_all_or_nothing() {
    let h = Harness::start().await;
    let waiting: Vec<String> = imports(&h, "UPLOADED")
        .await
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();
    let approved = imports(&h, "APPROVED").await[0]["id"].clone();
    let bulk = |version: &str, body: Value| {
        call(
            &h,
            version,
            Method::POST,
            "/certificate-imports/bulk-approve",
        )
        .json(&body)
    };
    let answer = refused(
        bulk(V1006, json!({"ids": [waiting[0], "cimp_nowhere"]})),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    assert!(answer["message"].as_str().unwrap().contains("cimp_nowhere"));
    let answer = refused(
        bulk(V1006, json!({"ids": [waiting[0], approved]})),
        StatusCode::CONFLICT,
        "conflict",
    )
    .await;
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains(approved.as_str().unwrap())
    );
    assert_eq!(
        imports(&h, "UPLOADED").await.len(),
        waiting.len(),
        "nothing changed"
    );
    let answer = refused(
        bulk(V1006, json!({"ids": [waiting[0]], "exemptionType": "gift"})),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["exemptionType".to_owned()]);
    let answer = refused(
        bulk(V1006, json!({"ids": []})),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["ids".to_owned()]);

    let body = ok(bulk(V0721, json!({"ids": [waiting[0], waiting[1]]}))).await;
    let items = body["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for item in items {
        assert_eq!(item["status"], json!("approved"));
        assert_eq!(item["exemptionType"], json!("customer"));
        assert!(item["exemptionId"].as_str().is_some_and(|e| !e.is_empty()));
    }
    assert_eq!(imports(&h, "UPLOADED").await.len(), waiting.len() - 2);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn back_filing_help_article_label_per_release() {
    let h = Harness::start().await;
    let options = |version: &str| {
        call(
            &h,
            version,
            Method::GET,
            "/filings/backFilingRequest/options",
        )
    };
    let old = ok(options(V0721)).await["items"]
        .as_array()
        .unwrap()
        .clone();
    let new = ok(options(V1006)).await["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(old.len(), new.len());
    assert!(old.iter().any(|o| o["helpArticleLabel"].is_null()));
    assert!(old.iter().any(|o| o["helpArticleLabel"].is_string()));
    assert!(new.iter().all(|o| o["helpArticleLabel"].is_string()));
    for (o, n) in old.iter().zip(&new) {
        if o["helpArticleLabel"].is_null() {
            assert_eq!(n["helpArticleLabel"], json!(""));
        }
        assert!(
            n["estimatedLiability"]
                .as_str()
                .is_some_and(|a| a.contains('.'))
        );
        assert!(n["periodStart"].is_string() && n["label"].is_string());
    }
    // A country-level option.
    assert!(old.iter().any(|o| o["stateCode"] == json!("")));
    assert!(new.iter().any(|o| o["stateCode"].is_null()));
    h.sandbox.stop().await;
}

/// Ids of organization 1's filings with `status`.
async fn filings(h: &Harness, status: &str) -> Vec<String> {
    h.get_json(&format!("/v1/filings?status__in={status}&size=100"))
        .await["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn filing_status(h: &Harness, id: &str) -> Value {
    h.get_json(&format!("/v1/filings/{id}")).await["status"].clone()
}

#[tokio::test]
async fn bulk_filing_actions_report_each_item() {
    let h = Harness::start().await;
    let unfiled = filings(&h, "UNFILED").await;
    assert!(unfiled.len() >= 3, "{unfiled:?}");
    let filed = filings(&h, "FILED").await[0].clone();

    let body = ok(
        call(&h, V0721, Method::POST, "/filings/bulk/approve").json(&json!({
            "filingIds": [unfiled[0], filed, "file_nowhere"]
        })),
    )
    .await;
    assert!(body.get("jobId").is_some_and(Value::is_null), "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["filingId"], json!(unfiled[0]));
    assert_eq!(results[0]["status"], json!("FILING"));
    assert_eq!(results[0]["error"], Value::Null);
    assert_eq!(results[1]["status"], json!("FILED"));
    assert_eq!(results[1]["error"]["code"], json!("conflict"));
    assert_eq!(results[2]["error"]["code"], json!("not_found"));
    assert_eq!(filing_status(&h, &unfiled[0]).await, json!("FILING"));
    assert_eq!(filing_status(&h, &filed).await, json!("FILED"));
    let approved = h.get_json(&format!("/v1/filings/{}", unfiled[0])).await;
    assert!(approved["approved_at"].is_string());

    let body = ok(
        call(&h, V1006, Method::POST, "/filings/bulk/pause").json(&json!({
            "filingIds": [unfiled[1], unfiled[0]]
        })),
    )
    .await;
    assert!(body.get("jobId").is_none(), "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results[0]["status"], json!("PAUSED"));
    assert_eq!(results[1]["status"], json!("FILING"));
    assert_eq!(results[1]["error"]["code"], json!("conflict"));
    assert_eq!(filing_status(&h, &unfiled[1]).await, json!("PAUSED"));

    let answer = refused(
        call(&h, V1006, Method::POST, "/filings/bulk/approve").json(&json!({"filingIds": "x"})),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(fields(&answer), vec!["filingIds".to_owned()]);
    h.sandbox.stop().await;
}
