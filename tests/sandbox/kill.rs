//! The real `taxdash sandbox serve --state FILE` killed with SIGKILL at random moments while
//! clients write to it: after each restart every acknowledged write is there, and after the last
//! clean stop only the database and its key file remain beside it.
//!
//! The short run (5 kills) runs with the other tests; the full one (20 kills) with
//! `cargo test --test sandbox twenty_kills -- --ignored`. The moments are drawn from a seed
//! printed at the start (set `TAXDASH_KILL_SEED` to replay one).

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Writers at once.
const WRITERS: usize = 4;
/// Most writes of one writer between two kills.
const MAX_WRITES: u64 = 400;

/// What the sandbox acknowledged.
#[derive(Clone, Default)]
struct Acked {
    /// Customers created: id and name.
    customers: Vec<(String, String)>,
    /// Sales created, by external id.
    sales: Vec<String>,
    /// The customer each writer edits, and the last city number acknowledged.
    edits: Vec<(String, u64)>,
}

/// A small generator for the moments of the kills.
struct Moments(u64);

impl Moments {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// A running sandbox process and its base URL.
struct Server {
    child: Child,
    url: String,
}

/// Starts `taxdash sandbox serve` on a free loopback port with `state`; waits (at most 120 s)
/// for it to say where it listens.
fn spawn(state: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(["sandbox", "serve", "--port", "0", "--rate-limit", "0"])
        .args(["--anchor", "2026-11-15"])
        .args(["--processing-delay-ms", "50", "--state"])
        .arg(state)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the taxdash binary starts")
}

async fn ready(mut child: Child) -> Server {
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut lines = BufReader::new(stdout).lines();
    let url = tokio::time::timeout(Duration::from_mins(2), async {
        while let Some(line) = lines.next_line().await.expect("stdout reads") {
            if let Some(rest) = line.split(" at ").nth(1)
                && let Some(url) = rest.split("/v1").next()
                && url.starts_with("http://127.0.0.1:")
            {
                return url.to_owned();
            }
        }
        panic!("the sandbox ended before saying where it listens");
    })
    .await
    .expect("the sandbox starts within 120 s");
    // Keep reading stdout so that the process never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Server { child, url }
}

fn as_org1(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
) -> reqwest::RequestBuilder {
    http.request(method, url)
        .header("x-api-key", "demo-key-1")
        .header("x-organization-id", "orgn_demo_1")
        .timeout(Duration::from_secs(10))
}

/// One writer: creates customers and sales and edits its own customer until the server goes
/// away or `MAX_WRITES` are done, recording each write the moment it is acknowledged.
async fn write(url: String, round: u64, writer: usize, acked: Arc<Mutex<Acked>>) {
    let http = reqwest::Client::new();
    let edited = acked.lock().unwrap().edits[writer].0.clone();
    for n in 0..MAX_WRITES {
        let tag = format!("k{round}-{writer}-{n}");
        let (method, path, body) = match n % 3 {
            0 => (
                reqwest::Method::POST,
                "/v1/customers".to_owned(),
                json!({"name": tag, "email": format!("{tag}@example.com")}),
            ),
            1 => (
                reqwest::Method::POST,
                "/v1/transactions".to_owned(),
                json!({"external_id": tag, "date": "2026-11-02T09:30:00Z", "type": "SALE",
                       "currency": "USD", "customer": {"name": "Kill Test", "external_id": "kill-test"},
                       "addresses": [{"type": "SHIP_TO", "state": "TX", "country": "US"}],
                       "transaction_items": [{"date": "2026-11-02T09:30:00Z",
                                              "external_product_id": "sku-1", "quantity": 1, "amount": "10.00"}]}),
            ),
            _ => (
                reqwest::Method::PUT,
                format!("/v1/customers/{edited}"),
                json!({"city": format!("{}", round * MAX_WRITES + n)}),
            ),
        };
        let Ok(r) = as_org1(&http, method, format!("{url}{path}"))
            .json(&body)
            .send()
            .await
        else {
            return;
        };
        let status = r.status();
        let Ok(answer) = r.json::<Value>().await else {
            return;
        };
        assert!(status.is_success(), "{path}: {status} {answer}");
        let mut acked = acked.lock().unwrap();
        match n % 3 {
            0 => acked.customers.push((
                answer["id"].as_str().expect("an id").to_owned(),
                tag.clone(),
            )),
            1 => acked.sales.push(tag.clone()),
            _ => acked.edits[writer].1 = round * MAX_WRITES + n,
        }
    }
}

/// Checks that every acknowledged write is served.
async fn check(url: &str, acked: &Acked) {
    let http = reqwest::Client::new();
    let get = |path: String| as_org1(&http, reqwest::Method::GET, format!("{url}{path}")).send();
    for (id, name) in &acked.customers {
        let r = get(format!("/v1/customers/{id}")).await.expect("request");
        assert_eq!(
            r.status(),
            StatusCode::OK,
            "acknowledged customer {id} lost"
        );
        assert_eq!(r.json::<Value>().await.unwrap()["name"], json!(name));
    }
    for external_id in &acked.sales {
        let r = get(format!("/v1/transactions/external/{external_id}"))
            .await
            .expect("request");
        assert_eq!(
            r.status(),
            StatusCode::OK,
            "acknowledged sale {external_id} lost"
        );
    }
    for (id, last) in &acked.edits {
        let customer: Value = get(format!("/v1/customers/{id}"))
            .await
            .expect("request")
            .json()
            .await
            .unwrap();
        let city: u64 = customer["city"]
            .as_str()
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        assert!(
            city >= *last,
            "acknowledged edit {last} of {id} lost: {customer}"
        );
    }
}

/// Stops the server as Ctrl-C does and waits (at most 30 s) for it to end.
async fn stop(mut server: Server) {
    let pid = server.child.id().expect("running").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = tokio::time::timeout(Duration::from_secs(30), server.child.wait())
        .await
        .expect("the sandbox stops within 30 s")
        .expect("wait");
    assert!(status.success(), "{status}");
}

async fn kills(count: u64) {
    let seed = std::env::var("TAXDASH_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    println!("kill moments from TAXDASH_KILL_SEED={seed}");
    let mut moments = Moments(seed);
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("sandbox.db");
    let acked = Arc::new(Mutex::new(Acked::default()));
    let started = Instant::now();

    // The first kill lands while the first start builds the database.
    let mut child = spawn(&state);
    tokio::time::sleep(Duration::from_millis(moments.next(300))).await;
    child.kill().await.expect("SIGKILL");

    for round in 0..count {
        let server = ready(spawn(&state)).await;
        if round == 0 {
            // One customer per writer to edit.
            let http = reqwest::Client::new();
            for w in 0..WRITERS {
                let created: Value = as_org1(
                    &http,
                    reqwest::Method::POST,
                    format!("{}/v1/customers", server.url),
                )
                .json(&json!({"name": format!("edited by {w}")}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
                let id = created["id"].as_str().unwrap().to_owned();
                acked.lock().unwrap().edits.push((id, 0));
            }
        }
        let so_far = acked.lock().unwrap().clone();
        check(&server.url, &so_far).await;
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| tokio::spawn(write(server.url.clone(), round, w, Arc::clone(&acked))))
            .collect();
        tokio::time::sleep(Duration::from_millis(20 + moments.next(400))).await;
        let mut server = server;
        server.child.kill().await.expect("SIGKILL");
        for w in writers {
            w.await.expect("a writer ends once the server is gone");
        }
    }

    let server = ready(spawn(&state)).await;
    let so_far = acked.lock().unwrap().clone();
    check(&server.url, &so_far).await;
    stop(server).await;
    let acked = acked.lock().unwrap();
    println!(
        "{count} kills in {:.1} s: {} customers and {} sales created and the last edits of {} \
         customers acknowledged, none lost",
        started.elapsed().as_secs_f64(),
        acked.customers.len(),
        acked.sales.len(),
        acked.edits.len()
    );
    assert!(!acked.customers.is_empty() && !acked.sales.is_empty());

    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["sandbox.db", "sandbox.db.key"],
        "files left beside the state"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_kills_lose_no_acknowledged_write() {
    kills(5).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "about 25 s: the full run of 20 kills"]
async fn twenty_kills_lose_no_acknowledged_write() {
    kills(20).await;
}
