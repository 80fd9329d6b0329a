//! Pastes through the real loop (a terminal's bracketed paste: one event): a megabyte into a
//! form field is taken at once, cut to what the field keeps and said so; keys still answer
//! after it; a paste where no text field has the focus acts as no key.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::PageParams;
use taxdash::model::filters::CustomerFilter;

use crate::harness::{Dashboard, Options};

/// Opens Customers from the command line and waits for its list.
async fn open_customers(d: &Dashboard) {
    d.char(':');
    d.type_text("customers");
    d.key(KeyCode::Enter);
    d.wait_for("Customers — all customers").await;
    d.wait_for("row 1 of").await;
}

#[tokio::test]
async fn a_megabyte_pasted_into_a_name_is_taken_at_once_and_cut_to_what_the_field_keeps() {
    let d = Dashboard::start(Options::default()).await;
    open_customers(&d).await;
    d.char('n');
    d.wait_for("new customer").await;

    let started = Instant::now();
    d.paste(&"a".repeat(1 << 20));
    d.wait_until("the paste taken", Duration::from_secs(5), |s| {
        s.contains("Name keeps at most 255 characters")
    })
    .await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "a 1 MB paste took {took:?}");
    d.wait_for("Pasted 1,048,576 characters; Name keeps at most 255")
        .await;

    // Keys answer at once: Esc asks whether to discard the input, `n` keeps it.
    d.key(KeyCode::Esc);
    d.wait_for("Discard").await;
    d.char('n');
    d.wait_until("the question gone", Duration::from_secs(5), |s| {
        !s.contains("Discard")
    })
    .await;

    // What the field holds is what is sent: 255 characters.
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("Customers — {}", "a".repeat(20))).await;
    let filter = CustomerFilter {
        search_query: Some("aaaa".into()),
        ..CustomerFilter::default()
    };
    let found = d
        .client
        .list_customers(&filter, PageParams::new(1, 10))
        .await
        .unwrap();
    let names: Vec<usize> = found
        .items
        .iter()
        .filter_map(|c| c.name.as_deref())
        .map(|n| n.chars().count())
        .collect();
    assert_eq!(names, vec![255]);
    d.quit().await;
}

#[tokio::test]
async fn a_paste_where_no_text_field_has_the_focus_acts_as_no_key() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    // On a list, `q` would quit and `5` open a tab.
    d.paste("q5");
    d.wait_for("Nothing pasted: no text field has the focus")
        .await;
    let screen = d.screen();
    assert!(screen.contains("Registrations — "), "{screen}");
    // The loop still runs: the command line takes a paste.
    d.char(':');
    d.paste("custo\nmers");
    d.wait_for("custo mers").await;
    d.key(KeyCode::Esc);
    d.quit().await;
}
