//! The history database, read for the dashboard by the runtime (the shell never opens it): how
//! many snapshots there are and the rows changed since the previous one, a record's history,
//! and the audit log; and a snapshot taken of what the dashboard is connected to. Answered like
//! any other call, off the interface's thread.

use crate::model::Resource;
use crate::model::audit::{Entry, Filter};
use crate::model::history::{RecordHistory, SnapshotTaken};

#[derive(Debug, Clone, PartialEq)]
pub enum HistoryCall {
    /// How many snapshots of the profile and organization are stored, and the records of each
    /// list that changed between the two latest.
    Changed {
        profile: String,
        organization: String,
    },
    /// Record `id` of `resource` across the snapshots of the profile and organization.
    Record {
        profile: String,
        organization: String,
        resource: Resource,
        id: String,
    },
    /// The audit log's entries `filter` keeps, newest first, and the resources that have
    /// entries.
    Audit { filter: Filter },
    /// A snapshot of the organization the dashboard acts on, read through the dashboard's own
    /// client (its profile, its pacing) and stored as one of `profile`, then compared with the
    /// previous one (`:snapshot`).
    Snapshot { profile: String },
}

#[derive(Debug, Clone, PartialEq)]
pub enum HistoryReply {
    Changed {
        snapshots: usize,
        records: Vec<(Resource, Vec<String>)>,
    },
    Record(RecordHistory),
    Audit {
        entries: Vec<Entry>,
        resources: Vec<String>,
    },
    Snapshot(SnapshotTaken),
}

impl HistoryCall {
    pub fn describe(&self) -> String {
        match self {
            HistoryCall::Changed { .. } => "reading the changed records".to_owned(),
            HistoryCall::Record { .. } => "reading the record's history".to_owned(),
            HistoryCall::Audit { .. } => "reading the audit log".to_owned(),
            HistoryCall::Snapshot { .. } => "taking a snapshot".to_owned(),
        }
    }
}
