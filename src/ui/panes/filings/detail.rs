//! The detail of one filing: its period and jurisdiction, where it stands, and its amounts.

use ratatui::text::{Line, Span};

use super::columns::{period, state, status_style};
use crate::model::{Filing, Tolerance};
use crate::ui::judging::Judging;
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

/// The filing check's verdict in words (the one the list's column shows): `✓ adds up`, or each
/// finding: `✗ tax collected vs liability: 1,000.00 USD against 1,100.00 USD (-100.00 USD,
/// -9.0%)`.
fn adds_up(f: &Filing, theme: &Theme, tolerance: Tolerance) -> Cell {
    let found = super::columns::adds_up(f, tolerance)?;
    Some(if found.is_empty() {
        let what = if f.covered_sales.sales().is_some() {
            "✓ tax collected matches the liability, sales match its transactions"
        } else {
            "✓ tax collected matches the liability"
        };
        Line::from(Span::styled(what, theme.status_good))
    } else {
        let words: Vec<String> = found.iter().map(|x| format!("✗ {}", x.words())).collect();
        Line::from(Span::styled(words.join("; "), theme.status_bad))
    })
}

/// The filing's sales against the transactions it covers, in words, as the first row of the
/// list of those transactions: the same check as the list's, on the transactions just read.
pub fn sales_row(
    f: &Filing,
    transactions: &[crate::model::Transaction],
    tolerance: Tolerance,
) -> (String, String) {
    let figures = crate::model::SaleFigures::of(transactions);
    let read = Filing {
        covered_sales: crate::checks::filings::covered_sales(&figures),
        ..f.clone()
    };
    let found = crate::checks::filings::check(&read, tolerance);
    let sales = found
        .iter()
        .find(|x| x.check == crate::checks::filings::Check::SalesVsTransactions);
    let words = match (sales, f.amount_sales) {
        _ if transactions.is_empty() => {
            "no transactions listed to check the sales against".to_owned()
        }
        (Some(finding), _) => format!("✗ {}", finding.words()),
        (None, Some(amount)) => format!(
            "✓ sales {} match its transactions ({})",
            text::money(amount, f.currency.as_deref()),
            text::money(
                crate::checks::filings::sales_of(&figures),
                f.currency.as_deref()
            )
        ),
        (None, None) => "the filing sends no sales figure to check".to_owned(),
    };
    // Its own words: the Amounts section's "Adds up" is the whole verdict, this its sales part.
    ("Sales vs transactions".to_owned(), words)
}

/// Builds the detail view of `f`.
pub fn build<'t>(f: &Filing, theme: &'t Theme, judging: &Judging) -> Detail<'t> {
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
                    (
                        "Auto-approved",
                        crate::ui::widgets::detail::flag(f.auto_approved),
                    ),
                    (
                        "Paused until",
                        f.paused_until_date.map(|d| Line::from(text::date(d))),
                    ),
                    ("Filed", f.date_filed.map(|d| Line::from(text::date(d)))),
                    ("Manual", crate::ui::widgets::detail::flag(f.is_manual)),
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
                    ("Adds up", adds_up(f, theme, judging.filing_tolerance)),
                    ("Sales", money(f.amount_sales)),
                    ("Taxable sales", money(f.total_taxable_sales)),
                    (
                        "Transactions",
                        f.transaction_count.map(|n| Line::from(text::thousands(n))),
                    ),
                    (
                        "Marketplace transactions",
                        f.marketplace_transaction_count
                            .map(|n| Line::from(text::thousands(n))),
                    ),
                ],
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Transaction;

    fn filing(sales: &str) -> Filing {
        serde_json::from_value(serde_json::json!({
            "id": "f1", "registration_id": "r1", "start_date": "2026-09-01",
            "end_date": "2026-09-30", "country_code": "US", "state_code": "CA",
            "amount_sales": sales, "currency": "USD"
        }))
        .unwrap()
    }

    fn sale(subtotal: &str) -> Transaction {
        serde_json::from_value(serde_json::json!({
            "id": "t", "external_id": "t", "date": "2026-09-10T00:00:00Z", "type": "SALE",
            "subtotal": subtotal
        }))
        .unwrap()
    }

    #[test]
    fn the_sales_are_checked_against_the_transactions_in_words() {
        let listed = [sale("600.00"), sale("400.00")];
        let (label, words) = sales_row(&filing("1000.00"), &listed, Tolerance::default());
        assert_eq!(label, "Sales vs transactions");
        assert_eq!(
            words,
            "✓ sales 1,000.00 USD match its transactions (1,000.00 USD)"
        );
        let (_, words) = sales_row(&filing("1120.00"), &listed, Tolerance::default());
        assert_eq!(
            words,
            "✗ sales vs its transactions: 1,000.00 USD against 1,120.00 USD (-120.00 USD, -10.7%)"
        );
        let (_, words) = sales_row(&filing("1120.00"), &[], Tolerance::default());
        assert_eq!(words, "no transactions listed to check the sales against");
    }
}
