//! The Exemptions pane: the paged list with its live search, filters and sort, the detail of
//! one exemption with its attachments, the new-exemption form (the customer found by search)
//! and the certificate upload with path completion. `I` switches to the certificate imports
//! awaiting approval (Tenanted API; see [`imports`]).
//!
//! The search is sent as the user types, once the typing pauses for 300 ms: each search cancels
//! the request still on its way, so one list request at most is in flight and a stale answer is
//! never shown.

mod certificate;
mod columns;
mod create;
mod detail;
pub mod filter;
pub mod imports;
mod search;
mod upload;
mod writes;

use crate::effect::{ExemptionCall, ExemptionReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use self::certificate::SaveFile;
pub use self::columns::columns;
use self::search::{Search, SearchOutcome};
use self::upload::Upload;
use crate::effect::Reply;
use crate::model::filters::ExemptionFilter;
use crate::model::{Attachment, Exemption};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint, Relation};
use crate::ui::panes::relations;
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, Layer, LayerOutcome, On, Operation, PaneSpec, PaneView, Parts, Reads, RecordDetail,
    RecordView, Scope, Screen, Skeleton, Switch, Verb, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{Form, FormOutcome};

/// Ticks (of 100 ms) the typing must pause before the search is sent.
pub const SEARCH_DEBOUNCE_TICKS: u8 = 3;

/// The Exemptions tab: the exemptions, and the certificate imports behind `I`.
pub type ExemptionsPane = Switch<Skeleton<Exemptions>, imports::ImportsPane>;

/// The Exemptions tab, on the exemptions.
pub fn pane() -> ExemptionsPane {
    Switch::new(
        "Exemptions",
        (Skeleton::default(), "exemptions"),
        (imports::ImportsPane::default(), "imports"),
        Action::Imports,
    )
}

list_spec! {
    /// The exemption list.
    ExemptionList {
        row: Exemption,
        filter: ExemptionFilter,
        noun: "exemptions",
        columns: columns,
        call: Exemptions(ExemptionCall::List),
        page: ExemptionReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, current| filter::filter_of(values, current, crate::clock::today()),
        kept_here: ExemptionFilter::is_local, ExemptionFilter::keeps,
        goto: Exemptions,
    }
}

/// The exemption the detail shows, and its files (`None` while they load).
pub type ExemptionDetail = RecordDetail<Exemption, Option<Vec<Attachment>>>;

/// How an exemption reads in the detail.
static EXEMPTION: RecordView<Exemption, Option<Vec<Attachment>>> = RecordView {
    id: |e| &e.id,
    title: |e| e.id.clone(),
    build: |e, files, theme, _, _| detail::build(e, files.as_deref(), theme),
};

/// The pane's forms.
pub enum ExemptionForm {
    /// The new-exemption form.
    Create(Form),
    /// The certificate upload of one exemption.
    Upload(Upload),
    /// An attached file saved to a path.
    Save(SaveFile),
}

impl PaneView for ExemptionForm {
    fn form(&self) -> Option<&Form> {
        match self {
            ExemptionForm::Create(form) => Some(form),
            ExemptionForm::Upload(upload) => Some(&upload.form),
            ExemptionForm::Save(save) => Some(&save.form),
        }
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            ExemptionForm::Create(form) => Some(form),
            ExemptionForm::Upload(upload) => Some(&mut upload.form),
            ExemptionForm::Save(save) => Some(&mut save.form),
        }
    }

    fn subtitle(&self) -> String {
        match self {
            ExemptionForm::Create(_) => "new exemption".to_owned(),
            ExemptionForm::Upload(u) => format!("certificate for {}", u.exemption.id),
            ExemptionForm::Save(save) => {
                format!("save {}", certificate::file_name(&save.attachment))
            }
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            ExemptionForm::Create(form) => form.render(area, buf, theme),
            ExemptionForm::Upload(upload) => upload.render(area, buf, theme),
            ExemptionForm::Save(save) => save.render(area, buf, theme),
        }
    }
}

/// The live search line over the list, while it has the keys (drawn above the list).
pub struct SearchLine(Search);

impl Layer for SearchLine {
    fn hints(&self) -> Vec<PaneHint> {
        vec![
            PaneHint::keys("enter", "keep"),
            PaneHint::keys("esc", "clear"),
            PaneHint::keys("tab", "more filters"),
        ]
    }

    /// Drawn above the list by [`PaneSpec::list_line`], not over it.
    fn draw(&mut self, _: Rect, _: &mut Buffer, _: &Theme) {}
}

/// What the pane waits for.
#[derive(Debug)]
pub enum Op {
    /// The detail's exemption, and its files.
    Record,
    Files,
    Create,
    /// The create form's customer lookup, for this text.
    Lookup(String),
    Upload,
    /// The upload form's path completion, of this partial path.
    Complete(String),
    /// An attached file written to a path.
    Save,
    /// An attached file fetched for the viewer.
    Fetch,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record | Op::Files => Scope::Detail,
            Op::Create | Op::Lookup(_) | Op::Upload | Op::Complete(_) | Op::Save | Op::Fetch => {
                Scope::Pane
            }
        }
    }
}

/// What is the Exemptions pane's own: the search typed and not sent yet.
#[derive(Default)]
pub struct Exemptions {
    /// Typed search text not sent yet, and the ticks left before it is.
    pending_search: Option<(String, u8)>,
}

/// The filter with `text` as its search.
fn searching(filter: &ExemptionFilter, text: &str) -> ExemptionFilter {
    ExemptionFilter {
        search_query: Some(text.trim())
            .filter(|q| !q.is_empty())
            .map(str::to_owned),
        ..filter.clone()
    }
}

impl Exemptions {
    /// `E` or `X`: the list narrowed to a window of end dates around today.
    fn within(
        window: fn(&ExemptionFilter, chrono::NaiveDate) -> ExemptionFilter,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) {
        let filter = window(parts.list.filter(), crate::clock::today());
        parts.list.apply_filter(filter, ctx);
    }

    /// `:search TEXT`: the list searched for TEXT, whatever was open over it closed.
    fn search(parts: &mut Parts<Self>, words: &[&str], ctx: &mut Ctx) {
        parts.requests.cancel_detail(ctx);
        parts.screen = Screen::List;
        Self::apply_search(parts, &words.join(" "), ctx);
    }

    /// Sets the search text in force and reloads when it changed.
    fn apply_search(parts: &mut Parts<Self>, text: &str, ctx: &mut Ctx) {
        let filter = searching(parts.list.filter(), text);
        parts.list.set_filter_quietly(filter, ctx);
    }

    /// A key while the search line has the keys: the text is sent as it changes.
    fn search_key(
        &mut self,
        search: &mut Search,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match search.handle_key(key) {
            // Sent once the typing pauses (see `tick`), so a fast typist costs one request.
            SearchOutcome::Edited => {
                self.pending_search = Some((search.text().to_owned(), SEARCH_DEBOUNCE_TICKS));
                LayerOutcome::Keep
            }
            SearchOutcome::Done => {
                if let Some((text, _)) = self.pending_search.take() {
                    Self::apply_search(parts, &text, ctx);
                }
                LayerOutcome::Close
            }
            SearchOutcome::Cleared => {
                self.pending_search = None;
                Self::apply_search(parts, "", ctx);
                LayerOutcome::Close
            }
            SearchOutcome::MoreFilters => {
                // The text still waiting goes with the filters, sent when they are applied.
                if let Some((text, _)) = self.pending_search.take() {
                    *parts.list.filter_mut() = searching(parts.list.filter(), &text);
                }
                parts.screen = Screen::Filter(parts.list.filter_form());
                LayerOutcome::Close
            }
            SearchOutcome::None => LayerOutcome::Keep,
        }
    }
}

impl PaneSpec for Exemptions {
    type List = ExemptionList;
    type Extra = Option<Vec<Attachment>>;
    type View = ExemptionForm;
    type Overlay = SearchLine;
    type Op = Op;

    const TITLE: &'static str = "Exemptions";
    const DETAIL: &'static RecordView<Exemption, Option<Vec<Attachment>>> = &EXEMPTION;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Exemptions);
    const IMPORTS: Option<crate::effect::ImportResource> =
        Some(crate::effect::ImportResource::Exemptions);
    const FILTER: &'static str = "search";
    const RELATIONS: fn(&Exemption) -> Vec<Relation> = relations::of_exemption;

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::New, "new exemption", On::Both, |v| {
            writes::open_create(v.parts, v.ctx);
        })
        .also("new")
        .writes()
        .starts_new(),
        Verb::key(Action::Attach, "attach certificate", On::Both, |v| {
            writes::open_upload(v.parts, v.ctx);
        })
        .also("attach")
        .writes(),
        Verb::key(Action::Expiring, "expiring within 30 days", On::List, |v| {
            Self::within(filter::expiring, v.parts, v.ctx);
        }),
        Verb::key(
            Action::Expired,
            "expired in the last 30 days",
            On::List,
            |v| {
                Self::within(filter::expired, v.parts, v.ctx);
            },
        ),
        Verb::key(Action::SaveFile, "save certificate", On::Detail, |v| {
            writes::open_save(v.parts, v.ctx);
        }),
        Verb::key(Action::OpenFile, "view certificate", On::Detail, |v| {
            writes::view_file(v.parts, v.ctx);
        }),
        Verb::command("search", "search for TEXT", |v| {
            Self::search(v.parts, v.args, v.ctx);
        })
        .args("TEXT"),
    ];

    const DETAIL_READS: Reads<Exemption, Op> = |e| {
        let id = || e.id.clone();
        vec![
            (ExemptionCall::Get { id: id() }.into(), Op::Record),
            (
                ExemptionCall::Attachments { exemption_id: id() }.into(),
                Op::Files,
            ),
        ]
    };

    /// `/` on the list opens the search line (the whole filter form is one key further).
    fn action(&mut self, action: Action, parts: &mut Parts<Self>, _: &mut Ctx) -> bool {
        if action != Action::Filter || !parts.screen.is_list() {
            return false;
        }
        let text = parts.list.filter().search_query.clone().unwrap_or_default();
        parts.push(SearchLine(Search::new(&text)));
        true
    }

    fn overlay_key(
        &mut self,
        overlay: &mut SearchLine,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        self.search_key(&mut overlay.0, key, parts, ctx)
    }

    fn view_key(key: KeyEvent, parts: &mut Parts<Self>, ctx: &mut Ctx) -> Option<FormOutcome> {
        writes::view_key(key, parts, ctx)
    }

    fn view_pasted(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        writes::pasted(parts, ctx);
    }

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        writes::submit(parts, ctx);
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Record, Ok(Reply::Exemptions(ExemptionReply::One(exemption)))) => {
                let Some(d) = parts.screen.detail_mut() else {
                    return;
                };
                // The list's row keeps the customer's name the record itself leaves out.
                let mut exemption = *exemption;
                if exemption.customer_name.is_none() {
                    exemption.customer_name.clone_from(&d.record.customer_name);
                }
                d.record = exemption;
            }
            (Op::Files, Ok(Reply::Exemptions(ExemptionReply::Attachments(files)))) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.extra = Some(files);
                }
            }
            (Op::Files, Err(failure)) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.extra = Some(Vec::new());
                }
                ctx.notify(Level::Error, failure.message);
            }
            (Op::Record, Err(failure)) => ctx.notify(Level::Error, failure.message),
            (op @ (Op::Record | Op::Files), Ok(reply)) => {
                unexpected(&format!("{op:?}"), &reply, ctx);
            }
            (op, result) => writes::receive(self, op, result, parts, ctx),
        }
    }

    /// Sends the typed search once the typing has paused.
    fn tick(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        let Some((text, ticks)) = &mut self.pending_search else {
            return false;
        };
        *ticks = ticks.saturating_sub(1);
        if *ticks == 0 {
            let text = std::mem::take(text);
            self.pending_search = None;
            Self::apply_search(parts, &text, ctx);
        }
        false
    }

    fn list_line(&self, parts: &Parts<Self>, theme: &Theme) -> Option<Line<'static>> {
        parts.overlays.iter().rev().find_map(|o| match o {
            crate::ui::skeleton::Overlay::Own(SearchLine(search)) => Some(search.line(theme)),
            crate::ui::skeleton::Overlay::Discard(_) => None,
        })
    }
}

#[cfg(test)]
mod tests;
