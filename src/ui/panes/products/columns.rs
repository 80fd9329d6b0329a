//! The product list's columns; a column's sort key is its `order_by` field.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::{Product, ProductStatus};
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// The style of a product status: approved reads as good, the rest as waiting.
pub fn status_style(status: &ProductStatus, theme: &Theme) -> Style {
    match status {
        ProductStatus::Approved => theme.status_good,
        ProductStatus::PartiallyApproved | ProductStatus::Pending => theme.status_pending,
        ProductStatus::Archived => theme.status_closed,
        ProductStatus::Other(_) => theme.base,
    }
}

/// `!` on a product that needs classification (`PENDING`, `PARTIALLY_APPROVED`, or its
/// classification failed), `✗` when the classification failed.
fn mark_cell<'r>(p: &'r Product, theme: &Theme) -> Line<'r> {
    if p.classification_failed {
        Line::from(Span::styled("✗", theme.status_bad))
    } else if p.needs_classification() {
        Line::from(Span::styled("!", theme.status_pending))
    } else {
        Line::default()
    }
}

fn name_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(p.name.as_str())
}

fn code_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(p.code.as_str())
}

fn status_cell<'r>(p: &'r Product, theme: &Theme) -> Line<'r> {
    Line::from(Span::styled(
        p.status.as_str(),
        status_style(&p.status, theme),
    ))
}

fn category_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(p.product_category.as_str())
}

fn subcategory_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(p.product_subcategory.as_str())
}

fn exempt_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(if p.tax_exempt { "exempt" } else { "" })
}

fn source_cell<'r>(p: &'r Product, _: &Theme) -> Line<'r> {
    Line::from(p.source.as_deref().unwrap_or(""))
}

/// The list's columns.
pub fn columns() -> Vec<Column<Product>> {
    vec![
        Column::new(" ", mark_cell)
            .width(ColumnWidth::fixed(1))
            .priority(priority::STATUS),
        Column::new("Name", name_cell)
            .sort_key("name")
            .width(ColumnWidth::between(12, 36, 3))
            .priority(priority::NAME),
        Column::new("Code", code_cell)
            .sort_key("code")
            .width(ColumnWidth::between(8, 16, 1))
            .priority(priority::DETAIL),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::fixed(18))
            .priority(priority::STATUS),
        Column::new("Category", category_cell)
            .sort_key("product_category")
            .width(ColumnWidth::between(7, 13, 1))
            .priority(priority::DEFAULT),
        Column::new("Subcategory", subcategory_cell)
            .sort_key("product_subcategory")
            .width(ColumnWidth::between(10, 28, 2))
            .priority(priority::DEFAULT),
        Column::new("Tax", exempt_cell)
            .width(ColumnWidth::fixed(6))
            .priority(priority::DETAIL),
        Column::new("Source", source_cell)
            .width(ColumnWidth::between(6, 10, 1))
            .priority(priority::DETAIL),
    ]
}
