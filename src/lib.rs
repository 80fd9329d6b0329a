//! taxdash: a terminal dashboard for a sales-tax compliance service, its client, and a local
//! sandbox of the service.
//!
//! Arrows point down only: `sandbox -> rules -> model`, `api -> config, model`.

pub mod api;
pub mod cli;
pub mod config;
pub mod credentials;
pub mod model;
pub mod rules;
pub mod sandbox;
pub mod ui;
