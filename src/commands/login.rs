//! `taxdash login`, `logout` and `profiles`: keeping API keys in the OS keyring and profiles in
//! the config file.
//!
//! `login` checks the key with one cheap authenticated call before anything is stored (v1: the
//! first registration, one row; Tenanted API: the organizations the key reaches), so a mistyped
//! key or organization leaves the keyring and the config file as they were. The key is never
//! printed, logged or put in an error message.

use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::Duration;

use super::{CommandFailure, Context};
use crate::api::{
    ApiError, Client, ClientBuildError, ClientConfig, Generation, RegistrationFilter, RetryPolicy,
    Selector,
};
use crate::cli::LoginArgs;
use crate::config::{
    ApiKind, Config, ConfigError, DEFAULT_BASE_URL, ENV_API, Profile, api_from_env,
    validate_base_url, validate_profile_name,
};
use crate::credentials::{ApiKey, CredentialError, DEFAULT_PROFILE_NAME, ENV_API_KEY};
use crate::model::PageParams;
use crate::model::tenanted::{ApiVersion, Organization};

/// Where `login` gets the key from. Tests give one directly; any
/// `FnMut(&str) -> io::Result<String>` (given the profile name) is a prompt.
pub trait KeyPrompt {
    /// Reads the key for `profile`. Surrounding whitespace is trimmed afterwards.
    fn read_key(&mut self, profile: &str) -> io::Result<String>;
}

impl<F> KeyPrompt for F
where
    F: FnMut(&str) -> io::Result<String>,
{
    fn read_key(&mut self, profile: &str) -> io::Result<String> {
        self(profile)
    }
}

/// The real prompt: without echo on the terminal when stdin is one; otherwise the first line of
/// stdin (for scripts and CI, where the key comes from a secret store through a pipe).
#[derive(Debug, Clone, Copy, Default)]
pub struct StdinPrompt;

impl KeyPrompt for StdinPrompt {
    fn read_key(&mut self, profile: &str) -> io::Result<String> {
        if io::stdin().is_terminal() {
            rpassword::prompt_password(format!("API key for profile `{profile}` (not shown): "))
        } else {
            let mut line = String::new();
            io::stdin().lock().read_line(&mut line)?;
            Ok(line)
        }
    }
}

/// Why `login`, `logout` or `profiles` failed. Never contains the key.
#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Credentials(#[from] CredentialError),
    /// No organization was given and the profile has none.
    #[error(
        "profile `{profile}` has no organization yet; pass --organization ID \
         (the organization the key was issued for)"
    )]
    NoOrganization { profile: String },
    /// The key could not be read.
    #[error("could not read the API key: {0}")]
    ReadKey(io::Error),
    #[error("{0}; nothing was stored")]
    Client(#[from] ClientBuildError),
    /// Tenanted API: the key works but does not reach the organization asked for.
    #[error(
        "the API key is valid but does not reach organization {organization} (it reaches: \
         {reachable}); check --organization; nothing was stored"
    )]
    OrganizationNotReached {
        organization: String,
        reachable: String,
    },
    /// The check call failed: nothing was stored.
    #[error("{}; nothing was stored", explain(reason, base_url, organization))]
    Refused {
        base_url: String,
        organization: String,
        reason: ApiError,
    },
    /// The key was stored but the profile could not be saved.
    #[error(
        "the API key was stored in the keyring for profile `{profile}`, \
         but the profile could not be saved: {source}"
    )]
    ProfileNotSaved {
        profile: String,
        source: ConfigError,
    },
    /// The report could not be written.
    #[error("could not write the output: {0}")]
    Output(#[from] io::Error),
}

impl From<LoginError> for CommandFailure {
    fn from(e: LoginError) -> Self {
        CommandFailure::new(e)
    }
}

/// What the check call's failure means for the user.
fn explain(reason: &ApiError, base_url: &str, organization: &str) -> String {
    match reason {
        ApiError::Unauthorized { detail, .. } => {
            format!("the service at {base_url} refused the API key ({detail})")
        }
        ApiError::Forbidden { detail, .. } => format!(
            "the API key is valid but not for organization {organization} ({detail}); \
             check --organization"
        ),
        ApiError::Network { detail } => detail.clone(),
        ApiError::Timeout { after, .. } => format!(
            "the service at {base_url} did not answer within {} s",
            after.as_secs_f64()
        ),
        e if e.is_unauthorized() => {
            format!("the service at {base_url} refused the API key ({e})")
        }
        other => format!("the service at {base_url} failed the check call: {other}"),
    }
}

/// The profile a command acts on: `--profile`, else the config's default, else its only
/// profile, else `default`.
fn chosen_profile(ctx: &Context, config: &Config) -> String {
    if let Some(name) = ctx
        .profile
        .clone()
        .or_else(|| config.default_profile.clone())
    {
        return name;
    }
    let mut names = config.profile_names();
    if names.len() == 1 {
        names.remove(0)
    } else {
        DEFAULT_PROFILE_NAME.to_owned()
    }
}

/// Reads a key through `prompt`, checks it against the service, and only if the service accepts
/// it, stores it in the key store and saves the profile (creating it, or updating its base URL
/// and organization). The first profile saved becomes the default.
pub async fn login(
    ctx: &Context,
    args: &LoginArgs,
    prompt: &mut dyn KeyPrompt,
    out: &mut dyn Write,
) -> Result<(), LoginError> {
    let mut config = ctx.load_config_to_update()?;
    let name = ctx
        .profile
        .clone()
        .or_else(|| config.default_profile.clone())
        .unwrap_or_else(|| DEFAULT_PROFILE_NAME.to_owned());
    validate_profile_name(&name)?;
    let existing = config.profile(&name).cloned();

    let base_url = non_blank(args.base_url.as_deref())
        .or_else(|| existing.as_ref().map(|p| p.base_url.clone()))
        .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
    let url = validate_base_url(&name, "--base-url", &base_url)?;
    let api = match ctx.env.non_empty(ENV_API) {
        Some(value) => api_from_env(&name, &value)?,
        None => existing.as_ref().map(Profile::api).unwrap_or_default(),
    };
    let organization = non_blank(args.organization.as_deref()).or_else(|| {
        existing
            .as_ref()
            .and_then(Profile::organization_id)
            .map(str::to_owned)
    });
    let organization = match (organization, api) {
        (Some(id), _) => Some(id),
        (None, ApiKind::Tenanted) => None,
        (None, ApiKind::V1) => {
            return Err(LoginError::NoOrganization {
                profile: name.clone(),
            });
        }
    };

    let key = ApiKey::new(prompt.read_key(&name).map_err(LoginError::ReadKey)?)?;

    let mut client_config = ClientConfig::new(
        url.clone(),
        organization.clone().unwrap_or_default(),
        key.clone(),
    );
    client_config.retry = RetryPolicy {
        max_attempts: 2,
        ..RetryPolicy::default()
    };
    client_config.request_timeout = Duration::from_secs(20);
    let mut client_config = client_config.with_env(&*ctx.env)?;
    let release = existing
        .as_ref()
        .and_then(Profile::api_version)
        .unwrap_or(ApiVersion::LATEST);
    if api == ApiKind::Tenanted {
        client_config.generation = Generation::Tenanted(release);
        client_config.selector = Selector::Home;
    }
    let client = Client::new(client_config)?;
    let refused = |reason| LoginError::Refused {
        base_url: url.to_string(),
        organization: organization
            .clone()
            .unwrap_or_else(|| "(the key's own)".to_owned()),
        reason,
    };
    let reached = match api {
        ApiKind::V1 => {
            client
                .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
                .await
                .map_err(refused)?;
            Vec::new()
        }
        ApiKind::Tenanted => {
            let page = client
                .list_organizations(PageParams::new(1, PageParams::MAX_SIZE))
                .await
                .map_err(refused)?;
            let complete = page.total <= page.items.len() as u64;
            if let Some(id) = &organization
                && complete
                && !page.items.iter().any(|o| &o.id == id)
            {
                return Err(LoginError::OrganizationNotReached {
                    organization: id.clone(),
                    reachable: describe_organizations(&page.items),
                });
            }
            page.items
        }
    };

    let profile_name = name.clone();
    let location = ctx
        .with_store(move |store| {
            store.store_key(&profile_name, &key)?;
            store.kind()
        })
        .await?;

    let mut profile = existing.unwrap_or_else(|| Profile::new(name.clone()));
    profile.base_url = base_url;
    if organization.is_some() {
        profile.organization_id.clone_from(&organization);
    }
    config.insert_profile(profile)?;
    let became_default = config.default_profile.is_none();
    if became_default {
        config.default_profile = Some(name.clone());
    }
    ctx.save_config(&config)
        .map_err(|source| LoginError::ProfileNotSaved {
            profile: name.clone(),
            source,
        })?;

    match (api, &organization) {
        (ApiKind::V1, organization) => writeln!(
            out,
            "Logged in: the service at {url} accepted the key for organization {}.",
            organization.as_deref().unwrap_or_default()
        )?,
        (ApiKind::Tenanted, organization) => {
            writeln!(
                out,
                "Logged in: the service at {url} accepted the key (Tenanted API {release}); it \
                 reaches {}.",
                describe_organizations(&reached)
            )?;
            match organization {
                Some(id) => writeln!(out, "Calls act on organization {id}.")?,
                None => writeln!(
                    out,
                    "Calls act on the key's home organization unless the profile sets \
                     organization_id, connection_id or entity_id."
                )?,
            }
        }
    }
    writeln!(
        out,
        "The key is kept in the {location} for profile `{name}`."
    )?;
    if let Some(path) = &ctx.config_path {
        let default = if became_default {
            " (the default profile)"
        } else {
            ""
        };
        writeln!(
            out,
            "Profile `{name}`{default} saved in {}.",
            path.display()
        )?;
    }
    if ctx.env.non_empty(ENV_API_KEY).is_some() {
        writeln!(
            out,
            "Note: {ENV_API_KEY} is set in this environment and overrides the stored key."
        )?;
    }
    Ok(())
}

/// Deletes the chosen profile's key from the key store and says whether there was one.
pub async fn logout(ctx: &Context, out: &mut dyn Write) -> Result<(), LoginError> {
    let config = ctx.load_config()?;
    let name = chosen_profile(ctx, &config);
    let profile = name.clone();
    let (deleted, location) = ctx
        .with_store(move |store| Ok((store.delete_key(&profile)?, store.kind()?)))
        .await?;
    if deleted {
        writeln!(
            out,
            "Deleted the API key of profile `{name}` from the {location}."
        )?;
    } else {
        writeln!(
            out,
            "No API key was stored for profile `{name}` in the {location}; nothing to delete."
        )?;
    }
    if ctx.env.non_empty(ENV_API_KEY).is_some() {
        writeln!(out, "Note: {ENV_API_KEY} is still set in this environment.")?;
    }
    Ok(())
}

/// Lists the profiles: name (`*` marks the default), base URL, organization, read-only, and
/// where the key is kept.
pub async fn profiles(ctx: &Context, out: &mut dyn Write) -> Result<(), LoginError> {
    let config = ctx.load_config()?;
    let path = ctx.config_path.as_ref().map_or_else(
        || "(no config file)".to_owned(),
        |p| p.display().to_string(),
    );
    let names = config.profile_names();
    if names.is_empty() {
        writeln!(out, "No profiles in {path}.")?;
        writeln!(
            out,
            "Create one with `taxdash login --organization ID` (add --profile NAME to name it)."
        )?;
        return Ok(());
    }
    let env = ctx.env.clone();
    let lookup = names.clone();
    let locations = ctx
        .with_store(move |store| {
            Ok(lookup
                .iter()
                .map(|name| store.key_location(name, &*env))
                .collect::<Vec<_>>())
        })
        .await?;

    // The API column shows only when a profile speaks the Tenanted API.
    let any_tenanted = config.profiles().any(|p| p.api() == ApiKind::Tenanted);
    let mut header = vec![String::new(), "NAME".to_owned(), "BASE URL".to_owned()];
    if any_tenanted {
        header.push("API".to_owned());
    }
    header.extend(["ORGANIZATION", "READ-ONLY", "KEY"].map(str::to_owned));
    let mut rows = vec![header];
    for (profile, location) in config.profiles().zip(locations) {
        let default = config.default_profile.as_deref() == Some(profile.name.as_str());
        let mut row = vec![
            if default { "*" } else { "" }.to_owned(),
            profile.name.clone(),
            profile.base_url.clone(),
        ];
        if any_tenanted {
            row.push(api_label(profile));
        }
        row.extend([
            target_label(profile),
            if profile.read_only { "yes" } else { "no" }.to_owned(),
            location,
        ]);
        rows.push(row);
    }
    let mut widths = vec![0; rows[0].len()];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in &rows {
        let mut line = String::new();
        for (i, (cell, width)) in row.iter().zip(widths.iter().copied()).enumerate() {
            if i + 1 == row.len() {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{cell:<width$}  ");
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    writeln!(out, "* marks the default profile. Config file: {path}")?;
    Ok(())
}

/// `orgn_1 (Acme), orgn_2 (Northwind)`, or `no organization`.
fn describe_organizations(organizations: &[Organization]) -> String {
    if organizations.is_empty() {
        return "no organization".to_owned();
    }
    organizations
        .iter()
        .map(|o| format!("{} ({})", o.id, o.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a profile's API column says: `v1`, `tenanted 2026-10-06`.
fn api_label(profile: &Profile) -> String {
    match profile.api() {
        ApiKind::V1 => "v1".to_owned(),
        ApiKind::Tenanted => format!(
            "tenanted {}",
            profile.api_version().unwrap_or(ApiVersion::LATEST)
        ),
    }
}

/// What a profile's ORGANIZATION column says: the organization, else (Tenanted) the selector
/// that stands for it, else `-`.
fn target_label(profile: &Profile) -> String {
    if let Some(id) = profile.organization_id() {
        return id.to_owned();
    }
    if profile.api() == ApiKind::V1 {
        return "-".to_owned();
    }
    match (
        profile.connection_id(),
        profile.entity_id(),
        profile.entity_source(),
    ) {
        (Some(connection), _, _) => format!("connection {connection}"),
        (None, Some(entity), Some(source)) => format!("entity {entity} ({source})"),
        (None, Some(entity), None) => format!("entity {entity}"),
        (None, None, _) => "(key's home)".to_owned(),
    }
}

fn non_blank(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}
