//! API keys: kept in the OS keyring, overridable from the environment, never written to a file.
//!
//! Each profile's key is one keyring entry with service `taxdash` and user = the profile name,
//! held by the first store that works on this system:
//!
//! | OS | store |
//! |---|---|
//! | Linux | Secret Service over D-Bus (GNOME Keyring, KWallet, KeePassXC), else the kernel keyring (keyutils) |
//! | FreeBSD, OpenBSD | Secret Service over D-Bus |
//! | macOS | the login keychain |
//! | Windows | Credential Manager |
//!
//! For CI and headless servers, `TAXDASH_API_KEY`, `TAXDASH_ORGANIZATION_ID` and
//! `TAXDASH_BASE_URL` override the keyring and the profile. Where no store works and no variable
//! is set, [`CredentialError::NoStore`] says so and names the variables; nothing falls back to a
//! plain file.
//!
//! The keyring is reached through [`KeyStore`]: [`KeyStore::platform`] for the real one,
//! [`KeyStore::mock`] (keyring-core's in-memory mock) for tests and demos. Calls into a real
//! store block (D-Bus round trips, maybe an unlock prompt): from async code, run them on
//! `tokio::task::spawn_blocking`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use keyring_core::api::CredentialStoreApi;
use keyring_core::{CredentialStore, Entry};
use url::Url;
use zeroize::{Zeroize, Zeroizing};

use crate::config::{Config, ConfigError, Profile, validate_base_url, validate_profile_name};
pub use crate::config::{Env, ProcessEnv};

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
    /// Organization to act as.
    pub organization_id: String,
    /// The key (redacted in `Debug`).
    pub api_key: ApiKey,
    /// Whether the profile refuses writes.
    pub read_only: bool,
    /// Where the key came from.
    pub key_source: KeySource,
}

impl fmt::Display for ResolvedProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "profile `{}`: organization {} at {} (key from {}{})",
            self.name,
            self.organization_id,
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

/// A kind of credential store, shown to the user as where a key is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreKind {
    /// The freedesktop Secret Service over D-Bus.
    SecretService,
    /// The Linux kernel keyring (keyutils); keys are lost on reboot.
    KernelKeyring,
    /// The macOS login keychain.
    MacosKeychain,
    /// The Windows Credential Manager.
    WindowsCredentialManager,
    /// keyring-core's in-memory mock store (tests, demos).
    Mock,
    /// Any other keyring-core store, described by its name.
    Other(String),
}

impl fmt::Display for StoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SecretService => f.write_str("OS keyring (Secret Service)"),
            Self::KernelKeyring => f.write_str("kernel keyring"),
            Self::MacosKeychain => f.write_str("OS keyring (macOS Keychain)"),
            Self::WindowsCredentialManager => {
                f.write_str("OS keyring (Windows Credential Manager)")
            }
            Self::Mock => f.write_str("in-memory mock keyring"),
            Self::Other(name) => f.write_str(name),
        }
    }
}

/// An opened keyring-core store and what kind it is.
struct Opened {
    store: Arc<CredentialStore>,
    kind: StoreKind,
}

/// Access to the store that keeps API keys, one entry per profile.
///
/// [`KeyStore::platform`] opens the OS store on first use, so a run whose key comes from the
/// environment never touches the keyring.
pub struct KeyStore {
    state: OnceLock<Result<Opened, String>>,
}

impl fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.state.get() {
            None => "not opened yet".to_owned(),
            Some(Ok(opened)) => opened.kind.to_string(),
            Some(Err(reason)) => format!("unavailable: {reason}"),
        };
        f.debug_struct("KeyStore").field("store", &state).finish()
    }
}

impl KeyStore {
    /// The OS store, opened lazily on first use (see the module docs for which one).
    pub fn platform() -> Self {
        Self {
            state: OnceLock::new(),
        }
    }

    /// A fresh keyring-core mock store: in memory, empty, private to this value.
    pub fn mock() -> Self {
        let opened = keyring_core::mock::Store::new()
            .map(|store| Opened {
                store,
                kind: StoreKind::Mock,
            })
            .map_err(|err| err.to_string());
        Self {
            state: OnceLock::from(opened),
        }
    }

    /// Any keyring-core store.
    pub fn with_store(store: Arc<CredentialStore>, kind: StoreKind) -> Self {
        Self {
            state: OnceLock::from(Ok(Opened { store, kind })),
        }
    }

    /// A store that does not work, as on a headless box with no D-Bus and no session keyring.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            state: OnceLock::from(Err(reason.into())),
        }
    }

    fn opened(&self) -> Result<&Opened, CredentialError> {
        self.state
            .get_or_init(open_platform)
            .as_ref()
            .map_err(|reason| CredentialError::NoStore {
                reason: reason.clone(),
            })
    }

    /// Which store this is, opening it if needed: `Ok("OS keyring (Secret Service)")`, or the
    /// [`CredentialError::NoStore`] error when none works.
    pub fn kind(&self) -> Result<StoreKind, CredentialError> {
        self.opened().map(|opened| opened.kind.clone())
    }

    fn entry(&self, profile: &str) -> Result<(Entry, &Opened), CredentialError> {
        let opened = self.opened()?;
        let label = format!("taxdash API key (profile {profile})");
        let modifiers = HashMap::from([("label", label.as_str())]);
        let modifiers = (opened.kind == StoreKind::SecretService).then_some(&modifiers);
        let entry = opened
            .store
            .build(SERVICE, profile, modifiers)
            .map_err(|err| store_failure(profile, &opened.kind, err))?;
        Ok((entry, opened))
    }

    /// The key stored for `profile`, or `None` when there is none.
    pub fn get_key(&self, profile: &str) -> Result<Option<ApiKey>, CredentialError> {
        let (entry, opened) = self.entry(profile)?;
        match entry.get_password() {
            Ok(password) => ApiKey::new(password).map(Some),
            Err(keyring_core::Error::NoEntry) => Ok(None),
            Err(err) => Err(store_failure(profile, &opened.kind, err)),
        }
    }

    /// Whether a key is stored for `profile`, checked without reading the key where the store
    /// allows it.
    pub fn has_key(&self, profile: &str) -> Result<bool, CredentialError> {
        let (entry, opened) = self.entry(profile)?;
        match entry.get_credential() {
            Ok(_) => Ok(true),
            Err(keyring_core::Error::NoEntry) => Ok(false),
            Err(err) => Err(store_failure(profile, &opened.kind, err)),
        }
    }

    /// Stores `key` for `profile`, replacing any key already there.
    pub fn store_key(&self, profile: &str, key: &ApiKey) -> Result<(), CredentialError> {
        validate_profile_name(profile)?;
        let (entry, opened) = self.entry(profile)?;
        entry
            .set_password(key.expose())
            .map_err(|err| store_failure(profile, &opened.kind, err))
    }

    /// Deletes the key of `profile`. Returns whether there was one.
    pub fn delete_key(&self, profile: &str) -> Result<bool, CredentialError> {
        let (entry, opened) = self.entry(profile)?;
        match entry.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring_core::Error::NoEntry) => Ok(false),
            Err(err) => Err(store_failure(profile, &opened.kind, err)),
        }
    }

    /// Where the key for `profile` would come from, in words: `environment variable
    /// TAXDASH_API_KEY`, the store's name (`OS keyring (Secret Service)`, `kernel keyring`, ...)
    /// or `none`. Never fails: problems are described in the text.
    pub fn key_location(&self, profile: &str, env: &dyn Env) -> String {
        if env.non_empty(ENV_API_KEY).is_some() {
            return KeySource::Env.to_string();
        }
        match self.has_key(profile) {
            Ok(true) => self
                .kind()
                .map_or_else(|_| "OS keyring".to_owned(), |kind| kind.to_string()),
            Ok(false) => "none".to_owned(),
            Err(CredentialError::NoStore { .. }) => {
                "none (no credential store available on this system)".to_owned()
            }
            Err(err) => format!("unknown ({err})"),
        }
    }
}

/// Opens the first OS store that works, or explains why none did.
#[allow(unused_mut)] // `failures` is only pushed to on some platforms.
fn open_platform() -> Result<Opened, String> {
    let mut failures: Vec<String> = Vec::new();

    #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
    match zbus_secret_service_keyring_store::Store::new() {
        Ok(store) => {
            return Ok(Opened {
                store,
                kind: StoreKind::SecretService,
            });
        }
        Err(err) => failures.push(format!("Secret Service over D-Bus: {err}")),
    }

    #[cfg(target_os = "linux")]
    match linux_keyutils_keyring_store::Store::new() {
        // Building an entry looks up the session keyring without creating any key, so it is
        // a harmless test of whether the kernel keyring can be used here.
        Ok(store) => match store.build(SERVICE, "availability-check", None) {
            Ok(_) => {
                return Ok(Opened {
                    store,
                    kind: StoreKind::KernelKeyring,
                });
            }
            Err(err) => failures.push(format!("kernel keyring: {err}")),
        },
        Err(err) => failures.push(format!("kernel keyring: {err}")),
    }

    #[cfg(target_os = "macos")]
    match apple_native_keyring_store::keychain::Store::new() {
        Ok(store) => {
            return Ok(Opened {
                store,
                kind: StoreKind::MacosKeychain,
            });
        }
        Err(err) => failures.push(format!("macOS Keychain: {err}")),
    }

    #[cfg(target_os = "windows")]
    match windows_native_keyring_store::Store::new() {
        Ok(store) => {
            return Ok(Opened {
                store,
                kind: StoreKind::WindowsCredentialManager,
            });
        }
        Err(err) => failures.push(format!("Windows Credential Manager: {err}")),
    }

    if failures.is_empty() {
        failures.push("taxdash supports no credential store on this operating system".to_owned());
    }
    Err(failures.join("; "))
}

/// Turns a keyring-core error into a message without secret data (some variants carry the
/// stored bytes, which are zeroed here).
fn store_failure(profile: &str, kind: &StoreKind, err: keyring_core::Error) -> CredentialError {
    use keyring_core::Error as E;
    let reason = match err {
        E::NoStorageAccess(err) => format!("access was refused or the keyring is locked ({err})"),
        E::PlatformFailure(err) => err.to_string(),
        E::NoEntry => "the entry does not exist".to_owned(),
        E::BadEncoding(mut bytes) => {
            bytes.zeroize();
            "the stored key is not valid UTF-8; store it again with `taxdash login`".to_owned()
        }
        E::BadDataFormat(mut bytes, _) => {
            bytes.zeroize();
            "the stored key is malformed; store it again with `taxdash login`".to_owned()
        }
        E::BadStoreFormat(why) => format!("the store is malformed: {why}"),
        E::TooLong(what, limit) => format!("{what} is longer than the store's limit of {limit}"),
        E::Invalid(what, why) => format!("{what} is invalid: {why}"),
        E::Ambiguous(entries) => format!(
            "{} entries match service `{SERVICE}` and user `{profile}`; \
             remove the extra ones with your keyring manager",
            entries.len()
        ),
        E::NoDefaultStore => "no store was set up".to_owned(),
        E::NotSupportedByStore(what) => format!("not supported by this store: {what}"),
        other => other.to_string(),
    };
    CredentialError::Store {
        profile: profile.to_owned(),
        location: kind.to_string(),
        reason,
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

/// Works out the profile, URL, organization and key to use.
///
/// `requested` is the `--profile` argument. The environment beats the profile:
/// `TAXDASH_API_KEY` (then the store is not touched at all), `TAXDASH_ORGANIZATION_ID` and
/// `TAXDASH_BASE_URL`. With no profiles configured, the environment alone can describe a
/// profile called `default`.
pub fn resolve(
    requested: Option<&str>,
    config: &Config,
    env: &dyn Env,
    store: &KeyStore,
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

    let organization_id = match env.non_empty(ENV_ORGANIZATION_ID) {
        Some(id) => id,
        None => match profile.and_then(Profile::organization_id) {
            Some(id) => id.to_owned(),
            None if profile.is_none() => return Err(CredentialError::NoProfiles),
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
        api_key,
        read_only: profile.is_some_and(|p| p.read_only),
        key_source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A distinctive key: no message, Debug or Display output may contain it.
    const KEY: &str = "sk_live_Zq8xUNIQUEsecretKEY42";

    fn env_from(pairs: &'static [(&'static str, &'static str)]) -> impl Env {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn no_env() -> impl Env {
        env_from(&[])
    }

    fn config_with(profiles: &[(&str, Option<&str>)]) -> Config {
        let mut config = Config::default();
        for (name, org) in profiles {
            let mut profile = Profile::new(*name);
            profile.organization_id = org.map(str::to_owned);
            config.insert_profile(profile).unwrap();
        }
        config
    }

    #[test]
    fn api_key_debug_and_display_are_redacted() {
        let key = ApiKey::new(KEY).unwrap();
        assert_eq!(format!("{key:?}"), "ApiKey(****)");
        assert_eq!(key.to_string(), "ApiKey(****)");
        assert_eq!(key.expose(), KEY);
    }

    #[test]
    fn api_key_is_trimmed_and_checked() {
        assert_eq!(ApiKey::new(format!("  {KEY}\n")).unwrap().expose(), KEY);
        for bad in ["", "   \n", "two words", "tab\there", "naïve"] {
            let err = ApiKey::new(bad).unwrap_err();
            assert!(matches!(err, CredentialError::InvalidKey { .. }), "{bad:?}");
        }
        let err = ApiKey::new(format!("{KEY} extra")).unwrap_err();
        assert!(!err.to_string().contains(KEY));
    }

    #[test]
    fn resolved_profile_never_shows_the_key() {
        let store = KeyStore::mock();
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        let config = config_with(&[("prod", Some("org_1"))]);
        let resolved = resolve(None, &config, &no_env(), &store).unwrap();
        let debug = format!("{resolved:?}");
        let display = resolved.to_string();
        assert!(!debug.contains(KEY), "{debug}");
        assert!(!display.contains(KEY), "{display}");
        assert!(debug.contains("ApiKey(****)"), "{debug}");
        assert!(display.contains("profile `prod`"), "{display}");
        assert_eq!(resolved.api_key.expose(), KEY);
    }

    #[test]
    fn keyring_key_and_profile_settings_resolve() {
        let store = KeyStore::mock();
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        let mut config = config_with(&[("prod", Some("org_1"))]);
        config.profile_mut("prod").unwrap().read_only = true;
        let resolved = resolve(Some("prod"), &config, &no_env(), &store).unwrap();
        assert_eq!(resolved.name, "prod");
        assert_eq!(resolved.organization_id, "org_1");
        assert_eq!(resolved.base_url.as_str(), "https://api.trykintsugi.com/");
        assert_eq!(resolved.key_source, KeySource::Keyring);
        assert!(resolved.read_only);
    }

    #[test]
    fn environment_beats_keyring_and_profile() {
        let store = KeyStore::mock();
        store
            .store_key("prod", &ApiKey::new("from-the-keyring").unwrap())
            .unwrap();
        let config = config_with(&[("prod", Some("org_profile"))]);
        let env = env_from(&[
            (ENV_API_KEY, KEY),
            (ENV_ORGANIZATION_ID, "org_env"),
            (ENV_BASE_URL, "http://127.0.0.1:9999"),
        ]);
        let resolved = resolve(Some("prod"), &config, &env, &store).unwrap();
        assert_eq!(resolved.api_key.expose(), KEY);
        assert_eq!(resolved.key_source, KeySource::Env);
        assert_eq!(resolved.organization_id, "org_env");
        assert_eq!(resolved.base_url.as_str(), "http://127.0.0.1:9999/");
    }

    #[test]
    fn empty_environment_variables_count_as_unset() {
        let store = KeyStore::mock();
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        let config = config_with(&[("prod", Some("org_profile"))]);
        let env = env_from(&[(ENV_API_KEY, ""), (ENV_ORGANIZATION_ID, "  ")]);
        let resolved = resolve(None, &config, &env, &store).unwrap();
        assert_eq!(resolved.key_source, KeySource::Keyring);
        assert_eq!(resolved.organization_id, "org_profile");
    }

    #[test]
    fn environment_alone_works_without_config_or_store() {
        let env = env_from(&[(ENV_API_KEY, KEY), (ENV_ORGANIZATION_ID, "org_ci")]);
        let store = KeyStore::unavailable("no D-Bus, no session keyring");
        let resolved = resolve(None, &Config::default(), &env, &store).unwrap();
        assert_eq!(resolved.name, DEFAULT_PROFILE_NAME);
        assert_eq!(resolved.base_url.as_str(), "https://api.trykintsugi.com/");
        assert_eq!(resolved.key_source, KeySource::Env);
    }

    #[test]
    fn plain_http_base_url_from_environment_is_refused() {
        let config = config_with(&[("prod", Some("org_1"))]);
        let env = env_from(&[(ENV_API_KEY, KEY), (ENV_BASE_URL, "http://api.example.com")]);
        let err = resolve(None, &config, &env, &KeyStore::mock())
            .unwrap_err()
            .to_string();
        assert!(err.contains("profile `prod`"), "{err}");
        assert!(err.contains(ENV_BASE_URL), "{err}");
        assert!(err.contains("loopback"), "{err}");
    }

    #[test]
    fn store_get_and_delete_through_the_mock() {
        let store = KeyStore::mock();
        assert!(store.get_key("prod").unwrap().is_none());
        assert!(!store.has_key("prod").unwrap());
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        store
            .store_key("stage", &ApiKey::new("stage-key").unwrap())
            .unwrap();
        assert_eq!(store.get_key("prod").unwrap().unwrap().expose(), KEY);
        assert!(store.has_key("prod").unwrap());
        store
            .store_key("prod", &ApiKey::new("rotated").unwrap())
            .unwrap();
        assert_eq!(store.get_key("prod").unwrap().unwrap().expose(), "rotated");
        assert!(store.delete_key("prod").unwrap());
        assert!(store.get_key("prod").unwrap().is_none());
        assert!(!store.has_key("prod").unwrap());
        assert!(!store.delete_key("prod").unwrap(), "nothing left to delete");
        assert_eq!(
            store.get_key("stage").unwrap().unwrap().expose(),
            "stage-key"
        );
    }

    #[test]
    fn storing_under_an_invalid_profile_name_is_refused() {
        let err = KeyStore::mock()
            .store_key("bad name", &ApiKey::new(KEY).unwrap())
            .unwrap_err();
        assert!(matches!(
            err,
            CredentialError::Config(ConfigError::InvalidProfileName { .. })
        ));
    }

    #[test]
    fn no_store_message_names_the_environment_variables() {
        let store = KeyStore::unavailable("Secret Service: no D-Bus; kernel keyring: denied");
        let config = config_with(&[("prod", Some("org_1"))]);
        let err = resolve(None, &config, &no_env(), &store).unwrap_err();
        assert!(matches!(err, CredentialError::NoStore { .. }));
        let message = err.to_string();
        assert!(message.contains(ENV_API_KEY), "{message}");
        assert!(message.contains(ENV_ORGANIZATION_ID), "{message}");
        assert!(message.contains("no D-Bus"), "{message}");
        assert!(
            message.contains("never writes keys to a plain file"),
            "{message}"
        );

        let err = store
            .store_key("prod", &ApiKey::new(KEY).unwrap())
            .unwrap_err();
        assert!(err.to_string().contains(ENV_API_KEY));
    }

    #[test]
    fn unknown_profile_lists_known_ones() {
        let config = config_with(&[("prod", Some("o")), ("stage", Some("o"))]);
        let err = resolve(Some("qa"), &config, &no_env(), &KeyStore::mock()).unwrap_err();
        assert!(matches!(err, CredentialError::UnknownProfile { .. }));
        let message = err.to_string();
        assert!(message.contains("`qa`"), "{message}");
        assert!(message.contains("prod, stage"), "{message}");
    }

    #[test]
    fn missing_key_suggests_login() {
        let config = config_with(&[("prod", Some("org_1"))]);
        let err = resolve(None, &config, &no_env(), &KeyStore::mock()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("taxdash login --profile prod"),
            "{message}"
        );
        assert!(message.contains(ENV_API_KEY), "{message}");
    }

    #[test]
    fn missing_organization_id_is_reported() {
        let config = config_with(&[("prod", None)]);
        let env = env_from(&[(ENV_API_KEY, KEY)]);
        let err = resolve(None, &config, &env, &KeyStore::mock()).unwrap_err();
        assert!(
            matches!(err, CredentialError::NoOrganizationId { ref profile } if profile == "prod")
        );
        assert!(err.to_string().contains(ENV_ORGANIZATION_ID));
    }

    #[test]
    fn nothing_configured_says_how_to_start() {
        let err = resolve(None, &Config::default(), &no_env(), &KeyStore::mock()).unwrap_err();
        assert!(matches!(err, CredentialError::NoProfiles), "{err}");
    }

    #[test]
    fn profile_choice_without_a_flag() {
        let store = KeyStore::mock();
        for name in ["a", "b", DEFAULT_PROFILE_NAME] {
            store.store_key(name, &ApiKey::new(KEY).unwrap()).unwrap();
        }
        // The only profile.
        let config = config_with(&[("a", Some("o"))]);
        assert_eq!(resolve(None, &config, &no_env(), &store).unwrap().name, "a");
        // Several and no default.
        let mut config = config_with(&[("a", Some("o")), ("b", Some("o"))]);
        let err = resolve(None, &config, &no_env(), &store).unwrap_err();
        assert!(
            matches!(err, CredentialError::NoDefaultProfile { .. }),
            "{err}"
        );
        // default_profile decides.
        config.default_profile = Some("b".into());
        assert_eq!(resolve(None, &config, &no_env(), &store).unwrap().name, "b");
        // A profile called `default` is the fallback.
        let config = config_with(&[("a", Some("o")), (DEFAULT_PROFILE_NAME, Some("o"))]);
        assert_eq!(
            resolve(None, &config, &no_env(), &store).unwrap().name,
            DEFAULT_PROFILE_NAME
        );
        // default_profile naming a missing profile.
        let mut config = config_with(&[("a", Some("o"))]);
        config.default_profile = Some("gone".into());
        let err = resolve(None, &config, &no_env(), &store).unwrap_err();
        assert!(err.to_string().contains("known profiles: a"), "{err}");
    }

    #[test]
    fn key_location_describes_the_source() {
        let store = KeyStore::mock();
        assert_eq!(store.key_location("prod", &no_env()), "none");
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        assert_eq!(
            store.key_location("prod", &no_env()),
            "in-memory mock keyring"
        );
        let env = env_from(&[(ENV_API_KEY, KEY)]);
        assert_eq!(
            store.key_location("prod", &env),
            "environment variable TAXDASH_API_KEY"
        );
        let none = KeyStore::unavailable("nothing here");
        assert!(none.key_location("prod", &no_env()).starts_with("none"));
        let kernel = KeyStore::with_store(
            keyring_core::mock::Store::new().unwrap(),
            StoreKind::KernelKeyring,
        );
        kernel
            .store_key("prod", &ApiKey::new(KEY).unwrap())
            .unwrap();
        assert_eq!(kernel.key_location("prod", &no_env()), "kernel keyring");
        let secret_service = StoreKind::SecretService.to_string();
        assert_eq!(secret_service, "OS keyring (Secret Service)");
    }

    #[test]
    fn store_failures_are_reported_without_the_key() {
        use keyring_core::mock::Cred;

        let mock = keyring_core::mock::Store::new().unwrap();
        let store = KeyStore::with_store(mock.clone(), StoreKind::Mock);
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        let entry = mock.build(SERVICE, "prod", None).unwrap();
        let cred: &Cred = entry.as_any().downcast_ref().unwrap();

        cred.set_error(keyring_core::Error::BadEncoding(KEY.as_bytes().to_vec()));
        let err = store.get_key("prod").unwrap_err();
        assert!(!err.to_string().contains(KEY), "{err}");
        assert!(!format!("{err:?}").contains(KEY), "{err:?}");

        cred.set_error(keyring_core::Error::NoStorageAccess(
            "collection is locked".into(),
        ));
        let config = config_with(&[("prod", Some("org_1"))]);
        let err = resolve(None, &config, &no_env(), &store).unwrap_err();
        let message = err.to_string();
        assert!(matches!(err, CredentialError::Store { .. }), "{message}");
        assert!(message.contains("locked"), "{message}");
        assert!(message.contains(ENV_API_KEY), "{message}");

        // The error was one-shot: the key is still there.
        assert_eq!(store.get_key("prod").unwrap().unwrap().expose(), KEY);
    }
}
