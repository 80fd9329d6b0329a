//! Rules on physical nexus records, and how a jurisdiction's nexus status follows from nexus met
//! by either route.

use chrono::{Datelike, Months, NaiveDate};
use rust_decimal::Decimal;
use serde_json::Value;

use super::check::{Check, Checked};
use super::values::check_state_code;
use crate::model::{
    ExemptTreatment, Nexus, NexusStatus, PeriodModel, PhysicalNexus, PhysicalNexusCategory,
    PhysicalNexusCreate, PhysicalNexusUpdate, SalesOrTransactions,
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

/// A jurisdiction's economic nexus rule: its thresholds, which of them create nexus, and what
/// counts toward them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EconomicRule {
    /// Sales amount that creates nexus; `None` or zero when sales are not counted.
    pub threshold_sales: Option<Decimal>,
    /// Transaction count that creates nexus; `None` or zero when transactions are not counted.
    pub threshold_transactions: Option<i64>,
    pub sales_or_transactions: SalesOrTransactions,
    /// Whether marketplace sales count toward the thresholds.
    pub marketplace_included: bool,
    pub exempt_treatment: ExemptTreatment,
}

/// Every sale in a jurisdiction in a measuring period, with the exempt and the marketplace ones
/// among them (the two are apart: a marketplace sale is not also an exempt one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PeriodActivity {
    pub sales: Decimal,
    pub exempt_sales: Decimal,
    pub marketplace_sales: Decimal,
    pub transactions: i64,
    pub exempt_transactions: i64,
    pub marketplace_transactions: i64,
}

/// Which thresholds a jurisdiction's activity meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EconomicJudgement {
    /// Sales counted toward the threshold.
    pub sales: Decimal,
    /// Transactions counted toward the threshold.
    pub transactions: i64,
    pub by_sales: bool,
    pub by_transactions: bool,
    /// Whether economic nexus is met under the rule.
    pub met: bool,
}

impl EconomicRule {
    /// The sales and transactions that count toward the thresholds: marketplace ones only when
    /// the rule includes them; exempt ones as the rule treats them (with a physical presence for
    /// `INCLUDE_IF_PRESENCE`; a treatment this side does not know counts them).
    pub fn counted(&self, a: &PeriodActivity, physical: bool) -> (Decimal, i64) {
        let (exempt_sales, exempt_count) = match &self.exempt_treatment {
            ExemptTreatment::Excluded => (false, false),
            ExemptTreatment::YesSalesNoTransactions => (true, false),
            ExemptTreatment::IncludeIfPresence => (physical, physical),
            _ => (true, true),
        };
        let mut sales = a.sales;
        let mut count = a.transactions;
        if !self.marketplace_included {
            sales -= a.marketplace_sales;
            count -= a.marketplace_transactions;
        }
        if !exempt_sales {
            sales -= a.exempt_sales;
        }
        if !exempt_count {
            count -= a.exempt_transactions;
        }
        (sales, count)
    }

    /// Judges economic nexus: the counted sales and transactions against the thresholds, either
    /// or both of them as `sales_or_transactions` says (a value this side does not know: either).
    pub fn judge(&self, a: &PeriodActivity, physical: bool) -> EconomicJudgement {
        let (sales, transactions) = self.counted(a, physical);
        let by_sales = self
            .threshold_sales
            .is_some_and(|t| t > Decimal::ZERO && sales >= t);
        let by_transactions = self
            .threshold_transactions
            .is_some_and(|t| t > 0 && transactions >= t);
        let met = match self.sales_or_transactions {
            SalesOrTransactions::Sales => by_sales,
            SalesOrTransactions::Transactions => by_transactions,
            SalesOrTransactions::Both => by_sales && by_transactions,
            SalesOrTransactions::Either | SalesOrTransactions::Other(_) => {
                by_sales || by_transactions
            }
        };
        EconomicJudgement {
            sales,
            transactions,
            by_sales,
            by_transactions,
            met,
        }
    }
}

/// The measuring period a period model looks at on `today`, and the one before it, as
/// `((start, end), (previous start, previous end))`. A model this side does not know reads as the
/// calendar year.
pub fn measuring_periods(
    model: &PeriodModel,
    today: NaiveDate,
) -> ((NaiveDate, NaiveDate), (NaiveDate, NaiveDate)) {
    let ymd = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).expect("a valid date");
    let year = today.year();
    let year_of = |y| (ymd(y, 1, 1), ymd(y, 12, 31));
    // A window of `months` ending the day before `end_exclusive`, and the one before it.
    let window = |end_exclusive: NaiveDate, months: u32| {
        let start = end_exclusive - Months::new(months);
        let previous = start - Months::new(months);
        (
            (start, end_exclusive.pred_opt().expect("a valid date")),
            (previous, start.pred_opt().expect("a valid date")),
        )
    };
    let month_start = ymd(year, today.month(), 1);
    let quarter_start = ymd(year, (today.month0() / 3) * 3 + 1, 1);
    match model {
        PeriodModel::PrecedingYear
        | PeriodModel::PrecedingYearQuarterly
        | PeriodModel::PrecedingYearQuarterlyOffset => (year_of(year - 1), year_of(year - 2)),
        PeriodModel::Previous12Months => window(month_start, 12),
        PeriodModel::Previous4Quarters => window(quarter_start, 12),
        PeriodModel::Previous4QuartersOffset => window(quarter_start - Months::new(3), 12),
        PeriodModel::PrecedingYearFromOctober => {
            let end_year = if today.month() >= 10 { year } else { year - 1 };
            window(ymd(end_year, 10, 1), 12)
        }
        PeriodModel::CurrentOrPrevious | PeriodModel::CalendarYear | PeriodModel::Other(_) => {
            (year_of(year), year_of(year - 1))
        }
    }
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

    fn rule(
        which: SalesOrTransactions,
        marketplace: bool,
        exempt: ExemptTreatment,
    ) -> EconomicRule {
        EconomicRule {
            threshold_sales: Some(Decimal::new(100_000, 0)),
            threshold_transactions: Some(200),
            sales_or_transactions: which,
            marketplace_included: marketplace,
            exempt_treatment: exempt,
        }
    }

    /// $90,000 in 210 transactions, of them $15,000 in 20 through a marketplace and $5,000 in 15
    /// exempt.
    fn activity() -> PeriodActivity {
        PeriodActivity {
            sales: Decimal::new(90_000, 0),
            exempt_sales: Decimal::new(5_000, 0),
            marketplace_sales: Decimal::new(15_000, 0),
            transactions: 210,
            exempt_transactions: 15,
            marketplace_transactions: 20,
        }
    }

    #[test]
    fn economic_nexus_is_judged_by_either_or_both_thresholds() {
        use SalesOrTransactions as W;
        let a = activity();
        let judge = |which| rule(which, true, ExemptTreatment::Included).judge(&a, false);
        assert!(judge(W::Either).met, "210 transactions are enough");
        assert!(judge(W::Transactions).met);
        assert!(!judge(W::Sales).met, "$90,000 is under $100,000");
        assert!(!judge(W::Both).met, "both are needed");
        assert!(
            judge(W::Other("NEW".into())).met,
            "an unknown rule reads as either"
        );
        let big = PeriodActivity {
            sales: Decimal::new(120_000, 0),
            ..a
        };
        let both = rule(W::Both, true, ExemptTreatment::Included).judge(&big, false);
        assert!(both.met && both.by_sales && both.by_transactions);
    }

    #[test]
    fn marketplace_and_exempt_sales_count_only_as_the_rule_says() {
        use ExemptTreatment as E;
        use SalesOrTransactions as W;
        let a = activity();
        let counted =
            |market, exempt, physical| rule(W::Either, market, exempt).counted(&a, physical);
        assert_eq!(
            counted(true, E::Included, false),
            (Decimal::new(90_000, 0), 210)
        );
        assert_eq!(
            counted(false, E::Included, false),
            (Decimal::new(75_000, 0), 190)
        );
        assert_eq!(
            counted(true, E::Excluded, false),
            (Decimal::new(85_000, 0), 195)
        );
        assert_eq!(
            counted(true, E::YesSalesNoTransactions, false),
            (Decimal::new(90_000, 0), 195)
        );
        assert_eq!(counted(true, E::IncludeIfPresence, false).1, 195);
        assert_eq!(counted(true, E::IncludeIfPresence, true).1, 210);
        // Without the marketplace sales the 200 transactions are no longer reached.
        let j = rule(W::Either, false, E::Included).judge(&a, false);
        assert!(!j.met && j.transactions == 190);
    }

    #[test]
    fn measuring_periods_follow_the_period_model() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let today = d(2026, 11, 15);
        let cases = [
            (
                PeriodModel::CurrentOrPrevious,
                (d(2026, 1, 1), d(2026, 12, 31)),
                (d(2025, 1, 1), d(2025, 12, 31)),
            ),
            (
                PeriodModel::PrecedingYear,
                (d(2025, 1, 1), d(2025, 12, 31)),
                (d(2024, 1, 1), d(2024, 12, 31)),
            ),
            (
                PeriodModel::Previous12Months,
                (d(2025, 11, 1), d(2026, 10, 31)),
                (d(2024, 11, 1), d(2025, 10, 31)),
            ),
            (
                PeriodModel::Previous4Quarters,
                (d(2025, 10, 1), d(2026, 9, 30)),
                (d(2024, 10, 1), d(2025, 9, 30)),
            ),
            (
                PeriodModel::PrecedingYearFromOctober,
                (d(2025, 10, 1), d(2026, 9, 30)),
                (d(2024, 10, 1), d(2025, 9, 30)),
            ),
            (
                PeriodModel::Other("X".into()),
                (d(2026, 1, 1), d(2026, 12, 31)),
                (d(2025, 1, 1), d(2025, 12, 31)),
            ),
        ];
        for (model, current, previous) in cases {
            assert_eq!(
                measuring_periods(&model, today),
                (current, previous),
                "{model}"
            );
        }
        assert_eq!(
            measuring_periods(&PeriodModel::PrecedingYearFromOctober, d(2026, 3, 1)).0,
            (d(2024, 10, 1), d(2025, 9, 30))
        );
    }
}
