//! The vocabulary between panes and the runtime. A pane never calls the client: it returns
//! effects (call the service, open a URL, copy text, quit), and the runtime answers each call
//! with an [`Answer`] carrying the same [`RequestId`]. A pane keeps the ids it still waits for and
//! drops any other answer, so a slow answer to an old filter never overwrites a newer one.
//!
//! Calls and answers hold records by value: each is built and moved once per request, so the
//! size of their largest variant costs less than a box for every record would.
#![allow(clippy::large_enum_variant)]

mod customers;
mod exemptions;
mod files;
mod filings;
mod goto;
mod history;
mod nexus;
mod organizations;
mod products;
mod registrations;
mod transactions;
mod transfer;

pub use self::customers::{CustomerCall, CustomerReply};
pub use self::exemptions::{ExemptionCall, ExemptionReply};
pub use self::files::{FileCall, FileReply};
pub use self::filings::{FilingCall, FilingReply};
pub use self::goto::Goto;
pub use self::history::{HistoryCall, HistoryReply};
pub use self::nexus::{NexusCall, NexusReply};
pub use self::organizations::{OrganizationCall, OrganizationReply};
pub use self::products::{ProductCall, ProductReply};
pub use self::registrations::{RegistrationCall, RegistrationReply};
pub use self::transactions::{TransactionCall, TransactionReply};
pub use self::transfer::{Format, ImportResource, ListQuery};
use crate::model::FieldError;

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
    /// Open a local file with the system's viewer; when there is none, say so and add
    /// `otherwise` (what the user can do instead).
    OpenFile {
        path: std::path::PathBuf,
        otherwise: String,
    },
    /// Copy text to the clipboard (OSC 52, so it works over SSH too).
    Copy(String),
    /// Switch to the named colour theme (files in the config directory may override it).
    Theme(String),
    /// Act on another organization from now on (Tenanted API): the runtime swaps the client's
    /// organization selector, then the shell updates the header and reloads every pane.
    SwitchOrganization(String),
    /// Act on `organization` and show its Overview, or the list `then` opens there: handled by
    /// the shell, which switches organization first when it must (the portfolio's `Enter`).
    OpenOrganization {
        organization: String,
        then: Option<Box<Goto>>,
    },
    /// Show another tab with its list filtered (and a record open): handled by the shell.
    Goto(Box<Goto>),
    /// Write every record of a list, as filtered and sorted, to a file through the export
    /// engine, while the dashboard goes on; one at a time.
    Export(Box<ViewExport>),
    /// Stop the export under way: the file is left as it was.
    CancelExport,
    /// What the Overview has just learnt of the reads it makes: the runtime remembers it for
    /// this profile and organization, and the next Overview asks with its first calls for what
    /// would otherwise wait on an earlier answer.
    Remember(ReadAheadNote),
    /// Read and check a file to import (nothing is sent): the shell is shown the report and
    /// asks whether to send.
    Import(Box<ViewImport>),
    /// Send the rows of the file last checked that passed the checks.
    SendImport,
    /// Start no more rows of the import under way; those on their way finish and are written.
    StopImport,
    Quit,
}

/// What one Overview learnt that lets the next ask for more with its first calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadAheadNote {
    /// The filings it read beside their transactions ([`FilingCall::CheckedBefore`]).
    pub filings_checked: Vec<String>,
    /// The pages of the last 90 days' sales ([`NexusCall::Pace`]); `None`: not read.
    pub pace_pages: Option<u32>,
    /// The organization it is of, when not the one the dashboard acts on (the portfolio's).
    pub organization: Option<String>,
}

/// A list on screen to write to a file (see [`Effect::Export`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewExport {
    pub query: ListQuery,
    pub format: Format,
    pub path: std::path::PathBuf,
}

/// A file to import into the list on screen (see [`Effect::Import`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewImport {
    pub resource: ImportResource,
    pub path: std::path::PathBuf,
}

/// Every call the dashboard makes, by resource. Each resource's calls and answers live in a
/// module of their own here, and are carried out by a module of the same name in `app/calls/`,
/// so a new resource adds files rather than growing these matches.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Registrations(RegistrationCall),
    Nexus(NexusCall),
    Customers(CustomerCall),
    Exemptions(ExemptionCall),
    Filings(FilingCall),
    Transactions(TransactionCall),
    Products(ProductCall),
    Organizations(OrganizationCall),
    /// `call`, made for `organization` (Tenanted API) rather than the one the dashboard acts
    /// on, with the same key and its rate limit: how the portfolio reads every organization.
    ForOrganization {
        organization: String,
        call: Box<Call>,
    },
    /// Work on local files (no call to the service).
    Files(FileCall),
    /// A read of the history database (no call to the service).
    History(HistoryCall),
}

impl Call {
    /// Whether the call changes records (refused in read-only mode, whatever asked for it).
    pub fn is_write(&self) -> bool {
        match self {
            Call::Registrations(c) => c.is_write(),
            Call::Nexus(c) => c.is_write(),
            Call::Customers(c) => c.is_write(),
            Call::Exemptions(c) => c.is_write(),
            Call::Filings(c) => c.is_write(),
            Call::Transactions(c) => c.is_write(),
            Call::Products(c) => c.is_write(),
            Call::ForOrganization { call, .. } => call.is_write(),
            Call::Organizations(_) | Call::Files(_) | Call::History(_) => false,
        }
    }

    /// A few words for the spinner and the log: `loading registrations`.
    pub fn describe(&self) -> String {
        match self {
            Call::Registrations(c) => c.describe(),
            Call::Nexus(c) => c.describe(),
            Call::Customers(c) => c.describe(),
            Call::Exemptions(c) => c.describe(),
            Call::Filings(c) => c.describe(),
            Call::Transactions(c) => c.describe(),
            Call::Products(c) => c.describe(),
            Call::Organizations(c) => c.describe(),
            Call::ForOrganization { organization, call } => {
                format!("{} of {organization}", call.describe())
            }
            Call::Files(c) => c.describe(),
            Call::History(c) => c.describe(),
        }
    }
}

/// What a call returned, by resource.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Registrations(RegistrationReply),
    Nexus(NexusReply),
    Customers(CustomerReply),
    Exemptions(ExemptionReply),
    Filings(FilingReply),
    Transactions(TransactionReply),
    Products(ProductReply),
    Organizations(OrganizationReply),
    Files(FileReply),
    History(HistoryReply),
}

/// Declares the `From` conversions of each resource's calls and answers into [`Call`] and
/// [`Reply`], so a pane writes `CustomerCall::Get { id }.into()`.
macro_rules! groups {
    ($($variant:ident: $call:ident, $reply:ident;)+) => {
        $(
            impl From<$call> for Call {
                fn from(call: $call) -> Self {
                    Call::$variant(call)
                }
            }

            impl From<$reply> for Reply {
                fn from(reply: $reply) -> Self {
                    Reply::$variant(reply)
                }
            }
        )+
    };
}

groups! {
    Registrations: RegistrationCall, RegistrationReply;
    Nexus: NexusCall, NexusReply;
    Customers: CustomerCall, CustomerReply;
    Exemptions: ExemptionCall, ExemptionReply;
    Filings: FilingCall, FilingReply;
    Transactions: TransactionCall, TransactionReply;
    Products: ProductCall, ProductReply;
    Organizations: OrganizationCall, OrganizationReply;
    Files: FileCall, FileReply;
    History: HistoryCall, HistoryReply;
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
