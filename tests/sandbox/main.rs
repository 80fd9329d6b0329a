//! The sandbox over real loopback HTTP: every endpoint, the auth matrix, the documented rules,
//! pagination, the transaction lifecycle, limits, faults, the state database (kill -9, files
//! that are not a state, earlier JSON states) and secrets at rest.

mod attachment_files;
mod auth;
mod common;
mod endpoints;
mod fidelity;
mod field_limits;
mod frozen;
mod kill;
mod lifecycle;
mod list_filters;
mod live_operations;
mod live_requests;
mod live_shapes;
mod nexus_fields;
mod nexus_status;
mod registration_writes;
mod rules;
mod secrets_at_rest;
mod state_files;
mod tenanted_auth;
mod tenanted_features;
mod tenanted_releases;
mod transaction_exemptions;
