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

/// Economic nexus in one jurisdiction (GET /v1/nexus).
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
    /// Sales amount above which economic nexus is met.
    pub threshold_sales: Option<Decimal>,
    /// Transaction count above which economic nexus is met (0: no count threshold).
    pub threshold_transactions: Option<i64>,
    pub sales_or_transactions: Option<String>,
    pub trigger: Option<String>,
    pub transactions_amount: Option<Decimal>,
    pub transaction_count: Option<i64>,
    pub previous_transactions_amount: Option<Decimal>,
    pub previous_transaction_count: Option<i64>,
    pub economic_nexus_met: Option<bool>,
    pub economic_nexus_met_date: Option<NaiveDate>,
    pub physical_nexus_met: Option<bool>,
    pub physical_nexus_met_date: Option<NaiveDate>,
    pub collected_tax_nexus_met: Option<bool>,
    pub nexus_met: Option<bool>,
    pub nexus_met_date: Option<NaiveDate>,
    pub start_date: Option<NaiveDate>,
    pub period_model: Option<String>,
    pub period_start_date: Option<NaiveDate>,
    pub period_end_date: Option<NaiveDate>,
    pub tax_liability: Option<Decimal>,
    pub calculated_tax_liability: Option<Decimal>,
    pub imported_tax_liability: Option<Decimal>,
    pub currency: Option<String>,
    pub vda_eligible: Option<bool>,
    pub created_at: Option<Timestamp>,
    pub updated_at: Option<Timestamp>,
    pub organization_id: Option<String>,
}
