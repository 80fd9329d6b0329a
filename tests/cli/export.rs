//! `export` through the library: filtered and whole lists, the three formats, exact decimals,
//! and `--out` files that appear only when the export succeeds.

use std::collections::HashMap;

use chrono::NaiveDate;
use indicatif::ProgressBar;
use serde_json::Value;
use taxdash::api::{RegistrationFilter, TransactionFilter};
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportError, ExportJob, FilterError, FilterFlags, export_to_file};
use taxdash::model::Resource;
use taxdash::model::{PageParams, RegistrationStatus};

use crate::common::{client, export_bytes, failing_after, sandbox};

fn csv_rows(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("a row").iter().map(str::to_owned).collect())
        .collect();
    (header, rows)
}

fn since_2000() -> FilterFlags {
    FilterFlags {
        from: NaiveDate::from_ymd_opt(2000, 1, 1),
        ..FilterFlags::default()
    }
}

#[tokio::test]
async fn a_filtered_list_has_only_matching_rows() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let flags = FilterFlags {
        status: vec!["registered".into()],
        country: vec!["US".into()],
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Registrations, &flags).unwrap();
    let (header, rows) = csv_rows(&export_bytes(&client, query, Format::Csv, 4).await);
    assert_eq!(header, Resource::Registrations.csv_columns());
    let status = header.iter().position(|h| h == "status").unwrap();
    let country = header.iter().position(|h| h == "country_code").unwrap();
    assert!(
        rows.iter()
            .all(|r| r[status] == "REGISTERED" && r[country] == "US")
    );

    let expected = client
        .list_registrations(
            &RegistrationFilter {
                status_in: vec![RegistrationStatus::Registered],
                country_code_in: vec!["US".into()],
                ..RegistrationFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!(expected > 4, "several pages: {expected}");
    assert_eq!(rows.len() as u64, expected);
    sandbox.stop().await;
}

#[tokio::test]
async fn a_whole_list_matches_the_total_in_page_order() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    // Small pages: many more pages than are fetched at once.
    let bytes = export_bytes(&client, ListQuery::all(Resource::Customers), Format::Csv, 7).await;
    let (_, rows) = csv_rows(&bytes);
    let mut ids = Vec::new();
    let mut page = 1;
    loop {
        let p = client
            .list_customers(
                &taxdash::model::filters::CustomerFilter::default(),
                PageParams::new(page, 100),
            )
            .await
            .unwrap();
        ids.extend(p.items.into_iter().map(|c| c.id));
        if page >= p.pages {
            assert_eq!(ids.len() as u64, p.total);
            break;
        }
        page += 1;
    }
    let exported: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(exported, ids.iter().collect::<Vec<_>>());
    sandbox.stop().await;
}

/// Transactions of one state since 2000: several pages, yet quick in a debug build.
fn in_state(state: &str) -> FilterFlags {
    FilterFlags {
        state: Some(state.into()),
        ..since_2000()
    }
}

#[tokio::test]
async fn jsonl_has_one_line_per_transaction() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let query = ListQuery::from_flags(Resource::Transactions, &in_state("TX")).unwrap();
    let bytes = export_bytes(&client, query, Format::Jsonl, 100).await;
    let total = client
        .list_transactions(
            &TransactionFilter {
                state_code: Some("TX".into()),
                date_from: NaiveDate::from_ymd_opt(2000, 1, 1),
                ..TransactionFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!(total > 500, "{total}");
    let lines: Vec<&[u8]> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len() as u64, total);
    assert!(bytes.ends_with(b"}\n"));
    let last: Value = serde_json::from_slice(lines[lines.len() - 1]).unwrap();
    assert!(last["id"].is_string());
    sandbox.stop().await;
}

#[tokio::test]
async fn csv_decimals_and_dates_are_byte_exact_against_json() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let query = ListQuery::from_flags(Resource::Transactions, &in_state("WA")).unwrap();
    let csv = export_bytes(&client, query.clone(), Format::Csv, 100).await;
    let json = export_bytes(&client, query, Format::Json, 100).await;
    let (header, rows) = csv_rows(&csv);
    let records: Vec<HashMap<String, Value>> = serde_json::from_slice(&json).unwrap();
    assert!(rows.len() > 100, "more than one page: {}", rows.len());
    assert_eq!(rows.len(), records.len());
    let mut compared = 0;
    for (row, record) in rows.iter().zip(&records) {
        for (name, cell) in header.iter().zip(row) {
            let Some(value) = record.get(name) else {
                continue; // a derived column (item_count, customer_name)
            };
            match value {
                Value::String(s) => assert_eq!(cell, s, "{name} of {}", record["id"]),
                Value::Null => assert_eq!(cell, "", "{name} of {}", record["id"]),
                Value::Bool(b) => assert_eq!(cell, &b.to_string(), "{name}"),
                other => panic!("{name} is not a string in JSON: {other}"),
            }
            compared += 1;
        }
    }
    assert!(compared > rows.len() * 20);
    // Scale is kept: some amounts end in zero, as the service wrote them.
    let total = header.iter().position(|h| h == "total_amount").unwrap();
    assert!(
        rows.iter()
            .any(|r| r[total].ends_with('0') && r[total].contains('.'))
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn json_is_one_array_and_jsonl_one_object_a_line() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let json = export_bytes(
        &client,
        ListQuery::all(Resource::Exemptions),
        Format::Json,
        50,
    )
    .await;
    let array: Vec<Value> = serde_json::from_slice(&json).unwrap();
    let jsonl = export_bytes(
        &client,
        ListQuery::all(Resource::Exemptions),
        Format::Jsonl,
        30,
    )
    .await;
    let lines: Vec<Value> = jsonl
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert!(array.len() > 100);
    assert_eq!(lines, array);
    assert_eq!(
        String::from_utf8_lossy(&jsonl).matches('\n').count(),
        array.len()
    );

    let nothing = FilterFlags {
        search: Some("no such customer anywhere".into()),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Customers, &nothing).unwrap();
    assert_eq!(
        export_bytes(&client, query.clone(), Format::Json, 100).await,
        b"[]\n"
    );
    assert_eq!(
        export_bytes(&client, query.clone(), Format::Jsonl, 100).await,
        b""
    );
    let csv = export_bytes(&client, query, Format::Csv, 100).await;
    assert_eq!(csv_rows(&csv).1.len(), 0, "the header only");
    sandbox.stop().await;
}

#[tokio::test]
async fn out_file_appears_only_when_the_export_succeeds() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tx.csv");
    std::fs::write(&out, "the previous export\n").unwrap();
    let query = ListQuery::from_flags(Resource::Transactions, &in_state("WA")).unwrap();
    let mut job = ExportJob::new(query, Format::Csv);
    job.page_size = 40;

    // Three pages pass, then every call fails, retries included.
    let broken = failing_after(&sandbox.base_url(), 3).await;
    let err = export_to_file(&client(&broken), &job, &out, &ProgressBar::hidden())
        .await
        .unwrap_err();
    assert!(matches!(err, ExportError::Fetch { .. }), "{err}");
    assert!(err.to_string().contains("HTTP 500"), "{err}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["tx.csv"], "no temporary file is left");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "the previous export\n"
    );

    let summary = export_to_file(
        &client(&sandbox.base_url()),
        &job,
        &out,
        &ProgressBar::hidden(),
    )
    .await
    .unwrap();
    assert!(summary.pages > 6, "{summary:?}");
    assert_eq!(summary.rows, summary.total);
    let (_, rows) = csv_rows(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len() as u64, summary.total);
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, 1, "only the export");
    sandbox.stop().await;
}

#[tokio::test]
async fn an_export_to_a_device_writes_into_it_and_never_puts_a_file_in_its_place() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    // A link to /dev/null stands for it: were the device replaced, the link would be.
    let out = dir.path().join("null");
    std::os::unix::fs::symlink("/dev/null", &out).unwrap();
    let query = ListQuery::from_flags(Resource::Transactions, &in_state("WA")).unwrap();
    let job = ExportJob::new(query, Format::Csv);
    let summary = export_to_file(
        &client(&sandbox.base_url()),
        &job,
        &out,
        &ProgressBar::hidden(),
    )
    .await
    .unwrap();
    assert!(summary.rows > 0, "{summary:?}");
    let link = std::fs::symlink_metadata(&out).unwrap();
    assert!(link.file_type().is_symlink(), "the link is left as it was");
    assert_eq!(
        std::fs::read_link(&out).unwrap(),
        std::path::Path::new("/dev/null")
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["null"], "no temporary file is left");
}

#[tokio::test]
async fn an_export_dropped_midway_leaves_no_file() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tx.jsonl");
    let query = ListQuery::from_flags(Resource::Transactions, &since_2000()).unwrap();
    let mut job = ExportJob::new(query, Format::Jsonl);
    job.page_size = 10;
    job.concurrency = 2;
    let client = client(&sandbox.base_url());
    let progress = ProgressBar::hidden();
    let export = export_to_file(&client, &job, &out, &progress);
    let stopped = tokio::time::timeout(std::time::Duration::from_millis(800), export).await;
    assert!(stopped.is_err(), "1,000 small pages take longer than that");
    assert!(progress.position() > 0, "some rows were written");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    sandbox.stop().await;
}

#[test]
fn a_flag_that_does_not_apply_is_refused_with_the_alternatives() {
    let flags = FilterFlags {
        search: Some("x".into()),
        ..FilterFlags::default()
    };
    let err = ListQuery::from_flags(Resource::PhysicalNexus, &flags).unwrap_err();
    assert!(matches!(err, FilterError::NotApplicable { .. }));
    assert_eq!(
        err.to_string(),
        "--search does not apply to physical-nexus; it applies to nexus, exemptions, customers, \
         transactions and products"
    );
    let flags = FilterFlags {
        status: vec!["PAID".into()],
        ..FilterFlags::default()
    };
    let err = ListQuery::from_flags(Resource::Transactions, &flags).unwrap_err();
    assert!(
        err.to_string()
            .contains("allowed values: PENDING, COMMITTED, CANCELLED"),
        "{err}"
    );
}
