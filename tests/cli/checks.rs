//! `taxdash check exemptions|filings` and `taxdash nexus forecast` through the real binary: the
//! findings the demo plants, the exit codes a scheduled job acts on (0 clean, 3 findings, 1 on
//! errors), the config's tolerance, and the same answers on a served sandbox through a profile.

use std::path::Path;
use std::process::Output;

use rust_decimal::Decimal;
use serde_json::Value;
use taxdash::model::format;
use tokio::process::Command;

use crate::binary::empty_config;
use crate::common::{DEMO_ANCHOR, ORG1, sandbox};

/// `taxdash --demo --today DEMO_ANCHOR ARGS`, with the config file `config`.
async fn demo(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--demo")
        .arg("--today")
        .arg(DEMO_ANCHOR.to_string())
        .args(args)
        .env("TAXDASH_CONFIG", config)
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true)
        .output()
        .await
        .expect("taxdash runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(output: &Output) -> Vec<Value> {
    serde_json::from_slice::<Vec<Value>>(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&output.stdout)))
}

#[tokio::test]
async fn the_exemption_check_finds_each_planted_reason_and_exits_3() {
    let out = demo(
        empty_config(),
        &[
            "check",
            "exemptions",
            "--from",
            "2024-01-01",
            "--format",
            "json",
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("exempt sales without a valid certificate"),
        "{}",
        text(&out.stderr)
    );
    let found = json(&out);
    let mut reasons: Vec<&str> = found.iter().filter_map(|f| f["reason"].as_str()).collect();
    reasons.sort_unstable();
    reasons.dedup();
    assert_eq!(
        reasons,
        [
            "deactivated",
            "expired",
            "no_certificate",
            "other_jurisdiction",
            "started_after"
        ],
        "{found:?}"
    );
    for f in &found {
        assert!(
            ["FULLY_EXEMPT", "PARTIALLY_EXEMPT"].contains(&f["exempt"].as_str().unwrap_or("")),
            "{f}"
        );
        assert!(f["transaction_id"].as_str().is_some_and(|t| !t.is_empty()));
    }

    // A range holding none of them: clean, exit 0, and the table says how many were checked.
    let out = demo(
        empty_config(),
        &[
            "check",
            "exemptions",
            "--from",
            "2025-01-01",
            "--to",
            "2025-01-31",
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("0 without a valid certificate"),
        "{}",
        text(&out.stdout)
    );

    // An empty range is an error, not a clean result.
    let out = demo(
        empty_config(),
        &[
            "check",
            "exemptions",
            "--from",
            "2026-02-01",
            "--to",
            "2026-01-01",
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the range is empty"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test]
async fn the_filings_check_lists_what_does_not_add_up_within_the_configured_tolerance() {
    let out = demo(empty_config(), &["check", "filings", "--format", "csv"]).await;
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("filing_id,jurisdiction,period,status,check,expected,actual,difference,share")
    );
    let rows: Vec<&str> = lines.collect();
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .any(|r| r.contains("tax collected vs liability")),
        "{csv}"
    );
    assert!(
        rows.iter().any(|r| r.contains("sales vs its transactions")),
        "{csv}"
    );

    // A looser tolerance in the config file: the planted differences (about 10 %) pass.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[checks]\nfiling_tolerance_percent = 25\n").unwrap();
    let out = demo(&config, &["check", "filings"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("(a difference over 25.0% and over 1.00 is listed)"),
        "{}",
        text(&out.stdout)
    );
}

#[tokio::test]
async fn the_filings_table_writes_money_and_shares_as_every_surface_does() {
    let listed = json(&demo(empty_config(), &["check", "filings", "--format", "json"]).await);
    let out = demo(empty_config(), &["check", "filings"]).await;
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(!listed.is_empty());
    let dec = |f: &Value, field: &str| -> Decimal {
        f[field]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{field} of {f}"))
    };
    for f in &listed {
        let currency = f["currency"].as_str();
        let percent = dec(f, "percent");
        // Judged on the share as shown: a listed difference always reads over 5.0%, never
        // `-5.00 %` against a tolerance of 5 %.
        assert!(percent.abs() > Decimal::from(5), "{f}");
        assert_eq!(
            percent,
            format::shown_share(percent),
            "one decimal, cut: {f}"
        );
        let check = match f["check"].as_str() {
            Some("collected_vs_liability") => "tax collected vs liability",
            _ => "sales vs its transactions",
        };
        let id = f["filing_id"].as_str().unwrap();
        let row = table
            .lines()
            .find(|l| l.starts_with(id) && l.contains(check))
            .unwrap_or_else(|| panic!("{id} {check} in {table}"));
        // Grouped, with the currency; the difference signed, with its currency too.
        for cell in [
            format::money(dec(f, "expected"), currency),
            format::money(dec(f, "actual"), currency),
            format::money_change(dec(f, "difference"), currency),
        ] {
            assert!(row.contains(&format!("{cell}  ")), "{cell} in {row}");
        }
        assert!(row.ends_with(&format::share_change(percent)), "{row}");
        assert!(row.contains(" USD") || row.contains(" CAD"), "{row}");
    }
    assert!(
        table.contains(',') && !table.contains(" %"),
        "grouped amounts, one form of share: {table}"
    );
    let summary = table.lines().last().unwrap();
    assert!(
        summary.ends_with(&format!(
            "filings checked (a difference over 5.0% and over 1.00 is listed), {} figures do not add up",
            listed.len()
        )),
        "{summary}"
    );
}

#[tokio::test]
async fn the_forecast_names_the_states_that_will_cross_and_exits_3() {
    let out = demo(empty_config(), &["nexus", "forecast", "--format", "json"]).await;
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let all = json(&out);
    assert!(!all.is_empty());
    let crossing: Vec<&Value> = all
        .iter()
        .filter(|f| f["crossing"]["outcome"] == "around")
        .collect();
    assert!(!crossing.is_empty(), "{all:?}");
    // Soonest first: the crossing ones lead, in date order.
    let days: Vec<&str> = crossing
        .iter()
        .filter_map(|f| f["crossing"]["on"].as_str())
        .collect();
    let mut sorted = days.clone();
    sorted.sort_unstable();
    assert_eq!(days, sorted);
    assert_eq!(all[0]["crossing"]["outcome"], "around");
    for f in &all {
        assert!(
            ["APPROACHING", "NOT_EXPOSED"].contains(&f["status"].as_str().unwrap_or("")),
            "{f}"
        );
    }
}

#[tokio::test]
async fn a_check_reads_a_profiles_service_too() {
    let sandbox = sandbox().await;
    let out = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--today")
        .arg(DEMO_ANCHOR.to_string())
        .args([
            "check",
            "exemptions",
            "--from",
            "2024-01-01",
            "--format",
            "json",
        ])
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", sandbox.base_url())
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(json(&out).len(), 5);
    // A service that is not there: an error (exit 1), never "clean".
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let out = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["nexus", "forecast"])
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    sandbox.stop().await;
}

/// Every range option of every command refuses a range that ends before it starts, before it
/// reads anything, with the same sentence and exit code 1.
#[tokio::test]
async fn every_range_option_refuses_an_empty_range_the_same_way() {
    let (from, to) = ("2026-09-30", "2026-01-01");
    let range = format!("{from}..{to}");
    let cases: [(Vec<&str>, &str, &str); 7] = [
        (
            vec!["check", "exemptions", "--from", from, "--to", to],
            "--from",
            "--to",
        ),
        (
            vec!["check", "filings", "--from", from, "--to", to],
            "--from",
            "--to",
        ),
        (
            vec!["export", "transactions", "--from", from, "--to", to],
            "--from",
            "--to",
        ),
        (
            vec!["export", "filings", "--filed-from", from, "--filed-to", to],
            "--filed-from",
            "--filed-to",
        ),
        (
            vec!["snapshot", "--transactions", &range],
            "--transactions FROM",
            "TO",
        ),
        (
            vec!["watch", "--every", "1h", "--transactions", &range],
            "--transactions FROM",
            "TO",
        ),
        (
            vec!["check", "exemptions", "--from", "2099-01-01"],
            "--from",
            "today",
        ),
    ];
    for (args, from_name, to_name) in cases {
        let out = demo(empty_config(), &args).await;
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing is printed");
        let expected = if to_name == "today" {
            format!(
                "taxdash: {from_name} 2099-01-01 is after today {DEMO_ANCHOR}: the range is empty\n"
            )
        } else {
            format!("taxdash: {from_name} {from} is after {to_name} {to}: the range is empty\n")
        };
        assert!(said.ends_with(&expected), "{args:?}: {said}");
    }
}

#[tokio::test]
async fn the_exemption_check_without_from_reads_the_last_12_months_as_the_dashboard_does() {
    let out = demo(empty_config(), &["check", "exemptions"]).await;
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}{}",
        stdout,
        text(&out.stderr)
    );
    let from = DEMO_ANCHOR
        .checked_sub_months(chrono::Months::new(12))
        .expect("a day a year back");
    let range = format!(
        "from {} to {} checked",
        format::date(from),
        format::date(DEMO_ANCHOR)
    );
    assert!(stdout.contains(&range), "{range:?} in {stdout}");
    // The same findings as the range written out.
    let from = from.to_string();
    let explicit = demo(empty_config(), &["check", "exemptions", "--from", &from]).await;
    assert_eq!(text(&explicit.stdout), stdout);
    assert_eq!(explicit.status.code(), Some(3));
}

#[tokio::test]
async fn the_portfolio_counts_as_the_lists_behind_it_and_exits_3_on_an_overdue_return() {
    let out = demo(empty_config(), &["portfolio", "--format", "json"]).await;
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(
        said.contains("1 organization with a return overdue"),
        "{said}"
    );
    let rows = json(&out);
    let ids: Vec<&str> = rows
        .iter()
        .map(|r| r["organization_id"].as_str().unwrap())
        .collect();
    // Worst first: the one with returns overdue.
    assert_eq!(ids, [ORG1.0, "orgn_demo_2"], "{rows:?}");
    assert_eq!(rows[0]["status"], "read");
    // Each count is the number of rows of the list it stands for, as `export` writes it.
    for (key, filter) in [
        ("overdue", &["--overdue"][..]),
        ("due", &["--due-within", "30"][..]),
    ] {
        let mut args = vec!["export", "filings", "--format", "json"];
        args.extend(filter);
        let listed = json(&demo(empty_config(), &args).await).len() as u64;
        assert!(listed > 0, "the demo plants {key} returns");
        assert_eq!(rows[0]["counts"][key].as_u64(), Some(listed), "{key}");
    }
    // The table says the same, a line an organization.
    let table = demo(empty_config(), &["portfolio"]).await;
    let table = text(&table.stdout);
    assert!(table.lines().nth(1).unwrap().starts_with(ORG1.0), "{table}");
    assert_eq!(table.lines().count(), 3, "{table}");
}
