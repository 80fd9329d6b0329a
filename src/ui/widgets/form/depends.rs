//! Choices that follow another field: a select whose choices are drawn from the value of the
//! field it depends on (a product's subcategories from its category), and drawn again whenever
//! that value changes: by a key, a paste, a fill, new choices, or a value given at opening.
//!
//! A value still offered is kept. One that is not is cleared, and a line under the select says
//! which and why (`PERIODICALS cleared: not a choice for category SERVICE`); should the field it
//! depends on come back to a value offering it, it is chosen again. Choosing in the select by
//! hand ends both. While the field it depends on offers it nothing, the select says to choose
//! that field first. A select depending on a select that follows another follows in turn.

use super::{Choice, Field, FieldKind, FieldValue, Form, Input, inside_sentence};

/// Draws a dependent select's choices from the value of the field it depends on.
type ChoicesFrom = Box<dyn Fn(&FieldValue) -> Vec<Choice> + Send>;

/// One select whose choices follow another field.
pub(super) struct Dependent {
    /// The select's wire name.
    field: &'static str,
    /// The wire name of the field it depends on.
    on: &'static str,
    choices: ChoicesFrom,
    /// The value last cleared, and its label, until it is chosen again or the user chooses.
    cleared: Option<(FieldValue, String)>,
}

impl Form {
    /// The same form with select `field`'s choices drawn by `choices` from the value of field
    /// `on`, now and whenever that value changes (see the module documentation). At opening
    /// this is not an unsaved change.
    pub fn with_choices_from(
        mut self,
        field: &'static str,
        on: &'static str,
        choices: impl Fn(&FieldValue) -> Vec<Choice> + Send + 'static,
    ) -> Self {
        self.dependents.push(Dependent {
            field,
            on,
            choices: Box::new(choices),
            cleared: None,
        });
        self.follow(on);
        self.baseline = self.values();
        self.check();
        self
    }

    /// Draws again the choices of every select depending on field `changed`, and of those
    /// depending on them in turn when their value changed.
    pub(super) fn follow(&mut self, changed: &'static str) {
        let mut queue = vec![changed];
        // Each select is drawn at most once per round of dependents, so a cycle ends.
        let mut budget = self.dependents.len() * (self.dependents.len() + 1);
        while let Some(name) = queue.pop() {
            for dependent in self.dependents.iter_mut().filter(|d| d.on == name) {
                if budget == 0 {
                    return;
                }
                budget -= 1;
                let Some(on) = self.fields.iter().find(|f| f.spec.name == dependent.on) else {
                    continue;
                };
                let said = format!("{} {}", inside_sentence(on.spec.label), shown(on));
                let choices = (dependent.choices)(&on.value());
                let Some(field) = self
                    .fields
                    .iter_mut()
                    .find(|f| f.spec.name == dependent.field)
                else {
                    continue;
                };
                if redraw(field, choices, &said, &mut dependent.cleared) {
                    queue.push(dependent.field);
                }
            }
        }
    }

    /// The user chose in select `field` (a key, a fill): what it said about a value cleared
    /// no longer holds.
    pub(super) fn chosen_by_hand(&mut self, field: &str) {
        if let Some(dependent) = self.dependents.iter_mut().find(|d| d.field == field) {
            dependent.cleared = None;
            if let Some(select) = self.fields.iter_mut().find(|f| f.spec.name == field) {
                select.note = None;
            }
        }
    }

    /// What select `field` says while it has no choice because the field it depends on offers
    /// none: `nothing to choose: choose the category first`.
    pub(super) fn waiting_for(&self, field: &str) -> Option<String> {
        let dependent = self.dependents.iter().find(|d| d.field == field)?;
        let select = self.fields.iter().find(|f| f.spec.name == field)?;
        let on = self.fields.iter().find(|f| f.spec.name == dependent.on)?;
        select.spec.choices().is_empty().then(|| {
            format!(
                "nothing to choose: choose the {} first",
                inside_sentence(on.spec.label)
            )
        })
    }
}

/// Gives `field` (a select) `choices`. Its value is kept when still offered; else it is
/// cleared, remembered in `cleared`, and a note names it and `said` (the field it depends on
/// and its value). A value cleared before is chosen again once offered. Answers whether the
/// value changed.
fn redraw(
    field: &mut Field,
    choices: Vec<Choice>,
    said: &str,
    cleared: &mut Option<(FieldValue, String)>,
) -> bool {
    if !matches!(field.spec.kind, FieldKind::Select(_)) {
        return false;
    }
    let before = field.value();
    let label = shown(field);
    field.spec.kind = FieldKind::Select(choices);
    let held = !label.is_empty();
    if held && field.set_value(&before) {
        field.note = None;
        *cleared = None;
        return false;
    }
    if held {
        *cleared = Some((before.clone(), label));
    }
    field.input = Input::Choice(field.spec.choices().iter().position(|c| c.value.is_empty()));
    field.note = None;
    if let Some((value, label)) = cleared.as_ref() {
        if field.set_value(value) {
            *cleared = None;
        } else {
            field.note = Some(format!("{label} cleared: not a choice for {said}"));
        }
    }
    field.value() != before
}

/// A field's value as the user reads it: a choice's label, a text, `yes`/`no`.
fn shown(field: &Field) -> String {
    match (&field.input, field.value()) {
        (Input::Choice(chosen), _) => chosen
            .and_then(|i| field.spec.choices().get(i))
            .map(|c| c.label.clone())
            .unwrap_or_default(),
        (_, FieldValue::Text(s) | FieldValue::Choice(s)) => s,
        (_, FieldValue::Bool(b)) => crate::model::format::yes_no(b).to_owned(),
        (_, FieldValue::List(values)) => values.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::{FieldSpec, FormOutcome};
    use crate::ui::widgets::testing::{all_text, blank, key};
    use crossterm::event::KeyCode;

    /// Kinds of a sort, and sorts of each kind.
    fn form() -> Form {
        let kinds = vec![
            Choice::new("FRUIT", "FRUIT", ""),
            Choice::new("NUT", "NUT", ""),
            Choice::new("NONE", "NONE", ""),
        ];
        Form::new(vec![
            FieldSpec::new("kind", "Kind", FieldKind::Select(kinds)),
            FieldSpec::new("sort", "Sort", FieldKind::Select(Vec::new())),
        ])
        .with_choices_from("sort", "kind", |kind| {
            let sorts: &[&str] = match kind.as_str() {
                Some("FRUIT") => &["APPLE", "PEAR", "PLUM"],
                Some("NUT") => &["ALMOND", "HAZEL"],
                _ => &[],
            };
            sorts.iter().map(|s| Choice::new(*s, *s, "")).collect()
        })
    }

    fn choices(form: &Form, name: &str) -> Vec<String> {
        let spec = form.specs().find(|s| s.name == name).unwrap();
        spec.choices().iter().map(|c| c.value.clone()).collect()
    }

    fn note(form: &Form, name: &str) -> Option<String> {
        let field = form.fields.iter().find(|f| f.spec.name == name).unwrap();
        field.note.clone()
    }

    fn draw(form: &mut Form) -> String {
        let mut buf = blank(60, 12);
        form.render(buf.area, &mut buf, &crate::ui::theme::Theme::default());
        all_text(&buf)
    }

    #[test]
    fn the_choices_follow_the_field_they_depend_on() {
        let mut form = form();
        assert!(choices(&form, "sort").is_empty());
        assert!(
            draw(&mut form).contains("nothing to choose: choose the kind first"),
            "{}",
            draw(&mut form)
        );
        assert!(
            !form.is_dirty(),
            "drawing the choices at opening is no edit"
        );

        // A key on the kind draws the sorts of that kind.
        assert_eq!(form.handle_key(key(KeyCode::Right)), FormOutcome::None);
        assert_eq!(choices(&form, "sort"), ["APPLE", "PEAR", "PLUM"]);
        form.focus_field("sort");
        form.handle_key(key(KeyCode::Right));
        assert_eq!(form.values().text("sort"), Some("APPLE"));

        // Another kind: a sort it does not offer is cleared, and the select says so.
        form.focus_field("kind");
        form.handle_key(key(KeyCode::Right));
        assert_eq!(choices(&form, "sort"), ["ALMOND", "HAZEL"]);
        assert_eq!(form.values().text("sort"), Some(""));
        assert_eq!(
            note(&form, "sort").as_deref(),
            Some("APPLE cleared: not a choice for kind NUT")
        );
        assert!(draw(&mut form).contains("APPLE cleared: not a choice for kind NUT"));

        // A kind offering nothing: still said, against the kind now chosen.
        form.handle_key(key(KeyCode::Right));
        assert!(choices(&form, "sort").is_empty());
        assert_eq!(
            note(&form, "sort").as_deref(),
            Some("APPLE cleared: not a choice for kind NONE")
        );
        // Back to the kind that offers it: chosen again, nothing to say.
        form.handle_key(key(KeyCode::Right));
        assert_eq!(form.values().text("sort"), Some("APPLE"));
        assert_eq!(note(&form, "sort"), None);
        form.handle_key(key(KeyCode::Right));
        assert_eq!(form.values().text("sort"), Some(""));

        // Choosing by hand takes the note away, and the value cleared is forgotten.
        form.focus_field("sort");
        form.handle_key(key(KeyCode::Right));
        assert_eq!(form.values().text("sort"), Some("ALMOND"));
        assert_eq!(note(&form, "sort"), None);
        form.focus_field("kind");
        form.handle_key(key(KeyCode::Left));
        assert_eq!(form.values().text("kind"), Some("FRUIT"));
        assert_eq!(form.values().text("sort"), Some(""), "not APPLE");
    }

    #[test]
    fn a_value_still_offered_is_kept_and_values_given_at_opening_follow_too() {
        let form = form()
            .with_value("kind", FieldValue::Choice("FRUIT".into()))
            .with_value("sort", FieldValue::Choice("PEAR".into()));
        assert_eq!(form.values().text("sort"), Some("PEAR"));
        assert!(!form.is_dirty());
        let mut form = form;
        assert!(form.fill("kind", FieldValue::Choice("NUT".into())));
        assert_eq!(form.values().text("sort"), Some(""));
        assert!(form.is_dirty());
        assert!(form.fill("sort", FieldValue::Choice("HAZEL".into())));
        // New choices for the kind, still offering its value: the sort is kept too.
        form.set_choices(
            "kind",
            vec![
                Choice::new("NUT", "NUT", ""),
                Choice::new("FRUIT", "FRUIT", ""),
            ],
        );
        assert_eq!(form.values().text("sort"), Some("HAZEL"));
        assert_eq!(note(&form, "sort"), None);
    }
}
