//! The history database while a dashboard runs on it: another program reading the file (the
//! `sqlite3` shell, `taxdash audit`) costs no audit entry, even when the dashboard is then
//! killed with SIGKILL.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::TODAY;
use crate::pty::Pty;

const WAIT: Duration = Duration::from_secs(20);

/// Creates a customer named `name` from the Customers list, and waits for its detail.
fn create_customer(t: &mut Pty, name: &str) {
    t.send("n");
    t.wait_for("new customer", WAIT);
    t.send(name);
    t.send("\x13"); // Ctrl-S
    t.wait_for(&format!("Customers — {name}"), WAIT);
}

/// `taxdash --history FILE audit --format jsonl`, from another process: the entries.
fn audit_entries(file: &Path, home: &Path) -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--history")
        .arg(file)
        .args(["audit", "--format", "jsonl"])
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .output()
        .expect("taxdash audit runs");
    assert!(
        out.status.success(),
        "taxdash audit: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON entry a line"))
        .collect()
}

/// The files the process `pid` holds open that were deleted since (`d.db-wal (deleted)`).
#[cfg(target_os = "linux")]
fn deleted_files_held(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|dir| {
            dir.flatten()
                .filter_map(|fd| std::fs::read_link(fd.path()).ok())
                .map(|target| target.display().to_string())
                .filter(|target| target.ends_with("(deleted)"))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the `sqlite3` shell is on the `PATH`.
fn sqlite3_shell() -> bool {
    Command::new("sqlite3")
        .arg("-version")
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn reading_the_history_from_outside_loses_no_entry_even_after_a_kill() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("d.db");
    let file_arg = file.display().to_string();
    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--history", &file_arg],
        140,
        40,
        home.path(),
    );
    t.wait_for("Overview — ", Duration::from_secs(30));
    t.send(":customers\r");
    t.wait_for("row 1 of", WAIT);
    create_customer(&mut t, "Reader One");

    // Read from outside while the dashboard runs: the sqlite3 shell when there is one, and
    // always a second process with its own SQLite (taxdash audit).
    if sqlite3_shell() {
        let out = Command::new("sqlite3")
            .arg(&file)
            .arg("select count(*) from audit_entries")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "sqlite3: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
    } else {
        println!("the sqlite3 shell is not installed: read with taxdash audit only");
    }
    assert_eq!(audit_entries(&file, home.path()).len(), 1);
    #[cfg(target_os = "linux")]
    assert_eq!(
        deleted_files_held(t.pid()),
        Vec::<String>::new(),
        "the dashboard writes to files still on disk"
    );

    t.send("\x1b");
    t.wait_for("row 1 of", WAIT);
    create_customer(&mut t, "Reader Two");
    // SAFETY: kill(2) sends SIGKILL to the dashboard this test started.
    assert_eq!(
        unsafe { libc::kill(t.pid() as libc::pid_t, libc::SIGKILL) },
        0
    );
    t.wait_exit(WAIT);

    let entries = audit_entries(&file, home.path());
    let bodies: Vec<String> = entries.iter().map(ToString::to_string).collect();
    assert_eq!(entries.len(), 2, "{bodies:#?}");
    for name in ["Reader One", "Reader Two"] {
        assert!(
            bodies.iter().any(|b| b.contains(name)),
            "{name} is in the log: {bodies:#?}"
        );
    }
}
