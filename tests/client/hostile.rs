//! Servers that misbehave below HTTP, written here on raw loopback sockets: one that accepts and
//! never answers, one that refuses, one that resets, one that hangs up, one that speaks no TLS.
//! Each failure reads as words; the HTTP stack's chain goes to the log only.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use taxdash::api::{ApiError, Client, RetryCause, RetryNotice, RetryPolicy};
use taxdash::model::PageParams;
use taxdash::model::filters::RegistrationFilter;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::common::config;

/// The key of these tests: distinctive, so any trace of it in a message or the log is found.
const KEY: &str = "sk_test_HOSTILE_9731";

/// What a connection gets from the server.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Reads the request, then holds the connection open, silent.
    Silent,
    /// Reads the request, then resets the connection.
    Reset,
    /// Reads the request, then closes the connection cleanly, with no answer.
    HangUp,
    /// Answers whatever comes with a line of plain text (no TLS).
    PlainText,
}

/// Serves `behaviour` on a free loopback port for as long as the test runs; returns the port.
async fn hostile(behaviour: Behaviour) -> u16 {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        // Bounded: no test makes more than a few connections.
        for _ in 0..64 {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut buf = [0u8; 4096];
            let _ = tokio::time::timeout(Duration::from_secs(2), socket.read(&mut buf)).await;
            match behaviour {
                Behaviour::Silent => held.push(socket),
                Behaviour::Reset => {
                    let _ = socket.set_zero_linger();
                    drop(socket);
                }
                Behaviour::HangUp => drop(socket),
                Behaviour::PlainText => {
                    let _ = socket.write_all(b"HTTP/1.1 200 OK\r\n\r\nhello\n").await;
                    drop(socket);
                }
            }
        }
    });
    port
}

/// A client of `base` with `attempts` attempts of `timeout` each, quick backoff, no pacing.
fn client(base: &str, attempts: u32, timeout: Duration) -> Client {
    let mut config = config(base, "orgn_hostile", KEY);
    config.request_timeout = timeout;
    config.retry = RetryPolicy {
        max_attempts: attempts,
        base_delay: Duration::from_millis(10),
        max_wait: Duration::from_secs(1),
    };
    config.rate_limit_per_min = None;
    Client::new(config).unwrap()
}

/// A log written to memory, for the duration of one test.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn start(&self) -> tracing::subscriber::DefaultGuard {
        // A global subscriber that wants every line: a line first met on another test's thread
        // (with no subscriber of its own) is then never cached as unwanted, which a rebuild of
        // the cache alone cannot rule out while other threads keep logging.
        static GLOBAL: std::sync::Once = std::sync::Once::new();
        GLOBAL.call_once(|| {
            let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry());
        });
        let log = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || log.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::DEBUG)
            .finish();
        let guard = tracing::subscriber::set_default(subscriber);
        // Another test's thread may have met the client's log lines first, with no subscriber,
        // and had them cached as never wanted: ask every line again, now that this one listens.
        tracing::callsite::rebuild_interest_cache();
        guard
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn network_detail(e: &ApiError) -> &str {
    match e {
        ApiError::Network { detail } => detail,
        other => panic!("a network error: {other:?}"),
    }
}

#[tokio::test]
async fn a_silent_service_times_out_per_attempt_and_says_the_wait_of_one() {
    let port = hostile(Behaviour::Silent).await;
    let client = client(
        &format!("http://127.0.0.1:{port}"),
        3,
        Duration::from_millis(400),
    );
    let started = Instant::now();
    let e = client
        .list_registrations(&RegistrationFilter::default(), PageParams::default())
        .await;
    let waited = started.elapsed();
    let e = e.unwrap_err();
    assert_eq!(
        e,
        ApiError::Timeout {
            after: Duration::from_millis(400),
            attempts: 3
        }
    );
    let text = e.to_string();
    assert!(
        text.starts_with("The service did not answer within 0.4 s (3 attempts)."),
        "{text}"
    );
    assert!(
        waited >= Duration::from_millis(1200) && waited < Duration::from_secs(5),
        "three waits of 0.4 s: {waited:?}"
    );
}

#[tokio::test]
async fn the_observer_hears_each_retry_of_a_silent_service_in_words_as_it_happens() {
    let port = hostile(Behaviour::Silent).await;
    let plain = client(
        &format!("http://127.0.0.1:{port}"),
        3,
        Duration::from_millis(300),
    );
    let heard: Arc<Mutex<Vec<(RetryNotice, Instant)>>> = Arc::default();
    let kept = Arc::clone(&heard);
    let watched = plain.with_retry_observer(Arc::new(move |n: &RetryNotice| {
        kept.lock().unwrap().push((n.clone(), Instant::now()));
    }));
    assert_eq!(watched.organization_id(), plain.organization_id());
    let started = Instant::now();
    let e = watched
        .list_registrations(&RegistrationFilter::default(), PageParams::default())
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Timeout { attempts: 3, .. }), "{e:?}");
    let heard = heard.lock().unwrap().clone();
    let words: Vec<String> = heard.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        words,
        [
            "no answer for 0.3 s, trying again, 2 of 3",
            "no answer for 0.3 s, trying again, 3 of 3"
        ]
    );
    let (first, at) = &heard[0];
    assert_eq!(
        first.cause,
        RetryCause::NoAnswer {
            after: Duration::from_millis(300)
        }
    );
    assert_eq!(first.what, "GET /v1/registrations");
    let after = at.duration_since(started);
    assert!(
        after >= Duration::from_millis(300) && after < Duration::from_millis(900),
        "told when the first attempt gave up, not at the end: {after:?}"
    );
    assert_eq!(plain.stats().retries, 2, "stats are shared");
}

#[tokio::test]
async fn a_refused_connection_is_said_in_words_and_the_chain_goes_to_the_log() {
    let log = Log::default();
    let _guard = log.start();
    // A port that was just free: nothing listens on it.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let client = client(
        &format!("http://127.0.0.1:{port}"),
        2,
        Duration::from_secs(5),
    );
    let e = client.get_registration("regs_1").await.unwrap_err();
    assert_eq!(
        network_detail(&e),
        format!("could not connect to 127.0.0.1:{port}: connection refused")
    );
    let text = e.to_string();
    assert!(
        text.starts_with(&format!(
            "Could not connect to 127.0.0.1:{port}: connection refused. "
        )),
        "{text}"
    );
    assert!(!text.contains("error sending request") && !text.contains("client error"));
    let logged = log.text();
    assert!(
        logged.contains("error sending request") && logged.contains("Connection refused"),
        "the full chain is logged: {logged}"
    );
    assert!(logged.contains("GET /v1/registrations/regs_1"), "{logged}");
    assert!(!logged.contains(KEY) && !text.contains(KEY));
}

/// The error of one registration asked of a hostile server behaving as `behaviour` (over
/// `scheme`, in `attempts` tries), with the server's port.
async fn refused_by(behaviour: Behaviour, scheme: &str, attempts: u32) -> (u16, ApiError) {
    let port = hostile(behaviour).await;
    let e = client(
        &format!("{scheme}://127.0.0.1:{port}"),
        attempts,
        Duration::from_secs(5),
    )
    .get_registration("regs_1")
    .await
    .unwrap_err();
    (port, e)
}

#[tokio::test]
async fn a_reset_a_hang_up_and_a_service_without_tls_are_said_in_words() {
    let (reset, e) = refused_by(Behaviour::Reset, "http", 2).await;
    assert_eq!(
        network_detail(&e),
        format!("the connection to 127.0.0.1:{reset} was reset before an answer came")
    );

    let (hang_up, e) = refused_by(Behaviour::HangUp, "http", 2).await;
    assert_eq!(
        network_detail(&e),
        format!("the service at 127.0.0.1:{hang_up} closed the connection without answering")
    );

    let (plain, e) = refused_by(Behaviour::PlainText, "https", 1).await;
    let detail = network_detail(&e);
    assert!(
        detail.starts_with(&format!(
            "could not set up a secure connection to 127.0.0.1:{plain}: "
        )),
        "{detail}"
    );
    assert!(!detail.contains("error sending request"), "{detail}");
}
