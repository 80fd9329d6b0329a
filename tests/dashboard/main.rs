//! The dashboard driven through its real event loop with scripted keys, against the sandbox
//! over loopback, drawn on a `TestBackend`.

mod certificate_imports;
mod credentials;
mod customers;
mod exemptions;
mod exposure;
mod failed_load;
mod filings;
mod harness;
mod narrow;
mod nexus;
mod organizations;
mod overview;
mod products;
mod registrations;
mod snapshots;
mod transactions;
