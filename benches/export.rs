//! `taxdash export transactions --from 2000-01-01` of 100,000 transactions (the sandbox at
//! `--scale 10`) to a CSV file in a temporary directory, over loopback, in one process:
//!
//! (a) paced: the sandbox limits the key to 10,000 requests a minute and the client paces itself
//!     to the same documented limit. 1,000 pages of 100 cannot take less than 1,000 × 6 ms, about
//!     6.0 s (the floor); the target is within 105 % of it, without a single 429;
//! (b) unpaced: both limits off, so the figure is the client's (and this machine's) own ceiling.
//!
//! Run: `cargo bench --bench export` (env `BENCH_SCALE` to vary the size, `BENCH_FORMAT`
//! `csv`/`json`/`jsonl`, `BENCH_CONCURRENCY` for the pages in flight).

use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use indicatif::ProgressBar;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::effect::{Format, ListQuery};
use taxdash::export::{ExportJob, FilterFlags, export_to_file};
use taxdash::model::Resource;
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

struct Run {
    elapsed: Duration,
    requests: u64,
    rate_limited: u64,
    retries: u64,
    rows: u64,
    bytes: u64,
}

/// Starts a sandbox with `sandbox_limit` (0: none), exports with a client paced at
/// `client_limit` (None: not paced), stops the sandbox.
async fn measure(scale: u32, format: Format, sandbox_limit: u32, client_limit: Option<u32>) -> Run {
    let started = Instant::now();
    let config = SandboxConfig {
        scale,
        rate_limit_per_min: sandbox_limit,
        ..SandboxConfig::default()
    };
    let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts");
    eprintln!(
        "  (sandbox ready in {:.1} s)",
        started.elapsed().as_secs_f64()
    );

    let (org, key) = DEMO_CREDENTIALS[0];
    let mut client_config = ClientConfig::new(
        Url::parse(&sandbox.base_url()).expect("a URL"),
        org,
        ApiKey::new(key).expect("a key"),
    );
    client_config.rate_limit_per_min = client_limit.and_then(NonZeroU32::new);
    let client = Client::new(client_config).expect("client builds");

    let flags = FilterFlags {
        from: NaiveDate::from_ymd_opt(2000, 1, 1),
        ..FilterFlags::default()
    };
    let query = ListQuery::from_flags(Resource::Transactions, &flags).expect("filters apply");
    let mut job = ExportJob::new(query, format);
    job.concurrency = env_or("BENCH_CONCURRENCY", ExportJob::DEFAULT_CONCURRENCY);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("transactions.out");

    let started = Instant::now();
    let summary = export_to_file(&client, &job, &out, &ProgressBar::hidden())
        .await
        .expect("the export succeeds");
    let elapsed = started.elapsed();
    let stats = client.stats();
    let bytes = std::fs::metadata(&out).map_or(0, |m| m.len());
    assert_eq!(summary.rows, summary.total, "every row was written");
    sandbox.stop().await;
    Run {
        elapsed,
        requests: stats.requests,
        rate_limited: stats.rate_limited,
        retries: stats.retries,
        rows: summary.rows,
        bytes,
    }
}

fn print(label: &str, run: &Run) {
    let secs = run.elapsed.as_secs_f64();
    println!("{label}");
    println!(
        "  elapsed {secs:.2} s, {} requests ({:.0}/s), {} × 429, {} retries",
        run.requests,
        run.requests as f64 / secs,
        run.rate_limited,
        run.retries
    );
    println!(
        "  {} rows ({:.0} rows/s), {:.1} MiB written",
        run.rows,
        run.rows as f64 / secs,
        run.bytes as f64 / (1024.0 * 1024.0)
    );
}

/// Peak resident memory of this process (sandbox included), where /proc tells it.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kib / 1024)
}

#[tokio::main]
async fn main() {
    let scale: u32 = env_or("BENCH_SCALE", 10);
    let format = match std::env::var("BENCH_FORMAT").as_deref() {
        Ok("json") => Format::Json,
        Ok("jsonl") => Format::Jsonl,
        _ => Format::Csv,
    };
    println!(
        "export of {} transactions as {format:?}, {} pages in flight",
        10_000 * u64::from(scale),
        env_or("BENCH_CONCURRENCY", ExportJob::DEFAULT_CONCURRENCY)
    );

    eprintln!("(a) paced at {LIMIT}/min on both sides...");
    let paced = measure(scale, format, LIMIT, Some(LIMIT)).await;
    // Each request has its 60/LIMIT s slot: 1,000 requests need 6.0 s.
    let floor = Duration::from_secs_f64(paced.requests as f64 * 60.0 / f64::from(LIMIT));
    print(
        &format!("(a) rate limits at {LIMIT}/min (sandbox and client)"),
        &paced,
    );
    let ratio = paced.elapsed.as_secs_f64() / floor.as_secs_f64().max(f64::EPSILON);
    println!(
        "  floor {:.2} s ({} requests at {LIMIT}/min): {:.1} % of the floor; target <= 105 % and \
         no 429: {}",
        floor.as_secs_f64(),
        paced.requests,
        ratio * 100.0,
        if ratio <= 1.05 && paced.rate_limited == 0 {
            "met"
        } else {
            "MISSED"
        }
    );

    eprintln!("(b) no limits...");
    let free = measure(scale, format, 0, None).await;
    print("(b) no rate limits (the client's own ceiling)", &free);
    if let Some(mib) = peak_rss_mib() {
        println!("peak memory of the process, sandbox included: {mib} MiB");
    }
}
