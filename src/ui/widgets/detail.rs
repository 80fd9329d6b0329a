//! A grouped key/value view of one record: titled sections of `label  value` rows, labels
//! aligned in one column, long values wrapped under their own column, absent values shown as
//! `—`. Scrolls line by line (`j`/`k`), by screen, and to either end.
//!
//! ```text
//! Registration
//! ID            reg_01HZX3
//! State         California
//! Filing        Monthly, due on the 20th of the following month, paid through
//!               the state portal
//!
//! Dates
//! Registered    2025-01-02
//! Deregistered  —
//! ```

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

use super::scroll_view::{ScrollState, render_lines};
use crate::ui::text::{MISSING, pad_to, width, wrap_line};
use crate::ui::theme::Theme;

/// Cells between the label column and the values.
const GAP: usize = 2;

/// One titled group of rows. A row's value is `None` when the record has none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section<'a> {
    pub title: Cow<'a, str>,
    pub rows: Vec<(Cow<'a, str>, Option<Line<'a>>)>,
}

impl<'a> Section<'a> {
    pub fn new(title: impl Into<Cow<'a, str>>) -> Self {
        Section {
            title: title.into(),
            rows: Vec::new(),
        }
    }

    /// Adds a row with a value.
    #[must_use]
    pub fn row(mut self, label: impl Into<Cow<'a, str>>, value: impl Into<Line<'a>>) -> Self {
        self.rows.push((label.into(), Some(value.into())));
        self
    }

    /// Adds a row whose value may be absent (shown as `—`).
    #[must_use]
    pub fn maybe<V: Into<Line<'a>>>(
        mut self,
        label: impl Into<Cow<'a, str>>,
        value: Option<V>,
    ) -> Self {
        self.rows.push((label.into(), value.map(Into::into)));
        self
    }
}

/// The detail view: sections drawn with a theme. Rendered with a [`DetailState`].
#[derive(Debug, Clone)]
pub struct Detail<'a> {
    pub sections: Vec<Section<'a>>,
    theme: &'a Theme,
}

impl<'a> Detail<'a> {
    pub fn new(theme: &'a Theme, sections: Vec<Section<'a>>) -> Self {
        Detail { sections, theme }
    }

    /// The view as lines for a given width: what is drawn before scrolling.
    pub fn lines(&self, area_width: u16) -> Vec<Line<'static>> {
        let area_width = usize::from(area_width);
        let label_width = self
            .sections
            .iter()
            .flat_map(|s| s.rows.iter().map(|(label, _)| width(label)))
            .max()
            .unwrap_or(0)
            .min(area_width / 3);
        let value_width = area_width.saturating_sub(label_width + GAP).max(1);
        let indent = " ".repeat(label_width + GAP);
        let missing = Line::from(Span::styled(MISSING, self.theme.muted));

        let mut out = Vec::new();
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                out.push(Line::default());
            }
            if !section.title.is_empty() {
                let title = section.title.clone().into_owned();
                out.push(Line::styled(title, self.theme.title));
            }
            for (label, value) in &section.rows {
                let value = value.as_ref().unwrap_or(&missing);
                let label = pad_to(label, label_width, Alignment::Left) + &" ".repeat(GAP);
                for (n, piece) in wrap_line(value, value_width).into_iter().enumerate() {
                    let lead = if n == 0 {
                        Span::styled(label.clone(), self.theme.muted)
                    } else {
                        Span::raw(indent.clone())
                    };
                    let mut spans = vec![lead];
                    spans.extend(piece.spans);
                    out.push(Line::from(spans).style(self.theme.base));
                }
            }
        }
        out
    }
}

/// How far a detail view is scrolled (see [`ScrollState`]).
pub type DetailState = ScrollState;

impl StatefulWidget for Detail<'_> {
    type State = DetailState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut DetailState) {
        if area.is_empty() {
            return;
        }
        let lines = self.lines(area.width);
        render_lines(&lines, area, buf, self.theme.base, state);
    }
}

/// A row's value in a detail: a line, or nothing when the record leaves it out.
pub type Cell = Option<Line<'static>>;

/// The value of an optional field, in words.
pub fn opt<T: ToString>(v: Option<&T>) -> Cell {
    v.map(|v| Line::from(v.to_string()))
}

/// A point in time, as every screen writes it (`2026-11-26 22:13 UTC`).
pub fn when(v: Option<&crate::model::Timestamp>) -> Cell {
    v.map(|t| Line::from(crate::ui::text::timestamp(t)))
}

/// A value the record always has.
pub fn plain(v: impl ToString) -> Cell {
    Some(Line::from(v.to_string()))
}

/// `yes` or `no`, when the record says.
pub fn flag(v: Option<bool>) -> Cell {
    v.map(|b| Line::from(crate::model::format::yes_no(b)))
}

/// A section from rows whose values may be absent (absent ones are left out).
pub fn section(
    title: impl Into<Cow<'static, str>>,
    rows: Vec<(&'static str, Cell)>,
) -> Section<'static> {
    rows.into_iter()
        .fold(Section::new(title), |s, (label, value)| {
            s.maybe(label, value)
        })
}

#[cfg(test)]
mod tests {
    use ratatui::style::Stylize;

    use super::*;
    use crate::ui::text::buffer_lines;

    fn detail(theme: &Theme) -> Detail<'_> {
        Detail::new(
            theme,
            vec![
                Section::new("Registration")
                    .row("ID", "reg_01")
                    .row("State", "California".green())
                    .row("Filing", "Monthly, due on the 20th of the following month"),
                Section::new("Dates")
                    .row("Registered", "2025-01-02")
                    .maybe("Deregistered", None::<&str>),
            ],
        )
    }

    fn draw(theme: &Theme, state: &mut DetailState, w: u16, h: u16) -> (Vec<String>, Buffer) {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        detail(theme).render(area, &mut buf, state);
        let lines = buffer_lines(&buf)
            .into_iter()
            .map(|l| l.trim_end().to_owned())
            .collect();
        (lines, buf)
    }

    #[test]
    fn aligns_labels_wraps_values_and_marks_missing_ones() {
        let theme = Theme::default();
        let mut state = DetailState::default();
        let (lines, buf) = draw(&theme, &mut state, 44, 12);
        assert_eq!(
            lines,
            [
                "Registration",
                "ID            reg_01",
                "State         California",
                "Filing        Monthly, due on the 20th of",
                "              the following month",
                "",
                "Dates",
                "Registered    2025-01-02",
                "Deregistered  —",
                "",
                "",
                "",
            ]
        );
        assert_eq!(buf[(14, 8)].fg, theme.muted.fg.unwrap(), "— is muted");
        assert_eq!(buf[(14, 2)].fg, ratatui::style::Color::Green);
        assert!(!state.has_more_below());
    }

    #[test]
    fn scrolls_within_the_content() {
        let theme = Theme::default();
        let mut state = DetailState::default();
        let (lines, _) = draw(&theme, &mut state, 44, 4);
        assert_eq!(lines[0], "Registration");
        assert!(state.has_more_below());
        state.down(2);
        let (lines, _) = draw(&theme, &mut state, 44, 4);
        assert_eq!(lines[0], "State         California");
        state.bottom();
        let (lines, _) = draw(&theme, &mut state, 44, 4);
        assert_eq!(lines[3], "Deregistered  —");
        state.down(10);
        assert_eq!(state.scroll(), 5, "clamped to the last screen");
        state.page_up();
        state.up(3);
        assert_eq!(state.scroll(), 0);
    }

    #[test]
    fn narrow_areas_cap_the_label_column() {
        let theme = Theme::default();
        let mut state = DetailState::default();
        let (lines, _) = draw(&theme, &mut state, 18, 12);
        // Labels get a third of 18 = 6 cells, values the other 10.
        assert_eq!(lines[1], "ID      reg_01");
        assert_eq!(lines[2], "State   California");
        assert!(
            lines.contains(&"Regis…  2025-01-02".to_owned()),
            "{lines:?}"
        );
        assert!(lines.iter().all(|l| width(l) <= 18));
    }
}
