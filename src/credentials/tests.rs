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
    assert!(matches!(err, CredentialError::NoOrganizationId { ref profile } if profile == "prod"));
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
fn store_failures_are_reported_without_the_key() {
    use keyring_core::api::CredentialStoreApi;
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
