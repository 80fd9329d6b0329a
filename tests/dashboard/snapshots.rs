//! What the user sees, pinned: the shell with the list, the detail, each wizard step, the help
//! overlay and an error, plus the styles that carry meaning.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::style::Color;
use taxdash::sandbox::SandboxConfig;

use crate::harness::{Dashboard, Options};

/// The first cell of the screen showing `text`, and its style.
fn style_of(d: &Dashboard, text: &str) -> Option<ratatui::style::Style> {
    let buffer = d.buffer();
    let area = buffer.area;
    for y in 0..area.height {
        let line: String = (0..area.width)
            .map(|x| buffer[(x, y)].symbol().to_owned())
            .collect();
        if let Some(byte) = line.find(text) {
            let x = line[..byte].chars().count() as u16;
            return Some(buffer[(x, y)].style());
        }
    }
    None
}

#[tokio::test]
async fn list_detail_and_help() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    let screen = d.wait_for("row 1 of").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("registrations_list", d.screen());

    // Status colours carry meaning.
    assert_eq!(
        style_of(&d, "REGISTERED").and_then(|s| s.fg),
        Some(Color::Green),
        "{screen}"
    );
    if screen.contains("CANCELLED") {
        assert_eq!(
            style_of(&d, "CANCELLED").and_then(|s| s.fg),
            Some(Color::DarkGray)
        );
    }

    d.key(KeyCode::Enter);
    d.wait_for("Identity").await;
    // The jurisdiction's form is at the bottom of the detail, out of view: look there until it
    // has arrived (its labels widen the detail), then come back to the top.
    d.char('G');
    d.wait_until("the detail's extras", Duration::from_secs(5), |s| {
        s.contains("Jurisdiction fields") && !s.contains("loading…")
    })
    .await;
    d.char('g');
    d.char('g');
    d.wait_for("Identity").await;
    insta::assert_snapshot!("registration_detail", d.screen());

    d.char('?');
    d.wait_for("this help").await;
    // The log file's line is the overlay's last: the end of the help shows it.
    d.char('G');
    d.wait_for("Log file").await;
    insta::assert_snapshot!("help_overlay", d.screen());
    d.key(KeyCode::Esc);
    d.quit().await;
}

#[tokio::test]
async fn every_wizard_step() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("ID", false).await;
    d.char('D');
    d.wait_for("step 1 of 6").await;
    insta::assert_snapshot!("wizard_1_registration", d.screen());
    d.key(KeyCode::Enter);
    d.wait_for("step 2 of 6").await;
    d.key(KeyCode::Right);
    d.key(KeyCode::Right);
    tokio::time::sleep(Duration::from_millis(100)).await;
    insta::assert_snapshot!("wizard_2_reason", d.screen());
    d.key(KeyCode::Enter);
    d.wait_for("step 3 of 6").await;
    d.type_text("2026-02-31");
    d.key(KeyCode::Enter);
    d.wait_for("February").await;
    insta::assert_snapshot!("wizard_3_closure_date_error", d.screen());
    assert_eq!(
        style_of(&d, "Closure date must")
            .or(style_of(&d, "day 31"))
            .and_then(|s| s.fg),
        Some(Color::Red),
        "errors in the error colour"
    );
    for _ in 0..2 {
        d.key(KeyCode::Backspace);
    }
    d.type_text("27");
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6").await;
    d.key(KeyCode::Char(' '));
    tokio::time::sleep(Duration::from_millis(100)).await;
    insta::assert_snapshot!("wizard_4_acknowledgement", d.screen());
    d.key(KeyCode::Enter);
    d.wait_for("step 5 of 6").await;
    // The returns not filed yet have been looked up.
    d.wait_for("No earlier return is left unfiled").await;
    insta::assert_snapshot!("wizard_5_review", d.screen());
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;
    d.type_text("I");
    tokio::time::sleep(Duration::from_millis(100)).await;
    insta::assert_snapshot!("wizard_6_confirm", d.screen());
    // Backing out step by step, then closing asks before the typed input is discarded.
    for _ in 0..6 {
        d.key(KeyCode::Esc);
    }
    d.wait_for("Discard").await;
    d.char('y');
    d.wait_until("the wizard to close", Duration::from_secs(5), |s| {
        !s.contains("step 1 of 6")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn an_error_state() {
    let sandbox = SandboxConfig {
        error_rate: 1.0,
        ..SandboxConfig::default()
    };
    let d = Dashboard::start(Options {
        sandbox,
        size: (120, 20),
        ..Options::default()
    })
    .await;
    let screen = d
        .wait_until("the failure", Duration::from_secs(20), |s| {
            s.contains("HTTP 5")
        })
        .await;
    assert!(
        screen.contains("connection trouble") || screen.contains("The service failed"),
        "{screen}"
    );
    assert_eq!(
        style_of(&d, "The service failed").and_then(|s| s.fg),
        Some(Color::Red)
    );
    d.quit().await;
}

#[tokio::test]
async fn the_light_theme_paints_its_own_background() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.command("theme light");
    d.wait_until("the light theme", Duration::from_secs(5), |_| {
        d.buffer()[(0, 10)].style().bg == Some(Color::Rgb(0xff, 0xff, 0xff))
    })
    .await;
    // Under the list's text, in the empty part of the footer, and under the table's title: the
    // theme's white, not the terminal's own (dark) background.
    let buffer = d.buffer();
    let last = buffer.area.height - 1;
    let width = buffer.area.width;
    for (x, y) in [(width - 2, last), (width / 2, 6), (1, 3)] {
        assert_eq!(
            buffer[(x, y)].style().bg,
            Some(Color::Rgb(0xff, 0xff, 0xff)),
            "cell ({x}, {y})"
        );
    }
    let title = style_of(&d, "Registrations —").expect("the pane's title");
    assert_ne!(
        title.fg,
        Some(Color::Rgb(0xff, 0xff, 0xff)),
        "readable on white"
    );
    d.quit().await;
}
