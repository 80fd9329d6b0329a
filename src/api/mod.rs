//! The async client of the service.
//!
//! [`Client`] has one typed method per endpoint; each returns the [`model`](crate::model) type
//! of the answer or an [`ApiError`] a user can read. Under the methods, the transport:
//!
//! - sends the credential headers of the [`Generation`] on every call, and a `User-Agent` of
//!   `taxdash/<version>`;
//! - paces all clones of one client to the service's rate limit (10,000 requests a minute by
//!   default, evenly spaced, first asked first sent), so bulk work does not meet a 429;
//! - retries with exponential backoff and full jitter, honouring `Retry-After`
//!   (see [`RetryPolicy`] for what is retried for which method);
//! - applies a connect timeout and a per-attempt request timeout.
//!
//! Dropping the future of a call cancels it: the connection is closed and nothing more is sent.
//!
//! The same methods speak v1 or the Tenanted API ([`Generation`]): on the Tenanted API the
//! client drops the `/v1` prefix, sends `Api-Key`, `Api-Version` and the [`Selector`] headers,
//! writes bodies in camelCase (from 2026-10-06 `countryCode` for v1's `country`), reads answers
//! of either release into the v1 types, and reads the error envelope into
//! [`ApiError::Tenanted`]. The calls only the Tenanted API has answer
//! [`ApiError::Unsupported`] on a v1 client.

mod audit;
mod config;
mod endpoints;
mod error;
mod generation;
mod network;
mod pacing;
mod retry;
mod selector;
mod service_error;
mod transport;

use std::fmt;
use std::sync::Arc;

pub use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, ListFilter, NexusFilter, PhysicalNexusFilter,
    ProductFilter, Query, RegistrationFilter, Sort, TransactionFilter,
};
pub use crate::model::tenanted::{
    ApiVersion, ApproveImport, BackFilingOption, BulkApproval, BulkApproveImports,
    BulkFilingResult, CertificateImport, CredentialsUpdate, CredentialsUpdated, ErrorCode,
    ExposureEvent, Organization, RevealedCredentials,
};
pub use audit::{AuditSink, AuditTicket, Auditor, SentBody, WriteAnswer, WriteOutcome, WriteSent};
pub use config::{ClientBuildError, ClientConfig, ENV_TIMEOUT, Selector};
pub use endpoints::{RevealField, Upload};
pub use error::{ApiError, ApiResult, ServiceError};
pub use generation::{Generation, InvalidHeader};
pub use retry::RetryPolicy;
pub use transport::{ClientStats, RetryCause, RetryNotice, RetryObserver};

use transport::Transport;

/// A client of the service for one organization. Cheap to clone; clones share the connection
/// pool, the rate limiter and the stats.
#[derive(Clone)]
pub struct Client {
    transport: Arc<Transport>,
}

impl Client {
    /// Builds a client. Fails on a base URL that breaks the transport rules (plain `http://` to
    /// a host that is not loopback) or credentials that cannot travel in a header.
    pub fn new(config: ClientConfig) -> Result<Self, ClientBuildError> {
        Ok(Client {
            transport: Arc::new(Transport::new(config)?),
        })
    }

    /// The organization every call acts on. v1: the `x-organization-id` of the profile.
    /// Tenanted: the organization the selector names, or `""` when calls act on the key's home
    /// organization (or on a connection's or entity's organization).
    pub fn organization_id(&self) -> &str {
        self.transport.organization_id()
    }

    /// Which organization Tenanted calls act on (v1 ignores it).
    pub fn selector(&self) -> &Selector {
        self.transport.selector()
    }

    /// The same client acting on organization `org_id`: same key, connection pool, rate limiter
    /// and stats. Tenanted: the selector becomes [`Selector::Organization`]; v1: the
    /// `x-organization-id` header changes. An ID that cannot travel in a header makes every
    /// call of the new client fail with [`ApiError::BadRequest`].
    pub fn with_organization(&self, org_id: &str) -> Client {
        Client {
            transport: Arc::new(self.transport.with_organization(org_id)),
        }
    }

    /// The same client (organization, pool, pacing and stats), telling `observer` of each
    /// retry before its pause: a caller that waits can say why and which attempt is next.
    #[must_use]
    pub fn with_retry_observer(&self, observer: RetryObserver) -> Client {
        Client {
            transport: Arc::new(self.transport.with_observer(observer)),
        }
    }

    /// The same client (organization, pool, pacing and stats), telling `auditor` of each write
    /// before it is sent and when its answer comes (see [`AuditSink`]). Clones and
    /// [`with_organization`](Self::with_organization) keep it.
    #[must_use]
    pub fn with_audit(&self, auditor: Auditor) -> Client {
        Client {
            transport: Arc::new(self.transport.with_auditor(auditor)),
        }
    }

    pub fn generation(&self) -> Generation {
        self.transport.generation()
    }

    /// What the client has met so far: attempts, retries, 429 answers.
    pub fn stats(&self) -> ClientStats {
        self.transport.stats()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("organization_id", &self.organization_id())
            .field("generation", &self.generation())
            .field("selector", self.selector())
            .finish_non_exhaustive()
    }
}
