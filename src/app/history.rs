//! The history database as the runtime holds it for the dashboard: the handles the shell's
//! reads ([`HistoryCall`]) are answered from, each read on a blocking thread so that the
//! interface never waits for the file; and `:snapshot`, taken in the background through the
//! dashboard's client into the same file, on a connection of its own.

use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

use crate::effect::{Answer, Failure, FailureKind, HistoryCall, HistoryReply, Reply, RequestId};
use crate::history::capture::{Lists, Plan, scope_of, take_and_compare};
use crate::history::{AuditLog, History, HistoryError, Location};
use crate::model::history::{SnapshotProgress, SnapshotTaken};

use super::read_ahead::ReadAhead;

/// What the runtime reads the history database through; either may be missing (the file could
/// not be opened), and then the reads that need it fail in words.
#[derive(Clone, Default)]
pub struct Stores {
    /// The history database on a connection of its own: the rows changed since the previous
    /// snapshot, records' histories.
    history: Option<Arc<Mutex<History>>>,
    /// Where the history is (the file, the demo's memory, the team's server): snapshots are
    /// stored there on a connection of their own.
    location: Option<Location>,
    /// The audit log the client records its writes in, for `:audit`.
    audit: Option<AuditLog>,
    /// The filings each organization's Overview checked last (see [`ReadAhead`]).
    read_ahead: Option<Arc<ReadAhead>>,
}

impl std::fmt::Debug for Stores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stores")
            .field("history", &self.history.is_some())
            .field("location", &self.location)
            .field("audit", &self.audit.is_some())
            .field("read_ahead", &self.read_ahead)
            .finish()
    }
}

impl Stores {
    /// Reads snapshots (changed rows, records' histories) from `history`.
    #[must_use]
    pub fn with_history(mut self, history: History) -> Self {
        self.location = Some(history.location().clone());
        self.history = Some(Arc::new(Mutex::new(history)));
        self
    }

    /// Reads the audit log from `log`.
    #[must_use]
    pub fn with_audit(mut self, log: AuditLog) -> Self {
        self.audit = Some(log);
        self
    }

    /// Remembers the filings each organization's Overview checks in `read_ahead`.
    #[must_use]
    pub fn with_read_ahead(mut self, read_ahead: ReadAhead) -> Self {
        self.read_ahead = Some(Arc::new(read_ahead));
        self
    }

    /// Where the filings each Overview checks are remembered, when anywhere.
    pub fn read_ahead(&self) -> Option<&Arc<ReadAhead>> {
        self.read_ahead.as_ref()
    }

    /// Answers `call`. Blocks on the database: call it on a blocking thread.
    pub fn read(&self, call: HistoryCall) -> Result<HistoryReply, Failure> {
        match call {
            HistoryCall::Audit { filter } => {
                let Some(log) = &self.audit else {
                    return Err(failed(
                        "No audit log: the history database could not be opened (see :messages)."
                            .to_owned(),
                    ));
                };
                log.entries(&filter)
                    .and_then(|entries| log.resources().map(|resources| (entries, resources)))
                    .map(|(entries, resources)| HistoryReply::Audit { entries, resources })
                    .map_err(|e| failed(e.to_string()))
            }
            HistoryCall::Changed {
                profile,
                organization,
            } => self.snapshots(|history| {
                let changed = history.changed_records((&profile, &organization))?;
                Ok(HistoryReply::Changed {
                    snapshots: changed.snapshots,
                    records: changed.records,
                })
            }),
            HistoryCall::Record {
                profile,
                organization,
                resource,
                id,
            } => self.snapshots(|history| {
                let mut record =
                    history.record_changes((&profile, &organization), resource, &id)?;
                // The changes sent to it, from the audit log, which names physical nexus as
                // the v1 path does; one that cannot be read leaves the snapshots' history.
                if let Some(log) = &self.audit {
                    let resource = match resource {
                        crate::model::Resource::PhysicalNexus => "physical_nexus",
                        other => other.name(),
                    };
                    let filter = crate::model::audit::Filter {
                        resource: Some(resource.to_owned()),
                        ..crate::model::audit::Filter::default()
                    };
                    match log.entries(&filter) {
                        Ok(entries) => {
                            record.writes = entries
                                .into_iter()
                                .filter(|e| e.record_id.as_deref() == Some(id.as_str()))
                                .collect();
                        }
                        Err(e) => tracing::warn!("the record's audit entries: {e}"),
                    }
                }
                Ok(HistoryReply::Record(record))
            }),
            // Taken, not read: see `Tasks::take_snapshot`.
            HistoryCall::Snapshot { .. } => Err(failed(
                "A snapshot is taken in the background, not read.".to_owned(),
            )),
        }
    }

    /// Where snapshots are stored; when nowhere, how to have one, in words.
    fn snapshot_location(&self) -> Result<Location, Failure> {
        match &self.location {
            None => Err(failed(
                "No snapshot can be taken: no history database is open (:messages says why). \
                 Snapshots are stored there: name one with --history FILE or TAXDASH_HISTORY."
                    .to_owned(),
            )),
            Some(Location::Memory) => Err(failed(
                "No snapshot can be taken: the demo keeps its history in memory. Start \
                 `taxdash --demo --history FILE` to take snapshots with :snapshot and keep them."
                    .to_owned(),
            )),
            Some(location) => Ok(location.clone()),
        }
    }

    /// Reads the snapshots with `read`, when the history database is open.
    fn snapshots(
        &self,
        read: impl FnOnce(&History) -> Result<HistoryReply, HistoryError>,
    ) -> Result<HistoryReply, Failure> {
        let Some(history) = &self.history else {
            return Err(failed("No history database is open.".to_owned()));
        };
        let history = history.lock().unwrap_or_else(PoisonError::into_inner);
        read(&history).map_err(|e| failed(e.to_string()))
    }
}

/// A read that failed, in words.
fn failed(message: String) -> Failure {
    Failure {
        kind: FailureKind::Other,
        message,
        fields: Vec::new(),
    }
}

/// A snapshot being taken while the dashboard goes on.
pub(super) struct RunningSnapshot {
    /// The call it answers.
    pub(super) id: RequestId,
    lists: Lists,
}

impl RunningSnapshot {
    /// How far its reads have come, for the status line.
    pub(super) fn progress(&self) -> SnapshotProgress {
        self.lists.read()
    }
}

impl super::Tasks {
    /// Carries out call `id` on the history database: a snapshot is taken, anything else read.
    pub(super) fn history(&mut self, id: RequestId, call: HistoryCall) {
        match call {
            HistoryCall::Snapshot { profile } => self.take_snapshot(id, profile),
            read => self.read_history(id, read),
        }
    }

    /// Takes a snapshot for call `id`, as `taxdash snapshot` does (every list but the
    /// transactions, which it reads only when asked for a range), through the dashboard's
    /// client, into the history database on a connection of its own, so the shell's reads go
    /// on meanwhile. Answers what was stored and what changed since the previous snapshot; or
    /// why nothing was (the file, or the list that could not be read whole). One at a time.
    fn take_snapshot(&mut self, id: RequestId, profile: String) {
        let location = match (&self.snapshot, self.stores.snapshot_location()) {
            (Some(_), _) => Err(failed(
                "A snapshot is being taken already: wait for it to end.".to_owned(),
            )),
            (None, location) => location,
        };
        let location = match location {
            Ok(location) => location,
            Err(failure) => {
                let _ = self.answers.send(Answer {
                    id,
                    result: Err(failure),
                });
                return;
            }
        };
        tracing::info!(id = id.0, history = %location.place(), "taking a snapshot");
        let lists = Lists::default();
        self.snapshot = Some(RunningSnapshot {
            id,
            lists: lists.clone(),
        });
        let token = CancellationToken::new();
        self.running.insert(id, token.clone());
        let (client, answers) = (self.client.clone(), self.answers.clone());
        tokio::spawn(async move {
            let taken = async {
                let mut history = tokio::task::spawn_blocking(move || History::open_at(&location))
                    .await
                    .map_err(|e| failed(format!("The history database could not be opened: {e}")))?
                    .map_err(|e| failed(e.to_string()))?;
                let plan = Plan::new(None);
                let scope = scope_of(&client, &profile, &plan);
                let (taken, diff) =
                    take_and_compare(&client, &mut history, &scope, &plan, |_| lists.list())
                        .await
                        .map_err(|e| Failure {
                            // A read the service failed says how the connection stands.
                            kind: e
                                .service_error()
                                .map_or(FailureKind::Other, super::calls::failure_kind),
                            message: e.to_string(),
                            fields: Vec::new(),
                        })?;
                Ok::<_, Failure>(SnapshotTaken {
                    id: taken.id,
                    counts: taken.counts,
                    since: diff.map(|d| d.tally()),
                })
            };
            tokio::select! {
                () = token.cancelled() => {
                    tracing::info!(id = id.0, "the snapshot was stopped; nothing was stored");
                }
                taken = taken => {
                    match &taken {
                        Ok(t) => tracing::info!(id = id.0, "{}", t.summary()),
                        Err(why) => tracing::info!(id = id.0, "snapshot failed: {}", why.message),
                    }
                    let result = taken.map(|t| Reply::History(HistoryReply::Snapshot(t)));
                    let _ = answers.send(Answer { id, result });
                }
            }
        });
    }

    /// Reads the history database for call `id` on a blocking thread; the answer comes back
    /// like a call's, unless the call is cancelled first.
    fn read_history(&mut self, id: RequestId, call: HistoryCall) {
        tracing::debug!(id = id.0, "{}", call.describe());
        let token = CancellationToken::new();
        self.running.insert(id, token.clone());
        let (stores, answers) = (self.stores.clone(), self.answers.clone());
        tokio::spawn(async move {
            let read = tokio::task::spawn_blocking(move || stores.read(call));
            tokio::select! {
                () = token.cancelled() => {}
                read = read => {
                    let result = read
                        .unwrap_or_else(|e| {
                            Err(failed(format!("The history database could not be read: {e}")))
                        })
                        .map(Reply::History);
                    if let Err(failure) = &result {
                        tracing::info!(id = id.0, "history read failed: {}", failure.message);
                    }
                    let _ = answers.send(Answer { id, result });
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_history_file_a_snapshot_says_how_to_have_one() {
        let none = Stores::default().snapshot_location().unwrap_err().message;
        assert!(none.contains("--history FILE or TAXDASH_HISTORY"), "{none}");
        let memory = Stores::default()
            .with_history(History::in_memory())
            .snapshot_location()
            .unwrap_err()
            .message;
        assert!(
            memory.contains("`taxdash --demo --history FILE`"),
            "{memory}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        let file = Stores::default().with_history(History::open(&path).unwrap());
        assert_eq!(file.snapshot_location().unwrap(), Location::File(path));
    }
}
