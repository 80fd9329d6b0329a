//! The command-line part: `login`, `logout`, `profiles` and `export`, through their library
//! functions and through the real binary, against the sandbox over loopback.

mod as_sent;
mod binary;
mod common;
mod export;
mod export_filters;
mod hostile;
mod login;
mod snapshot;
mod startup;
mod tenanted_login;
