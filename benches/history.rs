//! Snapshots and their comparison:
//!
//! (a) a snapshot of the demo organization (every list a snapshot reads, and again with a year
//!     of transactions) against the sandbox, the sandbox and the client both at the documented
//!     rate limit. N requests cannot take less than N × 60/limit s (the floor); the target is
//!     within 105 % of it, without a single 429;
//! (b) the comparison of two snapshots of 100,000 records each (synthetic records written with
//!     `write_snapshot`, about 1 % of them changed), in a database file: the target is under a
//!     second;
//! (c) the database's size per 100,000 records, for one snapshot and for a second one that
//!     shares 99 % of its bodies;
//! (d) the cost of an audited write: recording it before it is sent and completing it with its
//!     answer, the median of 200.
//!
//! Each runs on both stores side by side: the `SQLite` file, and a fresh database of the
//! `PostgreSQL` server `TAXDASH_TEST_POSTGRES` names (on loopback: `bash .ci/pg start DIR`
//! prints one); without a server the server's lines say so.
//!
//! Run: `cargo bench --bench history` (env `BENCH_RECORDS` to vary the size of (b)).

use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, Utc};
use indicatif::ProgressBar;
use taxdash::api::{Client, ClientConfig};
use taxdash::api::{Generation, SentBody, WriteAnswer, WriteOutcome, WriteSent};
use taxdash::credentials::ApiKey;
use taxdash::history::capture::{Plan, scope_of, take_snapshot};
use taxdash::history::snapshot::{Record, Scope};
use taxdash::history::{AuditLog, History, Location};
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

/// A history on each store: a file in `dir`, and a fresh database of the test server when there
/// is one. Opened on a blocking thread (a server's client must not start inside the runtime).
fn stores(dir: &std::path::Path, label: &str) -> Vec<(&'static str, History)> {
    let mut out = vec![(
        "file",
        History::open(&dir.join(format!("{label}.db"))).expect("the file opens"),
    )];
    if let Some(url) = taxdash::history::server::testing::fresh_database(label) {
        let location = Location::parse(std::ffi::OsStr::new(&url)).expect("a URL");
        out.push((
            "server",
            History::open_at(&location).expect("the server's history opens"),
        ));
    }
    out
}

async fn snapshot_at_the_limit(
    sandbox: &Sandbox,
    plan: &Plan,
    label: &str,
    store: &str,
    mut history: History,
) {
    let (org, key) = DEMO_CREDENTIALS[0];
    let mut config = ClientConfig::new(
        Url::parse(&sandbox.base_url()).expect("a URL"),
        org,
        ApiKey::new(key).expect("a key"),
    );
    config.rate_limit_per_min = NonZeroU32::new(LIMIT);
    let client = Client::new(config).expect("client builds");
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
    println!("(a) snapshot of the demo organization, {label}, into the {store}");
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
    println!(
        "  of which staging pages as they came {:.3} s, writing the snapshot {:.3} s",
        taken.staging.as_secs_f64(),
        taken.writing.as_secs_f64()
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

/// Stores `records` as one snapshot the way a snapshot read from the service is stored: a page
/// of 100 at a time, then the snapshot pointing at them.
fn store_snapshot(history: &mut History, scope: &Scope, records: &[Record]) -> i64 {
    history.begin_staged_snapshot().expect("staging begins");
    for page in records.chunks(100) {
        let staged: Vec<(Record, [u8; 32])> = page
            .iter()
            .map(|r| (r.clone(), taxdash::history::snapshot::hash_of(&r.body)))
            .collect();
        history.stage_records(&staged).expect("a page is staged");
    }
    history
        .write_staged_snapshot(scope, Utc::now())
        .expect("stored")
}

/// The history's size on disk: the file and its write-ahead log, or the server's tables.
fn stored_size(history: &History) -> u64 {
    if let Some(conn) = history.sqlite() {
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .expect("checkpoint");
        let path = history.place().file().expect("a file").to_owned();
        let wal = path.with_extension("db-wal");
        return std::fs::metadata(&path).map_or(0, |m| m.len())
            + std::fs::metadata(wal).map_or(0, |m| m.len());
    }
    taxdash::history::server::store::tables_size(history).expect("the size is read")
}

fn diff_and_size(store: &str, mut history: History, n: usize) {
    let scope = Scope {
        profile: "bench".into(),
        organization: "orgn_bench".into(),
        api: "v1".into(),
        transactions: None,
    };
    let started = Instant::now();
    let a = store_snapshot(&mut history, &scope, &records(n, None));
    let first_write = started.elapsed();
    let one = stored_size(&history);
    let started = Instant::now();
    let b = store_snapshot(&mut history, &scope, &records(n, Some(100)));
    let second_write = started.elapsed();
    let two = stored_size(&history);

    // The first comparison reads the pages from disk into the cache; the best of five is
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
    println!("(b) diff of two snapshots of {n} records each, {changes} changed, in the {store}");
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
        "  (storing them a page at a time took {:.2} s and {:.2} s)",
        first_write.as_secs_f64(),
        second_write.as_secs_f64()
    );
    let per = |bytes: u64| mib(bytes) * 100_000.0 / n as f64;
    println!("(c) size of the {store}");
    println!(
        "  one snapshot: {:.1} MiB ({:.1} MiB per 100,000 records); with the second: {:.1} MiB \
         (+{:.1} MiB per 100,000 records when 1 % changed)",
        mib(one),
        per(one),
        mib(two),
        per(two.saturating_sub(one))
    );
}

/// (d): recording a write before it is sent and completing it with its answer.
fn audited_write(store: &str, history: History) {
    let log = AuditLog::new(history);
    let write = WriteSent {
        method: "PATCH",
        path: "/v1/nexus/US-TX",
        resource: "nexus",
        record_id: Some("US-TX"),
        organization: "",
        generation: Generation::V1,
        body: SentBody::None,
    };
    let answer = WriteAnswer {
        outcome: WriteOutcome::Ok,
        status: Some(200),
        record_id: None,
        request_id: Some("req_bench".into()),
        error: None,
    };
    let mut times: Vec<Duration> = (0..200)
        .map(|_| {
            let started = Instant::now();
            let id = log
                .record_sent("bench", "orgn_bench", &write)
                .expect("recorded");
            log.record_answer(id, &answer).expect("completed");
            started.elapsed()
        })
        .collect();
    times.sort();
    println!("(d) an audited write in the {store}: recorded, then completed");
    println!(
        "  median {:.2} ms, 95th {:.2} ms of 200 (what it adds to a change sent)",
        times[100].as_secs_f64() * 1000.0,
        times[190].as_secs_f64() * 1000.0
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
    let dir = tempfile::tempdir().expect("a temporary directory");
    let year = (
        NaiveDate::from_ymd_opt(2025, 11, 16).expect("a day"),
        DEMO_ANCHOR,
    );
    let opened = {
        let dir = dir.path().to_owned();
        tokio::task::spawn_blocking(move || stores(&dir, "bench_a"))
            .await
            .expect("opened")
    };
    for (store, history) in opened {
        snapshot_at_the_limit(
            &sandbox,
            &Plan::new(None),
            "(the lists, no transactions)",
            store,
            history,
        )
        .await;
    }
    let opened = {
        let dir = dir.path().to_owned();
        tokio::task::spawn_blocking(move || stores(&dir, "bench_y"))
            .await
            .expect("opened")
    };
    for (store, history) in opened {
        snapshot_at_the_limit(
            &sandbox,
            &Plan::new(Some(year)),
            "with a year of transactions",
            store,
            history,
        )
        .await;
    }
    sandbox.stop().await;

    let dir = dir.path().to_owned();
    tokio::task::spawn_blocking(move || {
        for (store, history) in stores(&dir, "bench_d") {
            audited_write(store, history);
        }
        let n = env_or("BENCH_RECORDS", 100_000);
        for (store, history) in stores(&dir, "bench_b") {
            diff_and_size(store, history, n);
        }
    })
    .await
    .expect("the benches ran");
}
