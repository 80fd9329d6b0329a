//! The list's columns; a column's sort key is one of the service's `order_by` fields.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use rust_decimal::Decimal;

use crate::model::{ProcessingStatus, Transaction, TransactionStatus};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// The style of a transaction status: committed ones read as good, cancelled or invalid ones as
/// bad, refunded or archived ones as closed.
pub fn status_style(status: &TransactionStatus, theme: &Theme) -> Style {
    match status {
        TransactionStatus::Committed => theme.status_good,
        TransactionStatus::Pending => theme.status_pending,
        TransactionStatus::Cancelled | TransactionStatus::Invalid => theme.status_bad,
        TransactionStatus::FullyRefunded
        | TransactionStatus::PartiallyRefunded
        | TransactionStatus::Archived => theme.status_closed,
        TransactionStatus::Other(_) => theme.base,
    }
}

/// The style of a processing status: calculated tax reads as good, the rest as pending.
pub fn processing_style(status: &ProcessingStatus, theme: &Theme) -> Style {
    if status.tax_is_calculated() {
        theme.status_good
    } else {
        theme.status_pending
    }
}

/// The customer's name, else the company, else the customer's id.
pub fn customer_name(t: &Transaction) -> &str {
    t.customer
        .as_ref()
        .and_then(|c| c.name.as_deref().or(c.company_name.as_deref()))
        .filter(|n| !n.trim().is_empty())
        .or(t.customer_id.as_deref())
        .unwrap_or("")
}

/// `TX, US`, `ON, CA`, or whichever of the two is known.
pub fn region(t: &Transaction) -> String {
    [t.state.as_deref(), t.country.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

fn date_cell<'r>(t: &'r Transaction, _: &Theme) -> Line<'r> {
    Line::from(text::date(t.date.date()))
}

fn external_id_cell<'r>(t: &'r Transaction, _: &Theme) -> Line<'r> {
    Line::from(t.external_id.as_str())
}

fn customer_cell<'r>(t: &'r Transaction, _: &Theme) -> Line<'r> {
    Line::from(customer_name(t))
}

fn type_cell<'r>(t: &'r Transaction, _: &Theme) -> Line<'r> {
    Line::from(t.kind.as_str())
}

fn status_cell<'r>(t: &'r Transaction, theme: &Theme) -> Line<'r> {
    t.status.as_ref().map_or_else(Line::default, |s| {
        Line::from(Span::styled(s.as_str(), status_style(s, theme)))
    })
}

fn processing_cell<'r>(t: &'r Transaction, theme: &Theme) -> Line<'r> {
    t.processing_status
        .as_ref()
        .map_or_else(Line::default, |s| {
            Line::from(Span::styled(s.as_str(), processing_style(s, theme)))
        })
}

fn region_cell<'r>(t: &'r Transaction, _: &Theme) -> Line<'r> {
    Line::from(region(t))
}

/// An amount of a transaction: money, or for a credit note money going back (negative,
/// whichever sign the record stores).
pub fn signed(credit_note: bool, amount: Decimal, currency: Option<&str>) -> String {
    if credit_note {
        text::credit(amount, currency)
    } else {
        text::money(amount, currency)
    }
}

/// The total of `t` in its currency, a credit note's negative.
pub fn total(t: &Transaction) -> Option<String> {
    t.total_amount
        .map(|a| signed(t.kind.is_credit_note(), a, t.currency.as_deref()))
}

fn total_cell<'r>(t: &'r Transaction, theme: &Theme) -> Line<'r> {
    total(t).map_or_else(Line::default, |total| {
        Line::from(Span::styled(total, theme.money))
    })
}

/// The list's columns.
pub fn columns() -> Vec<Column<Transaction>> {
    vec![
        Column::new("Date", date_cell)
            .sort_key("date")
            .width(ColumnWidth::fixed(10))
            .priority(priority::DATE),
        // The order number: what people know a transaction by, so it stays as long as the
        // customer.
        Column::new("External ID", external_id_cell)
            .width(ColumnWidth::between(10, 24, 2))
            .priority(priority::NAME),
        Column::new("Customer", customer_cell)
            .sort_key("customer_name")
            .width(ColumnWidth::between(16, 28, 2))
            .priority(priority::NAME),
        Column::new("Type", type_cell)
            .width(ColumnWidth::between(4, 19, 1))
            .priority(priority::DETAIL)
            .whole(),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::between(6, 18, 1))
            .priority(priority::STATUS)
            .keep(),
        Column::new("Processing", processing_cell)
            .width(ColumnWidth::between(6, 23, 1))
            .priority(priority::DETAIL)
            .whole(),
        Column::new("Region", region_cell)
            .sort_key("state")
            .width(ColumnWidth::fixed(8))
            .priority(priority::DEFAULT),
        Column::new("Total", total_cell)
            .sort_key("total_amount")
            .width(ColumnWidth::between(10, 20, 1))
            .right()
            .keep(),
    ]
}
