//! `taxdash --offline` through the real binary: what it says, before taking the terminal, when
//! there is no snapshot to open or the history file is not one; and that it needs no key.

use std::path::Path;
use std::process::Output;

use chrono::{TimeZone, Utc};
use taxdash::history::History;
use taxdash::history::snapshot::Scope;
use tokio::process::Command;

use crate::binary::stderr;

/// `taxdash ARGS` in `dir` with the config file `config.toml` there, no key anywhere, and a
/// service that cannot be reached.
async fn taxdash(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taxdash"));
    command
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TAXDASH_LOG", dir.join("taxdash.log"))
        .env("TAXDASH_CONFIG", dir.join("config.toml"))
        // Nothing listens on port 9 of loopback: offline must not need it.
        .env("TAXDASH_BASE_URL", "http://127.0.0.1:9")
        .env_remove("TAXDASH_API_KEY")
        .env_remove("TAXDASH_ORGANIZATION_ID")
        .env_remove("TAXDASH_PROFILE")
        .env_remove("TAXDASH_HISTORY")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let output = tokio::time::timeout(std::time::Duration::from_mins(1), command.output())
        .await
        .expect("taxdash ends")
        .expect("taxdash runs");
    assert_ne!(
        output.status.code(),
        Some(101),
        "no panic: {}",
        stderr(&output)
    );
    output
}

fn prepare(dir: &Path) {
    std::fs::write(
        dir.join("config.toml"),
        "default_profile = \"work\"\n\n[profiles.work]\norganization_id = \"orgn_acme\"\n",
    )
    .unwrap();
}

/// Stores an empty snapshot of `profile` and `organization` in the history file at `path`.
fn store_snapshot(path: &Path, profile: &str, organization: &str) -> i64 {
    let mut history = History::open(path).unwrap();
    history
        .write_snapshot(
            &Scope {
                profile: profile.into(),
                organization: organization.into(),
                api: "v1".into(),
                transactions: None,
            },
            Utc.with_ymd_and_hms(2026, 11, 20, 9, 30, 0).unwrap(),
            &[],
        )
        .unwrap()
}

#[tokio::test]
async fn no_snapshot_of_the_profiles_organization_is_said_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    prepare(dir.path());
    let file = dir.path().join("history.db");
    let file_text = file.display().to_string();

    // No file at all: said, and no file made.
    let output = taxdash(dir.path(), &["--offline", "--history", &file_text]).await;
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let said = format!(
        "no snapshot of profile work, organization orgn_acme in {file_text}: run `taxdash snapshot` first"
    );
    assert!(stderr(&output).contains(&said), "{}", stderr(&output));
    assert!(!file.exists());

    // Snapshots of another organization do not count.
    let other = store_snapshot(&file, "work", "orgn_other");
    let output = taxdash(dir.path(), &["--offline", "--history", &file_text]).await;
    assert!(stderr(&output).contains(&said), "{}", stderr(&output));

    // An id that is not there.
    let output = taxdash(
        dir.path(),
        &["--offline", "--history", &file_text, "--snapshot", "99"],
    )
    .await;
    assert!(
        stderr(&output).contains(&format!("there is no snapshot 99 in {file_text}")),
        "{}",
        stderr(&output)
    );

    // With one of the profile's organization (or one named by id), it gets as far as taking
    // the terminal (there is none here), with no key and no service.
    store_snapshot(&file, "work", "orgn_acme");
    let other_text = other.to_string();
    for args in [
        vec!["--offline", "--history", &file_text],
        vec![
            "--offline",
            "--history",
            &file_text,
            "--snapshot",
            &other_text,
        ],
    ] {
        let output = taxdash(dir.path(), &args).await;
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains("the dashboard needs a terminal"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[tokio::test]
async fn offline_is_refused_for_a_command() {
    let dir = tempfile::tempdir().unwrap();
    prepare(dir.path());
    let output = taxdash(dir.path(), &["--offline", "export", "customers"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output)
            .contains("--offline opens the dashboard on a snapshot; it does not apply to `export`"),
        "{}",
        stderr(&output)
    );
}

#[tokio::test]
async fn a_history_file_that_is_not_one_is_named_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    prepare(dir.path());
    let file = dir.path().join("history.db");
    let garbage = b"these are not the bytes of a database, not even close to one....".repeat(64);
    std::fs::write(&file, &garbage).unwrap();
    let file_text = file.display().to_string();
    let output = taxdash(dir.path(), &["--offline", "--history", &file_text]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(&format!("{file_text} is not a taxdash history database")),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&file).unwrap(), garbage);
}

#[tokio::test]
async fn the_demo_offline_needs_a_history_file_with_a_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let output = taxdash(dir.path(), &["--demo", "--offline"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("--demo --offline needs --history FILE"),
        "{}",
        stderr(&output)
    );
    let file = dir.path().join("history.db");
    let file_text = file.display().to_string();
    let output = taxdash(
        dir.path(),
        &["--demo", "--offline", "--history", &file_text],
    )
    .await;
    assert!(
        stderr(&output).contains(&format!("no snapshot in {file_text}")),
        "{}",
        stderr(&output)
    );
    // Any profile's latest snapshot will do.
    store_snapshot(&file, "someone", "orgn_demo_1");
    let output = taxdash(
        dir.path(),
        &["--demo", "--offline", "--history", &file_text],
    )
    .await;
    assert!(
        stderr(&output).contains("the dashboard needs a terminal"),
        "{}",
        stderr(&output)
    );
}
