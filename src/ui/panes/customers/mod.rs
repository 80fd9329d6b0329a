//! The Customers pane: the paged list with its search, the detail of one customer with its tax
//! registrations, the new-customer form and the tax registration form.

mod columns;
mod detail;
mod filter;
mod forms;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, StatefulWidget};

pub use self::columns::columns;
use self::filter::{describe, filter_form, filter_of};
use crate::effect::{Call, Failure, FailureKind, Reply, RequestId};
use crate::model::filters::CustomerFilter;
use crate::model::{Customer, CustomerTaxRegistration};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::panes::paging::PageCalls;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{self, Confirm};
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::{Column, PagedTable};

/// The customer the detail shows, and the refresh it waits for.
struct DetailView {
    customer: Customer,
    state: DetailState,
    loading: Option<RequestId>,
}

/// What the pane shows.
enum Mode {
    List,
    Filter(Form),
    Detail,
    /// The new-customer form.
    Create(Form),
    /// The tax registration form of one customer.
    TaxId {
        customer: Box<Customer>,
        form: Form,
    },
}

impl Mode {
    /// The open form, if any.
    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            Mode::Filter(form) | Mode::Create(form) | Mode::TaxId { form, .. } => Some(form),
            Mode::List | Mode::Detail => None,
        }
    }

    /// The open form, if any.
    fn form(&self) -> Option<&Form> {
        match self {
            Mode::Filter(form) | Mode::Create(form) | Mode::TaxId { form, .. } => Some(form),
            Mode::List | Mode::Detail => None,
        }
    }
}

/// A customer's name for messages: the name, else the company, else the id.
fn display_name(c: &Customer) -> &str {
    c.name
        .as_deref()
        .or(c.company_name.as_deref())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(&c.id)
}

/// `gst_hst 123456789RT0001 (valid)`.
fn describe_registration(r: &CustomerTaxRegistration) -> String {
    let valid = if r.is_valid { "valid" } else { "not valid" };
    format!("{} {} ({valid})", r.tax_type, r.tax_id)
}

/// The Customers pane.
pub struct CustomersPane {
    table: PagedTable<Customer>,
    columns: Vec<Column<Customer>>,
    filter: CustomerFilter,
    pages: PageCalls,
    mode: Mode,
    detail: Option<DetailView>,
    /// The new customer on its way.
    creating: Option<RequestId>,
    /// The tax registration on its way.
    saving_tax: Option<RequestId>,
    confirm: Option<Confirm>,
    loaded: bool,
}

impl Default for CustomersPane {
    fn default() -> Self {
        Self::new()
    }
}

impl CustomersPane {
    pub fn new() -> Self {
        CustomersPane {
            table: PagedTable::new("customers"),
            columns: columns(),
            filter: CustomerFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            detail: None,
            creating: None,
            saving_tax: None,
            confirm: None,
            loaded: false,
        }
    }

    /// Asks for the pages the table wants.
    fn fetch(&mut self, ctx: &mut Ctx) {
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::Customers {
                filter: self.filter.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the filter in force: old answers still on their way are cancelled.
    fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    /// Shows `customer` at once and asks the service for its current record.
    fn open_detail(&mut self, customer: Customer, ctx: &mut Ctx) {
        if let Some(id) = self.detail.as_mut().and_then(|d| d.loading.take()) {
            ctx.cancel(id);
        }
        self.detail = Some(DetailView {
            customer,
            state: DetailState::default(),
            loading: None,
        });
        self.refresh_detail(ctx);
        self.mode = Mode::Detail;
    }

    /// Asks the service again for the customer the detail shows, staying where the user is.
    fn refresh_detail(&mut self, ctx: &mut Ctx) {
        let Some(d) = &mut self.detail else { return };
        if let Some(id) = d.loading.take() {
            ctx.cancel(id);
        }
        d.loading = Some(ctx.call(Call::Customer {
            id: d.customer.id.clone(),
        }));
    }

    /// The customer the user is on: the detail's, or the table's selected row.
    fn current(&self) -> Option<&Customer> {
        match self.mode {
            Mode::Detail => self.detail.as_ref().map(|d| &d.customer),
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

    /// Whether writes are allowed; says why not when they are not.
    fn may_write(ctx: &mut Ctx) -> bool {
        if ctx.read_only() {
            ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
        }
        !ctx.read_only()
    }

    fn open_create(&mut self, ctx: &mut Ctx) {
        if Self::may_write(ctx) {
            self.mode = Mode::Create(forms::create_form());
        }
    }

    fn open_tax_form(&mut self, ctx: &mut Ctx) {
        if !Self::may_write(ctx) {
            return;
        }
        match self.current().cloned() {
            Some(customer) => {
                self.mode = Mode::TaxId {
                    customer: Box::new(customer),
                    form: forms::tax_form(),
                }
            }
            None => ctx.notify(Level::Info, "Select a customer first."),
        }
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
            Mode::Create(form) => match forms::create_body(&form.values()) {
                Ok(body) => {
                    form.set_busy(true);
                    self.creating = Some(ctx.call(Call::CreateCustomer {
                        body: Box::new(body),
                    }));
                }
                Err(errors) => form.set_errors(&errors),
            },
            Mode::TaxId { customer, form } => match forms::tax_body(&form.values()) {
                Ok(body) => {
                    form.set_busy(true);
                    self.saving_tax = Some(ctx.call(Call::CustomerTaxRegistration {
                        customer_id: customer.id.clone(),
                        body,
                    }));
                }
                Err(errors) => form.set_errors(&errors),
            },
            Mode::List | Mode::Detail => {}
        }
    }

    /// A write the service refused: the fields it names show their errors under them, and every
    /// value stays as typed, ready to be fixed and sent again.
    fn refused(form: &mut Form, failure: &Failure) {
        form.set_busy(false);
        if failure.kind == FailureKind::Validation {
            form.set_errors(&failure.fields);
        }
    }

    fn created(&mut self, customer: Customer, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!("Customer {} created.", display_name(&customer)),
        );
        if matches!(self.mode, Mode::Create(_)) {
            self.open_detail(customer, ctx);
        }
        self.reload(ctx);
    }

    /// A tax registration saved: the customer's detail is opened (or refreshed) to show it as the
    /// service now has it.
    fn tax_saved(&mut self, registration: &CustomerTaxRegistration, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!(
                "Tax registration saved: {}.",
                describe_registration(registration)
            ),
        );
        match &self.mode {
            Mode::TaxId { customer, .. } => {
                let customer = (**customer).clone();
                self.open_detail(customer, ctx);
            }
            _ if self
                .detail
                .as_ref()
                .is_some_and(|d| d.customer.id == registration.customer_id) =>
            {
                self.refresh_detail(ctx);
            }
            _ => {}
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

    fn list_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            // Movement: the table moves its cursor.
            action if self.table.navigate(action) => {}
            Action::Open => match self.table.selected().cloned() {
                Some(c) => self.open_detail(c, ctx),
                None => return false,
            },
            Action::Filter => self.mode = Mode::Filter(filter_form(&self.filter)),
            Action::Refresh => self.reload(ctx),
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// The words after the title: what the list shows, or what the form is for.
    fn subtitle(&self) -> String {
        match &self.mode {
            Mode::Create(_) => "new customer".to_owned(),
            Mode::TaxId { customer, .. } => {
                format!("tax registration of {}", display_name(customer))
            }
            Mode::Detail => self
                .detail
                .as_ref()
                .map_or_else(String::new, |d| display_name(&d.customer).to_owned()),
            Mode::List | Mode::Filter(_) => describe(&self.filter),
        }
    }
}

impl Pane for CustomersPane {
    fn title(&self) -> &str {
        "Customers"
    }

    fn hints(&self) -> Vec<PaneHint> {
        if self.confirm.is_some() {
            return vec![PaneHint::keys("y/n", "answer")];
        }
        match self.mode {
            Mode::Create(_) => vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("←/→", "choose status"),
                PaneHint::keys("enter", "next/submit"),
                PaneHint::keys("ctrl-s", "submit"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Filter(_) | Mode::TaxId { .. } => vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("enter", "next/submit"),
                PaneHint::keys("ctrl-s", "submit"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Detail => vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::TaxId, "tax registration"),
                PaneHint::action(Action::New, "new customer"),
            ],
            Mode::List => vec![
                PaneHint::action(Action::Open, "open"),
                PaneHint::action(Action::Filter, "search"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::New, "new customer"),
                PaneHint::action(Action::TaxId, "tax registration"),
            ],
        }
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
        match action {
            Action::New => self.open_create(ctx),
            Action::TaxId => self.open_tax_form(ctx),
            Action::CopyId => match self.current() {
                Some(c) => ctx.copy(c.id.clone()),
                None => return false,
            },
            _ if matches!(self.mode, Mode::Detail) => return self.detail_action(action, ctx),
            _ if matches!(self.mode, Mode::List) => return self.list_action(action, ctx),
            _ => return false,
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.pages.owns(id) {
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::CustomersPage(rows) => Some(rows),
                    _ => None,
                });
            self.fetch(ctx);
            return;
        }
        if self.creating == Some(id) {
            self.creating = None;
            match result {
                Ok(Reply::Customer(customer)) => self.created(customer, ctx),
                Ok(_) => {}
                Err(failure) => {
                    if let Mode::Create(form) = &mut self.mode {
                        Self::refused(form, &failure);
                    }
                    ctx.notify(Level::Error, failure.message);
                }
            }
            return;
        }
        if self.saving_tax == Some(id) {
            self.saving_tax = None;
            match result {
                Ok(Reply::CustomerTaxRegistration(r)) => self.tax_saved(&r, ctx),
                Ok(_) => {}
                Err(failure) => {
                    if let Mode::TaxId { form, .. } = &mut self.mode {
                        Self::refused(form, &failure);
                    }
                    ctx.notify(Level::Error, failure.message);
                }
            }
            return;
        }
        let Some(d) = &mut self.detail else { return };
        if d.loading != Some(id) {
            return;
        }
        d.loading = None;
        match result {
            Ok(Reply::Customer(customer)) => {
                self.table
                    .replace_where(|c| c.id == customer.id, customer.clone());
                d.customer = customer;
            }
            Ok(_) => {}
            Err(failure) => ctx.notify(Level::Error, failure.message),
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["filter", "new", "refresh", "tax"]
    }

    fn command(&mut self, name: &str, _args: &[&str], ctx: &mut Ctx) -> bool {
        if self.captures_text() {
            return false;
        }
        match name {
            "filter" => self.mode = Mode::Filter(filter_form(&self.filter)),
            "new" => self.open_create(ctx),
            "tax" => self.open_tax_form(ctx),
            "refresh" => self.reload(ctx),
            _ => return false,
        }
        true
    }

    fn has_unsaved_input(&self) -> bool {
        self.mode.form().is_some_and(Form::is_dirty)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(if focused {
                theme.border_focus
            } else {
                theme.border
            })
            .title(Line::from(vec![
                Span::styled(" Customers ", theme.title),
                Span::styled(format!("— {} ", self.subtitle()), theme.muted),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        match &mut self.mode {
            Mode::Detail => {
                if let Some(d) = &mut self.detail {
                    detail::build(&d.customer, theme).render(inner, buf, &mut d.state);
                }
            }
            Mode::Filter(form) | Mode::Create(form) | Mode::TaxId { form, .. } => {
                form.render(inner, buf, theme)
            }
            Mode::List => self.table.render(inner, buf, theme, &self.columns, focused),
        }
        if let Some(confirm) = &self.confirm {
            confirm.render(inner, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests;
