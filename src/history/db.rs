//! The history database: one `SQLite` file in the platform data directory (`history.db`), or
//! the file `--history` or `TAXDASH_HISTORY` names.
//!
//! - Identity: the file carries taxdash's history `application_id` and its schema version in
//!   `user_version`, raised by the [`MIGRATIONS`] in order. A file that is not `SQLite`, is
//!   `SQLite` of another program, or has a newer schema than this program knows is refused with
//!   its path and never written to.
//! - Sharing: WAL mode and a busy timeout, so two taxdash processes (a dashboard and a `watch`)
//!   can write at once: one waits for the other instead of failing or corrupting the file. The
//!   file is only ever opened through `SQLite` (see [`History::open`]), so the locks of a
//!   process's connections hold for as long as they are open, and another program reading the
//!   file (the `sqlite3` shell, `taxdash audit`) never takes itself for the last reader and
//!   removes the write-ahead log under a running dashboard.
//! - Durability: `synchronous=FULL`, so an entry reported written survives a crash.
//! - Privacy: a new file is readable by its owner only (on Unix). No secret is ever written to
//!   it: callers remove them before (see the audit log).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// `PRAGMA application_id` of a history database: "TXHI".
pub const APPLICATION_ID: i32 = 0x5458_4849;

/// The environment variable naming the history database.
pub const ENV_HISTORY: &str = "TAXDASH_HISTORY";

/// The file name in the platform data directory.
pub const FILE_NAME: &str = "history.db";

/// How long a write waits for another process holding the file before it gives up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How large the write-ahead log is left after a checkpoint: a burst of writes (a large
/// snapshot) does not keep its disk space for the rest of a long session.
pub const WAL_SIZE_LIMIT: i64 = 4 * 1024 * 1024;

/// The schema, one step per version: `user_version` is the number of steps applied. Steps are
/// only ever appended; a step, once released, never changes.
pub(crate) const MIGRATIONS: &[&str] = &[
    super::snapshot::MIGRATION,
    super::audit::MIGRATION,
    super::snapshot::BODIES_BY_ROW,
];

/// Why the history database cannot be used. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error(
        "no data directory is known on this system: name the history database with --history FILE or TAXDASH_HISTORY"
    )]
    NoDataDir,
    #[error("the history database {path} cannot be opened: {reason}")]
    Unreadable { path: PathBuf, reason: String },
    #[error("{path} is not a taxdash history database ({reason}); it was left untouched")]
    Corrupt { path: PathBuf, reason: String },
    #[error(
        "the history database {path} has schema version {found}, newer than this taxdash knows ({known}); it was left untouched: use a newer taxdash, or another file with --history"
    )]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("the history database {path} could not be written: {reason}")]
    Write { path: PathBuf, reason: String },
    #[error("the history database {path} is full or the disk is full: {reason}")]
    Full { path: PathBuf, reason: String },
}

/// An open history database.
pub struct History {
    path: PathBuf,
    conn: Connection,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// The file to use: `override_path` (`--history`) if given, else `TAXDASH_HISTORY` if set and
/// not empty, else `history.db` in the platform data directory.
pub fn default_path(override_path: Option<&Path>) -> Result<PathBuf, HistoryError> {
    if let Some(path) = override_path {
        return Ok(path.to_path_buf());
    }
    if let Some(path) = std::env::var_os(ENV_HISTORY).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    directories::ProjectDirs::from("", "", "taxdash")
        .map(|dirs| dirs.data_local_dir().join(FILE_NAME))
        .ok_or(HistoryError::NoDataDir)
}

impl History {
    /// Opens the history database at `path`, creating it (and its directory) when missing.
    /// An existing file is checked before anything is written to it: `SQLite`, with taxdash's
    /// history application id (or a blank new database), and a schema no newer than this
    /// program's. Then the schema is brought up to date in one transaction.
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        let existed = path.exists();
        if !existed && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| HistoryError::Unreadable {
                path: path.to_owned(),
                reason: format!("its directory cannot be made: {e}"),
            })?;
        }
        // The file is read through SQLite only, never opened with a descriptor of our own:
        // closing any descriptor of the file drops every lock this process holds on it (POSIX
        // locks belong to the process), so a check that opened and closed the file while
        // another connection of this process was open would let an outside reader believe it
        // was the last one and delete the write-ahead log under it.
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| HistoryError::Unreadable {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        if !existed {
            restrict(path);
        }
        History::setup(path.to_owned(), conn)
    }

    /// A database in memory, gone when dropped: `--demo` without `--history`, and tests.
    pub fn in_memory() -> History {
        let conn = Connection::open_in_memory().expect("an in-memory database opens");
        History::setup(PathBuf::from(":memory:"), conn).expect("an in-memory database migrates")
    }

    fn setup(path: PathBuf, mut conn: Connection) -> Result<History, HistoryError> {
        let corrupt = |e: rusqlite::Error| classify(&path, &e, true);
        conn.busy_timeout(BUSY_TIMEOUT).map_err(corrupt)?;
        // The first read of the file: one that is not SQLite fails here, before anything is
        // written to it.
        let id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::NotADatabase) => HistoryError::Corrupt {
                    path: path.clone(),
                    reason: "it is not an SQLite database".to_owned(),
                },
                _ => corrupt(e),
            })?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(corrupt)?;
        if id != APPLICATION_ID && (id != 0 || version != 0 || has_tables(&conn)) {
            return Err(HistoryError::Corrupt {
                path,
                reason: "it is an SQLite database of another program".to_owned(),
            });
        }
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(HistoryError::Newer {
                path,
                found: version,
                known,
            });
        }
        if path.as_os_str() != ":memory:" {
            let mode: String = conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
                .map_err(corrupt)?;
            if !mode.eq_ignore_ascii_case("wal") {
                tracing::warn!(
                    "the history database {} stays in {mode} mode",
                    path.display()
                );
            }
            conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)
                .map_err(corrupt)?;
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(corrupt)?;
        // Migrations run with foreign keys off (a step may rebuild a table others point at);
        // they are on for everything after.
        conn.pragma_update(None, "foreign_keys", "OFF")
            .map_err(corrupt)?;
        if version < known || id != APPLICATION_ID {
            let fail = |e: rusqlite::Error| classify(&path, &e, false);
            let tx = conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(fail)?;
            // Another process may have migrated while this one waited for the lock.
            let now: i64 = tx
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(fail)?;
            #[expect(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
            let from = now.clamp(0, known) as usize;
            for step in &MIGRATIONS[from..] {
                tx.execute_batch(step).map_err(fail)?;
            }
            tx.pragma_update(None, "user_version", known)
                .map_err(fail)?;
            tx.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(fail)?;
            tx.commit().map_err(fail)?;
        }
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(corrupt)?;
        Ok(History { path, conn })
    }

    /// The file (`:memory:` for an in-memory database).
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    pub fn connection_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// A failed statement as a [`HistoryError`] naming this file: a full disk or database is
    /// told as such, anything else as a failed write.
    pub fn error(&self, e: &rusqlite::Error) -> HistoryError {
        classify(&self.path, e, false)
    }
}

fn has_tables(conn: &Connection) -> bool {
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    })
    .map_or(true, |n| n > 0)
}

/// `SQLite`'s error as ours: a full disk, a damaged file, or a failed write.
pub(crate) fn classify(path: &Path, e: &rusqlite::Error, reading: bool) -> HistoryError {
    use rusqlite::ErrorCode;
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => HistoryError::Full {
            path: path.to_owned(),
            reason: e.to_string(),
        },
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => HistoryError::Corrupt {
            path: path.to_owned(),
            reason: format!("it cannot be read as a database: {e}"),
        },
        _ if reading => HistoryError::Unreadable {
            path: path.to_owned(),
            reason: e.to_string(),
        },
        _ => HistoryError::Write {
            path: path.to_owned(),
            reason: e.to_string(),
        },
    }
}

/// Makes a new file readable by its owner only.
fn restrict(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            tracing::warn!("cannot restrict {}: {e}", path.display());
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_made_with_its_directory_and_marked_as_ours() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("history.db");
        let history = History::open(&path).unwrap();
        let id: i32 = history
            .connection()
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .unwrap();
        assert_eq!(id, APPLICATION_ID);
        drop(history);
        History::open(&path).expect("opens again");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "readable by its owner only");
        }
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_by_path_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        std::fs::write(&path, b"not a database at all").unwrap();
        let err = History::open(&path).unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains(&path.display().to_string()), "{shown}");
        assert!(shown.contains("not an SQLite database"), "{shown}");
        assert_eq!(std::fs::read(&path).unwrap(), b"not a database at all");
    }

    #[test]
    fn another_programs_database_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        drop(conn);
        let before = std::fs::read(&path).unwrap();
        let err = History::open(&path).unwrap_err();
        assert!(err.to_string().contains("another program"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_newer_schema_is_refused_and_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        drop(History::open(&path).unwrap());
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "user_version", MIGRATIONS.len() as i64 + 5)
                .unwrap();
        }
        let err = History::open(&path).unwrap_err();
        assert!(matches!(err, HistoryError::Newer { .. }), "{err}");
        assert!(err.to_string().contains("newer"), "{err}");
    }

    /// Whether some connection (of any process) holds `SQLite`'s shared lock on the file
    /// `probe` is open on, as an outside program closing the file would find: a write lock on
    /// the shared bytes, asked for through an open file description of its own, conflicts.
    /// (The probe is opened before the connections and closed after them: closing it earlier
    /// would itself drop this process's locks.)
    #[cfg(target_os = "linux")]
    fn shared_lock_held(probe: &std::fs::File) -> bool {
        use std::os::fd::AsRawFd;
        // SQLite's lock bytes: PENDING at 1 GiB, RESERVED after it, then 510 SHARED bytes.
        const SHARED_FIRST: libc::off_t = 0x4000_0002;
        // SAFETY: fcntl(F_OFD_GETLK) fills one flock through a valid pointer on an open fd.
        let mut lock: libc::flock = unsafe { std::mem::zeroed() };
        lock.l_type = libc::F_WRLCK as libc::c_short;
        lock.l_whence = libc::SEEK_SET as libc::c_short;
        lock.l_start = SHARED_FIRST;
        lock.l_len = 510;
        let asked = unsafe { libc::fcntl(probe.as_raw_fd(), libc::F_OFD_GETLK, &raw mut lock) };
        assert_eq!(asked, 0, "F_OFD_GETLK");
        lock.l_type != libc::F_UNLCK as libc::c_short
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn opening_the_file_again_in_the_same_process_keeps_the_first_connections_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        drop(History::open(&path).unwrap());
        let probe = std::fs::File::open(&path).unwrap();
        let first = History::open(&path).unwrap();
        assert!(
            shared_lock_held(&probe),
            "an open connection holds the file"
        );
        // The dashboard opens the file twice: the audit log, then the records' histories.
        let second = History::open(&path).unwrap();
        assert!(
            shared_lock_held(&probe),
            "the second opening dropped the first connection's lock: an outside reader would \
             delete the write-ahead log"
        );
        drop((first, second));
        drop(probe);
    }

    #[test]
    fn two_processes_can_hold_the_file_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        let a = History::open(&path).unwrap();
        let b = History::open(&path).unwrap();
        a.connection()
            .execute_batch("CREATE TABLE IF NOT EXISTS probe (x INTEGER)")
            .unwrap();
        b.connection()
            .execute("INSERT INTO probe VALUES (1)", [])
            .unwrap();
        let n: i64 = a
            .connection()
            .query_row("SELECT count(*) FROM probe", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }
}
