//! Physical nexus records, their category descriptors, and economic nexus rows.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Timestamp;

open_enum! {
    /// What kind of physical presence creates the nexus.
    pub enum PhysicalNexusCategory {
        PhysicalBusinessLocation = "PHYSICAL_BUSINESS_LOCATION",
        TelecommutingOrRemoteEmployee = "TELECOMMUTING_OR_REMOTE_EMPLOYEE",
        WarrantyAndRepairServices = "WARRANTY_AND_REPAIR_SERVICES",
        CatalogueDistributionOrAdvertisingMaterial = "CATALOGUE_DISTRIBUTION_OR_ADVERTISING_MATERIAL",
        DeliveryByCommonCarrier = "DELIVERY_BY_COMMON_CARRIER",
        DeliveryByOwnVehicles = "DELIVERY_BY_OWN_VEHICLES",
        InStateSalesPerson = "IN_STATE_SALES_PERSON",
        IndependentContractorOrThirdPartySalesPerson = "INDEPENDENT_CONTRACTOR_OR_THIRD_PARTY_SALES_PERSON",
        WarehouseAndInventoryPresence = "WAREHOUSE_AND_INVENTORY_PRESENCE",
        EmployeesAgentsContractors = "EMPLOYEES_AGENTS_CONTRACTORS",
        OwnLeaseAProperty = "OWN_LEASE_A_PROPERTY",
        Inventory = "INVENTORY",
        DeliveryUsingCompanyVehicles = "DELIVERY_USING_COMPANY_VEHICLES",
        OwnBusinessInfrastructureAndEquipment = "OWN_BUSINESS_INFRASTRUCTURE_AND_EQUIPMENT",
        OnSiteInstallationMaintenanceServices = "ON_SITE_INSTALLATION_MAINTENANCE_SERVICES",
        FrequentParticipationInTradeShowsEvents = "FREQUENT_PARTICIPATION_IN_TRADE_SHOWS_EVENTS",
        ManufactureOrProductionInCanada = "MANUFACTURE_OR_PRODUCTION_IN_CANADA",
        PerformingServicesInTheJurisdiction = "PERFORMING_SERVICES_IN_THE_JURISDICTION",
        ManufacturingFacilities = "MANUFACTURING_FACILITIES",
        ServersDataCenters = "SERVERS_DATA_CENTERS",
        TradeShowPresence = "TRADE_SHOW_PRESENCE",
        TradeShowPresenceWithoutSales = "TRADE_SHOW_PRESENCE_WITHOUT_SALES",
        DigitalInfrastructureLocalized = "DIGITAL_INFRASTRUCTURE_LOCALIZED",
        PermanentEstablishment = "PERMANENT_ESTABLISHMENT",
        EnterContractsWithLocals = "ENTER_CONTRACTS_WITH_LOCALS",
        ConsignmentStockArrangements = "CONSIGNMENT_STOCK_ARRANGEMENTS",
    }
}

impl PhysicalNexusCategory {
    /// The category's one label, in the list, the detail, the form and every message:
    /// `Warehouse and inventory presence` (a category taxdash does not know reads the same way).
    pub fn label(&self) -> String {
        super::format::code_words(self.as_str())
    }
}

open_enum! {
    /// Where a physical nexus record came from (`USER`, or an integration partner).
    pub enum PhysicalNexusSource { User = "USER" }
}

/// A physical presence in a jurisdiction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhysicalNexus {
    pub id: String,
    pub country_code: String,
    pub state_code: String,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    pub category: PhysicalNexusCategory,
    pub external_id: Option<String>,
    pub source: Option<PhysicalNexusSource>,
    pub street_1: Option<String>,
    pub street_2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
}

/// Body of POST /`v1/nexus/physical_nexus`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhysicalNexusCreate {
    pub country_code: String,
    pub state_code: String,
    pub start_date: NaiveDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<NaiveDate>,
    pub category: PhysicalNexusCategory,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_1: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_2: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
}

/// Body of PUT /`v1/nexus/physical_nexus/{id}`: every field is replaced (country and state cannot
/// change).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhysicalNexusUpdate {
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    pub category: PhysicalNexusCategory,
    pub street_1: Option<String>,
    pub street_2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
}

/// A category as offered for one jurisdiction (GET /`v1/nexus/physical_nexus/categories`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhysicalNexusCategoryInfo {
    pub name: PhysicalNexusCategory,
    pub title: String,
    pub description: String,
    pub example: String,
    pub is_category_assigned: bool,
}

open_enum! {
    /// Economic nexus status of a jurisdiction.
    pub enum NexusStatus {
        Approaching = "APPROACHING",
        NotExposed = "NOT_EXPOSED",
        PendingRegistration = "PENDING_REGISTRATION",
        Exposed = "EXPOSED",
        Registered = "REGISTERED",
        OssPendingRegistration = "OSS_PENDING_REGISTRATION",
        OssRegistered = "OSS_REGISTERED",
    }
}

impl NexusStatus {
    /// The statuses GET /v1/nexus lists when `status__in` is not given.
    pub const DEFAULT_FILTER: &'static [NexusStatus] = &[
        Self::Approaching,
        Self::NotExposed,
        Self::PendingRegistration,
        Self::Exposed,
        Self::Registered,
    ];
}

open_enum! {
    pub enum NexusType {
        CanadaFederal = "CANADA_FEDERAL",
        EuAggregator = "EU_AGGREGATOR",
        State = "STATE",
        EuMemberState = "EU_MEMBER_STATE",
    }
}

open_enum! {
    /// Over which period a jurisdiction measures sales and transactions for economic nexus.
    pub enum PeriodModel {
        /// The current or the previous calendar year.
        CurrentOrPrevious = "CURRENT_OR_PREVIOUS",
        /// The twelve months ending on September 30 of the previous year.
        PrecedingYearFromOctober = "PRECEDING_YEAR_FROM_OCTOBER",
        /// The current calendar year.
        CalendarYear = "CALENDAR_YEAR",
        /// The twelve months before the current one.
        Previous12Months = "PREVIOUS_12_MONTHS",
        /// The four completed quarters before the current one.
        Previous4Quarters = "PREVIOUS_4_QUARTERS",
        /// Four completed quarters, ending one quarter before the current one.
        Previous4QuartersOffset = "PREVIOUS_4_QUARTERS_OFFSET",
        /// The previous calendar year.
        PrecedingYear = "PRECEDING_YEAR",
        /// The previous calendar year, checked quarter by quarter.
        PrecedingYearQuarterly = "PRECEDING_YEAR_QUARTERLY",
        /// The previous calendar year, checked quarter by quarter one quarter late.
        PrecedingYearQuarterlyOffset = "PRECEDING_YEAR_QUARTERLY_OFFSET",
    }
}

impl PeriodModel {
    /// The period in words: "current or previous calendar year".
    pub fn in_words(&self) -> String {
        match self {
            Self::CurrentOrPrevious => "current or previous calendar year".into(),
            Self::PrecedingYearFromOctober => "twelve months ending September 30".into(),
            Self::CalendarYear => "current calendar year".into(),
            Self::Previous12Months => "previous twelve months".into(),
            Self::Previous4Quarters => "previous four quarters".into(),
            Self::Previous4QuartersOffset => "four quarters ending a quarter ago".into(),
            Self::PrecedingYear => "previous calendar year".into(),
            Self::PrecedingYearQuarterly => "previous calendar year, checked quarterly".into(),
            Self::PrecedingYearQuarterlyOffset => {
                "previous calendar year, checked a quarter late".into()
            }
            Self::Other(s) => format!("period {s}"),
        }
    }
}

open_enum! {
    /// Which thresholds create economic nexus: either one, sales only, both, or transactions only.
    pub enum SalesOrTransactions {
        Either = "EITHER",
        Sales = "SALES",
        Both = "BOTH",
        Transactions = "TRANSACTIONS",
    }
}

open_enum! {
    /// Whether exempt sales count toward the economic nexus thresholds.
    pub enum ExemptTreatment {
        Included = "INCLUDED",
        Excluded = "EXCLUDED",
        Depends = "DEPENDS",
        IncludeIfPresence = "INCLUDE_IF_PRESENCE",
        /// Exempt sales count toward the sales threshold but not toward the transaction count.
        YesSalesNoTransactions = "YES_SALES_NO_TRANSACTIONS",
    }
}

impl ExemptTreatment {
    /// The treatment in words: "exempt sales included".
    pub fn in_words(&self) -> String {
        match self {
            Self::Included => "exempt sales included".into(),
            Self::Excluded => "exempt sales excluded".into(),
            Self::Depends => "exempt sales included depending on the exemption".into(),
            Self::IncludeIfPresence => "exempt sales included with a physical presence".into(),
            Self::YesSalesNoTransactions => {
                "exempt sales counted in sales, not in transactions".into()
            }
            Self::Other(s) => format!("exempt sales: {s}"),
        }
    }
}

/// Whole-unit amounts (`threshold_sales`), sent as a JSON integer and read from an integer, a
/// decimal number or a decimal string.
pub mod whole_amount {
    use rust_decimal::Decimal;
    use rust_decimal::prelude::ToPrimitive;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            None => s.serialize_none(),
            Some(d) if d.fract().is_zero() => match d.to_i64() {
                Some(whole) => s.serialize_i64(whole),
                None => s.serialize_str(&d.to_string()),
            },
            Some(d) => s.serialize_str(&d.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        // rust_decimal's own reader takes a string, an integer or a float.
        Option::<Decimal>::deserialize(d)
    }
}

/// Economic nexus in one jurisdiction (GET /v1/nexus).
///
/// Every field but the id and the jurisdiction is optional on read, so that an answer without
/// one still loads; the sandbox sends every field the live service requires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Nexus {
    pub id: String,
    pub country_code: String,
    #[serde(default)]
    pub state_code: String,
    #[serde(default)]
    pub state_name: String,
    pub status: Option<NexusStatus>,
    pub nexus_type: Option<NexusType>,
    /// Whether exempt sales count toward the thresholds.
    #[serde(default)]
    pub treatment_of_exempt_transactions: Option<ExemptTreatment>,
    /// Sales amount above which economic nexus is met, in whole currency units.
    #[serde(default, with = "whole_amount")]
    pub threshold_sales: Option<Decimal>,
    /// Transaction count above which economic nexus is met (0: no count threshold).
    pub threshold_transactions: Option<i64>,
    /// Which thresholds create nexus.
    pub sales_or_transactions: Option<SalesOrTransactions>,
    /// What met (or would meet) the thresholds, as the service words it.
    pub trigger: Option<String>,
    /// Sales counted toward the threshold in the period.
    pub transactions_amount: Option<Decimal>,
    /// Transactions counted toward the threshold in the period.
    pub transaction_count: Option<i64>,
    pub previous_transactions_amount: Option<Decimal>,
    pub previous_transaction_count: Option<i64>,
    /// Every transaction in the jurisdiction in the period.
    #[serde(default)]
    pub total_transactions: Option<i64>,
    /// The transactions that count toward the thresholds.
    #[serde(default)]
    pub total_transactions_included: Option<i64>,
    /// The exempt transactions.
    #[serde(default)]
    pub total_transactions_exempted: Option<i64>,
    /// The marketplace transactions (tax remitted by the marketplace).
    #[serde(default)]
    pub total_transactions_marketplace: Option<i64>,
    /// Whether marketplace sales count toward the thresholds.
    #[serde(default)]
    pub marketplace_included: Option<bool>,
    pub economic_nexus_met: Option<bool>,
    pub economic_nexus_met_date: Option<NaiveDate>,
    pub physical_nexus_met: Option<bool>,
    pub physical_nexus_met_date: Option<NaiveDate>,
    pub collected_tax_nexus_met: Option<bool>,
    pub nexus_met: Option<bool>,
    pub nexus_met_date: Option<NaiveDate>,
    pub start_date: Option<NaiveDate>,
    pub period_model: Option<PeriodModel>,
    pub period_start_date: Option<NaiveDate>,
    pub period_end_date: Option<NaiveDate>,
    #[serde(default)]
    pub previous_period_start_date: Option<NaiveDate>,
    #[serde(default)]
    pub previous_period_end_date: Option<NaiveDate>,
    pub tax_liability: Option<Decimal>,
    pub calculated_tax_liability: Option<Decimal>,
    pub imported_tax_liability: Option<Decimal>,
    pub currency: Option<String>,
    /// Whether a voluntary disclosure agreement is open to this jurisdiction (the live name).
    #[serde(default)]
    pub is_vda_eligible: Option<bool>,
    /// The older name of the same flag, still in the live document; read when `is_vda_eligible`
    /// is absent.
    #[serde(default)]
    pub vda_eligible: Option<bool>,
    /// The service's own forecast: months from today until the threshold is met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_month_from_today: Option<i64>,
    /// How sure the service is of that forecast.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence_level: Option<Decimal>,
    pub created_at: Option<Timestamp>,
    pub updated_at: Option<Timestamp>,
    pub organization_id: Option<String>,
    /// The jurisdiction's sales of the trailing 90 days as taxdash read them from the
    /// transactions, for its own forecast; never sent or received. `None` until read, the
    /// error when reading them failed.
    #[serde(skip)]
    pub pace: Option<Result<PeriodActivity, String>>,
    /// Why the row's jurisdiction stands as it does, in words, when the row was read for a
    /// standing (`rules::attention::Jurisdiction::reason`); never sent or received.
    #[serde(skip)]
    pub flagged: Option<String>,
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

impl Nexus {
    /// Whether a voluntary disclosure agreement is open here: `is_vda_eligible`, or the older
    /// `vda_eligible` when only that one was sent.
    pub fn vda_eligible(&self) -> Option<bool> {
        self.is_vda_eligible.or(self.vda_eligible)
    }
}

/// What matters about one jurisdiction, most urgent first (the order of the variants is the
/// order of urgency).
///
/// A jurisdiction is *registered* when it has a registration whose status is `REGISTERED`,
/// `PROCESSING`, `VALIDATING` or `SELF_MANAGED` (see `rules::attention::is_active`); what the economic nexus
/// record says of registration does not count, so the registrations are checked against it.
///
/// - `ExposedUnregistered`: not registered, and nexus is met — the economic status reads
///   `EXPOSED`, `PENDING_REGISTRATION` or `OSS_PENDING_REGISTRATION` (see
///   `rules::nexus::effective_nexus_status`: a row whose nexus is met by either route reads `EXPOSED`), or
///   it reads `REGISTERED`/`OSS_REGISTERED` with nexus met while no registration is active, or a
///   physical presence is current today.
/// - `Approaching`: not registered, and the economic status is `APPROACHING`.
/// - `PhysicalOnly`: not registered, neither exposed nor approaching, and a physical presence is
///   on record that is not current (it starts later or has ended): a presence to watch, a
///   registration due when it starts or a look-back when it has ended.
/// - `Registered`: registered, whatever the nexus.
/// - `Nothing`: none of the above, a status this side does not know included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Standing {
    ExposedUnregistered,
    Approaching,
    PhysicalOnly,
    Registered,
    Nothing,
}

impl Standing {
    /// Every standing, most urgent first.
    pub const ALL: [Standing; 5] = [
        Self::ExposedUnregistered,
        Self::Approaching,
        Self::PhysicalOnly,
        Self::Registered,
        Self::Nothing,
    ];

    /// The standing in words: "exposed, not registered".
    pub fn in_words(self) -> &'static str {
        match self {
            Self::ExposedUnregistered => "exposed, not registered",
            Self::Approaching => "approaching",
            Self::PhysicalOnly => "physical nexus, not current",
            Self::Registered => "registered",
            Self::Nothing => "nothing",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// An economic nexus record with every field the live service requires, as it answers one.
    fn live() -> Value {
        serde_json::from_str(
            r#"{
            "id": "nexus_8Kq2", "country_code": "US", "state_code": "NY",
            "state_name": "New York", "status": "APPROACHING", "nexus_type": "STATE",
            "treatment_of_exempt_transactions": "INCLUDED", "trigger": "SALES",
            "sales_or_transactions": "BOTH", "threshold_sales": 500000,
            "threshold_transactions": 100, "start_date": "2026-03-01",
            "transactions_amount": "412000.15", "transaction_count": 88,
            "previous_transactions_amount": "0.00", "previous_transaction_count": 0,
            "total_transactions": 131, "total_transactions_included": 88,
            "total_transactions_exempted": 9, "total_transactions_marketplace": 34,
            "marketplace_included": false, "economic_nexus_met": false,
            "economic_nexus_met_date": null, "physical_nexus_met": false,
            "physical_nexus_met_date": null, "collected_tax_nexus_met": false,
            "nexus_met": false, "nexus_met_date": null, "period_model": "PREVIOUS_4_QUARTERS",
            "period_start_date": "2025-10-01", "period_end_date": "2026-09-30",
            "previous_period_start_date": "2024-10-01", "previous_period_end_date": "2025-09-30",
            "tax_liability": "0.00", "calculated_tax_liability": "0.00",
            "imported_tax_liability": "0.00", "currency": "USD", "is_vda_eligible": true,
            "vda_eligible": null, "created_at": "2024-01-02T10:00:00Z",
            "updated_at": "2026-11-14T08:30:00Z", "organization_id": "orgn_1"
        }"#,
        )
        .unwrap()
    }

    #[test]
    fn a_live_record_reads_and_writes_back_unchanged() {
        let n: Nexus = serde_json::from_value(live()).unwrap();
        assert_eq!(n.sales_or_transactions, Some(SalesOrTransactions::Both));
        assert_eq!(n.period_model, Some(PeriodModel::Previous4Quarters));
        assert_eq!(
            n.treatment_of_exempt_transactions,
            Some(ExemptTreatment::Included)
        );
        assert_eq!(n.threshold_sales, Some(Decimal::new(500_000, 0)));
        assert_eq!(n.total_transactions_marketplace, Some(34));
        assert_eq!(n.marketplace_included, Some(false));
        assert_eq!(n.vda_eligible(), Some(true));
        assert_eq!(
            n.previous_period_end_date,
            NaiveDate::from_ymd_opt(2025, 9, 30)
        );
        let mut back = serde_json::to_value(&n).unwrap();
        // Timestamps are written in their own canonical form; the rest comes back as sent.
        for key in ["created_at", "updated_at"] {
            back[key] = live()[key].clone();
        }
        assert_eq!(back, live());
        assert!(
            back["threshold_sales"].is_i64(),
            "an integer, as the live service"
        );
    }

    #[test]
    fn a_sales_threshold_reads_from_an_integer_a_number_or_a_decimal_string() {
        for (sent, read) in [
            (json!(100_000), Decimal::new(100_000, 0)),
            (json!("100000.00"), Decimal::new(10_000_000, 2)),
            (json!(100_000.5), Decimal::new(1_000_005, 1)),
        ] {
            let mut body = live();
            body["threshold_sales"] = sent;
            let n: Nexus = serde_json::from_value(body).unwrap();
            assert_eq!(n.threshold_sales, Some(read));
        }
        // A whole amount read from a string is still sent as an integer; a fraction as text.
        let mut body = live();
        body["threshold_sales"] = json!("100000.00");
        let n: Nexus = serde_json::from_value(body).unwrap();
        assert_eq!(
            serde_json::to_value(&n).unwrap()["threshold_sales"],
            100_000
        );
        body = live();
        body["threshold_sales"] = json!("2500.50");
        let n: Nexus = serde_json::from_value(body).unwrap();
        assert_eq!(
            serde_json::to_value(&n).unwrap()["threshold_sales"],
            "2500.50"
        );
    }

    #[test]
    fn unknown_rule_values_are_kept_and_missing_fields_do_not_fail_the_record() {
        let mut body = live();
        body["period_model"] = json!("ROLLING_18_MONTHS");
        body["sales_or_transactions"] = json!("SALES_OR_TRANSACTIONS");
        body["treatment_of_exempt_transactions"] = json!("HALF");
        let n: Nexus = serde_json::from_value(body).unwrap();
        assert_eq!(
            n.period_model,
            Some(PeriodModel::Other("ROLLING_18_MONTHS".into()))
        );
        assert_eq!(
            n.sales_or_transactions
                .as_ref()
                .map(SalesOrTransactions::as_str),
            Some("SALES_OR_TRANSACTIONS")
        );
        assert_eq!(
            n.treatment_of_exempt_transactions
                .as_ref()
                .map(ExemptTreatment::in_words)
                .as_deref(),
            Some("exempt sales: HALF")
        );

        // An older answer: none of the rule fields, the flag under its older name.
        let mut body = live();
        let map = body.as_object_mut().unwrap();
        for key in [
            "treatment_of_exempt_transactions",
            "threshold_sales",
            "total_transactions",
            "total_transactions_included",
            "total_transactions_exempted",
            "total_transactions_marketplace",
            "marketplace_included",
            "previous_period_start_date",
            "previous_period_end_date",
            "is_vda_eligible",
        ] {
            map.remove(key);
        }
        map.insert("vda_eligible".into(), json!(false));
        let n: Nexus = serde_json::from_value(body).unwrap();
        assert_eq!(n.threshold_sales, None);
        assert_eq!(n.total_transactions, None);
        assert_eq!(n.vda_eligible(), Some(false));
    }
}
