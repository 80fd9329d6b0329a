//! The Filings pane through the real loop: the list with its money and status colours, the
//! detail, and what a v1 profile says of the Tenanted features; on the Tenanted API, the bulk
//! approval and pause with their per-filing results, and the back-filing options.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::style::Color;
use taxdash::model::filters::FilingFilter;
use taxdash::model::tenanted::BackFilingOption;
use taxdash::model::{Filing, FilingStatus, PageParams};

use crate::harness::{Dashboard, Options};

/// Switches to the Filings tab with its number key.
fn open_tab(d: &Dashboard) {
    let index = taxdash::ui::panes::all()
        .iter()
        .position(|p| p.title() == "Filings")
        .expect("a Filings tab");
    let key = char::from_digit(index as u32 + 1, 10).expect("a tab number key");
    d.char(key);
}

/// Every filing the service lists (the first hundred, in the list's order).
async fn filings(d: &Dashboard) -> Vec<Filing> {
    let page = d
        .client
        .list_filings(&FilingFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap();
    page.items
}

/// Opens the Filings tab and waits for its whole list.
async fn open_list(d: &Dashboard) -> Vec<Filing> {
    let all = filings(d).await;
    d.wait_for("row 1 of").await;
    open_tab(d);
    d.wait_until("the filing list", Duration::from_secs(10), |s| {
        s.contains("Filings — every status") && s.contains(&format!("row 1 of {} ", all.len()))
    })
    .await;
    d.wait_filings_checked().await;
    all
}

/// The first cell of the screen showing `text`, and its style.
pub fn style_of(d: &Dashboard, text: &str) -> Option<ratatui::style::Style> {
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
async fn the_tab_lists_filings_with_money_and_coloured_statuses() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    let all = open_list(&d).await;
    assert!(!all.is_empty(), "demo filings");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let screen = d.screen();
    insta::assert_snapshot!("filings_list", screen);
    for column in ["Period", "State", "Status", "Due", "Amount", "Approved at"] {
        assert!(screen.contains(column), "the {column} column: {screen}");
    }
    let first = &all[0];
    assert!(
        screen.contains(&format!("{} – {}", first.start_date, first.end_date)),
        "the period of the first filing: {screen}"
    );
    if let Some(amount) = first.amount {
        let shown = taxdash::ui::text::money(amount, first.currency.as_deref());
        assert!(
            screen.contains(&shown),
            "the amount as money {shown}: {screen}"
        );
    }
    if all.iter().any(|f| f.status == Some(FilingStatus::Filed)) {
        assert_eq!(
            style_of(&d, "FILED").and_then(|s| s.fg),
            Some(Color::Green),
            "filed reads as good"
        );
    }

    // Enter opens the detail; Esc comes back to the list.
    d.key(KeyCode::Enter);
    let detail = d.wait_for("Amounts").await;
    assert!(detail.contains(&first.id), "{detail}");
    assert!(detail.contains(&first.registration_id), "{detail}");
    d.key(KeyCode::Esc);
    d.wait_for("Approved at").await;
    d.quit().await;
}

#[tokio::test]
async fn on_v1_the_list_works_and_the_tenanted_features_say_what_they_need() {
    let d = Dashboard::start(Options::default()).await;
    open_list(&d).await;
    d.char('A');
    d.wait_for("Approving filings in bulk needs the Tenanted API")
        .await;
    assert!(
        !d.screen().contains("Bulk approve"),
        "no confirmation opens for what cannot be done"
    );
    d.char('b');
    let screen = d
        .wait_for("Showing the back-filing options needs the Tenanted API")
        .await;
    assert!(screen.contains("api = \"tenanted\""), "{screen}");
    assert!(!screen.contains("┌ Back-filing options"), "{screen}");
    // The list still moves.
    d.char('j');
    d.wait_for("row 2 of").await;
    // The footer offers only what works on v1.
    let footer = d.screen().lines().last().unwrap_or_default().to_owned();
    assert!(
        !footer.contains("approve") && !footer.contains("back-filing"),
        "{footer}"
    );
    // A message about this tab does not follow the user to the next one.
    d.char('5');
    d.wait_until("the Customers tab", Duration::from_secs(5), |s| {
        s.contains("┌ Customers") && !s.contains("needs the Tenanted API")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn read_only_refuses_the_bulk_actions() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    open_list(&d).await;
    d.char(' ');
    d.char('P');
    let screen = d.wait_for("Read-only mode").await;
    assert!(!screen.contains("Bulk pause"), "{screen}");
    d.quit().await;
}

/// Moves the cursor down `n` rows and waits for it there.
async fn go_to_row(d: &Dashboard, n: usize) {
    for _ in 0..n {
        d.char('j');
    }
    d.wait_for(&format!("row {} of", n + 1)).await;
}

/// The filing `id` as the service has it now.
async fn filing(d: &Dashboard, id: &str) -> Filing {
    d.client.get_filing(id).await.unwrap()
}

#[tokio::test]
async fn bulk_approval_shows_what_went_through_and_what_was_refused() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let all = open_list(&d).await;
    // An unfiled filing followed by a filed one: the service approves the first only.
    let at = all
        .windows(2)
        .position(|w| {
            w[0].status == Some(FilingStatus::Unfiled) && w[1].status == Some(FilingStatus::Filed)
        })
        .expect("an unfiled filing before a filed one");
    let (unfiled, filed) = (&all[at], &all[at + 1]);
    go_to_row(&d, at).await;
    d.char(' ');
    d.char(' ');
    d.wait_for("2 marked").await;
    d.char('A');
    let question = d.wait_for("Approve 2 filings for filing?").await;
    assert!(question.contains("Bulk approve"), "{question}");
    d.char('y');
    let report = d.wait_for("Approved 1 of 2 filings; 1 refused.").await;
    assert!(
        report.contains(&format!("✓ {}  approved (now FILING)", unfiled.id)),
        "{report}"
    );
    assert!(
        report.contains(&format!("✕ {}  refused (conflict)", filed.id)),
        "{report}"
    );

    let approved = filing(&d, &unfiled.id).await;
    assert_eq!(approved.status, Some(FilingStatus::Filing));
    let approved_at = approved.approved_at.expect("the approval time");
    assert_eq!(
        filing(&d, &filed.id).await.status,
        Some(FilingStatus::Filed)
    );

    // The report closes; the row shows the approval, the refused one keeps its mark.
    d.key(KeyCode::Esc);
    let screen = d
        .wait_until("the approved row", Duration::from_secs(10), |s| {
            s.contains(&taxdash::ui::text::timestamp(&approved_at))
        })
        .await;
    assert!(screen.contains("1 marked"), "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn pause_stops_the_selected_filing() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let all = open_list(&d).await;
    let at = all
        .iter()
        .position(|f| f.status == Some(FilingStatus::Unfiled))
        .expect("an unfiled filing");
    go_to_row(&d, at).await;
    d.char('P');
    d.wait_for("Pause 1 filing? Paused filings").await;
    d.char('y');
    let report = d.wait_for("Paused 1 of 1 filing.").await;
    assert!(
        report.contains(&format!("✓ {}  paused (now PAUSED)", all[at].id)),
        "{report}"
    );
    assert_eq!(
        filing(&d, &all[at].id).await.status,
        Some(FilingStatus::Paused)
    );
    d.quit().await;
}

#[tokio::test]
async fn the_back_filing_options_show_and_open_their_help_article() {
    let d = Dashboard::start_tenanted(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    let options: Vec<BackFilingOption> = d.client.back_filing_options().await.unwrap();
    assert!(!options.is_empty(), "demo options");
    open_list(&d).await;
    d.char('b');
    let screen = d.wait_for(&options[0].label).await;
    assert!(screen.contains("┌ Back-filing options"), "{screen}");
    let first = &options[0];
    assert!(
        screen.contains(&format!("{} – {}", first.period_start, first.period_end)),
        "{screen}"
    );
    if let Some(liability) = first.estimated_liability {
        let shown = taxdash::ui::text::money(liability, None);
        assert!(screen.contains(&shown), "{shown}: {screen}");
    }
    if options.iter().any(|o| o.state_code.is_none()) {
        let country = d.wait_for("(country-level)").await;
        assert!(!country.is_empty());
    }
    insta::assert_snapshot!("back_filing_options", screen);

    // `o` opens the help article of the option under the cursor.
    let with_article = options
        .iter()
        .position(|o| o.help_article_url.as_deref().is_some_and(|u| !u.is_empty()))
        .expect("an option with a help article");
    for _ in 0..with_article {
        d.char('j');
    }
    d.char('o');
    let url = options[with_article].help_article_url.clone().unwrap();
    for _ in 0..100 {
        if d.platform.0.lock().unwrap().opened.contains(&url) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(d.platform.0.lock().unwrap().opened, vec![url]);
    d.key(KeyCode::Esc);
    d.wait_until("the list again", Duration::from_secs(5), |s| {
        !s.contains("┌ Back-filing options")
    })
    .await;
    d.quit().await;
}

/// Every filing `filter` lists, page by page, and the total the service announced.
async fn all_of(d: &Dashboard, filter: &FilingFilter) -> (u64, Vec<Filing>) {
    let mut rows = Vec::new();
    for page in 1.. {
        let answer = d
            .client
            .list_filings(filter, PageParams::new(page, 100))
            .await
            .unwrap();
        let last = answer.items.len() < 100;
        rows.extend(answer.items);
        if last {
            return (answer.total, rows);
        }
    }
    unreachable!("the pages end")
}

#[tokio::test]
async fn the_overdue_filter_shows_the_filings_past_due_and_not_filed() {
    use taxdash::model::filters::DateWindow;
    let d = Dashboard::start(Options::default()).await;
    open_list(&d).await;
    // What "overdue" is on the dashboard's day: due before it and still to file (a paused
    // return is counted as paused).
    let today = crate::harness::TODAY;
    let overdue = FilingFilter {
        status_in: vec![FilingStatus::Unfiled, FilingStatus::Filing],
        due: Some(DateWindow::new(None, today.pred_opt())),
        ..FilingFilter::default()
    };
    let (checked, rows) = all_of(&d, &overdue).await;
    let kept = rows.iter().filter(|f| overdue.keeps(f)).count();

    d.char('/');
    d.wait_for("space toggle").await;
    d.key(KeyCode::Tab);
    d.key(KeyCode::Right);
    d.wait_for("(•) overdue").await;
    d.key_with(KeyCode::Char('s'), crossterm::event::KeyModifiers::CONTROL);
    let said = format!(
        "overdue (due before {today}), UNFILED or FILING: {kept} of {checked} filings \
         checked"
    );
    let screen = d.wait_for(&said).await;
    if kept > 0 {
        let screen = d.wait_for(&format!("row 1 of {kept} ")).await;
        let marked = screen.matches(" ⚠ ").count();
        assert!(
            marked > 0 && marked <= kept,
            "overdue rows are marked: {screen}"
        );
        assert_eq!(
            style_of(&d, " ⚠ ").and_then(|s| s.fg),
            taxdash::ui::theme::Theme::default().status_bad.fg,
        );
        assert!(!screen.contains(" FILED "), "{screen}");
    } else {
        assert!(!screen.contains(" ⚠ "), "{screen}");
    }
    d.quit().await;
}

#[tokio::test]
async fn approving_a_past_due_return_says_it_is_filed_late_not_when_due() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let all = open_list(&d).await;
    let today = Options::default().today;
    let at = all
        .iter()
        .position(|f| {
            f.status == Some(FilingStatus::Unfiled) && f.due_date.is_some_and(|due| due < today)
        })
        .expect("an overdue return in the demo");
    go_to_row(&d, at).await;
    d.char('A');
    let question = d.wait_for("Approve 1 filing for filing?").await;
    let due = taxdash::model::format::date(all[at].due_date.unwrap());
    assert!(question.contains(&due), "the due date is said: {question}");
    assert!(question.contains("late."), "{question}");
    assert!(!question.contains("when due"), "{question}");
    d.key(KeyCode::Esc);
    d.wait_until("the question closed", Duration::from_secs(10), |s| {
        !s.contains("Bulk approve")
    })
    .await;

    // A return not due yet keeps the plain sentence.
    let later = all
        .iter()
        .position(|f| {
            f.status == Some(FilingStatus::Unfiled) && f.due_date.is_some_and(|due| due >= today)
        })
        .expect("a return not due yet");
    for _ in 0..at {
        d.char('k');
    }
    d.wait_for("row 1 of").await;
    go_to_row(&d, later).await;
    d.char('A');
    let question = d.wait_for("Approve 1 filing for filing?").await;
    // (The sentence wraps in the dialog.)
    assert!(question.contains("when due."), "{question}");
    assert!(!question.contains("late."), "{question}");
}

#[tokio::test]
async fn approving_returns_past_due_says_they_are_filed_at_once_late() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let all = open_list(&d).await;
    let today = crate::harness::TODAY;
    // Past due by the one rule the Overview's overdue tile counts by.
    let overdue = FilingFilter::overdue(today);
    let at = all
        .iter()
        .position(|f| overdue.holds(f))
        .expect("a return to file, past due");
    let due = all[at].due_date.unwrap();
    go_to_row(&d, at).await;
    d.char('A');
    let screen = d.wait_for("Approve 1 filing for filing?").await;
    // The question, read whole across the lines the dialog wraps it on.
    let question = crate::harness::paragraph(&screen, "Approve 1 filing");
    assert!(
        question.contains(&format!(
            "It is past due (the first on {due}): approved, it is filed at once, late."
        )),
        "{question}"
    );
    assert!(!question.contains("filed when due"), "{question}");
    d.char('n');
    d.quit().await;
}
