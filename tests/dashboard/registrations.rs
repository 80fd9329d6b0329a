use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::RegistrationFilter;
use taxdash::model::{PageParams, RegistrationStatus};
use taxdash::sandbox::SandboxConfig;

use crate::harness::{Dashboard, Options};

/// The first data row of the table on screen: the line after the column titles, inside the box.
fn first_table_row(screen: &str) -> Option<&str> {
    let mut lines = screen.lines().skip_while(|l| !l.contains("Jurisdiction"));
    lines.next()?;
    lines
        .next()
        .filter(|l| l.starts_with('│') && l.contains('('))
}

/// The row of the screen holding `text`.
fn row_with<'a>(screen: &'a str, text: &str) -> Option<&'a str> {
    screen.lines().find(|l| l.contains(text))
}

#[tokio::test]
async fn the_list_loads_filters_sorts_and_reaches_its_end() {
    let d = Dashboard::start(Options::default()).await;
    let total = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    let screen = d.wait_for(&format!("row 1 of {total}")).await;
    assert!(
        screen.contains("Jurisdiction") && screen.contains("Sales tax ID"),
        "{screen}"
    );
    assert!(
        screen.contains("DEMO") && screen.contains("orgn_demo_1") && screen.contains("API v1"),
        "{screen}"
    );

    // The end of the list.
    d.char('G');
    d.wait_for(&format!("row {total} of {total}")).await;
    d.char('g');
    d.char('g');
    d.wait_for(&format!("row 1 of {total}")).await;

    // Filter by state: tab to the state field, type, submit.
    d.char('/');
    d.wait_for("Filing frequency").await;
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.type_text("tx");
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    let texans = d
        .client
        .list_registrations(
            &RegistrationFilter {
                state_code: Some("TX".into()),
                ..Default::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap();
    let screen = d.wait_for(&format!("row 1 of {}", texans.total)).await;
    assert!(
        screen.contains("state TX"),
        "the filter line says what is shown: {screen}"
    );
    assert!(row_with(&screen, "(US-TX)").is_some(), "{screen}");
    assert!(
        !screen.contains("(US-CA)"),
        "no other state is listed: {screen}"
    );

    // Clear the filter and sort by jurisdiction, then reverse.
    d.char('/');
    d.wait_for("Filing frequency").await;
    d.key(KeyCode::Tab);
    d.key(KeyCode::Tab);
    d.key(KeyCode::Backspace);
    d.key(KeyCode::Backspace);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("row 1 of {total}")).await;
    d.char('s');
    d.wait_for("sorted by jurisdiction ▲").await;
    let sorted = d
        .client
        .list_registrations(
            &RegistrationFilter {
                order_by: vec![taxdash::model::filters::Sort::desc("state_code")],
                ..Default::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap();
    let first = taxdash::ui::panes::registrations::wizard::jurisdiction(&sorted.items[0]);
    d.char('S');
    d.wait_for("sorted by jurisdiction ▼").await;
    // The re-sorted page arrives after the title changes: wait for it in the first table row.
    d.wait_until(
        "the re-sorted first row",
        Duration::from_secs(10),
        |screen| first_table_row(screen).is_some_and(|row| row.contains(&first)),
    )
    .await;
    d.quit().await;
}

#[tokio::test]
async fn the_detail_reveals_copies_and_opens_the_portal() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.key(KeyCode::Enter);
    d.wait_for("Identity").await;
    d.wait_until("the jurisdiction form", Duration::from_secs(5), |s| {
        !s.contains("loading…")
    })
    .await;
    // Every section is there, paging down through the detail.
    let mut seen = String::new();
    for _ in 0..8 {
        seen.push_str(&d.screen());
        d.key(KeyCode::PageDown);
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    for section in [
        "Identity",
        "Filing",
        "Dates",
        "Deregistration",
        "Money",
        "Flags",
        "Jurisdiction fields",
    ] {
        assert!(seen.contains(section), "the {section} section is shown");
    }
    assert!(
        seen.contains("Business name") || seen.contains("business_name"),
        "California's own fields are read against its schema"
    );
    d.char('g');
    d.char('g');
    let first = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    let clear = d
        .client
        .reveal_registration(&first.id, taxdash::api::RevealField::Password)
        .await
        .unwrap()
        .password_encrypted;
    let masked = first.password_encrypted.clone();
    if let (Some(clear), Some(masked)) = (clear, masked) {
        assert!(!d.screen().contains(&clear), "not shown before asked");
        d.char('v');
        d.wait_for(&clear).await;
        assert_ne!(clear, masked);
    }
    d.char('y');
    d.wait_until("the copy", Duration::from_secs(5), |_| {
        !d.platform.0.lock().unwrap().copied.is_empty()
    })
    .await;
    assert_eq!(d.platform.0.lock().unwrap().copied, vec![first.id.clone()]);
    d.char('o');
    d.wait_until("the portal", Duration::from_secs(5), |_| {
        !d.platform.0.lock().unwrap().opened.is_empty()
    })
    .await;
    assert_eq!(
        d.platform.0.lock().unwrap().opened,
        vec![first.filing_website_url.clone()]
    );
    d.key(KeyCode::Esc);
    d.wait_for("row 1 of").await;
    d.quit().await;
}

/// The first registration in good standing in `state`.
async fn registered_in(d: &Dashboard, state: &str) -> taxdash::model::Registration {
    let filter = RegistrationFilter {
        status_in: vec![RegistrationStatus::Registered],
        state_code: Some(state.into()),
        ..Default::default()
    };
    d.client
        .list_registrations(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0)
}

/// Opens the wizard on the first registration of the (filtered) list and walks it to the review
/// with the first reason, `closure_date` and the acknowledgement ticked; returns the review.
/// Opens the wizard on the selected registration and goes to the closure date's step, the
/// reason chosen.
async fn wizard_to_closure(d: &Dashboard) {
    d.char('D');
    d.wait_for("step 1 of 6").await;
    d.key(KeyCode::Enter);
    d.wait_for("step 2 of 6: Reason").await;
    d.key(KeyCode::Right);
    d.key(KeyCode::Enter);
    d.wait_for("step 3 of 6: Closure date").await;
}

async fn wizard_to_review(d: &Dashboard, closure_date: &str) -> String {
    wizard_to_closure(d).await;
    d.type_text(closure_date);
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6: Final return").await;
    d.key(KeyCode::Char(' '));
    d.key(KeyCode::Enter);
    d.wait_for("step 5 of 6").await
}

#[tokio::test]
async fn the_wizard_refuses_bad_input_then_deregisters() {
    let d = Dashboard::start(Options::default()).await;
    let target = registered_in(&d, "WA").await;
    d.wait_for("row 1 of").await;
    // Show only Washington, so the row is the first.
    d.filter_to_state("WA", true).await;

    wizard_to_closure(&d).await;
    d.type_text("2026-02-31");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("February").await;
    assert!(
        screen.contains("step 3 of 6"),
        "a 31 February date does not pass: {screen}"
    );
    for _ in 0..2 {
        d.key(KeyCode::Backspace);
    }
    d.type_text("28");
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6: Final return").await;
    d.key(KeyCode::Enter);
    let screen = d
        .wait_until("the acknowledgement error", Duration::from_secs(5), |s| {
            s.contains("step 4 of 6") && (s.contains("acknowledg") && s.contains("must"))
        })
        .await;
    assert!(screen.contains("step 4 of 6"), "{screen}");
    // Nothing was sent so far.
    let now = d.client.get_registration(&target.id).await.unwrap();
    assert_eq!(now.status, RegistrationStatus::Registered);

    d.key(KeyCode::Char(' '));
    d.key(KeyCode::Enter);
    let screen = d.wait_for("step 5 of 6").await;
    assert!(
        screen.contains("2026-02-28")
            && screen.contains("a final return is owed for this registration:")
            && screen.contains("Reason:       Full business closure")
            && !screen.contains("final_return_acknowledged"),
        "the review shows the body in the form's words: {screen}"
    );
    assert_eq!(
        crate::harness::wire_names(&screen),
        Vec::<String>::new(),
        "no wire name on the review: {screen}"
    );
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;
    d.type_text("XX");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        d.screen().contains("step 6 of 6"),
        "a wrong code does not send"
    );
    assert_eq!(
        d.client.get_registration(&target.id).await.unwrap().status,
        RegistrationStatus::Registered
    );
    d.key(KeyCode::Backspace);
    d.key(KeyCode::Backspace);
    d.type_text("WA");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("DEREGISTERING").await;
    assert!(
        !screen.contains("step 6 of 6"),
        "the wizard closed: {screen}"
    );
    assert!(
        row_with(&screen, "(US-WA)").is_some_and(|r| r.contains("DEREGISTERING")),
        "the row shows it without a refresh: {screen}"
    );
    assert_eq!(
        d.client.get_registration(&target.id).await.unwrap().status,
        RegistrationStatus::Deregistering
    );
    d.quit().await;
}

#[tokio::test]
async fn read_only_mode_hides_and_refuses_writes() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    let screen = d.wait_for("row 1 of").await;
    assert!(screen.contains("READ-ONLY"));
    assert!(
        !screen.lines().last().unwrap_or("").contains("deregister"),
        "no write hint: {screen}"
    );
    d.char('D');
    let screen = d.wait_for("Read-only").await;
    assert!(!screen.contains("step 1 of 6"));
    // Nor through the command line.
    d.char(':');
    d.type_text("deregister");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(!d.screen().contains("step 1 of 6"), "{}", d.screen());
    d.quit().await;
}

#[tokio::test]
async fn a_slow_service_never_freezes_the_keys() {
    let sandbox = SandboxConfig {
        latency: Duration::from_secs(2),
        ..SandboxConfig::default()
    };
    let d = Dashboard::start(Options {
        sandbox,
        ..Options::default()
    })
    .await;
    // While the first page is on its way, a spinner says what is loading and keys still work.
    d.wait_for("loading registrations").await;
    d.char('?');
    d.wait_until("the help overlay", Duration::from_millis(500), |s| {
        s.contains("this help")
    })
    .await;
    d.key(KeyCode::Esc);
    // Switching panes is immediate too, whatever is still loading.
    d.char('5');
    d.wait_until("the Customers pane", Duration::from_millis(500), |s| {
        s.contains("Customers — ")
    })
    .await;
    d.char('2');
    d.wait_until("back on Registrations", Duration::from_millis(500), |s| {
        s.contains("Registrations — ")
    })
    .await;
    // Once the page is in, the cursor moves at once: no request is needed for that.
    d.wait_for("row 1 of").await;
    d.char('j');
    d.char('j');
    d.wait_until("the cursor to move", Duration::from_millis(500), |s| {
        s.contains("row 3 of")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn paging_to_the_end_of_a_longer_list() {
    let d = Dashboard::start(Options::default()).await;
    let filter = taxdash::model::filters::CustomerFilter::default();
    let first = d
        .client
        .list_customers(&filter, PageParams::new(1, 100))
        .await
        .unwrap();
    assert!(first.pages >= 2, "the customers span several pages");
    let last = d
        .client
        .list_customers(&filter, PageParams::new(first.pages, 100))
        .await
        .unwrap();
    let last_name = last.items.last().and_then(|c| c.name.clone()).unwrap();
    d.wait_for("row 1 of").await;
    d.char('5');
    d.wait_for(&format!("row 1 of {}", first.total)).await;
    d.char('G');
    let screen = d
        .wait_for(&format!("row {} of {}", first.total, first.total))
        .await;
    let screen = if screen.contains(&last_name) {
        screen
    } else {
        d.wait_for(&last_name).await
    };
    assert!(
        screen.contains(&last_name),
        "the last customer is on screen: {screen}"
    );
    d.char('g');
    d.char('g');
    d.wait_for(&format!("row 1 of {}", first.total)).await;
    d.quit().await;
}

#[tokio::test]
async fn the_wizard_stops_for_a_registration_already_closing() {
    let d = Dashboard::start(Options::default()).await;
    let filter = RegistrationFilter {
        status_in: vec![RegistrationStatus::Deregistering],
        ..Default::default()
    };
    let closing = d
        .client
        .list_registrations(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    d.wait_for("row 1 of").await;
    d.filter_to_state(&closing.state_code, false).await;
    d.char('D');
    let screen = d.wait_for("cannot be requested").await;
    assert!(screen.contains("DEREGISTERING"), "{screen}");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(d.screen().contains("step 1 of 6"), "enter does not go on");
    d.key(KeyCode::Esc);
    d.wait_until("the wizard to close", Duration::from_secs(5), |s| {
        !s.contains("step 1 of 6")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn a_refused_submission_keeps_every_value() {
    let d = Dashboard::start(Options::default()).await;
    let target = registered_in(&d, "NY").await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("NY", true).await;
    wizard_to_review(&d, "2027-01-15").await;
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;

    // Meanwhile someone else requests the deregistration: the service now refuses ours.
    let body = taxdash::model::DeregistrationRequest {
        closure_date: "2026-12-31".parse().unwrap(),
        reason: taxdash::model::DeregistrationReason::FullBusinessClosure,
        final_return_acknowledged: true,
    };
    d.client.deregister(&target.id, &body).await.unwrap();
    d.type_text("NY");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("conflicts with the current state").await;
    assert!(
        screen.contains("step 5 of 6"),
        "back on the review, with the reason shown: {screen}"
    );
    assert!(
        screen.contains("2027-01-15") && screen.contains("Full business closure"),
        "every value kept: {screen}"
    );
    // The values can be reviewed again step by step.
    d.key(KeyCode::Esc);
    d.key(KeyCode::Esc);
    let screen = d.wait_for("step 3 of 6").await;
    assert!(screen.contains("2027-01-15"), "{screen}");
    d.key_with(KeyCode::Char('c'), KeyModifiers::CONTROL);
    d.wait_for("Quit").await;
    d.char('y');
    d.sandbox.stop().await;
}

#[tokio::test]
async fn a_closure_date_that_reads_like_a_slip_is_asked_for_twice_then_sent_as_typed() {
    let d = Dashboard::start(Options::default()).await;
    let target = registered_in(&d, "WA").await;
    let began = target
        .registration_date
        .expect("the demo registration has a date");
    d.wait_for("row 1 of").await;
    d.filter_to_state("WA", true).await;
    wizard_to_closure(&d).await;
    // A date before the registration began: the step says so under the field and asks for it
    // once more; Enter pressed through the warning goes nowhere.
    d.type_text("1900-01-01");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("type 1900-01-01 once more").await;
    assert!(screen.contains(&began.to_string()), "{screen}");
    for _ in 0..3 {
        d.key(KeyCode::Enter);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let screen = d.screen();
    assert!(screen.contains("step 3 of 6"), "still asking: {screen}");
    // A year ahead and more is asked for too; another date typed is judged anew.
    d.type_text("9999-12-31");
    d.key(KeyCode::Enter);
    let screen = d.wait_for("type 9999-12-31 once more").await;
    assert!(screen.contains("more than a year from today"), "{screen}");
    // Typed again: it goes on, and is sent as typed.
    d.type_text("9999-12-31");
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6: Final return").await;
    d.key(KeyCode::Esc);
    d.wait_for("step 3 of 6: Closure date").await;
    for _ in 0..10 {
        d.key(KeyCode::Backspace);
    }
    d.type_text("1900-01-01");
    d.key(KeyCode::Enter);
    d.wait_for("type 1900-01-01 once more").await;
    d.type_text("1900-01-01");
    d.key(KeyCode::Enter);
    d.wait_for("step 4 of 6: Final return").await;
    d.key(KeyCode::Char(' '));
    d.key(KeyCode::Enter);
    let screen = d.wait_for("step 5 of 6").await;
    assert!(
        screen.contains("before this registration began") && screen.contains(&began.to_string()),
        "the review warns: {screen}"
    );
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;
    d.type_text("WA");
    d.key(KeyCode::Enter);
    d.wait_for("DEREGISTERING").await;
    let now = d.client.get_registration(&target.id).await.unwrap();
    assert_eq!(
        now.status,
        RegistrationStatus::Deregistering,
        "sent as typed"
    );
    d.quit().await;
}

#[tokio::test]
async fn the_review_lists_the_returns_not_filed_yet_and_says_a_final_return_is_owed() {
    use taxdash::model::FilingStatus;
    use taxdash::model::filters::FilingFilter;

    let d = Dashboard::start(Options::default()).await;
    // A registration in good standing whose jurisdiction has an overdue return not filed, and
    // the only such registration of its state (so it is the filtered list's first row).
    let unfiled = d
        .client
        .list_filings(
            &FilingFilter {
                status_in: vec![FilingStatus::Unfiled],
                country_code: vec!["US".into()],
                ..Default::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .items;
    let today = chrono::Utc::now().date_naive();
    let mut target = None;
    for f in unfiled
        .iter()
        .filter(|f| f.due_date.is_some_and(|due| due < today))
    {
        let state = f.state_code.clone().unwrap_or_default();
        let r = registered_in(&d, &state).await;
        if r.id == f.registration_id {
            target = Some((state, f.clone()));
            break;
        }
    }
    let (state, filing) = target.expect("a registration with an overdue unfiled return");
    d.wait_for("row 1 of").await;
    d.filter_to_state(&state, true).await;

    let screen = wizard_to_review(&d, "2026-12-31").await;
    let screen = if screen.contains(" too.") {
        screen
    } else {
        d.wait_for(" too.").await
    };
    assert!(
        screen.contains("A final return is owed for") && screen.contains(&format!("US-{state}")),
        "{screen}"
    );
    let period = format!("{} – {}", filing.start_date, filing.end_date);
    let line = row_with(&screen, &period)
        .unwrap_or_else(|| panic!("the overdue return {period} is listed: {screen}"));
    assert!(
        line.contains("UNFILED")
            && line.contains("OVERDUE")
            && line.contains(&format!("due {}", filing.due_date.unwrap())),
        "{line}"
    );
    assert!(
        screen.contains("a final return is owed for this registration:"),
        "the body is still reviewed: {screen}"
    );
    // The request is still sent from here.
    d.key(KeyCode::Enter);
    d.wait_for("step 6 of 6").await;
    d.type_text(&state);
    d.key(KeyCode::Enter);
    d.wait_for("DEREGISTERING").await;
    d.quit().await;
}
