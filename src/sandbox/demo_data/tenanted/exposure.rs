//! Exposure history: the events of each economic nexus, counted from the demo transactions by
//! the jurisdiction's rule, as its v1 figures are (see [`super::super::economic`]): each judged
//! measuring period begins, its sales pass [`crate::rules::APPROACHING_AT`] of the thresholds and then meet
//! them on the days they did, a physical presence begins, a registration is requested and
//! completed on its record's dates. Each event carries the status on its day and the period's
//! counted figures so far; the last ends in the nexus's present status.

use chrono::NaiveDate;
use rand::Rng;
use rust_decimal::Decimal;

use super::super::Ctx;
use super::super::economic::{SalesByPlace, crossings, judged_periods, rule_and_model};
use super::super::util::timestamp_on;
use super::ExposureRecord;
use crate::model::{
    Nexus, NexusStatus, PeriodActivity, Registration, RegistrationStatus, Timestamp,
};
use crate::sandbox::reference;

/// What happened to each economic nexus, oldest first, ending in its present status.
pub(super) fn exposure_history(
    ctx: &Ctx,
    rng: &mut impl Rng,
    nexus: &[Nexus],
    registrations: &[Registration],
    sales: &SalesByPlace<'_>,
) -> Vec<ExposureRecord> {
    let mut out = Vec::new();
    for n in nexus {
        for mut event in nexus_events(ctx.anchor, rng, n, registrations, sales) {
            event.id = ctx.id("nxev", out.len() + 1);
            out.push(event);
        }
    }
    out
}

/// One event before it gets its id, its time of day and its status.
struct Step {
    date: NaiveDate,
    kind: &'static str,
    sales: Decimal,
    count: i64,
    description: String,
}

/// The days that decide a nexus's status on any day.
#[derive(Default)]
struct Days {
    approaching: Vec<NaiveDate>,
    met: Vec<NaiveDate>,
    physical: Option<NaiveDate>,
    requested: Option<NaiveDate>,
    registered: Option<NaiveDate>,
}

impl Days {
    /// The status on `day`: registered once the registration was completed, pending once it
    /// was requested, exposed once nexus was met (by the sales or a presence), approaching once
    /// the sales passed [`APPROACHING_AT`] of the thresholds, else not exposed.
    fn status_on(&self, day: NaiveDate) -> NexusStatus {
        let by = |d: &Option<NaiveDate>| d.is_some_and(|d| d <= day);
        let any = |ds: &[NaiveDate]| ds.iter().any(|d| *d <= day);
        if by(&self.registered) {
            NexusStatus::Registered
        } else if by(&self.requested) {
            NexusStatus::PendingRegistration
        } else if any(&self.met) || by(&self.physical) {
            NexusStatus::Exposed
        } else if any(&self.approaching) {
            NexusStatus::Approaching
        } else {
            NexusStatus::NotExposed
        }
    }
}

fn nexus_events(
    today: NaiveDate,
    rng: &mut impl Rng,
    n: &Nexus,
    registrations: &[Registration],
    sales: &SalesByPlace<'_>,
) -> Vec<ExposureRecord> {
    let status = n.status.clone().unwrap_or(NexusStatus::NotExposed);
    let place = match reference::jurisdiction_name(&n.country_code, &n.state_code) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ if !n.state_name.is_empty() => n.state_name.clone(),
        _ => n.country_code.clone(),
    };
    let physical = n.physical_nexus_met == Some(true);
    let (rule, model) = rule_and_model(&n.country_code, &n.state_code);
    let counted = |a: &PeriodActivity| {
        rule.as_ref()
            .map_or((a.sales, a.transactions), |r| r.counted(a, physical))
    };
    let mut steps = Vec::new();
    let mut days = Days {
        physical: n.physical_nexus_met_date.filter(|_| physical),
        ..Days::default()
    };
    let place_sales = sales.toward(&n.country_code, &n.state_code);
    for (from, to) in judged_periods(&model, today) {
        steps.push(Step {
            date: from,
            kind: "PERIOD_STARTED",
            sales: Decimal::new(0, 2),
            count: 0,
            description: format!("A new measurement period began in {place} ({from} to {to})."),
        });
        let Some(rule) = &rule else { continue };
        // The same walk the v1 figures' met date comes from.
        let found = crossings(&place_sales, rule, (from, to), physical);
        if let Some((day, a)) = found.approaching {
            let (sales, count) = counted(&a);
            days.approaching.push(day);
            steps.push(Step {
                date: day,
                kind: "THRESHOLD_APPROACHING",
                sales,
                count,
                description: format!(
                    "Sales into {place} passed 70% of the economic nexus threshold."
                ),
            });
        }
        if let Some((day, a)) = found.met {
            let (sales, count) = counted(&a);
            days.met.push(day);
            steps.push(Step {
                date: day,
                kind: "THRESHOLD_MET",
                sales,
                count,
                description: format!("The economic nexus threshold of {place} was met."),
            });
        }
    }
    let registering = matches!(
        status,
        NexusStatus::Registered | NexusStatus::OssRegistered | NexusStatus::PendingRegistration
    );
    let registration = registrations
        .iter()
        .find(|r| r.country_code == n.country_code && r.state_code == n.state_code)
        .filter(|_| registering);
    if let Some(r) = registration {
        days.requested = r
            .registration_requested
            .map(|t| t.date())
            .or(r.registration_date);
        days.registered = r
            .registration_completed
            .map(|t| t.date())
            .or(r.registration_date)
            .filter(|_| {
                matches!(
                    r.status,
                    RegistrationStatus::Registered
                        | RegistrationStatus::SelfManaged
                        | RegistrationStatus::Deregistering
                )
            })
            .map(|done| days.requested.map_or(done, |asked| done.max(asked)));
    }
    // Nexus met while not registered (and not already exposed by a presence): tax is owed and
    // none is collected yet.
    let unregistered_on = |day: NaiveDate| days.registered.is_none_or(|done| day < done);
    let first_met = days.met.iter().min().copied();
    let exposed_by_sales =
        first_met.filter(|d| unregistered_on(*d) && days.physical.is_none_or(|p| p > *d));
    if let Some(met) = exposed_by_sales {
        let (sales, count) = steps
            .iter()
            .find(|s| s.kind == "THRESHOLD_MET" && s.date == met)
            .map_or((Decimal::ZERO, 0), |s| (s.sales, s.count));
        steps.push(Step {
            date: met,
            kind: "EXPOSED",
            sales,
            count,
            description: format!(
                "Tax is owed in {place} from the threshold date and none is collected yet."
            ),
        });
    }
    if let Some(since) = days
        .physical
        .filter(|since| first_met.is_none_or(|met| *since < met) && unregistered_on(*since))
    {
        steps.push(Step {
            date: since,
            kind: "EXPOSED",
            sales: Decimal::new(0, 2),
            count: 0,
            description: format!(
                "A physical presence in {place} creates nexus: tax is owed from {since} and none \
                 is collected yet."
            ),
        });
    }
    if let Some(requested) = days.requested {
        steps.push(Step {
            date: requested,
            kind: "REGISTRATION_STARTED",
            sales: Decimal::new(0, 2),
            count: 0,
            description: format!("A registration in {place} was requested."),
        });
    }
    if let Some(done) = days.registered {
        steps.push(Step {
            date: done,
            kind: "REGISTERED",
            sales: Decimal::new(0, 2),
            count: 0,
            description: format!("Registered in {place}: tax is collected from now on."),
        });
    }
    steps.sort_by_key(|s| s.date);
    let last = steps.len().saturating_sub(1);
    // Events of one day keep their order (the threshold met, then the exposure it brings).
    let mut previous: Option<Timestamp> = None;
    steps
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let mut occurred_at = timestamp_on(rng, s.date);
            if let Some(before) = previous.filter(|before| before.0 >= occurred_at.0) {
                occurred_at = Timestamp(before.0 + chrono::Duration::minutes(1));
            }
            previous = Some(occurred_at);
            ExposureRecord {
                id: String::new(),
                nexus_id: n.id.clone(),
                occurred_at,
                event_type: s.kind.to_owned(),
                country_code: n.country_code.clone(),
                state_code: (!n.state_code.is_empty()).then(|| n.state_code.clone()),
                // The history ends in the nexus's present status.
                status: if i == last {
                    status.as_str().to_owned()
                } else {
                    days.status_on(s.date).as_str().to_owned()
                },
                sales_amount: s.sales.round_dp(2),
                transaction_count: s.count,
                description: s.description,
            }
        })
        .collect()
}
