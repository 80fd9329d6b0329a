//! Economic nexus counted from the demo transactions.
//!
//! A jurisdiction's figures are its sales in its measuring periods (see
//! [`crate::rules::measuring_periods`]), counted by its own rule: every `SALE` shipped there
//! (credit notes are not taken off, purchases are not sales), its marketplace and exempt sales
//! apart, as `taxdash nexus forecast` counts its pace; the rule then leaves out what it does not
//! count ([`EconomicRule::counted`]). Canada's federal row counts every province's sales, the
//! EU one-stop shop every member state's.
//!
//! Before they are counted, the sales are shaped so that the US states the profile aims at (see
//! [`Aim`]) approach or meet their thresholds by those figures: sales of the organization's
//! registered states are moved there, or from there, until the rule's progress is in the aim's
//! band. Only plain sales move (not exempt, not through a marketplace), so the certificates that
//! cover exempt sales still fit them.

use std::ops::RangeInclusive;

use chrono::{Days, NaiveDate};
use rust_decimal::Decimal;

use super::profiles::Aim;
use super::{Ctx, splitmix};
use crate::model::PeriodActivity;
use crate::model::{PeriodModel, Registration, RegistrationStatus};
use crate::rules::{EconomicRule, judges_previous, measuring_periods};
use crate::sandbox::reference::{self, NexusThresholds};
use crate::sandbox::transactions::{DemoSale, Transactions};

/// The rule a jurisdiction's thresholds make.
pub fn rule_of(t: &NexusThresholds) -> EconomicRule {
    EconomicRule {
        threshold_sales: t.sales,
        threshold_transactions: t.transactions,
        sales_or_transactions: t.sales_or_transactions(),
        marketplace_included: t.marketplace_included,
        exempt_treatment: t.exempt_treatment.clone(),
    }
}

/// Whether a sale shipped to `country`/`state` counts toward the economic nexus row of
/// `row_country`/`row_state`: the same state; any province for Canada's federal row (`CA`, no
/// state); any member state for the EU one-stop shop (`ZZ_EU`).
pub fn counts_toward(row_country: &str, row_state: &str, country: &str, state: &str) -> bool {
    match row_country {
        "ZZ_EU" => reference::is_eu_member(country),
        _ if row_state.is_empty() => country == row_country,
        _ => country == row_country && state == row_state,
    }
}

/// The demo sales by the place they were shipped to, read once, so that each economic nexus row
/// (and its exposure history) takes the sales that count toward it.
pub struct SalesByPlace<'t> {
    transactions: &'t Transactions,
    by_place: std::collections::BTreeMap<u16, Vec<DemoSale>>,
}

impl<'t> SalesByPlace<'t> {
    pub fn new(transactions: &'t Transactions) -> Self {
        let mut by_place = std::collections::BTreeMap::<u16, Vec<DemoSale>>::new();
        for s in transactions.demo_sales() {
            by_place.entry(s.jurisdiction).or_default().push(s);
        }
        SalesByPlace {
            transactions,
            by_place,
        }
    }

    /// The sales that count toward the row of `country`/`state` (see [`counts_toward`]), in
    /// date order.
    pub fn toward(&self, country: &str, state: &str) -> Vec<DemoSale> {
        let mut sales: Vec<DemoSale> = self
            .by_place
            .iter()
            .filter(|(j, _)| {
                let (c, s) = self.transactions.jurisdiction(**j);
                counts_toward(country, state, c, s)
            })
            .flat_map(|(_, sales)| sales.iter().copied())
            .collect();
        sales.sort_by_key(|s| (s.day, s.row));
        sales
    }
}

/// Adds one sale to `a`: to the sales, and to the marketplace ones or else the exempt ones.
pub fn add(a: &mut PeriodActivity, s: &DemoSale) {
    let amount = s.amount();
    a.sales += amount;
    a.transactions += 1;
    if s.marketplace {
        a.marketplace_sales += amount;
        a.marketplace_transactions += 1;
    } else if s.exempt {
        a.exempt_sales += amount;
        a.exempt_transactions += 1;
    }
}

fn within(s: &DemoSale, (from, to): (NaiveDate, NaiveDate)) -> bool {
    (from..=to).contains(&s.day)
}

/// The activity of `sales` within `period`.
fn activity(sales: &[DemoSale], period: (NaiveDate, NaiveDate)) -> PeriodActivity {
    let mut a = PeriodActivity::default();
    for s in sales.iter().filter(|s| within(s, period)) {
        add(&mut a, s);
    }
    a
}

/// A jurisdiction's sales in its current and previous measuring periods, and when its rule was
/// first met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub current: PeriodActivity,
    pub previous: PeriodActivity,
    /// The day the sales of a judged period first met the rule (the earliest, when both did).
    pub met_on: Option<NaiveDate>,
    /// The rule's progress in each period it judges (the previous one first, when judged).
    pub progress: Vec<Option<Decimal>>,
}

/// Counts `sales` (one jurisdiction's, in date order) under `rule` and `model` on `today`; a
/// presence there (`physical`) decides how exempt sales count under `INCLUDE_IF_PRESENCE`.
pub fn figures(
    sales: &[DemoSale],
    rule: Option<&EconomicRule>,
    model: &PeriodModel,
    today: NaiveDate,
    physical: bool,
) -> Figures {
    let (current, previous) = measuring_periods(model, today);
    let judged = judged_periods(model, today);
    let met_on = rule.and_then(|r| {
        judged.iter().find_map(|period| {
            crossings(sales, r, *period, physical)
                .met
                .map(|(day, _)| day)
        })
    });
    let progress = judged
        .iter()
        .map(|period| rule.and_then(|r| r.progress(&activity(sales, *period), physical)))
        .collect();
    Figures {
        current: activity(sales, current),
        previous: activity(sales, previous),
        met_on,
        progress,
    }
}

/// The measuring periods `model` judges on `today`: the previous one first, where it is judged.
pub fn judged_periods(model: &PeriodModel, today: NaiveDate) -> Vec<(NaiveDate, NaiveDate)> {
    let (current, previous) = measuring_periods(model, today);
    if judges_previous(model) {
        vec![previous, current]
    } else {
        vec![current]
    }
}

/// The rule of the jurisdiction `country`/`state` and its period model (a calendar year where
/// it has no thresholds).
pub fn rule_and_model(country: &str, state: &str) -> (Option<EconomicRule>, PeriodModel) {
    let thresholds = reference::nexus_thresholds(country, state);
    let model = thresholds
        .as_ref()
        .map_or(PeriodModel::CalendarYear, |t| t.period_model.clone());
    (thresholds.as_ref().map(rule_of), model)
}

/// The days the sales of one period crossed the rule's marks, each with the activity then.
#[derive(Debug, Default)]
pub struct Crossings {
    /// The first day the progress reached [`crate::rules::APPROACHING_AT`] without meeting it.
    pub approaching: Option<(NaiveDate, PeriodActivity)>,
    /// The first day the rule was met.
    pub met: Option<(NaiveDate, PeriodActivity)>,
}

/// When the sales of `period` (in date order) first approached and first met `rule`.
pub fn crossings(
    sales: &[DemoSale],
    rule: &EconomicRule,
    period: (NaiveDate, NaiveDate),
    physical: bool,
) -> Crossings {
    let mut a = PeriodActivity::default();
    let mut found = Crossings::default();
    for s in sales.iter().filter(|s| within(s, period)) {
        add(&mut a, s);
        if rule.judge(&a, physical).met {
            found.met = Some((s.day, a));
            break;
        }
        if found.approaching.is_none()
            && rule
                .progress(&a, physical)
                .is_some_and(|p| p >= crate::rules::APPROACHING_AT)
        {
            found.approaching = Some((s.day, a));
        }
    }
    found
}

/// A band of progress, in hundredths of the thresholds.
fn band(from: i64, to: i64) -> RangeInclusive<Decimal> {
    Decimal::new(from, 2)..=Decimal::new(to, 2)
}

/// Shapes the sales so that each US state the profile aims at shows its aim by its own figures.
/// The aim is read on the period the rule is surest of: the previous calendar year where the rule
/// judges it (a whole year of sales at any anchor), else the current period; an approaching
/// state's other judged period is kept under the thresholds as well. A crossing state first gets
/// the last 90 days' sales that carry it over within a year, then the rest of its period is
/// brought to approaching.
pub fn shape(ctx: &Ctx, transactions: &mut Transactions, registrations: &[Registration]) {
    let mut donors: Vec<u16> = Vec::new();
    for r in registrations {
        let aimed = ctx
            .profile
            .nexus_aims
            .iter()
            .any(|(s, _)| *s == r.state_code);
        if r.country_code == "US" && r.status == RegistrationStatus::Registered && !aimed {
            donors.push(transactions.jurisdiction_index("US", &r.state_code));
        }
    }
    if donors.is_empty() {
        return;
    }
    let approaching = band(80, 90);
    // Read once: each move is made on the transactions and on this list alike.
    let mut sales = transactions.demo_sales();
    let mut moves = Moves {
        transactions,
        sales: &mut sales,
    };
    for &(state, aim) in ctx.profile.nexus_aims {
        let Some(thresholds) = reference::nexus_thresholds("US", state) else {
            continue;
        };
        let rule = rule_of(&thresholds);
        let (current, previous) = measuring_periods(&thresholds.period_model, ctx.anchor);
        let main = if judges_previous(&thresholds.period_model) {
            previous
        } else {
            current
        };
        let fit = Fit {
            rule: &rule,
            target: moves.transactions.jurisdiction_index("US", state),
            donors: &donors,
        };
        match aim {
            Aim::Exposed => fit.bring(&mut moves, main, main, band(115, 1_000_000)),
            Aim::Approaching => {
                fit.bring(&mut moves, main, main, approaching.clone());
                if main != current {
                    fit.bring(&mut moves, current, current, band(0, 90));
                }
            }
            Aim::Crossing => {
                let pace_from = ctx.anchor - Days::new(89);
                let pace = (pace_from, ctx.anchor);
                fit.bring(&mut moves, pace, pace, band(36, 42));
                let before_pace = (main.0, main.1.min(pace_from - Days::new(1)));
                fit.bring(&mut moves, main, before_pace, approaching.clone());
            }
        }
    }
}

/// The transactions being shaped, and their demo sales as they stand.
struct Moves<'a> {
    transactions: &'a mut Transactions,
    sales: &'a mut [DemoSale],
}

impl Moves<'_> {
    /// Moves sale `i` of the list to jurisdiction `to`.
    fn sale(&mut self, i: usize, to: u16) {
        self.transactions.move_sale(self.sales[i].row, to);
        self.sales[i].jurisdiction = to;
    }
}

/// Moves plain sales between one state and the donor states.
struct Fit<'a> {
    rule: &'a EconomicRule,
    target: u16,
    donors: &'a [u16],
}

impl Fit<'_> {
    /// Brings the target's progress within `period` into `band`, moving sales dated within
    /// `movable`: the donors' move in while it is under, its own move out to the first donor
    /// while it is over, a sale at a time (spread over the days, none that would jump past the
    /// band).
    fn bring(
        &self,
        moves: &mut Moves<'_>,
        period: (NaiveDate, NaiveDate),
        movable: (NaiveDate, NaiveDate),
        band: RangeInclusive<Decimal>,
    ) {
        let progress = |a: &PeriodActivity| self.rule.progress(a, false).unwrap_or_default();
        let mut a = PeriodActivity::default();
        for s in moves.sales.iter() {
            if s.jurisdiction == self.target && within(s, period) {
                add(&mut a, s);
            }
        }
        let plain = |s: &DemoSale| within(s, movable) && !s.exempt && !s.marketplace;
        let under = progress(&a) < *band.start();
        let from = |s: &DemoSale| {
            if under {
                self.donors.contains(&s.jurisdiction)
            } else {
                s.jurisdiction == self.target
            }
        };
        if !under && progress(&a) <= *band.end() {
            return;
        }
        let mut pool: Vec<usize> = (0..moves.sales.len())
            .filter(|&i| from(&moves.sales[i]) && plain(&moves.sales[i]))
            .collect();
        pool.sort_by_key(|&i| splitmix(moves.sales[i].row as u64));
        for i in pool {
            if band.contains(&progress(&a)) {
                break;
            }
            let s = moves.sales[i];
            let mut next = a;
            if under {
                add(&mut next, &s);
            } else {
                next.sales -= s.amount();
                next.transactions -= 1;
            }
            let overshoots = if under {
                progress(&next) > *band.end()
            } else {
                progress(&next) < *band.start()
            };
            if overshoots {
                continue;
            }
            moves.sale(i, if under { self.target } else { self.donors[0] });
            a = next;
        }
    }
}
