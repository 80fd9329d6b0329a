//! A terminal that goes away (a closed window, a dropped SSH connection) ends the dashboard
//! within seconds, whatever it is doing: taking in a large paste, or waiting on a slow load.

use std::time::{Duration, Instant};

use taxdash::sandbox::{Sandbox, SandboxConfig};

use crate::TODAY;
use crate::pty::Pty;

/// How long the dashboard may take to end once its terminal is gone.
const PROMPTLY: Duration = Duration::from_secs(5);

/// Closes the terminal, then waits for the program to end: answers how long it took. It ends
/// as it says it does, not by a crash: 74 (its terminal went away) or 129 (SIGHUP), whichever
/// it noticed first.
fn hang_up_and_time_the_end(t: &mut Pty) -> Duration {
    t.hang_up();
    let closed = Instant::now();
    let status = loop {
        if let Some(status) = t.exit_status() {
            break status;
        }
        assert!(
            closed.elapsed() < PROMPTLY,
            "the dashboard still runs {PROMPTLY:?} after its terminal closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = closed.elapsed();
    assert!(
        status.signal().is_none() && matches!(status.exit_code(), 74 | 129),
        "ended with {status:?}"
    );
    took
}

/// The new-customer form of a demo dashboard, its Name field focused.
fn new_customer_form(home: &std::path::Path) -> Pty {
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 120, 36, home);
    t.wait_for("Overview — ", Duration::from_secs(30));
    t.send(":customers\r");
    t.wait_for("row 1 of", Duration::from_secs(20));
    t.send("n");
    t.wait_for("new customer", Duration::from_secs(10));
    t
}

#[test]
fn a_large_paste_is_answered_at_once_and_esc_still_works() {
    let home = tempfile::tempdir().unwrap();
    let mut t = new_customer_form(home.path());
    let started = Instant::now();
    t.send(&format!("\x1b[200~{}\x1b[201~", "a".repeat(100 * 1024)));
    t.send("\x1b");
    t.wait_for("Discard", Duration::from_secs(5));
    println!(
        "100 KB pasted, then Esc answered, in {:?}",
        started.elapsed()
    );
    let screen = t.screen();
    assert!(
        screen.contains("Name keeps at most 255 characters"),
        "{screen}"
    );
    t.send("y");
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn closing_the_terminal_in_the_middle_of_a_large_paste_ends_the_dashboard() {
    let megabyte = "a".repeat(1 << 20);
    // As a terminal with bracketed paste sends it (one event), and as one without does (keys).
    for (what, paste) in [
        ("bracketed", format!("\x1b[200~{megabyte}\x1b[201~")),
        ("typed", megabyte.clone()),
    ] {
        let home = tempfile::tempdir().unwrap();
        let mut t = new_customer_form(home.path());
        t.send_in_background(paste.into_bytes());
        std::thread::sleep(Duration::from_millis(300));
        let took = hang_up_and_time_the_end(&mut t);
        println!("a {what} paste: gone {took:?} after its terminal closed");
    }
}

#[test]
fn closing_the_terminal_during_a_long_load_ends_the_dashboard() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime
        .block_on(Sandbox::start(
            SandboxConfig {
                latency: Duration::from_mins(1),
                ..SandboxConfig::default()
            },
            "127.0.0.1:0".parse().unwrap(),
        ))
        .unwrap();
    let url = sandbox.base_url();
    let home = tempfile::tempdir().unwrap();
    let env = [
        ("TAXDASH_API_KEY", "demo-key-1"),
        ("TAXDASH_ORGANIZATION_ID", "orgn_demo_1"),
        ("TAXDASH_BASE_URL", url.as_str()),
    ];
    let mut t = Pty::spawn_with_env(&["--read-only"], 120, 30, home.path(), &env);
    t.wait_for("Overview", Duration::from_secs(30));
    // Every list is still on its way.
    std::thread::sleep(Duration::from_millis(500));
    let took = hang_up_and_time_the_end(&mut t);
    println!("loading: gone {took:?} after its terminal closed");
    runtime.block_on(sandbox.stop());
}
