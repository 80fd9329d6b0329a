//! Values written one way across the surfaces: a filing that does not add up reads in the
//! dashboard's detail as the check's own words (grouped money with its currency, the share cut
//! at one decimal), and the Overview's approaching tile shows the same share of a threshold as
//! the Nexus list for the same record.

use std::collections::BTreeSet;
use std::time::Duration;

use crossterm::event::KeyCode;
use taxdash::checks::filings::{Check, Finding};
use taxdash::model::filters::{FilingFilter, NexusFilter};
use taxdash::model::format;
use taxdash::model::{NexusStatus, PageParams};
use taxdash::rules::attention::threshold_share;

use crate::checks::{filing_findings, tab};
use crate::harness::{Dashboard, Options};

/// `36,811.00 USD against 41,228.32 USD (-4,417.32 USD, -10.7%)`: the figures of a finding as
/// the formatter writes them.
fn figures(f: &Finding) -> String {
    let currency = f.currency.as_deref();
    format!(
        "{} against {} ({}, {})",
        format::money(f.actual, currency),
        format::money(f.expected, currency),
        format::money_change(f.difference, currency),
        format::share_change(f.percent.expect("something was expected"))
    )
}

#[tokio::test]
async fn a_filing_that_does_not_add_up_reads_in_its_detail_as_the_check_writes_it() {
    let d = Dashboard::start(Options {
        size: (200, 50),
        ..Options::default()
    })
    .await;
    let found = filing_findings(&d).await;
    let sales = found
        .iter()
        .find(|f| f.check == Check::SalesVsTransactions)
        .expect("the demo plants sales that do not add up");
    let all = d
        .client
        .list_filings(&FilingFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap();
    let row = all
        .items
        .iter()
        .position(|f| f.id == sales.filing_id)
        .expect("the filing on the first page");

    d.wait_for("row 1 of").await;
    d.char(tab("Filings"));
    d.wait_until("the filing list", Duration::from_secs(10), |s| {
        s.contains("Filings — every status") && s.contains("row 1 of")
    })
    .await;
    for _ in 0..row {
        d.char('j');
    }
    d.wait_for(&format!("row {} of", row + 1)).await;
    d.key(KeyCode::Enter);
    let words = figures(sales);
    let detail = d
        .wait_until("the sales checked", Duration::from_secs(15), |s| {
            s.contains("sales vs its transactions:")
        })
        .await;
    assert!(detail.contains(&sales.filing_id), "{detail}");
    assert!(
        detail.contains(&format!("✗ sales vs its transactions: {words}")),
        "{words} in {detail}"
    );
    // Never the bare figures of before: `36811.00 against 41228.32`.
    assert!(
        !detail.contains(&format!("{} against", sales.actual)),
        "{detail}"
    );
    d.quit().await;
}

/// Every share (`95.8%`) followed by `tail` on the lines holding `line_has`.
fn shares(screen: &str, line_has: &str, tail: &str) -> BTreeSet<String> {
    screen
        .lines()
        .filter(|l| l.contains(line_has))
        .flat_map(|l| {
            l.match_indices(tail).map(move |(at, _)| {
                let start = l[..at]
                    .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                    .map_or(0, |i| i + 1);
                format!("{}%", &l[start..at])
            })
        })
        .filter(|s| s.len() > 1)
        .collect()
}

#[tokio::test]
async fn the_overview_and_the_nexus_list_show_one_share_of_a_threshold() {
    let d = Dashboard::start(Options {
        size: (200, 50),
        first_tab: "Overview",
        ..Options::default()
    })
    .await;
    let approaching = d
        .client
        .list_nexus(
            &NexusFilter {
                status_in: vec![NexusStatus::Approaching],
                ..NexusFilter::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .items;
    let written: BTreeSet<String> = approaching
        .iter()
        .filter_map(|n| threshold_share(n).0)
        .map(format::share)
        .collect();
    assert!(
        !written.is_empty(),
        "the demo has approaching jurisdictions"
    );

    let overview = d
        .wait_until("the Overview filled", Duration::from_secs(20), |s| {
            s.contains("Overview — updated")
        })
        .await;
    let on_tile = shares(&overview, "of sales", "% of sales");
    assert!(!on_tile.is_empty(), "{overview}");
    assert!(on_tile.is_subset(&written), "{on_tile:?} of {written:?}");

    d.command("tile 2");
    let nexus = d
        .wait_until("the approaching nexus", Duration::from_secs(15), |s| {
            s.contains("status APPROACHING") && s.contains("row 1 of")
        })
        .await;
    let in_list = shares(&nexus, "APPROACHING", "%");
    // The same record reads the same share in both places, never rounded up on either.
    for share in &on_tile {
        assert!(in_list.contains(share), "{share} in {nexus}");
    }
    d.quit().await;
}
