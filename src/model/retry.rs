//! A call tried again: what the client tells while it waits to repeat an attempt that failed,
//! for the dashboard's footer and the export's progress line.

use std::time::Duration;

/// A retry about to be made, as the client's retry loop tells its observer: said in words by
/// its `Display`, `no answer for 30 s, trying again, 2 of 4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryNotice {
    /// The call, `GET /v1/customers`.
    pub what: String,
    /// Why the last attempt failed.
    pub cause: RetryCause,
    /// The attempt about to be made (2 for the first retry).
    pub attempt: u32,
    /// Attempts in all.
    pub attempts: u32,
    /// The pause before it.
    pub wait: Duration,
}

/// Why an attempt is repeated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryCause {
    /// The service took the request and did not answer within the request timeout.
    NoAnswer { after: Duration },
    /// The connection could not be made or broke.
    Network,
    /// 429: the service asked to slow down.
    RateLimited,
    /// A temporary failure on the service's side (502, 503, 504…).
    Unavailable,
}

impl std::fmt::Display for RetryNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.cause {
            RetryCause::NoAnswer { after } => {
                format!("no answer for {}", super::format::seconds(after))
            }
            RetryCause::Network => "no connection".to_owned(),
            RetryCause::RateLimited => "asked to slow down".to_owned(),
            RetryCause::Unavailable => "the service failed".to_owned(),
        };
        write!(
            f,
            "{why}, trying again, {} of {}",
            self.attempt, self.attempts
        )
    }
}
