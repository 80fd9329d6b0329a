//! What every pane is: one room holding its state, its key handling, its drawing and the key
//! hints it offers. Panes talk to the runtime only through [`Ctx`], which turns their wishes into
//! [`Effect`]s.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::judging::Judging;
use super::keymap::{Action, Keymap};
use super::theme::Theme;
use crate::effect::{Call, Effect, Failure, Goto, Reply, RequestId};
use crate::model::Resource;
use crate::model::tenanted::ApiVersion;

/// The ids of the records changed since the previous snapshot, by list.
pub type ChangedRecords =
    std::collections::HashMap<Resource, std::sync::Arc<std::collections::HashSet<String>>>;

/// The key a hint names: a keymap action (shown with its live binding) or fixed keys of a widget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintKey {
    Action(Action),
    Keys(&'static str),
}

/// One key hint of a pane, shown in the footer and in the `?` overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneHint {
    pub key: HintKey,
    pub label: &'static str,
}

impl PaneHint {
    pub const fn action(action: Action, label: &'static str) -> Self {
        PaneHint {
            key: HintKey::Action(action),
            label,
        }
    }

    pub const fn keys(keys: &'static str, label: &'static str) -> Self {
        PaneHint {
            key: HintKey::Keys(keys),
            label,
        }
    }

    /// Whether the hint offers a write (hidden in read-only mode).
    pub fn is_write(&self) -> bool {
        matches!(self.key, HintKey::Action(a) if a.is_write())
    }
}

/// One thing a tab does, as its `?` help lists it: its key, its `:` command with what follows
/// it (`:check exemptions [FROM [TO]]`), its words, and whether it changes records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerbHelp {
    pub key: Option<Action>,
    pub command: Option<String>,
    pub label: String,
    pub writes: bool,
}

/// Where a record leads with the jump prefix (`g` then [`Relation::key`]): another tab's list
/// filtered to what relates to the record, or why the service cannot show that list.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    pub key: char,
    pub label: &'static str,
    pub to: Leads,
}

/// Where a relation leads.
#[derive(Debug, Clone, PartialEq)]
pub enum Leads {
    /// Another tab's list, filtered.
    To(Box<Goto>),
    /// The record of this id, read and opened in its tab.
    Open(String),
    /// Nowhere: what to tell the user (the service has no filter for that list).
    Say(String),
}

impl Relation {
    pub fn new(key: char, label: &'static str, to: Goto) -> Self {
        Relation {
            key,
            label,
            to: Leads::To(Box::new(to)),
        }
    }

    /// A relation to the one record `id` names: it is read and opened.
    pub fn open(key: char, label: &'static str, id: impl Into<String>) -> Self {
        Relation {
            key,
            label,
            to: Leads::Open(id.into()),
        }
    }

    /// A relation the service offers no filter for: `why` is said instead of a list.
    pub fn unfiltered(key: char, label: &'static str, why: impl Into<String>) -> Self {
        Relation {
            key,
            label,
            to: Leads::Say(why.into()),
        }
    }
}

/// A pane's list, filter, cursor and open detail, kept by the jump list and given back to the
/// pane that made it.
pub type SavedState = Box<dyn std::any::Any + Send>;

/// How loud a notice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Success,
    Error,
    /// What the user just tried was refused (a submit the rules stop): an error that goes with
    /// the next key, once it has been seen and acted on.
    Refused,
    /// A pointer to a key (`V shows the economic view`): it goes with the next key.
    Hint,
}

/// What a pane may ask of the runtime while it handles a key or an answer.
pub struct Ctx<'a> {
    next_id: &'a mut u64,
    effects: &'a mut Vec<Effect>,
    notices: &'a mut Vec<(Level, String)>,
    read_only: bool,
    /// The Tenanted release the client speaks; `None` on v1.
    tenanted: Option<ApiVersion>,
    /// The live key bindings, for messages that name a key.
    keys: Option<&'a Keymap>,
    /// What records are judged by (the config file's `[checks]`).
    judging: Judging,
    /// The folder a saved file is offered in (`~/Downloads/`), found by the runtime.
    save_folder: &'a str,
    /// The organization calls are made for, when not the one the dashboard acts on.
    organization: Option<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(
        next_id: &'a mut u64,
        effects: &'a mut Vec<Effect>,
        notices: &'a mut Vec<(Level, String)>,
        read_only: bool,
    ) -> Self {
        Ctx {
            next_id,
            effects,
            notices,
            read_only,
            tenanted: None,
            keys: None,
            judging: Judging::default(),
            save_folder: "",
            organization: None,
        }
    }

    /// The same context making its calls, and keeping what it learns, for `organization`
    /// rather than the one the dashboard acts on ([`Call::ForOrganization`]).
    pub fn for_organization(&mut self, organization: &str) -> Ctx<'_> {
        Ctx {
            next_id: &mut *self.next_id,
            effects: &mut *self.effects,
            notices: &mut *self.notices,
            read_only: self.read_only,
            tenanted: self.tenanted,
            keys: self.keys,
            judging: self.judging,
            save_folder: self.save_folder,
            organization: Some(organization.to_owned()),
        }
    }

    /// The same context offering saved files in `folder`.
    pub fn with_save_folder(mut self, folder: &'a str) -> Self {
        self.save_folder = folder;
        self
    }

    /// The folder a saved file is offered in, as a path field shows it (`~/Downloads/`, or
    /// `""` for the current one).
    pub fn save_folder(&self) -> &str {
        self.save_folder
    }

    /// The same context naming keys by the live bindings `keys`.
    pub fn with_keys(mut self, keys: &'a Keymap) -> Self {
        self.keys = Some(keys);
        self
    }

    /// The key(s) bound to `action`, for a message: `v`, `ctrl-r`.
    pub fn key(&self, action: Action) -> String {
        match self.keys {
            Some(keys) => keys.keys_for(action),
            None => Keymap::default().keys_for(action),
        }
    }

    /// The same context for a client on the Tenanted API at `version` (`None`: v1).
    pub fn with_tenanted(mut self, version: Option<ApiVersion>) -> Self {
        self.tenanted = version;
        self
    }

    /// The Tenanted release the client speaks, or `None` on v1.
    pub fn tenanted(&self) -> Option<ApiVersion> {
        self.tenanted
    }

    /// The same context judging records by `judging` (the config file's settings).
    pub fn with_judging(mut self, judging: Judging) -> Self {
        self.judging = judging;
        self
    }

    /// What records are judged by: the filing tolerance, as the config file sets it.
    pub fn judging(&self) -> Judging {
        self.judging
    }

    /// Asks for `call`; its answer will carry the returned id.
    pub fn call(&mut self, call: Call) -> RequestId {
        *self.next_id += 1;
        let id = RequestId(*self.next_id);
        let call = match &self.organization {
            Some(organization) => Call::ForOrganization {
                organization: organization.clone(),
                call: Box::new(call),
            },
            None => call,
        };
        self.effects.push(Effect::Call {
            id,
            call: Box::new(call),
        });
        id
    }

    /// Remembers what the Overview has just learnt of its reads, so that the next one asks for
    /// more with its first calls ([`Effect::Remember`]).
    pub fn remember(&mut self, mut note: crate::effect::ReadAheadNote) {
        note.organization.clone_from(&self.organization);
        self.effects.push(Effect::Remember(note));
    }

    pub fn cancel(&mut self, id: RequestId) {
        self.effects.push(Effect::Cancel(id));
    }

    pub fn open_url(&mut self, url: impl Into<String>) {
        self.effects.push(Effect::OpenUrl(url.into()));
    }

    /// Opens a local file with the system's viewer; `otherwise` is said when there is none.
    pub fn open_file(&mut self, path: std::path::PathBuf, otherwise: impl Into<String>) {
        self.effects.push(Effect::OpenFile {
            path,
            otherwise: otherwise.into(),
        });
    }

    /// Acts on `organization` from now on (Tenanted API) and shows its Overview, or the list
    /// `then` opens there ([`Effect::OpenOrganization`]).
    pub fn open_organization(&mut self, organization: String, then: Option<Goto>) {
        self.effects.push(Effect::OpenOrganization {
            organization,
            then: then.map(Box::new),
        });
    }

    /// Shows another tab with its list filtered (and a record open), if a tab takes `goto`.
    pub fn goto(&mut self, goto: Goto) {
        self.effects.push(Effect::Goto(Box::new(goto)));
    }

    /// Writes a list to a file through the export engine (see [`Effect::Export`]).
    pub fn export(&mut self, export: crate::effect::ViewExport) {
        self.effects.push(Effect::Export(Box::new(export)));
    }

    /// Checks a file to import into this list, then asks whether to send it (see
    /// [`Effect::Import`]).
    pub fn import(&mut self, import: crate::effect::ViewImport) {
        self.effects.push(Effect::Import(Box::new(import)));
    }

    pub fn copy(&mut self, text: impl Into<String>) {
        self.effects.push(Effect::Copy(text.into()));
    }

    /// A one-line message in the footer.
    pub fn notify(&mut self, level: Level, text: impl Into<String>) {
        self.notices.push((level, text.into()));
    }

    pub fn read_only(&self) -> bool {
        self.read_only
    }
}

/// One tab of the dashboard.
pub trait Pane: Send {
    /// The tab's title.
    fn title(&self) -> &str;

    /// The pane's key hints, in the order the footer shows them.
    fn hints(&self) -> Vec<PaneHint>;

    /// Called each time the pane comes into view; the first time it loads its data.
    fn show(&mut self, ctx: &mut Ctx);

    /// A keymap action while the pane has focus. Returns whether the pane used it.
    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool;

    /// Whether a text field of the pane has focus: then every key goes to [`Pane::on_key`].
    fn captures_text(&self) -> bool {
        false
    }

    /// A raw key while [`Pane::captures_text`] is true.
    fn on_key(&mut self, _key: KeyEvent, _ctx: &mut Ctx) {}

    /// Text pasted while [`Pane::captures_text`] is true (a terminal's bracketed paste: one
    /// event, however long), for the focused text field. Returns whether the pane took it; a
    /// pane without a field to take it leaves it (by default), and no key of it acts.
    fn on_paste(&mut self, _text: &str, _ctx: &mut Ctx) -> bool {
        false
    }

    /// A click of the left button at (`column`, `row`), in screen cells, on the pane as last
    /// drawn. Returns whether the pane used it. (The wheel reaches a pane as [`Action::Up`] and
    /// [`Action::Down`].)
    fn on_click(&mut self, _column: u16, _row: u16, _ctx: &mut Ctx) -> bool {
        false
    }

    /// The list's filter and sort as a view to keep (`:view save NAME`); `None` for a pane
    /// without a list.
    fn saved_view(&self) -> Option<crate::config::SavedView> {
        None
    }

    /// Shows the list as `view` keeps it: its filter and sort, from the first row, whatever was
    /// open over the list closed. Returns whether the pane took it.
    fn apply_view(&mut self, _view: &crate::config::SavedView, _ctx: &mut Ctx) -> bool {
        false
    }

    /// Shows only the list's columns named (`[columns]` in the config file); a name the list
    /// does not have is refused, with the names there are.
    fn choose_columns(&mut self, _names: &[String]) -> Result<(), String> {
        Err(format!("{} has no columns to choose", self.title()))
    }

    /// The names of the list's columns, for `:columns` and its completion.
    fn column_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The names of the columns the list shows now, in order (`:columns save`).
    fn shown_columns(&self) -> Vec<String> {
        Vec::new()
    }

    /// The answer to a call the pane made.
    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx);

    /// A `:` command the shell does not handle itself (`:deregister`, `:nexus CA`). Returns
    /// whether the pane knew it.
    fn command(&mut self, _name: &str, _args: &[&str], _ctx: &mut Ctx) -> bool {
        false
    }

    /// Commands the pane offers to the command line's completion.
    fn commands(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// Everything the pane does by a key or a `:` command of its own, wherever it acts, for the
    /// `?` help.
    fn verbs(&self) -> Vec<VerbHelp> {
        Vec::new()
    }

    /// Whether closing now would lose typed input.
    fn has_unsaved_input(&self) -> bool {
        false
    }

    /// Called on every tick of the runtime (about ten a second): advances animations and may
    /// ask for timed calls, such as refreshing a record until the service has finished with it.
    /// Returns whether anything visible changed.
    fn tick(&mut self, _ctx: &mut Ctx) -> bool {
        false
    }

    /// Whether the pane stays as it is when the dashboard switches organization (the
    /// portfolio, which reads every organization): the others are built again.
    fn outlives_organization(&self) -> bool {
        false
    }

    /// Whether this is the Overview, whose tiles open the other tabs' lists.
    fn is_overview(&self) -> bool {
        false
    }

    /// Whether the pane shows its list with nothing open over it (a tab with two views may
    /// switch then).
    fn at_rest(&self) -> bool {
        !self.captures_text()
    }

    /// Whether an answer to `id` is awaited by this pane (a tab with two views routes by it).
    fn waits_for(&self, _id: RequestId) -> bool {
        false
    }

    /// Whether records another view of the same tab shows changed since last asked.
    fn changed_elsewhere(&mut self) -> bool {
        false
    }

    /// Shows what `goto` names, if this tab holds that list: the list filtered, the record's
    /// detail open, whatever was open before closed. Returns whether the pane took it.
    fn goto(&mut self, _goto: &Goto, _ctx: &mut Ctx) -> bool {
        false
    }

    /// What the record under the cursor (or open) relates to, for the jump prefix.
    fn relations(&self) -> Vec<Relation> {
        Vec::new()
    }

    /// The record open (or under the cursor) and its list, for its history across the stored
    /// snapshots; `None` where the pane shows no such record.
    fn current_record(&self) -> Option<(Resource, String)> {
        None
    }

    /// Flags, in the pane's lists, the records changed since the previous snapshot.
    fn mark_changed(&mut self, _changed: &ChangedRecords) {}

    /// The pane's list, filter, cursor and open detail, for the jump list.
    fn save_state(&self) -> Option<SavedState> {
        None
    }

    /// Puts back what [`Pane::save_state`] returned. Returns whether the state was this pane's.
    fn restore_state(&mut self, _state: SavedState, _ctx: &mut Ctx) -> bool {
        false
    }

    /// Called when a call succeeds again after calls failed for want of the service: a pane
    /// whose last load failed loads again by itself.
    fn reconnected(&mut self, _ctx: &mut Ctx) {}

    /// Draws the pane; `keys` names the live bindings in any text that mentions a key.
    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &Keymap, focused: bool);
}
