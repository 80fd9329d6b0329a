//! The audit log: every write taxdash sends, recorded before it is sent and completed when its
//! answer comes, in the history database's `audit_entries` table.
//!
//! - What is kept: when it started and finished, the profile, the organization, the API
//!   generation and release, the method and path, the resource and record id, the body with
//!   every secret removed (a file upload as its name, type and size), the outcome, the HTTP
//!   status, the service's request id and the error in words. Never a header, so never the API
//!   key; never a secret's value (see [`crate::model::secrets`]).
//! - Outcomes: `ok` (2xx), `refused` (4xx), `failed` (5xx, network, no answer in time),
//!   `unknown` (the write may or may not have reached the service: its process ended, or
//!   stopped waiting, before the answer), `pending` (its process is still waiting).
//! - A write that cannot be recorded is not sent ([`crate::api::AuditSink::sent`]).
//!
//! An entry left without an answer keeps its writer (process id and start time); it is shown
//! `pending` while that process lives and `unknown` once it is gone, so a crash or a kill
//! leaves it marked, never lost.

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::Value;

use super::db::Place;
use super::store::{Dialect, Param, Row};
use super::{History, HistoryError};
use crate::api::{AuditSink, AuditTicket, WriteAnswer, WriteOutcome, WriteSent};

/// The migration step of the audit log.
pub(crate) const MIGRATION: &str = "
CREATE TABLE audit_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    profile TEXT NOT NULL,
    organization TEXT NOT NULL,
    generation TEXT NOT NULL,
    api_release TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    resource TEXT NOT NULL,
    record_id TEXT,
    body TEXT,
    outcome TEXT NOT NULL,
    status INTEGER,
    request_id TEXT,
    error TEXT,
    writer_pid INTEGER NOT NULL,
    writer_start TEXT NOT NULL
);
CREATE INDEX audit_entries_started ON audit_entries (started_at);
";

pub use crate::model::audit::{Entry, Filter, Outcome};

/// The audit log on a history database, shared by the client's recorder and the readers (the
/// `:audit` overlay, `taxdash audit`). Cheap to clone.
#[derive(Clone)]
pub struct AuditLog {
    db: Arc<Mutex<History>>,
}

impl fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditLog").finish_non_exhaustive()
    }
}

/// This process as a writer: its id and when it started (on Linux the kernel's start time, so a
/// later process given the same id is not taken for it).
fn this_writer() -> (u32, &'static str) {
    static START: OnceLock<String> = OnceLock::new();
    let pid = std::process::id();
    let start = START.get_or_init(|| {
        process_start(pid).unwrap_or_else(|| {
            Utc::now()
                .timestamp_nanos_opt()
                .unwrap_or_default()
                .to_string()
        })
    });
    (pid, start.as_str())
}

/// When process `pid` started, if it runs and the system tells.
fn process_start(pid: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22 (starttime); the command name (field 2) may hold spaces, so count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19).map(str::to_owned)
}

/// Whether the writer of an unanswered entry still waits for its answer.
fn writer_alive(pid: i64, start: &str) -> bool {
    let (me, my_start) = this_writer();
    if i64::from(me) == pid {
        return start == my_start;
    }
    u32::try_from(pid)
        .ok()
        .and_then(process_start)
        .is_some_and(|s| s == start)
}

fn now_text() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn parse_time(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// How the entries are selected, in the order [`read_entry`] reads them.
const SELECT_ENTRY: &str = "SELECT id, started_at, finished_at, profile, organization, \
     generation, api_release, method, path, resource, record_id, body, outcome, status, \
     request_id, error, writer_pid, writer_start, who, uid FROM audit_entries";

/// Whether the writer of an unanswered entry (its process id and mark) still waits.
type WriterAlive = dyn Fn(i64, &str) -> bool;

/// One entry as stored; `alive` tells whether the writer of an unanswered one still waits.
fn read_entry(r: &Row, alive: &dyn Fn(i64, &str) -> bool) -> Entry {
    let outcome = match r.text(12).as_str() {
        "ok" => Outcome::Ok,
        "refused" => Outcome::Refused,
        "failed" => Outcome::Failed,
        "sent" if alive(r.int(16), &r.text(17)) => Outcome::Pending,
        _ => Outcome::Unknown,
    };
    Entry {
        id: r.int(0),
        started_at: parse_time(&r.text(1)).unwrap_or_default(),
        finished_at: r.opt_text(2).as_deref().and_then(parse_time),
        who: r.text(18),
        profile: r.text(3),
        organization: r.text(4),
        generation: r.text(5),
        api_release: r.opt_text(6),
        method: r.text(7),
        path: r.text(8),
        resource: r.text(9),
        record_id: r.opt_text(10),
        body: r
            .opt_text(11)
            .and_then(|b| serde_json::from_str(&b).ok())
            .unwrap_or(Value::Null),
        outcome,
        status: r.opt_int(13).and_then(|s| u16::try_from(s).ok()),
        request_id: r.opt_text(14),
        error: r.opt_text(15),
    }
}

impl History {
    /// This process as the writer of an entry in this history: its id, and a mark that tells
    /// whether it still lives (its start time on this machine; on a server, the lock this
    /// process holds there, which other machines can see).
    fn writer(&self) -> (u32, String) {
        match self.dialect() {
            Dialect::Sqlite => {
                let (pid, start) = this_writer();
                (pid, start.to_owned())
            }
            Dialect::Postgres => (
                std::process::id(),
                crate::history::server::store::writer_mark(),
            ),
        }
    }

    /// Whether writers still live, as [`History::writer`] marked them.
    fn writers_alive(&self) -> Result<Box<WriterAlive>, HistoryError> {
        match self.dialect() {
            Dialect::Sqlite => Ok(Box::new(writer_alive)),
            Dialect::Postgres => {
                let live: std::collections::HashSet<String> = self
                    .rows(crate::history::server::store::LIVE_WRITERS, &[])?
                    .iter()
                    .map(|r| r.text(0))
                    .collect();
                Ok(Box::new(move |_, mark: &str| live.contains(mark)))
            }
        }
    }

    /// The audit entries, newest first: all of them, or those started on or after `since`.
    pub fn audit_entries(&self, since: Option<&str>) -> Result<Vec<Entry>, HistoryError> {
        let alive = self.writers_alive()?;
        Ok(self
            .rows(
                &format!(
                    "{SELECT_ENTRY} WHERE CAST(?1 AS TEXT) IS NULL OR started_at >= ?1 \
                     ORDER BY started_at DESC, id DESC"
                ),
                &[since.into()],
            )?
            .iter()
            .map(|r| read_entry(r, &*alive))
            .collect())
    }
}

impl AuditLog {
    pub fn new(history: History) -> AuditLog {
        AuditLog {
            db: Arc::new(Mutex::new(history)),
        }
    }

    /// The history the log is kept in, once no other handle to the log is left (tests).
    #[cfg(test)]
    pub(crate) fn into_history(self) -> History {
        Arc::try_unwrap(self.db)
            .map(|m| {
                m.into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            })
            .expect("the only handle to the log")
    }

    /// Where the log is: the file, `:memory:`, or the server.
    pub fn place(&self) -> Place {
        self.lock().place().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, History> {
        // A panic while holding the lock leaves the connection usable: the database's state is
        // its own, not the guard's.
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records a write about to be sent by `who`; answers its entry id.
    pub fn record_sent(
        &self,
        profile: &str,
        fallback_organization: &str,
        write: &WriteSent<'_>,
    ) -> Result<i64, HistoryError> {
        let organization = if write.organization.is_empty() {
            fallback_organization
        } else {
            write.organization
        };
        let (generation, release) = match write.generation.api_version() {
            Some(v) => ("tenanted", Some(v.to_string())),
            None => ("v1", None),
        };
        let body = write.body.to_json();
        let body = (!body.is_null()).then(|| body.to_string());
        let (now, who, uid) = (now_text(), super::who::me(), super::snapshot::new_uid());
        let db = self.lock();
        let (pid, start) = db.writer();
        let rows = db.rows(
            "INSERT INTO audit_entries (started_at, profile, organization, generation,
                 api_release, method, path, resource, record_id, body, outcome,
                 writer_pid, writer_start, who, uid)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'sent', ?11, ?12, ?13, ?14)
             RETURNING id",
            &[
                Param::Text(&now),
                Param::Text(profile),
                Param::Text(organization),
                Param::Text(generation),
                release.as_deref().into(),
                Param::Text(write.method),
                Param::Text(write.path),
                Param::Text(write.resource),
                write.record_id.into(),
                body.as_deref().into(),
                Param::Int(i64::from(pid)),
                Param::Text(&start),
                Param::Text(&who),
                Param::Text(&uid),
            ],
        );
        // A statement the store failed to answer is a write that must not go: told as one.
        let rows = rows.map_err(|e| match e {
            HistoryError::Unreadable { path, reason } => HistoryError::Write { path, reason },
            other => other,
        })?;
        Ok(rows.first().map_or(0, |r| r.int(0)))
    }

    /// Completes entry `id` with its answer.
    pub fn record_answer(&self, id: i64, answer: &WriteAnswer) -> Result<(), HistoryError> {
        let outcome = match answer.outcome {
            WriteOutcome::Ok => "ok",
            WriteOutcome::Refused => "refused",
            WriteOutcome::Failed => "failed",
        };
        let now = now_text();
        self.lock()
            .exec(
                "UPDATE audit_entries SET finished_at = ?2, outcome = ?3, status = ?4,
                     record_id = coalesce(?5, record_id), request_id = ?6, error = ?7
                 WHERE id = ?1 AND outcome = 'sent'",
                &[
                    Param::Int(id),
                    Param::Text(&now),
                    Param::Text(outcome),
                    answer.status.map(i64::from).into(),
                    answer.record_id.as_deref().into(),
                    answer.request_id.as_deref().into(),
                    answer.error.as_deref().into(),
                ],
            )
            .map(drop)
    }

    /// Marks entry `id` unknown: its caller stopped waiting before the answer.
    pub fn record_abandoned(&self, id: i64) -> Result<(), HistoryError> {
        let now = now_text();
        self.lock()
            .exec(
                "UPDATE audit_entries SET finished_at = ?2, outcome = 'unknown',
                     error = 'taxdash stopped waiting before the answer came'
                 WHERE id = ?1 AND outcome = 'sent'",
                &[Param::Int(id), Param::Text(&now)],
            )
            .map(drop)
    }

    /// The entries `filter` keeps, newest first.
    pub fn entries(&self, filter: &Filter) -> Result<Vec<Entry>, HistoryError> {
        let since = filter
            .since
            .map(|d| format!("{}T00:00:00.000Z", d.format("%Y-%m-%d")));
        let mut entries = self.lock().audit_entries(since.as_deref())?;
        entries.retain(|e| filter.keeps(e));
        Ok(entries)
    }

    /// One entry by id.
    pub fn entry(&self, id: i64) -> Result<Option<Entry>, HistoryError> {
        Ok(self
            .entries(&Filter::default())?
            .into_iter()
            .find(|e| e.id == id))
    }

    /// The resources that have entries, sorted.
    pub fn resources(&self) -> Result<Vec<String>, HistoryError> {
        Ok(self
            .lock()
            .rows(
                "SELECT DISTINCT resource FROM audit_entries ORDER BY resource",
                &[],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect())
    }

    /// A recorder for a client of `profile` (organization `organization` when a call names
    /// none): give it to [`crate::api::Client::with_audit`].
    pub fn recorder(&self, profile: &str, organization: &str) -> Arc<Recorder> {
        Arc::new(Recorder {
            log: self.clone(),
            profile: profile.to_owned(),
            organization: organization.to_owned(),
        })
    }
}

/// The client's side of the audit log: records each write for one profile.
#[derive(Debug)]
pub struct Recorder {
    log: AuditLog,
    profile: String,
    organization: String,
}

impl AuditSink for Recorder {
    fn sent(&self, write: &WriteSent<'_>) -> Result<AuditTicket, String> {
        self.log
            .record_sent(&self.profile, &self.organization, write)
            .map_err(|e| e.to_string())
    }

    fn answered(&self, ticket: AuditTicket, answer: &WriteAnswer) {
        if let Err(e) = self.log.record_answer(ticket, answer) {
            tracing::error!("the audit log could not record an answer: {e}");
        }
    }

    fn abandoned(&self, ticket: AuditTicket) {
        if let Err(e) = self.log.record_abandoned(ticket) {
            tracing::error!("the audit log could not record an abandoned write: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::history::on_both_stores;

    use super::*;
    use crate::api::{Generation, SentBody};

    fn write<'a>(body: SentBody) -> WriteSent<'a> {
        WriteSent {
            method: "POST",
            path: "/v1/registrations",
            resource: "registrations",
            record_id: None,
            organization: "",
            generation: Generation::V1,
            body,
        }
    }

    on_both_stores! {
    fn a_write_is_pending_until_answered_then_kept_with_its_answer(h: History) {
        let log = AuditLog::new(h);
        let id = log
            .record_sent("work", "orgn_1", &write(SentBody::None))
            .unwrap();
        let e = log.entry(id).unwrap().unwrap();
        assert_eq!(e.outcome, Outcome::Pending);
        assert_eq!(e.organization, "orgn_1");
        assert_eq!(e.finished_at, None);
        log.record_answer(
            id,
            &WriteAnswer {
                outcome: WriteOutcome::Refused,
                status: Some(422),
                record_id: None,
                request_id: Some("req_1".into()),
                error: Some("bad".into()),
            },
        )
        .unwrap();
        let e = log.entry(id).unwrap().unwrap();
        assert_eq!(e.outcome, Outcome::Refused);
        assert_eq!(e.status, Some(422));
        assert_eq!(e.request_id.as_deref(), Some("req_1"));
        assert!(e.finished_at.is_some());
    }
    }

    on_both_stores! {
    fn an_entry_of_a_gone_process_is_unknown_and_filters_select(h: History) {
        let log = AuditLog::new(h);
        let id = log
            .record_sent("work", "orgn_1", &write(SentBody::None))
            .unwrap();
        log.lock()
            .exec(
                "UPDATE audit_entries SET writer_pid = 999999999, writer_start = 'gone' \
                 WHERE id = ?1",
                &[Param::Int(id)],
            )
            .unwrap();
        let e = log.entry(id).unwrap().unwrap();
        assert_eq!(e.outcome, Outcome::Unknown);
        let unknown = Filter {
            outcome: Some(Outcome::Unknown),
            ..Filter::default()
        };
        assert_eq!(log.entries(&unknown).unwrap().len(), 1);
        let other = Filter {
            resource: Some("filings".into()),
            ..Filter::default()
        };
        assert!(log.entries(&other).unwrap().is_empty());
        let later = Filter {
            since: Some(chrono::NaiveDate::from_ymd_opt(2999, 1, 1).unwrap()),
            ..Filter::default()
        };
        assert!(log.entries(&later).unwrap().is_empty());
    }
    }
}
