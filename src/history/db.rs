//! The history database: one `SQLite` file in the platform data directory (`history.db`), the
//! file `--history`, `TAXDASH_HISTORY` or the profile's `history` key names, or a team's
//! `PostgreSQL` server named there by its `postgres://` URL ([`Location`]). [`History`] is the
//! handle to either, over the [`Store`] interface; this module opens the file (the server's
//! store is [`super::server::store`]).
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

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::server::connect::{ServerUrl, scheme_of};
use super::store::{DbError, DbErrorKind, Dialect, Param, Row, StagedRecord, Store};

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

/// The file's schema, one step per version: `user_version` is the number of steps applied.
/// Steps are only ever appended; a step, once released, never changes. (The server's are
/// [`super::server::store::MIGRATIONS`].)
pub(crate) const MIGRATIONS: &[&str] = &[
    super::snapshot::MIGRATION,
    super::audit::MIGRATION,
    super::snapshot::BODIES_BY_ROW,
    TEAM_COLUMNS,
    PACKED_BODIES,
];

/// The migration step from which a snapshot's bodies may be stored packed ([`super::body`]):
/// the tables do not change (a text column of `SQLite` keeps bytes too), but a version that
/// would read a packed body as text must refuse the file, and does, by its version.
const PACKED_BODIES: &str = "-- snapshot_bodies.body: text, or a body packed by history::body";

/// The migration step that gives entries and snapshots what a team's history needs: a key that
/// is the same in every copy (`uid`, so that `history copy` never stores one twice), who sent a
/// write, and who took a snapshot.
const TEAM_COLUMNS: &str = "
    ALTER TABLE audit_entries ADD COLUMN uid TEXT;
    ALTER TABLE audit_entries ADD COLUMN who TEXT NOT NULL DEFAULT '';
    UPDATE audit_entries SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX audit_entries_uid ON audit_entries (uid);
    ALTER TABLE snapshot_runs ADD COLUMN uid TEXT;
    ALTER TABLE snapshot_runs ADD COLUMN taken_by TEXT NOT NULL DEFAULT '';
    UPDATE snapshot_runs SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX snapshot_runs_uid ON snapshot_runs (uid);
";

/// Where a history is kept, as `--history`, `TAXDASH_HISTORY` or a profile's `history` key
/// name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// In memory, gone when the process ends (`--demo` without `--history`).
    Memory,
    /// An `SQLite` file.
    File(PathBuf),
    /// A team's `PostgreSQL` server.
    Server(ServerUrl),
}

impl Location {
    /// What `text` names: a `postgres://` or `postgresql://` URL is a server, any other URL is
    /// refused in words (never taken for a file name), anything else is a file.
    pub fn parse(text: &std::ffi::OsStr) -> Result<Location, HistoryError> {
        let Some(s) = text.to_str() else {
            return Ok(Location::File(PathBuf::from(text)));
        };
        match scheme_of(s) {
            Some(scheme)
                if scheme.eq_ignore_ascii_case("postgres")
                    || scheme.eq_ignore_ascii_case("postgresql") =>
            {
                ServerUrl::parse(s)
                    .map(Location::Server)
                    .map_err(|e| HistoryError::BadUrl(e.to_string()))
            }
            Some(scheme) => Err(HistoryError::OtherScheme {
                scheme: scheme.to_owned(),
            }),
            None => Ok(Location::File(PathBuf::from(s))),
        }
    }

    /// The place as errors and messages name it (a server without its password).
    pub fn place(&self) -> Place {
        match self {
            Location::Memory => Place::Memory,
            Location::File(path) => Place::File(path.clone()),
            Location::Server(url) => Place::Server(url.redacted()),
        }
    }
}

/// A history's place, as messages name it: the file's path, or the server's URL without its
/// password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Memory,
    File(PathBuf),
    Server(String),
}

impl Place {
    /// The file, when the history is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Place::File(path) => Some(path),
            _ => None,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Memory => f.write_str(":memory:"),
            Place::File(path) => write!(f, "{}", path.display()),
            Place::Server(url) => f.write_str(url),
        }
    }
}

/// Why the history database cannot be used. Every message names the file or the server.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error(
        "no data directory is known on this system: name the history database with --history FILE or TAXDASH_HISTORY"
    )]
    NoDataDir,
    #[error(
        "{scheme}:// is not a history database: name a file, or a team's PostgreSQL server as postgres://USER@HOST:PORT/DB"
    )]
    OtherScheme { scheme: String },
    #[error("the history server's URL is not usable: {0}")]
    BadUrl(String),
    #[error(
        "the profile's history {url} holds a password: a password is never kept in the config file; keep it in the keyring (`taxdash history login URL`), PGPASSWORD or ~/.pgpass, and remove it from the URL"
    )]
    PasswordInConfig { url: String },
    #[error("the history database {path} cannot be opened: {reason}")]
    Unreadable { path: Place, reason: String },
    #[error("{path} is not a taxdash history database ({reason}); it was left untouched")]
    Corrupt { path: Place, reason: String },
    #[error(
        "the history database {path} has schema version {found}, newer than this taxdash knows ({known}); it was left untouched: use a newer taxdash, or another history with --history"
    )]
    Newer { path: Place, found: i64, known: i64 },
    #[error("the history database {path} could not be written: {reason}")]
    Write { path: Place, reason: String },
    #[error("the history database {path} is full or the disk is full: {reason}")]
    Full { path: Place, reason: String },
    #[error(
        "the history server {path} does not answer: {reason}; nothing that must be recorded is sent until it does"
    )]
    Unreachable { path: Place, reason: String },
    #[error("the history server {path} refused this role: {reason}")]
    Denied { path: Place, reason: String },
}

impl HistoryError {
    /// Whether the history could not be reached at all (a server away), as opposed to a
    /// statement it refused.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, HistoryError::Unreachable { .. })
    }
}

/// An open history database: a file or a server, behind the one [`Store`] interface.
pub struct History {
    location: Location,
    place: Place,
    store: Box<dyn Store>,
    /// The snapshot being stored as it is read, if one is (see
    /// [`History::begin_staged_snapshot`]).
    pub(super) staging: Option<super::snapshot::Staging>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("place", &self.place)
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

/// Where the history is: what `named` (`--history`, or `TAXDASH_HISTORY` as clap reads it)
/// says, else the profile's `history` key, else `TAXDASH_HISTORY`, else the platform file.
pub fn default_location(
    named: Option<&Path>,
    profile: Option<&str>,
) -> Result<Location, HistoryError> {
    if let Some(named) = named {
        return Location::parse(named.as_os_str());
    }
    if let Some(path) = std::env::var_os(ENV_HISTORY).filter(|p| !p.is_empty()) {
        return Location::parse(&path);
    }
    if let Some(profile) = profile.filter(|p| !p.trim().is_empty()) {
        let location = Location::parse(std::ffi::OsStr::new(profile.trim()))?;
        if let Location::Server(url) = &location
            && url.has_password()
        {
            return Err(HistoryError::PasswordInConfig {
                url: url.redacted(),
            });
        }
        return Ok(location);
    }
    default_path(None).map(Location::File)
}

impl History {
    /// Opens the history at `location`: the file (see [`History::open`]), a new database in
    /// memory, or the team's server (connected, its schema checked and brought up to date).
    pub fn open_at(location: &Location) -> Result<History, HistoryError> {
        match location {
            Location::Memory => Ok(History::in_memory()),
            Location::File(path) => History::open(path),
            Location::Server(url) => super::server::store::open(url),
        }
    }

    /// Opens the history at `location` as the dashboard does: a server that does not answer
    /// now is told (the second value) but kept, to be connected again at its next statement;
    /// anything else that cannot be used is an error, as with [`History::open_at`].
    pub fn open_at_lenient(
        location: &Location,
    ) -> Result<(History, Option<HistoryError>), HistoryError> {
        match location {
            Location::Server(url) => match super::server::store::open_lenient(url) {
                (history, Some(problem)) if problem.is_unreachable() => {
                    Ok((history, Some(problem)))
                }
                (_, Some(problem)) => Err(problem),
                (history, None) => Ok((history, None)),
            },
            other => History::open_at(other).map(|h| (h, None)),
        }
    }

    /// A history over `store` at `location`.
    pub(crate) fn over(location: Location, store: Box<dyn Store>) -> History {
        History {
            place: location.place(),
            location,
            store,
            staging: None,
        }
    }

    /// Opens the history database at `path`, creating it (and its directory) when missing.
    /// An existing file is checked before anything is written to it: `SQLite`, with taxdash's
    /// history application id (or a blank new database), and a schema no newer than this
    /// program's. Then the schema is brought up to date in one transaction.
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        let place = Place::File(path.to_owned());
        let location = Location::File(path.to_owned());
        let existed = path.exists();
        if !existed && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| HistoryError::Unreadable {
                path: place.clone(),
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
            path: place.clone(),
            reason: e.to_string(),
        })?;
        if !existed {
            restrict(path);
        }
        History::setup(location, conn)
    }

    /// A database in memory, gone when dropped: `--demo` without `--history`, and tests.
    pub fn in_memory() -> History {
        let conn = Connection::open_in_memory().expect("an in-memory database opens");
        History::setup(Location::Memory, conn).expect("an in-memory database migrates")
    }

    fn setup(location: Location, mut conn: Connection) -> Result<History, HistoryError> {
        let place = location.place();
        let corrupt = |e: rusqlite::Error| classify(&place, &e, true);
        conn.busy_timeout(BUSY_TIMEOUT).map_err(corrupt)?;
        // The first read of the file: one that is not SQLite fails here, before anything is
        // written to it.
        let id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::NotADatabase) => HistoryError::Corrupt {
                    path: place.clone(),
                    reason: "it is not an SQLite database".to_owned(),
                },
                _ => corrupt(e),
            })?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(corrupt)?;
        if id != APPLICATION_ID && (id != 0 || version != 0 || has_tables(&conn)) {
            return Err(HistoryError::Corrupt {
                path: place,
                reason: "it is an SQLite database of another program".to_owned(),
            });
        }
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(HistoryError::Newer {
                path: place,
                found: version,
                known,
            });
        }
        if place != Place::Memory {
            let mode: String = conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
                .map_err(corrupt)?;
            if !mode.eq_ignore_ascii_case("wal") {
                tracing::warn!("the history database {place} stays in {mode} mode");
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
            let fail = |e: rusqlite::Error| classify(&place, &e, false);
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
        Ok(History::over(location, Box::new(FileStore { conn })))
    }

    /// Where the history is, as it was opened (a connection of its own can be opened there).
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Where the history is: the file, `:memory:`, or the server's URL without its password.
    pub fn place(&self) -> &Place {
        &self.place
    }

    /// The store's dialect.
    pub fn dialect(&self) -> Dialect {
        self.store.dialect()
    }

    /// The store, for the history's own statements.
    pub(crate) fn store(&self) -> &dyn Store {
        &*self.store
    }

    /// The `SQLite` connection of a history kept in a file or in memory; `None` on a server.
    pub fn sqlite(&self) -> Option<&Connection> {
        self.store.sqlite()
    }

    /// A failed statement as a [`HistoryError`] naming this history: a full disk or database is
    /// told as such, a server away as such, anything else as a failed write.
    pub fn error(&self, e: &DbError) -> HistoryError {
        from_db(&self.place, e, false)
    }

    /// Runs one statement: how many rows it changed. A failure names this history.
    pub(crate) fn exec(&self, sql: &str, params: &[Param<'_>]) -> Result<u64, HistoryError> {
        self.store
            .execute(sql, params)
            .map_err(|e| from_db(&self.place, &e, false))
    }

    /// Runs one statement: its rows. A failure names this history.
    pub(crate) fn rows(&self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, HistoryError> {
        self.store
            .query(sql, params)
            .map_err(|e| from_db(&self.place, &e, true))
    }

    /// Runs `work` in one transaction that takes the write lock at once, committed when `work`
    /// succeeds and rolled back when it fails: a failure is told naming the history.
    pub(crate) fn write_in_one<T>(
        &self,
        work: impl FnOnce(&dyn Store) -> Result<T, DbError>,
    ) -> Result<T, HistoryError> {
        let store = &*self.store;
        let begin = match store.dialect() {
            Dialect::Sqlite => "BEGIN IMMEDIATE",
            Dialect::Postgres => "BEGIN",
        };
        let done = store.batch(begin).and_then(|()| {
            let out = work(store);
            match out {
                Ok(out) => store.batch("COMMIT").map(|()| out),
                Err(e) => {
                    if let Err(rollback) = store.batch("ROLLBACK") {
                        tracing::debug!("rollback after a failure failed too: {rollback}");
                    }
                    Err(e)
                }
            }
        });
        done.map_err(|e| from_db(&self.place, &e, false))
    }

    /// [`write_in_one`](Self::write_in_one), without waiting for the disk to have it: for
    /// what nothing reads until a later transaction, which waits for the disk, points at it
    /// (the log is written in order, so that wait covers this one's too).
    pub(crate) fn write_ahead<T>(
        &self,
        work: impl FnOnce(&dyn Store) -> Result<T, DbError>,
    ) -> Result<T, HistoryError> {
        match self.store.dialect() {
            Dialect::Sqlite => {
                let relax = |level: &str| {
                    self.store
                        .batch(&format!("PRAGMA synchronous = {level}"))
                        .map_err(|e| from_db(&self.place, &e, false))
                };
                relax("NORMAL")?;
                let done = self.write_in_one(work);
                relax("FULL").and(done)
            }
            Dialect::Postgres => self.write_in_one(|store| {
                store.batch("SET LOCAL synchronous_commit = off")?;
                work(store)
            }),
        }
    }
}

fn has_tables(conn: &Connection) -> bool {
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    })
    .map_or(true, |n| n > 0)
}

/// A store's failure as ours, naming `place`.
pub(crate) fn from_db(place: &Place, e: &DbError, reading: bool) -> HistoryError {
    let (path, reason) = (place.clone(), e.message.clone());
    match e.kind {
        DbErrorKind::Full => HistoryError::Full { path, reason },
        DbErrorKind::Corrupt => HistoryError::Corrupt {
            path,
            reason: format!("it cannot be read as a database: {reason}"),
        },
        DbErrorKind::Unreachable => HistoryError::Unreachable { path, reason },
        DbErrorKind::Denied => HistoryError::Denied { path, reason },
        DbErrorKind::Newer { found, known } => HistoryError::Newer { path, found, known },
        DbErrorKind::Other if reading => HistoryError::Unreadable { path, reason },
        DbErrorKind::Other => HistoryError::Write { path, reason },
    }
}

/// `SQLite`'s error as ours: a full disk, a damaged file, or a failed write.
pub(crate) fn classify(place: &Place, e: &rusqlite::Error, reading: bool) -> HistoryError {
    from_db(place, &db_error(e), reading)
}

/// `SQLite`'s error as a store's.
fn db_error(e: &rusqlite::Error) -> DbError {
    use rusqlite::ErrorCode;
    let kind = match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => DbErrorKind::Full,
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => DbErrorKind::Corrupt,
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => DbErrorKind::Denied,
        _ => DbErrorKind::Other,
    };
    DbError::new(kind, e.to_string())
}

/// The store of a history kept in an `SQLite` file (or in memory).
struct FileStore {
    conn: Connection,
}

fn sqlite_params<'a>(params: &'a [Param<'a>]) -> Vec<rusqlite::types::ToSqlOutput<'a>> {
    use rusqlite::types::{ToSqlOutput, ValueRef};
    params
        .iter()
        .map(|p| {
            ToSqlOutput::Borrowed(match *p {
                Param::Null => ValueRef::Null,
                Param::Int(i) => ValueRef::Integer(i),
                Param::Text(s) => ValueRef::Text(s.as_bytes()),
                Param::Blob(b) => ValueRef::Blob(b),
            })
        })
        .collect()
}

fn sqlite_row(row: &rusqlite::Row<'_>, columns: usize) -> rusqlite::Result<Row> {
    use super::store::Value;
    use rusqlite::types::ValueRef;
    let mut out = Vec::with_capacity(columns);
    for i in 0..columns {
        out.push(match row.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Int(n),
            ValueRef::Real(x) => Value::Text(x.to_string()),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        });
    }
    Ok(Row(out))
}

impl Store for FileStore {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn batch(&self, sql: &str) -> Result<(), DbError> {
        self.conn.execute_batch(sql).map_err(|e| db_error(&e))
    }

    fn execute(&self, sql: &str, params: &[Param<'_>]) -> Result<u64, DbError> {
        let mut statement = self.conn.prepare_cached(sql).map_err(|e| db_error(&e))?;
        statement
            .execute(rusqlite::params_from_iter(sqlite_params(params)))
            .map(|n| n as u64)
            .map_err(|e| db_error(&e))
    }

    fn query(&self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DbError> {
        let mut statement = self.conn.prepare_cached(sql).map_err(|e| db_error(&e))?;
        let columns = statement.column_count();
        let rows = statement
            .query_map(rusqlite::params_from_iter(sqlite_params(params)), |r| {
                sqlite_row(r, columns)
            })
            .map_err(|e| db_error(&e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| db_error(&e))
    }

    fn stage(&self, records: &[StagedRecord<'_>]) -> Result<(), DbError> {
        let run = || -> rusqlite::Result<()> {
            // Deferred: a transaction that writes only this connection's own table takes no
            // lock on the file.
            let tx = self.conn.unchecked_transaction()?;
            {
                let mut record = tx.prepare_cached(
                    "INSERT INTO staged_records (resource, record_id, hash) VALUES (?1, ?2, ?3)",
                )?;
                for r in records {
                    record.execute(rusqlite::params![r.resource, r.id, r.hash])?;
                }
            }
            tx.commit()
        };
        run().map_err(|e| db_error(&e))
    }

    fn sqlite(&self) -> Option<&Connection> {
        Some(&self.conn)
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
            .sqlite()
            .unwrap()
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
        a.sqlite()
            .unwrap()
            .execute_batch("CREATE TABLE IF NOT EXISTS probe (x INTEGER)")
            .unwrap();
        b.sqlite()
            .unwrap()
            .execute("INSERT INTO probe VALUES (1)", [])
            .unwrap();
        let n: i64 = a
            .sqlite()
            .unwrap()
            .query_row("SELECT count(*) FROM probe", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }
}
