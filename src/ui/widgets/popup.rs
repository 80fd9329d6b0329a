//! Where a dialog goes: a box of a given size centred over the screen beneath it, never larger
//! than that screen, its cells cleared before the dialog draws. Every dialog (the shell's
//! questions and help, the panes' wizards, pickers and reports) is placed here.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Widget};

/// A dialog's size, to be centred in an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Popup {
    pub width: u16,
    pub height: u16,
}

impl Popup {
    pub fn new(width: u16, height: u16) -> Self {
        Popup { width, height }
    }

    /// Where the dialog goes in `area`: centred, cut to `area`. When the space left over is odd,
    /// the odd cell goes above and to the left (as ratatui's centring does).
    pub fn area(self, area: Rect) -> Rect {
        let width = self.width.min(area.width);
        let height = self.height.min(area.height);
        Rect {
            x: area.x + (area.width - width).div_ceil(2),
            y: area.y + (area.height - height).div_ceil(2),
            width,
            height,
        }
    }

    /// Clears the dialog's place in `area` and answers it.
    pub fn clear(self, area: Rect, buf: &mut Buffer) -> Rect {
        let popup = self.area(area);
        Clear.render(popup, buf);
        popup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centres_and_never_overflows() {
        let area = Rect::new(2, 3, 40, 11);
        assert_eq!(Popup::new(20, 5).area(area), Rect::new(12, 6, 20, 5));
        assert_eq!(Popup::new(21, 6).area(area), Rect::new(12, 6, 21, 6));
        assert_eq!(Popup::new(90, 30).area(area), area);
    }
}
