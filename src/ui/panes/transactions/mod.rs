//! The Transactions pane: the paged list with its filters and sort, the detail of one
//! transaction (refreshing by itself until the service has calculated its tax), the credit note
//! form against a sale, the `:estimate` form and the `:terms` view.

mod columns;
mod credit;
mod detail;
mod estimate;
mod filter;
mod list;

use chrono::Utc;
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, StatefulWidget, Widget};

pub use self::columns::columns;
use self::filter::{describe, filter_form, filter_of};
use crate::effect::{Call, Failure, FailureKind, Reply, RequestId};
use crate::model::filters::TransactionFilter;
use crate::model::{BackFilingTerms, EstimateResponse, Transaction, TransactionType};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{self, Confirm};
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::{Column, PagedTable};

/// Ticks between two refreshes of a transaction whose tax is not in yet (about 2 s at the
/// runtime's 100 ms tick).
const REFRESH_TICKS: u32 = 20;

/// The transaction the detail shows, and the refresh it waits for.
struct DetailView {
    transaction: Transaction,
    state: DetailState,
    loading: Option<RequestId>,
    /// Ticks since the last answer, while the tax is pending.
    ticks: u32,
    /// The user asked for a credit note before the full record arrived.
    credit_when_loaded: bool,
}

/// The estimate form, and the estimate once the service answered.
struct EstimateView {
    form: Form,
    result: Option<EstimateResponse>,
    state: DetailState,
}

/// What the pane shows.
enum Mode {
    List,
    Filter(Form),
    Detail,
    /// The credit note form against a sale.
    Credit {
        sale: Box<Transaction>,
        form: Form,
    },
    Estimate(Box<EstimateView>),
    /// The back-filing terms (`None` while they load).
    Terms(Option<Box<BackFilingTerms>>, DetailState),
}

impl Mode {
    /// The form that has the keys, if any.
    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            Mode::Filter(form) | Mode::Credit { form, .. } => Some(form),
            Mode::Estimate(e) if e.result.is_none() => Some(&mut e.form),
            _ => None,
        }
    }

    /// The form that has the keys, if any.
    fn form(&self) -> Option<&Form> {
        match self {
            Mode::Filter(form) | Mode::Credit { form, .. } => Some(form),
            Mode::Estimate(e) if e.result.is_none() => Some(&e.form),
            _ => None,
        }
    }
}

/// The Transactions pane.
pub struct TransactionsPane {
    table: PagedTable<Transaction>,
    columns: Vec<Column<Transaction>>,
    filter: TransactionFilter,
    pages: PageCalls,
    mode: Mode,
    detail: Option<DetailView>,
    /// The credit note on its way.
    crediting: Option<RequestId>,
    /// The estimate on its way.
    estimating: Option<RequestId>,
    /// The back-filing terms on their way.
    loading_terms: Option<RequestId>,
    confirm: Option<Confirm>,
    loaded: bool,
}

impl Default for TransactionsPane {
    fn default() -> Self {
        Self::new()
    }
}

impl TransactionsPane {
    pub fn new() -> Self {
        TransactionsPane {
            table: PagedTable::new("transactions"),
            columns: columns(),
            filter: TransactionFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            detail: None,
            crediting: None,
            estimating: None,
            loading_terms: None,
            confirm: None,
            loaded: false,
        }
    }

    /// Shows `transaction` at once and asks the service for its full, current record.
    fn open_detail(&mut self, transaction: Transaction, ctx: &mut Ctx) {
        if let Some(id) = self.detail.as_mut().and_then(|d| d.loading.take()) {
            ctx.cancel(id);
        }
        self.detail = Some(DetailView {
            transaction,
            state: DetailState::default(),
            loading: None,
            ticks: 0,
            credit_when_loaded: false,
        });
        self.refresh_detail(ctx);
        self.mode = Mode::Detail;
    }

    /// Asks the service again for the transaction the detail shows.
    fn refresh_detail(&mut self, ctx: &mut Ctx) {
        let Some(d) = &mut self.detail else { return };
        if let Some(id) = d.loading.take() {
            ctx.cancel(id);
        }
        d.ticks = 0;
        d.loading = Some(ctx.call(Call::Transaction {
            id: d.transaction.id.clone(),
        }));
    }

    /// The transaction the user is on: the detail's, or the table's selected row.
    fn current(&self) -> Option<&Transaction> {
        match self.mode {
            Mode::List => self.table.selected(),
            _ => self.detail.as_ref().map(|d| &d.transaction),
        }
    }

    /// Back from a form or view to where it was opened: the detail when one is open, else the
    /// list.
    fn close_form(&mut self) {
        self.mode = if self.detail.is_some() {
            Mode::Detail
        } else {
            Mode::List
        };
    }

    /// `c`: the credit note form against the sale the user is on, once its full record (with
    /// every item) is in.
    fn credit(&mut self, ctx: &mut Ctx) {
        if ctx.read_only() {
            ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
            return;
        }
        let Some(t) = self.current().cloned() else {
            ctx.notify(Level::Info, "Select a sale first.");
            return;
        };
        if t.kind != TransactionType::Sale {
            ctx.notify(
                Level::Error,
                format!(
                    "Credit notes are issued against a sale; this is a {}.",
                    t.kind
                ),
            );
            return;
        }
        if matches!(self.mode, Mode::List) {
            self.open_detail(t, ctx);
        }
        match &mut self.detail {
            Some(d) if d.loading.is_some() => d.credit_when_loaded = true,
            Some(d) => {
                self.mode = Mode::Credit {
                    form: credit::credit_form(&d.transaction, Utc::now().date_naive()),
                    sale: Box::new(d.transaction.clone()),
                }
            }
            None => {}
        }
    }

    fn open_estimate(&mut self) {
        self.mode = Mode::Estimate(Box::new(EstimateView {
            form: estimate::estimate_form(Utc::now().date_naive()),
            result: None,
            state: DetailState::default(),
        }));
    }

    fn open_terms(&mut self, ctx: &mut Ctx) {
        if let Some(id) = self.loading_terms.take() {
            ctx.cancel(id);
        }
        self.loading_terms = Some(ctx.call(Call::BackFilingTerms));
        self.mode = Mode::Terms(None, DetailState::default());
    }

    /// Sends what the open form describes, when its rules pass.
    fn submit(&mut self, ctx: &mut Ctx) {
        match &mut self.mode {
            Mode::Filter(form) => {
                self.filter = filter_of(&form.values());
                self.mode = Mode::List;
                ctx.notify(Level::Info, format!("showing {}", describe(&self.filter)));
                self.reload(ctx);
            }
            Mode::Credit { sale, form } => match credit::credit_body(&form.values()) {
                Ok(body) => {
                    form.set_busy(true);
                    self.crediting = Some(ctx.call(Call::CreditNote {
                        original_id: sale.id.clone(),
                        body: Box::new(body),
                    }));
                }
                Err(errors) => form.set_errors(&errors),
            },
            Mode::Estimate(e) => match estimate::estimate_body(&e.form.values()) {
                Ok(body) => {
                    e.form.set_busy(true);
                    self.estimating = Some(ctx.call(Call::Estimate {
                        body: Box::new(body),
                    }));
                }
                Err(errors) => e.form.set_errors(&errors),
            },
            Mode::List | Mode::Detail | Mode::Terms(..) => {}
        }
    }

    /// A call the service refused: the fields it names show their errors under them, and every
    /// value stays as typed.
    fn refused(form: Option<&mut Form>, failure: &Failure, ctx: &mut Ctx) {
        if let Some(form) = form {
            form.set_busy(false);
            if failure.kind == FailureKind::Validation {
                form.set_errors(&failure.fields);
            }
        }
        ctx.notify(Level::Error, failure.message.clone());
    }

    /// The credit note was issued: its detail opens, and the list shows it.
    fn credited(&mut self, note: Transaction, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!("Credit note {} issued ({}).", note.external_id, note.kind),
        );
        self.open_detail(note, ctx);
        self.reload(ctx);
    }

    /// The full, current record of the detail's transaction.
    fn detail_loaded(&mut self, transaction: Transaction) {
        let Some(d) = &mut self.detail else { return };
        self.table
            .replace_where(|t| t.id == transaction.id, transaction.clone());
        d.transaction = transaction;
        if std::mem::take(&mut d.credit_when_loaded) && matches!(self.mode, Mode::Detail) {
            let sale = d.transaction.clone();
            self.mode = Mode::Credit {
                form: credit::credit_form(&sale, Utc::now().date_naive()),
                sale: Box::new(sale),
            };
        }
    }

    fn detail_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let Some(d) = &mut self.detail else {
            return false;
        };
        match action {
            Action::Back => {
                if let Some(id) = d.loading.take() {
                    ctx.cancel(id);
                }
                self.detail = None;
                self.mode = Mode::List;
            }
            action if d.state.navigate(action) => {}
            Action::Refresh => self.refresh_detail(ctx),
            _ => return false,
        }
        true
    }

    /// Scrolling and closing the estimate's answer and the terms.
    fn view_action(&mut self, action: Action) -> bool {
        let state = match &mut self.mode {
            Mode::Estimate(e) if e.result.is_some() => {
                if action == Action::Back {
                    e.result = None;
                    e.form.set_busy(false);
                    return true;
                }
                &mut e.state
            }
            Mode::Terms(_, state) => {
                if action == Action::Back {
                    self.close_form();
                    return true;
                }
                state
            }
            _ => return false,
        };
        match action {
            action if state.navigate(action) => {}
            _ => return false,
        }
        true
    }

    /// The words after the title: what the list shows, or what the view is for.
    fn subtitle(&self) -> String {
        match &self.mode {
            Mode::List | Mode::Filter(_) => {
                let sort = self
                    .table
                    .sort()
                    .map_or_else(String::new, |s| format!(", sorted by {s}"));
                format!("{}{sort}", describe(&self.filter))
            }
            Mode::Detail => self
                .detail
                .as_ref()
                .map_or_else(String::new, |d| d.transaction.external_id.clone()),
            Mode::Credit { sale, .. } => format!("credit note against {}", sale.external_id),
            Mode::Estimate(_) => "tax estimate".to_owned(),
            Mode::Terms(..) => "back-filing terms".to_owned(),
        }
    }
}

impl Pane for TransactionsPane {
    fn title(&self) -> &str {
        "Transactions"
    }

    fn hints(&self) -> Vec<PaneHint> {
        if self.confirm.is_some() {
            return vec![PaneHint::keys("y/n", "answer")];
        }
        let form = vec![
            PaneHint::keys("tab", "next field"),
            PaneHint::keys("←/→", "choose"),
            PaneHint::keys("ctrl-s", "submit"),
            PaneHint::keys("esc", "cancel"),
        ];
        let mut hints = match &self.mode {
            Mode::Filter(_) | Mode::Credit { .. } => return form,
            Mode::Estimate(e) if e.result.is_none() => return form,
            Mode::Estimate(_) | Mode::Terms(..) => {
                return vec![
                    PaneHint::action(Action::Back, "back"),
                    PaneHint::action(Action::Up, "scroll"),
                ];
            }
            Mode::Detail => vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
            ],
            Mode::List => vec![
                PaneHint::action(Action::Open, "open"),
                PaneHint::action(Action::Filter, "filter"),
                PaneHint::action(Action::Sort, "sort"),
                PaneHint::action(Action::SortReverse, "reverse"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
            ],
        };
        // `c` is offered on a sale only.
        if self
            .current()
            .is_some_and(|t| t.kind == TransactionType::Sale)
        {
            hints.push(PaneHint::action(Action::CreditNote, "credit note"));
        }
        hints
    }

    fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn captures_text(&self) -> bool {
        self.confirm.is_some() || self.mode.form().is_some()
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        if let Some(yes) = confirm::answer(&mut self.confirm, key) {
            if yes {
                self.close_form();
            }
            return;
        }
        let Some(form) = self.mode.form_mut() else {
            return;
        };
        match form.handle_key(key) {
            FormOutcome::Submit => self.submit(ctx),
            FormOutcome::Cancel => self.close_form(),
            FormOutcome::AskDiscard => self.confirm = Some(Confirm::discard_input()),
            FormOutcome::None | FormOutcome::Invalid => {}
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match (&self.mode, action) {
            (Mode::List | Mode::Detail, Action::CreditNote) => self.credit(ctx),
            (Mode::List | Mode::Detail, Action::CopyId) => match self.current() {
                Some(t) => ctx.copy(t.id.clone()),
                None => return false,
            },
            (Mode::Detail, _) => return self.detail_action(action, ctx),
            (Mode::List, _) => return self.list_action(action, ctx),
            _ => return self.view_action(action),
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.pages.owns(id) {
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::TransactionsPage(rows) => Some(rows),
                    _ => None,
                });
            self.fetch(ctx);
        } else if self.crediting == Some(id) {
            self.crediting = None;
            match result {
                Ok(Reply::Transaction(note)) => self.credited(*note, ctx),
                Ok(_) => {}
                Err(failure) => {
                    let form = match &mut self.mode {
                        Mode::Credit { form, .. } => Some(form),
                        _ => None,
                    };
                    Self::refused(form, &failure, ctx);
                }
            }
        } else if self.estimating == Some(id) {
            self.estimating = None;
            let Mode::Estimate(e) = &mut self.mode else {
                return;
            };
            match result {
                Ok(Reply::Estimate(answer)) => {
                    e.result = Some(*answer);
                    e.state = DetailState::default();
                }
                Ok(_) => {}
                Err(failure) => Self::refused(Some(&mut e.form), &failure, ctx),
            }
        } else if self.loading_terms == Some(id) {
            self.loading_terms = None;
            match result {
                Ok(Reply::BackFilingTerms(terms)) => {
                    if let Mode::Terms(shown, _) = &mut self.mode {
                        *shown = Some(Box::new(terms));
                    }
                }
                Ok(_) => {}
                Err(failure) => ctx.notify(Level::Error, failure.message),
            }
        } else if let Some(d) = &mut self.detail
            && d.loading == Some(id)
        {
            d.loading = None;
            d.ticks = 0;
            match result {
                Ok(Reply::Transaction(t)) => self.detail_loaded(*t),
                Ok(_) => {}
                Err(failure) => {
                    d.credit_when_loaded = false;
                    ctx.notify(Level::Error, failure.message);
                }
            }
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["estimate", "filter", "refresh", "terms"]
    }

    fn command(&mut self, name: &str, _args: &[&str], ctx: &mut Ctx) -> bool {
        if self.captures_text() {
            return false;
        }
        match name {
            "estimate" => self.open_estimate(),
            "terms" => self.open_terms(ctx),
            "filter" => self.mode = Mode::Filter(filter_form(&self.filter)),
            "refresh" => self.reload(ctx),
            _ => return false,
        }
        true
    }

    fn has_unsaved_input(&self) -> bool {
        self.mode.form().is_some_and(Form::is_dirty)
    }

    /// While the detail shows a transaction whose tax is not calculated yet, asks for it again
    /// every [`REFRESH_TICKS`] ticks until the tax is in.
    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        let Some(d) = &mut self.detail else {
            return false;
        };
        if !matches!(self.mode, Mode::Detail)
            || d.loading.is_some()
            || d.transaction.tax_is_calculated()
        {
            return false;
        }
        d.ticks += 1;
        if d.ticks >= REFRESH_TICKS {
            self.refresh_detail(ctx);
        }
        false
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
                Span::styled(" Transactions ", theme.title),
                Span::styled(format!("— {} ", self.subtitle()), theme.muted),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        match &mut self.mode {
            Mode::List => self.table.render(inner, buf, theme, &self.columns, focused),
            Mode::Filter(form) => form.render(inner, buf, theme),
            Mode::Detail => {
                if let Some(d) = &mut self.detail {
                    detail::build(&d.transaction, theme).render(inner, buf, &mut d.state);
                }
            }
            Mode::Credit { sale, form } => credit::draw_credit(sale, form, inner, buf, theme),
            Mode::Estimate(e) => match &e.result {
                Some(result) => {
                    estimate::estimate_detail(result, theme).render(inner, buf, &mut e.state)
                }
                None => e.form.render(inner, buf, theme),
            },
            Mode::Terms(terms, state) => match terms {
                Some(terms) => estimate::terms_detail(terms, theme).render(inner, buf, state),
                None => Paragraph::new(Span::styled("loading the back-filing terms…", theme.muted))
                    .render(inner, buf),
            },
        }
        if let Some(confirm) = &self.confirm {
            confirm.render(inner, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests;
