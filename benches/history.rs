//! Snapshots and their comparison:
//!
//! (a) a snapshot of the demo organization (every list a snapshot reads, and again with a year
//!     of transactions) against the sandbox, the sandbox and the client both at the documented
//!     rate limit. N requests cannot take less than N × 60/limit s (the floor); the target is
//!     within 105 % of it, without a single 429;
//! (b) the comparison of two snapshots of 100,000 records each (synthetic records written with
//!     `write_snapshot`, about 1 % of them changed), in a database file: the target is under a
//!     second;
//! (c) the database file's size per 100,000 records, for one snapshot and for a second one that
//!     shares 99 % of its bodies.
//!
//! Run: `cargo bench --bench history` (env `BENCH_RECORDS` to vary the size of (b)).

use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, Utc};
use indicatif::ProgressBar;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::history::History;
use taxdash::history::capture::{Plan, scope_of, take_snapshot};
use taxdash::history::snapshot::{Record, Scope};
use taxdash::model::Resource;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig, demo_data::DEMO_ANCHOR};
use url::Url;

/// The documented rate limit, per minute.
const LIMIT: u32 = ClientConfig::SERVICE_RATE_LIMIT_PER_MIN;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn snapshot_at_the_limit(sandbox: &Sandbox, plan: &Plan, label: &str) {
    let (org, key) = DEMO_CREDENTIALS[0];
    let mut config = ClientConfig::new(
        Url::parse(&sandbox.base_url()).expect("a URL"),
        org,
        ApiKey::new(key).expect("a key"),
    );
    config.rate_limit_per_min = NonZeroU32::new(LIMIT);
    let client = Client::new(config).expect("client builds");
    let mut history = History::in_memory();
    let scope = scope_of(&client, "bench", plan);
    let started = Instant::now();
    let taken = take_snapshot(&client, &mut history, &scope, plan, |_| {
        ProgressBar::hidden()
    })
    .await
    .expect("the snapshot is stored");
    let elapsed = started.elapsed();
    let stats = client.stats();
    let floor = Duration::from_secs_f64(stats.requests as f64 * 60.0 / f64::from(LIMIT));
    let ratio = elapsed.as_secs_f64() / floor.as_secs_f64().max(f64::EPSILON);
    println!("(a) snapshot of the demo organization, {label}");
    println!(
        "  {} records, {} requests, {} × 429, {} retries: {:.3} s; floor {:.3} s at {LIMIT}/min: \
         {:.1} % of the floor; target <= 105 % and no 429: {}",
        taken.records(),
        stats.requests,
        stats.rate_limited,
        stats.retries,
        elapsed.as_secs_f64(),
        floor.as_secs_f64(),
        ratio * 100.0,
        if ratio <= 1.05 && stats.rate_limited == 0 {
            "met"
        } else {
            "MISSED"
        }
    );
}

/// A customer-like record, about 400 bytes, `version` telling its changes apart.
fn body(i: usize, version: u32) -> String {
    format!(
        r#"{{"id":"cus_{i:06}","organization_id":"orgn_bench","name":"Customer {i} v{version}","external_id":"ext-{i}","status":"ACTIVE","email":"billing{i}@example.com","phone":"+1 555 {i:07}","street_1":"{i} Main Street","city":"Springfield","state":"IL","postal_code":"62701","country":"US","exemptions":[{{"id":"exmp_{i:06}","status":"ACTIVE"}}],"created_at":"2026-01-01T00:00:00Z"}}"#
    )
}

fn records(n: usize, changed_every: Option<usize>) -> Vec<Record> {
    (0..n)
        .map(|i| Record {
            resource: Resource::Customers,
            id: format!("cus_{i:06}"),
            body: body(i, u32::from(changed_every.is_some_and(|k| i % k == 0))),
        })
        .collect()
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// The database file and its write-ahead log.
fn size(path: &std::path::Path) -> u64 {
    let wal = path.with_extension("db-wal");
    std::fs::metadata(path).map_or(0, |m| m.len()) + std::fs::metadata(wal).map_or(0, |m| m.len())
}

fn diff_and_size(n: usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("history.db");
    let mut history = History::open(&path).expect("the database opens");
    let scope = Scope {
        profile: "bench".into(),
        organization: "orgn_bench".into(),
        api: "v1".into(),
        transactions: None,
    };
    let started = Instant::now();
    let a = history
        .write_snapshot(&scope, Utc::now(), &records(n, None))
        .expect("stored");
    let first_write = started.elapsed();
    history
        .sqlite()
        .expect("a file")
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .expect("checkpoint");
    let one = size(&path);
    let started = Instant::now();
    let b = history
        .write_snapshot(&scope, Utc::now(), &records(n, Some(100)))
        .expect("stored");
    let second_write = started.elapsed();
    history
        .sqlite()
        .expect("a file")
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .expect("checkpoint");
    let two = size(&path);

    // The first comparison reads the pages from disk into SQLite's cache; the best of five is
    // reported with the first.
    let mut times = Vec::new();
    let mut changes = 0;
    for _ in 0..5 {
        let started = Instant::now();
        let diff = history.diff(a, b).expect("read").expect("both stored");
        times.push(started.elapsed());
        changes = diff.changes.len();
    }
    let best = times.iter().min().copied().unwrap_or_default();
    println!("(b) diff of two snapshots of {n} records each, {changes} changed");
    println!(
        "  first {:.3} s, best of 5 {:.3} s; target < 1 s: {}",
        times[0].as_secs_f64(),
        best.as_secs_f64(),
        if times[0] < Duration::from_secs(1) {
            "met"
        } else {
            "MISSED"
        }
    );
    println!(
        "  (writing them took {:.2} s and {:.2} s)",
        first_write.as_secs_f64(),
        second_write.as_secs_f64()
    );
    let per = |bytes: u64| mib(bytes) * 100_000.0 / n as f64;
    println!("(c) database size");
    println!(
        "  one snapshot: {:.1} MiB ({:.1} MiB per 100,000 records); with the second: {:.1} MiB \
         (+{:.1} MiB per 100,000 records when 1 % changed)",
        mib(one),
        per(one),
        mib(two),
        per(two.saturating_sub(one))
    );
}

#[tokio::main]
async fn main() {
    taxdash::clock::fix_today(Some(DEMO_ANCHOR));
    let config = SandboxConfig {
        rate_limit_per_min: LIMIT,
        anchor: Some(DEMO_ANCHOR),
        ..SandboxConfig::default()
    };
    let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts");
    snapshot_at_the_limit(&sandbox, &Plan::new(None), "(the lists, no transactions)").await;
    let year = (
        NaiveDate::from_ymd_opt(2025, 11, 16).expect("a day"),
        DEMO_ANCHOR,
    );
    snapshot_at_the_limit(
        &sandbox,
        &Plan::new(Some(year)),
        "with a year of transactions",
    )
    .await;
    sandbox.stop().await;

    diff_and_size(env_or("BENCH_RECORDS", 100_000));
}
