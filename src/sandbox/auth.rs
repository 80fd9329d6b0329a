//! v1 authentication and the per-key rate limit.

use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::App;
use super::error::ErrorAnswer;

/// The detail texts of the live service.
pub const MISSING_KEY: &str = "API key is missing or empty.";
pub const UNAUTHENTICATED: &str = "Unauthenticated request.";
pub const NO_ACCESS: &str = "User does not have access to the specified organization";

/// Requests per minute and key, as a generic cell rate: a steady rate with a burst of one
/// second's worth, so a client that paces itself at the limit never meets a 429.
pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl RateLimit {
    /// `None` when `per_minute` is 0 (no limit).
    pub fn new(per_minute: u32) -> Option<Self> {
        let rate = NonZeroU32::new(per_minute)?;
        let burst = NonZeroU32::new((per_minute / 60).max(1)).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::per_minute(rate).allow_burst(burst);
        Some(RateLimit {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        })
    }

    /// `Err(seconds to wait)` when the key is over its limit.
    pub(crate) fn check(&self, key: &str) -> Result<(), u64> {
        self.limiter
            .check_key(&key.to_owned())
            .map_err(|not_until| {
                let wait = not_until.wait_time_from(self.clock.now());
                wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
            })
    }
}

/// A header's value, trimmed; `None` when absent, empty or not text. Both APIs read their
/// credential and selector headers through it.
pub(super) fn header_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

/// Checks `x-api-key` and `x-organization-id` (names are case-insensitive), then the key's rate
/// limit, and hands the organization to the handler.
pub async fn authenticate(
    State(app): State<Arc<App>>,
    mut request: Request,
    next: Next,
) -> Response {
    let key = header_value(request.headers(), "x-api-key");
    let org_id = header_value(request.headers(), "x-organization-id");
    let Some(key) = key else {
        return ErrorAnswer::Unauthorized(MISSING_KEY).into_response();
    };
    let Some(org) = app.store.org_for_key(&key) else {
        return ErrorAnswer::Unauthorized(UNAUTHENTICATED).into_response();
    };
    if let Some(limit) = &app.rate_limit
        && let Err(retry_after_secs) = limit.check(&key)
    {
        return ErrorAnswer::RateLimited {
            retry_after_secs: retry_after_secs.max(1),
        }
        .into_response();
    }
    if org_id.as_deref() != Some(org.id.as_str()) {
        return ErrorAnswer::Forbidden(NO_ACCESS).into_response();
    }
    let org = Arc::clone(org);
    request.extensions_mut().insert(org);
    next.run(request).await
}
