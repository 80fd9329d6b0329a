//! Forms: fields built from descriptors, checked against the rules as they are typed and again on
//! submit, with the service's 422 errors placed back under the fields they name.
//!
//! The form does not know the rules. Its owner gives it a validator over the values (usually a
//! body validator of [`crate::rules`] through [`body_rule`]); the form runs it after every edit
//! and on submit, and answers [`FormOutcome::Submit`] only when it finds nothing, so a form that
//! fails a rule sends nothing. Errors the rules find show under a field once the user has edited
//! it, or everywhere once a submit was tried; errors reported with [`Form::set_errors`] (a 422)
//! show at once and leave a field when it is edited. Values are never cleared by a failure: the
//! owner closes the form after a successful answer, or calls [`Form::mark_saved`].
//!
//! A select's choices may follow another field's value ([`Form::with_choices_from`]: a
//! product's subcategories, its category's), drawn again whenever that value changes.
//!
//! A wizard is a sequence of forms ending in a [`Review`] of the body, with a
//! [`TypedConfirmation`] before a destructive step.

pub mod address;
mod depends;
mod paste;
mod render;
mod review;
mod schema;
mod spec;
mod values;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui_textarea::{CursorMove, TextArea};

pub use paste::Pasted;
pub use review::{Review, TypedConfirmation, TypedOutcome};
pub use schema::{JsonType, SchemaField, SchemaFields, field_label, intern};
pub use spec::{Choice, FieldKind, FieldSpec};
pub use values::{FieldValue, FormValues, body_rule};

use super::help::Hint;
use super::keys::{is_back_tab, is_ctrl, is_press, typed_char};
use super::line_edit::{self, LineEdit};
use crate::model::FieldError;

/// Checks a form's values; every error names its field by wire path.
pub type Validator = Box<dyn Fn(&FormValues) -> Vec<FieldError> + Send>;

/// What a key did to the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormOutcome {
    /// Handled inside the form (an edit, a move), or ignored.
    None,
    /// The user submitted and the rules pass: send [`Form::to_json`].
    Submit,
    /// The user submitted but the rules fail: the errors are shown, the first field in error has
    /// the focus, and nothing is to be sent.
    Invalid,
    /// Esc with nothing changed: close the form.
    Cancel,
    /// Esc with unsaved input: ask before closing (see
    /// [`Confirm::discard_input`](super::confirm::Confirm::discard_input)).
    AskDiscard,
}

/// What a field holds while it is edited.
#[derive(Debug)]
enum Input {
    Text(Box<TextArea<'static>>),
    Choice(Option<usize>),
    Check(bool),
    /// A multi-select: the choice under the cursor, and which choices are chosen.
    Multi {
        cursor: usize,
        chosen: Vec<bool>,
    },
}

/// One field: its descriptor, its input, and what is known to be wrong with it.
#[derive(Debug)]
struct Field {
    spec: FieldSpec,
    input: Input,
    /// Edited since the form opened (or was last saved): the rules' errors may show.
    touched: bool,
    /// Errors the validator found in the current values.
    checked: Vec<String>,
    /// Errors reported from outside (a 422), until the field is edited.
    reported: Vec<String>,
    /// Why the last key or paste was not taken whole (the field is full), until the next one;
    /// on a select, why its value was cleared (see [`Form::with_choices_from`]), until it is
    /// edited.
    note: Option<String>,
}

impl Field {
    fn new(spec: FieldSpec) -> Self {
        let input = match spec.kind {
            // A select offering "any" (a choice sent as nothing) starts on it.
            FieldKind::Select(ref choices) => {
                Input::Choice(choices.iter().position(|c| c.value.is_empty()))
            }
            FieldKind::MultiSelect(ref choices) => Input::Multi {
                cursor: 0,
                chosen: vec![false; choices.len()],
            },
            FieldKind::Checkbox => Input::Check(false),
            _ => Input::Text(Box::new(text_area(&spec.kind, ""))),
        };
        Field {
            spec,
            input,
            touched: false,
            checked: Vec::new(),
            reported: Vec::new(),
            note: None,
        }
    }

    fn value(&self) -> FieldValue {
        match &self.input {
            Input::Text(area) => FieldValue::Text(area.lines().join("\n")),
            Input::Choice(chosen) => FieldValue::Choice(
                chosen
                    .and_then(|i| self.spec.choices().get(i))
                    .map(|c| c.value.clone())
                    .unwrap_or_default(),
            ),
            Input::Check(on) => FieldValue::Bool(*on),
            Input::Multi { chosen, .. } => FieldValue::List(
                self.spec
                    .choices()
                    .iter()
                    .zip(chosen)
                    .filter(|(_, on)| **on)
                    .map(|(c, _)| c.value.clone())
                    .collect(),
            ),
        }
    }

    /// Sets the value; `false` when it does not suit the field (text for a checkbox, a value
    /// that is none of the choices).
    fn set_value(&mut self, value: &FieldValue) -> bool {
        match (&mut self.input, value) {
            (Input::Text(area), FieldValue::Text(s)) => {
                **area = text_area(&self.spec.kind, s);
                true
            }
            (Input::Choice(chosen), FieldValue::Choice(v) | FieldValue::Text(v)) => {
                if v.is_empty() {
                    *chosen = self.spec.choices().iter().position(|c| c.value.is_empty());
                    return true;
                }
                let found = self.spec.choices().iter().position(|c| c.value == *v);
                if found.is_some() {
                    *chosen = found;
                }
                found.is_some()
            }
            (Input::Check(on), FieldValue::Bool(b)) => {
                *on = *b;
                true
            }
            (Input::Multi { chosen, .. }, value) => set_chosen(self.spec.choices(), chosen, value),
            _ => false,
        }
    }

    /// The errors to show: the reported ones, and the rules' once the field may show them.
    fn visible_errors(&self, show_checked: bool) -> Vec<&str> {
        let mut out: Vec<&str> = self.reported.iter().map(String::as_str).collect();
        if show_checked || self.touched {
            for e in &self.checked {
                if !out.contains(&e.as_str()) {
                    out.push(e);
                }
            }
        }
        out
    }
}

/// Chooses the multi-select choices `value` names (a list, or one choice; empty chooses none);
/// `false`, changing nothing, when it names a value that is none of the choices.
fn set_chosen(choices: &[Choice], chosen: &mut [bool], value: &FieldValue) -> bool {
    let wanted: Vec<&str> = match value {
        FieldValue::List(values) => values.iter().map(String::as_str).collect(),
        FieldValue::Choice(v) | FieldValue::Text(v) if v.is_empty() => Vec::new(),
        FieldValue::Choice(v) | FieldValue::Text(v) => vec![v.as_str()],
        FieldValue::Bool(_) => return false,
    };
    if !wanted.iter().all(|w| choices.iter().any(|c| c.value == *w)) {
        return false;
    }
    for (on, choice) in chosen.iter_mut().zip(choices) {
        *on = wanted.contains(&choice.value.as_str());
    }
    true
}

/// A text input holding `text`, with the cursor at its end, set up for the kind of field.
fn text_area(kind: &FieldKind, text: &str) -> TextArea<'static> {
    let mut area = TextArea::new(text.split('\n').map(str::to_owned).collect());
    area.move_cursor(CursorMove::Bottom);
    area.move_cursor(CursorMove::End);
    match kind {
        FieldKind::Date => area.set_placeholder_text("YYYY-MM-DD"),
        FieldKind::Decimal => area.set_placeholder_text("0.00"),
        FieldKind::Masked => area.set_mask_char('•'),
        _ => {}
    }
    area
}

/// A form's state: its fields and their values, the focus, the errors, and whether anything
/// changed since it opened.
pub struct Form {
    fields: Vec<Field>,
    focus: usize,
    validator: Option<Validator>,
    /// Errors reported for paths that match no field.
    reported: Vec<String>,
    /// Errors the validator found for paths that match no field.
    checked: Vec<String>,
    /// The values when the form opened or was last saved, to tell unsaved input.
    baseline: FormValues,
    /// A submit was tried: every error the rules find shows, touched or not.
    attempted: bool,
    busy: bool,
    /// The first row shown, when the form is taller than its area.
    scroll: u16,
    /// Selects whose choices follow another field (see [`Form::with_choices_from`]).
    dependents: Vec<depends::Dependent>,
}

impl Form {
    /// A form of `specs`, in that order, all empty, with the focus on the first.
    pub fn new(specs: Vec<FieldSpec>) -> Self {
        let fields: Vec<Field> = specs.into_iter().map(Field::new).collect();
        let mut form = Form {
            fields,
            focus: 0,
            validator: None,
            reported: Vec::new(),
            checked: Vec::new(),
            baseline: FormValues::default(),
            attempted: false,
            busy: false,
            scroll: 0,
            dependents: Vec::new(),
        };
        form.baseline = form.values();
        form
    }

    /// The same form, checked by `validator` as it is edited and when it is submitted.
    pub fn with_validator(
        mut self,
        validator: impl Fn(&FormValues) -> Vec<FieldError> + Send + 'static,
    ) -> Self {
        self.validator = Some(Box::new(validator));
        self.check();
        self
    }

    /// The same form with field `name` holding `value` from the start (an edit form's current
    /// values): not an unsaved change. A value that does not suit the field is ignored.
    pub fn with_value(mut self, name: &str, value: impl Into<FieldValue>) -> Self {
        let value = value.into();
        if let Some(field) = self.fields.iter_mut().find(|f| f.spec.name == name) {
            field.set_value(&value);
            let name = field.spec.name;
            self.follow(name);
        }
        self.baseline = self.values();
        self.check();
        self
    }

    /// Puts `value` in field `name` as an edit (an address suggestion taken): unlike
    /// [`Form::with_value`], it is an unsaved change and the rules check it. Answers whether
    /// the field took it.
    pub fn fill(&mut self, name: &str, value: impl Into<FieldValue>) -> bool {
        let value = value.into();
        let Some(field) = self.fields.iter_mut().find(|f| f.spec.name == name) else {
            return false;
        };
        let took = field.set_value(&value);
        if took {
            field.touched = true;
            field.reported.clear();
            let name = field.spec.name;
            self.chosen_by_hand(name);
            self.follow(name);
            self.check();
        }
        took
    }

    /// Replaces the choices of select field `name` (choices fetched once the form is open),
    /// keeping the chosen value when it is still offered. Not an edit: the baseline stays, so a
    /// value chosen before is still an unsaved change and one given at opening is not.
    pub fn set_choices(&mut self, name: &str, choices: Vec<Choice>) {
        let Some(field) = self.fields.iter_mut().find(|f| f.spec.name == name) else {
            return;
        };
        if !matches!(field.spec.kind, FieldKind::Select(_)) {
            return;
        }
        let value = field.value();
        field.spec.kind = FieldKind::Select(choices);
        if !field.set_value(&value) {
            field.input = Input::Choice(None);
        }
        let name = field.spec.name;
        self.follow(name);
        self.check();
    }

    /// The fields' descriptors, in order.
    pub fn specs(&self) -> impl Iterator<Item = &FieldSpec> {
        self.fields.iter().map(|f| &f.spec)
    }

    /// The index of the focused field.
    pub fn focus(&self) -> usize {
        self.focus
    }

    /// The focused field's descriptor.
    pub fn focused_spec(&self) -> Option<&FieldSpec> {
        self.fields.get(self.focus).map(|f| &f.spec)
    }

    /// The wire name of the focused field.
    pub fn focused_name(&self) -> Option<&'static str> {
        self.fields.get(self.focus).map(|f| f.spec.name)
    }

    /// Moves the focus to field `name`; `false` when there is none.
    pub fn focus_field(&mut self, name: &str) -> bool {
        let found = self.fields.iter().position(|f| f.spec.name == name);
        if let Some(i) = found {
            self.focus = i;
        }
        found.is_some()
    }

    /// Every field's value.
    pub fn values(&self) -> FormValues {
        FormValues::new(
            self.fields
                .iter()
                .map(|f| (f.spec.name, f.value()))
                .collect(),
        )
    }

    /// The body exactly as it would be sent (see [`FormValues::to_json`]).
    pub fn to_json(&self) -> serde_json::Value {
        self.values().to_json()
    }

    /// Whether any value differs from when the form opened or was last saved.
    pub fn is_dirty(&self) -> bool {
        self.values() != self.baseline
    }

    /// Records a successful submission: the current values become the saved ones, and the
    /// errors and the memory of edits are cleared.
    pub fn mark_saved(&mut self) {
        self.baseline = self.values();
        self.attempted = false;
        self.clear_errors();
        for field in &mut self.fields {
            field.touched = false;
        }
        self.check();
    }

    /// While busy (a submission is on its way), edits and submits are refused; Esc still works.
    pub fn set_busy(&mut self, busy: bool) {
        self.busy = busy;
    }

    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// Shows `errors` (a 422's `detail`, or the owner's own check): each under the field whose
    /// name is its [`field_path`](FieldError::field_path), the others above the form. They
    /// replace the errors reported before, and each leaves its field when the field is edited.
    pub fn set_errors(&mut self, errors: &[FieldError]) {
        self.reported.clear();
        for field in &mut self.fields {
            field.reported.clear();
        }
        for error in errors {
            let path = error.field_path();
            let msg = self.in_words(&error.msg);
            match self.fields.iter_mut().find(|f| f.spec.name == path) {
                Some(field) => push_new(&mut field.reported, naming(field.spec.label, msg)),
                None => push_new(&mut self.reported, unplaced(&path, &msg)),
            }
        }
    }

    /// `msg` in the form's own words: the service's `Value error, ` prefix dropped, each field's
    /// wire name (`end_date`) replaced by its label (`end date`), and the first letter capital.
    pub fn in_words(&self, msg: &str) -> String {
        let labels: Vec<(&str, &str)> = self
            .fields
            .iter()
            .map(|f| (f.spec.name, f.spec.label))
            .collect();
        in_words(msg, &labels)
    }

    /// Removes every error shown, reported or found by the rules, until the next check.
    pub fn clear_errors(&mut self) {
        self.reported.clear();
        self.checked.clear();
        for field in &mut self.fields {
            field.reported.clear();
            field.checked.clear();
        }
    }

    /// The errors shown under field `name`.
    pub fn errors_for(&self, name: &str) -> Vec<&str> {
        self.fields
            .iter()
            .find(|f| f.spec.name == name)
            .map(|f| f.visible_errors(self.attempted))
            .unwrap_or_default()
    }

    /// What the footer says when a submit is refused by the rules: how many fields are in error
    /// and the first of them (where the focus went), or the first error naming no field.
    /// `None` when nothing is in error.
    pub fn refusal(&self) -> Option<String> {
        Some(format!("Not sent: {}", self.in_error()?))
    }

    /// What the footer says of the errors shown: how many fields are in error and the first of
    /// them, named, or the first error naming no field. `None` when nothing is in error.
    pub fn in_error(&self) -> Option<String> {
        let in_error: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| !f.visible_errors(true).is_empty())
            .collect();
        let first = in_error
            .first()
            .and_then(|f| {
                let error = f.visible_errors(true).first().copied()?;
                Some(if error.starts_with(f.spec.label) {
                    error.to_owned()
                } else {
                    format!("{}: {error}", f.spec.label)
                })
            })
            .or_else(|| self.form_errors().first().map(|e| (*e).to_owned()))?;
        Some(match in_error.len() {
            0 | 1 => first,
            n => format!("{n} fields to fix; the first: {first}"),
        })
    }

    /// The errors shown above the fields: those naming no field of the form.
    pub fn form_errors(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.reported.iter().map(String::as_str).collect();
        if self.attempted {
            out.extend(self.checked.iter().map(String::as_str));
        }
        out
    }

    /// Runs the validator on the current values and files what it finds under the fields (shown
    /// once a field is edited, or after a submit was tried). Answers whether the values pass;
    /// without a validator they always do. The form calls this after every edit.
    pub fn check(&mut self) -> bool {
        let Some(validator) = &self.validator else {
            return true;
        };
        let errors = validator(&self.values());
        self.checked.clear();
        for field in &mut self.fields {
            field.checked.clear();
        }
        for error in &errors {
            let path = error.field_path();
            let msg = self.in_words(&error.msg);
            match self.fields.iter_mut().find(|f| f.spec.name == path) {
                Some(field) => push_new(&mut field.checked, naming(field.spec.label, msg)),
                None => push_new(&mut self.checked, unplaced(&path, &msg)),
            }
        }
        errors.is_empty()
    }

    /// A submit: every rule error shows; the answer is `Submit` only when there are none.
    fn submit(&mut self) -> FormOutcome {
        if self.busy {
            return FormOutcome::None;
        }
        self.attempted = true;
        if self.check() {
            return FormOutcome::Submit;
        }
        if let Some(i) = self.fields.iter().position(|f| !f.checked.is_empty()) {
            self.focus = i;
        }
        FormOutcome::Invalid
    }

    fn move_focus(&mut self, forward: bool, wrap: bool) {
        let n = self.fields.len();
        if n == 0 {
            return;
        }
        self.focus = match (forward, wrap) {
            (true, true) => (self.focus + 1) % n,
            (false, true) => (self.focus + n - 1) % n,
            (true, false) => (self.focus + 1).min(n - 1),
            (false, false) => self.focus.saturating_sub(1),
        };
    }

    /// Handles one key. Tab/Shift-Tab (and Down/Up outside a multi-line field or a short select,
    /// where they move the cursor or the choice) move the focus;
    /// Enter moves on, or submits from the last field; Ctrl-S submits; Esc closes, asking first
    /// when there is unsaved input. Every other key goes to the focused field: printable keys
    /// are typed into a text field and never act as commands.
    pub fn handle_key(&mut self, key: KeyEvent) -> FormOutcome {
        if !is_press(&key) {
            return FormOutcome::None;
        }
        if key.code == KeyCode::Esc {
            return if self.is_dirty() {
                FormOutcome::AskDiscard
            } else {
                FormOutcome::Cancel
            };
        }
        if is_ctrl(&key, 's') {
            return self.submit();
        }
        if is_back_tab(&key) {
            self.move_focus(false, true);
            return FormOutcome::None;
        }
        let multi_line = self
            .fields
            .get(self.focus)
            .is_some_and(|f| f.spec.kind == FieldKind::MultiLine);
        // ↑/↓ stay inside a field drawn on several lines: a multi-line text, a short select.
        let inside = multi_line
            || self
                .fields
                .get(self.focus)
                .is_some_and(|f| f.spec.is_short_select());
        match key.code {
            KeyCode::Tab => self.move_focus(true, true),
            KeyCode::Down if !inside => self.move_focus(true, false),
            KeyCode::Up if !inside => self.move_focus(false, false),
            KeyCode::Enter if !multi_line => {
                if self.focus + 1 >= self.fields.len() {
                    return self.submit();
                }
                self.move_focus(true, false);
            }
            _ => {
                // A character into a full text field is refused (see `paste`).
                let adds = typed_char(&key).is_some() || (multi_line && key.code == KeyCode::Enter);
                let full = self
                    .fields
                    .get_mut(self.focus)
                    .is_some_and(|f| !self.busy && f.refuses(adds));
                if !full && !self.busy && self.edit_focused(key) {
                    if let Some(field) = self.fields.get_mut(self.focus) {
                        field.touched = true;
                        field.reported.clear();
                        let name = field.spec.name;
                        self.chosen_by_hand(name);
                        self.follow(name);
                    }
                    self.check();
                }
            }
        }
        FormOutcome::None
    }

    /// Gives `key` to the focused field; answers whether its value changed.
    fn edit_focused(&mut self, key: KeyEvent) -> bool {
        let Some(field) = self.fields.get_mut(self.focus) else {
            return false;
        };
        let typed = typed_char(&key);
        let choices = field.spec.choices();
        match &mut field.input {
            Input::Text(area) => {
                let multi_line = field.spec.kind == FieldKind::MultiLine;
                match line_edit::edit(area, &key) {
                    LineEdit::Ignored if multi_line => match key.code {
                        KeyCode::Enter => {
                            area.insert_newline();
                            true
                        }
                        KeyCode::Up => {
                            area.move_cursor(CursorMove::Up);
                            false
                        }
                        KeyCode::Down => {
                            area.move_cursor(CursorMove::Down);
                            false
                        }
                        _ => false,
                    },
                    edit => edit.changed(),
                }
            }
            Input::Choice(chosen) => {
                let n = choices.len();
                let before = *chosen;
                *chosen = match (key.code, typed) {
                    _ if n == 0 => None,
                    (KeyCode::Right, _) | (_, Some(' ')) => Some(chosen.map_or(0, |i| (i + 1) % n)),
                    (KeyCode::Left, _) => Some(chosen.map_or(n - 1, |i| (i + n - 1) % n)),
                    // Only a short select gets these: down and up its list, not wrapping.
                    (KeyCode::Down, _) => Some(chosen.map_or(0, |i| (i + 1).min(n - 1))),
                    (KeyCode::Up, _) => Some(chosen.map_or(0, |i| i.saturating_sub(1))),
                    (KeyCode::Backspace | KeyCode::Delete, _) if !field.spec.required => None,
                    (_, Some(c)) => {
                        // Jump to the next choice whose label starts with the letter typed.
                        let start = chosen.map_or(0, |i| i + 1);
                        (0..n)
                            .map(|k| (start + k) % n)
                            .find(|&i| starts_with_letter(&choices[i].label, c))
                            .or(*chosen)
                    }
                    _ => *chosen,
                };
                *chosen != before
            }
            Input::Check(on) => {
                if typed == Some(' ') {
                    *on = !*on;
                    return true;
                }
                false
            }
            Input::Multi { cursor, chosen } => edit_multi(key.code, typed, cursor, chosen),
        }
    }

    /// The keys the form answers to in its current state, for the footer and the help overlay.
    pub fn hints(&self) -> Vec<Hint> {
        const GROUP: &str = "Form";
        let mut hints = vec![
            Hint::new("Tab/S-Tab", "next/previous field", GROUP),
            Hint::new("Ctrl-S", "submit", GROUP),
            Hint::new("Esc", "close", GROUP),
        ];
        let focused = self.fields.get(self.focus).map(|f| &f.spec);
        if focused.is_some_and(FieldSpec::is_short_select) {
            hints.insert(0, Hint::new("Enter", "next/submit", GROUP));
            hints.insert(0, Hint::new("↑/↓", "choose", GROUP));
            return hints;
        }
        let kind = focused.map(|f| &f.kind);
        match kind {
            Some(FieldKind::Select(_)) => hints.insert(0, Hint::new("←/→", "choose", GROUP)),
            Some(FieldKind::Checkbox) => hints.insert(0, Hint::new("Space", "toggle", GROUP)),
            Some(FieldKind::MultiSelect(_)) => {
                hints.insert(0, Hint::new("space", "toggle", GROUP));
                hints.insert(0, Hint::new("←/→", "move", GROUP));
            }
            Some(FieldKind::MultiLine) => hints.insert(0, Hint::new("Enter", "new line", GROUP)),
            _ => hints.insert(0, Hint::new("Enter", "next/submit", GROUP)),
        }
        hints
    }
}

/// `msg` with the service's `Value error, ` prefix dropped, each wire name of `labels` that
/// stands as a word replaced by its label (lower-cased inside a sentence, unless it is an
/// acronym such as `FEIN`), and a capital first letter.
fn in_words(msg: &str, labels: &[(&str, &str)]) -> String {
    let msg = msg.strip_prefix("Value error, ").unwrap_or(msg);
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(c) = rest.chars().next() {
        if is_word(c) {
            let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
            let (word, tail) = rest.split_at(end);
            // A sentence's full stop is not part of the name.
            let (name, dot) = match word.strip_suffix('.') {
                Some(name) => (name, "."),
                None => (word, ""),
            };
            let snake = snake_case(name);
            match labels
                .iter()
                .find(|(wire, _)| *wire == name || *wire == snake)
            {
                Some((_, label)) if out.is_empty() => out.push_str(label),
                Some((_, label)) => out.push_str(&inside_sentence(label)),
                None => out.push_str(name),
            }
            out.push_str(dot);
            rest = tail;
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut chars = out.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => out,
    }
}

/// `jurisdictionSpecificFields.accessCode` → `jurisdiction_specific_fields.access_code`: the
/// Tenanted API's spelling of a wire name, in the v1 spelling the forms use.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_uppercase() {
            out.push('_');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A label as it reads inside a sentence: `End date` → `end date`, `FEIN` stays.
fn inside_sentence(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => first
            .to_lowercase()
            .chain(label[first.len_utf8()..].chars())
            .collect(),
        _ => label.to_owned(),
    }
}

/// A key given to a multi-select: Left/Right move the cursor (wrapping), Space toggles the
/// choice under it, Backspace/Delete choose none. Answers whether the chosen set changed.
fn edit_multi(code: KeyCode, typed: Option<char>, cursor: &mut usize, chosen: &mut [bool]) -> bool {
    let n = chosen.len();
    if n == 0 {
        return false;
    }
    match (code, typed) {
        (KeyCode::Right, _) => *cursor = (*cursor + 1) % n,
        (KeyCode::Left, _) => *cursor = (*cursor + n - 1) % n,
        (_, Some(' ')) => {
            let on = &mut chosen[(*cursor).min(n - 1)];
            *on = !*on;
            return true;
        }
        (KeyCode::Backspace | KeyCode::Delete, _) if chosen.iter().any(|on| *on) => {
            chosen.fill(false);
            return true;
        }
        _ => {}
    }
    false
}

/// Adds `message` unless it is there already.
fn push_new(messages: &mut Vec<String>, message: String) {
    if !messages.contains(&message) {
        messages.push(message);
    }
}

/// The message of an error shown under the field labelled `label`, naming it: the service's
/// `Input should be…` (and `String`, `List`, `Decimal input`) reads `Country should be…`.
fn naming(label: &str, msg: String) -> String {
    if msg == "Field required" {
        return format!("{label} is required");
    }
    ["Decimal input ", "Input ", "String ", "List "]
        .iter()
        .find_map(|subject| msg.strip_prefix(subject))
        .map_or_else(|| msg.clone(), |rest| format!("{label} {rest}"))
}

/// The message of an error that names no field of the form, prefixed with the path it names.
fn unplaced(path: &str, msg: &str) -> String {
    if path.is_empty() {
        msg.to_owned()
    } else {
        format!("{path}: {msg}")
    }
}

impl std::fmt::Debug for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Form")
            .field("fields", &self.fields)
            .field("focus", &self.focus)
            .field("validator", &self.validator.as_ref().map(|_| "…"))
            .field("reported", &self.reported)
            .field("checked", &self.checked)
            .field("attempted", &self.attempted)
            .field("busy", &self.busy)
            .finish_non_exhaustive()
    }
}

/// Whether `label` starts with `c`, ignoring case.
fn starts_with_letter(label: &str, c: char) -> bool {
    label
        .chars()
        .next()
        .is_some_and(|first| first.to_lowercase().eq(c.to_lowercase()))
}

#[cfg(test)]
mod tests;
