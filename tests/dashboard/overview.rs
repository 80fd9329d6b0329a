//! The Overview: each tile's count is what its list holds, choosing it opens that list with the
//! same filter, a count that fails says so while the others fill in, the map's cells carry
//! their standing in colour and symbol, and the calendar marks the days returns are due.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use chrono::{Datelike, Days, NaiveDate};
use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::Color;
use taxdash::api::Client;
use taxdash::model::filters::{
    ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter, RegistrationFilter,
    TransactionFilter,
};
use taxdash::model::{
    Exemption, ExemptionStatus, Filing, FilingStatus, NexusStatus, PageParams, ProcessingStatus,
    RegistrationStatus, TransactionStatus,
};
use taxdash::rules::attention::{Standing, standings};

use crate::harness::{Dashboard, Options, TODAY};
use crate::relay::Relay;

fn options(size: (u16, u16)) -> Options {
    Options {
        size,
        first_tab: "Overview",
        ..Options::default()
    }
}

/// Waits until every list has answered (the title says when it was updated).
async fn complete(d: &Dashboard) -> String {
    d.wait_until("the Overview filled", Duration::from_secs(30), |s| {
        s.contains("Overview — updated")
    })
    .await
}

/// The count shown before `label` on the screen: `7 overdue` → 7.
fn count(screen: &str, label: &str) -> u64 {
    for line in screen.lines() {
        let mut from = 0;
        while let Some(at) = line[from..].find(label) {
            let at = from + at;
            let before = line[..at].trim_end();
            let token = before
                .rsplit(|c: char| c.is_whitespace() || c == '│' || c == '·')
                .next()
                .unwrap_or("");
            if let Ok(n) = token.replace(',', "").parse() {
                return n;
            }
            from = at + label.len();
        }
    }
    panic!("no count before {label:?} on the screen:\n{screen}");
}

/// Every row of a list, read page by page.
async fn all<T, F, Fut>(mut page: F) -> Vec<T>
where
    F: FnMut(PageParams) -> Fut,
    Fut: std::future::Future<Output = taxdash::api::ApiResult<taxdash::model::Page<T>>>,
{
    let mut rows = Vec::new();
    for n in 1.. {
        let p = page(PageParams::new(n, 100)).await.unwrap();
        let last = p.page >= p.pages || p.items.is_empty();
        rows.extend(p.items);
        if last {
            break;
        }
    }
    rows
}

fn not_filed() -> Vec<FilingStatus> {
    vec![
        FilingStatus::Unfiled,
        FilingStatus::Filing,
        FilingStatus::Paused,
    ]
}

async fn unfiled(client: &Client) -> Vec<Filing> {
    let filter = FilingFilter {
        status_in: not_filed(),
        ..FilingFilter::default()
    };
    all(|p| client.list_filings(&filter, p)).await
}

async fn exemptions(client: &Client) -> Vec<Exemption> {
    let filter = ExemptionFilter::default();
    all(|p| client.list_exemptions(&filter, p)).await
}

/// The economic nexus, physical presences and registrations of the organization.
async fn jurisdiction_lists(
    c: &Client,
) -> (
    Vec<taxdash::model::Nexus>,
    Vec<taxdash::model::PhysicalNexus>,
    Vec<taxdash::model::Registration>,
) {
    let (nf, pf, rf) = (
        NexusFilter::default(),
        PhysicalNexusFilter::default(),
        RegistrationFilter::default(),
    );
    let nexus = all(|p| c.list_nexus(&nf, p)).await;
    let physical = all(|p| c.list_physical_nexus(&pf, p)).await;
    let registrations = all(|p| c.list_registrations(&rf, p)).await;
    (nexus, physical, registrations)
}

async fn total_registrations(client: &Client, status: RegistrationStatus) -> u64 {
    let filter = RegistrationFilter {
        status_in: vec![status],
        ..RegistrationFilter::default()
    };
    client
        .list_registrations(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

async fn total_transactions(client: &Client, filter: TransactionFilter) -> u64 {
    client
        .list_transactions(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

fn day(offset: i64) -> NaiveDate {
    if offset >= 0 {
        TODAY + Days::new(offset.unsigned_abs())
    } else {
        TODAY - Days::new(offset.unsigned_abs())
    }
}

#[tokio::test]
async fn each_tile_counts_what_its_list_holds() {
    let d = Dashboard::start(options((200, 50))).await;
    let screen = complete(&d).await;
    let c = &d.client;

    // Filings: still to file, due before today / within 30 days; paused ones once, as paused.
    let filings = unfiled(c).await;
    let due_in = |from: Option<NaiveDate>, to: NaiveDate| {
        filings
            .iter()
            .filter(|f| f.status != Some(FilingStatus::Paused))
            .filter(|f| {
                f.due_date
                    .is_some_and(|d| from.is_none_or(|f| d >= f) && d <= to)
            })
            .count() as u64
    };
    assert_eq!(count(&screen, "overdue"), due_in(None, day(-1)), "{screen}");
    assert_eq!(
        count(&screen, "due in 30 days"),
        due_in(Some(TODAY), day(30))
    );
    let paused = filings
        .iter()
        .filter(|f| f.status == Some(FilingStatus::Paused))
        .count() as u64;
    assert_eq!(count(&screen, "paused"), paused);

    // Exemptions: active ones ending within 30 days; any ending in the 30 days before today.
    let all_exemptions = exemptions(c).await;
    let ends_in = |from: NaiveDate, to: NaiveDate, active: bool| {
        all_exemptions
            .iter()
            .filter(|e| !active || e.status == Some(ExemptionStatus::Active))
            .filter(|e| e.end_date.is_some_and(|d| d >= from && d <= to))
            .count() as u64
    };
    assert_eq!(
        count(&screen, "expiring in 30 days"),
        ends_in(TODAY, day(30), true)
    );
    assert_eq!(
        count(&screen, "expired in 30 days"),
        ends_in(day(-30), day(-1), false)
    );

    // Nexus approaching its thresholds: the service's own filtered total.
    let approaching = c
        .list_nexus(
            &NexusFilter {
                status_in: vec![NexusStatus::Approaching],
                ..NexusFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert_eq!(count(&screen, "approaching"), approaching);

    // Registrations waiting on the user.
    assert_eq!(
        count(&screen, "awaiting clarification"),
        total_registrations(c, RegistrationStatus::AwaitingClarification).await
    );
    assert_eq!(
        count(&screen, "deregistering"),
        total_registrations(c, RegistrationStatus::Deregistering).await
    );
    let (nexus, physical, registrations) = jurisdiction_lists(c).await;
    // Missing credentials: only registrations that can hold them, by the rule the
    // credentials form refuses the others with (a sales tax id on file, and the rest).
    let lacking = registrations
        .iter()
        .filter(|r| r.has_all_credentials == Some(false));
    let can_hold = lacking
        .clone()
        .filter(|r| r.missing_for_credentials().is_empty())
        .count() as u64;
    assert!(
        can_hold < lacking.count() as u64,
        "the demo has registrations that cannot hold credentials"
    );
    assert_eq!(count(&screen, "missing credentials"), can_hold);
    assert_eq!(
        count(&screen, "to mark as collecting"),
        registrations
            .iter()
            .filter(|r| r.needs_mark_as_collecting == Some(true))
            .count() as u64
    );

    // Exposed and not registered: nexus cross-checked with presences and registrations.
    let exposed = standings(&nexus, &physical, &registrations, TODAY)
        .iter()
        .filter(|j| j.standing == Standing::ExposedUnregistered)
        .count() as u64;
    assert_eq!(count(&screen, "jurisdiction"), exposed);

    // Transactions.
    assert_eq!(
        count(&screen, "invalid"),
        total_transactions(
            c,
            TransactionFilter {
                status: Some(TransactionStatus::Invalid),
                ..TransactionFilter::default()
            }
        )
        .await
    );
    assert_eq!(
        count(&screen, "to fetch again"),
        total_transactions(
            c,
            TransactionFilter {
                processing_status_in: vec![ProcessingStatus::NeedsRefetch],
                ..TransactionFilter::default()
            }
        )
        .await
    );
    // On v1 the imports tile says what it needs.
    assert!(screen.contains("needs the Tenanted API"), "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn choosing_a_count_opens_its_list_with_the_same_filter() {
    let d = Dashboard::start(options((200, 50))).await;
    let screen = complete(&d).await;
    let overdue = count(&screen, "overdue");
    // Exposed → approaching → overdue.
    d.key(KeyCode::Down);
    d.key(KeyCode::Down);
    d.key(KeyCode::Enter);
    let filings = d
        .wait_until("the overdue filings", Duration::from_secs(15), |s| {
            s.contains("Filings — ") && s.contains("checked")
        })
        .await;
    assert!(
        filings.contains(&format!("overdue (due before {TODAY})")),
        "{filings}"
    );
    assert!(
        filings.contains(&format!("{overdue} of ")),
        "the list holds what the tile counted ({overdue}): {filings}"
    );
    assert!(filings.contains(" 7 Filings"), "{filings}");

    // A count the service cannot filter by opens a list kept here by the same rule.
    d.char('1');
    let screen = complete(&d).await;
    let collecting = count(&screen, "to mark as collecting");
    // From overdue (kept from before): due in 30 days → paused → awaiting clarification → to
    // mark as collecting.
    for _ in 0..4 {
        d.key(KeyCode::Down);
    }
    d.key(KeyCode::Enter);
    let kept = d
        .wait_until("the registrations to mark", Duration::from_secs(15), |s| {
            s.contains("Registrations — to mark as collecting: ") && s.contains("checked")
        })
        .await;
    assert!(
        kept.contains(&format!("to mark as collecting: {collecting} of ")),
        "{kept}"
    );

    // `:tile N` opens a tile's first count: the approaching jurisdictions in Nexus.
    d.char('1');
    complete(&d).await;
    let approaching = count(&d.screen(), "approaching");
    d.command("tile 2");
    let nexus = d
        .wait_until("the approaching nexus", Duration::from_secs(15), |s| {
            s.contains("status APPROACHING") && s.contains("row 1 of")
        })
        .await;
    assert!(
        nexus.contains(&format!("row 1 of {approaching} ")),
        "{nexus}"
    );

    // The exposed jurisdictions, each saying why it is listed, in words: the rule that flagged
    // it and the state of its registration.
    d.char('1');
    complete(&d).await;
    let exposed = count(&d.screen(), "jurisdictions");
    d.command("tile 1");
    let list = d
        .wait_until("the exposed jurisdictions", Duration::from_secs(15), |s| {
            s.contains("exposed, not registered (") && s.contains("row 1 of")
        })
        .await;
    let said = list
        .lines()
        .filter(|l| l.contains("; not registered") || l.contains("; registration "))
        .filter(|l| {
            l.contains("economic nexus")
                || l.contains("nexus met")
                || l.contains("physical presence since")
        })
        .count();
    assert_eq!(said as u64, exposed, "each row says why:\n{list}");
    assert!(
        list.contains("CA-ON Ontario"),
        "a province named by its code is spelled out:\n{list}"
    );

    // The exemptions expiring within 30 days, from their tile's first count.
    d.char('1');
    complete(&d).await;
    let expiring = count(&d.screen(), "expiring in 30 days");
    d.command("tile 5");
    let list = d
        .wait_until("the expiring exemptions", Duration::from_secs(15), |s| {
            s.contains("Exemptions — ") && s.contains("checked")
        })
        .await;
    assert!(list.contains(&format!("{expiring} of ")), "{list}");
    d.quit().await;
}

#[tokio::test]
async fn esc_on_a_tiles_list_goes_back_to_the_tile_and_the_tab_shows_its_own_list_again() {
    let d = Dashboard::start(options((200, 50))).await;
    complete(&d).await;
    // The Registrations tab holds its own list first.
    d.char('2');
    d.wait_for("Registrations — all registrations").await;
    d.char('1');
    complete(&d).await;

    d.command("tile 4");
    let title = "Registrations — status AWAITING_CLARIFICATION";
    d.wait_for(title).await;

    // Esc: the Overview again, the tile still chosen (Enter opens the same list).
    d.key(KeyCode::Esc);
    complete(&d).await;
    d.key(KeyCode::Enter);
    d.wait_for(title).await;
    // ctrl-o goes back the same way.
    d.key_with(KeyCode::Char('o'), KeyModifiers::CONTROL);
    complete(&d).await;

    // The tab shows its own list again.
    d.char('2');
    d.wait_for("Registrations — all registrations").await;

    // A tile's list left by another tab is that tab's list: Esc clears its filter and stays.
    d.char('1');
    complete(&d).await;
    d.command("tile 4");
    d.wait_for(title).await;
    d.char('3');
    d.char('2');
    d.wait_for(title).await;
    d.key(KeyCode::Esc);
    d.wait_for("Registrations — all registrations").await;
    d.quit().await;
}

#[tokio::test]
async fn a_count_that_fails_says_so_and_the_others_fill_in() {
    let broken = Arc::new(AtomicBool::new(true));
    let switch = broken.clone();
    let d = Dashboard::start_behind(options((200, 50)), |target| {
        Relay::breaking("/v1/exemptions", switch).serve(target)
    })
    .await;
    let screen = complete(&d).await;
    assert!(
        screen.contains("expiring in 30 days: could not count"),
        "{screen}"
    );
    // The rest filled in all the same.
    let filings = unfiled(&d.client).await;
    let overdue = filings
        .iter()
        .filter(|f| f.due_date.is_some_and(|d| d < TODAY))
        .count() as u64;
    assert_eq!(count(&screen, "overdue"), overdue);
    // The service mends: `r` counts again.
    broken.store(false, std::sync::atomic::Ordering::SeqCst);
    d.char('r');
    let screen = d
        .wait_until("the exemptions counted", Duration::from_secs(15), |s| {
            s.contains("Overview — updated") && !s.contains("could not count")
        })
        .await;
    assert!(screen.contains("expiring in 30 days"), "{screen}");
    d.quit().await;
}

/// The style of the map cell of `code` (its first letter) and the symbol after it.
fn cell(d: &Dashboard, code: &str) -> (String, ratatui::style::Style) {
    let buffer = d.buffer();
    let area = buffer.area;
    // The map is under the tiles: look from the Map's title down.
    let rows: Vec<String> = (0..area.height)
        .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect())
        .collect();
    let top = rows.iter().position(|r| r.contains(" Map ")).unwrap();
    for (y, row) in rows.iter().enumerate().skip(top + 1) {
        let cells: Vec<&str> = (0..area.width)
            .map(|x| buffer[(x, y as u16)].symbol())
            .collect();
        for x in 0..cells.len().saturating_sub(2) {
            let left_edge = x == 0 || !cells[x - 1].chars().all(char::is_alphabetic);
            if left_edge && cells[x..x + 2].concat() == code {
                let symbol = cells[x + 2].to_owned();
                return (symbol, buffer[(x as u16, y as u16)].style());
            }
        }
        if row.contains("exposed,") {
            break;
        }
    }
    panic!("no cell {code} on the map:\n{}", d.screen());
}

#[tokio::test]
async fn the_map_shows_each_standing_by_colour_and_symbol() {
    let d = Dashboard::start(options((200, 50))).await;
    complete(&d).await;
    let c = &d.client;
    let (nexus, physical, registrations) = jurisdiction_lists(c).await;
    let judged = standings(&nexus, &physical, &registrations, TODAY);
    let us = |standing: Standing| {
        judged
            .iter()
            .find(|j| j.country == "US" && j.standing == standing)
            .and_then(|j| j.state.clone())
            .unwrap_or_else(|| panic!("the demo has a US state {standing:?}"))
    };
    for (standing, symbol, colour) in [
        (Standing::Registered, "+", Color::Green),
        (Standing::ExposedUnregistered, "!", Color::Red),
        (Standing::Approaching, "~", Color::Yellow),
    ] {
        let code = us(standing);
        let (shown, style) = cell(&d, &code);
        assert_eq!(shown, symbol, "{code} is {standing:?}");
        assert_eq!(style.fg, Some(colour), "{code} is {standing:?}");
    }
    // The arrows move over the map; the line under it names the selected jurisdiction.
    d.char(']');
    d.key(KeyCode::Right);
    let screen = d.wait_for("UT Utah").await;
    assert!(screen.contains("registration"), "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn the_calendar_marks_the_days_returns_are_due() {
    let d = Dashboard::start(options((200, 50))).await;
    let screen = complete(&d).await;
    let filings = unfiled(&d.client).await;
    let this_month = |day: NaiveDate| day.year() == TODAY.year() && day.month() == TODAY.month();
    let overdue_days: Vec<u32> = filings
        .iter()
        .filter_map(|f| f.due_date)
        .filter(|d| *d < TODAY && this_month(*d))
        .map(|d| d.day())
        .collect();
    assert!(
        !overdue_days.is_empty(),
        "the demo has returns overdue this month"
    );
    for day in overdue_days {
        assert!(
            screen.contains(&format!("{day:>2}!")),
            "{day}! on:\n{screen}"
        );
    }
    let later: Vec<NaiveDate> = filings
        .iter()
        .filter_map(|f| f.due_date)
        .filter(|d| *d >= TODAY && this_month(*d))
        .collect();
    for day in &later {
        let n = later.iter().filter(|d| *d == day).count();
        let mark = ["", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
            .get(n)
            .copied()
            .unwrap_or("⁺");
        assert!(
            screen.contains(&format!("{:>2}{mark}", day.day())),
            "{day} marked {mark}:\n{screen}"
        );
    }
    // Moving to a day lists its returns; Enter opens the one under the cursor in Filings.
    d.char(']');
    d.char(']');
    let due = filings
        .iter()
        .filter_map(|f| f.due_date.map(|d| (d, f)))
        .filter(|(d, _)| *d >= TODAY && this_month(*d))
        .min_by_key(|(d, _)| *d);
    if let Some((due, filing)) = due {
        for _ in 0..(due - TODAY).num_days() {
            d.key(KeyCode::Right);
        }
        d.wait_for(&format!("{due} ")).await;
        d.key(KeyCode::Enter);
        let opened = d.wait_for(&filing.id).await;
        assert!(opened.contains(" 7 Filings"), "{opened}");
    }
    d.quit().await;
}

#[tokio::test]
async fn snapshots_at_200x50_80x24_and_in_mono() {
    // The clock in the title and the Today cell changes from run to run.
    let pinned = |mut screen: String| {
        for mark in ["updated ", "counted at "] {
            if let Some(i) = screen.find(mark).map(|i| i + mark.len()) {
                screen = format!("{}HH:MM{}", &screen[..i], &screen[i + 5..]);
            }
        }
        screen
    };
    let d = Dashboard::start(options((200, 50))).await;
    complete(&d).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("overview_200x50", pinned(d.screen()));
    d.quit().await;

    let d = Dashboard::start(options((80, 24))).await;
    complete(&d).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("overview_80x24", pinned(d.screen()));
    d.char(']');
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("overview_80x24_map", pinned(d.screen()));
    d.command("theme mono");
    d.wait_for("theme mono").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    // In mono every cell carries its standing as a symbol: no colour at all.
    let buffer = d.buffer();
    assert!(
        buffer
            .content()
            .iter()
            .all(|c| matches!(c.fg, Color::Reset) && matches!(c.bg, Color::Reset)),
        "mono has no colour"
    );
    let screen = d.screen();
    for symbol in ["!", "+", "~", "·"] {
        assert!(screen.contains(symbol), "{symbol} in mono:\n{screen}");
    }
    insta::assert_snapshot!("overview_80x24_map_mono", pinned(screen));
    d.quit().await;
}

#[tokio::test]
async fn on_the_tenanted_api_the_imports_awaiting_approval_are_counted() {
    use taxdash::model::tenanted::CertificateImportStatus;
    let d = Dashboard::start_tenanted(options((200, 50))).await;
    let screen = complete(&d).await;
    let waiting = d
        .client
        .list_certificate_imports(
            Some(CertificateImportStatus::Uploaded.as_str()),
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert_eq!(count(&screen, "awaiting approval"), waiting, "{screen}");
    assert!(!screen.contains("needs the Tenanted API"), "{screen}");
    // Its count opens the imports view of Exemptions, filtered to those awaiting approval.
    d.command("tile 7");
    let imports = d
        .wait_until(
            "the imports awaiting approval",
            Duration::from_secs(15),
            |s| s.contains("certificate imports") && s.contains("row 1 of"),
        )
        .await;
    assert!(
        imports.contains(&format!("row 1 of {waiting} ")),
        "{imports}"
    );
    d.quit().await;
}

#[tokio::test]
async fn the_approaching_tile_lists_the_soonest_projected_crossing_first() {
    use taxdash::reads;
    let d = Dashboard::start(options((200, 50))).await;
    let forecasts = reads::read_forecasts(&d.client, TODAY, &mut reads::Quiet)
        .await
        .unwrap();
    // Soonest crossing first (as `taxdash nexus forecast` lists them); the tile shows three.
    let dated: Vec<_> = forecasts
        .iter()
        .filter(|f| f.status.as_deref() == Some("APPROACHING"))
        .filter_map(|f| f.day().map(|day| (f, day)))
        .take(3)
        .collect();
    assert!(
        dated.len() >= 2,
        "the demo has approaching states that will be crossed: {forecasts:?}"
    );
    let screen = complete(&d).await;
    let rows: Vec<usize> = dated
        .iter()
        .map(|(f, day)| {
            let shown = format!(
                "• {} {} ~{}",
                f.state_code,
                f.state_name,
                day.format("%Y-%m")
            );
            screen
                .lines()
                .position(|l| l.contains(&shown))
                .unwrap_or_else(|| panic!("{shown} in the tile: {screen}"))
        })
        .collect();
    assert!(
        rows.windows(2).all(|w| w[0] < w[1]),
        "soonest first: {rows:?} {screen}"
    );
    d.quit().await;
}
