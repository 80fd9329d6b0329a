//! The pane skeleton: everything a list-and-detail pane does, written once. A pane supplies a
//! [`PaneSpec`] (its list, its detail, its own forms, dialogs and calls) and gets a
//! [`Skeleton`], which is a [`Pane`].
//!
//! # What the skeleton owns
//!
//! - the list ([`ListView`]): pages, filter, sort, the loading / loaded / failed state drawn in
//!   the pane, stale rows after a failed refresh, lists whose pages fall short;
//! - the [`Screen`]: list, filter form, detail, or a view of the pane's own, as one value;
//! - the overlays: a stack of dialogs, keyed, hinted and drawn top-first, with the "discard
//!   the unsaved input?" question handled once;
//! - the calls on their way ([`Requests`]), each tied to a typed operation of the pane;
//! - the keys every pane shares: open, back, filter, sort, refresh, copy id, scroll;
//! - the pane's own verbs ([`verbs`]), each declared once: its footer hint, its key, its `:`
//!   command and completion, its `?` help line, and the read-only refusal of a write;
//! - where a jump lands ([`ListSpec::landing`]), what a record relates to, a record read into
//!   its row and detail, a form's send and refusal, an address check.
//!
//! # Adding a pane
//!
//! 1. A [`ListSpec`] (usually `list_spec!`): the rows, the filter and its form, the call, the
//!    columns, the [`crate::effect::Goto`] that lands on it.
//! 2. A [`PaneSpec`]: how a record reads in its detail ([`RecordView`]), the pane's own views
//!    ([`PaneView`], or [`NoView`]), dialogs ([`Layer`], or [`NoLayer`]), operations
//!    ([`Operation`]), its verbs ([`Verb`]), and what the answers to its calls do.
//! 3. One line in [`crate::ui::panes::all`].
//!
//! A pane with two lists (physical and economic nexus) is two skeletons in a [`Switch`].

pub mod list;
pub mod paging;
pub mod requests;
pub mod screen;
pub mod switch;
#[cfg(test)]
pub mod testing;
pub mod verbs;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Widget;

pub use self::list::{ListClick, ListSpec, ListView, Load};
pub(crate) use self::list::{list_row, list_spec};
pub use self::requests::{Operation, Requests, Scope};
pub use self::screen::{
    DetailView, Layer, LayerOutcome, NoLayer, NoView, Overlay, PaneView, RecordDetail, RecordView,
    Related, Screen, form_hints, page_hints, question_hints,
};
pub use self::switch::Switch;
pub use self::verbs::{On, Verb, tenanted};
use crate::config::{SavedView, ViewValue};
use crate::effect::{Call, Failure, Goto, Reply, RequestId};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Level, Pane, PaneHint, Relation, SavedState};
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::form::address::{AddressPanel, AddressStep};
use crate::ui::widgets::form::{FieldValue, Form, FormOutcome};
use crate::ui::widgets::pane_block;
use std::borrow::Borrow;

/// A row of a pane's list.
pub type Row<S> = <<S as PaneSpec>::List as ListSpec>::Row;

/// The detail of a record of a pane's list.
pub type Detail<S> = RecordDetail<Record<S>, <S as PaneSpec>::Extra>;

/// What came back for a call: the service's reply, or why there is none.
pub type Answer = Result<Reply, Failure>;

/// The record a row of a pane's list, and its detail, show.
pub type Record<S> = <<S as PaneSpec>::List as ListSpec>::Record;

/// What a pane supplies. See the module documentation.
pub trait PaneSpec: Send + Sized + 'static {
    type List: ListSpec;
    /// What a record's detail keeps beside the record (what is read with it): `()` for nothing.
    type Extra: Default + Send + Sync + 'static;
    type View: PaneView;
    type Overlay: Layer;
    type Op: Operation;

    /// The tab's title.
    const TITLE: &'static str;

    /// What `/` is called in the hints: `filter`, `search`.
    const FILTER: &'static str = "filter";

    /// The list as snapshots store it, for a record's history and the flags of changed rows;
    /// `None` for lists snapshots do not hold.
    const RESOURCE: Option<crate::model::Resource> = None;

    /// What `:import FILE` reads into this list, if it takes imports.
    const IMPORTS: Option<crate::effect::ImportResource> = None;

    /// What the pane does by its own keys and `:` commands (see [`verbs`]), in the order the
    /// footer offers them.
    const VERBS: &'static [Verb<Self>] = &[];

    /// What a record (the selected row's, or the detail's) relates to, for the jump prefix.
    const RELATIONS: fn(&Record<Self>) -> Vec<Relation> = |_| Vec::new();

    /// How a record reads in its detail, shown at once; [`PaneSpec::DETAIL_READS`] ask for
    /// the rest.
    const DETAIL: &'static RecordView<Record<Self>, Self::Extra>;

    /// What the detail asks the service for when it opens and on refresh: each call with the
    /// operation its answer goes to. The calls are made with [`Scope::Detail`] operations,
    /// cancelled when the detail closes.
    const DETAIL_READS: Reads<Record<Self>, Self::Op> = |_| Vec::new();

    /// The hints of one of the pane's own views.
    fn view_hints(&self, view: &Self::View) -> Vec<PaneHint> {
        match view.form() {
            Some(form) => form_hints(form, view.submit_label()),
            None => page_hints(),
        }
    }

    /// An action, before the verbs and the shared handling: returns whether the pane used it.
    fn action(&mut self, _action: Action, _parts: &mut Parts<Self>, _ctx: &mut Ctx) -> bool {
        false
    }

    /// A key for the view on screen, before its form: the form's outcome when the pane handled
    /// the key itself (a lookup as the user types, a path completion), `None` to let the form
    /// have it. (An address key of a form with an address panel: see [`address_key`].)
    fn view_key(_key: KeyEvent, _parts: &mut Parts<Self>, _ctx: &mut Ctx) -> Option<FormOutcome> {
        None
    }

    /// The form of the view on screen took a paste: what typing into it does besides (a lookup
    /// as the user types) is done here.
    fn view_pasted(&mut self, _parts: &mut Parts<Self>, _ctx: &mut Ctx) {}

    /// Whether records shown by the other view of the same tab changed since last asked (an
    /// approved certificate import created exemptions): that view refreshes.
    fn changed_elsewhere(&mut self) -> bool {
        false
    }

    /// The form of the view on screen was submitted and passes its rules.
    fn submit(&mut self, _parts: &mut Parts<Self>, _ctx: &mut Ctx) {}

    /// A key for the pane's dialog on top.
    fn overlay_key(
        &mut self,
        _overlay: &mut Self::Overlay,
        _key: KeyEvent,
        _parts: &mut Parts<Self>,
        _ctx: &mut Ctx,
    ) -> LayerOutcome {
        LayerOutcome::Keep
    }

    /// The answer to an operation of the pane.
    fn receive(&mut self, op: Self::Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx);

    /// Called each time the pane comes into view, before the list loads.
    fn show(&mut self, _parts: &mut Parts<Self>, _ctx: &mut Ctx) {}

    /// The filter (and the row to open) that `goto` asks of this pane's list, if it names it:
    /// by default where the list lands it (see [`ListSpec::landing`]).
    fn goto(&self, goto: &Goto) -> Option<Destination<Self>> {
        <Self::List as ListSpec>::landing(goto)
    }

    /// A destination that is not a filtered list (a flow to open over it): handled here when
    /// this answers `true`, before [`goto`](Self::goto) is asked.
    fn arrive(&mut self, _goto: &Goto, _parts: &mut Parts<Self>, _ctx: &mut Ctx) -> bool {
        false
    }

    /// A `:` command before the verbs and the skeleton's own (`filter`, `refresh`): returns
    /// whether the pane used it.
    fn command(
        &mut self,
        _name: &str,
        _args: &[&str],
        _parts: &mut Parts<Self>,
        _ctx: &mut Ctx,
    ) -> bool {
        false
    }

    /// A tick (about ten a second): returns whether anything visible changed.
    fn tick(&mut self, _parts: &mut Parts<Self>, _ctx: &mut Ctx) -> bool {
        false
    }

    /// A line drawn above the list (a live search), if any.
    fn list_line(&self, _parts: &Parts<Self>, _theme: &Theme) -> Option<Line<'static>> {
        None
    }

    /// The words after the title, when the pane has something to say of its own.
    fn subtitle(&self, _parts: &Parts<Self>) -> Option<String> {
        None
    }
}

/// The shared state of a pane: what the skeleton owns, handed to the spec's hooks.
pub struct Parts<S: PaneSpec> {
    pub list: ListView<S::List>,
    pub screen: Screen<Detail<S>, S::View>,
    pub overlays: Vec<Overlay<S::Overlay>>,
    pub requests: Requests<S::Op>,
    /// The client speaks the Tenanted API.
    pub tenanted: bool,
}

impl<S: PaneSpec> Parts<S> {
    fn new() -> Self {
        Parts {
            list: ListView::new(),
            screen: Screen::List,
            overlays: Vec::new(),
            requests: Requests::default(),
            tenanted: false,
        }
    }

    /// Takes from the pane's context what the parts follow: the API the client speaks and
    /// what records are judged by.
    fn settle(&mut self, ctx: &Ctx) {
        self.tenanted = ctx.tenanted().is_some();
        self.list.judge_by(ctx.judging());
    }

    /// The id of the record the user is on: the detail's, else the selected row's.
    pub fn current_id(&self) -> Option<String> {
        match self.screen.detail() {
            Some(d) => Some(d.id().to_owned()),
            None => self.list.selected().map(|r| S::List::id(r).to_owned()),
        }
    }

    /// The record the user is on: the detail's (under a view too), else the selected row's.
    pub fn current(&self) -> Option<&Record<S>> {
        match self.screen.detail() {
            Some(d) => Some(d.record()),
            None => self.list.selected().map(std::borrow::Borrow::borrow),
        }
    }

    /// The record the detail asked for, read: its row and the detail (when it still shows that
    /// record) show it as read.
    pub fn record_read(&mut self, record: Record<S>) {
        let row = Row::<S>::from(record.clone());
        let id = S::List::id(&row).to_owned();
        self.list.replace(&row);
        if let Some(d) = self.screen.detail_mut().filter(|d| d.id() == id) {
            *d.record_mut() = record;
        }
    }

    /// The list with `filter`, whatever was open over it closed.
    pub fn show_list(&mut self, filter: <S::List as ListSpec>::Filter, ctx: &mut Ctx) {
        self.requests.cancel_detail(ctx);
        self.screen = Screen::List;
        self.list.apply_filter(filter, ctx);
    }

    /// The view on screen, and the calls (to send what its form says).
    pub fn view_and_requests(&mut self) -> (Option<&mut S::View>, &mut Requests<S::Op>) {
        (self.screen.view_mut(), &mut self.requests)
    }

    /// The service's answer to the address check of the form on screen, in its panel.
    pub fn address_checked(&mut self, result: Answer, ctx: &mut Ctx) {
        if let Some((_, panel)) = self.screen.view_mut().and_then(PaneView::address) {
            address_checked(panel, result, ctx);
        }
    }

    /// A write of the form on screen refused: see [`refused`].
    pub fn refused(&mut self, failure: &Failure, ctx: &mut Ctx) {
        refused(
            self.screen.view_mut().and_then(PaneView::form_mut),
            failure,
            ctx,
        );
    }

    /// Opens a dialog of the pane's own on top.
    pub fn push(&mut self, overlay: S::Overlay) {
        self.overlays.push(Overlay::Own(overlay));
    }

    /// The pane's dialog on top, if the top one is the pane's own.
    pub fn top_mut(&mut self) -> Option<&mut S::Overlay> {
        match self.overlays.last_mut() {
            Some(Overlay::Own(o)) => Some(o),
            _ => None,
        }
    }

    /// The pane's dialogs, bottom first.
    pub fn own_overlays_mut(&mut self) -> impl Iterator<Item = &mut S::Overlay> {
        self.overlays.iter_mut().filter_map(|o| match o {
            Overlay::Own(o) => Some(o),
            Overlay::Discard(_) => None,
        })
    }

    /// Closes the dialogs of the pane's own for which `pred` holds.
    pub fn close_overlays(&mut self, pred: impl Fn(&S::Overlay) -> bool) {
        self.overlays
            .retain(|o| !matches!(o, Overlay::Own(own) if pred(own)));
    }
}

/// Whether writes are allowed; says why not when they are not. (A verb that writes is checked
/// by the skeleton: this is for a write that is not a verb, such as a flow arriving by a jump.)
pub fn may_write(ctx: &mut Ctx) -> bool {
    if ctx.read_only() {
        ctx.notify(Level::Error, verbs::READ_ONLY);
    }
    !ctx.read_only()
}

/// The submit step of a form: when its rules pass (`body` is `Ok`), the call `send` makes of
/// the body goes out as its operation and the form waits, busy, for the answer; otherwise the
/// fields show their errors and nothing is sent.
pub fn send_form<O: Operation, B>(
    form: &mut crate::ui::widgets::form::Form,
    body: Result<B, Vec<crate::model::FieldError>>,
    requests: &mut Requests<O>,
    ctx: &mut Ctx,
    send: impl FnOnce(B) -> (Call, O),
) {
    match body {
        Ok(body) => {
            form.set_busy(true);
            let (call, op) = send(body);
            requests.call(ctx, call, op);
        }
        Err(errors) => form.set_errors(&errors),
    }
}

/// A refused write: the fields a 422 names show their errors under them, every value stays as
/// typed, and the message goes to the footer.
pub fn refused(
    form: Option<&mut crate::ui::widgets::form::Form>,
    failure: &Failure,
    ctx: &mut Ctx,
) {
    let mut message = failure.message.clone();
    if let Some(form) = form {
        form.set_busy(false);
        if failure.kind == crate::effect::FailureKind::Validation {
            form.set_errors(&failure.fields);
            // The fields say why, in their own words: the footer counts them.
            if let Some(in_error) = form.in_error().filter(|_| !failure.fields.is_empty()) {
                message = format!("The service refused it: {in_error}");
            }
        }
    }
    ctx.notify(Level::Error, message);
}

/// An answer of another kind than the call asked for: said, never silently dropped.
pub fn unexpected(what: &str, reply: &Reply, ctx: &mut Ctx) {
    tracing::warn!(?reply, "unexpected answer to {what}");
    ctx.notify(
        Level::Error,
        format!("The service answered {what} with something else; nothing was changed."),
    );
}

/// Carries out what an address key of a form asked ([`AddressPanel::key`]): a check is sent to
/// the service's validation as `op`, a suggestion taken is said in the footer.
pub fn address_step<O: Operation>(
    step: AddressStep,
    requests: &mut Requests<O>,
    ctx: &mut Ctx,
    op: O,
) {
    match step {
        AddressStep::Check(address) => {
            let call = Call::Customers(crate::effect::CustomerCall::CheckAddress { address });
            requests.call(ctx, call, op);
        }
        AddressStep::Taken => {
            ctx.notify(Level::Info, "Address taken; check it again with ctrl-l.");
        }
        AddressStep::Nothing => ctx.notify(Level::Info, "No address to take: ctrl-l checks it."),
        AddressStep::Moved => {}
    }
}

/// An address key (Ctrl-L checks, Ctrl-N moves among the addresses offered, Ctrl-T takes
/// one) in the form on screen, when it has an address panel: carried out, a check sent as `op`.
pub fn address_key<S: PaneSpec>(
    key: &KeyEvent,
    parts: &mut Parts<S>,
    ctx: &mut Ctx,
    op: S::Op,
) -> Option<FormOutcome> {
    let (form, panel) = parts.screen.view_mut()?.address()?;
    let step = panel.key(key, form)?;
    address_step(step, &mut parts.requests, ctx, op);
    Some(FormOutcome::None)
}

/// The service's answer to an address check, shown in the form's panel.
pub fn address_checked(panel: &mut AddressPanel, result: Result<Reply, Failure>, ctx: &mut Ctx) {
    match result {
        Ok(Reply::Customers(crate::effect::CustomerReply::AddressChecked(check))) => {
            panel.checked(check);
        }
        Ok(reply) => {
            panel.failed();
            unexpected("the address check", &reply, ctx);
        }
        Err(failure) => {
            panel.failed();
            ctx.notify(Level::Error, failure.message);
        }
    }
}

/// Where a [`Goto`] takes a pane: its list's filter, and the row whose detail opens.
pub type Destination<S> = (<<S as PaneSpec>::List as ListSpec>::Filter, Option<Row<S>>);

/// Where a pane stands, as one value that can be kept and given back (the jump list, saved
/// views): the list's filter, sort and cursor, the record whose detail is open, and a page of
/// results open over them.
pub struct PaneState<S: PaneSpec> {
    pub filter: <S::List as ListSpec>::Filter,
    pub sort: Option<crate::ui::widgets::paged_table::Sort>,
    pub cursor: u64,
    /// The record whose detail is open (its row when the cursor is on it).
    pub detail: Option<Row<S>>,
    /// The page of results open over them, when it is one the jump list keeps
    /// ([`PaneView::kept`]).
    pub view: Option<S::View>,
}

impl<S: PaneSpec> Clone for PaneState<S> {
    fn clone(&self) -> Self {
        PaneState {
            filter: self.filter.clone(),
            sort: self.sort,
            cursor: self.cursor,
            detail: self.detail.clone(),
            view: self.view.as_ref().and_then(PaneView::kept),
        }
    }
}

/// A pane built on the skeleton.
pub struct Skeleton<S: PaneSpec> {
    pub spec: S,
    pub parts: Parts<S>,
    /// Inside the pane's border, as last drawn: where its dialogs are, for the mouse.
    inner: Rect,
}

impl<S: PaneSpec + Default> Default for Skeleton<S> {
    fn default() -> Self {
        Skeleton::new(S::default())
    }
}

impl<S: PaneSpec> Skeleton<S> {
    pub fn new(spec: S) -> Self {
        Skeleton {
            spec,
            parts: Parts::new(),
            inner: Rect::default(),
        }
    }

    /// Opens the detail of `row`.
    pub fn open(&mut self, row: &Row<S>, ctx: &mut Ctx) {
        open_detail(&mut self.parts, row.borrow(), ctx);
    }

    /// Where the pane stands now (see [`PaneState`]).
    pub fn state(&self) -> PaneState<S> {
        let list = &self.parts.list;
        let cursor = list.table().cursor();
        // The detail open, whether or not the list's cursor is on its row (find and jumps open
        // records the list does not show).
        let detail = self.parts.screen.detail().map(|d| {
            list.table()
                .row(cursor)
                .filter(|row| S::List::id(row) == d.id())
                .cloned()
                .unwrap_or_else(|| Row::<S>::from(d.record.clone()))
        });
        PaneState {
            filter: list.filter().clone(),
            sort: list.sort(),
            cursor,
            detail,
            view: self.parts.screen.view().and_then(PaneView::kept),
        }
    }

    /// Puts the pane back where `state` was: the list reloads with its filter and sort, the
    /// cursor goes back to its row, and the detail opens again (asking for the current record).
    /// What was open over the list is closed first.
    pub fn restore(&mut self, state: PaneState<S>, ctx: &mut Ctx) {
        self.parts.requests.cancel_detail(ctx);
        self.parts.overlays.clear();
        self.parts.screen = Screen::List;
        self.parts
            .list
            .restore(state.filter, state.sort, state.cursor, ctx);
        if let Some(row) = &state.detail {
            self.open(row, ctx);
        }
        if let Some(view) = state.view {
            self.parts.screen.open(view);
        }
    }

    /// The words after the title.
    pub fn subtitle(&self) -> String {
        if let Some(own) = self.spec.subtitle(&self.parts) {
            return own;
        }
        match &self.parts.screen {
            Screen::List | Screen::Filter(_) => self.parts.list.subtitle(),
            Screen::Detail(d) => d.subtitle(),
            Screen::View { view, .. } => view.subtitle(),
        }
    }

    /// Closes what the discard question was about: the dialog beneath it, else the form.
    fn discard(&mut self) {
        if self.parts.overlays.pop().is_none() {
            self.parts.screen.close();
        }
    }

    fn overlay_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(top) = self.parts.overlays.pop() else {
            return;
        };
        match top {
            Overlay::Discard(mut confirm) => match confirm.handle_key(key) {
                ConfirmOutcome::Yes => self.discard(),
                ConfirmOutcome::No => {}
                ConfirmOutcome::None => self.parts.overlays.push(Overlay::Discard(confirm)),
            },
            Overlay::Own(mut own) => {
                // A dialog the spec opens while handling the key goes on top of this one.
                let depth = self.parts.overlays.len();
                let outcome = self.spec.overlay_key(&mut own, key, &mut self.parts, ctx);
                match outcome {
                    LayerOutcome::Keep => {
                        let depth = depth.min(self.parts.overlays.len());
                        self.parts.overlays.insert(depth, Overlay::Own(own));
                    }
                    LayerOutcome::Close => {}
                    LayerOutcome::AskDiscard => {
                        self.parts.overlays.push(Overlay::Own(own));
                        self.parts
                            .overlays
                            .push(Overlay::Discard(Confirm::discard_input()));
                    }
                }
            }
        }
    }

    fn form_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let own = match &self.parts.screen {
            Screen::View { .. } => S::view_key(key, &mut self.parts, ctx),
            _ => None,
        };
        let parts = &mut self.parts;
        let outcome = match (own, &mut parts.screen) {
            (Some(outcome), _) => outcome,
            (None, Screen::Filter(form)) => form.handle_key(key),
            (None, Screen::View { view, .. }) => match view.form_mut() {
                Some(form) => form.handle_key(key),
                None => return,
            },
            (None, Screen::List | Screen::Detail(_)) => return,
        };
        match outcome {
            FormOutcome::Submit => {
                if let Screen::Filter(form) = &parts.screen {
                    let filter = parts.list.filter_of(&form.values());
                    parts.screen = Screen::List;
                    parts.list.apply_filter(filter, ctx);
                } else {
                    self.spec.submit(parts, ctx);
                }
            }
            FormOutcome::Cancel => parts.screen.close(),
            FormOutcome::AskDiscard => parts
                .overlays
                .push(Overlay::Discard(Confirm::discard_input())),
            FormOutcome::Invalid => {
                if let Some(refusal) = parts.screen.form().and_then(Form::refusal) {
                    ctx.notify(Level::Refused, refusal);
                }
            }
            FormOutcome::None => {}
        }
    }

    fn list_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            Action::Open => match self.parts.list.selected().cloned() {
                Some(row) => self.open(&row, ctx),
                None => return false,
            },
            Action::Filter => self.parts.screen = Screen::Filter(self.parts.list.filter_form()),
            // Esc on a filtered list goes back to the whole list, and says so.
            Action::Back if self.parts.list.is_filtered() => {
                self.parts.list.clear_filter(ctx);
            }
            action => return self.parts.list.action(action, ctx),
        }
        true
    }

    fn detail_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let Parts {
            screen, requests, ..
        } = &mut self.parts;
        let Screen::Detail(d) = screen else {
            return false;
        };
        match action {
            Action::Back => {
                requests.cancel_detail(ctx);
                *screen = Screen::List;
            }
            action if d.state().navigate(action) => {}
            Action::Refresh => {
                requests.cancel_detail(ctx);
                load_detail::<S>(&d.record, requests, ctx);
            }
            _ => return false,
        }
        true
    }

    fn view_action(&mut self, action: Action) -> bool {
        let Some(view) = self.parts.screen.view_mut() else {
            return false;
        };
        if view.form().is_some() {
            return false;
        }
        match action {
            Action::Back => self.parts.screen.close(),
            action => match view.scroll() {
                Some(state) => return state.navigate(action),
                None => return false,
            },
        }
        true
    }
}

/// `:columns` says which columns the list shows and hides; `:columns NAME…` shows each hidden
/// one named and hides each shown one.
fn columns_command<L: ListSpec>(list: &mut ListView<L>, args: &[&str], ctx: &mut Ctx) {
    if args.is_empty() {
        let shown = list.shown_column_names();
        let others: Vec<String> = list
            .choosable_columns()
            .into_iter()
            .filter(|n| !list.shows_column(n))
            .collect();
        let mut said = format!("Columns: {}", shown.join(", "));
        if !others.is_empty() {
            let _ = std::fmt::Write::write_fmt(
                &mut said,
                format_args!("; can show: {}", others.join(", ")),
            );
        }
        said.push_str(". :columns NAME shows or hides one; :columns save keeps them.");
        ctx.notify(Level::Info, said);
        return;
    }
    let mut said = Vec::new();
    for name in args {
        match list.toggle_column(&name.to_lowercase()) {
            Ok(true) => said.push(format!("{name} shown")),
            Ok(false) => said.push(format!("{name} hidden")),
            Err(why) => {
                ctx.notify(Level::Error, format!("Columns: {why}"));
                return;
            }
        }
    }
    ctx.notify(Level::Info, said.join(", "));
}

/// What `:export FORMAT [FILE]` asks for on a list: `query` written as `csv`, `json` or `jsonl`
/// to FILE, by default `<list>-<YYYY-MM-DD>.<ext>` in the current directory.
pub fn export_of(
    query: crate::effect::ListQuery,
    args: &[&str],
) -> Result<crate::effect::ViewExport, String> {
    use crate::effect::Format;
    const USAGE: &str = "Usage: :export csv|json|jsonl [FILE]";
    let format = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
        Some("csv") => Format::Csv,
        Some("json") => Format::Json,
        Some("jsonl") => Format::Jsonl,
        _ => return Err(USAGE.to_owned()),
    };
    let path = match args.get(1..) {
        Some(rest) if !rest.is_empty() => std::path::PathBuf::from(rest.join(" ")),
        _ => {
            let ext = match format {
                Format::Csv => "csv",
                Format::Json => "json",
                Format::Jsonl => "jsonl",
            };
            let day = crate::clock::today().format("%Y-%m-%d");
            std::path::PathBuf::from(format!("{}-{day}.{ext}", query.resource().name()))
        }
    };
    Ok(crate::effect::ViewExport {
        query,
        format,
        path,
    })
}

/// What a detail asks the service for: each call with the operation its answer goes to.
pub type Reads<R, Op> = fn(&R) -> Vec<(Call, Op)>;

/// Asks for what the detail of `record` shows ([`PaneSpec::DETAIL_READS`]).
fn load_detail<S: PaneSpec>(record: &Record<S>, requests: &mut Requests<S::Op>, ctx: &mut Ctx) {
    for (call, op) in (S::DETAIL_READS)(record) {
        requests.call(ctx, call, op);
    }
}

/// Opens the detail of `record`: shown at once, the rest asked for.
pub fn open_detail<S: PaneSpec>(parts: &mut Parts<S>, record: &Record<S>, ctx: &mut Ctx) {
    parts.requests.cancel_detail(ctx);
    let detail = RecordDetail::new(record.clone(), S::DETAIL);
    load_detail::<S>(record, &mut parts.requests, ctx);
    parts.screen = Screen::Detail(detail);
}

impl<S: PaneSpec> Pane for Skeleton<S> {
    fn title(&self) -> &str {
        S::TITLE
    }

    fn hints(&self) -> Vec<PaneHint> {
        if let Some(top) = self.parts.overlays.last() {
            return top.hints();
        }
        match &self.parts.screen {
            Screen::Filter(form) => form_hints(form, "apply"),
            Screen::View { view, .. } => self.spec.view_hints(view),
            Screen::Detail(_) => {
                let mut hints = vec![
                    PaneHint::action(Action::Back, "back"),
                    PaneHint::action(Action::Up, "scroll"),
                    PaneHint::action(Action::Refresh, "refresh"),
                    PaneHint::action(Action::CopyId, "copy id"),
                ];
                hints.extend(verbs::hints(&self.parts));
                hints
            }
            Screen::List => {
                let mut hints = vec![
                    PaneHint::action(Action::Open, "open"),
                    PaneHint::action(Action::Filter, S::FILTER),
                ];
                if self.parts.list.sortable() {
                    hints.push(PaneHint::action(Action::Sort, "sort"));
                    hints.push(PaneHint::action(Action::SortReverse, "reverse"));
                }
                hints.push(PaneHint::action(Action::Refresh, "refresh"));
                hints.push(PaneHint::action(Action::CopyId, "copy id"));
                hints.extend(verbs::hints(&self.parts));
                hints
            }
        }
    }

    fn show(&mut self, ctx: &mut Ctx) {
        self.parts.settle(ctx);
        self.spec.show(&mut self.parts, ctx);
        self.parts.list.show(ctx);
    }

    fn goto(&mut self, goto: &Goto, ctx: &mut Ctx) -> bool {
        if self.spec.arrive(goto, &mut self.parts, ctx) {
            return true;
        }
        let Some((filter, open)) = self.spec.goto(goto) else {
            return false;
        };
        self.parts.settle(ctx);
        let sort = self.parts.list.sort();
        self.restore(
            PaneState {
                filter,
                sort,
                cursor: 0,
                detail: open,
                view: None,
            },
            ctx,
        );
        true
    }

    fn current_record(&self) -> Option<(crate::model::Resource, String)> {
        if !self.parts.overlays.is_empty()
            || matches!(self.parts.screen, Screen::Filter(_) | Screen::View { .. })
        {
            return None;
        }
        S::RESOURCE.zip(self.parts.current_id())
    }

    fn mark_changed(&mut self, changed: &crate::ui::pane::ChangedRecords) {
        if let Some(resource) = S::RESOURCE {
            self.parts.list.set_changed(changed.get(&resource).cloned());
        }
    }

    fn relations(&self) -> Vec<Relation> {
        let at_record = matches!(self.parts.screen, Screen::List | Screen::Detail(_));
        match self.parts.current() {
            Some(record) if at_record && self.parts.overlays.is_empty() => S::RELATIONS(record),
            _ => Vec::new(),
        }
    }

    fn save_state(&self) -> Option<SavedState> {
        Some(Box::new(self.state()))
    }

    fn restore_state(&mut self, state: SavedState, ctx: &mut Ctx) -> bool {
        match state.downcast::<PaneState<S>>() {
            Ok(state) => {
                self.restore(*state, ctx);
                true
            }
            Err(_) => false,
        }
    }

    fn captures_text(&self) -> bool {
        match self.parts.overlays.last() {
            Some(top) => top.captures_text(),
            None => self.parts.screen.form().is_some(),
        }
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        if self.parts.overlays.is_empty() {
            self.form_key(key, ctx);
        } else {
            self.overlay_key(key, ctx);
        }
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> bool {
        let in_view = self.parts.overlays.is_empty() && self.parts.screen.view().is_some();
        let form = match self.parts.overlays.last_mut() {
            None => match &mut self.parts.screen {
                Screen::Filter(form) => Some(form),
                Screen::View { view, .. } => view.form_mut(),
                Screen::List | Screen::Detail(_) => None,
            },
            Some(Overlay::Own(own)) => own.form_mut(),
            // A question: a paste answers nothing.
            Some(Overlay::Discard(_)) => None,
        };
        let Some(form) = form else {
            return false;
        };
        if let Some(note) = form.paste(text).note() {
            ctx.notify(Level::Info, note);
        }
        if in_view {
            self.spec.view_pasted(&mut self.parts, ctx);
        }
        true
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if self.spec.action(action, &mut self.parts, ctx) {
            return true;
        }
        if !self.parts.overlays.is_empty() {
            // A dialog that takes actions is on top: nothing beneath it moves.
            return false;
        }
        if let Some(verb) = verbs::keyed(action, &self.parts) {
            verbs::run(verb, &mut self.spec, &mut self.parts, &[], ctx);
            return true;
        }
        if action == Action::CopyId && !matches!(self.parts.screen, Screen::View { .. }) {
            return match self.parts.current_id() {
                Some(id) => {
                    ctx.copy(id);
                    true
                }
                None => false,
            };
        }
        match &self.parts.screen {
            Screen::List => self.list_action(action, ctx),
            Screen::Detail(_) => self.detail_action(action, ctx),
            Screen::View { .. } => self.view_action(action),
            Screen::Filter(_) => false,
        }
    }

    fn on_click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> bool {
        if let Some(Overlay::Discard(confirm)) = self.parts.overlays.last() {
            match confirm.click(self.inner, column, row) {
                ConfirmOutcome::Yes => {
                    self.parts.overlays.pop();
                    self.discard();
                }
                ConfirmOutcome::No => {
                    self.parts.overlays.pop();
                }
                ConfirmOutcome::None => return false,
            }
            return true;
        }
        if !self.parts.overlays.is_empty() || !self.parts.screen.is_list() {
            return false;
        }
        match self.parts.list.click(column, row, ctx) {
            ListClick::Nothing => false,
            ListClick::Used => true,
            ListClick::Open => self.list_action(Action::Open, ctx),
        }
    }

    fn choose_columns(&mut self, names: &[String]) -> Result<(), String> {
        self.parts.list.choose_columns(names)
    }

    fn column_names(&self) -> Vec<String> {
        self.parts.list.choosable_columns()
    }

    fn shown_columns(&self) -> Vec<String> {
        self.parts.list.shown_column_names()
    }

    fn saved_view(&self) -> Option<SavedView> {
        let list = &self.parts.list;
        let filter = list
            .filter_form()
            .values()
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    FieldValue::Text(t) | FieldValue::Choice(t) => ViewValue::Text(t.clone()),
                    FieldValue::Bool(b) => ViewValue::Bool(*b),
                    FieldValue::List(items) => ViewValue::List(items.clone()),
                };
                (name.to_owned(), value)
            })
            .collect();
        Some(SavedView {
            sort: list.sort().map(|s| s.order_by()),
            filter,
        })
    }

    fn apply_view(&mut self, view: &SavedView, ctx: &mut Ctx) -> bool {
        let default = <S::List as ListSpec>::Filter::default();
        let mut form = <S::List as ListSpec>::filter_form(&default);
        for (name, value) in &view.filter {
            let value = match value {
                ViewValue::Text(t) => FieldValue::Text(t.clone()),
                ViewValue::Bool(b) => FieldValue::Bool(*b),
                ViewValue::List(items) => FieldValue::List(items.clone()),
            };
            form = form.with_value(name, value);
        }
        let filter = <S::List as ListSpec>::filter_of(&form.values(), &default, &ctx.judging());
        let sort = view.sort.as_deref().and_then(|sort| {
            let (key, descending) = match sort.strip_prefix('-') {
                Some(key) => (key, true),
                None => (sort, false),
            };
            <S::List as ListSpec>::columns()
                .iter()
                .find(|c| c.sortable() && c.key == key)
                .map(|c| crate::ui::widgets::paged_table::Sort {
                    key: c.key,
                    descending,
                })
        });
        self.parts.settle(ctx);
        self.restore(
            PaneState {
                filter,
                sort,
                cursor: 0,
                detail: None,
                view: None,
            },
            ctx,
        );
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.parts.list.owns(id) {
            self.parts.list.receive(id, result, ctx);
        } else if let Some(op) = self.parts.requests.take(id) {
            self.spec.receive(op, result, &mut self.parts, ctx);
        }
    }

    fn waits_for(&self, id: RequestId) -> bool {
        self.parts.list.owns(id) || self.parts.requests.waits_for(id)
    }

    fn at_rest(&self) -> bool {
        self.parts.screen.is_list() && self.parts.overlays.is_empty()
    }

    fn commands(&self) -> Vec<&'static str> {
        let mut commands = vec!["filter", "refresh", "export", "columns"];
        if S::IMPORTS.is_some() {
            commands.push("import");
        }
        commands.extend(S::VERBS.iter().filter_map(|v| v.command));
        commands
    }

    fn verbs(&self) -> Vec<crate::ui::pane::VerbHelp> {
        // What the footer leaves out (a verb of the other API), the help leaves out too.
        S::VERBS
            .iter()
            .filter(|v| (v.offered)(&self.parts))
            .map(Verb::help)
            .collect()
    }

    fn command(&mut self, name: &str, args: &[&str], ctx: &mut Ctx) -> bool {
        if self.captures_text() {
            return false;
        }
        if self.spec.command(name, args, &mut self.parts, ctx) {
            return true;
        }
        if let Some(verb) = verbs::named::<S>(name) {
            verbs::run(verb, &mut self.spec, &mut self.parts, args, ctx);
            return true;
        }
        match name {
            "filter" => self.parts.screen = Screen::Filter(self.parts.list.filter_form()),
            "refresh" => self.parts.list.refresh(ctx),
            "columns" => columns_command(&mut self.parts.list, args, ctx),
            "export" => match self.parts.list.query() {
                Some(query) => match export_of(query, args) {
                    Ok(export) => ctx.export(export),
                    Err(usage) => ctx.notify(Level::Error, usage),
                },
                None => ctx.notify(Level::Error, "This list cannot be exported."),
            },
            "import" => match (S::IMPORTS, args.is_empty()) {
                (None, _) => return false,
                (Some(resource), true) => ctx.notify(
                    Level::Error,
                    format!("Usage: :import FILE (CSV, JSON or JSON Lines of {resource})"),
                ),
                (Some(resource), false) => ctx.import(crate::effect::ViewImport {
                    resource,
                    path: std::path::PathBuf::from(args.join(" ")),
                }),
            },
            _ => return false,
        }
        true
    }

    fn has_unsaved_input(&self) -> bool {
        self.parts.overlays.iter().any(Overlay::has_unsaved_input)
            || self
                .parts
                .screen
                .form()
                .is_some_and(super::widgets::form::Form::is_dirty)
    }

    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        self.parts.list.tick();
        self.spec.tick(&mut self.parts, ctx)
    }

    fn changed_elsewhere(&mut self) -> bool {
        self.spec.changed_elsewhere()
    }

    fn reconnected(&mut self, ctx: &mut Ctx) {
        if self.parts.list.has_failed() {
            self.parts.list.refresh(ctx);
        }
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &Keymap, focused: bool) {
        let block = pane_block(S::TITLE, &self.subtitle(), theme, focused);
        let inner = block.inner(area);
        self.inner = inner;
        frame.render_widget(block, area);
        let line = self.spec.list_line(&self.parts, theme);
        let buf = frame.buffer_mut();
        let parts = &mut self.parts;
        match &mut parts.screen {
            Screen::List => {
                let table_area = match line {
                    Some(line) => {
                        let [top, rest] =
                            Layout::vertical([Constraint::Length(1), Constraint::Min(1)])
                                .areas(inner);
                        line.render(top, buf);
                        rest
                    }
                    None => inner,
                };
                let refresh = keys.keys_for(Action::Refresh);
                parts.list.render(table_area, buf, theme, &refresh, focused);
            }
            Screen::Filter(form) => form.render(inner, buf, theme),
            Screen::Detail(d) => {
                d.judge_by(parts.list.judging());
                d.draw(inner, buf, theme, keys);
            }
            Screen::View { view, .. } => view.draw(inner, buf, theme),
        }
        for overlay in &mut parts.overlays {
            overlay.draw(inner, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::export_of;
    use crate::effect::{Format, ListQuery};
    use crate::model::Resource;

    #[test]
    fn export_takes_a_format_and_names_the_file_by_the_list_and_the_day() {
        let query = ListQuery::all(Resource::Transactions);
        let export = export_of(query.clone(), &["jsonl"]).unwrap();
        assert_eq!(export.format, Format::Jsonl);
        let day = crate::clock::today().format("%Y-%m-%d");
        assert_eq!(
            export.path,
            std::path::PathBuf::from(format!("transactions-{day}.jsonl"))
        );
        assert_eq!(export.query, query);
        let named = export_of(query.clone(), &["CSV", "out/my sales.csv"]).unwrap();
        assert_eq!(named.format, Format::Csv);
        assert_eq!(named.path, std::path::PathBuf::from("out/my sales.csv"));
        for wrong in [&[][..], &["xml"][..]] {
            assert!(
                export_of(query.clone(), wrong)
                    .unwrap_err()
                    .contains("csv|json|jsonl")
            );
        }
    }
}
