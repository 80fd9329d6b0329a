//! The vocabulary between panes and the runtime. A pane never calls the client: it returns
//! effects (call the service, open a URL, copy text, quit), and the runtime answers each call
//! with an [`Answer`] carrying the same [`RequestId`]. A pane keeps the ids it still waits for and
//! drops any other answer, so a slow answer to an old filter never overwrites a newer one.

use std::path::PathBuf;

use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter,
    RegistrationFilter, TransactionFilter,
};
use crate::model::tenanted::{
    ApproveImport, BackFilingOption, BulkApproveImports, BulkFilingResult, CertificateImport,
    CertificateImportStatus,
};
use crate::model::tenanted::{
    CredentialsUpdate, CredentialsUpdated, ExposureEvent, Organization, RevealedCredentials,
};
use crate::model::{
    Attachment, BackFilingTerms, CreditNoteRequest, Customer, CustomerTaxRegistration,
    CustomerTaxRegistrationWrite, CustomerWrite, DeregistrationRequest, EstimateRequest,
    EstimateResponse, Exemption, ExemptionCreate, FieldError, Filing, JurisdictionForm, Nexus,
    OssCountry, Page, PageParams, PhysicalNexus, PhysicalNexusCategoryInfo, PhysicalNexusCreate,
    PhysicalNexusUpdate, Registration, RevealField, Transaction,
};

/// Names one call to the service, unique for the life of the dashboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

/// What a pane asks the runtime to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Call the service; the answer comes back tagged with `id`.
    Call {
        id: RequestId,
        call: Box<Call>,
    },
    /// The answer to `id` is no longer wanted: cancel the request if it is still running.
    Cancel(RequestId),
    /// Open a web page in the user's browser.
    OpenUrl(String),
    /// Copy text to the clipboard (OSC 52, so it works over SSH too).
    Copy(String),
    /// Switch to the named colour theme (files in the config directory may override it).
    Theme(String),
    /// Act on another organization from now on (Tenanted API): the runtime swaps the client's
    /// organization selector, then the shell updates the header and reloads every pane.
    SwitchOrganization(String),
    Quit,
}

/// Every call the dashboard makes.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Registrations {
        filter: RegistrationFilter,
        page: PageParams,
    },
    /// One registration; `reveal` names a masked field to show in clear.
    Registration {
        id: String,
        reveal: Option<RevealField>,
    },
    OssCountries {
        registration_id: String,
    },
    JurisdictionForm {
        country: String,
        state: String,
    },
    Deregister {
        registration_id: String,
        body: DeregistrationRequest,
    },
    /// Economic nexus per jurisdiction (GET /v1/nexus).
    Nexus {
        filter: NexusFilter,
        page: PageParams,
    },
    NexusRow {
        id: String,
    },
    PhysicalNexus {
        filter: PhysicalNexusFilter,
        page: PageParams,
    },
    /// The categories offered in a jurisdiction, each saying whether a record uses it.
    PhysicalNexusCategories {
        country: String,
        state: String,
    },
    CreatePhysicalNexus {
        body: PhysicalNexusCreate,
    },
    UpdatePhysicalNexus {
        id: String,
        body: PhysicalNexusUpdate,
    },
    DeletePhysicalNexus {
        id: String,
    },
    Customers {
        filter: CustomerFilter,
        page: PageParams,
    },
    Customer {
        id: String,
    },
    CreateCustomer {
        body: Box<CustomerWrite>,
    },
    /// Adds the customer's tax id, or replaces the one of the same tax type and country.
    CustomerTaxRegistration {
        customer_id: String,
        body: CustomerTaxRegistrationWrite,
    },
    Exemptions {
        filter: ExemptionFilter,
        page: PageParams,
    },
    Exemption {
        id: String,
    },
    CreateExemption {
        body: Box<ExemptionCreate>,
    },
    Attachments {
        exemption_id: String,
    },
    /// Reads the file at `path`, checks it (exists, readable, a PDF by its content, at most
    /// 10 MB) and uploads it as the exemption's certificate; a file that fails a check is
    /// refused at the `file` field and nothing is sent.
    UploadCertificate {
        exemption_id: String,
        path: PathBuf,
    },
    /// The paths completing what was typed (local: no call to the service).
    CompletePath {
        partial: String,
    },
    // --- Certificate imports and filings -------------------------------------------------------
    /// Certificate imports (Tenanted API only), of one status when `status` is set.
    CertificateImports {
        status: Option<CertificateImportStatus>,
        page: PageParams,
    },
    /// Approves one certificate import, creating its exemption (Tenanted API only).
    ApproveCertificateImport {
        id: String,
        body: ApproveImport,
    },
    /// Approves several certificate imports at once, all or none (Tenanted API only).
    BulkApproveCertificateImports {
        body: BulkApproveImports,
    },
    Filings {
        filter: FilingFilter,
        page: PageParams,
    },
    Filing {
        id: String,
    },
    /// The past periods that can be filed late (Tenanted API only).
    BackFilingOptions,
    /// Approves filings for filing; each filing answers on its own (Tenanted API only).
    BulkApproveFilings {
        ids: Vec<String>,
    },
    /// Pauses filings; each filing answers on its own (Tenanted API only).
    BulkPauseFilings {
        ids: Vec<String>,
    },
    // --- end of certificate imports and filings ------------------------------------------------
    Transactions {
        filter: TransactionFilter,
        page: PageParams,
    },
    Transaction {
        id: String,
    },
    CreditNote {
        original_id: String,
        body: Box<CreditNoteRequest>,
    },
    Estimate {
        body: Box<EstimateRequest>,
    },
    BackFilingTerms,

    // Tenanted API: organizations, portal credentials, exposure history.
    /// The organizations the credential reaches (GET /organizations).
    Organizations {
        page: PageParams,
    },
    /// Saves the portal credentials given; fields left out keep their saved values.
    UpdateCredentials {
        registration_id: String,
        body: CredentialsUpdate,
    },
    /// Reads the saved portal credentials back in clear (on the user's explicit request).
    RevealCredentials {
        registration_id: String,
    },
    /// The exposure history of an economic nexus, oldest first.
    ExposureHistory {
        nexus_id: String,
        page: PageParams,
    },
}

impl Call {
    /// Whether the call changes records (refused in read-only mode, whatever asked for it).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Call::Deregister { .. }
                | Call::CreatePhysicalNexus { .. }
                | Call::UpdatePhysicalNexus { .. }
                | Call::DeletePhysicalNexus { .. }
                | Call::CreateCustomer { .. }
                | Call::CustomerTaxRegistration { .. }
                | Call::CreateExemption { .. }
                | Call::UploadCertificate { .. }
                | Call::ApproveCertificateImport { .. }
                | Call::BulkApproveCertificateImports { .. }
                | Call::BulkApproveFilings { .. }
                | Call::BulkPauseFilings { .. }
                | Call::CreditNote { .. }
                | Call::UpdateCredentials { .. }
        )
    }

    /// A few words for the spinner and the log: `loading registrations`.
    pub fn describe(&self) -> String {
        match self {
            Call::Registrations { page, .. } => {
                format!("loading registrations (page {})", page.page)
            }
            Call::Registration { id, reveal: None } => format!("loading registration {id}"),
            Call::Registration {
                id,
                reveal: Some(field),
            } => format!("revealing the {} of {id}", field.label()),
            Call::OssCountries { registration_id } => {
                format!("loading OSS countries of {registration_id}")
            }
            Call::JurisdictionForm { country, state } => {
                format!("loading the {country}-{state} registration form")
            }
            Call::Deregister {
                registration_id, ..
            } => format!("requesting deregistration of {registration_id}"),
            Call::Nexus { page, .. } => format!("loading economic nexus (page {})", page.page),
            Call::NexusRow { id } => format!("loading nexus {id}"),
            Call::PhysicalNexus { page, .. } => {
                format!("loading physical nexus (page {})", page.page)
            }
            Call::PhysicalNexusCategories { country, state } => {
                format!("loading the physical nexus categories of {country}-{state}")
            }
            Call::CreatePhysicalNexus { body } => {
                format!(
                    "saving a physical nexus in {}-{}",
                    body.country_code, body.state_code
                )
            }
            Call::UpdatePhysicalNexus { id, .. } => format!("saving physical nexus {id}"),
            Call::DeletePhysicalNexus { id } => format!("deleting physical nexus {id}"),
            Call::Customers { page, .. } => format!("loading customers (page {})", page.page),
            Call::Customer { id } => format!("loading customer {id}"),
            Call::CreateCustomer { .. } => "creating a customer".to_owned(),
            Call::CustomerTaxRegistration { customer_id, .. } => {
                format!("saving a tax registration of {customer_id}")
            }
            Call::Exemptions { page, .. } => format!("loading exemptions (page {})", page.page),
            Call::Exemption { id } => format!("loading exemption {id}"),
            Call::CreateExemption { .. } => "creating an exemption".to_owned(),
            Call::Attachments { exemption_id } => format!("loading the files of {exemption_id}"),
            Call::UploadCertificate { path, .. } => format!("uploading {}", path.display()),
            Call::CompletePath { .. } => "completing the path".to_owned(),
            Call::CertificateImports { page, .. } => {
                format!("loading certificate imports (page {})", page.page)
            }
            Call::ApproveCertificateImport { id, .. } => {
                format!("approving certificate import {id}")
            }
            Call::BulkApproveCertificateImports { body } => {
                format!("approving {} certificate imports", body.ids.len())
            }
            Call::Filings { page, .. } => format!("loading filings (page {})", page.page),
            Call::Filing { id } => format!("loading filing {id}"),
            Call::BackFilingOptions => "loading the back-filing options".to_owned(),
            Call::BulkApproveFilings { ids } => format!("approving {} filings", ids.len()),
            Call::BulkPauseFilings { ids } => format!("pausing {} filings", ids.len()),
            Call::Transactions { page, .. } => {
                format!("loading transactions (page {})", page.page)
            }
            Call::Transaction { id } => format!("loading transaction {id}"),
            Call::CreditNote { original_id, .. } => {
                format!("issuing a credit note on {original_id}")
            }
            Call::Estimate { .. } => "estimating tax".to_owned(),
            Call::BackFilingTerms => "loading the back-filing terms".to_owned(),
            Call::Organizations { .. } => "loading the organizations".to_owned(),
            Call::UpdateCredentials {
                registration_id, ..
            } => format!("saving the portal credentials of {registration_id}"),
            Call::RevealCredentials { registration_id } => {
                format!("revealing the portal credentials of {registration_id}")
            }
            Call::ExposureHistory { nexus_id, page } => {
                format!(
                    "loading the exposure history of {nexus_id} (page {})",
                    page.page
                )
            }
        }
    }
}

/// What a call returned.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Registrations(Page<Registration>),
    Registration(Registration),
    OssCountries(Vec<OssCountry>),
    JurisdictionForm(JurisdictionForm),
    Deregistered(Registration),
    NexusPage(Page<Nexus>),
    Nexus(Nexus),
    PhysicalNexusPage(Page<PhysicalNexus>),
    PhysicalNexusCategories(Vec<PhysicalNexusCategoryInfo>),
    /// A physical nexus created or updated.
    PhysicalNexus(PhysicalNexus),
    /// A physical nexus deleted.
    Deleted,
    CustomersPage(Page<Customer>),
    /// A customer read or created.
    Customer(Customer),
    CustomerTaxRegistration(CustomerTaxRegistration),
    ExemptionsPage(Page<Exemption>),
    /// An exemption read or created.
    Exemption(Box<Exemption>),
    Attachments(Vec<Attachment>),
    /// A certificate uploaded.
    Attachment(Attachment),
    PathCompletions(Vec<String>),
    // --- Certificate imports and filings -------------------------------------------------------
    CertificateImportsPage(Page<CertificateImport>),
    /// Certificate imports as they stand after an approval (one or several).
    CertificateImportsApproved(Vec<CertificateImport>),
    FilingsPage(Page<Filing>),
    Filing(Box<Filing>),
    BackFilingOptions(Vec<BackFilingOption>),
    /// What a bulk approval or pause did to each filing.
    BulkFilings(BulkFilingResult),
    // --- end of certificate imports and filings ------------------------------------------------
    TransactionsPage(Page<Transaction>),
    /// A transaction read, or a credit note issued.
    Transaction(Box<Transaction>),
    Estimate(Box<EstimateResponse>),
    BackFilingTerms(BackFilingTerms),

    // Tenanted API: organizations, portal credentials, exposure history.
    Organizations(Page<Organization>),
    /// Which credentials changed (never their values).
    CredentialsUpdated(CredentialsUpdated),
    RevealedCredentials(Box<RevealedCredentials>),
    ExposureHistory(Page<ExposureEvent>),
}

/// Why a call failed, in words for the user, with the fields a 422 named.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
    pub fields: Vec<FieldError>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    Unauthorized,
    Forbidden,
    NotFound,
    Validation,
    Conflict,
    RateLimited,
    Server,
    Network,
    Timeout,
    Undecodable,
    /// Refused before sending: read-only mode.
    ReadOnly,
    /// Refused before sending: the feature needs the Tenanted API and the profile uses v1.
    Unsupported,
    Other,
}

impl FailureKind {
    /// Whether the connection itself is in doubt (the header shows it).
    pub fn is_connection(self) -> bool {
        matches!(
            self,
            FailureKind::Network | FailureKind::Timeout | FailureKind::Server
        )
    }
}

/// The answer to one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub id: RequestId,
    pub result: Result<Reply, Failure>,
}
