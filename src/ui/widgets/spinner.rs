//! A spinner for work under way: one frame per tick, next to a label such as
//! `loading registrations…`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::ui::text::truncate;
use crate::ui::theme::Theme;

/// Braille frames, for terminals with Unicode fonts.
pub const BRAILLE_FRAMES: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// ASCII frames, the fallback for terminals or fonts without braille.
pub const ASCII_FRAMES: &[&str] = &["|", "/", "-", "\\"];

/// A spinner's state: which frame shows. The runtime's tick calls [`Spinner::tick`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spinner {
    frame: usize,
    ascii: bool,
}

impl Spinner {
    /// A braille spinner.
    pub const fn new() -> Self {
        Spinner {
            frame: 0,
            ascii: false,
        }
    }

    /// A spinner drawn in ASCII when `ascii` is true.
    pub const fn with_ascii(mut self, ascii: bool) -> Self {
        self.ascii = ascii;
        self
    }

    /// Advances to the next frame.
    pub fn tick(&mut self) {
        self.frame = self.frame.wrapping_add(1);
    }

    /// The frame to show now.
    pub fn symbol(&self) -> &'static str {
        let frames = if self.ascii {
            ASCII_FRAMES
        } else {
            BRAILLE_FRAMES
        };
        frames[self.frame % frames.len()]
    }

    /// The spinner followed by `label`: the frame in the accent style, the label muted.
    pub fn line<'a>(&self, label: impl Into<std::borrow::Cow<'a, str>>, theme: &Theme) -> Line<'a> {
        Line::from(vec![
            Span::styled(self.symbol(), theme.accent),
            Span::raw(" "),
            Span::styled(label.into(), theme.muted),
        ])
    }

    /// The spinner with `loading <what>…`, e.g. `⠋ loading registrations…`.
    pub fn loading(&self, what: &str, theme: &Theme) -> Line<'static> {
        self.line(format!("loading {what}…"), theme)
    }

    /// Draws the spinner and `label` on the first line of `area`, cut to its width.
    pub fn render(&self, label: &str, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let label = truncate(label, usize::from(area.width.saturating_sub(2)));
        self.line(label, theme).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advances_one_frame_per_tick_and_wraps() {
        let mut s = Spinner::new();
        assert_eq!(s.symbol(), "⠋");
        s.tick();
        assert_eq!(s.symbol(), "⠙");
        for _ in 0..BRAILLE_FRAMES.len() {
            s.tick();
        }
        assert_eq!(s.symbol(), "⠙");
    }

    #[test]
    fn ascii_fallback() {
        let mut s = Spinner::new().with_ascii(true);
        let frames: Vec<&str> = (0..5)
            .map(|_| {
                let f = s.symbol();
                s.tick();
                f
            })
            .collect();
        assert_eq!(frames, ["|", "/", "-", "\\", "|"]);
    }

    #[test]
    fn renders_the_loading_label() {
        let theme = Theme::default();
        let s = Spinner::new();
        assert_eq!(
            s.loading("registrations", &theme).to_string(),
            "⠋ loading registrations…"
        );
        let area = Rect::new(0, 0, 12, 1);
        let mut buf = Buffer::empty(area);
        s.render("loading registrations…", area, &mut buf, &theme);
        assert_eq!(crate::ui::text::buffer_lines(&buf), ["⠋ loading r…"]);
        assert_eq!(buf[(0, 0)].style().fg, theme.accent.fg);
    }
}
