//! Text pasted into a form, and the bound on what a text field keeps.
//!
//! A paste (a terminal's bracketed paste: one event, however long) goes into the focused text
//! field as one edit, undone by one `Ctrl-Z`. A text field keeps at most
//! [`FieldSpec::keeps_at_most`](super::FieldSpec::keeps_at_most) characters, its rule's bound:
//! the rest of a paste is cut, and a key typed into a full field is refused, with a line under
//! the field saying so. So no edit ever works on more text than the field may send, however
//! much arrives. A single-line field takes line breaks and tabs as spaces; a multi-line field
//! keeps the line breaks. Other control characters are dropped.

use ratatui_textarea::TextArea;

use super::{Field, FieldKind, Form, Input};
use crate::ui::widgets::line_edit::pasted_chars;

/// What a paste did to the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pasted {
    /// Into the focused text field: `kept` of the `given` characters (counted as the field
    /// takes them; it keeps at most `max`, and may have held some already).
    Text {
        label: &'static str,
        given: usize,
        kept: usize,
        max: usize,
    },
    /// The focused field is not a text (a choice, a checkbox): nothing changed.
    NotText { label: &'static str },
    /// The form is sending, or has no field: nothing changed.
    Refused,
}

impl Pasted {
    /// What to tell the user when the paste was not taken whole: `Pasted 102,400 characters;
    /// Name keeps at most 255`.
    pub fn note(&self) -> Option<String> {
        match *self {
            Pasted::Text {
                label,
                given,
                kept,
                max,
            } if kept < given => Some(format!(
                "Pasted {} characters; {label} keeps at most {}",
                thousands(given),
                thousands(max)
            )),
            Pasted::Text { .. } => None,
            Pasted::NotText { label } => {
                Some(format!("Nothing pasted: {label} is not a text field"))
            }
            Pasted::Refused => Some("Nothing pasted: the form is being sent".to_owned()),
        }
    }
}

fn thousands(n: usize) -> String {
    crate::ui::text::thousands(u64::try_from(n).unwrap_or(u64::MAX))
}

/// The characters a text area holds, line breaks counted.
fn chars_in(area: &TextArea<'_>) -> usize {
    let lines = area.lines();
    lines.iter().map(|l| l.chars().count()).sum::<usize>() + lines.len().saturating_sub(1)
}

impl Field {
    /// The line under the field when it is full: `Name keeps at most 255 characters`.
    fn full_note(&self) -> String {
        format!(
            "{} keeps at most {} characters",
            self.spec.label,
            thousands(self.spec.keeps_at_most())
        )
    }

    /// Whether a key that `adds` a character would take the field past its bound: then it
    /// says so under the field (and stops saying it at the next key).
    pub(super) fn refuses(&mut self, typed: bool) -> bool {
        let Input::Text(area) = &self.input else {
            return false;
        };
        let full = typed && chars_in(area) >= self.spec.keeps_at_most();
        self.note = full.then(|| self.full_note());
        full
    }
}

impl Form {
    /// Puts `text` into the focused text field at its cursor, as one edit, cut to what the
    /// field keeps (see the module documentation).
    pub fn paste(&mut self, text: &str) -> Pasted {
        if self.busy {
            return Pasted::Refused;
        }
        let Some(field) = self.fields.get_mut(self.focus) else {
            return Pasted::Refused;
        };
        let label = field.spec.label;
        let max = field.spec.keeps_at_most();
        let multi_line = field.spec.kind == FieldKind::MultiLine;
        let Input::Text(area) = &mut field.input else {
            return Pasted::NotText { label };
        };
        let room = max.saturating_sub(chars_in(area));
        let taken: String = pasted_chars(text, multi_line).take(room).collect();
        let given = pasted_chars(text, multi_line).count();
        let kept = taken.chars().count();
        area.insert_str(&taken);
        field.note = (kept < given).then(|| field.full_note());
        if kept > 0 {
            field.touched = true;
            field.reported.clear();
            let name = field.spec.name;
            self.follow(name);
            self.check();
        }
        Pasted::Text {
            label,
            given,
            kept,
            max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::{FieldSpec, FieldValue};

    fn form() -> Form {
        Form::new(vec![
            FieldSpec::new("name", "Name", FieldKind::Text),
            FieldSpec::new("notes", "Notes", FieldKind::MultiLine),
            FieldSpec::new("code", "Code", FieldKind::Text).max_chars(5),
            FieldSpec::new("active", "Active", FieldKind::Checkbox),
        ])
    }

    fn text(form: &Form, name: &str) -> String {
        match form.values().get(name) {
            Some(FieldValue::Text(t)) => t.clone(),
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn a_paste_is_cut_to_what_the_field_keeps_and_says_so() {
        let mut form = form();
        let pasted = form.paste(&"a".repeat(1 << 20));
        assert_eq!(text(&form, "name"), "a".repeat(255));
        assert_eq!(
            pasted.note().as_deref(),
            Some("Pasted 1,048,576 characters; Name keeps at most 255")
        );
        assert!(form.is_dirty());
        // Full: a typed key is refused, and the field says why.
        form.handle_key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Char('b'),
        ));
        assert_eq!(text(&form, "name"), "a".repeat(255));
        assert_eq!(
            form.fields[0].note.as_deref(),
            Some("Name keeps at most 255 characters")
        );
    }

    #[test]
    fn line_breaks_are_spaces_in_one_line_and_kept_in_several() {
        let mut form = form();
        assert_eq!(form.paste("a\r\nb\tc\x07d\re").note(), None);
        assert_eq!(text(&form, "name"), "a b cd e");
        form.focus_field("notes");
        form.paste("one\r\ntwo\nthree");
        assert_eq!(text(&form, "notes"), "one\ntwo\nthree");
    }

    #[test]
    fn a_paste_goes_in_at_the_cursor_within_the_room_left() {
        let mut form = form();
        form.focus_field("code");
        form.paste("ab");
        let pasted = form.paste("cdefgh");
        assert_eq!(text(&form, "code"), "abcde");
        assert_eq!(
            pasted,
            Pasted::Text {
                label: "Code",
                given: 6,
                kept: 3,
                max: 5
            }
        );
    }

    #[test]
    fn a_field_that_is_not_text_takes_no_paste() {
        let mut form = form();
        form.focus_field("active");
        let pasted = form.paste("yes");
        assert_eq!(
            pasted.note().as_deref(),
            Some("Nothing pasted: Active is not a text field")
        );
        assert!(!form.is_dirty());
    }
}
