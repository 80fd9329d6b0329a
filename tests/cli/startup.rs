//! Files named at start-up, through the real binary: a `--config` file that does not exist is
//! an error for every command but the one that creates it (`login`); a log file that cannot be
//! written never makes the dashboard panic.

use std::path::Path;
use std::process::Output;

use tokio::process::Command;

use crate::binary::stderr;

/// `taxdash ARGS` in `dir`, with no profile in the environment.
async fn taxdash(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taxdash"));
    command
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TAXDASH_LOG", dir.join("taxdash.log"))
        .env("TAXDASH_API_KEY", "demo-key-1")
        .env("TAXDASH_ORGANIZATION_ID", "orgn_demo_1")
        // Nothing listens on port 9 of loopback: a command that gets as far as the service
        // fails there, not at the config file.
        .env("TAXDASH_BASE_URL", "http://127.0.0.1:9")
        .env_remove("TAXDASH_CONFIG")
        .env_remove("TAXDASH_PROFILE")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
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

#[tokio::test]
async fn a_named_config_file_that_does_not_exist_stops_every_command_but_login() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.toml");
    let missing_text = missing.display().to_string();
    let said = format!(
        "the config file {missing_text} (named by --config or TAXDASH_CONFIG) does not exist"
    );
    for args in [
        vec!["export", "customers"],
        vec!["profiles"],
        vec!["logout"],
        vec![],
    ] {
        let mut with_flag = args.clone();
        with_flag.extend(["--config", &missing_text]);
        for (args, env) in [
            (with_flag, vec![]),
            (args, vec![("TAXDASH_CONFIG", missing_text.as_str())]),
        ] {
            let output = taxdash(dir.path(), &args, &env).await;
            assert_eq!(
                output.status.code(),
                Some(1),
                "{args:?}: {}",
                stderr(&output)
            );
            assert!(
                stderr(&output).contains(&said),
                "{args:?}: {}",
                stderr(&output)
            );
        }
    }
    // `login` creates the file: it goes on to check the key, and fails only there.
    let output = taxdash(
        dir.path(),
        &[
            "login",
            "--config",
            &missing_text,
            "--base-url",
            "http://127.0.0.1:9",
            "--organization",
            "orgn_demo_1",
        ],
        &[],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        !stderr(&output).contains("does not exist"),
        "{}",
        stderr(&output)
    );
    assert!(!missing.exists(), "nothing saved when the check fails");

    // The platform's own config file may be absent: the first run.
    let output = taxdash(dir.path(), &["profiles"], &[]).await;
    assert!(output.status.success(), "{}", stderr(&output));
}

#[tokio::test]
async fn without_a_terminal_the_dashboard_says_so_and_writes_nothing_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history.db").display().to_string();
    for args in [
        vec!["--demo"],
        vec!["--demo", "--offline", "--history", history.as_str()],
    ] {
        let output = taxdash(dir.path(), &args, &[]).await;
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            output.stdout.is_empty(),
            "{args:?}: nothing on standard output, not even an escape code: {:?}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

#[tokio::test]
async fn a_log_file_that_cannot_be_written_is_said_once_and_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let blocked = dir.path().join("plain-file");
    std::fs::write(&blocked, "").unwrap();
    for log in [logs.clone(), blocked.join("taxdash.log")] {
        let log_text = log.display().to_string();
        // No terminal here: the dashboard stops after saying both things, without a panic.
        let output = taxdash(dir.path(), &["--demo"], &[("TAXDASH_LOG", &log_text)]).await;
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{text}");
        let said = format!("taxdash: cannot write the log file {log_text}: ");
        assert_eq!(text.matches(&said).count(), 1, "said once: {text}");
        assert!(text.contains("running without a log"), "{text}");
        assert!(text.contains("the dashboard needs a terminal"), "{text}");
    }
}
