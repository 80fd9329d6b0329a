//! `export` against services that lie or fall silent, written here on loopback: pages that come
//! back empty or short while the total promises more, a list that really shrank, a service that
//! never answers, and signals in the middle of an export. Through the library and through the
//! real binary.

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use serde_json::{Value, json};
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportError, ExportJob, export, export_to_file};
use taxdash::model::Resource;
use taxdash::sandbox::SandboxConfig;
use tokio::process::Command;

use crate::binary::{empty_config, stderr};
use crate::common::{
    ORG1, Rewrite, client, client_with, empty_pages, rewriting, sandbox, sandbox_with, silent,
};

/// `taxdash ARGS` in `dir` against the service at `base`, with the demo organization's key in
/// the environment.
fn taxdash(base: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taxdash"));
    command
        .args(args)
        .current_dir(dir)
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", base)
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env_remove("TAXDASH_PROFILE")
        .env_remove("TAXDASH_TIMEOUT")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    command
}

/// The names of the files in `dir`.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const PREVIOUS: &str = "the previous, good export\n";

/// Every page's `total` replaced by `total`, and every page after `honest` emptied.
fn lie(total: u64, honest: u32) -> Rewrite {
    Arc::new(move |page, body: &mut Value| {
        body["total"] = json!(total);
        if page > honest {
            body["items"] = json!([]);
        }
    })
}

#[tokio::test]
async fn empty_pages_under_a_large_total_stop_at_the_first_page_and_keep_the_file() {
    let (base, served) = empty_pages(1_000_000).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("registrations.csv");
    std::fs::write(&out, PREVIOUS).unwrap();
    let started = Instant::now();
    let output = tokio::time::timeout(
        Duration::from_secs(30),
        taxdash(
            &base,
            dir.path(),
            &["export", "registrations", "--out", "registrations.csv"],
        )
        .output(),
    )
    .await
    .expect("ends promptly")
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "taxdash: the service announced 1,000,000 registrations, but page 1 came back empty; \
         0 read in all, so the export is incomplete and stopped there\n"
    );
    assert_eq!(
        served.load(Ordering::SeqCst),
        1,
        "no page asked twice or beyond"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), PREVIOUS);
    assert_eq!(
        files(dir.path()),
        ["registrations.csv"],
        "no temporary file"
    );
}

#[tokio::test]
async fn a_page_empty_before_the_announced_end_names_the_page_and_both_counts() {
    let sandbox = sandbox().await;
    // Two honest pages of 100 transactions, then empty ones, all announcing a million.
    let (base, served) = rewriting(&sandbox.base_url(), lie(1_000_000, 2)).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tx.jsonl"), PREVIOUS).unwrap();
    let args = [
        "export",
        "transactions",
        "--from",
        "2000-01-01",
        "--format",
        "jsonl",
        "--out",
        "tx.jsonl",
    ];
    let output = taxdash(&base, dir.path(), &args).output().await.unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "taxdash: the service announced 1,000,000 transactions, but page 3 came back empty; \
         200 read in all, so the export is incomplete and stopped there\n"
    );
    let asked = served.load(Ordering::SeqCst);
    assert!(
        asked <= 2 + ExportJob::DEFAULT_CONCURRENCY,
        "at most the pages in flight past the short one: {asked}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tx.jsonl")).unwrap(),
        PREVIOUS
    );
    assert_eq!(files(dir.path()), ["tx.jsonl"]);
    sandbox.stop().await;
}

#[tokio::test]
async fn a_short_page_is_an_error_and_a_list_that_really_shrank_is_not() {
    let sandbox = sandbox().await;
    let query = || ListQuery::all(Resource::Customers);
    let mut job = ExportJob::new(query(), Format::Csv);
    job.page_size = 7;
    let real = client(&sandbox.base_url())
        .list_customers(
            &taxdash::model::filters::CustomerFilter::default(),
            taxdash::model::PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!(real > 14 && real % 7 != 0, "a short last page: {real}");

    // Page 2 holds 3 rows where 7 were due, and the total still says more.
    let short: Rewrite = Arc::new(move |page, body: &mut Value| {
        if page == 2 {
            body["items"].as_array_mut().unwrap().truncate(3);
        }
    });
    let (base, _) = rewriting(&sandbox.base_url(), short).await;
    let e = export(
        &client(&base),
        &job,
        &mut Vec::new(),
        &ProgressBar::hidden(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(e, ExportError::Short { page: 2, rows: 3, expected: 7, read: 10, announced, .. }
            if announced == real),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("page 2 held 3 rows of the 7 expected"),
        "{e}"
    );

    // The first page announced 7 more than there are by the time the end is read; the last
    // page's total agrees with the rows read: the list shrank during the export.
    let shrank: Rewrite = Arc::new(move |page, body: &mut Value| {
        if page == 1 {
            body["total"] = json!(real + 7);
        }
    });
    let (base, _) = rewriting(&sandbox.base_url(), shrank).await;
    let mut out = Vec::new();
    let summary = export(&client(&base), &job, &mut out, &ProgressBar::hidden())
        .await
        .expect("a list that shrank is complete");
    assert_eq!((summary.rows, summary.total), (real, real + 7));
    assert_eq!(
        String::from_utf8_lossy(&out).matches('\n').count() as u64,
        real + 1
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn a_silent_service_says_each_retry_and_the_wait_of_one_attempt_and_the_line_says_it_waits() {
    let base = silent().await;
    // Through the library: the progress line while the first page is waited for.
    let slow = client_with(&base, |c| {
        c.request_timeout = Duration::from_millis(2500);
        c.retry.max_attempts = 1;
    });
    let job = ExportJob::new(ListQuery::all(Resource::Customers), Format::Csv);
    let progress = ProgressBar::hidden();
    let mut sink = Vec::new();
    let exporting = export(&slow, &job, &mut sink, &progress);
    let watch = async {
        tokio::time::sleep(Duration::from_millis(2200)).await;
        (progress.message(), progress.position(), progress.length())
    };
    let (result, (line, position, length)) = tokio::join!(exporting, watch);
    assert_eq!(line, "waiting for the service to answer (2 s so far)");
    assert_eq!((position, length), (0, None), "nothing counted as done");
    assert!(
        matches!(result, Err(ExportError::Fetch { .. })),
        "{result:?}"
    );

    // Through the binary: four attempts of 0.3 s, each said as one.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.csv"), PREVIOUS).unwrap();
    let started = Instant::now();
    let output = tokio::time::timeout(
        Duration::from_secs(30),
        taxdash(
            &base,
            dir.path(),
            &["export", "customers", "--out", "c.csv"],
        )
        .env("TAXDASH_TIMEOUT", "0.3")
        .output(),
    )
    .await
    .expect("ends after its attempts")
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    let lines: Vec<&str> = text.lines().collect();
    // stderr is no terminal here: each retry is a line of its own, as it happens.
    assert_eq!(
        lines[..3],
        [
            "taxdash: GET /v1/customers: no answer for 0.3 s, trying again, 2 of 4",
            "taxdash: GET /v1/customers: no answer for 0.3 s, trying again, 3 of 4",
            "taxdash: GET /v1/customers: no answer for 0.3 s, trying again, 4 of 4",
        ],
        "{text}"
    );
    assert!(
        lines[3].starts_with(
            "taxdash: fetching page 1 of the customers failed: The service did not answer \
             within 0.3 s (4 attempts)."
        ),
        "{text}"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(files(dir.path()), ["c.csv"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("c.csv")).unwrap(),
        PREVIOUS
    );

    let output = taxdash(&base, dir.path(), &["export", "customers"])
        .env("TAXDASH_TIMEOUT", "soon")
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("TAXDASH_TIMEOUT = \"soon\" must be a number of seconds"),
        "{}",
        stderr(&output)
    );
}

#[cfg(unix)]
#[tokio::test]
async fn ctrl_c_stops_an_export_waiting_on_a_silent_service_at_once() {
    let base = silent().await;
    let dir = tempfile::tempdir().unwrap();
    let child = taxdash(
        &base,
        dir.path(),
        &["export", "customers", "--out", "c.csv"],
    )
    .env("TAXDASH_TIMEOUT", "30")
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let id = child.id().expect("still waiting").to_string();
    let sent = Instant::now();
    let signalled = std::process::Command::new("kill")
        .args(["-INT", &id])
        .status()
        .unwrap();
    assert!(signalled.success());
    let output = tokio::time::timeout(Duration::from_secs(5), child.wait_with_output())
        .await
        .expect("no wait for the 30 s attempt to run out")
        .unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert_eq!(stderr(&output), "taxdash: interrupted\n");
    assert!(files(dir.path()).is_empty(), "no file, no temporary file");
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_and_sighup_stop_an_export_without_leaving_a_file() {
    // Slow answers: the export takes seconds, so the signal lands in the middle of it.
    let sandbox = sandbox_with(SandboxConfig {
        latency: Duration::from_millis(200),
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    for (signal, code, said) in [
        ("-TERM", 143, "taxdash: terminated (SIGTERM)\n"),
        ("-HUP", 129, "taxdash: hung up (SIGHUP)\n"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tx.csv"), PREVIOUS).unwrap();
        let args = [
            "export",
            "transactions",
            "--from",
            "2000-01-01",
            "--out",
            "tx.csv",
        ];
        let child = taxdash(&sandbox.base_url(), dir.path(), &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The temporary file appears once the first page is in.
        let start = Instant::now();
        while files(dir.path()).len() < 2 {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the export started"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let id = child.id().expect("still running").to_string();
        let sent = std::process::Command::new("kill")
            .args([signal, &id])
            .status()
            .unwrap();
        assert!(sent.success());
        let output = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
            .await
            .expect("stops promptly")
            .unwrap();
        assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
        assert_eq!(stderr(&output), said);
        assert_eq!(
            files(dir.path()),
            ["tx.csv"],
            "no temporary file after {signal}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("tx.csv")).unwrap(),
            PREVIOUS
        );
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn a_file_export_of_lying_pages_leaves_the_previous_file() {
    let (base, _) = empty_pages(500).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n.csv");
    std::fs::write(&out, PREVIOUS).unwrap();
    let job = ExportJob::new(ListQuery::all(Resource::Nexus), Format::Csv);
    let e = export_to_file(&client(&base), &job, &out, &ProgressBar::hidden())
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            ExportError::Short {
                page: 1,
                read: 0,
                announced: 500,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), PREVIOUS);
    assert_eq!(files(dir.path()), ["n.csv"]);
}
