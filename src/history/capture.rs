//! Taking a snapshot: every record of the chosen lists read through the client, then stored in
//! one [`History::write_snapshot`].
//!
//! Each list is read by the export engine ([`crate::export::export`]) as JSON Lines into
//! memory: the same paging, the same checks against the total the service announced, the same
//! pacing at the client's rate limit and the same retries. Each line is a record as the service
//! sent it (on one line), and its `id` keys it. Nothing is stored until every list is read: a
//! failed read (the network, a storm of 5xx answers, a page short of what was announced)
//! stores nothing.

use chrono::{NaiveDate, Utc};
use indicatif::ProgressBar;
use serde::Deserialize;

use super::snapshot::{Record, Scope};
use super::{History, HistoryError};
use crate::api::Client;
use crate::effect::{Format, ListQuery};
use crate::export::{ExportError, ExportJob, FilterFlags, export};
use crate::model::Resource;

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
}

impl Taken {
    /// Every record stored.
    pub fn records(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
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

/// Reads every list of `plan` through `client`, each with the progress bar `progress` gives for
/// it, and answers the records. The lists are read at the same time: the client's rate limiter
/// paces all their pages together, so no list waits for another's last answer.
pub async fn read_records(
    client: &Client,
    plan: &Plan,
    progress: impl Fn(Resource) -> ProgressBar,
) -> Result<Vec<(Resource, Vec<Record>)>, CaptureError> {
    let reads = plan.resources.iter().map(|&resource| {
        let bar = progress(resource);
        read_list(client, resource, plan.transactions, bar)
    });
    futures::future::try_join_all(reads).await
}

/// Reads one list whole.
async fn read_list(
    client: &Client,
    resource: Resource,
    transactions: Option<(NaiveDate, NaiveDate)>,
    bar: ProgressBar,
) -> Result<(Resource, Vec<Record>), CaptureError> {
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
    let job = ExportJob::new(query, Format::Jsonl);
    let mut bytes: Vec<u8> = Vec::new();
    let read = export(client, &job, &mut bytes, &bar).await;
    bar.finish_and_clear();
    read.map_err(|source| CaptureError::Read { resource, source })?;
    Ok((resource, records_of(resource, &bytes)?))
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

/// Reads every list of `plan` through `client` and stores them as one snapshot of `scope`
/// in `history`. On any failure nothing is stored.
pub async fn take_snapshot(
    client: &Client,
    history: &mut History,
    scope: &Scope,
    plan: &Plan,
    progress: impl Fn(Resource) -> ProgressBar,
) -> Result<Taken, CaptureError> {
    let lists = read_records(client, plan, progress).await?;
    let counts = lists
        .iter()
        .map(|(resource, records)| (*resource, records.len() as u64))
        .collect();
    let records: Vec<Record> = lists.into_iter().flat_map(|(_, r)| r).collect();
    let id = history.write_snapshot(scope, Utc::now(), &records)?;
    Ok(Taken { id, counts })
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
            .connection()
            .pragma_query_value(None, "page_count", |r| r.get(0))
            .unwrap();
        history
            .connection()
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
