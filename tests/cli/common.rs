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
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportJob, export};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use tokio::net::TcpListener;
use url::Url;

pub const ORG1: (&str, &str) = DEMO_CREDENTIALS[0];
pub const ORG2: (&str, &str) = DEMO_CREDENTIALS[1];

/// The day the tests date the demo data around (and pass as `--today` to the binary), so that
/// what they expect does not depend on the day they run.
pub const DEMO_ANCHOR: chrono::NaiveDate = taxdash::sandbox::demo_data::DEMO_ANCHOR;

/// A sandbox started with `config`, its demo data anchored at [`DEMO_ANCHOR`] unless `config`
/// names another day; today is [`DEMO_ANCHOR`] too, for the sandbox and the library.
pub async fn sandbox_with(mut config: SandboxConfig) -> Sandbox {
    config.anchor = config.anchor.or(Some(DEMO_ANCHOR));
    taxdash::clock::fix_today(Some(DEMO_ANCHOR));
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
    serve(Router::new().fallback(forward).with_state(relay)).await
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

/// Rewrites the JSON of a relayed page: the page number, and the page as the sandbox sent it.
pub type Rewrite = Arc<dyn Fn(u32, &mut serde_json::Value) + Send + Sync>;

#[derive(Clone)]
struct Rewriting {
    target: String,
    http: reqwest::Client,
    served: Arc<AtomicUsize>,
    rewrite: Rewrite,
}

/// A server in front of `target` that relays every request and passes each answer through
/// `rewrite`: a service whose pages lie. Returns its base URL and the count of requests served.
pub async fn rewriting(target: &str, rewrite: Rewrite) -> (String, Arc<AtomicUsize>) {
    let served = Arc::new(AtomicUsize::new(0));
    let state = Rewriting {
        target: target.to_owned(),
        http: reqwest::Client::new(),
        served: served.clone(),
        rewrite,
    };
    let router = Router::new().fallback(relay_rewritten).with_state(state);
    (serve(router).await, served)
}

async fn relay_rewritten(State(relay): State<Rewriting>, request: Request) -> Response {
    relay.served.fetch_add(1, Ordering::SeqCst);
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let page = request
        .uri()
        .query()
        .and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("page="))
                .and_then(|p| p.parse().ok())
        })
        .unwrap_or(1);
    let mut call = relay.http.get(format!("{}{path}", relay.target));
    for name in ["x-api-key", "x-organization-id"] {
        if let Some(value) = request.headers().get(name) {
            call = call.header(name, value.clone());
        }
    }
    let answer = call.send().await.expect("the sandbox answers");
    let status = answer.status();
    let mut body: serde_json::Value = answer.json().await.expect("a JSON body");
    if status.is_success() {
        (relay.rewrite)(page, &mut body);
    }
    (status, axum::Json(body)).into_response()
}

/// Serves `router` on a free loopback port for as long as the test's runtime lives.
pub async fn serve(router: Router) -> String {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}

/// A service whose every page is empty while it announces `total` records; returns its base
/// URL and the count of requests it served.
pub async fn empty_pages(total: u64) -> (String, Arc<AtomicUsize>) {
    let served = Arc::new(AtomicUsize::new(0));
    let counter = served.clone();
    let router = Router::new().fallback(move |request: Request| {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            let query = request.uri().query().unwrap_or("").to_owned();
            let number = |key: &str| -> u64 {
                query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix(key))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1)
            };
            let (page, size) = (number("page="), number("size="));
            axum::Json(serde_json::json!({
                "items": [],
                "total": total,
                "page": page,
                "size": size,
                "pages": total.div_ceil(size.max(1)),
            }))
        }
    });
    (serve(router).await, served)
}

/// A service that accepts connections, reads the requests and never answers; returns its base
/// URL.
pub async fn silent() -> String {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let mut held = Vec::new();
        // Bounded: no test opens more than a few connections.
        for _ in 0..64 {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            held.push(socket);
        }
    });
    format!("http://{addr}")
}
