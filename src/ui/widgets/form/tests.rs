use super::*;
use crate::model::LocPart;
use crate::rules;
use crate::ui::theme::Theme;
use crate::ui::widgets::testing::{
    all_text, assert_styled, back_tab, blank, ctrl, find, key, row_text, typing,
};
use crossterm::event::KeyModifiers;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

/// The deregistration wizard's first step, checked by the deregistration rules.
fn deregistration() -> Form {
    Form::new(vec![
        FieldSpec::new("closure_date", "Closure date", FieldKind::Date)
            .rule("YYYY-MM-DD; past or future")
            .required(),
        FieldSpec::new(
            "reason",
            "Reason",
            FieldKind::Select(vec![
                Choice::new(
                    "FULL_BUSINESS_CLOSURE",
                    "Full business closure",
                    "The business stops trading everywhere.",
                ),
                Choice::new(
                    "CLOSING_NEXUS_IN_STATE",
                    "Closing nexus in state",
                    "No more presence or sales that create nexus in this state.",
                ),
            ]),
        )
        .rule("why the registration closes")
        .required(),
        FieldSpec::new(
            "final_return_acknowledged",
            "Final return acknowledged",
            FieldKind::Checkbox,
        )
        .rule("a final return stays owed up to the closure date")
        .required(),
    ])
    .with_validator(body_rule(rules::deregistration))
}

/// A form with one field of every kind, no validator.
fn every_kind() -> Form {
    Form::new(vec![
        FieldSpec::new("name", "Name", FieldKind::Text).required(),
        FieldSpec::new("note", "Note", FieldKind::MultiLine),
        FieldSpec::new("amount", "Amount", FieldKind::Decimal),
        FieldSpec::new("api_key", "API key", FieldKind::Masked),
        FieldSpec::new("active", "Active", FieldKind::Checkbox),
    ])
}

fn type_in(form: &mut Form, text: &str) {
    for k in typing(text) {
        assert_eq!(form.handle_key(k), FormOutcome::None, "typing {text:?}");
    }
}

fn draw(form: &mut Form, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut buf = blank(width, height);
    form.render(buf.area, &mut buf, &Theme::default());
    buf
}

#[test]
fn printable_keys_go_to_the_focused_field() {
    let mut form = every_kind();
    type_in(&mut form, "q?:/jk x");
    assert_eq!(form.values().text("name"), Some("q?:/jk x"));
    assert_eq!(form.focused_name(), Some("name"));
}

#[test]
fn tab_and_arrows_move_the_focus() {
    let mut form = every_kind();
    form.handle_key(key(KeyCode::Tab));
    assert_eq!(form.focused_name(), Some("note"));
    form.handle_key(back_tab());
    form.handle_key(back_tab());
    assert_eq!(form.focused_name(), Some("active"), "Shift-Tab wraps");
    form.handle_key(key(KeyCode::Up));
    assert_eq!(form.focused_name(), Some("api_key"));
    form.handle_key(key(KeyCode::Down));
    form.handle_key(key(KeyCode::Down));
    assert_eq!(
        form.focused_name(),
        Some("active"),
        "Down stops at the last"
    );
    assert!(form.focus_field("name"));
    form.handle_key(key(KeyCode::Enter));
    assert_eq!(form.focused_name(), Some("note"), "Enter moves on");
}

#[test]
fn a_multi_line_field_keeps_enter_and_the_arrows() {
    let mut form = every_kind();
    form.focus_field("note");
    type_in(&mut form, "one");
    form.handle_key(key(KeyCode::Enter));
    type_in(&mut form, "two");
    form.handle_key(key(KeyCode::Up));
    assert_eq!(form.focused_name(), Some("note"), "Up moved the cursor");
    type_in(&mut form, "!");
    assert_eq!(form.values().text("note"), Some("one!\ntwo"));
    form.handle_key(key(KeyCode::Tab));
    assert_eq!(form.focused_name(), Some("amount"));
}

#[test]
fn space_toggles_a_checkbox_and_cycles_a_select() {
    let mut form = deregistration();
    form.focus_field("reason");
    assert_eq!(form.values().text("reason"), Some(""));
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(form.values().text("reason"), Some("FULL_BUSINESS_CLOSURE"));
    form.handle_key(key(KeyCode::Right));
    assert_eq!(form.values().text("reason"), Some("CLOSING_NEXUS_IN_STATE"));
    form.handle_key(key(KeyCode::Left));
    form.handle_key(key(KeyCode::Left));
    assert_eq!(form.values().text("reason"), Some("CLOSING_NEXUS_IN_STATE"));
    form.handle_key(key(KeyCode::Char('f')));
    assert_eq!(
        form.values().text("reason"),
        Some("FULL_BUSINESS_CLOSURE"),
        "a letter jumps to the choice it starts"
    );
    form.handle_key(key(KeyCode::Tab));
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(form.values().bool("final_return_acknowledged"), Some(true));
    form.handle_key(key(KeyCode::Char('x')));
    assert_eq!(form.values().bool("final_return_acknowledged"), Some(true));
}

#[test]
fn a_31_february_shows_under_its_field_and_keeps_the_text() {
    let mut form = Form::new(deregistration().specs().cloned().collect());
    type_in(&mut form, "2026-02-31");
    let errors = rules::deregistration(Some(&form.to_json())).unwrap_err();
    form.set_errors(&errors);

    let date_errors = form.errors_for("closure_date");
    assert_eq!(date_errors.len(), 1, "{date_errors:?}");
    assert!(date_errors[0].contains("day 31 is out of range for February 2026"));
    assert_eq!(form.values().text("closure_date"), Some("2026-02-31"));
    assert_eq!(form.errors_for("reason"), ["Reason is required"]);

    let theme = Theme::default();
    let buf = draw(&mut form, 60, 30);
    let (_, label_row) = find(&buf, "Closure date *");
    let (_, error_row) = find(&buf, "✗ Closure date should be a valid date");
    let (_, rule_row) = find(&buf, "YYYY-MM-DD; past or future");
    assert_eq!(rule_row, label_row + 3, "the rule sits under the input box");
    assert_eq!(error_row, rule_row + 1, "the error sits under the rule");
    assert_styled(&buf, "✗ Closure date should be a valid date", theme.error);
    assert_styled(&buf, "YYYY-MM-DD; past", theme.muted);
    assert_styled(&buf, "2026-02-31", theme.input_focus);
}

#[test]
fn errors_are_checked_as_you_type_but_only_where_you_typed() {
    let mut form = deregistration();
    assert!(
        form.errors_for("closure_date").is_empty(),
        "nothing shouts at first"
    );
    type_in(&mut form, "2026-02-3");
    assert_eq!(
        form.errors_for("closure_date").len(),
        1,
        "a half date is checked"
    );
    assert!(
        form.errors_for("reason").is_empty(),
        "untouched: no Field required yet"
    );
    type_in(&mut form, "0");
    assert!(
        form.errors_for("closure_date")[0].contains("February 2026, which has 28 days"),
        "{:?}",
        form.errors_for("closure_date")
    );
    form.handle_key(key(KeyCode::Backspace));
    form.handle_key(key(KeyCode::Backspace));
    type_in(&mut form, "28");
    assert!(form.errors_for("closure_date").is_empty());
}

#[test]
fn a_failed_submit_sends_nothing_and_keeps_every_value() {
    let mut form = deregistration();
    type_in(&mut form, "2026-02-31");
    form.handle_key(key(KeyCode::Tab));
    form.handle_key(key(KeyCode::Right));
    let before = form.values();

    assert_eq!(form.handle_key(ctrl('s')), FormOutcome::Invalid);
    assert_eq!(form.values(), before);
    assert_eq!(
        form.focused_name(),
        Some("closure_date"),
        "focus goes to the first error"
    );
    assert!(
        form.errors_for("final_return_acknowledged")[0].contains("must be true"),
        "after a submit, untouched fields show their errors too"
    );

    for _ in "2026-02-31".chars() {
        form.handle_key(key(KeyCode::Backspace));
    }
    type_in(&mut form, "2026-02-28");
    form.focus_field("final_return_acknowledged");
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(form.handle_key(key(KeyCode::Enter)), FormOutcome::Submit);
    assert_eq!(
        form.to_json(),
        json!({
            "closure_date": "2026-02-28",
            "reason": "FULL_BUSINESS_CLOSURE",
            "final_return_acknowledged": true
        })
    );
}

#[test]
fn a_busy_form_refuses_a_second_submit() {
    let mut form = every_kind();
    assert_eq!(form.handle_key(ctrl('s')), FormOutcome::Submit);
    form.set_busy(true);
    assert_eq!(form.handle_key(ctrl('s')), FormOutcome::None);
    type_in(&mut form, "x");
    assert_eq!(
        form.values().text("name"),
        Some(""),
        "no edits while sending"
    );
    form.set_busy(false);
    assert_eq!(form.handle_key(ctrl('s')), FormOutcome::Submit);
}

#[test]
fn esc_asks_only_when_there_is_unsaved_input() {
    let mut form = every_kind();
    assert_eq!(form.handle_key(key(KeyCode::Esc)), FormOutcome::Cancel);
    type_in(&mut form, "a");
    assert!(form.is_dirty());
    assert_eq!(form.handle_key(key(KeyCode::Esc)), FormOutcome::AskDiscard);
    form.handle_key(key(KeyCode::Backspace));
    assert_eq!(
        form.handle_key(key(KeyCode::Esc)),
        FormOutcome::Cancel,
        "back to what it was: nothing to lose"
    );
    type_in(&mut form, "b");
    form.mark_saved();
    assert_eq!(form.handle_key(key(KeyCode::Esc)), FormOutcome::Cancel);
}

#[test]
fn prefilled_values_are_not_unsaved_input() {
    let mut form = deregistration()
        .with_value("closure_date", "2026-06-30")
        .with_value(
            "reason",
            FieldValue::Choice("CLOSING_NEXUS_IN_STATE".into()),
        )
        .with_value("final_return_acknowledged", true);
    assert!(!form.is_dirty());
    assert!(form.check());
    assert_eq!(form.values().text("reason"), Some("CLOSING_NEXUS_IN_STATE"));
}

#[test]
fn to_json_leaves_empty_optional_fields_out() {
    let mut form = every_kind();
    type_in(&mut form, "Acme");
    assert_eq!(form.to_json(), json!({"name": "Acme", "active": false}));
    form.focus_field("amount");
    type_in(&mut form, "12.50");
    form.focus_field("active");
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(
        form.to_json(),
        json!({"name": "Acme", "amount": "12.50", "active": true})
    );
}

#[test]
fn reported_errors_land_on_their_fields_or_above_the_form() {
    let mut form = every_kind();
    type_in(&mut form, "Acme");
    form.set_errors(&[
        FieldError::new(
            "value_error",
            vec!["body".into(), "name".into()],
            "Name taken",
            Value::Null,
        ),
        FieldError::new(
            "missing",
            vec!["body".into(), "items".into(), LocPart::Index(0)],
            "Field required",
            Value::Null,
        ),
        FieldError::new(
            "value_error",
            vec!["body".into()],
            "Body refused",
            Value::Null,
        ),
    ]);
    assert_eq!(form.errors_for("name"), ["Name taken"]);
    assert_eq!(
        form.form_errors(),
        ["items.0: Field required", "Body refused"]
    );

    let theme = Theme::default();
    let buf = draw(&mut form, 50, 30);
    assert_eq!(row_text(&buf, 0), "✗ items.0: Field required");
    assert_styled(&buf, "✗ Body refused", theme.error);

    type_in(&mut form, " Inc");
    assert!(
        form.errors_for("name").is_empty(),
        "an edit clears the field's report"
    );
    assert_eq!(form.values().text("name"), Some("Acme Inc"));
    form.clear_errors();
    assert!(form.form_errors().is_empty());
}

#[test]
fn a_masked_field_shows_bullets() {
    let mut form = every_kind();
    form.focus_field("api_key");
    type_in(&mut form, "sk_live_123");
    let text = all_text(&draw(&mut form, 40, 40));
    assert!(!text.contains("sk_live"), "{text}");
    assert!(text.contains("•••••••••••"), "{text}");
    assert_eq!(form.values().text("api_key"), Some("sk_live_123"));
}

#[test]
fn the_focused_field_is_styled_and_scrolled_into_view() {
    let theme = Theme::default();
    let mut form = every_kind();
    form.focus_field("active");
    let buf = draw(&mut form, 40, 8);
    let text = all_text(&buf);
    assert!(text.contains("Active"), "{text}");
    assert!(!text.contains("Name *"), "{text}");
    assert_styled(&buf, "▲", theme.muted);
    assert_styled(&buf, "[ ]", theme.input_focus);
    assert_styled(&buf, " Active ", theme.border_focus);

    form.focus_field("name");
    let buf = draw(&mut form, 40, 8);
    assert!(row_text(&buf, 0).contains("Name *"));
    assert_styled(&buf, "▼", theme.muted);
}

#[test]
fn snapshot_of_a_form_with_errors() {
    let mut form = deregistration();
    type_in(&mut form, "2026-02-31");
    form.handle_key(key(KeyCode::Tab));
    form.handle_key(key(KeyCode::Right));
    form.handle_key(key(KeyCode::Right));
    assert_eq!(form.handle_key(ctrl('s')), FormOutcome::Invalid);
    form.focus_field("reason");

    let theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(64, 22)).unwrap();
    terminal
        .draw(|f| form.render(f.area(), f.buffer_mut(), &theme))
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
    let buf = terminal.backend().buffer();
    assert_styled(buf, "Closing nexus in state", theme.input_focus);
    assert_styled(buf, "No more presence", theme.base);
    assert_styled(buf, "✗ Closure date should be a valid date", theme.error);
    assert_styled(buf, "✗ Final return acknowledged must be true", theme.error);
}

#[test]
fn hints_follow_the_focused_field() {
    let mut form = deregistration();
    let first = |form: &Form| form.hints()[0].label.clone();
    assert_eq!(first(&form), "next/submit");
    form.focus_field("reason");
    assert_eq!(first(&form), "choose");
    form.focus_field("final_return_acknowledged");
    assert_eq!(first(&form), "toggle");
    assert!(form.hints().iter().all(|h| h.group == "Form"));
}

#[test]
fn choices_fetched_later_keep_the_value_when_still_offered() {
    let mut form = deregistration().with_value(
        "reason",
        FieldValue::Choice("CLOSING_NEXUS_IN_STATE".into()),
    );
    form.set_choices(
        "reason",
        vec![
            Choice::new("CLOSING_NEXUS_IN_STATE", "Closing nexus (assigned)", ""),
            Choice::new("OTHER", "Other", ""),
        ],
    );
    assert_eq!(form.values().text("reason"), Some("CLOSING_NEXUS_IN_STATE"));
    assert!(!form.is_dirty(), "new choices are not an edit");
    form.set_choices("reason", vec![Choice::new("OTHER", "Other", "")]);
    assert_eq!(form.values().text("reason"), Some(""));
    // Not a select: nothing happens.
    form.set_choices("closure_date", vec![Choice::new("x", "x", "")]);
    assert_eq!(form.specs().next().map(|s| &s.kind), Some(&FieldKind::Date));
}

#[test]
fn text_fields_take_the_shell_editing_keys() {
    let mut form = every_kind();
    type_in(&mut form, "Acme Industrial");
    form.handle_key(ctrl('w'));
    assert_eq!(form.values().text("name"), Some("Acme "));
    form.handle_key(ctrl('u'));
    assert_eq!(
        form.values().text("name"),
        Some(""),
        "Ctrl-U deletes to the start, not one character"
    );
    type_in(&mut form, "Beta Supply");
    form.handle_key(ctrl('a'));
    type_in(&mut form, "The ");
    form.handle_key(KeyEvent::new(KeyCode::Char('f'), KeyModifiers::ALT));
    form.handle_key(ctrl('k'));
    assert_eq!(form.values().text("name"), Some("The Beta "));
    form.handle_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::ALT));
    assert_eq!(form.values().text("name"), Some("The "));
    assert!(form.is_dirty());
    assert_eq!(form.focused_name(), Some("name"), "no key moved the focus");
}

#[test]
fn a_multi_line_field_keeps_enter_for_new_lines() {
    let mut form = every_kind();
    form.handle_key(key(KeyCode::Tab));
    type_in(&mut form, "first");
    assert_eq!(form.handle_key(key(KeyCode::Enter)), FormOutcome::None);
    type_in(&mut form, "second");
    form.handle_key(ctrl('u'));
    type_in(&mut form, "2nd");
    assert_eq!(form.values().text("note"), Some("first\n2nd"));
}

#[test]
fn messages_name_fields_by_their_labels() {
    let mut form = Form::new(vec![
        FieldSpec::new("start_date", "Start date", FieldKind::Date),
        FieldSpec::new("end_date", "End date", FieldKind::Date),
        FieldSpec::new("FEIN", "FEIN", FieldKind::Text),
    ]);
    assert_eq!(
        form.in_words("Value error, end_date must not be before start_date (2025-06-01)"),
        "End date must not be before start date (2025-06-01)"
    );
    assert_eq!(
        form.in_words("FEIN must be 9 digits; end_date."),
        "FEIN must be 9 digits; end date."
    );
    assert_eq!(
        form.in_words("Value error, endDate must follow startDate"),
        "End date must follow start date",
        "the Tenanted API's camelCase names too"
    );
    assert_eq!(
        form.in_words("the start_dates differ"),
        "The start_dates differ",
        "only whole names are replaced"
    );
    form.set_errors(&[FieldError::new(
        "value_error",
        vec![LocPart::from("body"), LocPart::from("end_date")],
        "Value error, end_date must not be before start_date",
        json!("2025-01-01"),
    )]);
    assert_eq!(
        form.errors_for("end_date"),
        ["End date must not be before start date"]
    );
}

/// A status filter: several statuses at once, nothing chosen being any.
fn statuses() -> Form {
    Form::new(vec![
        FieldSpec::new(
            "status",
            "Status",
            FieldKind::MultiSelect(vec![
                Choice::new("EXPOSED", "EXPOSED", "Sales passed the threshold."),
                Choice::new("APPROACHING", "APPROACHING", "Near the threshold."),
                Choice::new("PENDING_REGISTRATION", "PENDING_REGISTRATION", ""),
            ]),
        ),
        FieldSpec::new("state", "State", FieldKind::Text),
    ])
}

#[test]
fn a_multi_select_moves_with_the_arrows_and_toggles_with_space() {
    let mut form = statuses();
    assert!(
        form.values().list("status").is_empty(),
        "nothing chosen: any"
    );
    assert_eq!(form.to_json(), json!({}));
    form.handle_key(key(KeyCode::Char(' ')));
    form.handle_key(key(KeyCode::Left));
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(
        form.values().list("status"),
        ["EXPOSED", "PENDING_REGISTRATION"],
        "in the choices' order"
    );
    assert_eq!(
        form.to_json(),
        json!({"status": ["EXPOSED", "PENDING_REGISTRATION"]})
    );
    assert!(form.is_dirty());
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(
        form.values().list("status"),
        ["EXPOSED"],
        "space toggles off"
    );
    form.handle_key(key(KeyCode::Right));
    form.handle_key(key(KeyCode::Right));
    form.handle_key(key(KeyCode::Char(' ')));
    assert_eq!(form.values().list("status"), ["EXPOSED", "APPROACHING"]);
    form.handle_key(key(KeyCode::Backspace));
    assert!(form.values().list("status").is_empty(), "backspace clears");
    assert_eq!(form.focused_name(), Some("status"), "no key left the field");
    form.handle_key(key(KeyCode::Tab));
    type_in(&mut form, " x");
    assert_eq!(
        form.values().text("state"),
        Some(" x"),
        "space still types in text"
    );
}

#[test]
fn a_multi_select_opens_on_the_values_given() {
    let form = statuses().with_value(
        "status",
        FieldValue::List(vec!["PENDING_REGISTRATION".into(), "EXPOSED".into()]),
    );
    assert_eq!(
        form.values().list("status"),
        ["EXPOSED", "PENDING_REGISTRATION"]
    );
    assert!(!form.is_dirty());
    let unknown = statuses().with_value("status", FieldValue::List(vec!["NOPE".into()]));
    assert!(
        unknown.values().list("status").is_empty(),
        "unknown values ignored"
    );
    let one = statuses().with_value("status", FieldValue::Choice("APPROACHING".into()));
    assert_eq!(one.values().list("status"), ["APPROACHING"]);
}

#[test]
fn a_multi_select_draws_every_choice_marking_the_cursor_and_the_chosen() {
    let theme = Theme::default();
    let mut form = statuses();
    form.handle_key(key(KeyCode::Char(' ')));
    form.handle_key(key(KeyCode::Right));
    let buf = draw(&mut form, 40, 16);
    let text = all_text(&buf);
    assert!(text.contains("[x] EXPOSED  [ ] APPROACHING"), "{text}");
    // The third choice does not fit on the first row: it wraps inside the box.
    assert!(text.contains("[ ] PENDING_REGISTRATION"), "{text}");
    assert_eq!(find(&buf, "[ ] PENDING").1, find(&buf, "[x] EXPOSED").1 + 1);
    assert_styled(
        &buf,
        "[ ] APPROACHING",
        theme.input_focus.patch(theme.selection),
    );
    assert_styled(&buf, "[x] EXPOSED", theme.input_focus);
    assert!(
        text.contains("Near the threshold."),
        "the cursor's explanation"
    );
    assert!(!text.contains("Sales passed"), "{text}");
    // The state field comes after the two-row box.
    assert!(find(&buf, " State ").1 > find(&buf, "[ ] PENDING").1);
}

#[test]
fn a_multi_select_hints_move_and_toggle() {
    let form = statuses();
    let hints: Vec<(String, String)> = form
        .hints()
        .iter()
        .map(|h| (h.keys.clone(), h.label.clone()))
        .collect();
    assert_eq!(hints[0], ("←/→".to_owned(), "move".to_owned()));
    assert_eq!(hints[1], ("space".to_owned(), "toggle".to_owned()));
}

#[test]
fn a_short_select_takes_up_and_down_as_its_choice_and_tab_moves_on() {
    let mut form = deregistration();
    form.focus_field("reason");
    form.handle_key(key(KeyCode::Down));
    assert_eq!(
        form.focused_name(),
        Some("reason"),
        "Down stays in the list"
    );
    assert_eq!(form.values().text("reason"), Some("FULL_BUSINESS_CLOSURE"));
    form.handle_key(key(KeyCode::Down));
    form.handle_key(key(KeyCode::Down));
    assert_eq!(
        form.values().text("reason"),
        Some("CLOSING_NEXUS_IN_STATE"),
        "Down stops at the last choice"
    );
    form.handle_key(key(KeyCode::Up));
    form.handle_key(key(KeyCode::Up));
    assert_eq!(form.values().text("reason"), Some("FULL_BUSINESS_CLOSURE"));
    assert_eq!(form.focused_name(), Some("reason"), "Up stays too");
    assert_eq!(
        form.hints()
            .iter()
            .map(|h| h.keys.as_str())
            .take(2)
            .collect::<Vec<_>>(),
        ["↑/↓", "Enter"]
    );
    form.handle_key(key(KeyCode::Tab));
    assert_eq!(form.focused_name(), Some("final_return_acknowledged"));
    form.focus_field("reason");
    form.handle_key(key(KeyCode::Enter));
    assert_eq!(form.focused_name(), Some("final_return_acknowledged"));
}

#[test]
fn a_short_select_lists_its_choices_with_their_explanations() {
    let mut form = deregistration();
    let text = all_text(&draw(&mut form, 64, 30));
    assert!(!text.contains("nothing chosen"), "{text}");
    assert!(text.contains("( ) Full business closure"), "{text}");
    assert!(
        text.contains("The business stops trading everywhere."),
        "{text}"
    );
    assert!(text.contains("( ) Closing nexus in state"), "{text}");
    form.focus_field("reason");
    form.handle_key(key(KeyCode::Down));
    let buf = draw(&mut form, 64, 30);
    let text = all_text(&buf);
    assert!(text.contains("(•) Full business closure"), "{text}");
    assert_eq!(
        text.matches("The business stops trading everywhere.")
            .count(),
        1,
        "the explanation is not repeated under the field: {text}"
    );
    assert_styled(
        &buf,
        "(•) Full business closure",
        Theme::default()
            .input_focus
            .patch(Theme::default().selection),
    );
    // A wide form puts each explanation beside its label.
    let text = all_text(&draw(&mut form, 100, 30));
    assert!(
        text.contains("(•) Full business closure  The business stops trading everywhere."),
        "{text}"
    );
}

#[test]
fn a_select_of_many_choices_stays_on_one_line_and_the_arrows_move_the_focus() {
    let choices: Vec<Choice> = (1..=7)
        .map(|i| Choice::new(format!("C{i}"), format!("Choice {i}"), ""))
        .collect();
    let mut form = Form::new(vec![
        FieldSpec::new("pick", "Pick", FieldKind::Select(choices)),
        FieldSpec::new("name", "Name", FieldKind::Text),
    ]);
    form.handle_key(key(KeyCode::Right));
    let text = all_text(&draw(&mut form, 60, 12));
    assert!(text.contains("‹ Choice 1 ›  1 of 7"), "{text}");
    assert!(!text.contains("Choice 2"), "{text}");
    form.handle_key(key(KeyCode::Down));
    assert_eq!(form.focused_name(), Some("name"));
    assert_eq!(form.values().text("pick"), Some("C1"));
}
