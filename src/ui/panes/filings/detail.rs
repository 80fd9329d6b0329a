//! The detail of one filing: its period and jurisdiction, where it stands, and its amounts.

use ratatui::text::{Line, Span};

use super::columns::{period, state, status_style};
use crate::model::Filing;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, Section};

/// A value cell, or `None` for an empty one (the widget shows a muted dash).
type Cell = Option<Line<'static>>;

fn section(title: &'static str, rows: Vec<(&'static str, Cell)>) -> Section<'static> {
    rows.into_iter()
        .fold(Section::new(title), |s, (label, value)| {
            s.maybe(label, value)
        })
}

fn text_cell(v: Option<&str>) -> Cell {
    v.filter(|s| !s.is_empty())
        .map(|s| Line::from(s.to_owned()))
}

fn yes_no(v: Option<bool>) -> Cell {
    v.map(|b| Line::from(if b { "yes" } else { "no" }))
}

/// Builds the detail view of `f`.
pub fn build<'t>(f: &Filing, theme: &'t Theme) -> Detail<'t> {
    let money = |v: Option<rust_decimal::Decimal>| -> Cell {
        v.map(|a| Line::from(text::money(a, f.currency.as_deref())))
    };
    let jurisdiction = match f.state_name.as_deref().filter(|s| !s.is_empty()) {
        Some(name) => format!("{} ({name}), {}", state(f), f.country_code),
        None => format!("{}, {}", state(f), f.country_code),
    };
    Detail::new(
        theme,
        vec![
            section(
                "Filing",
                vec![
                    ("ID", Some(Line::from(f.id.clone()))),
                    ("Registration", Some(Line::from(f.registration_id.clone()))),
                    ("Period", Some(Line::from(period(f)))),
                    ("Jurisdiction", Some(Line::from(jurisdiction))),
                    (
                        "Status",
                        f.status.as_ref().map(|s| {
                            Line::from(Span::styled(s.to_string(), status_style(s, theme)))
                        }),
                    ),
                    ("Due", f.due_date.map(|d| Line::from(text::date(d)))),
                    (
                        "Approved at",
                        f.approved_at
                            .as_ref()
                            .map(|t| Line::from(text::timestamp(t))),
                    ),
                    ("Auto-approved", yes_no(f.auto_approved)),
                    (
                        "Paused until",
                        f.paused_until_date.map(|d| Line::from(text::date(d))),
                    ),
                    ("Filed", f.date_filed.map(|d| Line::from(text::date(d)))),
                    ("Manual", yes_no(f.is_manual)),
                    (
                        "Return confirmation",
                        text_cell(f.return_confirmation_id.as_deref()),
                    ),
                    (
                        "Payment confirmation",
                        text_cell(f.payment_confirmation_id.as_deref()),
                    ),
                    ("Filing website", text_cell(Some(&f.filing_website_url))),
                ],
            ),
            section(
                "Amounts",
                vec![
                    ("Amount due", money(f.amount)),
                    ("Total tax liability", money(f.total_tax_liability)),
                    ("Calculated", money(f.amount_calculated)),
                    ("Adjusted", money(f.amount_adjusted)),
                    ("Tax collected", money(f.amount_tax_collected)),
                    ("Discounts", money(f.amount_discounts)),
                    ("Fees", money(f.amount_fees)),
                    ("Penalties", money(f.amount_penalties)),
                    ("Sales", money(f.amount_sales)),
                    ("Taxable sales", money(f.total_taxable_sales)),
                    (
                        "Transactions",
                        f.transaction_count.map(|n| Line::from(n.to_string())),
                    ),
                    (
                        "Marketplace transactions",
                        f.marketplace_transaction_count
                            .map(|n| Line::from(n.to_string())),
                    ),
                ],
            ),
        ],
    )
}
