//! The sandbox's records, one set per organization, and their state file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::SandboxError;
use super::demo_data::{self, DemoOrg};
use super::transactions::{BASE_COUNT, Changes, Transactions};
use crate::model::Registration;

/// The demo organizations and their API keys, documented in the README.
pub const DEMO_CREDENTIALS: [(&str, &str); 2] =
    [("orgn_demo_1", "demo-key-1"), ("orgn_demo_2", "demo-key-2")];

/// Everything one organization holds.
pub struct OrgData {
    pub demo: DemoOrg,
    pub transactions: Transactions,
    next_id: u64,
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

    /// The registration `id`, if the organization has it.
    pub fn registration(&self, id: &str) -> Option<&Registration> {
        self.demo.registrations.iter().find(|r| r.id == id)
    }

    /// The registration `id` to change, if the organization has it.
    pub fn registration_mut(&mut self, id: &str) -> Option<&mut Registration> {
        self.demo.registrations.iter_mut().find(|r| r.id == id)
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
        self.data.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, OrgData> {
        self.data.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// The state file's contents: the demo transactions are regenerated from `seed`, `scale` and
/// `anchor`, so only what changed is kept.
#[derive(Serialize, Deserialize)]
struct StateFile {
    format: u32,
    seed: u64,
    scale: u32,
    anchor: NaiveDate,
    organizations: Vec<SavedOrg>,
    /// The users of the Tenanted users endpoints; absent in files written before them (then the
    /// demo users).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    users: Option<Vec<DirectoryUser>>,
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

#[derive(Serialize, Deserialize)]
struct SavedOrg {
    key: String,
    next_id: u64,
    records: DemoOrg,
    transactions: Changes,
}

const STATE_FORMAT: u32 = 1;

/// All organizations, and where their state is saved.
pub struct Store {
    orgs: Vec<Arc<Org>>,
    seed: u64,
    scale: u32,
    anchor: NaiveDate,
    state_file: Option<PathBuf>,
    save_lock: Mutex<()>,
    users: Mutex<Vec<DirectoryUser>>,
}

impl Store {
    /// Generates the demo organizations, or resumes them from `state_file` when it exists. An
    /// unreadable or corrupt state file is an error: it is never overwritten.
    pub fn open(
        seed: u64,
        scale: u32,
        anchor: NaiveDate,
        state_file: Option<PathBuf>,
    ) -> Result<Self, SandboxError> {
        if let Some(path) = state_file.as_deref()
            && path.exists()
        {
            return Self::load(path);
        }
        let orgs = DEMO_CREDENTIALS
            .iter()
            .enumerate()
            .map(|(i, (id, key))| {
                let demo = demo_data::generate(seed, i, id);
                let count = BASE_COUNT[i].saturating_mul(scale.max(1));
                let transactions =
                    Transactions::generate(seed, i, id, anchor, count, demo.customers.len());
                Arc::new(Org {
                    id: (*id).to_owned(),
                    key: (*key).to_owned(),
                    data: RwLock::new(OrgData {
                        demo,
                        transactions,
                        next_id: 0,
                    }),
                })
            })
            .collect();
        Ok(Store {
            orgs,
            seed,
            scale,
            anchor,
            state_file,
            save_lock: Mutex::new(()),
            users: Mutex::new(demo_users()),
        })
    }

    fn load(path: &Path) -> Result<Self, SandboxError> {
        let text = fs::read_to_string(path).map_err(|source| SandboxError::StateUnreadable {
            path: path.to_owned(),
            source,
        })?;
        let corrupt = |reason: String| SandboxError::StateCorrupt {
            path: path.to_owned(),
            reason,
        };
        let file: StateFile = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
        if file.format != STATE_FORMAT {
            return Err(corrupt(format!(
                "state format {} is not the supported {STATE_FORMAT}",
                file.format
            )));
        }
        let mut orgs = Vec::new();
        for (i, saved) in file.organizations.into_iter().enumerate() {
            let id = saved.records.organization_id.clone();
            let count = BASE_COUNT
                .get(i)
                .copied()
                .unwrap_or(BASE_COUNT[1])
                .saturating_mul(file.scale.max(1));
            let mut transactions = Transactions::generate(
                file.seed,
                i,
                &id,
                file.anchor,
                count,
                saved.records.customers.len(),
            );
            transactions.apply(saved.transactions, &saved.records.customers);
            orgs.push(Arc::new(Org {
                id,
                key: saved.key,
                data: RwLock::new(OrgData {
                    demo: saved.records,
                    transactions,
                    next_id: saved.next_id,
                }),
            }));
        }
        if orgs.is_empty() {
            return Err(corrupt("it holds no organization".into()));
        }
        Ok(Store {
            orgs,
            seed: file.seed,
            scale: file.scale,
            anchor: file.anchor,
            state_file: Some(path.to_owned()),
            save_lock: Mutex::new(()),
            users: Mutex::new(file.users.unwrap_or_else(demo_users)),
        })
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

    /// The users of every organization (Tenanted users endpoints).
    pub fn users(&self) -> MutexGuard<'_, Vec<DirectoryUser>> {
        self.users.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Saves every organization to the state file, if there is one, by an atomic replace: a
    /// reader sees the old file or the new one, never half of one.
    pub fn save(&self) -> Result<(), SandboxError> {
        let Some(path) = self.state_file.as_deref() else {
            return Ok(());
        };
        let _one_at_a_time = self.save_lock.lock().unwrap_or_else(|e| e.into_inner());
        let organizations = self
            .orgs
            .iter()
            .map(|org| {
                let data = org.read();
                SavedOrg {
                    key: org.key.clone(),
                    next_id: data.next_id,
                    records: data.demo.clone(),
                    transactions: data.transactions.changes(),
                }
            })
            .collect();
        let file = StateFile {
            format: STATE_FORMAT,
            seed: self.seed,
            scale: self.scale,
            anchor: self.anchor,
            organizations,
            users: Some(self.users().clone()),
        };
        let write_error = |source: std::io::Error| SandboxError::StateWrite {
            path: path.to_owned(),
            source,
        };
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(write_error)?;
        serde_json::to_writer(&mut tmp, &file).map_err(|e| write_error(e.into()))?;
        tmp.flush().map_err(write_error)?;
        tmp.as_file().sync_all().map_err(write_error)?;
        tmp.persist(path).map_err(|e| write_error(e.error))?;
        Ok(())
    }
}
