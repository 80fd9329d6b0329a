//! Retries under injected faults, what is (not) retried for a POST, 429 and `Retry-After`, the
//! client's own pacing, and cancellation by dropping a call.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::{StatusCode, header};
use axum::routing::{get, post};
use futures::future::join_all;
use taxdash::api::{ApiError, Client, RetryPolicy};
use taxdash::model::CustomerWrite;
use taxdash::sandbox::SandboxConfig;

use crate::common::{ORG1, config, sandbox_with, serve, start_with};

#[tokio::test]
async fn reads_succeed_through_injected_faults() {
    let faulty = SandboxConfig {
        error_rate: 0.3,
        ..SandboxConfig::default()
    };
    let (sandbox, client) = start_with(faulty, |c| {
        c.retry = RetryPolicy {
            max_attempts: 8,
            base_delay: Duration::from_millis(5),
            max_wait: Duration::from_secs(1),
        };
    })
    .await;
    for i in 0..50 {
        let terms = client.get_back_filing_terms().await;
        assert!(terms.is_ok(), "call {i}: {terms:?}");
    }
    let stats = client.stats();
    assert!(
        stats.retries >= 5,
        "about 30% of attempts failed: {stats:?}"
    );
    assert_eq!(stats.requests, 50 + stats.retries);
    sandbox.stop().await;
}

#[tokio::test]
async fn latency_is_waited_out() {
    let slow = SandboxConfig {
        latency: Duration::from_millis(150),
        ..SandboxConfig::default()
    };
    let (sandbox, client) = start_with(slow, |_| {}).await;
    let started = Instant::now();
    client.get_back_filing_terms().await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert_eq!(client.stats().retries, 0);
    sandbox.stop().await;
}

/// A server that counts the calls it gets: POST /v1/customers answers 500, POST
/// /v1/tax/estimate 429 (retry at once), GET /v1/products/categories 503.
async fn counting() -> (String, Arc<AtomicU32>) {
    let hits = Arc::new(AtomicU32::new(0));
    let count = |status: StatusCode| {
        let hits = Arc::clone(&hits);
        move || async move {
            hits.fetch_add(1, Ordering::SeqCst);
            (
                status,
                [(header::RETRY_AFTER, "0")],
                axum::Json(serde_json::json!({"detail": "injected"})),
            )
        }
    };
    let router = Router::new()
        .route(
            "/v1/customers",
            post(count(StatusCode::INTERNAL_SERVER_ERROR)),
        )
        .route(
            "/v1/tax/estimate",
            post(count(StatusCode::TOO_MANY_REQUESTS)),
        )
        .route(
            "/v1/products/categories",
            get(count(StatusCode::SERVICE_UNAVAILABLE)),
        );
    (serve(router).await, hits)
}

#[tokio::test]
async fn a_post_is_retried_only_when_it_surely_had_no_effect() {
    let (base, hits) = counting().await;
    let client = Client::new(config(&base, ORG1.0, ORG1.1)).unwrap();

    let e = client
        .create_customer(&CustomerWrite::default())
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 500, .. }), "{e:?}");
    assert_eq!(
        hits.swap(0, Ordering::SeqCst),
        1,
        "a POST that met a 500 is not repeated"
    );

    let estimate: taxdash::model::EstimateRequest = serde_json::from_value(serde_json::json!({
        "date": "2026-11-01T10:00:00Z", "external_id": "e", "currency": "USD", "addresses": [],
        "transaction_items": []
    }))
    .unwrap();
    let e = client.estimate_tax(&estimate).await.unwrap_err();
    assert_eq!(
        e,
        ApiError::RateLimited {
            retry_after: Some(Duration::ZERO)
        }
    );
    assert_eq!(
        hits.swap(0, Ordering::SeqCst),
        4,
        "a 429 is retried, POST or not"
    );

    let e = client.list_product_categories().await.unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 503, .. }), "{e:?}");
    assert_eq!(hits.swap(0, Ordering::SeqCst), 4, "a GET is retried on 503");

    // A connection that never opened: the POST never reached anyone, so it is retried.
    let nobody = Client::new(config("http://127.0.0.1:9", ORG1.0, ORG1.1)).unwrap();
    let e = nobody
        .create_customer(&CustomerWrite::default())
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Network { .. }), "{e:?}");
    assert_eq!(nobody.stats().requests, 4);
}

#[tokio::test]
async fn a_429_is_waited_out_as_retry_after_asks() {
    let limited = SandboxConfig {
        rate_limit_per_min: 60,
        ..SandboxConfig::default()
    };
    let (sandbox, client) = start_with(limited, |c| c.rate_limit_per_min = None).await;
    let started = Instant::now();
    for _ in 0..2 {
        client.get_back_filing_terms().await.unwrap();
    }
    let stats = client.stats();
    assert!(
        stats.rate_limited >= 1,
        "the second call met the limit: {stats:?}"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "waited for Retry-After (1 s), not less"
    );
    sandbox.stop().await;
}

fn limited_sandbox(per_min: u32) -> SandboxConfig {
    SandboxConfig {
        rate_limit_per_min: per_min,
        ..SandboxConfig::default()
    }
}

#[tokio::test]
async fn pacing_at_the_limit_meets_no_429() {
    const PER_MIN: u32 = 300;
    // Unpaced, a burst of 20 overruns the sandbox's limit...
    let (sandbox, client) = start_with(limited_sandbox(PER_MIN), |c| {
        c.rate_limit_per_min = None;
        c.retry = RetryPolicy::never();
    })
    .await;
    join_all((0..20).map(|_| client.get_back_filing_terms())).await;
    assert!(client.stats().rate_limited > 0, "{:?}", client.stats());
    sandbox.stop().await;

    // ...paced at the same rate, by clones of one client on many tasks, it meets none.
    let (sandbox, client) = start_with(limited_sandbox(PER_MIN), |c| {
        c.rate_limit_per_min = std::num::NonZeroU32::new(PER_MIN);
    })
    .await;
    let tasks = (0..20).map(|_| {
        let client = client.clone();
        tokio::spawn(async move { client.get_back_filing_terms().await })
    });
    for result in join_all(tasks).await {
        result.expect("task ran").expect("call succeeded");
    }
    let stats = client.stats();
    assert_eq!(stats.rate_limited, 0, "{stats:?}");
    assert_eq!(stats.requests, 20);
    sandbox.stop().await;
}

#[tokio::test]
async fn dropping_a_call_cancels_it_and_the_client_goes_on() {
    let slow = sandbox_with(SandboxConfig {
        latency: Duration::from_millis(300),
        ..SandboxConfig::default()
    })
    .await;
    let client = Client::new(config(&slow.base_url(), ORG1.0, ORG1.1)).unwrap();
    let dropped =
        tokio::time::timeout(Duration::from_millis(50), client.get_back_filing_terms()).await;
    assert!(dropped.is_err(), "the call was dropped before its answer");
    let again = client.get_back_filing_terms().await;
    assert!(again.is_ok(), "{again:?}");
    assert_eq!(client.stats().requests, 2);
    slow.stop().await;
}
