//! The Tenanted-only feature endpoints over real loopback HTTP: portal credentials (rules 1-5),
//! reveal, deregistration, exposure history, certificate imports and their public pages,
//! back-filing options and the bulk filing actions, each in the releases where they differ.

use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::{DEMO_PARTNER_KEY, SandboxConfig};

use crate::common::Harness;

const V0721: &str = "2026-07-21";
const V0922: &str = "2026-09-22";
const V1005: &str = "2026-10-05";
const V1006: &str = "2026-10-06";

/// The demo organization's California registration (full registration details).
const CA_REG: &str = "regs_demo1_00001";
/// Its Idaho registration (full registration details).
const ID_REG: &str = "regs_demo1_00002";
/// The second organization's Idaho registration still being processed (no sales tax id).
const PENDING_ID_REG: &str = "regs_demo2_00009";

/// A Tenanted request with `demo-key-1` at release `version`.
fn call(h: &Harness, version: &str, method: Method, path: &str) -> RequestBuilder {
    h.bare(method, path)
        .header("Api-Key", "demo-key-1")
        .header("Api-Version", version)
}

/// The status and JSON body of an answer.
async fn answer(r: RequestBuilder) -> (StatusCode, Value) {
    let r = r.send().await.expect("request sent");
    let status = r.status();
    let text = r.text().await.expect("an answer");
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON answer: {text}"));
    (status, body)
}

/// An answer expected to be 200, its body.
async fn ok(r: RequestBuilder) -> Value {
    let (status, body) = answer(r).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// An error answer: its status and envelope code checked, the body returned.
async fn refused(r: RequestBuilder, status: StatusCode, code: &str) -> Value {
    let (got, body) = answer(r).await;
    assert_eq!(got, status, "{body}");
    assert_eq!(body["code"], json!(code), "{body}");
    assert!(
        body["requestId"]
            .as_str()
            .is_some_and(|id| id.starts_with("req_"))
    );
    body
}

/// The `field`s of an envelope's errors.
fn fields(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["field"].as_str().unwrap_or_default().to_owned())
        .collect()
}

async fn put_credentials(h: &Harness, version: &str, id: &str, body: Value) -> (StatusCode, Value) {
    answer(
        call(
            h,
            version,
            Method::PUT,
            &format!("/registrations/{id}/credentials"),
        )
        .json(&body),
    )
    .await
}

async fn reveal(h: &Harness, version: &str, id: &str) -> Value {
    let body = ok(call(
        h,
        version,
        Method::POST,
        &format!("/registrations/{id}/credentials/reveal"),
    ))
    .await;
    assert_eq!(body["registrationId"], json!(id));
    body["fields"].clone()
}

#[tokio::test]
async fn credentials_rule_1_only_the_keys_sent_change() {
    let h = Harness::start().await;
    let before = reveal(&h, V1006, CA_REG).await;
    assert!(before["password"].is_string() && before["username"].is_string());
    let code = before["cdtfaThirdPartyAccessSecurityCode"].clone();
    assert!(code.is_string(), "the demo code is saved: {before}");

    let (status, body) = put_credentials(&h, V1006, CA_REG, json!({"password": "n3w-Pass!"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["updatedFields"], json!(["password"]));
    let after = reveal(&h, V1006, CA_REG).await;
    assert_eq!(after["password"], json!("n3w-Pass!"));
    for kept in ["username", "pin", "cdtfaThirdPartyAccessSecurityCode"] {
        assert_eq!(after[kept], before[kept], "{kept} is kept");
    }

    // The codes object left out, or null, keeps the saved codes.
    for body in [
        json!({"jurisdictionSpecificFields": null}),
        json!({"username": null}),
    ] {
        let (status, answer) = put_credentials(&h, V1006, CA_REG, body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["updatedFields"], json!([]));
    }
    assert_eq!(
        reveal(&h, V1006, CA_REG).await["cdtfaThirdPartyAccessSecurityCode"],
        code
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credentials_rule_2_codes_are_sealed_and_never_answered_by_the_update() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let config = || SandboxConfig {
        state_file: Some(state.clone()),
        ..SandboxConfig::default()
    };
    let h = Harness::with(config()).await;
    let code = "QXZW7341";
    let r = call(
        &h,
        V1005,
        Method::PUT,
        &format!("/registrations/{CA_REG}/credentials"),
    )
    .json(&json!({"jurisdictionSpecificFields": {"cdtfaThirdPartyAccessSecurityCode": code}}))
    .send()
    .await
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let text = r.text().await.unwrap();
    assert!(!text.contains(code), "the update answers no value: {text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        body["updatedFields"],
        json!(["jurisdictionSpecificFields.cdtfaThirdPartyAccessSecurityCode"])
    );
    assert_eq!(body["registrationId"], json!(CA_REG));
    assert!(body["hasAllCredentials"].is_boolean());
    assert!(body["updatedAt"].as_str().is_some_and(|t| t.ends_with('Z')));

    // Reveal shows the code from 2026-10-05 on, and not before.
    for version in [V1005, V1006] {
        assert_eq!(
            reveal(&h, version, CA_REG).await["cdtfaThirdPartyAccessSecurityCode"],
            json!(code),
            "{version}"
        );
    }
    for version in [V0721, V0922] {
        let fields = reveal(&h, version, CA_REG).await;
        assert!(
            fields.get("cdtfaThirdPartyAccessSecurityCode").is_none(),
            "{version}: {fields}"
        );
    }

    // The state file holds the code sealed, never in clear; the key sits beside it, private.
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(!saved.contains(code), "the state file holds no clear code");
    assert!(saved.contains("sealed_codes"));
    let key = dir.path().join("state.json.key");
    assert!(key.exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // No demo code is kept in clear either.
    let idaho = reveal(&h, V1006, ID_REG).await["accessCode"].clone();
    let idaho = idaho
        .as_str()
        .expect("the demo Idaho code is saved")
        .to_owned();
    assert!(!saved.contains(&format!("\"{idaho}\"")));
    h.sandbox.stop().await;

    // A new run on the same state file opens what the last one sealed.
    let h = Harness::with(config()).await;
    assert_eq!(
        reveal(&h, V1006, CA_REG).await["cdtfaThirdPartyAccessSecurityCode"],
        json!(code)
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credentials_rule_3_unsupported_keys_and_blank_values_are_422() {
    let h = Harness::start().await;
    let cases = [
        (V1006, json!({"token": "x"}), "token"),
        (V1006, json!({"password": "  "}), "password"),
        (
            V1006,
            json!({"jurisdictionSpecificFields": {"accessCode": ""}}),
            "jurisdictionSpecificFields.accessCode",
        ),
        (
            V1006,
            json!({"jurisdictionSpecificFields": {"portalPin": "1"}}),
            "jurisdictionSpecificFields.portalPin",
        ),
        // Before 2026-10-05 the codes are unsupported keys.
        (
            V0922,
            json!({"jurisdictionSpecificFields": {"cdtfaThirdPartyAccessSecurityCode": "ABCD1234"}}),
            "jurisdictionSpecificFields.cdtfaThirdPartyAccessSecurityCode",
        ),
        (V1006, json!({"pin": 1234}), "pin"),
    ];
    for (version, body, field) in cases {
        let r = call(
            &h,
            version,
            Method::PUT,
            &format!("/registrations/{ID_REG}/credentials"),
        )
        .json(&body);
        let answer = refused(r, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
        assert_eq!(fields(&answer), vec![field.to_owned()], "{body}");
        let message = answer["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message}");
    }
    // Nothing was saved by the refused updates.
    assert!(reveal(&h, V1006, ID_REG).await["password"].is_string());
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credentials_rule_4_a_code_for_another_state_is_400() {
    let h = Harness::start().await;
    for (id, body, names) in [
        (
            ID_REG,
            json!({"jurisdictionSpecificFields": {"cdtfaThirdPartyAccessSecurityCode": "ABCD1234"}}),
            "California",
        ),
        (
            CA_REG,
            json!({"jurisdictionSpecificFields": {"accessCode": "12345678"}}),
            "Idaho",
        ),
    ] {
        let r = call(
            &h,
            V1006,
            Method::PUT,
            &format!("/registrations/{id}/credentials"),
        )
        .json(&body);
        let answer = refused(r, StatusCode::BAD_REQUEST, "bad_request").await;
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(names), "{message}");
    }
    // A 422 is answered before the 400.
    let r = call(
        &h,
        V1006,
        Method::PUT,
        &format!("/registrations/{ID_REG}/credentials"),
    )
    .json(&json!({"pin": "", "jurisdictionSpecificFields": {"cdtfaThirdPartyAccessSecurityCode": "A"}}));
    refused(r, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credentials_rule_5_and_unknown_registrations() {
    let h = Harness::start().await;
    let r = h
        .bare(
            Method::PUT,
            &format!("/registrations/{PENDING_ID_REG}/credentials"),
        )
        .header("Api-Key", "demo-key-2")
        .header("Api-Version", V1006)
        .json(&json!({"jurisdictionSpecificFields": {"accessCode": "12345678"}}));
    let answer = refused(r, StatusCode::BAD_REQUEST, "bad_request").await;
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("lacks sales tax id on file"), "{message}");

    // 404 comes first, even for a body that would be refused.
    let r = call(
        &h,
        V1006,
        Method::PUT,
        "/registrations/regs_nowhere/credentials",
    )
    .json(&json!({"token": ""}));
    refused(r, StatusCode::NOT_FOUND, "not_found").await;
    // Another organization's registration is not found either.
    let r = call(
        &h,
        V1006,
        Method::PUT,
        &format!("/registrations/{PENDING_ID_REG}/credentials"),
    )
    .json(&json!({}));
    refused(r, StatusCode::NOT_FOUND, "not_found").await;
    // A write with a credential reaching several organizations needs a selector.
    let r = h
        .bare(Method::PUT, &format!("/registrations/{CA_REG}/credentials"))
        .header("Api-Key", DEMO_PARTNER_KEY)
        .json(&json!({"pin": "1234"}));
    refused(r, StatusCode::BAD_REQUEST, "missing_target_selector").await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn reveal_names_security_questions_per_release() {
    let h = Harness::start().await;
    for (version, key, other) in [
        (V0721, "security_questions", "securityQuestions"),
        (V1005, "security_questions", "securityQuestions"),
        (V1006, "securityQuestions", "security_questions"),
    ] {
        let fields = reveal(&h, version, ID_REG).await;
        let questions = fields[key].as_array().unwrap_or_else(|| panic!("{fields}"));
        assert_eq!(questions.len(), 2);
        assert!(questions[0]["question"].is_string() && questions[0]["answer"].is_string());
        assert!(fields.get(other).is_none(), "{version}: {fields}");
    }
    // A read: the partner key reveals in its home organization without a selector.
    let r = h
        .bare(
            Method::POST,
            &format!("/registrations/{ID_REG}/credentials/reveal"),
        )
        .header("Api-Key", DEMO_PARTNER_KEY);
    assert_eq!(ok(r).await["registrationId"], json!(ID_REG));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn deregistration_body_by_release_and_camel_case_errors() {
    let h = Harness::start().await;
    let path = |id: &str| format!("/registrations/{id}/deregister");
    // Before 2026-09-22 no body is needed.
    let body = ok(call(&h, V0721, Method::POST, &path("regs_demo1_00005"))).await;
    assert_eq!(body["id"], json!("regs_demo1_00005"));
    assert_eq!(body["status"], json!("DEREGISTERING"));
    assert!(body["stateCode"].is_string() && body.get("state_code").is_none());
    assert!(
        body["deregistrationRequested"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    // Already closing: 409.
    refused(
        call(&h, V0721, Method::POST, &path("regs_demo1_00005")),
        StatusCode::CONFLICT,
        "conflict",
    )
    .await;

    // From 2026-09-22 a missing body is a 422 on the body as a whole.
    for version in [V0922, V1006] {
        let answer = refused(
            call(&h, version, Method::POST, &path("regs_demo1_00007")),
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(fields(&answer), vec![String::new()]);
    }
    // Field paths are camelCase.
    let answer = refused(
        call(&h, V1006, Method::POST, &path("regs_demo1_00007")).json(&json!({
            "closureDate": "2026-02-31", "reason": "BANKRUPT", "finalReturnAcknowledged": false
        })),
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let mut got = fields(&answer);
    got.sort();
    assert_eq!(got, ["closureDate", "finalReturnAcknowledged", "reason"]);
    let ack = answer["errors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["field"] == "finalReturnAcknowledged")
        .unwrap();
    assert!(
        ack["message"]
            .as_str()
            .unwrap()
            .contains("finalReturnAcknowledged")
    );
    // A valid body deregisters.
    let body = ok(
        call(&h, V1006, Method::POST, &path("regs_demo1_00007")).json(&json!({
            "closureDate": "2026-12-31", "reason": "CLOSING_NEXUS_IN_STATE",
            "finalReturnAcknowledged": true
        })),
    )
    .await;
    assert_eq!(body["status"], json!("DEREGISTERING"));
    h.sandbox.stop().await;
}

/// The id of a nexus of organization 1 in `state` (`""` for country-level, with `country`).
async fn nexus_id(h: &Harness, country: &str, state: &str) -> String {
    let page = h.get_json("/v1/nexus?size=100").await;
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["country_code"] == json!(country) && n["state_code"] == json!(state))
        .and_then(|n| n["id"].as_str())
        .expect("the nexus exists")
        .to_owned()
}

#[tokio::test]
async fn exposure_history_names_the_state_per_release() {
    let h = Harness::start().await;
    let california = nexus_id(&h, "US", "CA").await;
    let canada = nexus_id(&h, "CA", "").await;
    let history = |id: &str, version: &str| {
        ok(call(
            &h,
            version,
            Method::GET,
            &format!("/nexus/{id}/exposure-history"),
        ))
    };

    let old = history(&california, V0721).await;
    let events = old["items"].as_array().unwrap();
    assert!(events.len() >= 3 && old["total"] == json!(events.len()));
    for e in events {
        assert_eq!(e["state"], json!("CA"));
        assert!(e.get("stateCode").is_none());
        assert!(
            e["salesAmount"]
                .as_str()
                .is_some_and(|a| a.split('.').nth(1).map(str::len) == Some(2))
        );
        assert!(e["occurredAt"].as_str().is_some_and(|t| t.ends_with('Z')));
    }
    let times: Vec<&str> = events
        .iter()
        .map(|e| e["occurredAt"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
    assert_eq!(events.last().unwrap()["status"], json!("REGISTERED"));

    let new = history(&california, V1006).await;
    for e in new["items"].as_array().unwrap() {
        assert_eq!(e["stateCode"], json!("CA"));
        assert!(e.get("state").is_none());
    }

    // A country-level nexus: no state before 2026-10-06, stateCode null from it.
    for e in history(&canada, V0721).await["items"].as_array().unwrap() {
        assert!(
            e.get("state").is_none() && e.get("stateCode").is_none(),
            "{e}"
        );
        assert_eq!(e["countryCode"], json!("CA"));
    }
    for e in history(&canada, V1006).await["items"].as_array().unwrap() {
        assert_eq!(e.get("stateCode"), Some(&Value::Null), "{e}");
    }
    refused(
        call(
            &h,
            V1006,
            Method::GET,
            "/nexus/nexu_nowhere/exposure-history",
        ),
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

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
