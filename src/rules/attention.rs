//! How each jurisdiction stands, from its economic nexus record, its physical presences and its
//! registrations read together: where nexus is met and nothing is registered, where the
//! thresholds are near, where the business is covered.
//!
//! A jurisdiction is a country and a state (`US`/`TX`, `CA`/`ON`), or a country alone for a
//! country-wide record (the EU one-stop shop `ZZ_EU`, Canada's federal GST/HST, an EU member
//! state).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::nexus::{NexusRoute, effective_nexus_status};
use crate::model::format::percent_of;
use crate::model::{Nexus, NexusStatus, PhysicalNexus, Registration, RegistrationStatus};

pub use crate::model::Standing;

/// Which rule flagged an exposed jurisdiction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExposedBy {
    /// The economic nexus record, with its status as it reads (`EXPOSED`,
    /// `PENDING_REGISTRATION`, `OSS_PENDING_REGISTRATION`, or a `REGISTERED` that no active
    /// registration bears out).
    Economic(NexusStatus),
    /// A physical presence current today.
    Physical,
    /// Both.
    Both,
}

impl ExposedBy {
    /// `economic`, `physical` or `economic and physical`.
    pub fn in_words(&self) -> &'static str {
        match self {
            Self::Economic(_) => "economic",
            Self::Physical => "physical",
            Self::Both => "economic and physical",
        }
    }
}

/// One jurisdiction with its standing and the records it was judged on.
#[derive(Debug, Clone, PartialEq)]
pub struct Jurisdiction {
    /// The country code as the service gives it (`US`, `CA`, `ZZ_EU`), upper case.
    pub country: String,
    /// The state or province code (`TX`, `ON`); `None` for a country-wide record.
    pub state: Option<String>,
    /// The name the records give (`Texas`); the code when none does.
    pub name: String,
    pub standing: Standing,
    /// Set when the standing is [`Standing::ExposedUnregistered`].
    pub exposed_by: Option<ExposedBy>,
    /// The economic nexus record.
    pub nexus: Option<Nexus>,
    /// The physical presences current on the day judged.
    pub physical: Vec<PhysicalNexus>,
    /// The most relevant registration: an active one when there is one, else the first listed.
    pub registration: Option<Registration>,
}

impl Jurisdiction {
    /// The economic status as it reads (see [`effective_nexus_status`]).
    pub fn nexus_status(&self) -> Option<NexusStatus> {
        self.nexus.as_ref().and_then(effective_nexus_status)
    }

    /// Why the jurisdiction stands as it does, in words: for one exposed and not registered,
    /// the rule that flagged it (economic nexus met, a physical presence current today) and the
    /// state of a registration that does not cover it ("economic nexus met; physical presence
    /// since 2023-04-02; registration deregistering"); for the others, their standing.
    pub fn reason(&self) -> String {
        use crate::model::format::code_words;
        let mut parts: Vec<String> = Vec::new();
        match self.standing {
            Standing::ExposedUnregistered => {
                if matches!(
                    self.exposed_by,
                    Some(ExposedBy::Economic(_) | ExposedBy::Both)
                ) {
                    parts.push("economic nexus met".to_owned());
                }
                if let Some(first) = self.physical.iter().map(|p| p.start_date).min() {
                    let more = match self.physical.len() {
                        1 => String::new(),
                        n => format!(" ({n} of them)"),
                    };
                    parts.push(format!(
                        "physical presence since {}{more}",
                        crate::model::format::date(first),
                    ));
                }
                parts.push(match &self.registration {
                    Some(r) => format!(
                        "registration {}",
                        code_words(r.status.as_str()).to_lowercase()
                    ),
                    None => "not registered".to_owned(),
                });
            }
            Standing::Approaching => parts.push("approaching the threshold".to_owned()),
            Standing::PhysicalOnly => parts.push("physical presence, not current".to_owned()),
            Standing::Registered => parts.push(match &self.registration {
                Some(r) if r.status != RegistrationStatus::Registered => format!(
                    "registered ({})",
                    code_words(r.status.as_str()).to_lowercase()
                ),
                _ => "registered".to_owned(),
            }),
            Standing::Nothing => {}
        }
        parts.join("; ")
    }
}

/// Whether a registration covers its jurisdiction: done, under way, or managed by the business
/// itself.
pub fn is_active(status: &RegistrationStatus) -> bool {
    matches!(
        status,
        RegistrationStatus::Registered
            | RegistrationStatus::Processing
            | RegistrationStatus::Validating
            | RegistrationStatus::SelfManaged
    )
}

/// The key of a jurisdiction: the country upper case, the state upper case or `None` when blank.
fn key(country: &str, state: &str) -> (String, Option<String>) {
    let state = state.trim();
    (
        country.trim().to_ascii_uppercase(),
        (!state.is_empty()).then(|| state.to_ascii_uppercase()),
    )
}

#[derive(Default)]
struct Records<'a> {
    nexus: Option<&'a Nexus>,
    physical: Vec<&'a PhysicalNexus>,
    registrations: Vec<&'a Registration>,
}

/// Every jurisdiction any of the records names, with its standing on `today` (see [`Standing`]),
/// most urgent first, then by country and state.
pub fn standings(
    nexus: &[Nexus],
    physical: &[PhysicalNexus],
    registrations: &[Registration],
    today: NaiveDate,
) -> Vec<Jurisdiction> {
    let mut by_place: BTreeMap<(String, Option<String>), Records> = BTreeMap::new();
    for n in nexus {
        let records = by_place
            .entry(key(&n.country_code, &n.state_code))
            .or_default();
        records.nexus.get_or_insert(n);
    }
    for p in physical {
        by_place
            .entry(key(&p.country_code, &p.state_code))
            .or_default()
            .physical
            .push(p);
    }
    for r in registrations {
        by_place
            .entry(key(&r.country_code, &r.state_code))
            .or_default()
            .registrations
            .push(r);
    }
    let mut out: Vec<Jurisdiction> = by_place
        .into_iter()
        .map(|((country, state), records)| judge(country, state, &records, today))
        .collect();
    out.sort_by(|a, b| (a.standing, &a.country, &a.state).cmp(&(b.standing, &b.country, &b.state)));
    out
}

fn judge(
    country: String,
    state: Option<String>,
    records: &Records,
    today: NaiveDate,
) -> Jurisdiction {
    let status = records.nexus.and_then(effective_nexus_status);
    let current: Vec<PhysicalNexus> = records
        .physical
        .iter()
        .filter(|p| p.start_date <= today && p.end_date.is_none_or(|end| end >= today))
        .map(|p| (*p).clone())
        .collect();
    let active = records.registrations.iter().find(|r| is_active(&r.status));
    let registered = active.is_some();
    let met = records
        .nexus
        .is_some_and(|n| n.nexus_met == Some(true) || NexusRoute::of_nexus(n).is_some());
    let economic = status.clone().filter(|s| match s {
        NexusStatus::Exposed
        | NexusStatus::PendingRegistration
        | NexusStatus::OssPendingRegistration => true,
        // The record says registered, yet no registration is active.
        NexusStatus::Registered | NexusStatus::OssRegistered => met,
        _ => false,
    });
    let exposed_by = match (economic, !current.is_empty()) {
        (Some(_), true) => Some(ExposedBy::Both),
        (Some(s), false) => Some(ExposedBy::Economic(s)),
        (None, true) => Some(ExposedBy::Physical),
        (None, false) => None,
    };
    let standing = if registered {
        Standing::Registered
    } else if exposed_by.is_some() {
        Standing::ExposedUnregistered
    } else if status == Some(NexusStatus::Approaching) {
        Standing::Approaching
    } else if !records.physical.is_empty() {
        Standing::PhysicalOnly
    } else {
        Standing::Nothing
    };
    let name = records
        .nexus
        .map(|n| n.state_name.trim())
        .into_iter()
        .chain(records.registrations.iter().map(|r| r.state_name.trim()))
        .find(|n| !n.is_empty())
        .map_or_else(
            || state.clone().unwrap_or_else(|| country.clone()),
            str::to_owned,
        );
    Jurisdiction {
        country,
        state,
        name,
        standing,
        exposed_by: exposed_by.filter(|_| standing == Standing::ExposedUnregistered),
        nexus: records.nexus.cloned(),
        physical: current,
        registration: active
            .or_else(|| records.registrations.first())
            .map(|r| (*r).clone()),
    }
}

/// Sales and transactions as a share of their thresholds, in percent, exact (every surface
/// writes it with [`crate::model::format::share`], which cuts and never rounds up): `(sales, transactions)`,
/// each `None` when the record has no such threshold (absent or zero). A count or amount the
/// record does not give counts as zero.
pub fn threshold_share(n: &Nexus) -> (Option<Decimal>, Option<Decimal>) {
    let share =
        |current: Decimal, threshold: Decimal| percent_of(current.max(Decimal::ZERO), threshold);
    let sales = n
        .threshold_sales
        .filter(|t| *t > Decimal::ZERO)
        .and_then(|t| share(n.transactions_amount.unwrap_or_default(), t));
    let transactions = n
        .threshold_transactions
        .filter(|t| *t > 0)
        .and_then(|t| share(n.transaction_count.unwrap_or(0).into(), t.into()));
    (sales, transactions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    const TODAY: &str = "2026-11-24";

    fn nexus(country: &str, state: &str, status: &str, extra: &Value) -> Nexus {
        let mut body = json!({
            "id": format!("nexu_{country}_{state}"), "country_code": country,
            "state_code": state, "state_name": format!("{state} name"), "status": status,
        });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        serde_json::from_value(body).unwrap()
    }

    fn physical(state: &str, start: &str, end: Option<&str>) -> PhysicalNexus {
        serde_json::from_value(json!({
            "id": format!("phys_{state}_{start}"), "country_code": "US", "state_code": state,
            "start_date": start, "end_date": end, "category": "PHYSICAL_BUSINESS_LOCATION",
            "external_id": null, "source": "USER", "street_1": null, "street_2": null,
            "city": null, "postal_code": null
        }))
        .unwrap()
    }

    fn registration(country: &str, state: &str, status: &str) -> Registration {
        serde_json::from_value(json!({
            "id": format!("regi_{country}_{state}_{status}"), "status": status,
            "country_code": country, "state_code": state, "filing_frequency": "QUARTERLY"
        }))
        .unwrap()
    }

    fn one(
        nexus: &[Nexus],
        physical: &[PhysicalNexus],
        registrations: &[Registration],
    ) -> Jurisdiction {
        let all = standings(nexus, physical, registrations, day(TODAY));
        assert_eq!(all.len(), 1, "{all:#?}");
        all.into_iter().next().unwrap()
    }

    #[test]
    fn each_exposed_jurisdiction_says_why_in_words() {
        let j = one(
            &[nexus("US", "MN", "PENDING_REGISTRATION", &json!({}))],
            &[physical("MN", "2024-03-01", None)],
            &[],
        );
        assert_eq!(
            j.reason(),
            "economic nexus met; physical presence since 2024-03-01; not registered"
        );
        // The record says registered; the registration is being closed.
        let j = one(
            &[nexus("US", "TX", "REGISTERED", &json!({"nexus_met": true}))],
            &[],
            &[registration("US", "TX", "DEREGISTERING")],
        );
        assert_eq!(j.standing, Standing::ExposedUnregistered);
        assert_eq!(j.reason(), "economic nexus met; registration deregistering");
        let j = one(
            &[],
            &[
                physical("CO", "2025-01-01", None),
                physical("CO", "2023-06-01", None),
            ],
            &[],
        );
        assert_eq!(
            j.reason(),
            "physical presence since 2023-06-01 (2 of them); not registered"
        );
        let j = one(
            &[nexus("US", "WA", "REGISTERED", &json!({}))],
            &[],
            &[registration("US", "WA", "REGISTERED")],
        );
        assert_eq!(j.reason(), "registered");
    }

    #[test]
    fn an_exposed_or_pending_status_without_a_registration_is_exposed_by_the_economic_rule() {
        for status in ["EXPOSED", "PENDING_REGISTRATION"] {
            let j = one(&[nexus("US", "TX", status, &json!({}))], &[], &[]);
            assert_eq!(j.standing, Standing::ExposedUnregistered, "{status}");
            assert_eq!(
                j.exposed_by,
                Some(ExposedBy::Economic(NexusStatus::parse(status)))
            );
            assert_eq!(j.name, "TX name");
        }
        // A row that says NOT_EXPOSED but whose nexus is met reads as EXPOSED.
        let met = nexus("US", "TX", "NOT_EXPOSED", &json!({"nexus_met": true}));
        let j = one(&[met], &[], &[]);
        assert_eq!(j.standing, Standing::ExposedUnregistered);
        assert_eq!(
            j.exposed_by,
            Some(ExposedBy::Economic(NexusStatus::Exposed))
        );
    }

    #[test]
    fn pending_registration_with_a_processing_registration_is_registered() {
        let j = one(
            &[nexus("US", "TX", "PENDING_REGISTRATION", &json!({}))],
            &[],
            &[registration("US", "TX", "PROCESSING")],
        );
        assert_eq!(j.standing, Standing::Registered);
        assert_eq!(j.exposed_by, None);
    }

    #[test]
    fn only_registrations_under_way_or_done_cover_a_jurisdiction() {
        for active in ["REGISTERED", "PROCESSING", "VALIDATING", "SELF_MANAGED"] {
            let j = one(
                &[nexus("US", "WA", "EXPOSED", &json!({}))],
                &[],
                &[registration("US", "WA", active)],
            );
            assert_eq!(j.standing, Standing::Registered, "{active}");
        }
        for inactive in [
            "UNREGISTERED",
            "DEREGISTERED",
            "CANCELLED",
            "AWAITING_CLARIFICATION",
            "DEREGISTERING",
            "SOMETHING_NEW",
        ] {
            let j = one(
                &[nexus("US", "WA", "EXPOSED", &json!({}))],
                &[],
                &[registration("US", "WA", inactive)],
            );
            assert_eq!(j.standing, Standing::ExposedUnregistered, "{inactive}");
            assert_eq!(
                j.registration.as_ref().map(|r| r.status.as_str()),
                Some(inactive),
                "an inactive registration is still shown"
            );
        }
    }

    #[test]
    fn the_active_registration_is_the_one_kept() {
        let j = one(
            &[],
            &[],
            &[
                registration("US", "NY", "DEREGISTERED"),
                registration("US", "NY", "REGISTERED"),
            ],
        );
        assert_eq!(j.standing, Standing::Registered);
        assert_eq!(
            j.registration.unwrap().status,
            RegistrationStatus::Registered
        );
    }

    #[test]
    fn a_current_physical_presence_without_a_registration_is_exposed_by_physical() {
        let j = one(&[], &[physical("CO", "2026-01-01", None)], &[]);
        assert_eq!(j.standing, Standing::ExposedUnregistered);
        assert_eq!(j.exposed_by, Some(ExposedBy::Physical));
        assert_eq!(j.physical.len(), 1);
        assert_eq!(j.name, "CO", "no record names it");

        // Ending today still counts; with the economic rule too it is both.
        let j = one(
            &[nexus("US", "CO", "EXPOSED", &json!({}))],
            &[physical("CO", "2025-01-01", Some(TODAY))],
            &[],
        );
        assert_eq!(j.exposed_by, Some(ExposedBy::Both));

        // Registered, the presence is covered.
        let j = one(
            &[],
            &[physical("CO", "2026-01-01", None)],
            &[registration("US", "CO", "REGISTERED")],
        );
        assert_eq!(j.standing, Standing::Registered);
    }

    #[test]
    fn a_presence_not_current_is_physical_only() {
        for (start, end) in [("2027-01-01", None), ("2025-01-01", Some("2026-11-23"))] {
            let j = one(
                &[nexus("US", "NV", "NOT_EXPOSED", &json!({}))],
                &[physical("NV", start, end)],
                &[],
            );
            assert_eq!(j.standing, Standing::PhysicalOnly, "{start} {end:?}");
            assert_eq!(j.exposed_by, None);
            assert!(j.physical.is_empty(), "only current presences are kept");
        }
        // Approaching is more urgent than a presence that is not current.
        let j = one(
            &[nexus("US", "NV", "APPROACHING", &json!({}))],
            &[physical("NV", "2027-01-01", None)],
            &[],
        );
        assert_eq!(j.standing, Standing::Approaching);
    }

    #[test]
    fn approaching_counts_only_without_a_registration() {
        let near = nexus("US", "GA", "APPROACHING", &json!({}));
        assert_eq!(
            one(std::slice::from_ref(&near), &[], &[]).standing,
            Standing::Approaching
        );
        assert_eq!(
            one(&[near], &[], &[registration("US", "GA", "SELF_MANAGED")]).standing,
            Standing::Registered
        );
    }

    #[test]
    fn unknown_and_quiet_statuses_are_nothing_and_keep_their_record() {
        for status in ["NOT_EXPOSED", "UNDER_REVIEW"] {
            let j = one(&[nexus("US", "ID", status, &json!({}))], &[], &[]);
            assert_eq!(j.standing, Standing::Nothing, "{status}");
            assert_eq!(
                j.nexus.unwrap().status.unwrap().as_str(),
                status,
                "the record is kept"
            );
        }
        // A record that says REGISTERED is not a registration: with nexus met and no active
        // registration it is exposed; without nexus met, nothing.
        let j = one(&[nexus("US", "ID", "REGISTERED", &json!({}))], &[], &[]);
        assert_eq!(j.standing, Standing::Nothing);
        let said = nexus(
            "US",
            "ID",
            "REGISTERED",
            &json!({"nexus_met": true, "economic_nexus_met": true}),
        );
        let j = one(
            std::slice::from_ref(&said),
            &[],
            &[registration("US", "ID", "DEREGISTERING")],
        );
        assert_eq!(j.standing, Standing::ExposedUnregistered);
        assert_eq!(
            j.exposed_by,
            Some(ExposedBy::Economic(NexusStatus::Registered))
        );
        let j = one(&[said], &[], &[registration("US", "ID", "REGISTERED")]);
        assert_eq!(j.standing, Standing::Registered);
    }

    #[test]
    fn canadian_provinces_are_their_own_jurisdictions() {
        let all = standings(
            &[
                nexus("CA", "ON", "EXPOSED", &json!({})),
                nexus("CA", "BC", "APPROACHING", &json!({})),
                nexus("CA", "", "REGISTERED", &json!({})),
            ],
            &[],
            &[
                registration("CA", "QC", "REGISTERED"),
                registration("CA", "", "REGISTERED"),
            ],
            day(TODAY),
        );
        let got: Vec<(&str, Option<&str>, Standing)> = all
            .iter()
            .map(|j| (j.country.as_str(), j.state.as_deref(), j.standing))
            .collect();
        assert_eq!(
            got,
            [
                ("CA", Some("ON"), Standing::ExposedUnregistered),
                ("CA", Some("BC"), Standing::Approaching),
                ("CA", None, Standing::Registered),
                ("CA", Some("QC"), Standing::Registered),
            ],
            "most urgent first, then by place; the federal record has no state"
        );
    }

    #[test]
    fn the_eu_one_stop_shop_is_one_country_level_jurisdiction() {
        let all = standings(
            &[nexus("ZZ_EU", "", "OSS_PENDING_REGISTRATION", &json!({}))],
            &[],
            &[registration("ZZ_EU", "", "REGISTERED")],
            day(TODAY),
        );
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0].country, "ZZ_EU");
        assert_eq!(all[0].state, None);
        assert_eq!(all[0].standing, Standing::Registered);

        let j = one(
            &[nexus("ZZ_EU", "", "OSS_PENDING_REGISTRATION", &json!({}))],
            &[],
            &[],
        );
        assert_eq!(j.standing, Standing::ExposedUnregistered);
    }

    #[test]
    fn records_of_one_place_meet_whatever_the_case_of_their_codes() {
        let j = one(
            &[nexus("us", "tx", "EXPOSED", &json!({}))],
            &[],
            &[registration("US", "TX", "REGISTERED")],
        );
        assert_eq!((j.country.as_str(), j.state.as_deref()), ("US", Some("TX")));
        assert_eq!(j.standing, Standing::Registered);
    }

    #[test]
    fn threshold_shares_are_percent_of_each_threshold() {
        let n = nexus(
            "US",
            "CA",
            "EXPOSED",
            &json!({"threshold_sales": 500_000, "transactions_amount": "612400.00",
                    "threshold_transactions": 200, "transaction_count": 50}),
        );
        assert_eq!(
            threshold_share(&n),
            (Some(Decimal::new(12248, 2)), Some(Decimal::new(25, 0)))
        );
        // No threshold (absent or zero): no share; no amount: nothing counted yet.
        let n = nexus(
            "US",
            "CA",
            "APPROACHING",
            &json!({"threshold_sales": 100_000, "threshold_transactions": 0}),
        );
        assert_eq!(threshold_share(&n), (Some(Decimal::ZERO), None));
        // Exact, so that the one formatter cuts it: 95,864.92 of 100,000 reads 95.8%, not 96.
        let n = nexus(
            "US",
            "MI",
            "APPROACHING",
            &json!({"threshold_sales": 100_000, "transactions_amount": "95864.92"}),
        );
        let share = threshold_share(&n).0.unwrap();
        assert_eq!(share, Decimal::new(9_586_492, 5));
        assert_eq!(crate::model::format::share(share), "95.8%");
        let n = nexus("US", "CA", "APPROACHING", &json!({}));
        assert_eq!(threshold_share(&n), (None, None));
    }
}
