//! What the dashboard reads from the history database, through the runtime: the lists' records
//! changed between the two latest snapshots, and one record's history across the snapshots
//! (`H`), worked out here so that the dashboard only shows it.

use serde_json::Value;

use super::diff::{field_changes, label, noun};
use super::snapshot::Snapshot;
use super::store::{Dialect, Param};
use super::{History, HistoryError};
use crate::model::Resource;
use crate::model::history::{RecordEntry, RecordEvent, RecordHistory};

/// How many snapshots of a profile and organization are stored, and each list's records that
/// differ between the two latest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changed {
    pub snapshots: usize,
    pub records: Vec<(Resource, Vec<String>)>,
}

impl History {
    /// How many snapshots of `scope` (profile, organization) are stored, and the records of each
    /// list that changed between the two latest (hashes compared in the database).
    pub fn changed_records(&self, scope: (&str, &str)) -> Result<Changed, HistoryError> {
        let snapshots = self.snapshots(Some(scope))?.len();
        let mut records = Vec::new();
        for &resource in Resource::ALL {
            let ids = self.changed_since_previous(scope, resource)?;
            if !ids.is_empty() {
                records.push((resource, ids));
            }
        }
        Ok(Changed { snapshots, records })
    }

    /// The history of record `id` of `resource` in the snapshots of `scope` (profile,
    /// organization): the snapshots where it changed, newest first, and its name.
    pub fn record_changes(
        &self,
        scope: (&str, &str),
        resource: Resource,
        id: &str,
    ) -> Result<RecordHistory, HistoryError> {
        let seen = self.record_history(scope, resource, id)?;
        let name = seen
            .iter()
            .rev()
            .find_map(|(_, b)| b.as_deref())
            .and_then(|b| serde_json::from_str::<Value>(b).ok())
            .map_or_else(|| id.to_owned(), |b| label(resource, id, &b));
        Ok(RecordHistory {
            noun: noun(resource).to_owned(),
            name,
            snapshots: seen.len(),
            held: seen.iter().filter(|(_, b)| b.is_some()).count(),
            entries: entries(&seen),
            writes: Vec::new(),
        })
    }
}

/// What an organization's last Overview learnt, as a team's history keeps it for every machine
/// (see [`crate::app::read_ahead`]): the filings it checked and the pages of its pace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamReadAhead {
    pub organization: String,
    pub filings_checked: Vec<String>,
    pub pace_pages: Option<u32>,
}

impl History {
    /// What every organization's last Overview learnt, from any machine of the team. Only a
    /// server keeps it (a file's read-ahead is the machine's own): empty on a file.
    pub fn team_read_ahead(&self) -> Result<Vec<TeamReadAhead>, HistoryError> {
        if self.dialect() != Dialect::Postgres {
            return Ok(Vec::new());
        }
        Ok(self
            .rows(
                "SELECT organization, filings_checked, pace_pages FROM read_ahead",
                &[],
            )?
            .iter()
            .map(|r| TeamReadAhead {
                organization: r.text(0),
                filings_checked: serde_json::from_str(&r.text(1)).unwrap_or_default(),
                pace_pages: r.opt_int(2).and_then(|p| u32::try_from(p).ok()),
            })
            .collect())
    }

    /// Keeps what an organization's Overview learnt for the team (on a server; nothing on a
    /// file).
    pub fn keep_team_read_ahead(&self, kept: &TeamReadAhead) -> Result<(), HistoryError> {
        if self.dialect() != Dialect::Postgres {
            return Ok(());
        }
        let filings = serde_json::to_string(&kept.filings_checked).unwrap_or_default();
        let now = super::snapshot::stored_time(chrono::Utc::now());
        self.exec(
            "INSERT INTO read_ahead (organization, filings_checked, pace_pages, updated_at) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (organization) DO UPDATE SET \
             filings_checked = excluded.filings_checked, \
             pace_pages = coalesce(excluded.pace_pages, read_ahead.pace_pages), \
             updated_at = excluded.updated_at",
            &[
                Param::Text(&kept.organization),
                Param::Text(&filings),
                kept.pace_pages.map(i64::from).into(),
                Param::Text(&now),
            ],
        )
        .map(drop)
    }
}

/// The entries of a record's history, newest first, from its bodies across the snapshots
/// (oldest first, as [`History::record_history`] answers). Snapshots where it did not change
/// are left out.
pub fn entries(seen: &[(Snapshot, Option<String>)]) -> Vec<RecordEntry> {
    let mut out = Vec::new();
    let mut before: Option<Value> = None;
    let mut held_before = false;
    for (snapshot, body) in seen {
        let now = body
            .as_deref()
            .map(|b| serde_json::from_str(b).unwrap_or_else(|_| Value::String(b.to_owned())));
        let event = match (&before, &now) {
            (None, Some(_)) if held_before => Some(RecordEvent::Back),
            (None, Some(_)) => Some(RecordEvent::First),
            (Some(_), None) => Some(RecordEvent::Gone),
            (Some(old), Some(new)) if old != new => Some(RecordEvent::Changed(
                field_changes(old, new)
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
            )),
            _ => None,
        };
        if let Some(event) = event {
            out.push(RecordEntry {
                snapshot: snapshot.id,
                taken: snapshot.taken,
                event,
            });
        }
        held_before |= now.is_some();
        before = now;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, Utc};

    use super::*;
    use crate::history::snapshot::Scope;

    fn run(id: i64) -> Snapshot {
        Snapshot {
            id,
            taken: NaiveDate::from_ymd_opt(2026, 11, u32::try_from(id).unwrap())
                .unwrap()
                .and_hms_opt(9, 0, 0)
                .unwrap()
                .and_utc()
                .with_timezone(&Utc),
            scope: Scope {
                profile: "p".into(),
                organization: "o".into(),
                api: "v1".into(),
                transactions: None,
            },
            records: 1,
            taken_by: String::new(),
            uid: String::new(),
        }
    }

    #[test]
    fn only_the_snapshots_where_it_changed_are_entries_newest_first() {
        let body = |s: &str| Some(format!(r#"{{"status":"{s}"}}"#));
        let seen = vec![
            (run(1), None),
            (run(2), body("ACTIVE")),
            (run(3), body("ACTIVE")),
            (run(4), body("EXPIRED")),
            (run(5), None),
            (run(6), body("EXPIRED")),
        ];
        let events: Vec<(i64, RecordEvent)> = entries(&seen)
            .into_iter()
            .map(|e| (e.snapshot, e.event))
            .collect();
        assert_eq!(
            events,
            [
                (6, RecordEvent::Back),
                (5, RecordEvent::Gone),
                (
                    4,
                    RecordEvent::Changed(vec!["Status: ACTIVE → EXPIRED".into()])
                ),
                (2, RecordEvent::First),
            ]
        );
    }
}
