//! The filing list's columns; a column's sort key is its `order_by` field.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::{Filing, FilingStatus};
use crate::ui::panes::marks::{Marked, marker_column};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

type Row = Marked<Filing>;

/// The style of a filing status: filed reads as good, filing (approved, on its way) as
/// pending, unfiled (waiting for approval) as needing attention, paused as closed.
pub fn status_style(status: &FilingStatus, theme: &Theme) -> Style {
    match status {
        FilingStatus::Filed => theme.status_good,
        FilingStatus::Filing => theme.status_pending,
        FilingStatus::Unfiled => theme.status_bad,
        FilingStatus::Paused => theme.status_closed,
        FilingStatus::Other(_) => theme.base,
    }
}

/// `2026-07-01 – 2026-09-30`.
pub fn period(f: &Filing) -> String {
    format!("{} – {}", text::date(f.start_date), text::date(f.end_date))
}

/// The state's code, or `country-level` for a filing of the whole country (2026-07-21 sends
/// `""`, 2026-10-06 null).
pub fn state(f: &Filing) -> &str {
    f.state_code
        .as_deref()
        .filter(|s| !s.is_empty())
        .unwrap_or("country-level")
}

/// The amount due, as money in the filing's currency.
pub fn amount(f: &Filing) -> Option<String> {
    f.amount
        .or(f.total_tax_liability)
        .map(|a| text::money(a, f.currency.as_deref()))
}

fn period_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(period(&m.row))
}

fn state_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    let s = state(&m.row);
    if m.row.state_code.as_deref().is_none_or(str::is_empty) {
        Line::from(Span::styled(s, theme.muted))
    } else {
        Line::from(s)
    }
}

fn country_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.country_code.as_str())
}

fn status_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    m.row.status.as_ref().map_or_else(Line::default, |s| {
        Line::from(Span::styled(s.as_str(), status_style(s, theme)))
    })
}

fn due_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.due_date.map(text::date).unwrap_or_default())
}

fn amount_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(amount(&m.row).unwrap_or_default())
}

fn approved_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(
        m.row
            .approved_at
            .as_ref()
            .map(text::timestamp)
            .unwrap_or_default(),
    )
}

fn id_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.id.as_str())
}

/// The list's columns: the mark first.
pub fn columns() -> Vec<Column<Row>> {
    vec![
        marker_column(),
        Column::new("Period", period_cell)
            .sort_key("start_date")
            .width(ColumnWidth::fixed(23))
            .priority(priority::NAME),
        Column::new("State", state_cell)
            .sort_key("state_code")
            .width(ColumnWidth::fixed(13))
            .priority(priority::NAME),
        Column::new("Country", country_cell)
            .width(ColumnWidth::fixed(7))
            .priority(priority::DETAIL),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::fixed(8))
            .priority(priority::STATUS),
        Column::new("Due", due_cell)
            .sort_key("due_date")
            .width(ColumnWidth::fixed(10))
            .priority(priority::DATE),
        Column::new("Amount", amount_cell)
            .sort_key("amount")
            .right()
            .width(ColumnWidth::between(14, 18, 1))
            .keep(),
        Column::new("Approved at", approved_cell)
            .width(ColumnWidth::fixed(20))
            .priority(priority::TIME),
        Column::new("Filing", id_cell)
            .width(ColumnWidth::between(12, 24, 1))
            .priority(priority::ID),
    ]
}
