//! The mouse in a real terminal: SGR mouse reports clicking a tab and a row.

use std::time::Duration;

use crate::TODAY;
use crate::pty::Pty;

/// Where `text` first shows on screen at or below row `from`: (column, row), 0-based.
fn locate(t: &Pty, text: &str, from: usize) -> (u16, u16) {
    let screen = t.screen();
    for (row, line) in screen.lines().enumerate().skip(from) {
        if let Some(at) = line.find(text) {
            let column = line[..at].chars().count();
            return (column as u16, row as u16);
        }
    }
    panic!("{text:?} is not on screen:\n{screen}");
}

/// A click of the left button at 0-based (`column`, `row`), as an xterm in SGR mode reports it:
/// pressed, then let go, at 1-based coordinates.
fn click(t: &mut Pty, column: u16, row: u16) {
    let (x, y) = (column + 1, row + 1);
    t.send(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
}

#[test]
fn a_click_shows_a_tab_and_another_selects_a_row() {
    let state = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 120, 36, state.path());
    t.wait_for("Overview — ", Duration::from_secs(30));
    assert!(
        t.raw().contains("\x1b[?1006h"),
        "the dashboard asks for SGR mouse reports"
    );

    let (column, row) = locate(&t, "Registrations", 1);
    assert_eq!(row, 1, "the tab bar");
    click(&mut t, column + 2, row);
    t.wait_for("row 1 of", Duration::from_secs(30));

    let (column, header) = locate(&t, "Jurisdiction", 2);
    click(&mut t, column + 1, header + 3);
    t.wait_for("row 3 of", Duration::from_secs(10));

    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
    let raw = t.raw();
    assert!(
        raw.rfind("\x1b[?1006l") > raw.rfind("\x1b[?1006h"),
        "the mouse is given back to the terminal on the way out"
    );
}

#[test]
fn with_no_mouse_the_terminal_keeps_the_mouse() {
    let state = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--no-mouse"],
        120,
        36,
        state.path(),
    );
    t.open_registrations();
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
    let raw = t.raw();
    assert!(
        !raw.contains("\x1b[?1006h") && !raw.contains("\x1b[?1000h"),
        "mouse reports never asked for: the terminal's own selection works"
    );
}
