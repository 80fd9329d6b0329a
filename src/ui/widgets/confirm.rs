//! A yes/no question in a small centered dialog: "Discard unsaved input?", "Delete physical nexus
//! `phys_123` in CO?". The owner keeps what it asked about and acts on the answer.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use super::keys::{is_press, typed_char};
use super::popup::Popup;
use super::wrap::wrap;
use crate::ui::theme::Theme;

/// What a key did to the dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfirmOutcome {
    /// Still open.
    None,
    Yes,
    No,
}

/// Gives `key` to the question in `slot`, if one is open: `Some(true)` when it was answered yes,
/// `Some(false)` when it is still open or was answered no, `None` when no question is open (the
/// key is for someone else). An answered question is closed.
pub fn answer(slot: &mut Option<Confirm>, key: KeyEvent) -> Option<bool> {
    let outcome = slot.as_mut()?.handle_key(key);
    if outcome != ConfirmOutcome::None {
        *slot = None;
    }
    Some(outcome == ConfirmOutcome::Yes)
}

/// The dialog's state: the question, the answer Enter gives, and the highlighted button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    pub title: String,
    pub message: String,
    /// The answer Enter gives before the user moves the highlight.
    pub default: bool,
    highlighted: bool,
}

impl Confirm {
    /// A question whose Enter answer is `default`. Destructive questions default to `false`.
    pub fn new(message: impl Into<String>, default: bool) -> Self {
        Confirm {
            title: "Confirm".into(),
            message: message.into(),
            default,
            highlighted: default,
        }
    }

    /// "Discard unsaved input?", defaulting to no.
    pub fn discard_input() -> Self {
        Confirm::new("Discard the unsaved input?", false)
    }

    /// The same dialog titled `title`.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// The answer the highlighted button gives.
    pub fn highlighted(&self) -> bool {
        self.highlighted
    }

    /// `y` answers yes, `n` and Esc answer no, Enter answers the highlighted button; Left, Right,
    /// Tab and `h`/`l` move the highlight. Every other key is ignored.
    pub fn handle_key(&mut self, key: KeyEvent) -> ConfirmOutcome {
        if !is_press(&key) {
            return ConfirmOutcome::None;
        }
        match (key.code, typed_char(&key)) {
            (_, Some('y' | 'Y')) => ConfirmOutcome::Yes,
            (_, Some('n' | 'N')) | (KeyCode::Esc, _) => ConfirmOutcome::No,
            (KeyCode::Enter, _) => {
                if self.highlighted {
                    ConfirmOutcome::Yes
                } else {
                    ConfirmOutcome::No
                }
            }
            (KeyCode::Left | KeyCode::Right | KeyCode::Tab | KeyCode::BackTab, _)
            | (_, Some('h' | 'l')) => {
                self.highlighted = !self.highlighted;
                ConfirmOutcome::None
            }
            _ => ConfirmOutcome::None,
        }
    }

    /// Draws the dialog centered in `area`, over whatever is below it.
    /// The dialog's box in `area` and its message's lines.
    fn layout(&self, area: Rect) -> (Rect, Vec<String>) {
        let longest = self.message.width().max(self.title.width() + 4) as u16;
        let width = (longest + 4).clamp(32, 60).min(area.width);
        let message = wrap(&self.message, width.saturating_sub(4));
        let height = (message.len() as u16 + 6).min(area.height);
        let popup = Popup::new(width, height).area(area);
        (popup, message)
    }

    /// What a click at (`column`, `row`) answers, the dialog drawn in `area`: `[ Yes ]` yes,
    /// `[ No ]` no, anything else nothing.
    pub fn click(&self, area: Rect, column: u16, row: u16) -> ConfirmOutcome {
        let (popup, message) = self.layout(area);
        // Inside the border and the padding of one cell on each side.
        let inner_x = popup.x + 2;
        let inner_width = popup.width.saturating_sub(4);
        let buttons_y = popup.y + 1 + message.len() as u16 + 1;
        let line = "[ Yes ]  [ No ]";
        let start = inner_x + inner_width.saturating_sub(line.len() as u16) / 2;
        if row != buttons_y {
            return ConfirmOutcome::None;
        }
        if (start..start + 7).contains(&column) {
            ConfirmOutcome::Yes
        } else if (start + 9..start + 15).contains(&column) {
            ConfirmOutcome::No
        } else {
            ConfirmOutcome::None
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let (popup, message) = self.layout(area);

        let button = |label: &'static str, answer: bool| {
            let style = if self.highlighted == answer {
                theme.selection
            } else {
                theme.base
            };
            Span::styled(label, style)
        };
        let mut lines: Vec<Line> = message
            .into_iter()
            .map(|l| Line::styled(l, theme.base))
            .collect();
        lines.push(Line::default());
        lines.push(
            Line::from(vec![
                button("[ Yes ]", true),
                Span::raw("  "),
                button("[ No ]", false),
            ])
            .centered(),
        );
        lines.push(key_hints(
            &[("y", "yes"), ("n", "no"), ("Enter", "highlighted")],
            theme,
        ));
        render_dialog(&self.title, lines, popup, buf, theme);
    }
}

/// A centred line of key hints for a dialog: `y yes  n no  Enter highlighted`.
pub(crate) fn key_hints(hints: &[(&str, &str)], theme: &Theme) -> Line<'static> {
    let mut spans = Vec::with_capacity(hints.len() * 2);
    for (i, (key, label)) in hints.iter().enumerate() {
        let gap = if i + 1 < hints.len() { "  " } else { "" };
        spans.push(Span::styled((*key).to_owned(), theme.key));
        spans.push(Span::styled(format!(" {label}{gap}"), theme.muted));
    }
    Line::from(spans).centered()
}

/// Draws a dialog: `lines` in a focused, titled box at `popup`, over what was there.
pub(crate) fn render_dialog(
    title: &str,
    lines: Vec<Line<'_>>,
    popup: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let block = super::dialog::padded(format!(" {title} "), theme);
    Clear.render(popup, buf);
    Paragraph::new(lines).block(block).render(popup, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, key};

    #[test]
    fn a_click_on_a_button_answers() {
        let c = Confirm::discard_input();
        let area = Rect::new(0, 0, 60, 20);
        let mut buf = Buffer::empty(area);
        c.render(area, &mut buf, &Theme::default());
        let (yes, y) = crate::ui::widgets::testing::find(&buf, "[ Yes ]");
        let (no, _) = crate::ui::widgets::testing::find(&buf, "[ No ]");
        assert_eq!(c.click(area, yes + 2, y), ConfirmOutcome::Yes);
        assert_eq!(c.click(area, no + 2, y), ConfirmOutcome::No);
        assert_eq!(c.click(area, no + 2, y + 1), ConfirmOutcome::None);
        assert_eq!(c.click(area, 0, y), ConfirmOutcome::None);
    }

    #[test]
    fn y_n_and_esc_answer_at_once() {
        let mut c = Confirm::discard_input();
        assert_eq!(c.handle_key(key(KeyCode::Char('y'))), ConfirmOutcome::Yes);
        assert_eq!(c.handle_key(key(KeyCode::Char('N'))), ConfirmOutcome::No);
        assert_eq!(c.handle_key(key(KeyCode::Esc)), ConfirmOutcome::No);
        assert_eq!(c.handle_key(key(KeyCode::Char('x'))), ConfirmOutcome::None);
    }

    #[test]
    fn enter_gives_the_default_until_the_highlight_moves() {
        let mut c = Confirm::new("Quit with unsaved input?", false);
        assert_eq!(
            c.clone().handle_key(key(KeyCode::Enter)),
            ConfirmOutcome::No
        );
        assert_eq!(c.handle_key(key(KeyCode::Left)), ConfirmOutcome::None);
        assert!(c.highlighted());
        assert_eq!(c.handle_key(key(KeyCode::Enter)), ConfirmOutcome::Yes);
        let mut yes = Confirm::new("Refresh?", true);
        assert_eq!(yes.handle_key(key(KeyCode::Enter)), ConfirmOutcome::Yes);
    }

    #[test]
    fn an_open_question_takes_the_key_and_closes_once_answered() {
        let mut none: Option<Confirm> = None;
        assert_eq!(answer(&mut none, key(KeyCode::Char('y'))), None);
        let mut slot = Some(Confirm::discard_input());
        assert_eq!(answer(&mut slot, key(KeyCode::Char('x'))), Some(false));
        assert!(slot.is_some(), "an unrelated key leaves the question open");
        assert_eq!(answer(&mut slot, key(KeyCode::Char('n'))), Some(false));
        assert!(slot.is_none());
        let mut slot = Some(Confirm::discard_input());
        assert_eq!(answer(&mut slot, key(KeyCode::Char('y'))), Some(true));
        assert!(slot.is_none());
    }

    #[test]
    fn draws_the_question_and_highlights_the_default() {
        let theme = Theme::default();
        let c = Confirm::new("Delete physical nexus phys_123 in CO?", false);
        let mut buf = blank(60, 12);
        c.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(
            text.contains("Delete physical nexus phys_123 in CO?"),
            "{text}"
        );
        assert!(text.contains(" Confirm "), "{text}");
        assert_styled(&buf, "[ No ]", theme.selection);
    }
}
