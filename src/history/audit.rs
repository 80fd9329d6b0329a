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
use rusqlite::params;
use serde_json::Value;

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

impl AuditLog {
    pub fn new(history: History) -> AuditLog {
        AuditLog {
            db: Arc::new(Mutex::new(history)),
        }
    }

    /// The database file (`:memory:` for one in memory).
    pub fn path(&self) -> std::path::PathBuf {
        self.lock().path().to_owned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, History> {
        // A panic while holding the lock leaves the connection usable: SQLite's state is its
        // own, not the guard's.
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records a write about to be sent; answers its entry id.
    pub fn record_sent(
        &self,
        profile: &str,
        fallback_organization: &str,
        write: &WriteSent<'_>,
    ) -> Result<i64, HistoryError> {
        let (pid, start) = this_writer();
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
        let db = self.lock();
        db.connection()
            .execute(
                "INSERT INTO audit_entries (started_at, profile, organization, generation,
                     api_release, method, path, resource, record_id, body, outcome,
                     writer_pid, writer_start)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'sent', ?11, ?12)",
                params![
                    now_text(),
                    profile,
                    organization,
                    generation,
                    release,
                    write.method,
                    write.path,
                    write.resource,
                    write.record_id,
                    body,
                    pid,
                    start,
                ],
            )
            .map_err(|e| db.error(&e))?;
        Ok(db.connection().last_insert_rowid())
    }

    /// Completes entry `id` with its answer.
    pub fn record_answer(&self, id: i64, answer: &WriteAnswer) -> Result<(), HistoryError> {
        let outcome = match answer.outcome {
            WriteOutcome::Ok => "ok",
            WriteOutcome::Refused => "refused",
            WriteOutcome::Failed => "failed",
        };
        let db = self.lock();
        db.connection()
            .execute(
                "UPDATE audit_entries SET finished_at = ?2, outcome = ?3, status = ?4,
                     record_id = coalesce(?5, record_id), request_id = ?6, error = ?7
                 WHERE id = ?1",
                params![
                    id,
                    now_text(),
                    outcome,
                    answer.status,
                    answer.record_id,
                    answer.request_id,
                    answer.error,
                ],
            )
            .map(drop)
            .map_err(|e| db.error(&e))
    }

    /// Marks entry `id` unknown: its caller stopped waiting before the answer.
    pub fn record_abandoned(&self, id: i64) -> Result<(), HistoryError> {
        let db = self.lock();
        db.connection()
            .execute(
                "UPDATE audit_entries SET finished_at = ?2, outcome = 'unknown',
                     error = 'taxdash stopped waiting before the answer came'
                 WHERE id = ?1 AND outcome = 'sent'",
                params![id, now_text()],
            )
            .map(drop)
            .map_err(|e| db.error(&e))
    }

    /// The entries `filter` keeps, newest first.
    pub fn entries(&self, filter: &Filter) -> Result<Vec<Entry>, HistoryError> {
        let since = filter
            .since
            .map(|d| format!("{}T00:00:00.000Z", d.format("%Y-%m-%d")));
        let db = self.lock();
        let fail = |e: rusqlite::Error| db.error(&e);
        let mut statement = db
            .connection()
            .prepare(
                "SELECT id, started_at, finished_at, profile, organization, generation,
                     api_release, method, path, resource, record_id, body, outcome, status,
                     request_id, error, writer_pid, writer_start
                 FROM audit_entries WHERE ?1 IS NULL OR started_at >= ?1
                 ORDER BY started_at DESC, id DESC",
            )
            .map_err(fail)?;
        let rows = statement
            .query_map(params![since], |r| {
                let stored: String = r.get(12)?;
                let outcome = match stored.as_str() {
                    "ok" => Outcome::Ok,
                    "refused" => Outcome::Refused,
                    "failed" => Outcome::Failed,
                    "sent" if writer_alive(r.get(16)?, &r.get::<_, String>(17)?) => {
                        Outcome::Pending
                    }
                    _ => Outcome::Unknown,
                };
                let body: Option<String> = r.get(11)?;
                Ok(Entry {
                    id: r.get(0)?,
                    started_at: parse_time(&r.get::<_, String>(1)?).unwrap_or_default(),
                    finished_at: r
                        .get::<_, Option<String>>(2)?
                        .as_deref()
                        .and_then(parse_time),
                    who: String::new(),
                    profile: r.get(3)?,
                    organization: r.get(4)?,
                    generation: r.get(5)?,
                    api_release: r.get(6)?,
                    method: r.get(7)?,
                    path: r.get(8)?,
                    resource: r.get(9)?,
                    record_id: r.get(10)?,
                    body: body
                        .and_then(|b| serde_json::from_str(&b).ok())
                        .unwrap_or(Value::Null),
                    outcome,
                    status: r.get(13)?,
                    request_id: r.get(14)?,
                    error: r.get(15)?,
                })
            })
            .map_err(fail)?;
        let mut out = Vec::new();
        for row in rows {
            let entry = row.map_err(fail)?;
            if filter.keeps(&entry) {
                out.push(entry);
            }
        }
        Ok(out)
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
        let db = self.lock();
        let fail = |e: rusqlite::Error| db.error(&e);
        let mut statement = db
            .connection()
            .prepare("SELECT DISTINCT resource FROM audit_entries ORDER BY resource")
            .map_err(fail)?;
        let rows = statement
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(fail)?;
        rows.collect::<Result<_, _>>().map_err(fail)
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

    #[test]
    fn a_write_is_pending_until_answered_then_kept_with_its_answer() {
        let log = AuditLog::new(History::in_memory());
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

    #[test]
    fn an_entry_of_a_gone_process_is_unknown_and_filters_select() {
        let log = AuditLog::new(History::in_memory());
        let id = log
            .record_sent("work", "orgn_1", &write(SentBody::None))
            .unwrap();
        log.lock()
            .connection()
            .execute(
                "UPDATE audit_entries SET writer_pid = 999999999 WHERE id = ?1",
                [id],
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
