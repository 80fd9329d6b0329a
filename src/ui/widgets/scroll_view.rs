//! Lines drawn through a window that scrolls: line by line, by screen and to either end, each
//! movement clamped to what the last draw measured. The detail of a record and the timeline
//! are drawn through it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Widget;

use crate::ui::keymap::Action;

/// How far a view is scrolled. Movement is clamped to the content measured by the last draw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScrollState {
    scroll: usize,
    /// The largest useful scroll, from the last draw.
    max_scroll: usize,
    /// Lines shown by the last draw.
    height: u16,
}

impl ScrollState {
    /// Scrolls for a movement action (a line, a page, the top or the bottom); `false` for any
    /// other action, which is left to the caller.
    pub fn navigate(&mut self, action: Action) -> bool {
        match action {
            Action::Up => self.up(1),
            Action::Down => self.down(1),
            Action::PageUp => self.page_up(),
            Action::PageDown => self.page_down(),
            Action::Top => self.top(),
            Action::Bottom => self.bottom(),
            _ => return false,
        }
        true
    }

    /// The first line shown.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Whether lines are hidden above the window.
    pub fn has_more_above(&self) -> bool {
        self.scroll > 0
    }

    /// Whether lines are hidden below the window.
    pub fn has_more_below(&self) -> bool {
        self.scroll < self.max_scroll
    }

    /// `j`: `n` lines down.
    pub fn down(&mut self, n: usize) {
        self.scroll = self.scroll.saturating_add(n).min(self.max_scroll);
    }

    /// `k`: `n` lines up.
    pub fn up(&mut self, n: usize) {
        self.scroll = self.scroll.saturating_sub(n);
    }

    /// A screen down.
    pub fn page_down(&mut self) {
        self.down(usize::from(self.height.max(1)));
    }

    /// A screen up.
    pub fn page_up(&mut self) {
        self.up(usize::from(self.height.max(1)));
    }

    /// `g`: the first line.
    pub fn top(&mut self) {
        self.scroll = 0;
    }

    /// `G`: the last screen.
    pub fn bottom(&mut self) {
        self.scroll = self.max_scroll;
    }
}

/// Draws `lines` in `area` on `base`, from the line `state` is scrolled to; measures the
/// content for the next movement first. Nothing is drawn in an empty area.
pub fn render_lines(
    lines: &[Line<'_>],
    area: Rect,
    buf: &mut Buffer,
    base: Style,
    state: &mut ScrollState,
) {
    if area.is_empty() {
        return;
    }
    buf.set_style(area, base);
    state.height = area.height;
    state.max_scroll = lines.len().saturating_sub(usize::from(area.height));
    state.scroll = state.scroll.min(state.max_scroll);
    for (y, line) in (area.top()..area.bottom()).zip(lines.iter().skip(state.scroll)) {
        line.render(Rect::new(area.x, y, area.width, 1), buf);
    }
}
