//! The list's columns; a column's sort key is its `order_by` field (the service sorts exemptions
//! by `end_date`, `FEIN`, `sales_tax_id` and `status` only).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::{Exemption, ExemptionStatus};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// The style of an exemption status: active reads as good, inactive as pending, the ended ones
/// as closed.
pub fn status_style(status: &ExemptionStatus, theme: &Theme) -> Style {
    match status {
        ExemptionStatus::Active => theme.status_good,
        ExemptionStatus::Inactive => theme.status_pending,
        ExemptionStatus::Expired | ExemptionStatus::Deactivated | ExemptionStatus::Archived => {
            theme.status_closed
        }
        ExemptionStatus::Other(_) => theme.base,
    }
}

/// The customer's name, or its id when the list leaves the name out.
fn customer_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(
        e.customer_name
            .as_deref()
            .or(e.customer_id.as_deref())
            .unwrap_or(""),
    )
}

fn type_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.exemption_type.as_str())
}

fn status_cell<'r>(e: &'r Exemption, theme: &Theme) -> Line<'r> {
    e.status.as_ref().map_or_else(Line::default, |s| {
        Line::from(Span::styled(s.as_str(), status_style(s, theme)))
    })
}

fn jurisdiction_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.jurisdiction.as_deref().unwrap_or(""))
}

fn country_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.country_code.as_deref().unwrap_or(""))
}

fn start_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(text::date(e.start_date))
}

fn end_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.end_date.map(text::date).unwrap_or_default())
}

fn fein_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.fein.as_deref().unwrap_or(""))
}

fn sales_tax_id_cell<'r>(e: &'r Exemption, _: &Theme) -> Line<'r> {
    Line::from(e.sales_tax_id.as_deref().unwrap_or(""))
}

/// The list's columns.
pub fn columns() -> Vec<Column<Exemption>> {
    vec![
        Column::new("Customer", customer_cell)
            .width(ColumnWidth::between(12, 30, 3))
            .priority(priority::NAME),
        Column::new("Type", type_cell)
            .width(ColumnWidth::between(8, 14, 1))
            .priority(priority::DETAIL),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::fixed(11))
            .priority(priority::STATUS),
        Column::new("Jurisdiction", jurisdiction_cell)
            .width(ColumnWidth::fixed(12))
            .priority(priority::NAME),
        Column::new("Country", country_cell)
            .width(ColumnWidth::fixed(7))
            .priority(priority::DETAIL),
        Column::new("Start", start_cell)
            .width(ColumnWidth::fixed(10))
            .priority(priority::TIME),
        Column::new("End", end_cell)
            .sort_key("end_date")
            .width(ColumnWidth::fixed(10))
            .priority(priority::DATE),
        Column::new("FEIN", fein_cell)
            .sort_key("FEIN")
            .width(ColumnWidth::between(10, 14, 1))
            .priority(priority::ID),
        Column::new("Sales tax ID", sales_tax_id_cell)
            .sort_key("sales_tax_id")
            .width(ColumnWidth::between(12, 20, 1))
            .priority(priority::ID),
    ]
}
