//! The dashboard driven through its real event loop with scripted keys, against the sandbox
//! over loopback, drawn on a `TestBackend`.

mod addresses;
mod audit;
mod certificate_imports;
mod checks;
mod credentials;
mod customers;
mod exemptions;
mod exposure;
mod failed_load;
mod filings;
mod formatting;
mod harness;
mod import;
mod mouse_views;
mod narrow;
mod navigation;
mod nexus;
mod offline;
mod organizations;
mod overview;
mod paste;
mod portfolio;
mod products;
mod record_history;
mod register;
mod registrations;
mod relay;
mod snapshots;
mod taking_snapshots;
mod team_history;
mod transactions;
mod wire_names;
