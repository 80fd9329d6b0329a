//! The pane on its own: keys and answers in, calls and notices out.

use crate::effect::{
    CustomerCall, CustomerReply, ExemptionCall, ExemptionReply, FileCall, FileReply,
};
use crossterm::event::KeyCode;
use serde_json::json;

use super::create::CUSTOMER;
use super::*;
use crate::effect::{Call, RequestId};
use crate::effect::{Effect, Failure, FailureKind};
use crate::model::{Customer, ExemptionStatus, FieldError, LocPart, Page, RelatedEntityType};
use crate::ui::pane::Pane;
use crate::ui::skeleton::testing::Fixture;

type Harness = Fixture<Skeleton<Exemptions>>;

fn harness(read_only: bool) -> Harness {
    let h = Fixture::new(Skeleton::<Exemptions>::default());
    if read_only { h.read_only() } else { h }
}

/// What the exemptions' tests ask of the fixture beyond the shared steps.
trait Steps {
    fn load_rows(&mut self, rows: Vec<Exemption>);
    fn pause(&mut self);
    fn cancelled(&self) -> Vec<RequestId>;
    fn form(&self) -> &Form;
    fn last_notice(&self) -> Option<Level>;
}

impl Steps for Harness {
    /// Shows the pane and answers its first page with `rows`.
    fn load_rows(&mut self, rows: Vec<Exemption>) {
        self.load(rows, ExemptionReply::Page);
    }

    /// Lets the typing pause long enough for a debounced search to go.
    fn pause(&mut self) {
        for _ in 0..SEARCH_DEBOUNCE_TICKS {
            self.tick();
        }
    }

    /// The requests cancelled since the last look (leaving the calls).
    fn cancelled(&self) -> Vec<RequestId> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Cancel(id) => Some(*id),
                _ => None,
            })
            .collect()
    }

    fn form(&self) -> &Form {
        self.pane.parts.screen.form().expect("a form is open")
    }

    fn last_notice(&self) -> Option<Level> {
        self.last_level()
    }
}

fn page<T>(items: Vec<T>) -> Page<T> {
    let total = items.len() as u64;
    Page {
        items,
        total,
        page: 1,
        size: 100,
        pages: 1,
    }
}

fn exemption(id: &str) -> Exemption {
    serde_json::from_value(json!({
        "id": id, "exemption_type": "wholesale", "status": "ACTIVE",
        "start_date": "2025-01-01", "customer_id": "cust_1", "customer_name": "Ada Lovelace"
    }))
    .unwrap()
}

fn customer(id: &str, name: &str) -> Customer {
    serde_json::from_value(json!({"id": id, "name": name})).unwrap()
}

fn attachment(exemption_id: &str) -> Attachment {
    Attachment {
        id: "att_1".into(),
        related_entity_id: exemption_id.into(),
        related_entity_type: RelatedEntityType::Exemption,
        file_name: Some("cert.pdf".into()),
        mime_type: Some("application/pdf".into()),
        file_size_bytes: Some(14),
        created_at: None,
        file_location: None,
        file_location_type: None,
    }
}

#[test]
fn the_search_is_sent_as_typed_with_one_request_in_flight() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Filter);
    h.type_text("a");
    assert!(
        h.calls().is_empty(),
        "nothing is sent while the typing goes on"
    );
    h.pause();
    let first = h.calls();
    let [(a, Call::Exemptions(ExemptionCall::List { filter, .. }))] = first.as_slice() else {
        panic!("one page call: {first:?}");
    };
    assert_eq!(filter.search_query.as_deref(), Some("a"));
    h.type_text("d");
    h.pause();
    assert_eq!(h.cancelled(), [*a], "the previous search is cancelled");
    let second = h.calls();
    let [(ad, Call::Exemptions(ExemptionCall::List { filter, .. }))] = second.as_slice() else {
        panic!("one page call: {second:?}");
    };
    assert_eq!(filter.search_query.as_deref(), Some("ad"));

    // A late answer to the first search is dropped; the second one shows.
    h.answer(
        *a,
        Ok(Reply::Exemptions(ExemptionReply::Page(page(vec![
            exemption("stale"),
        ])))),
    );
    assert_eq!(h.pane.parts.list.table().total(), None);
    h.answer(
        *ad,
        Ok(Reply::Exemptions(ExemptionReply::Page(page(vec![
            exemption("exm_2"),
        ])))),
    );
    assert_eq!(
        h.pane.parts.list.selected().map(|e| e.id.as_str()),
        Some("exm_2")
    );

    h.press(KeyCode::Enter);
    assert!(!h.pane.captures_text(), "enter keeps the search");
    assert_eq!(
        h.pane.subtitle(),
        "active, inactive and expired, matching \"ad\""
    );
    h.action(Action::Filter);
    h.press(KeyCode::Esc);
    let cleared = h.calls();
    assert!(
        matches!(cleared.as_slice(), [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] if filter.search_query.is_none()),
        "esc clears the search: {cleared:?}"
    );
}

#[test]
fn fast_typing_costs_one_search() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Filter);
    h.type_text("acme");
    h.pause();
    let calls = h.calls();
    assert!(
        matches!(calls.as_slice(), [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] if filter.search_query.as_deref() == Some("acme")),
        "one search for the whole word: {calls:?}"
    );
}

#[test]
fn the_search_command_searches_from_the_detail_too() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Open);
    h.calls();
    assert!(h.with(|p, ctx| Pane::command(p, "search", &["acme", "co"], ctx)));
    assert!(h.pane.parts.screen.is_list());
    assert!(h.pane.parts.screen.detail().is_none());
    let calls = h.calls();
    let [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] = calls.as_slice() else {
        panic!("one page call: {calls:?}");
    };
    assert_eq!(filter.search_query.as_deref(), Some("acme co"));
}

#[test]
fn the_filter_form_sends_the_status_and_keeps_the_search() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Filter);
    h.type_text("acme");
    h.calls();
    h.press(KeyCode::Tab);
    assert!(matches!(h.pane.parts.screen, Screen::Filter(_)));
    // The cursor starts on ACTIVE: → INACTIVE → EXPIRED, space chooses it; ← ← ACTIVE too.
    h.press(KeyCode::Right);
    h.press(KeyCode::Right);
    h.press(KeyCode::Char(' '));
    h.press(KeyCode::Left);
    h.press(KeyCode::Left);
    h.press(KeyCode::Char(' '));
    h.submit();
    let calls = h.calls();
    let [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] = calls.as_slice() else {
        panic!("one page call: {calls:?}");
    };
    assert_eq!(
        filter.status_in,
        [ExemptionStatus::Active, ExemptionStatus::Expired]
    );
    assert_eq!(filter.search_query.as_deref(), Some("acme"));
    let title = h.pane.parts.list.subtitle();
    assert!(
        title.starts_with("ACTIVE or EXPIRED, matching \"acme\""),
        "{title}"
    );
}

#[test]
fn sort_cycles_through_the_allowed_fields() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.action(Action::Sort);
        let calls = h.calls();
        let [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] = calls.as_slice() else {
            panic!("one page call: {calls:?}");
        };
        seen.push(filter.order_by[0].field.clone());
    }
    assert_eq!(seen, ["status", "end_date", "FEIN", "sales_tax_id"]);
    h.action(Action::SortReverse);
    let calls = h.calls();
    let [(_, Call::Exemptions(ExemptionCall::List { filter, .. }))] = calls.as_slice() else {
        panic!("one page call: {calls:?}");
    };
    assert!(filter.order_by[0].descending);
}

#[test]
fn the_detail_loads_the_record_and_its_files() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Open);
    let calls: Vec<Call> = h.calls().into_iter().map(|(_, c)| c).collect();
    assert_eq!(
        calls,
        [
            Call::Exemptions(ExemptionCall::Get { id: "exm_1".into() }),
            Call::Exemptions(ExemptionCall::Attachments {
                exemption_id: "exm_1".into()
            })
        ]
    );
    h.action(Action::Back);
    assert!(h.pane.parts.screen.is_list());
    assert_eq!(
        h.cancelled().len(),
        2,
        "what the detail waited for is cancelled"
    );
}

/// Opens the create form and answers its first customer lookup with `found`.
fn open_create(h: &mut Harness, found: Vec<Customer>) {
    assert!(h.action(Action::New));
    let calls = h.calls();
    let [(id, Call::Customers(CustomerCall::List { filter, .. }))] = calls.as_slice() else {
        panic!("one customer lookup: {calls:?}");
    };
    assert_eq!(filter.search_query, None);
    h.answer(*id, Ok(Reply::Customers(CustomerReply::Page(page(found)))));
}

#[test]
fn the_customer_is_found_by_typing_and_chosen_among_the_matches() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    open_create(&mut h, vec![customer("cust_1", "Ada")]);
    h.type_text("gr");
    assert_eq!(h.cancelled().len(), 1, "the lookup of g is cancelled");
    let calls = h.calls();
    let (id, Call::Customers(CustomerCall::List { filter, .. })) = calls.last().unwrap().clone()
    else {
        panic!("a customer lookup: {calls:?}");
    };
    assert_eq!(filter.search_query.as_deref(), Some("gr"));
    h.answer(
        id,
        Ok(Reply::Customers(CustomerReply::Page(page(vec![customer(
            "cust_7", "Grace",
        )])))),
    );
    h.press(KeyCode::Tab);
    h.press(KeyCode::Right);
    assert_eq!(h.form().values().text(CUSTOMER), Some("cust_7"));
}

#[test]
fn a_create_that_fails_a_rule_sends_nothing_and_a_refusal_keeps_every_value() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    open_create(&mut h, vec![customer("cust_1", "Ada")]);
    h.press(KeyCode::Tab);
    h.press(KeyCode::Right); // customer
    h.press(KeyCode::Tab);
    h.press(KeyCode::Right); // customer type
    h.press(KeyCode::Tab);
    h.press(KeyCode::Right); // ACTIVE
    h.press(KeyCode::Tab);
    h.type_text("us"); // country
    h.press(KeyCode::Tab); // jurisdiction, left empty
    h.press(KeyCode::Tab);
    h.type_text("2025-06-01");
    h.press(KeyCode::Tab);
    h.type_text("2025-01-01");
    h.press(KeyCode::Tab);
    h.type_text("12-3456789");
    h.press(KeyCode::Tab);
    h.type_text("ST-1");
    h.submit();
    assert!(
        h.calls().is_empty(),
        "an end before the start sends nothing"
    );
    assert!(!h.form().errors_for("end_date").is_empty());
    assert_eq!(h.form().focused_name(), Some("end_date"));

    for _ in 0.."2025-01-01".len() {
        h.press(KeyCode::Backspace);
    }
    h.type_text("2026-01-01");
    h.submit();
    let calls = h.calls();
    let [(id, Call::Exemptions(ExemptionCall::Create { body }))] = calls.as_slice() else {
        panic!("one create call: {calls:?}");
    };
    assert_eq!(body.customer_id, "cust_1");
    assert_eq!(body.sales_tax_id, "ST-1");
    assert_eq!(body.country_code.as_deref(), Some("US"), "sent in capitals");
    let failure = Failure {
        kind: FailureKind::Validation,
        message: "The service refused the exemption.".into(),
        fields: vec![FieldError::new(
            "value_error",
            vec![LocPart::from("body"), LocPart::from("FEIN")],
            "FEIN is not valid",
            json!("12-3456789"),
        )],
    };
    h.answer(*id, Err(failure));
    assert_eq!(h.form().errors_for("FEIN"), ["FEIN is not valid"]);
    assert_eq!(h.form().values().text("sales_tax_id"), Some("ST-1"));
    assert!(!h.form().is_busy());
    assert_eq!(h.last_notice(), Some(Level::Error));

    // The service's "Field required" on two fields: each names its field, the footer counts.
    h.submit();
    let (id, _) = h.only_call();
    let required = |field: &str| {
        FieldError::new(
            "missing",
            vec![LocPart::from("body"), LocPart::from(field)],
            "Field required",
            json!(null),
        )
    };
    h.answer(
        id,
        Err(Failure {
            kind: FailureKind::Validation,
            message: "The service refused 2 values: status: Field required; sales_tax_id: Field \
                      required"
                .into(),
            fields: vec![required("status"), required("sales_tax_id")],
        }),
    );
    assert_eq!(h.form().errors_for("status"), ["Status is required"]);
    assert_eq!(
        h.form().errors_for("sales_tax_id"),
        ["Sales tax ID is required"]
    );
    let footer = &h.notices.last().expect("a notice").1;
    assert_eq!(
        footer,
        "The service refused it: 2 fields to fix; the first: Status is required"
    );
    let screen = h.screen(100, 40);
    assert!(
        !screen.contains("Field required"),
        "no error without its field's name:\n{screen}"
    );
}

#[test]
fn an_upload_completes_the_path_and_a_refusal_lands_under_the_file() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    h.action(Action::Open);
    h.calls();
    assert!(h.action(Action::Attach));
    h.type_text("/tmp/ce");
    h.press(KeyCode::Tab);
    let calls = h.calls();
    let [(id, Call::Files(FileCall::CompletePath { partial }))] = calls.as_slice() else {
        panic!("one completion: {calls:?}");
    };
    assert_eq!(partial, "/tmp/ce");
    h.answer(
        *id,
        Ok(Reply::Files(FileReply::PathCompletions(vec![
            "/tmp/cert.txt".into(),
        ]))),
    );
    assert_eq!(h.form().values().text(upload::FILE), Some("/tmp/cert.txt"));

    h.press(KeyCode::Enter);
    let calls = h.calls();
    let [(id, Call::Exemptions(ExemptionCall::UploadCertificate { exemption_id, path }))] =
        calls.as_slice()
    else {
        panic!("one upload: {calls:?}");
    };
    assert_eq!(exemption_id, "exm_1");
    assert_eq!(path.to_str(), Some("/tmp/cert.txt"));
    let refusal = Failure {
        kind: FailureKind::Validation,
        message: "file must be a PDF".into(),
        fields: vec![FieldError::new(
            "value_error",
            vec![LocPart::from("body"), LocPart::from("file")],
            "file must be a PDF",
            json!("/tmp/cert.txt"),
        )],
    };
    h.answer(*id, Err(refusal));
    assert_eq!(
        h.form().errors_for(upload::FILE),
        ["Certificate must be a PDF"],
        "the field's label, not the wire name"
    );

    // Another path, accepted: back to the detail, whose files are fetched again.
    h.press(KeyCode::Backspace);
    h.press(KeyCode::Enter);
    let (id, _) = h.calls().remove(0);
    h.answer(
        id,
        Ok(Reply::Exemptions(ExemptionReply::Attachment(attachment(
            "exm_1",
        )))),
    );
    assert!(h.pane.parts.screen.is_detail());
    let calls: Vec<Call> = h.calls().into_iter().map(|(_, c)| c).collect();
    assert_eq!(
        calls,
        [Call::Exemptions(ExemptionCall::Attachments {
            exemption_id: "exm_1".into()
        })]
    );
    assert_eq!(h.last_notice(), Some(Level::Success));
}

#[test]
fn read_only_opens_no_write() {
    let mut h = harness(true);
    h.load_rows(vec![exemption("exm_1")]);
    for action in [Action::New, Action::Attach] {
        h.action(action);
        assert!(
            h.pane.parts.screen.form().is_none(),
            "{action:?} opens nothing"
        );
        assert_eq!(h.last_notice(), Some(Level::Error));
    }
    for command in ["new", "attach"] {
        h.with(|p, ctx| Pane::command(p, command, &[], ctx));
        assert!(
            h.pane.parts.screen.form().is_none(),
            ":{command} opens nothing"
        );
    }
    assert!(h.calls().is_empty());
}

#[test]
fn the_new_exemption_asks_where_it_holds_on_the_first_screen() {
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    open_create(&mut h, vec![customer("cust_1", "Ada")]);
    // The pane's share of a 200x50 terminal.
    let screen = h.screen(200, 44);
    assert!(screen.contains("Country"), "{screen}");
    assert!(screen.contains("Jurisdiction"), "{screen}");
}

/// An exemption ending on `end`.
fn ending(id: &str, end: chrono::NaiveDate) -> Exemption {
    let mut e = exemption(id);
    e.end_date = Some(end);
    e
}

#[test]
fn e_and_x_filter_to_the_expiry_windows_one_key_away() {
    use chrono::Days;
    let today = crate::clock::today();
    let mut h = harness(false);
    h.load_rows(vec![exemption("exm_1")]);
    assert!(h.action(Action::Expiring));
    let (id, call) = h.only_call();
    let Call::Exemptions(ExemptionCall::List { filter, .. }) = call else {
        panic!("a page call: {call:?}");
    };
    assert_eq!(filter.status_in, [ExemptionStatus::Active]);
    let in_30 = today + Days::new(30);
    let asked = |f: &ExemptionFilter| {
        use crate::model::filters::ListFilter;
        f.query(crate::model::PageParams::default()).encode()
    };
    assert!(
        asked(&filter).contains(&format!("end_date={in_30}")),
        "the service is asked up to the window's end: {}",
        asked(&filter)
    );
    // The service cannot ask for ends from today: those ending earlier are dropped here.
    let rows = vec![
        ending("exm_soon", today + Days::new(3)),
        ending("exm_past", today - Days::new(3)),
    ];
    h.answer(id, Ok(Reply::Exemptions(ExemptionReply::Page(page(rows)))));
    assert_eq!(h.pane.parts.list.table().total(), Some(1));
    let title = h.pane.parts.list.subtitle();
    assert!(
        title.starts_with(&format!(
            "expiring within 30 days (ending {today} to {in_30}), ACTIVE"
        )),
        "{title}"
    );
    assert!(title.contains(": 1 of 2 exemptions checked"), "{title}");

    assert!(h.action(Action::Expired));
    let (id, call) = h.only_call();
    let Call::Exemptions(ExemptionCall::List { filter, .. }) = call else {
        panic!("a page call: {call:?}");
    };
    assert!(filter.status_in.is_empty(), "expired ones of every status");
    let yesterday = today.pred_opt().unwrap();
    assert!(asked(&filter).contains(&format!("end_date={yesterday}")));
    let rows = vec![
        ending("exm_past", today - Days::new(3)),
        ending("exm_long_ago", today - Days::new(90)),
    ];
    h.answer(id, Ok(Reply::Exemptions(ExemptionReply::Page(page(rows)))));
    assert_eq!(h.pane.parts.list.table().total(), Some(1));
    assert_eq!(
        h.pane.parts.list.selected().map(|e| e.id.as_str()),
        Some("exm_past")
    );
    let keys: Vec<String> = h
        .pane
        .hints()
        .iter()
        .map(|hint| hint.label.to_string())
        .collect();
    assert!(
        keys.iter().any(|k| k == "expiring within 30 days")
            && keys.iter().any(|k| k == "expired in the last 30 days"),
        "{keys:?}"
    );
}
