//! The list's columns.

use ratatui::text::{Line, Span};

use super::detail::status_style;
use super::wizard;
use crate::model::{Registration, RegistrationType};
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

fn jurisdiction_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(wizard::jurisdiction(r))
}

fn status_cell<'r>(r: &'r Registration, theme: &Theme) -> Line<'r> {
    Line::from(Span::styled(
        r.status.as_str(),
        status_style(&r.status, theme),
    ))
}

fn frequency_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(r.filing_frequency.as_str())
}

fn type_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(
        r.registration_type
            .as_ref()
            .map_or("", RegistrationType::as_str),
    )
}

fn tax_type_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(r.tax_type.as_ref().map_or("", |t| t.as_str()))
}

fn sales_tax_id_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(r.sales_tax_id.as_deref().unwrap_or(""))
}

fn registered_cell<'r>(r: &'r Registration, _: &Theme) -> Line<'r> {
    Line::from(
        r.registration_date
            .map(|d| d.to_string())
            .unwrap_or_default(),
    )
}

/// The list's columns; a column's sort key is its `order_by` field.
pub fn columns() -> Vec<Column<Registration>> {
    vec![
        Column::new("Jurisdiction", jurisdiction_cell)
            .sort_key("state_code")
            .width(ColumnWidth::between(14, 34, 3))
            .priority(priority::NAME),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::between(10, 22, 1))
            .priority(priority::STATUS),
        Column::new("Filing", frequency_cell)
            .sort_key("filing_frequency")
            .width(ColumnWidth::between(8, 20, 1))
            .priority(priority::DEFAULT),
        Column::new("Type", type_cell)
            .sort_key("registration_type")
            .width(ColumnWidth::fixed(6))
            .priority(priority::DETAIL),
        Column::new("Tax type", tax_type_cell)
            .sort_key("tax_type")
            .width(ColumnWidth::between(9, 18, 1))
            .priority(priority::DETAIL),
        Column::new("Sales tax ID", sales_tax_id_cell)
            .sort_key("sales_tax_id")
            .width(ColumnWidth::between(12, 20, 1))
            .priority(priority::ID),
        Column::new("Registered", registered_cell)
            .sort_key("registration_date")
            .width(ColumnWidth::fixed(10))
            .priority(priority::TIME),
    ]
}
