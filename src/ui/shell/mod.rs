//! The frame around the panes: header, tabs, footer, notices, overlays, and the routing of keys
//! and answers. Read-only mode is enforced here, once for every pane: write actions are refused
//! before a pane sees them, and a write call that gets through is answered with a failure
//! without being sent.

use crate::effect::OrganizationCall;
use std::collections::{BTreeMap, HashMap};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::keymap::{Action, Keymap};
use super::pane::{Ctx, HintKey, Level, Pane};
use super::theme::Theme;
use super::widgets::command_line::{CommandLine, CommandOutcome};
use super::widgets::confirm::{Confirm, ConfirmOutcome};
use super::widgets::flash::{Flash, FlashLevel, FlashLine, pointed_line};
use super::widgets::help::{Help, HelpOutcome, Hint, footer_line};
use super::widgets::messages::{MessageLog, MessagesView};

mod audit;
mod find;
mod jumps;
mod organizations;
mod record_history;
mod views;

use self::organizations::{ShellCall, command_line};
use crate::api::RetryNotice;
use crate::effect::{Answer, Call, Effect, Failure, FailureKind, Goto, RequestId};
use crate::history::AuditLog;
use crate::model::PageParams;
use crate::model::tenanted::{ApiVersion, Organization};

/// What the header tells about the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderInfo {
    pub profile: String,
    pub organization: String,
    /// The API generation, `v1`.
    pub generation: String,
    pub demo: bool,
    pub read_only: bool,
    /// Set when browsing a snapshot (`--offline`): when it was taken. Offline is read-only
    /// whatever `read_only` says.
    pub offline: Option<chrono::DateTime<chrono::Utc>>,
}

impl HeaderInfo {
    /// Why a change is refused: offline, or read-only mode.
    fn refusal(&self) -> &'static str {
        if self.offline.is_some() {
            "Offline: this is a snapshot; changes are turned off."
        } else {
            "Read-only mode: changes are turned off."
        }
    }
}

/// What the last answers said of the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Connection {
    Connecting,
    Connected,
    Trouble(String),
}

/// Answers in a row that cannot be read (HTML, a body cut short, a shape the interface does not
/// describe) before the header calls the connection trouble: one malformed list is that list's
/// problem, a service that answers nothing readable is the connection's.
const UNREADABLE_IN_A_ROW: u32 = 3;

/// Ticks a notice stays (at 100 ms a tick); errors stay twice as long.
const NOTICE_TICKS: u32 = 50;

/// What a feature of the Tenanted API says on a v1 profile.
pub const NEEDS_TENANTED: &str = "needs the Tenanted API: set api = \"tenanted\" in the profile";

/// Builds a fresh set of panes (after a switch of organization, every pane starts over).
pub type PaneFactory = Box<dyn Fn() -> Vec<Box<dyn Pane>> + Send>;

/// What covers the panes, if anything.
enum Overlay {
    Help(Help),
    Messages(MessagesView),
    Command,
    ConfirmQuit(Confirm),
    /// The report of a file checked for `:import`, asking whether to send its rows.
    ConfirmImport(Confirm),
    Find(find::FindView),
    Audit(Box<audit::AuditView>),
    RecordHistory(record_history::RecordHistoryView),
}
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The dashboard's frame and its panes.
pub struct Shell {
    panes: Vec<Box<dyn Pane>>,
    shown: Vec<bool>,
    focus: usize,
    keymap: Keymap,
    theme: Theme,
    header: HeaderInfo,
    connection: Connection,
    /// Answers that could not be read since the last readable one.
    unreadable: u32,
    waiting: HashMap<RequestId, (usize, String)>,
    /// The latest retry of each call under way that had to try again.
    retrying: HashMap<RequestId, RetryNotice>,
    next_id: u64,
    flash: FlashLine,
    /// Every message the flash line showed, for `:messages`.
    messages: MessageLog,
    overlay: Option<Overlay>,
    command_line: CommandLine,
    spinner: usize,
    quit: bool,
    log_path: Option<String>,
    /// The commands of the shell and the panes, before any that depend on the session.
    base_commands: Vec<String>,
    /// The Tenanted release the client speaks; `None` on v1.
    tenanted: Option<ApiVersion>,
    /// The organizations the key reaches (Tenanted), once listed.
    organizations: Vec<Organization>,
    /// The shell's own calls under way (the organizations list).
    #[allow(clippy::zero_sized_map_values)] // one kind of call today, named for the next
    own_calls: HashMap<RequestId, ShellCall>,
    pane_factory: Option<PaneFactory>,
    /// Where the last draw put each tab's label and the panes, for the mouse.
    tab_hits: Vec<Rect>,
    body: Rect,
    /// The export under way, as the status line tells it.
    export: Option<ExportStatus>,
    /// The import under way, as the status line tells it.
    import: Option<ImportStatus>,
    /// The pane whose `:import` was checked or is being sent: its list reloads when it ends.
    import_pane: Option<usize>,
    /// Saved views by pane and name, and the file they are kept in.
    views: views::Views,
    /// The focused pane's saved views, for the command line's completion.
    view_names: views::ViewNames,
    /// The columns the config file chose, by pane.
    columns: BTreeMap<String, Vec<String>>,
    /// The jump list and the jump prefix.
    jumps: jumps::Jumps,
    /// The number of the latest find: answers to older ones are dropped.
    find_generation: u64,
    /// The audit log the client writes to, for `:audit`.
    audit: Option<AuditLog>,
    /// The history database: a record's history (`H`) and the flags of changed rows.
    history: Option<crate::history::History>,
    /// How many snapshots of the profile and organization it held when read.
    snapshots: usize,
}

/// How far the import under way has come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportStatus {
    /// What is imported: `transactions`.
    pub what: String,
    /// Rows answered so far, of the rows to send.
    pub done: u64,
    pub total: u64,
}

/// A file checked for `:import`, as the shell shows it before asking to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCheck {
    pub resource: crate::import::ImportResource,
    /// The file, as shown.
    pub path: String,
    /// `3 rows of customers: 2 ready, 1 with problems (…)`.
    pub summary: String,
    /// Rows ready to send.
    pub ready: usize,
    /// Rows with problems (recorded as invalid when the others are sent).
    pub failing: usize,
    /// The file's own shape fails (a missing or unknown column): nothing can be sent.
    pub blocked: bool,
    /// The problems by column, most frequent first.
    pub by_column: Vec<(String, usize)>,
    /// Every problem, one line each (`row 3, column email, value "x": ...`).
    pub problems: Vec<String>,
}

/// How far the export under way has come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportStatus {
    /// What is exported: `transactions`.
    pub what: String,
    /// Where to.
    pub path: String,
    /// Rows read so far, and the total once the first page told it.
    pub done: u64,
    pub total: Option<u64>,
}

impl Shell {
    pub fn new(
        panes: Vec<Box<dyn Pane>>,
        keymap: Keymap,
        theme: Theme,
        mut header: HeaderInfo,
    ) -> Self {
        // A snapshot is never changed.
        header.read_only |= header.offline.is_some();
        let shown = vec![false; panes.len()];
        let mut commands: Vec<String> =
            ["quit", "help", "messages", "theme", "view", "find", "audit"]
                .iter()
                .map(|c| (*c).to_owned())
                .collect();
        for pane in &panes {
            commands.push(pane.title().to_lowercase());
            commands.extend(pane.commands().into_iter().map(str::to_owned));
        }
        commands.sort();
        commands.dedup();
        let view_names = views::ViewNames::default();
        let command_line = command_line(commands.clone(), Vec::new(), view_names.clone());
        Shell {
            panes,
            shown,
            focus: 0,
            keymap,
            theme,
            header,
            connection: Connection::Connecting,
            unreadable: 0,
            waiting: HashMap::new(),
            retrying: HashMap::new(),
            next_id: 0,
            flash: FlashLine::default(),
            messages: MessageLog::default(),
            overlay: None,
            command_line,
            spinner: 0,
            quit: false,
            log_path: None,
            base_commands: commands,
            tenanted: None,
            organizations: Vec::new(),
            #[allow(clippy::zero_sized_map_values)]
            own_calls: HashMap::new(),
            pane_factory: None,
            tab_hits: Vec::new(),
            body: Rect::default(),
            export: None,
            import: None,
            import_pane: None,
            views: views::Views::default(),
            view_names,
            columns: BTreeMap::new(),
            jumps: jumps::Jumps::default(),
            find_generation: 0,
            audit: None,
            history: None,
            snapshots: 0,
        }
    }

    /// The audit log the client records its writes in, shown by `:audit`.
    pub fn with_audit(mut self, log: AuditLog) -> Self {
        self.audit = Some(log);
        self
    }

    /// Reads records' histories and the rows changed since the previous snapshot from
    /// `history`, for the session's profile and organization.
    #[must_use]
    pub fn with_history(mut self, history: crate::history::History) -> Self {
        self.history = Some(history);
        self.mark_changed();
        self
    }

    /// Flags, in every pane, the records that differ between the two latest snapshots of the
    /// profile and organization (read at once: hashes compared in the database).
    fn mark_changed(&mut self) {
        let Some(history) = &self.history else {
            return;
        };
        let scope = (
            self.header.profile.as_str(),
            self.header.organization.as_str(),
        );
        self.snapshots = history.snapshots(Some(scope)).map_or(0, |runs| runs.len());
        let mut changed = super::pane::ChangedRecords::new();
        for &resource in crate::export::Resource::ALL {
            match history.changed_since_previous(scope, resource) {
                Ok(ids) if !ids.is_empty() => {
                    changed.insert(resource, std::sync::Arc::new(ids.into_iter().collect()));
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("cannot read the changed records: {e}");
                    return;
                }
            }
        }
        for pane in &mut self.panes {
            pane.mark_changed(&changed);
        }
    }

    /// Opens the history of the record the focused pane is on (`H`).
    fn open_record_history(&mut self) -> Vec<Effect> {
        let Some((resource, id)) = self.panes[self.focus].current_record() else {
            self.notify_error("No record here has a history: open one first.");
            return Vec::new();
        };
        let Some(history) = &self.history else {
            self.notify_error("No history database is open.");
            return Vec::new();
        };
        let scope = (
            self.header.profile.as_str(),
            self.header.organization.as_str(),
        );
        match record_history::RecordHistoryView::read(history, scope, resource, &id) {
            Ok(view) => self.overlay = Some(Overlay::RecordHistory(view)),
            Err(e) => self.notify_error(e),
        }
        Vec::new()
    }

    /// Opens on the tab titled `title` instead of the first (when there is one).
    pub fn open_on(mut self, title: &str) -> Self {
        if let Some(index) = self.panes.iter().position(|p| p.title() == title) {
            self.focus = index;
        }
        self
    }

    /// The header's facts as they stand (the organization changes with `:org`).
    pub fn header(&self) -> &HeaderInfo {
        &self.header
    }

    /// Where the log file is, for the help overlay.
    pub fn with_log_path(mut self, path: impl Into<String>) -> Self {
        self.log_path = Some(path.into());
        self
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Shows the first pane; returns what it asks for. On the Tenanted API the organizations
    /// the key reaches are listed too, for the header and `:org`.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.tenanted.is_some() {
            effects.push(self.own_call(
                ShellCall::Organizations,
                Call::Organizations(OrganizationCall::List {
                    page: PageParams::new(1, 100),
                }),
            ));
        }
        effects.extend(self.with_pane(self.focus, |pane, ctx| pane.show(ctx)));
        effects
    }

    pub fn notify_info(&mut self, text: impl Into<String>) {
        self.notify(Level::Info, text.into());
    }

    pub fn notify_error(&mut self, text: impl Into<String>) {
        self.notify(Level::Error, text.into());
    }

    fn notify(&mut self, level: Level, text: String) {
        let logged = match level {
            Level::Info => FlashLevel::Info,
            Level::Success => FlashLevel::Success,
            Level::Error => FlashLevel::Error,
        };
        self.messages.push_now(logged, text.clone());
        let flash = match level {
            Level::Info => Flash::info(text).with_ticks(NOTICE_TICKS),
            Level::Success => Flash::success(text).with_ticks(NOTICE_TICKS),
            Level::Error => Flash::error(text).with_ticks(NOTICE_TICKS * 2),
        };
        self.flash.show(flash);
    }

    /// Runs `f` on pane `index` with a context, then files what it asked for.
    fn with_pane(&mut self, index: usize, f: impl FnOnce(&mut dyn Pane, &mut Ctx)) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut notices = Vec::new();
        {
            let pane = self.panes[index].as_mut();
            let mut ctx = Ctx::new(
                &mut self.next_id,
                &mut effects,
                &mut notices,
                self.header.read_only,
            )
            .with_tenanted(self.tenanted)
            .with_keys(&self.keymap);
            f(pane, &mut ctx);
        }
        if let Some((level, text)) = notices.pop() {
            self.notify(level, text);
        }
        self.file_effects(index, effects)
    }

    /// Records which pane waits for which call, and refuses writes in read-only mode.
    fn file_effects(&mut self, pane: usize, effects: Vec<Effect>) -> Vec<Effect> {
        let mut out = Vec::new();
        let mut refused = Vec::new();
        let mut gotos = Vec::new();
        for effect in effects {
            match effect {
                Effect::Goto(goto) => gotos.push(goto),
                Effect::Import(_) if self.header.read_only => self.notify(
                    Level::Error,
                    "Read-only mode: nothing is imported. Start taxdash without --read-only to \
                     change records."
                        .into(),
                ),
                Effect::Import(_) if self.import.is_some() || self.import_pane.is_some() => self
                    .notify(
                        Level::Error,
                        "An import is under way: wait for it to end.".into(),
                    ),
                Effect::Import(import) => {
                    self.import_pane = Some(pane);
                    out.push(Effect::Import(import));
                }
                Effect::Call { id, call } if self.header.read_only && call.is_write() => {
                    refused.push(Answer {
                        id,
                        result: Err(Failure {
                            kind: FailureKind::ReadOnly,
                            message: if self.header.offline.is_some() {
                                "Offline: nothing was sent. A snapshot cannot be changed; start taxdash without --offline to change records."
                            } else {
                                "Read-only mode: nothing was sent. Start taxdash without --read-only to change records."
                            }
                            .into(),
                            fields: Vec::new(),
                        }),
                    });
                    self.waiting.insert(id, (pane, String::new()));
                }
                Effect::Call { id, ref call } => {
                    self.waiting.insert(id, (pane, call.describe()));
                    out.push(effect);
                }
                Effect::Cancel(id) => {
                    self.waiting.remove(&id);
                    self.retrying.remove(&id);
                    out.push(effect);
                }
                Effect::Quit => self.quit = true,
                other => out.push(other),
            }
        }
        for answer in refused {
            out.extend(self.handle_answer(answer));
        }
        for goto in gotos {
            out.extend(self.goto(&goto));
        }
        out
    }

    /// Shows the first tab that takes `goto`, its list filtered as asked. A tab holding unsaved
    /// input is left alone, and the user is told.
    fn goto(&mut self, goto: &Goto) -> Vec<Effect> {
        let from = self.spot();
        let mut effects = Vec::new();
        for index in 0..self.panes.len() {
            if self.panes[index].has_unsaved_input() {
                continue;
            }
            let mut taken = false;
            effects.extend(self.with_pane(index, |p, ctx| taken = p.goto(goto, ctx)));
            if taken {
                self.jumped_from(from);
                // What the pane that sent the user said (why the list holds more than was
                // counted) goes along: the tab is not switched with `focus_pane`, which clears it.
                self.focus = index;
                self.shown[index] = true;
                effects.extend(self.with_pane(index, |p, ctx| p.show(ctx)));
                return effects;
            }
        }
        let busy: Vec<&str> = self
            .panes
            .iter()
            .filter(|p| p.has_unsaved_input())
            .map(|p| p.title())
            .collect();
        let why = if busy.is_empty() {
            "No tab shows that list.".to_owned()
        } else {
            format!(
                "{} holds unsaved input: finish or cancel it there first.",
                busy.join(", ")
            )
        };
        self.notify_error(why);
        effects
    }

    /// Routes an answer to the pane that asked; answers nobody waits for are dropped.
    pub fn handle_answer(&mut self, answer: Answer) -> Vec<Effect> {
        if let Some(kind) = self.own_calls.remove(&answer.id) {
            return self.receive_own(kind, answer.result);
        }
        self.retrying.remove(&answer.id);
        let Some((pane, _)) = self.waiting.remove(&answer.id) else {
            return Vec::new();
        };
        let was_in_trouble = matches!(self.connection, Connection::Trouble(_));
        let unreadable = matches!(&answer.result, Err(f) if f.kind == FailureKind::Undecodable);
        self.unreadable = if unreadable { self.unreadable + 1 } else { 0 };
        match &answer.result {
            Err(f) if unreadable => {
                if self.unreadable >= UNREADABLE_IN_A_ROW {
                    self.trouble(f.message.clone());
                }
            }
            Err(f) if f.kind.is_connection() => self.trouble(f.message.clone()),
            Err(f) if f.kind == FailureKind::Unauthorized || f.kind == FailureKind::Forbidden => {
                self.trouble("the service refused the API key".into());
            }
            Ok(_) | Err(_) => self.connection = Connection::Connected,
        }
        let back = was_in_trouble && answer.result.is_ok();
        let Answer { id, result } = answer;
        let mut effects = self.with_pane(pane, |p, ctx| p.receive(id, result, ctx));
        if back {
            effects.extend(self.reconnected());
        }
        effects
    }

    /// A call under way tries again: the footer says so while the call's pane is focused.
    /// Returns whether anything visible changed (the call may have ended meanwhile).
    pub fn retrying(&mut self, id: RequestId, notice: RetryNotice) -> bool {
        if !self.waiting.contains_key(&id) {
            return false;
        }
        tracing::info!(id = id.0, "{}: {notice}", notice.what);
        self.retrying.insert(id, notice);
        true
    }

    /// The retry the footer tells of: the latest of the focused pane's calls.
    fn focused_retry(&self) -> Option<&RetryNotice> {
        self.retrying
            .iter()
            .filter(|(id, _)| self.waiting.get(id).is_some_and(|(p, _)| *p == self.focus))
            .max_by_key(|(id, _)| id.0)
            .map(|(_, notice)| notice)
    }

    /// `Esc` while the focused pane's calls are being tried again: every call of that pane
    /// under way is cancelled at once, and the pane hears that it was stopped (as a failure it
    /// can load again from).
    fn stop_waiting(&mut self) -> Vec<Effect> {
        let notice = self.focused_retry().cloned();
        let mut ids: Vec<RequestId> = self
            .waiting
            .iter()
            .filter(|(_, (p, _))| *p == self.focus)
            .map(|(id, _)| *id)
            .collect();
        ids.sort_by_key(|id| id.0);
        let made = notice.map_or(0, |n| n.attempt.saturating_sub(1));
        let mut effects = Vec::new();
        for id in ids {
            effects.push(Effect::Cancel(id));
            effects.extend(self.handle_answer(Answer {
                id,
                result: Err(Failure {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "Stopped waiting: the service did not answer ({} made).",
                        crate::ui::text::count(made, "attempt")
                    ),
                    fields: Vec::new(),
                }),
            }));
        }
        effects
    }

    /// The connection is in trouble for `why`, which the status line shows and `:messages`
    /// keeps (once, not for every answer that says the same).
    fn trouble(&mut self, why: String) {
        if !matches!(&self.connection, Connection::Trouble(was) if *was == why) {
            self.messages.push_now(FlashLevel::Error, why.clone());
        }
        self.connection = Connection::Trouble(why);
    }

    /// The service answers again: every pane shown so far whose last load failed loads again.
    fn reconnected(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        for index in 0..self.panes.len() {
            if self.shown[index] || index == self.focus {
                effects.extend(self.with_pane(index, |p, ctx| p.reconnected(ctx)));
            }
        }
        effects
    }

    /// Text pasted (a terminal's bracketed paste: one event, however long) goes to the text
    /// field that has the focus (the command line, a pane's form), cut to what the field keeps.
    /// Where no text field has the focus it is dropped, and none of its characters acts as a
    /// key: a pasted `q` quits nothing.
    pub fn handle_paste(&mut self, text: &str) -> Vec<Effect> {
        match self.overlay {
            Some(Overlay::Command) => {
                self.command_line.paste(text);
                return Vec::new();
            }
            None if self.panes[self.focus].captures_text() => {
                let mut took = false;
                let effects = self.with_pane(self.focus, |p, ctx| took = p.on_paste(text, ctx));
                if took {
                    return effects;
                }
            }
            // Another overlay (a question, the help) or a pane without a text field.
            _ => {}
        }
        self.notify(
            Level::Info,
            "Nothing pasted: no text field has the focus".into(),
        );
        Vec::new()
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        match self.overlay.take() {
            Some(Overlay::ConfirmQuit(mut confirm)) => {
                return match (ctrl_c, confirm.handle_key(key)) {
                    (true, _) | (_, ConfirmOutcome::Yes) => self.quit_now(),
                    (_, ConfirmOutcome::No) => Vec::new(),
                    (_, ConfirmOutcome::None) => {
                        self.overlay = Some(Overlay::ConfirmQuit(confirm));
                        Vec::new()
                    }
                };
            }
            Some(Overlay::ConfirmImport(mut confirm)) => {
                return match (ctrl_c, confirm.handle_key(key)) {
                    (false, ConfirmOutcome::Yes) => vec![Effect::SendImport],
                    (true, _) | (_, ConfirmOutcome::No) => {
                        self.import_pane = None;
                        self.notify(Level::Info, "Import not sent: nothing was sent.".into());
                        Vec::new()
                    }
                    (_, ConfirmOutcome::None) => {
                        self.overlay = Some(Overlay::ConfirmImport(confirm));
                        Vec::new()
                    }
                };
            }
            Some(Overlay::Help(mut help)) => {
                if help.handle_key(key) == HelpOutcome::None && !ctrl_c {
                    self.overlay = Some(Overlay::Help(help));
                }
                return if ctrl_c {
                    self.request_quit()
                } else {
                    Vec::new()
                };
            }
            Some(Overlay::RecordHistory(mut view)) => {
                if view.handle_key(key) == HelpOutcome::None && !ctrl_c {
                    self.overlay = Some(Overlay::RecordHistory(view));
                }
                return if ctrl_c {
                    self.request_quit()
                } else {
                    Vec::new()
                };
            }
            Some(Overlay::Messages(mut view)) => {
                if view.handle_key(key) == HelpOutcome::None && !ctrl_c {
                    self.overlay = Some(Overlay::Messages(view));
                }
                return if ctrl_c {
                    self.request_quit()
                } else {
                    Vec::new()
                };
            }
            Some(Overlay::Audit(mut view)) => {
                if ctrl_c {
                    return self.request_quit();
                }
                if view.handle_key(key) == audit::AuditOutcome::None {
                    self.overlay = Some(Overlay::Audit(view));
                }
                return Vec::new();
            }
            Some(Overlay::Find(mut view)) => {
                if ctrl_c {
                    return self.request_quit();
                }
                // Another find (or any command) from the results: this find ends.
                let action = self.keymap.action(&key);
                if matches!(action, Some(Action::Find | Action::CommandLine)) {
                    let effects = self.cancel_find();
                    self.command_line
                        .open_with(if action == Some(Action::Find) {
                            "find "
                        } else {
                            ""
                        });
                    self.overlay = Some(Overlay::Command);
                    return effects;
                }
                return match view.handle_key(key) {
                    find::FindOutcome::None => {
                        self.overlay = Some(Overlay::Find(view));
                        Vec::new()
                    }
                    find::FindOutcome::Close => self.cancel_find(),
                    find::FindOutcome::Go(goto) => {
                        let mut effects = self.cancel_find();
                        effects.extend(self.goto(&goto));
                        effects
                    }
                };
            }
            Some(Overlay::Command) => {
                return match self.command_line.handle_key(key) {
                    CommandOutcome::Submitted(text) => self.run_command(&text),
                    CommandOutcome::Cancelled => Vec::new(),
                    CommandOutcome::None => {
                        self.overlay = Some(Overlay::Command);
                        Vec::new()
                    }
                };
            }
            None => {}
        }
        if ctrl_c {
            return self.request_quit();
        }
        if key.code == KeyCode::Esc && self.focused_retry().is_some() {
            return self.stop_waiting();
        }
        if key.code == KeyCode::Esc
            && self.export.is_some()
            && !self.panes[self.focus].captures_text()
        {
            return vec![Effect::CancelExport];
        }
        if key.code == KeyCode::Esc
            && self.import.is_some()
            && !self.panes[self.focus].captures_text()
        {
            return vec![Effect::StopImport];
        }
        if self.panes[self.focus].captures_text() {
            return self.with_pane(self.focus, |p, ctx| p.on_key(key, ctx));
        }
        if self.jumps.pending() {
            return self.jump_key(key);
        }
        let Some(action) = self.keymap.action(&key) else {
            return Vec::new();
        };
        if action.is_write() && self.header.read_only {
            self.notify_error(self.header.refusal());
            return Vec::new();
        }
        match action {
            Action::Quit => self.request_quit(),
            Action::Help => {
                self.overlay = Some(Overlay::Help(self.help()));
                Vec::new()
            }
            Action::CommandLine => {
                self.view_names.set(
                    self.focused_view_names(),
                    self.panes[self.focus].column_names(),
                );
                self.command_line.open();
                self.overlay = Some(Overlay::Command);
                Vec::new()
            }
            Action::Jump => {
                self.start_jump();
                Vec::new()
            }
            Action::Find => {
                self.command_line.open_with("find ");
                self.overlay = Some(Overlay::Command);
                Vec::new()
            }
            Action::RecordHistory => self.open_record_history(),
            Action::JumpBack => self.jump_back(),
            Action::JumpForward => self.jump_forward(),
            Action::NextPane => self.focus_pane((self.focus + 1) % self.panes.len()),
            Action::PrevPane => {
                self.focus_pane((self.focus + self.panes.len() - 1) % self.panes.len())
            }
            Action::Pane(n) if (n as usize) <= self.panes.len() => self.focus_pane(n as usize - 1),
            action => self.with_pane(self.focus, |p, ctx| {
                p.on_action(action, ctx);
            }),
        }
    }

    /// An export started, or moved on: the status line says how far it has come.
    pub fn export_progress(&mut self, status: ExportStatus) {
        self.export = Some(status);
    }

    /// Whether an export is under way.
    pub fn exporting(&self) -> bool {
        self.export.is_some()
    }

    /// The export ended: `Ok` with what was written, `Err` with why not.
    pub fn export_ended(&mut self, result: Result<String, String>) {
        self.export = None;
        match result {
            Ok(done) => self.notify(Level::Success, done),
            Err(why) => self.notify(Level::Error, why),
        }
    }

    /// A file for `:import` was read and checked: the report, and the question whether to
    /// send the rows that pass; or, when none can be sent, why not (every problem goes to
    /// `:messages`).
    pub fn import_checked(&mut self, checked: Result<ImportCheck, String>) {
        let check = match checked {
            Ok(check) => check,
            Err(why) => {
                self.import_pane = None;
                self.notify(Level::Error, why);
                return;
            }
        };
        for problem in &check.problems {
            self.messages.push_now(FlashLevel::Error, problem.clone());
        }
        if check.blocked || check.ready == 0 {
            self.import_pane = None;
            self.notify(
                Level::Error,
                format!(
                    "Nothing to send from {}: {}. :messages lists the problems.",
                    check.path, check.summary
                ),
            );
            return;
        }
        self.overlay = Some(Overlay::ConfirmImport(
            Confirm::new(import_report(&check), false)
                .with_title(format!("Import {}", check.resource)),
        ));
    }

    /// An import started sending, or moved on: the status line says how far it has come.
    pub fn import_progress(&mut self, status: ImportStatus) {
        self.import = Some(status);
    }

    /// The import ended: `Ok` with what was done, `Err` with why it stopped. The list it was
    /// imported into reloads.
    pub fn import_ended(&mut self, result: Result<String, String>) -> Vec<Effect> {
        self.import = None;
        match result {
            Ok(done) => self.notify(Level::Success, done),
            Err(why) => self.notify(Level::Error, why),
        }
        match self.import_pane.take() {
            Some(pane) if pane < self.panes.len() => self.with_pane(pane, |p, ctx| {
                p.command("refresh", &[], ctx);
            }),
            _ => Vec::new(),
        }
    }

    /// Handles one mouse event: a click on a tab shows it, a click in the pane goes to the pane
    /// (a row, a tile, a column's header, a dialog's button), a click on the quit question's
    /// buttons answers it, and the wheel scrolls whatever is on screen, three rows a notch.
    pub fn handle_mouse(&mut self, mouse: MouseEvent) -> Vec<Effect> {
        let scroll = match mouse.kind {
            MouseEventKind::ScrollDown => Some(KeyCode::Down),
            MouseEventKind::ScrollUp => Some(KeyCode::Up),
            MouseEventKind::Down(MouseButton::Left) => None,
            _ => return Vec::new(),
        };
        let (column, row) = (mouse.column, mouse.row);
        if let Some(code) = scroll {
            return self.scroll(code);
        }
        match self.overlay.take() {
            Some(Overlay::ConfirmQuit(confirm)) => {
                return match confirm.click(self.body, column, row) {
                    ConfirmOutcome::Yes => self.quit_now(),
                    ConfirmOutcome::No => Vec::new(),
                    ConfirmOutcome::None => {
                        self.overlay = Some(Overlay::ConfirmQuit(confirm));
                        Vec::new()
                    }
                };
            }
            Some(Overlay::ConfirmImport(confirm)) => {
                return match confirm.click(self.body, column, row) {
                    ConfirmOutcome::Yes => vec![Effect::SendImport],
                    ConfirmOutcome::No => {
                        self.import_pane = None;
                        self.notify(Level::Info, "Import not sent: nothing was sent.".into());
                        Vec::new()
                    }
                    ConfirmOutcome::None => {
                        self.overlay = Some(Overlay::ConfirmImport(confirm));
                        Vec::new()
                    }
                };
            }
            Some(other) => {
                // A click elsewhere leaves the help, the messages and the command line open.
                self.overlay = Some(other);
                return Vec::new();
            }
            None => {}
        }
        let position = ratatui::layout::Position::new(column, row);
        if let Some(index) = self.tab_hits.iter().position(|r| r.contains(position)) {
            return self.focus_pane(index);
        }
        if self.body.contains(position) {
            return self.with_pane(self.focus, |p, ctx| {
                p.on_click(column, row, ctx);
            });
        }
        Vec::new()
    }

    /// A notch of the wheel: three rows up or down, in the overlay on top or the pane.
    fn scroll(&mut self, code: KeyCode) -> Vec<Effect> {
        const ROWS: usize = 3;
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        match &mut self.overlay {
            Some(Overlay::Help(help)) => {
                for _ in 0..ROWS {
                    help.handle_key(key);
                }
                return Vec::new();
            }
            Some(Overlay::Messages(view)) => {
                for _ in 0..ROWS {
                    view.handle_key(key);
                }
                return Vec::new();
            }
            Some(Overlay::RecordHistory(view)) => {
                for _ in 0..ROWS {
                    view.handle_key(key);
                }
                return Vec::new();
            }
            Some(_) => return Vec::new(),
            None => {}
        }
        if self.panes[self.focus].captures_text() {
            return Vec::new();
        }
        let action = if code == KeyCode::Down {
            Action::Down
        } else {
            Action::Up
        };
        self.with_pane(self.focus, |p, ctx| {
            for _ in 0..ROWS {
                p.on_action(action, ctx);
            }
        })
    }

    /// Quits, after asking when a pane holds unsaved input.
    fn request_quit(&mut self) -> Vec<Effect> {
        if self.panes.iter().any(|p| p.has_unsaved_input()) {
            self.overlay = Some(Overlay::ConfirmQuit(
                Confirm::new("You have unsaved input. Quit and discard it?", false)
                    .with_title("Quit"),
            ));
            return Vec::new();
        }
        self.quit_now()
    }

    fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }

    /// Runs a `:` command: the shell's own (`quit`, `help`, `messages`, `theme NAME`, a pane's
    /// name), else
    /// the focused pane's.
    fn run_command(&mut self, text: &str) -> Vec<Effect> {
        let mut words = text.split_whitespace();
        let Some(name) = words.next() else {
            return Vec::new();
        };
        let args: Vec<&str> = words.collect();
        let name = name.to_lowercase();
        match name.as_str() {
            "q" | "quit" => return self.request_quit(),
            "help" => {
                self.overlay = Some(Overlay::Help(self.help()));
                return Vec::new();
            }
            "messages" => {
                self.overlay = Some(Overlay::Messages(MessagesView::new(&self.messages)));
                return Vec::new();
            }
            "audit" => {
                match &self.audit {
                    Some(log) => {
                        self.overlay =
                            Some(Overlay::Audit(Box::new(audit::AuditView::new(log.clone()))));
                    }
                    None => self.notify_error(
                        "No audit log: the history database could not be opened (see :messages).",
                    ),
                }
                return Vec::new();
            }
            "org" => return self.org_command(&args),
            "view" => return self.view_command(&args),
            "find" => return self.find(&args.join(" ")),
            "theme" => {
                return if let Some(theme) = args.first() {
                    vec![Effect::Theme((*theme).to_owned())]
                } else {
                    self.notify_error(format!(
                        "Usage: :theme NAME ({})",
                        Theme::available(None).join(", ")
                    ));
                    Vec::new()
                };
            }
            _ => {}
        }
        if let Some(index) = self
            .panes
            .iter()
            .position(|p| p.title().to_lowercase() == name)
        {
            return self.focus_pane(index);
        }
        let mut known = false;
        let effects = self.with_pane(self.focus, |p, ctx| known = p.command(&name, &args, ctx));
        if !known {
            self.notify_error(format!(
                "Unknown command :{name}. Tab completes the commands there are."
            ));
        }
        effects
    }

    /// The `?` overlay: every live binding of the focused pane and the shell, and the log file.
    fn help(&self) -> Help {
        let pane = self.panes[self.focus].title().to_owned();
        let shown = self.pane_hints();
        let verbs = crate::ui::skeleton::verbs::help_lines(
            &self.panes[self.focus].verbs(),
            &shown,
            &self.keymap,
            self.header.read_only,
        );
        let mut hints: Vec<Hint> = shown
            .into_iter()
            .map(|(keys, label)| (keys, label.to_owned()))
            .chain(verbs)
            .map(|(keys, label)| Hint::new(keys, label, pane.clone()))
            .collect();
        let global = [
            (Action::Up, "up"),
            (Action::Down, "down"),
            (Action::Top, "first row"),
            (
                Action::Jump,
                "jump: a letter below, or again for the first row",
            ),
            (
                Action::Find,
                "find an id, an external id or text (:find TEXT)",
            ),
            (
                Action::RecordHistory,
                "the record's history across the stored snapshots",
            ),
            (Action::JumpBack, "back where the last jump left"),
            (Action::JumpForward, "forward again (ctrl-i: where not tab)"),
            (Action::Bottom, "last row"),
            (Action::PageUp, "page up"),
            (Action::PageDown, "page down"),
            (Action::NextPane, "next tab"),
            (Action::PrevPane, "previous tab"),
            (
                Action::CommandLine,
                "command line (:messages, :theme, :quit, pane names)",
            ),
            (Action::Help, "this help"),
            (Action::Quit, "quit"),
        ];
        for (action, label) in global {
            hints.push(Hint::new(self.keymap.keys_for(action), label, "Everywhere"));
        }
        hints.push(Hint::new(
            ":messages",
            "the last messages, whole, with their times",
            "Everywhere",
        ));
        hints.push(Hint::new(
            ":audit",
            "every change sent: r resource, o outcome, Enter one",
            "Everywhere",
        ));
        for (keys, label) in [
            (":export", "csv, json or jsonl [FILE]: the list as shown"),
            (":view", "save NAME keeps filter and sort; NAME shows it"),
            (":columns", "the list's columns; NAME shows or hides one"),
            ("mouse", "click a tab, a row, a header; the wheel scrolls"),
        ] {
            hints.push(Hint::new(keys, label, "Lists"));
        }
        if !self.header.read_only && self.panes[self.focus].commands().contains(&"import") {
            hints.push(Hint::new(
                ":import",
                "FILE: check a CSV, JSON or JSONL file, then send its rows",
                "Lists",
            ));
        }
        let jump = self.keymap.keys_for(Action::Jump);
        for relation in self.panes[self.focus].relations() {
            hints.push(Hint::new(
                format!("{jump} {}", relation.key),
                relation.label,
                "Jumps from this record",
            ));
        }
        for (i, p) in self.panes.iter().enumerate() {
            hints.push(Hint::new((i + 1).to_string(), p.title().to_owned(), "Tabs"));
        }
        hints.extend(
            crate::ui::widgets::line_edit::KEYS
                .iter()
                .map(|(keys, label)| Hint::new(*keys, *label, "Text fields")),
        );
        let mut extra = Vec::new();
        if let Some(path) = &self.log_path {
            extra.push(format!("Log file: {path}"));
        }
        if self.header.read_only {
            extra.push(self.header.refusal().into());
        }
        if !self.focused_view_names().is_empty() {
            extra.push(self.views_said());
        }
        if self.organizations.len() > 1 {
            extra.push(format!(
                "Acting on {}; :org ID switches to another organization the key reaches.",
                self.organization_label()
            ));
        }
        Help::new(hints, extra)
    }

    fn focus_pane(&mut self, index: usize) -> Vec<Effect> {
        if index >= self.panes.len() {
            return Vec::new();
        }
        if index != self.focus {
            // A message about one pane does not follow the user to another.
            self.flash.clear();
        }
        self.focus = index;
        self.shown[index] = true;
        self.with_pane(index, |p, ctx| p.show(ctx))
    }

    /// Advances the spinner and notices; returns whether the screen changed.
    /// Advances the flash line, the spinner and every pane by one tick; the calls the panes ask
    /// for are added to `effects`. Returns whether anything visible changed.
    pub fn tick(&mut self, effects: &mut Vec<Effect>) -> bool {
        let mut changed = self.flash.tick();
        if self.export.is_some() || self.waiting.values().any(|(p, _)| *p == self.focus) {
            self.spinner = (self.spinner + 1) % SPINNER.len();
            changed = true;
        }
        for index in 0..self.panes.len() {
            let mut ticked = false;
            let asked = self.with_pane(index, |pane, ctx| ticked = pane.tick(ctx));
            effects.extend(asked);
            changed |= ticked;
        }
        changed
    }

    /// The footer's hints: the focused pane's, then the shell's, with their live keys.
    pub fn hints(&self) -> Vec<(String, &'static str)> {
        let mut hints = if self.jumps.pending() {
            self.jump_hints()
        } else {
            self.pane_hints()
        };
        hints.extend(self.shell_hints());
        hints
    }

    /// The shell's own footer hints (command line, help, quit), which the footer always keeps;
    /// none while the focused pane takes typed text.
    fn shell_hints(&self) -> Vec<(String, &'static str)> {
        if self.panes[self.focus].captures_text() {
            return Vec::new();
        }
        [
            (Action::CommandLine, "command"),
            (Action::Help, "help"),
            (Action::Quit, "quit"),
        ]
        .into_iter()
        .map(|(action, label)| (self.keymap.keys_for(action), label))
        .filter(|(keys, _)| !keys.is_empty())
        .collect()
    }

    /// The focused pane's hints with their live keys, writes left out in read-only mode.
    fn pane_hints(&self) -> Vec<(String, &'static str)> {
        let mut hints: Vec<(String, &'static str)> = self.panes[self.focus]
            .hints()
            .into_iter()
            .filter(|h| !(self.header.read_only && h.is_write()))
            .map(|h| {
                let keys = match h.key {
                    HintKey::Action(a) => self.keymap.keys_for(a),
                    HintKey::Keys(k) => k.to_owned(),
                };
                (keys, h.label)
            })
            .filter(|(keys, _)| !keys.is_empty())
            .collect();
        // A record's history, once there are snapshots to show it from.
        if self.snapshots > 0 && self.panes[self.focus].current_record().is_some() {
            let keys = self.keymap.keys_for(Action::RecordHistory);
            if !keys.is_empty() {
                hints.push((keys, "history"));
            }
        }
        hints
    }

    pub fn draw(&mut self, frame: &mut Frame) {
        let [header, tabs, body, status, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        // The theme's background under everything: its colours were chosen for it.
        let whole = frame.area();
        frame.buffer_mut().set_style(whole, self.theme.base);
        frame.render_widget(
            Paragraph::new(self.header_line()).style(self.theme.header),
            header,
        );
        frame.render_widget(Paragraph::new(self.tabs_line(tabs.width)), tabs);
        self.tab_hits = self.tab_areas(tabs);
        self.body = body;
        let theme = self.theme.clone();
        self.panes[self.focus].draw(frame, body, &theme, &self.keymap, true);
        if self.flash.current().is_some() {
            self.flash.render(status, frame.buffer_mut(), &theme);
        } else {
            frame.render_widget(Paragraph::new(self.status_line(status.width)), status);
        }
        if let Some(Overlay::Command) = &mut self.overlay {
            self.command_line.render(footer, frame.buffer_mut(), &theme);
        } else if let Some(notice) = self.focused_retry() {
            let line = Line::from(vec![
                Span::styled(format!(" {notice}"), theme.warning),
                Span::styled("  Esc", theme.key),
                Span::styled(" stop waiting", theme.muted),
            ]);
            frame.render_widget(Paragraph::new(line), footer);
        } else {
            let hints: Vec<Hint> = self
                .hints()
                .into_iter()
                .map(|(k, l)| Hint::new(k, l, ""))
                .collect();
            let kept = self.shell_hints().len();
            let line = footer_line(&hints, kept, footer.width.saturating_sub(1), &theme);
            let indented = Rect {
                x: footer.x + 1,
                width: footer.width.saturating_sub(1),
                ..footer
            };
            frame.render_widget(Paragraph::new(line), indented);
        }
        match &mut self.overlay {
            Some(Overlay::Help(help)) => help.render(body, frame.buffer_mut(), &theme),
            Some(Overlay::Messages(view)) => view.render(body, frame.buffer_mut(), &theme),
            Some(Overlay::ConfirmQuit(confirm) | Overlay::ConfirmImport(confirm)) => {
                confirm.render(body, frame.buffer_mut(), &theme);
            }
            Some(Overlay::RecordHistory(view)) => view.render(body, frame.buffer_mut(), &theme),
            Some(Overlay::Find(view)) => view.render(body, frame.buffer_mut(), &theme),
            Some(Overlay::Audit(view)) => view.render(body, frame.buffer_mut(), &theme),
            _ => {}
        }
    }

    fn header_line(&self) -> Line<'static> {
        let h = &self.header;
        if let Some(taken) = h.offline {
            // What is browsed comes first, so that a narrow terminal still shows it; there is no
            // connection to tell of.
            let mut spans = vec![
                Span::styled(
                    " taxdash ",
                    self.theme
                        .header
                        .add_modifier(ratatui::style::Modifier::BOLD),
                ),
                Span::raw(" "),
                Span::styled(" OFFLINE ", self.theme.badge_read_only),
                Span::raw(format!(" snapshot {} ", crate::ui::text::utc_time(taken))),
                Span::raw(format!("│ profile {} ", h.profile)),
                Span::raw(format!("│ org {} ", self.organization_label())),
                Span::raw(format!("│ API {} ", h.generation)),
            ];
            if h.demo {
                spans.push(Span::styled(" DEMO ", self.theme.badge_demo));
            }
            return Line::from(spans);
        }
        let mut spans = vec![
            Span::styled(
                " taxdash ",
                self.theme
                    .header
                    .add_modifier(ratatui::style::Modifier::BOLD),
            ),
            Span::raw(format!(" profile {} ", h.profile)),
            Span::raw(format!("│ org {} ", self.organization_label())),
            Span::raw(format!("│ API {} ", h.generation)),
        ];
        if h.demo {
            spans.push(Span::styled(" DEMO ", self.theme.badge_demo));
            spans.push(Span::raw(" "));
        }
        if h.read_only {
            spans.push(Span::styled(" READ-ONLY ", self.theme.badge_read_only));
            spans.push(Span::raw(" "));
        }
        spans.push(Span::raw(match &self.connection {
            Connection::Connecting => "│ ○ connecting".to_owned(),
            Connection::Connected => "│ ● connected".to_owned(),
            Connection::Trouble(_) => "│ ✕ connection trouble".to_owned(),
        }));
        Line::from(spans)
    }

    /// The tab bar in `width` cells. Every tab in full when they all fit; else the selected tab
    /// in full and the others as their number and first three letters (`2 Nex`); else the
    /// others as their number only; else every tab as its number. So a tab is never cut where
    /// the edge happens to fall.
    fn tabs_line(&self, width: u16) -> Line<'static> {
        let titles: Vec<String> = self.panes.iter().map(|p| p.title().to_owned()).collect();
        let (labels, gap) = tab_labels(&titles, self.focus, usize::from(width));
        let gap = " ".repeat(gap);
        let mut spans = vec![Span::raw(" ")];
        for (i, label) in labels.into_iter().enumerate() {
            let style = if i == self.focus {
                self.theme.tab_active
            } else {
                self.theme.tab
            };
            if i > 0 {
                spans.push(Span::raw(gap.clone()));
            }
            spans.push(Span::styled(label, style));
        }
        Line::from(spans)
    }

    /// Where each tab's label is in the tab bar `area` (as [`Shell::tabs_line`] draws it).
    fn tab_areas(&self, area: Rect) -> Vec<Rect> {
        use unicode_width::UnicodeWidthStr;
        let titles: Vec<String> = self.panes.iter().map(|p| p.title().to_owned()).collect();
        let (labels, gap) = tab_labels(&titles, self.focus, usize::from(area.width));
        let mut x = area.x.saturating_add(1);
        let mut areas = Vec::with_capacity(labels.len());
        for label in labels {
            let width = u16::try_from(label.width()).unwrap_or(u16::MAX);
            let visible = Rect::new(x, area.y, width, 1).intersection(area);
            areas.push(visible);
            x = x
                .saturating_add(width)
                .saturating_add(u16::try_from(gap).unwrap_or(u16::MAX));
        }
        areas
    }

    /// What is under way on the focused pane, else the connection's trouble (cut to `width`,
    /// pointing to `:messages` when too long).
    fn status_line(&self, width: u16) -> Line<'static> {
        if let Some(import) = &self.import {
            let text = format!(
                " {} importing {}: {} of {} rows sent  Esc stops",
                SPINNER[self.spinner],
                import.what,
                crate::ui::text::thousands(import.done),
                crate::ui::text::thousands(import.total)
            );
            return Line::from(Span::styled(
                crate::ui::text::truncate(&text, usize::from(width)).into_owned(),
                self.theme.muted,
            ));
        }
        if let Some(export) = &self.export {
            let counted = match export.total {
                Some(total) => format!(
                    "{} of {} rows",
                    crate::ui::text::thousands(export.done),
                    crate::ui::text::thousands(total)
                ),
                None => "waiting for the first page".to_owned(),
            };
            let text = format!(
                " {} exporting {}: {counted} → {}  Esc cancels",
                SPINNER[self.spinner], export.what, export.path
            );
            return Line::from(Span::styled(
                crate::ui::text::truncate(&text, usize::from(width)).into_owned(),
                self.theme.muted,
            ));
        }
        let loading: Vec<&str> = self
            .waiting
            .values()
            .filter(|(p, what)| *p == self.focus && !what.is_empty())
            .map(|(_, w)| w.as_str())
            .collect();
        if let Some(what) = loading.first() {
            return Line::from(Span::styled(
                format!(" {} {what}…", SPINNER[self.spinner]),
                self.theme.muted,
            ));
        }
        if let Connection::Trouble(why) = &self.connection {
            return pointed_line(
                &format!(" {why}"),
                usize::from(width),
                self.theme.warning,
                &self.theme,
            );
        }
        Line::default()
    }
}

/// How a tab is named in the tab bar.
#[derive(Debug, Clone, Copy)]
enum TabForm {
    /// `5 Transactions`
    Full,
    /// `5 Tra`
    Short,
    /// `5`
    Number,
}

impl TabForm {
    fn label(self, index: usize, title: &str) -> String {
        match self {
            TabForm::Full => format!("{} {title}", index + 1),
            TabForm::Short => {
                let letters: String = title.chars().take(3).collect();
                format!("{} {letters}", index + 1)
            }
            TabForm::Number => (index + 1).to_string(),
        }
    }
}

/// The tabs' labels for a bar `width` cells wide (see [`Shell::tabs_line`]): the first of the
/// four forms that fits, each applied to every tab alike, and the spaces between tabs.
fn tab_labels(titles: &[String], focus: usize, width: usize) -> (Vec<String>, usize) {
    use unicode_width::UnicodeWidthStr;
    // The selected tab's form, the others', and the gap.
    let forms = [
        (TabForm::Full, TabForm::Full, 3),
        (TabForm::Full, TabForm::Short, 2),
        (TabForm::Full, TabForm::Number, 2),
        (TabForm::Number, TabForm::Number, 2),
    ];
    let mut labels = (Vec::new(), 2);
    for (selected, other, gap) in forms {
        let these: Vec<String> = titles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let form = if i == focus { selected } else { other };
                form.label(i, t)
            })
            .collect();
        let used: usize = 1
            + these.iter().map(|l| l.width()).sum::<usize>()
            + gap * these.len().saturating_sub(1);
        labels = (these, gap);
        if used <= width {
            break;
        }
    }
    labels
}

/// The `:import` question: the file, what its rows came to, the problems by column and the
/// first few, and what sending does.
fn import_report(check: &ImportCheck) -> String {
    use std::fmt::Write as _;
    const SHOWN: usize = 3;
    let mut text = format!("{}\n{}", check.path, check.summary);
    if !check.by_column.is_empty() {
        text.push_str("\n\nProblems by column:");
        for (column, n) in check.by_column.iter().take(SHOWN) {
            let _ = write!(text, "\n  {column}: {n}");
        }
        if check.by_column.len() > SHOWN {
            let _ = write!(
                text,
                "\n  and {} columns more",
                check.by_column.len() - SHOWN
            );
        }
        text.push('\n');
        for problem in check.problems.iter().take(SHOWN) {
            let _ = write!(text, "\n{problem}");
        }
        if check.problems.len() > SHOWN {
            let _ = write!(text, "\n(all {} in :messages)", check.problems.len());
        }
    }
    let rows = if check.ready == 1 { "row" } else { "rows" };
    if check.failing > 0 {
        let _ = write!(
            text,
            "\n\nSend the {} {rows} that pass? The others are recorded as invalid in the \
             results file.",
            check.ready
        );
    } else {
        let _ = write!(text, "\n\nSend the {} {rows}?", check.ready);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::tab_labels;

    /// A shell of the profile `work` on `orgn_acme`, on a snapshot taken at `offline` if given.
    fn shell(offline: Option<chrono::DateTime<chrono::Utc>>) -> super::Shell {
        let header = super::HeaderInfo {
            profile: "work".into(),
            organization: "orgn_acme".into(),
            generation: "v1".into(),
            demo: false,
            read_only: false,
            offline,
        };
        super::Shell::new(
            crate::ui::panes::all(),
            crate::ui::keymap::Keymap::default(),
            crate::ui::theme::Theme::default(),
            header,
        )
    }

    /// The header line's text.
    fn header_text(shell: &super::Shell) -> String {
        shell
            .header_line()
            .spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect()
    }

    #[test]
    fn offline_leads_the_header_with_the_snapshots_time_and_is_read_only() {
        let taken = chrono::NaiveDate::from_ymd_opt(2026, 11, 20)
            .unwrap()
            .and_hms_opt(9, 30, 0)
            .unwrap()
            .and_utc();
        let shell = shell(Some(taken));
        assert!(shell.header().read_only, "a snapshot is never changed");
        let line = header_text(&shell);
        let first: String = line.chars().take(49).collect();
        assert_eq!(first, " taxdash   OFFLINE  snapshot 2026-11-20 09:30 UTC");
        assert!(line.contains("profile work │ org orgn_acme"), "{line}");
        assert!(!line.contains("connect"), "{line}");
    }

    /// The header once every call the shell starts with is answered with a failure of `kind`.
    fn header_after(kind: crate::effect::FailureKind) -> String {
        use crate::effect::{Answer, Effect, Failure};
        let mut shell = shell(None);
        let ids: Vec<_> = shell
            .start()
            .into_iter()
            .filter_map(|e| match e {
                Effect::Call { id, .. } => Some(id),
                _ => None,
            })
            .collect();
        assert!(ids.len() >= 3, "the overview asks for its tiles: {ids:?}");
        for id in ids {
            let failure = Failure {
                kind,
                message: "The service's answer to GET /v1/nexus could not be read".into(),
                fields: Vec::new(),
            };
            shell.handle_answer(Answer {
                id,
                result: Err(failure),
            });
        }
        header_text(&shell)
    }

    #[test]
    fn a_service_that_answers_nothing_readable_is_connection_trouble() {
        use crate::effect::FailureKind;
        let header = header_after(FailureKind::Undecodable);
        assert!(header.ends_with("✕ connection trouble"), "{header}");
        let header = header_after(FailureKind::NotFound);
        assert!(
            header.ends_with("● connected"),
            "readable refusals: {header}"
        );
    }

    fn titles() -> Vec<String> {
        [
            "Registrations",
            "Nexus",
            "Exemptions",
            "Customers",
            "Transactions",
            "Filings",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    #[test]
    fn tabs_shorten_one_way_for_all() {
        let (labels, gap) = tab_labels(&titles(), 5, 200);
        assert_eq!(labels[0], "1 Registrations");
        assert_eq!((labels[5].as_str(), gap), ("6 Filings", 3));
        // Too narrow for every title: the selected one in full, the others by three letters.
        let (labels, gap) = tab_labels(&titles(), 5, 80);
        assert_eq!(
            labels,
            ["1 Reg", "2 Nex", "3 Exe", "4 Cus", "5 Tra", "6 Filings"]
        );
        assert_eq!(gap, 2);
        // Narrower: numbers for the others; then numbers only.
        let (labels, _) = tab_labels(&titles(), 0, 32);
        assert_eq!(labels, ["1 Registrations", "2", "3", "4", "5", "6"]);
        let (labels, _) = tab_labels(&titles(), 0, 20);
        assert_eq!(labels, ["1", "2", "3", "4", "5", "6"]);
        // The same width gives the same form whichever tab is selected.
        for focus in 0..6 {
            let (labels, _) = tab_labels(&titles(), focus, 80);
            for (i, label) in labels.iter().enumerate() {
                assert_eq!(label.len() > 5, i == focus && titles()[i].len() > 3);
            }
        }
    }
}
