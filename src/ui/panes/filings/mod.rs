//! The Filings pane: the paged list of returns with their period, jurisdiction, status, due
//! date and amount; the detail of one; and, on the Tenanted API, the bulk actions and the
//! back-filing options.
//!
//! Space marks filings; `A` approves and `P` pauses the marked ones (or the selected one) after
//! a confirmation naming how many. The service answers filing by filing: the rows that went
//! through change and lose their mark, the refused ones keep it, and a report says which is
//! which and why. `b` shows the past periods that can be filed late, `o` opens an option's help
//! article. On a v1 profile the list works and the Tenanted features say what to change,
//! without a call.

pub mod calendar;
pub mod columns;
mod detail;
pub mod filter;
mod options;
mod results;

use crate::effect::{FilingCall, FilingReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use self::options::{OptionsView, help_url};
use self::results::{Bulk, BulkReport, filings_noun};
use crate::effect::{Call, Failure, FailureKind, Reply};
use crate::model::filters::FilingFilter;
use crate::model::{CoveredSales, Filing, FilingStatus};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint, Relation};
use crate::ui::panes::{detail_lists, relations};
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, Layer, LayerOutcome, NoView, On, Operation, PaneSpec, Parts, Reads, RecordView, Scope,
    Screen, Skeleton, Verb, question_hints, tenanted, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};

/// The Filings pane.
pub type FilingsPane = Skeleton<Filings>;

list_spec! {
    /// The filing list, rows marked for the bulk actions.
    FilingList {
        row: Filing => marked,
        filter: FilingFilter,
        noun: "filings",
        columns: columns::columns,
        call: Filings(FilingCall::List),
        page: FilingReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, _current, judging| filter::filter_of(
            values,
            crate::clock::today(),
            judging.filing_tolerance,
        ),
        kept_here: FilingFilter::is_local, FilingFilter::keeps,
        goto: Filings,
    }
}

/// How a filing reads in the detail.
static FILING: RecordView<Filing> = RecordView {
    id: |f| &f.id,
    title: |f| f.id.clone(),
    build: |record, (), theme, _, judging| detail::build(record, theme, judging),
};

/// The pane's dialogs.
pub enum FilingDialog {
    /// "Approve 2 filings for filing?"
    Bulk {
        confirm: Confirm,
        action: Bulk,
        ids: Vec<String>,
    },
    /// What a bulk action did, filing by filing.
    Report(BulkReport),
    /// The back-filing options.
    Options(OptionsView),
}

impl Layer for FilingDialog {
    fn hints(&self) -> Vec<PaneHint> {
        match self {
            FilingDialog::Bulk { .. } => question_hints(),
            FilingDialog::Report(_) => vec![PaneHint::action(Action::Back, "close")],
            FilingDialog::Options(_) => vec![
                PaneHint::action(Action::Back, "close"),
                PaneHint::action(Action::Down, "next"),
                PaneHint::action(Action::OpenUrl, "help article"),
                PaneHint::action(Action::Refresh, "refresh"),
            ],
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            FilingDialog::Bulk { confirm, .. } => confirm.render(area, buf, theme),
            FilingDialog::Report(report) => report.render(area, buf, theme),
            FilingDialog::Options(view) => view.render(area, buf, theme),
        }
    }

    /// Only the question takes keys; the report and the options take actions.
    fn captures_text(&self) -> bool {
        matches!(self, FilingDialog::Bulk { .. })
    }
}

/// What the pane waits for.
#[derive(Debug)]
pub enum Op {
    /// The detail's filing.
    Record,
    /// The transactions the detail's return covers.
    Transactions,
    /// A bulk action on these filings.
    Bulk {
        action: Bulk,
        ids: Vec<String>,
    },
    /// A filing read again after a bulk action went through for it.
    Refresh,
    Options,
    /// The transactions of these rows in view, for their sales (the filing check's second
    /// comparison).
    Sales {
        ids: Vec<String>,
    },
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record | Op::Transactions => Scope::Detail,
            Op::Bulk { .. } | Op::Refresh | Op::Options | Op::Sales { .. } => Scope::Pane,
        }
    }
}

/// The title of the transactions a return covers, under its detail.
const COVERED: &str = "Transactions covered";

/// Rows whose transactions are asked for in one call (the rows in view, at most).
const SALES_AT_ONCE: usize = 50;

/// What is the Filings pane's own.
#[derive(Default)]
pub struct Filings;

/// Says that `what` needs the Tenanted API when the profile is on v1. Returns whether it did.
fn refuse_if_v1(what: &str, ctx: &mut Ctx) -> bool {
    let v1 = ctx.tenanted().is_none();
    if v1 {
        ctx.notify(
            Level::Error,
            format!("{what} {NEEDS_TENANTED}. The list works with both APIs."),
        );
    }
    v1
}

impl Filings {
    /// `A` or `P`: asks to confirm the action on the marked filings (or the one in view).
    fn ask_bulk(action: Bulk, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let what = match action {
            Bulk::Approve => "Approving filings in bulk",
            Bulk::Pause => "Pausing filings in bulk",
        };
        if refuse_if_v1(what, ctx) {
            return;
        }
        let bulk = |op: &Op| matches!(op, Op::Bulk { .. });
        if parts.requests.on_its_way(bulk, "A bulk action", ctx) {
            return;
        }
        let ids = match parts.screen.detail() {
            Some(d) => vec![d.record.id.clone()],
            None => parts.list.targets(),
        };
        if ids.is_empty() {
            ctx.notify(Level::Info, format!("No filing to {} here.", action.verb()));
            return;
        }
        let past_due = Self::past_due(parts, &ids);
        let approved_then = match (past_due.len(), past_due.iter().min()) {
            (0, _) | (_, None) => "Approved filings are filed when due.".to_owned(),
            (n, Some(first)) if n == ids.len() => format!(
                "{} past due (the first on {}): approved, {} filed at once, late.",
                if n == 1 { "It is" } else { "They are" },
                crate::model::format::date(*first),
                if n == 1 { "it is" } else { "they are" },
            ),
            (n, Some(first)) => format!(
                "Approved filings are filed when due; {n} of these {} past due (the first on \
                 {}) and {} filed at once, late.",
                if n == 1 { "is" } else { "are" },
                crate::model::format::date(*first),
                if n == 1 { "is" } else { "are" },
            ),
        };
        let (what, then) = match action {
            Bulk::Approve => (" for filing", approved_then.as_str()),
            Bulk::Pause => ("", "Paused filings are not filed until resumed."),
        };
        let verb = action.verb();
        let question = format!(
            "{}{} {}{what}? {then}",
            verb[..1].to_ascii_uppercase(),
            &verb[1..],
            filings_noun(ids.len())
        );
        parts.push(FilingDialog::Bulk {
            confirm: Confirm::new(question, false).with_title(format!("Bulk {verb}")),
            action,
            ids,
        });
    }

    /// The due dates already past of the returns `ids` still to be filed, from the detail
    /// open or the rows read.
    fn past_due(parts: &Parts<Self>, ids: &[String]) -> Vec<chrono::NaiveDate> {
        let today = crate::clock::today();
        let filing = |id: &String| -> Option<&Filing> {
            match parts.screen.detail() {
                Some(d) if &d.record.id == id => Some(&d.record),
                _ => {
                    let table = parts.list.table();
                    let at = table.position(|r| &r.row.id == id)?;
                    table.row(at).map(|r| &r.row)
                }
            }
        };
        let overdue = FilingFilter::overdue(today);
        ids.iter()
            .filter_map(filing)
            .filter(|f| overdue.holds(f))
            .filter_map(|f| f.due_date)
            .collect()
    }

    /// `o` on a filing: its filing website, in the browser.
    fn open_website(parts: &Parts<Self>, ctx: &mut Ctx) {
        match parts.current().map(|f| f.filing_website_url.clone()) {
            Some(url) if !url.is_empty() => ctx.open_url(url),
            _ => ctx.notify(Level::Info, "This filing has no filing website."),
        }
    }

    /// `b`: the back-filing options.
    fn open_options(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if refuse_if_v1("Showing the back-filing options", ctx) {
            return;
        }
        Self::load_options(parts, ctx);
        parts.push(FilingDialog::Options(OptionsView::default()));
    }

    fn load_options(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let call = Call::Filings(FilingCall::BackFilingOptions);
        parts.requests.again(ctx, call, Op::Options);
    }

    /// An action while the options are open.
    fn options_action(action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        let Some(FilingDialog::Options(view)) = parts.top_mut() else {
            return false;
        };
        match action {
            action if view.navigate(action) => {}
            Action::Back | Action::BackFiling => {
                parts
                    .requests
                    .cancel_where(ctx, |op| matches!(op, Op::Options));
                parts.overlays.pop();
            }
            Action::OpenUrl => match view.selected() {
                Some(o) => match help_url(o) {
                    Some(url) => ctx.open_url(url),
                    None => ctx.notify(Level::Info, "This option has no help article."),
                },
                None => return false,
            },
            Action::Refresh => {
                *view = OptionsView::default();
                Self::load_options(parts, ctx);
            }
            _ => return false,
        }
        true
    }

    /// Asks for the transactions of the rows in view whose verdict waits for them, unless such
    /// a call is on its way: the list shows at once, and its *Adds up* column fills in.
    fn read_sales_in_view(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if parts.requests.any(|op| matches!(op, Op::Sales { .. })) {
            return;
        }
        let today = crate::clock::today();
        let table = parts.list.table();
        if !table.drew_column(columns::ADDS_UP) {
            return;
        }
        let from = table.offset();
        let ids: Vec<String> = (from..from + u64::from(table.visible_rows()))
            .filter_map(|i| table.row(i))
            .filter(|m| crate::checks::filings::is_pending(&m.row, today))
            .map(|m| m.row.id.clone())
            .take(SALES_AT_ONCE)
            .collect();
        if !ids.is_empty() {
            let call = Call::Filings(FilingCall::CoveredSales { ids: ids.clone() });
            parts.requests.call(ctx, call, Op::Sales { ids });
        }
    }

    /// Files the sales read for rows (`Failed` for each when the reading failed, so that they
    /// are not asked again until the list is).
    fn sales_read(
        ids: &[String],
        result: Result<Reply, Failure>,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) {
        let sales: Vec<(String, CoveredSales)> = match result {
            Ok(Reply::Filings(FilingReply::CoveredSales(sales))) => sales,
            Ok(reply) => {
                unexpected("the filings' transactions", &reply, ctx);
                return;
            }
            Err(failure) => {
                ctx.notify(
                    Level::Error,
                    format!(
                        "Could not read the transactions of {} to check their sales: {}",
                        filings_noun(ids.len()),
                        failure.message
                    ),
                );
                ids.iter()
                    .map(|id| (id.clone(), CoveredSales::Failed))
                    .collect()
            }
        };
        for (id, covered) in sales {
            parts.list.update(&id, |m| m.row.covered_sales = covered);
            if let Some(d) = parts.screen.detail_mut().filter(|d| d.record.id == id) {
                d.record.covered_sales = covered;
            }
        }
    }

    /// The answer to a bulk action.
    fn bulk_done(
        action: Bulk,
        ids: &[String],
        result: Result<Reply, Failure>,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) {
        match result {
            Ok(Reply::Filings(FilingReply::Bulk(answer))) => {
                for item in answer.results.iter().filter(|i| i.error.is_none()) {
                    let id = item.filing_id.as_str();
                    parts.list.unmark(id);
                    if let Some(status) = &item.status {
                        let status = FilingStatus::parse(&status.to_ascii_uppercase());
                        parts
                            .list
                            .update(id, |m| m.row.status = Some(status.clone()));
                        if let Some(d) = parts.screen.detail_mut().filter(|d| d.record.id == id) {
                            d.record.status = Some(status);
                        }
                    }
                    // The whole record (its approval time) comes with the filing itself.
                    let call = Call::Filings(FilingCall::Get { id: id.to_owned() });
                    parts.requests.call(ctx, call, Op::Refresh);
                }
                let report = BulkReport {
                    action,
                    items: answer.results,
                };
                let level = if report.succeeded() == report.items.len() {
                    Level::Success
                } else {
                    Level::Error
                };
                ctx.notify(level, report.summary());
                parts.push(FilingDialog::Report(report));
            }
            Ok(reply) => unexpected("the bulk action", &reply, ctx),
            Err(failure) if failure.kind == FailureKind::Unsupported => {
                ctx.notify(Level::Error, failure.message);
            }
            Err(failure) => ctx.notify(
                Level::Error,
                format!(
                    "Nothing was {} ({}): {} The marks are kept.",
                    action.done(),
                    filings_noun(ids.len()),
                    failure.message
                ),
            ),
        }
    }
}

impl PaneSpec for Filings {
    type List = FilingList;
    type Extra = ();
    type View = NoView;
    type Overlay = FilingDialog;
    type Op = Op;

    const TITLE: &'static str = "Filings";
    const DETAIL: &'static RecordView<Filing> = &FILING;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Filings);
    const FILTER: &'static str = "filter";
    const RELATIONS: fn(&Filing) -> Vec<Relation> = relations::of_filing;

    /// The bulk actions and the back-filing options are offered on the Tenanted API only (on v1
    /// their keys still say what they need).
    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::Mark, "mark", On::List, |v| {
            v.parts.list.toggle_mark();
        })
        .offered(tenanted),
        Verb::key(Action::Approve, "approve", On::Both, |v| {
            Self::ask_bulk(Bulk::Approve, v.parts, v.ctx);
        })
        .writes()
        .offered(tenanted),
        Verb::key(Action::Pause, "pause", On::Both, |v| {
            Self::ask_bulk(Bulk::Pause, v.parts, v.ctx);
        })
        .writes()
        .offered(tenanted),
        Verb::key(Action::BackFiling, "back-filing options", On::Both, |v| {
            Self::open_options(v.parts, v.ctx);
        })
        .also("back-filing")
        .offered(tenanted),
        Verb::key(Action::OpenUrl, "open filing website", On::Detail, |v| {
            Self::open_website(v.parts, v.ctx);
        }),
    ];

    const DETAIL_READS: Reads<Filing, Op> = |f| {
        let id = || f.id.clone();
        vec![
            (FilingCall::Get { id: id() }.into(), Op::Record),
            (
                FilingCall::Transactions { id: id() }.into(),
                Op::Transactions,
            ),
        ]
    };

    fn action(&mut self, action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        match parts.top_mut() {
            Some(FilingDialog::Report(_)) => {
                if matches!(action, Action::Back | Action::Open) {
                    parts.overlays.pop();
                }
                true
            }
            Some(FilingDialog::Options(_)) => {
                Self::options_action(action, parts, ctx);
                true
            }
            _ => false,
        }
    }

    fn overlay_key(
        &mut self,
        overlay: &mut FilingDialog,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        let FilingDialog::Bulk {
            confirm,
            action,
            ids,
        } = overlay
        else {
            return LayerOutcome::Keep;
        };
        match confirm.handle_key(key) {
            ConfirmOutcome::None => LayerOutcome::Keep,
            ConfirmOutcome::No => LayerOutcome::Close,
            ConfirmOutcome::Yes => {
                let ids = std::mem::take(ids);
                let call = match action {
                    Bulk::Approve => Call::Filings(FilingCall::BulkApprove { ids: ids.clone() }),
                    Bulk::Pause => Call::Filings(FilingCall::BulkPause { ids: ids.clone() }),
                };
                parts.requests.call(
                    ctx,
                    call,
                    Op::Bulk {
                        action: *action,
                        ids,
                    },
                );
                LayerOutcome::Close
            }
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Bulk { action, ids }, result) => Self::bulk_done(action, &ids, result, parts, ctx),
            (Op::Sales { ids }, result) => Self::sales_read(&ids, result, parts, ctx),
            (Op::Options, result) => {
                let Some(FilingDialog::Options(view)) = parts
                    .own_overlays_mut()
                    .find(|o| matches!(o, FilingDialog::Options(_)))
                else {
                    return;
                };
                match result {
                    Ok(Reply::Filings(FilingReply::BackFilingOptions(options))) => {
                        view.options = Some(options);
                    }
                    Ok(reply) => unexpected("the back-filing options", &reply, ctx),
                    Err(failure) => {
                        view.error = Some(failure.message.clone());
                        ctx.notify(Level::Error, failure.message);
                    }
                }
            }
            (Op::Record | Op::Refresh, Ok(Reply::Filings(FilingReply::One(filing)))) => {
                parts.record_read(*filing);
            }
            (Op::Transactions, Ok(Reply::Filings(FilingReply::Transactions(list)))) => {
                if let Some(d) = parts.screen.detail_mut() {
                    // What was read here is what the list's verdict compares: both say it.
                    let figures = crate::model::SaleFigures::of(&list);
                    let covered = crate::checks::filings::covered_sales(&figures);
                    d.record.covered_sales = covered;
                    parts
                        .list
                        .update(&d.record.id, |m| m.row.covered_sales = covered);
                    let mut related = detail_lists::transactions(COVERED, &list);
                    if let Ok(rows) = &mut related.rows {
                        let tolerance = ctx.judging().filing_tolerance;
                        rows.insert(0, detail::sales_row(&d.record, &list, tolerance));
                    }
                    d.related = Some(related);
                }
            }
            (Op::Transactions, Ok(reply)) => unexpected("the filing's transactions", &reply, ctx),
            (Op::Transactions, Err(failure)) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.related = Some(detail_lists::failed(COVERED, failure.message));
                }
            }
            (Op::Record | Op::Refresh, Ok(reply)) => unexpected("the filing", &reply, ctx),
            (Op::Record | Op::Refresh, Err(failure)) => ctx.notify(Level::Error, failure.message),
        }
    }

    fn tick(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        Self::read_sales_in_view(parts, ctx);
        false
    }

    fn subtitle(&self, parts: &Parts<Self>) -> Option<String> {
        match &parts.screen {
            Screen::List | Screen::Filter(_) => Some(format!(
                "{}{}",
                parts.list.subtitle(),
                parts.list.marked_note()
            )),
            _ => None,
        }
    }
}
