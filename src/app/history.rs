//! The history database as the runtime holds it for the dashboard: the handles the shell's
//! reads ([`HistoryCall`]) are answered from, each read on a blocking thread so that the
//! interface never waits for the file.

use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

use crate::effect::{Answer, Failure, FailureKind, HistoryCall, HistoryReply, Reply, RequestId};
use crate::history::{AuditLog, History, HistoryError};

/// What the runtime reads the history database through; either may be missing (the file could
/// not be opened), and then the reads that need it fail in words.
#[derive(Clone, Default)]
pub struct Stores {
    /// The history database on a connection of its own: the rows changed since the previous
    /// snapshot, records' histories.
    history: Option<Arc<Mutex<History>>>,
    /// The audit log the client records its writes in, for `:audit`.
    audit: Option<AuditLog>,
}

impl std::fmt::Debug for Stores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stores")
            .field("history", &self.history.is_some())
            .field("audit", &self.audit.is_some())
            .finish()
    }
}

impl Stores {
    /// Reads snapshots (changed rows, records' histories) from `history`.
    #[must_use]
    pub fn with_history(mut self, history: History) -> Self {
        self.history = Some(Arc::new(Mutex::new(history)));
        self
    }

    /// Reads the audit log from `log`.
    #[must_use]
    pub fn with_audit(mut self, log: AuditLog) -> Self {
        self.audit = Some(log);
        self
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
                let record = history.record_changes((&profile, &organization), resource, &id)?;
                Ok(HistoryReply::Record(record))
            }),
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

impl super::Tasks {
    /// Reads the history database for call `id` on a blocking thread; the answer comes back
    /// like a call's, unless the call is cancelled first.
    pub(super) fn read_history(&mut self, id: RequestId, call: HistoryCall) {
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
