//! Rules on physical nexus records, and how a jurisdiction's nexus status follows from nexus met
//! by either route.

use chrono::NaiveDate;
use serde_json::Value;

use super::check::{Check, Checked};
use super::values::check_state_code;
use crate::model::{
    Nexus, NexusStatus, PhysicalNexus, PhysicalNexusCategory, PhysicalNexusCreate,
    PhysicalNexusUpdate,
};

/// By which route a jurisdiction's nexus is met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NexusRoute {
    /// A current physical presence only.
    Physical,
    /// The economic thresholds only.
    Economic,
    /// Both a physical presence and the economic thresholds.
    Both,
}

impl NexusRoute {
    /// The route of a nexus met `economic`ally and/or `physical`ly; `None` when neither.
    pub fn of(economic: bool, physical: bool) -> Option<Self> {
        match (economic, physical) {
            (true, true) => Some(Self::Both),
            (true, false) => Some(Self::Economic),
            (false, true) => Some(Self::Physical),
            (false, false) => None,
        }
    }

    /// The route of an economic nexus row, from its `economic_nexus_met` and `physical_nexus_met`
    /// (absent counts as not met).
    pub fn of_nexus(n: &Nexus) -> Option<Self> {
        Self::of(
            n.economic_nexus_met == Some(true),
            n.physical_nexus_met == Some(true),
        )
    }

    /// `physical`, `economic` or `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Physical => "physical",
            Self::Economic => "economic",
            Self::Both => "both",
        }
    }
}

/// The status a jurisdiction's nexus has, given the status it had and whether nexus is met now
/// (by either route, as the service's `nexus_met`).
///
/// A registration (pending or done, OSS included) or a status this side does not know stays as
/// it is. Otherwise nexus met without a registration is `EXPOSED`, whatever the route; nexus no
/// longer met turns an `EXPOSED` jurisdiction back to `NOT_EXPOSED`, and leaves `APPROACHING` and
/// `NOT_EXPOSED` as they are.
pub fn nexus_status(current: Option<&NexusStatus>, met: bool) -> NexusStatus {
    match current {
        Some(
            s @ (NexusStatus::Registered
            | NexusStatus::PendingRegistration
            | NexusStatus::OssRegistered
            | NexusStatus::OssPendingRegistration
            | NexusStatus::Other(_)),
        ) => s.clone(),
        _ if met => NexusStatus::Exposed,
        Some(NexusStatus::Approaching) => NexusStatus::Approaching,
        _ => NexusStatus::NotExposed,
    }
}

/// The status an economic nexus row reads as: its own, except that a row whose nexus is met (by
/// either route) and that has no registration is `EXPOSED` even when it says otherwise.
pub fn effective_nexus_status(n: &Nexus) -> Option<NexusStatus> {
    let met = n.nexus_met == Some(true) || NexusRoute::of_nexus(n).is_some();
    match &n.status {
        None if !met => None,
        Some(NexusStatus::Exposed) => Some(NexusStatus::Exposed),
        status => Some(nexus_status(status.as_ref(), met)),
    }
}

/// The earliest start of a physical presence in `country`/`state` that is current on `today`
/// (not ended before it): when physical nexus was met there, if it is.
pub fn physical_nexus_since(
    records: &[PhysicalNexus],
    country: &str,
    state: &str,
    today: NaiveDate,
) -> Option<NaiveDate> {
    records
        .iter()
        .filter(|p| p.country_code == country && p.state_code == state)
        .filter(|p| p.start_date <= today && p.end_date.is_none_or(|end| end >= today))
        .map(|p| p.start_date)
        .min()
}

/// Brings an economic nexus row up to date with the physical presence `since` (from
/// [`physical_nexus_since`]): `physical_nexus_met` and its date, `nexus_met` and its date, and
/// the status (see [`nexus_status`]).
pub fn apply_physical_nexus(n: &mut Nexus, since: Option<NaiveDate>) {
    n.physical_nexus_met = Some(since.is_some());
    n.physical_nexus_met_date = since;
    let economic = n
        .economic_nexus_met_date
        .filter(|_| n.economic_nexus_met == Some(true));
    let met_date = [economic, since].into_iter().flatten().min();
    let met = n.economic_nexus_met == Some(true) || since.is_some();
    n.nexus_met = Some(met);
    n.nexus_met_date = met_date;
    // The start date stays when nexus is no longer met: the service requires one.
    n.start_date = met_date.or(n.start_date);
    n.status = Some(nexus_status(n.status.as_ref(), met));
}

/// The address fields of a physical presence, all optional strings.
const ADDRESS: &[&str] = &["street_1", "street_2", "city", "postal_code"];

/// The period and category, shared by create and update: `start_date` and `category` required,
/// `end_date` optional and not before `start_date`, address strings optional.
fn period_and_place(c: &mut Check) {
    let start = c.date("start_date");
    let end = c.optional_date("end_date");
    c.not_before("end_date", end, "start_date", start);
    c.enum_of("category", PhysicalNexusCategory::KNOWN);
    c.optional_strs(ADDRESS);
}

/// Body of POST /`v1/nexus/physical_nexus`.
///
/// Besides [`physical_nexus_update`]'s rules: `country_code` a country code the service accepts
/// (ISO 3166-1 alpha-2, or `ZZ_EU`), `state_code` the bare subdivision part of an ISO 3166-2 code
/// as the service stores it (`CA`, not `US-CA`; see [`check_state_code`]), `external_id` an
/// optional string.
pub fn physical_nexus_create(body: &Value) -> Checked<PhysicalNexusCreate> {
    let mut c = Check::body(body)?;
    let country = c.country("country_code");
    if let Some(state) = c.required_str("state_code")
        && let Err(rule) = check_state_code(state)
    {
        c.rule("state_code", rule);
    }
    period_and_place(&mut c);
    c.postal_code_of("postal_code", country);
    c.optional_str("external_id");
    c.finish(body)
}

/// Body of PUT /`v1/nexus/physical_nexus/{id}`: `start_date` and `category` required, `end_date`
/// optional and not before `start_date`, `street_1`, `street_2`, `city`, `postal_code` optional
/// strings. Country and state cannot change.
pub fn physical_nexus_update(body: &Value) -> Checked<PhysicalNexusUpdate> {
    let mut c = Check::body(body)?;
    period_and_place(&mut c);
    c.finish(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{errors_of, expect, only, sweep};
    use chrono::NaiveDate;
    use serde_json::json;

    fn create() -> Value {
        json!({
            "country_code": "US",
            "state_code": "CA",
            "start_date": "2025-01-15",
            "category": "WAREHOUSE_AND_INVENTORY_PRESENCE",
            "street_1": "1 Market St",
            "street_2": "Floor 3",
            "city": "San Francisco",
            "postal_code": "94105",
            "external_id": "wh-sf"
        })
    }

    fn update() -> Value {
        json!({
            "start_date": "2025-01-15",
            "end_date": "2026-01-15",
            "category": "PHYSICAL_BUSINESS_LOCATION",
            "street_1": "1 Market St",
            "street_2": null,
            "city": "San Francisco",
            "postal_code": "94105"
        })
    }

    fn with(mut body: Value, field: &str, value: Value) -> Value {
        body[field] = value;
        body
    }

    #[test]
    fn a_valid_create_reads_as_the_request() {
        let req = physical_nexus_create(&create()).unwrap();
        assert_eq!(req.country_code, "US");
        assert_eq!(req.state_code, "CA");
        assert_eq!(
            req.start_date,
            NaiveDate::from_ymd_opt(2025, 1, 15).unwrap()
        );
        assert_eq!(req.end_date, None);
        assert_eq!(
            req.category,
            PhysicalNexusCategory::WarehouseAndInventoryPresence
        );
        assert_eq!(req.external_id.as_deref(), Some("wh-sf"));
    }

    #[test]
    fn a_minimal_create_and_other_jurisdictions() {
        let body = json!({"country_code": "CA", "state_code": "QC", "start_date": "2024-05-01",
                          "category": "MANUFACTURE_OR_PRODUCTION_IN_CANADA"});
        assert!(physical_nexus_create(&body).is_ok());
        let body = with(body, "country_code", json!("ZZ_EU"));
        assert!(physical_nexus_create(&body).is_ok());
    }

    #[test]
    fn a_postal_code_has_the_form_of_its_country() {
        let body = json!({"country_code": "US", "state_code": "UT", "start_date": "2024-05-01",
                          "category": "INVENTORY", "postal_code": "9410,5"});
        let errs = errors_of(physical_nexus_create(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "postal_code"]),
            "value_error",
            json!("9410,5"),
        );
    }

    #[test]
    fn create_requires_its_four_fields() {
        let errs = errors_of(physical_nexus_create(&json!({"city": "Boise"})));
        assert_eq!(errs.len(), 4, "{errs:#?}");
        for field in ["country_code", "state_code", "start_date", "category"] {
            expect(&errs, json!(["body", field]), "missing", Value::Null);
        }
    }

    #[test]
    fn an_end_date_before_the_start_date() {
        let body = with(create(), "end_date", json!("2025-01-14"));
        let errs = errors_of(physical_nexus_create(&body));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "end_date"]),
            "value_error",
            json!("2025-01-14"),
        );
        assert_eq!(
            e.msg,
            "Value error, end_date must not be before start_date (2025-01-15)"
        );
        // The same day is a one-day presence, not an error.
        assert!(physical_nexus_create(&with(create(), "end_date", json!("2025-01-15"))).is_ok());
    }

    #[test]
    fn an_unknown_category() {
        let body = with(create(), "category", json!("HEAD_OFFICE"));
        let errs = errors_of(physical_nexus_create(&body));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "category"]),
            "enum",
            json!("HEAD_OFFICE"),
        );
        assert!(
            e.msg
                .starts_with("Input should be 'PHYSICAL_BUSINESS_LOCATION', ")
        );
        assert!(e.msg.ends_with(" or 'CONSIGNMENT_STOCK_ARRANGEMENTS'"));
    }

    #[test]
    fn a_country_code_that_is_not_one() {
        for bad in ["USA", "us", "UK", "ZZ"] {
            let errs = errors_of(physical_nexus_create(&with(
                create(),
                "country_code",
                json!(bad),
            )));
            only(&errs);
            expect(&errs, json!(["body", "country_code"]), "enum", json!(bad));
        }
    }

    #[test]
    fn a_state_code_in_full_iso_form_is_refused_with_a_hint() {
        let errs = errors_of(physical_nexus_create(&with(
            create(),
            "state_code",
            json!("US-CA"),
        )));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "state_code"]),
            "value_error",
            json!("US-CA"),
        );
        assert!(
            e.msg.starts_with("Value error, state_code must be"),
            "{}",
            e.msg
        );
        assert!(e.msg.ends_with("(send CA, not US-CA)"), "{}", e.msg);
    }

    #[test]
    fn a_state_code_that_is_not_one() {
        for bad in [json!("ca"), json!("California"), json!("")] {
            let errs = errors_of(physical_nexus_create(&with(
                create(),
                "state_code",
                bad.clone(),
            )));
            only(&errs);
            expect(&errs, json!(["body", "state_code"]), "value_error", bad);
        }
        let errs = errors_of(physical_nexus_create(&with(
            create(),
            "state_code",
            json!(6),
        )));
        expect(
            &errs,
            json!(["body", "state_code"]),
            "string_type",
            json!(6),
        );
    }

    #[test]
    fn address_fields_must_be_strings() {
        let body = with(create(), "postal_code", json!(94105));
        let body = with(body, "external_id", json!(["x"]));
        let errs = errors_of(physical_nexus_create(&body));
        assert_eq!(errs.len(), 2);
        expect(
            &errs,
            json!(["body", "postal_code"]),
            "string_type",
            json!(94105),
        );
        expect(
            &errs,
            json!(["body", "external_id"]),
            "string_type",
            json!(["x"]),
        );
    }

    #[test]
    fn a_valid_update_reads_as_the_request() {
        let req = physical_nexus_update(&update()).unwrap();
        assert_eq!(req.end_date, NaiveDate::from_ymd_opt(2026, 1, 15));
        assert_eq!(
            req.category,
            PhysicalNexusCategory::PhysicalBusinessLocation
        );
        assert_eq!(req.street_2, None);
    }

    #[test]
    fn update_needs_start_date_and_category_only() {
        let errs = errors_of(physical_nexus_update(&json!({"end_date": "2026-01-01"})));
        assert_eq!(errs.len(), 2);
        expect(&errs, json!(["body", "start_date"]), "missing", Value::Null);
        expect(&errs, json!(["body", "category"]), "missing", Value::Null);
        // Country and state are not update fields: sent anyway, they are ignored.
        let body = with(update(), "country_code", json!("not checked"));
        assert!(physical_nexus_update(&body).is_ok());
    }

    #[test]
    fn update_reports_every_error_together() {
        let body = json!({"start_date": "2026-02-30", "end_date": "2020-01-01",
                          "category": "NOPE", "city": 3});
        let errs = errors_of(physical_nexus_update(&body));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "start_date"]),
            "date_parsing",
            json!("2026-02-30"),
        );
        expect(&errs, json!(["body", "category"]), "enum", json!("NOPE"));
        expect(&errs, json!(["body", "city"]), "string_type", json!(3));
    }

    #[test]
    fn update_end_before_start() {
        let body = with(update(), "end_date", json!("2024-12-31"));
        let errs = errors_of(physical_nexus_update(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "end_date"]),
            "value_error",
            json!("2024-12-31"),
        );
    }

    #[test]
    fn nexus_met_by_either_route_without_a_registration_is_exposed() {
        use NexusStatus as N;
        for (current, met, now) in [
            (N::NotExposed, true, N::Exposed),
            (N::Approaching, true, N::Exposed),
            (N::Exposed, true, N::Exposed),
            (N::Exposed, false, N::NotExposed),
            (N::Approaching, false, N::Approaching),
            (N::NotExposed, false, N::NotExposed),
            (N::Registered, true, N::Registered),
            (N::Registered, false, N::Registered),
            (N::PendingRegistration, true, N::PendingRegistration),
            (N::OssRegistered, true, N::OssRegistered),
        ] {
            assert_eq!(nexus_status(Some(&current), met), now, "{current} {met}");
        }
        assert_eq!(nexus_status(None, true), N::Exposed);
        assert_eq!(NexusRoute::of(true, true), Some(NexusRoute::Both));
        assert_eq!(NexusRoute::of(false, true), Some(NexusRoute::Physical));
        assert_eq!(NexusRoute::of(true, false), Some(NexusRoute::Economic));
        assert_eq!(NexusRoute::of(false, false), None);
    }

    #[test]
    fn a_physical_presence_counts_while_current() {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        let mut record: PhysicalNexus = serde_json::from_value(json!({
            "id": "phys_1", "country_code": "US", "state_code": "TN",
            "start_date": "2025-03-01", "end_date": null, "category": "INVENTORY",
            "external_id": null, "source": "USER", "street_1": null, "street_2": null,
            "city": null, "postal_code": null
        }))
        .unwrap();
        let since = |r: &PhysicalNexus, today| {
            physical_nexus_since(std::slice::from_ref(r), "US", "TN", today)
        };
        assert_eq!(
            since(&record, d(11, 15)),
            NaiveDate::from_ymd_opt(2025, 3, 1)
        );
        assert_eq!(
            physical_nexus_since(std::slice::from_ref(&record), "US", "VA", d(11, 15)),
            None
        );
        record.end_date = Some(d(11, 15));
        assert!(since(&record, d(11, 15)).is_some(), "its last day counts");
        assert_eq!(since(&record, d(11, 16)), None, "ended");
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&create(), physical_nexus_create);
        sweep(&update(), physical_nexus_update);
    }
}
