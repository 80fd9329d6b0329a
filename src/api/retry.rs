//! Retrying as the service asks: exponential backoff with full jitter on 429 and temporary
//! errors, honouring `Retry-After`, with a bounded number of attempts and a cap on each wait.
//!
//! What may be retried depends on the method: GET, PUT and DELETE are idempotent and are retried
//! on 429, 500, 502, 503, 504 and on connection failures and timeouts. A POST is retried only
//! when it surely had no effect: a 429 (refused before any work) or a connection that never
//! opened.

use std::time::{Duration, SystemTime};

use backon::{BackoffBuilder, ExponentialBuilder};
use reqwest::{Method, StatusCode};

use super::error::ApiError;

/// How often and how patiently to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included (1: never retry). Default 4.
    pub max_attempts: u32,
    /// The first backoff ceiling; each later one doubles, up to `max_wait`. Default 250 ms.
    pub base_delay: Duration,
    /// The longest single wait. A `Retry-After` longer than this is not waited for: the call
    /// fails at once with [`ApiError::RateLimited`] carrying the wait, for the caller to show.
    /// Default 60 s (the live service's usual `Retry-After`).
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(250),
            max_wait: Duration::from_mins(1),
        }
    }
}

impl RetryPolicy {
    /// One attempt only.
    pub fn never() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The waits between attempts: exponential ceilings with full jitter.
    pub(crate) fn backoff(&self) -> FullJitter {
        let retries = self.max_attempts.saturating_sub(1) as usize;
        FullJitter {
            ceilings: ExponentialBuilder::new()
                .with_min_delay(self.base_delay)
                .with_max_delay(self.max_wait)
                .with_factor(2.0)
                .with_max_times(retries)
                .build(),
        }
    }
}

/// "Full jitter": each wait is drawn uniformly between zero and the exponential ceiling, so
/// clients that failed together do not come back together.
pub(crate) struct FullJitter {
    ceilings: <ExponentialBuilder as BackoffBuilder>::Backoff,
}

impl Iterator for FullJitter {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        let ceiling = self.ceilings.next()?;
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        Some(Duration::from_nanos(rand::random_range(0..=nanos)))
    }
}

/// A failed attempt, with what the retry loop needs to know about it.
#[derive(Debug)]
pub(crate) struct FailedAttempt {
    pub error: ApiError,
    /// Temporary: worth another try for an idempotent method.
    pub transient: bool,
    /// Surely without effect: worth another try for any method.
    pub no_effect: bool,
    /// The service's `Retry-After`, if it sent one.
    pub retry_after: Option<Duration>,
}

impl FailedAttempt {
    /// A failure that is never retried.
    pub fn fatal(error: ApiError) -> Self {
        FailedAttempt {
            error,
            transient: false,
            no_effect: false,
            retry_after: None,
        }
    }

    /// An answer with an error status.
    pub fn from_status(status: StatusCode, error: ApiError, retry_after: Option<Duration>) -> Self {
        let rate_limited = status == StatusCode::TOO_MANY_REQUESTS;
        FailedAttempt {
            error,
            transient: rate_limited || is_temporary(status),
            no_effect: rate_limited,
            retry_after,
        }
    }

    /// A transport error: `connect_failed` when the connection never opened.
    pub fn transport(error: ApiError, connect_failed: bool) -> Self {
        FailedAttempt {
            error,
            transient: true,
            no_effect: connect_failed,
            retry_after: None,
        }
    }

    /// Whether another attempt is allowed for `method`.
    pub fn retryable(&self, method: &Method) -> bool {
        if self.no_effect {
            return true;
        }
        self.transient && is_idempotent(method)
    }

    /// The wait before the next attempt: `Retry-After` when the service gave one (and it is
    /// within `max_wait`), else the backoff's draw. `None` stops retrying.
    pub fn wait(&self, drawn: Option<Duration>, max_wait: Duration) -> Option<Duration> {
        let drawn = drawn?;
        match self.retry_after {
            Some(asked) if asked > max_wait => None,
            Some(asked) => Some(asked),
            None => Some(drawn),
        }
    }
}

/// 500, 502, 503 and 504: failures that may pass.
fn is_temporary(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::INTERNAL_SERVER_ERROR
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT
    )
}

fn is_idempotent(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::PUT | Method::DELETE)
}

/// Reads a `Retry-After` value: delay seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`), measured from `now`. A date in the past is no wait.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let at = SystemTime::from(at.with_timezone(&chrono::Utc));
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_400);
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_mins(2))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(Duration::from_secs(80))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-5", now), None);
    }

    #[test]
    fn full_jitter_stays_under_doubling_ceilings() {
        let policy = RetryPolicy {
            max_attempts: 6,
            base_delay: Duration::from_millis(100),
            max_wait: Duration::from_millis(500),
        };
        for _ in 0..50 {
            let waits: Vec<Duration> = policy.backoff().collect();
            assert_eq!(waits.len(), 5, "five retries after the first attempt");
            for (wait, ceiling) in waits.iter().zip([100, 200, 400, 500, 500]) {
                assert!(*wait <= Duration::from_millis(ceiling), "{waits:?}");
            }
        }
        assert_eq!(RetryPolicy::never().backoff().count(), 0);
    }

    #[test]
    fn which_failures_are_retried_for_which_methods() {
        let server = |s: u16| {
            FailedAttempt::from_status(
                StatusCode::from_u16(s).unwrap(),
                ApiError::Server {
                    status: s,
                    detail: None,
                },
                None,
            )
        };
        for s in [500, 502, 503, 504] {
            assert!(server(s).retryable(&Method::GET));
            assert!(server(s).retryable(&Method::PUT));
            assert!(server(s).retryable(&Method::DELETE));
            assert!(
                !server(s).retryable(&Method::POST),
                "a POST may have had effect"
            );
        }
        assert!(!server(501).retryable(&Method::GET));
        let limited = FailedAttempt::from_status(
            StatusCode::TOO_MANY_REQUESTS,
            ApiError::RateLimited { retry_after: None },
            None,
        );
        assert!(limited.retryable(&Method::POST));
        let network = |connect| {
            FailedAttempt::transport(
                ApiError::Network {
                    detail: "reset".into(),
                },
                connect,
            )
        };
        assert!(network(false).retryable(&Method::GET));
        assert!(!network(false).retryable(&Method::POST));
        assert!(network(true).retryable(&Method::POST));
        assert!(
            !FailedAttempt::fatal(ApiError::NotFound { detail: "x".into() })
                .retryable(&Method::GET)
        );
    }

    #[test]
    fn retry_after_wins_within_the_cap() {
        let max = Duration::from_secs(10);
        let with = |secs| FailedAttempt {
            retry_after: Some(Duration::from_secs(secs)),
            ..FailedAttempt::fatal(ApiError::RateLimited { retry_after: None })
        };
        let drawn = Some(Duration::from_millis(3));
        assert_eq!(with(2).wait(drawn, max), Some(Duration::from_secs(2)));
        assert_eq!(
            with(60).wait(drawn, max),
            None,
            "too long: give up and say so"
        );
        assert_eq!(with(2).wait(None, max), None, "attempts used up");
        assert_eq!(
            FailedAttempt::fatal(ApiError::Timeout {
                after: max,
                attempts: 1
            })
            .wait(drawn, max),
            drawn
        );
    }
}
