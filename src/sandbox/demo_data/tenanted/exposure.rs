//! Exposure history: the events of each economic nexus, derived from its status, its dates and
//! its registration.

use chrono::{Datelike, NaiveDate};
use rand::Rng;
use rust_decimal::Decimal;

use super::super::Ctx;
use super::super::util::{date_between, days_after, days_before, money, timestamp_on, ymd};
use super::ExposureRecord;
use crate::model::{Nexus, NexusStatus, Registration, RegistrationStatus};
use crate::sandbox::reference;

/// What happened to each economic nexus, oldest first, ending in its present status.
pub(super) fn exposure_history(
    ctx: &Ctx,
    rng: &mut impl Rng,
    nexus: &[Nexus],
    registrations: &[Registration],
) -> Vec<ExposureRecord> {
    let mut out = Vec::new();
    for n in nexus {
        for mut event in nexus_events(ctx.anchor, rng, n, registrations) {
            event.id = ctx.id("nxev", out.len() + 1);
            out.push(event);
        }
    }
    out
}

/// One event before it gets its id and time of day.
struct Step {
    date: NaiveDate,
    kind: &'static str,
    status: NexusStatus,
    sales: Decimal,
    count: i64,
    description: String,
}

fn nexus_events(
    today: NaiveDate,
    rng: &mut impl Rng,
    n: &Nexus,
    registrations: &[Registration],
) -> Vec<ExposureRecord> {
    let status = n.status.clone().unwrap_or(NexusStatus::NotExposed);
    let place = match reference::jurisdiction_name(&n.country_code, &n.state_code) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ if !n.state_name.is_empty() => n.state_name.clone(),
        _ => n.country_code.clone(),
    };
    let period_start = n.period_start_date.unwrap_or(ymd(today.year(), 1, 1));
    let period_end = n
        .period_end_date
        .unwrap_or(ymd(period_start.year(), 12, 31));
    let amount = n.transactions_amount.unwrap_or_default();
    let count = n.transaction_count.unwrap_or(0);
    let share = |pct: i64| (amount * Decimal::new(pct, 2)).round_dp(2);
    let count_share = |pct: i64| count * pct / 100;
    let registering = matches!(
        status,
        NexusStatus::Registered | NexusStatus::OssRegistered | NexusStatus::PendingRegistration
    );
    let registration = registrations
        .iter()
        .find(|r| r.country_code == n.country_code && r.state_code == n.state_code)
        .filter(|_| registering);
    let registered_on = registration
        .filter(|r| {
            matches!(
                r.status,
                RegistrationStatus::Registered
                    | RegistrationStatus::SelfManaged
                    | RegistrationStatus::Deregistering
            )
        })
        .and_then(|r| {
            r.registration_completed
                .map(|t| t.date())
                .or(r.registration_date)
        });
    let met = n
        .economic_nexus_met_date
        .filter(|_| n.economic_nexus_met == Some(true))
        .filter(|_| status == NexusStatus::Exposed || registering);
    // A current physical presence creates nexus whatever the sales.
    let physical = n
        .physical_nexus_met_date
        .filter(|_| n.physical_nexus_met == Some(true));

    let mut steps = Vec::new();
    // The current measurement period, as it stood when it began.
    let at_period_start = if registered_on.is_some_and(|d| d <= period_start) {
        NexusStatus::Registered
    } else if met.is_some_and(|d| d < period_start) || physical.is_some_and(|d| d < period_start) {
        NexusStatus::Exposed
    } else {
        NexusStatus::NotExposed
    };
    steps.push(Step {
        date: period_start,
        kind: "PERIOD_STARTED",
        status: at_period_start,
        sales: Decimal::new(0, 2),
        count: 0,
        description: format!(
            "A new measurement period began in {place} ({period_start} to {period_end})."
        ),
    });
    if let Some(met) = met {
        let threshold = n
            .threshold_sales
            .filter(|t| !t.is_zero())
            .unwrap_or_else(|| share(90));
        steps.push(Step {
            date: days_before(met, rng.random_range(20..80)),
            kind: "THRESHOLD_APPROACHING",
            status: NexusStatus::Approaching,
            sales: (threshold * Decimal::new(82, 2)).round_dp(2),
            count: count_share(60),
            description: format!("Sales into {place} passed 80% of the economic nexus threshold."),
        });
        steps.push(Step {
            date: met,
            kind: "THRESHOLD_MET",
            status: NexusStatus::Exposed,
            sales: threshold + money(rng, 0, 99_999),
            count: count_share(85).max(1),
            description: format!("The economic nexus threshold of {place} was met."),
        });
        steps.push(Step {
            date: days_after(met, 1),
            kind: "EXPOSED",
            status: NexusStatus::Exposed,
            sales: threshold + money(rng, 100_000, 400_000),
            count: count_share(88).max(1),
            description: format!(
                "Tax is owed in {place} from the threshold date and none is collected yet."
            ),
        });
    }
    // A presence that began once registered owes nothing uncollected.
    let exposed_by_presence = physical
        .filter(|_| met.is_none())
        .filter(|since| registered_on.is_none_or(|done| *since < done));
    if let Some(since) = exposed_by_presence {
        steps.push(Step {
            date: since,
            kind: "EXPOSED",
            status: NexusStatus::Exposed,
            sales: share(40),
            count: count_share(40),
            description: format!(
                "A physical presence in {place} creates nexus: tax is owed from {since} and none \
                 is collected yet."
            ),
        });
    }
    if let Some(r) = registration {
        let requested = r
            .registration_requested
            .map(|t| t.date())
            .or(r.registration_date)
            .unwrap_or(period_start);
        let started = met.map_or(requested, |m| requested.max(days_after(m, 2)));
        steps.push(Step {
            date: started,
            kind: "REGISTRATION_STARTED",
            status: NexusStatus::PendingRegistration,
            sales: share(92),
            count: count_share(92),
            description: format!("A registration in {place} was requested."),
        });
        if let Some(done) = registered_on {
            steps.push(Step {
                date: done.max(days_after(started, 1)),
                kind: "REGISTERED",
                status: NexusStatus::Registered,
                sales: share(95),
                count: count_share(95),
                description: format!("Registered in {place}: tax is collected from now on."),
            });
        }
    }
    if status == NexusStatus::Approaching {
        steps.push(Step {
            date: date_between(rng, days_before(today, 60), days_before(today, 2)),
            kind: "THRESHOLD_APPROACHING",
            status: NexusStatus::Approaching,
            sales: share(97),
            count: count_share(97),
            description: format!("Sales into {place} passed 70% of the economic nexus threshold."),
        });
    }
    steps.sort_by_key(|s| s.date);
    // The history ends in the nexus's present status.
    if let Some(last) = steps.last_mut() {
        last.status = status.clone();
    }
    steps
        .into_iter()
        .map(|s| ExposureRecord {
            id: String::new(),
            nexus_id: n.id.clone(),
            occurred_at: timestamp_on(rng, s.date),
            event_type: s.kind.to_owned(),
            country_code: n.country_code.clone(),
            state_code: (!n.state_code.is_empty()).then(|| n.state_code.clone()),
            status: s.status.as_str().to_owned(),
            sales_amount: s.sales.round_dp(2),
            transaction_count: s.count,
            description: s.description,
        })
        .collect()
}
