//! The sandbox's records, one set per organization, and where they are kept.
//!
//! Records live in memory; with `--state FILE` they are also kept in a `SQLite` database (see
//! [`db`]), one row per record ([`records`]). A handler names each record it changed
//! ([`OrgData::touch`]; transactions track their own), and [`Store::save`] writes those rows in
//! one transaction before the handler answers. Secrets are kept sealed by the vault, in memory
//! and on disk alike.
//!
//! The first start with a JSON state file of earlier versions moves it into a new database and
//! keeps the JSON file as `FILE.bak` ([`legacy`]).

mod db;
mod legacy;
mod load;
mod records;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

pub(crate) use records::{Kind, secret_key};

use super::SandboxError;
use super::demo_data::{self, DemoOrg};
use super::tenanted::features::{seal_secrets, vault::Vault};
use super::transactions::{Changes, Origin, StoredTransaction, Transactions};
use crate::model::Registration;
use db::{Change, Db, Found, Initial};
use load::{from_database, from_legacy};
use records::Row;

/// The demo organizations and their API keys, documented in the README.
pub const DEMO_CREDENTIALS: [(&str, &str); 2] =
    [("orgn_demo_1", "demo-key-1"), ("orgn_demo_2", "demo-key-2")];

/// Everything one organization holds.
pub struct OrgData {
    pub demo: DemoOrg,
    pub transactions: Transactions,
    next_id: u64,
    /// The records changed since the last save, in the order they were changed.
    touched: Vec<(Kind, String)>,
}

impl OrgData {
    /// A new id with the service's prefix for the kind of record (`phys`, `exmp`, ...), unique in
    /// the sandbox.
    pub fn new_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!(
            "{prefix}_{}new{:05}",
            &self.demo.organization_id[self.demo.organization_id.len() - 1..],
            self.next_id
        )
    }

    /// Names a record of [`demo`](Self::demo) this write added, changed or removed, so that the
    /// next [`Store::save`] keeps it (or drops its row). Records added in one write are named in
    /// the order they were added.
    pub fn touch(&mut self, kind: Kind, id: impl Into<String>) {
        self.touched.push((kind, id.into()));
    }

    /// The registration `id`, if the organization has it.
    pub fn registration(&self, id: &str) -> Option<&Registration> {
        self.demo.registrations.iter().find(|r| r.id == id)
    }

    /// The registration `id` to change, if the organization has it (named as changed).
    pub fn registration_mut(&mut self, id: &str) -> Option<&mut Registration> {
        let found = self.demo.registrations.iter().position(|r| r.id == id)?;
        self.touch(Kind::Registration, id);
        self.demo.registrations.get_mut(found)
    }
}

/// One organization: its id, its key, its records.
pub struct Org {
    pub id: String,
    pub key: String,
    data: RwLock<OrgData>,
}

impl Org {
    pub fn read(&self) -> RwLockReadGuard<'_, OrgData> {
        self.data
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, OrgData> {
        self.data
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A user of an organization, as the Tenanted users endpoints list them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirectoryUser {
    pub organization_id: String,
    pub id: String,
    pub email: String,
    pub role: String,
    pub status: String,
}

/// The users every demo starts with.
fn demo_users() -> Vec<DirectoryUser> {
    super::tenanted::directory::DEMO_USERS
        .iter()
        .map(|(org, id, email, role, status)| DirectoryUser {
            organization_id: (*org).to_owned(),
            id: (*id).to_owned(),
            email: (*email).to_owned(),
            role: role.as_str().to_owned(),
            status: (*status).to_owned(),
        })
        .collect()
}

/// What the state holds, wherever it was read from: the demo transactions are regenerated
/// from `seed`, `scale` and `anchor`, so only their changes are kept.
struct Saved {
    seed: u64,
    scale: u32,
    anchor: NaiveDate,
    orgs: Vec<SavedOrg>,
    users: Vec<DirectoryUser>,
}

struct SavedOrg {
    next_id: u64,
    demo: DemoOrg,
    changes: Changes,
    /// The demo transactions, when they were just generated with `demo` (else regenerated).
    transactions: Option<Transactions>,
}

impl Saved {
    /// The demo organizations as generated.
    fn generate(seed: u64, scale: u32, anchor: NaiveDate) -> Saved {
        let orgs = DEMO_CREDENTIALS
            .iter()
            .enumerate()
            .map(|(i, (id, _))| {
                let (demo, transactions) = demo_data::generate_scaled(seed, i, id, anchor, scale);
                SavedOrg {
                    next_id: 0,
                    demo,
                    changes: Changes::default(),
                    transactions: Some(transactions),
                }
            })
            .collect();
        Saved {
            seed,
            scale,
            anchor,
            orgs,
            users: demo_users(),
        }
    }

    /// Seals every secret the records hold in clear (fresh demo data, an earlier JSON state).
    fn seal(&mut self, vault: &Vault) -> Result<(), SandboxError> {
        for org in &mut self.orgs {
            seal_secrets(&mut org.demo, vault).map_err(|e| SandboxError::Start(e.to_string()))?;
        }
        Ok(())
    }

    /// The rows of a new database.
    fn initial(&self) -> serde_json::Result<Initial> {
        let mut rows = Vec::new();
        for org in &self.orgs {
            let mut org_rows = records::all(&org.demo)?;
            for (n, stored) in org.changes.stored.iter().enumerate() {
                org_rows.push(stored_row(n as u32, stored)?);
            }
            for (n, t) in &org.changes.changed {
                org_rows.push(Row {
                    kind: Kind::DemoTransaction,
                    id: n.to_string(),
                    body: serde_json::to_string(t)?,
                    bytes: None,
                });
            }
            rows.push((org.demo.organization_id.clone(), org_rows));
        }
        rows.push((
            String::new(),
            self.users.iter().map(user_row).collect::<Result<_, _>>()?,
        ));
        Ok(Initial {
            settings: vec![
                ("seed", self.seed.to_string()),
                ("scale", self.scale.to_string()),
                ("anchor", self.anchor.to_string()),
            ],
            organizations: self
                .orgs
                .iter()
                .map(|o| (o.demo.organization_id.clone(), o.next_id))
                .collect(),
            rows,
        })
    }
}

fn stored_row(n: u32, stored: &StoredTransaction) -> serde_json::Result<Row> {
    Ok(Row {
        kind: Kind::Transaction,
        id: n.to_string(),
        body: serde_json::to_string(stored)?,
        bytes: None,
    })
}

fn user_key(user: &DirectoryUser) -> String {
    format!("{} {}", user.organization_id, user.id)
}

fn user_row(user: &DirectoryUser) -> serde_json::Result<Row> {
    Ok(Row {
        kind: Kind::User,
        id: user_key(user),
        body: serde_json::to_string(user)?,
        bytes: None,
    })
}

/// The database and how many users it holds (users are only ever added).
struct Saver {
    db: Db,
    users_saved: usize,
}

/// All organizations, and where their state is saved.
pub struct Store {
    orgs: Vec<Arc<Org>>,
    saver: Option<Mutex<Saver>>,
    users: Mutex<Vec<DirectoryUser>>,
}

impl Store {
    /// Generates the demo organizations, or resumes them from `state_file` when it exists (a
    /// JSON state file of earlier versions is moved into a new database first). A file that is
    /// not a sandbox state is an error naming it, and is never written to. Secrets are sealed
    /// with `vault`.
    pub fn open(
        seed: u64,
        scale: u32,
        anchor: NaiveDate,
        state_file: Option<PathBuf>,
        vault: &Vault,
    ) -> Result<Self, SandboxError> {
        let Some(path) = state_file else {
            let mut saved = Saved::generate(seed, scale, anchor);
            saved.seal(vault)?;
            return Ok(Store::assemble(saved, None));
        };
        db::remove_leftovers(&path);
        let found = if path.exists() {
            Some(db::sniff(&path)?)
        } else {
            None
        };
        let unwritable = |e: serde_json::Error| SandboxError::StateWrite {
            path: path.clone(),
            source: e.into(),
        };
        match found {
            Some(Found::Database) => {}
            None => {
                let mut saved = Saved::generate(seed, scale, anchor);
                saved.seal(vault)?;
                db::create(&path, &saved.initial().map_err(unwritable)?, || Ok(()))?;
            }
            Some(Found::Json) => {
                let mut saved = from_legacy(legacy::read(&path)?);
                saved.seal(vault)?;
                let mut kept = None;
                db::create(&path, &saved.initial().map_err(unwritable)?, || {
                    kept = Some(legacy::backup(&path)?);
                    Ok(())
                })?;
                if let Some(kept) = kept {
                    tracing::warn!(
                        "the JSON state {} now lives in a database under the same name; the JSON \
                         file is kept as {} and holds portal passwords and PINs in clear: delete it \
                         once it is no longer needed",
                        path.display(),
                        kept.display()
                    );
                }
            }
        }
        let db = Db::open(&path)?;
        let saved = from_database(&path, &db)?;
        let users_saved = saved.users.len();
        Ok(Store::assemble(saved, Some(Saver { db, users_saved })))
    }

    /// The organizations of `saved`, their transactions regenerated and changed as saved.
    fn assemble(saved: Saved, saver: Option<Saver>) -> Store {
        let orgs = saved
            .orgs
            .into_iter()
            .enumerate()
            .map(|(i, org)| {
                let id = org.demo.organization_id.clone();
                let mut org = org;
                // Just generated with the records, they agree with them already; regenerated,
                // the returns of a state saved before they agreed are brought in line.
                let mut transactions = org.transactions.take().unwrap_or_else(|| {
                    let regenerated = demo_data::transactions(
                        saved.seed,
                        i,
                        &id,
                        saved.anchor,
                        saved.scale,
                        (&org.demo.exemptions, &org.demo.customers),
                    );
                    demo_data::reconcile_filings(&mut org.demo.filings, &regenerated);
                    regenerated
                });
                if org.changes != Changes::default() {
                    transactions.apply(org.changes, &org.demo.customers);
                }
                let key = DEMO_CREDENTIALS
                    .get(i)
                    .map_or_else(|| format!("demo-key-{}", i + 1), |(_, k)| (*k).to_owned());
                Arc::new(Org {
                    id,
                    key,
                    data: RwLock::new(OrgData {
                        demo: org.demo,
                        transactions,
                        next_id: org.next_id,
                        touched: Vec::new(),
                    }),
                })
            })
            .collect();
        Store {
            orgs,
            saver: saver.map(Mutex::new),
            users: Mutex::new(saved.users),
        }
    }

    /// One organization holding `demo` and `transactions` as they are, under the key `key`,
    /// saved nowhere: a snapshot served offline.
    pub fn frozen(
        organization_id: &str,
        key: String,
        demo: DemoOrg,
        transactions: Vec<crate::model::Transaction>,
        anchor: NaiveDate,
    ) -> Store {
        let mut generated =
            Transactions::generate(0, 0, organization_id, anchor, 0, demo.customers.len());
        generated.load(transactions, &demo.customers);
        let org = Org {
            id: organization_id.to_owned(),
            key,
            data: RwLock::new(OrgData {
                demo,
                transactions: generated,
                next_id: 0,
                touched: Vec::new(),
            }),
        };
        Store {
            orgs: vec![Arc::new(org)],
            saver: None,
            users: Mutex::new(Vec::new()),
        }
    }

    pub fn org_for_key(&self, key: &str) -> Option<&Arc<Org>> {
        self.orgs.iter().find(|o| o.key == key)
    }

    /// Every organization, in the order of [`DEMO_CREDENTIALS`].
    pub fn orgs(&self) -> &[Arc<Org>] {
        &self.orgs
    }

    /// The organization with id `id`.
    pub fn org_by_id(&self, id: &str) -> Option<&Arc<Org>> {
        self.orgs.iter().find(|o| o.id == id)
    }

    /// The users of every organization (Tenanted users endpoints). Users are only added, at the
    /// end.
    pub fn users(&self) -> MutexGuard<'_, Vec<DirectoryUser>> {
        self.users
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// [`save`](Self::save) on a blocking thread, so that the server's workers go on taking
    /// requests while a commit waits for the disk; the writes they accept meanwhile are saved
    /// together by the next commit (a group commit). Without a database, saves in place.
    pub async fn save_in_background(&self, app: &Arc<super::App>) -> Result<(), SandboxError> {
        if self.saver.is_none() {
            return self.save();
        }
        let app = Arc::clone(app);
        tokio::task::spawn_blocking(move || app.store.save())
            .await
            .map_err(|e| SandboxError::Save(format!("the saving thread ended early: {e}")))?
    }

    /// Saves what changed since the last save (the records named by [`OrgData::touch`], the
    /// transactions created or changed, the users added) in one transaction of the database,
    /// if there is one. When this returns `Ok`, the change is on disk. Writes that arrive while
    /// one is being saved wait and are saved together by the next call.
    pub fn save(&self) -> Result<(), SandboxError> {
        let Some(saver) = &self.saver else {
            for org in &self.orgs {
                let mut data = org.write();
                data.touched.clear();
                data.transactions.take_changed();
            }
            return Ok(());
        };
        let mut saver = saver
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut changes = Vec::new();
        let mut next_ids = Vec::new();
        let mut taken = Vec::new();
        for org in &self.orgs {
            let mut data = org.write();
            let touched = std::mem::take(&mut data.touched);
            let origins = data.transactions.take_changed();
            if touched.is_empty() && origins.is_empty() {
                continue;
            }
            let collected = collect_changes(&org.id, &data, &touched, &origins);
            match collected {
                Ok(mut c) => changes.append(&mut c),
                Err(e) => {
                    tracing::error!("a record of {} could not be written as JSON: {e}", org.id);
                }
            }
            next_ids.push((org.id.clone(), data.next_id));
            taken.push((Arc::clone(org), touched, origins));
        }
        let users = self.users();
        let users_len = users.len();
        for user in users.iter().skip(saver.users_saved) {
            if let Ok(row) = user_row(user) {
                changes.push(Change {
                    org: String::new(),
                    kind: Kind::User,
                    id: row.id.clone(),
                    row: Some(row),
                });
            }
        }
        drop(users);
        if changes.is_empty() && next_ids.is_empty() {
            return Ok(());
        }
        match saver.db.write(&changes, &next_ids) {
            Ok(()) => {
                saver.users_saved = users_len;
                Ok(())
            }
            Err(e) => {
                // Nothing was written: the next save tries these records again.
                for (org, touched, origins) in taken {
                    let mut data = org.write();
                    let later = std::mem::replace(&mut data.touched, touched);
                    data.touched.extend(later);
                    data.transactions.mark_changed(origins);
                }
                Err(e)
            }
        }
    }
}

/// The rows to write for the records `touched` and the transactions at `origins`, each once.
fn collect_changes(
    org: &str,
    data: &OrgData,
    touched: &[(Kind, String)],
    origins: &[Origin],
) -> serde_json::Result<Vec<Change>> {
    let mut changes = Vec::new();
    let mut seen = HashSet::new();
    for (kind, id) in touched {
        if !seen.insert((*kind, id.as_str())) {
            continue;
        }
        changes.push(Change {
            org: org.to_owned(),
            kind: *kind,
            id: id.clone(),
            row: records::find(&data.demo, *kind, id).transpose()?,
        });
    }
    let mut seen = HashSet::new();
    for origin in origins {
        if !seen.insert(*origin) {
            continue;
        }
        let (kind, id, row) = match *origin {
            Origin::Stored(n) => (
                Kind::Transaction,
                n.to_string(),
                data.transactions
                    .stored(n)
                    .map(|s| stored_row(n, s))
                    .transpose()?,
            ),
            Origin::Demo(n) => (
                Kind::DemoTransaction,
                n.to_string(),
                data.transactions
                    .changed_demo(n)
                    .map(|t| -> serde_json::Result<Row> {
                        Ok(Row {
                            kind: Kind::DemoTransaction,
                            id: n.to_string(),
                            body: serde_json::to_string(t)?,
                            bytes: None,
                        })
                    })
                    .transpose()?,
            ),
        };
        changes.push(Change {
            org: org.to_owned(),
            kind,
            id,
            row,
        });
    }
    Ok(changes)
}
