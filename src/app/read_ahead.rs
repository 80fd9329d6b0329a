//! What each organization's last Overview learnt of its reads, kept between runs so that the
//! next one asks with its first calls for what would otherwise wait on an earlier answer: the
//! transactions of the filings it checked (instead of after the filings list answers), every
//! page of the last 90 days' sales (instead of after the first page). The figures are read
//! afresh every time; only what to ask for is remembered.
//!
//! One JSON file in the state folder (`read-ahead.json`), an entry per profile and
//! organization; filing ids and a page count, nothing secret. A missing, unreadable or foreign
//! file is an empty one: the Overview then reads as on a first run.
//!
//! On a team's history server the same is kept per organization for every machine
//! ([`ReadAhead::with_team`]): a new colleague's first Overview reads ahead from what the team
//! last knew, and each Overview's learning is kept there too.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::effect::ReadAheadNote;

/// The file's name in the state folder.
pub const FILE_NAME: &str = "read-ahead.json";

/// Filings kept per organization at most: the Overview reads five pages of a hundred.
const MOST: usize = 500;

/// Pages of the pace asked for ahead at most (10,000 sales).
const MOST_PAGES: u32 = 100;

/// What the file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Kept {
    #[serde(default)]
    organizations: BTreeMap<String, Checked>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Checked {
    #[serde(default)]
    filings_checked: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pace_pages: Option<u32>,
}

impl Checked {
    /// Within the bounds a hand-edited or hostile file cannot pass.
    fn bounded(mut self) -> Self {
        self.filings_checked.truncate(MOST);
        self.pace_pages = self.pace_pages.map(|p| p.clamp(1, MOST_PAGES));
        self
    }
}

/// The kept filings, read once and written when an Overview has checked its filings.
#[derive(Debug)]
pub struct ReadAhead {
    /// Where they are kept; `None` keeps them for this run only.
    path: Option<PathBuf>,
    kept: Mutex<BTreeMap<String, Checked>>,
    /// A team's history server, and what it knew at the start, by organization.
    team: Option<Team>,
}

/// The read-ahead of a team's history server.
struct Team {
    history: Mutex<crate::history::History>,
    known: BTreeMap<String, Checked>,
}

impl std::fmt::Debug for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Team")
            .field("organizations", &self.known.len())
            .finish_non_exhaustive()
    }
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
            team: None,
        }
    }

    /// Also reads what a team's history server knew (of an organization this machine has not
    /// read yet) and keeps what each Overview learns there. Blocks on the server: call it on a
    /// blocking thread. A server that cannot be read is said in the log and left out.
    #[must_use]
    pub fn with_team(mut self, history: crate::history::History) -> Self {
        let known = match history.team_read_ahead() {
            Ok(rows) => rows
                .into_iter()
                .map(|r| {
                    let checked = Checked {
                        filings_checked: r.filings_checked,
                        pace_pages: r.pace_pages,
                    };
                    (r.organization, checked.bounded())
                })
                .collect(),
            Err(e) => {
                tracing::warn!("the team's read-ahead is not read: {e}");
                BTreeMap::new()
            }
        };
        self.team = Some(Team {
            history: Mutex::new(history),
            known,
        });
        self
    }

    /// What this machine knows of `profile`'s `organization`, else what the team knew.
    fn known(&self, profile: &str, organization: &str) -> Option<Checked> {
        self.lock()
            .get(&key(profile, organization))
            .cloned()
            .or_else(|| {
                self.team
                    .as_ref()
                    .and_then(|t| t.known.get(organization).cloned())
            })
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
            .map(|(k, c)| (k, c.bounded()))
            .collect();
        ReadAhead {
            path: Some(path),
            kept: Mutex::new(kept),
            team: None,
        }
    }

    /// The filings `profile`'s `organization` checked last.
    pub fn filings(&self, profile: &str, organization: &str) -> Vec<String> {
        self.known(profile, organization)
            .map(|c| c.filings_checked)
            .unwrap_or_default()
    }

    /// The pages the last 90 days' sales of `profile`'s `organization` took last (1 when not
    /// known).
    pub fn pace_pages(&self, profile: &str, organization: &str) -> u32 {
        self.known(profile, organization)
            .and_then(|c| c.pace_pages)
            .unwrap_or(1)
    }

    /// Keeps what `profile`'s `organization` learnt (a pace not read keeps the pages known),
    /// and writes the file (other organizations' entries, as another run may have written
    /// them, kept). Blocks on the file: call it on a blocking thread.
    pub fn keep(&self, profile: &str, organization: &str, note: ReadAheadNote) -> io::Result<()> {
        let key = key(profile, organization);
        let team_knew = self
            .team
            .as_ref()
            .and_then(|t| t.known.get(organization).and_then(|c| c.pace_pages));
        let checked = {
            let mut kept = self.lock();
            let before = kept.get(&key);
            let checked = Checked {
                filings_checked: note.filings_checked,
                pace_pages: note
                    .pace_pages
                    .or(before.and_then(|c| c.pace_pages))
                    .or(team_knew),
            }
            .bounded();
            if before == Some(&checked) {
                return Ok(());
            }
            kept.insert(key.clone(), checked.clone());
            checked
        };
        if let Some(team) = &self.team {
            let kept = crate::history::reads::TeamReadAhead {
                organization: organization.to_owned(),
                filings_checked: checked.filings_checked.clone(),
                pace_pages: checked.pace_pages,
            };
            let history = team
                .history
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Err(e) = history.keep_team_read_ahead(&kept) {
                tracing::warn!("the team's read-ahead is not kept: {e}");
            }
        }
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut file = read(path).unwrap_or_default();
        file.organizations.insert(key, checked);
        let text = serde_json::to_vec_pretty(&file).map_err(io::Error::other)?;
        write_whole(path, &text)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Checked>> {
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
        assert_eq!(first.pace_pages("work", "orgn_a"), 1);
        first
            .keep("work", "orgn_a", note(&["file_1", "file_2"], Some(13)))
            .unwrap();
        first
            .keep("work", "orgn_b", note(&["file_9"], None))
            .unwrap();
        let second = ReadAhead::open(path.clone());
        assert_eq!(second.filings("work", "orgn_a"), ["file_1", "file_2"]);
        assert_eq!(second.pace_pages("work", "orgn_a"), 13);
        assert_eq!(second.filings("work", "orgn_b"), ["file_9"]);
        assert_eq!(second.pace_pages("work", "orgn_b"), 1);
        assert!(second.filings("other", "orgn_a").is_empty());
        // A pace that failed to read keeps the pages known.
        second
            .keep("work", "orgn_a", note(&["file_1"], None))
            .unwrap();
        assert_eq!(
            ReadAhead::open(path.clone()).pace_pages("work", "orgn_a"),
            13
        );
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
        ahead
            .keep("demo", "orgn_a", note(&["file_1"], None))
            .unwrap();
        assert_eq!(ReadAhead::open(path).filings("demo", "orgn_a"), ["file_1"]);
    }

    #[test]
    fn a_file_asking_too_much_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let many: Vec<String> = (0..10_000).map(|i| format!("file_{i}")).collect();
        let text = serde_json::json!({"organizations": {"p/o": {
            "filings_checked": many, "pace_pages": 4_000_000_000u32
        }}});
        std::fs::write(&path, text.to_string()).unwrap();
        let ahead = ReadAhead::open(path);
        assert_eq!(ahead.filings("p", "o").len(), MOST);
        assert_eq!(ahead.pace_pages("p", "o"), MOST_PAGES);
    }

    #[test]
    fn a_new_machine_reads_ahead_from_what_the_team_knew() {
        let Some(history) = crate::history::test_server("read_ahead") else {
            return;
        };
        let location = history.location().clone();
        let dir = tempfile::tempdir().unwrap();
        // The first colleague's Overview checked these filings, on their machine.
        let first = ReadAhead::open(dir.path().join("a.json")).with_team(history);
        first
            .keep("work", "orgn_a", note(&["file_1", "file_2"], Some(13)))
            .unwrap();
        // A new colleague: another profile name, no file of their own yet.
        let team = crate::history::History::open_at(&location).unwrap();
        let second = ReadAhead::open(dir.path().join("b.json")).with_team(team);
        assert_eq!(second.filings("dana", "orgn_a"), ["file_1", "file_2"]);
        assert_eq!(second.pace_pages("dana", "orgn_a"), 13);
        assert!(second.filings("dana", "orgn_b").is_empty());
        // What this machine learnt itself comes first.
        second
            .keep("dana", "orgn_a", note(&["file_3"], None))
            .unwrap();
        assert_eq!(second.filings("dana", "orgn_a"), ["file_3"]);
        assert_eq!(second.pace_pages("dana", "orgn_a"), 13);
    }

    fn note(ids: &[&str], pace_pages: Option<u32>) -> ReadAheadNote {
        ReadAheadNote {
            filings_checked: ids.iter().map(|&s| s.to_owned()).collect(),
            pace_pages,
            organization: None,
        }
    }
}
