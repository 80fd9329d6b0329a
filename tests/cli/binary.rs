//! The real `taxdash` binary: `export` with the environment overrides against the sandbox, its
//! exit codes, and Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

use taxdash::sandbox::{Sandbox, SandboxConfig};
use tokio::process::Command;

use crate::common::{DEMO_ANCHOR, ORG1, sandbox, sandbox_with};

/// An empty config file, outside the test's directory (whose files the tests count).
pub fn empty_config() -> &'static Path {
    static DIR: LazyLock<tempfile::TempDir> = LazyLock::new(|| {
        let dir = tempfile::tempdir().expect("a directory");
        std::fs::write(dir.path().join("config.toml"), "").expect("an empty config file");
        dir
    });
    static PATH: LazyLock<PathBuf> = LazyLock::new(|| DIR.path().join("config.toml"));
    &PATH
}

/// `taxdash ARGS` with the sandbox in the environment and an empty config file, so neither the
/// user's config nor the OS keyring is touched; today is the sandbox's [`DEMO_ANCHOR`].
pub fn taxdash(sandbox: &Sandbox, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taxdash"));
    command
        .arg("--today")
        .arg(DEMO_ANCHOR.to_string())
        .args(args)
        .current_dir(dir)
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", sandbox.base_url())
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true);
    command
}

pub async fn run(sandbox: &Sandbox, dir: &Path, args: &[&str]) -> Output {
    taxdash(sandbox, dir, args)
        .output()
        .await
        .expect("taxdash runs")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[tokio::test]
async fn export_writes_the_out_file_from_the_environment_profile() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "export",
        "transactions",
        "--from",
        "2000-01-01",
        "--state",
        "TX",
        "--out",
        "tx.csv",
    ];
    let output = run(&sandbox, dir.path(), &args).await;
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(
        output.stderr.is_empty(),
        "silent when stderr is no terminal: {}",
        stderr(&output)
    );
    let text = std::fs::read_to_string(dir.path().join("tx.csv")).unwrap();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("id,external_id,date,type,status,")
    );
    assert!(lines.count() > 100);

    let args = [
        "export",
        "registrations",
        "--format",
        "jsonl",
        "--status",
        "REGISTERED,PROCESSING",
    ];
    let output = run(&sandbox, dir.path(), &args).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let records: Vec<serde_json::Value> = output
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert!(!records.is_empty());
    assert!(
        records
            .iter()
            .all(|r| r["status"] == "REGISTERED" || r["status"] == "PROCESSING")
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn failures_exit_non_zero_with_a_message() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let output = run(
        &sandbox,
        dir.path(),
        &["export", "customers", "--from", "2024-01-01"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "taxdash: --from does not apply to customers; it applies to exemptions, transactions and \
         filings\n"
    );

    let output = run(
        &sandbox,
        dir.path(),
        &["export", "nexus", "--status", "LATE"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("allowed values: APPROACHING, NOT_EXPOSED"),
        "{}",
        stderr(&output)
    );

    let output = taxdash(
        &sandbox,
        dir.path(),
        &["export", "customers", "--out", "c.csv"],
    )
    .env("TAXDASH_API_KEY", "sk_wrong_UNIQUE_77")
    .output()
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("refused the API key"), "{message}");
    assert!(!message.contains("sk_wrong_UNIQUE_77"), "{message}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no file");
    sandbox.stop().await;
}

#[cfg(unix)]
#[tokio::test]
async fn ctrl_c_exits_130_and_leaves_no_file() {
    // Slow answers: the export takes seconds, so the interrupt lands in the middle of it.
    let sandbox = sandbox_with(SandboxConfig {
        latency: Duration::from_millis(200),
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "export",
        "transactions",
        "--from",
        "2000-01-01",
        "--out",
        "tx.csv",
    ];
    let child = taxdash(&sandbox, dir.path(), &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let id = child.id().expect("still running").to_string();
    let signalled = std::process::Command::new("kill")
        .args(["-INT", &id])
        .status()
        .unwrap();
    assert!(signalled.success());
    let output = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("stops promptly")
        .unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert_eq!(stderr(&output), "taxdash: interrupted\n");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file, no temp file"
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn export_says_when_its_log_or_its_out_file_cannot_be_written_naming_the_users_path() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    // TAXDASH_LOG naming a directory: said once, and the export goes on.
    let output = taxdash(&sandbox, dir.path(), &["export", "nexus", "--out", "n.csv"])
        .env("TAXDASH_LOG", dir.path())
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!(
            "taxdash: cannot write the log file {}: it is a directory (TAXDASH_LOG names the \
             file itself); running without a log\n",
            dir.path().display()
        )
    );
    assert!(dir.path().join("n.csv").exists());

    // An --out that cannot be made: the path the user gave, not the temporary file's.
    std::fs::write(dir.path().join("file.txt"), "not a directory").unwrap();
    let out = dir.path().join("file.txt").join("n.csv");
    let output = taxdash(
        &sandbox,
        dir.path(),
        &["export", "nexus", "--out", &out.display().to_string()],
    )
    .env("TAXDASH_LOG", dir.path().join("taxdash.log"))
    .output()
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let said = stderr(&output);
    assert!(
        said.starts_with(&format!("taxdash: could not write {}: ", out.display())),
        "{said}"
    );
    assert!(
        !said.contains(".part") && !said.contains(".n.csv"),
        "{said}"
    );
    assert!(std::fs::read_to_string(dir.path().join("taxdash.log")).is_ok());
}
