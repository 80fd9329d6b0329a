//! The state database: one `SQLite` file (`--state FILE`), in WAL mode, held exclusively by the
//! running sandbox.
//!
//! - Durability: every write is one transaction, committed with `synchronous=FULL` before the
//!   handler answers. In WAL mode FULL syncs the log at each commit, so an acknowledged write
//!   survives a crash of the process and of the machine; NORMAL would sync only at checkpoints
//!   and could lose the last writes on a power cut, which an answer that says "saved" must not.
//! - Identity: the file carries the sandbox's `application_id` and its schema version in
//!   `user_version`, raised by the [`MIGRATIONS`] in order. A file that is not `SQLite`, or `SQLite`
//!   without that id, or of a newer schema, stops the start and is never written to.
//! - Creation: a new database is built whole under `FILE.creating` and renamed into place, so a
//!   crash while building leaves no half-made `FILE` (the leftover is removed at the next start).
//!   It is readable and writable by its owner only, as the key file beside it.
//! - Files: the database and, while it runs, its `FILE-wal`; exclusive locking keeps `SQLite` from
//!   making a shared-memory file, and a clean stop folds the log back and removes it.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, params};

use super::records::{Kind, Row};
use crate::sandbox::SandboxError;

/// `PRAGMA application_id` of a sandbox state: "TXDB".
pub(super) const APPLICATION_ID: i32 = 0x5458_4442;

/// The schema, one step per version: `user_version` is the number of steps applied.
const MIGRATIONS: &[&str] = &[
    // 1: settings, organizations, and one row per record.
    "CREATE TABLE settings (
         name TEXT PRIMARY KEY NOT NULL,
         value TEXT NOT NULL
     );
     CREATE TABLE organizations (
         position INTEGER PRIMARY KEY NOT NULL,
         id TEXT NOT NULL UNIQUE,
         next_id INTEGER NOT NULL
     );
     CREATE TABLE records (
         seq INTEGER PRIMARY KEY,
         org TEXT NOT NULL,
         kind TEXT NOT NULL,
         id TEXT NOT NULL,
         body TEXT NOT NULL,
         bytes BLOB,
         UNIQUE (org, kind, id)
     );",
];

/// What the first bytes of an existing state file say it is.
#[derive(Debug, PartialEq)]
pub(super) enum Found {
    Database,
    /// A JSON state file of the earlier format.
    Json,
}

/// Tells a database from a JSON state file from anything else (refused, naming why).
pub(super) fn sniff(path: &Path) -> Result<Found, SandboxError> {
    let mut head = Vec::with_capacity(64);
    fs::File::open(path)
        .and_then(|f| f.take(64).read_to_end(&mut head))
        .map_err(|source| SandboxError::StateUnreadable {
            path: path.to_owned(),
            source,
        })?;
    if head.starts_with(b"SQLite format 3\0") {
        return Ok(Found::Database);
    }
    match head.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Ok(Found::Json),
        None => Err(corrupt(path, "it is empty")),
        Some(_) => Err(corrupt(
            path,
            "it is neither a sandbox database nor a JSON state file",
        )),
    }
}

pub(super) fn corrupt(path: &Path, reason: impl Into<String>) -> SandboxError {
    SandboxError::StateCorrupt {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

fn write_error(path: &Path, e: impl std::fmt::Display) -> SandboxError {
    SandboxError::StateWrite {
        path: path.to_owned(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// Whether `SQLite` refused because another connection holds the file.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// `FILE.creating`: where a new database is built before it takes the state file's name.
pub(super) fn creating_path(path: &Path) -> PathBuf {
    sibling(path, ".creating")
}

/// `path` with `suffix` appended to its file name.
pub(super) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Removes what an interrupted creation left: `FILE.creating` and its rollback journal.
pub(super) fn remove_leftovers(path: &Path) {
    let creating = creating_path(path);
    for leftover in [sibling(&creating, "-journal"), creating] {
        if leftover.exists()
            && let Err(e) = fs::remove_file(&leftover)
        {
            tracing::warn!("cannot remove {}: {e}", leftover.display());
        }
    }
}

/// Makes the directory entry of a rename durable.
fn sync_dir(path: &Path) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    #[cfg(unix)]
    fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Makes an empty file at `path` that only its owner can read and write (on Unix).
fn owner_only(path: &Path) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map(drop)
}

/// What a new database starts with.
pub(super) struct Initial {
    pub settings: Vec<(&'static str, String)>,
    /// Position, id and next id of each organization.
    pub organizations: Vec<(String, u64)>,
    /// Each organization's id (empty for the users) and its rows, in order.
    pub rows: Vec<(String, Vec<Row>)>,
}

/// Builds a database holding `initial` under `FILE.creating`, then gives it the name `path`.
/// `before_rename` runs just before (the JSON migration keeps the old file there).
pub(super) fn create(
    path: &Path,
    initial: &Initial,
    before_rename: impl FnOnce() -> Result<(), SandboxError>,
) -> Result<(), SandboxError> {
    let creating = creating_path(path);
    remove_leftovers(path);
    let fail = |e: rusqlite::Error| write_error(path, e);
    // Made first, readable by its owner only, like the key file beside it: SQLite keeps the
    // permissions of an existing file (and gives them to its log).
    owner_only(&creating).map_err(|e| write_error(path, e))?;
    {
        let mut conn = Connection::open(&creating).map_err(fail)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(fail)?;
        let tx = conn.transaction().map_err(fail)?;
        migrate(&tx, 0).map_err(fail)?;
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(fail)?;
        for (name, value) in &initial.settings {
            tx.execute(
                "INSERT INTO settings (name, value) VALUES (?1, ?2)",
                params![name, value],
            )
            .map_err(fail)?;
        }
        for (position, (id, next_id)) in initial.organizations.iter().enumerate() {
            tx.execute(
                "INSERT INTO organizations (position, id, next_id) VALUES (?1, ?2, ?3)",
                params![position as i64, id, *next_id as i64],
            )
            .map_err(fail)?;
        }
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO records (org, kind, id, body, bytes) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(fail)?;
            for (org, rows) in &initial.rows {
                for row in rows {
                    insert
                        .execute(params![org, row.kind.name(), row.id, row.body, row.bytes])
                        .map_err(fail)?;
                }
            }
        }
        tx.commit().map_err(fail)?;
        conn.close().map_err(|(_, e)| fail(e))?;
    }
    before_rename()?;
    fs::rename(&creating, path).map_err(|e| write_error(path, e))?;
    sync_dir(path).map_err(|e| write_error(path, e))?;
    Ok(())
}

/// Applies the migrations after the first `from`, and records the version reached.
fn migrate(conn: &Connection, from: usize) -> rusqlite::Result<()> {
    for step in &MIGRATIONS[from..] {
        conn.execute_batch(step)?;
    }
    conn.pragma_update(None, "user_version", MIGRATIONS.len() as i64)
}

/// An open state database.
pub(super) struct Db {
    path: PathBuf,
    conn: Connection,
}

/// One change to write: the organization (empty for users), the kind and key, and the row, or
/// `None` when the record is gone.
pub(super) struct Change {
    pub org: String,
    pub kind: Kind,
    pub id: String,
    pub row: Option<Row>,
}

/// Everything read back from a database, in the order it was written.
pub(super) struct Contents {
    pub settings: Vec<(String, String)>,
    pub organizations: Vec<(String, u64)>,
    /// Organization id (empty for users) and row.
    pub rows: Vec<(String, Row)>,
}

impl Db {
    /// Opens an existing state database after checking that it is one: `SQLite`, with the
    /// sandbox's application id, a schema no newer than this program's, and intact pages. Only
    /// then does it take the file for itself, switch to WAL and bring the schema up to date.
    pub fn open(path: &Path) -> Result<Db, SandboxError> {
        let fail = |e: rusqlite::Error| {
            if is_busy(&e) {
                SandboxError::StateInUse {
                    path: path.to_owned(),
                }
            } else {
                corrupt(path, format!("it cannot be read as a database: {e}"))
            }
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(fail)?;
        // Before any read, so that the lock taken is kept and no shared-memory file is made.
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(fail)?;
        let id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(fail)?;
        if id != APPLICATION_ID {
            return Err(corrupt(
                path,
                format!(
                    "it is a SQLite database of another application (application_id {id:#x}, \
                     not the sandbox's {APPLICATION_ID:#x})"
                ),
            ));
        }
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(fail)?;
        let known = MIGRATIONS.len() as i64;
        if version > known || version < 1 {
            return Err(corrupt(
                path,
                format!(
                    "its schema version is {version}; this taxdash reads versions 1 to {known}"
                ),
            ));
        }
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(fail)?;
        if check != "ok" {
            return Err(corrupt(
                path,
                format!("its integrity check failed: {check}"),
            ));
        }
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(fail)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(fail)?;
        // Takes the write lock now and keeps it: a second sandbox on the same file is refused.
        conn.execute_batch("BEGIN EXCLUSIVE; COMMIT;")
            .map_err(fail)?;
        if version < known {
            conn.execute_batch("BEGIN")
                .and_then(|()| migrate(&conn, version as usize))
                .and_then(|()| conn.execute_batch("COMMIT"))
                .map_err(|e| write_error(path, e))?;
        }
        Ok(Db {
            path: path.to_owned(),
            conn,
        })
    }

    /// Everything the database holds.
    pub fn read(&self) -> Result<Contents, SandboxError> {
        let fail = |e: rusqlite::Error| corrupt(&self.path, format!("it cannot be read: {e}"));
        let settings = self
            .conn
            .prepare("SELECT name, value FROM settings")
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(fail)?;
        let organizations = self
            .conn
            .prepare("SELECT id, next_id FROM organizations ORDER BY position")
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(fail)?;
        let mut statement = self
            .conn
            .prepare("SELECT org, kind, id, body, bytes FROM records ORDER BY seq")
            .map_err(fail)?;
        let mut query = statement.query([]).map_err(fail)?;
        let mut rows = Vec::new();
        while let Some(r) = query.next().map_err(fail)? {
            let kind: String = r.get(1).map_err(fail)?;
            let kind = Kind::parse(&kind).ok_or_else(|| {
                corrupt(
                    &self.path,
                    format!("it holds records of an unknown kind {kind:?}"),
                )
            })?;
            rows.push((
                r.get(0).map_err(fail)?,
                Row {
                    kind,
                    id: r.get(2).map_err(fail)?,
                    body: r.get(3).map_err(fail)?,
                    bytes: r.get(4).map_err(fail)?,
                },
            ));
        }
        Ok(Contents {
            settings,
            organizations,
            rows,
        })
    }

    /// Writes `changes` and the organizations' next ids in one transaction, durable when this
    /// returns.
    pub fn write(
        &mut self,
        changes: &[Change],
        next_ids: &[(String, u64)],
    ) -> Result<(), SandboxError> {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| write_error(&path, e);
        let tx = self.conn.transaction().map_err(fail)?;
        {
            let mut upsert = tx
                .prepare_cached(
                    "INSERT INTO records (org, kind, id, body, bytes) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (org, kind, id) DO UPDATE SET body = excluded.body,
                                                               bytes = excluded.bytes",
                )
                .map_err(fail)?;
            let mut delete = tx
                .prepare_cached("DELETE FROM records WHERE org = ?1 AND kind = ?2 AND id = ?3")
                .map_err(fail)?;
            for c in changes {
                match &c.row {
                    Some(row) => upsert
                        .execute(params![c.org, c.kind.name(), c.id, row.body, row.bytes])
                        .map_err(fail)?,
                    None => delete
                        .execute(params![c.org, c.kind.name(), c.id])
                        .map_err(fail)?,
                };
            }
            let mut next = tx
                .prepare_cached("UPDATE organizations SET next_id = ?2 WHERE id = ?1")
                .map_err(fail)?;
            for (org, next_id) in next_ids {
                next.execute(params![org, *next_id as i64]).map_err(fail)?;
            }
        }
        tx.commit().map_err(fail)
    }
}
