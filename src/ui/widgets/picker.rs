//! One choice among a few, in a small centered dialog: "Approve 2 certificate imports as ‹
//! CUSTOMER ›". Left and Right (or `h`/`l`, Tab) move through the choices, Enter takes the one
//! shown, Esc cancels. The owner keeps what the choice is for.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::confirm::{key_hints, render_dialog};
use super::keys::{is_press, typed_char};
use super::popup::Popup;
use super::wrap::wrap;
use crate::ui::theme::Theme;

/// What a key did to the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerOutcome {
    /// Still open.
    None,
    /// Enter: the choice shown.
    Picked(String),
    Cancelled,
}

/// The dialog's state: the question, the choices and the one shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    pub title: String,
    pub message: String,
    choices: Vec<String>,
    index: usize,
}

impl Picker {
    /// A dialog asking `message`, showing `choices[default]` first.
    pub fn new(
        title: impl Into<String>,
        message: impl Into<String>,
        choices: Vec<String>,
        default: usize,
    ) -> Self {
        Picker {
            title: title.into(),
            message: message.into(),
            index: default.min(choices.len().saturating_sub(1)),
            choices,
        }
    }

    /// The choice shown.
    pub fn current(&self) -> Option<&str> {
        self.choices.get(self.index).map(String::as_str)
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> PickerOutcome {
        if !is_press(&key) || self.choices.is_empty() {
            return match key.code {
                KeyCode::Esc => PickerOutcome::Cancelled,
                _ => PickerOutcome::None,
            };
        }
        let n = self.choices.len();
        match (key.code, typed_char(&key)) {
            (KeyCode::Esc, _) => PickerOutcome::Cancelled,
            (KeyCode::Enter, _) => PickerOutcome::Picked(self.choices[self.index].clone()),
            (KeyCode::Right | KeyCode::Tab | KeyCode::Down, _) | (_, Some('l' | 'j')) => {
                self.index = (self.index + 1) % n;
                PickerOutcome::None
            }
            (KeyCode::Left | KeyCode::BackTab | KeyCode::Up, _) | (_, Some('h' | 'k')) => {
                self.index = (self.index + n - 1) % n;
                PickerOutcome::None
            }
            _ => PickerOutcome::None,
        }
    }

    /// Draws the dialog centered in `area`, over whatever is below it.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let longest = self
            .choices
            .iter()
            .map(|c| c.width() + 16)
            .chain([self.message.width(), self.title.width() + 4])
            .max()
            .unwrap_or(0) as u16;
        let width = (longest + 4).clamp(36, 64).min(area.width);
        let message = wrap(&self.message, width.saturating_sub(4));
        let height = (message.len() as u16 + 6).min(area.height);
        let popup = Popup::new(width, height).area(area);

        let mut lines: Vec<Line> = message
            .into_iter()
            .map(|l| Line::styled(l, theme.base))
            .collect();
        lines.push(Line::default());
        let current = self.current().unwrap_or("");
        lines.push(
            Line::from(vec![
                Span::styled("‹ ", theme.muted),
                Span::styled(current.to_owned(), theme.selection),
                Span::styled(" ›", theme.muted),
                Span::styled(
                    format!("  {} of {}", self.index + 1, self.choices.len()),
                    theme.muted,
                ),
            ])
            .centered(),
        );
        lines.push(key_hints(
            &[("←/→", "choose"), ("Enter", "continue"), ("Esc", "cancel")],
            theme,
        ));
        render_dialog(&self.title, lines, popup, buf, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{all_text, blank, key};

    fn picker() -> Picker {
        let choices = ["CUSTOMER", "WHOLESALE", "TRANSACTION"]
            .map(str::to_owned)
            .to_vec();
        Picker::new("Approve", "Approve 2 certificate imports as", choices, 0)
    }

    #[test]
    fn arrows_cycle_and_enter_takes_the_choice_shown() {
        let mut p = picker();
        assert_eq!(p.handle_key(key(KeyCode::Left)), PickerOutcome::None);
        assert_eq!(
            p.current(),
            Some("TRANSACTION"),
            "left from the first wraps"
        );
        p.handle_key(key(KeyCode::Right));
        p.handle_key(key(KeyCode::Right));
        assert_eq!(
            p.handle_key(key(KeyCode::Enter)),
            PickerOutcome::Picked("WHOLESALE".into())
        );
        assert_eq!(p.handle_key(key(KeyCode::Esc)), PickerOutcome::Cancelled);
    }

    #[test]
    fn draws_the_question_and_the_choice() {
        let theme = Theme::default();
        let mut buf = blank(70, 12);
        picker().render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("Approve 2 certificate imports as"), "{text}");
        assert!(text.contains("‹ CUSTOMER ›  1 of 3"), "{text}");
    }
}
