//! `taxdash export` on a terminal, against a service that accepts connections and never
//! answers: the progress line says that it waits and for how long, never `0/0 rows` as if done,
//! and the message at the end names the wait of one attempt.

use std::time::Duration;

use crate::pty::Pty;

/// A loopback port that accepts connections and never answers, for as long as the test runs.
fn silent() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        // Bounded: the export opens a few connections at most.
        for stream in listener.incoming().take(16) {
            held.push(stream);
        }
    });
    format!("http://{addr}")
}

#[test]
fn the_progress_line_says_it_waits_for_a_silent_service() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let base = silent();
    let config_text = config.display().to_string();
    let env = [
        ("TAXDASH_CONFIG", config_text.as_str()),
        ("TAXDASH_BASE_URL", base.as_str()),
        ("TAXDASH_API_KEY", "demo-key-1"),
        ("TAXDASH_ORGANIZATION_ID", "orgn_demo_1"),
        ("TAXDASH_TIMEOUT", "1.5"),
    ];
    let mut t = Pty::spawn_with_env(&["export", "customers"], 120, 12, home.path(), &env);
    t.wait_for("exporting customers: ", Duration::from_secs(10));
    t.wait_for(
        "waiting for the service to answer (2 s so far)",
        Duration::from_secs(10),
    );
    t.wait_for(
        "waiting for the service to answer (3 s so far)",
        Duration::from_secs(10),
    );
    assert!(!t.screen().contains("0/0"), "{}", t.screen());
    t.wait_for(
        "did not answer within 1.5 s (4 attempts)",
        Duration::from_secs(20),
    );
    let status = t.wait_exit(Duration::from_secs(10));
    assert_eq!(status.exit_code(), 1);
    assert!(!t.screen().contains("0/0"), "{}", t.screen());
}
