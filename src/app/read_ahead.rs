//! The filings each organization's Overview checked last, kept between runs so that the next
//! Overview asks for their transactions with its first calls instead of after the filings list
//! answers: the figures are read afresh every time; only which filings to read is remembered.
//!
//! One JSON file in the state folder (`read-ahead.json`), an entry per profile and
//! organization; filing ids only, nothing secret. A missing, unreadable or foreign file is an
//! empty one: the Overview then reads as on a first run.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// The file's name in the state folder.
pub const FILE_NAME: &str = "read-ahead.json";

/// Filings kept per organization at most: the Overview reads five pages of a hundred.
const MOST: usize = 500;

/// What the file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Kept {
    #[serde(default)]
    organizations: BTreeMap<String, Checked>,
}

#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Checked {
    #[serde(default)]
    filings_checked: Vec<String>,
}

/// The kept filings, read once and written when an Overview has checked its filings.
#[derive(Debug)]
pub struct ReadAhead {
    /// Where they are kept; `None` keeps them for this run only.
    path: Option<PathBuf>,
    kept: Mutex<BTreeMap<String, Vec<String>>>,
}

/// The entry of `profile`'s `organization`.
fn key(profile: &str, organization: &str) -> String {
    format!("{profile}/{organization}")
}

impl ReadAhead {
    /// Where the file is by default: the platform's state folder.
    pub fn default_path() -> Option<PathBuf> {
        let dirs = directories::ProjectDirs::from("", "", "taxdash")?;
        let dir = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
        Some(dir.join(FILE_NAME))
    }

    /// Kept for this run only.
    pub fn in_memory() -> Self {
        ReadAhead {
            path: None,
            kept: Mutex::default(),
        }
    }

    /// Reads the file at `path`; whatever cannot be read is said in the log and left out.
    pub fn open(path: PathBuf) -> Self {
        let kept = match read(&path) {
            Ok(kept) => kept,
            Err(e) => {
                if e.kind() != io::ErrorKind::NotFound {
                    tracing::warn!("the read-ahead file {} is not read: {e}", path.display());
                }
                Kept::default()
            }
        };
        let kept = kept
            .organizations
            .into_iter()
            .map(|(k, mut c)| {
                c.filings_checked.truncate(MOST);
                (k, c.filings_checked)
            })
            .collect();
        ReadAhead {
            path: Some(path),
            kept: Mutex::new(kept),
        }
    }

    /// The filings `profile`'s `organization` checked last.
    pub fn filings(&self, profile: &str, organization: &str) -> Vec<String> {
        self.lock()
            .get(&key(profile, organization))
            .cloned()
            .unwrap_or_default()
    }

    /// Keeps `ids` as the filings `profile`'s `organization` checked, and writes the file
    /// (other organizations' entries, as another run may have written them, kept). Blocks on
    /// the file: call it on a blocking thread.
    pub fn keep(&self, profile: &str, organization: &str, mut ids: Vec<String>) -> io::Result<()> {
        ids.truncate(MOST);
        let key = key(profile, organization);
        {
            let mut kept = self.lock();
            if kept.get(&key) == Some(&ids) {
                return Ok(());
            }
            kept.insert(key.clone(), ids.clone());
        }
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut file = read(path).unwrap_or_default();
        file.organizations.insert(
            key,
            Checked {
                filings_checked: ids,
            },
        );
        let text = serde_json::to_vec_pretty(&file).map_err(io::Error::other)?;
        write_whole(path, &text)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Vec<String>>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn read(path: &Path) -> io::Result<Kept> {
    let text = std::fs::read(path)?;
    serde_json::from_slice(&text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes `bytes` to a file beside `path` and renames it over `path`, so that a run ended
/// half way leaves the old file whole; readable by its owner only (on Unix).
fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let partial = path.with_extension(format!("json.{}.partial", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.create(true).write(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&partial)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_filings_outlive_the_run_per_organization() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join(FILE_NAME);
        let first = ReadAhead::open(path.clone());
        assert!(first.filings("work", "orgn_a").is_empty());
        first
            .keep("work", "orgn_a", vec!["file_1".into(), "file_2".into()])
            .unwrap();
        first.keep("work", "orgn_b", vec!["file_9".into()]).unwrap();
        let second = ReadAhead::open(path.clone());
        assert_eq!(second.filings("work", "orgn_a"), ["file_1", "file_2"]);
        assert_eq!(second.filings("work", "orgn_b"), ["file_9"]);
        assert!(second.filings("other", "orgn_a").is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_damaged_file_is_an_empty_one_and_is_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, b"{ not json").unwrap();
        let ahead = ReadAhead::open(path.clone());
        assert!(ahead.filings("demo", "orgn_a").is_empty());
        ahead.keep("demo", "orgn_a", vec!["file_1".into()]).unwrap();
        assert_eq!(ReadAhead::open(path).filings("demo", "orgn_a"), ["file_1"]);
    }

    #[test]
    fn a_file_listing_too_many_filings_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let many: Vec<String> = (0..10_000).map(|i| format!("file_{i}")).collect();
        let text = serde_json::json!({"organizations": {"p/o": {"filings_checked": many}}});
        std::fs::write(&path, text.to_string()).unwrap();
        assert_eq!(ReadAhead::open(path).filings("p", "o").len(), MOST);
    }
}
