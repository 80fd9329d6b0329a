//! The Tenanted-only feature endpoints over real loopback HTTP: portal credentials (rules 1-5),
//! reveal, deregistration, exposure history, certificate imports and their public pages,
//! back-filing options and the bulk filing actions, each in the releases where they differ.

use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::{DEMO_PARTNER_KEY, SandboxConfig};

use crate::common::Harness;

mod imports;

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
    let saved = std::fs::read(&state).unwrap();
    let holds = |text: &str| crate::state_files::contains(&saved, text.as_bytes());
    assert!(!holds(code), "the state file holds no clear code");
    assert!(holds("sealed_code"));
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
    assert!(!holds(&idaho));
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

/// What the client does with an answer: keys to `snake_case`, then the model type.
fn decode<T: serde::de::DeserializeOwned>(body: Value) -> T {
    let snake = taxdash::model::casing::to_snake(body.clone());
    serde_json::from_value(snake).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[tokio::test]
async fn both_releases_decode_into_the_model_types() {
    use taxdash::model::tenanted::{
        BackFilingOption, BulkApproval, BulkFilingResult, CertificateImport,
        CertificateImportStatus, CredentialsUpdated, ExposureEvent, RevealedFields,
    };
    let h = Harness::start().await;
    let california = nexus_id(&h, "US", "CA").await;
    for version in [V0721, V1006] {
        let fields: RevealedFields = decode(reveal(&h, version, ID_REG).await);
        assert_eq!(fields.security_questions.len(), 2, "{version}");
        let (_, body) = put_credentials(&h, version, ID_REG, json!({"pin": "9876"})).await;
        let updated: CredentialsUpdated = decode(body);
        assert_eq!(updated.updated_fields, ["pin"]);
        assert!(updated.updated_at.is_some());

        let page = ok(call(
            &h,
            version,
            Method::GET,
            &format!("/nexus/{california}/exposure-history"),
        ))
        .await;
        let events: Vec<ExposureEvent> = decode(page["items"].clone());
        assert!(events.iter().all(|e| e.state_code.as_deref() == Some("CA")));
        assert!(events.iter().all(|e| e.sales_amount.is_some()));

        let page = ok(call(&h, version, Method::GET, "/certificate-imports")).await;
        let imports: Vec<CertificateImport> = decode(page["items"].clone());
        let waiting: Vec<&CertificateImport> = imports
            .iter()
            .filter(|i| i.status == CertificateImportStatus::Uploaded)
            .collect();
        assert!(waiting.iter().all(|i| i.exemption_id.is_none()));
        let approved: BulkApproval = decode(
            ok(call(
                &h,
                version,
                Method::POST,
                "/certificate-imports/bulk-approve",
            )
            .json(&json!({"ids": [waiting[0].id]})))
            .await,
        );
        assert_eq!(approved.items[0].status, CertificateImportStatus::Approved);
        assert!(approved.items[0].exemption_id.is_some());

        let options: Vec<BackFilingOption> = decode(
            ok(call(
                &h,
                version,
                Method::GET,
                "/filings/backFilingRequest/options",
            ))
            .await["items"]
                .clone(),
        );
        assert!(options.iter().any(|o| o.state_code.is_none()));
        assert!(options.iter().all(|o| o.estimated_liability.is_some()));

        let result: BulkFilingResult = decode(
            ok(call(&h, version, Method::POST, "/filings/bulk/pause")
                .json(&json!({"filingIds": ["file_nowhere"]})))
            .await,
        );
        assert_eq!(result.job_id, None);
        assert_eq!(
            result.results[0].error.as_ref().map(|e| e.code.as_str()),
            Some("not_found")
        );
    }
    h.sandbox.stop().await;
}
