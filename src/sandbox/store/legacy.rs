//! The JSON state file of earlier versions (the whole state in one document, rewritten at each
//! write). It is only read: on the first start with one, its contents move into a new database
//! and the file is kept beside it as `FILE.bak` (see [`backup`]).

use std::fs;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use serde::Deserialize;

use super::DirectoryUser;
use super::db::{corrupt, sibling};
use crate::sandbox::SandboxError;
use crate::sandbox::demo_data::DemoOrg;
use crate::sandbox::transactions::Changes;

/// The document's format number.
const STATE_FORMAT: u32 = 1;

/// The document: the demo transactions are regenerated from `seed`, `scale` and `anchor`, so
/// only what changed is in it. Secrets are in clear in it.
#[derive(Deserialize)]
pub(super) struct StateFile {
    format: u32,
    pub seed: u64,
    pub scale: u32,
    pub anchor: NaiveDate,
    pub organizations: Vec<SavedOrg>,
    /// Absent in files written before the Tenanted users endpoints (then the demo users).
    #[serde(default)]
    pub users: Option<Vec<DirectoryUser>>,
}

#[derive(Deserialize)]
pub(super) struct SavedOrg {
    pub next_id: u64,
    pub records: DemoOrg,
    pub transactions: Changes,
}

/// Reads a JSON state file; any fault is a corrupt state naming the file.
pub(super) fn read(path: &Path) -> Result<StateFile, SandboxError> {
    let text = fs::read_to_string(path).map_err(|source| SandboxError::StateUnreadable {
        path: path.to_owned(),
        source,
    })?;
    let file: StateFile = serde_json::from_str(&text).map_err(|e| corrupt(path, e.to_string()))?;
    if file.format != STATE_FORMAT {
        return Err(corrupt(
            path,
            format!(
                "state format {} is not the supported {STATE_FORMAT}",
                file.format
            ),
        ));
    }
    if file.organizations.is_empty() {
        return Err(corrupt(path, "it holds no organization"));
    }
    Ok(file)
}

/// Keeps the JSON file's contents under a free name beside it (`FILE.bak`, else `FILE.bak.2`,
/// ...), by a second link to the same file: nothing is copied, and the original name can then
/// be given to the database. Answers the name kept.
pub(super) fn backup(path: &Path) -> Result<PathBuf, SandboxError> {
    let fail = |source: std::io::Error| SandboxError::StateWrite {
        path: path.to_owned(),
        source,
    };
    for n in 1..100 {
        let name = if n == 1 {
            sibling(path, ".bak")
        } else {
            sibling(path, &format!(".bak.{n}"))
        };
        match fs::hard_link(path, &name) {
            Ok(()) => return Ok(name),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            // A file system without hard links: a copy does as well.
            Err(_) if !name.exists() => {
                fs::copy(path, &name).map_err(fail)?;
                fs::File::open(&name)
                    .and_then(|f| f.sync_all())
                    .map_err(fail)?;
                return Ok(name);
            }
            Err(e) => return Err(fail(e)),
        }
    }
    Err(fail(std::io::Error::other(
        "no free name to keep the earlier JSON state under (FILE.bak to FILE.bak.99 exist)",
    )))
}
