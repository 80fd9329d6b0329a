//! The Exemptions pane: the paged list with its live search, filters and sort, the detail of
//! one exemption with its attachments, the new-exemption form (the customer found by search)
//! and the certificate upload with path completion. `I` switches to the certificate imports
//! awaiting approval (Tenanted API; see [`imports`]).
//!
//! The search is sent as the user types, once the typing pauses for 300 ms: each search cancels
//! the request still on its way, so one list request at most is in flight and a stale answer is
//! never shown.

mod columns;
mod create;
mod detail;
mod filter;
mod imports;
mod list;
mod search;
mod upload;
mod writes;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, StatefulWidget, Widget};

pub use self::columns::columns;
use self::filter::{describe, filter_form, filter_of};
use self::imports::{Imports, Received};
use self::search::Search;
use self::upload::Upload;
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::filters::ExemptionFilter;
use crate::model::{Attachment, Exemption};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{self, Confirm};
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::{Column, PagedTable};

/// The exemption the detail shows, its files, and the answers it waits for.
struct DetailView {
    exemption: Exemption,
    state: DetailState,
    loading: Option<RequestId>,
    /// `None` while the list of files loads.
    files: Option<Vec<Attachment>>,
    files_loading: Option<RequestId>,
}

/// What the pane shows.
enum Mode {
    List,
    Filter(Form),
    Detail,
    /// The new-exemption form.
    Create(Form),
    /// The certificate upload of one exemption.
    Upload(Upload),
}

impl Mode {
    /// The open form, if any.
    fn form(&self) -> Option<&Form> {
        match self {
            Mode::Filter(form) | Mode::Create(form) => Some(form),
            Mode::Upload(upload) => Some(&upload.form),
            Mode::List | Mode::Detail => None,
        }
    }
}

/// Which view the pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Exemptions,
    /// The certificate imports awaiting approval.
    Imports,
}

/// The Exemptions pane.
pub struct ExemptionsPane {
    view: View,
    imports: Imports,
    table: PagedTable<Exemption>,
    columns: Vec<Column<Exemption>>,
    filter: ExemptionFilter,
    pages: PageCalls,
    mode: Mode,
    /// The search line, while it has the keys.
    search: Option<Search>,
    /// Typed search text not sent yet, and the ticks left before it is.
    pending_search: Option<(String, u8)>,
    detail: Option<DetailView>,
    /// The new exemption on its way.
    creating: Option<RequestId>,
    /// The customer lookup of the create form on its way, with the text it looks up.
    lookup: Option<(RequestId, String)>,
    /// The certificate on its way.
    uploading: Option<RequestId>,
    /// The path completion on its way, with the text it completes.
    completing: Option<(RequestId, String)>,
    confirm: Option<Confirm>,
    loaded: bool,
}

impl Default for ExemptionsPane {
    fn default() -> Self {
        Self::new()
    }
}

impl ExemptionsPane {
    pub fn new() -> Self {
        ExemptionsPane {
            view: View::Exemptions,
            imports: Imports::new(),
            table: PagedTable::new("exemptions"),
            columns: columns(),
            filter: ExemptionFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            search: None,
            pending_search: None,
            detail: None,
            creating: None,
            lookup: None,
            uploading: None,
            completing: None,
            confirm: None,
            loaded: false,
        }
    }

    /// Shows `exemption` at once and asks the service for its current record and its files.
    fn open_detail(&mut self, exemption: Exemption, ctx: &mut Ctx) {
        self.close_detail(ctx);
        self.detail = Some(DetailView {
            exemption,
            state: DetailState::default(),
            loading: None,
            files: None,
            files_loading: None,
        });
        self.refresh_detail(ctx);
        self.mode = Mode::Detail;
    }

    /// Forgets the detail, cancelling what it waits for.
    fn close_detail(&mut self, ctx: &mut Ctx) {
        if let Some(d) = self.detail.take() {
            for id in [d.loading, d.files_loading].into_iter().flatten() {
                ctx.cancel(id);
            }
        }
    }

    /// Asks the service again for the exemption the detail shows and its files.
    fn refresh_detail(&mut self, ctx: &mut Ctx) {
        let Some(d) = &mut self.detail else { return };
        if let Some(id) = d.loading.take() {
            ctx.cancel(id);
        }
        d.loading = Some(ctx.call(Call::Exemption {
            id: d.exemption.id.clone(),
        }));
        self.refresh_files(ctx);
    }

    /// Asks again for the files of the exemption the detail shows.
    fn refresh_files(&mut self, ctx: &mut Ctx) {
        let Some(d) = &mut self.detail else { return };
        if let Some(id) = d.files_loading.take() {
            ctx.cancel(id);
        }
        d.files_loading = Some(ctx.call(Call::Attachments {
            exemption_id: d.exemption.id.clone(),
        }));
    }

    /// The exemption the user is on: the detail's, or the table's selected row.
    fn current(&self) -> Option<&Exemption> {
        match self.mode {
            Mode::Detail => self.detail.as_ref().map(|d| &d.exemption),
            _ => self.table.selected(),
        }
    }

    /// Back from a form to where it was opened: the detail when one is open, else the list.
    fn close_form(&mut self) {
        self.mode = if self.detail.is_some() {
            Mode::Detail
        } else {
            Mode::List
        };
    }

    fn detail_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let Some(d) = &mut self.detail else {
            return false;
        };
        match action {
            Action::Back => {
                self.close_detail(ctx);
                self.mode = Mode::List;
            }
            action if d.state.navigate(action) => {}
            Action::Refresh => self.refresh_detail(ctx),
            _ => return false,
        }
        true
    }

    /// The words after the title: what the list shows, or what the form is for.
    fn subtitle(&self) -> String {
        if self.view == View::Imports {
            return self.imports.subtitle();
        }
        match &self.mode {
            Mode::Create(_) => "new exemption".to_owned(),
            Mode::Upload(u) => format!("certificate for {}", u.exemption.id),
            Mode::Detail => self
                .detail
                .as_ref()
                .map_or_else(String::new, |d| d.exemption.id.clone()),
            Mode::List | Mode::Filter(_) => {
                let sorted = self
                    .table
                    .sort()
                    .map_or_else(String::new, |s| format!(", sorted by {s}"));
                format!("{}{sorted}", describe(&self.filter))
            }
        }
    }
}

impl Pane for ExemptionsPane {
    fn title(&self) -> &str {
        "Exemptions"
    }

    fn hints(&self) -> Vec<PaneHint> {
        if self.view == View::Imports {
            return self.imports.hints();
        }
        if self.confirm.is_some() {
            return vec![PaneHint::keys("y/n", "answer")];
        }
        if self.search.is_some() {
            return vec![
                PaneHint::keys("enter", "keep"),
                PaneHint::keys("esc", "clear"),
                PaneHint::keys("tab", "more filters"),
            ];
        }
        match self.mode {
            Mode::Upload(_) => vec![
                PaneHint::keys("tab", "complete path"),
                PaneHint::keys("enter", "upload"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Create(_) => vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("←/→", "choose"),
                PaneHint::keys("ctrl-s", "submit"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Filter(_) => vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("←/→", "choose"),
                PaneHint::keys("ctrl-s", "apply"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Detail => vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::Attach, "attach certificate"),
                PaneHint::action(Action::New, "new exemption"),
            ],
            Mode::List => vec![
                PaneHint::action(Action::Open, "open"),
                PaneHint::action(Action::Filter, "search"),
                PaneHint::action(Action::Sort, "sort"),
                PaneHint::action(Action::SortReverse, "reverse"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::New, "new exemption"),
                PaneHint::action(Action::Attach, "attach certificate"),
                PaneHint::action(Action::Imports, "imports"),
            ],
        }
    }

    fn show(&mut self, ctx: &mut Ctx) {
        if self.view == View::Imports {
            return self.imports.show(ctx);
        }
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn captures_text(&self) -> bool {
        if self.view == View::Imports {
            return self.imports.captures_text();
        }
        self.confirm.is_some() || self.search.is_some() || self.mode.form().is_some()
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        if self.view == View::Imports {
            return self.imports.on_key(key, ctx);
        }
        if let Some(yes) = confirm::answer(&mut self.confirm, key) {
            if yes {
                self.close_form();
            }
            return;
        }
        if self.search.is_some() {
            self.search_key(key, ctx);
            return;
        }
        let outcome = match &mut self.mode {
            Mode::Filter(form) => form.handle_key(key),
            Mode::Create(_) => return self.create_key(key, ctx),
            Mode::Upload(_) => return self.upload_key(key, ctx),
            Mode::List | Mode::Detail => return,
        };
        match outcome {
            FormOutcome::Submit => {
                if let Mode::Filter(form) = &self.mode {
                    self.filter = filter_of(&form.values(), &self.filter);
                }
                self.mode = Mode::List;
                ctx.notify(Level::Info, format!("showing {}", describe(&self.filter)));
                self.reload(ctx);
            }
            FormOutcome::Cancel => self.close_form(),
            FormOutcome::AskDiscard => self.confirm = Some(Confirm::discard_input()),
            FormOutcome::None | FormOutcome::Invalid => {}
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match (self.view, action) {
            (View::Imports, Action::Imports) => {
                self.view = View::Exemptions;
                self.show(ctx);
                return true;
            }
            (View::Imports, action) => return self.imports.on_action(action, ctx),
            (View::Exemptions, Action::Imports) if matches!(self.mode, Mode::List) => {
                self.view = View::Imports;
                self.show(ctx);
                return true;
            }
            _ => {}
        }
        match action {
            Action::New => self.open_create(ctx),
            Action::Attach => self.open_upload(ctx),
            Action::CopyId => match self.current() {
                Some(e) => ctx.copy(e.id.clone()),
                None => return false,
            },
            _ if matches!(self.mode, Mode::Detail) => return self.detail_action(action, ctx),
            _ if matches!(self.mode, Mode::List) => return self.list_action(action, ctx),
            _ => return false,
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.imports.owns(id) {
            // An approval creates exemptions: the list shows them.
            if self.imports.receive(id, result, ctx) == Received::Approved {
                self.reload(ctx);
            }
            return;
        }
        if self.pages.owns(id) {
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::ExemptionsPage(rows) => Some(rows),
                    _ => None,
                });
            self.fetch(ctx);
            return;
        }
        if self.receive_write(id, &result, ctx) {
            return;
        }
        let Some(d) = &mut self.detail else { return };
        if d.loading == Some(id) {
            d.loading = None;
            match result {
                Ok(Reply::Exemption(exemption)) => {
                    // The list's row keeps the customer's name the record itself leaves out.
                    let mut exemption = *exemption;
                    if exemption.customer_name.is_none() {
                        exemption.customer_name = d.exemption.customer_name.clone();
                    }
                    d.exemption = exemption;
                }
                Ok(_) => {}
                Err(failure) => ctx.notify(Level::Error, failure.message),
            }
        } else if d.files_loading == Some(id) {
            d.files_loading = None;
            match result {
                Ok(Reply::Attachments(files)) => d.files = Some(files),
                Ok(_) => {}
                Err(failure) => {
                    d.files = Some(Vec::new());
                    ctx.notify(Level::Error, failure.message);
                }
            }
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec![
            "attach",
            "exemptions",
            "filter",
            "imports",
            "new",
            "refresh",
            "search",
        ]
    }

    fn command(&mut self, name: &str, args: &[&str], ctx: &mut Ctx) -> bool {
        if self.captures_text() {
            return false;
        }
        match (name, self.view) {
            ("imports", _) => {
                self.view = View::Imports;
                self.show(ctx);
                return true;
            }
            ("exemptions", _) => {
                self.view = View::Exemptions;
                self.show(ctx);
                return true;
            }
            ("refresh", View::Imports) => {
                self.imports.reload(ctx);
                return true;
            }
            (_, View::Imports) => return false,
            _ => {}
        }
        match name {
            "filter" => self.mode = Mode::Filter(filter_form(&self.filter)),
            "search" => {
                self.close_detail(ctx);
                self.mode = Mode::List;
                self.apply_search(&args.join(" "), ctx);
            }
            "new" => self.open_create(ctx),
            "attach" => self.open_upload(ctx),
            "refresh" => self.reload(ctx),
            _ => return false,
        }
        true
    }

    /// Sends the typed search once the typing has paused.
    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        let Some((text, ticks)) = &mut self.pending_search else {
            return false;
        };
        *ticks = ticks.saturating_sub(1);
        if *ticks == 0 {
            let text = std::mem::take(text);
            self.pending_search = None;
            self.apply_search(&text, ctx);
        }
        false
    }

    fn has_unsaved_input(&self) -> bool {
        self.mode.form().is_some_and(Form::is_dirty)
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
                Span::styled(" Exemptions ", theme.title),
                Span::styled(format!("— {} ", self.subtitle()), theme.muted),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        if self.view == View::Imports {
            return self.imports.draw(inner, buf, theme, focused);
        }
        match &mut self.mode {
            Mode::Detail => {
                if let Some(d) = &mut self.detail {
                    detail::build(&d.exemption, d.files.as_deref(), theme).render(
                        inner,
                        buf,
                        &mut d.state,
                    );
                }
            }
            Mode::Filter(form) | Mode::Create(form) => form.render(inner, buf, theme),
            Mode::Upload(upload) => upload.render(inner, buf, theme),
            Mode::List => {
                let table_area = match &self.search {
                    Some(search) => {
                        let [line, rest] =
                            Layout::vertical([Constraint::Length(1), Constraint::Min(1)])
                                .areas(inner);
                        search.line(theme).render(line, buf);
                        rest
                    }
                    None => inner,
                };
                self.table
                    .render(table_area, buf, theme, &self.columns, focused);
            }
        }
        if let Some(confirm) = &self.confirm {
            confirm.render(inner, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests;
