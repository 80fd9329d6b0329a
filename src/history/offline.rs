//! Browsing a snapshot offline: which snapshot `taxdash --offline` opens, and its records as
//! the frozen sandbox serves them ([`crate::sandbox::Frozen`]).

use super::snapshot::Snapshot;
use super::{History, HistoryError, Location, Place};
use crate::model::Resource;
use crate::sandbox::{ALWAYS_HELD, Frozen};

/// Which snapshot to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// The one with this id (`--snapshot ID`).
    Id(i64),
    /// The latest of this profile and organization (an empty organization: of any organization
    /// of the profile, for a profile that names none).
    Latest {
        profile: String,
        organization: String,
    },
    /// The latest of any profile (`--demo --offline`).
    AnyLatest,
}

/// Why no snapshot can be opened.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error(
        "no snapshot of profile {profile}, organization {organization} in {path}: run `taxdash snapshot` first"
    )]
    NoSnapshot {
        profile: String,
        organization: String,
        path: Place,
    },
    #[error(
        "no snapshot in {path}: run `taxdash snapshot --demo --history {path}` first, or name a history that holds one with --history"
    )]
    NoneAtAll { path: Place },
    #[error("there is no snapshot {id} in {path}")]
    UnknownId { id: i64, path: Place },
}

/// What to say when `pick` finds no snapshot in the history at `path`.
fn missing(pick: &Pick, path: &Place) -> OfflineError {
    let path = path.clone();
    match pick {
        Pick::Id(id) => OfflineError::UnknownId { id: *id, path },
        Pick::Latest {
            profile,
            organization,
        } => OfflineError::NoSnapshot {
            profile: profile.clone(),
            organization: if organization.is_empty() {
                "(any)".into()
            } else {
                organization.clone()
            },
            path,
        },
        Pick::AnyLatest => OfflineError::NoneAtAll { path },
    }
}

/// The snapshot `pick` names in `history`.
pub fn choose(history: &History, pick: &Pick) -> Result<Snapshot, OfflineError> {
    let found = match pick {
        Pick::Id(id) => history.snapshot(*id)?,
        Pick::Latest {
            profile,
            organization,
        } if organization.is_empty() => history
            .snapshots(None)?
            .into_iter()
            .find(|s| s.scope.profile == *profile),
        Pick::Latest {
            profile,
            organization,
        } => history
            .snapshots(Some((profile, organization)))?
            .into_iter()
            .next(),
        Pick::AnyLatest => history.snapshots(None)?.into_iter().next(),
    };
    found.ok_or_else(|| missing(pick, history.place()))
}

/// Opens the history at `location` to browse it, and the snapshot `pick` names. A file that
/// does not exist holds no snapshot, and is not made.
pub fn open(location: &Location, pick: &Pick) -> Result<(History, Snapshot), OfflineError> {
    if let Location::File(path) = location
        && !path.exists()
    {
        return Err(missing(pick, &location.place()));
    }
    let history = History::open_at(location)?;
    let snapshot = choose(&history, pick)?;
    Ok((history, snapshot))
}

/// The resources `snapshot` holds: the ones every snapshot reads, transactions when they were
/// taken, and any other it has records of.
pub fn held(snapshot: &Snapshot, records: &[(Resource, String)]) -> Vec<Resource> {
    let mut held = ALWAYS_HELD.to_vec();
    if snapshot.scope.transactions.is_some() {
        held.push(Resource::Transactions);
    }
    for (resource, _) in records {
        if !held.contains(resource) {
            held.push(*resource);
        }
    }
    held
}

/// Every record of `snapshot`, ready for the frozen sandbox.
pub fn frozen(history: &History, snapshot: &Snapshot) -> Result<Frozen, HistoryError> {
    let mut records = Vec::new();
    for &resource in Resource::ALL {
        for record in history.snapshot_records(snapshot.id, resource)? {
            records.push((resource, record.body));
        }
    }
    Ok(Frozen {
        organization_id: snapshot.scope.organization.clone(),
        taken: snapshot.taken,
        held: held(snapshot, &records),
        records,
    })
}

#[cfg(test)]
mod tests {
    use crate::history::on_both_stores;

    use chrono::{DateTime, NaiveDate, Utc};

    use super::*;
    use crate::history::snapshot::{Record, Scope};

    fn scope(profile: &str, org: &str, transactions: bool) -> Scope {
        let day = NaiveDate::from_ymd_opt(2026, 11, 1).unwrap();
        Scope {
            profile: profile.into(),
            organization: org.into(),
            api: "v1".into(),
            transactions: transactions.then_some((day, day)),
        }
    }

    fn at(day: u32) -> DateTime<Utc> {
        NaiveDate::from_ymd_opt(2026, 11, day)
            .unwrap()
            .and_hms_opt(9, 30, 0)
            .unwrap()
            .and_utc()
    }

    fn latest(profile: &str, organization: &str) -> Pick {
        Pick::Latest {
            profile: profile.into(),
            organization: organization.into(),
        }
    }

    on_both_stores! {
    fn the_latest_snapshot_of_the_profile_and_organization_is_chosen(h: History) {
        let old = h.write_snapshot(&scope("work", "org_1", false), at(1), &[]);
        let new = h.write_snapshot(&scope("work", "org_1", false), at(5), &[]);
        let other = h.write_snapshot(&scope("work", "org_2", false), at(9), &[]);
        let elsewhere = h.write_snapshot(&scope("home", "org_1", false), at(10), &[]);
        let (old, new, other, elsewhere) = (
            old.unwrap(),
            new.unwrap(),
            other.unwrap(),
            elsewhere.unwrap(),
        );
        assert_eq!(choose(&h, &latest("work", "org_1")).unwrap().id, new);
        assert_eq!(choose(&h, &latest("work", "org_2")).unwrap().id, other);
        assert_eq!(choose(&h, &latest("work", "")).unwrap().id, other);
        assert_eq!(choose(&h, &Pick::AnyLatest).unwrap().id, elsewhere);
        assert_eq!(choose(&h, &Pick::Id(old)).unwrap().taken, at(1));
    }
    }

    on_both_stores! {
    fn a_missing_snapshot_is_said_with_the_profile_organization_and_file(h: History) {
        let none = choose(&h, &latest("work", "org_1"))
            .unwrap_err()
            .to_string();
        assert!(none.starts_with("no snapshot of profile work, organization org_1 in "));
        assert!(none.ends_with("run `taxdash snapshot` first"), "{none}");
        assert!(
            choose(&h, &Pick::AnyLatest)
                .unwrap_err()
                .to_string()
                .starts_with("no snapshot in ")
        );
        h.write_snapshot(&scope("work", "org_1", false), at(1), &[])
            .unwrap();
        let unknown = choose(&h, &Pick::Id(77)).unwrap_err().to_string();
        assert!(
            unknown.starts_with("there is no snapshot 77 in "),
            "{unknown}"
        );
    }
    }

    #[test]
    fn a_file_that_does_not_exist_is_not_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        let said = open(&Location::File(path.clone()), &latest("work", "org_1"))
            .unwrap_err()
            .to_string();
        assert!(said.contains(&path.display().to_string()), "{said}");
        assert!(!path.exists());
    }

    on_both_stores! {
    fn transactions_are_held_only_when_taken_and_every_record_is_read(h: History) {
        let records = [
            Record {
                resource: Resource::Nexus,
                id: "n1".into(),
                body: r#"{"id":"n1"}"#.into(),
            },
            Record {
                resource: Resource::Products,
                id: "p1".into(),
                body: r#"{"id":"p1"}"#.into(),
            },
        ];
        let without = h
            .write_snapshot(&scope("work", "org_1", false), at(1), &records)
            .unwrap();
        let with = h
            .write_snapshot(&scope("work", "org_1", true), at(2), &[])
            .unwrap();
        let without = frozen(&h, &h.snapshot(without).unwrap().unwrap()).unwrap();
        assert!(!without.held.contains(&Resource::Transactions));
        assert!(without.held.contains(&Resource::Products));
        assert_eq!(without.records.len(), 2);
        assert_eq!(without.taken, at(1));
        let with = frozen(&h, &h.snapshot(with).unwrap().unwrap()).unwrap();
        assert!(with.held.contains(&Resource::Transactions));
        assert!(!with.held.contains(&Resource::Products));
    }
    }
}
