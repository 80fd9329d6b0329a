//! `taxdash snapshot`, `diff` and `watch` through the real binary against the sandbox: changes
//! made through the client between two snapshots are exactly what `diff` lists.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use taxdash::api::{Client, CustomerFilter, PhysicalNexusFilter};
use taxdash::model::{
    CustomerWrite, ExemptionCreate, ExemptionStatus, ExemptionType, PageParams, PhysicalNexusUpdate,
};
use tokio::io::AsyncReadExt;

use crate::binary::{run, stderr, taxdash};
use crate::common::{client, sandbox};

fn day(y: i32, m: u32, d: u32) -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(y, m, d).expect("a date")
}

/// Three changes through the client: a customer renamed, a physical nexus's city changed, an
/// exemption created. Answers their ids.
pub(crate) async fn change(client: &Client) -> (String, String, String) {
    let customers = client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap();
    let customer = customers.items[0].clone();
    client
        .update_customer(
            &customer.id,
            &CustomerWrite {
                name: Some("Renamed Goods".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let physical = client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items[0]
        .clone();
    client
        .update_physical_nexus(
            &physical.id,
            &PhysicalNexusUpdate {
                start_date: physical.start_date,
                end_date: physical.end_date,
                category: physical.category.clone(),
                street_1: physical.street_1.clone(),
                street_2: physical.street_2.clone(),
                city: Some("Elsewhere".into()),
                postal_code: physical.postal_code.clone(),
            },
        )
        .await
        .unwrap();
    let exemption = client
        .create_exemption(&ExemptionCreate {
            exemption_type: ExemptionType::Customer,
            status: ExemptionStatus::Active,
            start_date: day(2026, 1, 1),
            end_date: Some(day(2027, 12, 31)),
            customer_id: customer.id.clone(),
            fein: "12-3456789".into(),
            sales_tax_id: "ST-99".into(),
            jurisdiction: Some("TX".into()),
            country_code: Some("US".into()),
            transaction_id: None,
            reseller: Some(false),
        })
        .await
        .unwrap();
    (customer.id, physical.id, exemption.id)
}

fn history_args<'a>(db: &'a Path, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--history", db.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    all
}

#[tokio::test]
async fn a_diff_lists_exactly_the_changes_made_between_two_snapshots() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    let first = run(&sandbox, dir.path(), &history_args(&db, &["snapshot"])).await;
    assert!(first.status.success(), "{}", stderr(&first));
    let said = String::from_utf8_lossy(&first.stdout);
    assert!(said.starts_with("snapshot 1 stored: "), "{said}");
    assert!(
        said.contains(" nexus") && said.contains(" customers"),
        "{said}"
    );

    let (customer, physical, exemption) = change(&client(&sandbox.base_url())).await;
    let second = run(&sandbox, dir.path(), &history_args(&db, &["snapshot"])).await;
    assert!(second.status.success(), "{}", stderr(&second));

    let json = run(
        &sandbox,
        dir.path(),
        &history_args(&db, &["diff", "--format", "json"]),
    )
    .await;
    assert!(json.status.success(), "{}", stderr(&json));
    let diff: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (diff["from"]["id"].as_i64(), diff["to"]["id"].as_i64()),
        (Some(1), Some(2))
    );
    let changes: Vec<(String, String, String)> = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["resource"].as_str().unwrap().to_owned(),
                c["id"].as_str().unwrap().to_owned(),
                c["change"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            ("physical-nexus".into(), physical.clone(), "changed".into()),
            ("exemptions".into(), exemption.clone(), "added".into()),
            ("customers".into(), customer.clone(), "changed".into()),
        ]
    );
    let fields = |i: usize| -> Vec<String> {
        diff["changes"][i]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .filter(|p| p != "updated_at")
            .collect()
    };
    assert_eq!(fields(0), ["city"]);
    assert_eq!(fields(2), ["name"]);
    assert_eq!(diff["changes"][2]["fields"][0]["new"], "Renamed Goods");

    // The table: one line per changed field, the record named for people.
    let table = run(&sandbox, dir.path(), &history_args(&db, &["diff"])).await;
    assert!(table.status.success(), "{}", stderr(&table));
    let text = String::from_utf8_lossy(&table.stdout);
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(lines[0].starts_with("from snapshot 1 ("), "{text}");
    assert!(lines[0].ends_with("3 records changed"), "{text}");
    assert!(
        lines.iter().any(
            |l| l.starts_with(&format!("customer {customer} (Renamed Goods) Name: "))
                && l.ends_with(" → Renamed Goods")
        ),
        "{text}"
    );
    assert!(
        lines.contains(&format!("exemption {exemption} added")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("physical-nexus {physical} ("))
                && l.ends_with("→ Elsewhere")),
        "{text}"
    );

    // --from/--to name the snapshots; the same snapshot twice has nothing to list.
    let same = run(
        &sandbox,
        dir.path(),
        &history_args(&db, &["diff", "--from", "2", "--to", "2"]),
    )
    .await;
    assert!(String::from_utf8_lossy(&same.stdout).contains("no changes"));
    let missing = run(
        &sandbox,
        dir.path(),
        &history_args(&db, &["diff", "--from", "1", "--to", "7"]),
    )
    .await;
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("snapshot 7 is not in"),
        "{}",
        stderr(&missing)
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn keep_prunes_the_oldest_snapshots() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    for _ in 0..3 {
        let out = run(
            &sandbox,
            dir.path(),
            &history_args(&db, &["snapshot", "--keep", "2"]),
        )
        .await;
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let old = run(
        &sandbox,
        dir.path(),
        &history_args(&db, &["diff", "--from", "1", "--to", "3"]),
    )
    .await;
    assert!(
        stderr(&old).contains("snapshot 1 is not in"),
        "{}",
        stderr(&old)
    );
    let kept = run(
        &sandbox,
        dir.path(),
        &history_args(&db, &["diff", "--from", "2", "--to", "3"]),
    )
    .await;
    assert!(kept.status.success(), "{}", stderr(&kept));
    sandbox.stop().await;
}

#[tokio::test]
async fn a_failed_read_stores_nothing_and_says_why() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    // A service that fails after a few good answers: the snapshot stops part way.
    let failing = crate::common::failing_after(&sandbox.base_url(), 2).await;
    let out = taxdash(&sandbox, dir.path(), &history_args(&db, &["snapshot"]))
        .env("TAXDASH_BASE_URL", &failing)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(said.contains("no snapshot was stored"), "{said}");
    let history = taxdash::history::History::open(&db).unwrap();
    assert!(history.snapshots(None).unwrap().is_empty());
    sandbox.stop().await;
}

#[tokio::test]
async fn watch_exits_3_at_the_first_change() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    let mut child = taxdash(
        &sandbox,
        dir.path(),
        &history_args(&db, &["watch", "--every", "1s", "--exit-on-change"]),
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Let it take its first snapshot and one without a change, then change a customer.
    let history = taxdash::history::History::open(&db).unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while history.snapshots(None).unwrap().len() < 2 {
        assert!(tokio::time::Instant::now() < deadline, "no snapshots taken");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "no change yet: still watching"
    );
    change(&client(&sandbox.base_url())).await;
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("watch exits after the change")
        .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .await
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .await
        .unwrap();
    assert_eq!(status.code(), Some(3), "{out}\n{err}");
    assert!(out.contains("no changes"), "{out}");
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("(Renamed Goods) Name: "), "{out}");
    assert!(err.contains("3 records changed between snapshots"), "{err}");
    sandbox.stop().await;
}
