//! The terminal after every way the dashboard can end or pause: SIGTERM, SIGINT and SIGHUP end
//! it with the terminal restored; Ctrl-Z and SIGTSTP hand the terminal back to the shell, and
//! after SIGCONT the dashboard takes it again and draws at the terminal's current size.
//!
//! The dashboard runs under `sh` in a pseudo-terminal, as from a user's shell: afterwards `sh`
//! prints `stty -a` and reads a line typed into the terminal, which must echo.

use std::time::Duration;

use crate::pty::Pty;

const WAIT: Duration = Duration::from_secs(10);

/// The process `sh` started: the dashboard.
fn child_of(parent: u32) -> u32 {
    let start = std::time::Instant::now();
    loop {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // `pid (comm) state ppid ...`: the name may hold spaces, so read after the `)`.
            let after = &stat[stat.rfind(')').unwrap_or(0) + 1..];
            let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
            if ppid == Some(parent) {
                return pid;
            }
        }
        assert!(start.elapsed() < WAIT, "sh started no process");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The process's state letter (`T` when stopped).
fn state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
    after.trim_start().chars().next().unwrap_or('?')
}

fn send_signal(pid: i32, signal: i32) {
    // SAFETY: kill(2) only sends a signal to a process of this test.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill {pid} {signal}");
}

/// Raw mode as the dashboard keeps it: no line editing, no echo, no signals from keys.
fn is_raw(modes: libc::tcflag_t) -> bool {
    modes & (libc::ICANON | libc::ECHO | libc::ISIG) == 0
}

/// Cooked mode as a shell needs it.
fn is_cooked(modes: libc::tcflag_t) -> bool {
    modes & (libc::ICANON | libc::ECHO | libc::ISIG) == (libc::ICANON | libc::ECHO | libc::ISIG)
}

/// After the dashboard ended with `status`: `stty -a` shows a cooked terminal, the normal screen
/// and the cursor are back, and a typed line echoes and is read.
fn assert_terminal_restored(t: &mut Pty, status: i32) {
    t.wait_for(&format!("taxdash exited {status}"), WAIT);
    t.wait_for("speed", WAIT);
    let screen = t.screen();
    let words: Vec<&str> = screen
        .split(|c: char| c.is_whitespace() || c == ';')
        .collect();
    for mode in ["icanon", "echo", "isig", "icrnl", "opost"] {
        assert!(words.contains(&mode), "stty shows {mode}:\n{screen}");
        assert!(
            !words.contains(&format!("-{mode}").as_str()),
            "stty shows -{mode}:\n{screen}"
        );
    }
    assert!(!t.parser_alternate_screen(), "back on the normal screen");
    assert!(t.cursor_shown(), "the cursor is shown");
    t.send("typed text\r");
    t.wait_for("read back: typed text", WAIT);
    let screen = t.screen();
    assert!(
        screen.lines().any(|l| l.trim_end() == "typed text"),
        "the typed line echoed as it was typed:\n{screen}"
    );
    assert!(t.wait_exit(WAIT).success());
}

fn ended_by(signal: i32, status: i32) {
    let home = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn_under_sh(&["--demo"], 120, 36, home.path());
    t.open_registrations();
    assert!(is_raw(t.local_modes()), "the dashboard runs in raw mode");
    // A form with input open: `q` would ask first, a signal does not.
    t.send("/");
    t.wait_for("Filing frequency", WAIT);
    let dashboard = child_of(t.pid());
    send_signal(dashboard as i32, signal);
    assert_terminal_restored(&mut t, status);
}

#[test]
fn sigterm_ends_the_dashboard_and_restores_the_terminal() {
    ended_by(libc::SIGTERM, 143);
}

#[test]
fn sigint_ends_the_dashboard_and_restores_the_terminal() {
    ended_by(libc::SIGINT, 130);
}

#[test]
fn sighup_ends_the_dashboard_and_restores_the_terminal() {
    ended_by(libc::SIGHUP, 129);
}

/// Waits until the dashboard is stopped and the shell has its terminal back.
fn assert_suspended(t: &Pty, dashboard: u32) {
    t.wait_until("the dashboard is stopped", WAIT, |_| {
        state(dashboard) == 'T'
    });
    t.wait_until("the normal screen is back", WAIT, |t| {
        !t.parser_alternate_screen()
    });
    assert!(
        is_cooked(t.local_modes()),
        "a cooked terminal while stopped"
    );
    assert!(t.cursor_shown(), "the cursor is shown while stopped");
}

/// Continues the stopped job, as `fg` does, and waits for the dashboard to be drawn again at
/// `rows` rows.
fn resume(t: &Pty, dashboard: u32, rows: u16) {
    // SAFETY: getpgid(2) reads the process group of a process of this test.
    let group = unsafe { libc::getpgid(dashboard as i32) };
    assert!(group > 0);
    send_signal(-group, libc::SIGCONT);
    t.wait_until("the dashboard runs again", WAIT, |t| {
        t.parser_alternate_screen() && is_raw(t.local_modes())
    });
    t.wait_until("it is drawn again at the current size", WAIT, |t| {
        let screen = t.screen();
        let lines: Vec<&str> = screen.lines().collect();
        lines.len() == usize::from(rows)
            && screen.contains("Registrations —")
            && lines.last().is_some_and(|l| !l.trim().is_empty())
    });
}

#[test]
fn ctrl_z_and_sigtstp_suspend_and_fg_redraws_at_the_current_size() {
    let home = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn_under_sh(&["--demo"], 120, 36, home.path());
    t.open_registrations();
    let dashboard = child_of(t.pid());

    // Ctrl-Z: the key, as raw mode delivers it.
    t.send("\x1a");
    assert_suspended(&t, dashboard);
    // The window shrinks while the dashboard is stopped.
    t.resize(100, 30);
    resume(&t, dashboard, 30);
    t.send("j");

    // SIGTSTP from outside.
    send_signal(dashboard as i32, libc::SIGTSTP);
    assert_suspended(&t, dashboard);
    resume(&t, dashboard, 30);

    t.send("q");
    assert_terminal_restored(&mut t, 0);
}
