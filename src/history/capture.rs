//! Taking a snapshot: every record of the chosen lists read through the client and stored as
//! one snapshot.
//!
//! Each list is read by the export engine ([`crate::export::export`]) as JSON Lines: the same
//! paging, the same checks against the total the service announced, the same pacing at the
//! client's rate limit and the same retries. The lists are read at the same time, every page
//! of each asked for at once: the client's pacing alone spaces them. Each line is a record as
//! the service sent it (on one line), and its `id` keys it.
//!
//! Each page's records are stored as the page comes in, while the rest is read (the reads are a
//! task of their own, so they go on while the database is written): their bodies ahead of the
//! snapshot ([`History::stage_records`]), which points at them in its one transaction once
//! every list is read ([`History::write_staged_snapshot`]). A failed read (the network, a storm
//! of 5xx answers, a page short of what was announced), or one stopped half way, stores no
//! snapshot; the bodies it stored ahead, which nothing points at, go with the next prune.
//!
//! `taxdash snapshot`, `taxdash watch` and the dashboard's `:snapshot` all take theirs here,
//! each with its own client: [`take_and_compare`] also answers what changed since the previous
//! snapshot, and [`Lists`] how far the reads have come.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use indicatif::ProgressBar;
use serde::Deserialize;
use tokio::io::AsyncWrite;
use tokio::sync::mpsc::UnboundedSender;

use super::diff::Diff;
use super::snapshot::{Record, Scope, hash_of};
use super::{History, HistoryError};
use crate::api::Client;
use crate::effect::{Format, ListQuery};
use crate::export::{ExportError, ExportJob, FilterFlags, export};
use crate::model::Resource;
use crate::model::history::SnapshotProgress;

/// The lists a snapshot reads, transactions aside (they need a date range).
pub const RESOURCES: &[Resource] = &[
    Resource::Registrations,
    Resource::Nexus,
    Resource::PhysicalNexus,
    Resource::Exemptions,
    Resource::Customers,
    Resource::Filings,
];

/// What to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The lists, in the order they are read.
    pub resources: Vec<Resource>,
    /// Transactions dated in this range (both days included), when they are read.
    pub transactions: Option<(NaiveDate, NaiveDate)>,
}

impl Plan {
    /// Every list of [`RESOURCES`], and the transactions of `transactions` when given.
    pub fn new(transactions: Option<(NaiveDate, NaiveDate)>) -> Self {
        let mut resources = RESOURCES.to_vec();
        if transactions.is_some() {
            resources.push(Resource::Transactions);
        }
        Plan {
            resources,
            transactions,
        }
    }
}

/// A stored snapshot: its id and how many records of each list it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub id: i64,
    pub counts: Vec<(Resource, u64)>,
    /// The time spent staging pages as they came (while other pages were read).
    pub staging: Duration,
    /// The time spent writing the snapshot once every list was read.
    pub writing: Duration,
}

impl Taken {
    /// Every record stored.
    pub fn records(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }
}

/// The progress of a snapshot's reads: each list is read with a hidden bar of its own (handed
/// out by [`Lists::list`] as [`take_snapshot`] asks), which [`Lists::read`] sums. Clones share
/// the bars.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    bars: Arc<Mutex<Vec<ProgressBar>>>,
}

impl Lists {
    /// The hidden bar one list is read with.
    pub fn list(&self) -> ProgressBar {
        let bar = ProgressBar::hidden();
        self.bars
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(bar.clone());
        bar
    }

    /// How far the reads have come: the rows read of the rows announced, the lists read whole.
    pub fn read(&self) -> SnapshotProgress {
        let bars = self
            .bars
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        SnapshotProgress {
            rows: bars.iter().map(ProgressBar::position).sum(),
            total: bars.iter().filter_map(ProgressBar::length).sum(),
            whole: bars.iter().filter(|b| b.is_finished()).count(),
            lists: bars.len(),
        }
    }
}

/// Why no snapshot was stored.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// A list could not be read whole.
    #[error("reading the {resource} failed, so no snapshot was stored: {source}")]
    Read {
        resource: Resource,
        source: ExportError,
    },
    /// A record without an `id`, or not a JSON object.
    #[error("a record of the {resource} has no id ({detail}), so no snapshot was stored")]
    NoId { resource: Resource, detail: String },
    /// The database refused the snapshot (nothing of it was kept).
    #[error(transparent)]
    History(#[from] HistoryError),
    /// The reads ended without an answer (a fault of taxdash's own).
    #[error("the reads stopped half way, so no snapshot was stored: {0}")]
    Stopped(tokio::task::JoinError),
}

impl CaptureError {
    /// The service's error that stopped the reads, when one did (not the database's).
    pub fn service_error(&self) -> Option<&crate::api::ApiError> {
        match self {
            CaptureError::Read {
                source: ExportError::Fetch { source, .. },
                ..
            } => Some(source),
            _ => None,
        }
    }
}

/// The scope of a snapshot read by `client` under `profile`.
pub fn scope_of(client: &Client, profile: &str, plan: &Plan) -> Scope {
    Scope {
        profile: profile.to_owned(),
        organization: client.organization_id().to_owned(),
        api: client.generation().label().into_owned(),
        transactions: plan.transactions,
    }
}

/// Records of one page, each with its body's hash.
type Batch = Vec<(Record, [u8; 32])>;

/// Reads one list whole, sending on each page's records as the page is read; answers how many
/// records it read.
async fn read_list(
    client: &Client,
    resource: Resource,
    transactions: Option<(NaiveDate, NaiveDate)>,
    bar: ProgressBar,
    sent: UnboundedSender<Batch>,
) -> Result<(Resource, u64), CaptureError> {
    let query = match (resource, transactions) {
        (Resource::Transactions, Some((from, to))) => {
            let flags = FilterFlags {
                from: Some(from),
                to: Some(to),
                ..FilterFlags::default()
            };
            ListQuery::from_flags(resource, &flags).map_err(|e| CaptureError::Read {
                resource,
                source: e.into(),
            })?
        }
        _ => ListQuery::all(resource),
    };
    // Every page asked for at once: the client's pacing alone spaces them (each page is stored
    // as it comes, so the pages held are the ones not yet in).
    let job = ExportJob {
        concurrency: usize::MAX,
        ..ExportJob::new(query, Format::Jsonl)
    };
    let mut sink = RecordSink {
        resource,
        partial: Vec::new(),
        sent,
        records: 0,
        failed: None,
    };
    let read = export(client, &job, &mut sink, &bar).await;
    bar.finish_and_clear();
    read.map_err(|source| CaptureError::Read { resource, source })?;
    sink.finish()?;
    Ok((resource, sink.records))
}

/// Where the export of a list writes its JSON Lines: each line is made a record (keyed by its
/// id, its body hashed) as its page is written, and each page's records are sent on at once.
struct RecordSink {
    resource: Resource,
    /// The start of a line not ended yet.
    partial: Vec<u8>,
    sent: UnboundedSender<Batch>,
    /// Records sent on.
    records: u64,
    /// The first line that could not be made a record: it fails the snapshot.
    failed: Option<CaptureError>,
}

impl RecordSink {
    /// Makes records of the lines `bytes` ends, and keeps the start of a line it does not end.
    fn take(&mut self, bytes: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
            self.partial.extend_from_slice(bytes);
            return;
        };
        let made = if self.partial.is_empty() {
            records_of(self.resource, &bytes[..=end])
        } else {
            self.partial.extend_from_slice(&bytes[..=end]);
            let made = records_of(self.resource, &self.partial);
            self.partial.clear();
            made
        };
        self.partial.extend_from_slice(&bytes[end + 1..]);
        match made {
            Ok(records) => {
                self.records += records.len() as u64;
                let batch = records
                    .into_iter()
                    .map(|r| {
                        let hash = hash_of(&r.body);
                        (r, hash)
                    })
                    .collect();
                // The receiver is gone only when the snapshot stopped: nothing to store.
                let _ = self.sent.send(batch);
            }
            Err(e) => self.failed = Some(e),
        }
    }

    /// The end of the list: a line left without its end is a record too.
    fn finish(&mut self) -> Result<(), CaptureError> {
        if !self.partial.is_empty() {
            let mut last = std::mem::take(&mut self.partial);
            last.push(b'\n');
            self.take(&last);
        }
        self.failed.take().map_or(Ok(()), Err)
    }
}

impl AsyncWrite for RecordSink {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().take(bytes);
        Poll::Ready(Ok(bytes.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A snapshot being stored as it is read (see [`History::stage_records`]): unless it is
/// written, what it staged is taken back when it is dropped (a failure, or a stop half way).
struct Staged<'h> {
    history: &'h mut History,
    written: bool,
}

impl<'h> Staged<'h> {
    fn begin(history: &'h mut History) -> Result<Self, CaptureError> {
        history.begin_staged_snapshot()?;
        Ok(Staged {
            history,
            written: false,
        })
    }

    /// Stages one page's records. The runtime is told this thread is busy meanwhile (when it
    /// has others to give its tasks to), so the pages under way and the pacing of the next
    /// ones never wait behind the database.
    fn store(&mut self, batch: &Batch) -> Result<(), CaptureError> {
        let history = &mut *self.history;
        busy(|| history.stage_records(batch))?;
        Ok(())
    }

    /// Writes the snapshot of the records staged.
    fn write(mut self, scope: &Scope, taken: DateTime<Utc>) -> Result<i64, CaptureError> {
        let id = self.history.write_staged_snapshot(scope, taken)?;
        self.written = true;
        Ok(id)
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.written
            && let Err(e) = self.history.unstage()
        {
            tracing::warn!(error = %e, "the bodies of a failed snapshot stay until the next prune");
        }
    }
}

/// Runs `work`, which waits on the database, telling the runtime this thread is busy meanwhile
/// (when it has others to give its tasks to).
fn busy<T>(work: impl FnOnce() -> T) -> T {
    let threads = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if threads {
        tokio::task::block_in_place(work)
    } else {
        work()
    }
}

/// The records of a JSON Lines text: one a line, keyed by its `id`.
fn records_of(resource: Resource, bytes: &[u8]) -> Result<Vec<Record>, CaptureError> {
    #[derive(Deserialize)]
    struct Keyed {
        id: serde_json::Value,
    }
    let text = std::str::from_utf8(bytes).map_err(|e| CaptureError::NoId {
        resource,
        detail: e.to_string(),
    })?;
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            if let Some(id) = leading_id(line) {
                return Ok(Record {
                    resource,
                    id: id.to_owned(),
                    body: line.to_owned(),
                });
            }
            let keyed: Keyed = serde_json::from_str(line).map_err(|e| CaptureError::NoId {
                resource,
                detail: e.to_string(),
            })?;
            let id = match keyed.id {
                serde_json::Value::String(s) if !s.is_empty() => s,
                serde_json::Value::Number(n) => n.to_string(),
                other => {
                    return Err(CaptureError::NoId {
                        resource,
                        detail: format!("its id is {other}"),
                    });
                }
            };
            Ok(Record {
                resource,
                id,
                body: line.to_owned(),
            })
        })
        .collect()
}

/// The id of a record that opens with it (`{"id":"cus_1",…`, as the service sends them), read
/// without reading the rest of the record; `None` for any other record (an id that is a
/// number, is empty, holds an escape, or comes later), which is read whole.
fn leading_id(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("{\"id\":\"")?;
    let end = rest.find(['"', '\\'])?;
    (end > 0 && rest.as_bytes()[end] == b'"').then(|| &rest[..end])
}

/// Reads every list of `plan` through `client` and stores them as one snapshot of `scope`
/// in `history`, each page as it comes. On any failure no snapshot is stored.
pub async fn take_snapshot(
    client: &Client,
    history: &mut History,
    scope: &Scope,
    plan: &Plan,
    progress: impl Fn(Resource) -> ProgressBar,
) -> Result<Taken, CaptureError> {
    let (sent, mut received) = tokio::sync::mpsc::unbounded_channel();
    // The reads are a task of their own, so that they go on (on another of the runtime's
    // threads) while this one waits on the database; stopped when the snapshot is.
    let lists: Vec<(Resource, ProgressBar)> = plan
        .resources
        .iter()
        .map(|&resource| (resource, progress(resource)))
        .collect();
    let (reader, transactions) = (client.clone(), plan.transactions);
    let mut reads =
        tokio_util::task::AbortOnDropHandle::new(tokio::spawn(async move {
            futures::future::try_join_all(lists.into_iter().map(|(resource, bar)| {
                read_list(&reader, resource, transactions, bar, sent.clone())
            }))
            .await
        }));
    let mut staged = Staged::begin(history)?;
    let mut staging = Duration::ZERO;
    let mut store = |staged: &mut Staged<'_>, batch: &Batch| {
        let started = Instant::now();
        let stored = staged.store(batch);
        staging += started.elapsed();
        stored
    };
    let counts = loop {
        tokio::select! {
            biased;
            Some(batch) = received.recv() => store(&mut staged, &batch)?,
            read = &mut reads => break read.map_err(CaptureError::Stopped)??,
        }
    };
    // The reads are over, their senders gone: what they sent after the last look is stored too.
    while let Ok(batch) = received.try_recv() {
        store(&mut staged, &batch)?;
    }
    let started = Instant::now();
    let id = staged.write(scope, Utc::now())?;
    Ok(Taken {
        id,
        counts,
        staging,
        writing: started.elapsed(),
    })
}

/// [`take_snapshot`], then what changed since the latest snapshot of the scope stored before it
/// (`None` when this is the scope's first): the same comparison as `taxdash diff`.
pub async fn take_and_compare(
    client: &Client,
    history: &mut History,
    scope: &Scope,
    plan: &Plan,
    progress: impl Fn(Resource) -> ProgressBar,
) -> Result<(Taken, Option<Diff>), CaptureError> {
    let key = (scope.profile.as_str(), scope.organization.as_str());
    let previous = busy(|| history.snapshots(Some(key)))?.first().map(|s| s.id);
    let taken = take_snapshot(client, history, scope, plan, progress).await?;
    let diff = match previous {
        Some(before) => busy(|| history.diff(before, taken.id))?,
        None => None,
    };
    Ok((taken, diff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_is_a_record_keyed_by_its_id() {
        let text = b"{\"id\":\"cus_1\",\"name\":\"A\"}\n{\"id\":7,\"x\":[1,2]}\n";
        let records = records_of(Resource::Customers, text).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].id, "cus_1");
        assert_eq!(records[0].body, "{\"id\":\"cus_1\",\"name\":\"A\"}");
        assert_eq!(records[1].id, "7");
    }

    #[test]
    fn a_record_without_an_id_fails_the_snapshot() {
        let err = records_of(Resource::Nexus, b"{\"state_code\":\"GA\"}\n").unwrap_err();
        assert!(err.to_string().contains("nexus has no id"), "{err}");
        let err = records_of(Resource::Nexus, b"{\"id\":null}\n").unwrap_err();
        assert!(err.to_string().contains("its id is null"), "{err}");
    }

    #[test]
    fn an_id_that_opens_the_record_is_read_as_a_parse_would() {
        for line in [
            r#"{"id":"cus_1","name":"A"}"#,
            r#"{"id":"","x":1}"#,
            r#"{"id":"a\"b","x":1}"#,
            r#"{"name":"A","id":"cus_2"}"#,
        ] {
            let parsed = records_of(Resource::Customers, format!("{line}\n").as_bytes())
                .ok()
                .map(|r| r[0].id.clone());
            match leading_id(line) {
                Some(id) => assert_eq!(Some(id.to_owned()), parsed, "{line}"),
                None => assert_ne!(parsed.as_deref(), Some("cus_1"), "{line}"),
            }
        }
        assert_eq!(leading_id(r#"{"id":"cus_1","name":"A"}"#), Some("cus_1"));
        assert_eq!(leading_id(r#"{"id":"","x":1}"#), None);
        assert_eq!(leading_id(r#"{"name":"A","id":"cus_2"}"#), None);
    }

    #[test]
    fn lines_written_in_pieces_are_records_once_each_ends() {
        let (sent, mut received) = tokio::sync::mpsc::unbounded_channel();
        let mut sink = RecordSink {
            resource: Resource::Customers,
            partial: Vec::new(),
            sent,
            records: 0,
            failed: None,
        };
        sink.take(b"{\"id\":\"a\"}\n{\"id\":");
        sink.take(b"\"b\",\"x\":1}\n");
        sink.take(b"{\"id\":\"c\"}");
        sink.finish().unwrap();
        let mut ids = Vec::new();
        while let Ok(batch) = received.try_recv() {
            for (record, hash) in batch {
                assert_eq!(hash, hash_of(&record.body));
                ids.push(record.id);
            }
        }
        assert_eq!(ids, ["a", "b", "c"]);
        assert_eq!(sink.records, 3);
        // A line that cannot be keyed fails the list at its end.
        sink.take(b"{\"x\":1}\n");
        assert!(sink.finish().is_err());
    }

    #[test]
    fn a_full_database_stores_nothing_and_says_so() {
        let mut history = History::in_memory();
        let scope = Scope {
            profile: "p".into(),
            organization: "o".into(),
            api: "v1".into(),
            transactions: None,
        };
        // Room for what is there and little more: the snapshot cannot fit.
        let pages: i64 = history
            .sqlite()
            .unwrap()
            .pragma_query_value(None, "page_count", |r| r.get(0))
            .unwrap();
        history
            .sqlite()
            .unwrap()
            .pragma_update(None, "max_page_count", pages + 2)
            .unwrap();
        let records: Vec<Record> = (0..2000)
            .map(|i| Record {
                resource: Resource::Customers,
                id: format!("cus_{i}"),
                body: format!("{{\"id\":\"cus_{i}\",\"note\":\"{}\"}}", "x".repeat(200)),
            })
            .collect();
        let err = history
            .write_snapshot(&scope, Utc::now(), &records)
            .unwrap_err();
        assert!(matches!(err, HistoryError::Full { .. }), "{err}");
        assert!(err.to_string().contains("is full"), "{err}");
        assert!(history.snapshots(None).unwrap().is_empty());
    }

    #[test]
    fn transactions_are_read_only_with_a_range() {
        assert!(!Plan::new(None).resources.contains(&Resource::Transactions));
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        assert!(
            Plan::new(Some((day, day)))
                .resources
                .contains(&Resource::Transactions)
        );
    }
}
