//! The client over real loopback HTTP: against the sandbox for every endpoint, its errors, its
//! faults and limits; against tiny purpose-built servers for answers the sandbox never gives.

mod audit;
mod common;
mod compression;
mod downloads;
mod endpoints;
mod errors;
mod history_server_restart;
mod hostile;
mod live_shapes;
mod related;
mod resilience;
mod tenanted;
mod tenanted_features;
mod writes;
