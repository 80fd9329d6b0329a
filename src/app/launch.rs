//! Opening the dashboard: on the embedded sandbox (`--demo`) or on a profile.

use std::error::Error;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};

use super::Ended;
use super::input::TerminalInput;
use super::platform::System;
use crate::api::{Client, ClientConfig, Generation, Selector};
use crate::config::{ApiKind, Config, ProcessEnv};
use crate::credentials::{ApiKey, KeyStore, profile_scope, resolve_with_api};
use crate::history::offline::{self, Pick};
use crate::history::snapshot::Snapshot;
use crate::os::signals::{Signal, listen};
use crate::sandbox::{DEMO_CREDENTIALS, DEMO_PARTNER_KEY, Frozen, Sandbox, SandboxConfig};
use crate::ui::judging::Judging;
use crate::ui::keymap::Keymap;
use crate::ui::panes;
use crate::ui::shell::{HeaderInfo, Shell};
use crate::ui::theme::{Theme, ThemeFiles, parse_color};

/// What the command line asked of the dashboard.
#[derive(Debug, Clone, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is a flag of the command line"
)]
pub struct DashboardOptions {
    pub demo: bool,
    pub profile: Option<String>,
    pub config: Option<std::path::PathBuf>,
    pub read_only: bool,
    pub theme: Option<String>,
    /// `--api`: the interface to speak, over the profile's and `TAXDASH_API` (`None`: theirs;
    /// the demo speaks v1 unless asked).
    pub api: Option<ApiKind>,
    /// `--no-mouse`: leave the mouse to the terminal (its own selection), whatever the config
    /// file says.
    pub no_mouse: bool,
    /// `--history FILE` (or `TAXDASH_HISTORY`): the history database to use instead of the
    /// platform one (with `--demo`, instead of one in memory).
    pub history: Option<std::path::PathBuf>,
    /// `--offline [--snapshot ID]`: browse a snapshot of the history database instead of the
    /// service.
    pub offline: Option<SnapshotChoice>,
    /// `--portfolio`: open on the Portfolio tab (with --demo, on the partner key).
    pub portfolio: bool,
}

/// Which snapshot `--offline` browses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotChoice {
    /// The latest of the profile's organization (with `--demo`, the latest in the file).
    Latest,
    /// `--snapshot ID`.
    Id(i64),
}

/// Everything the dashboard needs, gathered before the terminal is taken over, so that a
/// missing key or a bad config file is reported on a normal terminal.
pub struct Session {
    pub client: Client,
    /// The history database, which the runtime reads for the shell.
    pub stores: super::Stores,
    pub shell: Shell,
    pub sandbox: Option<Sandbox>,
    /// Whether the dashboard takes the mouse (`mouse = false` in the config file, or
    /// `--no-mouse`, leaves it to the terminal).
    pub mouse: bool,
    /// The demo's history when no `--history` names one: a file in a directory of its own,
    /// removed with the session (so snapshots, diff, `H` and `Δ` work for the session).
    pub history_dir: Option<tempfile::TempDir>,
}

type BoxError = Box<dyn Error + Send + Sync>;

/// Starts the embedded sandbox on demo data on a free loopback port, as `--demo` does, with the
/// client settings that reach it: the first demo organization and its key over v1, or with
/// `api` Tenanted the partner key (which reaches both demo organizations) at the latest release.
/// The caller applies the environment's overrides and stops the sandbox when done.
pub async fn start_demo(api: Option<ApiKind>) -> Result<(Sandbox, ClientConfig), BoxError> {
    let sandbox = Sandbox::start(
        SandboxConfig::default(),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await?;
    let (org, key) = DEMO_CREDENTIALS[0];
    let tenanted = api == Some(ApiKind::Tenanted);
    let key = if tenanted { DEMO_PARTNER_KEY } else { key };
    let mut config = ClientConfig::new(sandbox.base_url().parse()?, org, ApiKey::new(key)?);
    if tenanted {
        config.generation = Generation::TENANTED_LATEST;
        config.selector = Selector::Organization(org.to_owned());
    }
    Ok((sandbox, config))
}

/// Starts a frozen sandbox on the records of `snapshot` (read into `frozen`), with the client
/// settings that reach it and the header that says what is browsed: the snapshot's profile,
/// organization and API, `OFFLINE` with its time, and read-only. No key of the profile is used:
/// the sandbox makes its own. The caller stops the sandbox when done.
pub async fn start_offline(
    frozen: Frozen,
    snapshot: &Snapshot,
    demo: bool,
) -> Result<(Sandbox, ClientConfig, HeaderInfo), BoxError> {
    let organization = frozen.organization_id.clone();
    let (sandbox, key) =
        Sandbox::start_frozen(frozen, SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await?;
    let mut config = ClientConfig::new(
        sandbox.base_url().parse()?,
        organization.clone(),
        ApiKey::new(key)?,
    );
    // The records are on this machine: no pacing.
    config.rate_limit_per_min = None;
    let header = HeaderInfo {
        profile: snapshot.scope.profile.clone(),
        organization,
        generation: snapshot.scope.api.clone(),
        demo,
        read_only: true,
        offline: Some(snapshot.taken),
    };
    Ok((sandbox, config, header))
}

/// The snapshot `--offline` opens and its records: the one `--snapshot` names, else the latest
/// of the profile's organization (with `--demo`, the latest in the `--history` file). Read
/// before the terminal is taken, so that a missing snapshot or a bad file is said plainly.
/// Unless a day is fixed, the snapshot's day becomes today.
async fn offline_snapshot(
    options: &DashboardOptions,
    scope: Option<(String, String)>,
    profile_history: Option<&str>,
) -> Result<(Snapshot, Frozen), BoxError> {
    let pick = match (options.offline, scope) {
        (Some(SnapshotChoice::Id(id)), _) => Pick::Id(id),
        (_, Some((profile, organization))) => Pick::Latest {
            profile,
            organization,
        },
        (_, None) => Pick::AnyLatest,
    };
    let location = match (&options.history, options.demo) {
        (None, true) => {
            return Err(
                "--demo --offline needs --history FILE: the demo's history is kept in \
                        memory and holds no snapshot; name the file `taxdash snapshot --demo \
                        --history FILE` wrote"
                    .into(),
            );
        }
        (named, _) => {
            crate::history::location_for_session(named.as_deref(), false, profile_history)?
        }
    };
    let (snapshot, frozen) = tokio::task::spawn_blocking(move || {
        let (history, snapshot) = offline::open(&location, &pick)?;
        let frozen = offline::frozen(&history, &snapshot)?;
        Ok::<_, BoxError>((snapshot, frozen))
    })
    .await??;
    // What was overdue or expiring is counted from the day the snapshot was taken, unless
    // `--today` says otherwise.
    if !crate::clock::is_fixed() {
        crate::clock::fix_today(Some(
            snapshot.taken.with_timezone(&chrono::Local).date_naive(),
        ));
    }
    Ok((snapshot, frozen))
}

/// Prepares a session: starts the sandbox or resolves the profile, picks the theme and keys.
pub async fn prepare(
    options: &DashboardOptions,
    log_path: Option<String>,
) -> Result<Session, BoxError> {
    let system = System::from_env();
    let mut mouse = !options.no_mouse;
    let mut config_path = None;
    let mut views = std::collections::BTreeMap::new();
    let mut columns = std::collections::BTreeMap::new();
    // The profile's `history` key, under `--history` and `TAXDASH_HISTORY`.
    let mut profile_history: Option<String> = None;
    let (client, mut header, sandbox, keymap, theme_name, accent, settings) = if options.demo
        && options.offline.is_some()
    {
        let (snapshot, frozen) = offline_snapshot(options, None, None).await?;
        let (sandbox, config, header) = start_offline(frozen, &snapshot, true).await?;
        (
            Client::new(config)?,
            header,
            Some(sandbox),
            Keymap::default(),
            options.theme.clone(),
            None,
            panes::Settings::default(),
        )
    } else if options.demo {
        // The views and columns chosen on the demo data outlive the session in a file of
        // their own; the config file stays untouched. A file that does not parse is left
        // alone, and the views last until exit.
        if let Ok(path) = Config::demo_path() {
            match Config::load(&path) {
                Ok(saved) => {
                    views.clone_from(&saved.views);
                    columns.clone_from(&saved.columns);
                    config_path = Some(path);
                }
                Err(e) => tracing::warn!("the demo's saved views are not read: {e}"),
            }
        }
        // The portfolio lists what the partner key reaches: the demo speaks the Tenanted API.
        let api = match options.api {
            None if options.portfolio => Some(ApiKind::Tenanted),
            api => api,
        };
        let (sandbox, config) = start_demo(api).await?;
        let header = HeaderInfo {
            profile: "demo".into(),
            organization: config.organization_id.clone(),
            generation: config.generation.label().into(),
            demo: true,
            read_only: options.read_only,
            offline: None,
        };
        (
            Client::new(config.with_env(&ProcessEnv)?)?,
            header,
            Some(sandbox),
            Keymap::default(),
            options.theme.clone(),
            None,
            panes::Settings::default(),
        )
    } else {
        let env = ProcessEnv;
        let named = options
            .config
            .as_deref()
            .filter(|p| !p.as_os_str().is_empty());
        let path = Config::default_path(named, &env)?;
        let config = Config::load_named(&path, named.is_some())?;
        mouse &= config.mouse.unwrap_or(true);
        config_path = Some(path.clone());
        views.clone_from(&config.views);
        columns.clone_from(&config.columns);
        let requested = options.profile.clone();
        profile_history = crate::credentials::profile_history(requested.as_deref(), &config);
        let (client, header, sandbox, profile_name) = if options.offline.is_some() {
            // The profile only picks the snapshots: neither its key nor its service is used.
            let scope = profile_scope(requested.as_deref(), &config, &env)?;
            let name = scope.0.clone();
            let (snapshot, frozen) =
                offline_snapshot(options, Some(scope), profile_history.as_deref()).await?;
            let (sandbox, client_config, header) = start_offline(frozen, &snapshot, false).await?;
            (Client::new(client_config)?, header, Some(sandbox), name)
        } else {
            let api = options.api;
            let resolved = {
                let config = config.clone();
                tokio::task::spawn_blocking(move || {
                    let store = KeyStore::platform();
                    resolve_with_api(requested.as_deref(), &config, &ProcessEnv, &store, api)
                })
                .await??
            };
            let client_config = ClientConfig::from_profile(&resolved).with_env(&env)?;
            let header = HeaderInfo {
                profile: resolved.name.clone(),
                organization: resolved.organization_id.clone(),
                generation: client_config.generation.label().into(),
                demo: false,
                read_only: options.read_only || resolved.read_only,
                offline: None,
            };
            (Client::new(client_config)?, header, None, resolved.name)
        };
        let profile = config.profile(&profile_name);
        let keymap =
            Keymap::with_overrides(&config.keys).map_err(|e| format!("{}: {e}", path.display()))?;
        let theme = options
            .theme
            .clone()
            .or(profile.and_then(|p| p.theme.clone()))
            .or(config.theme.clone());
        let accent = profile.and_then(|p| p.accent.clone());
        let settings = panes::Settings {
            overview_refresh: config
                .overview_refresh()
                .unwrap_or(panes::overview::DEFAULT_REFRESH),
            judging: Judging {
                filing_tolerance: config.checks.filing_tolerance(),
            },
            portfolio: false,
        };
        (client, header, sandbox, keymap, theme, accent, settings)
    };
    // Every write is recorded before it is sent: without the history, none is sent. A team's
    // server that does not answer now is told, and each write waits for it to answer.
    let history_dir = if options.demo && options.history.is_none() && options.offline.is_none() {
        Some(
            tempfile::Builder::new()
                .prefix("taxdash-demo-history-")
                .tempdir()?,
        )
    } else {
        None
    };
    let named = history_dir
        .as_ref()
        .map(|dir| dir.path().join("history.db"))
        .or_else(|| options.history.clone());
    let location = crate::history::location_for_session(
        named.as_deref(),
        options.demo,
        profile_history.as_deref(),
    );
    let audited = match &location {
        Ok(location) => {
            let location = location.clone();
            let (profile, organization) = (header.profile.clone(), header.organization.clone());
            let client = client.clone();
            tokio::task::spawn_blocking(move || {
                let (history, away) = crate::history::History::open_at_lenient(&location)?;
                let (client, log) =
                    crate::history::audited(&client, history, &profile, &organization);
                Ok::<_, crate::history::HistoryError>((client, log, away))
            })
            .await?
            .map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    };
    let location = location.ok();
    let (client, audit, history_problem, history_away) = match audited {
        Ok((client, log, away)) => (client, Some(log), None, away),
        Err(e) => {
            header.read_only = true;
            let problem = format!(
                "{e}. Changes are turned off (read-only): taxdash records every change it sends there."
            );
            (client, None, Some(problem), None)
        }
    };
    let theme = Theme::select(
        theme_name.as_deref(),
        system.no_color,
        system.truecolor,
        system.theme_files().as_ref().map(|f| f as &dyn ThemeFiles),
    )?;
    let theme = match accent.as_deref().map(parse_color).transpose()? {
        Some(color) => theme.with_accent(color),
        None => theme,
    };
    // The Portfolio tab: wherever the key may reach several organizations (not offline, where
    // one snapshot of one is browsed).
    let settings = panes::Settings {
        portfolio: client.generation().api_version().is_some() && options.offline.is_none(),
        ..settings
    };
    let mut shell = Shell::new(panes::with(settings), keymap, theme, header)
        .with_judging(settings.judging)
        .with_save_folder(crate::os::files::save_folder())
        .with_pane_factory(move || panes::with(settings))
        .with_views(config_path.clone(), views)
        .with_columns(columns)
        .with_history_for_session(history_dir.is_some());
    if let Some(version) = client.generation().api_version() {
        shell = shell.with_tenanted(version);
    }
    if options.portfolio {
        if !settings.portfolio {
            return Err(
                "--portfolio lists the organizations of a Tenanted API key, and this \
                        profile speaks v1: add --api tenanted (or set the profile's api)"
                    .into(),
            );
        }
        shell = shell.open_on("Portfolio");
    }
    if let Some(path) = log_path {
        shell = shell.with_log_path(path);
    }
    let mut stores = super::Stores::default();
    // A snapshot browsed offline is read whole at once: nothing to read ahead.
    if options.offline.is_none()
        && let Some(path) = super::read_ahead::ReadAhead::default_path()
    {
        let read_ahead = super::read_ahead::ReadAhead::open(path);
        // On a team's server, what the team's Overviews learnt is read ahead from too.
        let read_ahead = match &location {
            Some(team @ crate::history::Location::Server(_)) => {
                let team = team.clone();
                tokio::task::spawn_blocking(move || match crate::history::History::open_at_lenient(
                    &team,
                ) {
                    Ok((history, _)) => read_ahead.with_team(history),
                    Err(_) => read_ahead,
                })
                .await?
            }
            _ => read_ahead,
        };
        stores = stores.with_read_ahead(read_ahead);
    }
    if let Some(log) = audit {
        stores = stores.with_audit(log);
    }
    if let Some(problem) = history_problem {
        tracing::error!("{problem}");
        shell.notify_error(problem);
    } else if let Some(location) = location {
        if let Some(away) = history_away {
            let away = format!("{away}. It is tried again at each change and each read.");
            tracing::warn!("{away}");
            shell.notify_error(away);
        }
        // The history again, for records' histories and the rows changed since the previous
        // snapshot (its own connection: reads only).
        let opened = tokio::task::spawn_blocking(move || {
            crate::history::History::open_at_lenient(&location)
        })
        .await?;
        match opened {
            Ok((history, _)) => stores = stores.with_history(history),
            Err(e) => shell.notify_error(e.to_string()),
        }
    }
    Ok(Session {
        client,
        stores,
        shell,
        sandbox,
        mouse,
        history_dir,
    })
}

/// On a panic, before the hook `ratatui::try_init` installed (which leaves raw mode and the
/// alternate screen): gives the mouse back and stops bracketing pastes, so the shell after it
/// gets neither reports nor markers.
fn release_modes_on_panic(mouse: bool) {
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if mouse {
            let _ = super::platform::capture_mouse(false);
        }
        let _ = super::platform::bracketed_paste(false);
        restore(info);
    }));
}

/// Runs the dashboard on the real terminal until the user quits, a signal ends it or the
/// terminal goes away. The terminal is restored on return, on error, on panic and on SIGINT,
/// SIGTERM and SIGHUP.
pub async fn run(options: DashboardOptions) -> Result<Ended, BoxError> {
    let (log, log_problem) = match super::logging::init() {
        Ok(log) => (Some(log), None),
        Err(problem) => {
            // Said once on the normal screen, where it stays after the dashboard closes, and
            // once in the footer.
            let _ = writeln!(std::io::stderr(), "taxdash: {problem}");
            (None, Some(problem))
        }
    };
    let log_path = log.as_ref().map(|l| l.path.display().to_string());
    let Session {
        client,
        stores,
        mut shell,
        sandbox,
        mouse,
        history_dir: _history_dir,
    } = prepare(&options, log_path).await?;
    if let Some(problem) = log_problem {
        shell.notify_error(problem.to_string());
    }
    tracing::info!(demo = options.demo, "dashboard starting");
    // Listening before the terminal is taken: from here on a signal cannot end the process
    // with the terminal raw.
    let signals = listen(Signal::DASHBOARD)?;
    let mut terminal = match ratatui::try_init() {
        Ok(terminal) => terminal,
        Err(e) => {
            // Nothing of the screen was taken: what is written to give it back would only
            // reach a file or a pipe as stray escape codes.
            if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                let _ = ratatui::try_restore();
            } else {
                let _ = crossterm::terminal::disable_raw_mode();
            }
            if let Some(sandbox) = sandbox {
                sandbox.stop().await;
            }
            return Err(format!(
                "the dashboard needs a terminal, and could not take this one: {e}"
            )
            .into());
        }
    };
    let mut system = System::from_env();
    system.mouse = mouse;
    if mouse {
        let _ = super::platform::capture_mouse(true);
    }
    let _ = super::platform::bracketed_paste(true);
    release_modes_on_panic(mouse);
    let result = match TerminalInput::start() {
        Ok(input) => {
            super::run_with_signals(
                &mut terminal,
                input,
                signals,
                &mut shell,
                client,
                stores,
                &mut system,
            )
            .await
        }
        Err(e) => Err(e),
    };
    // The terminal may be gone (SIGHUP): restoring it can fail, and there is no one to tell.
    if mouse {
        let _ = super::platform::capture_mouse(false);
    }
    let _ = super::platform::bracketed_paste(false);
    let shown = terminal.show_cursor().is_ok();
    let _ = ratatui::try_restore();
    if !shown {
        // The terminal cannot be written to (it went away). Dropped, it would show the cursor
        // again and report the failure with `eprintln!`, which panics, and then aborts in the
        // panic hook, when standard error is that terminal too.
        std::mem::forget(terminal);
    }
    if let Some(sandbox) = sandbox {
        sandbox.stop().await;
    }
    tracing::info!(ended = ?result.as_ref().ok(), "dashboard closed");
    result.map_err(Into::into)
}
