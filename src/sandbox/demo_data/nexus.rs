//! Physical nexus records and economic nexus rows.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use rand::Rng;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::places::{CA_PLACES, EU_PLACES, STREET_KINDS, STREETS, US_PLACES};
use super::util::{chance, date_between, days_before, digits, money, pick, timestamp_on, weighted};
use super::{Ctx, Section};
use crate::model::{
    Customer, ExemptTreatment, Nexus, NexusStatus, NexusType, PeriodModel, PhysicalNexus,
    PhysicalNexusSource, Registration, RegistrationStatus as S, SalesOrTransactions,
};
use crate::rules::{EconomicRule, PeriodActivity};
use crate::sandbox::reference::{self, NexusThresholds, US_STATES};

/// Physical presence: the profile's places in turn, a category valid for each jurisdiction.
pub fn physical(ctx: &Ctx) -> Vec<PhysicalNexus> {
    let mut rng = ctx.rng(Section::Physical);
    let places = ctx.profile.physical_places;
    (0..ctx.profile.physical_nexus)
        .map(|i| {
            let (country, state) = places[i % places.len()];
            let categories = reference::physical_nexus_categories(country, state);
            let category = pick(&mut rng, &categories).0.clone();
            let start = date_between(&mut rng, ctx.ymd(2018, 1, 1), days_before(ctx.anchor, 30));
            let end = chance(&mut rng, 1, 5)
                .then(|| date_between(&mut rng, start, days_before(ctx.anchor, 1)));
            let (city, postal) = city_of(&mut rng, country, state);
            PhysicalNexus {
                id: ctx.id("phys", i + 1),
                country_code: country.to_owned(),
                state_code: state.to_owned(),
                start_date: start,
                end_date: end,
                category,
                external_id: chance(&mut rng, 1, 4).then(|| format!("loc-{}", digits(&mut rng, 5))),
                source: Some(PhysicalNexusSource::User),
                street_1: Some(format!(
                    "{} {} {}",
                    rng.random_range(10..9900),
                    pick(&mut rng, STREETS),
                    pick(&mut rng, STREET_KINDS)
                )),
                street_2: chance(&mut rng, 1, 3)
                    .then(|| format!("Suite {}", rng.random_range(1..40) * 10)),
                city,
                postal_code: postal,
            }
        })
        .collect()
}

/// A city and postal code in a jurisdiction, when the place tables know one.
fn city_of(rng: &mut impl Rng, country: &str, state: &str) -> (Option<String>, Option<String>) {
    if country == "US" {
        let here: Vec<_> = US_PLACES.iter().filter(|p| p.state == state).collect();
        if here.is_empty() {
            return (None, None);
        }
        let place = pick(rng, &here);
        return (Some(place.city.into()), Some(place.zip.into()));
    }
    let here: Vec<_> = CA_PLACES
        .iter()
        .chain(EU_PLACES)
        .filter(|p| p.country == country && p.state == state)
        .collect();
    if here.is_empty() {
        return (None, None);
    }
    let place = pick(rng, &here);
    (Some(place.city.into()), Some(place.postal.into()))
}

/// The economic nexus picture: one row per US state (or, for small organizations, per state
/// with a registration or customers), plus Canada and the EU when the organization sells there.
pub fn economic(
    ctx: &Ctx,
    registrations: &[Registration],
    physical: &[PhysicalNexus],
    customers: &[Customer],
) -> Vec<Nexus> {
    let mut rng = ctx.rng(Section::Economic);
    let mut shares = ctx.rng(Section::EconomicShares);
    let active_in = |country: &str, state: &str| {
        registrations
            .iter()
            .any(|r| r.country_code == country && r.state_code == state)
            || customers.iter().any(|c| {
                c.country.as_deref() == Some(country)
                    && (state.is_empty() || c.state.as_deref() == Some(state))
            })
    };
    let mut rows: Vec<(&str, &str, NexusType)> = US_STATES
        .iter()
        .filter(|j| ctx.profile.nexus_all_states || active_in("US", j.code))
        .map(|j| ("US", j.code, NexusType::State))
        .collect();
    if active_in("CA", "") {
        rows.push(("CA", "", NexusType::CanadaFederal));
    }
    if ctx.profile.oss.is_some() {
        rows.push(("ZZ_EU", "", NexusType::EuAggregator));
    }
    let mut seen = BTreeSet::new();
    rows.retain(|(country, state, _)| seen.insert((*country, *state)));

    rows.into_iter()
        .enumerate()
        .map(|(i, (country, state, nexus_type))| {
            let registration = registrations
                .iter()
                .find(|r| r.country_code == country && r.state_code == state);
            let physical_since =
                crate::rules::physical_nexus_since(physical, country, state, ctx.anchor);
            let id = ctx.id("nexu", i + 1);
            row(
                (&mut rng, &mut shares),
                ctx,
                id,
                (country, state, nexus_type),
                registration,
                physical_since,
            )
        })
        .collect()
}

fn row(
    (rng, shares): (&mut impl Rng, &mut impl Rng),
    ctx: &Ctx,
    id: String,
    (country, state, nexus_type): (&str, &str, NexusType),
    registration: Option<&Registration>,
    physical_since: Option<NaiveDate>,
) -> Nexus {
    let thresholds = reference::nexus_thresholds(country, state);
    let sales_threshold = thresholds.as_ref().and_then(|t| t.sales);
    let count_threshold = thresholds.as_ref().and_then(|t| t.transactions);
    let registered = registration.map(|r| r.status.clone());
    let status = match registered {
        Some(S::Registered | S::SelfManaged | S::Deregistering) => NexusStatus::Registered,
        Some(S::Processing | S::Validating | S::AwaitingClarification) => {
            NexusStatus::PendingRegistration
        }
        _ if thresholds.is_none() => NexusStatus::NotExposed,
        _ => weighted(
            rng,
            &[
                (NexusStatus::NotExposed, 6),
                (NexusStatus::Approaching, 2),
                (NexusStatus::Exposed, 1),
            ],
        )
        .clone(),
    };
    // Sales as a share (in percent) of the threshold, consistent with the status.
    let share = match status {
        NexusStatus::Registered | NexusStatus::PendingRegistration if ctx.org_index == 0 => {
            rng.random_range(110..400)
        }
        NexusStatus::Registered | NexusStatus::PendingRegistration => rng.random_range(30..150),
        NexusStatus::Exposed => rng.random_range(101..180),
        NexusStatus::Approaching => rng.random_range(70..100),
        _ => rng.random_range(2..60),
    };
    let base = sales_threshold.unwrap_or_else(|| Decimal::new(100_000, 0));
    // Spread the share over basis points and add cents, so amounts do not look rounded.
    let fine_share = Decimal::new(share * 100 + rng.random_range(0..100), 4);
    let amount = (base * fine_share).round_dp(2) + money(rng, 0, 9_999);
    let amount = amount.max(money(rng, 50_000, 400_000));
    // An approaching jurisdiction is under every threshold.
    let amount = match sales_threshold {
        Some(t) if status == NexusStatus::Approaching => {
            amount.min((t * Decimal::new(99, 2)).round_dp(2))
        }
        _ => amount,
    };
    let average_order = Decimal::new(rng.random_range(120..450), 0);
    let count = (amount / average_order).round().to_i64().unwrap_or(0);
    // ... the transaction count included.
    let count = match count_threshold {
        Some(t) if status == NexusStatus::Approaching => {
            count.min(t * shares.random_range(70..100) / 100)
        }
        _ => count,
    };
    // `amount` and `count` are what counts toward the thresholds; the exempt and marketplace
    // sales the rule leaves out come on top of them.
    let activity = activity(shares, thresholds.as_ref(), amount, count);
    let rule = thresholds.as_ref().map(|t| EconomicRule {
        threshold_sales: t.sales,
        threshold_transactions: t.transactions,
        sales_or_transactions: t.sales_or_transactions(),
        marketplace_included: t.marketplace_included,
        exempt_treatment: t.exempt_treatment.clone(),
    });
    let judged = rule
        .as_ref()
        .map(|r| r.judge(&activity, physical_since.is_some()));
    let economic_met = judged.is_some_and(|j| j.met);
    let period_model = thresholds
        .as_ref()
        .map_or(PeriodModel::CalendarYear, |t| t.period_model.clone());
    let ((period_start, period_end), (previous_start, previous_end)) =
        crate::rules::measuring_periods(&period_model, ctx.anchor);
    // From about the start of the anchor's year (1 January at the default anchor).
    let met_window_start = days_before(ctx.anchor, 318);
    let economic_met_date =
        economic_met.then(|| date_between(rng, met_window_start, days_before(ctx.anchor, 10)));
    let registered_since = registration.and_then(|r| r.registration_date);
    let economic_met_date = match (economic_met, registered_since) {
        (true, Some(since)) => Some(since.min(economic_met_date.unwrap_or(since))),
        _ => economic_met_date,
    };
    // The status follows nexus met by either route: a sales picture drawn as exposed without
    // the thresholds met is not exposed, and a current physical presence without a registration
    // is exposed whatever the sales.
    let status =
        crate::rules::nexus_status(Some(&status), economic_met || physical_since.is_some());
    let nexus_met_date = [economic_met_date, physical_since]
        .into_iter()
        .flatten()
        .min();
    let rate = if country == "ZZ_EU" {
        reference::tax_rate("DE", "")
    } else {
        reference::tax_rate(country, state)
    };
    let liable = matches!(
        status,
        NexusStatus::Registered | NexusStatus::Exposed | NexusStatus::PendingRegistration
    );
    let liability = if liable {
        (amount * Decimal::new(85, 2) * rate).round_dp(2)
    } else {
        Decimal::new(0, 2)
    };
    let created = registered_since.unwrap_or(ctx.ymd(2024, 1, 2));
    Nexus {
        id,
        country_code: country.to_owned(),
        state_code: state.to_owned(),
        state_name: reference::jurisdiction_name(country, state)
            .unwrap_or(state)
            .to_owned(),
        status: Some(status.clone()),
        nexus_type: Some(nexus_type),
        treatment_of_exempt_transactions: Some(
            thresholds
                .as_ref()
                .map_or(ExemptTreatment::Included, |t| t.exempt_treatment.clone()),
        ),
        threshold_sales: Some(sales_threshold.unwrap_or(Decimal::ZERO)),
        threshold_transactions: Some(count_threshold.unwrap_or(0)),
        sales_or_transactions: Some(thresholds.as_ref().map_or(
            SalesOrTransactions::Sales,
            NexusThresholds::sales_or_transactions,
        )),
        trigger: Some(trigger(sales_threshold, count_threshold, amount, count).to_owned()),
        transactions_amount: Some(amount),
        transaction_count: Some(count),
        previous_transactions_amount: Some(
            (amount * Decimal::new(rng.random_range(55..120), 2)).round_dp(2),
        ),
        previous_transaction_count: Some(count * rng.random_range(55..120) / 100),
        economic_nexus_met: Some(economic_met),
        economic_nexus_met_date: economic_met_date,
        physical_nexus_met: Some(physical_since.is_some()),
        physical_nexus_met_date: physical_since,
        collected_tax_nexus_met: Some(false),
        nexus_met: Some(nexus_met_date.is_some()),
        nexus_met_date,
        start_date: Some(nexus_met_date.unwrap_or(period_start)),
        period_model: Some(period_model),
        period_start_date: Some(period_start),
        period_end_date: Some(period_end),
        previous_period_start_date: Some(previous_start),
        previous_period_end_date: Some(previous_end),
        total_transactions: Some(activity.transactions),
        total_transactions_included: Some(count),
        total_transactions_exempted: Some(activity.exempt_transactions),
        total_transactions_marketplace: Some(activity.marketplace_transactions),
        marketplace_included: Some(thresholds.as_ref().is_none_or(|t| t.marketplace_included)),
        tax_liability: Some(liability),
        calculated_tax_liability: Some(liability),
        imported_tax_liability: Some(Decimal::new(0, 2)),
        currency: Some(
            match country {
                "CA" => "CAD",
                "ZZ_EU" => "EUR",
                _ => "USD",
            }
            .to_owned(),
        ),
        is_vda_eligible: Some(status == NexusStatus::Exposed),
        vda_eligible: Some(status == NexusStatus::Exposed),
        predicted_month_from_today: None,
        confidence_level: None,
        created_at: Some(timestamp_on(rng, created)),
        updated_at: Some(timestamp_on(rng, days_before(ctx.anchor, 1))),
        organization_id: Some(ctx.organization_id.to_owned()),
        pace: None,
    }
}

/// The whole activity behind the counted `amount` and `count`: a share of exempt sales and of
/// marketplace sales, added on top of what counts when the rule leaves them out.
fn activity(
    rng: &mut impl Rng,
    rule: Option<&NexusThresholds>,
    amount: Decimal,
    count: i64,
) -> PeriodActivity {
    let exempt_pct = rng.random_range(0..12_i64);
    let marketplace_pct = rng.random_range(0..30_i64);
    let part = |pct: i64| {
        (
            (amount * Decimal::new(pct, 2)).round_dp(2),
            count * pct / 100,
        )
    };
    let (exempt_sales, exempt_transactions) = part(exempt_pct);
    let (marketplace_sales, marketplace_transactions) = part(marketplace_pct);
    let marketplace_counts = rule.is_none_or(|t| t.marketplace_included);
    let (exempt_in_sales, exempt_in_count) = match rule.map(|t| &t.exempt_treatment) {
        Some(ExemptTreatment::Excluded) => (false, false),
        Some(ExemptTreatment::YesSalesNoTransactions) => (true, false),
        _ => (true, true),
    };
    let mut sales = amount;
    let mut transactions = count;
    if !marketplace_counts {
        sales += marketplace_sales;
        transactions += marketplace_transactions;
    }
    if !exempt_in_sales {
        sales += exempt_sales;
    }
    if !exempt_in_count {
        transactions += exempt_transactions;
    }
    PeriodActivity {
        sales,
        exempt_sales,
        marketplace_sales,
        transactions,
        exempt_transactions,
        marketplace_transactions,
    }
}

/// What met, or is nearest to meeting, the thresholds: `SALES` or `TRANSACTIONS`, whichever has
/// the larger share of its threshold.
fn trigger(
    sales_threshold: Option<Decimal>,
    count_threshold: Option<i64>,
    amount: Decimal,
    count: i64,
) -> &'static str {
    let sales_share = sales_threshold.filter(|t| !t.is_zero()).map(|t| amount / t);
    let count_share = count_threshold
        .filter(|t| *t > 0)
        .map(|t| Decimal::from(count) / Decimal::from(t));
    match (sales_share, count_share) {
        (Some(s), Some(c)) if c > s => "TRANSACTIONS",
        (None, Some(_)) => "TRANSACTIONS",
        _ => "SALES",
    }
}
