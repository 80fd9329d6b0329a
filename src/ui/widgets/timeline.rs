//! A vertical timeline: one entry per event, oldest first, each with its time, what happened, a
//! status on the right and lines of detail under it, joined by a rule down the left. Scrolls
//! line by line, by screen and to either end, like the detail view.
//!
//! ```text
//! ● 2026-01-01 00:00 UTC  Period started                         NOT_EXPOSED
//! │   Sales $0.00 · 0 transactions
//! │   A new measurement period began.
//! │
//! ● 2026-03-04 09:12 UTC  Threshold met                              EXPOSED
//!     Sales $101,250.00 · 214 transactions
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

use super::scroll_view::{ScrollState, render_lines};
use crate::ui::text::{width, wrap_line};
use crate::ui::theme::Theme;

/// Cells the detail lines are indented by, the rule included.
const INDENT: usize = 4;

/// One event of the timeline.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimelineEntry {
    /// When, as shown: `2026-03-04 09:12 UTC`.
    pub when: String,
    /// What happened, in words.
    pub what: String,
    /// A status shown at the right end of the first line.
    pub status: Option<Span<'static>>,
    /// Lines under the first, wrapped to the width.
    pub details: Vec<Line<'static>>,
}

/// The timeline of `entries`, drawn with `theme`.
pub struct Timeline<'a> {
    theme: &'a Theme,
    entries: &'a [TimelineEntry],
    /// What shows when there are no entries.
    empty: &'a str,
}

impl<'a> Timeline<'a> {
    pub fn new(theme: &'a Theme, entries: &'a [TimelineEntry]) -> Self {
        Timeline {
            theme,
            entries,
            empty: "Nothing has happened yet.",
        }
    }

    /// The same timeline, saying `text` when it has no entries.
    pub fn empty_text(mut self, text: &'a str) -> Self {
        self.empty = text;
        self
    }

    /// Every line of the timeline at `area_width` columns.
    pub fn lines(&self, area_width: u16) -> Vec<Line<'static>> {
        let total = usize::from(area_width);
        let theme = self.theme;
        if self.entries.is_empty() {
            return vec![Line::from(Span::styled(self.empty.to_owned(), theme.muted))];
        }
        let mut out = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            let last = i + 1 == self.entries.len();
            let head = vec![
                Span::styled("● ", theme.accent),
                Span::styled(entry.when.clone(), theme.muted),
                Span::raw("  "),
                Span::styled(entry.what.clone(), theme.title),
            ];
            let used: usize = head.iter().map(|s| width(&s.content)).sum();
            let mut first = head;
            if let Some(status) = &entry.status {
                let status_width = width(&status.content);
                let gap = total.saturating_sub(used + status_width).max(2);
                first.push(Span::raw(" ".repeat(gap)));
                first.push(status.clone());
            }
            out.push(Line::from(first));
            let rule = if last { "    " } else { "│   " };
            let inner = total.saturating_sub(INDENT).max(1);
            for detail in &entry.details {
                for piece in wrap_line(detail, inner) {
                    let mut spans = vec![Span::styled(rule, theme.border)];
                    spans.extend(piece.spans);
                    out.push(Line::from(spans));
                }
            }
            if !last {
                out.push(Line::from(Span::styled("│", theme.border)));
            }
        }
        out
    }
}

/// How far a timeline is scrolled (see [`ScrollState`]).
pub type TimelineState = ScrollState;

impl StatefulWidget for Timeline<'_> {
    type State = TimelineState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut TimelineState) {
        if area.is_empty() {
            return;
        }
        let lines = self.lines(area.width);
        render_lines(&lines, area, buf, self.theme.base, state);
        let right = area.right() - 1;
        if state.has_more_above() {
            buf[(right, area.y)]
                .set_symbol("▲")
                .set_style(self.theme.muted);
        }
        if state.has_more_below() {
            buf[(right, area.bottom() - 1)]
                .set_symbol("▼")
                .set_style(self.theme.muted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::keymap::Action;

    fn entry(what: &str, status: &str) -> TimelineEntry {
        TimelineEntry {
            when: "2026-01-01 00:00 UTC".into(),
            what: what.into(),
            status: Some(Span::raw(status.to_owned())),
            details: vec![Line::from("Sales $1.00 · 1 transaction")],
        }
    }

    #[test]
    fn entries_are_joined_by_a_rule_and_statuses_sit_right() {
        let theme = Theme::default();
        let entries = [
            entry("Period started", "NOT_EXPOSED"),
            entry("Exposed", "EXPOSED"),
        ];
        let lines: Vec<String> = Timeline::new(&theme, &entries)
            .lines(60)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert!(lines[0].starts_with("● 2026-01-01 00:00 UTC  Period started"));
        assert!(
            lines[0].ends_with("NOT_EXPOSED") && width(&lines[0]) == 60,
            "{lines:?}"
        );
        assert_eq!(lines[1], "│   Sales $1.00 · 1 transaction");
        assert_eq!(lines[2], "│");
        assert!(lines[3].contains("Exposed"));
        assert_eq!(
            lines[4], "    Sales $1.00 · 1 transaction",
            "no rule after the last"
        );
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn scrolling_stops_at_the_ends() {
        let theme = Theme::default();
        let entries: Vec<TimelineEntry> = (0..10).map(|_| entry("Exposed", "EXPOSED")).collect();
        let mut state = TimelineState::default();
        let mut buf = Buffer::empty(Rect::new(0, 0, 50, 5));
        Timeline::new(&theme, &entries).render(buf.area, &mut buf, &mut state);
        assert!(state.navigate(Action::Bottom));
        assert_eq!(state.scroll(), 29 - 5);
        state.navigate(Action::Down);
        assert_eq!(state.scroll(), 24);
        state.navigate(Action::Top);
        state.navigate(Action::Up);
        assert_eq!(state.scroll(), 0);
        assert!(!state.navigate(Action::Open));
    }
}
