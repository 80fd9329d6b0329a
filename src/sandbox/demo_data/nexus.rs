//! Physical nexus records and economic nexus rows.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use rand::Rng;
use rust_decimal::Decimal;

use super::economic;
use super::places::{CA_PLACES, EU_PLACES, STREET_KINDS, STREETS, US_PLACES};
use super::util::{chance, date_between, days_before, digits, pick, timestamp_on};
use super::{Ctx, Section};
use crate::model::{
    Customer, ExemptTreatment, Nexus, NexusStatus, NexusType, PeriodModel, PhysicalNexus,
    PhysicalNexusSource, Registration, RegistrationStatus as S, SalesOrTransactions,
};
use crate::sandbox::reference::{self, NexusThresholds, US_STATES};
use crate::sandbox::transactions::DemoSale;

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
/// Each row's figures are counted from the demo sales (`by_place`) by the jurisdiction's rule (see
/// [`economic`](super::economic)), and its status follows from them: a registration's when there
/// is one, else exposed when nexus is met by either route, approaching from
/// [`crate::rules::APPROACHING_AT`] of the thresholds, not exposed below.
pub fn economic(
    ctx: &Ctx,
    registrations: &[Registration],
    physical: &[PhysicalNexus],
    customers: &[Customer],
    by_place: &economic::SalesByPlace<'_>,
) -> Vec<Nexus> {
    let mut rng = ctx.rng(Section::Economic);
    let active_in = |country: &str, state: &str| {
        registrations
            .iter()
            .any(|r| r.country_code == country && r.state_code == state)
            || customers.iter().any(|c| {
                c.address.country.as_deref() == Some(country)
                    && (state.is_empty() || c.address.state.as_deref() == Some(state))
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
            let sales = by_place.toward(country, state);
            let id = ctx.id("nexu", i + 1);
            row(
                &mut rng,
                ctx,
                id,
                (country, state, nexus_type),
                (registration, physical_since),
                &sales,
            )
        })
        .collect()
}

fn row(
    rng: &mut impl Rng,
    ctx: &Ctx,
    id: String,
    (country, state, nexus_type): (&str, &str, NexusType),
    (registration, physical_since): (Option<&Registration>, Option<NaiveDate>),
    sales: &[DemoSale],
) -> Nexus {
    let thresholds = reference::nexus_thresholds(country, state);
    let sales_threshold = thresholds.as_ref().and_then(|t| t.sales);
    let count_threshold = thresholds.as_ref().and_then(|t| t.transactions);
    let rule = thresholds.as_ref().map(economic::rule_of);
    let period_model = thresholds
        .as_ref()
        .map_or(PeriodModel::CalendarYear, |t| t.period_model.clone());
    let physical = physical_since.is_some();
    let figures = economic::figures(sales, rule.as_ref(), &period_model, ctx.anchor, physical);
    let counted = |a: &crate::model::PeriodActivity| {
        rule.as_ref()
            .map_or((a.sales, a.transactions), |r| r.counted(a, physical))
    };
    let (amount, count) = counted(&figures.current);
    let (previous_amount, previous_count) = counted(&figures.previous);
    let economic_met_date = figures.met_on;
    let economic_met = economic_met_date.is_some();
    let status = match registration.map(|r| &r.status) {
        Some(S::Registered | S::SelfManaged | S::Deregistering) => NexusStatus::Registered,
        Some(S::Processing | S::Validating | S::AwaitingClarification) => {
            NexusStatus::PendingRegistration
        }
        _ => crate::rules::economic_status(&figures.progress),
    };
    // The status follows nexus met by either route: a current physical presence without a
    // registration is exposed whatever the sales.
    let status = crate::rules::nexus_status(Some(&status), economic_met || physical);
    let ((period_start, period_end), (previous_start, previous_end)) =
        crate::rules::measuring_periods(&period_model, ctx.anchor);
    let registered_since = registration.and_then(|r| r.registration_date);
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
    let current = &figures.current;
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
        previous_transactions_amount: Some(previous_amount),
        previous_transaction_count: Some(previous_count),
        economic_nexus_met: Some(economic_met),
        economic_nexus_met_date: economic_met_date,
        physical_nexus_met: Some(physical),
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
        total_transactions: Some(current.transactions),
        total_transactions_included: Some(count),
        total_transactions_exempted: Some(current.exempt_transactions),
        total_transactions_marketplace: Some(current.marketplace_transactions),
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
        flagged: None,
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
