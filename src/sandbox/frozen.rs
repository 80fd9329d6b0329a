//! The sandbox serving a snapshot instead of demo data, for `taxdash --offline`.
//!
//! The records a snapshot holds (each as the service sent it in a list) are read into the
//! models the sandbox keeps, so that the sandbox's own query code answers every list, filter,
//! sort and detail from them: offline browsing is the sandbox's listing, not a second one.
//! Such a sandbox is frozen:
//!
//! - every request that is not a read (`GET`) is refused (400, saying why) before it reaches a
//!   handler, so nothing can change the records, whatever the client sends;
//! - a list the snapshot does not hold (transactions when they were not taken, products, ...)
//!   is refused the same way, saying so, rather than answered with an empty list that would
//!   read as "there are none";
//! - only the v1 interface is served (the records are v1's).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;

use super::demo_data::DemoOrg;
use super::error::ErrorAnswer;
use super::store::Store;
use super::{App, Sandbox, SandboxError};
use crate::model::Resource;
use crate::model::Transaction;

/// The resources a snapshot always holds; transactions (taken on request) and any other
/// resource are held only when the snapshot says so or has records of them.
pub const ALWAYS_HELD: &[Resource] = &[
    Resource::Registrations,
    Resource::PhysicalNexus,
    Resource::Nexus,
    Resource::Exemptions,
    Resource::Customers,
    Resource::Filings,
];

/// What a frozen sandbox serves: one organization's records, as read from a snapshot.
#[derive(Debug, Clone)]
pub struct Frozen {
    pub organization_id: String,
    /// When the snapshot was taken (the day the sandbox takes as its own).
    pub taken: DateTime<Utc>,
    /// The resources the snapshot holds: a list of any other answers "not in this snapshot".
    pub held: Vec<Resource>,
    /// Every record, with its resource, as the JSON text the service sent.
    pub records: Vec<(Resource, String)>,
}

/// What every request of a frozen sandbox is checked against.
pub(crate) struct Guard {
    taken: DateTime<Utc>,
    held: Vec<Resource>,
}

/// A record the models cannot read.
fn unreadable(resource: Resource, body: &str, e: &serde_json::Error) -> SandboxError {
    let start: String = body.chars().take(60).collect();
    SandboxError::Start(format!(
        "a {resource} record of the snapshot cannot be read ({e}): {start}…"
    ))
}

fn read<T: DeserializeOwned>(resource: Resource, body: &str) -> Result<T, SandboxError> {
    serde_json::from_str(body).map_err(|e| unreadable(resource, body, &e))
}

impl Frozen {
    /// The organization's records as the sandbox keeps them, and its transactions.
    fn models(&self) -> Result<(DemoOrg, Vec<Transaction>), SandboxError> {
        let mut demo = DemoOrg {
            organization_id: self.organization_id.clone(),
            ..DemoOrg::default()
        };
        let mut transactions = Vec::new();
        for (resource, body) in &self.records {
            let resource = *resource;
            match resource {
                Resource::Registrations => demo.registrations.push(read(resource, body)?),
                Resource::PhysicalNexus => demo.physical_nexus.push(read(resource, body)?),
                Resource::Nexus => demo.nexus.push(read(resource, body)?),
                Resource::Exemptions => demo.exemptions.push(read(resource, body)?),
                Resource::Customers => demo.customers.push(read(resource, body)?),
                Resource::Filings => demo.filings.push(read(resource, body)?),
                Resource::Products => demo.products.push(read(resource, body)?),
                Resource::Transactions => transactions.push(read(resource, body)?),
            }
        }
        Ok((demo, transactions))
    }
}

impl Sandbox {
    /// Starts a frozen sandbox on `frozen`'s records, listening on `addr` (port 0: a free
    /// port). Answers the sandbox and the API key that reaches the organization (made afresh
    /// for each start, so that no other program on the machine can read through it).
    pub async fn start_frozen(
        frozen: Frozen,
        addr: SocketAddr,
    ) -> Result<(Sandbox, String), SandboxError> {
        let key = format!("offline-{:032x}", rand::random::<u128>());
        let store_key = key.clone();
        let (store, guard) = tokio::task::spawn_blocking(move || {
            let (demo, transactions) = frozen.models()?;
            let store = Store::frozen(
                &frozen.organization_id,
                store_key,
                demo,
                transactions,
                frozen.taken.date_naive(),
            );
            Ok::<_, SandboxError>((
                store,
                Guard {
                    taken: frozen.taken,
                    held: frozen.held,
                },
            ))
        })
        .await
        .map_err(|e| SandboxError::Start(e.to_string()))??;
        let app = App {
            store,
            vault: super::tenanted::features::vault::Vault::new(None),
            rate_limit: None,
            faults: super::faults::Faults::new(std::time::Duration::ZERO, 0.0, 0),
            processing_delay: std::time::Duration::ZERO,
            frozen: Some(guard),
        };
        let sandbox = Sandbox::serve(app, addr).await?;
        Ok((sandbox, key))
    }
}

/// The resource a v1 path reads, if it reads one a snapshot may lack.
fn resource_of(path: &str) -> Option<Resource> {
    let rest = path.strip_prefix("/v1/")?;
    let mut parts = rest.split('/');
    let first = parts.next()?;
    let second = parts.next();
    let third = parts.next();
    Some(match (first, second, third) {
        ("transactions", _, _) | ("customers", Some(_), Some("transactions")) => {
            Resource::Transactions
        }
        // Reference lists, the same offline.
        ("products", Some("categories"), _)
        | ("nexus", Some("physical_nexus"), Some("categories"))
        | ("filings", Some("back-filing-terms"), _) => return None,
        ("products", _, _) => Resource::Products,
        ("registrations", _, _) => Resource::Registrations,
        ("nexus", Some("physical_nexus"), _) => Resource::PhysicalNexus,
        ("nexus", _, _) => Resource::Nexus,
        ("exemptions", _, _) => Resource::Exemptions,
        ("customers", _, _) => Resource::Customers,
        ("filings", _, _) => Resource::Filings,
        _ => return None,
    })
}

/// The words a refusal uses for a resource.
fn plural(resource: Resource) -> &'static str {
    match resource {
        Resource::PhysicalNexus => "physical nexus",
        other => other.name(),
    }
}

/// Refuses, in a frozen sandbox, every write and every read of what the snapshot does not hold.
pub(crate) async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(guard) = &app.frozen else {
        return next.run(request).await;
    };
    let taken = guard.taken.format("%Y-%m-%d %H:%M UTC");
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return ErrorAnswer::BadRequest(format!(
            "Offline: this is the snapshot taken {taken}; it cannot be changed"
        ))
        .into_response();
    }
    let path = request.uri().path();
    if !path.starts_with("/v1/") {
        return ErrorAnswer::BadRequest(format!(
            "Not in this snapshot: offline, only the v1 lists are served (snapshot taken {taken})"
        ))
        .into_response();
    }
    if let Some(resource) = resource_of(path)
        && !guard.held.contains(&resource)
    {
        return ErrorAnswer::BadRequest(format!(
            "Not in this snapshot: the snapshot taken {taken} holds no {}",
            plural(resource)
        ))
        .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_the_resource_they_read() {
        let cases = [
            ("/v1/transactions", Some(Resource::Transactions)),
            ("/v1/transactions/tran_1", Some(Resource::Transactions)),
            (
                "/v1/customers/cust_1/transactions",
                Some(Resource::Transactions),
            ),
            ("/v1/customers/cust_1", Some(Resource::Customers)),
            ("/v1/products", Some(Resource::Products)),
            ("/v1/products/categories", None),
            ("/v1/nexus/physical_nexus", Some(Resource::PhysicalNexus)),
            ("/v1/nexus/physical_nexus/categories", None),
            ("/v1/nexus", Some(Resource::Nexus)),
            ("/v1/filings/registration/r1", Some(Resource::Filings)),
            ("/v1/filings/back-filing-terms/current", None),
            ("/v1/address_validation/search", None),
            ("/organizations", None),
        ];
        for (path, resource) in cases {
            assert_eq!(resource_of(path), resource, "{path}");
        }
    }
}
