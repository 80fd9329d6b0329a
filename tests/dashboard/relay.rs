//! A relay in front of the sandbox, for tests of a service that misbehaves or of what was sent:
//! every request goes through to the sandbox, except that the relay can answer one list with a
//! malformed page, hold back requests whose query holds a word, record every write, and fall
//! silent as a service that died.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;

/// The writes (method, path and query, JSON body) the relay passed on.
pub type Writes = Arc<Mutex<Vec<(String, String, serde_json::Value)>>>;

/// What the relay does besides passing requests on.
#[derive(Clone, Default)]
pub struct Relay {
    /// While the switch is on, the list at this path is answered with a page that is not one.
    broken: Option<(&'static str, Arc<AtomicBool>)>,
    /// Requests whose path or query holds this text are answered this late.
    slow: Option<(String, Duration)>,
    /// Where every request other than a GET is recorded.
    writes: Option<Writes>,
    /// While this switch is on, the service is gone: every request's connection is dropped
    /// without an answer.
    gone: Option<Arc<AtomicBool>>,
    /// Requests for this organization (Tenanted API) are refused, as a revoked connection is.
    refused: Option<&'static str>,
}

impl Relay {
    /// Answers the list at `path` with a malformed page while `switch` is on.
    pub fn breaking(path: &'static str, switch: Arc<AtomicBool>) -> Self {
        Relay {
            broken: Some((path, switch)),
            ..Relay::default()
        }
    }

    /// Answers requests whose path or query holds `text` after `delay`.
    pub fn slowing(text: impl Into<String>, delay: Duration) -> Self {
        Relay {
            slow: Some((text.into(), delay)),
            ..Relay::default()
        }
    }

    /// Records every write in `writes`.
    pub fn recording(writes: Writes) -> Self {
        Relay {
            writes: Some(writes),
            ..Relay::default()
        }
    }

    /// Drops every request's connection without an answer while `switch` is on, as a service
    /// that died does.
    pub fn dying(self, switch: Arc<AtomicBool>) -> Self {
        Relay {
            gone: Some(switch),
            ..self
        }
    }

    /// Refuses every request for `organization` with a 403, as for a revoked connection.
    pub fn refusing_organization(organization: &'static str) -> Self {
        Relay {
            refused: Some(organization),
            ..Relay::default()
        }
    }

    /// Starts relaying to `target` on a free loopback port; returns the relay's base URL.
    pub async fn serve(self, target: String) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Running {
            relay: self,
            target,
            http: reqwest::Client::new(),
        };
        let router = Router::new().fallback(relay).with_state(state);
        tokio::spawn(async move { axum::serve(listener, router).await });
        base
    }
}

#[derive(Clone)]
struct Running {
    relay: Relay,
    target: String,
    http: reqwest::Client,
}

async fn relay(State(running): State<Running>, request: Request) -> Response {
    let Running {
        relay,
        target,
        http,
    } = running;
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    if let Some((broken, switch)) = &relay.broken
        && switch.load(Ordering::SeqCst)
        && request.uri().path() == *broken
    {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"items": "none today", "total": 3}"#,
        )
            .into_response();
    }
    if let Some(refused) = relay.refused
        && request
            .headers()
            .get("organization-id")
            .is_some_and(|v| v.as_bytes() == refused.as_bytes())
    {
        return (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"error":{"code":"forbidden","message":"The connection to this organization was revoked."}}"#,
        )
            .into_response();
    }
    if let Some((text, delay)) = &relay.slow
        && path.contains(text.as_str())
    {
        tokio::time::sleep(*delay).await;
    }
    if relay
        .gone
        .as_ref()
        .is_some_and(|gone| gone.load(Ordering::SeqCst))
    {
        // The handler's task ends without an answer: the connection is dropped.
        std::panic::resume_unwind(Box::new("the service is gone"));
    }
    let method = request.method().clone();
    let headers = request.headers().clone();
    let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
    if let Some(writes) = &relay.writes
        && method != axum::http::Method::GET
    {
        let json = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        writes
            .lock()
            .unwrap()
            .push((method.to_string(), path.clone(), json));
    }
    let mut call = http
        .request(method, format!("{target}{path}"))
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
