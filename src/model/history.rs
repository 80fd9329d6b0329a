//! What the history database tells of one record across the stored snapshots, as the dashboard
//! shows it (`H` on a record): one entry per snapshot where the record changed, newest first.

use chrono::{DateTime, Utc};

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

/// A record's history across the snapshots of one profile and organization.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}
