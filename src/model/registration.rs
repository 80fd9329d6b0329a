//! Registrations, their jurisdictions, OSS countries, jurisdiction-specific forms and deregistration.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Timestamp;

open_enum! {
    /// Status of a registration.
    pub enum RegistrationStatus {
        Registered = "REGISTERED",
        Processing = "PROCESSING",
        Unregistered = "UNREGISTERED",
        Deregistering = "DEREGISTERING",
        Deregistered = "DEREGISTERED",
        Cancelled = "CANCELLED",
        Validating = "VALIDATING",
        AwaitingClarification = "AWAITING_CLARIFICATION",
        SelfManaged = "SELF_MANAGED",
    }
}

impl RegistrationStatus {
    /// Whether a deregistration can still be requested: not when one is under way or done, nor
    /// for a cancelled registration.
    pub fn can_deregister(&self) -> bool {
        !matches!(
            self,
            Self::Deregistering | Self::Deregistered | Self::Cancelled
        )
    }
}

open_enum! {
    /// How often returns are filed.
    pub enum FilingFrequency {
        Unknown = "UNKNOWN",
        Monthly = "MONTHLY",
        Quarterly = "QUARTERLY",
        SemiAnnually = "SEMI_ANNUALLY",
        Annually = "ANNUALLY",
        AnnualFiscalYear = "ANNUAL_FISCAL_YEAR",
        SemiMonthly = "SEMI_MONTHLY",
        BiMonthly = "BI_MONTHLY",
        FourMonthly = "FOUR_MONTHLY",
        QuarterlyPrepayment = "QUARTERLY_PREPAYMENT",
    }
}

impl FilingFrequency {
    /// The length of one return's period in months (a semi-monthly return covers half of
    /// one); `None` when no returns are scheduled or the frequency is unknown here.
    pub fn months(&self) -> Option<u32> {
        match self {
            Self::Monthly | Self::SemiMonthly => Some(1),
            Self::BiMonthly => Some(2),
            Self::Quarterly | Self::QuarterlyPrepayment => Some(3),
            Self::FourMonthly => Some(4),
            Self::SemiAnnually => Some(6),
            Self::Annually | Self::AnnualFiscalYear => Some(12),
            Self::Unknown | Self::Other(_) => None,
        }
    }
}

open_enum! {
    pub enum RegistrationType { EuOss = "EU_OSS", Other_ = "OTHER" }
}

open_enum! {
    pub enum RegistrationsRegime { Standard = "STANDARD", Simplified = "SIMPLIFIED" }
}

open_enum! {
    pub enum ChangeRegimeStatus {
        Requested = "REQUESTED",
        Approved = "APPROVED",
        Done = "DONE",
        Acknowledged = "ACKNOWLEDGED",
    }
}

open_enum! {
    pub enum OssType { Union = "UNION", NonUnion = "NON_UNION", Ioss = "IOSS" }
}

open_enum! {
    /// Tax type of a registration (`RETAIL_DELIVERY_FEE` appears in jurisdiction-field answers).
    pub enum TaxType {
        SalesTax = "SALES_TAX",
        UseTax = "USE_TAX",
        SalesAndUseTax = "SALES_AND_USE_TAX",
        RetailDeliveryFee = "RETAIL_DELIVERY_FEE",
    }
}

open_enum! {
    pub enum RegistrationCategory { Regular = "REGULAR", Imported = "IMPORTED", Deregistration = "DEREGISTRATION" }
}

open_enum! {
    pub enum OssCountryStatus { Active = "ACTIVE", Removed = "REMOVED" }
}

open_enum! {
    /// Why a registration is being closed.
    pub enum DeregistrationReason {
        FullBusinessClosure = "FULL_BUSINESS_CLOSURE",
        ClosingNexusInState = "CLOSING_NEXUS_IN_STATE",
    }
}

impl DeregistrationReason {
    /// One line that tells a user what the reason means.
    pub fn explanation(&self) -> &'static str {
        match self {
            Self::FullBusinessClosure => "The business is closing down entirely.",
            Self::ClosingNexusInState => {
                "The business goes on, but no longer has nexus in this state."
            }
            Self::Other(_) => "A reason this version does not know.",
        }
    }
}

/// A tax registration in one jurisdiction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    pub id: String,
    pub status: RegistrationStatus,
    pub country_code: String,
    #[serde(default)]
    pub state_code: String,
    #[serde(default)]
    pub state_name: String,
    pub filing_frequency: FilingFrequency,
    /// Days after the period's end a return is due; absent on some answers.
    #[serde(default)]
    pub filing_days: Option<i64>,
    /// Absent on some answers (the live document's own list example has none).
    #[serde(default)]
    pub registration_type: Option<RegistrationType>,
    #[serde(default)]
    pub filing_website_url: String,
    pub registration_date: Option<NaiveDate>,
    pub registration_email: Option<String>,
    /// A key the jurisdiction assigned to the registration, and to its deregistration.
    pub registration_key: Option<String>,
    pub deregistration_key: Option<String>,
    pub registration_requested: Option<Timestamp>,
    pub registration_completed: Option<Timestamp>,
    pub deregistration_requested: Option<Timestamp>,
    pub deregistration_completed: Option<Timestamp>,
    pub auto_registered: Option<bool>,
    pub registrations_regime: Option<RegistrationsRegime>,
    pub change_regime_status: Option<ChangeRegimeStatus>,
    pub third_party_enabled: Option<bool>,
    pub do_not_file: Option<bool>,
    pub two_factor_enabled: Option<bool>,
    pub marked_collecting: Option<bool>,
    pub marked_collecting_date: Option<String>,
    pub needs_mark_as_collecting: Option<bool>,
    pub initial_filing_frequency: Option<FilingFrequency>,
    pub scheduled_filing_frequency: Option<FilingFrequency>,
    pub filing_frequency_effective_date: Option<NaiveDate>,
    pub period_end_month: Option<u8>,
    pub username: Option<String>,
    pub comment: Option<String>,
    pub create_filings_from: Option<NaiveDate>,
    pub create_back_filing: Option<bool>,
    pub retail_delivery_fee_obligated: Option<bool>,
    pub retail_delivery_fee_effective_from: Option<NaiveDate>,
    pub initial_sync: Option<bool>,
    pub amount_fees: Option<Decimal>,
    pub vda: Option<bool>,
    pub imported: Option<bool>,
    pub sales_tax_id: Option<String>,
    pub ior_number: Option<String>,
    pub ior_date: Option<NaiveDate>,
    pub sst_import: Option<bool>,
    pub oss_type: Option<OssType>,
    pub oss_member_state_of_identification_code: Option<String>,
    pub tax_type: Option<TaxType>,
    pub created_at: Option<Timestamp>,
    pub credits_total_available: Option<Decimal>,
    pub registration_category: Option<RegistrationCategory>,
    pub jurisdiction_specific_fields: Option<Value>,
    /// Whether every portal credential is on file (list items).
    pub has_all_credentials: Option<bool>,
    /// Portal password, masked unless revealed with `?reveal=password_encrypted`.
    pub password_encrypted: Option<String>,
    /// Portal PIN, masked unless revealed with `?reveal=pin_encrypted`.
    pub pin_encrypted: Option<String>,
}

/// The US states whose registration form keeps the business name among its
/// jurisdiction-specific fields; elsewhere the business name on file is the organization's.
const FORM_KEEPS_BUSINESS_NAME: [&str; 3] = ["CA", "ID", "TX"];

impl Registration {
    /// Which of the details the service must have on file before it keeps a registration's
    /// portal credentials are missing, as words: `"business name"`, `"registration type"`,
    /// `"sales tax id"` (the interface's rule 5 of the credentials update, which the sandbox
    /// applies, the credentials form checks before sending, and the count of registrations
    /// missing credentials reads). Each is read from the jurisdiction-specific fields
    /// (`snake_case` or camelCase), else from the record itself (its `sales_tax_id` and
    /// `registration_type`); the business name is asked only where the state's form keeps one
    /// (California, Idaho, Texas). A blank value counts as missing. Empty when all are there.
    pub fn missing_for_credentials(&self) -> Vec<&'static str> {
        let fields = self
            .jurisdiction_specific_fields
            .as_ref()
            .and_then(Value::as_object);
        let in_fields = |snake: &str, camel: &str| {
            fields.is_some_and(|m| {
                [snake, camel].iter().any(|k| match m.get(*k) {
                    Some(Value::String(s)) => !s.trim().is_empty(),
                    Some(Value::Null) | None => false,
                    Some(_) => true,
                })
            })
        };
        let business_name = in_fields("business_name", "businessName")
            || !(self.country_code == "US"
                && FORM_KEEPS_BUSINESS_NAME.contains(&self.state_code.as_str()));
        let registration_type =
            in_fields("registration_type", "registrationType") || self.registration_type.is_some();
        let sales_tax_id = in_fields("sales_tax_id", "salesTaxId")
            || self
                .sales_tax_id
                .as_deref()
                .is_some_and(|id| !id.trim().is_empty());
        [
            (business_name, "business name"),
            (registration_type, "registration type"),
            (sales_tax_id, "sales tax id"),
        ]
        .into_iter()
        .filter(|(on_file, _)| !on_file)
        .map(|(_, words)| words)
        .collect()
    }

    /// Whether the service keeps portal credentials for this registration
    /// ([`missing_for_credentials`](Self::missing_for_credentials) is empty).
    pub fn can_hold_credentials(&self) -> bool {
        self.missing_for_credentials().is_empty()
    }

    /// Missing portal credentials that can be given: the service says some are missing, and
    /// the registration can hold them. The credentials form refuses the others, and the count
    /// of registrations missing credentials leaves them out.
    pub fn misses_credentials(&self) -> bool {
        self.has_all_credentials == Some(false) && self.can_hold_credentials()
    }
}

/// Body of PUT /v1/registrations/{id}: the live document's `RegistrationUpdateAPI`, every field
/// optional (only those sent change), plus the registration's `sales_tax_id` and
/// `jurisdiction_specific_fields` (merged over those on file), which the dashboard's edit form
/// changes. Any other key changes nothing. `encrypted_username`, `is_approaching` and `tax_id`
/// have no field in the registration record: they are read, and kept nowhere.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RegistrationUpdate {
    pub registration_date: Option<NaiveDate>,
    pub registration_email: Option<String>,
    pub registration_key: Option<String>,
    pub deregistration_key: Option<String>,
    pub registration_requested: Option<Timestamp>,
    pub registration_completed: Option<Timestamp>,
    pub deregistration_requested: Option<Timestamp>,
    pub deregistration_completed: Option<Timestamp>,
    pub auto_registered: Option<bool>,
    pub registrations_regime: Option<RegistrationsRegime>,
    pub change_regime_status: Option<ChangeRegimeStatus>,
    pub third_party_enabled: Option<bool>,
    pub do_not_file: Option<bool>,
    pub two_factor_enabled: Option<bool>,
    pub marked_collecting: Option<bool>,
    pub encrypted_username: Option<String>,
    pub username: Option<String>,
    pub filing_frequency: Option<FilingFrequency>,
    pub create_filings_from: Option<NaiveDate>,
    pub is_approaching: Option<bool>,
    pub comment: Option<String>,
    pub vda: Option<bool>,
    pub tax_id: Option<String>,
    pub sales_tax_id: Option<String>,
    pub jurisdiction_specific_fields: Option<serde_json::Map<String, Value>>,
}

impl RegistrationUpdate {
    /// The keys of `RegistrationUpdateAPI`, as the live document lists them.
    pub const LIVE_KEYS: &[&str] = &[
        "registration_date",
        "registration_email",
        "registration_key",
        "deregistration_key",
        "registration_requested",
        "registration_completed",
        "deregistration_requested",
        "deregistration_completed",
        "auto_registered",
        "registrations_regime",
        "change_regime_status",
        "third_party_enabled",
        "do_not_file",
        "two_factor_enabled",
        "marked_collecting",
        "encrypted_username",
        "username",
        "filing_frequency",
        "create_filings_from",
        "is_approaching",
        "comment",
        "vda",
        "tax_id",
    ];
}

/// A distinct country and state pair with registrations (GET /v1/registrations/jurisdictions).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrationJurisdiction {
    pub country_code: String,
    #[serde(default)]
    pub state_code: String,
    #[serde(default)]
    pub state_name: String,
}

/// An EU country covered by a one-stop-shop registration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OssCountry {
    pub id: String,
    pub country_code: String,
    pub effective_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    pub status: OssCountryStatus,
}

/// The registration form of one jurisdiction (GET /v1/registrations/jurisdiction-specific-fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JurisdictionForm {
    pub country_code: String,
    pub state_code: String,
    pub default_form: bool,
    /// A JSON Schema; an empty object when `default_form` is true.
    pub jurisdiction_fields_json_schema: Value,
    #[serde(default)]
    pub metadata: Value,
    #[serde(default)]
    pub tax_types: Vec<TaxType>,
}

/// Body of POST /v1/registrations/{id}/deregister.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeregistrationRequest {
    pub closure_date: NaiveDate,
    pub reason: DeregistrationReason,
    pub final_return_acknowledged: bool,
}

/// A portal credential of a registration that `?reveal=` shows in clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RevealField {
    Password,
    Pin,
}

impl RevealField {
    /// Every field that can be revealed, in the order the detail shows them.
    pub const ALL: [RevealField; 2] = [RevealField::Password, RevealField::Pin];

    /// The field's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            RevealField::Password => "password_encrypted",
            RevealField::Pin => "pin_encrypted",
        }
    }

    /// The field in words.
    pub fn label(self) -> &'static str {
        match self {
            RevealField::Password => "portal password",
            RevealField::Pin => "portal PIN",
        }
    }

    /// The field's value in `registration` (masked unless revealed).
    pub fn value_in(self, registration: &Registration) -> Option<&String> {
        match self {
            RevealField::Password => registration.password_encrypted.as_ref(),
            RevealField::Pin => registration.pin_encrypted.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_registration_without_type_or_filing_days_is_read() {
        let read: Registration = serde_json::from_value(json!({
            "id": "regs_1", "status": "REGISTERED", "country_code": "US",
            "state_code": "WA", "state_name": "Washington", "filing_frequency": "QUARTERLY",
            "registration_key": "RK-1"
        }))
        .expect("read");
        assert_eq!(read.registration_type, None);
        assert_eq!(read.filing_days, None, "absent, not 0");
        assert_eq!(read.filing_frequency, FilingFrequency::Quarterly);
        // What the service must send is still required.
        let without_status = json!({"id": "regs_1", "country_code": "US",
                                    "filing_frequency": "MONTHLY"});
        assert!(serde_json::from_value::<Registration>(without_status).is_err());
    }

    #[test]
    fn credentials_are_missing_only_where_the_service_would_keep_them() {
        let mut r: Registration = serde_json::from_value(serde_json::json!({
            "id": "reg_1", "status": "PROCESSING", "country_code": "US", "state_code": "ID",
            "filing_frequency": "MONTHLY", "has_all_credentials": false,
            "jurisdiction_specific_fields": {"business_name": "Acme", "registration_type": "LLC",
                                             "sales_tax_id": ""}
        }))
        .unwrap();
        assert_eq!(r.missing_for_credentials(), ["sales tax id"]);
        assert!(!r.misses_credentials());
        // On file in the record itself.
        r.sales_tax_id = Some("ID-1".into());
        assert!(r.misses_credentials());
        r.has_all_credentials = Some(true);
        assert!(!r.misses_credentials());
        // Idaho's form keeps the business name; New York's does not ask for it.
        r.jurisdiction_specific_fields = Some(serde_json::json!({"businessName": " "}));
        assert_eq!(
            r.missing_for_credentials(),
            ["business name", "registration type"]
        );
        r.state_code = "NY".into();
        r.registration_type = serde_json::from_value(serde_json::json!("REMOTE_SELLER")).ok();
        assert!(r.registration_type.is_some());
        assert!(r.can_hold_credentials());
        r.jurisdiction_specific_fields = None;
        r.sales_tax_id = None;
        assert_eq!(r.missing_for_credentials(), ["sales tax id"]);
    }

    #[test]
    fn a_registration_type_the_version_does_not_know_is_kept() {
        let read: Registration = serde_json::from_value(json!({
            "id": "regs_2", "status": "REGISTERED", "country_code": "DE",
            "filing_frequency": "MONTHLY", "registration_type": "UK_VAT"
        }))
        .expect("read");
        assert_eq!(
            read.registration_type
                .as_ref()
                .map(RegistrationType::as_str),
            Some("UK_VAT")
        );
    }
}
