//! Returns for the most recent periods of each registration.

use chrono::{Datelike, Days, Months, NaiveDate};
use rand::Rng;
use rust_decimal::Decimal;

use super::registrations::{is_established, open_on};
use super::util::{chance, days_after, digits, letters, money, timestamp_on, ymd};
use super::{Ctx, Section};
use crate::model::{Filing, FilingStatus, Registration};
use crate::sandbox::reference;

/// How many past periods get a filing.
const PERIODS: usize = 4;

/// Registrations of an organization with [`Profile::attention`] that left a return unfiled past
/// its due date: the latest one when it is already due, else the one before.
///
/// [`Profile::attention`]: super::profiles::Profile::attention
const OVERDUE_IN: &[(&str, &str)] = &[("US", "MA"), ("US", "CO")];

/// How many open returns an organization with attention shows due within a week, and again 8 to
/// 30 days out, whatever the anchor.
const COMING_DUE: usize = 3;

/// One return to generate, before its amounts are drawn.
struct Planned<'a> {
    registration: &'a Registration,
    /// 0 for the latest ended period, then older.
    age: usize,
    start: NaiveDate,
    end: NaiveDate,
    due: NaiveDate,
    overdue: bool,
}

pub fn generate(ctx: &Ctx, registrations: &[Registration]) -> Vec<Filing> {
    let mut rng = ctx.rng(Section::Filings);
    let mut planned = plan(ctx, registrations);
    if ctx.profile.attention {
        place_attention(ctx.anchor, &mut planned);
    }
    let mut filings = Vec::new();
    // One registration has its latest return paused, to show the state.
    let mut paused_one = false;
    for p in planned {
        let latest = p.age == 0;
        let registration = p.registration;
        let status = if latest && !paused_one && registration.country_code == "US" {
            paused_one = true;
            FilingStatus::Paused
        } else if p.overdue {
            FilingStatus::Unfiled
        } else if p.due <= ctx.anchor || !latest {
            FilingStatus::Filed
        } else if chance(&mut rng, 1, 3) {
            FilingStatus::Filing
        } else {
            FilingStatus::Unfiled
        };
        let id = ctx.id("file", filings.len() + 1);
        filings.push(filing(
            &mut rng,
            ctx,
            id,
            registration,
            (p.start, p.end, p.due),
            status,
        ));
    }
    filings
}

/// The returns of the last periods of each established registration, due the registration's
/// filing days after the period ends.
fn plan<'a>(ctx: &Ctx, registrations: &'a [Registration]) -> Vec<Planned<'a>> {
    let mut planned = Vec::new();
    for registration in registrations.iter().filter(|r| is_established(&r.status)) {
        let Some(months) = registration.filing_frequency.months() else {
            continue;
        };
        let fiscal_end = registration.period_end_month.map(u32::from);
        let periods = ended_periods(months, fiscal_end, ctx.anchor, PERIODS);
        for (age, (start, end)) in periods.into_iter().enumerate() {
            if !open_on(registration, end) {
                continue;
            }
            let due = days_after(end, registration.filing_days.unwrap_or(20).max(1) as u64);
            planned.push(Planned {
                registration,
                age,
                start,
                end,
                due,
                overdue: false,
            });
        }
    }
    planned
}

/// Makes sure the returns show what needs attention on `today`: each [`OVERDUE_IN`]
/// registration has a return unfiled past its due date, and when fewer than
/// [`COMING_DUE`] latest returns fall due within a week (or 8 to 30 days out), the due dates of
/// others (from the last registrations) are moved into that window, as a jurisdiction's extension
/// would. Where the periods already give enough, nothing moves.
fn place_attention(today: NaiveDate, planned: &mut [Planned]) {
    for (country, state) in OVERDUE_IN {
        let mine = |p: &&mut Planned| {
            p.registration.country_code == *country && p.registration.state_code == *state
        };
        // The latest return when it is already due, else the one before.
        if let Some(p) = planned
            .iter_mut()
            .filter(mine)
            .filter(|p| p.due < today && p.age <= 1)
            .min_by_key(|p| p.age)
        {
            p.overdue = true;
        }
    }
    let paused = planned
        .iter()
        .position(|p| p.age == 0 && p.registration.country_code == "US");
    let days_to = |p: &Planned| (p.due - today).num_days();
    let open_latest = |i: usize, p: &Planned| p.age == 0 && Some(i) != paused && !p.overdue;
    let windows = [(1, 7), (8, 30)];
    let count = |planned: &[Planned], (from, to): (i64, i64)| {
        planned
            .iter()
            .enumerate()
            .filter(|(i, p)| open_latest(*i, p) && (from..=to).contains(&days_to(p)))
            .count()
    };
    for (w, offsets) in [[2, 4, 6], [11, 18, 26]].into_iter().enumerate() {
        let (window, other) = (windows[w], windows[1 - w]);
        loop {
            let have = count(planned, window);
            if have >= COMING_DUE {
                break;
            }
            // A latest US return outside the window, not one the other window needs.
            let spare_other = count(planned, other) > COMING_DUE;
            let Some(p) = planned.iter_mut().enumerate().rev().find_map(|(i, p)| {
                let days = days_to(p);
                let free = open_latest(i, p)
                    && p.registration.country_code == "US"
                    && !(window.0..=window.1).contains(&days)
                    && (spare_other || !(other.0..=other.1).contains(&days));
                free.then_some(p)
            }) else {
                break;
            };
            p.due = days_after(today, offsets[have]);
        }
    }
}

/// The last `count` periods of `months` months that ended before `today`, newest first.
/// Periods are aligned on the calendar year, or on a fiscal year ending in `fiscal_end`.
fn ended_periods(
    months: u32,
    fiscal_end: Option<u32>,
    today: NaiveDate,
    count: usize,
) -> Vec<(NaiveDate, NaiveDate)> {
    // Months since year 0, shifted so that a fiscal year starts at a multiple of `months`.
    let shift = fiscal_end.map_or(0, |m| m % 12) as i32;
    let index = today.year() * 12 + today.month0() as i32 - shift;
    let current_start = index - index.rem_euclid(months as i32);
    (1..=count as i32)
        .map(|k| {
            let start_index = current_start - k * months as i32 + shift;
            let start = ymd(
                start_index.div_euclid(12),
                start_index.rem_euclid(12) as u32 + 1,
                1,
            );
            let end = start + Months::new(months) - Days::new(1);
            (start, end)
        })
        .collect()
}

fn filing(
    rng: &mut impl Rng,
    ctx: &Ctx,
    id: String,
    registration: &Registration,
    (start, end, due): (NaiveDate, NaiveDate, NaiveDate),
    status: FilingStatus,
) -> Filing {
    let country = registration.country_code.as_str();
    let state = registration.state_code.as_str();
    let rate = if country == "ZZ_EU" {
        reference::tax_rate("DE", "")
    } else {
        reference::tax_rate(country, state)
    };
    let months = i64::from(end.month0() + 12 - start.month0()) % 12 + 1;
    let (low, high) = ctx.profile.monthly_sales_cents;
    let sales = money(rng, low * months, high * months);
    let taxable_share = Decimal::new(rng.random_range(70..=100), 2);
    let taxable = (sales * taxable_share).round_dp(2);
    let calculated = (taxable * rate).round_dp(2);
    let collected = if chance(rng, 4, 5) {
        calculated
    } else {
        (calculated * Decimal::new(rng.random_range(95..=100), 2)).round_dp(2)
    };
    let discounts = if country == "US" && chance(rng, 1, 3) {
        (calculated * Decimal::new(5, 3)).round_dp(2)
    } else {
        Decimal::new(0, 2)
    };
    let penalties = if status == FilingStatus::Filed && chance(rng, 1, 25) {
        money(rng, 2_500, 15_000)
    } else {
        Decimal::new(0, 2)
    };
    let fees = Decimal::new(0, 2);
    let amount = calculated - discounts + penalties + fees;
    let filed = status == FilingStatus::Filed;
    let filed_on = days_after(
        end,
        rng.random_range(3..=registration.filing_days.unwrap_or(20).max(4) as u64),
    );
    let transaction_count = rng.random_range(40..400) * months;
    Filing {
        id,
        registration_id: registration.id.clone(),
        status: Some(status.clone()),
        start_date: start,
        end_date: end,
        due_date: Some(due),
        // The day only; the time is drawn still so that the rest of the demo data stays as it was.
        date_filed: filed.then(|| timestamp_on(rng, filed_on).date()),
        country_code: registration.country_code.clone(),
        state_code: Some(registration.state_code.clone()),
        state_name: Some(registration.state_name.clone()),
        filing_website_url: registration.filing_website_url.clone(),
        is_manual: Some(registration.do_not_file == Some(true)),
        auto_approved: Some(filed && chance(rng, 1, 2)),
        paused_until_date: (status == FilingStatus::Paused).then(|| days_after(due, 30)),
        approved_at: filed.then(|| timestamp_on(rng, filed_on)),
        amount_calculated: Some(calculated),
        amount_adjusted: Some(Decimal::new(0, 2)),
        amount_discounts: Some(discounts),
        amount_fees: Some(fees),
        amount_penalties: Some(penalties),
        amount_tax_collected: Some(collected),
        amount_sales: Some(sales),
        total_taxable_sales: Some(taxable),
        amount: Some(amount),
        total_tax_liability: Some(calculated),
        transaction_count: Some(transaction_count),
        marketplace_transaction_count: Some(transaction_count / rng.random_range(8..30)),
        return_confirmation_id: filed.then(|| format!("{}{}", letters(rng, 2), digits(rng, 10))),
        payment_confirmation_id: filed.then(|| digits(rng, 12)),
        currency: Some(
            match country {
                "CA" => "CAD",
                "ZZ_EU" => "EUR",
                _ => "USD",
            }
            .to_owned(),
        ),
        covered_sales: crate::model::CoveredSales::NotRead,
    }
}

/// The demo returns whose sales are deliberately 12 % over the transactions they cover, as a
/// check would find them in a real company (`taxdash check filings`, the Overview's "Filings that
/// do not add up"): every other return's sales are its transactions' sales.
pub const SALES_OVER: &[&str] = &["file_demo1_00002", "file_demo1_00011", "file_demo1_00014"];

/// The demo returns that collected 10 % less tax than their liability.
pub const COLLECTED_SHORT: &[&str] = &["file_demo1_00003", "file_demo1_00010", "file_demo1_00015"];

/// Makes the demo filings agree with the demo transactions: a return whose period holds
/// transactions of its jurisdiction reports their sales (sales less credit notes, as the filings
/// check adds them) and their count, its tax figures following its sales in proportion; the
/// returns of [`SALES_OVER`] report 12 % more, those of [`COLLECTED_SHORT`] collected 10 % less
/// than their liability. A return with no transactions keeps its figures (the service holds
/// none for it). Applying it again changes nothing.
pub fn reconcile(
    filings: &mut [Filing],
    transactions: &crate::sandbox::transactions::Transactions,
) {
    for f in filings.iter_mut() {
        let state = f.state_code.clone().unwrap_or_default();
        let (sales, count) =
            transactions.demo_sales_in(&f.country_code, &state, f.start_date, f.end_date);
        if count == 0 {
            continue;
        }
        let reported = if SALES_OVER.contains(&f.id.as_str()) {
            (sales * Decimal::new(112, 2)).round_dp(2)
        } else {
            sales
        };
        let before = f.amount_sales.unwrap_or_default();
        let factor = if before.is_zero() {
            Decimal::ONE
        } else {
            (reported / before).max(Decimal::ZERO)
        };
        let scale = |v: Option<Decimal>| v.map(|v| (v * factor).round_dp(2));
        f.amount_sales = Some(reported);
        f.transaction_count = Some(count);
        f.total_taxable_sales = scale(f.total_taxable_sales);
        f.amount_calculated = scale(f.amount_calculated);
        f.total_tax_liability = scale(f.total_tax_liability);
        f.amount_tax_collected = scale(f.amount_tax_collected);
        f.amount_discounts = scale(f.amount_discounts);
        if COLLECTED_SHORT.contains(&f.id.as_str())
            && let Some(liability) = f.total_tax_liability
        {
            f.amount_tax_collected = Some((liability * Decimal::new(90, 2)).round_dp(2));
        }
        let part = |v: Option<Decimal>| v.unwrap_or_default();
        f.amount = Some(
            part(f.amount_calculated) - part(f.amount_discounts)
                + part(f.amount_penalties)
                + part(f.amount_fees),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_end_before_today_and_follow_each_other() {
        let today = ymd(2026, 11, 15);
        assert_eq!(
            ended_periods(3, None, today, 2),
            vec![
                (ymd(2026, 7, 1), ymd(2026, 9, 30)),
                (ymd(2026, 4, 1), ymd(2026, 6, 30))
            ]
        );
        assert_eq!(
            ended_periods(1, None, today, 1),
            vec![(ymd(2026, 10, 1), ymd(2026, 10, 31))]
        );
        assert_eq!(
            ended_periods(12, Some(6), today, 1),
            vec![(ymd(2025, 7, 1), ymd(2026, 6, 30))]
        );
        assert_eq!(
            ended_periods(12, None, ymd(2026, 1, 10), 1),
            vec![(ymd(2025, 1, 1), ymd(2025, 12, 31))]
        );
    }
}
