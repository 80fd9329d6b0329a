//! `taxdash audit` through the real binary: the entries the client recorded against the
//! sandbox, in JSON Lines and CSV, filtered; a corrupt history file named and left untouched.

use std::path::Path;
use std::process::Output;

use taxdash::api::{ApproveImport, Client, Generation, Selector};
use taxdash::history::{AuditLog, History};
use taxdash::model::{CustomerWrite, PageParams};

use crate::binary::{empty_config, stderr};
use crate::common::{ORG1, client, sandbox};

async fn audit(history: &Path, args: &[&str]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--history")
        .arg(history)
        .arg("audit")
        .args(args)
        .env("TAXDASH_CONFIG", empty_config())
        .env_remove("TAXDASH_HISTORY")
        .output()
        .await
        .expect("taxdash runs")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", stderr(output));
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

#[tokio::test]
async fn audit_prints_the_recorded_changes_newest_first_in_jsonl_and_csv() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    {
        let log = AuditLog::new(History::open(&path).unwrap());
        let v1 = client(&sandbox.base_url()).with_audit(log.recorder("work", ORG1.0));
        v1.create_customer(&CustomerWrite {
            name: Some("Maple Goods".into()),
            ..Default::default()
        })
        .await
        .unwrap();
        let mut config = taxdash::api::ClientConfig::new(
            sandbox.base_url().parse().unwrap(),
            "",
            taxdash::credentials::ApiKey::new(ORG1.1).unwrap(),
        );
        config.generation = Generation::TENANTED_LATEST;
        config.selector = Selector::Home;
        let tenanted = Client::new(config)
            .unwrap()
            .with_audit(log.recorder("work", ORG1.0));
        let import = tenanted
            .list_certificate_imports(Some("uploaded"), PageParams::new(1, 1))
            .await
            .unwrap()
            .items
            .remove(0);
        tenanted
            .approve_certificate_import(
                &import.id,
                &ApproveImport {
                    exemption_type: Some("resale".into()),
                },
            )
            .await
            .unwrap_err();
    }

    let jsonl = stdout(&audit(&path, &["--format", "jsonl"]).await);
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{jsonl}");
    assert_eq!(lines[0]["resource"], "certificate-imports", "newest first");
    assert_eq!(lines[0]["outcome"], "refused");
    assert_eq!(lines[0]["status"], 422);
    assert!(
        lines[0]["request_id"]
            .as_str()
            .is_some_and(|r| r.starts_with("req_"))
    );
    assert_eq!(lines[0]["generation"], "tenanted");
    assert_eq!(lines[1]["method"], "POST");
    assert_eq!(lines[1]["path"], "/v1/customers");
    assert_eq!(lines[1]["outcome"], "ok");
    assert_eq!(lines[1]["profile"], "work");
    assert_eq!(lines[1]["organization"], ORG1.0);
    assert_eq!(lines[1]["body"], serde_json::json!({"name": "Maple Goods"}));

    let csv = stdout(&audit(&path, &["--format", "csv", "--outcome", "ok"]).await);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        &header[..12],
        [
            "id",
            "started_at",
            "finished_at",
            "profile",
            "organization",
            "generation",
            "api_release",
            "method",
            "path",
            "resource",
            "record_id",
            "outcome"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    assert_eq!(&rows[0][8], "/v1/customers");
    assert_eq!(&rows[0][11], "ok");
    assert_eq!(&rows[0][15], r#"{"name":"Maple Goods"}"#);

    let table = stdout(&audit(&path, &["--resource", "customers"]).await);
    assert_eq!(table.lines().count(), 2, "{table}");
    assert!(table.contains("/v1/customers"), "{table}");
    let none = stdout(&audit(&path, &["--since", "2999-01-01"]).await);
    assert_eq!(none.trim(), "No change recorded.");
    let bad = audit(&path, &["--outcome", "maybe"]).await;
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("ok, refused, failed, pending, unknown"),
        "{}",
        stderr(&bad)
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn a_corrupt_history_file_is_named_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    std::fs::write(&path, b"this is not a database").unwrap();
    let output = audit(&path, &[]).await;
    assert!(!output.status.success());
    let said = stderr(&output);
    assert!(said.contains(&path.display().to_string()), "{said}");
    assert!(said.contains("not an SQLite database"), "{said}");
    assert_eq!(std::fs::read(&path).unwrap(), b"this is not a database");
}
