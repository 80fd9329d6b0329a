//! Acknowledged writes per second of a sandbox that keeps its state on disk (`--state`), at the
//! demo scale, in two workloads over loopback:
//!
//! - sequential creates: `BENCH_CREATES` (300) customers created one after the other over one
//!   keep-alive connection, each waiting for the previous answer, in `BENCH_ROUNDS` (3) rounds;
//!   each round is held to the floor of [`CREATES_FLOOR`] a second;
//! - the mix: customer creations, customer edits and transaction creations for `BENCH_SECONDS`,
//!   first from one client (the cost of one durable write), then from `BENCH_CLIENTS` at once.
//!
//! Run: `cargo bench --bench persistence`. The state lives under the build's temporary
//! directory, on the same disk as the project, so every answer waits for a real flush to that
//! disk. The machine's load average is printed first: on a shared machine the figures follow it.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use taxdash::sandbox::{Sandbox, SandboxConfig};

/// Sequential creates a second the sandbox must keep up with `--state`.
const CREATES_FLOOR: f64 = 500.0;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// The `n`-th write of client `client` in phase `phase`: creates a customer, edits one, or
/// creates a sale.
fn write(n: u64, client: usize, phase: usize, edited: &str) -> (reqwest::Method, String, Value) {
    match n % 3 {
        0 => (
            reqwest::Method::POST,
            "/v1/customers".into(),
            json!({"name": format!("Bench {phase}-{client}-{n}"), "email": format!("b{phase}-{client}-{n}@example.com")}),
        ),
        1 => (
            reqwest::Method::PUT,
            format!("/v1/customers/{edited}"),
            json!({"city": format!("Springfield {n}")}),
        ),
        _ => (
            reqwest::Method::POST,
            "/v1/transactions".into(),
            json!({
                "external_id": format!("bench-{phase}-{client}-{n}"), "date": "2026-11-02T09:30:00Z",
                "type": "SALE", "currency": "USD",
                "customer": {"name": "Ada Lovelace", "email": "ada@example.com", "external_id": "cust-ada"},
                "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin",
                               "state": "TX", "postal_code": "78701", "country": "US"}],
                "transaction_items": [{"external_id": "l1", "date": "2026-11-02T09:30:00Z",
                                       "external_product_id": "prod_sku_kbd", "quantity": 1,
                                       "amount": "129.00"}]
            }),
        ),
    }
}

/// Runs `clients` writers for `seconds`; answers every acknowledged write's latency.
async fn phase(
    base: &str,
    phase: usize,
    clients: usize,
    seconds: u64,
    edited: &str,
) -> Vec<Duration> {
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut workers = Vec::new();
    for client in 0..clients {
        let (http, base, edited) = (http.clone(), base.to_owned(), edited.to_owned());
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut n = 0u64;
            while Instant::now() < deadline {
                let (method, path, body) = write(n, client, phase, &edited);
                let t = Instant::now();
                let r = http
                    .request(method, format!("{base}{path}"))
                    .header("x-api-key", "demo-key-1")
                    .header("x-organization-id", "orgn_demo_1")
                    .json(&body)
                    .send()
                    .await
                    .expect("request");
                let status = r.status();
                let text = r.text().await.expect("answer");
                assert!(status.is_success(), "{path}: {status} {text}");
                latencies.push(t.elapsed());
                n += 1;
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.await.expect("writer"));
    }
    all.sort();
    all
}

/// `count` customers created one after the other over one keep-alive connection; answers
/// the writes a second and each write's latency.
async fn sequential_creates(base: &str, round: u64, count: u64) -> (f64, Vec<Duration>) {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .build()
        .expect("a client");
    let mut latencies = Vec::with_capacity(count as usize);
    let started = Instant::now();
    for n in 0..count {
        let t = Instant::now();
        let r = http
            .post(format!("{base}/v1/customers"))
            .header("x-api-key", "demo-key-1")
            .header("x-organization-id", "orgn_demo_1")
            .json(&json!({"name": format!("Sequential {round}-{n}"), "external_id": format!("seq-{round}-{n}")}))
            .send()
            .await
            .expect("request");
        let status = r.status();
        let text = r.text().await.expect("answer");
        assert!(status.is_success(), "create: {status} {text}");
        latencies.push(t.elapsed());
    }
    let rate = count as f64 / started.elapsed().as_secs_f64();
    latencies.sort();
    (rate, latencies)
}

fn report(label: &str, latencies: &[Duration], seconds: u64) {
    println!(
        "{label}: {} acknowledged writes in {seconds} s = {:.0}/s; latency p50 {:.1} ms, p99 {:.1} ms",
        latencies.len(),
        latencies.len() as f64 / seconds as f64,
        percentile(latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(latencies, 0.99).as_secs_f64() * 1000.0,
    );
}

#[tokio::main]
async fn main() {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average (1, 5, 15 min) at the start: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let seconds = env("BENCH_SECONDS", 10);
    let (creates, rounds) = (env("BENCH_CREATES", 300), env("BENCH_ROUNDS", 3));
    let clients = env("BENCH_CLIENTS", 8) as usize;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a temporary directory");
    let state = dir.path().join("sandbox.db");
    let config = SandboxConfig {
        state_file: Some(state.clone()),
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    };
    let started = Instant::now();
    let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts");
    println!(
        "first start (demo data written to the state): {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let base = sandbox.base_url();
    let edited = reqwest::Client::new()
        .get(format!("{base}/v1/customers?size=1"))
        .header("x-api-key", "demo-key-1")
        .header("x-organization-id", "orgn_demo_1")
        .send()
        .await
        .expect("request")
        .json::<Value>()
        .await
        .expect("a page")["items"][0]["id"]
        .as_str()
        .expect("a customer")
        .to_owned();

    let mut slowest = f64::INFINITY;
    for round in 1..=rounds {
        let (rate, latencies) = sequential_creates(&base, round, creates).await;
        slowest = slowest.min(rate);
        println!(
            "sequential creates, round {round}: {creates} customers over one connection = {rate:.0}/s; \
             latency p50 {:.2} ms, p99 {:.2} ms",
            percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
            percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        );
    }
    println!(
        "sequential creates: slowest round {slowest:.0}/s against the floor of {CREATES_FLOOR:.0}/s: {}",
        if slowest >= CREATES_FLOOR {
            "met"
        } else {
            "NOT MET"
        }
    );

    let one = phase(&base, 1, 1, seconds, &edited).await;
    report("mix (creates, edits, sales), 1 client", &one, seconds);
    let many = phase(&base, 2, clients, seconds, &edited).await;
    report(&format!("mix, {clients} clients"), &many, seconds);
    sandbox.stop().await;

    let mut files: Vec<(String, u64)> = std::fs::read_dir(dir.path())
        .expect("the state directory")
        .filter_map(Result::ok)
        .map(|e| {
            let size = e.metadata().map_or(0, |m| m.len());
            (e.file_name().to_string_lossy().into_owned(), size)
        })
        .collect();
    files.sort();
    let listed: Vec<String> = files
        .iter()
        .map(|(name, size)| format!("{name} ({} KB)", size / 1024))
        .collect();
    println!(
        "files in the state directory after a clean stop: {}",
        listed.join(", ")
    );
}
