//! The state file as a database: what a clean stop leaves, files that are not a sandbox state
//! (refused by name and left as they were), a second sandbox on the same file, and the JSON
//! state files of earlier versions, moved into a database on the first start.

use std::path::Path;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::{Sandbox, SandboxConfig, SandboxError};

use crate::common::{Harness, ORG1};

fn config(state: &Path) -> SandboxConfig {
    SandboxConfig {
        state_file: Some(state.to_owned()),
        anchor: Some(crate::common::DEMO_ANCHOR),
        ..SandboxConfig::default()
    }
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

async fn refused(state: &Path) -> SandboxError {
    Sandbox::start(config(state), "127.0.0.1:0".parse().unwrap())
        .await
        .err()
        .expect("the start is refused")
}

#[tokio::test]
async fn a_clean_stop_leaves_the_database_and_its_key_only() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.db");
    let h = Harness::with(config(&state)).await;
    for n in 0..20 {
        let r = h
            .send(
                Method::POST,
                "/v1/customers",
                &json!({"name": format!("c{n}")}),
            )
            .await;
        assert_eq!(r.status(), StatusCode::OK);
    }
    let running = names(dir.path());
    assert!(running.contains(&"sandbox.db".to_owned()), "{running:?}");
    assert!(
        !running.iter().any(|n| n.ends_with("-shm")),
        "an exclusive WAL database makes no shared-memory file: {running:?}"
    );
    h.sandbox.stop().await;
    assert_eq!(names(dir.path()), ["sandbox.db", "sandbox.db.key"]);
    let head = std::fs::read(&state).unwrap();
    assert!(head.starts_with(b"SQLite format 3\0"));
}

#[tokio::test]
async fn files_that_are_not_a_sandbox_state_are_refused_and_left_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("foreign.db");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch("PRAGMA application_id = 42; CREATE TABLE notes (text TEXT);")
            .unwrap();
    }
    let newer = dir.path().join("newer.db");
    {
        // A sandbox database, then marked as written by a later schema.
        let h = Harness::with(config(&newer)).await;
        h.sandbox.stop().await;
        let conn = rusqlite::Connection::open(&newer).unwrap();
        conn.execute_batch("PRAGMA user_version = 99;").unwrap();
    }
    let damaged = dir.path().join("damaged.db");
    {
        let h = Harness::with(config(&damaged)).await;
        h.sandbox.stop().await;
        let mut bytes = std::fs::read(&damaged).unwrap();
        let len = bytes.len();
        for b in &mut bytes[4096..len.min(4096 * 40)] {
            *b = 0x5a;
        }
        std::fs::write(&damaged, bytes).unwrap();
    }
    let cases: [(&str, Vec<u8>, &str); 6] = [
        ("picture.png", b"\x89PNG\r\n\x1a\n...".to_vec(), "neither"),
        ("empty.db", Vec::new(), "empty"),
        (
            "broken.json",
            b"{ this is not a state file".to_vec(),
            "key must be a string",
        ),
        (
            "foreign.db",
            std::fs::read(&foreign).unwrap(),
            "another application",
        ),
        (
            "newer.db",
            std::fs::read(&newer).unwrap(),
            "schema version is 99",
        ),
        ("damaged.db", std::fs::read(&damaged).unwrap(), ""),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let before = names(dir.path());
        let err = refused(&path).await;
        let message = err.to_string();
        assert!(
            matches!(err, SandboxError::StateCorrupt { .. }),
            "{name}: {message}"
        );
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains(reason), "{name}: {message}");
        assert!(message.contains("left untouched"), "{message}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name} was changed");
        assert_eq!(names(dir.path()), before, "{name}: files were added");
    }
}

#[tokio::test]
async fn a_second_sandbox_on_the_same_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.db");
    let h = Harness::with(config(&state)).await;
    let err = refused(&state).await;
    assert!(matches!(err, SandboxError::StateInUse { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("in use by another running sandbox")
    );
    // The first one still saves.
    let r = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "still here"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}

/// A JSON state file as earlier versions wrote it: organization 1 holding one registration
/// (with `password` and `pin` in clear, as those versions kept them), one customer and one
/// created sale, all as a fresh sandbox answers them; no `users` (files from before the Tenanted
/// users endpoints).
pub async fn legacy_state(password: &str, pin: &str) -> Value {
    let h = Harness::start().await;
    let registration = h.get_json("/v1/registrations/regs_demo1_00001").await;
    let customer = h.get_json("/v1/customers?size=1").await["items"][0].clone();
    let sale = crate::rules::sale("ord-legacy");
    let created: Value = h
        .send(Method::POST, "/v1/transactions", &sale)
        .await
        .json()
        .await
        .unwrap();
    h.sandbox.stop().await;
    let id = registration["id"].clone();
    json!({
        "format": 1, "seed": 42, "scale": 1, "anchor": "2026-11-15",
        "organizations": [{
            "key": ORG1.1,
            "next_id": 40,
            "records": {
                "organization_id": ORG1.0,
                "registrations": [registration],
                "oss_countries": [], "physical_nexus": [], "nexus": [],
                "customers": [customer],
                "exemptions": [], "attachments": [], "products": [], "filings": [],
                "secrets": [[id, "password_encrypted", password], [id, "pin_encrypted", pin]]
            },
            "transactions": {"stored": [{"transaction": created[0], "ready_at": null}], "changed": []}
        }]
    })
}

#[tokio::test]
async fn a_json_state_of_earlier_versions_moves_into_a_database_and_is_kept_as_bak() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.json");
    let (password, pin) = ("Legacy-Pass-6612", "907153");
    let text = legacy_state(password, pin).await.to_string();
    std::fs::write(&state, &text).unwrap();

    let h = Harness::with(config(&state)).await;
    let reg = h
        .get_json("/v1/registrations/regs_demo1_00001?reveal=password_encrypted")
        .await;
    assert_eq!(reg["password_encrypted"], json!(password));
    let reg = h
        .get_json("/v1/registrations/regs_demo1_00001?reveal=pin_encrypted")
        .await;
    assert_eq!(reg["pin_encrypted"], json!(pin));
    let sale = h.get_json("/v1/transactions/external/ord-legacy").await;
    assert_eq!(sale["id"], json!("tran_1n0"));
    assert_eq!(h.get_json("/v1/registrations").await["total"], json!(1));
    assert_eq!(h.get_json("/v1/customers").await["total"], json!(1));
    // Ids go on from the saved counter.
    let created: Value = h
        .send(
            Method::POST,
            "/v1/customers",
            &json!({"name": "After the move"}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(created["id"], json!("cust_1new00041"));
    h.sandbox.stop().await;

    // The state is a database now; the JSON file is kept, unchanged, as sandbox.json.bak.
    assert!(
        std::fs::read(&state)
            .unwrap()
            .starts_with(b"SQLite format 3\0")
    );
    let kept = dir.path().join("sandbox.json.bak");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), text);
    assert_eq!(
        names(dir.path()),
        ["sandbox.json", "sandbox.json.bak", "sandbox.json.key"]
    );
    // The database holds the secrets sealed only.
    let database = std::fs::read(&state).unwrap();
    for secret in [password, pin] {
        assert!(!contains(&database, secret.as_bytes()), "{secret} in clear");
    }

    // The next start reads the database; the kept file is left alone.
    let h = Harness::with(config(&state)).await;
    assert_eq!(
        h.get_json("/v1/customers").await["total"],
        json!(2),
        "the customer made after the move is there"
    );
    h.sandbox.stop().await;
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), text);
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test]
async fn a_resumed_state_keeps_the_day_its_records_were_dated_around() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.db");
    let h = Harness::with(config(&state)).await;
    let filings = h.get_json("/v1/filings?size=100").await;
    let sales = h
        .get_json("/v1/transactions?date__gte=2000-01-01&size=5")
        .await;
    h.sandbox.stop().await;

    // Started again on a later day: the records and the transactions stay where they were.
    let later = SandboxConfig {
        anchor: Some(chrono::NaiveDate::from_ymd_opt(2027, 2, 27).unwrap()),
        ..config(&state)
    };
    let h = Harness::with(later).await;
    assert_eq!(h.get_json("/v1/filings?size=100").await, filings);
    assert_eq!(
        h.get_json("/v1/transactions?date__gte=2000-01-01&size=5")
            .await,
        sales
    );
    h.sandbox.stop().await;
}
