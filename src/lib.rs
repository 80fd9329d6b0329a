//! taxdash: a terminal dashboard for a sales-tax compliance service, its client, and a local
//! sandbox of the service.
//!
//! Arrows point down only: `cli -> app -> ui -> effect -> model`, `app -> api -> config, model`,
//! `ui -> rules -> model`, `sandbox -> rules, model`. Nothing in `model`, `rules` or `api` knows
//! the terminal exists, and `ui` performs no I/O.

pub mod api;
pub mod app;
pub mod cli;
pub mod commands;
pub mod config;
pub mod credentials;
pub mod effect;
pub mod export;
pub mod model;
pub mod rules;
pub mod sandbox;
pub mod ui;
