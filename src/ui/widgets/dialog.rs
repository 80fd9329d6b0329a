//! The frame every dialog shares: its box centered over the screen (placed by [`Popup`]), its focused border and
//! title, and a dialog of wrapped lines drawn in it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget, Wrap};

use crate::ui::theme::Theme;
use crate::ui::widgets::popup::Popup;

/// A dialog's box, centered in `area`: as wide as `max_width` and as tall as `max_height`
/// where there is room (never under 20 by 8), cleared of what was drawn there.
pub fn centered(area: Rect, max_width: u16, max_height: u16, buf: &mut Buffer) -> Rect {
    Popup::new(
        area.width.clamp(20, max_width),
        area.height.clamp(8, max_height),
    )
    .clear(area, buf)
}

/// A dialog's frame: the focused border with `title` (spaced as it should show) on it.
pub fn framed(title: String, theme: &Theme) -> Block<'static> {
    Block::bordered()
        .border_style(theme.border_focus)
        .title(Span::styled(title, theme.title))
}

/// The frame of a dialog of text: [`framed`], its text a column in from each side.
pub fn padded(title: String, theme: &Theme) -> Block<'static> {
    framed(title, theme).padding(Padding::horizontal(1))
}

/// Draws `lines` wrapped in a [`padded`] dialog titled `title` at `popup`, over what was
/// there, scrolled down `scroll` rows.
pub fn render_wrapped(
    title: String,
    lines: Vec<Line<'_>>,
    scroll: u16,
    popup: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(padded(title, theme))
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .style(theme.base)
        .render(popup, buf);
}
