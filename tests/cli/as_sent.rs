//! The JSON exports carry each record as the service sent it: a field this version does not
//! model survives, an absent field stays absent (no `0`, no `null`), key order and the spelling
//! of numbers are kept. CSV keeps its documented columns.

use axum::Router;
use axum::http::header;
use axum::routing::get;
use indicatif::ProgressBar;
use serde_json::Value;
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportJob, FilterFlags, export};
use taxdash::model::Resource;

use crate::common::{client, export_bytes, serve};

/// Two registrations as a service might send them, each on one line: the first without
/// `filing_days` or `registration_type`, with fields this version does not know (one nested,
/// one a number written `1.50`); the second complete.
const REGISTRATIONS: [&str; 2] = [
    r#"{"id":"regs_sent_1","status":"REGISTERED","country_code":"US","state_code":"WA","state_name":"Washington","filing_frequency":"QUARTERLY","registration_key":"RK-77","portal":{"kind":"state","score":1.50},"amount_fees":"0.00"}"#,
    r#"{"id":"regs_sent_2","status":"PROCESSING","country_code":"US","state_code":"OH","state_name":"Ohio","filing_frequency":"MONTHLY","filing_days":23,"registration_type":"OTHER","amount_fees":"35.00"}"#,
];

/// Two filings: one long overdue, one due far ahead; both with a field this version does not
/// model.
const FILINGS: [&str; 2] = [
    r#"{"id":"file_late","registration_id":"regs_sent_1","status":"UNFILED","start_date":"2020-01-01","end_date":"2020-03-31","due_date":"2020-04-20","country_code":"US","filing_website_url":"","jira_issue_key":"TO-1"}"#,
    r#"{"id":"file_ahead","registration_id":"regs_sent_1","status":"UNFILED","start_date":"2098-01-01","end_date":"2098-03-31","due_date":"2098-04-20","country_code":"US","filing_website_url":"","jira_issue_key":"TO-2"}"#,
];

/// A page of `items` (JSON texts), spread over lines as a service may send it.
fn page(items: &[&str]) -> String {
    format!(
        "{{\n  \"items\": [\n    {}\n  ],\n  \"total\": {}, \"page\": 1, \"size\": 100, \"pages\": 1\n}}",
        items.join(",\n    "),
        items.len()
    )
}

async fn service() -> String {
    let json = |body: String| ([(header::CONTENT_TYPE, "application/json")], body);
    serve(
        Router::new()
            .route(
                "/v1/registrations",
                get(move || async move { json(page(&REGISTRATIONS)) }),
            )
            .route(
                "/v1/filings",
                get(move || async move { json(page(&FILINGS)) }),
            ),
    )
    .await
}

#[tokio::test]
async fn jsonl_writes_each_record_byte_for_byte_as_sent() {
    let client = client(&service().await);
    let query = ListQuery::all(Resource::Registrations);
    let jsonl = export_bytes(&client, query, Format::Jsonl, 100).await;
    let expected = format!("{}\n{}\n", REGISTRATIONS[0], REGISTRATIONS[1]);
    assert_eq!(String::from_utf8(jsonl).unwrap(), expected);
}

#[tokio::test]
async fn json_keeps_unknown_fields_and_leaves_absent_ones_absent() {
    let client = client(&service().await);
    let query = ListQuery::all(Resource::Registrations);
    let json = export_bytes(&client, query, Format::Json, 100).await;
    let records: Vec<Value> = serde_json::from_slice(&json).expect("one JSON array");
    let sent: Vec<Value> = REGISTRATIONS
        .iter()
        .map(|r| serde_json::from_str(r).unwrap())
        .collect();
    assert_eq!(records, sent);
    let first = records[0].as_object().unwrap();
    assert!(
        !first.contains_key("filing_days"),
        "absent, not 0: {first:?}"
    );
    assert!(!first.contains_key("registration_type"));
    assert_eq!(first["registration_key"], "RK-77");
    assert!(
        String::from_utf8_lossy(&json).contains(r#""score":1.50"#),
        "numbers as spelled"
    );
}

#[tokio::test]
async fn csv_keeps_its_columns() {
    let client = client(&service().await);
    let query = ListQuery::all(Resource::Registrations);
    let csv = export_bytes(&client, query, Format::Csv, 100).await;
    let mut reader = csv::Reader::from_reader(&csv[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(Into::into).collect();
    assert_eq!(header, Resource::Registrations.csv_columns());
    assert!(!header.iter().any(|h| h == "registration_key"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let cell = |row: usize, name: &str| {
        let at = header.iter().position(|h| h == name).unwrap();
        rows[row][at].to_owned()
    };
    assert_eq!(rows.len(), 2);
    assert_eq!(cell(0, "id"), "regs_sent_1");
    assert_eq!(cell(0, "registration_type"), "", "absent: an empty cell");
    assert_eq!(cell(0, "filing_days"), "", "absent: an empty cell, not 0");
    assert_eq!(cell(1, "registration_type"), "OTHER");
    assert_eq!(cell(1, "filing_days"), "23");
    assert_eq!(cell(1, "amount_fees"), "35.00");
}

#[tokio::test]
async fn a_window_kept_on_this_side_writes_the_kept_records_as_sent() {
    let client = client(&service().await);
    let flags = FilterFlags {
        overdue: true,
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Filings, &flags).expect("a filter");
    assert!(query.is_local());
    let mut out = Vec::new();
    let job = ExportJob::new(query, Format::Jsonl);
    let summary = export(&client, &job, &mut out, &ProgressBar::hidden())
        .await
        .expect("export succeeds");
    assert_eq!((summary.checked, summary.rows), (2, 1));
    assert_eq!(String::from_utf8(out).unwrap(), format!("{}\n", FILINGS[0]));
}
