//! What the history database tells of one record across the stored snapshots, as the dashboard
//! shows it (`H` on a record): one entry per snapshot where the record changed, newest first,
//! and the changes sent to it through taxdash; and of a snapshot being taken (how far its
//! reads have come) and taken (`:snapshot`).

use std::fmt;

use chrono::{DateTime, Utc};

use super::Resource;
use super::format::{count, thousands};

/// What happened to the record at one snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordEvent {
    /// The first snapshot that holds it.
    First,
    /// Fields changed since the snapshot before: `status ACTIVE → EXPIRED`.
    Changed(Vec<String>),
    /// The snapshot no longer holds it.
    Gone,
    /// It is held again after a snapshot without it.
    Back,
}

/// One entry: the snapshot (its id and when it was taken) and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordEntry {
    pub snapshot: i64,
    pub taken: DateTime<Utc>,
    pub event: RecordEvent,
}

/// A record's history across the snapshots of one profile and organization, and the changes
/// sent to it through taxdash.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordHistory {
    /// What the record is: `customer`, `registration`.
    pub noun: String,
    /// The record's name for people, from its latest stored body: `cust_1 (Acme)`.
    pub name: String,
    /// How many snapshots of the profile and organization are stored.
    pub snapshots: usize,
    /// How many of them hold the record.
    pub held: usize,
    /// The snapshots where it changed, newest first.
    pub entries: Vec<RecordEntry>,
    /// The changes sent to it through taxdash, as the audit log has them (who sent each, when,
    /// and how it ended), newest first.
    pub writes: Vec<super::audit::Entry>,
}

/// How far the reads of a snapshot under way have come, summed over its lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SnapshotProgress {
    /// Rows read so far.
    pub rows: u64,
    /// Rows the lists announced, as their first pages told.
    pub total: u64,
    /// Lists read whole.
    pub whole: usize,
    /// Lists read.
    pub lists: usize,
}

impl fmt::Display for SnapshotProgress {
    /// `1,204 of 2,310 rows read, 3 of 6 lists whole`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} rows read, {} of {} lists whole",
            thousands(self.rows),
            thousands(self.total),
            self.whole,
            self.lists
        )
    }
}

/// What changed from one snapshot to the next, counted as `taxdash diff` lists it: records
/// added, removed, and changed (a record with several fields changed counts once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// The older snapshot.
    pub from: i64,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
}

impl fmt::Display for Tally {
    /// `since snapshot 4: 1 added, 0 removed, 2 changed`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "since snapshot {}: {} added, {} removed, {} changed",
            self.from, self.added, self.removed, self.changed
        )
    }
}

/// A snapshot stored: its id, each list's records, and what changed since the previous snapshot
/// of the profile and organization (`None` for their first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotTaken {
    pub id: i64,
    pub counts: Vec<(Resource, u64)>,
    pub since: Option<Tally>,
}

impl SnapshotTaken {
    /// Every record stored.
    pub fn records(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }

    /// Each list's records: `32 registrations, 51 nexus, …`.
    pub fn lists(&self) -> String {
        self.counts
            .iter()
            .map(|(resource, n)| format!("{} {resource}", thousands(*n)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `Snapshot 5 taken: 1,204 records; since snapshot 4: 1 added, 0 removed, 2 changed`.
    pub fn summary(&self) -> String {
        let taken = format!(
            "Snapshot {} taken: {}",
            self.id,
            count(self.records(), "record")
        );
        match &self.since {
            Some(tally) => format!("{taken}; {tally}"),
            None => format!("{taken}; the first of this organization"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_taken_reads_as_the_diff_counts_it() {
        let mut taken = SnapshotTaken {
            id: 1,
            counts: vec![(Resource::Registrations, 30), (Resource::Nexus, 53)],
            since: None,
        };
        assert_eq!(
            taken.summary(),
            "Snapshot 1 taken: 83 records; the first of this organization"
        );
        assert_eq!(taken.lists(), "30 registrations, 53 nexus");
        taken.id = 2;
        taken.since = Some(Tally {
            from: 1,
            added: 0,
            removed: 3,
            changed: 1,
        });
        assert_eq!(
            taken.summary(),
            "Snapshot 2 taken: 83 records; since snapshot 1: 0 added, 3 removed, 1 changed"
        );
        let progress = SnapshotProgress {
            rows: 1204,
            total: 2310,
            whole: 3,
            lists: 6,
        };
        assert_eq!(
            progress.to_string(),
            "1,204 of 2,310 rows read, 3 of 6 lists whole"
        );
    }
}
