//! The Customers pane: the paged list with its search, the detail of one customer with its tax
//! registrations, the new-customer form and the tax registration form.

mod columns;
mod detail;
mod filter;
mod forms;

use crate::effect::{CustomerCall, CustomerReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use self::columns::columns;
use crate::effect::{Call, Reply};
use crate::model::filters::CustomerFilter;
use crate::model::{AddressStatus, Customer, CustomerTaxRegistration};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Relation};
use crate::ui::panes::{detail_lists, relations};
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, NoLayer, On, Operation, PaneSpec, PaneView, Parts, Reads, RecordView, Scope, Screen,
    Skeleton, Verb, address_key, address_step, open_detail, send_form, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::address::AddressPanel;
use crate::ui::widgets::form::{Form, FormOutcome};

/// The Customers pane.
pub type CustomersPane = Skeleton<Customers>;

list_spec! {
    /// The customer list.
    CustomerList {
        row: Customer,
        filter: CustomerFilter,
        noun: "customers",
        columns: columns,
        call: Customers(CustomerCall::List),
        page: CustomerReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, _current| filter::filter_of(values),
        kept_here: CustomerFilter::is_local, CustomerFilter::keeps,
        goto: Customers,
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

/// The title of the customer's transactions under the detail.
const TRANSACTIONS: &str = "Transactions";

/// How a customer reads in the detail.
static CUSTOMER: RecordView<Customer> = RecordView {
    id: |c| &c.id,
    title: |c| display_name(c).to_owned(),
    build: |record, (), theme, _, _| detail::build(record, theme),
};

/// The pane's forms.
pub enum CustomerForm {
    /// The new-customer form, with its address check.
    Create { form: Form, address: AddressPanel },
    /// The tax registration form of one customer.
    TaxId { customer: Box<Customer>, form: Form },
    /// The address of one customer, checked and fixed.
    Address {
        customer: Box<Customer>,
        form: Form,
        address: AddressPanel,
    },
}

impl PaneView for CustomerForm {
    fn form(&self) -> Option<&Form> {
        match self {
            CustomerForm::Create { form, .. }
            | CustomerForm::TaxId { form, .. }
            | CustomerForm::Address { form, .. } => Some(form),
        }
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            CustomerForm::Create { form, .. }
            | CustomerForm::TaxId { form, .. }
            | CustomerForm::Address { form, .. } => Some(form),
        }
    }

    fn subtitle(&self) -> String {
        match self {
            CustomerForm::Create { .. } => "new customer".to_owned(),
            CustomerForm::TaxId { customer, .. } => {
                format!("tax registration of {}", display_name(customer))
            }
            CustomerForm::Address { customer, .. } => {
                format!("address of {}", display_name(customer))
            }
        }
    }

    fn address(&mut self) -> Option<(&mut Form, &mut AddressPanel)> {
        match self {
            CustomerForm::Create { form, address }
            | CustomerForm::Address { form, address, .. } => Some((form, address)),
            CustomerForm::TaxId { .. } => None,
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            CustomerForm::Create { form, address }
            | CustomerForm::Address { form, address, .. } => {
                address.draw_with(form, area, buf, theme);
            }
            CustomerForm::TaxId { form, .. } => form.render(area, buf, theme),
        }
    }
}

/// The key that checks an address, sent once when the address form opens.
const ADDRESS_CHECK: KeyEvent = KeyEvent::new(
    crossterm::event::KeyCode::Char('l'),
    crossterm::event::KeyModifiers::CONTROL,
);

/// What the pane waits for.
#[derive(Debug)]
pub enum Op {
    /// The current record of the customer in the detail.
    Record,
    /// The transactions of the customer in the detail.
    Transactions,
    /// The address check of the new-customer form.
    Address,
    Create,
    SaveTax,
    /// A customer's fixed address on its way.
    SaveAddress,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record | Op::Transactions => Scope::Detail,
            Op::Create | Op::SaveTax | Op::SaveAddress | Op::Address => Scope::Pane,
        }
    }
}

/// What is the Customers pane's own.
#[derive(Default)]
pub struct Customers;

impl Customers {
    fn open_create(parts: &mut Parts<Self>) {
        parts.screen.open(CustomerForm::Create {
            form: forms::create_form(),
            address: AddressPanel::default(),
        });
    }

    fn open_tax_form(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match parts.current().cloned() {
            Some(customer) => parts.screen.open(CustomerForm::TaxId {
                customer: Box::new(customer),
                form: forms::tax_form(),
            }),
            None => ctx.notify(Level::Info, "Select a customer first."),
        }
    }

    /// `:fix-address`: the address form of the customer in the detail (or the selected one),
    /// its address on file checked at once.
    fn open_address(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(customer) = parts.current().cloned() else {
            ctx.notify(Level::Info, "Select a customer first.");
            return;
        };
        let mut form = forms::address_form(&customer);
        let mut address = AddressPanel::default();
        let step = address.key(&ADDRESS_CHECK, &mut form);
        parts.screen.open(CustomerForm::Address {
            customer: Box::new(customer),
            form,
            address,
        });
        if let Some(step) = step {
            address_step(step, &mut parts.requests, ctx, Op::Address);
        }
    }

    /// `:addresses`: the list of customers whose address needs fixing (the rest of the filter
    /// kept).
    fn address_queue(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let mut filter = parts.list.filter().clone();
        filter.address_status_in = AddressStatus::NEEDS_FIXING.to_vec();
        parts.show_list(filter, ctx);
    }

    fn address_saved(customer: &Customer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let status = customer
            .address_status
            .as_ref()
            .map_or_else(|| "no status".to_owned(), ToString::to_string);
        ctx.notify(
            Level::Success,
            format!("Address of {} saved ({status}).", display_name(customer)),
        );
        open_detail(parts, customer, ctx);
        parts.list.reload_at(Some(customer.id.clone()), ctx);
    }

    fn created(customer: &Customer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!("Customer {} created.", display_name(customer)),
        );
        if matches!(parts.screen.view(), Some(CustomerForm::Create { .. })) {
            open_detail(parts, customer, ctx);
        }
        parts.list.reload_at(Some(customer.id.clone()), ctx);
    }

    /// A tax registration saved: the customer's detail is opened (or refreshed) to show it as
    /// the service now has it.
    fn tax_saved(saved: &CustomerTaxRegistration, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!("Tax registration saved: {}.", describe_registration(saved)),
        );
        if let Some(CustomerForm::TaxId { customer, .. }) = parts.screen.view() {
            let customer = (**customer).clone();
            open_detail(parts, &customer, ctx);
        } else if let Screen::Detail(d) = &parts.screen
            && d.record.id == saved.customer_id
        {
            parts.requests.cancel_detail(ctx);
            parts.requests.call(
                ctx,
                Call::Customers(CustomerCall::Get {
                    id: saved.customer_id.clone(),
                }),
                Op::Record,
            );
        }
    }
}

impl PaneSpec for Customers {
    type List = CustomerList;
    type Extra = ();
    type View = CustomerForm;
    type Overlay = NoLayer;
    type Op = Op;

    const TITLE: &'static str = "Customers";
    const DETAIL: &'static RecordView<Customer> = &CUSTOMER;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Customers);
    const IMPORTS: Option<crate::effect::ImportResource> =
        Some(crate::effect::ImportResource::Customers);
    const FILTER: &'static str = "search";
    const RELATIONS: fn(&Customer) -> Vec<Relation> = relations::of_customer;

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::New, "new customer", On::Both, |v| {
            Self::open_create(v.parts);
        })
        .also("new")
        .writes()
        .starts_new(),
        Verb::key(Action::TaxId, "tax registration", On::Both, |v| {
            Self::open_tax_form(v.parts, v.ctx);
        })
        .also("tax")
        .writes(),
        Verb::command(
            "addresses",
            "the customers whose address needs fixing",
            |v| {
                Self::address_queue(v.parts, v.ctx);
            },
        ),
        Verb::command("fix-address", "check and fix the customer's address", |v| {
            Self::open_address(v.parts, v.ctx);
        })
        .writes(),
    ];

    const DETAIL_READS: Reads<Customer, Op> = |c| {
        let id = || c.id.clone();
        vec![
            (CustomerCall::Get { id: id() }.into(), Op::Record),
            (
                CustomerCall::Transactions { id: id() }.into(),
                Op::Transactions,
            ),
        ]
    };

    fn view_key(key: KeyEvent, parts: &mut Parts<Self>, ctx: &mut Ctx) -> Option<FormOutcome> {
        address_key(&key, parts, ctx, Op::Address)
    }

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match parts.view_and_requests() {
            (Some(CustomerForm::Create { form, .. }), requests) => {
                let body = forms::create_body(&form.values());
                send_form(form, body, requests, ctx, |body| {
                    let body = Box::new(body);
                    (Call::Customers(CustomerCall::Create { body }), Op::Create)
                });
            }
            (Some(CustomerForm::TaxId { customer, form }), requests) => {
                let customer_id = customer.id.clone();
                let body = forms::tax_body(&form.values());
                send_form(form, body, requests, ctx, |body| {
                    let call = CustomerCall::TaxRegistration { customer_id, body };
                    (Call::Customers(call), Op::SaveTax)
                });
            }
            (Some(CustomerForm::Address { customer, form, .. }), requests) => {
                let id = customer.id.clone();
                let body = forms::create_body(&form.values());
                send_form(form, body, requests, ctx, |body| {
                    let body = Box::new(body);
                    (
                        Call::Customers(CustomerCall::Update { id, body }),
                        Op::SaveAddress,
                    )
                });
            }
            (None, _) => {}
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Create, Ok(Reply::Customers(CustomerReply::One(customer)))) => {
                Self::created(&customer, parts, ctx);
            }
            (Op::SaveAddress, Ok(Reply::Customers(CustomerReply::One(customer)))) => {
                Self::address_saved(&customer, parts, ctx);
            }
            (Op::SaveTax, Ok(Reply::Customers(CustomerReply::TaxRegistration(r)))) => {
                Self::tax_saved(&r, parts, ctx);
            }
            (Op::Record, Ok(Reply::Customers(CustomerReply::One(customer)))) => {
                parts.record_read(customer);
            }
            (Op::Address, result) => parts.address_checked(result, ctx),
            (Op::Transactions, Ok(Reply::Customers(CustomerReply::Transactions(list)))) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.related = Some(detail_lists::transactions(TRANSACTIONS, &list));
                }
            }
            (Op::Transactions, Err(failure)) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.related = Some(detail_lists::failed(TRANSACTIONS, failure.message));
                }
            }
            (Op::Create | Op::SaveTax | Op::SaveAddress, Err(failure)) => {
                parts.refused(&failure, ctx);
            }
            (Op::Record, Err(failure)) => ctx.notify(Level::Error, failure.message),
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }
}

#[cfg(test)]
mod tests;
