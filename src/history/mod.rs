//! What taxdash remembers on the user's side, in one embedded `SQLite` file (the history
//! database): the audit log of every write it sends, and snapshots of the company's compliance
//! state to compare and to browse offline.
//!
//! [`db`] opens the file, checks that it is ours and brings its schema up to date; each part
//! adds its tables as migration steps there.

pub mod audit;
pub mod capture;
pub mod db;
pub mod diff;
pub mod offline;
pub mod reads;
pub mod server;
pub mod snapshot;

pub use audit::AuditLog;
pub use db::{History, HistoryError};

/// `client`, recording each write it sends in the history database of the session (see
/// [`open_for_session`]) as `profile` (and `organization` when a call names none), with the
/// log to read the entries back. A database that cannot be used is an error naming the file:
/// no write may go unrecorded.
pub fn audited(
    client: &crate::api::Client,
    path: Option<&std::path::Path>,
    demo: bool,
    profile: &str,
    organization: &str,
) -> Result<(crate::api::Client, AuditLog), HistoryError> {
    let log = AuditLog::new(open_for_session(path, demo)?);
    let client = client.with_audit(log.recorder(profile, organization));
    Ok((client, log))
}

/// The history database of a session: the file `path` (`--history`) names; with `--demo` and no
/// file named, one in memory; else `TAXDASH_HISTORY` or the platform one.
pub fn open_for_session(
    path: Option<&std::path::Path>,
    demo: bool,
) -> Result<History, HistoryError> {
    if demo && path.is_none() {
        return Ok(History::in_memory());
    }
    History::open(&db::default_path(path)?)
}
