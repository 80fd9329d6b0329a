//! Filings that do not add up: the tax collected against the liability, and the filing's sales
//! against the sum of the transactions it covers where the service lists them.
//!
//! A difference is a finding when it exceeds the [`Tolerance`] (over its share of the expected
//! figure **and** over its amount, the share judged as it is shown); the figures compared are
//! the filing's own ([`Filing::collected_vs_liability`], [`Filing::sales_vs_transactions`]), so
//! the findings listed here and a filter on filings that do not add up ([`Filing::adds_up`])
//! always agree.
//! Transactions add their subtotal (before tax; the total when no subtotal is sent); credit
//! notes take theirs off; purchases, other types, and transactions that do not count for tax
//! ([`TransactionStatus::counts_for_tax`]: cancelled, invalid, archived) do not count.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::model::format;
use crate::model::{
    CoveredSales, Direction, Filing, SaleFigures, Tolerance, TransactionStatus, TransactionType,
};

/// Which comparison a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// `amount_tax_collected` against `total_tax_liability`.
    CollectedVsLiability,
    /// `amount_sales` against the sum of the filing's transactions.
    SalesVsTransactions,
}

impl Check {
    pub fn words(self) -> &'static str {
        match self {
            Check::CollectedVsLiability => "tax collected vs liability",
            Check::SalesVsTransactions => "sales vs its transactions",
        }
    }
}

/// One figure of a filing that does not add up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub filing_id: String,
    /// `US-CA`, or the country alone.
    pub jurisdiction: String,
    /// `2026-07-01..2026-09-30`, for scripts; people read [`Finding::period_words`].
    pub period: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub status: Option<String>,
    pub check: Check,
    pub expected: Decimal,
    pub actual: Decimal,
    /// `actual - expected`.
    pub difference: Decimal,
    /// The difference as a share of the expected figure, in percent as shown (see
    /// [`format::share_off`]); `None` when nothing was expected.
    pub percent: Option<Decimal>,
    pub currency: Option<String>,
}

impl Finding {
    /// "tax collected vs liability: 1,000.00 USD against 1,100.00 USD (-100.00 USD, -9.0%)".
    pub fn words(&self) -> String {
        let share = self.share().map(|p| format!(", {p}")).unwrap_or_default();
        format!(
            "{}: {} against {} ({}{share})",
            self.check.words(),
            self.money(self.actual),
            self.money(self.expected),
            self.difference()
        )
    }

    /// The filing's period as every surface writes it: `2026-07-01 – 2026-09-30`.
    pub fn period_words(&self) -> String {
        format::period(self.start_date, self.end_date)
    }

    /// An amount of this finding, in its filing's currency.
    pub fn money(&self, amount: Decimal) -> String {
        format::money(amount, self.currency.as_deref())
    }

    /// The difference with its sign and currency: `-100.00 USD`.
    pub fn difference(&self) -> String {
        format::money_change(self.difference, self.currency.as_deref())
    }

    /// The share with its sign: `-9.0%`; `None` when nothing was expected.
    pub fn share(&self) -> Option<String> {
        self.percent.map(format::share_change)
    }
}

/// What a filing's transactions add up to, as its sales.
pub fn sales_of(transactions: &[SaleFigures]) -> Decimal {
    transactions
        .iter()
        .filter(|t| t.direction.as_ref().is_none_or(|d| *d == Direction::Sale))
        .filter(|t| TransactionStatus::counts_for_tax(t.status.as_ref()))
        .map(|t| {
            let amount = t.subtotal.or(t.total_amount).unwrap_or_default();
            match t.kind {
                TransactionType::Sale => amount,
                TransactionType::FullCreditNote | TransactionType::PartialCreditNote => {
                    -amount.abs()
                }
                _ => Decimal::ZERO,
            }
        })
        .sum()
}

fn jurisdiction(f: &Filing) -> String {
    match f.state_code.as_deref().filter(|s| !s.is_empty()) {
        Some(s) => format!("{}-{s}", f.country_code),
        None => f.country_code.clone(),
    }
}

fn finding(f: &Filing, check: Check, expected: Decimal, actual: Decimal) -> Finding {
    let difference = actual - expected;
    Finding {
        filing_id: f.id.clone(),
        jurisdiction: jurisdiction(f),
        period: format!("{}..{}", f.start_date, f.end_date),
        start_date: f.start_date,
        end_date: f.end_date,
        status: f.status.as_ref().map(|s| s.as_str().to_owned()),
        check,
        expected,
        actual,
        difference,
        percent: format::share_off(expected, actual),
        currency: f.currency.clone(),
    }
}

/// Whether the check compares `filing`'s sales with the transactions the service lists for it:
/// its period has ended by `today` and it sends a sales figure. The one rule of what is read
/// beside a filing, wherever it is checked (the CLI, the Filings list, the Overview).
pub fn needs_transactions(filing: &Filing, today: chrono::NaiveDate) -> bool {
    filing.end_date < today && filing.amount_sales.is_some()
}

/// The figure [`check`] compares with `amount_sales`: the sales of `transactions` (see
/// [`sales_of`]); an empty list is a filing the service has no transactions for (imported, or
/// older than what it holds): nothing to compare.
pub fn covered_sales(transactions: &[SaleFigures]) -> CoveredSales {
    if transactions.is_empty() {
        CoveredSales::NoneListed
    } else {
        CoveredSales::Sales(sales_of(transactions))
    }
}

/// Whether `filing`'s verdict still waits for its transactions to be read.
pub fn is_pending(filing: &Filing, today: chrono::NaiveDate) -> bool {
    needs_transactions(filing, today) && filing.covered_sales == CoveredSales::NotRead
}

/// Checks one filing: collected against liability, and its sales against the transactions it
/// covers when they were read beside it ([`Filing::covered_sales`]). The one verdict the CLI,
/// the Filings list, its filter, its detail and the Overview all show.
pub fn check(filing: &Filing, tolerance: Tolerance) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some((liability, collected)) = filing.collected_vs_liability()
        && tolerance.exceeded(liability, collected)
    {
        out.push(finding(
            filing,
            Check::CollectedVsLiability,
            liability,
            collected,
        ));
    }
    if let Some((sales, summed)) = filing.sales_vs_transactions()
        && tolerance.exceeded(sales, summed)
    {
        out.push(finding(filing, Check::SalesVsTransactions, sales, summed));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn filing(collected: &str, liability: &str, sales: &str) -> Filing {
        serde_json::from_value(json!({
            "id": "fil_1", "registration_id": "reg_1", "status": "FILED",
            "start_date": "2026-09-01", "end_date": "2026-09-30", "country_code": "US",
            "state_code": "CA", "amount_tax_collected": collected,
            "total_tax_liability": liability, "amount_sales": sales, "currency": "USD"
        }))
        .unwrap()
    }

    /// A transaction as the service lists it, read for its figures.
    fn tx(kind: &str, subtotal: &str) -> SaleFigures {
        serde_json::from_value(json!({
            "id": "t", "external_id": "t", "date": "2026-09-10T00:00:00Z", "type": kind,
            "subtotal": subtotal, "total_amount": "999.00"
        }))
        .unwrap()
    }

    #[test]
    fn both_the_share_and_the_amount_must_be_passed() {
        let t = Tolerance::default();
        // 6 % but 0.60: under one unit.
        assert!(!t.exceeded(Decimal::new(1000, 2), Decimal::new(940, 2)));
        // 2.00 but 0.2 %: under 5 %.
        assert!(!t.exceeded(Decimal::from(1000), Decimal::from(998)));
        // 10 % and 100.00.
        assert!(t.exceeded(Decimal::from(1000), Decimal::from(900)));
        // Exactly 5 % is not over it, nor is 5.09 %, shown as 5.0%.
        assert!(!t.exceeded(Decimal::from(1000), Decimal::from(950)));
        assert!(!t.exceeded(Decimal::from(1000), Decimal::new(94_910, 2)));
        assert!(!t.exceeded(Decimal::new(299_074, 2), Decimal::new(284_120, 2)));
        // 5.1 %, shown as 5.1%, is.
        assert!(t.exceeded(Decimal::from(1000), Decimal::from(949)));
        // Nothing expected, something there.
        assert!(t.exceeded(Decimal::ZERO, Decimal::from(2)));
    }

    #[test]
    fn collected_short_of_the_liability_is_a_finding() {
        let f = filing("1000.00", "1100.00", "10000.00");
        let found = check(&f, Tolerance::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].check, Check::CollectedVsLiability);
        assert_eq!(found[0].difference, Decimal::new(-10000, 2));
        assert_eq!(found[0].percent, Some(Decimal::new(-90, 1)));
        assert_eq!(
            found[0].words(),
            "tax collected vs liability: 1,000.00 USD against 1,100.00 USD (-100.00 USD, -9.0%)"
        );
        assert_eq!(found[0].period_words(), "2026-09-01 – 2026-09-30");
        assert_eq!(found[0].jurisdiction, "US-CA");
    }

    #[test]
    fn sales_are_compared_with_the_transactions_less_credit_notes() {
        let f = filing("100.00", "100.00", "1000.00");
        let txs = [
            tx("SALE", "700.00"),
            tx("SALE", "400.00"),
            tx("PARTIAL_CREDIT_NOTE", "100.00"),
        ];
        assert_eq!(sales_of(&txs), Decimal::new(100_000, 2));
        let with = |listed: &[SaleFigures]| Filing {
            covered_sales: covered_sales(listed),
            ..f.clone()
        };
        assert!(check(&with(&txs), Tolerance::default()).is_empty());
        let short = [tx("SALE", "700.00")];
        let found = check(&with(&short), Tolerance::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].check, Check::SalesVsTransactions);
        assert_eq!(found[0].actual, Decimal::new(70_000, 2));
        // Not read, or listed empty: not compared.
        assert!(check(&f, Tolerance::default()).is_empty());
        assert!(check(&with(&[]), Tolerance::default()).is_empty());
    }

    #[test]
    fn a_listed_share_always_reads_over_the_tolerance() {
        // -149.54 of 2,990.74 is -5.0001 %: shown as -5.0%, so not listed against 5 %.
        let f = filing("2841.20", "2990.74", "0");
        assert!(check(&f, Tolerance::default()).is_empty());
        // -10.714 % is shown, and judged, as -10.7%.
        let f = filing("3750.00", "4200.00", "0");
        let found = check(&f, Tolerance::default());
        assert_eq!(found[0].share().as_deref(), Some("-10.7%"));
        assert_eq!(Tolerance::default().words(), "over 5.0% and over 1.00");
    }

    #[test]
    fn the_findings_and_the_verdict_agree() {
        let listed = [tx("SALE", "700.00")];
        for (collected, liability, sales) in [
            ("1000.00", "1100.00", "700.00"),
            ("100.00", "100.00", "1000.00"),
            ("100.00", "100.00", "700.00"),
            ("2841.20", "2990.74", "0"),
        ] {
            let f = Filing {
                covered_sales: covered_sales(&listed),
                ..filing(collected, liability, sales)
            };
            for tolerance in [
                Tolerance::default(),
                Tolerance {
                    percent: Decimal::from(50),
                    amount: Decimal::ONE,
                },
            ] {
                assert_eq!(check(&f, tolerance).is_empty(), f.adds_up(tolerance));
            }
        }
    }

    #[test]
    fn a_tolerance_from_the_config_is_used() {
        let f = filing("1000.00", "1100.00", "0");
        let loose = Tolerance {
            percent: Decimal::from(10),
            amount: Decimal::ONE,
        };
        assert!(check(&f, loose).is_empty());
    }
}
