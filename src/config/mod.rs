//! The configuration file: connection profiles, the theme choice and key-binding overrides.
//!
//! One TOML file, by default `config.toml` in the platform config directory (for example
//! `~/.config/taxdash/config.toml` on Linux). `--config PATH` or `TAXDASH_CONFIG` point elsewhere;
//! see [`Config::default_path`].
//!
//! ```toml
//! default_profile = "prod"
//! theme = "dark"
//!
//! [keys]
//! quit = "ctrl-q"
//!
//! [profiles.prod]
//! organization_id = "org_123"
//! read_only = true
//! accent = "magenta"
//!
//! [profiles.local]
//! base_url = "http://127.0.0.1:8080"
//! organization_id = "org_demo"
//!
//! [profiles.partner]
//! api = "tenanted"            # v1 (default) or tenanted; TAXDASH_API overrides it
//! api_version = "2026-10-06"  # optional: the release; default the latest
//! connection_id = "conn_1"    # optional selectors; organization_id is optional here
//! ```
//!
//! The file never holds an API key: keys live in the OS keyring (see [`crate::credentials`]).
//! Saving is atomic: the new contents go to a temporary file in the same directory, which then
//! replaces the old file in one rename.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use url::{Host, Url};

mod api;

pub use api::{ApiKind, ENV_API, api_from_env};

use crate::model::tenanted::ApiVersion;

/// The live service, used by a profile that names no `base_url`.
pub const DEFAULT_BASE_URL: &str = "https://api.trykintsugi.com";

/// Environment variable naming the config file (beaten by `--config`).
pub const ENV_CONFIG: &str = "TAXDASH_CONFIG";

/// File name of the config file inside the platform config directory.
pub const CONFIG_FILE_NAME: &str = "config.toml";

/// The file `--demo` keeps its saved views and columns in, in the platform data directory.
pub const DEMO_CONFIG_FILE_NAME: &str = "demo-config.toml";

/// Longest profile name accepted.
const MAX_PROFILE_NAME_LEN: usize = 64;

/// A source of environment variables.
///
/// Everything that reads the environment takes one of these, so tests pass a closure instead of
/// changing the process environment. Any `Fn(&str) -> Option<String>` is an `Env`.
pub trait Env {
    /// The value of `name`, or `None` when it is unset.
    fn var(&self, name: &str) -> Option<String>;

    /// The value of `name` with surrounding whitespace trimmed, or `None` when it is unset,
    /// empty or only whitespace (CI systems often define unset secrets as empty strings).
    fn non_empty(&self, name: &str) -> Option<String> {
        let value = self.var(name)?;
        let trimmed = value.trim();
        if trimmed.is_empty() {
            None
        } else if trimmed.len() == value.len() {
            Some(value)
        } else {
            Some(trimmed.to_owned())
        }
    }
}

impl<F> Env for F
where
    F: Fn(&str) -> Option<String>,
{
    fn var(&self, name: &str) -> Option<String> {
        self(name)
    }
}

/// The real process environment. Values that are not valid Unicode count as unset.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

/// Errors reading, writing or validating the configuration. Messages are meant for the user.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The platform config directory could not be determined (no home directory).
    #[error(
        "could not find the platform config directory (is HOME set?); \
         pass --config PATH or set {ENV_CONFIG}"
    )]
    NoConfigDir,

    /// The config file named by `--config` or `TAXDASH_CONFIG` does not exist.
    #[error(
        "the config file {} (named by --config or {ENV_CONFIG}) does not exist; check the \
         path, or create it with `taxdash login --config {}`", path.display(), path.display()
    )]
    Missing {
        /// The file.
        path: PathBuf,
    },

    /// The config file exists but could not be read.
    #[error("could not read the config file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },

    /// The config file is not valid TOML or does not have the expected shape.
    #[error("{} is not valid: {source}", describe_source(path.as_deref()))]
    Parse {
        /// The file, when the text came from one.
        path: Option<PathBuf>,
        /// The parser's account, with line and column.
        source: Box<toml::de::Error>,
    },

    /// The config could not be turned into TOML.
    #[error("could not encode the configuration as TOML: {0}")]
    Encode(#[from] toml::ser::Error),

    /// The config file could not be written.
    #[error("could not write the config file {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },

    /// A profile name that cannot be used.
    #[error(
        "invalid profile name `{name}`: {reason} \
         (use 1 to {MAX_PROFILE_NAME_LEN} letters, digits, `-`, `_` or `.`)"
    )]
    InvalidProfileName {
        /// The name as given (control characters escaped).
        name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },

    /// A base URL that cannot be used.
    #[error("profile `{profile}`: {setting} `{url}` {problem}")]
    InvalidBaseUrl {
        /// The profile the URL belongs to.
        profile: String,
        /// Where the URL came from: `base_url` in the config file or an environment variable.
        setting: String,
        /// The URL, with any password blanked out.
        url: String,
        /// Which rule it breaks.
        problem: UrlProblem,
    },

    /// A profile setting (or the environment variable standing in for it) with a value that
    /// cannot be used.
    #[error("profile `{profile}`: {field} = \"{value}\" {rule}")]
    InvalidSetting {
        /// The profile.
        profile: String,
        /// The setting's name in the config file, or the environment variable's.
        field: &'static str,
        /// The value (control characters escaped).
        value: String,
        /// Which rule it breaks.
        rule: String,
    },
}

/// Why a base URL was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlProblem {
    /// Not a URL at all.
    Malformed(String),
    /// Neither `https://` nor `http://`.
    UnsupportedScheme(String),
    /// No host name or address.
    NoHost,
    /// `http://` to a host that is not a loopback address.
    PlainHttpNotLoopback,
    /// A user name or password inside the URL.
    HasCredentials,
    /// A `?query` or `#fragment`, which a base URL cannot carry.
    HasQueryOrFragment,
}

impl fmt::Display for UrlProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(why) => write!(f, "is not a valid URL: {why}"),
            Self::UnsupportedScheme(scheme) => {
                write!(f, "uses the scheme `{scheme}`; only https:// is supported")
            }
            Self::NoHost => f.write_str("has no host"),
            Self::PlainHttpNotLoopback => f.write_str(
                "uses plain http://, which is only allowed for a loopback host \
                 (127.0.0.0/8, [::1] or localhost); use https:// for any other host",
            ),
            Self::HasCredentials => f.write_str(
                "contains a user name or password; the API key belongs in the OS keyring \
                 (`taxdash login`) or in TAXDASH_API_KEY",
            ),
            Self::HasQueryOrFragment => f.write_str("must not contain a `?query` or `#fragment`"),
        }
    }
}

/// One connection profile: which service to talk to, as which organization, and how.
///
/// The API key is not here: it lives in the OS keyring under the profile's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The profile's name: the key of its `[profiles.NAME]` table and the keyring user name.
    #[serde(skip)]
    pub name: String,
    /// Root URL of the service. `https://` is required unless the host is a loopback address.
    #[serde(
        default = "default_base_url",
        skip_serializing_if = "is_default_base_url"
    )]
    pub base_url: String,
    /// The organization to act as (v1: the `x-organization-id` header, required; Tenanted: the
    /// `Organization-Id` selector, optional, absent meaning the key's home organization).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_id: Option<String>,
    /// The interface: `v1` (default) or `tenanted`. See [`Profile::api`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// Tenanted API: the release (`YYYY-MM-DD`) sent as `Api-Version`; default the latest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Tenanted API: act on the organization owning this connection (`Connection-Id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection_id: Option<String>,
    /// Tenanted API: act on the organization of this platform entity (`Entity-Id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity_id: Option<String>,
    /// Tenanted API: the platform of `entity_id` (`Entity-Source`), for IDs found on several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity_source: Option<String>,
    /// Refuse every write action while this profile is in use.
    #[serde(default, skip_serializing_if = "is_false")]
    pub read_only: bool,
    /// Theme for this profile, overriding the top-level `theme`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// Accent colour name for this profile (for example to make production stand out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accent: Option<String>,
    /// The history this profile keeps its audit log and snapshots in: a file, or a team's
    /// `PostgreSQL` server (`postgres://USER@HOST:PORT/DB`, never with its password). Under
    /// `--history` and `TAXDASH_HISTORY`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<String>,
}

impl Profile {
    /// A profile with the given name, the live service's URL and nothing else set.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            base_url: default_base_url(),
            organization_id: None,
            api: None,
            api_version: None,
            connection_id: None,
            entity_id: None,
            entity_source: None,
            read_only: false,
            theme: None,
            accent: None,
            history: None,
        }
    }

    /// The profile's base URL, parsed and checked against the rules of [`validate_base_url`].
    pub fn url(&self) -> Result<Url, ConfigError> {
        validate_base_url(&self.name, "base_url", &self.base_url)
    }

    /// The organization id, if one is set and not blank.
    pub fn organization_id(&self) -> Option<&str> {
        self.organization_id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())
    }

    /// The interface the profile speaks; v1 when `api` is absent (or, unchecked, not valid).
    pub fn api(&self) -> ApiKind {
        api::set(&self.api)
            .and_then(ApiKind::parse)
            .unwrap_or_default()
    }

    /// The Tenanted release the profile asks for, if it names a valid one.
    pub fn api_version(&self) -> Option<ApiVersion> {
        api::set(&self.api_version).and_then(ApiVersion::parse)
    }

    /// The `connection_id` selector, if set and not blank.
    pub fn connection_id(&self) -> Option<&str> {
        api::set(&self.connection_id)
    }

    /// The `entity_id` selector, if set and not blank.
    pub fn entity_id(&self) -> Option<&str> {
        api::set(&self.entity_id)
    }

    /// The `entity_source` of `entity_id`, if set and not blank.
    pub fn entity_source(&self) -> Option<&str> {
        api::set(&self.entity_source)
    }

    /// Checks the base URL and the interface settings (`api`, `api_version`, selectors).
    pub fn validate(&self) -> Result<(), ConfigError> {
        validate_base_url(&self.name, "base_url", &self.base_url)?;
        api::validate(self)
    }
}

/// The whole configuration file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The person at the keyboard, as the audit log and the snapshots record them (default: the
    /// OS user and host, `dana@laptop`); `TAXDASH_WHO` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<String>,
    /// Profile used when none is named on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_profile: Option<String>,
    /// Theme name (a built-in theme or a `*.toml` file in the themes directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// Key-binding overrides: action name -> key (for example `quit = "ctrl-q"`). The dashboard
    /// merges these over its defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keys: BTreeMap<String, String>,
    /// Minutes between the Overview's own refreshes (default 10; 0: only on `r`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overview_refresh_minutes: Option<u32>,
    /// Whether the dashboard takes the mouse (default true); `false` leaves it to the
    /// terminal's own selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mouse: Option<bool>,
    /// Saved views of the dashboard's lists, by pane (`transactions`) and name: `:view save
    /// NAME` writes them, `:view NAME` shows the list so again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, BTreeMap<String, SavedView>>,
    /// The columns each list shows, by pane (`transactions = ["date", "customer", "total"]`):
    /// a column's name is its title in lower case, words joined by `_`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub columns: BTreeMap<String, Vec<String>>,
    /// The thresholds of the checks (`[checks]`).
    #[serde(default, skip_serializing_if = "ChecksConfig::is_empty")]
    pub checks: ChecksConfig,
    /// Profiles by name. Private so that every profile's `name` matches its key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    profiles: BTreeMap<String, Profile>,
}

/// `[checks]`: when a filing's figures "do not add up": a difference over
/// `filing_tolerance_percent` % of the expected figure (default 5) and over
/// `filing_tolerance_amount` units of its currency (default 1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecksConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filing_tolerance_percent: Option<rust_decimal::Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filing_tolerance_amount: Option<rust_decimal::Decimal>,
}

impl ChecksConfig {
    fn is_empty(&self) -> bool {
        self == &ChecksConfig::default()
    }

    /// The filings check's tolerance: the configured figures over the defaults.
    pub fn filing_tolerance(&self) -> crate::model::Tolerance {
        let default = crate::model::Tolerance::default();
        crate::model::Tolerance {
            percent: self.filing_tolerance_percent.unwrap_or(default.percent),
            amount: self.filing_tolerance_amount.unwrap_or(default.amount),
        }
    }
}

/// A list's filter and sort, kept under `[views.<pane>.<name>]`:
///
/// ```toml
/// [views.transactions.georgia]
/// sort = "-date"
/// filter = { state_code = "GA", status = "COMMITTED" }
/// ```
///
/// The filter holds the values of the list's filter form, by field name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedView {
    /// The column sorted by (`date`, or `-date` descending); absent: the service's own order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filter: BTreeMap<String, ViewValue>,
}

/// One value of a saved view's filter: a text or choice, a checkbox, or several choices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ViewValue {
    Bool(bool),
    Text(String),
    List(Vec<String>),
}

impl SavedView {
    /// The view as a TOML table, for the file.
    fn to_table(&self) -> toml_edit::Table {
        let mut table = toml_edit::Table::new();
        if let Some(sort) = &self.sort {
            table.insert("sort", toml_edit::value(sort.as_str()));
        }
        let mut filter = toml_edit::InlineTable::new();
        for (name, value) in &self.filter {
            let value: toml_edit::Value = match value {
                ViewValue::Bool(b) => (*b).into(),
                ViewValue::Text(t) => t.as_str().into(),
                ViewValue::List(items) => items
                    .iter()
                    .map(String::as_str)
                    .collect::<toml_edit::Array>()
                    .into(),
            };
            filter.insert(name, value);
        }
        if !filter.is_empty() {
            table.insert("filter", toml_edit::value(filter));
        }
        table
    }
}

/// Writes `view` as `[views.<pane>.<name>]` into the config file at `path`, replacing a view of
/// that name and leaving everything else in the file as it was, comments included. The file is
/// created when there is none, and written atomically (see [`Config::save`]).
pub fn save_view(path: &Path, pane: &str, name: &str, view: &SavedView) -> Result<(), ConfigError> {
    edit_file(path, |doc| {
        let pane_views = table_at(path, doc, &["views", pane])?;
        pane_views.insert(name, toml_edit::Item::Table(view.to_table()));
        Ok(())
    })
}

/// Writes `columns` as `<pane> = [...]` in the config file's `[columns]`, the rest of the file
/// as it was (see [`save_view`]).
pub fn save_columns(path: &Path, pane: &str, columns: &[String]) -> Result<(), ConfigError> {
    edit_file(path, |doc| {
        let table = table_at(path, doc, &["columns"])?;
        let names: toml_edit::Array = columns.iter().map(String::as_str).collect();
        table.insert(pane, toml_edit::value(names));
        Ok(())
    })
}

/// Reads the config file at `path` (none: empty), lets `edit` change it, checks the result as
/// the dashboard reads it and writes it atomically. A file the dashboard would refuse, before or
/// after, is never written.
fn edit_file(
    path: &Path,
    edit: impl FnOnce(&mut toml_edit::DocumentMut) -> Result<(), ConfigError>,
) -> Result<(), ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    Config::parse(&text, Some(path))?;
    let mut doc: toml_edit::DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| ConfigError::Write {
                path: path.to_path_buf(),
                source: io::Error::new(io::ErrorKind::InvalidData, e.to_string()),
            })?;
    edit(&mut doc)?;
    let text = doc.to_string();
    Config::parse(&text, Some(path))?;
    write_atomically(path, &text)
}

/// The table at `keys` in `doc`, made (implicit) where missing; an error naming it when a key
/// there holds something else.
fn table_at<'d>(
    path: &Path,
    doc: &'d mut toml_edit::DocumentMut,
    keys: &[&str],
) -> Result<&'d mut toml_edit::Table, ConfigError> {
    let mut table = doc.as_table_mut();
    for (depth, key) in keys.iter().enumerate() {
        let item = table.entry(key).or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        });
        let Some(inner) = item.as_table_mut() else {
            return Err(ConfigError::Write {
                path: path.to_path_buf(),
                source: io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("`{}` is not a table", keys[..=depth].join(".")),
                ),
            });
        };
        table = inner;
    }
    Ok(table)
}

/// Writes `text` to `path` atomically (see [`Config::save`]).
fn write_atomically(path: &Path, text: &str) -> Result<(), ConfigError> {
    let write_err = |source| ConfigError::Write {
        path: path.to_path_buf(),
        source: crate::os::files::without_temporary_path(source),
    };
    let is_link = path
        .symlink_metadata()
        .is_ok_and(|meta| meta.file_type().is_symlink());
    let resolved;
    let path = if is_link {
        resolved = std::fs::canonicalize(path).map_err(write_err)?;
        resolved.as_path()
    } else {
        path
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(write_err)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".config.toml.")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(write_err)?;
    tmp.write_all(text.as_bytes()).map_err(write_err)?;
    tmp.as_file().sync_all().map_err(write_err)?;
    tmp.persist(path).map_err(|err| write_err(err.error))?;
    Ok(())
}

impl Config {
    /// How often the Overview refreshes by itself, when the file says (zero: never).
    pub fn overview_refresh(&self) -> Option<std::time::Duration> {
        self.overview_refresh_minutes
            .map(|m| std::time::Duration::from_secs(u64::from(m) * 60))
    }

    /// Where the config file is: `override_path` (from `--config`) if given, else
    /// `TAXDASH_CONFIG` if set, else `config.toml` in the platform config directory.
    pub fn default_path(
        override_path: Option<&Path>,
        env: &dyn Env,
    ) -> Result<PathBuf, ConfigError> {
        if let Some(path) = override_path {
            return Ok(path.to_path_buf());
        }
        if let Some(path) = env.non_empty(ENV_CONFIG) {
            return Ok(PathBuf::from(path));
        }
        directories::ProjectDirs::from("", "", "taxdash")
            .map(|dirs| dirs.config_dir().join(CONFIG_FILE_NAME))
            .ok_or(ConfigError::NoConfigDir)
    }

    /// Where `--demo` keeps the views and columns chosen on the demo data: `demo-config.toml` in
    /// the platform data directory, apart from the config file, which the demo never touches.
    pub fn demo_path() -> Result<PathBuf, ConfigError> {
        directories::ProjectDirs::from("", "", "taxdash")
            .map(|dirs| dirs.data_local_dir().join(DEMO_CONFIG_FILE_NAME))
            .ok_or(ConfigError::NoConfigDir)
    }

    /// Reads the config file at `path`. A missing file is an empty configuration (first run);
    /// any other problem, including a profile with an invalid name or base URL, is an error.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        Self::parse(&text, Some(path))
    }

    /// Reads the config file at `path` as [`Config::load`] does, except that a missing file is
    /// an error when `named` (the user named it with `--config` or `TAXDASH_CONFIG`): a typo
    /// must not run the command on no profile at all.
    pub fn load_named(path: &Path, named: bool) -> Result<Self, ConfigError> {
        if named && !path.exists() {
            return Err(ConfigError::Missing {
                path: path.to_path_buf(),
            });
        }
        Self::load(path)
    }

    /// Parses and validates configuration text.
    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        Self::parse(text, None)
    }

    fn parse(text: &str, path: Option<&Path>) -> Result<Self, ConfigError> {
        let mut config: Self = toml::from_str(text).map_err(|source| ConfigError::Parse {
            path: path.map(Path::to_path_buf),
            source: Box::new(source),
        })?;
        for (name, profile) in &mut config.profiles {
            profile.name.clone_from(name);
        }
        config.validate()?;
        Ok(config)
    }

    /// The configuration as TOML text, after validating it.
    pub fn to_toml(&self) -> Result<String, ConfigError> {
        self.validate()?;
        Ok(toml::to_string_pretty(self)?)
    }

    /// Writes the config file atomically: a temporary file in the same directory is written,
    /// flushed to disk, then renamed over `path`. Creates the directory if needed. If `path` is
    /// a symbolic link (a dotfiles checkout), the file it points to is replaced and the link
    /// kept. On Unix the file is readable by its owner only.
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        write_atomically(path, &self.to_toml()?)
    }

    /// Checks every profile's name and base URL.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, profile) in &self.profiles {
            validate_profile_name(name)?;
            validate_base_url(name, "base_url", &profile.base_url)?;
            api::validate(profile)?;
        }
        Ok(())
    }

    /// The profile called `name`, if any.
    pub fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.get(name)
    }

    /// The profile called `name`, mutably, if any.
    pub fn profile_mut(&mut self, name: &str) -> Option<&mut Profile> {
        self.profiles.get_mut(name)
    }

    /// All profiles, sorted by name.
    pub fn profiles(&self) -> impl Iterator<Item = &Profile> {
        self.profiles.values()
    }

    /// All profile names, sorted.
    pub fn profile_names(&self) -> Vec<String> {
        self.profiles.keys().cloned().collect()
    }

    /// Adds `profile`, replacing any profile of the same name, after checking its name and base
    /// URL. Returns the profile it replaced.
    pub fn insert_profile(&mut self, profile: Profile) -> Result<Option<Profile>, ConfigError> {
        validate_profile_name(&profile.name)?;
        profile.validate()?;
        Ok(self.profiles.insert(profile.name.clone(), profile))
    }

    /// Removes the profile called `name`, clearing `default_profile` if it pointed there.
    pub fn remove_profile(&mut self, name: &str) -> Option<Profile> {
        let removed = self.profiles.remove(name);
        if removed.is_some() && self.default_profile.as_deref() == Some(name) {
            self.default_profile = None;
        }
        removed
    }
}

/// Checks that `name` can be used as a profile name: 1 to 64 ASCII letters, digits, `-`, `_`
/// or `.`, so it is a bare TOML key and a safe keyring user name.
pub fn validate_profile_name(name: &str) -> Result<(), ConfigError> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.chars().count() > MAX_PROFILE_NAME_LEN {
        Some("it is too long")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        Some("it contains a character that is not allowed")
    } else {
        None
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(ConfigError::InvalidProfileName {
            name: name.escape_default().to_string(),
            reason,
        }),
    }
}

/// Parses a base URL and applies the transport rules: `https://` for any host; plain `http://`
/// only for a loopback host (127.0.0.0/8, `[::1]`, `localhost`); no credentials, query or
/// fragment in the URL. `profile` and `setting` (for example `base_url` or an environment
/// variable's name) only shape the error message.
pub fn validate_base_url(profile: &str, setting: &str, raw: &str) -> Result<Url, ConfigError> {
    let fail = |problem| ConfigError::InvalidBaseUrl {
        profile: profile.to_owned(),
        setting: setting.to_owned(),
        url: redact_url(raw),
        problem,
    };
    let url = Url::parse(raw.trim()).map_err(|err| fail(UrlProblem::Malformed(err.to_string())))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(fail(UrlProblem::HasCredentials));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(fail(UrlProblem::HasQueryOrFragment));
    }
    let host = url.host().ok_or_else(|| fail(UrlProblem::NoHost))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&host) => Ok(url),
        "http" => Err(fail(UrlProblem::PlainHttpNotLoopback)),
        other => Err(fail(UrlProblem::UnsupportedScheme(other.to_owned()))),
    }
}

/// Whether a URL host is a loopback address or the name `localhost`.
fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        Host::Ipv4(addr) => Ipv4Addr::is_loopback(addr),
        Host::Ipv6(addr) => Ipv6Addr::is_loopback(addr),
    }
}

/// The URL for an error message, with any password replaced so it is never echoed back.
fn redact_url(raw: &str) -> String {
    match Url::parse(raw.trim()) {
        Ok(mut url) if url.password().is_some() => {
            // Setting a password only fails for URLs that cannot have one, which this has.
            let _ = url.set_password(Some("****"));
            url.to_string()
        }
        Ok(_) => raw.trim().to_owned(),
        // Unparseable: drop anything that looks like `user:secret@` before the host.
        Err(_) => match raw.trim().rsplit_once('@') {
            Some((_, rest)) => format!("****@{rest}"),
            None => raw.trim().to_owned(),
        },
    }
}

/// "the config file PATH" or, for text that came from no file, "the configuration".
fn describe_source(path: Option<&Path>) -> String {
    match path {
        Some(path) => format!("the config file {}", path.display()),
        None => "the configuration".to_owned(),
    }
}

fn default_base_url() -> String {
    DEFAULT_BASE_URL.to_owned()
}

fn is_default_base_url(url: &str) -> bool {
    url == DEFAULT_BASE_URL
}

#[expect(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_false(value: &bool) -> bool {
    !*value
}

#[cfg(test)]
mod tests;
