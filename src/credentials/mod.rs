//! API keys: kept in the OS keyring, overridable from the environment, never written to a file.
//!
//! Each profile's key is one keyring entry with service `taxdash` and user = the profile name,
//! held by the first store that works on this system:
//!
//! | OS | store |
//! |---|---|
//! | Linux | Secret Service over D-Bus (GNOME Keyring, `KWallet`, `KeePassXC`), else the kernel keyring (keyutils) |
//! | FreeBSD, OpenBSD | Secret Service over D-Bus |
//! | macOS | the login keychain |
//! | Windows | Credential Manager |
//!
//! For CI and headless servers, `TAXDASH_API_KEY`, `TAXDASH_ORGANIZATION_ID`,
//! `TAXDASH_BASE_URL` and `TAXDASH_API` (`v1` or `tenanted`) override the keyring and the
//! profile. Where no store works and no variable
//! is set, [`CredentialError::NoStore`] says so and names the variables; nothing falls back to a
//! plain file.
//!
//! The keyring is reached through [`KeyStore`]: [`KeyStore::platform`] for the real one,
//! [`KeyStore::mock`] (keyring-core's in-memory mock) for tests and demos. Calls into a real
//! store block (D-Bus round trips, maybe an unlock prompt): from async code, run them on
//! `tokio::task::spawn_blocking`.

mod store;

use std::fmt;

use url::Url;
use zeroize::Zeroizing;

use crate::config::{
    ApiKind, Config, ConfigError, ENV_API, Profile, api_from_env, validate_base_url,
};
pub use crate::config::{Env, ProcessEnv};
use crate::model::tenanted::ApiVersion;
pub use store::{KeyStore, StoreKind};

/// Keyring service name under which every profile's key is stored.
pub const SERVICE: &str = "taxdash";

/// Environment variable holding an API key; beats the keyring.
pub const ENV_API_KEY: &str = "TAXDASH_API_KEY";
/// Environment variable holding an organization id; beats the profile's.
pub const ENV_ORGANIZATION_ID: &str = "TAXDASH_ORGANIZATION_ID";
/// Environment variable holding a base URL; beats the profile's.
pub const ENV_BASE_URL: &str = "TAXDASH_BASE_URL";

/// Profile name used when the config file has no profiles (environment-only use).
pub const DEFAULT_PROFILE_NAME: &str = "default";

/// An API key. Its `Debug` and `Display` print `ApiKey(****)`; the value is reachable only
/// through [`ApiKey::expose`], and its memory is zeroed when it is dropped.
#[derive(Clone)]
pub struct ApiKey(Zeroizing<String>);

impl ApiKey {
    /// Wraps a key, trimming surrounding whitespace (a pasted key often ends in a newline).
    ///
    /// Refuses an empty key and one with spaces, control characters or non-ASCII characters
    /// inside, which could not be sent in an HTTP header. The error never contains the key.
    pub fn new(key: impl Into<String>) -> Result<Self, CredentialError> {
        let key = Zeroizing::new(key.into());
        let trimmed = key.trim();
        if trimmed.is_empty() {
            return Err(CredentialError::InvalidKey {
                reason: "it is empty",
            });
        }
        if !trimmed.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(CredentialError::InvalidKey {
                reason: "it contains spaces, control characters or non-ASCII characters",
            });
        }
        if trimmed.len() == key.len() {
            Ok(Self(key))
        } else {
            Ok(Self(Zeroizing::new(trimmed.to_owned())))
        }
    }

    /// The key itself, for the one place that needs it: the request header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(****)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(****)")
    }
}

/// Where a resolved key came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    /// The `TAXDASH_API_KEY` environment variable.
    Env,
    /// The OS keyring entry of the profile.
    Keyring,
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Env => write!(f, "environment variable {ENV_API_KEY}"),
            Self::Keyring => f.write_str("OS keyring"),
        }
    }
}

/// Everything needed to talk to the service as one profile.
#[derive(Debug, Clone)]
pub struct ResolvedProfile {
    /// Profile name.
    pub name: String,
    /// Validated root URL of the service.
    pub base_url: Url,
    /// Organization to act as. Tenanted API: `""` when the profile names none (the key's home
    /// organization, or the organization of `connection_id` / `entity_id`).
    pub organization_id: String,
    /// The interface: the profile's `api`, or `TAXDASH_API`.
    pub api: ApiKind,
    /// Tenanted API: the release asked for (`None`: the latest).
    pub api_version: Option<ApiVersion>,
    /// Tenanted API: the `Connection-Id` selector.
    pub connection_id: Option<String>,
    /// Tenanted API: the `Entity-Id` selector.
    pub entity_id: Option<String>,
    /// Tenanted API: the `Entity-Source` of `entity_id`.
    pub entity_source: Option<String>,
    /// The key (redacted in `Debug`).
    pub api_key: ApiKey,
    /// Whether the profile refuses writes.
    pub read_only: bool,
    /// Where the key came from.
    pub key_source: KeySource,
}

impl fmt::Display for ResolvedProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = match self.api {
            ApiKind::V1 => format!("organization {}", self.organization_id),
            ApiKind::Tenanted => {
                let release = self.api_version.unwrap_or(ApiVersion::LATEST);
                let target = if !self.organization_id.is_empty() {
                    format!("organization {}", self.organization_id)
                } else if let Some(connection) = &self.connection_id {
                    format!("the organization of connection {connection}")
                } else if let Some(entity) = &self.entity_id {
                    format!("the organization of entity {entity}")
                } else {
                    "the key's home organization".to_owned()
                };
                format!("Tenanted API {release}, {target}")
            }
        };
        write!(
            f,
            "profile `{}`: {target} at {} (key from {}{})",
            self.name,
            self.base_url,
            self.key_source,
            if self.read_only { ", read-only" } else { "" }
        )
    }
}

/// Errors finding or keeping credentials. Messages are meant for the user and never contain a
/// key.
#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    /// A configuration problem (for example a refused base URL).
    #[error(transparent)]
    Config(#[from] ConfigError),

    /// The named profile is not in the config file.
    #[error("no profile named `{name}` in the config file; {}", list_known(known))]
    UnknownProfile {
        /// The name asked for.
        name: String,
        /// The profiles that exist.
        known: Vec<String>,
    },

    /// Several profiles exist and none was chosen.
    #[error(
        "several profiles are configured ({}) and none is the default; \
         pass --profile NAME or set default_profile in the config file",
        known.join(", ")
    )]
    NoDefaultProfile {
        /// The profiles that exist.
        known: Vec<String>,
    },

    /// No profile exists and the environment does not describe one either.
    #[error(
        "no profile is configured; run `taxdash login` to create one, \
         or set {ENV_API_KEY} and {ENV_ORGANIZATION_ID}"
    )]
    NoProfiles,

    /// The profile has no organization id and the environment gives none.
    #[error(
        "profile `{profile}` has no organization_id; set it in the config file \
         or set {ENV_ORGANIZATION_ID}"
    )]
    NoOrganizationId {
        /// The profile.
        profile: String,
    },

    /// The keyring has no key for the profile and the environment gives none.
    #[error(
        "no API key is stored for profile `{profile}` in the {location}; \
         run `taxdash login --profile {profile}` or set {ENV_API_KEY}"
    )]
    NoKey {
        /// The profile.
        profile: String,
        /// The store that was searched.
        location: String,
    },

    /// No credential store works on this system.
    #[error(
        "no credential store is available on this system ({reason}), so taxdash cannot keep an \
         API key; set {ENV_API_KEY} and {ENV_ORGANIZATION_ID} (and {ENV_BASE_URL} if needed) \
         in the environment instead. taxdash never writes keys to a plain file"
    )]
    NoStore {
        /// Why each store that was tried failed.
        reason: String,
    },

    /// The store exists but an operation on it failed (locked, access refused, ...).
    #[error(
        "the {location} failed for profile `{profile}`: {reason}; \
         set {ENV_API_KEY} to bypass the keyring"
    )]
    Store {
        /// The profile.
        profile: String,
        /// The store.
        location: String,
        /// What went wrong, without any secret data.
        reason: String,
    },

    /// A key that cannot be used.
    #[error("invalid API key: {reason}")]
    InvalidKey {
        /// Which rule it breaks.
        reason: &'static str,
    },
}

fn list_known(known: &[String]) -> String {
    if known.is_empty() {
        "there are no profiles yet; create one with `taxdash login --profile NAME`".to_owned()
    } else {
        format!("known profiles: {}", known.join(", "))
    }
}

/// Chooses the profile: the one asked for, else `default_profile`, else the only profile, else
/// one called `default`. `Ok(None)` means the config has no profiles and none was asked for.
fn select_profile<'c>(
    requested: Option<&str>,
    config: &'c Config,
) -> Result<Option<&'c Profile>, CredentialError> {
    let unknown = |name: &str| CredentialError::UnknownProfile {
        name: name.to_owned(),
        known: config.profile_names(),
    };
    if let Some(name) = requested.or(config.default_profile.as_deref()) {
        return config.profile(name).map(Some).ok_or_else(|| unknown(name));
    }
    let mut profiles = config.profiles();
    match (profiles.next(), profiles.next()) {
        (None, _) => Ok(None),
        (Some(only), None) => Ok(Some(only)),
        (Some(_), Some(_)) => config
            .profile(DEFAULT_PROFILE_NAME)
            .map(Some)
            .ok_or_else(|| CredentialError::NoDefaultProfile {
                known: config.profile_names(),
            }),
    }
}

/// The `history` key of the profile a session would use (`requested`, else the default), when
/// it has one; nothing when no profile can be chosen (the session says why elsewhere).
pub fn profile_history(requested: Option<&str>, config: &Config) -> Option<String> {
    select_profile(requested, config)
        .ok()
        .flatten()
        .and_then(|p| p.history.clone())
}

/// The profile and organization a session would act as, without its key (the keyring is not
/// touched): what `--offline` picks the snapshots by. The organization is empty when neither
/// the profile nor `TAXDASH_ORGANIZATION_ID` names one (a Tenanted profile).
pub fn profile_scope(
    requested: Option<&str>,
    config: &Config,
    env: &dyn Env,
) -> Result<(String, String), CredentialError> {
    let profile = select_profile(requested, config)?;
    let name = profile.map_or(DEFAULT_PROFILE_NAME, |p| p.name.as_str());
    let organization = env
        .non_empty(ENV_ORGANIZATION_ID)
        .or_else(|| {
            profile
                .and_then(Profile::organization_id)
                .map(str::to_owned)
        })
        .unwrap_or_default();
    Ok((name.to_owned(), organization))
}

/// Works out the profile, URL, organization and key to use.
///
/// `requested` is the `--profile` argument. The environment beats the profile:
/// `TAXDASH_API_KEY` (then the store is not touched at all), `TAXDASH_ORGANIZATION_ID`,
/// `TAXDASH_BASE_URL` and `TAXDASH_API`. With no profiles configured, the environment alone can
/// describe a profile called `default`. A Tenanted profile needs no organization ID.
pub fn resolve(
    requested: Option<&str>,
    config: &Config,
    env: &dyn Env,
    store: &KeyStore,
) -> Result<ResolvedProfile, CredentialError> {
    resolve_with_api(requested, config, env, store, None)
}

/// [`resolve`] with the interface chosen on the command line (`--api`), which beats
/// `TAXDASH_API` and the profile's `api`.
pub fn resolve_with_api(
    requested: Option<&str>,
    config: &Config,
    env: &dyn Env,
    store: &KeyStore,
    api_override: Option<ApiKind>,
) -> Result<ResolvedProfile, CredentialError> {
    let profile = select_profile(requested, config)?;
    let name = profile.map_or(DEFAULT_PROFILE_NAME, |p| p.name.as_str());

    let base_url = match env.non_empty(ENV_BASE_URL) {
        Some(url) => validate_base_url(name, ENV_BASE_URL, &url)?,
        None => match profile {
            Some(profile) => profile.url()?,
            None => validate_base_url(name, "base_url", crate::config::DEFAULT_BASE_URL)?,
        },
    };

    let api = match (api_override, env.non_empty(ENV_API)) {
        (Some(api), _) => api,
        (None, Some(value)) => api_from_env(name, &value)?,
        (None, None) => profile.map(Profile::api).unwrap_or_default(),
    };

    let organization_id = match env.non_empty(ENV_ORGANIZATION_ID) {
        Some(id) => id,
        None => match profile.and_then(Profile::organization_id) {
            Some(id) => id.to_owned(),
            None if profile.is_none() && api == ApiKind::V1 => {
                return Err(CredentialError::NoProfiles);
            }
            None if api == ApiKind::Tenanted => String::new(),
            None => {
                return Err(CredentialError::NoOrganizationId {
                    profile: name.to_owned(),
                });
            }
        },
    };

    let (api_key, key_source) = match env.var(ENV_API_KEY) {
        Some(key) if !key.trim().is_empty() => (ApiKey::new(key)?, KeySource::Env),
        _ => match store.get_key(name)? {
            Some(key) => (key, KeySource::Keyring),
            None => {
                return Err(CredentialError::NoKey {
                    profile: name.to_owned(),
                    location: store.kind()?.to_string(),
                });
            }
        },
    };

    Ok(ResolvedProfile {
        name: name.to_owned(),
        base_url,
        organization_id,
        api,
        api_version: profile.and_then(Profile::api_version),
        connection_id: profile.and_then(Profile::connection_id).map(str::to_owned),
        entity_id: profile.and_then(Profile::entity_id).map(str::to_owned),
        entity_source: profile.and_then(Profile::entity_source).map(str::to_owned),
        api_key,
        read_only: profile.is_some_and(|p| p.read_only),
        key_source,
    })
}

#[cfg(test)]
mod tests;
