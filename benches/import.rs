//! `taxdash import transactions` of 10,000 sales (`BENCH_ROWS`) from a CSV file, against the
//! sandbox over loopback, in one process: the sandbox limits the key to its default 10,000
//! requests a minute and the client paces itself to the same documented limit. Each row is looked
//! up by its external id, then created: 20,000 requests cannot take less than 20,000 × 6 ms =
//! 120 s (the floor); the target is within 105 % of it, without a single 429. The file is read
//! and every row checked first (timed apart).
//!
//! Run: `cargo bench --bench import` (env `BENCH_ROWS`, `BENCH_CONCURRENCY` for the rows in
//! flight).

use std::fmt::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::effect::ImportResource;
use taxdash::import::results::Results;
use taxdash::import::send::{self, DEFAULT_CONCURRENCY};
use taxdash::import::{InputFormat, check, parse};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use url::Url;

/// The documented rate limit, per minute.
const LIMIT: u32 = ClientConfig::SERVICE_RATE_LIMIT_PER_MIN;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `rows` sales in the import's CSV columns.
fn file(rows: usize) -> String {
    let mut csv = String::from(
        "external_id,date,type,status,currency,total_amount,external_product_id,quantity,\
         city,state,postal_code,country,customer_external_id\n",
    );
    for n in 0..rows {
        let _ = writeln!(
            csv,
            "BENCH-{n},2026-11-{:02},SALE,COMMITTED,USD,{}.{:02},sku-{},{},Austin,TX,78701,US,crm-{}",
            n % 28 + 1,
            n % 500 + 1,
            n % 100,
            n % 40,
            n % 5 + 1,
            n % 200
        );
    }
    csv
}

#[tokio::main]
async fn main() {
    let rows: usize = env_or("BENCH_ROWS", 10_000);
    let concurrency: usize = env_or("BENCH_CONCURRENCY", DEFAULT_CONCURRENCY);
    println!("import of {rows} transactions, {concurrency} rows in flight");

    let config = SandboxConfig {
        rate_limit_per_min: LIMIT,
        ..SandboxConfig::default()
    };
    let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts");
    let (org, key) = DEMO_CREDENTIALS[0];
    let mut client_config = ClientConfig::new(
        Url::parse(&sandbox.base_url()).expect("a URL"),
        org,
        ApiKey::new(key).expect("a key"),
    );
    client_config.rate_limit_per_min = NonZeroU32::new(LIMIT);
    let client = Client::new(client_config).expect("client builds");

    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = file(rows);
    let started = Instant::now();
    let table = parse::read(text.as_bytes(), InputFormat::Csv).expect("the file reads");
    let report = check(ImportResource::Transactions, &table, dir.path());
    let checking = started.elapsed();
    assert!(
        report.is_clean(),
        "{}",
        report.describe(ImportResource::Transactions)
    );
    let results = Results::create(&dir.path().join("bench.csv.results.csv")).expect("results");
    let (jobs, _) = send::resume(report.planned, &std::collections::HashMap::new());

    let started = Instant::now();
    let sent = send::send(
        &client,
        jobs,
        concurrency,
        &results,
        &ProgressBar::hidden(),
        &AtomicBool::new(false),
    )
    .await
    .expect("the results are written");
    let elapsed = started.elapsed();
    let stats = client.stats();
    sandbox.stop().await;

    let floor = Duration::from_secs_f64(stats.requests as f64 * 60.0 / f64::from(LIMIT));
    let ratio = elapsed.as_secs_f64() / floor.as_secs_f64().max(f64::EPSILON);
    println!(
        "  read and checked {rows} rows in {:.2} s",
        checking.as_secs_f64()
    );
    println!(
        "  sent in {:.2} s: {} created, {} failed; {} requests ({:.0}/s), {} × 429, {} retries",
        elapsed.as_secs_f64(),
        sent.created,
        sent.failed,
        stats.requests,
        stats.requests as f64 / elapsed.as_secs_f64(),
        stats.rate_limited,
        stats.retries
    );
    println!(
        "  floor {:.2} s ({} requests at {LIMIT}/min): {:.1} % of the floor; target <= 105 % and \
         no 429: {}",
        floor.as_secs_f64(),
        stats.requests,
        ratio * 100.0,
        if ratio <= 1.05 && stats.rate_limited == 0 && sent.failed == 0 {
            "met"
        } else {
            "MISSED"
        }
    );
}
