//! A team's history through the real binary: `snapshot`, `diff` and `audit` on a `PostgreSQL`
//! server with the same output as on a file, `history copy` both ways and twice, and values of
//! `--history` that are not a history refused in words.

use std::path::Path;

use taxdash::history::server::testing::fresh_database;

use crate::binary::{run, stderr};
use crate::common::sandbox;

fn args<'a>(history: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--history", history];
    all.extend_from_slice(rest);
    all
}

fn text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `diff`'s table without its first line, which names the snapshots' times.
fn changes(table: &str) -> Vec<String> {
    table.lines().skip(1).map(str::to_owned).collect()
}

#[tokio::test]
async fn a_server_history_reads_as_the_file_and_copies_both_ways_once() {
    let Some(server) = fresh_database("cli_team") else {
        return;
    };
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.db");
    let file = file.to_str().unwrap();

    // Two snapshots into each, the same service between them.
    for history in [file, server.as_str()] {
        let first = run(&sandbox, dir.path(), &args(history, &["snapshot"])).await;
        assert!(first.status.success(), "{history}: {}", stderr(&first));
        assert!(
            text(&first).starts_with("snapshot 1 stored: "),
            "{}",
            text(&first)
        );
    }
    crate::snapshot_changes(&sandbox).await;
    for history in [file, server.as_str()] {
        let second = run(&sandbox, dir.path(), &args(history, &["snapshot"])).await;
        assert!(second.status.success(), "{history}: {}", stderr(&second));
    }
    let on_file = run(&sandbox, dir.path(), &args(file, &["diff"])).await;
    let on_server = run(&sandbox, dir.path(), &args(&server, &["diff"])).await;
    assert!(on_server.status.success(), "{}", stderr(&on_server));
    assert!(!changes(&text(&on_file)).is_empty());
    assert_eq!(changes(&text(&on_server)), changes(&text(&on_file)));

    // The file's history into a second server database, twice: the second copies nothing.
    let team = fresh_database("cli_team_copy").unwrap();
    let copy = ["history", "copy", "--from", file, "--to", team.as_str()];
    let first = run(&sandbox, dir.path(), &copy).await;
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        text(&first).starts_with("0 audit entries copied (0 already there), 2 snapshots copied"),
        "{}",
        text(&first)
    );
    assert!(
        stderr(&first).contains("snapshots: 2 of 2"),
        "{}",
        stderr(&first)
    );
    let again = run(&sandbox, dir.path(), &copy).await;
    assert!(
        text(&again).contains("0 snapshots copied with 0 records (2 already there)"),
        "{}",
        text(&again)
    );
    let copied = run(&sandbox, dir.path(), &args(&team, &["diff"])).await;
    assert_eq!(changes(&text(&copied)), changes(&text(&on_file)));
    // And back into a new file.
    let back = dir.path().join("back.db");
    let back = back.to_str().unwrap();
    let home = run(
        &sandbox,
        dir.path(),
        &["history", "copy", "--from", team.as_str(), "--to", back],
    )
    .await;
    assert!(home.status.success(), "{}", stderr(&home));
    let back_diff = run(&sandbox, dir.path(), &args(back, &["diff"])).await;
    assert_eq!(changes(&text(&back_diff)), changes(&text(&on_file)));
    sandbox.stop().await;
}

#[tokio::test]
async fn a_url_that_is_not_a_history_is_refused_and_no_file_is_made() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    for url in ["mysql://me@db/history", "https://example.com/h.db"] {
        let out = run(&sandbox, dir.path(), &args(url, &["audit"])).await;
        assert_eq!(out.status.code(), Some(1), "{url}");
        let said = stderr(&out);
        assert!(said.contains("is not a history database"), "{said}");
        assert!(
            std::fs::read_dir(dir.path()).unwrap().next().is_none(),
            "a file was made for {url}"
        );
    }
    // A server URL's password never shows, not even when the server cannot be reached.
    let out = run(
        &sandbox,
        dir.path(),
        &args("postgres://dana:s3cr3t-pw@127.0.0.1:1/team", &["audit"]),
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(!said.contains("s3cr3t-pw"), "{said}");
    assert!(
        said.contains("postgres://dana:***@127.0.0.1:1/team"),
        "{said}"
    );
    assert!(!Path::new(&dir.path().join("postgres:")).exists());
    sandbox.stop().await;
}
