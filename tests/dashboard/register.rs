//! Registering in a jurisdiction through the form generated from its schema.

use std::time::Duration;

use chrono::Datelike;

use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;
use taxdash::model::filters::RegistrationFilter;
use taxdash::model::{
    DeregistrationReason, DeregistrationRequest, PageParams, Registration, RegistrationStatus,
};

use crate::harness::{Dashboard, Options};

async fn registrations(d: &Dashboard) -> Vec<Registration> {
    d.client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap()
        .items
}

/// Asks, through the service, for the deregistration of every registration of a jurisdiction
/// that can still be deregistered; how many were.
async fn deregister_all(d: &Dashboard, country: &str, state: &str) -> usize {
    let mut asked = 0;
    for r in registrations(d).await {
        if r.country_code == country && r.state_code == state && r.status.can_deregister() {
            let body = DeregistrationRequest {
                closure_date: chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap(),
                reason: DeregistrationReason::ClosingNexusInState,
                final_return_acknowledged: true,
            };
            d.client.deregister(&r.id, &body).await.unwrap();
            asked += 1;
        }
    }
    asked
}

fn tab(d: &Dashboard, n: usize) {
    for _ in 0..n {
        d.key(KeyCode::Tab);
    }
}

/// The dashboard of the second demo organization, its Registrations list in.
async fn second_organization() -> Dashboard {
    let d = Dashboard::start(Options {
        organization: 1,
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    d
}

fn submit(d: &Dashboard) {
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
}

/// Opens the register form on Texas, checks that the schema's rules refuse before anything is
/// sent, then fills it and reaches the review of the body.
async fn fill_texas(d: &Dashboard) {
    let before = registrations(d).await.len();
    d.char('n');
    d.wait_for("choose the jurisdiction").await;
    d.type_text("texas");
    d.wait_until("the search", std::time::Duration::from_secs(10), |s| {
        s.contains("US-TX   Texas") && !s.contains("US-CA   California")
    })
    .await;
    d.key(KeyCode::Enter);
    d.wait_for("Register in Texas — details").await;

    // Nothing filled: the required fields, the schema's among them, refuse.
    submit(d);
    let screen = d.wait_for(" is required").await;
    assert!(screen.contains("details"), "still on the form: {screen}");
    assert!(
        screen.contains("Not sent:") && screen.contains("fields to fix"),
        "the footer says why: {screen}"
    );
    // The frequencies offered are the jurisdiction's own; no other can be chosen.
    assert!(screen.contains("SEMI_ANNUALLY"), "{screen}");
    assert!(!screen.contains("BI_MONTHLY"), "{screen}");

    // Fields, in order: registration date, email, filing frequency, tax type (Texas has one,
    // chosen), sales tax id, create filings from, back-filing, comment, then the schema's:
    // business name, registered location number, registration type, SLTR, taxpayer number,
    // WebFile number. The failed submit put the focus on the first field in error, the
    // frequency.
    d.char(' '); // MONTHLY, the first frequency Texas assigns
    tab(d, 6);
    d.type_text("Acme Goods LLC");
    tab(d, 2);
    d.char(' '); // REMOTE_SELLER
    tab(d, 2);
    d.type_text("12345678901");
    tab(d, 1);
    d.type_text("12AB");
    submit(d);
    // The rule in words, not as the schema's pattern.
    let screen = d.wait_for("ust be 2 capital letters, then 6 digits").await;
    assert!(!screen.contains("^[A-Z]{2}[0-9]{6}$"), "{screen}");
    assert_eq!(registrations(d).await.len(), before, "nothing was sent");

    for _ in 0..4 {
        d.key(KeyCode::Backspace);
    }
    d.type_text("AB123456");
    submit(d);
    let screen = d.wait_for("review what will be sent").await;
    assert_eq!(
        crate::harness::wire_names(&screen),
        Vec::<String>::new(),
        "no wire name on the review: {screen}"
    );
    // Each field under its label, as the form named it.
    assert!(
        !screen.contains("jurisdiction_specific_fields."),
        "{screen}"
    );
    for shown in [
        "Webfile number:",
        "Texas taxpayer number:",
        "AB123456",
        "Registration import type: Regular",
        "MONTHLY",
    ] {
        assert!(screen.contains(shown), "{shown}: {screen}");
    }
}

#[tokio::test]
async fn registering_in_texas_checks_the_schema_before_sending_and_lists_the_new_registration() {
    // The second demo organization has no registration in Texas.
    let d = second_organization().await;
    let screen = d.screen();
    assert!(screen.contains("register"), "the hint shows: {screen}");
    let before = registrations(&d).await.len();
    fill_texas(&d).await;
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Registered in").await;
    assert!(!screen.contains("review what will be sent"), "{screen}");
    let after = registrations(&d).await;
    assert_eq!(after.len(), before + 1);
    let made = after
        .iter()
        .filter(|r| r.state_code == "TX" && r.status == RegistrationStatus::Registered)
        .max_by_key(|r| r.created_at)
        .unwrap();
    assert_eq!(
        made.jurisdiction_specific_fields,
        Some(json!({
            "business_name": "Acme Goods LLC",
            "registration_type": "REMOTE_SELLER",
            "texas_taxpayer_number": "12345678901",
            "webfile_number": "AB123456"
        }))
    );
    assert_eq!(made.filing_frequency.as_str(), "MONTHLY");
    assert_eq!(
        made.tax_type.as_ref().map(taxdash::model::TaxType::as_str),
        Some("SALES_AND_USE_TAX")
    );
    // The list shows it, selected, without a manual refresh (the demo lists it last).
    let n = after.len();
    d.wait_for(&format!("row {n} of {n}")).await;
}

#[tokio::test]
async fn a_jurisdiction_held_is_marked_and_a_duplicate_refused_before_sending_keeping_the_form() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    let before = registrations(&d).await.len();
    // The picker marks what is held, with the registration's status.
    d.char('n');
    d.wait_for("choose the jurisdiction").await;
    d.type_text("washington");
    let screen = d
        .wait_for("US-WA   Washington  · registered (REGISTERED)")
        .await;
    assert!(!screen.contains("Oregon  · registered"), "{screen}");
    d.key(KeyCode::Esc);
    d.wait_until("the picker closed", Duration::from_secs(10), |s| {
        !s.contains("choose the jurisdiction")
    })
    .await;

    fill_texas(&d).await;
    // Registered in Texas already, for the tax type chosen: refused here, before anything is
    // sent, with every value kept.
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Texas is already registered").await;
    assert!(screen.contains("Nothing was sent"), "{screen}");
    assert!(screen.contains("AB123456"), "every value kept: {screen}");
    assert_eq!(registrations(&d).await.len(), before, "nothing was made");
    // A deregistration under way still holds the jurisdiction: refused again.
    assert!(deregister_all(&d, "US", "TX").await > 0);
    submit(&d);
    d.wait_for("review what will be sent").await;
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Texas is already registered").await;
    assert!(screen.contains("AB123456"), "every value kept: {screen}");
    assert_eq!(registrations(&d).await.len(), before, "nothing was made");
}

#[tokio::test]
async fn an_oss_registration_asks_for_the_scheme_and_member_state() {
    // The second demo organization has no one-stop-shop registration.
    let d = second_organization().await;
    d.char('n');
    d.wait_for("choose the jurisdiction").await;
    d.type_text("one-stop");
    d.wait_for("ZZ_EU").await;
    d.key(KeyCode::Enter);
    let screen = d.wait_for("Member state of identification").await;
    assert!(screen.contains("OSS scheme"), "{screen}");
    assert!(!screen.contains("Filing frequency"), "{screen}");
    tab(&d, 2);
    d.char(' '); // UNION
    tab(&d, 1);
    d.type_text("FR");
    submit(&d);
    let screen = d.wait_for("review what will be sent").await;
    assert!(screen.contains("OSS"), "{screen}");
    d.key(KeyCode::Enter);
    d.wait_for("Registered in").await;
    let made = registrations(&d)
        .await
        .into_iter()
        .find(|r| r.country_code == "ZZ_EU" && r.status == RegistrationStatus::Registered)
        .expect("the OSS registration");
    assert_eq!(
        made.oss_member_state_of_identification_code.as_deref(),
        Some("FR")
    );
    assert_eq!(
        made.oss_type.as_ref().map(taxdash::model::OssType::as_str),
        Some("UNION")
    );
}

#[tokio::test]
async fn read_only_mode_refuses_to_register() {
    let d = Dashboard::start(Options {
        read_only: true,
        ..Options::default()
    })
    .await;
    let screen = d.wait_for("row 1 of").await;
    assert!(
        !screen.lines().last().unwrap_or("").contains("register"),
        "{screen}"
    );
    d.char('n');
    let screen = d.wait_for("Read-only").await;
    assert!(!screen.contains("choose the jurisdiction"), "{screen}");
}

#[tokio::test]
async fn editing_sends_only_the_field_changed() {
    let (d, writes) = crate::products::recorded().await;
    d.wait_for("row 1 of").await;
    d.filter_to_state("TX", true).await;
    let before = registrations(&d)
        .await
        .into_iter()
        .find(|r| r.state_code == "TX" && r.status == RegistrationStatus::Registered)
        .unwrap();
    d.char('e');
    let screen = d
        .wait_for(&format!("Edit {} in Texas — details", before.id))
        .await;
    assert!(screen.contains("Registration date"), "{screen}");
    // Registration date, email, frequency, sales tax id, create filings from, comment.
    tab(&d, 5);
    d.type_text("Outlet moved to Austin");
    submit(&d);
    let screen = d.wait_for("review what will be sent").await;
    assert!(screen.contains("Outlet moved to Austin"), "{screen}");
    for unchanged in ["registration_email", "filing_frequency", "webfile_number"] {
        assert!(
            !screen.contains(unchanged),
            "{unchanged} is not sent: {screen}"
        );
    }
    d.key(KeyCode::Enter);
    d.wait_for("Saved the changes").await;
    // The body the service received holds the comment and nothing else.
    let sent = writes.lock().unwrap().clone();
    assert_eq!(
        sent,
        vec![(
            "PUT".to_owned(),
            format!("/v1/registrations/{}", before.id),
            serde_json::json!({ "comment": "Outlet moved to Austin" }),
        )],
        "only the changed field is sent"
    );
    let after = d.client.get_registration(&before.id).await.unwrap();
    assert_eq!(after.comment.as_deref(), Some("Outlet moved to Austin"));
    assert_eq!(after.registration_email, before.registration_email);
    assert_eq!(
        after.jurisdiction_specific_fields,
        before.jurisdiction_specific_fields
    );
    assert_eq!(after.filing_frequency, before.filing_frequency);
    assert_eq!(after.sales_tax_id, before.sales_tax_id);
}

#[tokio::test]
async fn the_overview_map_sends_an_unregistered_jurisdiction_to_the_register_form() {
    let d = Dashboard::start(Options {
        first_tab: "Overview",
        size: (200, 50),
        ..Options::default()
    })
    .await;
    d.wait_until(
        "the Overview filled",
        std::time::Duration::from_secs(15),
        |s| s.contains("Overview — updated"),
    )
    .await;
    d.char(']');
    let screen = d.wait_for("n register").await;
    assert!(screen.contains("CA California"), "{screen}");
    d.char('n');
    d.wait_for("California is registered already").await;
    for _ in 0..3 {
        d.key(KeyCode::Right);
    }
    d.wait_for("NE Nebraska").await;
    d.char('n');
    let screen = d.wait_for("Register in Nebraska — details").await;
    assert!(screen.contains("Filing frequency"), "{screen}");
}

/// The battery the other forms were put through, on Texas's form (its schema's fields among
/// the common ones): an empty submit, each field's bad value, a value of 10,000 characters,
/// emoji and right-to-left text, texts typed whole at once (as a paste arrives without
/// bracketed paste). Nothing is sent while a field is refused, nothing typed is lost, and what
/// is sent is what was typed.
#[tokio::test]
async fn the_register_form_refuses_each_bad_value_and_keeps_every_character() {
    let writes: crate::relay::Writes = std::sync::Arc::default();
    let kept = std::sync::Arc::clone(&writes);
    // The second demo organization holds no Texas registration.
    let options = Options {
        organization: 1,
        ..Options::default()
    };
    let d = Dashboard::start_behind(options, |target| {
        crate::relay::Relay::recording(kept).serve(target)
    })
    .await;
    d.wait_for("row 1 of").await;
    writes.lock().unwrap().clear();
    d.char('n');
    d.wait_for("choose the jurisdiction").await;
    d.type_text("texas");
    d.wait_for("US-TX   Texas").await;
    d.key(KeyCode::Enter);
    d.wait_for("Register in Texas — details").await;

    // Empty: the required fields refuse; the focus goes to the first, the frequency.
    submit(&d);
    d.wait_for(" is required").await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");

    // Fields, in order: registration date, email, filing frequency, tax type, sales tax id,
    // create filings from, back-filing, comment, then the schema's: business name, registered
    // location number, registration type, SLTR, taxpayer number, WebFile number.
    let comment = "Outlet in Austin — שלום עולם، مرحبا بالعالم 🌵🤠 «ok»";
    let business = "Acme 🏪 ספל مج Ünïcödé";
    d.key(KeyCode::BackTab);
    d.key(KeyCode::BackTab);
    d.type_text("2026-02-30");
    d.key(KeyCode::Tab);
    d.type_text("ada@");
    d.key(KeyCode::Tab);
    d.char(' '); // MONTHLY
    tab(&d, 2);
    d.type_text(&"9".repeat(10_000));
    // Typed one key at a time, with a check and a draw after each: a while in a debug build.
    d.wait_until("the 10,000 characters", Duration::from_mins(5), |s| {
        s.contains("Sales tax ID keeps at most 255 characters")
    })
    .await;
    d.key(KeyCode::Tab);
    d.type_text("31/12/2026");
    tab(&d, 2);
    d.type_text(comment);
    d.key(KeyCode::Tab);
    d.type_text(business);
    d.key(KeyCode::Tab);
    d.type_text("12A45");
    d.key(KeyCode::Tab);
    d.char(' '); // REMOTE_SELLER
    tab(&d, 2);
    d.type_text("1234");
    d.key(KeyCode::Tab);
    d.type_text("ab123456");
    d.wait_for("ab123456").await;
    submit(&d);
    // Each is refused under its field, naming it; nothing is sent. The focus goes to the first
    // in error, the registration date, and each is mended in turn, its refusal seen first.
    d.wait_until("the date refused", Duration::from_secs(10), |s| {
        s.contains("Registration date should be a valid date") && s.contains("day 30 is out of")
    })
    .await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");
    d.clear_line();
    d.type_text("2026-01-05");
    d.key(KeyCode::Tab);
    d.wait_for("Registration email must be an email address")
        .await;
    d.clear_line();
    d.type_text("ada@example.com");
    tab(&d, 3);
    d.wait_for("Sales tax ID keeps at most 255 characters")
        .await;
    d.clear_line();
    d.type_text("TX-123456");
    d.key(KeyCode::Tab);
    d.wait_for("Create filings from should be a valid date")
        .await;
    d.clear_line();
    d.type_text("2026-02-01");
    // (The screen is read cell by cell, and a wide character's second cell is not redrawn
    // there: the texts with emoji are compared as sent, below.)
    tab(&d, 2);
    d.wait_for("Outlet in Austin — שלום עולם").await;
    d.key(KeyCode::Tab);
    d.wait_for("Acme").await;
    d.key(KeyCode::Tab);
    d.wait_for("ust be 1 to 5 digits").await;
    d.clear_line();
    d.type_text("12345");
    tab(&d, 3);
    d.wait_for("ust be 11 digits").await;
    d.clear_line();
    d.type_text("12345678901");
    d.key(KeyCode::Tab);
    d.wait_for("ust be 2 capital letters, then 6 digits").await;
    assert!(writes.lock().unwrap().is_empty(), "nothing was sent");
    d.clear_line();
    d.type_text("AB123456");
    submit(&d);
    d.wait_for("review what will be sent").await;
    d.key(KeyCode::Enter);
    d.wait_for("Registered in").await;
    let sent = writes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let body = &sent[0].2;
    assert_eq!(body["comment"], comment);
    assert_eq!(body["sales_tax_id"], "TX-123456");
    assert_eq!(body["registration_email"], "ada@example.com");
    assert_eq!(
        body["jurisdiction_specific_fields"],
        json!({
            "business_name": business,
            "registered_location_number": "12345",
            "registration_type": "REMOTE_SELLER",
            "texas_taxpayer_number": "12345678901",
            "webfile_number": "AB123456"
        })
    );
}

#[tokio::test]
async fn the_review_warns_when_the_returns_asked_for_leave_time_since_nexus_uncovered() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    // A state where nexus was met and no registration holds it yet, and the day it was met as
    // the pane reads it: the earliest of the state's rows.
    let rows = d
        .client
        .list_nexus(
            &taxdash::model::filters::NexusFilter::default(),
            taxdash::model::PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .items;
    let exposed = rows
        .iter()
        .find(|n| {
            n.status == Some(taxdash::model::NexusStatus::Exposed)
                && n.country_code == "US"
                && n.nexus_met_date.is_some()
        })
        .expect("the demo has an exposed state")
        .clone();
    let met = rows
        .iter()
        .filter(|n| n.country_code == "US" && n.state_code == exposed.state_code)
        .filter_map(|n| {
            n.nexus_met_date
                .or(n.economic_nexus_met_date)
                .or(n.physical_nexus_met_date)
        })
        .min()
        .unwrap();
    let name = exposed.state_name.clone();
    let code = format!("US-{}", exposed.state_code);
    // The returns asked for start three months after nexus was met, back-filing off.
    let from = met
        .checked_add_months(chrono::Months::new(3))
        .unwrap()
        .with_day(1)
        .unwrap();
    d.char('n');
    d.wait_for("choose the jurisdiction").await;
    d.type_text(&name.to_lowercase());
    d.wait_until("the search", Duration::from_secs(10), |s| {
        s.contains(&code) && !s.contains("US-CA   California")
    })
    .await;
    d.key(KeyCode::Enter);
    d.wait_for(&format!("Register in {name} — details")).await;
    submit(&d);
    d.wait_for(" is required").await;
    d.char(' '); // the first frequency the state assigns
    tab(&d, 3);
    d.type_text(&from.to_string());
    submit(&d);
    let review = d
        .wait_until("the warning", Duration::from_secs(10), |s| {
            s.contains("⚠ Nexus in")
        })
        .await;
    assert!(review.contains("review what will be sent"), "{review}");
    // The warning, read whole across the lines the dialog wraps it on.
    let warning = crate::harness::paragraph(&review, "⚠ Nexus in");
    let last = from.pred_opt().unwrap();
    assert!(
        warning.contains(&format!(
            "Nexus in {name} was met on {met}, but the returns asked for start on {from} \
             (back-filing off): {met} – {last} would have no return."
        )),
        "{warning}"
    );
}
