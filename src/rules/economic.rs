//! A jurisdiction's economic nexus rule: what counts toward its thresholds, whether they are met,
//! how far along they are, and the measuring periods a period model looks at.

use chrono::{Datelike, Months, NaiveDate};
use rust_decimal::Decimal;

use crate::model::{
    ExemptTreatment, NexusStatus, PeriodActivity, PeriodModel, SalesOrTransactions,
};

/// A jurisdiction's economic nexus rule: its thresholds, which of them create nexus, and what
/// counts toward them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EconomicRule {
    /// Sales amount that creates nexus; `None` or zero when sales are not counted.
    pub threshold_sales: Option<Decimal>,
    /// Transaction count that creates nexus; `None` or zero when transactions are not counted.
    pub threshold_transactions: Option<i64>,
    pub sales_or_transactions: SalesOrTransactions,
    /// Whether marketplace sales count toward the thresholds.
    pub marketplace_included: bool,
    pub exempt_treatment: ExemptTreatment,
}

/// Which thresholds a jurisdiction's activity meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EconomicJudgement {
    /// Sales counted toward the threshold.
    pub sales: Decimal,
    /// Transactions counted toward the threshold.
    pub transactions: i64,
    pub by_sales: bool,
    pub by_transactions: bool,
    /// Whether economic nexus is met under the rule.
    pub met: bool,
}

impl EconomicRule {
    /// The sales and transactions that count toward the thresholds: marketplace ones only when
    /// the rule includes them; exempt ones as the rule treats them (with a physical presence for
    /// `INCLUDE_IF_PRESENCE`; a treatment this side does not know counts them).
    pub fn counted(&self, a: &PeriodActivity, physical: bool) -> (Decimal, i64) {
        let (exempt_sales, exempt_count) = match &self.exempt_treatment {
            ExemptTreatment::Excluded => (false, false),
            ExemptTreatment::YesSalesNoTransactions => (true, false),
            ExemptTreatment::IncludeIfPresence => (physical, physical),
            _ => (true, true),
        };
        let mut sales = a.sales;
        let mut count = a.transactions;
        if !self.marketplace_included {
            sales -= a.marketplace_sales;
            count -= a.marketplace_transactions;
        }
        if !exempt_sales {
            sales -= a.exempt_sales;
        }
        if !exempt_count {
            count -= a.exempt_transactions;
        }
        (sales, count)
    }

    /// Judges economic nexus: the counted sales and transactions against the thresholds, either
    /// or both of them as `sales_or_transactions` says (a value this side does not know: either).
    pub fn judge(&self, a: &PeriodActivity, physical: bool) -> EconomicJudgement {
        let (sales, transactions) = self.counted(a, physical);
        let by_sales = self
            .threshold_sales
            .is_some_and(|t| t > Decimal::ZERO && sales >= t);
        let by_transactions = self
            .threshold_transactions
            .is_some_and(|t| t > 0 && transactions >= t);
        let met = match self.sales_or_transactions {
            SalesOrTransactions::Sales => by_sales,
            SalesOrTransactions::Transactions => by_transactions,
            SalesOrTransactions::Both => by_sales && by_transactions,
            SalesOrTransactions::Either | SalesOrTransactions::Other(_) => {
                by_sales || by_transactions
            }
        };
        EconomicJudgement {
            sales,
            transactions,
            by_sales,
            by_transactions,
            met,
        }
    }

    /// How far the counted activity has gone toward nexus, as a share of the thresholds (`1` is
    /// met): the sales share or the transaction share, the larger of the two when either creates
    /// nexus, the smaller when both must be met. `None` when the rule sets no threshold.
    pub fn progress(&self, a: &PeriodActivity, physical: bool) -> Option<Decimal> {
        let (sales, transactions) = self.counted(a, physical);
        let by_sales = self
            .threshold_sales
            .filter(|t| *t > Decimal::ZERO)
            .map(|t| sales / t);
        let by_count = self
            .threshold_transactions
            .filter(|t| *t > 0)
            .map(|t| Decimal::from(transactions) / Decimal::from(t));
        match self.sales_or_transactions {
            SalesOrTransactions::Sales => by_sales,
            SalesOrTransactions::Transactions => by_count,
            SalesOrTransactions::Both => by_sales.zip(by_count).map(|(s, c)| s.min(c)),
            SalesOrTransactions::Either | SalesOrTransactions::Other(_) => {
                [by_sales, by_count].into_iter().flatten().max()
            }
        }
    }
}

/// The share of its thresholds (see [`EconomicRule::progress`]) from which a jurisdiction whose
/// nexus is not met reads `APPROACHING`: 70 %.
pub const APPROACHING_AT: Decimal = Decimal::from_parts(70, 0, 0, false, 2);

/// Whether a period model judges the previous measuring period as well as the current one:
/// `CURRENT_OR_PREVIOUS` meets nexus when either calendar year reaches the thresholds.
pub fn judges_previous(model: &PeriodModel) -> bool {
    matches!(model, PeriodModel::CurrentOrPrevious)
}

/// The economic status of a jurisdiction without a registration, from the progress of each
/// period its rule judges (see [`judges_previous`]): `EXPOSED` when one of them meets the
/// thresholds, `APPROACHING` when one reaches [`APPROACHING_AT`], else `NOT_EXPOSED`.
pub fn economic_status(progress: &[Option<Decimal>]) -> NexusStatus {
    let most = progress.iter().flatten().copied().max();
    match most {
        Some(p) if p >= Decimal::ONE => NexusStatus::Exposed,
        Some(p) if p >= APPROACHING_AT => NexusStatus::Approaching,
        _ => NexusStatus::NotExposed,
    }
}

/// The measuring period a period model looks at on `today`, and the one before it, as
/// `((start, end), (previous start, previous end))`. A model this side does not know reads as the
/// calendar year.
pub fn measuring_periods(
    model: &PeriodModel,
    today: NaiveDate,
) -> ((NaiveDate, NaiveDate), (NaiveDate, NaiveDate)) {
    let ymd = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).expect("a valid date");
    let year = today.year();
    let year_of = |y| (ymd(y, 1, 1), ymd(y, 12, 31));
    // A window of `months` ending the day before `end_exclusive`, and the one before it.
    let window = |end_exclusive: NaiveDate, months: u32| {
        let start = end_exclusive - Months::new(months);
        let previous = start - Months::new(months);
        (
            (start, end_exclusive.pred_opt().expect("a valid date")),
            (previous, start.pred_opt().expect("a valid date")),
        )
    };
    let month_start = ymd(year, today.month(), 1);
    let quarter_start = ymd(year, (today.month0() / 3) * 3 + 1, 1);
    match model {
        PeriodModel::PrecedingYear
        | PeriodModel::PrecedingYearQuarterly
        | PeriodModel::PrecedingYearQuarterlyOffset => (year_of(year - 1), year_of(year - 2)),
        PeriodModel::Previous12Months => window(month_start, 12),
        PeriodModel::Previous4Quarters => window(quarter_start, 12),
        PeriodModel::Previous4QuartersOffset => window(quarter_start - Months::new(3), 12),
        PeriodModel::PrecedingYearFromOctober => {
            let end_year = if today.month() >= 10 { year } else { year - 1 };
            window(ymd(end_year, 10, 1), 12)
        }
        PeriodModel::CurrentOrPrevious | PeriodModel::CalendarYear | PeriodModel::Other(_) => {
            (year_of(year), year_of(year - 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        which: SalesOrTransactions,
        marketplace: bool,
        exempt: ExemptTreatment,
    ) -> EconomicRule {
        EconomicRule {
            threshold_sales: Some(Decimal::new(100_000, 0)),
            threshold_transactions: Some(200),
            sales_or_transactions: which,
            marketplace_included: marketplace,
            exempt_treatment: exempt,
        }
    }

    /// $90,000 in 210 transactions, of them $15,000 in 20 through a marketplace and $5,000 in 15
    /// exempt.
    fn activity() -> PeriodActivity {
        PeriodActivity {
            sales: Decimal::new(90_000, 0),
            exempt_sales: Decimal::new(5_000, 0),
            marketplace_sales: Decimal::new(15_000, 0),
            transactions: 210,
            exempt_transactions: 15,
            marketplace_transactions: 20,
        }
    }

    #[test]
    fn economic_nexus_is_judged_by_either_or_both_thresholds() {
        use SalesOrTransactions as W;
        let a = activity();
        let judge = |which| rule(which, true, ExemptTreatment::Included).judge(&a, false);
        assert!(judge(W::Either).met, "210 transactions are enough");
        assert!(judge(W::Transactions).met);
        assert!(!judge(W::Sales).met, "$90,000 is under $100,000");
        assert!(!judge(W::Both).met, "both are needed");
        assert!(
            judge(W::Other("NEW".into())).met,
            "an unknown rule reads as either"
        );
        let big = PeriodActivity {
            sales: Decimal::new(120_000, 0),
            ..a
        };
        let both = rule(W::Both, true, ExemptTreatment::Included).judge(&big, false);
        assert!(both.met && both.by_sales && both.by_transactions);
    }

    #[test]
    fn marketplace_and_exempt_sales_count_only_as_the_rule_says() {
        use ExemptTreatment as E;
        use SalesOrTransactions as W;
        let a = activity();
        let counted =
            |market, exempt, physical| rule(W::Either, market, exempt).counted(&a, physical);
        assert_eq!(
            counted(true, E::Included, false),
            (Decimal::new(90_000, 0), 210)
        );
        assert_eq!(
            counted(false, E::Included, false),
            (Decimal::new(75_000, 0), 190)
        );
        assert_eq!(
            counted(true, E::Excluded, false),
            (Decimal::new(85_000, 0), 195)
        );
        assert_eq!(
            counted(true, E::YesSalesNoTransactions, false),
            (Decimal::new(90_000, 0), 195)
        );
        assert_eq!(counted(true, E::IncludeIfPresence, false).1, 195);
        assert_eq!(counted(true, E::IncludeIfPresence, true).1, 210);
        // Without the marketplace sales the 200 transactions are no longer reached.
        let j = rule(W::Either, false, E::Included).judge(&a, false);
        assert!(!j.met && j.transactions == 190);
    }

    #[test]
    fn measuring_periods_follow_the_period_model() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let today = d(2026, 11, 15);
        let cases = [
            (
                PeriodModel::CurrentOrPrevious,
                (d(2026, 1, 1), d(2026, 12, 31)),
                (d(2025, 1, 1), d(2025, 12, 31)),
            ),
            (
                PeriodModel::PrecedingYear,
                (d(2025, 1, 1), d(2025, 12, 31)),
                (d(2024, 1, 1), d(2024, 12, 31)),
            ),
            (
                PeriodModel::Previous12Months,
                (d(2025, 11, 1), d(2026, 10, 31)),
                (d(2024, 11, 1), d(2025, 10, 31)),
            ),
            (
                PeriodModel::Previous4Quarters,
                (d(2025, 10, 1), d(2026, 9, 30)),
                (d(2024, 10, 1), d(2025, 9, 30)),
            ),
            (
                PeriodModel::PrecedingYearFromOctober,
                (d(2025, 10, 1), d(2026, 9, 30)),
                (d(2024, 10, 1), d(2025, 9, 30)),
            ),
            (
                PeriodModel::Other("X".into()),
                (d(2026, 1, 1), d(2026, 12, 31)),
                (d(2025, 1, 1), d(2025, 12, 31)),
            ),
        ];
        for (model, current, previous) in cases {
            assert_eq!(
                measuring_periods(&model, today),
                (current, previous),
                "{model}"
            );
        }
        assert_eq!(
            measuring_periods(&PeriodModel::PrecedingYearFromOctober, d(2026, 3, 1)).0,
            (d(2024, 10, 1), d(2025, 9, 30))
        );
    }

    #[test]
    fn progress_is_the_share_of_the_thresholds_that_decides() {
        use SalesOrTransactions as W;
        let a = PeriodActivity {
            sales: Decimal::new(80_000, 0),
            transactions: 50,
            ..PeriodActivity::default()
        };
        let share = |which| rule(which, true, ExemptTreatment::Included).progress(&a, false);
        // 80,000 of 100,000 and 50 of 200.
        assert_eq!(share(W::Sales), Some(Decimal::new(80, 2)));
        assert_eq!(share(W::Transactions), Some(Decimal::new(25, 2)));
        assert_eq!(share(W::Either), Some(Decimal::new(80, 2)));
        assert_eq!(share(W::Both), Some(Decimal::new(25, 2)));
        let none = EconomicRule {
            threshold_sales: None,
            threshold_transactions: Some(0),
            ..rule(W::Either, true, ExemptTreatment::Included)
        };
        assert_eq!(none.progress(&a, false), None);
        // Progress reaches 1 exactly when the judgement says met.
        for which in [W::Sales, W::Transactions, W::Either, W::Both] {
            let r = rule(which.clone(), true, ExemptTreatment::Included);
            for (sales, count) in [(99_999, 199), (100_000, 10), (10, 200), (100_000, 200)] {
                let a = PeriodActivity {
                    sales: Decimal::from(sales),
                    transactions: count,
                    ..PeriodActivity::default()
                };
                let reached = r.progress(&a, false).is_some_and(|p| p >= Decimal::ONE);
                assert_eq!(reached, r.judge(&a, false).met, "{which} {sales} {count}");
            }
        }
    }

    #[test]
    fn the_status_follows_the_most_advanced_judged_period() {
        let p = |hundredths: i64| Some(Decimal::new(hundredths, 2));
        assert_eq!(economic_status(&[p(69), p(10)]), NexusStatus::NotExposed);
        assert_eq!(economic_status(&[p(10), p(70)]), NexusStatus::Approaching);
        assert_eq!(economic_status(&[p(99), p(100)]), NexusStatus::Exposed);
        assert_eq!(economic_status(&[None]), NexusStatus::NotExposed);
        assert!(judges_previous(&PeriodModel::CurrentOrPrevious));
        assert!(!judges_previous(&PeriodModel::CalendarYear));
    }
}
