//! Key hints, and the two places they show: the footer (compact, what fits) and the `?` help
//! overlay (everything, grouped). Both read the same list, which the focused pane builds from its
//! live bindings, so neither can drift from what the keys do.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

use super::keys::{is_press, typed_char};
use super::popup::Popup;
use crate::ui::theme::Theme;

/// One binding as people read it: `keys` ("j/k", "Ctrl-S"), what it does, and the group it is
/// listed under in the help overlay ("Navigation", "Form").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub keys: String,
    pub label: String,
    pub group: String,
}

impl Hint {
    pub fn new(
        keys: impl Into<String>,
        label: impl Into<String>,
        group: impl Into<String>,
    ) -> Self {
        Hint {
            keys: keys.into(),
            label: label.into(),
            group: group.into(),
        }
    }
}

/// The frame of a scrolling page over the screen (the help, the messages): its title, `more`
/// at the bottom left when there is more below, and `Esc close` at the bottom right.
pub fn page_block(title: String, more: &'static str, theme: &Theme) -> Block<'static> {
    Block::bordered()
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::styled(more, theme.muted).left_aligned())
        .title_bottom(
            Line::from(vec![
                Span::styled(" Esc", theme.key),
                Span::styled(" close ", theme.muted),
            ])
            .right_aligned(),
        )
        .border_style(theme.border_focus)
        .padding(Padding::horizontal(1))
}

/// The footer's hint line: `key label` pairs in order, two spaces apart. The last `kept` hints
/// (help, quit) always show when they fit at all: room is made for them first, the last first.
/// The others fill what is left in order; a pair that does not fit is left out, and shorter
/// ones after it still get their chance.
pub fn footer_line(hints: &[Hint], kept: usize, width: u16, theme: &Theme) -> Line<'static> {
    let width = usize::from(width);
    let pair = |hint: &Hint| hint.keys.width() + 1 + hint.label.width();
    let split = hints.len().saturating_sub(kept);
    let (others, pinned) = hints.split_at(split);
    // The kept hints that fit, from the last backwards.
    let mut shown_pinned = vec![false; pinned.len()];
    let mut used = 0;
    for (i, hint) in pinned.iter().enumerate().rev() {
        let gap = if used == 0 { 0 } else { 2 };
        if used + gap + pair(hint) <= width {
            used += gap + pair(hint);
            shown_pinned[i] = true;
        }
    }
    let mut shown_others = vec![false; others.len()];
    for (i, hint) in others.iter().enumerate() {
        let gap = if used == 0 { 0 } else { 2 };
        if used + gap + pair(hint) <= width {
            used += gap + pair(hint);
            shown_others[i] = true;
        }
    }
    let chosen = others
        .iter()
        .zip(shown_others)
        .chain(pinned.iter().zip(shown_pinned))
        .filter_map(|(hint, shown)| shown.then_some(hint));
    let mut spans = Vec::new();
    for hint in chosen {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(hint.keys.clone(), theme.key));
        spans.push(Span::styled(format!(" {}", hint.label), theme.muted));
    }
    Line::from(spans)
}

/// What a key did to the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpOutcome {
    None,
    Close,
}

/// A scrolling overlay's answer to `key`: Esc and `q` close; `j`/`k`, arrows, PgUp/PgDn and
/// `g`/`G` move `scroll`, the first row shown, within what `visible` rows of `total` allow.
pub fn scroll_key(key: &KeyEvent, scroll: &mut u16, visible: u16, total: u16) -> HelpOutcome {
    if !is_press(key) {
        return HelpOutcome::None;
    }
    let page = visible.max(1);
    let last = total.saturating_sub(visible);
    *scroll = match (key.code, typed_char(key)) {
        (KeyCode::Esc, _) | (_, Some('q')) => return HelpOutcome::Close,
        (KeyCode::Down, _) | (_, Some('j')) => scroll.saturating_add(1),
        (KeyCode::Up, _) | (_, Some('k')) => scroll.saturating_sub(1),
        (KeyCode::PageDown, _) => scroll.saturating_add(page),
        (KeyCode::PageUp, _) => scroll.saturating_sub(page),
        (KeyCode::Home, _) | (_, Some('g')) => 0,
        (KeyCode::End, _) | (_, Some('G')) => last,
        _ => *scroll,
    }
    .min(last);
    HelpOutcome::None
}

/// The `?` overlay: every hint grouped, then extra lines (the log file's path), in a centered
/// popup that scrolls when the list is taller than the screen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Help {
    hints: Vec<Hint>,
    extra: Vec<String>,
    scroll: u16,
    /// How many rows the last drawing could show, and how many it had: for paging and clamping.
    visible: u16,
    total: u16,
}

impl Help {
    pub fn new(hints: Vec<Hint>, extra: Vec<String>) -> Self {
        Help {
            hints,
            extra,
            scroll: 0,
            visible: 0,
            total: 0,
        }
    }

    /// The first row shown.
    pub fn scroll(&self) -> u16 {
        self.scroll
    }

    /// Esc, `?` and `q` close; `j`/`k`, arrows, PgUp/PgDn, `g`/`G` scroll.
    pub fn handle_key(&mut self, key: KeyEvent) -> HelpOutcome {
        if is_press(&key) && typed_char(&key) == Some('?') {
            return HelpOutcome::Close;
        }
        scroll_key(&key, &mut self.scroll, self.visible, self.total)
    }

    /// The last first row that still fills the popup, as of the last drawing.
    fn max_scroll(&self) -> u16 {
        self.total.saturating_sub(self.visible)
    }

    /// The overlay's content: each group's title, its hints in two aligned columns, a blank line
    /// between groups, then the extra lines.
    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let key_width = self.hints.iter().map(|h| h.keys.width()).max().unwrap_or(0);
        let mut groups: Vec<&str> = Vec::new();
        for hint in &self.hints {
            if !groups.contains(&hint.group.as_str()) {
                groups.push(&hint.group);
            }
        }
        let mut lines = Vec::new();
        for group in groups {
            if !lines.is_empty() {
                lines.push(Line::default());
            }
            lines.push(Line::styled(group.to_owned(), theme.title));
            for hint in self.hints.iter().filter(|h| h.group == group) {
                let pad = key_width - hint.keys.width();
                lines.push(Line::from(vec![
                    Span::raw("  "),
                    Span::styled(hint.keys.clone(), theme.key),
                    Span::raw(" ".repeat(pad + 2)),
                    Span::styled(hint.label.clone(), theme.base),
                ]));
            }
        }
        if !self.extra.is_empty() {
            lines.push(Line::default());
            lines.extend(
                self.extra
                    .iter()
                    .map(|l| Line::styled(l.clone(), theme.muted)),
            );
        }
        lines
    }

    /// Draws the popup centered in `area`. Takes `&mut self` to remember how many rows fit, which
    /// scrolling needs.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let lines = self.lines(theme);
        let content_width = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
        let width = (content_width + 4).max(40).min(area.width);
        let height = (lines.len() as u16 + 2).min(area.height);
        let popup = Popup::new(width, height).area(area);

        self.visible = height.saturating_sub(2);
        self.total = lines.len() as u16;
        self.scroll = self.scroll.min(self.max_scroll());
        let more = if self.scroll < self.max_scroll() {
            " ↓ more "
        } else {
            ""
        };

        let block = page_block(" Help ".to_owned(), more, theme);
        Clear.render(popup, buf);
        Paragraph::new(lines)
            .block(block)
            .scroll((self.scroll, 0))
            .render(popup, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{assert_styled, blank, key, row_text};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn hints() -> Vec<Hint> {
        vec![
            Hint::new("j/k", "move", "Navigation"),
            Hint::new("g/G", "first/last", "Navigation"),
            Hint::new("Enter", "open", "Navigation"),
            Hint::new("n", "new nexus", "Nexus"),
            Hint::new("x", "delete", "Nexus"),
            Hint::new(":", "command line", "General"),
            Hint::new("?", "help", "General"),
            Hint::new("q", "quit", "General"),
        ]
    }

    fn help() -> Help {
        Help::new(
            hints(),
            vec!["Log file: /home/ana/.local/state/taxdash/taxdash.log".into()],
        )
    }

    #[test]
    fn overlay_snapshot() {
        let theme = Theme::default();
        let mut terminal = Terminal::new(TestBackend::new(70, 20)).unwrap();
        let mut help = help();
        terminal
            .draw(|f| help.render(f.area(), f.buffer_mut(), &theme))
            .unwrap();
        insta::assert_snapshot!(terminal.backend());
        let buf = terminal.backend().buffer();
        assert_styled(buf, "Navigation", theme.title);
        assert_styled(buf, "Enter", theme.key);
        assert_styled(buf, "Log file:", theme.muted);
    }

    #[test]
    fn scrolls_within_a_short_screen_and_closes() {
        let theme = Theme::default();
        let mut help = help();
        let mut buf = blank(60, 8);
        help.render(buf.area, &mut buf, &theme);
        assert!(row_text(&buf, 7).contains("↓ more"));
        help.handle_key(key(KeyCode::Char('G')));
        let last = help.scroll();
        assert!(last > 0);
        help.handle_key(key(KeyCode::Char('j')));
        assert_eq!(help.scroll(), last, "scrolling stops at the end");
        help.handle_key(key(KeyCode::Char('g')));
        assert_eq!(help.scroll(), 0);
        for close in [KeyCode::Esc, KeyCode::Char('?'), KeyCode::Char('q')] {
            assert_eq!(help.handle_key(key(close)), HelpOutcome::Close);
        }
    }

    #[test]
    fn footer_keeps_what_fits_in_order() {
        let theme = Theme::default();
        let line = footer_line(&hints(), 0, 200, &theme);
        assert!(
            line.to_string()
                .starts_with("j/k move  g/G first/last  Enter open")
        );
        // "j/k move" (8) + "  g/G first/last" (16) passes 22 columns, "  Enter open" (12) fits.
        let narrow = footer_line(&hints(), 0, 22, &theme).to_string();
        assert_eq!(narrow, "j/k move  Enter open");
        assert!(narrow.width() <= 22);
        let line = footer_line(&hints(), 0, 8, &theme);
        assert_eq!(line.spans[0].style, theme.key);
        assert_eq!(line.spans[1].style, theme.muted);
    }

    #[test]
    fn footer_keeps_help_and_quit_and_the_pane_hints_give_way() {
        let theme = Theme::default();
        // "? help  q quit" is 14; "j/k move  " and "Enter open  " fit in the 22 left of 36.
        let line = footer_line(&hints(), 2, 36, &theme).to_string();
        assert_eq!(line, "j/k move  Enter open  ? help  q quit");
        let line = footer_line(&hints(), 2, 16, &theme).to_string();
        assert_eq!(line, "? help  q quit");
        // Narrower than both: quit stays.
        let line = footer_line(&hints(), 2, 10, &theme).to_string();
        assert_eq!(line, "q quit");
        for width in 0..120 {
            let line = footer_line(&hints(), 2, width, &theme).to_string();
            assert!(line.width() <= usize::from(width), "{width}: {line}");
            if width >= 14 {
                assert!(line.ends_with("? help  q quit"), "{width}: {line}");
            }
        }
    }
}
