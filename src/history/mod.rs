//! What taxdash remembers on the user's side, in one embedded `SQLite` file (the history
//! database): the audit log of every write it sends, and snapshots of the company's compliance
//! state to compare and to browse offline.
//!
//! [`db`] opens the file, checks that it is ours and brings its schema up to date; each part
//! adds its tables as migration steps there.

pub mod capture;
pub mod db;
pub mod diff;
pub mod snapshot;

pub use db::{History, HistoryError};

/// The history database `named` names (`--history`, `TAXDASH_HISTORY`), else the platform's;
/// with `demo` and no file named, one in memory (the demo's records are not the user's).
pub fn open_for(named: Option<&std::path::Path>, demo: bool) -> Result<History, HistoryError> {
    if demo && named.is_none() {
        return Ok(History::in_memory());
    }
    History::open(&db::default_path(named)?)
}
