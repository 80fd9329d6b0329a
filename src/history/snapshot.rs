//! Snapshots of compliance state: every record of the chosen resources, whole as the service
//! sent it, stored under one snapshot row per run.
//!
//! - One transaction per snapshot: [`History::write_snapshot`] takes every record at once, so an
//!   interrupted run leaves no half snapshot behind. A snapshot stored as it is read stores its
//!   bodies ahead ([`History::stage_records`]), then points at them in its one transaction
//!   ([`History::write_staged_snapshot`]); should it fail, what it staged is dropped
//!   ([`History::unstage`]) and the bodies it stored ahead, which no snapshot points at, go with
//!   the next prune.
//! - Bodies are stored once: a record unchanged since an earlier snapshot points at the body
//!   already stored (by its SHA-256), so a daily snapshot of a quiet company costs little, and
//!   comparing two snapshots compares hashes before it reads any body.
//! - Records are keyed by resource (the names `taxdash export` uses) and the record's id.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use sha2::{Digest, Sha256};

use super::store::{DbError, DbErrorKind, Dialect, Param, Row, StagedRecord, Store};
use super::{History, HistoryError};
use crate::model::Resource;

/// The migration step that makes the snapshot tables.
pub(crate) const MIGRATION: &str = "
    CREATE TABLE snapshot_runs (
        id INTEGER PRIMARY KEY,
        taken TEXT NOT NULL,
        profile TEXT NOT NULL,
        organization TEXT NOT NULL,
        api TEXT NOT NULL,
        transactions_from TEXT,
        transactions_to TEXT,
        records INTEGER NOT NULL
    );
    CREATE INDEX snapshot_runs_scope ON snapshot_runs (profile, organization, taken);
    CREATE TABLE snapshot_bodies (
        hash BLOB PRIMARY KEY NOT NULL,
        body TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE snapshot_records (
        snapshot INTEGER NOT NULL REFERENCES snapshot_runs (id) ON DELETE CASCADE,
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        hash BLOB NOT NULL REFERENCES snapshot_bodies (hash),
        PRIMARY KEY (snapshot, resource, record_id)
    ) WITHOUT ROWID;
    CREATE INDEX snapshot_records_record ON snapshot_records (resource, record_id);
";

/// The migration step that keeps each body in a row of its own, found by its hash through an
/// index: looking a body up by its hash (to store it once, or to check that a record points at
/// one) then reads hashes only, where the table keyed by the hash itself read every body it
/// compared on the way (a body is larger than a page). Run with foreign keys off (see
/// [`super::db`]): the records' references name the table, which keeps its name.
pub(crate) const BODIES_BY_ROW: &str = "
    CREATE TABLE snapshot_bodies_by_row (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        body TEXT NOT NULL
    );
    INSERT INTO snapshot_bodies_by_row (hash, body) SELECT hash, body FROM snapshot_bodies;
    DROP TABLE snapshot_bodies;
    ALTER TABLE snapshot_bodies_by_row RENAME TO snapshot_bodies;
";

/// Who and what a snapshot is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub profile: String,
    pub organization: String,
    /// The API generation's label (`v1`, `Tenanted 2026-10-06`).
    pub api: String,
    /// The transactions' date range, when they were read (`--transactions FROM..TO`).
    pub transactions: Option<(NaiveDate, NaiveDate)>,
}

/// A stored snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub id: i64,
    pub taken: DateTime<Utc>,
    pub scope: Scope,
    /// How many records it holds.
    pub records: u64,
    /// Who took it (see [`super::who`]); empty for snapshots taken before it was kept.
    pub taken_by: String,
    /// Its key in every copy of the history (`history copy`).
    pub uid: String,
}

/// One record of a snapshot: its resource, id, and JSON text as the service sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub resource: Resource,
    pub id: String,
    pub body: String,
}

/// A record's body's key: its SHA-256.
pub fn hash_of(body: &str) -> [u8; 32] {
    Sha256::digest(body.as_bytes()).into()
}

/// The resource a stored name stands for.
pub fn resource_named(name: &str) -> Option<Resource> {
    Resource::ALL.iter().copied().find(|r| r.name() == name)
}

/// A new key for an entry or a snapshot: 128 random bits in hex.
pub(crate) fn new_uid() -> String {
    format!("{:032x}", rand::random::<u128>())
}

const SELECT_RUN: &str = "SELECT id, taken, profile, organization, api, transactions_from, \
                          transactions_to, records, taken_by, uid FROM snapshot_runs";

fn read_run(row: &Row) -> Snapshot {
    let day = |i: usize| {
        row.opt_text(i)
            .and_then(|s| NaiveDate::parse_from_str(&s, "%Y-%m-%d").ok())
    };
    let transactions = match (day(5), day(6)) {
        (Some(from), Some(to)) => Some((from, to)),
        _ => None,
    };
    Snapshot {
        id: row.int(0),
        taken: DateTime::parse_from_rfc3339(&row.text(1))
            .map_or(DateTime::<Utc>::UNIX_EPOCH, |t| t.with_timezone(&Utc)),
        scope: Scope {
            profile: row.text(2),
            organization: row.text(3),
            api: row.text(4),
            transactions,
        },
        records: u64::try_from(row.int(7)).unwrap_or(0),
        taken_by: row.text(8),
        uid: row.text(9),
    }
}

/// The time as stored: RFC 3339 in UTC to the millisecond, which sorts as it reads.
pub(crate) fn stored_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A run to add: who and what it is of, when, by whom, and its key.
pub(crate) struct NewRun<'a> {
    pub scope: &'a Scope,
    pub taken: DateTime<Utc>,
    pub records: u64,
    pub taken_by: &'a str,
    pub uid: &'a str,
}

/// Adds a run in `store`'s open transaction: its id.
pub(crate) fn insert_run(store: &dyn Store, run: &NewRun<'_>) -> Result<i64, DbError> {
    let (from, to) = run.scope.transactions.map_or((None, None), |(f, t)| {
        (Some(f.to_string()), Some(t.to_string()))
    });
    let taken = stored_time(run.taken);
    let rows = store.query(
        "INSERT INTO snapshot_runs (taken, profile, organization, api, transactions_from, \
         transactions_to, records, taken_by, uid) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        &[
            Param::Text(&taken),
            Param::Text(&run.scope.profile),
            Param::Text(&run.scope.organization),
            Param::Text(&run.scope.api),
            from.as_deref().into(),
            to.as_deref().into(),
            Param::Int(i64::try_from(run.records).unwrap_or(i64::MAX)),
            Param::Text(run.taken_by),
            Param::Text(run.uid),
        ],
    )?;
    Ok(rows.first().map_or(0, |r| r.int(0)))
}

pub(crate) const INSERT_BODY: &str =
    "INSERT INTO snapshot_bodies (hash, body) VALUES (?1, ?2) ON CONFLICT DO NOTHING";

/// The table of this connection's own where the records of a snapshot read a page at a time
/// wait, in the order read, each with its body's hash (the bodies wait in [`Staging`]). Nothing
/// of the database itself is written by staging: it waits for no other writer, and makes none
/// wait.
fn staging(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => {
            "CREATE TEMP TABLE IF NOT EXISTS staged_records (
                seq INTEGER PRIMARY KEY,
                resource TEXT NOT NULL,
                record_id TEXT NOT NULL,
                hash BLOB NOT NULL
            );"
        }
        Dialect::Postgres => {
            "SET client_min_messages = warning;
            CREATE TEMP TABLE IF NOT EXISTS staged_records (
                seq BIGSERIAL PRIMARY KEY,
                resource TEXT NOT NULL,
                record_id TEXT NOT NULL,
                hash BYTEA NOT NULL
            );"
        }
    }
}

/// How many bytes of bodies (as stored) a snapshot holds before it stores them: a snapshot of
/// many records stores its bodies while the rest is read, a few megabytes a transaction, and
/// leaves only the last of them, and its records, to its own transaction.
const BODIES_STORED_AHEAD_AT: usize = 2 << 20;

/// A snapshot being stored as it is read: the connection its records are staged on, and the
/// bodies read and not stored yet, in the order of their hashes (a body read twice held once).
#[derive(Debug, Default)]
pub(crate) struct Staging {
    epoch: u64,
    bodies: BTreeMap<[u8; 32], Vec<u8>>,
    bytes: usize,
}

impl Staging {
    /// Takes the bodies held, in the order of their hashes: so that each page of the hashes'
    /// index is written once a transaction, not once a page read.
    fn take_bodies(&mut self) -> BTreeMap<[u8; 32], Vec<u8>> {
        self.bytes = 0;
        std::mem::take(&mut self.bodies)
    }
}

/// Stores `bodies` (each a hash and a packed body), those already stored skipped.
fn store_bodies(store: &dyn Store, bodies: &BTreeMap<[u8; 32], Vec<u8>>) -> Result<(), DbError> {
    let bodies: Vec<(&[u8], &[u8])> = bodies
        .iter()
        .map(|(hash, body)| (hash.as_slice(), body.as_slice()))
        .collect();
    store.store_bodies(&bodies)
}

/// Fails when `store`'s connection is not the one records were staged on (at `epoch`): checked
/// inside the transaction, after its `BEGIN` has connected again if it had to.
fn same_connection(epoch: Option<u64>, store: &dyn Store) -> Result<(), DbError> {
    match epoch {
        Some(epoch) if epoch != store.epoch() => Err(DbError::new(
            DbErrorKind::Unreachable,
            "the connection was lost while the snapshot was stored; nothing was kept",
        )),
        _ => Ok(()),
    }
}

/// Keeps the bodies from a prune until the transaction under way ends: every transaction that
/// points records at bodies shares the hold, a prune holds it `alone`. On the server, where
/// nothing else keeps a record from pointing at a body a prune removes meanwhile (see
/// `server::store::HOLD_BODIES`); the file has one writer at a time.
fn hold_bodies(store: &dyn Store, alone: bool) -> Result<(), DbError> {
    use super::server::store::{HOLD_BODIES, HOLD_BODIES_ALONE};
    match store.dialect() {
        Dialect::Sqlite => Ok(()),
        Dialect::Postgres => store
            .query(
                if alone {
                    HOLD_BODIES_ALONE
                } else {
                    HOLD_BODIES
                },
                &[],
            )
            .map(drop),
    }
}

/// Empties the staging table.
const UNSTAGED: &str = "DELETE FROM staged_records;";

/// How many records staged point at a body that is stored nowhere: one stored ahead of the
/// snapshot that a prune of another snapshot took away meanwhile.
const STAGED_WITHOUT_BODY: &str = "SELECT count(*) FROM staged_records s \
     WHERE NOT EXISTS (SELECT 1 FROM snapshot_bodies b WHERE b.hash = s.hash)";
pub(crate) const INSERT_RECORD: &str = "INSERT INTO snapshot_records \
     (snapshot, resource, record_id, hash) VALUES (?1, ?2, ?3, ?4) \
     ON CONFLICT (snapshot, resource, record_id) DO UPDATE SET hash = excluded.hash";

/// The records staged, as the snapshot `?1` points at them: of a record read twice, the later.
fn point_at_staged(dialect: Dialect) -> &'static str {
    match dialect {
        // In key order, which the table's tree takes fastest.
        Dialect::Sqlite => {
            "INSERT OR REPLACE INTO snapshot_records (snapshot, resource, record_id, hash) \
             SELECT ?1, resource, record_id, hash FROM staged_records \
             ORDER BY resource, record_id, seq"
        }
        Dialect::Postgres => {
            "INSERT INTO snapshot_records (snapshot, resource, record_id, hash) \
             SELECT DISTINCT ON (resource, record_id) ?1, resource, record_id, hash \
             FROM staged_records ORDER BY resource, record_id, seq DESC"
        }
    }
}

impl History {
    /// Stores `records` as one snapshot of `scope` taken at `taken`, in one transaction:
    /// either all of it is stored, or (on any failure, a full disk included) none of it.
    /// Answers the new snapshot's id.
    pub fn write_snapshot(
        &mut self,
        scope: &Scope,
        taken: DateTime<Utc>,
        records: &[Record],
    ) -> Result<i64, HistoryError> {
        let (who, uid) = (super::who::me(), new_uid());
        self.write_in_one(|store| {
            hold_bodies(store, false)?;
            let id = insert_run(
                store,
                &NewRun {
                    scope,
                    taken,
                    records: records.len() as u64,
                    taken_by: &who,
                    uid: &uid,
                },
            )?;
            for r in records {
                let hash = hash_of(&r.body);
                let body = super::body::pack(&r.body);
                store.execute(INSERT_BODY, &[Param::Blob(&hash), Param::Blob(&body)])?;
                store.execute(
                    INSERT_RECORD,
                    &[
                        Param::Int(id),
                        Param::Text(r.resource.name()),
                        Param::Text(&r.id),
                        Param::Blob(&hash),
                    ],
                )?;
            }
            Ok(id)
        })
    }

    /// Starts storing a snapshot as it is read: what an earlier one left staged is dropped.
    /// The records staged wait in a table of this connection's own (nothing another reader or
    /// writer sees, or waits for) until
    /// [`write_staged_snapshot`](Self::write_staged_snapshot) makes them a snapshot.
    pub fn begin_staged_snapshot(&mut self) -> Result<(), HistoryError> {
        let store = self.store();
        store
            .batch(staging(store.dialect()))
            .and_then(|()| store.batch(UNSTAGED))
            .map_err(|e| self.error(&e))?;
        self.staging = Some(Staging {
            epoch: store.epoch(),
            ..Staging::default()
        });
        Ok(())
    }

    /// Stages records of the snapshot begun, each with its body's hash, so that a snapshot of
    /// many records is stored as it is read, a page at a time, and holds no more than a few
    /// megabytes in memory. Every few megabytes of bodies, those held are stored, in a
    /// transaction of their own that does not wait for the disk (a body no snapshot points at
    /// is one no reader reaches; the snapshot's own transaction waits for them all), so that
    /// the snapshot's transaction is left little to write.
    pub fn stage_records(&mut self, records: &[(Record, [u8; 32])]) -> Result<(), HistoryError> {
        self.same_connection_as_staged()?;
        let batch: Vec<StagedRecord<'_>> = records
            .iter()
            .map(|(r, hash)| StagedRecord {
                resource: r.resource.name(),
                id: &r.id,
                hash,
            })
            .collect();
        // A connection made anew under it has none of the staged records, and is told so.
        let epoch = self.staged_epoch();
        self.store().stage(&batch).map_err(|e| {
            let lost = same_connection(epoch, self.store()).err();
            self.error(lost.as_ref().unwrap_or(&e))
        })?;
        let Some(staging) = self.staging.as_mut() else {
            return Ok(());
        };
        for (r, hash) in records {
            if let std::collections::btree_map::Entry::Vacant(held) = staging.bodies.entry(*hash) {
                let packed = super::body::pack(&r.body);
                staging.bytes += packed.len();
                held.insert(packed);
            }
        }
        if staging.bytes < BODIES_STORED_AHEAD_AT {
            return Ok(());
        }
        let bodies = staging.take_bodies();
        self.write_ahead(|store| {
            same_connection(epoch, store)?;
            store_bodies(store, &bodies)
        })
    }

    /// The connection records were staged on, when a snapshot is staged.
    fn staged_epoch(&self) -> Option<u64> {
        self.staging.as_ref().map(|s| s.epoch)
    }

    /// Fails when the connection records were staged on is gone (a server that went away and
    /// came back): they went with it, and a snapshot written now would miss them.
    fn same_connection_as_staged(&self) -> Result<(), HistoryError> {
        same_connection(self.staged_epoch(), self.store()).map_err(|e| self.error(&e))
    }

    /// Writes the records staged (see [`stage_records`](Self::stage_records)) as one snapshot
    /// of `scope` taken at `taken`, in one transaction: all of it or none of it. Answers the
    /// new snapshot's id.
    pub fn write_staged_snapshot(
        &mut self,
        scope: &Scope,
        taken: DateTime<Utc>,
    ) -> Result<i64, HistoryError> {
        let (who, uid) = (super::who::me(), new_uid());
        self.write_staged_run(scope, taken, &who, &uid)
    }

    /// [`write_staged_snapshot`](Self::write_staged_snapshot) of a snapshot taken by
    /// `taken_by`, keyed `uid` (a snapshot copied from another history keeps both).
    pub(crate) fn write_staged_run(
        &mut self,
        scope: &Scope,
        taken: DateTime<Utc>,
        taken_by: &str,
        uid: &str,
    ) -> Result<i64, HistoryError> {
        self.same_connection_as_staged()?;
        let dialect = self.dialect();
        let epoch = self.staged_epoch();
        let bodies = self
            .staging
            .as_mut()
            .map(Staging::take_bodies)
            .unwrap_or_default();
        let id = self.write_in_one(|store| {
            same_connection(epoch, store)?;
            hold_bodies(store, false)?;
            let records = store
                .query(
                    "SELECT count(*) FROM (SELECT DISTINCT resource, record_id \
                     FROM staged_records) s",
                    &[],
                )?
                .first()
                .map_or(0, |r| r.int(0));
            let id = insert_run(
                store,
                &NewRun {
                    scope,
                    taken,
                    records: u64::try_from(records).unwrap_or(0),
                    taken_by,
                    uid,
                },
            )?;
            store_bodies(store, &bodies)?;
            let without_body = store
                .query(STAGED_WITHOUT_BODY, &[])?
                .first()
                .map_or(0, |r| r.int(0));
            if without_body > 0 {
                return Err(DbError::new(
                    DbErrorKind::Other,
                    "a prune of older snapshots removed bodies this one had stored while it \
                     was read; nothing was kept, take it again",
                ));
            }
            store.execute(point_at_staged(dialect), &[Param::Int(id)])?;
            store.batch(UNSTAGED)?;
            Ok(id)
        })?;
        self.staging = None;
        Ok(id)
    }

    /// Drops what is staged (a snapshot that failed half way leaves nothing behind but the
    /// bodies it stored ahead, which no snapshot points at: the next prune removes them).
    pub fn unstage(&mut self) -> Result<(), HistoryError> {
        self.staging = None;
        let store = self.store();
        store
            .batch(staging(store.dialect()))
            .and_then(|()| store.batch(UNSTAGED))
            .map_err(|e| self.error(&e))
    }

    /// The snapshots, newest first; of one profile and organization when given.
    pub fn snapshots(&self, scope: Option<(&str, &str)>) -> Result<Vec<Snapshot>, HistoryError> {
        let rows = if let Some((profile, organization)) = scope {
            self.rows(
                &format!(
                    "{SELECT_RUN} WHERE profile = ?1 AND organization = ?2 \
                     ORDER BY taken DESC, id DESC"
                ),
                &[Param::Text(profile), Param::Text(organization)],
            )?
        } else {
            self.rows(&format!("{SELECT_RUN} ORDER BY taken DESC, id DESC"), &[])?
        };
        Ok(rows.iter().map(read_run).collect())
    }

    /// The snapshot with id `id`, if stored.
    pub fn snapshot(&self, id: i64) -> Result<Option<Snapshot>, HistoryError> {
        Ok(self
            .rows(&format!("{SELECT_RUN} WHERE id = ?1"), &[Param::Int(id)])?
            .first()
            .map(read_run))
    }

    /// A snapshot's records of `resource`, ordered by id.
    pub fn snapshot_records(
        &self,
        snapshot: i64,
        resource: Resource,
    ) -> Result<Vec<Record>, HistoryError> {
        Ok(self
            .rows(
                "SELECT r.record_id, b.body FROM snapshot_records r \
                 JOIN snapshot_bodies b ON b.hash = r.hash \
                 WHERE r.snapshot = ?1 AND r.resource = ?2 ORDER BY r.record_id",
                &[Param::Int(snapshot), Param::Text(resource.name())],
            )?
            .into_iter()
            .map(|mut row| Record {
                resource,
                id: row.text(0),
                body: row.take_body(1).unwrap_or_default(),
            })
            .collect())
    }

    /// One record across the snapshots of `scope`, oldest first: each snapshot with the
    /// record's body then, or `None` where that snapshot did not hold it.
    pub fn record_history(
        &self,
        scope: (&str, &str),
        resource: Resource,
        record_id: &str,
    ) -> Result<Vec<(Snapshot, Option<String>)>, HistoryError> {
        let mut runs = self.snapshots(Some(scope))?;
        runs.reverse();
        let mut bodies: std::collections::HashMap<i64, String> = self
            .rows(
                "SELECT r.snapshot, b.body FROM snapshot_records r \
                 JOIN snapshot_runs s ON s.id = r.snapshot \
                 JOIN snapshot_bodies b ON b.hash = r.hash \
                 WHERE s.profile = ?1 AND s.organization = ?2 \
                 AND r.resource = ?3 AND r.record_id = ?4",
                &[
                    Param::Text(scope.0),
                    Param::Text(scope.1),
                    Param::Text(resource.name()),
                    Param::Text(record_id),
                ],
            )?
            .into_iter()
            .map(|mut row| (row.int(0), row.take_body(1).unwrap_or_default()))
            .collect();
        Ok(runs
            .into_iter()
            .map(|run| {
                let body = bodies.remove(&run.id);
                (run, body)
            })
            .collect())
    }

    /// Keeps the newest `keep` snapshots of `scope` and removes the others with the bodies no
    /// snapshot points at any more, in one transaction. Answers how many were removed.
    pub fn prune_snapshots(
        &mut self,
        scope: (&str, &str),
        keep: usize,
    ) -> Result<usize, HistoryError> {
        let old: Vec<i64> = self
            .snapshots(Some(scope))?
            .into_iter()
            .skip(keep)
            .map(|s| s.id)
            .collect();
        if old.is_empty() {
            return Ok(0);
        }
        self.write_in_one(|store| {
            hold_bodies(store, true)?;
            for &id in &old {
                store.execute(
                    "DELETE FROM snapshot_records WHERE snapshot = ?1",
                    &[Param::Int(id)],
                )?;
                store.execute("DELETE FROM snapshot_runs WHERE id = ?1", &[Param::Int(id)])?;
            }
            store.batch(
                "DELETE FROM snapshot_bodies WHERE hash NOT IN \
                 (SELECT DISTINCT hash FROM snapshot_records)",
            )
        })?;
        Ok(old.len())
    }
}

#[cfg(test)]
mod tests {
    use crate::history::on_both_stores;

    /// How many rows `table` holds.
    fn count(h: &History, table: &str) -> i64 {
        h.rows(&format!("SELECT count(*) FROM {table}"), &[])
            .unwrap()[0]
            .int(0)
    }

    use rusqlite::params;

    use super::*;

    fn scope(org: &str) -> Scope {
        Scope {
            profile: "work".into(),
            organization: org.into(),
            api: "v1".into(),
            transactions: None,
        }
    }

    fn rec(resource: Resource, id: &str, body: &str) -> Record {
        Record {
            resource,
            id: id.into(),
            body: body.into(),
        }
    }

    fn at(day: u32) -> DateTime<Utc> {
        NaiveDate::from_ymd_opt(2026, 11, day)
            .unwrap()
            .and_hms_opt(9, 0, 0)
            .unwrap()
            .and_utc()
    }

    /// On the server, records do not check their body row by row: a prune that starts while a
    /// snapshot is being written waits for it, and keeps the bodies it points at.
    #[test]
    fn a_prune_waits_for_a_snapshot_being_written_and_keeps_its_bodies() {
        let Some(mut pruner) = crate::history::test_server("prune_waits") else {
            return;
        };
        let location = pruner.location().clone();
        let old = rec(Resource::Customers, "cus_1", r#"{"name":"Old"}"#);
        pruner
            .write_snapshot(&scope("org_1"), at(1), std::slice::from_ref(&old))
            .unwrap();
        let new = rec(Resource::Customers, "cus_1", r#"{"name":"New"}"#);
        pruner
            .write_snapshot(&scope("org_1"), at(2), &[new])
            .unwrap();

        // Another dashboard writes a snapshot that points at the old body, slowly.
        let (held, hold) = std::sync::mpsc::channel();
        let writer = std::thread::spawn(move || {
            let h = History::open_at(&location).unwrap();
            h.write_in_one(|store| {
                hold_bodies(store, false)?;
                held.send(()).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(400));
                let id = insert_run(
                    store,
                    &NewRun {
                        scope: &scope("org_1"),
                        taken: at(3),
                        records: 1,
                        taken_by: "lee",
                        uid: "slow",
                    },
                )?;
                store.execute(
                    INSERT_RECORD,
                    &[
                        Param::Int(id),
                        Param::Text(old.resource.name()),
                        Param::Text(&old.id),
                        Param::Blob(&hash_of(&old.body)),
                    ],
                )?;
                Ok(id)
            })
            .unwrap()
        });
        hold.recv().unwrap();
        // Keeps the newest snapshot committed (the second): the first goes, and its body only
        // if nothing points at it once the writer is done.
        assert_eq!(pruner.prune_snapshots(("work", "org_1"), 1).unwrap(), 1);
        let slow = writer.join().unwrap();
        let records = pruner.snapshot_records(slow, Resource::Customers).unwrap();
        assert_eq!(
            records.len(),
            1,
            "the slow snapshot's record reads with its body"
        );
        assert_eq!(records[0].body, r#"{"name":"Old"}"#);
    }

    on_both_stores! {
    fn a_snapshot_is_read_back_whole_and_unchanged_bodies_are_stored_once(h: History) {
        let first = vec![
            rec(Resource::Nexus, "US-GA", r#"{"status":"APPROACHING"}"#),
            rec(Resource::Nexus, "US-CA", r#"{"status":"EXPOSED"}"#),
            rec(Resource::Customers, "cus_1", r#"{"name":"Acme"}"#),
        ];
        let a = h.write_snapshot(&scope("org_1"), at(1), &first).unwrap();
        let mut second = first.clone();
        second[0].body = r#"{"status":"EXPOSED"}"#.into();
        let b = h.write_snapshot(&scope("org_1"), at(8), &second).unwrap();

        let nexus = h.snapshot_records(a, Resource::Nexus).unwrap();
        assert_eq!(
            nexus.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["US-CA", "US-GA"]
        );
        assert_eq!(nexus[1].body, r#"{"status":"APPROACHING"}"#);
        let bodies: i64 = count(&h, "snapshot_bodies");
        assert_eq!(bodies, 3, "two identical bodies share one row");
        let runs = h.snapshots(Some(("work", "org_1"))).unwrap();
        assert_eq!(runs.iter().map(|s| s.id).collect::<Vec<_>>(), [b, a]);
        assert_eq!(runs[0].records, 3);
        assert_eq!(h.snapshot(a).unwrap().unwrap().taken, at(1));
    }
    }

    on_both_stores! {
    fn bodies_are_stored_packed_and_read_back_as_they_were(h: History) {
        let lines: Vec<String> = (0..40)
            .map(|i| format!(r#"{{"line":{i},"amount":"12.50","tax_code":"P0000000"}}"#))
            .collect();
        let body = format!(r#"{{"id":"txn_1","lines":[{}]}}"#, lines.join(","));
        h.begin_staged_snapshot().unwrap();
        let record = rec(Resource::Transactions, "txn_1", &body);
        let hash = hash_of(&record.body);
        h.stage_records(&[(record, hash)]).unwrap();
        let one = h.write_staged_snapshot(&scope("org_1"), at(1)).unwrap();
        let stored = h.rows("SELECT body FROM snapshot_bodies", &[]).unwrap();
        let Some(crate::history::store::Value::Blob(bytes)) = stored[0].0.first() else {
            panic!("a body is stored as bytes: {stored:?}");
        };
        assert!(
            bytes.len() * 4 < body.len(),
            "{} bytes stored for a body of {}",
            bytes.len(),
            body.len()
        );
        assert_eq!(
            h.snapshot_records(one, Resource::Transactions).unwrap()[0].body,
            body
        );
        assert_eq!(
            h.record_history(("work", "org_1"), Resource::Transactions, "txn_1")
                .unwrap()[0]
                .1
                .as_deref(),
            Some(body.as_str())
        );
    }
    }

    on_both_stores! {
    fn a_records_history_names_each_snapshot_and_its_absence(h: History) {
        h.write_snapshot(&scope("org_1"), at(1), &[]).unwrap();
        h.write_snapshot(
            &scope("org_1"),
            at(2),
            &[rec(
                Resource::Exemptions,
                "exmp_1",
                r#"{"status":"ACTIVE"}"#,
            )],
        )
        .unwrap();
        h.write_snapshot(
            &scope("org_2"),
            at(3),
            &[rec(Resource::Exemptions, "exmp_1", r#"{"status":"X"}"#)],
        )
        .unwrap();
        let seen = h
            .record_history(("work", "org_1"), Resource::Exemptions, "exmp_1")
            .unwrap();
        let bodies: Vec<_> = seen.iter().map(|(_, b)| b.as_deref()).collect();
        assert_eq!(bodies, [None, Some(r#"{"status":"ACTIVE"}"#)]);
    }
    }

    on_both_stores! {
    fn pruning_keeps_the_newest_and_drops_orphan_bodies(h: History) {
        for day in 1..=4 {
            let body = format!(r#"{{"day":{day}}}"#);
            h.write_snapshot(
                &scope("org_1"),
                at(day),
                &[rec(Resource::Filings, "fil_1", &body)],
            )
            .unwrap();
        }
        h.write_snapshot(&scope("org_2"), at(1), &[]).unwrap();
        assert_eq!(h.prune_snapshots(("work", "org_1"), 2).unwrap(), 2);
        let left = h.snapshots(Some(("work", "org_1"))).unwrap();
        assert_eq!(
            left.iter().map(|s| s.taken).collect::<Vec<_>>(),
            [at(4), at(3)]
        );
        assert_eq!(h.snapshots(Some(("work", "org_2"))).unwrap().len(), 1);
        let bodies: i64 = count(&h, "snapshot_bodies");
        assert_eq!(bodies, 2);
    }
    }

    on_both_stores! {
    fn records_staged_are_written_or_taken_back(h: History) {
        let kept = rec(Resource::Customers, "a", r#"{"v":1}"#);
        h.write_snapshot(&scope("org_1"), at(1), std::slice::from_ref(&kept))
            .unwrap();
        let bodies = |h: &History| count(h, "snapshot_bodies");
        let staged = |records: &[Record]| -> Vec<(Record, [u8; 32])> {
            records
                .iter()
                .map(|r| (r.clone(), hash_of(&r.body)))
                .collect()
        };
        let changed = rec(Resource::Customers, "a", r#"{"v":2}"#);
        h.begin_staged_snapshot().unwrap();
        h.stage_records(&staged(&[kept.clone(), changed.clone()]))
            .unwrap();
        assert_eq!(bodies(&h), 1, "nothing is stored before the snapshot is written");
        // The snapshot failed: nothing of it is kept, nor is anything of the earlier one lost.
        h.unstage().unwrap();
        assert_eq!(bodies(&h), 1);
        assert_eq!(h.rows("SELECT count(*) FROM staged_records", &[]).unwrap()[0].int(0), 0);
        assert_eq!(h.snapshots(None).unwrap().len(), 1);
        // Staged, then written: read back as any snapshot, the later of a record read twice.
        h.begin_staged_snapshot().unwrap();
        h.stage_records(&staged(&[kept, rec(Resource::Nexus, "US-GA", "{}")]))
            .unwrap();
        h.stage_records(&staged(std::slice::from_ref(&changed)))
            .unwrap();
        let id = h.write_staged_snapshot(&scope("org_1"), at(2)).unwrap();
        assert_eq!(
            h.snapshot_records(id, Resource::Customers).unwrap(),
            [changed]
        );
        assert_eq!(h.snapshot_records(id, Resource::Nexus).unwrap().len(), 1);
        // A record read twice is held, and counted, once.
        assert_eq!(h.snapshot(id).unwrap().unwrap().records, 2);
        // Nothing is left staged: taking it back now takes nothing.
        h.unstage().unwrap();
        assert_eq!(bodies(&h), 3);
    }
    }

    /// Records whose bodies, packed, come to more than a few megabytes (they do not pack).
    fn many_records(n: usize) -> Vec<(Record, [u8; 32])> {
        (0..n)
            .map(|i| {
                let noise: String = (0..24)
                    .map(|k| hex(&hash_of(&format!("{i}.{k}"))))
                    .collect();
                let r = rec(
                    Resource::Transactions,
                    &format!("t{i}"),
                    &format!(r#"{{"n":"{noise}"}}"#),
                );
                let hash = hash_of(&r.body);
                (r, hash)
            })
            .collect()
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().fold(String::new(), |mut text, b| {
            let _ = std::fmt::Write::write_fmt(&mut text, format_args!("{b:02x}"));
            text
        })
    }

    on_both_stores! {
    fn a_large_snapshot_stores_its_bodies_while_it_is_read_and_fails_whole_if_they_are_pruned(
        h: History
    ) {
        let bodies = |h: &History| count(h, "snapshot_bodies");
        let records = many_records(2_000);
        h.begin_staged_snapshot().unwrap();
        for page in records.chunks(100) {
            h.stage_records(page).unwrap();
        }
        let ahead = bodies(&h);
        assert!(
            ahead > 0 && ahead < 2_000,
            "some bodies are stored before the snapshot, not all: {ahead}"
        );
        assert!(h.snapshots(None).unwrap().is_empty(), "no snapshot yet");
        let id = h.write_staged_snapshot(&scope("org_1"), at(1)).unwrap();
        assert_eq!(bodies(&h), 2_000);
        let read = h.snapshot_records(id, Resource::Transactions).unwrap();
        assert_eq!(read.len(), 2_000);
        assert!(read.contains(&records[1_234].0));

        // A second snapshot whose early bodies a prune (of the first) takes away meanwhile.
        let second = many_records(2_100);
        h.begin_staged_snapshot().unwrap();
        for page in second[2_000..].chunks(50).chain(second[..2_000].chunks(100)) {
            h.stage_records(page).unwrap();
        }
        h.write_snapshot(&scope("org_1"), at(2), &[]).unwrap();
        assert_eq!(h.prune_snapshots(("work", "org_1"), 1).unwrap(), 1);
        let e = h.write_staged_snapshot(&scope("org_1"), at(3)).unwrap_err();
        assert!(e.to_string().contains("take it again"), "{e}");
        assert_eq!(h.snapshots(None).unwrap().len(), 1, "nothing of it was kept");
        h.unstage().unwrap();
    }
    }

    #[test]
    fn a_database_of_bodies_keyed_by_hash_keeps_its_snapshots_when_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        {
            // The schema before bodies had rows of their own, with one snapshot in it.
            let conn = rusqlite::Connection::open(&path).unwrap();
            for step in &super::super::db::MIGRATIONS[..2] {
                conn.execute_batch(step).unwrap();
            }
            conn.pragma_update(None, "user_version", 2).unwrap();
            conn.pragma_update(None, "application_id", super::super::db::APPLICATION_ID)
                .unwrap();
            let hash = hash_of(r#"{"v":1}"#);
            conn.execute_batch(
                "INSERT INTO snapshot_runs VALUES (1, '2026-11-01T09:00:00.000Z', 'work', \
                 'org_1', 'v1', NULL, NULL, 1);",
            )
            .unwrap();
            conn.execute(
                "INSERT INTO snapshot_bodies (hash, body) VALUES (?1, ?2)",
                params![&hash[..], r#"{"v":1}"#],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO snapshot_records VALUES (1, 'customers', 'a', ?1)",
                params![&hash[..]],
            )
            .unwrap();
        }
        let h = History::open(&path).unwrap();
        assert_eq!(
            h.snapshot_records(1, Resource::Customers).unwrap(),
            [rec(Resource::Customers, "a", r#"{"v":1}"#)]
        );
        let by_row: i64 = h
            .sqlite()
            .unwrap()
            .query_row("SELECT id FROM snapshot_bodies", [], |r| r.get(0))
            .unwrap();
        assert_eq!(by_row, 1);
        // The body stored as text is the one a new snapshot of the same record points at:
        // packed bodies and text bodies are keyed alike.
        let mut h = h;
        let b = h
            .write_snapshot(
                &scope("org_1"),
                at(2),
                &[
                    rec(Resource::Customers, "a", r#"{"v":1}"#),
                    rec(Resource::Customers, "c", r#"{"v":2}"#),
                ],
            )
            .unwrap();
        assert_eq!(count(&h, "snapshot_bodies"), 2);
        assert_eq!(
            h.snapshot_records(b, Resource::Customers).unwrap(),
            [
                rec(Resource::Customers, "a", r#"{"v":1}"#),
                rec(Resource::Customers, "c", r#"{"v":2}"#)
            ]
        );
        assert!(h.diff(1, b).unwrap().unwrap().changes.len() == 1);
        // The records still point at the bodies' table, and the reference is checked.
        assert!(
            h.sqlite()
                .unwrap()
                .execute(
                    "INSERT INTO snapshot_records VALUES (1, 'customers', 'b', ?1)",
                    params![&hash_of("{}")[..]],
                )
                .is_err()
        );
    }

    #[test]
    fn a_failed_snapshot_leaves_nothing_behind() {
        let mut h = History::in_memory();
        // A trigger that refuses the third record stands in for a failure half way (a full
        // disk): the whole snapshot must be rolled back.
        h.sqlite()
            .unwrap()
            .execute_batch(
                "CREATE TEMP TRIGGER refuse BEFORE INSERT ON snapshot_records \
                 WHEN NEW.record_id = 'c' BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
            )
            .unwrap();
        let records = [
            rec(Resource::Customers, "a", "{}"),
            rec(Resource::Customers, "b", "{\"x\":1}"),
            rec(Resource::Customers, "c", "{\"x\":2}"),
        ];
        assert!(h.write_snapshot(&scope("org_1"), at(1), &records).is_err());
        assert!(h.snapshots(None).unwrap().is_empty());
        let rows: i64 = count(&h, "snapshot_records");
        assert_eq!(rows, 0);
    }
}
