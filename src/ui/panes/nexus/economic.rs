//! The economic nexus view: one row per jurisdiction with its status, how far sales and
//! transactions are from the thresholds, and when nexus was met; Enter opens every field.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::filter::{economic_form, economic_of};
use super::history::History;
use super::{Mode, filter_key};
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::filters::NexusFilter;
use crate::model::{Nexus, NexusStatus};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::Confirm;
use crate::ui::widgets::detail::{Detail, DetailState, Section};
use crate::ui::widgets::paged_table::{Column, ColumnWidth, PagedTable};

/// Cells of the threshold bar, before its percentage.
const BAR_CELLS: usize = 8;

/// The style of an economic nexus status, by what it asks of the user.
pub fn status_style(status: Option<&NexusStatus>, theme: &Theme) -> Style {
    match status {
        Some(NexusStatus::Exposed) => theme.status_bad,
        Some(
            NexusStatus::Approaching
            | NexusStatus::PendingRegistration
            | NexusStatus::OssPendingRegistration,
        ) => theme.status_pending,
        Some(NexusStatus::Registered | NexusStatus::OssRegistered) => theme.status_good,
        Some(NexusStatus::NotExposed) => theme.status_closed,
        Some(NexusStatus::Other(_)) | None => theme.base,
    }
}

/// `current` as a share of `threshold`, in whole percent (floored); `None` without a threshold.
pub fn percent(current: Decimal, threshold: Decimal) -> Option<u64> {
    if threshold <= Decimal::ZERO {
        return None;
    }
    (current.max(Decimal::ZERO) * Decimal::ONE_HUNDRED / threshold)
        .floor()
        .to_u64()
}

/// A small text bar of a share in percent: `████░░░░ 62%`, full past 100%.
pub fn bar(percent: u64) -> String {
    let filled = usize::try_from(percent.min(100)).unwrap_or(100) * BAR_CELLS / 100;
    format!(
        "{}{} {percent}%",
        "█".repeat(filled),
        "░".repeat(BAR_CELLS - filled)
    )
}

/// `US-CA`, or the country alone for a country-wide row.
pub fn jurisdiction(n: &Nexus) -> String {
    if n.state_code.is_empty() {
        n.country_code.clone()
    } else {
        format!("{}-{}", n.country_code, n.state_code)
    }
}

fn jurisdiction_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    let mut spans = vec![Span::raw(jurisdiction(n))];
    if !n.state_name.is_empty() {
        spans.push(Span::raw(format!(" {}", n.state_name)));
    }
    Line::from(spans)
}

fn status_cell<'r>(n: &'r Nexus, theme: &Theme) -> Line<'r> {
    Line::from(Span::styled(
        n.status.as_ref().map_or("", NexusStatus::as_str),
        status_style(n.status.as_ref(), theme),
    ))
}

fn sales_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    let share = n
        .threshold_sales
        .and_then(|t| percent(n.transactions_amount.unwrap_or_default(), t));
    Line::from(share.map(bar).unwrap_or_default())
}

fn count_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    let count = n.transaction_count.unwrap_or(0);
    Line::from(match n.threshold_transactions {
        Some(t) if t > 0 => format!("{count} / {t}"),
        _ => count.to_string(),
    })
}

fn met_cell<'r>(n: &'r Nexus, _: &Theme) -> Line<'r> {
    Line::from(n.nexus_met_date.map(text::date).unwrap_or_default())
}

/// The list's columns.
pub fn columns() -> Vec<Column<Nexus>> {
    vec![
        Column::new("Jurisdiction", jurisdiction_cell).width(ColumnWidth::between(12, 30, 2)),
        Column::new("Status", status_cell).width(ColumnWidth::between(12, 22, 1)),
        Column::new("Sales vs threshold", sales_cell).width(ColumnWidth::fixed(18)),
        Column::new("Transactions", count_cell)
            .width(ColumnWidth::between(12, 16, 1))
            .right(),
        Column::new("Nexus met", met_cell).width(ColumnWidth::fixed(10)),
    ]
}

/// Every field of one row, amounts as money.
fn detail<'t>(n: &Nexus, theme: &'t Theme) -> Detail<'t> {
    let currency = n.currency.as_deref();
    let money = |v: Option<Decimal>| {
        v.map(|d| Line::from(Span::styled(text::money(d, currency), theme.money)))
    };
    let opt = |v: Option<String>| v.map(Line::from);
    let date = |v: Option<chrono::NaiveDate>| v.map(|d| Line::from(text::date(d)));
    let flag = |v: Option<bool>| v.map(|b| Line::from(if b { "yes" } else { "no" }));
    let count = |v: Option<i64>| v.map(|c| Line::from(c.to_string()));
    let when = |v: Option<crate::model::Timestamp>| v.map(|t| Line::from(text::timestamp(&t)));
    let status = n.status.as_ref().map(|s| {
        Line::from(Span::styled(
            s.as_str().to_owned(),
            status_style(Some(s), theme),
        ))
    });
    let share = n
        .threshold_sales
        .and_then(|t| percent(n.transactions_amount.unwrap_or_default(), t))
        .map(|p| Line::from(bar(p)));
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
            .maybe("Sales threshold", money(n.threshold_sales))
            .maybe(
                "Transactions threshold",
                count(n.threshold_transactions.filter(|t| *t > 0)),
            )
            .maybe(
                "Sales or transactions",
                opt(n.sales_or_transactions.clone()),
            )
            .maybe("Trigger", opt(n.trigger.clone()))
            .maybe("Sales", money(n.transactions_amount))
            .maybe("Share of threshold", share)
            .maybe("Transactions", count(n.transaction_count))
            .maybe("Previous sales", money(n.previous_transactions_amount))
            .maybe("Previous transactions", count(n.previous_transaction_count)),
        Section::new("Nexus")
            .maybe("Nexus met", flag(n.nexus_met))
            .maybe("Nexus met on", date(n.nexus_met_date))
            .maybe("Economic nexus met", flag(n.economic_nexus_met))
            .maybe("Economic nexus met on", date(n.economic_nexus_met_date))
            .maybe("Physical nexus met", flag(n.physical_nexus_met))
            .maybe("Physical nexus met on", date(n.physical_nexus_met_date))
            .maybe("Collected tax nexus met", flag(n.collected_tax_nexus_met))
            .maybe("Voluntary disclosure eligible", flag(n.vda_eligible)),
        Section::new("Period")
            .maybe("Start date", date(n.start_date))
            .maybe("Period model", opt(n.period_model.clone()))
            .maybe("Period start", date(n.period_start_date))
            .maybe("Period end", date(n.period_end_date)),
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

/// The economic nexus view's state.
pub struct Economic {
    table: PagedTable<Nexus>,
    columns: Vec<Column<Nexus>>,
    pub filter: NexusFilter,
    pages: PageCalls,
    pub mode: Mode,
    /// "Discard the unsaved input?" over the filter form.
    pub discard: Option<Confirm>,
    detail: Option<(Nexus, DetailState)>,
    waiting_row: Option<RequestId>,
    loaded: bool,
    /// The exposure history open over the list or the detail (Tenanted API).
    history: Option<History>,
}

impl Economic {
    pub fn new() -> Self {
        Economic {
            table: PagedTable::new("jurisdictions"),
            columns: columns(),
            filter: NexusFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            discard: None,
            detail: None,
            waiting_row: None,
            loaded: false,
            history: None,
        }
    }

    /// Loads the first pages the first time the view shows.
    pub fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        self.pages.fetch(&mut self.table, ctx, |want| Call::Nexus {
            filter: self.filter.clone(),
            page: want.params(),
        });
    }

    /// Starts over with the filter in force, cancelling answers still on their way.
    pub fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    pub fn open_filter(&mut self) {
        self.mode = Mode::Filter(economic_form(&self.filter));
    }

    /// Whether a text field or a question has the keys.
    pub fn captures_text(&self) -> bool {
        self.discard.is_some() || matches!(self.mode, Mode::Filter(_))
    }

    pub fn has_unsaved_input(&self) -> bool {
        matches!(&self.mode, Mode::Filter(f) if f.is_dirty())
    }

    /// A key while [`Economic::captures_text`].
    pub fn on_key(&mut self, key: crossterm::event::KeyEvent, ctx: &mut Ctx) {
        if let Some(values) = filter_key(&mut self.mode, &mut self.discard, key) {
            self.filter = economic_of(&values);
            ctx.notify(
                Level::Info,
                format!("showing {}", super::filter::describe_economic(&self.filter)),
            );
            self.reload(ctx);
        }
    }

    pub fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if let Some(history) = &mut self.history {
            match action {
                Action::Back => {
                    history.close(ctx);
                    self.history = None;
                }
                action if history.navigate(action) => {}
                Action::CopyId => ctx.copy(history.nexus().id.clone()),
                _ => return false,
            }
            return true;
        }
        if action == Action::History {
            let nexus = match &self.detail {
                Some((nexus, _)) => Some(nexus.clone()),
                None => self.table.selected().cloned(),
            };
            match (ctx.tenanted(), nexus) {
                (None, _) => ctx.notify(
                    Level::Error,
                    format!("The exposure history {NEEDS_TENANTED}."),
                ),
                (Some(_), None) => ctx.notify(Level::Info, "Select a jurisdiction first."),
                (Some(_), Some(nexus)) => self.history = Some(History::open(nexus, ctx)),
            }
            return true;
        }
        if let Some((nexus, state)) = &mut self.detail {
            match action {
                Action::Back => self.detail = None,
                action if state.navigate(action) => {}
                Action::CopyId => ctx.copy(nexus.id.clone()),
                Action::Refresh => {
                    self.waiting_row = Some(ctx.call(Call::NexusRow {
                        id: nexus.id.clone(),
                    }));
                }
                _ => return false,
            }
            return true;
        }
        match action {
            // Movement: the table moves its cursor.
            action if self.table.navigate(action) => {}
            Action::Filter => self.open_filter(),
            Action::Refresh => self.reload(ctx),
            Action::CopyId => match self.table.selected() {
                Some(n) => ctx.copy(n.id.clone()),
                None => return false,
            },
            Action::Open => match self.table.selected().cloned() {
                Some(n) => {
                    self.waiting_row = Some(ctx.call(Call::NexusRow { id: n.id.clone() }));
                    self.detail = Some((n, DetailState::default()));
                }
                None => return false,
            },
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// Takes the answer to `id` if it is one of the view's; answers whether it was.
    pub fn receive(
        &mut self,
        id: RequestId,
        result: &Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> bool {
        if self.pages.owns(id) {
            self.pages.receive(
                id,
                result.clone(),
                &mut self.table,
                ctx,
                |reply| match reply {
                    Reply::NexusPage(rows) => Some(rows),
                    _ => None,
                },
            );
            self.fetch(ctx);
            return true;
        }
        if let Some(history) = &mut self.history
            && history.receive(id, result, ctx)
        {
            return true;
        }
        if self.waiting_row != Some(id) {
            return false;
        }
        self.waiting_row = None;
        match result {
            Ok(Reply::Nexus(fresh)) => {
                self.table
                    .replace_where(|n| n.id == fresh.id, fresh.clone());
                if let Some((shown, _)) = &mut self.detail
                    && shown.id == fresh.id
                {
                    *shown = fresh.clone();
                }
            }
            Ok(_) => {}
            Err(failure) => ctx.notify(Level::Error, failure.message.clone()),
        }
        true
    }

    pub fn in_detail(&self) -> bool {
        self.detail.is_some()
    }

    /// Whether the exposure history is open.
    pub fn in_history(&self) -> bool {
        self.history.is_some()
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        if let Some(history) = &mut self.history {
            history.draw(area, buf, theme);
            return;
        }
        match (&mut self.mode, &mut self.detail) {
            (Mode::Filter(form), _) => form.render(area, buf, theme),
            (_, Some((nexus, state))) => detail(nexus, theme).render(area, buf, state),
            _ => self.table.render(area, buf, theme, &self.columns, focused),
        }
        if let Some(confirm) = &self.discard {
            confirm.render(area, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn the_bar_shows_the_share_of_the_threshold() {
        assert_eq!(percent(dec("62000"), dec("100000")), Some(62));
        assert_eq!(bar(62), "████░░░░ 62%");
        assert_eq!(bar(0), "░░░░░░░░ 0%");
        assert_eq!(bar(140), "████████ 140%");
        assert_eq!(percent(dec("5"), Decimal::ZERO), None);
        assert_eq!(percent(dec("-5"), dec("10")), Some(0));
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
