//! The command-line part: `login`, `logout`, `profiles` and `export`, through their library
//! functions and through the real binary, against the sandbox over loopback.

mod as_sent;
mod audit;
mod binary;
mod checks;
mod common;
mod export;
mod export_filters;
mod hostile;
mod import;
mod login;
mod manual;
mod offline;
mod snapshot;
mod startup;
mod team_history;
mod tenanted_login;

/// Three changes made through the client between two snapshots (see `snapshot.rs`).
pub(crate) async fn snapshot_changes(sandbox: &taxdash::sandbox::Sandbox) {
    snapshot::change(&common::client(&sandbox.base_url())).await;
}
