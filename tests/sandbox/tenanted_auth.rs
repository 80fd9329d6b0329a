//! The Tenanted API's credentials and selectors, rule by rule, and every error code of its
//! envelope, over real loopback HTTP.

use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::{
    DEMO_PARTNER_KEY, DEMO_SESSION_MEMBER, DEMO_SESSION_OWNER, SandboxConfig, UNAUTHENTICATED,
};

use crate::common::{Harness, ORG1, ORG2};

/// A Tenanted request with an API key.
fn keyed(h: &Harness, key: &str, method: Method, path: &str) -> RequestBuilder {
    h.bare(method, path).header("Api-Key", key)
}

/// A Tenanted request with a session token.
fn session(h: &Harness, token: &str, method: Method, path: &str) -> RequestBuilder {
    h.bare(method, path).bearer_auth(token)
}

/// The status and JSON body of an answer.
async fn answer(r: RequestBuilder) -> (StatusCode, Value) {
    let r = r.send().await.expect("request sent");
    let status = r.status();
    (status, r.json().await.expect("JSON answer"))
}

/// Checks an envelope: its status, its code, a well-formed `requestId`; returns it.
async fn envelope(r: Response, status: StatusCode, code: &str) -> Value {
    assert_eq!(r.status(), status, "status of a {code} answer");
    let body: Value = r.json().await.expect("JSON answer");
    assert_eq!(body["code"], json!(code), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(body["errors"].is_array());
    let id = body["requestId"].as_str().expect("requestId");
    assert!(
        id.len() == 24
            && id.starts_with("req_")
            && id[4..]
                .bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)),
        "{id}"
    );
    body
}

async fn send(r: RequestBuilder) -> Response {
    r.send().await.expect("request sent")
}

/// The organization the customers answered belong to.
async fn customers_org(r: RequestBuilder) -> String {
    let (status, body) = answer(r).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["items"][0]["organizationId"]
        .as_str()
        .expect("a customer")
        .to_owned()
}

#[tokio::test]
async fn rule_1_an_unreachable_organization_answers_as_a_nonexistent_one() {
    let h = Harness::start().await;
    let theirs = envelope(
        send(keyed(&h, ORG1.1, Method::GET, "/customers").header("Organization-Id", ORG2.0)).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    let none = envelope(
        send(keyed(&h, ORG1.1, Method::GET, "/customers").header("Organization-Id", "orgn_nope"))
            .await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    assert_eq!(
        theirs["message"].as_str().unwrap().replace(ORG2.0, "ID"),
        none["message"].as_str().unwrap().replace("orgn_nope", "ID")
    );
    assert_eq!(theirs["errors"], none["errors"]);
    // The same for a connection of the other organization.
    envelope(
        send(
            keyed(&h, ORG1.1, Method::GET, "/customers")
                .header("Connection-Id", "conn_demo_2_billing"),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_2_a_write_without_selector_needs_one_when_several_organizations_are_reached() {
    let h = Harness::start().await;
    let customer = json!({"name": "Grace Hopper", "email": "grace@example.com"});
    envelope(
        send(keyed(&h, DEMO_PARTNER_KEY, Method::POST, "/customers").json(&customer)).await,
        StatusCode::BAD_REQUEST,
        "missing_target_selector",
    )
    .await;
    // A read runs against the home organization.
    assert_eq!(
        customers_org(keyed(
            &h,
            DEMO_PARTNER_KEY,
            Method::GET,
            "/customers?size=1"
        ))
        .await,
        ORG1.0
    );
    // Naming the organization lets the write through, into that organization.
    let (status, created) = answer(
        keyed(&h, DEMO_PARTNER_KEY, Method::POST, "/customers")
            .header("Organization-Id", ORG2.0)
            .json(&customer),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["organizationId"], json!(ORG2.0));
    // A key reaching one organization needs no selector.
    let (status, created) =
        answer(keyed(&h, ORG1.1, Method::POST, "/customers").json(&customer)).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["organizationId"], json!(ORG1.0));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_3_selectors_naming_different_organizations_conflict() {
    let h = Harness::start().await;
    envelope(
        send(
            keyed(&h, DEMO_PARTNER_KEY, Method::GET, "/customers")
                .header("Organization-Id", ORG1.0)
                .header("Connection-Id", "conn_demo_2_billing"),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "conflicting_target_selectors",
    )
    .await;
    // Selectors that agree are fine.
    assert_eq!(
        customers_org(
            keyed(&h, DEMO_PARTNER_KEY, Method::GET, "/customers?size=1")
                .header("Organization-Id", ORG2.0)
                .header("Connection-Id", "conn_demo_2_billing"),
        )
        .await,
        ORG2.0
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_4_an_ambiguous_entity_and_its_two_resolutions() {
    let h = Harness::start().await;
    let by_entity = |key: &str| {
        keyed(&h, key, Method::GET, "/customers?size=1").header("Entity-Id", "ent_store_100")
    };
    envelope(
        send(by_entity(DEMO_PARTNER_KEY)).await,
        StatusCode::CONFLICT,
        "entity_resolution_ambiguous",
    )
    .await;
    assert_eq!(
        customers_org(by_entity(DEMO_PARTNER_KEY).header("Entity-Source", "CHECKOUT")).await,
        ORG1.0
    );
    assert_eq!(
        customers_org(by_entity(DEMO_PARTNER_KEY).header("Entity-Source", "BILLING_PLATFORM"))
            .await,
        ORG2.0
    );
    assert_eq!(
        customers_org(by_entity(DEMO_PARTNER_KEY).header("Connection-Id", "conn_demo_1_checkout"))
            .await,
        ORG1.0
    );
    // A key reaching one organization sees one matching connection.
    assert_eq!(customers_org(by_entity(ORG1.1)).await, ORG1.0);
    // An entity no reachable connection carries.
    envelope(
        send(keyed(&h, ORG2.1, Method::GET, "/customers").header("Entity-Id", "ent_erp_7")).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_5_users_endpoints_take_only_a_session_token() {
    let h = Harness::start().await;
    let body = envelope(
        send(keyed(&h, ORG1.1, Method::GET, "/users")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    assert!(!body.to_string().contains(ORG1.1), "no key in an answer");
    envelope(
        send(h.bare(Method::GET, "/users")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;

    let (status, users) = answer(session(&h, DEMO_SESSION_MEMBER, Method::GET, "/users")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        users,
        json!({
            "items": [
                {"id": "user_demo_owner", "email": "owner@acme-outdoor.example", "role": "OWNER", "status": "ACTIVE"},
                {"id": "user_demo_member", "email": "member@acme-outdoor.example", "role": "MEMBER", "status": "ACTIVE"}
            ],
            "total": 2, "page": 1, "size": 50, "pages": 1
        })
    );

    let invite = json!({"email": "lin@acme-outdoor.example", "role": "admin"});
    let r = send(session(&h, DEMO_SESSION_OWNER, Method::POST, "/users/invitations").json(&invite))
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let invited: Value = r.json().await.unwrap();
    assert_eq!(
        invited,
        json!({"id": "user_1new00004", "email": "lin@acme-outdoor.example", "role": "ADMIN", "status": "INVITED"})
    );
    let (_, users) = answer(session(&h, DEMO_SESSION_OWNER, Method::GET, "/users")).await;
    assert_eq!(users["total"], json!(3));
    assert_eq!(users["items"][2], invited);
    // The same address again is a conflict; a bad one is named.
    envelope(
        send(session(&h, DEMO_SESSION_OWNER, Method::POST, "/users/invitations").json(&invite))
            .await,
        StatusCode::CONFLICT,
        "conflict",
    )
    .await;
    let body = envelope(
        send(
            session(&h, DEMO_SESSION_OWNER, Method::POST, "/users/invitations")
                .json(&json!({"email": "nobody", "role": "CHIEF"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["email", "role"]);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_6_api_keys_need_an_owner_or_admin_session() {
    let h = Harness::start().await;
    let body = json!({"name": "Warehouse sync"});
    envelope(
        send(keyed(&h, ORG1.1, Method::POST, "/api-keys").json(&body)).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    envelope(
        send(session(&h, DEMO_SESSION_MEMBER, Method::POST, "/api-keys").json(&body)).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    let r = send(session(&h, DEMO_SESSION_OWNER, Method::POST, "/api-keys").json(&body)).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    let key: Value = r.json().await.unwrap();
    assert_eq!(key["name"], json!("Warehouse sync"));
    assert_eq!(key["organizationId"], json!(ORG1.0));
    assert!(key["id"].as_str().unwrap().starts_with("apik_"));
    assert!(key["createdAt"].as_str().unwrap().ends_with('Z'));
    let new_key = key["key"].as_str().unwrap();
    assert!(new_key.len() > 20);
    // The sandbox does not accept keys it creates.
    envelope(
        send(keyed(&h, new_key, Method::GET, "/customers")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    envelope(
        send(
            session(&h, DEMO_SESSION_OWNER, Method::POST, "/api-keys").json(&json!({"name": " "})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_7_two_credentials_at_once_are_refused() {
    let h = Harness::start().await;
    for path in ["/customers", "/users", "/products/categories"] {
        envelope(
            send(keyed(&h, ORG1.1, Method::GET, path).bearer_auth(DEMO_SESSION_OWNER)).await,
            StatusCode::BAD_REQUEST,
            "multiple_credentials",
        )
        .await;
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn rule_8_public_endpoints_take_no_credential_and_ignore_selectors() {
    let h = Harness::start().await;
    let (status, public) = answer(h.bare(Method::GET, "/products/categories")).await;
    assert_eq!(status, StatusCode::OK);
    let (_, v1) = answer(h.as_org(ORG1, Method::GET, "/v1/products/categories")).await;
    assert!(!public.as_array().unwrap().is_empty());
    assert_eq!(
        public,
        taxdash::model::casing::to_camel(v1),
        "the v1 catalog in camelCase"
    );
    let (status, again) = answer(
        h.bare(Method::GET, "/products/categories")
            .header("Organization-Id", "orgn_nope")
            .header("Entity-Id", "ent_store_100"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, public);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn unauthorized_without_a_credential_or_with_a_bad_key() {
    let h = Harness::start().await;
    envelope(
        send(h.bare(Method::GET, "/registrations")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    let body = envelope(
        send(keyed(&h, "not-a-key", Method::GET, "/registrations")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    assert!(!body.to_string().contains("not-a-key"));
    // A session token on an API-key endpoint.
    envelope(
        send(session(
            &h,
            DEMO_SESSION_OWNER,
            Method::GET,
            "/registrations",
        ))
        .await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    // The partner key is not a v1 key.
    let r = send(
        h.bare(Method::GET, "/v1/registrations")
            .header("x-api-key", DEMO_PARTNER_KEY)
            .header("x-organization-id", ORG1.0),
    )
    .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"detail": UNAUTHENTICATED})
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn unknown_paths_wrong_methods_and_the_estimate_path() {
    let h = Harness::start().await;
    envelope(
        send(keyed(&h, ORG1.1, Method::GET, "/nothing-here")).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    let r = send(keyed(&h, ORG1.1, Method::GET, "/tax-estimations")).await;
    assert_eq!(r.headers()["allow"], "POST");
    envelope(r, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
    let r = send(keyed(&h, ORG1.1, Method::DELETE, "/customers")).await;
    let allow = r.headers()["allow"].to_str().unwrap().to_owned();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
    envelope(r, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
    // The v1 path of the estimate is not a Tenanted path.
    envelope(
        send(keyed(&h, ORG1.1, Method::POST, "/tax/estimate").json(&json!({}))).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    // v1 keeps its own shapes.
    let r = h.get("/v1/tax/estimate").await;
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"detail": "Method Not Allowed"})
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn invalid_api_versions_are_refused_and_the_default_is_the_launch_release() {
    let h = Harness::start().await;
    for version in ["2026-07-20", "latest", "2026-7-21"] {
        envelope(
            send(keyed(&h, ORG1.1, Method::GET, "/customers").header("Api-Version", version)).await,
            StatusCode::BAD_REQUEST,
            "invalid_api_version",
        )
        .await;
    }
    let (_, page) = answer(keyed(&h, ORG1.1, Method::GET, "/customers?size=1")).await;
    let customer = &page["items"][0];
    assert!(customer.get("country").is_some(), "{customer}");
    assert!(customer.get("countryCode").is_none());
    // A date between releases runs every change on or before it.
    let (_, page) = answer(
        keyed(&h, ORG1.1, Method::GET, "/customers?size=1").header("Api-Version", "2026-10-05"),
    )
    .await;
    assert!(page["items"][0].get("country").is_some());
    let (_, page) = answer(
        keyed(&h, ORG1.1, Method::GET, "/customers?size=1").header("Api-Version", "2027-01-01"),
    )
    .await;
    assert!(page["items"][0].get("countryCode").is_some());
    h.sandbox.stop().await;
}

#[tokio::test]
async fn validation_errors_rate_limits_and_faults_answer_envelopes() {
    let h = Harness::start().await;
    let body = envelope(
        send(
            keyed(&h, ORG1.1, Method::POST, "/exemptions")
                .json(&json!({"exemptionType": "CUSTOMER"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"startDate"), "{fields:?}");
    assert!(fields.contains(&"salesTaxId"), "{fields:?}");
    assert!(body["errors"][0]["code"].is_string());
    let body = envelope(
        send(
            keyed(&h, ORG1.1, Method::POST, "/customers")
                .header("content-type", "application/json")
                .body("{not json"),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(body["errors"][0]["field"], json!(""));
    envelope(
        send(keyed(&h, ORG1.1, Method::GET, "/registrations/regs_nope")).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    h.sandbox.stop().await;

    let h = Harness::with(SandboxConfig {
        rate_limit_per_min: 60,
        ..SandboxConfig::default()
    })
    .await;
    assert_eq!(
        send(keyed(
            &h,
            DEMO_PARTNER_KEY,
            Method::GET,
            "/customers?size=1"
        ))
        .await
        .status(),
        StatusCode::OK
    );
    let r = send(keyed(
        &h,
        DEMO_PARTNER_KEY,
        Method::GET,
        "/customers?size=1",
    ))
    .await;
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    envelope(r, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    h.sandbox.stop().await;

    let h = Harness::with(SandboxConfig {
        error_rate: 1.0,
        ..SandboxConfig::default()
    })
    .await;
    let r = send(keyed(&h, ORG1.1, Method::GET, "/customers")).await;
    let code = if r.status() == StatusCode::SERVICE_UNAVAILABLE {
        "service_unavailable"
    } else {
        "internal_error"
    };
    assert!(r.status().is_server_error());
    envelope(r, r_status(code), code).await;
    h.sandbox.stop().await;
}

fn r_status(code: &str) -> StatusCode {
    if code == "service_unavailable" {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::INTERNAL_SERVER_ERROR
    }
}

#[tokio::test]
async fn invited_users_survive_a_restart_and_older_state_files_still_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.json");
    let config = SandboxConfig {
        state_file: Some(path.clone()),
        ..SandboxConfig::default()
    };
    let h = Harness::with(config.clone()).await;
    let invite = json!({"email": "kai@acme-outdoor.example", "role": "MEMBER"});
    let r = send(session(&h, DEMO_SESSION_OWNER, Method::POST, "/users/invitations").json(&invite))
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);
    h.sandbox.stop().await;

    let h = Harness::with(config.clone()).await;
    let (_, users) = answer(session(&h, DEMO_SESSION_OWNER, Method::GET, "/users")).await;
    assert_eq!(users["total"], json!(3));
    assert_eq!(
        users["items"][2]["email"],
        json!("kai@acme-outdoor.example")
    );
    h.sandbox.stop().await;

    // A JSON state file of earlier versions, from before the users endpoints, starts with the
    // demo users.
    let legacy = dir.path().join("legacy.json");
    let text = crate::state_files::legacy_state("Legacy-Pw-1", "4321")
        .await
        .to_string();
    std::fs::write(&legacy, text).unwrap();
    let h = Harness::with(SandboxConfig {
        state_file: Some(legacy),
        ..SandboxConfig::default()
    })
    .await;
    let (status, users) = answer(session(&h, DEMO_SESSION_OWNER, Method::GET, "/users")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(users["total"], json!(2));
    h.sandbox.stop().await;
}
