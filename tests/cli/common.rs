//! Sandboxes, clients and small servers shared by the command-line tests.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use indicatif::ProgressBar;
use taxdash::api::{Client, ClientConfig, RetryPolicy};
use taxdash::credentials::ApiKey;
use taxdash::export::{ExportJob, Format, ListQuery, export};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use tokio::net::TcpListener;
use url::Url;

pub const ORG1: (&str, &str) = DEMO_CREDENTIALS[0];
pub const ORG2: (&str, &str) = DEMO_CREDENTIALS[1];

pub async fn sandbox_with(config: SandboxConfig) -> Sandbox {
    Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts")
}

/// A sandbox with default settings (no rate limit, to keep the tests quick).
pub async fn sandbox() -> Sandbox {
    sandbox_with(SandboxConfig {
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await
}

/// A client of the first demo organization at `base`: quick retries, no pacing.
pub fn client(base: &str) -> Client {
    client_with(base, |_| {})
}

pub fn client_with(base: &str, adjust: impl FnOnce(&mut ClientConfig)) -> Client {
    let mut config = ClientConfig::new(
        Url::parse(base).expect("a base URL"),
        ORG1.0,
        ApiKey::new(ORG1.1).expect("a key"),
    );
    config.retry = RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(5),
        max_wait: Duration::from_secs(1),
    };
    config.rate_limit_per_min = None;
    adjust(&mut config);
    Client::new(config).expect("client builds")
}

/// Exports `query` as `format` into memory, `page_size` rows a page.
pub async fn export_bytes(
    client: &Client,
    query: ListQuery,
    format: Format,
    page_size: u32,
) -> Vec<u8> {
    let mut job = ExportJob::new(query, format);
    job.page_size = page_size;
    let mut out = Vec::new();
    let summary = export(client, &job, &mut out, &ProgressBar::hidden())
        .await
        .expect("export succeeds");
    assert_eq!(summary.rows, summary.total, "{summary:?}");
    out
}

#[derive(Clone)]
struct Relay {
    target: String,
    http: reqwest::Client,
    served: Arc<AtomicUsize>,
    healthy: usize,
}

/// A server in front of `target` that relays the first `healthy` requests and answers every
/// later one with 500: a service that breaks in the middle of an export.
pub async fn failing_after(target: &str, healthy: usize) -> String {
    let relay = Relay {
        target: target.to_owned(),
        http: reqwest::Client::new(),
        served: Arc::new(AtomicUsize::new(0)),
        healthy,
    };
    let router = Router::new().fallback(forward).with_state(relay);
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}

async fn forward(State(relay): State<Relay>, request: Request) -> Response {
    if relay.served.fetch_add(1, Ordering::SeqCst) >= relay.healthy {
        let body = r#"{"detail": "Internal server error (test relay)."}"#;
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
    }
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let mut call = relay.http.get(format!("{}{path}", relay.target));
    for name in ["x-api-key", "x-organization-id"] {
        if let Some(value) = request.headers().get(name) {
            call = call.header(name, value.clone());
        }
    }
    let answer = call.send().await.expect("the sandbox answers");
    let status = answer.status();
    let body = answer.bytes().await.expect("a body");
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
