//! The records only the Tenanted API shows: security questions of the portal credentials, the
//! sealed portal access codes, certificate imports, nexus exposure history and back-filing
//! options. Each is derived from the organization's other records, so that it agrees with them
//! (an exposure history ends in the nexus's status, an approved import names a real exemption).

use chrono::{Datelike, Months, NaiveDate};
use rand::Rng;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::economic::SalesByPlace;
use super::util::{date_between, days_before, money, pick, timestamp_on, ymd};
use super::{Ctx, Section};
use crate::model::tenanted::SecurityQuestion;
use crate::model::{Customer, Exemption, Nexus, Registration, RegistrationStatus, Timestamp};
use crate::sandbox::reference;

mod exposure;
#[cfg(test)]
mod tests;

use exposure::exposure_history;

/// Everything the Tenanted-only endpoints read and write for one organization.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TenantedRecords {
    /// Security questions of each registration's portal account, by registration id.
    #[serde(default)]
    pub security_questions: Vec<(String, Vec<SecurityQuestion>)>,
    /// Portal access codes saved through the credentials endpoint, encrypted.
    #[serde(default)]
    pub sealed_codes: Vec<SealedCode>,
    #[serde(default)]
    pub certificate_imports: Vec<CertificateImportRecord>,
    #[serde(default)]
    pub exposure_events: Vec<ExposureRecord>,
    #[serde(default)]
    pub back_filing_options: Vec<BackFilingOptionRecord>,
    /// The closure dates sent with Tenanted deregistrations, by registration.
    #[serde(default)]
    pub closures: Vec<Closure>,
}

/// What a deregistration request said about the closure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Closure {
    pub registration_id: String,
    pub closure_date: NaiveDate,
    pub reason: String,
}

/// One saved portal access code: only its ciphertext is kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedCode {
    pub registration_id: String,
    /// The camelCase key: `cdtfaThirdPartyAccessSecurityCode` or `accessCode`.
    pub field: String,
    /// The sealed value, as the vault writes it.
    pub sealed: String,
}

/// Where a certificate import stands (answered in uppercase from 2026-10-06, lowercase before).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ImportStatus {
    /// Asked of the customer, not answered yet.
    Requested,
    /// A certificate was sent in and awaits approval.
    Uploaded,
    /// Approved: an exemption exists for it.
    Approved,
}

impl ImportStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "REQUESTED",
            Self::Uploaded => "UPLOADED",
            Self::Approved => "APPROVED",
        }
    }
}

/// A certificate sent in (or asked for) for a customer's missing exemption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertificateImportRecord {
    pub id: String,
    pub status: ImportStatus,
    pub exemption_id: Option<String>,
    pub customer_id: String,
    pub customer_name: String,
    pub file_name: Option<String>,
    pub file_size: Option<u64>,
    pub country_code: String,
    pub jurisdiction: String,
    pub exemption_type: Option<String>,
    pub uploaded_at: Option<Timestamp>,
    /// The token of the public page where the customer answers a request.
    pub request_token: Option<String>,
}

/// One entry of a nexus's exposure history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExposureRecord {
    pub id: String,
    pub nexus_id: String,
    pub occurred_at: Timestamp,
    pub event_type: String,
    pub country_code: String,
    /// `None` for a country-level nexus.
    pub state_code: Option<String>,
    pub status: String,
    pub sales_amount: Decimal,
    pub transaction_count: i64,
    pub description: String,
}

/// A past period that can be filed late.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackFilingOptionRecord {
    pub id: String,
    pub country_code: String,
    /// `None` for a country-level return.
    pub state_code: Option<String>,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub label: String,
    pub help_article_label: Option<String>,
    pub help_article_url: Option<String>,
    pub estimated_liability: Decimal,
}

/// Security questions, each with two answers a demo account may have given.
const QUESTIONS: [(&str, [&str; 2]); 6] = [
    (
        "What was the name of your first pet?",
        ["Biscuit", "Pepper"],
    ),
    ("In what city was your first office?", ["Duluth", "Tacoma"]),
    (
        "What is the name of the street you grew up on?",
        ["Maple Lane", "Elm Street"],
    ),
    ("What was the make of your first car?", ["Corolla", "Civic"]),
    (
        "What is your favourite supplier's name?",
        ["Harbor Freight", "Acme Crate"],
    ),
    ("What was your first job title?", ["Stock clerk", "Cashier"]),
];

/// Builds the Tenanted records of an organization from its other records.
pub fn generate(
    ctx: &Ctx,
    registrations: &[Registration],
    nexus: &[Nexus],
    customers: &[Customer],
    exemptions: &[Exemption],
    sales: &SalesByPlace<'_>,
) -> TenantedRecords {
    let mut rng = ctx.rng(Section::Tenanted);
    TenantedRecords {
        security_questions: security_questions(&mut rng, registrations),
        sealed_codes: Vec::new(),
        certificate_imports: certificate_imports(ctx, &mut rng, customers, exemptions),
        exposure_events: exposure_history(ctx, &mut rng, nexus, registrations, sales),
        back_filing_options: back_filing_options(ctx, &mut rng, registrations),
        closures: Vec::new(),
    }
}

/// Two security questions for every registration with a portal account.
fn security_questions(
    rng: &mut impl Rng,
    registrations: &[Registration],
) -> Vec<(String, Vec<SecurityQuestion>)> {
    registrations
        .iter()
        .filter(|r| r.username.is_some())
        .map(|r| {
            let first = rng.random_range(0..QUESTIONS.len());
            let second = (first + rng.random_range(1..QUESTIONS.len())) % QUESTIONS.len();
            let questions = [first, second]
                .into_iter()
                .map(|q| {
                    let (question, answers) = QUESTIONS[q];
                    SecurityQuestion {
                        question: question.to_owned(),
                        answer: (*pick(rng, &answers)).to_owned(),
                    }
                })
                .collect();
            (r.id.clone(), questions)
        })
        .collect()
}

fn customer_name(c: &Customer) -> String {
    c.company_name
        .clone()
        .or_else(|| c.name.clone())
        .unwrap_or_else(|| c.id.clone())
}

/// Several imports awaiting approval, one request not answered yet, one approved.
fn certificate_imports(
    ctx: &Ctx,
    rng: &mut impl Rng,
    customers: &[Customer],
    exemptions: &[Exemption],
) -> Vec<CertificateImportRecord> {
    let us: Vec<&Customer> = customers
        .iter()
        .filter(|c| c.address.country.as_deref() == Some("US") && c.address.state.is_some())
        .collect();
    if us.is_empty() {
        return Vec::new();
    }
    let awaiting = if ctx.org_index == 0 { 4 } else { 3 };
    let mut out = Vec::new();
    for k in 0..awaiting {
        let customer = us[(k * 7 + rng.random_range(0..3)) % us.len()];
        let state = customer.address.state.clone().unwrap_or_default();
        let kind = pick(rng, &["resale", "exemption", "wholesale"]);
        let uploaded = date_between(rng, days_before(ctx.anchor, 20), days_before(ctx.anchor, 1));
        out.push(CertificateImportRecord {
            id: ctx.id("cimp", out.len() + 1),
            status: ImportStatus::Uploaded,
            exemption_id: None,
            customer_id: customer.id.clone(),
            customer_name: customer_name(customer),
            file_name: Some(format!(
                "{kind}-certificate-{}-{}.pdf",
                state.to_lowercase(),
                customer.id
            )),
            file_size: Some(rng.random_range(40_000..900_000)),
            country_code: "US".into(),
            jurisdiction: state,
            exemption_type: None,
            uploaded_at: Some(timestamp_on(rng, uploaded)),
            request_token: None,
        });
    }
    // A request sent to a customer who has not answered yet.
    let asked = us[(awaiting * 7 + 3) % us.len()];
    out.push(CertificateImportRecord {
        id: ctx.id("cimp", out.len() + 1),
        status: ImportStatus::Requested,
        exemption_id: None,
        customer_id: asked.id.clone(),
        customer_name: customer_name(asked),
        file_name: None,
        file_size: None,
        country_code: "US".into(),
        jurisdiction: asked.address.state.clone().unwrap_or_default(),
        exemption_type: None,
        uploaded_at: None,
        request_token: Some(format!("ctok_demo{}_1", ctx.org_index + 1)),
    });
    // One approved earlier: it names the exemption that approval created.
    if let Some(exemption) = exemptions
        .iter()
        .find(|e| e.customer_id.is_some() && e.country_code.as_deref().is_none_or(|c| c == "US"))
    {
        let customer_id = exemption.customer_id.clone().unwrap_or_default();
        let name = customers
            .iter()
            .find(|c| c.id == customer_id)
            .map(customer_name)
            .or_else(|| exemption.customer_name.clone())
            .unwrap_or_else(|| customer_id.clone());
        let approved_on = exemption
            .created_at
            .map_or(exemption.start_date, |t| t.date());
        out.push(CertificateImportRecord {
            id: ctx.id("cimp", out.len() + 1),
            status: ImportStatus::Approved,
            exemption_id: Some(exemption.id.clone()),
            customer_id,
            customer_name: name,
            file_name: Some(format!("certificate-{}.pdf", exemption.id)),
            file_size: Some(rng.random_range(40_000..900_000)),
            country_code: exemption
                .country_code
                .clone()
                .unwrap_or_else(|| "US".into()),
            jurisdiction: exemption.jurisdiction.clone().unwrap_or_default(),
            exemption_type: Some(exemption.exemption_type.as_str().to_uppercase()),
            uploaded_at: Some(timestamp_on(rng, days_before(approved_on, 2))),
            request_token: None,
        });
    }
    out
}

/// Past periods before each of a few registrations' first filing, one of them country-level.
fn back_filing_options(
    ctx: &Ctx,
    rng: &mut impl Rng,
    registrations: &[Registration],
) -> Vec<BackFilingOptionRecord> {
    let candidates: Vec<&Registration> = registrations
        .iter()
        .filter(|r| {
            matches!(
                r.status,
                RegistrationStatus::Registered | RegistrationStatus::SelfManaged
            ) && r.country_code != "ZZ_EU"
        })
        .collect();
    // US states first, then a country-level registration, so that one of each is shown.
    let mut chosen: Vec<&Registration> = candidates
        .iter()
        .filter(|r| !r.state_code.is_empty())
        .take(if ctx.org_index == 0 { 4 } else { 2 })
        .copied()
        .collect();
    if let Some(country) = candidates.iter().find(|r| r.state_code.is_empty()) {
        chosen.push(country);
    }
    let mut out = Vec::new();
    for (k, r) in chosen.into_iter().enumerate() {
        let first = r
            .create_filings_from
            .or(r.registration_date)
            .unwrap_or(ctx.ymd(2024, 1, 1));
        let quarter_start = ymd(first.year(), (first.month() - 1) / 3 * 3 + 1, 1);
        let period_start = quarter_start
            .checked_sub_months(Months::new(3))
            .unwrap_or(quarter_start);
        let period_end = days_before(quarter_start, 1);
        let quarter = (period_start.month() - 1) / 3 + 1;
        let place = if r.state_name.is_empty() {
            r.country_code.clone()
        } else {
            r.state_name.clone()
        };
        let tax = if r.state_code.is_empty() {
            "GST/HST"
        } else {
            "sales tax"
        };
        // The second option has no help article, to show how that looks.
        let no_article = k == 1;
        out.push(BackFilingOptionRecord {
            id: ctx.id("bfop", k + 1),
            country_code: r.country_code.clone(),
            state_code: (!r.state_code.is_empty()).then(|| r.state_code.clone()),
            period_start,
            period_end,
            label: format!("Q{quarter} {} {place} {tax} return", period_start.year()),
            help_article_label: (!no_article).then(|| "How back-filing works".to_owned()),
            help_article_url: (!no_article)
                .then(|| "https://help.example.com/articles/back-filing".to_owned()),
            estimated_liability: money(rng, 15_000, 900_000),
        });
    }
    out
}

/// The registration added to the small organization: an Idaho registration still being
/// processed, whose account number the state has not issued, so that its jurisdiction-specific
/// fields lack the sales tax id portal credentials need.
pub fn pending_idaho(ctx: &Ctx, registrations: &[Registration]) -> Option<Registration> {
    if ctx.org_index == 0 || registrations.iter().any(|r| r.state_code == "ID") {
        return None;
    }
    let mut rng = ctx.rng(Section::Tenanted);
    let requested = days_before(ctx.anchor, rng.random_range(8..20));
    let mut r = registrations
        .iter()
        .find(|r| r.country_code == "US")?
        .clone();
    r.id = ctx.id("regs", registrations.len() + 1);
    r.status = RegistrationStatus::Processing;
    r.state_code = "ID".into();
    r.state_name = reference::jurisdiction_name("US", "ID")
        .unwrap_or("Idaho")
        .into();
    r.filing_frequency = crate::model::FilingFrequency::Unknown;
    r.initial_filing_frequency = None;
    r.scheduled_filing_frequency = None;
    r.filing_frequency_effective_date = None;
    r.filing_website_url = reference::filing_website_url("US", "ID");
    r.registration_date = Some(requested);
    r.registration_requested = Some(timestamp_on(&mut rng, requested));
    r.registration_completed = None;
    r.deregistration_requested = None;
    r.deregistration_completed = None;
    r.auto_registered = Some(false);
    r.marked_collecting = Some(false);
    r.marked_collecting_date = None;
    r.needs_mark_as_collecting = Some(true);
    r.username = None;
    r.comment = Some("Waiting for the state to issue the account number.".into());
    r.create_filings_from = None;
    r.create_back_filing = Some(false);
    r.sales_tax_id = None;
    r.created_at = r.registration_requested;
    r.jurisdiction_specific_fields = Some(json!({
        "registration_type": "SALES_TAX",
        "business_name": ctx.profile.legal_name,
        "mfa_completed": false,
    }));
    r.has_all_credentials = Some(false);
    r.password_encrypted = None;
    r.pin_encrypted = None;
    Some(r)
}
