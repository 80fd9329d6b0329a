//! `taxdash history copy`: a personal history moved into a team's (or back), entries and
//! snapshots, each stored once however often it runs.
//!
//! - Every entry and snapshot carries a key of its own (`uid`) made where it was first
//!   recorded; a copy keeps it, so an entry or snapshot already in the target is left as it is.
//! - An entry is copied as it was stored, its outcome included (one still `sent` is shown
//!   `unknown` in the target once its writer is gone, as anywhere).
//! - A snapshot is copied whole in one transaction of the target, its records staged a chunk
//!   at a time as a snapshot read from the service is, so a copy stopped half way leaves no
//!   half snapshot behind; its bodies are stored once in the target too.

use super::snapshot::{Record, Snapshot, hash_of, resource_named};
use super::store::Param;
use super::{History, HistoryError};

/// Records staged at once while a snapshot is copied.
const CHUNK: usize = 2_000;

/// What a copy did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Copied {
    /// Entries stored in the target, and those it held already.
    pub entries: usize,
    pub entries_there: usize,
    /// Snapshots stored in the target, and those it held already.
    pub snapshots: usize,
    pub snapshots_there: usize,
    /// Records of the snapshots stored.
    pub records: u64,
}

impl std::fmt::Display for Copied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} audit entries copied ({} already there), {} snapshots copied with {} records ({} already there)",
            self.entries, self.entries_there, self.snapshots, self.records, self.snapshots_there
        )
    }
}

/// How far a copy has come, told after each step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The entries are copied: this many of them were new.
    Entries { copied: usize, of: usize },
    /// Snapshot `done` of `of` is copied (or was there).
    Snapshot {
        done: usize,
        of: usize,
        records: u64,
    },
}

const ENTRY_COLUMNS: &str = "uid, started_at, finished_at, who, profile, organization, \
     generation, api_release, method, path, resource, record_id, body, outcome, status, \
     request_id, error, writer_pid, writer_start";

/// Copies every entry and snapshot of `from` that `to` does not hold.
pub fn copy(
    from: &History,
    to: &mut History,
    mut progress: impl FnMut(Step),
) -> Result<Copied, HistoryError> {
    let mut copied = Copied::default();
    let entries = from.rows(
        &format!("SELECT {ENTRY_COLUMNS} FROM audit_entries ORDER BY started_at, id"),
        &[],
    )?;
    let insert = format!(
        "INSERT INTO audit_entries ({ENTRY_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, \
         ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19) ON CONFLICT (uid) DO NOTHING"
    );
    let new = to.write_in_one(|store| {
        let mut new = 0;
        for row in &entries {
            let text = |i: usize| row.opt_text(i);
            let values: Vec<Option<String>> = (0..19).map(text).collect();
            let mut params: Vec<Param<'_>> = values.iter().map(|v| v.as_deref().into()).collect();
            params[14] = row.opt_int(14).into();
            params[17] = Param::Int(row.int(17));
            new += store.execute(&insert, &params)?;
        }
        Ok(new)
    })?;
    copied.entries = usize::try_from(new).unwrap_or(usize::MAX);
    copied.entries_there = entries.len() - copied.entries;
    progress(Step::Entries {
        copied: copied.entries,
        of: entries.len(),
    });

    let mut runs = from.snapshots(None)?;
    runs.reverse();
    let there: std::collections::HashSet<String> = to
        .rows("SELECT uid FROM snapshot_runs", &[])?
        .iter()
        .map(|r| r.text(0))
        .collect();
    for (i, run) in runs.iter().enumerate() {
        if there.contains(&run.uid) {
            copied.snapshots_there += 1;
        } else {
            copied.records += copy_snapshot(from, to, run)?;
            copied.snapshots += 1;
        }
        progress(Step::Snapshot {
            done: i + 1,
            of: runs.len(),
            records: run.records,
        });
    }
    Ok(copied)
}

/// Copies snapshot `run` of `from` into `to` whole: how many records it holds.
fn copy_snapshot(from: &History, to: &mut History, run: &Snapshot) -> Result<u64, HistoryError> {
    let rows = from.rows(
        "SELECT r.resource, r.record_id, b.body FROM snapshot_records r \
         JOIN snapshot_bodies b ON b.hash = r.hash WHERE r.snapshot = ?1 \
         ORDER BY r.resource, r.record_id",
        &[Param::Int(run.id)],
    )?;
    let records: Vec<(Record, [u8; 32])> = rows
        .into_iter()
        .filter_map(|mut row| {
            let resource = resource_named(&row.text(0))?;
            let body = row.take_body(2).unwrap_or_default();
            let hash = hash_of(&body);
            Some((
                Record {
                    resource,
                    id: row.text(1),
                    body,
                },
                hash,
            ))
        })
        .collect();
    to.begin_staged_snapshot()?;
    let written = (|| {
        for chunk in records.chunks(CHUNK) {
            to.stage_records(chunk)?;
        }
        to.write_staged_run(&run.scope, run.taken, &run.taken_by, &run.uid)
    })();
    if let Err(e) = written {
        if let Err(undo) = to.unstage() {
            tracing::warn!("the bodies of a snapshot not copied stay until the next prune: {undo}");
        }
        return Err(e);
    }
    Ok(records.len() as u64)
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;
    use crate::api::{Generation, SentBody, WriteAnswer, WriteOutcome, WriteSent};
    use crate::history::AuditLog;
    use crate::history::snapshot::Scope;
    use crate::model::Resource;

    fn filled() -> History {
        let mut h = History::in_memory();
        let scope = Scope {
            profile: "work".into(),
            organization: "org_1".into(),
            api: "v1".into(),
            transactions: None,
        };
        let at = |d| {
            NaiveDate::from_ymd_opt(2026, 11, d)
                .unwrap()
                .and_hms_opt(9, 0, 0)
                .unwrap()
                .and_utc()
        };
        let rec = |id: &str, v: u32| Record {
            resource: Resource::Customers,
            id: id.into(),
            body: format!(r#"{{"id":"{id}","v":{v}}}"#),
        };
        h.write_snapshot(&scope, at(1), &[rec("a", 1), rec("b", 1)])
            .unwrap();
        h.write_snapshot(&scope, at(2), &[rec("a", 2), rec("b", 1)])
            .unwrap();
        let log = AuditLog::new(h);
        let id = log
            .record_sent(
                "work",
                "org_1",
                &WriteSent {
                    method: "PATCH",
                    path: "/v1/customers/a",
                    resource: "customers",
                    record_id: Some("a"),
                    organization: "",
                    generation: Generation::V1,
                    body: SentBody::None,
                },
            )
            .unwrap();
        log.record_answer(
            id,
            &WriteAnswer {
                outcome: WriteOutcome::Ok,
                status: Some(200),
                record_id: None,
                request_id: Some("req_9".into()),
                error: None,
            },
        )
        .unwrap();
        log.into_history()
    }

    /// What a person reads of a history: its entries and its snapshots with their records.
    fn seen(h: &History) -> (Vec<String>, Vec<String>) {
        let entries = h
            .audit_entries(None)
            .unwrap()
            .into_iter()
            .map(|e| {
                format!(
                    "{} {} {} {} {:?} {}",
                    e.started_at, e.who, e.method, e.path, e.status, e.outcome
                )
            })
            .collect();
        let snapshots = h
            .snapshots(None)
            .unwrap()
            .into_iter()
            .map(|s| {
                let records = h.snapshot_records(s.id, Resource::Customers).unwrap();
                format!("{} {} {} {:?}", s.taken, s.taken_by, s.records, records)
            })
            .collect();
        (entries, snapshots)
    }

    fn copy_both_ways(server: History) {
        let file = filled();
        let mut server = server;
        let first = copy(&file, &mut server, |_| {}).unwrap();
        assert_eq!((first.entries, first.snapshots, first.records), (1, 2, 4));
        assert_eq!(seen(&server), seen(&file));
        // Twice: nothing more is stored.
        let mut steps = Vec::new();
        let second = copy(&file, &mut server, |s| steps.push(s)).unwrap();
        assert_eq!((second.entries, second.snapshots), (0, 0));
        assert_eq!((second.entries_there, second.snapshots_there), (1, 2));
        assert_eq!(
            steps.len(),
            3,
            "a step for the entries and one per snapshot"
        );
        assert_eq!(seen(&server), seen(&file));
        // And back, into an empty file: the same history.
        let mut back = History::in_memory();
        copy(&server, &mut back, |_| {}).unwrap();
        assert_eq!(seen(&back), seen(&file));
        let again = copy(&server, &mut back, |_| {}).unwrap();
        assert_eq!((again.entries, again.snapshots), (0, 0));
        // A diff reads the same in the copy.
        let runs = back.snapshots(None).unwrap();
        let diff = back.diff(runs[1].id, runs[0].id).unwrap().unwrap();
        assert_eq!(diff.lines(), ["customer a V: 1 → 2"]);
    }

    #[test]
    fn a_copy_into_another_file_and_back_is_the_same_history_and_idempotent() {
        copy_both_ways(History::in_memory());
    }

    #[test]
    fn a_copy_into_the_server_and_back_is_the_same_history_and_idempotent() {
        if let Some(server) = crate::history::test_server("copy") {
            copy_both_ways(server);
        }
    }
}
