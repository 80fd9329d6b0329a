//! Typed errors: from the sandbox's real refusals, and from a misbehaving server for answers
//! the sandbox never gives. No message or `Debug` output ever carries the API key.

use std::time::Duration;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use taxdash::api::{ApiError, Client, RegistrationFilter, RetryPolicy};
use taxdash::model::{
    CreditNoteRequest, DeregistrationReason, DeregistrationRequest, LocPart, PageParams,
    RegistrationStatus,
};

use crate::common::{ORG1, ORG2, config, sandbox_with, serve, start};

#[tokio::test]
async fn refusals_of_the_sandbox_are_typed() {
    let (sandbox, client) = start().await;
    let base = sandbox.base_url();

    let bad_key = Client::new(config(&base, ORG1.0, "not-a-demo-key")).unwrap();
    let e = bad_key.get_back_filing_terms().await.unwrap_err();
    assert_eq!(
        e,
        ApiError::Unauthorized {
            organization_id: ORG1.0.into(),
            detail: "Unauthenticated request.".into()
        }
    );
    assert!(e.to_string().contains("`taxdash login`"), "{e}");
    assert!(e.to_string().contains(ORG1.0), "{e}");

    let other_org = Client::new(config(&base, ORG2.0, ORG1.1)).unwrap();
    let e = other_org.get_back_filing_terms().await.unwrap_err();
    assert!(
        matches!(&e, ApiError::Forbidden { organization_id, detail }
            if organization_id == ORG2.0 && detail.contains("does not have access")),
        "{e:?}"
    );

    let e = client.get_registration("regs_nobody").await.unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { detail } if detail.contains("regs_nobody")),
        "{e:?}"
    );

    // 422: every field error kept with its type, loc, msg and input.
    let id = client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items[0]
        .id
        .clone();
    let body = json!({"closure_date": "2026-02-31", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": false});
    let e = client.deregister_unchecked(&id, &body).await.unwrap_err();
    let by_field = e.errors_by_field();
    assert_eq!(
        by_field.keys().collect::<Vec<_>>(),
        ["closure_date", "final_return_acknowledged"],
        "{e:?}"
    );
    let date = e.errors_at("closure_date").next().unwrap();
    assert_eq!(
        date.loc,
        vec![LocPart::from("body"), LocPart::from("closure_date")]
    );
    assert_eq!(date.input, json!("2026-02-31"));
    assert!(!date.kind.is_empty() && !date.msg.is_empty());
    let ack = e.errors_at("final_return_acknowledged").next().unwrap();
    assert_eq!(ack.input, json!(false));
    let text = e.to_string();
    assert!(
        text.contains("closure_date: ") && text.contains("final_return_acknowledged: "),
        "{text}"
    );

    // 409: a second deregistration of the same registration.
    let ok = DeregistrationRequest {
        closure_date: chrono::NaiveDate::from_ymd_opt(2026, 12, 31).unwrap(),
        reason: DeregistrationReason::FullBusinessClosure,
        final_return_acknowledged: true,
    };
    let filter = RegistrationFilter {
        status_in: vec![RegistrationStatus::Registered],
        ..Default::default()
    };
    let id = client
        .list_registrations(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .items[0]
        .id
        .clone();
    client.deregister(&id, &ok).await.unwrap();
    let e = client.deregister(&id, &ok).await.unwrap_err();
    assert!(
        matches!(&e, ApiError::Conflict { detail } if detail.contains(&id)),
        "{e:?}"
    );

    // 400: a credit note in another currency than the sale's.
    let sale = client
        .list_transactions(
            &taxdash::api::TransactionFilter {
                transaction_type: vec![taxdash::model::TransactionType::Sale],
                ..Default::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .items
        .remove(0);
    let other = if sale.currency.as_deref() == Some("EUR") {
        "USD"
    } else {
        "EUR"
    };
    let note: CreditNoteRequest = serde_json::from_value(json!({
        "external_id": "cn-x", "date": "2026-11-05T00:00:00Z", "status": "COMMITTED", "total_amount": "1.00",
        "currency": other, "transaction_items": [{"external_id": "l1", "date": "2026-11-05T00:00:00Z",
        "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "1.00"}]
    }))
    .unwrap();
    let e = client
        .create_credit_note(&sale.id, &note)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::BadRequest { detail } if detail.contains("currency")),
        "{e:?}"
    );
    sandbox.stop().await;
}

/// The key of the leak test: distinctive, so any trace of it is found.
const SECRET: &str = "sk_test_DISTINCTIVE_4242";

/// A server that answers `GET /v1/registrations/{case}` as `case` says, echoing the key it was
/// sent wherever a careless service might.
async fn odd(Path(case): Path<String>, headers: HeaderMap) -> Response {
    let key = headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let echo = |status: StatusCode| {
        (
            status,
            axum::Json(json!({"detail": format!("bad key {key}")})),
        )
            .into_response()
    };
    match case.as_str() {
        "401" => echo(StatusCode::UNAUTHORIZED),
        "403" => echo(StatusCode::FORBIDDEN),
        "404" => echo(StatusCode::NOT_FOUND),
        "409" => echo(StatusCode::CONFLICT),
        "400" => echo(StatusCode::BAD_REQUEST),
        "500" => echo(StatusCode::INTERNAL_SERVER_ERROR),
        "405" => echo(StatusCode::METHOD_NOT_ALLOWED),
        "422" => (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(
                json!({"detail": [{"type": "value_error", "loc": ["header", "x-api-key"],
                "msg": format!("{key} is not valid"), "input": key, "ctx": {"got": key}}]}),
            ),
        )
            .into_response(),
        "429" => (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "600")],
            axum::Json(json!({"detail": format!("slow down {key}")})),
        )
            .into_response(),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(2)).await;
            echo(StatusCode::OK)
        }
        "html" => (
            [(header::CONTENT_TYPE, "text/html")],
            format!("<html><body>Gateway says hi to {key}</body></html>"),
        )
            .into_response(),
        "garbage" => (StatusCode::OK, format!("{{not json {key}")).into_response(),
        "shape" => axum::Json(json!({"id": 5, "note": key})).into_response(),
        _ => StatusCode::IM_A_TEAPOT.into_response(),
    }
}

async fn odd_client(request_timeout: Duration) -> Client {
    let base = serve(Router::new().route("/v1/registrations/{case}", get(odd))).await;
    let mut config = config(&base, "orgn_odd", SECRET);
    config.request_timeout = request_timeout;
    config.retry = RetryPolicy {
        max_attempts: 2,
        base_delay: Duration::from_millis(5),
        max_wait: Duration::from_secs(5),
    };
    Client::new(config).unwrap()
}

#[tokio::test]
async fn answers_the_sandbox_never_gives() {
    let client = odd_client(Duration::from_secs(5)).await;
    let e = client.get_registration("405").await.unwrap_err();
    assert_eq!(
        e,
        ApiError::MethodNotAllowed {
            what: "GET /v1/registrations/405".into()
        }
    );
    for case in ["html", "garbage", "shape"] {
        let e = client.get_registration(case).await.unwrap_err();
        assert!(
            matches!(&e, ApiError::Undecodable { what, detail }
                if what == &format!("GET /v1/registrations/{case}") && detail.contains("Registration")),
            "{case}: {e:?}"
        );
    }
    let e = client.get_registration("429").await.unwrap_err();
    assert_eq!(
        e,
        ApiError::RateLimited {
            retry_after: Some(Duration::from_mins(10))
        },
        "a wait past the cap is reported, not slept"
    );
    assert_eq!(client.stats().retries, 0);
}

#[tokio::test]
async fn no_error_ever_shows_the_key() {
    let client = odd_client(Duration::from_millis(150)).await;
    let mut errors = Vec::new();
    for case in [
        "401", "403", "404", "409", "400", "500", "405", "422", "429", "slow", "html", "garbage",
        "shape",
    ] {
        errors.push(client.get_registration(case).await.unwrap_err());
    }
    // Nothing listens on port 9 of loopback: a network error.
    let mut unreachable = config("http://127.0.0.1:9", "orgn_odd", SECRET);
    unreachable.retry = RetryPolicy::never();
    let unreachable = Client::new(unreachable).unwrap();
    errors.push(unreachable.get_registration("x").await.unwrap_err());

    let kinds: Vec<&str> = errors
        .iter()
        .map(|e| match e {
            ApiError::Unauthorized { .. } => "Unauthorized",
            ApiError::Forbidden { .. } => "Forbidden",
            ApiError::NotFound { .. } => "NotFound",
            ApiError::Validation(_) => "Validation",
            ApiError::Conflict { .. } => "Conflict",
            ApiError::BadRequest { .. } => "BadRequest",
            ApiError::RateLimited { .. } => "RateLimited",
            ApiError::Server { .. } => "Server",
            ApiError::Network { .. } => "Network",
            ApiError::Timeout { .. } => "Timeout",
            ApiError::Undecodable { .. } => "Undecodable",
            ApiError::MethodNotAllowed { .. } => "MethodNotAllowed",
            ApiError::Tenanted(_) => "Tenanted",
            ApiError::Unsupported { .. } => "Unsupported",
        })
        .collect();
    for kind in [
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "Validation",
        "Conflict",
        "BadRequest",
        "RateLimited",
        "Server",
        "Network",
        "Timeout",
        "Undecodable",
        "MethodNotAllowed",
    ] {
        assert!(kinds.contains(&kind), "{kind} was built: {kinds:?}");
    }
    for e in &errors {
        let shown = format!("{e}\n{e:?}");
        assert!(!shown.contains(SECRET), "the key leaked: {shown}");
        assert!(
            !shown.contains("DISTINCTIVE"),
            "part of the key leaked: {shown}"
        );
    }
    // The echoes were there, and were masked.
    assert!(
        errors[0].to_string().contains("bad key ****"),
        "{}",
        errors[0]
    );
    let Some(ApiError::Validation(fields)) = errors.get(7) else {
        panic!("a validation error: {:?}", errors.get(7));
    };
    assert_eq!(fields[0].input, Value::String("****".into()));
    assert!(format!("{client:?}").contains("orgn_odd"));
    assert!(!format!("{client:?}").contains(SECRET));
}

#[tokio::test]
async fn a_request_timeout_shorter_than_the_answer() {
    let sandbox = sandbox_with(taxdash::sandbox::SandboxConfig {
        latency: Duration::from_millis(400),
        ..Default::default()
    })
    .await;
    let mut config = config(&sandbox.base_url(), ORG1.0, ORG1.1);
    config.request_timeout = Duration::from_millis(100);
    config.retry.max_attempts = 2;
    let client = Client::new(config).unwrap();
    let e = client.get_back_filing_terms().await.unwrap_err();
    assert_eq!(
        e,
        ApiError::Timeout {
            after: Duration::from_millis(100),
            attempts: 2
        }
    );
    assert_eq!(
        client.stats().retries,
        1,
        "a GET is retried after a timeout"
    );
    sandbox.stop().await;
}
