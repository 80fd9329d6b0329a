//! The list's columns.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::{Customer, CustomerStatus};
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// The style of a customer status: active ones read as good, archived ones as closed.
pub fn status_style(status: &CustomerStatus, theme: &Theme) -> Style {
    match status {
        CustomerStatus::Active => theme.status_good,
        CustomerStatus::Archived => theme.status_closed,
        CustomerStatus::Other(_) => theme.base,
    }
}

fn name_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.name.as_deref().unwrap_or(""))
}

fn company_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.company_name.as_deref().unwrap_or(""))
}

fn email_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.email.as_deref().unwrap_or(""))
}

fn country_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.address.country.as_deref().unwrap_or(""))
}

fn state_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.address.state.as_deref().unwrap_or(""))
}

fn status_cell<'r>(c: &'r Customer, theme: &Theme) -> Line<'r> {
    c.status.as_ref().map_or_else(Line::default, |s| {
        Line::from(Span::styled(s.as_str(), status_style(s, theme)))
    })
}

fn source_cell<'r>(c: &'r Customer, _: &Theme) -> Line<'r> {
    Line::from(c.source.as_deref().unwrap_or(""))
}

/// The list's columns, in the service's order (the list is not sortable here).
pub fn columns() -> Vec<Column<Customer>> {
    vec![
        Column::new("Name", name_cell)
            .width(ColumnWidth::between(12, 28, 2))
            .priority(priority::NAME),
        Column::new("Company", company_cell)
            .width(ColumnWidth::between(10, 34, 2))
            .priority(priority::DEFAULT),
        Column::new("Email", email_cell)
            .width(ColumnWidth::between(14, 40, 3))
            .priority(priority::DEFAULT),
        Column::new("Country", country_cell)
            .width(ColumnWidth::fixed(7))
            .priority(priority::DETAIL),
        Column::new("State", state_cell)
            .width(ColumnWidth::fixed(5))
            .priority(priority::DEFAULT),
        Column::new("Status", status_cell)
            .width(ColumnWidth::fixed(8))
            .priority(priority::STATUS),
        Column::new("Source", source_cell)
            .width(ColumnWidth::between(6, 16, 1))
            .priority(priority::DETAIL),
    ]
}
