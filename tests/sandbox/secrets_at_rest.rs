//! Secrets at rest: portal passwords, PINs, access codes and security answers saved through the
//! API are revealed through it (v1 `?reveal=`, the Tenanted reveal endpoint) and appear in no
//! file of the state's directory, while the sandbox runs and after it stops.

use std::path::Path;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::SandboxConfig;

use crate::common::Harness;
use crate::state_files::contains;

const CA_REG: &str = "regs_demo1_00001";
const ID_REG: &str = "regs_demo1_00002";

/// Every file under `dir` whose bytes hold `secret`.
fn files_holding(dir: &Path, secret: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .filter(|p| contains(&std::fs::read(p).unwrap(), secret.as_bytes()))
        .map(|p| p.display().to_string())
        .collect()
}

async fn tenanted(h: &Harness, method: Method, path: &str, body: Option<Value>) -> Value {
    let mut r = h
        .bare(method, path)
        .header("Api-Key", "demo-key-1")
        .header("Api-Version", "2026-10-06");
    if let Some(body) = body {
        r = r.json(&body);
    }
    let r = r.send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.unwrap()
}

async fn reveal_v1(h: &Harness, id: &str, field: &str) -> Value {
    h.get_json(&format!("/v1/registrations/{id}?reveal={field}"))
        .await[field]
        .clone()
}

#[tokio::test]
async fn secrets_saved_through_the_api_are_nowhere_in_clear_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.db");
    let config = SandboxConfig {
        state_file: Some(state.clone()),
        ..SandboxConfig::default()
    };
    let h = Harness::with(config.clone()).await;

    // What the demo data holds already is sealed too.
    let demo_password = reveal_v1(&h, ID_REG, "password_encrypted").await;
    let demo_password = demo_password.as_str().expect("a demo password").to_owned();
    let demo = tenanted(
        &h,
        Method::POST,
        &format!("/registrations/{ID_REG}/credentials/reveal"),
        None,
    )
    .await;
    let answer = demo["fields"]["securityQuestions"][0]["answer"]
        .as_str()
        .expect("a demo security answer")
        .to_owned();
    let demo_code = demo["fields"]["accessCode"]
        .as_str()
        .expect("a demo code")
        .to_owned();

    let (password, pin, code) = ("Zq8-vault-test-Pw", "58213377", "QXZW7341");
    let saved = tenanted(
        &h,
        Method::PUT,
        &format!("/registrations/{CA_REG}/credentials"),
        Some(json!({"password": password, "pin": pin,
                    "jurisdictionSpecificFields": {"cdtfaThirdPartyAccessSecurityCode": code}})),
    )
    .await;
    assert_eq!(saved["updatedFields"].as_array().map(Vec::len), Some(3));

    // The API reveals them, through v1 and through the Tenanted API.
    assert_eq!(
        reveal_v1(&h, CA_REG, "password_encrypted").await,
        json!(password)
    );
    assert_eq!(reveal_v1(&h, CA_REG, "pin_encrypted").await, json!(pin));
    let fields = tenanted(
        &h,
        Method::POST,
        &format!("/registrations/{CA_REG}/credentials/reveal"),
        None,
    )
    .await["fields"]
        .clone();
    assert_eq!(fields["password"], json!(password));
    assert_eq!(fields["pin"], json!(pin));
    assert_eq!(fields["cdtfaThirdPartyAccessSecurityCode"], json!(code));
    // Records show the mask, never the value.
    let record = h.get_json(&format!("/v1/registrations/{CA_REG}")).await;
    assert_eq!(record["password_encrypted"], json!("********"));

    // Demo answers are everyday words (a city may also be a customer's): look for the answer as
    // a stored answer.
    let stored_answer = format!("\"answer\":\"{answer}\"");
    let secrets = [
        password,
        pin,
        code,
        &demo_password,
        &stored_answer,
        &demo_code,
    ];
    for secret in secrets {
        assert_eq!(
            files_holding(dir.path(), secret),
            Vec::<String>::new(),
            "while running: {secret}"
        );
    }
    h.sandbox.stop().await;
    for secret in secrets {
        assert_eq!(
            files_holding(dir.path(), secret),
            Vec::<String>::new(),
            "after the stop: {secret}"
        );
    }

    // A restart opens what the last run sealed.
    let h = Harness::with(config).await;
    assert_eq!(
        reveal_v1(&h, CA_REG, "password_encrypted").await,
        json!(password)
    );
    let fields = tenanted(
        &h,
        Method::POST,
        &format!("/registrations/{ID_REG}/credentials/reveal"),
        None,
    )
    .await["fields"]
        .clone();
    assert_eq!(fields["securityQuestions"][0]["answer"], json!(answer));
    h.sandbox.stop().await;
}
