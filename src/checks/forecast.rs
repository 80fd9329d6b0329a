//! When a state will be crossed: a jurisdiction's economic nexus thresholds against its sales so
//! far in the measuring period and its pace over the trailing 90 days, by the jurisdiction's own
//! rule (period model, sales or transactions or both or either, what counts).
//!
//! - **Growing periods** (calendar year, current or previous year): the period fills from its
//!   start; the threshold is met on the day sales so far plus the pace reach it, if that day is
//!   within the period.
//! - **Rolling windows** (previous 12 months, previous 4 quarters, the year to September 30):
//!   the window moves on at each month, quarter or October 1. At each move it gains the pace
//!   over the step and loses the step's share of what it held (its oldest part, taken as
//!   average). The threshold is met at the first move that brings the window to it, within the
//!   next 12 months.
//! - **Preceding-year periods**: this year's sales count from next 1 January; at the pace the
//!   year reaches `pace × days in the year`, and the threshold is met on 1 January if that
//!   reaches it.
//!
//! The pace counts the trailing 90 days' sales as the rule counts them ([`EconomicRule::counted`]:
//! marketplace and exempt sales only where the rule includes them).

use std::fmt::Write as _;

use chrono::{Datelike, Days, Months, NaiveDate};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::model::PeriodActivity;
use crate::model::format;
use crate::model::{Nexus, NexusStatus, PeriodModel, SalesOrTransactions};
use crate::rules::EconomicRule;

/// The days the pace is measured over.
pub const PACE_DAYS: u32 = 90;

/// Which threshold a crossing is by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    Sales,
    Transactions,
}

impl Basis {
    pub fn word(self) -> &'static str {
        match self {
            Basis::Sales => "sales",
            Basis::Transactions => "transactions",
        }
    }
}

/// What the forecast says of one jurisdiction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Crossing {
    /// The threshold is met around `on`, by `by`.
    Around { on: NaiveDate, by: Basis },
    /// Not within the period (or, for a rolling window, the next 12 months) at this pace.
    NotThisPeriod,
    /// Already met.
    Met,
    /// No sales in the trailing 90 days, nothing to project.
    NoPace,
    /// The record lacks what a forecast needs (no threshold, no period).
    Unknown { reason: String },
}

/// One jurisdiction's forecast, with the figures it was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Forecast {
    pub country_code: String,
    pub state_code: String,
    pub state_name: String,
    pub status: Option<String>,
    pub period_model: Option<String>,
    pub sales_or_transactions: Option<String>,
    pub threshold_sales: Option<Decimal>,
    pub threshold_transactions: Option<i64>,
    pub sales_so_far: Decimal,
    pub transactions_so_far: i64,
    /// Counted sales over the trailing [`PACE_DAYS`] days.
    pub pace_sales: Decimal,
    pub pace_transactions: i64,
    pub crossing: Crossing,
    /// What the service predicts, when it sends it: months from today, and its confidence.
    pub predicted_month_from_today: Option<i64>,
    pub confidence_level: Option<Decimal>,
    pub currency: Option<String>,
}

impl Forecast {
    /// The jurisdiction as `US-GA`.
    pub fn jurisdiction(&self) -> String {
        if self.state_code.is_empty() {
            self.country_code.clone()
        } else {
            format!("{}-{}", self.country_code, self.state_code)
        }
    }

    /// "At this pace: crosses around 2027-02 (sales)", or why not.
    pub fn words(&self) -> String {
        let mut s = match &self.crossing {
            Crossing::Around { on, by } => {
                format!(
                    "At this pace: crosses around {} ({})",
                    format::month(*on),
                    by.word()
                )
            }
            Crossing::NotThisPeriod => "At this pace: not this period".to_owned(),
            Crossing::Met => "Threshold already met".to_owned(),
            Crossing::NoPace => "No sales in the last 90 days: nothing to project".to_owned(),
            Crossing::Unknown { reason } => format!("No forecast: {reason}"),
        };
        if let Some(months) = self.predicted_month_from_today {
            let _ = write!(
                s,
                "; the service predicts {} from today",
                format::count(months.unsigned_abs(), "month")
            );
            if let Some(c) = self.confidence_level {
                let _ = write!(s, " (confidence {c})");
            }
        }
        s
    }

    /// The crossing day, for sorting (`None` last).
    pub fn day(&self) -> Option<NaiveDate> {
        match self.crossing {
            Crossing::Around { on, .. } => Some(on),
            _ => None,
        }
    }
}

/// Whether `n` is one a forecast is made for: approaching, or not exposed with sales, under a
/// rule with a threshold (a state without sales tax has none).
pub fn wanted(n: &Nexus) -> bool {
    let threshold = n.threshold_sales.is_some_and(|t| t > Decimal::ZERO)
        || n.threshold_transactions.is_some_and(|t| t > 0);
    threshold
        && match &n.status {
            Some(NexusStatus::Approaching) => true,
            Some(NexusStatus::NotExposed) => {
                n.transactions_amount.is_some_and(|a| a > Decimal::ZERO)
                    || n.transaction_count.is_some_and(|c| c > 0)
            }
            _ => false,
        }
}

/// The rule `n` carries, for counting the pace as it counts.
pub fn rule_of(n: &Nexus) -> EconomicRule {
    EconomicRule {
        threshold_sales: n.threshold_sales,
        threshold_transactions: n.threshold_transactions,
        sales_or_transactions: n
            .sales_or_transactions
            .clone()
            .unwrap_or(SalesOrTransactions::Either),
        marketplace_included: n.marketplace_included.unwrap_or(true),
        exempt_treatment: n
            .treatment_of_exempt_transactions
            .clone()
            .unwrap_or(crate::model::ExemptTreatment::Included),
    }
}

/// How a period model's window moves.
enum Shape {
    Growing,
    /// Moves on every `months` months, at a boundary that is a multiple of them counted from
    /// month `offset` (0 = January).
    Rolling {
        months: u32,
        offset: u32,
    },
    PrecedingYear,
}

fn shape(model: Option<&PeriodModel>) -> Shape {
    match model {
        Some(PeriodModel::Previous12Months) => Shape::Rolling {
            months: 1,
            offset: 0,
        },
        Some(PeriodModel::Previous4Quarters | PeriodModel::Previous4QuartersOffset) => {
            Shape::Rolling {
                months: 3,
                offset: 0,
            }
        }
        Some(PeriodModel::PrecedingYearFromOctober) => Shape::Rolling {
            months: 12,
            offset: 9,
        },
        Some(
            PeriodModel::PrecedingYear
            | PeriodModel::PrecedingYearQuarterly
            | PeriodModel::PrecedingYearQuarterlyOffset,
        ) => Shape::PrecedingYear,
        _ => Shape::Growing,
    }
}

/// The first boundary after `today` of a window moving every `months` months from month
/// `offset`.
fn next_boundary(today: NaiveDate, months: u32, offset: u32) -> NaiveDate {
    let index = today.year() * 12 + i32::try_from(today.month0()).unwrap_or(0)
        - i32::try_from(offset).unwrap_or(0);
    let step = i32::try_from(months).unwrap_or(1);
    let next = index - index.rem_euclid(step) + step + i32::try_from(offset).unwrap_or(0);
    NaiveDate::from_ymd_opt(
        next.div_euclid(12),
        u32::try_from(next.rem_euclid(12)).unwrap_or(0) + 1,
        1,
    )
    .unwrap_or(today)
}

/// Days from `a` to `b` (0 when `b` is not after `a`).
fn days_between(a: NaiveDate, b: NaiveDate) -> i64 {
    (b - a).num_days().max(0)
}

/// The day a growing count reaches `need` more at `per_day`: `today` plus the days it takes,
/// rounded up.
fn day_reached(today: NaiveDate, need: Decimal, per_day: Decimal) -> Option<NaiveDate> {
    if need <= Decimal::ZERO {
        return Some(today);
    }
    if per_day <= Decimal::ZERO {
        return None;
    }
    let days = (need / per_day).ceil();
    let days = u64::try_from(days.mantissa()).ok()? / 10u64.pow(days.scale());
    today.checked_add_days(Days::new(days))
}

/// Forecasts `n` on `today` from its pace (`pace`: the trailing 90 days' activity in the
/// jurisdiction, before the rule's counting).
pub fn forecast(n: &Nexus, pace: &PeriodActivity, today: NaiveDate) -> Forecast {
    let rule = rule_of(n);
    let (pace_sales, pace_count) = rule.counted(pace, n.physical_nexus_met == Some(true));
    let sales = n.transactions_amount.unwrap_or_default();
    let count = n.transaction_count.unwrap_or_default();
    let crossing = crossing(n, &rule, (sales, count), (pace_sales, pace_count), today);
    Forecast {
        country_code: n.country_code.clone(),
        state_code: n.state_code.clone(),
        state_name: n.state_name.clone(),
        status: n.status.as_ref().map(|s| s.as_str().to_owned()),
        period_model: n.period_model.as_ref().map(|m| m.as_str().to_owned()),
        sales_or_transactions: n
            .sales_or_transactions
            .as_ref()
            .map(|s| s.as_str().to_owned()),
        threshold_sales: n.threshold_sales.filter(|t| *t > Decimal::ZERO),
        threshold_transactions: n.threshold_transactions.filter(|t| *t > 0),
        sales_so_far: sales,
        transactions_so_far: count,
        pace_sales,
        pace_transactions: pace_count,
        crossing,
        predicted_month_from_today: n.predicted_month_from_today,
        confidence_level: n.confidence_level,
        currency: n.currency.clone(),
    }
}

fn crossing(
    n: &Nexus,
    rule: &EconomicRule,
    (sales, count): (Decimal, i64),
    (pace_sales, pace_count): (Decimal, i64),
    today: NaiveDate,
) -> Crossing {
    if n.economic_nexus_met == Some(true) {
        return Crossing::Met;
    }
    let sales_threshold = rule.threshold_sales.filter(|t| *t > Decimal::ZERO);
    let count_threshold = rule
        .threshold_transactions
        .filter(|t| *t > 0)
        .map(Decimal::from);
    let (by_sales, by_count) = match rule.sales_or_transactions {
        SalesOrTransactions::Sales => (sales_threshold, None),
        SalesOrTransactions::Transactions => (None, count_threshold),
        _ => (sales_threshold, count_threshold),
    };
    if by_sales.is_none() && by_count.is_none() {
        return Crossing::Unknown {
            reason: "the rule sets no threshold".to_owned(),
        };
    }
    if pace_sales <= Decimal::ZERO && pace_count <= 0 {
        return Crossing::NoPace;
    }
    let per_day = |v: Decimal| v / Decimal::from(PACE_DAYS);
    // Each threshold's crossing day, `None` when not reached within the horizon.
    let mut days: Vec<(Basis, Option<NaiveDate>)> = Vec::new();
    let model = n.period_model.as_ref();
    for (basis, threshold, so_far, pace) in [
        (Basis::Sales, by_sales, sales, pace_sales),
        (
            Basis::Transactions,
            by_count,
            Decimal::from(count),
            Decimal::from(pace_count),
        ),
    ] {
        let Some(threshold) = threshold else {
            continue;
        };
        let day = match shape(model) {
            Shape::Growing => {
                let Some(end) = n.period_end_date else {
                    return Crossing::Unknown {
                        reason: "the record names no period end".to_owned(),
                    };
                };
                day_reached(today, threshold - so_far, per_day(pace)).filter(|d| *d <= end)
            }
            Shape::Rolling { months, offset } => {
                rolling(today, threshold, so_far, per_day(pace), months, offset)
            }
            Shape::PrecedingYear => {
                let year = today.year();
                let days_in_year = days_between(
                    NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(today),
                    NaiveDate::from_ymd_opt(year + 1, 1, 1).unwrap_or(today),
                );
                (per_day(pace) * Decimal::from(days_in_year) >= threshold)
                    .then(|| NaiveDate::from_ymd_opt(year + 1, 1, 1))
                    .flatten()
            }
        };
        days.push((basis, day));
    }
    let chosen = match rule.sales_or_transactions {
        // Both thresholds: the later of the two, and only when both are reached.
        SalesOrTransactions::Both if days.len() == 2 => {
            if days.iter().all(|(_, d)| d.is_some()) {
                days.into_iter().max_by_key(|(_, d)| *d)
            } else {
                None
            }
        }
        // Either (or one threshold only): the earlier.
        _ => days
            .into_iter()
            .filter(|(_, d)| d.is_some())
            .min_by_key(|(_, d)| *d),
    };
    match chosen {
        Some((by, Some(on))) => Crossing::Around { on, by },
        _ => Crossing::NotThisPeriod,
    }
}

/// A rolling window of 12 months holding `held` (as of its last move), gaining `per_day` and
/// moving every `months` months: the first move within 12 months at which it holds
/// `threshold`. Each move drops the oldest `months` (their share of what it held) and adds the
/// step's days at the pace.
fn rolling(
    today: NaiveDate,
    threshold: Decimal,
    held: Decimal,
    per_day: Decimal,
    months: u32,
    offset: u32,
) -> Option<NaiveDate> {
    let mut at = next_boundary(today, months, offset);
    let horizon = today.checked_add_months(Months::new(12))?;
    // The window in the record ends at the last move; the next one adds the whole step since
    // then (partly sold already, taken at the pace).
    let mut previous = at.checked_sub_months(Months::new(months))?;
    let mut window = held;
    let kept = Decimal::ONE - Decimal::from(months) / Decimal::from(12);
    while at <= horizon {
        let step_days = Decimal::from(days_between(previous, at));
        window = window * kept + per_day * step_days;
        if window >= threshold {
            return Some(at);
        }
        previous = at;
        at = at.checked_add_months(Months::new(months))?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn nexus(extra: serde_json::Value) -> Nexus {
        let mut v = json!({
            "id": "nx_1", "country_code": "US", "state_code": "GA", "state_name": "Georgia",
            "status": "APPROACHING", "period_model": "CALENDAR_YEAR",
            "period_start_date": "2026-01-01", "period_end_date": "2026-12-31",
            "threshold_sales": 100000, "threshold_transactions": 200,
            "sales_or_transactions": "SALES", "transactions_amount": "80000.00",
            "transaction_count": 150, "economic_nexus_met": false,
            "treatment_of_exempt_transactions": "INCLUDED", "marketplace_included": true
        });
        if let (Some(base), Some(extra)) = (v.as_object_mut(), extra.as_object()) {
            for (k, val) in extra {
                base.insert(k.clone(), val.clone());
            }
        }
        serde_json::from_value(v).unwrap()
    }

    fn pace(sales: i64, transactions: i64) -> PeriodActivity {
        PeriodActivity {
            sales: Decimal::from(sales),
            transactions,
            ..PeriodActivity::default()
        }
    }

    #[test]
    fn a_growing_year_is_crossed_when_the_pace_fills_what_is_left() {
        // 20,000 left at 9,000 per 90 days = 100 a day: 200 days from 2026-06-01.
        let f = forecast(&nexus(json!({})), &pace(9_000, 10), day(2026, 6, 1));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 12, 18),
                by: Basis::Sales
            }
        );
        assert_eq!(f.words(), "At this pace: crosses around 2026-12 (sales)");
        // A day later than the period's end: not this period.
        let f = forecast(&nexus(json!({})), &pace(9_000, 10), day(2026, 6, 15));
        assert_eq!(f.crossing, Crossing::NotThisPeriod);
        assert_eq!(f.words(), "At this pace: not this period");
    }

    #[test]
    fn the_last_day_of_the_period_still_counts() {
        // 20,000 left at 100 a day from 2026-06-14: day 200 is 2026-12-31.
        let f = forecast(&nexus(json!({})), &pace(9_000, 0), day(2026, 6, 14));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 12, 31),
                by: Basis::Sales
            }
        );
    }

    #[test]
    fn a_rule_on_transactions_only_ignores_sales() {
        let n = nexus(json!({"sales_or_transactions": "TRANSACTIONS"}));
        // 50 transactions left at 90 per 90 days: 50 days.
        let f = forecast(&n, &pace(1_000_000, 90), day(2026, 3, 1));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 4, 20),
                by: Basis::Transactions
            }
        );
    }

    #[test]
    fn either_takes_the_earlier_and_both_the_later() {
        // Sales: 20,000 at 200 a day = 100 days; transactions: 50 at 1 a day = 50 days.
        let today = day(2026, 3, 1);
        let either = nexus(json!({"sales_or_transactions": "EITHER"}));
        let f = forecast(&either, &pace(18_000, 90), today);
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 4, 20),
                by: Basis::Transactions
            }
        );
        let both = nexus(json!({"sales_or_transactions": "BOTH"}));
        let f = forecast(&both, &pace(18_000, 90), today);
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 6, 9),
                by: Basis::Sales
            }
        );
        // Both, one never reached: not this period.
        let f = forecast(&both, &pace(18_000, 0), today);
        assert_eq!(f.crossing, Crossing::NotThisPeriod);
    }

    #[test]
    fn a_leap_year_counts_its_29_february() {
        // 2028 is a leap year: 28 days of 100 from 2028-02-01 land on 2028-02-29.
        let n = nexus(
            json!({"period_start_date": "2028-01-01", "period_end_date": "2028-12-31",
                              "transactions_amount": "97200.00"}),
        );
        let f = forecast(&n, &pace(9_000, 0), day(2028, 2, 1));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2028, 2, 29),
                by: Basis::Sales
            }
        );
        // A preceding-year rule in a leap year: 366 days at the pace.
        let n = nexus(json!({"period_model": "PRECEDING_YEAR", "threshold_sales": 36_600}));
        let f = forecast(&n, &pace(9_000, 0), day(2028, 2, 1));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2029, 1, 1),
                by: Basis::Sales
            }
        );
    }

    #[test]
    fn a_rolling_window_crosses_at_a_boundary() {
        // Previous 12 months holding 96,000; gaining 400 a day, losing 1/12 a month (8,000):
        // on 1 December it holds 88,000 + 30 days × 400 = 100,000.
        let n = nexus(json!({"period_model": "PREVIOUS_12_MONTHS",
                              "transactions_amount": "96000.00"}));
        let f = forecast(&n, &pace(36_000, 0), day(2026, 11, 24));
        assert_eq!(
            f.crossing,
            Crossing::Around {
                on: day(2026, 12, 1),
                by: Basis::Sales
            }
        );
        // A slower pace takes more moves, each on the first of a month.
        let f = forecast(&n, &pace(30_000, 0), day(2026, 11, 24));
        let Crossing::Around { on, .. } = f.crossing else {
            panic!("{f:?}")
        };
        assert_eq!(on.day(), 1, "on the first of a month: {on}");
        assert!(on > day(2026, 12, 1) && on <= day(2027, 11, 24), "{on}");
        // A pace whose year is under the threshold never crosses.
        let f = forecast(&n, &pace(18_000, 0), day(2026, 11, 24));
        assert_eq!(f.crossing, Crossing::NotThisPeriod);
        // The year to September 30 moves on October 1 only.
        assert_eq!(next_boundary(day(2026, 11, 24), 12, 9), day(2027, 10, 1));
        assert_eq!(next_boundary(day(2026, 9, 30), 12, 9), day(2026, 10, 1));
        assert_eq!(next_boundary(day(2026, 12, 31), 3, 0), day(2027, 1, 1));
    }

    #[test]
    fn met_no_pace_and_no_threshold_say_so() {
        let met = nexus(json!({"economic_nexus_met": true}));
        assert_eq!(
            forecast(&met, &pace(1, 1), day(2026, 5, 1)).crossing,
            Crossing::Met
        );
        assert_eq!(
            forecast(&nexus(json!({})), &pace(0, 0), day(2026, 5, 1)).crossing,
            Crossing::NoPace
        );
        let none = nexus(json!({"threshold_sales": 0, "threshold_transactions": 0,
                                 "sales_or_transactions": "EITHER"}));
        assert!(matches!(
            forecast(&none, &pace(10, 1), day(2026, 5, 1)).crossing,
            Crossing::Unknown { .. }
        ));
    }

    #[test]
    fn marketplace_sales_count_only_where_the_rule_includes_them() {
        let mut p = pace(9_000, 0);
        p.marketplace_sales = Decimal::from(4_500);
        let excluded = nexus(json!({"marketplace_included": false}));
        // 4,500 counted per 90 days = 50 a day: 400 days, past the period.
        let f = forecast(&excluded, &p, day(2026, 6, 1));
        assert_eq!(f.pace_sales, Decimal::from(4_500));
        assert_eq!(f.crossing, Crossing::NotThisPeriod);
    }

    #[test]
    fn the_services_prediction_is_shown_beside() {
        let n = nexus(json!({"predicted_month_from_today": 3, "confidence_level": 0.8}));
        let f = forecast(&n, &pace(9_000, 0), day(2026, 6, 1));
        assert!(
            f.words()
                .ends_with("; the service predicts 3 months from today (confidence 0.8)"),
            "{}",
            f.words()
        );
    }
}
