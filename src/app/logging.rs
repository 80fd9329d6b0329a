//! Logs go to a file in the platform state directory, never to the terminal the dashboard draws
//! on. `TAXDASH_LOG` overrides the file; `RUST_LOG` the level (default `info`).

use std::path::PathBuf;

use tracing_appender::non_blocking::WorkerGuard;

/// Keeps the log writer alive; dropping it flushes the file.
pub struct LogGuard {
    _guard: WorkerGuard,
    pub path: PathBuf,
}

/// Where the log file goes.
pub fn log_path() -> PathBuf {
    if let Some(path) = std::env::var_os("TAXDASH_LOG").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let dirs = directories::ProjectDirs::from("", "", "taxdash");
    let dir = dirs
        .as_ref()
        .map(|d| {
            d.state_dir()
                .unwrap_or_else(|| d.data_local_dir())
                .to_path_buf()
        })
        .unwrap_or_else(std::env::temp_dir);
    dir.join("taxdash.log")
}

/// Starts logging to [`log_path`]. Fails (and the dashboard runs without a log) when the
/// directory cannot be made.
pub fn init() -> std::io::Result<LogGuard> {
    let path = log_path();
    let dir = path
        .parent()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "taxdash.log".into());
    let appender = tracing_appender::rolling::never(&dir, file_name);
    let (writer, guard) = tracing_appender::non_blocking(appender);
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
