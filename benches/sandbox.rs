//! Load on the sandbox's transaction list at `--scale 100` (a million transactions):
//! GET /v1/transactions?size=100 with filters, from concurrent clients over loopback, in the
//! same process (both share the machine's cores, as they would on a laptop).
//!
//! Run: `cargo bench --bench sandbox` (env `BENCH_SECONDS`, `BENCH_SCALE`, `BENCH_CLIENTS` and
//! `BENCH_SIZE`, the page size, to vary). `BENCH_API=tenanted` asks the Tenanted API's
//! `GET /transactions` instead, at release `BENCH_RELEASE` (2026-10-06 unless set; 2026-07-21
//! is the launch release), to measure how its answers are written. The client reads each answer
//! whole but keeps only the envelope's counters, so most of the CPU measured is the server's.
//!
//! The three cases at the default page size of 100, one after the other:
//! `cargo bench --bench sandbox`, `BENCH_API=tenanted cargo bench --bench sandbox` and
//! `BENCH_API=tenanted BENCH_RELEASE=2026-07-21 cargo bench --bench sandbox`.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use taxdash::sandbox::{Sandbox, SandboxConfig};

const QUERIES: &[&str] = &[
    "state_code=CA",
    "country=US&status=COMMITTED",
    "processing_status__in=PROCESSED&marketplace=false",
    "date__gte=2025-06-01&date__lte=2025-12-31",
    "exempt__in=NOT_EXEMPT&direction=SALE&order_by=-date",
    "country=CA&country=DE&order_by=-total_amount",
];

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// The counters of a page; the items are skipped.
#[derive(serde::Deserialize)]
struct Envelope {
    pages: u64,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let scale = env("BENCH_SCALE", 100) as u32;
    let seconds = env("BENCH_SECONDS", 10);
    let clients = env("BENCH_CLIENTS", 32) as usize;
    let size = env("BENCH_SIZE", 100);
    let tenanted = std::env::var("BENCH_API").is_ok_and(|v| v == "tenanted");
    let release = std::env::var("BENCH_RELEASE").unwrap_or_else(|_| "2026-10-06".to_owned());
    let started = Instant::now();
    let config = SandboxConfig {
        scale,
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    };
    let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts");
    let startup = started.elapsed();
    let base = sandbox.base_url();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()
        .expect("client");
    let version = release.clone();
    let get = move |query: String| {
        let http = http.clone();
        let prefix = if tenanted { "" } else { "/v1" };
        let url = format!("{base}{prefix}/transactions?size={size}&{query}");
        let request = if tenanted {
            http.get(url)
                .header("api-key", "demo-key-1")
                .header("api-version", version.as_str())
        } else {
            http.get(url)
                .header("x-api-key", "demo-key-1")
                .header("x-organization-id", "orgn_demo_1")
        };
        async move {
            let r = request.send().await?;
            let status = r.status();
            let body = r.bytes().await?;
            assert!(
                status.is_success(),
                "{status}: {}",
                String::from_utf8_lossy(&body)
            );
            let envelope: Envelope = serde_json::from_slice(&body).expect("a page envelope");
            Ok::<_, reqwest::Error>((envelope.pages.max(1), body.len()))
        }
    };

    // First answer of each filter: filtering and sorting a million rows, before the cache helps.
    let mut pages = Vec::new();
    let mut cold = Vec::new();
    let mut bytes = 0;
    for q in QUERIES {
        let t = Instant::now();
        let (count, len) = get((*q).to_owned()).await.expect("request");
        pages.push(count);
        bytes = bytes.max(len);
        cold.push(t.elapsed());
    }
    let pages = Arc::new(pages);

    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut workers = Vec::new();
    for w in 0..clients {
        let pages = Arc::clone(&pages);
        let get = get.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut n = w as u64;
            while Instant::now() < deadline {
                n = n
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let q = (n >> 33) as usize % QUERIES.len();
                let page = (n >> 13) % pages[q] + 1;
                let t = Instant::now();
                get(format!("{}&page={page}", QUERIES[q]))
                    .await
                    .expect("request");
                latencies.push(t.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.await.expect("worker"));
    }
    all.sort();
    let rps = all.len() as f64 / seconds as f64;
    println!(
        "sandbox GET {}/transactions?size={size} with filters, scale {scale} ({} transactions in org 1); \
         a page is up to {} KB",
        if tenanted {
            format!("(Tenanted {release})")
        } else {
            "/v1".to_owned()
        },
        10_000 * scale,
        bytes / 1024
    );
    println!(
        "  start-up (generate and index): {:.2} s; resident memory after the run: {} MiB",
        startup.as_secs_f64(),
        rss_mib().map_or("?".into(), |m| m.to_string())
    );
    println!(
        "  first answer per filter (cold): {}",
        cold.iter()
            .map(|d| format!("{:.0} ms", d.as_secs_f64() * 1e3))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  {clients} clients for {seconds} s: {} requests, {rps:.0} requests/s",
        all.len()
    );
    println!(
        "  latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&all, 0.50).as_secs_f64() * 1e3,
        percentile(&all, 0.99).as_secs_f64() * 1e3,
        all.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    sandbox.stop().await;
}
