//! The footer's one-line flash message: the result of the last action, which fades after a
//! while.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::ui::text;
use crate::ui::theme::Theme;

/// What a cut message ends with, after its ellipsis: where to read it whole.
pub const READ_WHOLE: &str = " (:messages)";

/// `text` in `style` within `width` cells; when it is too long, cut so that it ends in
/// `… (:messages)`, which tells where to read it whole.
pub fn pointed_line(full: &str, width: usize, style: Style, theme: &Theme) -> Line<'static> {
    if text::width(full) <= width {
        return Line::styled(full.to_owned(), style);
    }
    let budget = width.saturating_sub(text::width(READ_WHOLE));
    if budget < 2 {
        return Line::styled(text::truncate(full, width).into_owned(), style);
    }
    Line::from(vec![
        Span::styled(text::truncate(full, budget).into_owned(), style),
        Span::styled(READ_WHOLE, theme.muted),
    ])
}

/// How long a message stays, in ticks, unless told otherwise.
pub const DEFAULT_TICKS: u32 = 20;

/// How much a message matters, which picks its style and its mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlashLevel {
    Info,
    Success,
    Error,
}

/// One message with the number of ticks it has left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flash {
    pub level: FlashLevel,
    pub message: String,
    ticks_left: u32,
    /// Gone with the next key, if it has not expired before.
    until_key: bool,
}

impl Flash {
    /// A message of `level` lasting [`DEFAULT_TICKS`]; errors stay twice as long, as they are
    /// the ones people need time to read.
    pub fn new(level: FlashLevel, message: impl Into<String>) -> Self {
        let ticks_left = match level {
            FlashLevel::Error => DEFAULT_TICKS * 2,
            FlashLevel::Info | FlashLevel::Success => DEFAULT_TICKS,
        };
        Flash {
            level,
            message: message.into(),
            ticks_left,
            until_key: false,
        }
    }

    pub fn info(message: impl Into<String>) -> Self {
        Flash::new(FlashLevel::Info, message)
    }

    pub fn success(message: impl Into<String>) -> Self {
        Flash::new(FlashLevel::Success, message)
    }

    pub fn error(message: impl Into<String>) -> Self {
        Flash::new(FlashLevel::Error, message)
    }

    /// The same message lasting `ticks` ticks.
    pub fn with_ticks(mut self, ticks: u32) -> Self {
        self.ticks_left = ticks;
        self
    }

    /// The same message, gone with the next key: a refusal or a hint, answered by what the user
    /// does next.
    pub fn until_key(mut self) -> Self {
        self.until_key = true;
        self
    }

    pub fn ticks_left(&self) -> u32 {
        self.ticks_left
    }

    /// The message as a styled line: a mark that tells the level apart without colour, then the
    /// text, both in the level's style.
    pub fn line(&self, theme: &Theme) -> Line<'static> {
        let (mark, style) = self.mark(theme);
        Line::from(vec![
            Span::styled(mark, style),
            Span::styled(self.message.clone(), style),
        ])
    }

    /// The line cut to `width`: a message too long for it ends in `… (:messages)`, which tells
    /// where to read it whole.
    pub fn fitted_line(&self, width: u16, theme: &Theme) -> Line<'static> {
        let line = self.line(theme);
        let width = usize::from(width);
        if line.width() <= width {
            return line;
        }
        let (mark, style) = self.mark(theme);
        pointed_line(&format!("{mark}{}", self.message), width, style, theme)
    }

    /// The mark that tells the level apart without colour, and the level's style.
    fn mark(&self, theme: &Theme) -> (&'static str, Style) {
        match self.level {
            FlashLevel::Info => ("", theme.info),
            FlashLevel::Success => ("✓ ", theme.success),
            FlashLevel::Error => ("✗ ", theme.error),
        }
    }
}

/// The slot the footer draws: at most one message, replaced by the next and gone once expired.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlashLine {
    current: Option<Flash>,
}

impl FlashLine {
    /// Shows `flash` in place of whatever was there.
    pub fn show(&mut self, flash: Flash) {
        self.current = Some(flash);
    }

    pub fn clear(&mut self) {
        self.current = None;
    }

    /// A key was pressed: a message that lasts until then goes. Answers whether one went.
    pub fn key_pressed(&mut self) -> bool {
        if self.current.as_ref().is_some_and(|f| f.until_key) {
            self.current = None;
            return true;
        }
        false
    }

    pub fn current(&self) -> Option<&Flash> {
        self.current.as_ref()
    }

    /// Counts one tick down; answers whether the line changed (the message expired), so the
    /// caller knows to redraw.
    pub fn tick(&mut self) -> bool {
        let Some(flash) = &mut self.current else {
            return false;
        };
        flash.ticks_left = flash.ticks_left.saturating_sub(1);
        if flash.ticks_left == 0 {
            self.current = None;
            return true;
        }
        false
    }

    /// Draws the message, if any, on the first row of `area`; a message too long for it is cut
    /// and ends in `… (:messages)`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        if let Some(flash) = &self.current {
            flash.fitted_line(area.width, theme).render(area, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{assert_styled, blank, row_text};

    #[test]
    fn expires_after_its_ticks() {
        let mut line = FlashLine::default();
        line.show(Flash::info("Refreshed").with_ticks(2));
        assert!(!line.tick());
        assert_eq!(line.current().map(super::Flash::ticks_left), Some(1));
        assert!(line.tick(), "the expiring tick asks for a redraw");
        assert!(line.current().is_none());
        assert!(!line.tick());
    }

    #[test]
    fn errors_last_longer_and_a_new_message_replaces_the_old() {
        assert_eq!(
            Flash::error("x").ticks_left(),
            2 * Flash::info("x").ticks_left()
        );
        let mut line = FlashLine::default();
        line.show(Flash::info("one"));
        line.show(Flash::success("two"));
        assert_eq!(line.current().map(|f| f.message.as_str()), Some("two"));
    }

    #[test]
    fn renders_in_the_level_style() {
        let theme = Theme::default();
        for (flash, text, style) in [
            (
                Flash::info("Loaded 100 rows"),
                "Loaded 100 rows",
                theme.info,
            ),
            (
                Flash::success("Nexus saved"),
                "✓ Nexus saved",
                theme.success,
            ),
            (
                Flash::error("Request timed out"),
                "✗ Request timed out",
                theme.error,
            ),
        ] {
            let mut line = FlashLine::default();
            line.show(flash);
            let mut buf = blank(30, 1);
            line.render(buf.area, &mut buf, &theme);
            assert_eq!(row_text(&buf, 0), text);
            assert_styled(&buf, text, style);
        }
    }

    #[test]
    fn a_long_message_is_cut_and_says_where_to_read_it() {
        let theme = Theme::default();
        let flash = Flash::error("needs the Tenanted API: set api = \"tenanted\" in the profile");
        let mut line = FlashLine::default();
        line.show(flash);
        let mut buf = blank(40, 1);
        line.render(buf.area, &mut buf, &theme);
        assert_eq!(
            row_text(&buf, 0),
            "✗ needs the Tenanted API: s… (:messages)"
        );
        assert_styled(&buf, "✗ needs", theme.error);
        assert_styled(&buf, "(:messages)", theme.muted);
        // A message that fits is left alone.
        let mut buf = blank(80, 1);
        line.render(buf.area, &mut buf, &theme);
        assert!(row_text(&buf, 0).ends_with("in the profile"));
    }
}
