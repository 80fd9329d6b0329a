//! Drawing the portfolio: a table of organizations and their counts, the selected cell marked.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use super::columns::COLUMNS;
use super::{Listing, PortfolioPane};
use crate::model::format::count;
use crate::ui::panes::overview::tiles::Count;
use crate::ui::theme::Theme;
use crate::ui::widgets::pane_block;

/// The columns whose counts call for action today: shown in the alarm colour when not zero.
const URGENT: [&str; 3] = ["overdue", "exposed", "not_adding_up"];

pub(super) fn draw(
    pane: &PortfolioPane,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    focused: bool,
) {
    let reading = pane
        .members
        .iter()
        .filter(|m| !m.reading.is_complete())
        .count();
    let subtitle = match (&pane.listing, reading) {
        (Listing::NotAsked | Listing::Asked(_), _) => "listing the organizations…".to_owned(),
        (Listing::Failed(_), _) => "could not list the organizations".to_owned(),
        (Listing::Listed, 0) => count(pane.members.len() as u64, "organization"),
        (Listing::Listed, n) => format!(
            "{}, {n} being read",
            count(pane.members.len() as u64, "organization")
        ),
    };
    let block = pane_block("Portfolio", &subtitle, theme, focused);
    if let Listing::Failed(why) = &pane.listing {
        let text = Paragraph::new(Span::styled(why.clone(), theme.error))
            .wrap(Wrap { trim: true })
            .block(block);
        frame.render_widget(text, area);
        return;
    }
    let row_at = pane.row();
    let mut header = vec![Cell::from("Organization")];
    header.extend(COLUMNS.iter().map(|c| Cell::from(c.heading)));
    header.push(Cell::from("Status"));
    let rows = pane.members.iter().enumerate().map(|(r, m)| {
        let selected = |c: usize| focused && r == row_at && pane.column == c;
        let style = |c: usize, base| if selected(c) { theme.selection } else { base };
        let mut cells = vec![Cell::from(Span::styled(
            m.organization.name.clone(),
            style(0, theme.base),
        ))];
        for (c, (column, (count, _))) in COLUMNS.iter().zip(&m.counts.cells).enumerate() {
            let alarm = URGENT.contains(&column.key) && count.value().is_some_and(|n| n > 0);
            let base = match count {
                Count::Failed(_) => theme.warning,
                _ if alarm => theme.error,
                Count::Exact(0) => theme.muted,
                _ => theme.base,
            };
            cells.push(Cell::from(
                Line::from(Span::styled(count.label(), style(c + 1, base))).right_aligned(),
            ));
        }
        let (status, status_style) = match m.counts.failure() {
            Some(why) => (format!("cannot be read: {why}"), theme.error),
            None if !m.reading.is_complete() => ("reading…".to_owned(), theme.muted),
            None => ("read".to_owned(), theme.status_good),
        };
        cells.push(Cell::from(Span::styled(status, status_style)));
        Row::new(cells)
    });
    let longest = pane
        .members
        .iter()
        .map(|m| m.organization.name.chars().count())
        .max()
        .unwrap_or(0);
    #[expect(clippy::cast_possible_truncation, reason = "clamped to 32")]
    let mut widths = vec![Constraint::Length(longest.clamp(12, 32) as u16)];
    widths.extend(
        COLUMNS
            .iter()
            .map(|c| Constraint::Length(c.heading.len() as u16)),
    );
    widths.push(Constraint::Fill(1));
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme.table_header))
        .column_spacing(2)
        .block(block);
    frame.render_widget(table, area);
}
