//! The economic nexus view: one row per jurisdiction with its status, how far sales and
//! transactions are from the thresholds, and when nexus was met; Enter opens every field.

use std::collections::HashMap;
use std::sync::Arc;

use crate::checks::Place;
use crate::effect::{NexusCall, NexusReply};
use crate::model::PeriodActivity;
use ratatui::text::{Line, Span};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::filter::{describe_economic, economic_form, economic_of};
use super::history::History;
pub use super::status::{jurisdiction, status_style};
use crate::checks::forecast::{self, Crossing, Forecast};
use crate::effect::{Call, Reply};
use crate::model::filters::NexusFilter;
use crate::model::{Nexus, NexusStatus, SalesOrTransactions};
use crate::rules::attention::threshold_share;
use crate::rules::{NexusRoute, effective_nexus_status};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint, Relation};
use crate::ui::panes::relations;
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, NoLayer, On, Operation, PaneSpec, Parts, Reads, RecordView, Scope, Screen, Skeleton,
    Verb, tenanted, unexpected,
};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, Section};
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// Cells of the threshold bar, before its percentage.
const BAR_CELLS: usize = 8;

/// A small text bar of a share of a threshold in percent: `████░░░░ 62.0%`, full past 100%.
/// The figure is the one every surface shows ([`text::share`]: cut, never rounded up).
pub fn bar(percent: Decimal) -> String {
    let whole = text::share(percent);
    let filled = (percent.clamp(Decimal::ZERO, Decimal::ONE_HUNDRED) * Decimal::from(BAR_CELLS)
        / Decimal::ONE_HUNDRED)
        .floor()
        .to_usize()
        .unwrap_or(0);
    format!(
        "{}{} {whole}",
        "█".repeat(filled),
        "░".repeat(BAR_CELLS - filled)
    )
}

fn jurisdiction_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    let mut spans = vec![Span::raw(jurisdiction(n))];
    // A row that names its place by its code (`ON`) is named by the standard (`Ontario`).
    let name = match n.state_name.trim() {
        "" => None,
        code if code == n.state_code => {
            crate::model::format::subdivision_name(&n.country_code, code)
        }
        name => Some(name),
    };
    if let Some(name) = name {
        spans.push(Span::raw(format!(" {name}")));
    }
    Line::from(spans)
}

/// The status a row reads as: nexus met by either route without a registration is `EXPOSED`,
/// whatever the row says (see [`effective_nexus_status`]).
fn status_cell<'r>(n: &'r Nexus, theme: &Theme) -> Line<'r> {
    let status = effective_nexus_status(n);
    Line::from(Span::styled(
        status.as_ref().map_or("", NexusStatus::as_str).to_owned(),
        status_style(status.as_ref(), theme),
    ))
}

/// By which route nexus is met: `physical`, `economic`, `both`, or `—`.
pub fn route(n: &Nexus) -> &'static str {
    NexusRoute::of_nexus(n).map_or("—", NexusRoute::as_str)
}

/// Why the row is in the list read for a standing (the Overview's tile 1), in words; else by
/// which route its nexus is met.
fn why_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    Line::from(n.flagged.as_deref().unwrap_or_else(|| route(n)))
}

fn sales_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    Line::from(threshold_share(n).0.map(bar).unwrap_or_default())
}

fn count_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    let count = text::thousands(n.transaction_count.unwrap_or(0));
    Line::from(match n.threshold_transactions {
        Some(t) if t > 0 => format!("{count} / {}", text::thousands(t)),
        _ => count,
    })
}

/// The forecast of a row by its rule and the pace read on the side, at taxdash's today; `None`
/// where no forecast applies (nexus met, no threshold, no sales), or while the pace is not read.
pub fn forecast_of(n: &Nexus) -> Option<Forecast> {
    match &n.pace {
        Some(Ok(pace)) if forecast::wanted(n) => {
            Some(forecast::forecast(n, pace, crate::clock::today()))
        }
        _ => None,
    }
}

/// When the threshold will be crossed at this pace: `2027-02 sales`, `not this period`, `met`;
/// `—` where no forecast applies, `…` while the pace is read, `?` when reading it failed.
pub fn crosses(n: &Nexus) -> String {
    if n.economic_nexus_met == Some(true) {
        return "met".to_owned();
    }
    if !forecast::wanted(n) {
        return "—".to_owned();
    }
    match &n.pace {
        None => "…".to_owned(),
        Some(Err(_)) => "?".to_owned(),
        Some(Ok(_)) => match forecast_of(n).map(|f| f.crossing) {
            Some(Crossing::Around { on, by }) => format!("{} {}", text::month(on), by.word()),
            Some(Crossing::NotThisPeriod) => "not this period".to_owned(),
            Some(Crossing::Met) => "met".to_owned(),
            Some(Crossing::NoPace) => "no recent sales".to_owned(),
            Some(Crossing::Unknown { .. }) | None => "—".to_owned(),
        },
    }
}

fn crosses_cell<'r>(n: &'r Nexus, theme: &Theme) -> Line<'r> {
    let words = crosses(n);
    let style = match words.as_str() {
        "?" => theme.status_bad,
        "met" => theme.status_pending,
        "—" | "…" | "not this period" | "no recent sales" => theme.muted,
        _ => ratatui::style::Style::default(),
    };
    Line::from(Span::styled(words, style))
}

fn met_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    Line::from(n.nexus_met_date.map(text::date).unwrap_or_default())
}

/// The list's columns.
pub fn columns() -> Vec<Column<Nexus>> {
    vec![
        Column::new("Jurisdiction", jurisdiction_cell)
            .width(ColumnWidth::between(12, 30, 2))
            .priority(priority::NAME),
        Column::new("Status", status_cell)
            .width(ColumnWidth::between(12, 22, 1))
            .priority(priority::STATUS),
        Column::new("Why", why_cell)
            .width(ColumnWidth::between(8, 72, 3))
            .priority(priority::STATUS),
        Column::new("Sales vs threshold", sales_cell)
            .width(ColumnWidth::fixed(18))
            .keep(),
        Column::new("Transactions", count_cell)
            .width(ColumnWidth::between(12, 16, 1))
            .right()
            .priority(priority::DEFAULT),
        Column::new("Nexus met", met_cell)
            .width(ColumnWidth::fixed(10))
            .priority(priority::STATUS),
        Column::new("Crosses", crosses_cell)
            .width(ColumnWidth::between(15, 20, 1))
            .priority(priority::DATE),
    ]
}

/// The economic nexus rule of a row in words: "100,000.00 USD in sales or 200 transactions,
/// current or previous calendar year; marketplace sales excluded; exempt sales included". Parts the row
/// does not carry are left out; `None` when it carries no threshold at all.
pub fn rule_in_words(n: &Nexus) -> Option<String> {
    let sales = n
        .threshold_sales
        .filter(|t| *t > Decimal::ZERO)
        .map(|t| format!("{} in sales", text::money(t, n.currency.as_deref())));
    let count = n
        .threshold_transactions
        .filter(|t| *t > 0)
        .map(|t| text::count(t.unsigned_abs(), "transaction"));
    let thresholds = match (sales, count, n.sales_or_transactions.as_ref()) {
        (Some(s), Some(c), Some(SalesOrTransactions::Both)) => format!("{s} and {c}"),
        (Some(s), Some(c), Some(SalesOrTransactions::Other(other))) => {
            format!("{s} or {c} ({other})")
        }
        (Some(s), Some(c), Some(SalesOrTransactions::Either) | None) => format!("{s} or {c}"),
        // Only one threshold counts (or only one is set).
        (Some(s), c, which) => match (c, which) {
            (Some(c), Some(SalesOrTransactions::Transactions)) => c,
            _ => s,
        },
        (None, Some(c), _) => c,
        (None, None, _) => return None,
    };
    let mut out = thresholds;
    if let Some(period) = &n.period_model {
        out.push_str(", ");
        out.push_str(&period.in_words());
    }
    if let Some(included) = n.marketplace_included {
        out.push_str(if included {
            "; marketplace sales included"
        } else {
            "; marketplace sales excluded"
        });
    }
    if let Some(treatment) = &n.treatment_of_exempt_transactions {
        out.push_str("; ");
        out.push_str(&treatment.in_words());
    }
    Some(out)
}

/// The forecast in words: what counts so far against the thresholds, the pace, the result.
fn forecast_section<'t>(n: &Nexus, theme: &Theme) -> Section<'t> {
    let section = Section::new("Forecast");
    if n.economic_nexus_met == Some(true) || !forecast::wanted(n) {
        return section.row(
            "Result",
            if n.economic_nexus_met == Some(true) {
                "economic nexus met"
            } else {
                "no forecast: not approaching, or no threshold"
            },
        );
    }
    let f = match &n.pace {
        None => return section.row("Result", "reading the last 90 days' sales…"),
        Some(Err(why)) => {
            return section.row(
                "Result",
                Line::from(Span::styled(
                    format!("? the last 90 days' sales could not be read: {why}"),
                    theme.status_bad,
                )),
            );
        }
        Some(Ok(pace)) => forecast::forecast(n, pace, crate::clock::today()),
    };
    let currency = f.currency.as_deref();
    let sales = match f.threshold_sales.filter(|t| *t > Decimal::ZERO) {
        Some(t) => format!(
            "{} of {}",
            text::money(f.sales_so_far, currency),
            text::money(t, currency)
        ),
        None => text::money(f.sales_so_far, currency),
    };
    let count = match f.threshold_transactions.filter(|t| *t > 0) {
        Some(t) => format!(
            "{} of {}",
            text::thousands(f.transactions_so_far),
            text::thousands(t)
        ),
        None => text::thousands(f.transactions_so_far),
    };
    let pace = format!(
        "{} in {} over the last {} days, as the rule counts them",
        text::money(f.pace_sales, currency),
        text::count(f.pace_transactions, "transaction"),
        forecast::PACE_DAYS
    );
    section
        .row("Sales so far", sales)
        .row("Transactions so far", count)
        .row("Pace", pace)
        .row("Result", f.words())
}

/// Every field of one row, amounts as money.
fn detail<'t>(n: &Nexus, theme: &'t Theme) -> Detail<'t> {
    let currency = n.currency.as_deref();
    let money = |v: Option<Decimal>| {
        v.map(|d| Line::from(Span::styled(text::money(d, currency), theme.money)))
    };
    let opt = |v: Option<String>| v.map(Line::from);
    let date = |v: Option<chrono::NaiveDate>| v.map(|d| Line::from(text::date(d)));
    let flag = crate::ui::widgets::detail::flag;
    let count = |v: Option<i64>| v.map(|c| Line::from(text::thousands(c)));
    let when = |v: Option<crate::model::Timestamp>| v.map(|t| Line::from(text::timestamp(&t)));
    let effective = effective_nexus_status(n);
    let status = effective.as_ref().map(|s| {
        let mut spans = vec![Span::styled(
            s.as_str().to_owned(),
            status_style(Some(s), theme),
        )];
        if let Some(said) = n.status.as_ref().filter(|said| *said != s) {
            spans.push(Span::raw(format!(
                " (nexus met, no registration; the service says {said})"
            )));
        }
        Line::from(spans)
    });
    let share = threshold_share(n).0.map(|p| Line::from(bar(p)));
    let sections = vec![
        Section::new("Economic nexus")
            .row("ID", n.id.clone())
            .row("Jurisdiction", jurisdiction(n))
            .maybe(
                "State",
                Some(n.state_name.clone()).filter(|s| !s.is_empty()),
            )
            .maybe("Status", status)
            .maybe(
                "Nexus type",
                opt(n.nexus_type.as_ref().map(ToString::to_string)),
            )
            .maybe("Organization", opt(n.organization_id.clone())),
        Section::new("Thresholds")
            .maybe("Rule", rule_in_words(n).map(Line::from))
            .maybe(
                "Sales threshold",
                money(n.threshold_sales.filter(|t| !t.is_zero())),
            )
            .maybe(
                "Transactions threshold",
                count(n.threshold_transactions.filter(|t| *t > 0)),
            )
            .maybe(
                "Sales or transactions",
                opt(n.sales_or_transactions.as_ref().map(ToString::to_string)),
            )
            .maybe("Trigger", opt(n.trigger.clone()))
            .maybe(
                "Marketplace sales",
                n.marketplace_included
                    .map(|i| Line::from(if i { "included" } else { "excluded" })),
            )
            .maybe(
                "Exempt sales",
                opt(n
                    .treatment_of_exempt_transactions
                    .as_ref()
                    .map(ToString::to_string)),
            ),
        n.flagged
            .as_ref()
            .map_or_else(
                || Section::new("Nexus"),
                |why| Section::new("Nexus").row("Listed because", why.clone()),
            )
            .maybe("Nexus met", flag(n.nexus_met))
            .row("Met by", route(n))
            .maybe("Nexus met on", date(n.nexus_met_date))
            .maybe("Economic nexus met", flag(n.economic_nexus_met))
            .maybe("Economic nexus met on", date(n.economic_nexus_met_date))
            .maybe("Physical nexus met", flag(n.physical_nexus_met))
            .maybe("Physical nexus met on", date(n.physical_nexus_met_date))
            .maybe("Collected tax nexus met", flag(n.collected_tax_nexus_met))
            .maybe("Voluntary disclosure eligible", flag(n.vda_eligible())),
        forecast_section(n, theme),
        Section::new("Counted in the period")
            .maybe("Sales", money(n.transactions_amount))
            .maybe("Share of threshold", share)
            .maybe("Transactions", count(n.transaction_count))
            .maybe("Total transactions", count(n.total_transactions))
            .maybe("Included", count(n.total_transactions_included))
            .maybe("Exempted", count(n.total_transactions_exempted))
            .maybe("Marketplace", count(n.total_transactions_marketplace))
            .maybe("Previous sales", money(n.previous_transactions_amount))
            .maybe("Previous transactions", count(n.previous_transaction_count)),
        Section::new("Period")
            .maybe("Start date", date(n.start_date))
            .maybe(
                "Period model",
                opt(n.period_model.as_ref().map(ToString::to_string)),
            )
            .maybe("Period start", date(n.period_start_date))
            .maybe("Period end", date(n.period_end_date))
            .maybe("Previous period start", date(n.previous_period_start_date))
            .maybe("Previous period end", date(n.previous_period_end_date)),
        Section::new("Liability")
            .maybe("Tax liability", money(n.tax_liability))
            .maybe("Calculated", money(n.calculated_tax_liability))
            .maybe("Imported", money(n.imported_tax_liability))
            .maybe("Currency", opt(n.currency.clone())),
        Section::new("Record")
            .maybe("Created", when(n.created_at))
            .maybe("Updated", when(n.updated_at)),
    ];
    Detail::new(theme, sections)
}

/// The economic nexus view.
pub type EconomicPane = Skeleton<Economic>;

list_spec! {
    /// The list of jurisdictions.
    EconomicList {
        row: Nexus,
        filter: NexusFilter,
        noun: "jurisdictions",
        columns: columns,
        call: Nexus(NexusCall::List),
        page: NexusReply::Page,
        describe: describe_economic,
        form: economic_form,
        filter_of: |values, _current| economic_of(values),
        kept_here: NexusFilter::is_local, NexusFilter::keeps,
        goto: Nexus,
    }
}

/// How an economic nexus reads in the detail: every field of it.
static NEXUS: RecordView<Nexus> = RecordView {
    id: |n| &n.id,
    title: |n| format!("economic: {}", jurisdiction(n)),
    build: |nexus, (), theme, _, _| detail(nexus, theme),
};

/// What the view waits for.
#[derive(Debug)]
pub enum Op {
    /// The detail's nexus, read again.
    Record,
    /// A page of the open exposure history.
    History,
    /// The trailing 90 days' sales, for the forecast column.
    Pace,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record => Scope::Detail,
            Op::History | Op::Pace => Scope::Pane,
        }
    }
}

/// What is the economic view's own.
#[derive(Default)]
pub struct Economic {
    /// The pace of the forecast was asked for (once when the view first shows, again on
    /// refresh).
    pace_asked: bool,
}

impl Economic {
    /// Reads the trailing 90 days' sales, once, beside the list: the rows show `…` in the
    /// forecast column until they are in.
    fn read_pace(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        self.pace_asked = true;
        let today = crate::clock::today();
        parts.requests.again(
            ctx,
            Call::Nexus(NexusCall::Pace { today, pages: 1 }),
            Op::Pace,
        );
    }

    /// Lays the pace read (or why it could not be) on every row, and on the open detail.
    fn lay_pace(parts: &mut Parts<Self>, pace: Result<HashMap<Place, PeriodActivity>, String>) {
        let pace = Arc::new(pace);
        let of = move |n: &mut Nexus| {
            n.pace = Some(match pace.as_ref() {
                Ok(by_place) => Ok(by_place
                    .get(&(n.country_code.clone(), n.state_code.clone()))
                    .copied()
                    .unwrap_or_default()),
                Err(why) => Err(why.clone()),
            });
        };
        if let Some(d) = parts.screen.detail_mut() {
            of(&mut d.record);
        }
        parts.list.complete_with(Box::new(of));
    }

    /// `h`: the exposure history of the nexus the user is on (Tenanted API).
    fn open_history(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (ctx.tenanted(), parts.current().cloned()) {
            (None, _) => ctx.notify(
                Level::Error,
                format!("The exposure history {NEEDS_TENANTED}."),
            ),
            (Some(_), None) => ctx.notify(Level::Info, "Select a jurisdiction first."),
            (Some(_), Some(nexus)) => {
                let history = History::new(nexus);
                parts.requests.call(ctx, history.page_call(1), Op::History);
                parts.screen.open(history);
            }
        }
    }
}

impl PaneSpec for Economic {
    type List = EconomicList;
    type Extra = ();
    type View = History;
    type Overlay = NoLayer;
    type Op = Op;

    const TITLE: &'static str = "Nexus";
    const DETAIL: &'static RecordView<Nexus> = &NEXUS;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Nexus);
    const RELATIONS: fn(&Nexus) -> Vec<Relation> = relations::of_nexus;

    /// The exposure history is offered on the Tenanted API only.
    const VERBS: &'static [Verb<Self>] = &[Verb::key(Action::History, "history", On::Both, |v| {
        Self::open_history(v.parts, v.ctx);
    })
    .offered(tenanted)];

    const DETAIL_READS: Reads<Nexus, Op> =
        |n| vec![(NexusCall::Get { id: n.id.clone() }.into(), Op::Record)];

    fn view_hints(&self, _: &History) -> Vec<PaneHint> {
        vec![
            PaneHint::action(Action::Back, "close"),
            PaneHint::action(Action::Up, "scroll"),
            PaneHint::action(Action::PageDown, "page"),
            PaneHint::action(Action::CopyId, "copy id"),
        ]
    }

    fn show(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if !self.pace_asked && parts.list.unavailable().is_none() {
            // The list's first page is asked for first: the pace is read beside it.
            parts.list.show(ctx);
            self.read_pace(parts, ctx);
        }
    }

    fn command(
        &mut self,
        name: &str,
        _args: &[&str],
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> bool {
        if name == "refresh" && parts.screen.is_list() {
            self.read_pace(parts, ctx);
        }
        // The list refreshes as always.
        false
    }

    fn action(&mut self, action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        if action == Action::Refresh && parts.screen.is_list() && parts.overlays.is_empty() {
            // The list refreshes as always; the pace is read again beside it.
            self.read_pace(parts, ctx);
            return false;
        }
        if let Some(history) = parts.screen.view_mut() {
            match action {
                Action::Back => {
                    parts
                        .requests
                        .cancel_where(ctx, |op| matches!(op, Op::History));
                    parts.screen.close();
                }
                action if history.navigate(action) => {}
                Action::CopyId => ctx.copy(history.nexus().id.clone()),
                _ => return false,
            }
            return true;
        }
        false
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Record, Ok(Reply::Nexus(NexusReply::One(mut fresh)))) => {
                parts.list.replace(&fresh);
                if let Some(d) = parts.screen.detail_mut()
                    && d.record.id == fresh.id
                {
                    fresh.pace = d.record.pace.take();
                    d.record = fresh;
                }
            }
            (Op::Pace, Ok(Reply::Nexus(NexusReply::Pace { by_place, .. }))) => {
                Self::lay_pace(parts, Ok(by_place));
            }
            (Op::Pace, Err(failure)) => Self::lay_pace(parts, Err(failure.message)),
            (Op::History, result) => {
                let Some(history) = parts.screen.view_mut() else {
                    return;
                };
                if let Some(next) = history.receive(result, ctx) {
                    parts.requests.call(ctx, next, Op::History);
                }
            }
            (Op::Record, Err(failure)) => ctx.notify(Level::Error, failure.message),
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }

    fn subtitle(&self, parts: &Parts<Self>) -> Option<String> {
        match &parts.screen {
            Screen::List | Screen::Filter(_) => {
                Some(format!("economic: {}", parts.list.subtitle()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{FailureKind, RequestId};
    use crate::ui::skeleton::testing::{Fixture, failure};
    use serde_json::json;

    /// A row as the service may answer it: `status` whatever it says, nexus met by the routes
    /// given.
    fn row(state: &str, status: &str, economic: bool, physical: bool) -> Nexus {
        serde_json::from_value(json!({
            "id": format!("nexu_{state}"), "country_code": "US", "state_code": state,
            "state_name": state, "status": status, "economic_nexus_met": economic,
            "physical_nexus_met": physical, "nexus_met": economic || physical,
            "threshold_sales": "100000", "transactions_amount": "1000",
            "threshold_transactions": 200, "transaction_count": 3,
            "economic_nexus_met_date": null, "physical_nexus_met_date": null,
            "nexus_met_date": null, "nexus_type": "STATE",
            "sales_or_transactions": null, "trigger": null, "previous_transactions_amount": null,
            "previous_transaction_count": null, "collected_tax_nexus_met": false,
            "start_date": null, "period_model": null, "period_start_date": null,
            "period_end_date": null, "tax_liability": null, "calculated_tax_liability": null,
            "imported_tax_liability": null, "currency": "USD", "vda_eligible": false,
            "created_at": null, "updated_at": null, "organization_id": null
        }))
        .unwrap()
    }

    fn line<'s>(screen: &'s str, state: &str) -> &'s str {
        let at = format!("US-{state} ");
        screen
            .lines()
            .find(|l| l.contains(&at))
            .unwrap_or_else(|| panic!("{state} listed: {screen}"))
    }

    #[test]
    fn the_list_shows_the_route_and_nexus_met_reads_as_exposed() {
        let mut h = Fixture::new(EconomicPane::default());
        h.load(
            vec![
                row("TN", "NOT_EXPOSED", false, true),
                row("KS", "APPROACHING", true, false),
                row("AL", "REGISTERED", true, true),
                row("OR", "NOT_EXPOSED", false, false),
            ],
            NexusReply::Page,
        );
        let screen = h.screen(120, 12);
        assert!(screen.contains("Why"), "{screen}");
        let tn = line(&screen, "TN");
        assert!(
            tn.contains(" EXPOSED") && !tn.contains("NOT_EXPOSED"),
            "{tn}"
        );
        assert!(tn.contains("physical"), "{tn}");
        let ks = line(&screen, "KS");
        assert!(ks.contains(" EXPOSED") && ks.contains("economic"), "{ks}");
        let al = line(&screen, "AL");
        assert!(al.contains("REGISTERED") && al.contains("both"), "{al}");
        let or = line(&screen, "OR");
        assert!(or.contains("NOT_EXPOSED") && or.contains('—'), "{or}");

        // The detail says what the service said and why it reads otherwise.
        h.action(Action::Open);
        let screen = h.screen(120, 40);
        let status = screen.lines().find(|l| l.contains("Status")).unwrap();
        assert!(
            status.contains("EXPOSED (nexus met, no registration; the service says NOT_EXPOSED)"),
            "{screen}"
        );
        let route = screen.lines().find(|l| l.contains("Met by")).unwrap();
        assert!(route.contains("physical"), "{screen}");
    }

    #[test]
    fn a_row_read_for_a_standing_says_why_in_words_in_the_list_and_the_detail() {
        let mut h = Fixture::new(EconomicPane::default());
        let mut mi = row("MI", "REGISTERED", true, true);
        mi.flagged = Some("economic nexus met; registration deregistering".into());
        h.load(vec![mi], NexusReply::Page);
        let screen = h.screen(160, 12);
        let mi = line(&screen, "MI");
        assert!(
            mi.contains("economic nexus met; registration deregistering"),
            "{screen}"
        );
        h.action(Action::Open);
        let screen = h.screen(120, 40);
        let why = screen
            .lines()
            .find(|l| l.contains("Listed because"))
            .unwrap();
        assert!(why.contains("registration deregistering"), "{screen}");
    }

    /// An Arkansas row as the live service answers it: every rule field set.
    fn full_row() -> Nexus {
        let mut n = row("AR", "APPROACHING", false, false);
        n.state_name = "Arkansas".into();
        n.threshold_sales = Some(dec("100000"));
        n.threshold_transactions = Some(200);
        n.sales_or_transactions = Some(SalesOrTransactions::Either);
        n.trigger = Some("TRANSACTIONS".into());
        n.period_model = Some(crate::model::PeriodModel::CurrentOrPrevious);
        n.marketplace_included = Some(false);
        n.treatment_of_exempt_transactions = Some(crate::model::ExemptTreatment::Included);
        n.transactions_amount = Some(dec("81250.40"));
        n.transaction_count = Some(176);
        n.total_transactions = Some(214);
        n.total_transactions_included = Some(176);
        n.total_transactions_exempted = Some(11);
        n.total_transactions_marketplace = Some(38);
        let d = |y, m, day| chrono::NaiveDate::from_ymd_opt(y, m, day);
        n.start_date = d(2026, 1, 1);
        n.period_start_date = d(2026, 1, 1);
        n.period_end_date = d(2026, 12, 31);
        n.previous_period_start_date = d(2025, 1, 1);
        n.previous_period_end_date = d(2025, 12, 31);
        n.is_vda_eligible = Some(true);
        n
    }

    #[test]
    fn the_rule_reads_in_words() {
        let n = full_row();
        assert_eq!(
            rule_in_words(&n).unwrap(),
            "100,000.00 USD in sales or 200 transactions, current or previous calendar year; \
             marketplace sales excluded; exempt sales included"
        );
        let mut both = n.clone();
        both.threshold_sales = Some(dec("500000"));
        both.threshold_transactions = Some(100);
        both.sales_or_transactions = Some(SalesOrTransactions::Both);
        both.period_model = Some(crate::model::PeriodModel::Previous4Quarters);
        both.marketplace_included = Some(true);
        assert!(
            rule_in_words(&both)
                .unwrap()
                .starts_with("500,000.00 USD in sales and 100 transactions, previous four quarters; marketplace sales included"),
        );
        let mut sales_only = n.clone();
        sales_only.threshold_transactions = Some(0);
        sales_only.sales_or_transactions = Some(SalesOrTransactions::Sales);
        sales_only.currency = Some("CAD".into());
        sales_only.threshold_sales = Some(dec("30000"));
        assert!(
            rule_in_words(&sales_only)
                .unwrap()
                .starts_with("30,000.00 CAD in sales, ")
        );
        // An older answer without the rule fields still says what it knows.
        let bare = row("KS", "NOT_EXPOSED", false, false);
        assert_eq!(
            rule_in_words(&bare).unwrap(),
            "100,000.00 USD in sales or 200 transactions"
        );
    }

    #[test]
    fn the_detail_shows_the_rule_and_the_counts_that_go_into_it() {
        let mut h = Fixture::new(EconomicPane::default());
        h.load(vec![full_row()], NexusReply::Page);
        h.action(Action::Open);
        let screen = h.screen(100, 56);
        let value = |label: &str| {
            screen
                .lines()
                .map(|l| l.trim_matches('│').trim())
                .find(|l| l.split("  ").next() == Some(label))
                .unwrap_or_else(|| panic!("{label}: {screen}"))
                .to_owned()
        };
        assert!(
            value("Rule").contains("100,000.00 USD in sales or 200 transactions"),
            "{screen}"
        );
        assert!(
            screen.contains("marketplace sales excluded; exempt sales included"),
            "{screen}"
        );
        assert!(value("Total transactions").ends_with("214"), "{screen}");
        assert!(value("Included").ends_with("176"), "{screen}");
        assert!(value("Exempted").ends_with("11"), "{screen}");
        assert!(value("Marketplace").ends_with("38"), "{screen}");
        assert!(value("Marketplace sales").ends_with("excluded"), "{screen}");
        assert!(
            value("Previous period start").ends_with("2025-01-01"),
            "{screen}"
        );
        assert!(
            value("Previous period end").ends_with("2025-12-31"),
            "{screen}"
        );
        assert!(
            value("Voluntary disclosure eligible").ends_with("yes"),
            "{screen}"
        );
        insta::assert_snapshot!("economic_nexus_detail", screen);
    }

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    /// Shows the view: the first page asked for, then the pace beside it. Returns their ids.
    fn shown() -> (Fixture<EconomicPane>, RequestId, RequestId) {
        let mut h = Fixture::new(EconomicPane::default());
        h.show();
        let calls = h.calls();
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert!(
            matches!(calls[0].1, Call::Nexus(NexusCall::List { .. })),
            "{calls:?}"
        );
        assert!(
            matches!(calls[1].1, Call::Nexus(NexusCall::Pace { today, .. }) if today == crate::clock::today()),
            "{calls:?}"
        );
        (h, calls[0].0, calls[1].0)
    }

    fn page(h: &mut Fixture<EconomicPane>, id: RequestId, rows: Vec<Nexus>) {
        let total = rows.len() as u64;
        let page = crate::model::Page::new(rows, total, 1, crate::model::PageParams::DEFAULT_SIZE);
        h.answer(id, Ok(NexusReply::Page(page).into()));
    }

    #[test]
    fn the_crossing_column_waits_for_the_pace_and_says_when_it_could_not_be_read() {
        let (mut h, list, pace) = shown();
        let exposed = row("TX", "EXPOSED", true, false);
        page(
            &mut h,
            list,
            vec![full_row(), exposed, row("OR", "REGISTERED", false, false)],
        );
        let screen = h.screen(160, 12);
        assert!(screen.contains("Crosses"), "{screen}");
        assert!(
            line(&screen, "AR")
                .trim_end_matches('│')
                .trim_end()
                .ends_with('…'),
            "{screen}"
        );
        assert!(line(&screen, "TX").contains("met"), "{screen}");
        assert!(line(&screen, "OR").contains('—'), "{screen}");

        h.answer(
            pace,
            Err(failure(FailureKind::Network, "connection refused")),
        );
        let screen = h.screen(160, 12);
        assert!(
            line(&screen, "AR")
                .trim_end_matches('│')
                .trim_end()
                .ends_with('?'),
            "{screen}"
        );
        h.action(Action::Open);
        let screen = h.screen(120, 60);
        assert!(
            screen.contains("? the last 90 days' sales could not be read: connection refused"),
            "{screen}"
        );
    }

    #[test]
    fn the_crossing_column_and_the_detail_tell_the_forecast_when_the_pace_is_in() {
        let (mut h, list, pace) = shown();
        let mut by_place = HashMap::new();
        let activity = PeriodActivity {
            sales: dec("60000"),
            transactions: 40,
            ..PeriodActivity::default()
        };
        by_place.insert(("US".to_owned(), "AR".to_owned()), activity);
        // The pace may arrive before the page: rows that arrive after it are completed too.
        h.answer(pace, Ok(NexusReply::Pace { by_place, pages: 1 }.into()));
        let mut predicted = full_row();
        predicted.predicted_month_from_today = Some(2);
        predicted.confidence_level = Some(dec("0.8"));
        page(&mut h, list, vec![predicted.clone()]);
        let expected = forecast::forecast(&predicted, &activity, crate::clock::today());
        let cell = match &expected.crossing {
            Crossing::Around { on, by } => format!("{} {}", text::month(*on), by.word()),
            Crossing::NotThisPeriod => "not this period".to_owned(),
            Crossing::Met => "met".to_owned(),
            other => panic!("a pace of 60,000 gives a forecast: {other:?}"),
        };
        let screen = h.screen(160, 12);
        assert!(line(&screen, "AR").contains(&cell), "{cell}: {screen}");

        h.action(Action::Open);
        let screen = h.screen(160, 70);
        let value = |label: &str| {
            screen
                .lines()
                .map(|l| l.trim_matches('│').trim())
                .find(|l| l.split("  ").next() == Some(label))
                .unwrap_or_else(|| panic!("{label}: {screen}"))
                .to_owned()
        };
        assert!(
            value("Sales so far").ends_with(&format!(
                "{} of {}",
                text::money(expected.sales_so_far, Some("USD")),
                text::money(dec("100000"), Some("USD"))
            )),
            "{screen}"
        );
        assert!(
            value("Transactions so far")
                .ends_with(&format!("{} of 200", expected.transactions_so_far)),
            "{screen}"
        );
        assert!(
            value("Pace").contains(&format!(
                "{} in {} over the last 90 days",
                text::money(expected.pace_sales, Some("USD")),
                text::count(expected.pace_transactions, "transaction")
            )),
            "{screen}"
        );
        let words = expected.words();
        assert!(words.contains("the service predicts 2 months from today (confidence 0.8)"));
        assert!(value("Result").ends_with(&words), "{screen}");
    }

    #[test]
    fn the_bar_shows_the_share_of_the_threshold() {
        assert_eq!(bar(dec("62")), "████░░░░ 62.0%");
        assert_eq!(bar(dec("0")), "░░░░░░░░ 0.0%");
        assert_eq!(bar(dec("140")), "████████ 140.0%");
        // Cut, never rounded up: 95,864.92 of 100,000 is 95.8%, and 99.99 % is not full.
        assert_eq!(bar(dec("95.86492")), "███████░ 95.8%");
        assert_eq!(bar(dec("99.99")), "███████░ 99.9%");
    }

    #[test]
    fn statuses_are_coloured_by_meaning() {
        let theme = Theme::default();
        assert_eq!(
            status_style(Some(&NexusStatus::Exposed), &theme),
            theme.status_bad
        );
        assert_eq!(
            status_style(Some(&NexusStatus::PendingRegistration), &theme),
            theme.status_pending
        );
        assert_eq!(
            status_style(Some(&NexusStatus::Registered), &theme),
            theme.status_good
        );
        assert_eq!(
            status_style(Some(&NexusStatus::NotExposed), &theme),
            theme.status_closed
        );
    }
}
