//! The local sandbox: a server that answers the service's v1 interface and its Tenanted API with
//! their documented rules, on deterministic demo data. `taxdash sandbox serve` runs it on its
//! own; `taxdash --demo` and the tests start it in-process on a free loopback port.

mod auth;
pub mod demo_data;
mod error;
mod faults;
mod frozen;
mod listing;
mod query;
pub mod reference;
mod routes;
mod store;
mod tenanted;
pub mod transactions;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDate;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use auth::{MISSING_KEY, NO_ACCESS, UNAUTHENTICATED};
pub use frozen::{ALWAYS_HELD, Frozen};
pub use store::DEMO_CREDENTIALS;
use store::Store;
pub use tenanted::directory::{
    DEMO_PARTNER_KEY, DEMO_SESSION_MEMBER, DEMO_SESSION_OWNER, ORGANIZATIONS as DEMO_ORGANIZATIONS,
    OrgInfo,
};

/// How to run the sandbox.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Seed of the demo data: the same seed gives the same records.
    pub seed: u64,
    /// Multiplies the demo transactions (10,000 at 1; `100` gives a million).
    pub scale: u32,
    /// The database where accepted writes are saved, and resumed from on start (a JSON state
    /// file of earlier versions is moved into a new database under the same name).
    pub state_file: Option<PathBuf>,
    /// How long after its request every answer leaves (the sandbox's own work included).
    pub latency: Duration,
    /// Share of requests (0 to 1) answered 500 or 503.
    pub error_rate: f64,
    /// Requests per minute per key; 0 turns the limit off.
    pub rate_limit_per_min: u32,
    /// How long a created transaction stays `QUEUED` before its tax is calculated.
    pub processing_delay: Duration,
    /// The day the demo data is built around: the last day of the demo transactions, and the
    /// today that every other demo date (returns due, certificates expiring, registrations
    /// pending) is placed from. `None`: [`crate::clock::today`] when the sandbox starts. A state
    /// file keeps the anchor its records were made with, and resuming it ignores this one.
    pub anchor: Option<NaiveDate>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            seed: 42,
            scale: 1,
            state_file: None,
            latency: Duration::ZERO,
            error_rate: 0.0,
            rate_limit_per_min: 10_000,
            processing_delay: Duration::from_secs(2),
            anchor: None,
        }
    }
}

/// Why the sandbox could not start or save.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot read the state file {path}: {source}")]
    StateUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the state file {path} is not a sandbox state ({reason}); it was left untouched: move it away or name another file"
    )]
    StateCorrupt { path: PathBuf, reason: String },
    #[error(
        "the state file {path} is in use by another running sandbox; stop it or name another file"
    )]
    StateInUse { path: PathBuf },
    #[error("cannot save the state file {path}: {source}")]
    StateWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the sandbox failed while starting: {0}")]
    Start(String),
    #[error("the state could not be saved: {0}")]
    Save(String),
}

/// What every handler shares.
pub(crate) struct App {
    store: Store,
    rate_limit: Option<auth::RateLimit>,
    faults: faults::Faults,
    processing_delay: Duration,
    /// Seals every secret the records hold (passwords, PINs, access codes, security answers).
    vault: tenanted::features::vault::Vault,
    /// Set when the sandbox serves a snapshot: reads only, of what it holds.
    frozen: Option<frozen::Guard>,
}

/// A running sandbox. Dropping it does not stop it; call [`Sandbox::stop`].
pub struct Sandbox {
    addr: SocketAddr,
    shutdown: CancellationToken,
    task: JoinHandle<std::io::Result<()>>,
}

impl Sandbox {
    /// Builds the data (or resumes the state file) and starts listening on `addr` (port 0: a
    /// free port).
    pub async fn start(config: SandboxConfig, addr: SocketAddr) -> Result<Sandbox, SandboxError> {
        let anchor = config.anchor.unwrap_or_else(crate::clock::today);
        let (seed, scale, state_file) = (config.seed, config.scale, config.state_file.clone());
        let (store, vault) = tokio::task::spawn_blocking(move || {
            let vault = tenanted::features::vault::Vault::new(state_file.as_deref());
            Store::open(seed, scale, anchor, state_file, &vault).map(|store| (store, vault))
        })
        .await
        .map_err(|e| SandboxError::Start(e.to_string()))??;
        let app = App {
            store,
            vault,
            rate_limit: auth::RateLimit::new(config.rate_limit_per_min),
            faults: faults::Faults::new(config.latency, config.error_rate, config.seed),
            processing_delay: config.processing_delay,
            frozen: None,
        };
        Sandbox::serve(app, addr).await
    }

    /// Serves `app` on `addr`.
    async fn serve(app: App, addr: SocketAddr) -> Result<Sandbox, SandboxError> {
        let app = Arc::new(app);
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| SandboxError::Bind { addr, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| SandboxError::Bind { addr, source })?;
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        let router = routes::router(app);
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
        });
        Ok(Sandbox {
            addr,
            shutdown,
            task,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`, the base URL clients use.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting, lets requests under way finish, and waits for the server to end.
    pub async fn stop(self) {
        self.shutdown.cancel();
        let _ = self.task.await;
    }
}
