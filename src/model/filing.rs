//! Filings, the tolerance their figures are compared within, and the back-filing terms.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Timestamp;
use super::format;

open_enum! {
    pub enum FilingStatus { Unfiled = "UNFILED", Filed = "FILED", Filing = "FILING", Paused = "PAUSED" }
}

impl FilingStatus {
    /// The statuses of a return not filed yet: what "overdue" and "due within" look at unless
    /// statuses are chosen.
    pub const NOT_FILED: [FilingStatus; 3] = [
        FilingStatus::Unfiled,
        FilingStatus::Filing,
        FilingStatus::Paused,
    ];

    /// The statuses of a return still to be filed: what "overdue" and "due within" count
    /// unless statuses are chosen. A paused return is not among them: it is counted as paused,
    /// once, wherever returns are counted.
    pub const TO_FILE: [FilingStatus; 2] = [FilingStatus::Unfiled, FilingStatus::Filing];
}

/// A return for one period of one registration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Filing {
    pub id: String,
    pub registration_id: String,
    pub status: Option<FilingStatus>,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub due_date: Option<NaiveDate>,
    /// The day the return was filed: a date, as the service sends it (a timestamp from an
    /// earlier state is read as its day).
    #[serde(default, deserialize_with = "super::timestamp::optional_day")]
    pub date_filed: Option<NaiveDate>,
    pub country_code: String,
    pub state_code: Option<String>,
    pub state_name: Option<String>,
    #[serde(default)]
    pub filing_website_url: String,
    pub is_manual: Option<bool>,
    pub auto_approved: Option<bool>,
    pub paused_until_date: Option<NaiveDate>,
    pub approved_at: Option<Timestamp>,
    pub amount_calculated: Option<Decimal>,
    pub amount_adjusted: Option<Decimal>,
    pub amount_discounts: Option<Decimal>,
    pub amount_fees: Option<Decimal>,
    pub amount_penalties: Option<Decimal>,
    pub amount_tax_collected: Option<Decimal>,
    pub amount_sales: Option<Decimal>,
    pub total_taxable_sales: Option<Decimal>,
    pub amount: Option<Decimal>,
    pub total_tax_liability: Option<Decimal>,
    pub transaction_count: Option<i64>,
    pub marketplace_transaction_count: Option<i64>,
    pub return_confirmation_id: Option<String>,
    pub payment_confirmation_id: Option<String>,
    pub currency: Option<String>,
    /// Not part of the record: the sales of the transactions the service lists for this return
    /// (`GET /v1/transactions/filings/{id}`), read beside it so that the filing check can
    /// compare them with `amount_sales`.
    #[serde(skip)]
    pub covered_sales: CoveredSales,
}

impl Filing {
    /// `amount_tax_collected` against `total_tax_liability`, as `(expected, actual)`: the
    /// first figure the filing check compares; `None` unless both are sent.
    pub fn collected_vs_liability(&self) -> Option<(Decimal, Decimal)> {
        Some((self.total_tax_liability?, self.amount_tax_collected?))
    }

    /// `amount_sales` against what the transactions it covers add up to, as `(expected,
    /// actual)`: the second figure the filing check compares; `None` unless the filing sends
    /// its sales and those transactions were read and listed ([`Filing::covered_sales`]).
    pub fn sales_vs_transactions(&self) -> Option<(Decimal, Decimal)> {
        Some((self.amount_sales?, self.covered_sales.sales()?))
    }

    /// Whether both figures agree within `tolerance`: the verdict of the filing check (which
    /// lists the figures that do not), and what a filter on filings that do not add up keeps.
    pub fn adds_up(&self, tolerance: Tolerance) -> bool {
        [self.collected_vs_liability(), self.sales_vs_transactions()]
            .into_iter()
            .flatten()
            .all(|(expected, actual)| !tolerance.exceeded(expected, actual))
    }
}

/// When two figures of a filing disagree: over `percent` % of the expected figure **and** over
/// `amount` (5 % and one unit of the currency by default, the `[checks]` settings otherwise). A
/// cent of rounding on a small return does not count, nor does a large return off by a few
/// units. The share is judged as it is shown ([`format::share_off`], cut at one decimal): a
/// difference shown as `-5.0%` never exceeds a tolerance of 5 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tolerance {
    pub percent: Decimal,
    pub amount: Decimal,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            percent: Decimal::from(5),
            amount: Decimal::ONE,
        }
    }
}

impl Tolerance {
    /// Whether `actual` is off `expected` by more than both the share and the amount. The share
    /// is the one shown ([`format::share_off`]), so a difference found always reads over the
    /// tolerance.
    pub fn exceeded(&self, expected: Decimal, actual: Decimal) -> bool {
        let off = (actual - expected).abs();
        off > self.amount
            && format::share_off(expected, actual).is_none_or(|p| p.abs() > self.percent)
    }

    /// `over 5.0% and over 1.00`, in the currency of each filing.
    pub fn words(&self) -> String {
        format!(
            "over {} and over {}",
            format::percent(self.percent),
            format::money(self.amount, None)
        )
    }
}

/// The sales of the transactions a return covers, as far as they were read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CoveredSales {
    /// Not read (yet).
    #[default]
    NotRead,
    /// Read: the service lists no transaction for the return (imported, or older than what it
    /// holds), so there is nothing to compare.
    NoneListed,
    /// Read: what they add up to, credit notes taken off.
    Sales(Decimal),
    /// Reading them failed.
    Failed,
}

impl CoveredSales {
    /// The sum, when there is one to compare.
    pub fn sales(self) -> Option<Decimal> {
        match self {
            CoveredSales::Sales(sum) => Some(sum),
            _ => None,
        }
    }
}

/// The terms shown before a back-filing is approved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackFilingTerms {
    pub id: String,
    pub version: i64,
    pub timeline: String,
    pub penalties_and_interest: String,
    pub what_you_are_approving: String,
    pub fees: String,
    pub help_article_url: Option<String>,
    pub help_article_label: String,
}
