//! How a client is set up: where, as whom, how patient, how fast.

use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

use url::Url;

use super::generation::{Generation, InvalidHeader};
use super::retry::RetryPolicy;
pub use super::selector::Selector;
use crate::config::{ApiKind, ConfigError, Env, UrlProblem};
use crate::credentials::{ApiKey, ResolvedProfile};
use crate::model::tenanted::ApiVersion;

/// Environment variable: how long one attempt may wait for its answer, in seconds (`30`, `2.5`),
/// over the default 30 s.
pub const ENV_TIMEOUT: &str = "TAXDASH_TIMEOUT";

/// The longest [`ENV_TIMEOUT`] taken, in seconds.
const MAX_TIMEOUT_SECS: f64 = 600.0;

/// Everything a [`Client`](super::Client) needs. Build it with [`ClientConfig::new`] or
/// [`ClientConfig::from_profile`], then adjust the public fields.
#[derive(Clone)]
pub struct ClientConfig {
    /// Root URL of the service. `https://`, or `http://` to a loopback host only.
    pub base_url: Url,
    /// The organization every v1 call acts on (`x-organization-id`). The Tenanted API ignores
    /// it and targets [`selector`](Self::selector) instead.
    pub organization_id: String,
    pub api_key: ApiKey,
    pub generation: Generation,
    /// Which organization a Tenanted call acts on. v1 ignores it. Default: [`Selector::Home`].
    pub selector: Selector,
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
            selector: Selector::Home,
            connect_timeout: Self::DEFAULT_CONNECT_TIMEOUT,
            request_timeout: Self::DEFAULT_REQUEST_TIMEOUT,
            retry: RetryPolicy::default(),
            rate_limit_per_min: NonZeroU32::new(Self::SERVICE_RATE_LIMIT_PER_MIN),
        }
    }

    /// The default settings for a resolved profile: its generation (the Tenanted release it
    /// asks for, else the latest) and, for the Tenanted API, its selector: `organization_id`,
    /// else `connection_id`, else `entity_id` (with `entity_source`), else the key's home
    /// organization.
    pub fn from_profile(profile: &ResolvedProfile) -> Self {
        let mut config = Self::new(
            profile.base_url.clone(),
            profile.organization_id.clone(),
            profile.api_key.clone(),
        );
        if profile.api == ApiKind::Tenanted {
            config.generation =
                Generation::Tenanted(profile.api_version.unwrap_or(ApiVersion::LATEST));
            config.selector = if !profile.organization_id.is_empty() {
                Selector::Organization(profile.organization_id.clone())
            } else if let Some(connection) = &profile.connection_id {
                Selector::Connection(connection.clone())
            } else if let Some(entity) = &profile.entity_id {
                Selector::Entity {
                    id: entity.clone(),
                    source: profile.entity_source.clone(),
                }
            } else {
                Selector::Home
            };
        }
        config
    }
}

impl ClientConfig {
    /// The settings the environment changes: [`ENV_TIMEOUT`], the wait of each attempt.
    pub fn with_env(mut self, env: &dyn Env) -> Result<Self, ClientBuildError> {
        if let Some(text) = env.non_empty(ENV_TIMEOUT) {
            self.request_timeout = parse_timeout(&text)?;
        }
        Ok(self)
    }
}

/// A number of seconds, more than 0 and at most 600.
fn parse_timeout(text: &str) -> Result<Duration, ClientBuildError> {
    let refused = || ClientBuildError::Setting {
        name: ENV_TIMEOUT,
        value: text.escape_debug().to_string(),
        rule: "must be a number of seconds, more than 0 and at most 600 (such as 30 or 2.5)",
    };
    let secs: f64 = text.trim().parse().map_err(|_| refused())?;
    if !(secs > 0.0 && secs <= MAX_TIMEOUT_SECS) {
        return Err(refused());
    }
    Duration::try_from_secs_f64(secs).map_err(|_| refused())
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("base_url", &self.base_url.as_str())
            .field("organization_id", &self.organization_id)
            .field("api_key", &self.api_key)
            .field("generation", &self.generation)
            .field("selector", &self.selector)
            .field("connect_timeout", &self.connect_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("retry", &self.retry)
            .field("rate_limit_per_min", &self.rate_limit_per_min)
            .finish()
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::Home => f.write_str("the key's home organization"),
            Selector::Organization(id) => write!(f, "organization {id}"),
            Selector::Connection(id) => write!(f, "connection {id}"),
            Selector::Entity { id, source: None } => write!(f, "entity {id}"),
            Selector::Entity {
                id,
                source: Some(source),
            } => write!(f, "entity {id} ({source})"),
        }
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
    /// A setting from the environment with a value that cannot be used.
    #[error("{name} = \"{value}\" {rule}")]
    Setting {
        name: &'static str,
        value: String,
        rule: &'static str,
    },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, ENV_API};
    use crate::credentials::{ENV_API_KEY, KeyStore, resolve};

    fn resolved(profile_body: &str, api_env: Option<&'static str>) -> ResolvedProfile {
        let config = Config::from_toml(&format!(
            "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\n{profile_body}"
        ))
        .unwrap();
        let env = move |name: &str| match name {
            ENV_API_KEY => Some("demo-partner-key".to_owned()),
            ENV_API => api_env.map(str::to_owned),
            _ => None,
        };
        resolve(Some("p"), &config, &env, &KeyStore::mock()).unwrap()
    }

    #[test]
    fn a_tenanted_profile_sets_generation_and_selector() {
        let c = ClientConfig::from_profile(&resolved("api = \"tenanted\"\n", None));
        assert_eq!(c.generation, Generation::Tenanted(ApiVersion::LATEST));
        assert_eq!(c.selector, Selector::Home);

        let p = resolved(
            "api = \"tenanted\"\napi_version = \"2026-07-21\"\norganization_id = \"orgn_2\"\n",
            None,
        );
        assert!(p.to_string().contains("Tenanted API 2026-07-21"), "{p}");
        let c = ClientConfig::from_profile(&p);
        assert_eq!(c.generation, Generation::Tenanted(ApiVersion::DEFAULT));
        assert_eq!(c.selector, Selector::Organization("orgn_2".into()));

        let c = ClientConfig::from_profile(&resolved(
            "api = \"tenanted\"\nentity_id = \"ent_store_100\"\nentity_source = \"CHECKOUT\"\n",
            None,
        ));
        assert_eq!(
            c.selector,
            Selector::Entity {
                id: "ent_store_100".into(),
                source: Some("CHECKOUT".into())
            }
        );
        let c = ClientConfig::from_profile(&resolved(
            "api = \"tenanted\"\nconnection_id = \"conn_1\"\nentity_id = \"ent_1\"\n",
            None,
        ));
        assert_eq!(c.selector, Selector::Connection("conn_1".into()));
    }

    #[test]
    fn the_command_line_beats_the_environment() {
        let config = Config::from_toml(
            "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\norganization_id = \"o\"\n",
        )
        .unwrap();
        let env = |name: &str| match name {
            ENV_API_KEY => Some("k".to_owned()),
            ENV_API => Some("v1".to_owned()),
            _ => None,
        };
        let p = crate::credentials::resolve_with_api(
            None,
            &config,
            &env,
            &KeyStore::mock(),
            Some(ApiKind::Tenanted),
        )
        .unwrap();
        assert_eq!(
            ClientConfig::from_profile(&p).generation,
            Generation::TENANTED_LATEST
        );
    }

    #[test]
    fn the_environment_sets_the_wait_of_an_attempt() {
        let base = || resolved("organization_id = \"orgn_1\"\n", None);
        let with = |value: &'static str| {
            let env = move |name: &str| (name == ENV_TIMEOUT).then(|| value.to_owned());
            ClientConfig::from_profile(&base()).with_env(&env)
        };
        assert_eq!(
            with("2.5").unwrap().request_timeout,
            Duration::from_millis(2500)
        );
        assert_eq!(
            with(" ").unwrap().request_timeout,
            ClientConfig::DEFAULT_REQUEST_TIMEOUT
        );
        for bad in ["0", "-1", "soon", "601", "NaN", "inf"] {
            let e = with(bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!(
                    "TAXDASH_TIMEOUT = \"{bad}\" must be a number of seconds"
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn the_environment_chooses_the_api() {
        let c = ClientConfig::from_profile(&resolved("organization_id = \"orgn_1\"\n", None));
        assert_eq!(c.generation, Generation::V1);
        let c = ClientConfig::from_profile(&resolved(
            "organization_id = \"orgn_1\"\n",
            Some("tenanted"),
        ));
        assert_eq!(c.generation, Generation::TENANTED_LATEST);
        assert_eq!(c.selector, Selector::Organization("orgn_1".into()));
        let c = ClientConfig::from_profile(&resolved(
            "api = \"tenanted\"\norganization_id = \"orgn_1\"\n",
            Some("v1"),
        ));
        assert_eq!(c.generation, Generation::V1);
        assert_eq!(c.organization_id, "orgn_1");
    }
}
