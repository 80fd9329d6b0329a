//! One typed method per endpoint, grouped by resource. Each method only describes its call
//! (method, path, query, body) and the type of its answer; the transport does the rest.

mod customers;
mod exemptions;
mod filings;
mod nexus;
mod products;
mod registrations;
mod tenanted;
mod transactions;

pub use exemptions::Upload;
pub use registrations::RevealField;
