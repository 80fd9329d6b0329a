//! The frame around the panes: header, tabs, footer, notices, overlays, and the routing of keys
//! and answers. Read-only mode is enforced here, once for every pane: write actions are refused
//! before a pane sees them, and a write call that gets through is answered with a failure
//! without being sent.
//!
//! The shell's parts, by file:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the [`Shell`], its parts, and running a pane with a context |
//! | `keys.rs` | keys, pastes and the mouse: to the overlay on top, else the shell's own, else the pane |
//! | `layers.rs` | the overlays as a stack of layers, and what they ask of the shell |
//! | `overlays.rs` | the simple overlays: the help, the messages, the questions, the command line |
//! | `calls.rs` | the calls under way: filing them, routing answers, retries, the connection |
//! | `commands.rs` | the `:` command line and its commands |
//! | `hints.rs` | what the footer and `?` say of the keys |
//! | `chrome.rs` | drawing: header, tabs, status line, footer |
//! | `work.rs` | the export and the import under way |
//! | `snapshot.rs` | `:snapshot`: the snapshot under way, and what it stored |
//! | `find.rs`, `audit.rs`, `record_history.rs` | the overlays that read something |
//! | `jumps.rs`, `views.rs`, `organizations.rs` | jumps, saved views, the Tenanted organizations |

use ratatui::layout::Rect;

use super::keymap::Keymap;
use super::pane::{Ctx, Level, Pane};
use super::theme::Theme;
use super::widgets::flash::{Flash, FlashLevel, FlashLine};
use super::widgets::messages::MessageLog;

mod audit;
mod calls;
mod chrome;
mod commands;
mod find;
mod hints;
mod jumps;
mod keys;
mod layers;
mod organizations;
mod overlays;
mod record_history;
mod snapshot;
mod views;
mod work;

pub use self::work::{ExportStatus, ImportCheck, ImportStatus};
use crate::effect::{Effect, HistoryCall, RequestId};
use crate::model::retry::RetryNotice;
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Connection {
    #[default]
    Connecting,
    Connected,
    Trouble(String),
}

/// Ticks a notice stays (at 100 ms a tick); errors stay twice as long.
const NOTICE_TICKS: u32 = 50;

/// How often (in ticks of the runtime's 100 ms) the history is read again for the rows changed
/// since the previous snapshot: a minute.
pub const FOLLOW_HISTORY_TICKS: u64 = 600;

/// What a feature of the Tenanted API says on a v1 profile.
pub const NEEDS_TENANTED: &str = "needs the Tenanted API: set api = \"tenanted\" in the profile";

/// Builds a fresh set of panes (after a switch of organization, every pane starts over).
pub type PaneFactory = Box<dyn Fn() -> Vec<Box<dyn Pane>> + Send>;

/// The dashboard's frame and its panes.
pub struct Shell {
    tabs: Tabs,
    session: SessionFacts,
    calls: calls::Calls,
    notices: Notices,
    /// The overlays over the panes, bottom first: the top one has the keys.
    layers: Vec<Box<dyn layers::ShellLayer>>,
    commands: commands::Commands,
    work: work::Work,
    views: views::Views,
    jumps: jumps::Jumps,
    keymap: Keymap,
    theme: Theme,
    /// Where the last draw put each tab's label and the panes, for the mouse.
    hits: Hits,
    quit: bool,
}

/// The panes, one a tab, and which has the focus.
struct Tabs {
    panes: Vec<Box<dyn Pane>>,
    /// Which panes were shown since they were built (they load again on reconnection).
    shown: Vec<bool>,
    focus: usize,
    /// Where fresh panes come from when the organization changes.
    factory: Option<PaneFactory>,
}

/// What the shell knows of the session: the header's facts and what was learnt since.
struct SessionFacts {
    header: HeaderInfo,
    /// The Tenanted release the client speaks; `None` on v1.
    tenanted: Option<ApiVersion>,
    /// The organizations the key reaches (Tenanted), once listed.
    organizations: Vec<Organization>,
    /// Where the log file is, for the help.
    log_path: Option<String>,
    /// How many snapshots of the profile and organization the history database held when read.
    snapshots: usize,
    /// Ticks since the start (see [`FOLLOW_HISTORY_TICKS`]).
    ticks: u64,
    /// What the panes judge records by (the config file's `[checks]`).
    judging: crate::ui::judging::Judging,
    /// The folder a saved file is offered in.
    save_folder: String,
    /// The history lasts as long as the session (`--demo` without `--history`).
    history_for_session: bool,
    /// What to show once the organization asked for is the one acted on (the portfolio's
    /// `Enter`): the Overview, or the list a count opens.
    after_switch: Option<organizations::Opening>,
}

/// The flash line, every message it showed (for `:messages`), and the spinner beside work
/// under way.
#[derive(Default)]
struct Notices {
    flash: FlashLine,
    messages: MessageLog,
    spinner: usize,
}

/// Where the last draw put each tab's label and the panes.
#[derive(Default)]
struct Hits {
    tabs: Vec<Rect>,
    body: Rect,
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
        let commands = commands::Commands::new(&panes);
        Shell {
            tabs: Tabs {
                shown: vec![false; panes.len()],
                panes,
                focus: 0,
                factory: None,
            },
            session: SessionFacts {
                header,
                tenanted: None,
                organizations: Vec::new(),
                log_path: None,
                snapshots: 0,
                ticks: 0,
                judging: crate::ui::judging::Judging::default(),
                save_folder: String::new(),
                history_for_session: false,
                after_switch: None,
            },
            calls: calls::Calls::default(),
            notices: Notices::default(),
            layers: Vec::new(),
            commands,
            work: work::Work::default(),
            views: views::Views::default(),
            jumps: jumps::Jumps::default(),
            keymap,
            theme,
            hits: Hits::default(),
            quit: false,
        }
    }

    /// Opens on the tab titled `title` instead of the first (when there is one).
    pub fn open_on(mut self, title: &str) -> Self {
        if let Some(index) = self.tabs.panes.iter().position(|p| p.title() == title) {
            self.tabs.focus = index;
        }
        self
    }

    /// The header's facts as they stand (the organization changes with `:org`).
    pub fn header(&self) -> &HeaderInfo {
        &self.session.header
    }

    /// The panes judge records by `judging` (the config file's `[checks]`).
    pub fn with_judging(mut self, judging: crate::ui::judging::Judging) -> Self {
        self.session.judging = judging;
        self
    }

    /// Saved files are offered in `folder` (`~/Downloads/`).
    pub fn with_save_folder(mut self, folder: String) -> Self {
        self.session.save_folder = folder;
        self
    }

    /// The history lasts as long as the session (the demo's, without `--history`): a snapshot
    /// taken says how to keep them.
    pub fn with_history_for_session(mut self, yes: bool) -> Self {
        self.session.history_for_session = yes;
        self
    }

    /// Where the log file is, for the help overlay.
    pub fn with_log_path(mut self, path: impl Into<String>) -> Self {
        self.session.log_path = Some(path.into());
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

    /// Shows the first pane; returns what it asks for. The history database is asked how many
    /// snapshots it holds and which rows changed since the previous one; on the Tenanted API
    /// the organizations the key reaches are listed too, for the header and `:org`.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.session.tenanted.is_some() {
            effects.push(self.list_organizations());
        }
        effects.extend(self.with_pane(self.tabs.focus, |pane, ctx| pane.show(ctx)));
        effects.push(self.read_changed());
        effects
    }

    /// Asks the history database for the rows changed since the previous snapshot of the
    /// profile and organization, which every pane then flags.
    pub(super) fn read_changed(&mut self) -> Effect {
        let header = &self.session.header;
        let call = HistoryCall::Changed {
            profile: header.profile.clone(),
            organization: header.organization.clone(),
        };
        self.own_call(calls::ShellCall::Changed, call.into())
    }

    pub fn notify_info(&mut self, text: impl Into<String>) {
        self.notify(Level::Info, text.into());
    }

    pub fn notify_error(&mut self, text: impl Into<String>) {
        self.notify(Level::Error, text.into());
    }

    fn notify(&mut self, level: Level, text: String) {
        let logged = match level {
            Level::Info | Level::Hint => FlashLevel::Info,
            Level::Success => FlashLevel::Success,
            Level::Error | Level::Refused => FlashLevel::Error,
        };
        self.notices.messages.push_now(logged, text.clone());
        let flash = match level {
            Level::Info => Flash::info(text).with_ticks(NOTICE_TICKS),
            Level::Hint => Flash::info(text).with_ticks(NOTICE_TICKS).until_key(),
            Level::Success => Flash::success(text).with_ticks(NOTICE_TICKS),
            Level::Error => Flash::error(text).with_ticks(NOTICE_TICKS * 2),
            Level::Refused => Flash::error(text).with_ticks(NOTICE_TICKS * 2).until_key(),
        };
        self.notices.flash.show(flash);
    }

    /// The pane that has the focus.
    fn focused(&self) -> &dyn Pane {
        self.tabs.panes[self.tabs.focus].as_ref()
    }

    /// Runs `f` on pane `index` with a context, then files what it asked for.
    fn with_pane(&mut self, index: usize, f: impl FnOnce(&mut dyn Pane, &mut Ctx)) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut notices = Vec::new();
        {
            let pane = self.tabs.panes[index].as_mut();
            let mut ctx = Ctx::new(
                &mut self.calls.next_id,
                &mut effects,
                &mut notices,
                self.session.header.read_only,
            )
            .with_tenanted(self.session.tenanted)
            .with_judging(self.session.judging)
            .with_save_folder(&self.session.save_folder)
            .with_keys(&self.keymap);
            f(pane, &mut ctx);
        }
        if let Some((level, text)) = notices.pop() {
            self.notify(level, text);
        }
        self.file_effects(index, effects)
    }

    fn focus_pane(&mut self, index: usize) -> Vec<Effect> {
        if index >= self.tabs.panes.len() {
            return Vec::new();
        }
        if index != self.tabs.focus {
            // A message about one pane does not follow the user to another.
            self.notices.flash.clear();
            // Nor does a tile's list stay one once the user went on to another tab.
            self.jumps.went_to(index);
        }
        self.tabs.focus = index;
        self.tabs.shown[index] = true;
        self.with_pane(index, |p, ctx| p.show(ctx))
    }

    /// Advances the flash line, the spinner and every pane by one tick; the calls the panes ask
    /// for are added to `effects`. Returns whether anything visible changed.
    pub fn tick(&mut self, effects: &mut Vec<Effect>) -> bool {
        let mut changed = self.notices.flash.tick();
        // The history is read again every minute, so the marks follow the snapshots that others
        // (a team's scheduled `watch`, another dashboard) store meanwhile.
        self.session.ticks += 1;
        if self.session.ticks.is_multiple_of(FOLLOW_HISTORY_TICKS) {
            effects.push(self.read_changed());
        }
        // The header counts the seconds a silent service has let a call wait.
        changed |= self
            .calls
            .waited(self.session.ticks)
            .is_some_and(|waited| waited >= chrome::SILENT_TICKS && waited.is_multiple_of(10));
        if self.work.exporting()
            || self.work.snapshot.is_some()
            || self.calls.waits_on(self.tabs.focus)
        {
            self.notices.spinner = (self.notices.spinner + 1) % chrome::SPINNER.len();
            changed = true;
        }
        for index in 0..self.tabs.panes.len() {
            let mut ticked = false;
            let asked = self.with_pane(index, |pane, ctx| ticked = pane.tick(ctx));
            effects.extend(asked);
            changed |= ticked;
        }
        changed
    }

    /// A call under way tries again: the footer says so while the call's pane is focused.
    /// Returns whether anything visible changed (the call may have ended meanwhile).
    pub fn retrying(&mut self, id: RequestId, notice: RetryNotice) -> bool {
        self.calls.retrying(id, notice)
    }
}

#[cfg(test)]
mod tests;
