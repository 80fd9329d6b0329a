//! One truth, checked across the surfaces on several demos: on three seeds and three days, every
//! count of the Overview is the number of rows of the list it opens (chosen with `Enter`, read
//! off that list as a user lands on it), and the filing check names the same filings in the
//! CLI's reading, the Overview's tile and the Filings list it opens; tile 4's missing credentials
//! are the registrations the credentials form's rule would take them for; and every nexus's
//! Tenanted exposure history agrees with its v1 record.
//!
//! Its own test binary: the day the dashboard takes as today is one per process, and here it
//! changes from one demo to the next.

#[allow(dead_code)]
#[path = "../dashboard/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "../dashboard/relay.rs"]
mod relay;

use std::time::Duration;

use chrono::NaiveDate;
use crossterm::event::KeyCode;
use taxdash::model::PageParams;
use taxdash::model::Tolerance;
use taxdash::model::filters::{FilingFilter, RegistrationFilter};
use taxdash::reads::{Quiet, read_filing_findings};
use taxdash::sandbox::SandboxConfig;

use harness::{Dashboard, Options, count, rows_of};

/// The demos: three seeds, each on three days (the demo dated around the day it starts on, as
/// `taxdash --demo --today DAY` is), across a month's end and a quarter's.
const SEEDS: [u64; 3] = [1, 7, 42];
const DAYS: [&str; 3] = ["2026-11-26", "2026-12-31", "2027-03-03"];

/// The Overview's counts in the order `↓` walks them, by the words after each number.
const ENTRIES: [&str; 16] = [
    "jurisdictions",
    "approaching",
    "overdue",
    "due in 30 days",
    "paused",
    "awaiting clarification",
    "to mark as collecting",
    "missing credentials",
    "deregistering",
    "expiring in 30 days",
    "expired in 30 days",
    "invalid",
    "to fetch again",
    "queued over a minute",
    "awaiting approval",
    "not adding up",
];

async fn overview(d: &Dashboard) -> String {
    d.wait_until("the Overview filled", Duration::from_mins(1), |s| {
        s.contains("Overview — updated")
    })
    .await
}

/// Chooses the `k`th count of the Overview and reads the list it opens.
async fn land(d: &Dashboard, k: usize, label: &str) -> u64 {
    d.char('1');
    overview(d).await;
    for _ in 0..ENTRIES.len() {
        d.key(KeyCode::Up);
    }
    for _ in 0..k {
        d.key(KeyCode::Down);
    }
    d.key(KeyCode::Enter);
    // The tab changes, then its list loads (a list kept here reads every page first).
    let landed = d
        .wait_until(
            &format!("the list {label:?} opens"),
            Duration::from_mins(1),
            |s| !s.contains("Overview — ") && rows_of(s).is_some(),
        )
        .await;
    // Settled: the same count twice, a moment apart.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = d.screen();
    assert_eq!(rows_of(&landed), rows_of(&again), "{label}: {again}");
    rows_of(&again).unwrap_or_else(|| panic!("{label}: no rows line: {again}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_count_is_the_list_it_opens_and_every_surface_names_the_same_filings() {
    for seed in SEEDS {
        for day in DAYS {
            let today: NaiveDate = day.parse().unwrap();
            let d = Dashboard::start(Options {
                sandbox: SandboxConfig {
                    seed,
                    anchor: Some(today),
                    ..SandboxConfig::default()
                },
                size: (200, 50),
                first_tab: "Overview",
                today,
                ..Options::default()
            })
            .await;
            let screen = overview(&d).await;
            let at = format!("seed {seed}, {day}");
            let mut counted = Vec::new();
            for (k, label) in ENTRIES.iter().enumerate() {
                let Some(shown) = count(&screen, label) else {
                    continue;
                };
                let landed = land(&d, k, label).await;
                assert_eq!(
                    shown, landed,
                    "{at}: the Overview counts {shown} {label}, the list it opens holds {landed}"
                );
                counted.push((*label, shown));
            }
            println!("{at}: every count is its list's: {counted:?}");
            assert!(
                counted.iter().any(|(_, n)| *n > 0),
                "{at}: the demo has something to count: {counted:?}"
            );

            // Missing credentials: the registrations the credentials form would take them for
            // (by its rule), read through the client, not every one the service flags.
            let mut registrations = Vec::new();
            for n in 1.. {
                let page = d
                    .client
                    .list_registrations(&RegistrationFilter::default(), PageParams::new(n, 100))
                    .await
                    .unwrap();
                let last = page.page >= page.pages || page.items.is_empty();
                registrations.extend(page.items);
                if last {
                    break;
                }
            }
            let can_take = registrations
                .iter()
                .filter(|r| {
                    r.has_all_credentials == Some(false) && r.missing_for_credentials().is_empty()
                })
                .count() as u64;
            assert_eq!(
                count(&screen, "missing credentials"),
                Some(can_take),
                "{at}: tile 4 counts the registrations that can hold credentials"
            );

            // The filing check: the CLI's reading names as many filings as the tile and its list.
            let (_, findings) = read_filing_findings(
                &d.client,
                &FilingFilter::default(),
                Tolerance::default(),
                today,
                &mut Quiet,
            )
            .await
            .unwrap();
            let mut flagged: Vec<&str> = findings.iter().map(|f| f.filing_id.as_str()).collect();
            flagged.dedup();
            let tile = count(&screen, "not adding up").unwrap();
            assert_eq!(
                flagged.len() as u64,
                tile,
                "{at}: the CLI's check flags {flagged:?}, the tile counts {tile}"
            );
            // The list the tile opens names those filings, each marked in its column.
            land(&d, ENTRIES.len() - 1, "not adding up").await;
            let list = d.screen();
            for id in flagged.iter().take(10) {
                let line = list.lines().find(|l| l.contains(id));
                if let Some(line) = line {
                    assert!(line.contains('✗'), "{at}: {id} is marked: {line}");
                }
            }
            assert!(
                !list.contains(" ✓ "),
                "{at}: no filing adds up here: {list}"
            );
            d.quit().await;
        }
    }
}

/// The Tenanted exposure history of every nexus agrees with its v1 record on three seeds and
/// three days: the threshold is first met on the day the record says economic nexus was met (and
/// never when it was not), with figures that meet the thresholds; a figure of the current period
/// is never more than the record counts for the whole period; a registered nexus does not fall
/// back to approaching or exposed; the last event is the record's present status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exposure_history_of_every_nexus_agrees_with_its_record() {
    use std::net::{Ipv4Addr, SocketAddr};
    use taxdash::api::{ApiVersion, Client, ClientConfig, Generation, NexusFilter, Selector};
    use taxdash::credentials::ApiKey;
    use taxdash::model::NexusStatus;
    use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox};

    for seed in SEEDS {
        for day in DAYS {
            let today: NaiveDate = day.parse().unwrap();
            let sandbox = Sandbox::start(
                SandboxConfig {
                    seed,
                    anchor: Some(today),
                    rate_limit_per_min: 0,
                    ..SandboxConfig::default()
                },
                SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            )
            .await
            .expect("the sandbox starts");
            let (_, key) = DEMO_CREDENTIALS[0];
            let mut config = ClientConfig::new(
                url::Url::parse(&sandbox.base_url()).unwrap(),
                "",
                ApiKey::new(key).unwrap(),
            );
            config.generation = Generation::Tenanted(ApiVersion::LATEST);
            config.selector = Selector::Home;
            let client = Client::new(config).unwrap();
            let mut nexus = Vec::new();
            for n in 1.. {
                let page = client
                    .list_nexus(&NexusFilter::default(), PageParams::new(n, 100))
                    .await
                    .unwrap();
                let last = page.page >= page.pages || page.items.is_empty();
                nexus.extend(page.items);
                if last {
                    break;
                }
            }
            let at = format!("seed {seed}, {day}");
            let mut met = 0;
            for n in &nexus {
                let events = client
                    .nexus_exposure_history(&n.id, PageParams::new(1, 100))
                    .await
                    .unwrap()
                    .items;
                let place = format!("{at}, {}-{}", n.country_code, n.state_code);
                assert!(!events.is_empty(), "{place}: a history");
                assert!(
                    events
                        .windows(2)
                        .all(|w| w[0].occurred_at <= w[1].occurred_at),
                    "{place}: oldest first"
                );
                let last = events.last().unwrap();
                assert_eq!(
                    last.status.as_deref(),
                    n.status.as_ref().map(NexusStatus::as_str),
                    "{place}: the history ends in the record's status"
                );
                let first_met = events
                    .iter()
                    .find(|e| e.event_type.as_str() == "THRESHOLD_MET");
                if n.economic_nexus_met == Some(true) {
                    met += 1;
                    let e = first_met.unwrap_or_else(|| {
                        panic!("{place}: met, and no THRESHOLD_MET: {events:?}")
                    });
                    assert_eq!(
                        Some(e.occurred_at.0.date_naive()),
                        n.economic_nexus_met_date,
                        "{place}: met on the record's day"
                    );
                    let by_sales = n
                        .threshold_sales
                        .filter(|t| !t.is_zero())
                        .is_some_and(|t| e.sales_amount.is_some_and(|s| s >= t));
                    let by_count = n
                        .threshold_transactions
                        .filter(|t| *t > 0)
                        .is_some_and(|t| e.transaction_count.is_some_and(|c| c >= t));
                    assert!(by_sales || by_count, "{place}: {e:?} meets {n:?}");
                } else {
                    assert!(first_met.is_none(), "{place}: not met, yet {first_met:?}");
                }
                let period = n.period_start_date.zip(n.period_end_date);
                for e in &events {
                    let on = e.occurred_at.0.date_naive();
                    if period.is_some_and(|(from, to)| (from..=to).contains(&on)) {
                        assert!(
                            e.sales_amount.unwrap_or_default()
                                <= n.transactions_amount.unwrap_or_default(),
                            "{place}: {e:?} counts more than the period's {:?}",
                            n.transactions_amount
                        );
                    }
                }
                let registered = events
                    .iter()
                    .position(|e| e.status.as_deref() == Some("REGISTERED"));
                if let Some(from) = registered {
                    for e in &events[from..events.len() - 1] {
                        assert!(
                            !matches!(
                                e.status.as_deref(),
                                Some("APPROACHING" | "EXPOSED" | "NOT_EXPOSED")
                            ),
                            "{place}: registered, then {e:?}"
                        );
                    }
                }
            }
            println!(
                "{at}: {} nexus histories agree with their records, {met} met by their sales",
                nexus.len()
            );
            assert!(met > 0, "{at}: some nexus is met by its sales");
            sandbox.stop().await;
        }
    }
}
