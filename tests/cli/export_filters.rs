//! `export` with every filter of the lists: the `FULLY_EXEMPT` transactions, filings with their
//! filed dates and the windows kept on this side (overdue, due, expiring, expired), through the
//! library and through the real binary, including `--demo`.

use std::process::Stdio;

use chrono::NaiveDate;
use indicatif::ProgressBar;
use taxdash::api::TransactionFilter;
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportJob, ExportSummary, FilterFlags, export};
use taxdash::model::Resource;
use taxdash::model::filters::FilingFilter;
use taxdash::model::{PageParams, TransactionExemptStatus};
use tokio::process::Command;

use crate::binary::{empty_config, run, stderr};
use crate::common::{DEMO_ANCHOR, client, sandbox};

/// The CSV's rows as maps from column to cell.
fn csv_maps(bytes: &[u8]) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.expect("a row").iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

/// Exports `query` as CSV, 25 rows a page, into memory.
async fn export_csv(client: &taxdash::api::Client, query: ListQuery) -> (Vec<u8>, ExportSummary) {
    let mut job = ExportJob::new(query, Format::Csv);
    job.page_size = 25;
    let mut out = Vec::new();
    let summary = export(client, &job, &mut out, &ProgressBar::hidden())
        .await
        .expect("export succeeds");
    (out, summary)
}

fn day(s: &str) -> NaiveDate {
    s.parse().expect("a date")
}

#[tokio::test]
async fn the_fully_exempt_transactions_are_exported_whole() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let flags = FilterFlags {
        exempt: vec!["FULLY_EXEMPT".into()],
        from: Some(day("2000-01-01")),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Transactions, &flags).unwrap();
    let (bytes, summary) = export_csv(&client, query).await;
    let rows = csv_maps(&bytes);
    let expected = client
        .list_transactions(
            &TransactionFilter {
                exempt_in: vec![TransactionExemptStatus::FullyExempt],
                date_from: Some(day("2000-01-01")),
                ..TransactionFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!(expected > 100, "the demo has hundreds of them");
    assert_eq!(rows.len() as u64, expected);
    assert_eq!(
        (summary.rows, summary.checked, summary.total),
        (expected, expected, expected)
    );
    assert!(rows.iter().all(|r| r["exempt"] == "FULLY_EXEMPT"));
}

#[tokio::test]
async fn filings_are_exported_with_their_columns_and_filed_dates() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let (bytes, summary) = export_csv(&client, ListQuery::all(Resource::Filings)).await;
    let all = csv_maps(&bytes);
    let header = csv::Reader::from_reader(&bytes[..])
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    assert_eq!(header, Resource::Filings.csv_columns());
    for column in [
        "id",
        "start_date",
        "end_date",
        "state_code",
        "country_code",
        "status",
        "due_date",
        "amount",
        "currency",
        "date_filed",
        "approved_at",
    ] {
        assert!(header.iter().any(|h| h == column), "{column}");
    }
    let total = client
        .list_filings(&FilingFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    assert_eq!((all.len() as u64, summary.total), (total, total));
    assert!(
        all.iter()
            .any(|f| f["status"] == "FILED" && !f["date_filed"].is_empty())
    );

    let flags = FilterFlags {
        filed_from: Some(day("2026-01-01")),
        filed_to: Some(day("2026-06-30")),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Filings, &flags).unwrap();
    let filed = csv_maps(&export_csv(&client, query).await.0);
    let in_window = |f: &&std::collections::HashMap<String, String>| {
        let d = f["date_filed"].get(..10).unwrap_or("");
        ("2026-01-01"..="2026-06-30").contains(&d)
    };
    assert!(!filed.is_empty());
    assert_eq!(filed.len(), all.iter().filter(in_window).count());
    assert!(filed.iter().all(|f| in_window(&f)));
}

#[tokio::test]
async fn windows_kept_here_write_only_the_kept_rows_and_count_every_row_checked() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let all = csv_maps(
        &export_csv(&client, ListQuery::all(Resource::Filings))
            .await
            .0,
    );
    // The demo files every return due by its own today; three weeks on, some are overdue
    // (returns still to file: a paused one counts as paused, not overdue).
    let later = DEMO_ANCHOR + chrono::Days::new(21);
    let today = later.to_string();
    let open = |f: &std::collections::HashMap<String, String>| {
        ["UNFILED", "FILING"].contains(&f["status"].as_str())
    };

    let flags = FilterFlags {
        overdue: true,
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags_on(Resource::Filings, &flags, later).unwrap();
    let (bytes, summary) = export_csv(&client, query).await;
    let overdue = csv_maps(&bytes);
    let expected: Vec<&String> = all
        .iter()
        .filter(|f| open(f) && !f["due_date"].is_empty() && f["due_date"] < today)
        .map(|f| &f["id"])
        .collect();
    assert!(!expected.is_empty(), "the demo has overdue returns");
    assert_eq!(
        overdue.iter().map(|f| &f["id"]).collect::<Vec<_>>(),
        expected
    );
    assert_eq!(summary.rows, expected.len() as u64);
    assert!(
        summary.checked >= summary.rows && summary.checked == summary.total,
        "every row the service sent was checked: {summary:?}"
    );

    let flags = FilterFlags {
        due_within: Some(45),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags_on(Resource::Filings, &flags, DEMO_ANCHOR).unwrap();
    let due = csv_maps(&export_csv(&client, query).await.0);
    let (from, horizon) = (
        DEMO_ANCHOR.to_string(),
        (DEMO_ANCHOR + chrono::Days::new(45)).to_string(),
    );
    let expected = all
        .iter()
        .filter(|f| open(f) && f["due_date"] >= from && f["due_date"] <= horizon)
        .count();
    assert!(expected > 0, "the demo has returns due soon");
    assert_eq!(due.len(), expected);

    // The demo's active certificates end on 31 December; a fortnight before one of them, some
    // are expiring.
    let before_new_year = day("2027-12-17");
    let flags = FilterFlags {
        expiring_within: Some(30),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags_on(Resource::Exemptions, &flags, before_new_year).unwrap();
    let expiring = csv_maps(&export_csv(&client, query).await.0);
    assert!(!expiring.is_empty());
    assert!(
        expiring
            .iter()
            .all(|e| e["status"] == "ACTIVE" && e["end_date"] == "2027-12-31")
    );

    let flags = FilterFlags {
        expired_within: Some(30),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags_on(Resource::Exemptions, &flags, DEMO_ANCHOR).unwrap();
    let (bytes, summary) = export_csv(&client, query).await;
    let expired = csv_maps(&bytes);
    assert!(!expired.is_empty());
    assert!(
        summary.checked > summary.rows && summary.checked == summary.total,
        "rows outside the window were read and dropped: {summary:?}"
    );

    assert!(expired.iter().all(|e| {
        e["end_date"].as_str() >= "2026-10-16" && e["end_date"].as_str() <= "2026-11-14"
    }));
}

#[tokio::test]
async fn the_binary_exports_fully_exempt_transactions_and_refuses_a_window_they_lack() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let output = run(
        &sandbox,
        dir.path(),
        &[
            "export",
            "transactions",
            "--exempt",
            "FULLY_EXEMPT",
            "--from",
            "2000-01-01",
            "--format",
            "csv",
        ],
    )
    .await;
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = csv_maps(&output.stdout);
    assert!(rows.len() > 100);
    assert!(rows.iter().all(|r| r["exempt"] == "FULLY_EXEMPT"));

    let output = run(
        &sandbox,
        dir.path(),
        &["export", "transactions", "--overdue"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("--overdue does not apply to transactions; it applies to filings"),
        "{}",
        stderr(&output)
    );
    let output = run(
        &sandbox,
        dir.path(),
        &["export", "filings", "--due-within", "soon"],
    )
    .await;
    assert_eq!(output.status.code(), Some(2), "a value of the wrong type");
}

/// `taxdash ARGS` with no service, key or profile in the environment, on the tests' today.
async fn offline(args: &[&str]) -> std::process::Output {
    offline_on(&DEMO_ANCHOR.to_string(), args).await
}

/// `taxdash --today TODAY ARGS` with no service, key or profile in the environment.
async fn offline_on(today: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--today")
        .arg(today)
        .args(args)
        .env("TAXDASH_CONFIG", empty_config())
        .env_remove("TAXDASH_BASE_URL")
        .env_remove("TAXDASH_API_KEY")
        .env_remove("TAXDASH_ORGANIZATION_ID")
        .env_remove("TAXDASH_PROFILE")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("taxdash runs")
}

#[tokio::test]
async fn export_demo_runs_on_the_embedded_sandbox_without_a_profile() {
    let output = offline(&["export", "filings", "--demo", "--format", "csv"]).await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = csv_maps(&output.stdout);
    assert!(rows.len() > 10, "the demo's filings");
    assert!(rows.iter().all(|f| f["id"].starts_with("file_demo1_")));

    let output = offline(&["--demo", "export", "exemptions", "--status", "EXPIRED"]).await;
    assert!(output.status.success());
    let rows = csv_maps(&output.stdout);
    assert!(!rows.is_empty() && rows.iter().all(|e| e["status"] == "EXPIRED"));

    let output = offline(&["--api", "tenanted", "--demo", "export", "filings"]).await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        csv_maps(&output.stdout).len() > 10,
        "the same filings over the Tenanted API"
    );

    let output = offline(&["login", "--demo"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--demo does not apply to `login`"));

    let output = offline(&["export", "filings", "--demo", "--profile", "work"]).await;
    assert_eq!(
        output.status.code(),
        Some(2),
        "--demo and --profile conflict"
    );
}

#[tokio::test]
async fn export_help_lists_every_filter_on_one_line() {
    let output = offline(&["export", "-h"]).await;
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    let long = offline(&["export", "--help"]).await;
    let long = String::from_utf8_lossy(&long.stdout);
    for flag in [
        "--status",
        "--state",
        "--country",
        "--from",
        "--to",
        "--search",
        "--exempt",
        "--processing-status",
        "--address-status",
        "--type",
        "--marketplace",
        "--direction",
        "--filing-frequency",
        "--tax-type",
        "--filed-from",
        "--filed-to",
        "--overdue",
        "--due-within",
        "--expiring-within",
        "--expired-within",
        "--order-by",
        "--demo",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{flag} ")) || l.trim() == flag)
            .unwrap_or_else(|| panic!("{flag} is in the help:\n{help}"));
        assert!(
            line.len() > flag.len() + 10,
            "{flag} says what it does: {line}"
        );
        assert!(long.contains(&format!("      {flag}")), "{flag} in --help");
    }
    assert!(help.contains("filings"), "the resource is listed");
    assert!(help.contains("--demo"));
}

#[tokio::test]
async fn every_filter_of_the_registrations_and_transactions_lists_is_a_flag() {
    use taxdash::model::{Direction, FilingFrequency, TaxType};
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());

    let flags = FilterFlags {
        filing_frequency: vec!["monthly".into()],
        tax_type: vec!["SALES_TAX".into()],
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Registrations, &flags).unwrap();
    let (bytes, _) = export_csv(&client, query).await;
    let rows = csv_maps(&bytes);
    assert!(
        !rows.is_empty(),
        "the demo has monthly sales-tax registrations"
    );
    for row in &rows {
        assert_eq!(row["filing_frequency"], FilingFrequency::Monthly.as_str());
        assert_eq!(row["tax_type"], TaxType::SalesTax.as_str());
    }
    let all = client
        .list_registrations(
            &taxdash::model::filters::RegistrationFilter::default(),
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!((rows.len() as u64) < all, "the flags narrowed the list");

    let flags = FilterFlags {
        direction: Some("sale".into()),
        from: Some(day("2026-11-01")),
        ..FilterFlags::default()
    };
    let ListQuery::Transactions(filter) =
        ListQuery::from_flags(Resource::Transactions, &flags).unwrap()
    else {
        panic!("a transactions query");
    };
    assert_eq!(filter.direction, Some(Direction::Sale));

    let wrong = FilterFlags {
        tax_type: vec!["SALES_TAX".into()],
        ..FilterFlags::default()
    };
    let err = ListQuery::from_flags(Resource::Filings, &wrong).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--tax-type does not apply to filings; it applies to registrations"
    );
    let unknown = FilterFlags {
        filing_frequency: vec!["WEEKLY".into()],
        ..FilterFlags::default()
    };
    let err = ListQuery::from_flags(Resource::Registrations, &unknown).unwrap_err();
    assert!(err.to_string().contains("MONTHLY"), "{err}");
}

#[tokio::test]
async fn today_dates_the_demo_and_counts_the_windows_from_the_day_given() {
    let today = "2027-02-27";
    let output = offline_on(today, &["export", "filings", "--demo", "--overdue"]).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let overdue = csv_maps(&output.stdout);
    assert!(
        !overdue.is_empty(),
        "the demo has returns overdue on any day"
    );
    for f in &overdue {
        assert!(f["due_date"].as_str() < today, "{f:?}");
        assert_ne!(f["status"], "FILED");
    }
    // Dated around that day: the latest periods end in it, not around the tests' default.
    let output = offline_on(today, &["export", "filings", "--demo"]).await;
    let all = csv_maps(&output.stdout);
    let latest = all.iter().map(|f| f["end_date"].clone()).max().unwrap();
    assert_eq!(latest, "2027-01-31");

    let output = offline_on(today, &["export", "filings", "--demo", "--due-within", "7"]).await;
    let due = csv_maps(&output.stdout);
    assert!(!due.is_empty(), "returns come due within a week of any day");
    assert!(
        due.iter()
            .all(|f| f["due_date"].as_str() >= today && f["due_date"].as_str() <= "2027-03-06")
    );

    let output = offline_on(
        "2027-01-31",
        &["export", "exemptions", "--demo", "--expiring-within", "30"],
    )
    .await;
    assert!(!csv_maps(&output.stdout).is_empty());
}

#[tokio::test]
async fn a_day_that_does_not_read_is_refused_naming_its_option() {
    let output = offline_on("2027-02-30", &["export", "filings", "--demo"]).await;
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--today"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());

    let output = offline(&["sandbox", "serve", "--anchor", "next week"]).await;
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--anchor"), "{}", stderr(&output));

    let help = offline(&["--help"]).await;
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--today <YYYY-MM-DD>") && help.contains("as today everywhere"));
    let help = offline(&["sandbox", "serve", "--help"]).await;
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--anchor <YYYY-MM-DD>") && help.contains("built around"));
}

#[tokio::test]
async fn sandbox_serve_dates_its_demo_data_around_the_anchor() {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["sandbox", "serve", "--port", "0", "--anchor", "2027-02-27"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("taxdash runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut url = None;
    let mut told = String::new();
    while let Some(line) = lines.next_line().await.unwrap() {
        told.push_str(&line);
        if let Some(rest) = line.split(" at ").nth(1) {
            url = rest.split("/v1").next().map(str::to_owned);
        }
        if line.contains("seed ") {
            break;
        }
    }
    let url = url.expect("the sandbox says where it listens");
    assert!(told.contains("today 2027-02-27"), "{told}");
    let page: serde_json::Value = reqwest::Client::new()
        .get(format!("{url}/v1/filings?size=100"))
        .header("x-api-key", crate::common::ORG1.1)
        .header("x-organization-id", crate::common::ORG1.0)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let latest = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["end_date"].as_str())
        .max()
        .unwrap()
        .to_owned();
    assert_eq!(latest, "2027-01-31");
    child.kill().await.unwrap();
}

#[tokio::test]
async fn products_are_exported_with_their_columns_and_filtered_by_status_and_search() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let (bytes, summary) = export_csv(&client, ListQuery::all(Resource::Products)).await;
    let all = csv_maps(&bytes);
    assert!(!all.is_empty());
    assert_eq!(all.len() as u64, summary.total);
    for column in [
        "id",
        "name",
        "status",
        "product_category",
        "product_subcategory",
        "tax_exempt",
    ] {
        assert!(
            Resource::Products.csv_columns().contains(&column),
            "{column}"
        );
    }
    let pending = all.iter().filter(|p| p["status"] == "PENDING").count();
    assert!(pending > 0 && pending < all.len());

    let flags = FilterFlags {
        status: vec!["pending".into()],
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Products, &flags).unwrap();
    let (bytes, _) = export_csv(&client, query).await;
    let rows = csv_maps(&bytes);
    assert_eq!(rows.len(), pending);
    assert!(rows.iter().all(|p| p["status"] == "PENDING"));

    let flags = FilterFlags {
        overdue: true,
        ..FilterFlags::default()
    };
    let err = ListQuery::from_flags(Resource::Products, &flags).unwrap_err();
    assert!(
        err.to_string()
            .contains("--overdue does not apply to products")
    );
}
