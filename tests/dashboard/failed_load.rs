//! A list page the service answers malformed: the pane shows why, `r` reads it again, and the
//! message stays with the pane that caused it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use crossterm::event::KeyCode;
use tokio::net::TcpListener;

use crate::harness::{Dashboard, Options};

#[derive(Clone)]
pub struct Relay {
    pub target: String,
    pub http: reqwest::Client,
    /// While set, the list at `path` is answered with a page that is not one.
    pub broken: Arc<AtomicBool>,
    pub path: &'static str,
}

impl Relay {
    /// Starts a relay to `target` on a free port; returns its base URL.
    pub async fn serve(target: String, path: &'static str, broken: Arc<AtomicBool>) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Relay {
            target,
            http: reqwest::Client::new(),
            broken,
            path,
        };
        let router = Router::new().fallback(relay).with_state(state);
        tokio::spawn(async move { axum::serve(listener, router).await });
        base
    }
}

/// Relays every request to the sandbox, but answers the list at the relay's path with a
/// malformed page while `broken` is set.
async fn relay(State(relay): State<Relay>, request: Request) -> Response {
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    if relay.broken.load(Ordering::SeqCst) && request.uri().path() == relay.path {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"items": "none today", "total": 3}"#,
        )
            .into_response();
    }
    let method = request.method().clone();
    let headers = request.headers().clone();
    let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
    let mut call = relay
        .http
        .request(method, format!("{}{path}", relay.target))
        .body(body.to_vec());
    for (name, value) in &headers {
        if name != header::HOST && name != header::CONTENT_LENGTH {
            call = call.header(name, value);
        }
    }
    let answer = call.send().await.expect("the sandbox answers");
    let status = answer.status();
    let kind = answer.headers().get(header::CONTENT_TYPE).cloned();
    let mut response = Response::new(Body::from(answer.bytes().await.unwrap()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        kind.unwrap_or(HeaderValue::from_static("application/json")),
    );
    response
}

#[tokio::test]
async fn a_malformed_registrations_page_shows_in_the_pane_r_retries_and_the_message_stays() {
    let broken = Arc::new(AtomicBool::new(true));
    let switch = broken.clone();
    let d = Dashboard::start_behind(Options::default(), |target| {
        Relay::serve(target, "/v1/registrations", switch)
    })
    .await;

    let screen = d
        .wait_until("the failure in the pane", Duration::from_secs(10), |s| {
            s.contains("registrations could not be loaded")
        })
        .await;
    assert!(screen.contains("r retries"), "{screen}");
    assert!(
        !screen.contains("loading registrations"),
        "no frozen spinner: {screen}"
    );

    // The next pane loads its own list; the registrations' failure does not come along.
    d.key(KeyCode::Tab);
    let next = d
        .wait_until("the next pane's rows", Duration::from_secs(10), |s| {
            s.contains("row 1 of")
        })
        .await;
    assert!(!next.contains("could not be loaded"), "{next}");
    assert!(!next.contains("none today"), "{next}");
    assert!(!next.contains("GET /v1/registrations"), "{next}");

    // Back on the registrations, the failure is still said there.
    d.key(KeyCode::BackTab);
    d.wait_until("the failure again", Duration::from_secs(10), |s| {
        s.contains("registrations could not be loaded")
    })
    .await;

    // The service mends; `r` reads the page again.
    broken.store(false, Ordering::SeqCst);
    d.char('r');
    let screen = d
        .wait_until("the registrations", Duration::from_secs(10), |s| {
            s.contains("row 1 of")
        })
        .await;
    assert!(!screen.contains("could not be loaded"), "{screen}");
    assert!(!screen.contains("✗"), "{screen}");
    d.quit().await;
}
