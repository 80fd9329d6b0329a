//! The Transactions pane: the paged list with its filters and sort, the detail of one
//! transaction (refreshing by itself until the service has calculated its tax), the credit note
//! form against a sale, the `:estimate` form, the `:terms` view, and `:check exemptions`
//! (the exempt sales without a valid certificate).

pub mod columns;
mod credit;
mod detail;
mod edit;
mod estimate;
mod exempt;
mod filter;

use crate::effect::{TransactionCall, TransactionReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Paragraph, StatefulWidget, Widget};

pub use self::columns::columns;
use crate::effect::Goto;
use crate::effect::{Call, Reply};
use crate::model::filters::TransactionFilter;
use crate::model::{BackFilingTerms, EstimateResponse, Transaction, TransactionType};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint, Relation};
use crate::ui::panes::relations;
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, NoLayer, On, Operation, PaneSpec, PaneView, Parts, Reads, RecordView, Scope, Screen,
    Skeleton, Verb, address_key, form_hints, open_detail, page_hints, send_form, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::form::address::AddressPanel;
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::Sort;

/// Ticks between two refreshes of a transaction whose tax is not in yet (about 2 s at the
/// runtime's 100 ms tick).
const REFRESH_TICKS: u32 = 20;

/// The Transactions pane.
pub type TransactionsPane = Skeleton<Transactions>;

list_spec! {
    /// The transaction list.
    TransactionList {
        row: Transaction,
        filter: TransactionFilter,
        noun: "transactions",
        columns: columns,
        call: Transactions(TransactionCall::List),
        page: TransactionReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, current| filter::filter_of(values, current),
        kept_here: TransactionFilter::is_local, TransactionFilter::keeps,
        default_sort: Sort { key: "date", descending: true },
        goto: Transactions,
    }
}

/// What the detail of a transaction keeps beside the record.
#[derive(Default)]
pub struct Pending {
    /// Ticks since the last answer, while the tax is pending.
    ticks: u32,
    /// The user asked for a credit note before the full record arrived.
    credit_when_loaded: bool,
}

/// How a transaction reads in the detail.
static TRANSACTION: RecordView<Transaction, Pending> = RecordView {
    id: |t| &t.id,
    title: |t| t.external_id.clone(),
    build: |t, _, theme, _, _| detail::build(t, theme),
};

/// The pane's own forms and pages.
pub enum TransactionView {
    /// The credit note form against a sale: a new credit note, or (`editing`) the rewrite of a
    /// pending one, by its id.
    Credit {
        sale: Box<Transaction>,
        form: Form,
        editing: Option<String>,
    },
    /// The estimate form, and the estimate once the service answered.
    Estimate {
        form: Form,
        address: AddressPanel,
        result: Option<Box<EstimateResponse>>,
        state: DetailState,
    },
    /// The edit form of one transaction, with its address check.
    Edit {
        transaction: Box<Transaction>,
        form: Form,
        address: AddressPanel,
    },
    /// The back-filing terms (`None` while they load).
    Terms(Option<Box<BackFilingTerms>>, DetailState),
    /// The exempt sales without a valid certificate.
    Exemptions(exempt::ExemptionCheck),
}

impl PaneView for TransactionView {
    /// The exemption check's findings, once read, are shown again on the way back to them.
    fn kept(&self) -> Option<Self> {
        match self {
            TransactionView::Exemptions(check) if check.result.is_some() => {
                Some(TransactionView::Exemptions(check.clone()))
            }
            _ => None,
        }
    }

    fn form(&self) -> Option<&Form> {
        match self {
            TransactionView::Credit { form, .. }
            | TransactionView::Edit { form, .. }
            | TransactionView::Estimate {
                form, result: None, ..
            } => Some(form),
            _ => None,
        }
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            TransactionView::Credit { form, .. }
            | TransactionView::Edit { form, .. }
            | TransactionView::Estimate {
                form, result: None, ..
            } => Some(form),
            _ => None,
        }
    }

    fn subtitle(&self) -> String {
        match self {
            TransactionView::Credit {
                sale,
                editing: None,
                ..
            } => format!("credit note against {}", sale.external_id),
            TransactionView::Credit {
                sale,
                editing: Some(_),
                ..
            } => format!("editing a credit note against {}", sale.external_id),
            TransactionView::Estimate { .. } => "tax estimate".to_owned(),
            TransactionView::Edit { transaction, .. } => {
                format!("edit {}", transaction.external_id)
            }
            TransactionView::Terms(..) => "back-filing terms".to_owned(),
            TransactionView::Exemptions(check) => check.subtitle(),
        }
    }

    fn address(&mut self) -> Option<(&mut Form, &mut AddressPanel)> {
        match self {
            TransactionView::Estimate {
                form,
                address,
                result: None,
                ..
            }
            | TransactionView::Edit { form, address, .. } => Some((form, address)),
            _ => None,
        }
    }

    fn scroll(&mut self) -> Option<&mut DetailState> {
        match self {
            TransactionView::Estimate {
                result: Some(_),
                state,
                ..
            }
            | TransactionView::Terms(_, state) => Some(state),
            _ => None,
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            TransactionView::Credit { sale, form, .. } => {
                credit::draw_credit(sale, form, area, buf, theme);
            }
            TransactionView::Estimate {
                form,
                address,
                result,
                state,
            } => match result {
                Some(result) => estimate::estimate_detail(result, theme).render(area, buf, state),
                None => address.draw_with(form, area, buf, theme),
            },
            TransactionView::Edit { form, address, .. } => {
                address.draw_with(form, area, buf, theme);
            }
            TransactionView::Terms(terms, state) => match terms {
                Some(terms) => estimate::terms_detail(terms, theme).render(area, buf, state),
                None => Paragraph::new(Span::styled("loading the back-filing terms…", theme.muted))
                    .render(area, buf),
            },
            TransactionView::Exemptions(check) => check.draw(area, buf, theme),
        }
    }
}

/// What the pane waits for.
#[derive(Debug)]
pub enum Op {
    /// The full, current record of the transaction in the detail.
    Record,
    Credit,
    /// The sale a pending credit note credits, read to open the note's edit form.
    CreditSale(Box<Transaction>),
    /// A pending credit note's rewrite on its way.
    CreditEdit,
    Estimate,
    /// The address check of the estimate or edit form.
    Address,
    /// A transaction's edit on its way.
    Update,
    Terms,
    /// `:check exemptions`.
    ExemptionCheck,
    /// The sale of a finding, read to open its detail.
    Finding,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record => Scope::Detail,
            Op::Credit
            | Op::CreditSale(_)
            | Op::CreditEdit
            | Op::Estimate
            | Op::Address
            | Op::Update
            | Op::Terms
            | Op::ExemptionCheck
            | Op::Finding => Scope::Pane,
        }
    }
}

/// What is the Transactions pane's own.
#[derive(Default)]
pub struct Transactions {
    /// The exempt sales check a finding's sale was opened from, with that sale's id: `Esc` on
    /// the sale goes back to it.
    check_under: Option<(String, exempt::ExemptionCheck)>,
}

/// `c` is offered on a sale only.
fn on_a_sale(parts: &Parts<Transactions>) -> bool {
    parts
        .current()
        .is_some_and(|t| t.kind == TransactionType::Sale)
}

fn credit_view(sale: &Transaction) -> TransactionView {
    TransactionView::Credit {
        form: credit::credit_form(sale, crate::clock::today()),
        sale: Box::new(sale.clone()),
        editing: None,
    }
}

impl Transactions {
    /// `:product [N]` on a transaction's detail: the Products tab, searching for the product
    /// of line N (the first by default).
    fn open_product(args: &[&str], parts: &Parts<Self>, ctx: &mut Ctx) {
        let Screen::Detail(d) = &parts.screen else {
            ctx.notify(Level::Info, "Open a transaction first.");
            return;
        };
        let n = args
            .first()
            .and_then(|a| a.parse::<usize>().ok())
            .unwrap_or(1);
        let product = d
            .record
            .transaction_items
            .get(n.saturating_sub(1))
            .and_then(|i| {
                i.external_product_id
                    .clone()
                    .or_else(|| i.product_id.clone())
            });
        match product {
            Some(id) => ctx.goto(Goto::Products {
                filter: crate::model::filters::ProductFilter {
                    query: Some(id),
                    ..Default::default()
                },
                open: None,
            }),
            None => ctx.notify(Level::Info, format!("Line {n} names no product.")),
        }
    }

    /// `c`: the credit note form against the sale the user is on, once its full record (with
    /// every item) is in.
    fn credit(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(t) = parts.current().cloned() else {
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
        if parts.screen.is_list() {
            open_detail(parts, &t, ctx);
        }
        let loading = parts.requests.any(|op| matches!(op, Op::Record));
        let Screen::Detail(d) = &mut parts.screen else {
            return;
        };
        if loading {
            d.extra.credit_when_loaded = true;
        } else {
            let view = credit_view(&d.record);
            parts.screen.open(view);
        }
    }

    /// `e` or `:edit` on a transaction's detail, once its full record is in: the edit form, or
    /// for a locked or filed transaction why it cannot be edited (nothing is sent).
    fn open_edit(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Screen::Detail(d) = &parts.screen else {
            ctx.notify(
                Level::Info,
                "Open a transaction first (enter), then edit it.",
            );
            return;
        };
        if parts.requests.any(|op| matches!(op, Op::Record)) {
            ctx.notify(Level::Info, "The transaction is still loading.");
            return;
        }
        if let Some(why) = crate::rules::locked_reason(&d.record) {
            ctx.notify(Level::Error, format!("{why}; nothing was sent."));
            return;
        }
        if d.record.kind.is_credit_note() {
            Self::open_credit_edit(parts, ctx);
            return;
        }
        let transaction = Box::new(d.record.clone());
        let (form, address) = edit::edit_form(&transaction);
        parts.screen.open(TransactionView::Edit {
            transaction,
            form,
            address,
        });
    }

    /// `e` on a credit note: once the sale it credits is read, the credit note form holding the
    /// note's values, sent as its rewrite; a note no longer pending says why, and nothing is
    /// sent.
    fn open_credit_edit(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(note) = parts.screen.detail().map(|d| d.record.clone()) else {
            return;
        };
        if let Some(why) = crate::rules::credit_note_locked(&note) {
            ctx.notify(Level::Error, format!("{why}; nothing was sent."));
            return;
        }
        let Some(sale_id) = note.related_to.clone() else {
            ctx.notify(
                Level::Error,
                format!(
                    "Credit note {} names no sale it credits; nothing was sent.",
                    note.external_id
                ),
            );
            return;
        };
        parts.requests.again(
            ctx,
            Call::Transactions(TransactionCall::Get { id: sale_id }),
            Op::CreditSale(Box::new(note)),
        );
    }

    /// `:estimate`: the estimate form.
    fn open_estimate(parts: &mut Parts<Self>) {
        parts.screen.open(TransactionView::Estimate {
            form: estimate::estimate_form(crate::clock::today()),
            address: AddressPanel::new(estimate::ADDRESS),
            result: None,
            state: DetailState::default(),
        });
    }

    /// `:addresses`: the transactions whose address needs fixing, the rest of the filter kept.
    fn address_queue(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let mut filter = parts.list.filter().clone();
        filter.address_status_in = crate::model::AddressStatus::NEEDS_FIXING.to_vec();
        parts.show_list(filter, ctx);
    }

    fn open_terms(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let call = Call::Transactions(TransactionCall::BackFilingTerms);
        parts.requests.again(ctx, call, Op::Terms);
        parts
            .screen
            .open(TransactionView::Terms(None, DetailState::default()));
    }

    /// `:check exemptions [FROM [TO]]`.
    fn check(args: &[&str], parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match args.split_first() {
            Some((&"exemptions", range)) => match exempt::range(range, crate::clock::today()) {
                Ok((from, to)) => {
                    Self::run_check(exempt::ExemptionCheck::new(from, to), parts, ctx);
                }
                Err(why) => ctx.notify(Level::Error, why),
            },
            _ => ctx.notify(Level::Error, "Usage: :check exemptions [FROM [TO]]"),
        }
    }

    /// Opens `check` and reads it afresh.
    fn run_check(mut check: exempt::ExemptionCheck, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        parts
            .requests
            .cancel_where(ctx, |op| matches!(op, Op::ExemptionCheck | Op::Finding));
        let call = TransactionCall::ExemptionCheck {
            from: check.from,
            to: check.to,
        };
        parts
            .requests
            .call(ctx, Call::Transactions(call), Op::ExemptionCheck);
        check.result = None;
        parts.requests.cancel_detail(ctx);
        parts.screen = Screen::List;
        parts.screen.open(TransactionView::Exemptions(check));
    }

    /// An action on the exempt sales check.
    fn check_action(action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        let Some(TransactionView::Exemptions(check)) = parts.screen.view_mut() else {
            return false;
        };
        match action {
            action if check.navigate(action) => {}
            Action::Open => {
                let Some(id) = check.current().map(|f| f.transaction_id.clone()) else {
                    return false;
                };
                let call = Call::Transactions(TransactionCall::Get { id });
                parts.requests.again(ctx, call, Op::Finding);
            }
            Action::Customer => match check.current() {
                Some(f) => match &f.customer_id {
                    Some(id) => ctx.goto(finding_customer(id, f.customer_name.as_deref())),
                    None => ctx.notify(Level::Info, "This sale names no customer."),
                },
                None => return false,
            },
            Action::Refresh => {
                let check = check.clone();
                Self::run_check(check, parts, ctx);
            }
            _ => return false,
        }
        true
    }

    /// The full, current record of the detail's transaction.
    fn detail_loaded(parts: &mut Parts<Self>, transaction: Transaction) {
        parts.list.replace(&transaction);
        let Some(d) = parts.screen.detail_mut() else {
            return;
        };
        d.record = transaction;
        d.extra.ticks = 0;
        if std::mem::take(&mut d.extra.credit_when_loaded) && parts.screen.is_detail() {
            let view = parts.screen.detail().map(|d| credit_view(&d.record));
            if let Some(view) = view {
                parts.screen.open(view);
            }
        }
    }
}

/// The Customers tab on a finding's customer: searched by name, its detail open.
fn finding_customer(id: &str, name: Option<&str>) -> Goto {
    let open: Option<crate::model::Customer> =
        serde_json::from_value(serde_json::json!({ "id": id, "name": name })).ok();
    Goto::Customers {
        filter: crate::model::filters::CustomerFilter {
            search_query: Some(name.unwrap_or(id).to_owned()),
            ..crate::model::filters::CustomerFilter::default()
        },
        open,
    }
}

impl PaneSpec for Transactions {
    type List = TransactionList;
    type Extra = Pending;
    type View = TransactionView;
    type Overlay = NoLayer;
    type Op = Op;

    const TITLE: &'static str = "Transactions";
    const DETAIL: &'static RecordView<Transaction, Pending> = &TRANSACTION;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Transactions);
    const IMPORTS: Option<crate::effect::ImportResource> =
        Some(crate::effect::ImportResource::Transactions);
    const RELATIONS: fn(&Transaction) -> Vec<Relation> = relations::of_transaction;

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::CreditNote, "credit note", On::Both, |v| {
            Self::credit(v.parts, v.ctx);
        })
        .writes()
        .offered(on_a_sale),
        Verb::key(Action::Edit, "edit", On::Detail, |v| {
            Self::open_edit(v.parts, v.ctx);
        })
        .also("edit")
        .writes(),
        Verb::command("estimate", "a tax estimate", |v| {
            Self::open_estimate(v.parts);
        }),
        Verb::command("terms", "the back-filing terms", |v| {
            Self::open_terms(v.parts, v.ctx);
        }),
        Verb::command("product", "the product of line N (the first)", |v| {
            Self::open_product(v.args, v.parts, v.ctx);
        })
        .args("[N]"),
        Verb::command(
            "addresses",
            "the transactions whose address needs fixing",
            |v| {
                Self::address_queue(v.parts, v.ctx);
            },
        ),
        Verb::command("check", "exempt sales without a valid certificate", |v| {
            Self::check(v.args, v.parts, v.ctx);
        })
        .args("exemptions [FROM [TO]]"),
    ];

    const DETAIL_READS: Reads<Transaction, Op> =
        |t| vec![(TransactionCall::Get { id: t.id.clone() }.into(), Op::Record)];

    fn view_hints(&self, view: &TransactionView) -> Vec<PaneHint> {
        if let TransactionView::Exemptions(_) = view {
            return vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "move"),
                PaneHint::action(Action::Open, "open the sale"),
                PaneHint::action(Action::Customer, "its customer"),
                PaneHint::action(Action::Refresh, "check again"),
            ];
        }
        match view.form() {
            Some(form) => form_hints(form, "submit"),
            None => page_hints(),
        }
    }

    fn action(&mut self, action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        if Self::check_action(action, parts, ctx) {
            return true;
        }
        // Esc on a finding's sale goes back to the check it was opened from.
        if action == Action::Back
            && let Screen::Detail(d) = &parts.screen
            && let Some((id, check)) = self.check_under.take()
            && id == d.record.id
        {
            parts.requests.cancel_detail(ctx);
            parts.screen = Screen::List;
            parts.screen.open(TransactionView::Exemptions(check));
            return true;
        }
        // Esc on an estimate's answer goes back to its form.
        if let (Some(TransactionView::Estimate { form, result, .. }), Action::Back) =
            (parts.screen.view_mut(), action)
            && result.is_some()
        {
            *result = None;
            form.set_busy(false);
            return true;
        }
        false
    }

    fn view_key(key: KeyEvent, parts: &mut Parts<Self>, ctx: &mut Ctx) -> Option<FormOutcome> {
        address_key(&key, parts, ctx, Op::Address)
    }

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let (view, requests) = parts.view_and_requests();
        match view {
            Some(TransactionView::Credit {
                sale,
                form,
                editing,
            }) => {
                let body = credit::credit_body(&form.values(), sale);
                let original_id = sale.id.clone();
                send_form(form, body, requests, ctx, |body| {
                    let body = Box::new(body);
                    let (call, op) = match editing {
                        None => (
                            TransactionCall::CreditNote { original_id, body },
                            Op::Credit,
                        ),
                        Some(id) => (
                            TransactionCall::UpdateCreditNote {
                                original_id,
                                credit_note_id: id.clone(),
                                body,
                            },
                            Op::CreditEdit,
                        ),
                    };
                    (Call::Transactions(call), op)
                });
            }
            Some(TransactionView::Edit {
                transaction, form, ..
            }) => {
                let body = edit::edit_body(transaction, &form.values());
                let id = transaction.id.clone();
                send_form(form, body, requests, ctx, |body| {
                    let body = Box::new(body);
                    (
                        Call::Transactions(TransactionCall::Update { id, body }),
                        Op::Update,
                    )
                });
            }
            Some(TransactionView::Estimate { form, .. }) => {
                let body = estimate::estimate_body(&form.values());
                send_form(form, body, requests, ctx, |body| {
                    let body = Box::new(body);
                    (
                        Call::Transactions(TransactionCall::Estimate { body }),
                        Op::Estimate,
                    )
                });
            }
            _ => {}
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Record, Ok(Reply::Transactions(TransactionReply::One(t)))) => {
                Self::detail_loaded(parts, *t);
            }
            (Op::Record, Err(failure)) => {
                if let Some(d) = parts.screen.detail_mut() {
                    d.extra.credit_when_loaded = false;
                    d.extra.ticks = 0;
                }
                ctx.notify(Level::Error, failure.message);
            }
            (Op::Credit, Ok(Reply::Transactions(TransactionReply::One(note)))) => {
                ctx.notify(
                    Level::Success,
                    format!("Credit note {} issued ({}).", note.external_id, note.kind),
                );
                open_detail(parts, &note, ctx);
                parts.list.reload_at(Some(note.id.clone()), ctx);
            }
            (Op::CreditSale(note), Ok(Reply::Transactions(TransactionReply::One(sale)))) => {
                match credit::edit_form(&sale, &note) {
                    Ok(form) => parts.screen.open(TransactionView::Credit {
                        sale,
                        form,
                        editing: Some(note.id.clone()),
                    }),
                    Err(why) => ctx.notify(Level::Error, format!("{why}; nothing was sent.")),
                }
            }
            (Op::CreditSale(note), Err(failure)) => ctx.notify(
                Level::Error,
                format!(
                    "The sale credit note {} credits could not be read: {}",
                    note.external_id, failure.message
                ),
            ),
            (Op::CreditEdit, Ok(Reply::Transactions(TransactionReply::One(note)))) => {
                ctx.notify(
                    Level::Success,
                    format!("Credit note {} saved ({}).", note.external_id, note.kind),
                );
                open_detail(parts, &note, ctx);
                parts.list.reload_at(Some(note.id.clone()), ctx);
            }
            (Op::Address, result) => parts.address_checked(result, ctx),
            (Op::Update, Ok(Reply::Transactions(TransactionReply::One(saved)))) => {
                ctx.notify(
                    Level::Success,
                    format!("Transaction {} saved.", saved.external_id),
                );
                open_detail(parts, &saved, ctx);
                parts.list.reload_at(Some(saved.id.clone()), ctx);
            }
            (Op::Estimate, Ok(Reply::Transactions(TransactionReply::Estimate(answer)))) => {
                if let Some(TransactionView::Estimate { result, state, .. }) =
                    parts.screen.view_mut()
                {
                    *result = Some(answer);
                    *state = DetailState::default();
                }
            }
            (Op::Terms, Ok(Reply::Transactions(TransactionReply::BackFilingTerms(terms)))) => {
                if let Some(TransactionView::Terms(shown, _)) = parts.screen.view_mut() {
                    *shown = Some(Box::new(terms));
                }
            }
            (Op::Credit | Op::CreditEdit | Op::Estimate | Op::Update, Err(failure)) => {
                parts.refused(&failure, ctx);
            }
            (Op::Terms, Err(failure)) => ctx.notify(Level::Error, failure.message),
            (
                Op::ExemptionCheck,
                Ok(Reply::Transactions(TransactionReply::ExemptionFindings { checked, findings })),
            ) => {
                if let Some(TransactionView::Exemptions(check)) = parts.screen.view_mut() {
                    check.selected = 0;
                    check.result = Some(Ok((checked, findings)));
                }
            }
            (Op::ExemptionCheck, Err(failure)) => {
                if let Some(TransactionView::Exemptions(check)) = parts.screen.view_mut() {
                    check.result = Some(Err(failure.message.clone()));
                }
                ctx.notify(Level::Error, failure.message);
            }
            (Op::Finding, Ok(Reply::Transactions(TransactionReply::One(sale)))) => {
                if let Some(TransactionView::Exemptions(check)) = parts.screen.view_mut() {
                    let check = check.clone();
                    open_detail(parts, &sale, ctx);
                    self.check_under = Some((sale.id.clone(), check));
                }
            }
            (Op::Finding, Err(failure)) => ctx.notify(
                Level::Error,
                format!("The sale could not be read: {}", failure.message),
            ),
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }

    /// While the detail shows a transaction whose tax is not calculated yet, asks for it again
    /// every [`REFRESH_TICKS`] ticks until the tax is in.
    fn tick(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        let loading = parts.requests.any(|op| matches!(op, Op::Record));
        let Screen::Detail(d) = &mut parts.screen else {
            return false;
        };
        if loading || d.record.tax_is_calculated() {
            return false;
        }
        d.extra.ticks += 1;
        if d.extra.ticks >= REFRESH_TICKS {
            d.extra.ticks = 0;
            let id = d.record.id.clone();
            parts.requests.call(
                ctx,
                Call::Transactions(TransactionCall::Get { id }),
                Op::Record,
            );
        }
        false
    }
}

#[cfg(test)]
mod tests;
