//! The exposure history of an economic nexus (Tenanted API) as a timeline, and its refusal on v1.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::NexusFilter;
use taxdash::model::tenanted::{ExposureEvent, ExposureEventType};
use taxdash::model::{Nexus, PageParams};
use taxdash::ui::panes::nexus::event_in_words;
use taxdash::ui::text;

use crate::harness::{Dashboard, Options};

/// A US state's economic nexus whose history has several events, one of them `Exposed` with an
/// amount of sales, and the state being the only row of its filter.
async fn nexus_with_history(d: &Dashboard) -> (Nexus, Vec<ExposureEvent>) {
    let rows = d
        .client
        .list_nexus(&NexusFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items;
    for n in rows {
        if n.country_code != "US" || n.state_code.is_empty() {
            continue;
        }
        let events = d
            .client
            .nexus_exposure_history(&n.id, PageParams::new(1, 100))
            .await
            .unwrap()
            .items;
        let exposed = events
            .iter()
            .any(|e| e.event_type == ExposureEventType::Exposed && e.sales_amount.is_some());
        if events.len() >= 2 && exposed {
            return (n, events);
        }
    }
    panic!("the demo data has an exposed state with a history");
}

/// Opens the economic view filtered to `state`.
async fn economic_row(d: &Dashboard, state: &str) {
    d.char('3');
    d.wait_for("row 1 of").await;
    d.char('V');
    d.wait_for("economic: all jurisdictions").await;
    d.char('/');
    d.wait_for("subdivision code").await;
    d.key(KeyCode::Tab);
    d.type_text(state);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("state {state}")).await;
    d.wait_for("row 1 of 1 ").await;
}

#[tokio::test]
async fn h_shows_the_exposure_history_as_a_timeline() {
    let d = Dashboard::start_tenanted(Options {
        size: (120, 40),
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    let (nexus, events) = nexus_with_history(&d).await;
    economic_row(&d, &nexus.state_code).await;

    d.char('h');
    let screen = d.wait_for(&format!("{} events", events.len())).await;
    assert!(screen.contains("Exposure history"), "{screen}");
    assert!(screen.contains(&nexus.id), "{screen}");
    let first = &events[0];
    assert!(
        screen.contains(&event_in_words(&first.event_type)),
        "the first event in words: {screen}"
    );
    // Every event and its amounts, scrolling down the timeline.
    let mut seen = String::new();
    for _ in 0..10 {
        seen.push_str(&d.screen());
        d.key(KeyCode::PageDown);
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let exposed = events
        .iter()
        .find(|e| e.event_type == ExposureEventType::Exposed)
        .unwrap();
    assert!(seen.contains("Exposed: tax is owed without a registration"));
    let amount = text::money(exposed.sales_amount.unwrap(), nexus.currency.as_deref());
    assert!(seen.contains(&amount), "sales as money ({amount})");
    if let Some(count) = exposed.transaction_count {
        assert!(seen.contains(&format!("{} transactions", text::thousands(count as u64))));
    }
    for e in &events {
        assert!(
            seen.contains(&text::timestamp(&e.occurred_at)),
            "{} is on the timeline",
            e.id
        );
    }
    d.char('g');
    d.char('g');
    tokio::time::sleep(Duration::from_millis(100)).await;
    insta::assert_snapshot!("exposure_timeline", without_status_line(&d.screen()));

    // Esc closes it, back to the list.
    d.key(KeyCode::Esc);
    d.wait_for("Sales vs threshold").await;
    d.quit().await;
}

#[tokio::test]
async fn h_on_v1_says_it_needs_the_tenanted_api() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('3');
    d.wait_for("row 1 of").await;
    d.char('V');
    d.wait_for("economic: all jurisdictions").await;
    d.wait_for("row 1 of").await;
    d.char('h');
    let screen = d.wait_for("needs the Tenanted API").await;
    assert!(!screen.contains("Exposure history"), "{screen}");
    d.quit().await;
}

/// The screen without its status line, where a notice may or may not still show.
fn without_status_line(screen: &str) -> String {
    let mut lines: Vec<&str> = screen.lines().collect();
    if lines.len() >= 2 {
        let status = lines.len() - 2;
        lines[status] = "";
    }
    lines.join("\n")
}

#[tokio::test]
async fn the_hint_to_the_economic_view_goes_once_it_is_answered() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('3');
    d.wait_for("row 1 of").await;
    d.char('h');
    d.wait_for("shows the economic view").await;
    d.char('V');
    let screen = d
        .wait_until("the economic view", Duration::from_secs(10), |s| {
            s.contains("economic: all jurisdictions")
        })
        .await;
    assert!(
        !screen.contains("shows the economic view"),
        "the hint went with the key that answered it: {screen}"
    );
    d.quit().await;
}
