//! `login`, `logout` and `profiles` with the mock key store, a temporary config file and a given
//! key, against the sandbox.

use std::io;
use std::path::Path;

use taxdash::cli::LoginArgs;
use taxdash::commands::Context;
use taxdash::commands::login::{LoginError, login, logout, profiles};
use taxdash::config::{Config, Profile};
use taxdash::credentials::{ApiKey, ENV_API_KEY, KeyStore};

use crate::common::{ORG1, ORG2, sandbox};

fn context(config: &Path, profile: Option<&str>) -> Context {
    let no_env = |_: &str| None;
    Context::new(profile.map(str::to_owned), config, no_env, KeyStore::mock())
}

fn args(base_url: &str, organization: &str) -> LoginArgs {
    LoginArgs {
        base_url: Some(base_url.to_owned()),
        organization: Some(organization.to_owned()),
    }
}

/// A prompt that answers `key` as a pasted line would be.
fn given(key: &'static str) -> impl FnMut(&str) -> io::Result<String> {
    move |_profile: &str| Ok(format!("{key}\n"))
}

#[tokio::test]
async fn login_checks_the_key_then_stores_it_and_the_profile() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let ctx = context(&path, Some("local"));
    let mut out = Vec::new();
    login(
        &ctx,
        &args(&sandbox.base_url(), ORG1.0),
        &mut given(ORG1.1),
        &mut out,
    )
    .await
    .expect("the sandbox accepts the demo key");

    assert_eq!(
        ctx.store.get_key("local").unwrap().unwrap().expose(),
        ORG1.1
    );
    let config = Config::load(&path).unwrap();
    let profile = config.profile("local").expect("the profile is saved");
    assert_eq!(profile.base_url, sandbox.base_url());
    assert_eq!(profile.organization_id(), Some(ORG1.0));
    assert_eq!(config.default_profile.as_deref(), Some("local"));
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("in-memory mock keyring"), "{text}");
    assert!(text.contains("profile `local`"), "{text}");
    assert!(!text.contains(ORG1.1), "{text}");
    assert!(!std::fs::read_to_string(&path).unwrap().contains(ORG1.1));

    // Logging in again with the profile's own settings replaces the key and keeps the rest.
    let mut config = Config::load(&path).unwrap();
    config.profile_mut("local").unwrap().read_only = true;
    config.save(&path).unwrap();
    let again = LoginArgs {
        base_url: None,
        organization: None,
    };
    login(&ctx, &again, &mut given(ORG1.1), &mut Vec::new())
        .await
        .unwrap();
    assert!(
        Config::load(&path)
            .unwrap()
            .profile("local")
            .unwrap()
            .read_only
    );
    sandbox.stop().await;
}

async fn refused(key: &'static str, base_url: &str, organization: &str) -> (String, Context) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let ctx = context(&path, None);
    let err = login(
        &ctx,
        &args(base_url, organization),
        &mut given(key),
        &mut Vec::new(),
    )
    .await
    .expect_err("refused");
    assert!(matches!(err, LoginError::Refused { .. }), "{err:?}");
    let message = err.to_string();
    assert!(!message.contains(key), "{message}");
    assert!(!format!("{err:?}").contains(key), "{err:?}");
    assert!(message.ends_with("nothing was stored"), "{message}");
    assert!(ctx.store.get_key("default").unwrap().is_none());
    assert!(!path.exists(), "no config file was written");
    (message, ctx)
}

#[tokio::test]
async fn a_refused_key_stores_nothing_and_is_never_shown() {
    let sandbox = sandbox().await;
    let (message, _) = refused("sk_wrong_Q7fhUNIQUE", &sandbox.base_url(), ORG1.0).await;
    assert!(message.contains("refused the API key"), "{message}");
    let (message, _) = refused(ORG1.1, &sandbox.base_url(), ORG2.0).await;
    assert!(
        message.contains("not for organization orgn_demo_2"),
        "{message}"
    );
    sandbox.stop().await;
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let (message, _) = refused(ORG1.1, &format!("http://{closed}"), ORG1.0).await;
    assert_eq!(
        message,
        format!("could not connect to {closed}: connection refused; nothing was stored")
    );
}

#[tokio::test]
async fn login_needs_an_organization() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir.path().join("config.toml"), None);
    let none = LoginArgs {
        base_url: Some("http://127.0.0.1:9".into()),
        organization: None,
    };
    let mut asked = false;
    let mut prompt = |_: &str| {
        asked = true;
        Ok(String::from("k"))
    };
    let err = login(&ctx, &none, &mut prompt, &mut Vec::new())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("--organization"), "{err}");
    assert!(
        !asked,
        "no key is asked for before the settings are complete"
    );
}

#[tokio::test]
async fn logout_deletes_the_key_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir.path().join("config.toml"), Some("prod"));
    ctx.store
        .store_key("prod", &ApiKey::new("k-123").unwrap())
        .unwrap();
    let mut out = Vec::new();
    logout(&ctx, &mut out).await.unwrap();
    assert!(ctx.store.get_key("prod").unwrap().is_none());
    logout(&ctx, &mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "Deleted the API key of profile `prod` from the in-memory mock keyring.",
            "No API key was stored for profile `prod` in the in-memory mock keyring; nothing to delete.",
        ]
    );
}

#[tokio::test]
async fn profiles_lists_settings_and_key_locations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let ctx = context(&path, None);
    let mut out = Vec::new();
    profiles(&ctx, &mut out).await.unwrap();
    assert!(
        String::from_utf8(out)
            .unwrap()
            .starts_with("No profiles in ")
    );

    let mut config = Config::default();
    let mut local = Profile::new("local");
    local.base_url = "http://127.0.0.1:8080".into();
    local.organization_id = Some(ORG1.0.into());
    let mut prod = Profile::new("prod");
    prod.organization_id = Some("orgn_live_9".into());
    prod.read_only = true;
    config.insert_profile(local).unwrap();
    config.insert_profile(prod).unwrap();
    config.default_profile = Some("prod".into());
    config.save(&path).unwrap();
    ctx.store
        .store_key("prod", &ApiKey::new("k-123").unwrap())
        .unwrap();

    let mut out = Vec::new();
    profiles(&ctx, &mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "   NAME   BASE URL                     ORGANIZATION  READ-ONLY  KEY",
            "   local  http://127.0.0.1:8080        orgn_demo_1   no         none",
            "*  prod   https://api.trykintsugi.com  orgn_live_9   yes        in-memory mock keyring",
        ],
        "{text}"
    );
    assert!(text.contains(&path.display().to_string()), "{text}");

    // The environment's key beats the keyring, and the listing says so.
    let env = |name: &str| (name == ENV_API_KEY).then(|| "from-env".to_owned());
    let ctx = Context::new(None, &path, env, KeyStore::mock());
    let mut out = Vec::new();
    profiles(&ctx, &mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("environment variable TAXDASH_API_KEY"),
        "{text}"
    );
    assert!(!text.contains("from-env"), "{text}");
}
