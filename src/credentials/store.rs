//! The stores that keep API keys: the OS keyring found at run time, or one given (the mock).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use keyring_core::api::CredentialStoreApi;
use keyring_core::{CredentialStore, Entry};
use zeroize::{Zeroize, Zeroizing};

use super::{ApiKey, CredentialError, ENV_API_KEY, Env, KeySource, SERVICE};
use crate::config::validate_profile_name;

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
        let label = format!("taxdash API key (profile {profile})");
        self.entry_in(SERVICE, profile, &label)
    }

    /// The entry of `user` in `service`; `label` is what a Secret Service keyring shows for it.
    fn entry_in(
        &self,
        service: &str,
        user: &str,
        label: &str,
    ) -> Result<(Entry, &Opened), CredentialError> {
        let opened = self.opened()?;
        let modifiers = HashMap::from([("label", label)]);
        let modifiers = (opened.kind == StoreKind::SecretService).then_some(&modifiers);
        let entry = opened
            .store
            .build(service, user, modifiers)
            .map_err(|err| store_failure_in(service, user, &opened.kind, err))?;
        Ok((entry, opened))
    }

    /// The secret kept in the entry of `user` in `service` (another service than the API keys',
    /// such as a database password), or `None` when there is none.
    pub fn get_secret(
        &self,
        service: &str,
        user: &str,
    ) -> Result<Option<Zeroizing<String>>, CredentialError> {
        let (entry, opened) = self.entry_in(service, user, service)?;
        match entry.get_password() {
            Ok(secret) => Ok(Some(Zeroizing::new(secret))),
            Err(keyring_core::Error::NoEntry) => Ok(None),
            Err(err) => Err(store_failure_in(service, user, &opened.kind, err)),
        }
    }

    /// Keeps `secret` in the entry of `user` in `service`, replacing any secret already there.
    /// `label` is what a Secret Service keyring shows for the entry.
    pub fn store_secret(
        &self,
        service: &str,
        user: &str,
        secret: &str,
        label: &str,
    ) -> Result<(), CredentialError> {
        let (entry, opened) = self.entry_in(service, user, label)?;
        entry
            .set_password(secret)
            .map_err(|err| store_failure_in(service, user, &opened.kind, err))
    }

    /// Deletes the entry of `user` in `service`. Returns whether there was one.
    pub fn delete_secret(&self, service: &str, user: &str) -> Result<bool, CredentialError> {
        let (entry, opened) = self.entry_in(service, user, service)?;
        match entry.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring_core::Error::NoEntry) => Ok(false),
            Err(err) => Err(store_failure_in(service, user, &opened.kind, err)),
        }
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
    store_failure_in(SERVICE, profile, kind, err)
}

/// [`store_failure`] for the entry of `user` in any `service`.
fn store_failure_in(
    service: &str,
    profile: &str,
    kind: &StoreKind,
    err: keyring_core::Error,
) -> CredentialError {
    use keyring_core::Error as E;
    let again = if service == SERVICE {
        "store it again with `taxdash login`"
    } else {
        "store it again"
    };
    let reason = match err {
        E::NoStorageAccess(err) => format!("access was refused or the keyring is locked ({err})"),
        E::PlatformFailure(err) => err.to_string(),
        E::NoEntry => "the entry does not exist".to_owned(),
        E::BadEncoding(mut bytes) => {
            bytes.zeroize();
            format!("the stored secret is not valid UTF-8; {again}")
        }
        E::BadDataFormat(mut bytes, _) => {
            bytes.zeroize();
            format!("the stored secret is malformed; {again}")
        }
        E::BadStoreFormat(why) => format!("the store is malformed: {why}"),
        E::TooLong(what, limit) => format!("{what} is longer than the store's limit of {limit}"),
        E::Invalid(what, why) => format!("{what} is invalid: {why}"),
        E::Ambiguous(entries) => format!(
            "{} entries match service `{service}` and user `{profile}`; \
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigError;

    /// A distinctive key: no message, Debug or Display output may contain it.
    const KEY: &str = "sk_live_Zq8xUNIQUEsecretKEY42";

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn key_in_env(name: &str) -> Option<String> {
        (name == ENV_API_KEY).then(|| KEY.to_owned())
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
    fn secrets_of_another_service_are_kept_apart_from_api_keys() {
        let store = KeyStore::mock();
        let (service, user) = ("taxdash-history", "alice@db.example:5432/tax");
        assert!(store.get_secret(service, user).unwrap().is_none());
        store
            .store_secret(service, user, KEY, "a database password")
            .unwrap();
        assert_eq!(
            store.get_secret(service, user).unwrap().unwrap().as_str(),
            KEY
        );
        assert!(store.get_key(user).unwrap().is_none(), "not an API key");
        store
            .store_secret(service, user, "rotated", "label")
            .unwrap();
        assert_eq!(
            store.get_secret(service, user).unwrap().unwrap().as_str(),
            "rotated"
        );
        assert!(store.delete_secret(service, user).unwrap());
        assert!(!store.delete_secret(service, user).unwrap());
        assert!(store.get_secret(service, user).unwrap().is_none());
        assert!(matches!(
            KeyStore::unavailable("none here").get_secret(service, user),
            Err(CredentialError::NoStore { .. })
        ));
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
    fn key_location_describes_the_source() {
        let store = KeyStore::mock();
        assert_eq!(store.key_location("prod", &no_env), "none");
        store.store_key("prod", &ApiKey::new(KEY).unwrap()).unwrap();
        assert_eq!(
            store.key_location("prod", &no_env),
            "in-memory mock keyring"
        );
        assert_eq!(
            store.key_location("prod", &key_in_env),
            "environment variable TAXDASH_API_KEY"
        );
        let none = KeyStore::unavailable("nothing here");
        assert!(none.key_location("prod", &no_env).starts_with("none"));
        let kernel = KeyStore::with_store(
            keyring_core::mock::Store::new().unwrap(),
            StoreKind::KernelKeyring,
        );
        kernel
            .store_key("prod", &ApiKey::new(KEY).unwrap())
            .unwrap();
        assert_eq!(kernel.key_location("prod", &no_env), "kernel keyring");
        let secret_service = StoreKind::SecretService.to_string();
        assert_eq!(secret_service, "OS keyring (Secret Service)");
    }
}
