//! The sandbox over real loopback HTTP: every endpoint, the auth matrix, the documented rules,
//! pagination, the transaction lifecycle, limits, faults and the state file.

mod auth;
mod common;
mod endpoints;
mod lifecycle;
mod rules;
mod tenanted_auth;
mod tenanted_features;
mod tenanted_releases;
