//! What taxdash remembers: the audit log of every write it sends, and snapshots of the
//! company's compliance state to compare and to browse offline. One person keeps them in an
//! embedded `SQLite` file; a team on the `PostgreSQL` server it runs (`--history postgres://…`).
//!
//! Everything here is written once, over the [`store::Store`] interface that both keep: [`db`]
//! opens the file, checks that it is ours and brings its schema up to date; [`server`] does the
//! same on a server. Each part adds its tables as migration steps there.

pub mod audit;
pub mod body;
pub mod capture;
pub mod copy;
pub mod db;
pub mod diff;
pub mod offline;
pub mod reads;
pub mod server;
pub mod snapshot;
pub mod store;
pub mod who;

pub use audit::AuditLog;
pub use db::{History, HistoryError, Location, Place};

/// `client`, recording each write it sends in `history` as `profile` (and `organization`
/// when a call names none), with the log to read the entries back.
pub fn audited(
    client: &crate::api::Client,
    history: History,
    profile: &str,
    organization: &str,
) -> (crate::api::Client, AuditLog) {
    let log = AuditLog::new(history);
    let client = client.with_audit(log.recorder(profile, organization));
    (client, log)
}

/// Where the history of a session is: what `--history` (or `TAXDASH_HISTORY`) names; with
/// `--demo` and nothing named, in memory; else the profile's `history` key, else the platform
/// file.
pub fn location_for_session(
    named: Option<&std::path::Path>,
    demo: bool,
    profile: Option<&str>,
) -> Result<Location, HistoryError> {
    if demo && named.is_none() {
        return Ok(Location::Memory);
    }
    db::default_location(named, profile)
}

/// A test run on both stores: `fn name(h: History) { … }` becomes the module `name` with the
/// tests `file` (a history in memory) and `server` (a fresh database on the test server; see
/// [`server::testing`], which says why when there is none).
#[cfg(test)]
macro_rules! on_both_stores {
    ($(#[$meta:meta])* fn $name:ident($h:ident: History) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[allow(unused_mut)]
            fn run(mut $h: $crate::history::History) $body

            #[test]
            fn file() {
                run($crate::history::History::in_memory());
            }

            #[test]
            fn server() {
                if let Some(h) = $crate::history::test_server(stringify!($name)) {
                    run(h);
                }
            }
        }
    };
}
#[cfg(test)]
pub(crate) use on_both_stores;

/// A history on a fresh database of the test server, when there is one.
#[cfg(test)]
pub(crate) fn test_server(label: &str) -> Option<History> {
    let url = server::testing::fresh_database(label)?;
    let location = Location::parse(std::ffi::OsStr::new(&url)).expect("a server's URL");
    Some(History::open_at(&location).expect("the test server's history opens"))
}
