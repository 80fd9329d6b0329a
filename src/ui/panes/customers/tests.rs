//! The pane on its own: keys and answers in, calls and notices out.

use crate::effect::{CustomerCall, CustomerReply};
use crossterm::event::KeyCode;
use serde_json::json;

use super::*;
use crate::effect::{Effect, Failure, FailureKind};
use crate::model::{CustomerTaxType, FieldError, LocPart};
use crate::ui::pane::Pane;
use crate::ui::skeleton::testing::Fixture;

type Harness = Fixture<CustomersPane>;

fn harness(read_only: bool) -> Harness {
    let h = Fixture::new(CustomersPane::default());
    if read_only { h.read_only() } else { h }
}

fn load(h: &mut Harness, rows: Vec<Customer>) {
    h.load(rows, CustomerReply::Page);
}

fn form(h: &Harness) -> &Form {
    h.pane.parts.screen.form().expect("a form is open")
}

fn detail(h: &Harness) -> &Customer {
    &h.pane
        .parts
        .screen
        .detail()
        .expect("the detail is open")
        .record
}

fn customer(id: &str, country: &str) -> Customer {
    serde_json::from_value(json!({"id": id, "name": "Ada Lovelace", "country": country})).unwrap()
}

#[test]
fn a_refusal_lands_under_its_field_and_keeps_every_value() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "GB")]);
    assert!(h.action(Action::New));
    h.type_text("Ada");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.type_text("ada@example.com");
    h.submit();
    let calls = h.calls();
    let [(id, Call::Customers(CustomerCall::Create { body }))] = calls.as_slice() else {
        panic!("one create call: {calls:?}");
    };
    assert_eq!(body.name.as_deref(), Some("Ada"));
    assert_eq!(body.email.as_deref(), Some("ada@example.com"));
    assert!(form(&h).is_busy());

    let failure = Failure {
        kind: FailureKind::Validation,
        message: "The service refused the customer.".into(),
        fields: vec![FieldError::new(
            "value_error",
            vec![LocPart::from("body"), LocPart::from("email")],
            "email is already in use",
            json!("ada@example.com"),
        )],
    };
    h.answer(*id, Err(failure));
    assert!(
        matches!(
            h.pane.parts.screen.view(),
            Some(CustomerForm::Create { .. })
        ),
        "the form stays open"
    );
    let form = form(&h);
    assert_eq!(form.errors_for("email"), ["Email is already in use"]);
    assert_eq!(form.values().text("name"), Some("Ada"));
    assert_eq!(form.values().text("email"), Some("ada@example.com"));
    assert!(!form.is_busy(), "ready to be sent again");
    assert_eq!(h.last_level(), Some(Level::Error));
}

#[test]
fn a_created_customer_opens_in_the_detail_and_the_list_reloads() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "GB")]);
    h.action(Action::New);
    h.type_text("Zed");
    h.submit();
    let (id, _) = h.calls().remove(0);
    h.answer(
        id,
        Ok(Reply::Customers(CustomerReply::One(customer(
            "cust_2", "US",
        )))),
    );
    assert!(h.pane.parts.screen.is_detail());
    assert_eq!(detail(&h).id, "cust_2");
    let calls: Vec<Call> = h.calls().into_iter().map(|(_, c)| c).collect();
    assert!(calls.contains(&Call::Customers(CustomerCall::Get {
        id: "cust_2".into()
    })));
    assert!(
        calls
            .iter()
            .any(|c| matches!(c, Call::Customers(CustomerCall::List { .. })))
    );
    assert_eq!(h.last_level(), Some(Level::Success));
}

#[test]
fn a_saved_tax_id_shows_in_the_detail_fetched_again() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "CA")]);
    assert!(h.action(Action::TaxId), "from the list");
    h.type_text("123456789RT0001");
    h.press(KeyCode::Enter);
    let calls = h.calls();
    let [(id, Call::Customers(CustomerCall::TaxRegistration { customer_id, body }))] =
        calls.as_slice()
    else {
        panic!("one tax registration call: {calls:?}");
    };
    assert_eq!(
        (customer_id.as_str(), body.tax_id.as_str()),
        ("cust_1", "123456789RT0001")
    );
    let saved = CustomerTaxRegistration {
        id: "txr_1".into(),
        customer_id: "cust_1".into(),
        country_code: "CA".into(),
        tax_type: CustomerTaxType::GstHst,
        tax_id: "123456789RT0001".into(),
        is_valid: true,
    };
    h.answer(
        *id,
        Ok(Reply::Customers(CustomerReply::TaxRegistration(
            saved.clone(),
        ))),
    );
    assert!(h.pane.parts.screen.is_detail());
    let (fetch, call) = h.calls().remove(0);
    assert_eq!(
        call,
        Call::Customers(CustomerCall::Get {
            id: "cust_1".into()
        })
    );

    let mut fresh = customer("cust_1", "CA");
    fresh.customer_tax_registrations = Some(vec![saved]);
    h.answer(
        fetch,
        Ok(Reply::Customers(CustomerReply::One(fresh.clone()))),
    );
    assert_eq!(detail(&h), &fresh);
    assert_eq!(
        h.pane.parts.list.selected(),
        Some(&fresh),
        "the row is current too"
    );
}

#[test]
fn a_stale_detail_answer_is_dropped() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "CA")]);
    h.action(Action::Open);
    let (first, _) = h.calls().remove(0);
    h.action(Action::Refresh);
    assert!(h.effects.contains(&Effect::Cancel(first)));
    let (second, _) = h.calls().remove(0);
    let mut renamed = customer("cust_1", "CA");
    renamed.name = Some("Old answer".into());
    h.answer(
        first,
        Ok(Reply::Customers(CustomerReply::One(renamed.clone()))),
    );
    let shown = |h: &Harness| detail(h).name.clone();
    assert_eq!(shown(&h).as_deref(), Some("Ada Lovelace"));
    renamed.name = Some("New answer".into());
    h.answer(second, Ok(Reply::Customers(CustomerReply::One(renamed))));
    assert_eq!(shown(&h).as_deref(), Some("New answer"));
}

#[test]
fn read_only_opens_no_form() {
    let mut h = harness(true);
    load(&mut h, vec![customer("cust_1", "CA")]);
    for action in [Action::New, Action::TaxId] {
        h.action(action);
        assert!(
            h.pane.parts.screen.form().is_none(),
            "{action:?} opens nothing"
        );
        assert_eq!(h.last_level(), Some(Level::Error));
    }
    assert!(!(h.command("new", &[]) && h.pane.parts.screen.form().is_some()));
    assert!(h.calls().is_empty());
}

#[test]
fn closing_a_form_with_input_asks_first() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "CA")]);
    h.action(Action::TaxId);
    h.type_text("x");
    assert!(h.pane.has_unsaved_input());
    h.press(KeyCode::Esc);
    assert!(h.pane.captures_text() && h.pane.parts.overlays.len() == 1);
    h.press(KeyCode::Char('n'));
    assert!(
        matches!(h.pane.parts.screen.view(), Some(CustomerForm::TaxId { .. })),
        "kept on no"
    );
    h.press(KeyCode::Esc);
    h.press(KeyCode::Char('y'));
    assert!(h.pane.parts.screen.is_list());
}

#[test]
fn a_form_that_fails_its_rule_sends_nothing() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "CA")]);
    h.action(Action::New);
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.type_text("ada@");
    h.submit();
    assert!(h.calls().is_empty());
    assert_eq!(form(&h).focused_name(), Some("email"));
    assert!(!form(&h).errors_for("email").is_empty());
}

#[test]
fn the_search_reloads_the_list_with_its_filter() {
    let mut h = harness(false);
    load(&mut h, vec![customer("cust_1", "CA")]);
    h.action(Action::Filter);
    h.type_text("ada");
    h.press(KeyCode::Tab);
    h.type_text("ca");
    h.submit();
    assert!(h.pane.parts.screen.is_list());
    let calls = h.calls();
    let [(_, Call::Customers(CustomerCall::List { filter, page }))] = calls.as_slice() else {
        panic!("one page call: {calls:?}");
    };
    assert_eq!(filter.search_query.as_deref(), Some("ada"));
    assert_eq!(filter.country, ["CA"]);
    assert_eq!(page.page, 1);
    assert_eq!(h.pane.subtitle(), "matching \"ada\", country CA");
}
