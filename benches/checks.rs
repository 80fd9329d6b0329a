//! The exempt-sales check over the demo at `--scale 10` (100,000 transactions), against the
//! sandbox at its rate limit: the check reads every page of the exempt sales of the last twelve
//! months and every exemption, so it cannot take less than its requests × the interval the
//! limit allows (the floor). Reports the time against the floor (target: within 105 %), the
//! requests and the 429s received (target: none), and the findings.
//!
//! Run: `cargo bench --bench checks` (env `BENCH_SCALE`, default 10; `BENCH_LIMIT` per minute,
//! default 600).

use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::reads;
use taxdash::reads::Quiet;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};

fn env(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let scale = env("BENCH_SCALE", 10);
    let limit = env("BENCH_LIMIT", 600).max(1);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let anchor = chrono::NaiveDate::from_ymd_opt(2026, 11, 15).expect("a day");
        let sandbox = Sandbox::start(
            SandboxConfig {
                scale,
                rate_limit_per_min: limit,
                anchor: Some(anchor),
                ..SandboxConfig::default()
            },
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        )
        .await
        .expect("the sandbox starts");
        let (org, key) = DEMO_CREDENTIALS[0];
        let mut config = ClientConfig::new(
            sandbox.base_url().parse().expect("a URL"),
            org,
            ApiKey::new(key).expect("a key"),
        );
        config.rate_limit_per_min = NonZeroU32::new(limit);
        let client = Client::new(config).expect("a client");
        let from = anchor - chrono::Months::new(12);
        let started = Instant::now();
        let (checked, found) = reads::read_exemption_findings(&client, from, anchor, &mut Quiet)
            .await
            .expect("the check runs");
        let elapsed = started.elapsed();
        let stats = client.stats();
        let floor = Duration::from_secs_f64(stats.requests as f64 * 60.0 / f64::from(limit));
        let ratio = elapsed.as_secs_f64() / floor.as_secs_f64().max(f64::EPSILON);
        println!(
            "exemption check, scale {scale}: {checked} exempt sales from {from} to {anchor}, {} \
             findings",
            found.len()
        );
        println!(
            "  {:.2} s for {} requests at {limit}/min; floor {:.2} s: {:.1} % of the floor \
             (target <= 105 %); {} retries, {} answered 429 (target 0): {}",
            elapsed.as_secs_f64(),
            stats.requests,
            floor.as_secs_f64(),
            ratio * 100.0,
            stats.retries,
            stats.rate_limited,
            if ratio <= 1.05 && stats.rate_limited == 0 {
                "met"
            } else {
                "NOT met"
            }
        );
        sandbox.stop().await;
    });
}
