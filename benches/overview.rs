//! The Overview filling in against a slow service: the sandbox answering every request after
//! `BENCH_LATENCY_MS` (200 unless set, as `sandbox serve --latency-ms 200`), the real event loop
//! drawing on a 200x50 `TestBackend`. Measures the time from the first frame until every tile
//! is filled (the title says when it was updated) and the requests that took, and says when the
//! placeholders (`…`) left the screen, so the tiles that fill in the first round trip can be
//! told from those that wait on a later answer.
//!
//! Twice: on a first run (nothing read ahead), and on the runs after it, when the Overview reads
//! ahead the transactions of the filings the run before checked (the state folder's
//! `read-ahead.json`; kept in memory here).
//!
//! The client reaches the sandbox through a proxy on loopback that counts the bytes the answers
//! take on the wire: once as the client asks (compressed), and once with its
//! `Accept-Encoding` hidden from the sandbox (the answers as they are).
//!
//! Run: `cargo bench --bench overview` (env `BENCH_LATENCY_MS`, `BENCH_RUNS`).

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use taxdash::api::{Client, ClientConfig, ClientStats};
use taxdash::app::Stores;
use taxdash::app::platform::Recorder;
use taxdash::app::read_ahead::ReadAhead;
use taxdash::app::testing::SharedBackend;
use taxdash::credentials::ApiKey;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use taxdash::ui::keymap::Keymap;
use taxdash::ui::panes;
use taxdash::ui::shell::{HeaderInfo, Shell};
use taxdash::ui::theme::Theme;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What the bench watches on screen, read without building the screen's text (it looks every
/// 2 ms, beside the loop it measures): the placeholders (`…`) on screen, and whether the pane's
/// title, in the top rows, says the Overview was updated.
fn watch(backend: &SharedBackend) -> (usize, bool) {
    let backend = backend.0.lock().unwrap();
    let buffer = backend.buffer();
    let cells = buffer.content();
    let waiting = cells.iter().filter(|c| c.symbol() == "…").count();
    let top = (usize::from(buffer.area.width) * 5).min(cells.len());
    let title: String = cells[..top]
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect();
    (waiting, title.contains("Overview — updated"))
}

/// A proxy on loopback in front of `target`: counts the bytes of the answers, and while `plain`
/// is on, renames the requests' `Accept-Encoding` header so the sandbox answers uncompressed.
struct Wire {
    base: String,
    answered: Arc<AtomicU64>,
    plain: Arc<AtomicBool>,
}

impl Wire {
    async fn start(target: SocketAddr) -> Wire {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let answered = Arc::new(AtomicU64::new(0));
        let plain = Arc::new(AtomicBool::new(false));
        let (counted, hidden) = (Arc::clone(&answered), Arc::clone(&plain));
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(target).await else {
                    continue;
                };
                let (mut client_in, mut client_out) = client.into_split();
                let (mut server_in, mut server_out) = server.into_split();
                let hidden = Arc::clone(&hidden);
                tokio::spawn(async move {
                    let mut buf = vec![0; 64 * 1024];
                    while let Ok(n) = client_in.read(&mut buf).await {
                        if n == 0 {
                            break;
                        }
                        if hidden.load(Ordering::Relaxed) {
                            hide_encoding(&mut buf[..n]);
                        }
                        if server_out.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                });
                let counted = Arc::clone(&counted);
                tokio::spawn(async move {
                    let mut buf = vec![0; 64 * 1024];
                    while let Ok(n) = server_in.read(&mut buf).await {
                        if n == 0 {
                            break;
                        }
                        counted.fetch_add(n as u64, Ordering::Relaxed);
                        if client_out.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        Wire {
            base,
            answered,
            plain,
        }
    }
}

/// Renames `accept-encoding:` (any case) to a header of the same length nobody reads.
fn hide_encoding(bytes: &mut [u8]) {
    const NAME: &[u8] = b"accept-encoding:";
    let mut at = 0;
    while at + NAME.len() <= bytes.len() {
        if bytes[at..at + NAME.len()].eq_ignore_ascii_case(NAME) {
            bytes[at..at + NAME.len()].copy_from_slice(b"x-not-encoding-:");
            at += NAME.len();
        } else {
            at += 1;
        }
    }
}

/// One Overview from start to filled: (time, the client's requests, placeholders on screen as
/// they changed).
async fn once(wire: &Wire, stores: Stores) -> (Duration, ClientStats, Vec<(Duration, usize)>) {
    let (org, key) = DEMO_CREDENTIALS[0];
    let config = ClientConfig::new(wire.base.parse().unwrap(), org, ApiKey::new(key).unwrap());
    let client = Client::new(config).unwrap();
    let header = HeaderInfo {
        profile: "bench".into(),
        organization: org.into(),
        generation: "v1".into(),
        demo: true,
        read_only: true,
        offline: None,
    };
    let mut shell = Shell::new(panes::all(), Keymap::default(), Theme::default(), header);
    let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(200, 50))));
    let (keys, receiver) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let events = Box::pin(futures::stream::unfold(receiver, |mut rx| async move {
        rx.recv().await.map(|e| (Ok(e), rx))
    }));
    let loop_backend = backend.clone();
    let loop_client = client.clone();
    let started = Instant::now();
    let task = tokio::spawn(async move {
        let mut terminal = Terminal::new(loop_backend).unwrap();
        let mut platform = Recorder::default();
        taxdash::app::run(
            &mut terminal,
            events,
            &mut shell,
            loop_client,
            stores,
            &mut platform,
        )
        .await
    });
    let mut placeholders: Vec<(Duration, usize)> = Vec::new();
    loop {
        let (waiting, updated) = watch(&backend);
        if placeholders.last().is_none_or(|(_, n)| *n != waiting) {
            placeholders.push((started.elapsed(), waiting));
        }
        if updated {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_mins(1),
            "the Overview did not fill in"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let took = started.elapsed();
    let requests = client.stats();
    keys.send(Event::Key(KeyEvent::from(KeyCode::Char('q'))))
        .unwrap();
    task.await.unwrap().unwrap();
    (took, requests, placeholders)
}

#[tokio::main]
async fn main() {
    let latency = Duration::from_millis(env("BENCH_LATENCY_MS", 200));
    let runs = env("BENCH_RUNS", 5);
    let sandbox = Sandbox::start(
        SandboxConfig {
            latency,
            ..SandboxConfig::default()
        },
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap();
    let target: SocketAddr = sandbox.base_url()["http://".len()..].parse().unwrap();
    let wire = Wire::start(target).await;
    let first = |_| Stores::default().with_read_ahead(ReadAhead::in_memory());
    measure(
        &wire,
        "a first run (nothing read ahead)",
        runs,
        latency,
        first,
    )
    .await;
    // One run to remember the filings checked, then the runs that read them ahead.
    let kept = Stores::default().with_read_ahead(ReadAhead::in_memory());
    once(&wire, kept.clone()).await;
    let next = |_| kept.clone();
    measure(
        &wire,
        "the runs after (filings read ahead)",
        runs,
        latency,
        &next,
    )
    .await;
    // The same, the answers uncompressed: what compression saves.
    wire.plain.store(true, Ordering::Relaxed);
    measure(
        &wire,
        "the runs after, answers not compressed",
        runs,
        latency,
        &next,
    )
    .await;
    sandbox.stop().await;
}

/// Runs the Overview `runs` times on the stores `stores` gives each run, and prints the median.
async fn measure(
    wire: &Wire,
    what: &str,
    runs: u64,
    latency: Duration,
    stores: impl Fn(u64) -> Stores,
) {
    let mut times = Vec::new();
    let mut requests = 0;
    let mut limited = 0;
    let mut timeline = Vec::new();
    let mut bytes = Vec::new();
    for run in 0..runs {
        // A second between runs: one user's mornings do not share a minute of the service's
        // rate limit, and the sandbox's limiter refills more than a run asks for.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let before = wire.answered.load(Ordering::Relaxed);
        let (took, asked, placeholders) = once(wire, stores(run)).await;
        bytes.push(wire.answered.load(Ordering::Relaxed) - before);
        times.push(took);
        requests = asked.requests;
        limited += asked.rate_limited;
        timeline = placeholders;
    }
    times.sort();
    let median = times[times.len() / 2];
    let round_trips = if latency.is_zero() {
        "no latency, so no round trips to count".to_string()
    } else {
        format!(
            "{:.2} round trips",
            median.as_secs_f64() / latency.as_secs_f64()
        )
    };
    println!(
        "overview, {what}: every tile filled in {:.0} ms (median of {runs}; fastest {:.0} ms, \
         slowest {:.0} ms) with {requests} requests ({limited} answered 429 in all runs), at {} ms a request: \
         {round_trips}",
        median.as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        times[times.len() - 1].as_secs_f64() * 1000.0,
        latency.as_millis(),
    );
    let steps: Vec<String> = timeline
        .iter()
        .map(|(at, n)| format!("{n} at {:.0} ms", at.as_secs_f64() * 1000.0))
        .collect();
    println!(
        "  placeholders (…) on screen, last run: {}",
        steps.join(", ")
    );
    bytes.sort_unstable();
    println!(
        "  bytes on the wire (answers, headers included): {:.2} MB a run (median)",
        bytes[bytes.len() / 2] as f64 / 1e6
    );
}
