//! The checks in the dashboard: the filings that do not add up (a column and a filter in
//! Filings, a tile on the Overview) and `:check exemptions` in Transactions, each against what
//! the checks compute from the same demo data through a client.

use std::collections::BTreeSet;
use std::time::Duration;

use crossterm::event::KeyCode;
use taxdash::checks::filings::Finding;
use taxdash::model::Tolerance;
use taxdash::model::filters::FilingFilter;
use taxdash::reads::{Quiet, read_exemption_findings, read_filing_findings};

use crate::harness::{Dashboard, Options, TODAY};
use crate::relay::Relay;

/// What `taxdash check filings` finds (both comparisons), by the same reader.
pub async fn filing_findings(d: &Dashboard) -> Vec<Finding> {
    let (_, findings) = read_filing_findings(
        &d.client,
        &FilingFilter::default(),
        Tolerance::default(),
        TODAY,
        &mut Quiet,
    )
    .await
    .unwrap();
    findings
}

/// The ids of the filings that do not add up.
fn ids(findings: &[Finding]) -> BTreeSet<String> {
    findings.iter().map(|f| f.filing_id.clone()).collect()
}

/// The number key of the tab `title`.
pub fn tab(title: &str) -> char {
    let index = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == title)
        .expect("the tab");
    char::from_digit(index as u32 + 1, 10).expect("a tab number key")
}

#[tokio::test]
async fn filings_that_do_not_add_up_are_marked_and_filtered() {
    let d = Dashboard::start(Options {
        size: (160, 40),
        ..Options::default()
    })
    .await;
    let findings = filing_findings(&d).await;
    let planted = ids(&findings);
    assert!(
        !planted.is_empty(),
        "the demo plants filings that do not add up"
    );
    d.wait_for("row 1 of").await;
    d.char(tab("Filings"));
    d.wait_until("the filing list", Duration::from_secs(10), |s| {
        s.contains("Filings — every status") && s.contains("row 1 of")
    })
    .await;
    let screen = d.wait_filings_checked().await;
    assert!(screen.contains("Adds up"), "{screen}");
    assert!(screen.contains("✓"), "{screen}");

    // The filter form's "Adds up": does not add up.
    d.char('/');
    d.wait_for("space toggle").await;
    for _ in 0..3 {
        d.key(KeyCode::Tab);
    }
    d.key(KeyCode::Right);
    d.wait_for("(•) does not add up").await;
    d.key_with(KeyCode::Char('s'), crossterm::event::KeyModifiers::CONTROL);
    let n = planted.len();
    let screen = d
        .wait_until(
            "the filings that do not add up",
            Duration::from_secs(15),
            |s| s.contains("not adding up, every status:") && s.contains(&format!("row 1 of {n} ")),
        )
        .await;
    assert!(
        screen.contains(&format!("not adding up, every status: {n} of ")),
        "{screen}"
    );
    // The share as every surface writes it: one decimal, cut, an ASCII minus, no space.
    assert!(
        screen.contains("✗ -") && screen.contains("% collected"),
        "{screen}"
    );
    assert!(!screen.contains("−") && !screen.contains(" %"), "{screen}");
    assert!(!screen.contains(" ✓ "), "{screen}");
    assert_eq!(
        crate::filings::style_of(&d, "% collected").and_then(|s| s.fg),
        taxdash::ui::theme::Theme::default().status_bad.fg,
    );

    // The detail says it in words, and checks the sales against the transactions it lists.
    d.key(KeyCode::Enter);
    let detail = d
        .wait_until("the filing's transactions", Duration::from_secs(15), |s| {
            s.contains("Transactions covered") && !s.contains("Transactions covered\n")
        })
        .await;
    // The detail names the same findings the CLI's check does for this filing.
    let id = planted
        .iter()
        .find(|id| detail.contains(&format!("Filings — {id}")))
        .unwrap_or_else(|| panic!("a filing the check flags: {detail}"));
    for finding in findings.iter().filter(|f| f.filing_id == *id) {
        assert!(
            detail.contains(&format!("✗ {}", finding.check.words())),
            "{finding:?}: {detail}"
        );
    }
    let screen = d
        .wait_until("the sales checked", Duration::from_secs(15), |s| {
            s.contains("match its transactions")
                || s.contains("sales vs its transactions")
                || s.contains("no transactions listed")
        })
        .await;
    // The sales' own line has its own label: the detail says "Adds up" once, for the verdict.
    assert!(screen.contains("Sales vs transactions"), "{screen}");
    assert_eq!(screen.matches("Adds up").count(), 1, "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn the_overview_counts_the_filings_that_do_not_add_up_and_opens_them() {
    let d = Dashboard::start(Options {
        size: (200, 50),
        first_tab: "Overview",
        ..Options::default()
    })
    .await;
    let findings = filing_findings(&d).await;
    let planted = ids(&findings);
    let screen = d
        .wait_until("the Overview filled", Duration::from_secs(20), |s| {
            s.contains("Overview — updated")
        })
        .await;
    assert!(screen.contains("Filings that do not add up"), "{screen}");
    let n = planted.len();
    assert!(
        screen.contains(&format!("{n} not adding up")),
        "the tile counts {n}: {screen}"
    );
    // The largest difference first, as the check computes it.
    let largest = findings
        .iter()
        .max_by_key(|f| f.difference.abs())
        .expect("a finding");
    let shown = taxdash::ui::text::money(largest.difference.abs(), largest.currency.as_deref());
    assert!(
        screen.contains(&format!("-{shown}")),
        "the largest difference {largest:?}: {screen}"
    );
    d.command("tile 8");
    let list = d
        .wait_until(
            "the filings that do not add up",
            Duration::from_secs(15),
            |s| s.contains("Filings — ") && s.contains("checked"),
        )
        .await;
    assert!(
        list.contains(&format!("not adding up, every status: {n} of ")),
        "{list}"
    );
    d.quit().await;
}

#[tokio::test]
async fn check_exemptions_lists_the_exempt_sales_without_a_certificate() {
    let d = Dashboard::start(Options {
        size: (160, 40),
        ..Options::default()
    })
    .await;
    let from = TODAY.checked_sub_months(chrono::Months::new(12)).unwrap();
    let (checked, findings) = read_exemption_findings(&d.client, from, TODAY, &mut Quiet)
        .await
        .unwrap();
    let kinds: BTreeSet<&str> = findings.iter().map(|f| f.reason.kind()).collect();
    assert_eq!(kinds.len(), 5, "the demo plants each reason: {findings:?}");

    d.wait_for("row 1 of").await;
    d.char(tab("Transactions"));
    d.wait_for("Transactions — ").await;
    d.command("check exemptions");
    let said = format!(
        "{} checked: {} without a valid certificate.",
        taxdash::model::format::count(checked as u64, "exempt sale"),
        findings.len()
    );
    let screen = d
        .wait_until("the check", Duration::from_secs(20), |s| s.contains(&said))
        .await;
    assert!(
        screen.contains(&format!(
            "exempt sales {from} to {TODAY} without a valid certificate"
        )),
        "{screen}"
    );
    for f in &findings {
        let line = screen
            .lines()
            .find(|l| l.contains(&f.external_id))
            .unwrap_or_else(|| panic!("{} listed: {screen}", f.external_id));
        assert!(line.contains(&f.reason.words()), "{line}");
        assert!(line.contains(&f.date.to_string()), "{line}");
        assert!(line.contains(&f.jurisdiction), "{line}");
    }

    // Enter opens the sale; Esc goes back to the check.
    d.key(KeyCode::Enter);
    let first = &findings[0];
    d.wait_until("the sale's detail", Duration::from_secs(10), |s| {
        s.contains(&first.transaction_id) && !s.contains(&said)
    })
    .await;
    d.key(KeyCode::Esc);
    d.wait_for(&said).await;

    // The customer key opens the finding's customer.
    if let Some(name) = &first.customer_name {
        d.char('U');
        d.wait_until("the customer", Duration::from_secs(10), |s| {
            s.contains("Customers") && s.contains(name.as_str()) && !s.contains(&said)
        })
        .await;
        // Back comes to the check's findings, not to the plain list under them.
        d.key_with(KeyCode::Char('o'), crossterm::event::KeyModifiers::CONTROL);
        let back = d.wait_for(&said).await;
        assert!(back.contains(&first.external_id), "{back}");
    }
    d.quit().await;
}

/// The filings the Overview checks beside their transactions, listed through a client: every
/// filing whose period has ended and that sends its sales.
async fn filings_to_check(d: &Dashboard) -> BTreeSet<String> {
    let all: Vec<taxdash::model::Filing> =
        taxdash::reads::read_all(&d.client, &FilingFilter::default(), "filings", &mut Quiet)
            .await
            .unwrap();
    all.iter()
        .filter(|f| taxdash::checks::filings::needs_transactions(f, TODAY))
        .map(|f| f.id.clone())
        .collect()
}

/// The pages of the last 90 days' sales `file` remembers for the demo organization.
fn pace_pages_kept(file: &std::path::Path, organization: &str) -> u32 {
    taxdash::app::read_ahead::ReadAhead::open(file.to_owned()).pace_pages("demo", organization)
}

#[tokio::test]
async fn the_next_overview_reads_ahead_the_filings_the_last_one_checked() {
    use taxdash::app::Stores;
    use taxdash::app::read_ahead::ReadAhead;
    let options = || Options {
        size: (200, 50),
        first_tab: "Overview",
        ..Options::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("state").join("read-ahead.json");
    let stores = || Stores::default().with_read_ahead(ReadAhead::open(file.clone()));
    let organization = taxdash::sandbox::DEMO_CREDENTIALS[0].0;
    let filled = |s: &str| s.contains("Overview — updated");

    // The first morning: nothing to read ahead; the filings checked are remembered.
    let first =
        Dashboard::start_with_stores_behind(options(), stores(), |base| async move { base }).await;
    let screen = first
        .wait_until("the Overview filled", Duration::from_secs(30), filled)
        .await;
    let first_requests = first.client.stats().requests;
    let n = ids(&filing_findings(&first).await).len();
    assert!(
        screen.contains(&format!("{n} not adding up")),
        "the tile counts {n}: {screen}"
    );
    let checked = filings_to_check(&first).await;
    assert!(checked.len() > 20, "the demo's past filings: {checked:?}");
    let sales_pages = first
        .client
        .list_transactions(
            &taxdash::checks::pace_filter(TODAY),
            taxdash::model::PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .pages;
    first.quit().await;
    let mut remembered = BTreeSet::new();
    for _ in 0..100 {
        remembered = ReadAhead::open(file.clone())
            .filings("demo", organization)
            .into_iter()
            .collect();
        if !remembered.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(remembered, checked, "the filings the Overview checked");
    let pace = pace_pages_kept(&file, organization);
    assert_eq!(pace, sales_pages, "the pages of the last 90 days' sales");
    assert!(
        pace > 1,
        "the demo's last 90 days of sales take {pace} pages"
    );

    // The next morning the filings list answers three seconds late: the transactions of the
    // filings remembered are read meanwhile, and the tile counts the same.
    let second = Dashboard::start_with_stores_behind(options(), stores(), |base| async move {
        Relay::slowing("/v1/filings", Duration::from_secs(3))
            .serve(base)
            .await
    })
    .await;
    let started = std::time::Instant::now();
    let ahead = checked.len() as u64 + u64::from(pace);
    while second.client.stats().requests < ahead && started.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let early = second.client.stats().requests;
    let screen = second.screen();
    assert!(
        early >= ahead && !filled(&screen),
        "{early} requests before the filings list answered, {} filings and {pace} pages of \
         sales read ahead: {screen}",
        checked.len()
    );
    let screen = second
        .wait_until("the Overview filled", Duration::from_secs(30), filled)
        .await;
    assert!(
        screen.contains(&format!("{n} not adding up")),
        "the tile counts {n} again: {screen}"
    );
    assert_eq!(
        second.client.stats().requests,
        first_requests,
        "no filing read twice, none left out"
    );
    second.quit().await;
}
