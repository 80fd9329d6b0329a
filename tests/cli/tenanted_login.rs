//! `login` and `profiles` on a profile that speaks the Tenanted API: the key is checked with the
//! organizations it reaches, the organization is optional, and the listing shows the API; and
//! the real binary's `export` on the Tenanted API chosen with `TAXDASH_API`.

use std::io;
use std::path::Path;

use taxdash::cli::LoginArgs;
use taxdash::commands::Context;
use taxdash::commands::login::{LoginError, login, profiles};
use taxdash::config::{Config, ENV_API, Profile};
use taxdash::credentials::KeyStore;
use taxdash::sandbox::DEMO_PARTNER_KEY;

use crate::common::{ORG1, ORG2, sandbox};

/// A config file holding one Tenanted profile `partner` at `base_url`.
fn tenanted_profile(path: &Path, base_url: &str, extra: impl FnOnce(&mut Profile)) {
    let mut config = Config::default();
    let mut profile = Profile::new("partner");
    base_url.clone_into(&mut profile.base_url);
    profile.api = Some("tenanted".into());
    extra(&mut profile);
    config.insert_profile(profile).unwrap();
    config.save(path).unwrap();
}

fn given(key: &'static str) -> impl FnMut(&str) -> io::Result<String> {
    move |_profile: &str| Ok(format!("{key}\n"))
}

fn no_organization() -> LoginArgs {
    LoginArgs {
        base_url: None,
        organization: None,
    }
}

#[tokio::test]
async fn a_tenanted_login_needs_no_organization_and_names_those_the_key_reaches() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    tenanted_profile(&path, &sandbox.base_url(), |_| {});
    let ctx = Context::new(
        Some("partner".into()),
        &path,
        |_: &str| None,
        KeyStore::mock(),
    );
    let mut out = Vec::new();
    login(
        &ctx,
        &no_organization(),
        &mut given(DEMO_PARTNER_KEY),
        &mut out,
    )
    .await
    .expect("the sandbox accepts the partner key");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Tenanted API 2026-10-06"), "{text}");
    assert!(
        text.contains("orgn_demo_1 (Acme Outdoor Supply), orgn_demo_2 (Northwind Digital)"),
        "{text}"
    );
    assert!(text.contains("home organization"), "{text}");
    assert!(!text.contains(DEMO_PARTNER_KEY), "{text}");
    let config = Config::load(&path).unwrap();
    let profile = config.profile("partner").unwrap();
    assert_eq!(profile.organization_id(), None);
    assert_eq!(profile.api.as_deref(), Some("tenanted"));
    assert_eq!(
        ctx.store.get_key("partner").unwrap().unwrap().expose(),
        DEMO_PARTNER_KEY
    );

    // An organization the key reaches is kept; one it does not is refused, nothing stored.
    let second = LoginArgs {
        base_url: None,
        organization: Some(ORG2.0.into()),
    };
    login(&ctx, &second, &mut given(DEMO_PARTNER_KEY), &mut Vec::new())
        .await
        .unwrap();
    let config = Config::load(&path).unwrap();
    assert_eq!(
        config.profile("partner").unwrap().organization_id(),
        Some(ORG2.0)
    );
    let err = login(&ctx, &second, &mut given(ORG1.1), &mut Vec::new())
        .await
        .unwrap_err();
    assert!(
        matches!(err, LoginError::OrganizationNotReached { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("orgn_demo_2"), "{err}");
    assert!(err.to_string().contains("orgn_demo_1 (Acme"), "{err}");
    assert_eq!(
        ctx.store.get_key("partner").unwrap().unwrap().expose(),
        DEMO_PARTNER_KEY,
        "the refused key was not stored"
    );

    // An unknown key: refused with the service's words, never the key.
    let err = login(
        &ctx,
        &no_organization(),
        &mut given("sk_nobody_SECRET"),
        &mut Vec::new(),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("refused the API key"), "{err}");
    assert!(err.to_string().contains("nothing was stored"), "{err}");
    assert!(!err.to_string().contains("SECRET"), "{err}");
    sandbox.stop().await;
}

#[tokio::test]
async fn taxdash_api_turns_a_v1_profile_tenanted_for_login() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let env = |name: &str| (name == ENV_API).then(|| "tenanted".to_owned());
    let ctx = Context::new(Some("p".into()), &path, env, KeyStore::mock());
    let args = LoginArgs {
        base_url: Some(sandbox.base_url()),
        organization: None,
    };
    let mut out = Vec::new();
    login(&ctx, &args, &mut given(DEMO_PARTNER_KEY), &mut out)
        .await
        .unwrap();
    assert!(String::from_utf8(out).unwrap().contains("Tenanted API"));
    // The same without the variable needs an organization, as v1 does.
    let ctx = Context::new(Some("q".into()), &path, |_: &str| None, KeyStore::mock());
    let err = login(&ctx, &args, &mut given(DEMO_PARTNER_KEY), &mut Vec::new())
        .await
        .unwrap_err();
    assert!(matches!(err, LoginError::NoOrganization { .. }), "{err:?}");
    sandbox.stop().await;
}

#[tokio::test]
async fn profiles_show_the_api_and_the_selector() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    tenanted_profile(&path, "http://127.0.0.1:8080", |p| {
        p.api_version = Some("2026-07-21".into());
        p.entity_id = Some("ent_store_100".into());
        p.entity_source = Some("CHECKOUT".into());
    });
    let mut config = Config::load(&path).unwrap();
    let mut legacy = Profile::new("legacy");
    legacy.organization_id = Some(ORG1.0.into());
    config.insert_profile(legacy).unwrap();
    config.save(&path).unwrap();
    let ctx = Context::new(None, &path, |_: &str| None, KeyStore::mock());
    let mut out = Vec::new();
    profiles(&ctx, &mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "  NAME     BASE URL                     API                  ORGANIZATION                     READ-ONLY  KEY",
            "  legacy   https://api.trykintsugi.com  v1                   orgn_demo_1                      no         none",
            "  partner  http://127.0.0.1:8080        tenanted 2026-07-21  entity ent_store_100 (CHECKOUT)  no         none",
        ],
        "{text}"
    );
}

/// `taxdash export registrations --format jsonl` with `key`, the sandbox and `api` in the
/// environment, and no organization unless given.
async fn export(
    sandbox: &taxdash::sandbox::Sandbox,
    key: &str,
    api: Option<&str>,
    organization: Option<&str>,
) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_taxdash"));
    command
        .args(["export", "registrations", "--format", "jsonl"])
        .current_dir(dir.path())
        .env("TAXDASH_CONFIG", crate::binary::empty_config())
        .env("TAXDASH_BASE_URL", sandbox.base_url())
        .env("TAXDASH_API_KEY", key)
        .env_remove("TAXDASH_ORGANIZATION_ID")
        .env_remove("TAXDASH_API")
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true);
    if let Some(api) = api {
        command.env(ENV_API, api);
    }
    if let Some(organization) = organization {
        command.env("TAXDASH_ORGANIZATION_ID", organization);
    }
    command.output().await.expect("taxdash runs")
}

/// The records of a JSON Lines export.
fn records(jsonl: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(jsonl)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON record a line"))
        .collect()
}

#[tokio::test]
async fn export_runs_on_the_tenanted_api_chosen_by_the_environment() {
    let sandbox = sandbox().await;
    let v1 = export(&sandbox, ORG2.1, None, Some(ORG2.0)).await;
    assert!(
        v1.status.success(),
        "{}",
        String::from_utf8_lossy(&v1.stderr)
    );
    // The partner key reaches both organizations; the organization selects the second.
    let tenanted = export(&sandbox, DEMO_PARTNER_KEY, Some("tenanted"), Some(ORG2.0)).await;
    assert!(
        tenanted.status.success(),
        "{}",
        String::from_utf8_lossy(&tenanted.stderr)
    );
    assert!(!v1.stdout.is_empty());
    // The same records, field for field; a Tenanted record's keys are spelled as v1's.
    assert_eq!(records(&tenanted.stdout), records(&v1.stdout));
    // Without one, reads run on the key's home organization.
    let home = export(&sandbox, ORG2.1, Some("tenanted"), None).await;
    assert!(
        home.status.success(),
        "{}",
        String::from_utf8_lossy(&home.stderr)
    );
    assert_eq!(records(&home.stdout), records(&v1.stdout));

    let bad = export(&sandbox, ORG1.1, Some("v2"), Some(ORG1.0)).await;
    assert!(!bad.status.success());
    let text = String::from_utf8_lossy(&bad.stderr);
    assert!(
        text.contains("TAXDASH_API") && text.contains("`v1` or `tenanted`"),
        "{text}"
    );
    sandbox.stop().await;
}
