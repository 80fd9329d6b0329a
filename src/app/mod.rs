//! The runtime: owns the terminal, the client and the request tasks; runs the event loop, routes
//! keys and answers to the shell, and carries out the effects the panes return. It draws nothing
//! itself.
//!
//! The loop also listens to signals (see [`crate::os::signals`]): SIGINT, SIGTERM and SIGHUP end it as `q`
//! does, so the terminal is restored on the way out; Ctrl-Z (a key in raw mode) and SIGTSTP hand
//! the terminal back and stop the process, and after `fg` everything is drawn again at the
//! terminal's current size. A terminal that goes away (its input ends or fails, see [`input`],
//! or drawing on it fails) ends the loop too. However many events wait, the loop takes them in
//! batches of at most [`BATCH`], so signals and answers are never starved; a paste arrives as
//! one event (bracketed paste) and goes to the focused text field whole.

mod calls;
mod events;
mod history;
pub mod input;
mod launch;
mod logging;
pub mod platform;
pub mod portfolio;
pub mod read_ahead;
pub mod testing;
pub mod themes;

use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::Event;
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

pub use calls::{execute, failure};
pub use events::BATCH;
use events::Batch;
pub use history::Stores;
pub use launch::{
    DashboardOptions, Session, SnapshotChoice, prepare, run as run_dashboard, start_demo,
    start_offline,
};
pub use logging::{LogGuard, init as start_log, log_path};
use platform::Platform;

use crate::api::{Client, RetryNotice};
use crate::effect::ImportResource;
use crate::effect::{
    Answer, Call, Effect, FilingCall, NexusCall, ReadAheadNote, RequestId, ViewExport, ViewImport,
};
use crate::export::{ExportJob, export_to_file};
use crate::import::results::{self, Results};
use crate::import::{FileError, Report, check_file, send};
use crate::os::signals::Signal;
use crate::ui::shell::{ExportStatus, ImportCheck, ImportStatus, Shell};

/// How often animations (the spinner, flash expiry) advance.
pub const TICK: Duration = Duration::from_millis(100);

/// The calls under way, each cancellable.
struct Tasks {
    client: Client,
    /// The history database, for the shell's reads of it.
    stores: Stores,
    running: HashMap<RequestId, CancellationToken>,
    /// The calls under way made for another organization than the one acted on (the
    /// portfolio's): a switch of organization leaves them be.
    elsewhere: std::collections::HashSet<RequestId>,
    answers: mpsc::UnboundedSender<Answer>,
    /// Each call's retries, as its client tells them, for the footer.
    retries: mpsc::UnboundedSender<(RequestId, RetryNotice)>,
    /// The export under way, if any.
    export: Option<RunningExport>,
    /// The snapshot being taken, if any.
    snapshot: Option<history::RunningSnapshot>,
    /// How each export ended: what was written, or why nothing was.
    exports: mpsc::UnboundedSender<Result<String, String>>,
    /// The file of the last `:import`, checked, waiting for the user to say whether to send.
    checked_import: Option<CheckedImport>,
    /// The import being sent, if any.
    import: Option<RunningImport>,
    /// Files checked and imports ended.
    imports: mpsc::UnboundedSender<ImportEvent>,
}

/// A file checked for `:import`.
struct CheckedImport {
    resource: ImportResource,
    path: std::path::PathBuf,
    report: Report,
}

/// An import being sent while the dashboard goes on.
struct RunningImport {
    /// Counts the rows answered (hidden: the status line tells them).
    bar: indicatif::ProgressBar,
    what: String,
    /// Set by Esc: no more rows are started.
    stop: Arc<std::sync::atomic::AtomicBool>,
}

/// What an import's background work tells the loop.
enum ImportEvent {
    Checked(Result<CheckedImport, FileError>),
    Ended(Result<String, String>),
}

/// An export of a list the dashboard carries out while it goes on.
struct RunningExport {
    token: CancellationToken,
    /// Counts the rows read (hidden: the status line tells them).
    bar: indicatif::ProgressBar,
    what: String,
    path: String,
}

impl RunningExport {
    fn status(&self) -> ExportStatus {
        ExportStatus {
            what: self.what.clone(),
            path: self.path.clone(),
            done: self.bar.position(),
            total: self.bar.length(),
        }
    }
}

impl RunningImport {
    fn status(&self) -> ImportStatus {
        ImportStatus {
            what: self.what.clone(),
            done: self.bar.position(),
            total: self.bar.length().unwrap_or_default(),
        }
    }
}

impl Tasks {
    /// Fills in what a call leaves to the runtime from what this organization's last Overview
    /// learnt: the filings it checked ([`FilingCall::CheckedBefore`]), the pages of its pace
    /// ([`NexusCall::Pace`]).
    fn fill_in(&self, call: &mut Call, shell: &Shell) {
        let Some(ahead) = self.stores.read_ahead() else {
            return;
        };
        let header = shell.header();
        // A call for another organization (the portfolio's) reads ahead what that one learnt.
        let (call, organization) = match call {
            Call::ForOrganization { organization, call } => (&mut **call, &*organization),
            call => (call, &header.organization),
        };
        let profile = &header.profile;
        match call {
            Call::Filings(FilingCall::CheckedBefore { ids }) => {
                *ids = ahead.filings(profile, organization);
            }
            Call::Nexus(NexusCall::Pace { pages, .. }) => {
                *pages = ahead.pace_pages(profile, organization);
            }
            _ => {}
        }
    }

    /// Remembers what this organization's Overview learnt, written on a blocking thread; a file
    /// that cannot be written is said in the log only (the next Overview then reads as on a
    /// first run).
    fn remember(&self, note: ReadAheadNote, shell: &Shell) {
        let Some(ahead) = self.stores.read_ahead().cloned() else {
            return;
        };
        let header = shell.header();
        let organization = note
            .organization
            .clone()
            .unwrap_or_else(|| header.organization.clone());
        let profile = header.profile.clone();
        tokio::task::spawn_blocking(move || {
            if let Err(e) = ahead.keep(&profile, &organization, note) {
                tracing::warn!("what the Overview read is not remembered: {e}");
            }
        });
    }

    fn carry_out(
        &mut self,
        effects: Vec<Effect>,
        platform: &mut dyn Platform,
        shell: &mut Shell,
    ) -> bool {
        let mut quit = false;
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::Call { id, call } if matches!(*call, Call::History(_)) => {
                    if let Call::History(call) = *call {
                        self.history(id, call);
                    }
                }
                Effect::Call { id, mut call } => {
                    self.fill_in(&mut call, shell);
                    tracing::debug!(id = id.0, "{}", call.describe());
                    let token = CancellationToken::new();
                    self.running.insert(id, token.clone());
                    if matches!(*call, Call::ForOrganization { .. }) {
                        self.elsewhere.insert(id);
                    }
                    let retries = self.retries.clone();
                    let client = self.client.with_retry_observer(Arc::new(move |notice| {
                        let _ = retries.send((id, notice.clone()));
                    }));
                    let answers = self.answers.clone();
                    tokio::spawn(async move {
                        tokio::select! {
                            () = token.cancelled() => {}
                            result = execute(&client, *call) => {
                                if let Err(failure) = &result {
                                    tracing::info!(id = id.0, "call failed: {}", failure.message);
                                }
                                let _ = answers.send(Answer { id, result });
                            }
                        }
                    });
                }
                Effect::Cancel(id) => {
                    if let Some(token) = self.running.remove(&id) {
                        token.cancel();
                    }
                    self.elsewhere.remove(&id);
                }
                Effect::OpenUrl(url) => {
                    if let Err(e) = platform.open_url(&url) {
                        shell.notify_error(e.to_string());
                    }
                }
                Effect::OpenFile { path, otherwise } => match platform.open_file(&path) {
                    Ok(()) => shell.notify_info(format!("opened {}", path.display())),
                    Err(e) => shell.notify_error(format!("{e}. {otherwise}")),
                },
                Effect::Copy(text) => match platform.copy(&text) {
                    Ok(()) => shell.notify_info(format!("copied {text}")),
                    Err(e) => shell.notify_error(format!("cannot copy: {e}")),
                },
                Effect::Theme(name) => match platform.load_theme(&name) {
                    Ok(theme) => {
                        shell.set_theme(theme);
                        shell.notify_info(format!("theme {name}"));
                    }
                    Err(e) => shell.notify_error(e.to_string()),
                },
                Effect::SwitchOrganization(organization) => {
                    // Answers for the organization left behind are of no use any more.
                    self.cancel_acted_on();
                    self.client = self.client.with_organization(&organization);
                    tracing::info!(organization = %organization, "organization switched");
                    queue.extend(shell.organization_switched(&organization));
                }
                // The shell moves between its tabs itself; nothing is left for the runtime.
                Effect::Goto(_) | Effect::OpenOrganization { .. } => {}
                Effect::Export(export) => self.export(*export, shell),
                Effect::Remember(note) => self.remember(note, shell),
                Effect::CancelExport => {
                    if let Some(running) = &self.export {
                        running.token.cancel();
                    }
                }
                Effect::Import(import) => self.check_import(*import),
                Effect::SendImport => self.send_import(shell),
                Effect::StopImport => {
                    if let Some(running) = &self.import {
                        running
                            .stop
                            .store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
                Effect::Quit => quit = true,
            }
        }
        quit
    }

    /// Starts writing `export` through the export engine ([`crate::export::export_to_file`]:
    /// the file is written whole or not at all), unless another export is under way.
    fn export(&mut self, export: ViewExport, shell: &mut Shell) {
        if self.export.is_some() {
            shell.notify_error("An export is under way: wait for it, or Esc to cancel it.");
            return;
        }
        let ViewExport {
            query,
            format,
            path,
        } = export;
        let path = std::path::absolute(&path).unwrap_or(path);
        let what = query.resource().name().to_owned();
        let shown = path.display().to_string();
        let running = RunningExport {
            token: CancellationToken::new(),
            bar: indicatif::ProgressBar::hidden(),
            what: what.clone(),
            path: shown.clone(),
        };
        tracing::info!(resource = %what, path = %shown, "exporting the list on screen");
        let (token, bar, client, done) = (
            running.token.clone(),
            running.bar.clone(),
            self.client.clone(),
            self.exports.clone(),
        );
        shell.export_progress(running.status());
        self.export = Some(running);
        tokio::spawn(async move {
            let job = ExportJob::new(query, format);
            let result = tokio::select! {
                () = token.cancelled() => {
                    Err(format!("Export cancelled: {shown} was not written."))
                }
                result = export_to_file(&client, &job, &path, &bar) => match result {
                    Ok(summary) => Ok(format!(
                        "Wrote {} {what} to {shown}",
                        crate::ui::text::thousands(summary.rows)
                    )),
                    Err(e) => Err(format!("Export failed, {shown} was not written: {e}")),
                },
            };
            let _ = done.send(result);
        });
    }

    /// Reads and checks the file of `:import` on a blocking thread; the loop hands the report
    /// to the shell, which asks whether to send.
    fn check_import(&mut self, import: ViewImport) {
        let ViewImport { resource, path } = import;
        let path = std::path::absolute(&path).unwrap_or(path);
        let events = self.imports.clone();
        tokio::task::spawn_blocking(move || {
            let checked = check_file(resource, &path).map(|report| CheckedImport {
                resource,
                path,
                report,
            });
            let _ = events.send(ImportEvent::Checked(checked));
        });
    }

    /// Sends the rows of the file last checked that passed (those that failed are recorded as
    /// invalid), writing the results file beside it, while the dashboard goes on.
    fn send_import(&mut self, shell: &mut Shell) {
        let Some(CheckedImport {
            resource,
            path,
            report,
        }) = self.checked_import.take()
        else {
            return;
        };
        let results_path = results::path_beside(&path);
        let results = match Results::create(&results_path) {
            Ok(results) => results,
            Err(e) => {
                let why = format!(
                    "Nothing was sent: cannot write {}: {e}",
                    results_path.display()
                );
                let _ = self.imports.send(ImportEvent::Ended(Err(why)));
                return;
            }
        };
        let invalid = report.invalid_rows();
        let skipped = invalid.len();
        for (row, message) in invalid {
            let _ = results.write(&results::Line {
                row,
                outcome: results::Outcome::Invalid,
                id: None,
                external_id: None,
                message,
            });
        }
        let (jobs, _) = send::resume(report.planned, &HashMap::new());
        let bar = indicatif::ProgressBar::hidden();
        bar.set_length(jobs.len() as u64);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let running = RunningImport {
            bar: bar.clone(),
            what: resource.name().to_owned(),
            stop: stop.clone(),
        };
        shell.import_progress(running.status());
        self.import = Some(running);
        tracing::info!(resource = %resource, path = %path.display(), "importing");
        let path = path.clone();
        let (client, events) = (self.client.clone(), self.imports.clone());
        tokio::spawn(async move {
            let sent = send::send(
                &client,
                jobs,
                send::DEFAULT_CONCURRENCY,
                &results,
                &bar,
                &stop,
            )
            .await;
            let stopped = stop.load(std::sync::atomic::Ordering::SeqCst);
            let ended = match sent {
                Ok(sent) if stopped => Err(format!(
                    "Import stopped: {}; `taxdash import {resource} {} --resume {}` sends the \
                     rest",
                    sent.describe(resource, 0, skipped, results.path()),
                    path.display(),
                    results.path().display()
                )),
                Ok(sent) if sent.failed == 0 => {
                    Ok(sent.describe(resource, 0, skipped, results.path()))
                }
                Ok(sent) => Err(sent.describe(resource, 0, skipped, results.path())),
                Err(e) => Err(format!(
                    "Import stopped: cannot write {}: {e}",
                    results.path().display()
                )),
            };
            let _ = events.send(ImportEvent::Ended(ended));
        });
    }

    fn cancel_all(&mut self) {
        for (_, token) in self.running.drain() {
            token.cancel();
        }
        self.elsewhere.clear();
        self.snapshot = None;
    }

    /// Cancels the calls made for the organization acted on (those for another, the
    /// portfolio's, go on).
    fn cancel_acted_on(&mut self) {
        let elsewhere = &self.elsewhere;
        self.running.retain(|id, token| {
            let keep = elsewhere.contains(id);
            if !keep {
                token.cancel();
            }
            keep
        });
        self.snapshot = None;
    }

    /// Call `id` was answered: it is no longer under way.
    fn answered(&mut self, id: RequestId) {
        self.running.remove(&id);
        self.elsewhere.remove(&id);
        if self.snapshot.as_ref().is_some_and(|s| s.id == id) {
            self.snapshot = None;
        }
    }
}

/// What the shell shows of a checked file.
fn import_check(checked: &CheckedImport) -> ImportCheck {
    let report = &checked.report;
    ImportCheck {
        resource: checked.resource,
        path: checked.path.display().to_string(),
        summary: report.summary(checked.resource),
        ready: report.planned.len(),
        failing: report.failing_rows().len(),
        blocked: !report.file_problems.is_empty(),
        by_column: report.by_column(),
        problems: report
            .file_problems
            .iter()
            .chain(&report.problems)
            .map(ToString::to_string)
            .collect(),
    }
}

/// The exit status of a dashboard whose terminal went away (`EX_IOERR`): neither a quit nor a
/// signal.
pub const EXIT_TERMINAL_GONE: u8 = 74;

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit (`q`, `:quit`).
    Quit,
    /// The event source ran out.
    EventsEnded,
    /// The terminal went away: its input ended or failed, or drawing on it failed.
    TerminalGone,
    /// A signal that ends the program (SIGINT, SIGTERM, SIGHUP).
    Signal(Signal),
}

/// Runs the dashboard until the user quits or the events end, making its calls with `client`
/// and answering its reads of the history database from `stores`. Generic over the backend and
/// the event source, so tests drive it with `TestBackend` and scripted keys.
pub async fn run<B, E>(
    terminal: &mut Terminal<B>,
    events: E,
    shell: &mut Shell,
    client: Client,
    stores: Stores,
    platform: &mut dyn Platform,
) -> io::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    let no_signals = futures::stream::pending::<Signal>();
    run_with_signals(
        terminal, events, no_signals, shell, client, stores, platform,
    )
    .await
    .map(drop)
}

/// [`run`], also listening to `signals`: one that ends the program ends the loop (whatever is
/// on screen: a signal asks nothing), [`Signal::Suspend`] suspends as Ctrl-Z does, and
/// [`Signal::Continue`] takes the terminal again and redraws.
pub async fn run_with_signals<B, E, S>(
    terminal: &mut Terminal<B>,
    events: E,
    mut signals: S,
    shell: &mut Shell,
    client: Client,
    stores: Stores,
    platform: &mut dyn Platform,
) -> io::Result<Ended>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    E: Stream<Item = io::Result<Event>> + Unpin,
    S: Stream<Item = Signal> + Unpin,
{
    let (sender, mut answers) = mpsc::unbounded_channel();
    let (retry_sender, mut retries) = mpsc::unbounded_channel();
    let (export_sender, mut exports) = mpsc::unbounded_channel();
    let (import_sender, mut imports) = mpsc::unbounded_channel();
    let mut tasks = Tasks {
        client,
        stores,
        running: HashMap::new(),
        elsewhere: std::collections::HashSet::new(),
        answers: sender,
        retries: retry_sender,
        export: None,
        snapshot: None,
        exports: export_sender,
        checked_import: None,
        import: None,
        imports: import_sender,
    };
    // Fused: the end of the events, met inside a batch, is met again by the loop.
    let mut events = events.fuse();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);

    let effects = shell.start();
    let mut quit = tasks.carry_out(effects, platform, shell);
    draw(terminal, shell)?;
    let mut ended = Ended::Quit;
    while !quit && !shell.should_quit() {
        let mut dirty = false;
        let mut effects = Vec::new();
        let mut stop = None;
        let mut heard = None;
        tokio::select! {
            event = events.next() => {
                let batch = Batch { shell: &mut *shell, effects: &mut effects, stop: &mut stop };
                match batch.take(event, &mut events, &mut signals) {
                    Ok((changed, signal)) => {
                        dirty |= changed;
                        heard = signal;
                    }
                    Err(end) => {
                        ended = end;
                        break;
                    }
                }
            },
            Some(signal) = signals.next() => heard = Some(signal),
            Some(answer) = answers.recv() => {
                tasks.answered(answer.id);
                effects.extend(shell.handle_answer(answer));
                while let Ok(answer) = answers.try_recv() {
                    tasks.answered(answer.id);
                    effects.extend(shell.handle_answer(answer));
                }
                dirty = true;
            }
            Some((id, notice)) = retries.recv() => {
                dirty |= shell.retrying(id, notice);
            }
            Some(ended) = exports.recv() => {
                tasks.export = None;
                shell.export_ended(ended);
                dirty = true;
            }
            Some(event) = imports.recv() => {
                match event {
                    ImportEvent::Checked(Ok(checked)) => {
                        shell.import_checked(Ok(import_check(&checked)));
                        tasks.checked_import = Some(checked);
                    }
                    ImportEvent::Checked(Err(why)) => shell.import_checked(Err(why.to_string())),
                    ImportEvent::Ended(ended) => {
                        tasks.import = None;
                        effects.extend(shell.import_ended(ended));
                    }
                }
                dirty = true;
            }
            _ = tick.tick() => {
                if let Some(export) = &tasks.export {
                    shell.export_progress(export.status());
                }
                if let Some(import) = &tasks.import {
                    shell.import_progress(import.status());
                }
                if let Some(snapshot) = &tasks.snapshot {
                    shell.snapshot_progress(snapshot.progress());
                }
                dirty |= shell.tick(&mut effects);
            }
        }
        if let Some(signal) = heard {
            if signal.ends() {
                tracing::info!(signal = signal.name(), "ending on a signal");
                ended = Ended::Signal(signal);
                break;
            }
            stop = Some(signal);
        }
        quit = tasks.carry_out(effects, platform, shell);
        if quit {
            break;
        }
        // A terminal that cannot be taken back or drawn on has gone away. A hang-up sends
        // SIGCONT beside SIGHUP, and either may be heard first.
        let shown = match stop {
            Some(Signal::Suspend) => platform.suspend().and_then(|()| redraw(terminal, shell)),
            Some(Signal::Continue) => platform.reenter().and_then(|()| redraw(terminal, shell)),
            _ if dirty => draw(terminal, shell),
            _ => Ok(()),
        };
        if let Err(e) = shown {
            tracing::warn!("cannot draw on the terminal: {e}");
            ended = Ended::TerminalGone;
            break;
        }
        // Let the runtime's timers and signals advance even when the events never stop.
        tokio::task::yield_now().await;
    }
    tasks.cancel_all();
    if let Some(export) = &tasks.export {
        export.token.cancel();
    }
    Ok(ended)
}

fn draw<B>(terminal: &mut Terminal<B>, shell: &mut Shell) -> io::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    terminal
        .draw(|frame| shell.draw(frame))
        .map(|_| ())
        .map_err(io::Error::other)
}

/// Draws everything again, at the terminal's current size: after a suspend, what was on screen
/// is gone.
fn redraw<B>(terminal: &mut Terminal<B>, shell: &mut Shell) -> io::Result<()>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    // A resize to the current size clears the screen and forgets the last frame, so the next
    // draw writes every cell (unlike `Terminal::clear`, it asks the terminal nothing).
    let size = terminal.size().map_err(io::Error::other)?;
    terminal
        .resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
        .map_err(io::Error::other)?;
    draw(terminal, shell)
}

#[cfg(test)]
mod tests;
