//! A key typed right after a large burst of typed keys takes effect at once: the terminal is
//! read until nothing is left of the burst, not only when another key arrives.

use std::time::Duration;

use crate::TODAY;
use crate::pty::Pty;

#[test]
fn ctrl_s_right_after_ten_thousand_typed_characters_is_read_at_once() {
    let home = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 120, 40, home.path());
    t.wait_for("Overview — updated", Duration::from_secs(20));
    t.send("8");
    t.wait_for("Products —", Duration::from_secs(10));
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("n");
    t.wait_for("new product", Duration::from_secs(5));
    // Ten thousand characters typed into the first field, then ctrl-s in the same burst: the
    // form answers the submit (it refuses it, naming what to fix) with no other key pressed.
    let mut burst = "a".repeat(10_000);
    burst.push('\x13');
    t.send(&burst);
    t.wait_for("Not sent:", Duration::from_secs(20));
    // And once more, a key on its own after the burst.
    t.send("\x13");
    t.wait_for("Not sent:", Duration::from_secs(5));
    // The typed text is kept (what was typed is never lost on a refusal).
    assert!(t.screen().contains(&"a".repeat(100)), "{}", t.screen());
}
