//! The two last steps of a wizard: the review of exactly what will be sent, and the typed
//! confirmation a destructive step asks for ("Type CA to confirm").

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};
use ratatui_textarea::TextArea;
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use super::spec::{FieldKind, FieldSpec};
use crate::ui::theme::Theme;
use crate::ui::widgets::keys::{is_press, typed_char};
use crate::ui::widgets::line_edit;
use crate::ui::widgets::wrap::wrap;

/// The body of a request as `field: value` lines, nested fields by their dotted path
/// (`transaction_items.0.amount`), strings without quotes, everything else as JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Review {
    rows: Vec<(String, String)>,
    scroll: u16,
}

impl Review {
    /// The review of `body`, exactly as it will be sent.
    pub fn new(body: &Value) -> Self {
        let mut rows = Vec::new();
        flatten(body, String::new(), &mut rows);
        Review { rows, scroll: 0 }
    }

    /// The review in the forms' words: each field named as its form labels it (`Webfile
    /// number`, not `jurisdiction_specific_fields.webfile_number`), a choice as the form offers
    /// it (`Closing nexus in state`), a checkbox `yes` or `no`; what was typed stays exactly as
    /// typed. A field no form shows (one taxdash sets itself, such as `country_code`) is named
    /// in words from its wire name (`Country code`), and a code or a flag it holds reads in words
    /// (`Regular`, `yes`).
    #[must_use]
    pub fn in_words<'a>(mut self, specs: impl IntoIterator<Item = &'a FieldSpec>) -> Self {
        let specs: Vec<&FieldSpec> = specs.into_iter().collect();
        for (name, value) in &mut self.rows {
            // A multi-select's values are sent as an array: `states.0`, `states.1`.
            let field = name
                .rsplit_once('.')
                .filter(|(_, last)| last.parse::<usize>().is_ok())
                .map_or(name.as_str(), |(field, _)| field);
            if let Some(spec) = specs.iter().find(|spec| spec.name == field) {
                match &spec.kind {
                    FieldKind::Select(choices) | FieldKind::MultiSelect(choices) => {
                        if let Some(choice) = choices.iter().find(|c| c.value == *value) {
                            value.clone_from(&choice.label);
                        }
                    }
                    FieldKind::Checkbox => *value = yes_or_no(value),
                    _ => {}
                }
                *name = spec.label.to_owned();
            } else {
                *name = crate::model::format::code_words(name.rsplit('.').next().unwrap_or(name));
                *value = set_by_taxdash(value);
            }
        }
        self
    }

    /// The `(field, value)` rows, in the body's order.
    pub fn rows(&self) -> &[(String, String)] {
        &self.rows
    }

    /// Up/Down, `j`/`k`, PgUp/PgDn scroll; answers whether the key was one of those.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        if !is_press(&key) {
            return false;
        }
        self.scroll = match (key.code, typed_char(&key)) {
            (KeyCode::Down, _) | (_, Some('j')) => self.scroll.saturating_add(1),
            (KeyCode::Up, _) | (_, Some('k')) => self.scroll.saturating_sub(1),
            (KeyCode::PageDown, _) => self.scroll.saturating_add(10),
            (KeyCode::PageUp, _) => self.scroll.saturating_sub(10),
            _ => return false,
        };
        true
    }

    /// The lines for `width` columns: names padded to one column, values wrapped beside them;
    /// a name too long for the column (a sentence, such as an acknowledgement) on a line of its
    /// own, its value under it in the column.
    fn lines(&self, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        /// The widest name that sets the column.
        const NAME_MAX: usize = 28;
        let name_width = self
            .rows
            .iter()
            .map(|(n, _)| n.width())
            .filter(|w| *w <= NAME_MAX)
            .max()
            .unwrap_or(0)
            + 2;
        let value_width = (width as usize).saturating_sub(name_width).max(10) as u16;
        let mut lines = Vec::new();
        for (name, value) in &self.rows {
            let alone = name.width() > NAME_MAX;
            if alone {
                for part in wrap(&format!("{name}:"), width.max(10)) {
                    lines.push(Line::from(Span::styled(part, theme.muted)));
                }
            }
            for (k, part) in wrap(value, value_width).into_iter().enumerate() {
                let head = if k == 0 && !alone {
                    format!("{:<name_width$}", format!("{name}:"))
                } else {
                    " ".repeat(name_width)
                };
                lines.push(Line::from(vec![
                    Span::styled(head, theme.muted),
                    Span::styled(part, theme.base),
                ]));
            }
        }
        lines
    }

    /// Draws the lines in `area`, scrolled; the scroll stops at the last line.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let lines = self.lines(area.width, theme);
        self.scroll = self
            .scroll
            .min((lines.len() as u16).saturating_sub(area.height));
        Paragraph::new(lines)
            .scroll((self.scroll, 0))
            .render(area, buf);
    }
}

/// `true` and `false` as `yes` and `no`.
fn yes_or_no(value: &str) -> String {
    value.parse::<bool>().map_or_else(
        |_| value.to_owned(),
        |flag| crate::model::format::yes_no(flag).to_owned(),
    )
}

/// A value taxdash set itself, in words: a flag as `yes` or `no`, a code (`REGULAR`,
/// `SALES_TAX`; not a short one such as `US`) as words.
fn set_by_taxdash(value: &str) -> String {
    let code = value.len() > 3
        && value.starts_with(|c: char| c.is_ascii_uppercase())
        && value.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    if code {
        crate::model::format::code_words(value)
    } else {
        yes_or_no(value)
    }
}

/// Adds the leaves of `value` to `rows`, named by their dotted path under `at`.
fn flatten(value: &Value, at: String, rows: &mut Vec<(String, String)>) {
    let join = |key: &str| {
        if at.is_empty() {
            key.to_owned()
        } else {
            format!("{at}.{key}")
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, child) in map {
                flatten(child, join(key), rows);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, child) in items.iter().enumerate() {
                flatten(child, join(&i.to_string()), rows);
            }
        }
        Value::String(s) => rows.push((at, s.clone())),
        other => rows.push((at, other.to_string())),
    }
}

/// What a key did to a typed confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedOutcome {
    None,
    /// Enter with the expected text typed exactly.
    Confirmed,
    /// Esc.
    Cancelled,
}

/// A destructive step's guard: the user types `expected` (the state code, the registration's id)
/// exactly, case included, then Enter.
#[derive(Debug)]
pub struct TypedConfirmation {
    pub expected: String,
    input: TextArea<'static>,
    /// Enter was pressed on text that did not match: say so.
    refused: bool,
}

impl TypedConfirmation {
    pub fn new(expected: impl Into<String>) -> Self {
        TypedConfirmation {
            expected: expected.into(),
            input: TextArea::default(),
            refused: false,
        }
    }

    /// What the user has typed.
    pub fn typed(&self) -> String {
        self.input.lines().join("")
    }

    /// Whether the typed text is exactly the expected one.
    pub fn is_satisfied(&self) -> bool {
        self.typed() == self.expected
    }

    /// `"Type CA to confirm"`.
    pub fn prompt(&self) -> String {
        format!("Type {} to confirm", self.expected)
    }

    /// Printable keys and editing keys change the text; Enter confirms when it matches; Esc
    /// cancels.
    pub fn handle_key(&mut self, key: KeyEvent) -> TypedOutcome {
        if !is_press(&key) {
            return TypedOutcome::None;
        }
        match key.code {
            KeyCode::Esc => return TypedOutcome::Cancelled,
            KeyCode::Enter if self.is_satisfied() => return TypedOutcome::Confirmed,
            KeyCode::Enter => self.refused = true,
            _ => {
                if line_edit::edit(&mut self.input, &key).changed() {
                    self.refused = false;
                }
            }
        }
        TypedOutcome::None
    }

    /// Draws the prompt, the input and a status line; takes five rows.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = |y: u16, h: u16| {
            let y = area.y + y.min(area.height);
            Rect::new(area.x, y, area.width, h.min(area.bottom() - y))
        };
        Line::from(vec![
            Span::styled("Type ", theme.base),
            Span::styled(self.expected.clone(), theme.key),
            Span::styled(" to confirm", theme.base),
        ])
        .render(rows(0, 1), buf);

        let block = Block::bordered().border_style(theme.border_focus);
        let input_rect = rows(1, 3);
        let inner = block.inner(input_rect);
        block.render(input_rect, buf);
        self.input.set_style(theme.input_focus);
        self.input.set_cursor_line_style(Style::default());
        self.input
            .set_cursor_style(theme.input_focus.patch(theme.selection));
        (&self.input).render(inner, buf);

        let status = if self.is_satisfied() {
            Line::styled("✓ Matches; Enter to confirm", theme.success)
        } else if self.refused {
            let msg = format!("✗ Type {} exactly; case matters", self.expected);
            Line::styled(msg, theme.error)
        } else {
            Line::styled("Esc to go back", theme.muted)
        };
        status.render(rows(4, 1), buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::spec::Choice;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, key, typing};
    use serde_json::json;

    /// The review's rows as text pairs.
    fn rows(review: &Review) -> Vec<(&str, &str)> {
        review
            .rows()
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn review_lists_exactly_the_body() {
        let review = Review::new(&json!({
            "closure_date": "2026-06-30",
            "final_return_acknowledged": true,
            "reason": "CLOSING_NEXUS_IN_STATE",
            "transaction_items": [{"amount": "12.50"}]
        }));
        assert_eq!(
            rows(&review),
            [
                ("closure_date", "2026-06-30"),
                ("final_return_acknowledged", "true"),
                ("reason", "CLOSING_NEXUS_IN_STATE"),
                ("transaction_items.0.amount", "12.50"),
            ]
        );
    }

    #[test]
    fn a_review_reads_in_the_forms_words_and_keeps_what_was_typed() {
        let body = json!({
            "reason": "CLOSING_NEXUS_IN_STATE", "final_return_acknowledged": true,
            "comment": "KEEP_AS_TYPED", "country_code": "US",
            "registration_import_type": "REGULAR", "states": ["TX", "WA"],
            "jurisdiction_specific_fields": {"webfile_number": "RT123"}
        });
        let reasons = vec![Choice::new(
            "CLOSING_NEXUS_IN_STATE",
            "Closing nexus in state",
            "",
        )];
        let specs = [
            FieldSpec::new("reason", "Reason", FieldKind::Select(reasons)),
            FieldSpec::new(
                "final_return_acknowledged",
                "Final return filed",
                FieldKind::Checkbox,
            ),
            FieldSpec::new("comment", "Comment", FieldKind::Text),
            FieldSpec::new(
                "states",
                "States",
                FieldKind::MultiSelect(vec![Choice::new("TX", "Texas", "")]),
            ),
        ];
        let review = Review::new(&body).in_words(&specs);
        assert_eq!(
            rows(&review),
            [
                ("Comment", "KEEP_AS_TYPED"),
                ("Country code", "US"),
                ("Final return filed", "yes"),
                ("Webfile number", "RT123"),
                ("Reason", "Closing nexus in state"),
                ("Registration import type", "Regular"),
                ("States", "Texas"),
                ("States", "WA"),
            ]
        );
    }

    #[test]
    fn review_draws_aligned_columns() {
        let theme = Theme::default();
        let mut review = Review::new(&json!({"closure_date": "2026-06-30", "reason": "X"}));
        let specs = [FieldSpec::new(
            "closure_date",
            "Closure date",
            FieldKind::Date,
        )];
        let labelled = review.clone().in_words(&specs);
        assert_eq!(
            labelled.rows(),
            [
                ("Closure date".to_owned(), "2026-06-30".to_owned()),
                ("Reason".to_owned(), "X".to_owned())
            ]
        );
        let mut buf = blank(40, 3);
        review.render(buf.area, &mut buf, &theme);
        assert_eq!(
            all_text(&buf),
            "closure_date: 2026-06-30\nreason:       X\n"
        );
        assert_styled(&buf, "reason:", theme.muted);
    }

    #[test]
    fn typed_confirmation_accepts_only_the_exact_text() {
        let mut confirm = TypedConfirmation::new("CA");
        assert_eq!(confirm.prompt(), "Type CA to confirm");
        for k in typing("ca") {
            assert_eq!(confirm.handle_key(k), TypedOutcome::None);
        }
        assert!(!confirm.is_satisfied(), "case matters");
        assert_eq!(confirm.handle_key(key(KeyCode::Enter)), TypedOutcome::None);

        let theme = Theme::default();
        let mut buf = blank(40, 5);
        confirm.render(buf.area, &mut buf, &theme);
        assert_styled(&buf, "✗ Type CA exactly", theme.error);

        confirm.handle_key(key(KeyCode::Backspace));
        confirm.handle_key(key(KeyCode::Backspace));
        for k in typing("CA ") {
            confirm.handle_key(k);
        }
        assert!(!confirm.is_satisfied(), "a trailing space is not the text");
        confirm.handle_key(key(KeyCode::Backspace));
        assert!(confirm.is_satisfied());
        let mut buf = blank(40, 5);
        confirm.render(buf.area, &mut buf, &theme);
        assert_styled(&buf, "✓ Matches", theme.success);
        assert_styled(&buf, "CA", theme.key);
        assert_eq!(
            confirm.handle_key(key(KeyCode::Enter)),
            TypedOutcome::Confirmed
        );
        assert_eq!(
            confirm.handle_key(key(KeyCode::Esc)),
            TypedOutcome::Cancelled
        );
    }
}
