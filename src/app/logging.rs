//! Logs go to a file in the platform state directory, never to the terminal the dashboard draws
//! on. `TAXDASH_LOG` overrides the file; `RUST_LOG` the level (default `info`).
//!
//! A log file that cannot be written (`TAXDASH_LOG` naming a directory, a read-only place) never
//! stops the dashboard: it runs without a log and says so.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;

/// Keeps the log writer alive; dropping it flushes the file.
pub struct LogGuard {
    _guard: WorkerGuard,
    pub path: PathBuf,
}

/// Why there is no log file.
#[derive(Debug)]
pub struct LogProblem {
    pub path: PathBuf,
    pub source: io::Error,
}

impl fmt::Display for LogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = if self.path.is_dir() {
            "it is a directory (TAXDASH_LOG names the file itself)".to_owned()
        } else {
            self.source.to_string()
        };
        write!(
            f,
            "cannot write the log file {}: {reason}; running without a log",
            self.path.display()
        )
    }
}

impl std::error::Error for LogProblem {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Where the log file goes.
pub fn log_path() -> PathBuf {
    if let Some(path) = std::env::var_os("TAXDASH_LOG").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let dirs = directories::ProjectDirs::from("", "", "taxdash");
    let dir = dirs.as_ref().map_or_else(std::env::temp_dir, |d| {
        d.state_dir()
            .unwrap_or_else(|| d.data_local_dir())
            .to_path_buf()
    });
    dir.join("taxdash.log")
}

/// Opens `path` for appending, making its directory first; a new file is readable by its owner
/// only (on Unix).
fn open(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Starts logging to [`log_path`]. Fails, and the caller runs without a log, when the file
/// cannot be opened for writing.
pub fn init() -> Result<LogGuard, LogProblem> {
    let path = log_path();
    let file = open(&path).map_err(|source| LogProblem {
        path: path.clone(),
        source,
    })?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init();
    Ok(LogGuard {
        _guard: guard,
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_or_an_unreachable_place_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let e = open(dir.path()).unwrap_err();
        let problem = LogProblem {
            path: dir.path().to_path_buf(),
            source: e,
        };
        let text = problem.to_string();
        assert!(text.contains("it is a directory"), "{text}");
        assert!(text.ends_with("running without a log"), "{text}");

        let blocked = dir.path().join("file");
        std::fs::write(&blocked, "x").unwrap();
        assert!(
            open(&blocked.join("taxdash.log")).is_err(),
            "a file as directory"
        );
        let fine = dir.path().join("deeper/taxdash.log");
        open(&fine).unwrap();
        assert!(fine.is_file());
    }
}
