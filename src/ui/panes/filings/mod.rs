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

mod bulk;
mod columns;
mod detail;
mod options;
mod results;

use std::collections::HashSet;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, StatefulWidget};

use self::options::{OptionsView, help_url};
use self::results::{Bulk, BulkReport};
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::filters::FilingFilter;
use crate::model::{Filing, FilingStatus};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::panes::marks::{Marked, Marks};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::paged_table::{Column, PagedTable};
use crate::ui::widgets::picker::{Picker, PickerOutcome};

/// The statuses the list can be narrowed to; `all` sends none.
pub const STATUSES: [&str; 5] = ["all", "UNFILED", "FILING", "FILED", "PAUSED"];

/// The filing the detail shows.
struct DetailView {
    filing: Filing,
    state: DetailState,
    loading: Option<RequestId>,
}

/// The question open over the pane.
enum Dialog {
    Status(Picker),
    Bulk {
        confirm: Confirm,
        action: Bulk,
        ids: Vec<String>,
    },
}

/// The bulk action on its way.
struct Pending {
    id: RequestId,
    action: Bulk,
    ids: Vec<String>,
}

/// The Filings pane.
pub struct FilingsPane {
    table: PagedTable<Marked<Filing>>,
    columns: Vec<Column<Marked<Filing>>>,
    filter: FilingFilter,
    pages: PageCalls,
    marks: Marks,
    detail: Option<DetailView>,
    dialog: Option<Dialog>,
    bulk: Option<Pending>,
    report: Option<BulkReport>,
    options: Option<OptionsView>,
    /// Rows asked for again after a bulk action went through for them.
    refreshing: HashSet<RequestId>,
    loaded: bool,
}

impl Default for FilingsPane {
    fn default() -> Self {
        Self::new()
    }
}

impl FilingsPane {
    pub fn new() -> Self {
        FilingsPane {
            table: PagedTable::new("filings"),
            columns: columns::columns(),
            filter: FilingFilter::default(),
            pages: PageCalls::default(),
            marks: Marks::default(),
            detail: None,
            dialog: None,
            bulk: None,
            report: None,
            options: None,
            refreshing: HashSet::new(),
            loaded: false,
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        let mut filter = self.filter.clone();
        filter.order_by = self.table.sort_keys();
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::Filings {
                filter: filter.clone(),
                page: want.params(),
            });
    }

    fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    /// The status shown: `every status`, or one.
    fn status_label(&self) -> String {
        match self.filter.status_in.first() {
            Some(s) => s.as_str().to_owned(),
            None => "every status".to_owned(),
        }
    }

    fn subtitle(&self) -> String {
        if let Some(d) = &self.detail {
            return d.filing.id.clone();
        }
        let sorted = self
            .table
            .sort()
            .map_or_else(String::new, |s| format!(", sorted by {s}"));
        let marked = match self.marks.len() {
            0 => String::new(),
            n => format!(", {n} marked"),
        };
        format!("{}{sorted}{marked}", self.status_label())
    }

    /// Says that `what` needs the Tenanted API when the profile is on v1. Returns whether it
    /// did.
    fn refuse_if_v1(&self, what: &str, ctx: &mut Ctx) -> bool {
        let v1 = ctx.tenanted().is_none();
        if v1 {
            ctx.notify(
                Level::Error,
                format!("{what} {NEEDS_TENANTED}. The list works with both APIs."),
            );
        }
        v1
    }

    /// `b`: the back-filing options.
    fn open_options(&mut self, ctx: &mut Ctx) {
        if self.refuse_if_v1("Showing the back-filing options", ctx) {
            return;
        }
        self.options = Some(OptionsView::loading(ctx.call(Call::BackFilingOptions)));
    }

    fn options_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let Some(view) = &mut self.options else {
            return false;
        };
        match action {
            action if view.navigate(action) => {}
            Action::Back | Action::BackFiling => {
                if let Some(id) = view.loading {
                    ctx.cancel(id);
                }
                self.options = None;
            }
            Action::OpenUrl => match view.selected() {
                Some(o) => match help_url(o) {
                    Some(url) => ctx.open_url(url),
                    None => ctx.notify(Level::Info, "This option has no help article."),
                },
                None => return false,
            },
            Action::Refresh => {
                if let Some(id) = view.loading.take() {
                    ctx.cancel(id);
                }
                *view = OptionsView::loading(ctx.call(Call::BackFilingOptions));
            }
            _ => return false,
        }
        true
    }

    fn detail_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let Some(d) = &mut self.detail else {
            return false;
        };
        match action {
            Action::Back => {
                if let Some(id) = d.loading {
                    ctx.cancel(id);
                }
                self.detail = None;
            }
            action if d.state.navigate(action) => {}
            Action::Refresh => {
                if let Some(id) = d.loading.take() {
                    ctx.cancel(id);
                }
                d.loading = Some(ctx.call(Call::Filing {
                    id: d.filing.id.clone(),
                }));
            }
            Action::CopyId => ctx.copy(d.filing.id.clone()),
            Action::OpenUrl if !d.filing.filing_website_url.is_empty() => {
                ctx.open_url(d.filing.filing_website_url.clone())
            }
            _ => return false,
        }
        true
    }

    fn list_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            action if self.table.navigate(action) => {}
            Action::Open => match self.table.selected() {
                Some(m) => {
                    self.detail = Some(DetailView {
                        filing: m.row.clone(),
                        state: DetailState::default(),
                        loading: None,
                    })
                }
                None => return false,
            },
            Action::Mark => {
                if self.marks.toggle(&mut self.table).is_none() {
                    return false;
                }
                self.table.down(1);
            }
            Action::Filter => {
                let current = self
                    .filter
                    .status_in
                    .first()
                    .and_then(|s| STATUSES.iter().position(|c| *c == s.as_str()))
                    .unwrap_or(0);
                self.dialog = Some(Dialog::Status(Picker::new(
                    "Status",
                    "Show the filings of status",
                    STATUSES.map(str::to_owned).to_vec(),
                    current,
                )));
            }
            Action::Sort | Action::SortReverse => {
                let reverse = action == Action::SortReverse;
                if let Some(next) = self.table.next_sort(&self.columns, reverse) {
                    self.pages.cancel_all(ctx);
                    self.table.set_sort(Some(next));
                    ctx.notify(Level::Info, format!("sorted by {next}"));
                }
            }
            Action::Refresh => {
                self.table.retry();
                self.reload(ctx);
            }
            Action::CopyId => match self.table.selected() {
                Some(m) => ctx.copy(m.row.id.clone()),
                None => return false,
            },
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// The answer to the options.
    fn receive_options(&mut self, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        let Some(view) = &mut self.options else {
            return;
        };
        view.loading = None;
        match result {
            Ok(Reply::BackFilingOptions(options)) => view.options = Some(options),
            Ok(_) => {}
            Err(failure) => {
                view.error = Some(failure.message.clone());
                ctx.notify(Level::Error, failure.message);
            }
        }
    }
}

impl Pane for FilingsPane {
    fn title(&self) -> &str {
        "Filings"
    }

    fn hints(&self) -> Vec<PaneHint> {
        if let Some(dialog) = &self.dialog {
            return match dialog {
                Dialog::Bulk { .. } => vec![PaneHint::keys("y/n", "answer")],
                Dialog::Status(_) => vec![
                    PaneHint::keys("←/→", "choose"),
                    PaneHint::keys("enter", "show"),
                    PaneHint::keys("esc", "cancel"),
                ],
            };
        }
        if self.report.is_some() {
            return vec![PaneHint::action(Action::Back, "close")];
        }
        if self.options.is_some() {
            return vec![
                PaneHint::action(Action::Back, "close"),
                PaneHint::action(Action::Down, "next"),
                PaneHint::action(Action::OpenUrl, "help article"),
                PaneHint::action(Action::Refresh, "refresh"),
            ];
        }
        if self.detail.is_some() {
            return vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::Approve, "approve"),
                PaneHint::action(Action::Pause, "pause"),
            ];
        }
        vec![
            PaneHint::action(Action::Open, "open"),
            PaneHint::action(Action::Mark, "mark"),
            PaneHint::action(Action::Approve, "approve"),
            PaneHint::action(Action::Pause, "pause"),
            PaneHint::action(Action::BackFiling, "back-filing options"),
            PaneHint::action(Action::Filter, "status"),
            PaneHint::action(Action::Sort, "sort"),
            PaneHint::action(Action::Refresh, "refresh"),
        ]
    }

    fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn captures_text(&self) -> bool {
        self.dialog.is_some()
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        self.dialog = match dialog {
            Dialog::Status(mut picker) => match picker.handle_key(key) {
                PickerOutcome::None => Some(Dialog::Status(picker)),
                PickerOutcome::Cancelled => None,
                PickerOutcome::Picked(status) => {
                    self.filter.status_in = match status.as_str() {
                        "all" => Vec::new(),
                        s => vec![FilingStatus::parse(s)],
                    };
                    self.marks.clear(&mut self.table);
                    ctx.notify(Level::Info, format!("showing {}", self.status_label()));
                    self.reload(ctx);
                    None
                }
            },
            Dialog::Bulk {
                mut confirm,
                action,
                ids,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::None => Some(Dialog::Bulk {
                    confirm,
                    action,
                    ids,
                }),
                ConfirmOutcome::No => None,
                ConfirmOutcome::Yes => {
                    self.send_bulk(action, ids, ctx);
                    None
                }
            },
        };
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if self.report.is_some() {
            if matches!(action, Action::Back | Action::Open) {
                self.report = None;
                return true;
            }
            return false;
        }
        if self.options.is_some() {
            return self.options_action(action, ctx);
        }
        match action {
            Action::Approve => self.ask_bulk(Bulk::Approve, ctx),
            Action::Pause => self.ask_bulk(Bulk::Pause, ctx),
            Action::BackFiling => self.open_options(ctx),
            _ if self.detail.is_some() => return self.detail_action(action, ctx),
            _ => return self.list_action(action, ctx),
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.pages.owns(id) {
            let marks = &self.marks;
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::FilingsPage(rows) => Some(marks.rows(rows)),
                    _ => None,
                });
            self.fetch(ctx);
            return;
        }
        if let Some(pending) = self.bulk.take_if(|b| b.id == id) {
            return self.receive_bulk(pending, result, ctx);
        }
        if self.options.as_ref().and_then(|v| v.loading) == Some(id) {
            return self.receive_options(result, ctx);
        }
        let detail_call = self.detail.as_ref().and_then(|d| d.loading) == Some(id);
        if !self.refreshing.remove(&id) && !detail_call {
            return;
        }
        match result {
            Ok(Reply::Filing(filing)) => {
                if let Some(d) = self.detail.as_mut().filter(|d| d.filing.id == filing.id) {
                    d.filing = (*filing).clone();
                    if d.loading == Some(id) {
                        d.loading = None;
                    }
                }
                self.marks.update(&mut self.table, *filing);
            }
            Ok(_) => {}
            Err(failure) => {
                if let Some(d) = self.detail.as_mut().filter(|d| d.loading == Some(id)) {
                    d.loading = None;
                }
                ctx.notify(Level::Error, failure.message);
            }
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["back-filing", "refresh"]
    }

    fn command(&mut self, name: &str, _args: &[&str], ctx: &mut Ctx) -> bool {
        if self.captures_text() {
            return false;
        }
        match name {
            "back-filing" => self.open_options(ctx),
            "refresh" => self.reload(ctx),
            _ => return false,
        }
        true
    }

    fn draw(
        &mut self,
        frame: &mut Frame,
        area: Rect,
        theme: &Theme,
        _keys: &crate::ui::keymap::Keymap,
        focused: bool,
    ) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(if focused {
                theme.border_focus
            } else {
                theme.border
            })
            .title(Line::from(vec![
                Span::styled(" Filings ", theme.title),
                Span::styled(format!("— {} ", self.subtitle()), theme.muted),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        match &mut self.detail {
            Some(d) => detail::build(&d.filing, theme).render(inner, buf, &mut d.state),
            None => self.table.render(inner, buf, theme, &self.columns, focused),
        }
        if let Some(view) = &self.options {
            view.render(inner, buf, theme);
        }
        if let Some(report) = &self.report {
            report.render(inner, buf, theme);
        }
        match &self.dialog {
            Some(Dialog::Status(picker)) => picker.render(inner, buf, theme),
            Some(Dialog::Bulk { confirm, .. }) => confirm.render(inner, buf, theme),
            None => {}
        }
    }
}
