//! The pane on its own: keys, ticks and answers in, calls and notices out.

use crate::effect::{TransactionCall, TransactionReply};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use super::*;
use crate::effect::{Failure, FailureKind};
use crate::model::filters::Sort;
use crate::model::{FieldError, LocPart};
use crate::ui::pane::Pane;
use crate::ui::skeleton::testing::Fixture;

type Harness = Fixture<TransactionsPane>;

fn harness(read_only: bool) -> Harness {
    let h = Fixture::new(TransactionsPane::default());
    if read_only { h.read_only() } else { h }
}

fn transaction(id: &str, kind: &str, processing: &str) -> Transaction {
    serde_json::from_value(json!({
        "id": id, "external_id": format!("ord-{id}"), "date": "2026-03-01T10:00:00Z",
        "type": kind, "status": "COMMITTED", "processing_status": processing,
        "currency": "USD", "total_amount": "100.00",
        "transaction_items": [{"id": "i1", "external_id": "l1", "external_product_id": "sku-1",
                               "quantity": "1", "amount": "100.00"}]
    }))
    .unwrap()
}

#[test]
fn the_list_opens_newest_first_over_the_last_12_months_and_sorts_on_the_service() {
    let mut h = harness(false);
    h.show();
    let Call::Transactions(TransactionCall::List { filter, .. }) = h.only_call().1 else {
        panic!("a page call");
    };
    assert_eq!(filter.order_by, [Sort::desc("date")], "newest first");
    assert!(h.pane.subtitle().starts_with("last 12 months"));
    assert!(h.pane.subtitle().ends_with("sorted by date ▼"));
    h.action(Action::SortReverse);
    let Call::Transactions(TransactionCall::List { filter, .. }) = h.only_call().1 else {
        panic!("a page call");
    };
    assert_eq!(filter.order_by, [Sort::asc("date")]);
    h.action(Action::Sort);
    let (_, call) = h.only_call();
    let Call::Transactions(TransactionCall::List { filter, .. }) = call else {
        panic!("a page call: {call:?}");
    };
    assert_eq!(filter.order_by, [Sort::asc("customer_name")]);
    // Said with the column's title, never its field's name.
    assert!(
        h.pane.subtitle().ends_with("sorted by customer ▲"),
        "{}",
        h.pane.subtitle()
    );
}

#[test]
fn a_credit_note_reads_negative_in_the_list_and_its_detail() {
    let mut h = harness(false);
    let mut note = transaction("t2", "PARTIAL_CREDIT_NOTE", "PROCESSED");
    note.total_amount = Some(rust_decimal::Decimal::new(135_600, 2));
    h.load(
        vec![transaction("t1", "SALE", "PROCESSED"), note],
        TransactionReply::Page,
    );
    let screen = h.screen(140, 12);
    let row = |id: &str| {
        screen
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{id} in {screen}"))
            .to_owned()
    };
    assert!(row("ord-t1").contains(" 100.00 USD"), "{screen}");
    assert!(!row("ord-t1").contains("-100.00"), "{screen}");
    assert!(row("ord-t2").contains(" -1,356.00 USD"), "{screen}");
    h.action(Action::Down);
    h.action(Action::Open);
    let detail = h.screen(140, 40);
    let total = detail
        .lines()
        .find(|l| l.contains("Total "))
        .unwrap_or_else(|| panic!("{detail}"));
    assert!(total.contains("-1,356.00 USD"), "{detail}");
}

#[test]
fn a_pending_detail_refreshes_itself_until_the_tax_is_in() {
    let mut h = harness(false);
    h.load(
        vec![transaction("t1", "SALE", "QUEUED")],
        TransactionReply::Page,
    );
    h.action(Action::Open);
    let (first, _) = h.only_call();
    (0..REFRESH_TICKS).for_each(|_| h.tick());
    assert!(h.calls().is_empty(), "no refresh while one is on its way");
    h.answer(
        first,
        Ok(Reply::Transactions(TransactionReply::One(Box::new(
            transaction("t1", "SALE", "QUEUED"),
        )))),
    );
    (0..REFRESH_TICKS - 1).for_each(|_| h.tick());
    assert!(h.calls().is_empty(), "not before about 2 s");
    h.tick();
    let (again, call) = h.only_call();
    assert_eq!(
        call,
        Call::Transactions(TransactionCall::Get { id: "t1".into() })
    );
    let done = transaction("t1", "SALE", "PROCESSED");
    h.answer(
        again,
        Ok(Reply::Transactions(TransactionReply::One(Box::new(
            done.clone(),
        )))),
    );
    assert_eq!(h.pane.parts.screen.detail().unwrap().record, done);
    assert_eq!(
        h.pane.parts.list.selected(),
        Some(&done),
        "the row is current too"
    );
    (0..REFRESH_TICKS * 2).for_each(|_| h.tick());
    assert!(h.calls().is_empty(), "the tax is in: no more refreshes");
}

#[test]
fn a_credit_note_opens_on_the_full_sale_and_then_shows_the_note() {
    let mut h = harness(false);
    h.load(
        vec![transaction("t1", "SALE", "PROCESSED")],
        TransactionReply::Page,
    );
    assert!(h.action(Action::CreditNote));
    let (load, _) = h.only_call();
    assert!(h.pane.parts.screen.is_detail(), "waits for the record");
    h.answer(
        load,
        Ok(Reply::Transactions(TransactionReply::One(Box::new(
            transaction("t1", "SALE", "PROCESSED"),
        )))),
    );
    assert!(matches!(
        h.pane.parts.screen.view(),
        Some(TransactionView::Credit { .. })
    ));
    h.submit();
    let (id, call) = h.only_call();
    let Call::Transactions(TransactionCall::CreditNote { original_id, body }) = call else {
        panic!("a credit note call: {call:?}");
    };
    assert_eq!(original_id, "t1");
    assert_eq!(body.total_amount, rust_decimal::Decimal::new(10000, 2));
    let note = transaction("t2", "FULL_CREDIT_NOTE", "PROCESSED");
    h.answer(
        id,
        Ok(Reply::Transactions(TransactionReply::One(Box::new(note)))),
    );
    assert!(h.pane.parts.screen.is_detail());
    assert_eq!(h.pane.parts.screen.detail().unwrap().record.id, "t2");
    assert_eq!(h.last_level(), Some(Level::Success));
}

#[test]
fn credit_notes_are_refused_for_other_types_and_in_read_only_mode() {
    let mut h = harness(false);
    h.load(
        vec![transaction("t1", "PARTIAL_CREDIT_NOTE", "PROCESSED")],
        TransactionReply::Page,
    );
    let offers_credit = |h: &Harness| {
        h.pane
            .hints()
            .contains(&PaneHint::action(Action::CreditNote, "credit note"))
    };
    assert!(!offers_credit(&h), "not offered on a credit note");
    h.action(Action::CreditNote);
    assert!(h.calls().is_empty());
    assert!(h.pane.parts.screen.is_list());
    assert!(h.notices.last().unwrap().1.contains("against a sale"));

    let mut h = harness(true);
    h.load(
        vec![transaction("t1", "SALE", "PROCESSED")],
        TransactionReply::Page,
    );
    assert!(
        offers_credit(&h),
        "offered on a sale (the shell hides writes when read-only)"
    );
    h.action(Action::CreditNote);
    assert!(h.calls().is_empty());
    assert!(h.pane.parts.screen.is_list());
    assert_eq!(h.last_level(), Some(Level::Error));
}

#[test]
fn estimate_and_terms_open_in_read_only_mode() {
    let mut h = harness(true);
    h.load(vec![], TransactionReply::Page);
    assert!(h.with(|p, ctx| p.command("terms", &[], ctx)));
    let (id, call) = h.only_call();
    assert_eq!(call, Call::Transactions(TransactionCall::BackFilingTerms));
    assert!(matches!(
        h.pane.parts.screen.view(),
        Some(TransactionView::Terms(None, _))
    ));
    h.action(Action::Back);
    assert!(h.pane.parts.screen.is_list());
    h.answer(
        id,
        Err(Failure {
            kind: FailureKind::Server,
            message: "late".into(),
            fields: Vec::new(),
        }),
    );

    assert!(h.with(|p, ctx| p.command("estimate", &[], ctx)));
    assert!(h.pane.captures_text());
    h.submit();
    assert!(
        h.calls().is_empty(),
        "a form that fails its rules sends nothing"
    );
    let form = h.pane.parts.screen.form().unwrap();
    assert!(!form.errors_for("addresses.0.state").is_empty());
}

/// Opens the credit note form on a loaded sale.
fn credit_form_open() -> Harness {
    let mut h = harness(false);
    h.load(
        vec![transaction("t1", "SALE", "PROCESSED")],
        TransactionReply::Page,
    );
    h.action(Action::Open);
    let (load, _) = h.only_call();
    h.answer(
        load,
        Ok(Reply::Transactions(TransactionReply::One(Box::new(
            transaction("t1", "SALE", "PROCESSED"),
        )))),
    );
    assert!(h.action(Action::CreditNote));
    assert!(
        matches!(
            h.pane.parts.screen.view(),
            Some(TransactionView::Credit { .. })
        ),
        "opens at once"
    );
    h
}

#[test]
fn a_refused_credit_note_keeps_every_value_and_shows_the_error() {
    let mut h = credit_form_open();
    h.key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
    h.submit();
    let (id, _) = h.only_call();
    h.answer(
        id,
        Err(Failure {
            kind: FailureKind::Validation,
            message: "The service refused the credit note.".into(),
            fields: vec![FieldError::new(
                "value_error",
                vec![LocPart::from("body"), LocPart::from("external_id")],
                "external_id is already in use",
                json!("ord-t1-creditx"),
            )],
        }),
    );
    let form = h.pane.parts.screen.form().expect("the form stays open");
    assert_eq!(
        form.errors_for("external_id"),
        ["External ID is already in use"]
    );
    assert_eq!(form.values().text("external_id"), Some("ord-t1-creditx"));
    assert!(!form.is_busy());
}

#[test]
fn closing_a_credit_note_with_input_asks_first() {
    let mut h = credit_form_open();
    h.key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
    assert!(h.pane.has_unsaved_input());
    h.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert!(!h.pane.parts.overlays.is_empty());
    h.key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE));
    assert!(h.pane.parts.screen.is_detail(), "back to the sale");
}
