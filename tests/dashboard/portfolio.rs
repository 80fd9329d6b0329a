//! The portfolio on the Tenanted API: a row per organization the partner key reaches, each of
//! its counts the count that organization's Overview shows; `Enter` on a row opens that
//! organization's Overview (switching to it), on a count the list behind it, and `ctrl-o` comes
//! back; an organization that cannot be read is a row that says so.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::sandbox::DEMO_ORGANIZATIONS as ORGANIZATIONS;

use crate::harness::{Dashboard, Options, count, rows_of};

/// The portfolio's counts, in its columns' order, and the Overview's words each sums.
const COLUMNS: [(&str, &[&str]); 8] = [
    ("Overdue", &["overdue"]),
    ("Exposed", &["jurisdiction"]),
    ("Not adding up", &["not adding up"]),
    ("Due", &["due in 30 days"]),
    ("Approaching", &["approaching"]),
    ("Expiring", &["expiring in 30 days"]),
    (
        "Registrations",
        &[
            "awaiting clarification",
            "to mark as collecting",
            "missing credentials",
            "deregistering",
        ],
    ),
    (
        "Transactions",
        &["invalid", "to fetch again", "queued over a minute"],
    ),
];

fn options() -> Options {
    Options {
        first_tab: "Portfolio",
        size: (180, 45),
        ..Options::default()
    }
}

/// The name of each organization's row, top to bottom, and its counts.
fn rows(screen: &str) -> Vec<(&'static str, Vec<u64>)> {
    let mut found: Vec<(usize, &'static str, Vec<u64>)> = ORGANIZATIONS
        .iter()
        .filter_map(|o| {
            let (at, line) = screen
                .lines()
                .enumerate()
                .find(|(_, l)| l.contains(&format!("│{}", o.name)))?;
            let rest = &line[line.find(o.name)? + o.name.len()..];
            let counts = rest
                .split_whitespace()
                .take(COLUMNS.len())
                .map(|t| {
                    t.replace(',', "")
                        .parse()
                        .unwrap_or_else(|_| panic!("{t:?} is not a count: {line}"))
                })
                .collect();
            Some((at, o.name, counts))
        })
        .collect();
    found.sort_by_key(|(at, _, _)| *at);
    found.into_iter().map(|(_, n, c)| (n, c)).collect()
}

async fn read_whole(d: &Dashboard) -> String {
    d.wait_until("every organization read", Duration::from_mins(1), |s| {
        s.contains("Portfolio — 2 organizations ") && s.matches("  read ").count() >= 2
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn each_organization_s_counts_are_its_overview_s_and_enter_opens_it() {
    let d = Dashboard::start_tenanted(options()).await;
    let portfolio = read_whole(&d).await;
    let rows = rows(&portfolio);
    assert_eq!(rows.len(), 2, "{portfolio}");
    // Worst first: the rows' counts, column by column, never rise from one row to the next.
    assert!(rows[0].1 >= rows[1].1, "{portfolio}");

    for (at, (name, counts)) in rows.iter().enumerate() {
        // Enter on the organization's name: its Overview, acted on.
        d.key(KeyCode::Char('g'));
        d.key(KeyCode::Char('g'));
        for _ in 0..at {
            d.key(KeyCode::Down);
        }
        d.key(KeyCode::Enter);
        let overview = d
            .wait_until("its Overview", Duration::from_mins(1), |s| {
                s.contains(name) && s.contains("Overview — updated")
            })
            .await;
        for ((heading, words), shown) in COLUMNS.iter().zip(counts) {
            let overview_says: u64 = words.iter().map(|w| count(&overview, w).unwrap_or(0)).sum();
            assert_eq!(
                *shown, overview_says,
                "{name}: the portfolio's {heading} is {shown}, its Overview says \
                 {overview_says}:\n{overview}"
            );
        }
        // ctrl-o: back to the portfolio, as it was.
        d.key_with(KeyCode::Char('o'), KeyModifiers::CONTROL);
        d.wait_until("the portfolio again", Duration::from_secs(10), |s| {
            s.contains("Portfolio — 2 organizations ") && s.contains(name)
        })
        .await;
    }
    d.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn enter_on_a_count_opens_that_organization_s_list_behind_it() {
    let d = Dashboard::start_tenanted(options()).await;
    let portfolio = read_whole(&d).await;
    let rows = rows(&portfolio);
    // The second row's Due: its list, in that organization.
    let (name, counts) = &rows[1];
    let due = COLUMNS.iter().position(|(h, _)| *h == "Due").unwrap();
    d.key(KeyCode::Down);
    for _ in 0..=due {
        d.key(KeyCode::Right);
    }
    d.key(KeyCode::Enter);
    let landed = d
        .wait_until("the Filings list", Duration::from_mins(1), |s| {
            s.contains(name) && !s.contains("Portfolio — ") && rows_of(s).is_some()
        })
        .await;
    assert_eq!(rows_of(&landed), Some(counts[due]), "{landed}");
    d.key_with(KeyCode::Char('o'), KeyModifiers::CONTROL);
    d.wait_for("Portfolio — 2 organizations").await;
    d.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_organization_that_cannot_be_read_is_a_row_that_says_so() {
    let refused = ORGANIZATIONS[1].id;
    let d = Dashboard::start_tenanted_behind(options(), |target| {
        crate::relay::Relay::refusing_organization(refused).serve(target)
    })
    .await;
    let screen = d
        .wait_until("the refused row", Duration::from_mins(1), |s| {
            s.contains("cannot be read")
                && s.lines()
                    .any(|l| l.contains(ORGANIZATIONS[0].name) && l.contains("  read "))
        })
        .await;
    let line = screen
        .lines()
        .find(|l| l.contains(&format!("│{}", ORGANIZATIONS[1].name)))
        .unwrap_or_else(|| panic!("no row of the refused organization:\n{screen}"));
    assert!(line.contains("cannot be read"), "{line}");
    assert!(line.contains('?'), "its counts are unknown: {line}");
    // The other is read and shown; the one that cannot be read comes first (it needs its
    // person too).
    let at = |name| screen.lines().position(|l| l.contains(&format!("│{name}")));
    let (refused_at, other_at) = (at(ORGANIZATIONS[1].name), at(ORGANIZATIONS[0].name));
    assert!(other_at.is_some() && refused_at < other_at, "{screen}");
    d.quit().await;
}
