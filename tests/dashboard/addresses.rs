//! Addresses through the real loop: the address check in the physical nexus form.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::PageParams;
use taxdash::model::filters::PhysicalNexusFilter;

use crate::harness::{Dashboard, Options};

fn ctrl(d: &Dashboard, c: char) {
    d.key_with(KeyCode::Char(c), KeyModifiers::CONTROL);
}

fn tab(d: &Dashboard, n: usize) {
    (0..n).for_each(|_| d.key(KeyCode::Tab));
}

/// The line of `screen` holding `text`.
fn line_with<'s>(screen: &'s str, text: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line with {text:?}:\n{screen}"))
}

#[tokio::test]
async fn an_address_is_checked_and_a_suggestion_taken_in_the_physical_nexus_form() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('3');
    d.wait_for("Physical").await;
    d.char('n');
    d.wait_for("New physical nexus").await;
    d.wait_for("Address: not checked").await;
    d.type_text("US");
    tab(&d, 1);
    d.type_text("CO");
    tab(&d, 1);
    d.type_text("2025-03-01");
    tab(&d, 2);
    for _ in 0..50 {
        if !d.screen().contains("nothing chosen") {
            break;
        }
        d.key(KeyCode::Right);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tab(&d, 1);
    d.type_text("1600 Glenarm Pl");
    tab(&d, 2);
    d.type_text("Denver");
    tab(&d, 1);
    // Not Denver's ZIP code.
    d.type_text("80302");

    ctrl(&d, 'l');
    let screen = d.wait_for("ctrl-t takes it").await;
    assert!(
        line_with(&screen, "Address:").contains("PARTIALLY_VERIFIED"),
        "{screen}"
    );
    let offered = line_with(&screen, "› 1600");
    assert!(
        offered.contains("DENVER") && offered.contains("80202"),
        "{screen}"
    );

    ctrl(&d, 't');
    d.wait_for("Address taken").await;
    ctrl(&d, 'l');
    let screen = d.wait_for("Address: VERIFIED").await;
    assert!(
        screen.contains("New physical nexus"),
        "the form stays: {screen}"
    );

    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for("Saved physical nexus").await;
    let saved = d
        .client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items
        .into_iter()
        .find(|p| p.street_1.as_deref() == Some("1600 GLENARM PL"))
        .expect("the record saved with the address taken");
    assert_eq!(saved.postal_code.as_deref(), Some("80202"));
    assert_eq!(saved.city.as_deref(), Some("DENVER"));
    d.quit().await;
}
