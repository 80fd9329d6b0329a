//! The subcommands other than the dashboard: `login`, `logout`, `profiles`, `export`,
//! `import`, `audit`, `snapshot`, `diff`, `watch`, `check`, `nexus forecast`, and
//! `completions` and `man`.
//!
//! Each one is an async function over a [`Context`], which carries everything it reads from the
//! machine (the config file's path, the environment, the key store), so tests give it a
//! temporary config file, a fixed environment and [`KeyStore::mock`].

pub mod audit;
pub mod check;
pub mod export;
pub mod history;
pub mod import;
pub mod login;
pub mod manual;
pub mod portfolio;
pub mod snapshot;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Config, ConfigError};
use crate::credentials::{CredentialError, Env, KeyStore, ProcessEnv, ResolvedProfile, resolve};

/// What a command reads from the machine.
#[derive(Clone)]
pub struct Context {
    /// `--profile`, if given.
    pub profile: Option<String>,
    /// The config file; `None` when no platform config directory exists (then there are no
    /// profiles, and only the environment can describe one).
    pub config_path: Option<PathBuf>,
    /// The user named the config file (`--config`, `TAXDASH_CONFIG`): it must exist, except for
    /// the commands that create it.
    pub config_named: bool,
    /// Where environment variables come from.
    pub env: Arc<dyn Env + Send + Sync>,
    /// Where API keys are kept.
    pub store: Arc<KeyStore>,
    /// `--history FILE`: the history database the commands that write record their writes in
    /// (`None`: `TAXDASH_HISTORY` or the platform one; in memory with `--demo`).
    pub history: Option<PathBuf>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("profile", &self.profile)
            .field("config_path", &self.config_path)
            .field("config_named", &self.config_named)
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// The real machine: the process environment, the OS keyring (opened on first use), and the
    /// config file named by `--config`, else `TAXDASH_CONFIG`, else the platform's.
    pub fn from_cli(profile: Option<String>, config: Option<&Path>) -> Self {
        let config = config.filter(|p| !p.as_os_str().is_empty());
        Context {
            profile,
            config_path: Config::default_path(config, &ProcessEnv).ok(),
            config_named: config.is_some(),
            env: Arc::new(ProcessEnv),
            store: Arc::new(KeyStore::platform()),
            history: None,
        }
    }

    /// A context over the given pieces.
    pub fn new(
        profile: Option<String>,
        config_path: impl Into<PathBuf>,
        env: impl Env + Send + Sync + 'static,
        store: KeyStore,
    ) -> Self {
        Context {
            profile,
            config_path: Some(config_path.into()),
            config_named: false,
            env: Arc::new(env),
            store: Arc::new(store),
            history: None,
        }
    }

    /// The config file's contents: empty when it does not exist yet, an error when it does not
    /// exist but was named (see [`Context::config_named`]).
    pub fn load_config(&self) -> Result<Config, ConfigError> {
        match &self.config_path {
            Some(path) => Config::load_named(path, self.config_named),
            None => Ok(Config::default()),
        }
    }

    /// Where the history is for a command: `--history` (or `TAXDASH_HISTORY`), else in memory
    /// with `--demo`, else the profile's `history` key, else the platform file.
    pub fn history_location(&self, demo: bool) -> Result<crate::history::Location, CommandFailure> {
        let from_profile = if demo || self.history.is_some() {
            None
        } else {
            self.load_config()
                .ok()
                .and_then(|c| crate::credentials::profile_history(self.profile.as_deref(), &c))
        };
        crate::history::location_for_session(self.history.as_deref(), demo, from_profile.as_deref())
            .map_err(CommandFailure::new)
    }

    /// The history for a command (see [`Context::history_location`]), opened on a blocking
    /// thread: a server's client must not run on the runtime's.
    pub async fn open_history(
        &self,
        demo: bool,
    ) -> Result<crate::history::History, CommandFailure> {
        let location = self.history_location(demo)?;
        tokio::task::spawn_blocking(move || crate::history::History::open_at(&location))
            .await
            .map_err(|e| CommandFailure::new(format!("the history could not be opened: {e}")))?
            .map_err(CommandFailure::new)
    }

    /// The config file's contents, empty when it does not exist: for the commands that create
    /// it (`login`).
    pub fn load_config_to_update(&self) -> Result<Config, ConfigError> {
        match &self.config_path {
            Some(path) => Config::load(path),
            None => Ok(Config::default()),
        }
    }

    /// Saves the config file.
    pub fn save_config(&self, config: &Config) -> Result<(), ConfigError> {
        let path = self
            .config_path
            .as_deref()
            .ok_or(ConfigError::NoConfigDir)?;
        config.save(path)
    }

    /// The profile to use, its key and the environment's overrides (see
    /// [`credentials::resolve`](crate::credentials::resolve)). The key store is reached on a
    /// blocking thread.
    pub async fn resolve(&self) -> Result<ResolvedProfile, CredentialError> {
        let config = self.load_config()?;
        let (requested, env, store) = (self.profile.clone(), self.env.clone(), self.store.clone());
        tokio::task::spawn_blocking(move || resolve(requested.as_deref(), &config, &*env, &store))
            .await
            .unwrap_or_else(|e| {
                Err(CredentialError::Store {
                    profile: self.profile.clone().unwrap_or_default(),
                    location: "key store".into(),
                    reason: format!("the lookup stopped unexpectedly: {e}"),
                })
            })
    }

    /// Runs `f` on the key store on a blocking thread (a real keyring may wait on D-Bus or an
    /// unlock prompt).
    pub async fn with_store<T, F>(&self, f: F) -> Result<T, CredentialError>
    where
        T: Send + 'static,
        F: FnOnce(&KeyStore) -> Result<T, CredentialError> + Send + 'static,
    {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .unwrap_or_else(|e| {
                Err(CredentialError::NoStore {
                    reason: format!("the key store stopped unexpectedly: {e}"),
                })
            })
    }
}

/// A command's connection to the service: the client, the demo sandbox it runs on (to stop when
/// done), and who it acts as.
pub struct Connected {
    pub client: crate::api::Client,
    pub sandbox: Option<crate::sandbox::Sandbox>,
    pub profile: String,
    pub organization: String,
}

impl Connected {
    /// Stops the demo sandbox, if there is one.
    pub async fn close(self) {
        if let Some(sandbox) = self.sandbox {
            sandbox.stop().await;
        }
    }
}

/// The client of the profile (config, keyring and the `TAXDASH_*` overrides), or of the demo
/// sandbox, started here, as `--demo` starts it.
pub async fn connect(ctx: &Context, service: export::Service) -> Result<Connected, CommandFailure> {
    let (config, sandbox, profile) = match service {
        export::Service::Profile => {
            let profile = ctx.resolve().await.map_err(CommandFailure::new)?;
            (
                crate::api::ClientConfig::from_profile(&profile),
                None,
                profile.name,
            )
        }
        export::Service::Demo(api) => {
            let (sandbox, config) = crate::app::start_demo(api).await.map_err(|e| {
                CommandFailure::new(format!("the demo sandbox could not start: {e}"))
            })?;
            (config, Some(sandbox), "demo".to_owned())
        }
    };
    let organization = config.organization_id.clone();
    match config.with_env(&*ctx.env).and_then(crate::api::Client::new) {
        Ok(client) => Ok(Connected {
            client,
            sandbox,
            profile,
            organization,
        }),
        Err(e) => {
            if let Some(sandbox) = sandbox {
                sandbox.stop().await;
            }
            Err(CommandFailure::new(e))
        }
    }
}

/// A failed command: the message for the user and the process's exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFailure {
    pub message: String,
    pub exit_code: u8,
}

impl CommandFailure {
    /// A failure with exit code 1.
    pub fn new(message: impl fmt::Display) -> Self {
        CommandFailure {
            message: message.to_string(),
            exit_code: 1,
        }
    }
}

/// Starts the log file for a command, as the dashboard does (`TAXDASH_LOG`, `RUST_LOG`); when it
/// cannot be written the command runs without it and says so on stderr, once. Keep the guard
/// for as long as the command runs.
pub fn start_log() -> Option<crate::app::LogGuard> {
    match crate::app::start_log() {
        Ok(guard) => Some(guard),
        Err(problem) => {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "taxdash: {problem}");
            None
        }
    }
}

/// Refuses a range of days that ends before it starts, as every command does (exit 1, the
/// message of [`crate::rules::check_day_range`]); `names` are the options as typed.
pub fn day_range(
    names: (&str, &str),
    from: chrono::NaiveDate,
    to: chrono::NaiveDate,
) -> Result<(), CommandFailure> {
    crate::rules::check_day_range(names, from, to).map_err(CommandFailure::new)
}

impl fmt::Display for CommandFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
