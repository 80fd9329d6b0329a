//! `taxdash import` through the real binary against the sandbox over loopback: the formats,
//! the checks that keep anything from being sent, clean runs, a run whose answers are lost half
//! way then resumed, and the physical nexus export → import round trip.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use taxdash::api::{
    Client, CustomerFilter, ExemptionFilter, PhysicalNexusFilter, TransactionFilter,
};
use taxdash::model::PageParams;
use tokio::process::Command;

use crate::binary::empty_config;
use crate::common::{DEMO_ANCHOR, ORG1, client, sandbox, serve};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cli/fixtures/import");

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// `taxdash ARGS` against the service at `base`, in `dir`, with an empty config file.
async fn taxdash(base: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .arg("--today")
        .arg(DEMO_ANCHOR.to_string())
        .args(args)
        .current_dir(dir)
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", base)
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env("TAXDASH_HISTORY", dir.join("history.db"))
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true)
        .output()
        .await
        .expect("taxdash runs")
}

/// `taxdash ARGS` as [`taxdash`], which must succeed.
async fn succeeds(base: &str, dir: &Path, args: &[&str]) -> Output {
    let output = taxdash(base, dir, args).await;
    assert!(
        output.status.success(),
        "{args:?}: {}",
        text(&output.stderr)
    );
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Copies fixture `name` into `dir`, so its results file lands there.
fn copy(name: &str, dir: &Path) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(fixture(name), &to).expect("the fixture copies");
    to
}

#[derive(Clone)]
struct Relay {
    target: String,
    http: reqwest::Client,
    served: Arc<AtomicUsize>,
    writes: Arc<AtomicUsize>,
    /// Writes answered as the service answered; every later one is still carried out by the
    /// service, but its answer is lost (500). Reads are always answered.
    answered: usize,
}

/// A server in front of `target` relaying every request (method, key headers and body);
/// returns its URL and the count of requests it received.
async fn relay(target: &str, answered: usize) -> (String, Arc<AtomicUsize>) {
    let served = Arc::new(AtomicUsize::new(0));
    let relay = Relay {
        target: target.to_owned(),
        http: reqwest::Client::new(),
        served: served.clone(),
        writes: Arc::new(AtomicUsize::new(0)),
        answered,
    };
    let url = serve(Router::new().fallback(forward).with_state(relay)).await;
    (url, served)
}

async fn forward(State(relay): State<Relay>, request: Request) -> Response {
    relay.served.fetch_add(1, Ordering::SeqCst);
    let method = request.method().clone();
    let n = if method == axum::http::Method::GET {
        0
    } else {
        relay.writes.fetch_add(1, Ordering::SeqCst)
    };
    let path = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let headers = request.headers().clone();
    let body = axum::body::to_bytes(request.into_body(), usize::MAX)
        .await
        .expect("a body");
    let mut call = relay
        .http
        .request(method, format!("{}{path}", relay.target))
        .body(body);
    for name in ["x-api-key", "x-organization-id", "content-type"] {
        if let Some(value) = headers.get(name) {
            call = call.header(name, value.clone());
        }
    }
    let answer = call.send().await.expect("the sandbox answers");
    if n >= relay.answered {
        let body = r#"{"detail": "Internal server error (test relay)."}"#;
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
    }
    let status = answer.status();
    let content_type = answer.headers().get("content-type").cloned();
    let mut response = Response::new(Body::from(answer.bytes().await.expect("a body")));
    *response.status_mut() = status;
    if let Some(ct) = content_type {
        response.headers_mut().insert(header::CONTENT_TYPE, ct);
    }
    response
}

/// How many transactions the service holds (the default window: the last 12 months).
async fn transaction_count(client: &Client) -> u64 {
    client
        .list_transactions(&TransactionFilter::default(), PageParams::new(1, 1))
        .await
        .expect("transactions list")
        .total
}

/// The first hundred exemptions of customer `id`.
async fn exemptions_of(
    client: &Client,
    id: &str,
) -> taxdash::model::Page<taxdash::model::Exemption> {
    let filter = ExemptionFilter {
        customer_id: Some(id.to_owned()),
        ..ExemptionFilter::default()
    };
    client
        .list_exemptions(&filter, PageParams::new(1, 100))
        .await
        .unwrap()
}

/// The results file's lines after its header, each as `row,outcome`.
fn outcomes(results: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(results).expect("a results file");
    reader
        .records()
        .map(|r| {
            let r = r.expect("a line");
            format!("{},{}", &r[0], &r[1])
        })
        .collect()
}

/// The rows' final outcomes, in row order.
fn finals(results: &Path) -> Vec<String> {
    let mut last = std::collections::BTreeMap::new();
    for line in outcomes(results) {
        let (row, outcome) = line.split_once(',').expect("row,outcome");
        last.insert(row.parse::<u64>().expect("a row"), outcome.to_owned());
    }
    last.into_iter().map(|(r, o)| format!("{r},{o}")).collect()
}

#[tokio::test]
async fn every_format_creates_the_same_transactions_exactly_once() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let before = transaction_count(&client).await;
    for (i, name) in [
        "transactions.csv",
        "transactions-excel.csv",
        "transactions.json",
        "transactions.jsonl",
    ]
    .into_iter()
    .enumerate()
    {
        let dir = tempfile::tempdir().unwrap();
        let file = copy(name, dir.path());
        // Each format under its own external ids.
        let body = std::fs::read_to_string(&file)
            .unwrap()
            .replace("FMT-", &format!("F{i}-"));
        std::fs::write(&file, body).unwrap();
        let output = taxdash(
            &sandbox.base_url(),
            dir.path(),
            &["import", "transactions", name],
        )
        .await;
        assert!(output.status.success(), "{name}: {}", text(&output.stderr));
        assert_eq!(
            text(&output.stdout),
            format!("imported 3 transactions: 3 created; results in {name}.results.csv\n")
        );
        let results = dir.path().join(format!("{name}.results.csv"));
        let done = finals(&results);
        let rows = if name == "transactions.jsonl" {
            ["1,created", "2,created", "4,created"]
        } else {
            ["2,created", "3,created", "4,created"]
        };
        assert_eq!(done, rows, "{name}");
        // Each row sent is in the audit log, with its answer.
        let audit = taxdash(
            &sandbox.base_url(),
            dir.path(),
            &["audit", "--format", "jsonl"],
        )
        .await;
        assert!(audit.status.success(), "{}", text(&audit.stderr));
        let entries: Vec<serde_json::Value> = text(&audit.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(entries.len(), 3, "{name}: {entries:?}");
        for e in &entries {
            assert_eq!(e["method"], "POST", "{e}");
            assert_eq!(e["outcome"], "ok", "{e}");
        }
        for n in 1..=3 {
            let t = client
                .get_transaction_by_external_id(&format!("F{i}-{n}"))
                .await
                .expect("the transaction exists");
            if n == 1 {
                assert_eq!(t.total_amount.unwrap().to_string(), "120.00", "{name}");
                assert_eq!(t.state.as_deref(), Some("TX"));
                let customer = t.customer.expect("a customer");
                assert_eq!(customer.external_id.as_deref(), Some("crm-1"));
            }
        }
    }
    assert_eq!(transaction_count(&client).await, before + 12);
    sandbox.stop().await;
}

/// Each resource with an external id imported twice without --resume: the second run sends
/// nothing, says `exists` for each row with what matched it, and exits 0; the service holds
/// one record per external id; each results file has one line per row.
#[tokio::test]
async fn an_import_run_twice_finds_every_row_and_makes_nothing_twice() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let before = transaction_count(&client).await;
    let dir = tempfile::tempdir().unwrap();
    copy("customers.csv", dir.path());
    copy("physical-nexus.csv", dir.path());
    let sales = copy("transactions.csv", dir.path());
    let body = std::fs::read_to_string(&sales).unwrap();
    std::fs::write(&sales, body.replace("FMT-", "TWICE-")).unwrap();
    let runs = [
        ("customers", &["crm-9001", "crm-9002"][..]),
        ("physical-nexus", &["wh-reno", "office-pdx"][..]),
        ("transactions", &["TWICE-1", "TWICE-2", "TWICE-3"][..]),
    ];
    for (resource, external_ids) in runs {
        let file = if resource == "transactions" {
            "transactions.csv".to_owned()
        } else {
            format!("{resource}.csv")
        };
        let n = external_ids.len();
        let results = dir.path().join(format!("{file}.results.csv"));
        let (base, args) = (sandbox.base_url(), ["import", resource, file.as_str()]);
        let first = succeeds(&base, dir.path(), &args).await;
        assert_eq!(
            text(&first.stdout),
            format!("imported {n} {resource}: {n} created; results in {file}.results.csv\n")
        );
        assert_eq!(outcomes(&results).len(), n, "one line per row");

        let second = succeeds(&base, dir.path(), &args).await;
        assert_eq!(
            text(&second.stdout),
            format!(
                "imported {n} {resource}: {n} already there by external_id; results in \
                 {file}.results.csv\n"
            )
        );
        let mut reader = csv::Reader::from_path(&results).unwrap();
        let lines: Vec<(String, String, String)> = reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                (r[1].to_owned(), r[3].to_owned(), r[4].to_owned())
            })
            .collect();
        let expected: Vec<(String, String, String)> = external_ids
            .iter()
            .map(|id| {
                (
                    "exists".to_owned(),
                    (*id).to_owned(),
                    format!("matched by external_id {id}"),
                )
            })
            .collect();
        assert_eq!(
            lines, expected,
            "{resource}: one line per row, in row order"
        );
        assert!(
            !dir.path()
                .join(format!("{file}.results.csv.journal"))
                .exists()
        );
    }

    for id in ["crm-9001", "crm-9002"] {
        let filter = CustomerFilter {
            search_query: Some(id.to_owned()),
            ..CustomerFilter::default()
        };
        let found = client
            .list_customers(&filter, PageParams::new(1, 100))
            .await
            .unwrap()
            .items;
        let same = found
            .iter()
            .filter(|c| c.external_id.as_deref() == Some(id))
            .count();
        assert_eq!(same, 1, "one customer with external_id {id}");
    }
    let places = client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items;
    for id in ["wh-reno", "office-pdx"] {
        let same = places
            .iter()
            .filter(|p| p.external_id.as_deref() == Some(id))
            .count();
        assert_eq!(same, 1, "one physical nexus with external_id {id}");
    }
    assert_eq!(
        transaction_count(&client).await,
        before + 3,
        "each sale once"
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn bad_rows_of_every_kind_are_reported_and_nothing_is_sent() {
    let sandbox = sandbox().await;
    let (url, served) = relay(&sandbox.base_url(), usize::MAX).await;
    let dir = tempfile::tempdir().unwrap();
    copy("transactions-bad.csv", dir.path());

    let output = taxdash(
        &url,
        dir.path(),
        &[
            "import",
            "transactions",
            "transactions-bad.csv",
            "--dry-run",
        ],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    let report = text(&output.stdout);
    for expected in [
        "row 2, column date, value \"2026-02-30\": Input should be a valid date in the format \
         YYYY-MM-DD; day 30 is out of range for February 2026, which has 28 days",
        "row 3, column total_amount, value \"12,50\": a decimal is written with a point",
        "row 4, column type, value \"SOLD\": Input should be 'SALE'",
        "row 5, column external_id, value \"BAD-3\": external_id repeats row 4",
        "row 6, column customer_email, value \"not-an-email\": email must be an email address",
        "6 rows of transactions: 1 ready, 5 with problems",
    ] {
        assert!(report.contains(expected), "{expected}\nin:\n{report}");
    }
    assert!(
        text(&output.stderr).contains("nothing was sent"),
        "{}",
        text(&output.stderr)
    );

    // A real run refuses too, and so does a file missing a column or naming an unknown one.
    let output = taxdash(
        &url,
        dir.path(),
        &["import", "transactions", "transactions-bad.csv"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("row 3, column total_amount"));
    std::fs::write(
        dir.path().join("shape.csv"),
        "external_id,date,type,total_amount,colour\nS-1,2026-11-02,SALE,1,red\n",
    )
    .unwrap();
    let output = taxdash(
        &url,
        dir.path(),
        &["import", "transactions", "shape.csv", "--skip-invalid"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("row 1, column colour: unknown column"),
        "{stderr}"
    );
    assert!(
        stderr.contains("row 1, column external_product_id: missing column"),
        "{stderr}"
    );
    assert_eq!(served.load(Ordering::SeqCst), 0, "not one request");
    assert!(!dir.path().join("shape.csv.results.csv").exists());

    // --skip-invalid sends the one good row and records the others.
    succeeds(
        &url,
        dir.path(),
        &[
            "import",
            "transactions",
            "transactions-bad.csv",
            "--skip-invalid",
        ],
    )
    .await;
    let results = dir.path().join("transactions-bad.csv.results.csv");
    assert_eq!(
        finals(&results),
        [
            "2,invalid",
            "3,invalid",
            "4,invalid",
            "5,invalid",
            "6,invalid",
            "7,created"
        ]
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn a_run_whose_answers_are_lost_half_way_resumes_without_a_duplicate() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let before = transaction_count(&client).await;
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from(
        "external_id,date,type,currency,total_amount,external_product_id,state,country\n",
    );
    for n in 1..=20 {
        let _ = writeln!(csv, "RES-{n},2026-11-05,SALE,USD,{n}.00,sku-{n},TX,US");
    }
    std::fs::write(dir.path().join("sales.csv"), csv).unwrap();

    // The service carries out every request, but after the 8th write no answer comes back.
    let (url, _) = relay(&sandbox.base_url(), 8).await;
    let output = taxdash(&url, dir.path(), &["import", "transactions", "sales.csv"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("--resume sends them again"),
        "{}",
        text(&output.stderr)
    );
    let results = dir.path().join("sales.csv.results.csv");
    let first = finals(&results);
    let failed = first.iter().filter(|l| l.ends_with(",failed")).count();
    assert!(
        failed >= 12,
        "the lost answers failed their rows: {first:?}"
    );
    assert_eq!(
        transaction_count(&client).await,
        before + 20,
        "the service made every one"
    );

    let output = succeeds(
        &sandbox.base_url(),
        dir.path(),
        &[
            "import",
            "transactions",
            "sales.csv",
            "--resume",
            "sales.csv.results.csv",
        ],
    )
    .await;
    assert_eq!(
        text(&output.stdout),
        format!(
            "imported {failed} transactions: {failed} already there by external_id ({} done \
             before); results in sales.csv.results.csv\n",
            20 - failed
        )
    );
    let done = finals(&results);
    assert_eq!(done.len(), 20);
    assert!(
        done.iter()
            .all(|l| l.ends_with(",created") || l.ends_with(",exists"))
    );
    assert_eq!(
        transaction_count(&client).await,
        before + 20,
        "no duplicate"
    );
    for n in 1..=20 {
        client
            .get_transaction_by_external_id(&format!("RES-{n}"))
            .await
            .expect("each external id once");
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn a_lost_physical_nexus_answer_is_found_on_resume_not_made_twice() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let dir = tempfile::tempdir().unwrap();
    copy("physical-nexus.csv", dir.path());
    let count = |state: &'static str| {
        let client = client.clone();
        async move {
            let filter = PhysicalNexusFilter {
                country_code: Some("US".into()),
                state_code: Some(state.into()),
                ..PhysicalNexusFilter::default()
            };
            client
                .list_physical_nexus(&filter, PageParams::new(1, 100))
                .await
                .unwrap()
                .total
        }
    };
    let (nv, or) = (count("NV").await, count("OR").await);
    // The first create is answered, the second is made but its answer lost.
    let (url, _) = relay(&sandbox.base_url(), 1).await;
    let output = taxdash(
        &url,
        dir.path(),
        &["import", "physical-nexus", "physical-nexus.csv"],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    let results = dir.path().join("physical-nexus.csv.results.csv");
    // Both rows travel at once: which one lost its answer is not fixed.
    let first = finals(&results);
    let mut outcomes: Vec<&str> = first.iter().map(|l| &l[2..]).collect();
    outcomes.sort_unstable();
    assert_eq!(outcomes, ["created", "failed"]);
    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &[
            "import",
            "physical-nexus",
            "physical-nexus.csv",
            "--resume",
            "physical-nexus.csv.results.csv",
        ],
    )
    .await;
    let expected: Vec<String> = first
        .iter()
        .map(|l| l.replace("failed", "exists"))
        .collect();
    assert_eq!(finals(&results), expected);
    assert_eq!((count("NV").await, count("OR").await), (nv + 1, or + 1));
    sandbox.stop().await;
}

#[tokio::test]
async fn physical_nexus_exported_edited_and_imported_updates_the_records() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let dir = tempfile::tempdir().unwrap();
    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["export", "physical-nexus", "--out", "pn.csv"],
    )
    .await;
    let exported = std::fs::read_to_string(dir.path().join("pn.csv")).unwrap();
    let rows = exported.lines().count() - 1;
    assert!(rows >= 2, "{exported}");

    // The spreadsheet edit: the first record moves to another city.
    let mut reader = csv::Reader::from_reader(exported.as_bytes());
    let header = reader.headers().unwrap().clone();
    let city = header.iter().position(|h| h == "city").unwrap();
    let mut writer = csv::Writer::from_path(dir.path().join("pn.csv")).unwrap();
    writer.write_record(&header).unwrap();
    let mut first_id = String::new();
    for (i, record) in reader.records().enumerate() {
        let mut record: Vec<String> = record.unwrap().iter().map(str::to_owned).collect();
        if i == 0 {
            record[city] = "Springfield".into();
            first_id = record[0].clone();
        }
        writer.write_record(&record).unwrap();
    }
    writer.flush().unwrap();

    let output = succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["import", "physical-nexus", "pn.csv"],
    )
    .await;
    assert_eq!(
        text(&output.stdout),
        format!("imported {rows} physical-nexus: {rows} updated; results in pn.csv.results.csv\n")
    );
    let all = client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap();
    assert_eq!(all.total as usize, rows, "nothing created");
    let first = all.items.iter().find(|p| p.id == first_id).unwrap();
    assert_eq!(first.city.as_deref(), Some("Springfield"));

    // Exported again, the file is the edited one.
    let output = taxdash(
        &sandbox.base_url(),
        dir.path(),
        &["export", "physical-nexus"],
    )
    .await;
    assert_eq!(
        text(&output.stdout),
        std::fs::read_to_string(dir.path().join("pn.csv")).unwrap()
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn customers_get_their_tax_ids_and_exemptions_their_certificate() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let dir = tempfile::tempdir().unwrap();
    copy("customers.csv", dir.path());
    copy("resale-cert.pdf", dir.path());
    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["import", "customers", "customers.csv"],
    )
    .await;
    for (external_id, tax_id) in [("crm-9001", "GB123456789"), ("crm-9002", "FR12345678901")] {
        let customer = client
            .get_customer_by_external_id(external_id)
            .await
            .unwrap();
        let tax_ids: Vec<String> = customer
            .customer_tax_registrations
            .unwrap_or_default()
            .into_iter()
            .map(|t| t.tax_id)
            .collect();
        assert_eq!(tax_ids, [tax_id], "{external_id}");
    }

    let customer = client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    std::fs::write(
        dir.path().join("exemptions.csv"),
        format!(
            "exemption_type,status,start_date,end_date,customer_id,FEIN,sales_tax_id,jurisdiction,country_code,reseller,certificate\n\
             wholesale,ACTIVE,2026-01-01,2027-12-31,{id},12-3456789,SR-IMPORT-1,TX,US,true,resale-cert.pdf\n\
             customer,ACTIVE,2026-02-01,,{id},98-7654321,SR-IMPORT-2,CA,US,false,\n",
            id = customer.id
        ),
    )
    .unwrap();
    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["import", "exemptions", "exemptions.csv"],
    )
    .await;
    let mine = exemptions_of(&client, &customer.id).await.items;
    let made = mine
        .iter()
        .find(|e| e.sales_tax_id.as_deref() == Some("SR-IMPORT-1"))
        .expect("the exemption was made");
    let attachments = client.list_attachments(&made.id).await.unwrap();
    assert_eq!(attachments.len(), 1);
    assert!(
        mine.iter()
            .any(|e| e.sales_tax_id.as_deref() == Some("SR-IMPORT-2"))
    );

    // Exemptions have no external id: a second run matches them by their fields.
    let output = succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["import", "exemptions", "exemptions.csv"],
    )
    .await;
    assert_eq!(
        text(&output.stdout),
        "imported 2 exemptions: 2 already there by customer, sales tax id, type and start \
         date; results in exemptions.csv.results.csv\n"
    );
    let again = exemptions_of(&client, &customer.id).await;
    assert_eq!(again.total, mine.len() as u64, "nothing made twice");
    sandbox.stop().await;
}

#[cfg(unix)]
#[tokio::test]
async fn ctrl_c_finishes_the_rows_in_flight_and_resume_sends_the_rest() {
    use taxdash::sandbox::SandboxConfig;

    // Slow answers: the run takes seconds, so the interrupt lands in the middle of it.
    let sandbox = crate::common::sandbox_with(SandboxConfig {
        latency: Duration::from_millis(150),
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    let client = client(&sandbox.base_url());
    let before = transaction_count(&client).await;
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("external_id,date,type,currency,total_amount,external_product_id\n");
    for n in 1..=40 {
        let _ = writeln!(csv, "INT-{n},2026-11-06,SALE,USD,{n}.00,sku-{n}");
    }
    std::fs::write(dir.path().join("sales.csv"), csv).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args([
            "--today",
            &DEMO_ANCHOR.to_string(),
            "import",
            "transactions",
        ])
        .arg("sales.csv")
        .current_dir(dir.path())
        .env("TAXDASH_CONFIG", empty_config())
        .env("TAXDASH_BASE_URL", sandbox.base_url())
        .env("TAXDASH_API_KEY", ORG1.1)
        .env("TAXDASH_ORGANIZATION_ID", ORG1.0)
        .env("TAXDASH_HISTORY", dir.path().join("history.db"))
        .env_remove("TAXDASH_PROFILE")
        .kill_on_drop(true)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let results = dir.path().join("sales.csv.results.csv");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&results).map_or(0, |t| t.matches(",created,").count()) < 8 {
        assert!(started.elapsed() < Duration::from_secs(20), "rows are sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let id = child.id().expect("still running").to_string();
    let signalled = std::process::Command::new("kill")
        .args(["-INT", &id])
        .status()
        .unwrap();
    assert!(signalled.success());
    let output = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("stops promptly")
        .unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        "taxdash: interrupted; --resume sales.csv.results.csv sends the rest\n"
    );
    let first = finals(&results);
    assert!(
        first.iter().all(|l| l.ends_with(",created")),
        "every row started was finished and written: {first:?}"
    );
    assert!(first.len() < 40, "stopped half way: {}", first.len());

    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &[
            "import",
            "transactions",
            "sales.csv",
            "--resume",
            "sales.csv.results.csv",
        ],
    )
    .await;
    let done = finals(&results);
    assert_eq!(done.len(), 40);
    assert!(done.iter().all(|l| l.ends_with(",created")), "{done:?}");
    assert_eq!(
        transaction_count(&client).await,
        before + 40,
        "no duplicate"
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn a_credit_note_row_credits_the_sale_it_names() {
    let sandbox = sandbox().await;
    let client = client(&sandbox.base_url());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("sale.csv"),
        "external_id,date,type,status,currency,total_amount,external_product_id,state,country\n\
         CN-SALE,2026-11-02,SALE,COMMITTED,USD,100.00,sku-desk,TX,US\n",
    )
    .unwrap();
    succeeds(
        &sandbox.base_url(),
        dir.path(),
        &["import", "transactions", "sale.csv"],
    )
    .await;
    let sale = client
        .get_transaction_by_external_id("CN-SALE")
        .await
        .unwrap();

    std::fs::write(
        dir.path().join("notes.csv"),
        format!(
            "external_id,date,type,status,currency,total_amount,external_product_id,related_to\n\
             CN-1,2026-11-05,PARTIAL_CREDIT_NOTE,COMMITTED,USD,40.00,sku-desk,{id}\n\
             CN-2,2026-11-06,PARTIAL_CREDIT_NOTE,COMMITTED,USD,10.00,sku-chair,{id}\n",
            id = sale.id
        ),
    )
    .unwrap();
    let output = taxdash(
        &sandbox.base_url(),
        dir.path(),
        &["import", "transactions", "notes.csv"],
    )
    .await;
    assert_eq!(
        output.status.code(),
        Some(1),
        "one line credits no line of the sale"
    );
    let results = dir.path().join("notes.csv.results.csv");
    assert_eq!(finals(&results), ["2,created", "3,failed"]);
    let refused = std::fs::read_to_string(&results).unwrap();
    assert!(refused.contains("sku-chair is not sold on"), "{refused}");
    let note = client.get_transaction_by_external_id("CN-1").await.unwrap();
    assert_eq!(note.related_to.as_deref(), Some(sale.id.as_str()));
    assert_eq!(note.total_amount.unwrap().to_string(), "40.00");
    sandbox.stop().await;
}

#[tokio::test]
async fn demo_imports_on_the_embedded_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    copy("exemptions.csv", dir.path());
    copy("resale-cert.pdf", dir.path());
    let output = Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["--demo", "import", "exemptions", "exemptions.csv"])
        .current_dir(dir.path())
        .env("TAXDASH_CONFIG", empty_config())
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "imported 2 exemptions: 2 created; results in exemptions.csv.results.csv\n"
    );
}
