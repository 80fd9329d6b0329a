//! Checks no other tool runs, from records taxdash already reads: when each state will be
//! crossed at the current pace ([`forecast`]), exempt sales without a certificate valid on the
//! day ([`exemptions`]), and filings whose figures do not add up ([`filings`]).
//!
//! Each check is a pure computation on records: no client, no I/O. Reading the records a check
//! needs (every page, at the client's pace, with its retries) is [`crate::reads`]'s; the
//! commands and the dashboard share both.

pub mod exemptions;
pub mod filings;
pub mod forecast;

use std::collections::HashMap;

use chrono::{Days, NaiveDate};

use crate::model::filters::TransactionFilter;
use crate::model::{PeriodActivity, SaleFigures, TransactionExemptStatus, TransactionType};

/// The exit code of a check or a forecast with findings (as `watch --exit-on-change`).
pub const EXIT_FINDINGS: i32 = 3;

/// The jurisdiction key of a record: `(country, state)`, the state empty for a country.
pub type Place = (String, String);

/// The trailing days' sales per jurisdiction, as a [`PeriodActivity`] each (sales, exempt and
/// marketplace ones apart).
pub fn activity_by_place(sales: &[SaleFigures]) -> HashMap<Place, PeriodActivity> {
    let mut out: HashMap<Place, PeriodActivity> = HashMap::new();
    for t in sales.iter().filter(|t| {
        t.kind == TransactionType::Sale
            && crate::model::TransactionStatus::counts_for_tax(t.status.as_ref())
    }) {
        let country = t
            .country
            .clone()
            .or_else(|| t.addresses.iter().find_map(|a| a.country.clone()))
            .unwrap_or_default();
        let state = t
            .state
            .clone()
            .or_else(|| t.addresses.iter().find_map(|a| a.state.clone()))
            .unwrap_or_default();
        let amount = t.subtotal.or(t.total_amount).unwrap_or_default();
        let a = out.entry((country, state)).or_default();
        a.sales += amount;
        a.transactions += 1;
        if t.marketplace == Some(true) {
            a.marketplace_sales += amount;
            a.marketplace_transactions += 1;
        } else if matches!(
            t.exempt,
            Some(TransactionExemptStatus::FullyExempt | TransactionExemptStatus::PartiallyExempt)
        ) {
            a.exempt_sales += amount;
            a.exempt_transactions += 1;
        }
    }
    out
}

/// The sales of the [`forecast::PACE_DAYS`] days up to `today`: what the pace is measured on.
pub fn pace_filter(today: NaiveDate) -> TransactionFilter {
    let from = today
        .checked_sub_days(Days::new(u64::from(forecast::PACE_DAYS) - 1))
        .unwrap_or(today);
    TransactionFilter {
        transaction_type: vec![TransactionType::Sale],
        date_from: Some(from),
        date_to: Some(today),
        ..TransactionFilter::default()
    }
}

/// Soonest crossing first; those that will not cross after, by jurisdiction.
pub fn sort_forecasts(out: &mut [forecast::Forecast]) {
    out.sort_by(|a, b| {
        (a.day().is_none(), a.day(), a.jurisdiction()).cmp(&(
            b.day().is_none(),
            b.day(),
            b.jurisdiction(),
        ))
    });
}
