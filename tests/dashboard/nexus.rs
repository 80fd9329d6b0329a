//! The Nexus pane through the real loop: the physical list, its filter, the economic view and its
//! detail, creating, editing and deleting a physical nexus, and read-only mode.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::{NexusFilter, PhysicalNexusFilter};
use taxdash::model::{PageParams, PhysicalNexus};

use crate::harness::{Dashboard, Options};

/// Every physical nexus record in `state` (all of them without one), as the service lists them.
async fn physical(d: &Dashboard, state: Option<&str>) -> Vec<PhysicalNexus> {
    let filter = PhysicalNexusFilter {
        state_code: state.map(str::to_owned),
        ..Default::default()
    };
    d.client
        .list_physical_nexus(&filter, PageParams::new(1, 100))
        .await
        .unwrap()
        .items
}

/// Switches to the Nexus tab and waits for the physical list to load.
async fn open_nexus(d: &Dashboard) -> String {
    let total = d
        .client
        .list_physical_nexus(&PhysicalNexusFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    d.wait_for("row 1 of").await;
    d.char('3');
    d.wait_for(&format!("row 1 of {total} ")).await
}

/// Filters the physical list to one state and waits for its rows.
async fn filter_to_state(d: &Dashboard, state: &str) {
    let total = physical(d, Some(state)).await.len();
    d.char('/');
    d.wait_for("subdivision code").await;
    d.key(KeyCode::Tab);
    d.type_text(&state.to_lowercase());
    save(d);
    d.wait_for(&format!("state {state}")).await;
    d.wait_for(&format!("row 1 of {total} ")).await;
}

fn save(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

fn clear(d: &Dashboard, n: usize) {
    (0..n).for_each(|_| d.key(KeyCode::Backspace));
}

/// Chooses a category once the jurisdiction's categories have arrived.
async fn choose_category(d: &Dashboard) {
    for _ in 0..50 {
        if !d.screen().contains("nothing chosen") {
            return;
        }
        d.key(KeyCode::Right);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no category to choose:\n{}", d.screen());
}

#[tokio::test]
async fn the_physical_list_filters_and_the_economic_view_opens() {
    let d = Dashboard::start(Options::default()).await;
    let screen = open_nexus(&d).await;
    assert!(
        screen.contains("Jurisdiction") && screen.contains("Category") && screen.contains("US-"),
        "{screen}"
    );
    assert!(
        screen.contains("V economic"),
        "the toggle is offered: {screen}"
    );

    filter_to_state(&d, "CO").await;
    let screen = d.screen();
    assert!(screen.contains("US-CO"), "{screen}");
    assert!(
        !screen.contains("US-CA"),
        "no other state is listed: {screen}"
    );

    // The economic view, its statuses, and its filter by state.
    let economic = d
        .client
        .list_nexus(&NexusFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    d.char('V');
    let screen = d.wait_for(&format!("row 1 of {economic} ")).await;
    assert!(screen.contains("economic: all jurisdictions"), "{screen}");
    assert!(
        ["EXPOSED", "APPROACHING", "REGISTERED", "NOT_EXPOSED"]
            .iter()
            .any(|s| screen.contains(s)),
        "a status shows: {screen}"
    );
    assert!(screen.contains('%'), "the threshold bar shows: {screen}");

    d.char('/');
    d.wait_for("subdivision code").await;
    d.key(KeyCode::Tab);
    d.type_text("TX");
    save(&d);
    let screen = d.wait_for("state TX").await;
    let screen = if screen.contains("row 1 of 1 ") {
        screen
    } else {
        d.wait_for("row 1 of 1 ").await
    };
    assert!(screen.contains("US-TX"), "{screen}");

    // The detail shows every field, amounts as money.
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Thresholds").await;
    assert!(
        screen.contains("Sales threshold") && screen.contains("Nexus met on"),
        "{screen}"
    );
    assert!(screen.contains(".00 USD"), "amounts are money: {screen}");
    d.key(KeyCode::Esc);
    d.wait_for("Sales vs threshold").await;

    // Back to the physical view, its filter kept.
    d.char('V');
    d.wait_for("physical: state CO").await;
    d.quit().await;
}

#[tokio::test]
async fn a_physical_nexus_is_refused_then_created() {
    let d = Dashboard::start(Options::default()).await;
    open_nexus(&d).await;
    let before = physical(&d, None).await.len();

    d.char('n');
    d.wait_for("New physical nexus").await;
    d.type_text("US");
    d.key(KeyCode::Tab);
    d.type_text("CO");
    d.key(KeyCode::Tab);
    d.type_text("2025-03-01");
    d.key(KeyCode::Tab);
    d.type_text("2025-02-01");
    d.key(KeyCode::Tab);
    choose_category(&d).await;
    save(&d);
    let screen = d.wait_for("must not be before start date").await;
    assert!(
        screen.contains("New physical nexus"),
        "the form stays: {screen}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(physical(&d, None).await.len(), before, "nothing was sent");

    // The focus is on the end date: fix it, add a city, save.
    clear(&d, 10);
    d.type_text("2025-12-31");
    (0..4).for_each(|_| d.key(KeyCode::Tab));
    d.type_text("Testville");
    save(&d);
    let saved = d.wait_for("Saved physical nexus").await;
    let said = saved
        .lines()
        .find(|l| l.contains("Saved physical nexus"))
        .unwrap_or_default();
    assert!(
        said.contains("(Physical business location in US-CO)"),
        "the category as the list writes it: {said}"
    );
    // The list shows the new record, and the cursor is on it.
    let screen = d.wait_for(&format!(" of {} ", before + 1)).await;
    let status = screen
        .lines()
        .find(|l| l.contains(&format!(" of {} ", before + 1)))
        .unwrap_or_default();
    let row: usize = status
        .split("row ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the row number");
    // Lines: header, tabs, the box's top, the column titles, then the rows.
    let selected = screen.lines().nth(3 + row).unwrap_or_default();
    assert!(
        selected.contains("Testville"),
        "the cursor stays on the saved record (row {row}): {selected}"
    );
    let created: Vec<PhysicalNexus> = physical(&d, Some("CO"))
        .await
        .into_iter()
        .filter(|p| p.city.as_deref() == Some("Testville"))
        .collect();
    assert_eq!(created.len(), 1, "{created:#?}");
    assert_eq!(created[0].end_date.unwrap().to_string(), "2025-12-31");
    d.quit().await;
}

#[tokio::test]
async fn a_physical_nexus_is_edited_then_deleted() {
    let d = Dashboard::start(Options::default()).await;
    open_nexus(&d).await;
    filter_to_state(&d, "CO").await;
    let records = physical(&d, Some("CO")).await;
    let first = records[0].clone();

    // Edit: the city is the sixth field.
    d.char('e');
    // The form names the record in words, its id beside.
    let screen = d.wait_for(&format!("({})", first.id)).await;
    assert!(
        screen.contains(" Edit ") && screen.contains(" in US-CO"),
        "{screen}"
    );
    (0..5).for_each(|_| d.key(KeyCode::Tab));
    clear(&d, 40);
    d.type_text("Aspen");
    save(&d);
    d.wait_for("Saved physical nexus").await;
    let edited = physical(&d, Some("CO")).await;
    let record = edited.iter().find(|p| p.id == first.id).unwrap();
    assert_eq!(record.city.as_deref(), Some("Aspen"));
    assert_eq!(record.start_date, first.start_date, "the rest is kept");
    assert_eq!(record.category, first.category);
    d.wait_for("Aspen").await;

    // Delete, after a question naming the record; No is the default.
    d.char('x');
    let screen = d
        .wait_for(&format!("Delete physical nexus {}", first.id))
        .await;
    assert!(screen.contains("in US-CO"), "{screen}");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(physical(&d, Some("CO")).await.len(), records.len());
    d.char('x');
    d.wait_for(&format!("Delete physical nexus {}", first.id))
        .await;
    d.char('y');
    d.wait_for("Physical nexus deleted").await;
    let left = physical(&d, Some("CO")).await;
    assert!(left.iter().all(|p| p.id != first.id), "{left:#?}");
    assert_eq!(left.len(), records.len() - 1);
    d.wait_for(&format!("of {} ", left.len())).await;
    d.quit().await;
}

#[tokio::test]
async fn read_only_mode_opens_no_form() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    let screen = open_nexus(&d).await;
    assert!(
        !screen.contains("n new") && !screen.contains("x delete"),
        "no write is offered: {screen}"
    );
    for key in ['n', 'e', 'x'] {
        d.char(key);
        let screen = d.wait_for("Read-only mode").await;
        assert!(
            !screen.contains("New physical nexus")
                && !screen.contains(" Edit ")
                && !screen.contains("Delete physical nexus"),
            "{screen}"
        );
    }
    d.quit().await;
}

#[tokio::test]
async fn snapshots_of_the_list_and_the_form() {
    let d = Dashboard::start(Options {
        size: (120, 36),
        ..Options::default()
    })
    .await;
    open_nexus(&d).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("nexus_physical_list", d.screen());

    d.char('n');
    d.wait_for("New physical nexus").await;
    d.type_text("US");
    d.key(KeyCode::Tab);
    d.type_text("CO");
    d.key(KeyCode::Tab);
    d.type_text("2025-03-01");
    tokio::time::sleep(Duration::from_millis(150)).await;
    insta::assert_snapshot!("nexus_form", d.screen());
    d.key(KeyCode::Esc);
    d.wait_for("Discard").await;
    d.char('y');
    d.wait_until("the form to close", Duration::from_secs(5), |s| {
        !s.contains("New physical nexus")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn the_economic_filter_shows_several_statuses_at_once() {
    use taxdash::model::NexusStatus;
    let d = Dashboard::start(Options::default()).await;
    open_nexus(&d).await;
    let both = NexusFilter {
        status_in: vec![NexusStatus::PendingRegistration, NexusStatus::Exposed],
        ..NexusFilter::default()
    };
    let rows = d
        .client
        .list_nexus(&both, PageParams::new(1, 100))
        .await
        .unwrap();
    let count = |status: &NexusStatus| {
        rows.items
            .iter()
            .filter(|n| n.status.as_ref() == Some(status))
            .count()
    };
    assert!(
        count(&NexusStatus::PendingRegistration) > 0 && count(&NexusStatus::Exposed) > 0,
        "demo jurisdictions of both statuses"
    );
    d.char('V');
    d.wait_for("economic: all jurisdictions").await;
    d.char('/');
    d.wait_for("space toggle").await;
    // The cursor starts on APPROACHING: → NOT_EXPOSED → PENDING_REGISTRATION, chosen; →
    // EXPOSED, chosen.
    d.key(KeyCode::Right);
    d.key(KeyCode::Right);
    d.char(' ');
    d.key(KeyCode::Right);
    d.char(' ');
    let form = d.wait_for("[x] EXPOSED").await;
    assert!(form.contains("[x] PENDING_REGISTRATION"), "{form}");
    assert!(form.contains("[ ] APPROACHING"), "{form}");
    save(&d);
    d.wait_for("economic: status PENDING_REGISTRATION or EXPOSED")
        .await;
    let screen = d.wait_for(&format!("row 1 of {} ", rows.total)).await;
    assert!(
        screen.contains("PENDING_REGISTRATION") && screen.contains("EXPOSED"),
        "both statuses in one list: {screen}"
    );
    for other in ["APPROACHING", "NOT_EXPOSED", " REGISTERED"] {
        let listed = screen.lines().skip(4).filter(|l| l.contains(other)).count();
        assert_eq!(listed, 0, "no {other} row: {screen}");
    }
    d.quit().await;
}

#[tokio::test]
async fn a_current_physical_presence_without_a_registration_reads_as_exposed() {
    let d = Dashboard::start(Options::default()).await;
    open_nexus(&d).await;
    d.char('V');
    let screen = d.wait_for("economic: all jurisdictions").await;
    assert!(screen.contains("Why"), "the route column shows: {screen}");
    for state in ["TN", "VA", "WI"] {
        d.char('/');
        d.wait_for("subdivision code").await;
        d.key(KeyCode::Tab);
        clear(&d, 2);
        d.type_text(state);
        save(&d);
        d.wait_for(&format!("state {state}")).await;
        let screen = d.wait_for("row 1 of 1 ").await;
        let line = screen
            .lines()
            .find(|l| l.contains(&format!("US-{state}")))
            .unwrap_or_else(|| panic!("US-{state} listed: {screen}"));
        assert!(
            line.contains("EXPOSED") && !line.contains("NOT_EXPOSED"),
            "{state} is exposed: {line}"
        );
        // By its presence alone, or with its sales over the thresholds too.
        assert!(
            line.contains("physical") || line.contains("both"),
            "{state} by its presence: {line}"
        );

        d.key(KeyCode::Enter);
        let screen = d.wait_for("Physical nexus met").await;
        let status = screen
            .lines()
            .find(|l| l.contains("Status"))
            .unwrap_or_default();
        assert!(
            status.contains("EXPOSED") && !status.contains("NOT_EXPOSED"),
            "{screen}"
        );
        assert!(screen.contains("Met by"), "{screen}");
        d.key(KeyCode::Esc);
        d.wait_for("Sales vs threshold").await;
    }
    d.quit().await;
}

/// What the Crosses column says of a forecast.
fn crosses(f: &taxdash::checks::forecast::Forecast) -> String {
    use taxdash::checks::forecast::Crossing;
    match &f.crossing {
        Crossing::Around { on, by } => format!("{} {}", on.format("%Y-%m"), by.word()),
        Crossing::NotThisPeriod => "not this period".to_owned(),
        Crossing::Met => "met".to_owned(),
        Crossing::NoPace => "no recent sales".to_owned(),
        Crossing::Unknown { .. } => "—".to_owned(),
    }
}

#[tokio::test]
async fn the_crossing_column_agrees_with_the_forecast_and_the_detail_says_it_in_words() {
    use taxdash::{checks, reads};
    let d = Dashboard::start(Options {
        size: (200, 50),
        ..Options::default()
    })
    .await;
    let forecasts = reads::read_forecasts(&d.client, crate::harness::TODAY, &mut reads::Quiet)
        .await
        .unwrap();
    let approaching: Vec<_> = forecasts
        .iter()
        .filter(|f| f.status.as_deref() == Some("APPROACHING"))
        .collect();
    assert!(
        approaching
            .iter()
            .any(|f| matches!(f.crossing, checks::forecast::Crossing::Around { .. })),
        "the demo has a state that will be crossed: {approaching:?}"
    );
    open_nexus(&d).await;
    d.char('V');
    d.wait_for("economic: all jurisdictions").await;
    d.char('/');
    d.wait_for("space toggle").await;
    // The cursor starts on APPROACHING.
    d.char(' ');
    d.wait_for("[x] APPROACHING").await;
    save(&d);
    d.wait_for("economic: status APPROACHING").await;
    let screen = d
        .wait_for(&format!("row 1 of {} ", approaching.len()))
        .await;
    assert!(screen.contains("Crosses"), "{screen}");
    let first = crosses(approaching[0]);
    let screen = d.wait_for(&first).await;
    for f in &approaching {
        let at = format!("{} ", f.jurisdiction());
        let line = screen
            .lines()
            .find(|l| l.contains(&at))
            .unwrap_or_else(|| panic!("{at} listed: {screen}"));
        let cell = line.trim_end_matches('│').trim_end();
        assert!(
            cell.ends_with(&crosses(f)),
            "{}: {} expected: {line}",
            f.jurisdiction(),
            crosses(f)
        );
    }

    // The detail of the row under the cursor tells the computation in words.
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Transactions so far").await;
    let open = approaching
        .iter()
        .find(|f| screen.contains(&format!("economic: {}", f.jurisdiction())))
        .unwrap_or_else(|| panic!("a forecast jurisdiction open: {screen}"));
    let value = |label: &str| {
        screen
            .lines()
            .map(|l| l.trim_matches('│').trim())
            .find(|l| l.split("  ").next() == Some(label))
            .unwrap_or_else(|| panic!("{label}: {screen}"))
            .to_owned()
    };
    assert!(value("Result").ends_with(&open.words()), "{screen}");
    assert!(
        value("Transactions so far").contains(&open.transactions_so_far.to_string()),
        "{screen}"
    );
    assert!(
        value("Pace").contains(&format!(
            "{} transactions over the last 90 days",
            open.pace_transactions
        )),
        "{screen}"
    );
    d.quit().await;
}
