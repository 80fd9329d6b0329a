//! The one-line search over the list: its text is the list's `search_query`, sent as it is
//! typed (it matches the exemption's id and the customer's name or email).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};
use ratatui_textarea::{CursorMove, TextArea};

use crate::ui::theme::Theme;
use crate::ui::widgets::keys::is_press;
use crate::ui::widgets::line_edit;

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
#[derive(Debug, Clone, Default)]
pub struct Search {
    input: TextArea<'static>,
}

impl Search {
    /// A search line holding the search in force, the cursor at its end.
    pub fn new(text: &str) -> Self {
        let mut input = TextArea::new(vec![text.to_owned()]);
        input.move_cursor(CursorMove::End);
        Search { input }
    }

    pub fn text(&self) -> &str {
        self.input.lines().first().map_or("", String::as_str)
    }

    /// Printable keys are typed; the shell's editing keys edit (see
    /// [`line_edit`](crate::ui::widgets::line_edit)).
    pub fn handle_key(&mut self, key: KeyEvent) -> SearchOutcome {
        if !is_press(&key) {
            return SearchOutcome::None;
        }
        match key.code {
            KeyCode::Enter => SearchOutcome::Done,
            KeyCode::Esc => SearchOutcome::Cleared,
            KeyCode::Tab => SearchOutcome::MoreFilters,
            _ if line_edit::edit(&mut self.input, &key).changed() => SearchOutcome::Edited,
            _ => SearchOutcome::None,
        }
    }

    /// `/ ac▏me  enter keeps · esc clears · tab more filters`, the bar where the cursor is.
    pub fn line(&self, theme: &Theme) -> Line<'static> {
        let text = self.text();
        let at = text
            .char_indices()
            .nth(self.input.cursor().1)
            .map_or(text.len(), |(i, _)| i);
        Line::from(vec![
            Span::styled("/ ", theme.key),
            Span::styled(
                format!("{}▏{}", &text[..at], &text[at..]),
                theme.input_focus,
            ),
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

    #[test]
    fn the_shell_editing_keys_work_in_the_search() {
        let mut s = Search::new("acme corp");
        assert_eq!(s.handle_key(ctrl('w')), SearchOutcome::Edited);
        assert_eq!(s.text(), "acme ");
        assert_eq!(s.handle_key(ctrl('a')), SearchOutcome::None, "a move");
        s.handle_key(key(KeyCode::Char('>')));
        assert_eq!(s.text(), ">acme ");
        let theme = Theme::default();
        let shown: String = s
            .line(&theme)
            .spans
            .iter()
            .map(|sp| sp.content.as_ref())
            .collect();
        assert!(shown.starts_with("/ >▏acme "), "{shown}");
        assert_eq!(s.handle_key(ctrl('k')), SearchOutcome::Edited);
        assert_eq!(s.text(), ">");
    }
}
