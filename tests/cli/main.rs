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
mod tenanted_login;
