//! The one-line search over the list: its text is the list's `search_query`, sent as it is
//! typed (it matches the exemption's id and the customer's name or email).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};

use crate::ui::theme::Theme;
use crate::ui::widgets::keys::{is_ctrl, is_press, typed_char};

/// What a key did to the search line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchOutcome {
    None,
    /// The text changed: search again.
    Edited,
    /// Enter: close the line, keeping the search.
    Done,
    /// Esc: close the line and search for everything again.
    Cleared,
    /// Tab: close the line and open the filter form.
    MoreFilters,
}

/// The search line's text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    text: String,
}

impl Search {
    /// A search line holding the search in force.
    pub fn new(text: &str) -> Self {
        Search {
            text: text.to_owned(),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Printable keys are typed; Backspace deletes, Ctrl-U clears the line.
    pub fn handle_key(&mut self, key: KeyEvent) -> SearchOutcome {
        if !is_press(&key) {
            return SearchOutcome::None;
        }
        if is_ctrl(&key, 'u') {
            let had = !self.text.is_empty();
            self.text.clear();
            return if had {
                SearchOutcome::Edited
            } else {
                SearchOutcome::None
            };
        }
        if let Some(c) = typed_char(&key) {
            self.text.push(c);
            return SearchOutcome::Edited;
        }
        match key.code {
            KeyCode::Backspace if self.text.pop().is_some() => SearchOutcome::Edited,
            KeyCode::Enter => SearchOutcome::Done,
            KeyCode::Esc => SearchOutcome::Cleared,
            KeyCode::Tab => SearchOutcome::MoreFilters,
            _ => SearchOutcome::None,
        }
    }

    /// `/ acme▏  enter keeps · esc clears · tab more filters`.
    pub fn line(&self, theme: &Theme) -> Line<'static> {
        Line::from(vec![
            Span::styled("/ ", theme.key),
            Span::styled(format!("{}▏", self.text), theme.input_focus),
            Span::styled("  enter keeps · esc clears · tab more filters", theme.muted),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    #[test]
    fn typing_edits_and_the_keys_close_the_line() {
        let mut s = Search::new("ac");
        assert_eq!(s.handle_key(key(KeyCode::Char('m'))), SearchOutcome::Edited);
        assert_eq!(s.text(), "acm");
        assert_eq!(s.handle_key(key(KeyCode::Backspace)), SearchOutcome::Edited);
        assert_eq!(s.text(), "ac");
        assert_eq!(s.handle_key(ctrl('u')), SearchOutcome::Edited);
        assert_eq!(s.handle_key(key(KeyCode::Backspace)), SearchOutcome::None);
        assert_eq!(s.handle_key(key(KeyCode::Enter)), SearchOutcome::Done);
        assert_eq!(s.handle_key(key(KeyCode::Esc)), SearchOutcome::Cleared);
        assert_eq!(s.handle_key(key(KeyCode::Tab)), SearchOutcome::MoreFilters);
    }
}
