//! `taxdash audit` through the real binary: the entries the client recorded against the
//! sandbox, in JSON Lines and CSV, filtered (by person too); a corrupt history file named and
//! left untouched.

use std::path::Path;
use std::process::Output;

use taxdash::api::{ApproveImport, Client, Generation, Selector};
use taxdash::history::{AuditLog, History};
use taxdash::model::{CustomerWrite, PageParams};

use crate::binary::{empty_config, stderr, taxdash};
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
        &header[..13],
        [
            "id",
            "started_at",
            "finished_at",
            "who",
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
    assert_eq!(&rows[0][9], "/v1/customers");
    assert_eq!(&rows[0][12], "ok");
    assert_eq!(&rows[0][16], r#"{"name":"Maple Goods"}"#);

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

#[tokio::test]
async fn the_demo_audit_says_where_its_log_is_kept() {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["--demo", "audit"])
        .env("TAXDASH_CONFIG", empty_config())
        .env_remove("TAXDASH_HISTORY")
        .output()
        .await
        .expect("taxdash runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("the session of its dashboard only") && said.contains("--history FILE"),
        "{said}"
    );

    // With a file named, the demo's log is read from it as any other.
    let dir = tempfile::tempdir().unwrap();
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["--demo", "--history"])
        .arg(dir.path().join("history.db"))
        .args(["audit", "--format", "jsonl"])
        .env("TAXDASH_CONFIG", empty_config())
        .env_remove("TAXDASH_HISTORY")
        .output()
        .await
        .expect("taxdash runs");
    assert_eq!(stdout(&output), "", "nothing recorded yet");
    assert!(!stderr(&output).contains("session"), "{}", stderr(&output));
}

/// `taxdash import customers` of one new customer, `name` (`crm-EXTERNAL`), sent as `who` (the
/// person `TAXDASH_WHO` names), its writes recorded in `history`.
async fn import_as(
    sandbox: &taxdash::sandbox::Sandbox,
    history: &Path,
    who: &str,
    external: &str,
    name: &str,
) {
    let dir = history.parent().unwrap();
    let file = dir.join(format!("{external}.csv"));
    std::fs::write(
        &file,
        format!(
            "external_id,name,email,company_name,street_1,city,postal_code,country\n\
             crm-{external},{name},{external}@example.com,{name} Ltd,1 Main St,Reno,89501,US\n"
        ),
    )
    .unwrap();
    let output = taxdash(sandbox, dir, &["import", "customers"])
        .arg(&file)
        .env("TAXDASH_HISTORY", history)
        .env("TAXDASH_WHO", who)
        .output()
        .await
        .expect("taxdash runs");
    assert!(output.status.success(), "{}", stderr(&output));
}

#[tokio::test]
async fn audit_who_keeps_the_changes_one_person_sent() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    import_as(&sandbox, &path, "Priya Preparer", "who-1", "Birch Supply").await;
    import_as(&sandbox, &path, "Rui Reviewer", "who-2", "Cedar Works").await;

    let people = |jsonl: &str| -> Vec<String> {
        jsonl
            .lines()
            .map(|l| {
                let entry: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
                entry["who"].as_str().expect("who is recorded").to_owned()
            })
            .collect()
    };
    let all = people(&stdout(&audit(&path, &["--format", "jsonl"]).await));
    assert!(all.iter().any(|w| w == "Priya Preparer"), "{all:?}");
    assert!(all.iter().any(|w| w == "Rui Reviewer"), "{all:?}");

    // Part of the name, any case.
    let priya = people(&stdout(
        &audit(&path, &["--who", "PRIYA", "--format", "jsonl"]).await,
    ));
    assert!(!priya.is_empty());
    assert!(priya.iter().all(|w| w == "Priya Preparer"), "{priya:?}");
    let rui = people(&stdout(
        &audit(&path, &["--who", "review", "--format", "jsonl"]).await,
    ));
    assert!(!rui.is_empty());
    assert!(rui.iter().all(|w| w == "Rui Reviewer"), "{rui:?}");
    assert_eq!(priya.len() + rui.len(), all.len());

    // The table names the person after the time; CSV after `finished_at`.
    let table = stdout(&audit(&path, &["--who", "rui"]).await);
    let mut lines = table.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(&format!("{:<23}  WHO ", "STARTED")),
        "{table}"
    );
    let column = header.find("WHO").unwrap();
    for line in lines {
        assert_eq!(line.find("Rui Reviewer"), Some(column), "{table}");
        assert!(!line.contains("Priya"), "{table}");
    }
    let csv = stdout(&audit(&path, &["--who", "priya", "--format", "csv"]).await);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(&reader.headers().unwrap()[3], "who", "{csv}");
    for row in reader.records() {
        assert_eq!(&row.unwrap()[3], "Priya Preparer", "{csv}");
    }

    let none = stdout(&audit(&path, &["--who", "nobody"]).await);
    assert_eq!(none.trim(), "No change recorded.");
    sandbox.stop().await;
}
