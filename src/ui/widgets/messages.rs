//! The last messages of the session, whole: the footer shows one message on one line and cuts a
//! long one; `:messages` opens this overlay, which lists the last [`MESSAGES_KEPT`] with their
//! times and levels, newest first, wrapped to the width.

use std::collections::VecDeque;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::flash::FlashLevel;
use super::help::{HelpOutcome, page_block};
use super::wrap::wrap;
use crate::ui::theme::Theme;

/// How many messages the log keeps.
pub const MESSAGES_KEPT: usize = 50;

/// One message as it was shown: when (`HH:MM:SS`, local time), how much it mattered, and its
/// text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub time: String,
    pub level: FlashLevel,
    pub text: String,
    /// How many times in a row it was shown (the time is the last one's).
    pub times: u32,
}

/// The last [`MESSAGES_KEPT`] messages, oldest dropped first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageLog {
    messages: VecDeque<Message>,
}

impl MessageLog {
    /// Records a message shown at `time` (`HH:MM:SS`). The same message again right after
    /// itself is counted, not listed twice.
    pub fn push(&mut self, time: impl Into<String>, level: FlashLevel, text: impl Into<String>) {
        let text = text.into();
        if let Some(last) = self.messages.back_mut()
            && last.level == level
            && last.text == text
        {
            last.times += 1;
            last.time = time.into();
            return;
        }
        if self.messages.len() == MESSAGES_KEPT {
            self.messages.pop_front();
        }
        self.messages.push_back(Message {
            time: time.into(),
            level,
            text,
            times: 1,
        });
    }

    /// Records a message shown now.
    pub fn push_now(&mut self, level: FlashLevel, text: impl Into<String>) {
        let time = chrono::Local::now().format("%H:%M:%S").to_string();
        self.push(time, level, text);
    }

    /// The messages, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Message> {
        self.messages.iter().rev()
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// The `:messages` overlay over a copy of the log taken when it opened; scrolls like the help.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessagesView {
    messages: Vec<Message>,
    scroll: u16,
    visible: u16,
    total: u16,
}

impl MessagesView {
    pub fn new(log: &MessageLog) -> Self {
        MessagesView {
            messages: log.newest_first().cloned().collect(),
            ..MessagesView::default()
        }
    }

    /// The first row shown.
    pub fn scroll(&self) -> u16 {
        self.scroll
    }

    /// Esc and `q` close; `j`/`k`, arrows, PgUp/PgDn, `g`/`G` scroll.
    pub fn handle_key(&mut self, key: KeyEvent) -> HelpOutcome {
        crate::ui::widgets::help::scroll_key(&key, &mut self.scroll, self.visible, self.total)
    }

    /// Each message as `12:34:56 error  text…`, the text wrapped under itself to `width`.
    fn lines(&self, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        if self.messages.is_empty() {
            return vec![Line::styled("No messages yet.", theme.muted)];
        }
        // "12:34:56 error  ": the time, the level padded to the longest, two spaces.
        let indent = 8 + 1 + 5 + 2;
        let text_width = width.saturating_sub(indent as u16).max(10);
        let mut lines = Vec::new();
        for message in &self.messages {
            let (label, style) = level_label(message.level, theme);
            let text = if message.times > 1 {
                format!("{} (×{})", message.text, message.times)
            } else {
                message.text.clone()
            };
            for (i, part) in wrap(&text, text_width).into_iter().enumerate() {
                let lead = if i == 0 {
                    vec![
                        Span::styled(format!("{} ", message.time), theme.muted),
                        Span::styled(format!("{label:<5}  "), style),
                    ]
                } else {
                    vec![Span::raw(" ".repeat(indent))]
                };
                let mut spans = lead;
                spans.push(Span::styled(part, theme.base));
                lines.push(Line::from(spans));
            }
        }
        lines
    }

    /// Draws the overlay over the whole of `area`, remembering how many rows fit.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let popup = area;
        // Borders and the padding on either side.
        let lines = self.lines(popup.width.saturating_sub(4), theme);
        self.visible = popup.height.saturating_sub(2);
        self.total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        let last = self.total.saturating_sub(self.visible);
        self.scroll = self.scroll.min(last);
        let more = if self.scroll < last { " ↓ more " } else { "" };
        let title = format!(" Messages (last {MESSAGES_KEPT}, newest first) ");
        let block = page_block(title, more, theme);
        Clear.render(popup, buf);
        Paragraph::new(lines)
            .block(block)
            .style(theme.base)
            .scroll((self.scroll, 0))
            .render(popup, buf);
    }
}

/// The level as a word, in the level's style.
fn level_label(level: FlashLevel, theme: &Theme) -> (&'static str, Style) {
    match level {
        FlashLevel::Info => ("info", theme.info),
        FlashLevel::Success => ("done", theme.success),
        FlashLevel::Error => ("error", theme.error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, key, row_text};
    use crossterm::event::KeyCode;

    const LONG: &str = "Approving filings in bulk needs the Tenanted API: set api = \"tenanted\" \
                        in the profile. The list works with both APIs.";

    fn log() -> MessageLog {
        let mut log = MessageLog::default();
        log.push("09:15:02", FlashLevel::Info, "Refreshed");
        log.push("09:15:40", FlashLevel::Error, LONG);
        log
    }

    #[test]
    fn lists_the_newest_first_with_times_and_levels_wrapped_whole() {
        let theme = Theme::default();
        let mut view = MessagesView::new(&log());
        let mut buf = blank(60, 12);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert_eq!(
            row_text(&buf, 1),
            "│ 09:15:40 error  Approving filings in bulk needs the      │"
        );
        assert!(text.contains("09:15:02 info   Refreshed"), "{text}");
        // Every word of the long message is on screen, in order, continuation lines indented.
        let body: Vec<&str> = text
            .lines()
            .skip(1)
            .take_while(|l| !l.contains("09:15:02"))
            .flat_map(|l| l.trim_matches(|c| c == '│' || c == ' ').split_whitespace())
            .skip(2)
            .collect();
        assert_eq!(body.join(" "), LONG);
        assert!(
            row_text(&buf, 2).starts_with("│                 Tenanted"),
            "{text}"
        );
        assert_styled(&buf, "error", theme.error);
        assert_styled(&buf, "09:15:40", theme.muted);
    }

    #[test]
    fn the_same_message_again_is_counted() {
        let mut log = log();
        log.push("09:16:00", FlashLevel::Error, LONG);
        log.push("09:16:05", FlashLevel::Error, LONG);
        assert_eq!(log.len(), 2);
        let newest = log.newest_first().next().unwrap();
        assert_eq!((newest.time.as_str(), newest.times), ("09:16:05", 3));
        let mut view = MessagesView::new(&log);
        let mut buf = blank(60, 12);
        view.render(buf.area, &mut buf, &Theme::default());
        assert!(all_text(&buf).contains("APIs. (×3)"), "{}", all_text(&buf));
        // Another message in between starts a new entry.
        log.push("09:17:00", FlashLevel::Info, "Refreshed");
        log.push("09:17:01", FlashLevel::Error, LONG);
        assert_eq!(log.len(), 4);
    }

    #[test]
    fn keeps_the_last_fifty() {
        let mut log = MessageLog::default();
        for i in 0..60 {
            log.push("10:00:00", FlashLevel::Info, format!("message {i}"));
        }
        assert_eq!(log.len(), MESSAGES_KEPT);
        assert_eq!(log.newest_first().next().unwrap().text, "message 59");
        assert_eq!(log.newest_first().last().unwrap().text, "message 10");
    }

    #[test]
    fn scrolls_and_closes() {
        let mut log = MessageLog::default();
        for i in 0..30 {
            log.push("10:00:00", FlashLevel::Info, format!("message {i}"));
        }
        let mut view = MessagesView::new(&log);
        let mut buf = blank(50, 10);
        view.render(buf.area, &mut buf, &Theme::default());
        assert!(row_text(&buf, 9).contains("↓ more"));
        view.handle_key(key(KeyCode::Char('G')));
        assert_eq!(view.scroll(), 30 - 8);
        view.render(buf.area, &mut buf, &Theme::default());
        assert!(
            all_text(&buf).contains("message 0"),
            "the oldest at the end"
        );
        view.handle_key(key(KeyCode::Char('j')));
        assert_eq!(view.scroll(), 22, "scrolling stops at the end");
        view.handle_key(key(KeyCode::Char('g')));
        assert_eq!(view.scroll(), 0);
        assert_eq!(view.handle_key(key(KeyCode::Esc)), HelpOutcome::Close);
        assert_eq!(view.handle_key(key(KeyCode::Char('q'))), HelpOutcome::Close);
    }

    #[test]
    fn says_when_there_is_nothing_yet() {
        let mut view = MessagesView::new(&MessageLog::default());
        let mut buf = blank(40, 6);
        view.render(buf.area, &mut buf, &Theme::default());
        assert!(all_text(&buf).contains("No messages yet."));
    }
}
