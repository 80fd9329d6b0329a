//! Reading a saved state back: from the database, or from a JSON state file of earlier versions.

use std::path::Path;

use super::db::{Db, corrupt};
use super::records::{self, Kind};
use super::{Saved, SavedOrg, demo_users, legacy};
use crate::sandbox::SandboxError;
use crate::sandbox::demo_data::DemoOrg;
use crate::sandbox::transactions::{Changes, StoredTransaction};

/// The contents of an earlier JSON state file.
pub(super) fn from_legacy(file: legacy::StateFile) -> Saved {
    Saved {
        seed: file.seed,
        scale: file.scale,
        anchor: file.anchor,
        orgs: file
            .organizations
            .into_iter()
            .map(|o| SavedOrg {
                next_id: o.next_id,
                demo: o.records,
                changes: o.transactions,
                transactions: None,
            })
            .collect(),
        users: file.users.unwrap_or_else(demo_users),
    }
}

/// The contents of a state database; a row that does not read is a corrupt state.
pub(super) fn from_database(path: &Path, db: &Db) -> Result<Saved, SandboxError> {
    let contents = db.read()?;
    let setting = |name: &str| {
        contents
            .settings
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| corrupt(path, format!("its setting {name} is missing")))
    };
    let bad = |what: &str| corrupt(path, format!("its setting {what} does not read"));
    let seed = setting("seed")?.parse().map_err(|_| bad("seed"))?;
    let scale = setting("scale")?.parse().map_err(|_| bad("scale"))?;
    let anchor = setting("anchor")?.parse().map_err(|_| bad("anchor"))?;
    let mut orgs: Vec<SavedOrg> = contents
        .organizations
        .iter()
        .map(|(id, next_id)| SavedOrg {
            next_id: *next_id,
            demo: DemoOrg {
                organization_id: id.clone(),
                ..DemoOrg::default()
            },
            changes: Changes::default(),
            transactions: None,
        })
        .collect();
    if orgs.is_empty() {
        return Err(corrupt(path, "it holds no organization"));
    }
    let mut stored: Vec<Vec<(u32, StoredTransaction)>> = vec![Vec::new(); orgs.len()];
    let mut users = Vec::new();
    for (org_id, row) in contents.rows {
        let unreadable = |e: &dyn std::fmt::Display| {
            corrupt(
                path,
                format!(
                    "its {} record {} does not read: {e}",
                    row.kind.name(),
                    row.id
                ),
            )
        };
        if row.kind == Kind::User {
            users.push(serde_json::from_str(&row.body).map_err(|e| unreadable(&e))?);
            continue;
        }
        let Some(i) = orgs.iter().position(|o| o.demo.organization_id == org_id) else {
            return Err(corrupt(
                path,
                format!("it holds records of an unknown organization {org_id:?}"),
            ));
        };
        let index = || -> Result<u32, SandboxError> { row.id.parse().map_err(|e| unreadable(&e)) };
        match row.kind {
            Kind::Transaction => {
                let n = index()?;
                let t = serde_json::from_str(&row.body).map_err(|e| unreadable(&e))?;
                stored[i].push((n, t));
            }
            Kind::DemoTransaction => {
                let n = index()?;
                let t = serde_json::from_str(&row.body).map_err(|e| unreadable(&e))?;
                orgs[i].changes.changed.push((n, t));
            }
            _ => {
                let (kind, id) = (row.kind, row.id.clone());
                records::put(&mut orgs[i].demo, row).map_err(|e| {
                    corrupt(
                        path,
                        format!("its {} record {id} does not read: {e}", kind.name()),
                    )
                })?;
            }
        }
    }
    for (org, mut list) in orgs.iter_mut().zip(stored) {
        list.sort_by_key(|(n, _)| *n);
        if list.iter().enumerate().any(|(i, (n, _))| *n as usize != i) {
            return Err(corrupt(
                path,
                format!(
                    "the created transactions of {} are not numbered 0 to {}",
                    org.demo.organization_id,
                    list.len().saturating_sub(1)
                ),
            ));
        }
        org.changes.stored = list.into_iter().map(|(_, t)| t).collect();
        org.changes.changed.sort_by_key(|(n, _)| *n);
    }
    Ok(Saved {
        seed,
        scale,
        anchor,
        orgs,
        users,
    })
}
