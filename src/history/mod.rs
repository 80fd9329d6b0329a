//! What taxdash remembers on the user's side, in one embedded `SQLite` file (the history
//! database): the audit log of every write it sends, and snapshots of the company's compliance
//! state to compare and to browse offline.
//!
//! [`db`] opens the file, checks that it is ours and brings its schema up to date; each part
//! adds its tables as migration steps there.

pub mod audit;
pub mod db;

pub use audit::AuditLog;
pub use db::{History, HistoryError};

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
