//! How a client is set up: where, as whom, how patient, how fast.

use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

use url::Url;

use super::generation::{Generation, InvalidHeader};
use super::retry::RetryPolicy;
use crate::config::{ConfigError, UrlProblem};
use crate::credentials::{ApiKey, ResolvedProfile};

/// Everything a [`Client`](super::Client) needs. Build it with [`ClientConfig::new`] or
/// [`ClientConfig::from_profile`], then adjust the public fields.
#[derive(Clone)]
pub struct ClientConfig {
    /// Root URL of the service. `https://`, or `http://` to a loopback host only.
    pub base_url: Url,
    /// The organization every call acts on.
    pub organization_id: String,
    pub api_key: ApiKey,
    pub generation: Generation,
    /// Longest wait for a connection to open. Default 10 s.
    pub connect_timeout: Duration,
    /// Longest wait for one attempt, from sending to the last byte of the answer. Default 30 s.
    pub request_timeout: Duration,
    pub retry: RetryPolicy,
    /// Requests per minute this client allows itself, shared by all its clones, paced evenly
    /// (at most two back to back). `None` turns the pacing off. Default: the service's 10,000
    /// per minute.
    pub rate_limit_per_min: Option<NonZeroU32>,
}

impl ClientConfig {
    /// The service's documented rate limit per minute.
    pub const SERVICE_RATE_LIMIT_PER_MIN: u32 = 10_000;
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

    /// The default settings for talking to `base_url` as `organization_id` with `api_key`.
    pub fn new(base_url: Url, organization_id: impl Into<String>, api_key: ApiKey) -> Self {
        ClientConfig {
            base_url,
            organization_id: organization_id.into(),
            api_key,
            generation: Generation::default(),
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
            retry: RetryPolicy::default(),
            rate_limit_per_min: NonZeroU32::new(Self::SERVICE_RATE_LIMIT_PER_MIN),
        }
    }

    /// The default settings for a resolved profile.
    pub fn from_profile(profile: &ResolvedProfile) -> Self {
        Self::new(
            profile.base_url.clone(),
            profile.organization_id.clone(),
            profile.api_key.clone(),
        )
    }
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("base_url", &self.base_url.as_str())
            .field("organization_id", &self.organization_id)
            .field("api_key", &self.api_key)
            .field("generation", &self.generation)
            .field("connect_timeout", &self.connect_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("retry", &self.retry)
            .field("rate_limit_per_min", &self.rate_limit_per_min)
            .finish()
    }
}

/// Why a client could not be built. Never contains the key.
#[derive(Debug, thiserror::Error)]
pub enum ClientBuildError {
    #[error("the base URL {url} {problem}")]
    BaseUrl { url: String, problem: UrlProblem },
    #[error("{0}")]
    Header(#[from] InvalidHeader),
    #[error("the HTTP client could not start: {0}")]
    Http(String),
}

impl From<ConfigError> for ClientBuildError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::InvalidBaseUrl { url, problem, .. } => {
                ClientBuildError::BaseUrl { url, problem }
            }
            other => ClientBuildError::Http(other.to_string()),
        }
    }
}
