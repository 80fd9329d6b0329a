//! One call on the wire: URL, credential headers, pacing, timeouts, retries, and reading the
//! answer or the error. Endpoint methods describe a [`Call`]; everything else happens here.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use backon::Retryable;
use reqwest::header::{ALLOW, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use reqwest::multipart::{Form, Part};
use reqwest::{Method, Response, StatusCode, redirect};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use url::Url;

use super::audit::{self, Auditor, Pending, SentBody, WriteAnswer, WriteOutcome, WriteSent};
use super::config::{ClientBuildError, ClientConfig, Selector};
use super::error::{ApiError, ApiResult, ErrorContext, Redactor};
use super::generation::{Generation, InvalidHeader};
use super::network::Symptoms;
use super::pacing::Pacer;
use super::retry::{FailedAttempt, RetryPolicy, parse_retry_after};
use super::service_error::parse_allow;
use crate::model::filters::{ListFilter, Query};
use crate::model::{Page, PageParams};

/// What a request carries.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    None,
    /// Serialized once, sent again as is on a retry.
    Json(Arc<Vec<u8>>),
    /// `multipart/form-data` with one file part.
    File {
        part: &'static str,
        file_name: String,
        mime: String,
        bytes: Arc<Vec<u8>>,
    },
}

/// One endpoint call: method, path below the generation's prefix, query and body.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    method: Method,
    segments: Vec<String>,
    query: Vec<(&'static str, String)>,
    body: Body,
    /// Headers added to (or replacing) the generation's target headers.
    headers: Vec<(HeaderName, HeaderValue)>,
    /// A `POST` that changes nothing (an estimate, an address check): not a write to audit.
    reading: bool,
}

impl Call {
    /// A call to the path made of `segments`; each one is percent-encoded as needed, so IDs
    /// cannot change the path.
    pub fn new<S: AsRef<str>>(method: Method, segments: &[S]) -> Self {
        Call {
            method,
            segments: segments.iter().map(|s| s.as_ref().to_owned()).collect(),
            query: Vec::new(),
            body: Body::None,
            headers: Vec::new(),
            reading: false,
        }
    }

    /// Marks a call that changes nothing although its method is not `GET`.
    pub fn reading(mut self) -> Self {
        self.reading = true;
        self
    }

    /// Whether the call changes something on the service (and so goes to the audit log).
    fn is_write(&self) -> bool {
        !self.reading && !matches!(self.method, Method::GET | Method::HEAD)
    }

    pub fn get<S: AsRef<str>>(segments: &[S]) -> Self {
        Self::new(Method::GET, segments)
    }

    /// One page of the list `F` filters.
    pub fn list<F: ListFilter>(filter: &F, page: PageParams) -> Self {
        Self::get(F::PATH).query(filter.query(page))
    }

    pub fn query(mut self, query: Query) -> Self {
        self.query.extend(query.pairs().iter().cloned());
        self
    }

    pub fn param(mut self, key: &'static str, value: &str) -> Self {
        self.query.push((key, value.to_owned()));
        self
    }

    pub fn json<B: Serialize + ?Sized>(mut self, body: &B) -> ApiResult<Self> {
        let bytes = serde_json::to_vec(body).map_err(|e| ApiError::BadRequest {
            detail: format!("the request could not be written as JSON: {e}"),
        })?;
        self.body = Body::Json(Arc::new(bytes));
        Ok(self)
    }

    /// One more header, replacing a target header of the same name.
    pub fn header(mut self, name: &str, value: &str) -> ApiResult<Self> {
        let bad = |what: &str| ApiError::BadRequest {
            detail: format!("the header {name:?} cannot be sent: {what}"),
        };
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad("not a header name"))?;
        let value = HeaderValue::from_str(value).map_err(|_| bad("not a header value"))?;
        self.headers.push((name, value));
        Ok(self)
    }

    pub fn file(mut self, part: &'static str, file_name: &str, mime: &str, bytes: Vec<u8>) -> Self {
        self.body = Body::File {
            part,
            file_name: file_name.to_owned(),
            mime: mime.to_owned(),
            bytes: Arc::new(bytes),
        };
        self
    }
}

pub use crate::model::retry::{RetryCause, RetryNotice};

/// Why an attempt that failed with `error` is repeated.
fn retry_cause(error: &ApiError) -> RetryCause {
    match error {
        ApiError::Timeout { after, .. } => RetryCause::NoAnswer { after: *after },
        ApiError::Network { .. } => RetryCause::Network,
        ApiError::RateLimited { .. } => RetryCause::RateLimited,
        _ => RetryCause::Unavailable,
    }
}

/// Told of every retry before its pause; it must not block (it runs inside the retry loop).
pub type RetryObserver = Arc<dyn Fn(&RetryNotice) + Send + Sync>;

/// Counts of what the client has met, shared by its clones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientStats {
    /// Attempts sent (retries included).
    pub requests: u64,
    /// Attempts repeated after a failure.
    pub retries: u64,
    /// 429 answers received.
    pub rate_limited: u64,
}

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    retries: AtomicU64,
    rate_limited: AtomicU64,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The shared state behind every clone of a client. The connection pool, the pacing and the
/// counters are shared further, by every client made with [`Transport::with_organization`].
#[derive(Clone)]
pub(crate) struct Transport {
    http: reqwest::Client,
    base_url: Url,
    generation: Generation,
    organization_id: String,
    selector: Selector,
    /// The headers naming the organization, sent on each request; an error when a selector set
    /// after the build cannot travel in a header.
    target: Result<HeaderMap, InvalidHeader>,
    redactor: Redactor,
    connect_timeout: Duration,
    request_timeout: Duration,
    retry: RetryPolicy,
    limiter: Option<Arc<Pacer>>,
    counters: Arc<Counters>,
    /// Told of each retry.
    observer: Option<RetryObserver>,
    /// Told of each write before it is sent and when its answer comes.
    auditor: Option<Auditor>,
}

/// What the attempts met: the last status and request id, for the audit log.
#[derive(Default)]
struct Seen {
    status: AtomicU16,
    request_id: Mutex<Option<String>>,
}

/// Answer headers that carry the service's request id.
const REQUEST_ID_HEADERS: &[&str] = &["request-id", "x-request-id", "requestid"];

impl Transport {
    pub fn new(config: ClientConfig) -> Result<Self, ClientBuildError> {
        let base_url =
            crate::config::validate_base_url("(client)", "base_url", config.base_url.as_str())?;
        let headers = config.generation.credential_headers(&config.api_key)?;
        let target = config
            .generation
            .target_headers(&config.organization_id, &config.selector)?;
        let http = reqwest::Client::builder()
            .user_agent(concat!("taxdash/", env!("CARGO_PKG_VERSION")))
            .default_headers(headers)
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            // The key travels in a custom header that redirects would carry anywhere; the
            // interface uses none.
            .redirect(redirect::Policy::none())
            .build()
            .map_err(|e| ClientBuildError::Http(e.to_string()))?;
        let limiter = config
            .rate_limit_per_min
            .map(|per_min| Arc::new(Pacer::per_minute(per_min)));
        Ok(Transport {
            http,
            base_url,
            generation: config.generation,
            organization_id: config.organization_id,
            selector: config.selector,
            target: Ok(target),
            redactor: Redactor::new(config.api_key),
            connect_timeout: config.connect_timeout,
            request_timeout: config.request_timeout,
            retry: config.retry,
            limiter,
            counters: Arc::default(),
            observer: None,
            auditor: None,
        })
    }

    /// The same transport acting on another organization: same key, connection pool, pacing
    /// and counters. v1 changes `x-organization-id`; the Tenanted API selects the organization
    /// with `Organization-Id`.
    pub fn with_organization(&self, organization_id: &str) -> Transport {
        let selector = Selector::Organization(organization_id.to_owned());
        let target = self.generation.target_headers(organization_id, &selector);
        Transport {
            http: self.http.clone(),
            base_url: self.base_url.clone(),
            generation: self.generation,
            organization_id: organization_id.to_owned(),
            selector,
            target,
            redactor: self.redactor.clone(),
            connect_timeout: self.connect_timeout,
            request_timeout: self.request_timeout,
            retry: self.retry,
            limiter: self.limiter.clone(),
            counters: Arc::clone(&self.counters),
            observer: self.observer.clone(),
            auditor: self.auditor.clone(),
        }
    }

    /// The same transport, telling `observer` of each retry.
    pub fn with_observer(&self, observer: RetryObserver) -> Transport {
        Transport {
            observer: Some(observer),
            ..self.clone()
        }
    }

    /// The same transport, telling `auditor` of each write.
    pub fn with_auditor(&self, auditor: Auditor) -> Transport {
        Transport {
            auditor: Some(auditor),
            ..self.clone()
        }
    }

    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// v1: the organization of `x-organization-id`. Tenanted: the organization the selector
    /// names, or `""` when it names none directly (home organization, connection, entity).
    pub fn organization_id(&self) -> &str {
        match self.generation {
            Generation::V1 => &self.organization_id,
            Generation::Tenanted(_) => self.selector.organization_id().unwrap_or(""),
        }
    }

    /// The Tenanted selector (v1 ignores it).
    pub fn selector(&self) -> &Selector {
        &self.selector
    }

    pub fn stats(&self) -> ClientStats {
        ClientStats {
            requests: self.counters.requests.load(Ordering::Relaxed),
            retries: self.counters.retries.load(Ordering::Relaxed),
            rate_limited: self.counters.rate_limited.load(Ordering::Relaxed),
        }
    }

    /// Sends `call` (retrying as the policy allows) and reads the answer as `T`.
    pub async fn send<T: DeserializeOwned>(&self, call: Call) -> ApiResult<T> {
        let (what, bytes) = self.execute(call).await?;
        let undecodable = |e: serde_json::Error| ApiError::Undecodable {
            what: what.clone(),
            detail: format!(
                "expected {}: {}",
                short_type_name::<T>(),
                self.redactor.text(&e.to_string())
            ),
        };
        match self.generation {
            Generation::V1 => serde_json::from_slice(&bytes).map_err(undecodable),
            Generation::Tenanted(_) => {
                let value = serde_json::from_slice(&bytes).map_err(undecodable)?;
                serde_json::from_value(self.generation.decode_answer(value)).map_err(undecodable)
            }
        }
    }

    /// Sends a list `call` and answers its page with the items as sent (their JSON text):
    /// nothing dropped, nothing filled in. v1 items are the service's own text; a Tenanted
    /// item's keys are turned to v1's spelling (as for every answer), its values untouched.
    pub async fn send_page_raw(&self, call: Call) -> ApiResult<Page<Box<RawValue>>> {
        let (what, bytes) = self.execute(call).await?;
        let undecodable = |e: serde_json::Error| ApiError::Undecodable {
            what: what.clone(),
            detail: format!("expected a page: {}", self.redactor.text(&e.to_string())),
        };
        let page: Page<Box<RawValue>> = serde_json::from_slice(&bytes).map_err(undecodable)?;
        match self.generation {
            Generation::V1 => Ok(page),
            Generation::Tenanted(_) => {
                let mut items = Vec::with_capacity(page.items.len());
                for item in page.items {
                    let value = serde_json::from_str(item.get()).map_err(undecodable)?;
                    let text = serde_json::to_string(&self.generation.decode_answer(value))
                        .map_err(undecodable)?;
                    items.push(RawValue::from_string(text).map_err(undecodable)?);
                }
                Ok(Page { items, ..page })
            }
        }
    }

    /// Reads one item of a page [`send_page_raw`](Self::send_page_raw) answered as `T`, as
    /// [`send`](Self::send) would have read it.
    pub fn read_item<T: DeserializeOwned>(&self, item: &RawValue) -> ApiResult<T> {
        serde_json::from_str(item.get()).map_err(|e| ApiError::Undecodable {
            what: "a list item".to_owned(),
            detail: format!(
                "expected {}: {}",
                short_type_name::<T>(),
                self.redactor.text(&e.to_string())
            ),
        })
    }

    /// Sends `call` and answers the body's JSON as sent (`null` for an empty body), keys not
    /// translated.
    pub async fn send_raw(&self, call: Call) -> ApiResult<serde_json::Value> {
        let (what, bytes) = self.execute(call).await?;
        if bytes.is_empty() {
            return Ok(serde_json::Value::Null);
        }
        serde_json::from_slice(&bytes).map_err(|e| ApiError::Undecodable {
            what,
            detail: self.redactor.text(&e.to_string()),
        })
    }

    /// Sends `call` and ignores the answer's body.
    pub async fn send_discarding(&self, call: Call) -> ApiResult<()> {
        self.execute(call).await.map(drop)
    }

    /// The bytes at `location` (a file's web address as the service gives it, absolute or
    /// relative to the base URL). On the service's own origin the request carries the
    /// credentials like any call; elsewhere (a storage link) it carries none, and only `https`
    /// (or plain `http` to a loopback host) is followed. No redirect is followed.
    pub async fn fetch(&self, location: &str) -> ApiResult<Vec<u8>> {
        let url = self
            .base_url
            .join(location.trim())
            .map_err(|e| ApiError::BadRequest {
                detail: format!("the file's location {location:?} is not a web address: {e}"),
            })?;
        let what = format!("GET {}", url.path());
        let own = url.origin() == self.base_url.origin();
        let request = if own {
            let target = self.target.as_ref().map_err(|e| ApiError::BadRequest {
                detail: e.to_string(),
            })?;
            if let Some(limiter) = &self.limiter {
                limiter.turn().await;
            }
            self.http.get(url.clone()).headers(target.clone())
        } else {
            let loopback = url.host_str().is_some_and(|h| {
                h == "localhost"
                    || h.trim_matches(['[', ']'])
                        .parse::<std::net::IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            });
            if url.scheme() != "https" && !(url.scheme() == "http" && loopback) {
                return Err(ApiError::BadRequest {
                    detail: format!(
                        "the file's location uses {}: only https is followed",
                        url.scheme()
                    ),
                });
            }
            let plain = reqwest::Client::builder()
                .user_agent(concat!("taxdash/", env!("CARGO_PKG_VERSION")))
                .connect_timeout(self.connect_timeout)
                .timeout(self.request_timeout)
                .redirect(redirect::Policy::none())
                .build()
                .map_err(|e| ApiError::BadRequest {
                    detail: e.to_string(),
                })?;
            plain.get(url.clone())
        };
        bump(&self.counters.requests);
        let response = request
            .send()
            .await
            .map_err(|e| self.failure(e, &what).error)?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|e| self.failure(e, &what).error)?;
        if status.is_success() {
            return Ok(body.to_vec());
        }
        let ctx = ErrorContext {
            what: &what,
            organization_id: &self.organization_id,
            redactor: &self.redactor,
        };
        Err(self.generation.error_from(status, &body, &ctx))
    }

    /// The full URL of a call.
    fn url(&self, call: &Call) -> Url {
        let mut url = self.base_url.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty()
                .extend(self.generation.path_prefix())
                .extend(self.generation.map_path(&call.segments));
        }
        if !call.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&call.query);
        }
        url
    }

    /// Runs the attempts; on success, `what` (`GET /v1/...`) and the answer's body.
    async fn execute(&self, mut call: Call) -> ApiResult<(String, Vec<u8>)> {
        if let (Generation::Tenanted(_), Body::Json(bytes)) = (self.generation, &call.body) {
            // Bodies are written once, before the attempts, in the generation's spelling.
            if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes.as_slice()) {
                let encoded = self.generation.encode_body(value);
                if let Ok(bytes) = serde_json::to_vec(&encoded) {
                    call.body = Body::Json(Arc::new(bytes));
                }
            }
        }
        let url = self.url(&call);
        let what = format!("{} {}", call.method, url.path());
        let seen = Seen::default();
        let (pending, secrets) = match &self.auditor {
            Some(auditor) if call.is_write() => {
                let (pending, secrets) = self.audit_sent(auditor, &call, &url)?;
                (Some(pending), secrets)
            }
            _ => (None, Vec::new()),
        };
        let result = self.attempts(&call, &url, &what, &seen).await;
        if let Some(pending) = pending {
            let status = match seen.status.load(Ordering::Relaxed) {
                0 => None,
                s => Some(s),
            };
            let path_id = audit::resource_of(&call.segments).1.map(str::to_owned);
            let answer = match &result {
                Ok(body) => WriteAnswer {
                    outcome: WriteOutcome::Ok,
                    status,
                    record_id: audit::answer_id(body).or(path_id),
                    request_id: seen.request_id.lock().ok().and_then(|r| r.clone()),
                    error: None,
                },
                Err(e) => WriteAnswer {
                    outcome: audit::outcome_of(e, status),
                    status,
                    record_id: path_id,
                    request_id: e
                        .request_id()
                        .map(str::to_owned)
                        .or_else(|| seen.request_id.lock().ok().and_then(|r| r.clone())),
                    error: Some(audit::scrub(&e.to_string(), &secrets)),
                },
            };
            pending.answered(&answer);
        }
        Ok((what, result?))
    }

    /// Tells the auditor of a write about to be sent; a write it cannot record is not sent.
    /// Answers the entry to complete and the secret values the body held.
    fn audit_sent(
        &self,
        auditor: &Auditor,
        call: &Call,
        url: &Url,
    ) -> ApiResult<(Pending, Vec<String>)> {
        let (body, secrets) = match &call.body {
            Body::None => (SentBody::None, Vec::new()),
            Body::Json(bytes) => {
                let (value, secrets) = audit::redact(bytes);
                (SentBody::Json(value), secrets)
            }
            Body::File {
                file_name,
                mime,
                bytes,
                ..
            } => (
                SentBody::File {
                    name: file_name.clone(),
                    mime: mime.clone(),
                    size: bytes.len(),
                },
                Vec::new(),
            ),
        };
        let (resource, record_id) = audit::resource_of(&call.segments);
        let sent = WriteSent {
            method: call.method.as_str(),
            path: url.path(),
            resource,
            record_id,
            organization: &self.organization_id,
            generation: self.generation,
            body,
        };
        let ticket = auditor.sent(&sent).map_err(|reason| ApiError::BadRequest {
            detail: format!("not sent, because the audit log could not record it: {reason}"),
        })?;
        Ok((Pending::new(Arc::clone(auditor), ticket), secrets))
    }

    /// The attempts of one call, retried as the policy allows: the answer's body.
    async fn attempts(
        &self,
        call: &Call,
        url: &Url,
        what: &str,
        seen: &Seen,
    ) -> ApiResult<Vec<u8>> {
        let method = call.method.clone();
        let max_wait = self.retry.max_wait;
        let attempts = AtomicU32::new(0);
        let attempt = || {
            attempts.fetch_add(1, Ordering::Relaxed);
            self.attempt(call, url, what, seen)
        };
        attempt
            .retry(self.retry.backoff())
            .when(|f: &FailedAttempt| f.retryable(&method))
            .adjust(|f: &FailedAttempt, drawn| f.wait(drawn, max_wait))
            .notify(|f: &FailedAttempt, wait: Duration| {
                bump(&self.counters.retries);
                tracing::debug!(%what, ?wait, error = %f.error, "retrying");
                if let Some(observer) = &self.observer {
                    observer(&RetryNotice {
                        what: what.to_owned(),
                        cause: retry_cause(&f.error),
                        attempt: attempts.load(Ordering::Relaxed) + 1,
                        attempts: self.retry.max_attempts,
                        wait,
                    });
                }
            })
            .await
            .map_err(|f| match f.error {
                ApiError::Timeout { after, .. } => ApiError::Timeout {
                    after,
                    attempts: attempts.load(Ordering::Relaxed),
                },
                other => other,
            })
    }

    async fn attempt(
        &self,
        call: &Call,
        url: &Url,
        what: &str,
        seen: &Seen,
    ) -> Result<Vec<u8>, FailedAttempt> {
        if let Some(limiter) = &self.limiter {
            limiter.turn().await;
        }
        let target = self.target.as_ref().map_err(|e| {
            FailedAttempt::fatal(ApiError::BadRequest {
                detail: e.to_string(),
            })
        })?;
        bump(&self.counters.requests);
        let mut headers = target.clone();
        for (name, value) in &call.headers {
            headers.insert(name.clone(), value.clone());
        }
        let mut request = self
            .http
            .request(call.method.clone(), url.clone())
            .headers(headers);
        request = match &call.body {
            Body::None => request,
            Body::Json(bytes) => request
                .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                .body(bytes.as_ref().clone()),
            Body::File {
                part,
                file_name,
                mime,
                bytes,
            } => {
                let file = Part::bytes(bytes.as_ref().clone())
                    .file_name(file_name.clone())
                    .mime_str(mime)
                    .map_err(|e| {
                        FailedAttempt::fatal(ApiError::BadRequest {
                            detail: format!("the file's type {mime:?} is not a MIME type: {e}"),
                        })
                    })?;
                request.multipart(Form::new().part(*part, file))
            }
        };
        let response = request.send().await.map_err(|e| self.failure(e, what))?;
        let status = response.status();
        seen.status.store(status.as_u16(), Ordering::Relaxed);
        if let Some(id) = REQUEST_ID_HEADERS
            .iter()
            .find_map(|h| response.headers().get(*h))
            .and_then(|v| v.to_str().ok())
            && let Ok(mut slot) = seen.request_id.lock()
        {
            *slot = Some(id.to_owned());
        }
        let retry_after = retry_after(&response);
        let allow = response
            .headers()
            .get(ALLOW)
            .and_then(|v| v.to_str().ok())
            .map(parse_allow)
            .unwrap_or_default();
        let body = response.bytes().await.map_err(|e| self.failure(e, what))?;
        if status.is_success() {
            return Ok(body.to_vec());
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            bump(&self.counters.rate_limited);
        }
        let ctx = ErrorContext {
            what,
            organization_id: &self.organization_id,
            redactor: &self.redactor,
        };
        let mut error = self.generation.error_from(status, &body, &ctx);
        match &mut error {
            ApiError::RateLimited { retry_after: r } => *r = retry_after,
            ApiError::Tenanted(e) => e.allow = allow,
            _ => {}
        }
        Err(FailedAttempt::from_status(status, error, retry_after))
    }

    /// A transport error as a failure: a timeout, or a network error (retryable for any method
    /// when the connection never opened), said in words; the full chain goes to the log.
    fn failure(&self, e: reqwest::Error, what: &str) -> FailedAttempt {
        let symptoms = Symptoms::of(&e.without_url());
        let connect_failed = symptoms.connect;
        tracing::warn!(
            %what,
            chain = %self.redactor.text(&symptoms.chain()),
            "transport error"
        );
        let error = if symptoms.timeout && !connect_failed {
            ApiError::Timeout {
                after: self.request_timeout,
                attempts: 1,
            }
        } else {
            ApiError::Network {
                detail: self
                    .redactor
                    .text(&symptoms.words(&self.base_url, self.connect_timeout)),
            }
        };
        FailedAttempt::transport(error, connect_failed)
    }
}

fn retry_after(response: &Response) -> Option<Duration> {
    response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_retry_after(v, SystemTime::now()))
}

/// `Page<Registration>` rather than `taxdash::model::common::Page<taxdash::model::…>`.
fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or(&word));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::credentials::ApiKey;
    use crate::model::{Page, Registration};

    fn transport(base: &str) -> Transport {
        let config = ClientConfig::new(
            Url::parse(base).unwrap(),
            "orgn_1",
            ApiKey::new("k").unwrap(),
        );
        Transport::new(config).unwrap()
    }

    #[test]
    fn urls_get_the_prefix_and_encoded_segments() {
        let t = transport("http://127.0.0.1:9/");
        let call = Call::get(&["transactions", "external", "ord/1 #2"]).param("a", "b c");
        assert_eq!(
            t.url(&call).as_str(),
            "http://127.0.0.1:9/v1/transactions/external/ord%2F1%20%232?a=b+c"
        );
        let t = transport("https://api.example.com/base/");
        assert_eq!(
            t.url(&Call::get(&["registrations"])).as_str(),
            "https://api.example.com/base/v1/registrations"
        );
    }

    #[test]
    fn plain_http_is_refused_for_a_remote_host() {
        let config = ClientConfig::new(
            Url::parse("http://api.example.com").unwrap(),
            "orgn_1",
            ApiKey::new("k").unwrap(),
        );
        let err = Transport::new(config).err().expect("refused");
        assert!(err.to_string().contains("loopback"), "{err}");
    }

    #[test]
    fn type_names_are_short() {
        assert_eq!(
            short_type_name::<Page<Registration>>(),
            "Page<Registration>"
        );
        assert_eq!(short_type_name::<Vec<String>>(), "Vec<String>");
    }
}
