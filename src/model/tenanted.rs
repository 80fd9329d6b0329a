//! What only the Tenanted API has: its dated releases, its error envelope, and the records of the
//! endpoints v1 lacks (organizations, portal credentials, exposure history, certificate imports,
//! back-filing options, bulk filing actions).
//!
//! These types are read after the client has turned the answer's keys to `snake_case` (see
//! [`casing`](super::casing)); where the two releases differ they accept both shapes (a renamed
//! field by alias, an empty string read as absent, statuses in either case).

use std::fmt;

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::Timestamp;

/// A release of the Tenanted API, chosen with the `Api-Version` header (`YYYY-MM-DD`).
///
/// A request runs with every change dated on or before its release. Without the header the
/// service runs [`ApiVersion::DEFAULT`], which never changes when newer releases ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApiVersion(u32);

impl ApiVersion {
    /// The launch release, and the default when `Api-Version` is absent.
    pub const DEFAULT: ApiVersion = ApiVersion(20260721);
    /// From this release on, deregistration requires its body.
    pub const DEREGISTER_BODY_REQUIRED: ApiVersion = ApiVersion(20260922);
    /// From this release on, registration credentials carry the portal access codes.
    pub const PORTAL_CODES: ApiVersion = ApiVersion(20261005);
    /// The latest release: renamed fields, uppercase statuses, the exemption-type enum.
    pub const LATEST: ApiVersion = ApiVersion(20261006);
    /// Every dated change, oldest first.
    pub const RELEASES: [ApiVersion; 4] = [
        Self::DEFAULT,
        Self::DEREGISTER_BODY_REQUIRED,
        Self::PORTAL_CODES,
        Self::LATEST,
    ];

    /// Reads `YYYY-MM-DD`; `None` for anything else or a date before the launch release.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 10 {
            return None;
        }
        let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
        let version = ApiVersion(date.year() as u32 * 10_000 + date.month() * 100 + date.day());
        (version >= Self::DEFAULT).then_some(version)
    }

    /// Whether the release includes the change dated `change`.
    pub fn includes(self, change: ApiVersion) -> bool {
        self >= change
    }

    /// Whether the 2026-10-06 shapes apply (`countryCode`, `stateCode`, nulls, uppercase).
    pub fn is_latest_shape(self) -> bool {
        self.includes(Self::LATEST)
    }
}

impl Default for ApiVersion {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        write!(f, "{:04}-{:02}-{:02}", n / 10_000, n / 100 % 100, n % 100)
    }
}

/// The Tenanted error body: `{code, message, requestId, errors}` (keys as sent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorEnvelope {
    pub code: String,
    pub message: String,
    #[serde(default)]
    pub request_id: Option<String>,
    #[serde(default)]
    pub errors: Vec<EnvelopeFieldError>,
}

/// One field-level detail of an [`ErrorEnvelope`]: `field` is a dotted camelCase path
/// (`jurisdictionSpecificFields.accessCode`), empty for the body as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnvelopeFieldError {
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub message: String,
}

open_enum! {
    /// The `code` values the interface names, for branching; any other is kept.
    pub enum ErrorCode {
        MissingTargetSelector = "missing_target_selector",
        ConflictingTargetSelectors = "conflicting_target_selectors",
        MultipleCredentials = "multiple_credentials",
        Unauthorized = "unauthorized",
        Forbidden = "forbidden",
        NotFound = "not_found",
        MethodNotAllowed = "method_not_allowed",
        EntityResolutionAmbiguous = "entity_resolution_ambiguous",
        ValidationFailed = "validation_failed",
        BadRequest = "bad_request",
        Conflict = "conflict",
        RateLimited = "rate_limited",
        InvalidApiVersion = "invalid_api_version",
    }
}

/// An empty string read as absent (2026-07-21 sends `""` where 2026-10-06 sends null).
pub fn empty_as_none<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value = Option::<String>::deserialize(d)?;
    Ok(value.filter(|s| !s.is_empty()))
}

/// An organization the credential reaches (GET /organizations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Organization {
    pub id: String,
    pub name: String,
    #[serde(default, deserialize_with = "empty_as_none")]
    pub state: Option<String>,
    #[serde(default, deserialize_with = "empty_as_none", alias = "country")]
    pub country_code: Option<String>,
    #[serde(default)]
    pub created_at: Option<Timestamp>,
}

/// Body of PUT /registrations/{id}/credentials (`snake_case` here; the client sends camelCase).
/// A field left `None` is not sent, and keeps its saved value. `Debug` shows which fields are set,
/// never their values.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CredentialsUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jurisdiction_specific_fields: Option<PortalCodes>,
}

/// The portal access codes (from release 2026-10-05): California's CDTFA third-party access
/// security code, Idaho's access code. `Debug` never shows a value.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PortalCodes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cdtfa_third_party_access_security_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_code: Option<String>,
}

/// Answer of PUT /registrations/{id}/credentials: what changed, never the values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CredentialsUpdated {
    pub registration_id: String,
    /// Dotted camelCase names of the fields that changed, as the service sends them.
    #[serde(default)]
    pub updated_fields: Vec<String>,
    #[serde(default)]
    pub has_all_credentials: Option<bool>,
    #[serde(default)]
    pub updated_at: Option<Timestamp>,
}

/// Answer of POST /registrations/{id}/credentials/reveal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RevealedCredentials {
    pub registration_id: String,
    pub fields: RevealedFields,
}

/// The saved credentials in clear. `security_questions` reads both releases' names. `Debug`
/// shows which fields are set, never their values.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RevealedFields {
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default)]
    pub pin: Option<String>,
    #[serde(default)]
    pub security_questions: Vec<SecurityQuestion>,
    #[serde(default)]
    pub cdtfa_third_party_access_security_code: Option<String>,
    #[serde(default)]
    pub access_code: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecurityQuestion {
    pub question: String,
    pub answer: String,
}

/// A secret as `Debug` shows it: whether it is there, never what it is.
fn shown(secret: &Option<String>) -> &'static str {
    if secret.is_some() {
        "Some(****)"
    } else {
        "None"
    }
}

impl fmt::Debug for CredentialsUpdate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CredentialsUpdate")
            .field("username", &self.username)
            .field("password", &format_args!("{}", shown(&self.password)))
            .field("pin", &format_args!("{}", shown(&self.pin)))
            .field(
                "jurisdiction_specific_fields",
                &self.jurisdiction_specific_fields,
            )
            .finish()
    }
}

impl fmt::Debug for PortalCodes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PortalCodes")
            .field(
                "cdtfa_third_party_access_security_code",
                &format_args!("{}", shown(&self.cdtfa_third_party_access_security_code)),
            )
            .field("access_code", &format_args!("{}", shown(&self.access_code)))
            .finish()
    }
}

impl fmt::Debug for RevealedFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RevealedFields")
            .field("username", &self.username)
            .field("password", &format_args!("{}", shown(&self.password)))
            .field("pin", &format_args!("{}", shown(&self.pin)))
            .field(
                "security_questions",
                &format_args!("[{} hidden]", self.security_questions.len()),
            )
            .field(
                "cdtfa_third_party_access_security_code",
                &format_args!("{}", shown(&self.cdtfa_third_party_access_security_code)),
            )
            .field("access_code", &format_args!("{}", shown(&self.access_code)))
            .finish()
    }
}

open_enum! {
    /// What happened to a nexus, as recorded in its exposure history.
    pub enum ExposureEventType {
        PeriodStarted = "PERIOD_STARTED",
        Approaching = "THRESHOLD_APPROACHING",
        ThresholdMet = "THRESHOLD_MET",
        Exposed = "EXPOSED",
        RegistrationStarted = "REGISTRATION_STARTED",
        Registered = "REGISTERED",
    }
}

/// One entry of GET /nexus/{id}/exposure-history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExposureEvent {
    pub id: String,
    pub occurred_at: Timestamp,
    pub event_type: ExposureEventType,
    /// `stateCode` from 2026-10-06 (always present, null for a country-level nexus); `state`
    /// before.
    #[serde(default, alias = "state", deserialize_with = "empty_as_none")]
    pub state_code: Option<String>,
    pub country_code: String,
    /// The nexus status after the event (APPROACHING, EXPOSED, ...).
    #[serde(default)]
    pub status: Option<String>,
    /// Sales counted in the period so far, scale 2.
    #[serde(default)]
    pub sales_amount: Option<Decimal>,
    #[serde(default)]
    pub transaction_count: Option<i64>,
    #[serde(default)]
    pub description: String,
}

open_enum! {
    /// Where a certificate import stands. 2026-07-21 sends these in lowercase; they are read in
    /// either case.
    pub enum CertificateImportStatus {
        Requested = "REQUESTED",
        Pending = "PENDING",
        Uploaded = "UPLOADED",
        Approved = "APPROVED",
    }
}

impl CertificateImportStatus {
    /// Reads a status in either case.
    pub fn parse_any_case(s: &str) -> Self {
        Self::parse(&s.to_ascii_uppercase())
    }
}

fn status_any_case<'de, D: Deserializer<'de>>(d: D) -> Result<CertificateImportStatus, D::Error> {
    let s = String::deserialize(d)?;
    Ok(CertificateImportStatus::parse_any_case(&s))
}

/// A certificate sent in for a customer's missing exemption, awaiting approval
/// (GET /certificate-imports, GET /certificate-imports/{id}, upload results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertificateImport {
    pub id: String,
    #[serde(deserialize_with = "status_any_case")]
    pub status: CertificateImportStatus,
    /// The exemption the import matched or created; `""` (2026-07-21) or null (2026-10-06)
    /// when none.
    #[serde(default, deserialize_with = "empty_as_none")]
    pub exemption_id: Option<String>,
    #[serde(default)]
    pub customer_id: Option<String>,
    #[serde(default)]
    pub customer_name: Option<String>,
    #[serde(default)]
    pub file_name: Option<String>,
    #[serde(default)]
    pub country_code: Option<String>,
    #[serde(default)]
    pub jurisdiction: Option<String>,
    /// Set once approved: the type the exemption was created with.
    #[serde(default)]
    pub exemption_type: Option<String>,
    #[serde(default)]
    pub uploaded_at: Option<Timestamp>,
}

/// The exemption types an approval takes from release 2026-10-06 (default `CUSTOMER`).
pub const APPROVAL_EXEMPTION_TYPES: [&str; 4] =
    ["CUSTOMER", "WHOLESALE", "TRANSACTION", "REVERSE_CHARGE"];

/// Body of POST /certificate-imports/{id}/approve.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ApproveImport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exemption_type: Option<String>,
}

/// Body of POST /certificate-imports/bulk-approve.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BulkApproveImports {
    pub ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exemption_type: Option<String>,
}

/// Answer of the bulk approval: the imports as they now stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkApproval {
    pub items: Vec<CertificateImport>,
}

/// One choice of GET /filings/backFilingRequest/options: a past period that can be filed late.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackFilingOption {
    pub id: String,
    pub country_code: String,
    #[serde(default, deserialize_with = "empty_as_none")]
    pub state_code: Option<String>,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub label: String,
    /// Text or null in 2026-07-21, always text in 2026-10-06.
    #[serde(default)]
    pub help_article_label: Option<String>,
    #[serde(default)]
    pub help_article_url: Option<String>,
    /// Tax estimated as owed for the period, scale 2.
    #[serde(default)]
    pub estimated_liability: Option<Decimal>,
}

/// Body of POST /filings/bulk/approve and /filings/bulk/pause.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BulkFilingAction {
    pub filing_ids: Vec<String>,
}

/// Answer of a bulk filing action. `job_id` is always null in 2026-07-21 and gone from
/// 2026-10-06.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkFilingResult {
    #[serde(default)]
    pub job_id: Option<String>,
    pub results: Vec<BulkFilingItem>,
}

/// What happened to one filing of a bulk action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkFilingItem {
    pub filing_id: String,
    /// The filing's status after the action (unchanged when refused).
    #[serde(default)]
    pub status: Option<String>,
    /// Why this filing was refused; `None` when the action applied.
    #[serde(default)]
    pub error: Option<BulkFilingError>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkFilingError {
    pub code: String,
    pub message: String,
}

/// A user of an organization (users endpoints; session token only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrganizationUser {
    pub id: String,
    pub email: String,
    pub role: String,
    #[serde(default)]
    pub status: Option<String>,
}

/// Free-form JSON kept as sent (for answers whose shape the interface does not show).
pub type Opaque = Value;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions_read_and_order() {
        assert_eq!(ApiVersion::parse("2026-10-06"), Some(ApiVersion::LATEST));
        assert_eq!(ApiVersion::DEFAULT.to_string(), "2026-07-21");
        assert_eq!(ApiVersion::parse("2026-07-20"), None);
        assert_eq!(ApiVersion::parse("2026-7-21"), None);
        assert_eq!(ApiVersion::parse("latest"), None);
        let between = ApiVersion::parse("2026-10-05").unwrap();
        assert!(between.includes(ApiVersion::PORTAL_CODES));
        assert!(!between.is_latest_shape());
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let update = CredentialsUpdate {
            password: Some("hunter22".into()),
            jurisdiction_specific_fields: Some(PortalCodes {
                access_code: Some("ID-7781".into()),
                ..PortalCodes::default()
            }),
            ..CredentialsUpdate::default()
        };
        let revealed = RevealedFields {
            pin: Some("4321".into()),
            security_questions: vec![SecurityQuestion {
                question: "First pet?".into(),
                answer: "Rex".into(),
            }],
            ..RevealedFields::default()
        };
        let text = format!("{update:?} {revealed:?}");
        for secret in ["hunter22", "ID-7781", "4321", "Rex"] {
            assert!(!text.contains(secret), "{text}");
        }
        assert!(text.contains("Some(****)"), "{text}");
    }

    #[test]
    fn both_release_shapes_read_the_same() {
        let old: ExposureEvent = serde_json::from_value(json!({
            "id": "e1", "occurred_at": "2026-01-01T00:00:00Z", "event_type": "EXPOSED",
            "state": "CA", "country_code": "US"
        }))
        .unwrap();
        let new: ExposureEvent = serde_json::from_value(json!({
            "id": "e1", "occurred_at": "2026-01-01T00:00:00Z", "event_type": "EXPOSED",
            "state_code": "CA", "country_code": "US"
        }))
        .unwrap();
        assert_eq!(old, new);
        let import: CertificateImport = serde_json::from_value(json!({
            "id": "ci_1", "status": "uploaded", "exemption_id": ""
        }))
        .unwrap();
        assert_eq!(import.status, CertificateImportStatus::Uploaded);
        assert_eq!(import.exemption_id, None);
    }
}
