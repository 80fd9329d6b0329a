//! Drawing a paged table: header, the visible rows only, and the status line.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, Table, Widget};

use std::ops::Range;

use super::{Column, ColumnFit, PagedTable, fit_widths};
use crate::ui::text::{self, ELLIPSIS, thousands, truncate, truncate_line};
use crate::ui::theme::Theme;

/// Cells between columns.
const SPACING: u16 = 1;

/// The cells left of a flagged table for its flags.
pub const GUTTER: u16 = 2;

/// The flag of a row changed since the previous snapshot.
pub const FLAG: &str = "Δ";

impl<R> PagedTable<R> {
    /// Draws the table into `area`: a header row with the sort indicator (`▲` ascending, `▼`
    /// descending), the visible rows, and a status line (`row 1,234 of 1,000,000`, `loading…`,
    /// `no rows`, and `· failed to load` when the cursor's page could not be fetched). Only the
    /// rows on screen are built, whatever the total.
    ///
    /// When the area is too narrow for every column, whole columns are hidden by priority (see
    /// [`fit_widths`]) and the header counts them at its right: `+2 columns`, or `+2` where the
    /// long form would cost one more column. Kept columns (amounts) are as wide as their widest
    /// cell on screen.
    ///
    /// The selected row takes `theme.selection` (dimmed when the table is not `focused`); rows
    /// whose page is on its way show `…` in the muted style, rows whose page failed `✗`.
    /// Remembers the body height, which keeps the cursor on screen and tells
    /// [`PagedTable::wants`] which rows are visible.
    pub fn render(
        &mut self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        columns: &[Column<R>],
        focused: bool,
    ) {
        if area.is_empty() {
            return;
        }
        buf.set_style(area, theme.base);
        let status_area = Rect {
            y: area.bottom() - 1,
            height: 1,
            ..area
        };
        if area.height < 2 {
            self.hits = None;
            self.render_status(status_area, buf, theme, &[], false);
            return;
        }
        let table_area = Rect {
            height: area.height - 1,
            ..area
        };
        let body_height = table_area.height - 1;
        self.viewport = body_height.max(1);
        self.follow_cursor();

        let visible = match self.total {
            Some(total) => self.offset..(self.offset + u64::from(body_height)).min(total),
            None => 0..0,
        };
        let fits: Vec<ColumnFit> = columns
            .iter()
            .map(|c| self.column_fit(c, visible.clone(), theme))
            .collect();
        let (widths, marker) = fit_with_marker(&fits, table_area.width);
        let hidden: Vec<&str> = columns
            .iter()
            .zip(&widths)
            .filter(|&(_, &w)| w == 0)
            .map(|(c, _)| c.title)
            .collect();
        self.render_status(status_area, buf, theme, &hidden, body_height > 0);
        let shown: Vec<(&Column<R>, u16)> =
            columns.iter().zip(widths).filter(|&(_, w)| w > 0).collect();
        self.drawn = shown.iter().map(|(c, _)| c.title).collect();

        let header =
            Row::new(shown.iter().map(|&(c, w)| self.header_cell(c, w))).style(theme.table_header);
        let body_area = Rect {
            y: table_area.y + 1,
            height: body_height,
            ..table_area
        };
        let mut x = table_area.x;
        let mut hit_columns = Vec::with_capacity(shown.len());
        for &(c, w) in &shown {
            let key = if c.sortable() { c.key } else { "" };
            hit_columns.push((x, w, key));
            x = x.saturating_add(w).saturating_add(SPACING);
        }
        self.hits = Some(super::Hits {
            header_y: table_area.y,
            columns: hit_columns,
            body: body_area,
        });
        let rows = match self.total {
            None => {
                let line = self.spinner.loading(self.noun, theme);
                line.render(body_area, buf);
                Vec::new()
            }
            Some(0) => {
                let text = format!("no {}", self.noun);
                Line::styled(text, theme.muted).render(body_area, buf);
                Vec::new()
            }
            Some(total) => {
                let end = (self.offset + u64::from(body_height)).min(total);
                (self.offset..end)
                    .map(|i| self.body_row(i, &shown, theme, focused))
                    .collect()
            }
        };
        let constraints = shown.iter().map(|&(_, w)| Constraint::Length(w));
        Table::new(rows, constraints)
            .header(header)
            .column_spacing(SPACING)
            .render(table_area, buf);
        if let Some(marker) = marker {
            let width = text::width(&marker) as u16;
            if width <= table_area.width {
                let at = Rect {
                    x: table_area.right() - width,
                    width,
                    height: 1,
                    ..table_area
                };
                Line::styled(marker, theme.muted).render(at, buf);
            }
        }
    }

    /// [`PagedTable::render`] with a gutter of [`GUTTER`] cells on the left, where each
    /// visible row that `flagged` holds shows [`FLAG`] (rows changed since the previous
    /// snapshot). The gutter is drawn only when the area has room for it and a row.
    pub fn render_flagged(
        &mut self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        columns: &[Column<R>],
        focused: bool,
        flagged: &dyn Fn(&R) -> bool,
    ) {
        if area.width <= GUTTER * 4 || area.height < 3 {
            self.render(area, buf, theme, columns, focused);
            return;
        }
        buf.set_style(area, theme.base);
        let inner = Rect {
            x: area.x + GUTTER,
            width: area.width - GUTTER,
            ..area
        };
        self.render(inner, buf, theme, columns, focused);
        let Some(total) = self.total else {
            return;
        };
        let end = (self.offset + u64::from(self.viewport)).min(total);
        for (k, index) in (self.offset..end).enumerate() {
            let Ok(k) = u16::try_from(k) else { break };
            let y = area.y + 1 + k;
            if y >= area.bottom() - 1 {
                break;
            }
            if self.row(index).is_some_and(flagged) {
                buf.set_string(area.x, y, FLAG, theme.warning.add_modifier(Modifier::BOLD));
            }
        }
    }

    /// What the fitting needs of `column`: its content is the widest of its title (with the sort
    /// arrow) and its cells among the rows `visible` (0 while none is loaded). A kept or whole
    /// column is at least that wide, so an amount or a code is never cut.
    fn column_fit(&self, column: &Column<R>, visible: Range<u64>, theme: &Theme) -> ColumnFit {
        let mut width = column.width;
        let sorted = self
            .sort
            .is_some_and(|s| s.key == column.key && column.sortable());
        let title = text::width(column.title) + if sorted { 2 } else { 0 };
        let widest = visible
            .filter_map(|i| self.row(i))
            .map(|row| column.cell.line(row, theme, &self.judging).width())
            .max();
        let full = u16::try_from(title.max(widest.unwrap_or(0))).unwrap_or(u16::MAX);
        if column.keep || column.whole {
            width.min = width.min.max(full);
            if width.max > 0 {
                width.max = width.max.max(width.min);
            }
        }
        ColumnFit {
            width,
            priority: column.priority,
            keep: column.keep,
            content: if widest.is_some() { full } else { 0 },
        }
    }

    /// A column title, cut to the width, with `▲`/`▼` when the table is sorted by it.
    fn header_cell<'a>(&self, column: &'a Column<R>, width: u16) -> Cell<'a> {
        let width = usize::from(width);
        let arrow = match self.sort {
            Some(s) if s.key == column.key && column.sortable() => Some(if s.descending {
                text::DESCENDING
            } else {
                text::ASCENDING
            }),
            _ => None,
        };
        let line = match arrow {
            Some(arrow) if width >= 3 => {
                Line::from(format!("{} {arrow}", truncate(column.title, width - 2)))
            }
            Some(arrow) => Line::from(arrow),
            None => Line::from(truncate(column.title, width)),
        };
        Cell::from(line.alignment(column.align))
    }

    /// Row `index`: its cells when its page is here, else a placeholder (`…` on its way, `✗`
    /// when fetching it failed). The selected row's style is laid over every span, so a cell
    /// that sets its own background (even `reset`) cannot hide the selection.
    fn body_row<'a>(
        &'a self,
        index: u64,
        shown: &[(&Column<R>, u16)],
        theme: &Theme,
        focused: bool,
    ) -> Row<'a> {
        let selected = (index == self.cursor).then(|| selection_style(theme, focused));
        let cells: Vec<Cell<'a>> = if let Some(item) = self.row(index) {
            shown
                .iter()
                .map(|&(c, w)| {
                    let mut line =
                        truncate_line(c.cell.line(item, theme, &self.judging), usize::from(w));
                    if let Some(style) = selected {
                        for span in &mut line.spans {
                            span.style = span.style.patch(style);
                        }
                    }
                    Cell::from(line.alignment(c.align))
                })
                .collect()
        } else {
            let mark = if self.has_failed(index) {
                Span::styled("✗", theme.error)
            } else {
                Span::styled(ELLIPSIS.to_string(), theme.muted)
            };
            vec![Cell::from(Line::from(mark))]
        };
        match selected {
            Some(style) => Row::new(cells).style(style),
            None => Row::new(cells),
        }
    }

    /// `row 1,234 of 1,000,000`, with `· loading…` while the cursor's page is on its way, and
    /// the titles of the columns `hidden` for want of room (`· not shown: Country, Filing`). An
    /// empty list is said where its rows would be (when `body` has room), not again here.
    fn render_status(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        hidden: &[&str],
        body: bool,
    ) {
        let text = match self.total {
            None => "loading…".to_owned(),
            Some(0) if body => String::new(),
            Some(0) => format!("no {}", self.noun),
            Some(total) => {
                let mut text =
                    format!("row {} of {}", thousands(self.cursor + 1), thousands(total));
                if self.is_pending(self.cursor) {
                    text.push_str(" · loading…");
                } else if self.has_failed(self.cursor) {
                    text.push_str(" · failed to load");
                }
                text
            }
        };
        let text = match (hidden.is_empty(), text.is_empty()) {
            (true, _) => text,
            (false, true) => format!("not shown: {}", hidden.join(", ")),
            (false, false) => format!("{text} · not shown: {}", hidden.join(", ")),
        };
        let text = truncate(&text, usize::from(area.width)).into_owned();
        Line::styled(text, theme.muted).render(area, buf);
    }
}

/// How many columns the table could not show, at the right of its header: `+2 columns`, or
/// `+2` where the long form would cost one more column.
fn hidden_marker(hidden: usize, long: bool) -> String {
    match (long, hidden) {
        (true, 1) => "+1 column".to_owned(),
        (true, _) => format!("+{hidden} columns"),
        (false, _) => format!("+{hidden}"),
    }
}

/// Fits the columns into `available` cells, keeping room at the right of the header for the
/// marker of the columns hidden, when some are. Returns the widths and the marker.
fn fit_with_marker(fits: &[ColumnFit], available: u16) -> (Vec<u16>, Option<String>) {
    let hidden_of = |widths: &[u16]| widths.iter().filter(|&&w| w == 0).count();
    let widths = fit_widths(fits, available, SPACING);
    let hidden = hidden_of(&widths);
    if hidden == 0 {
        return (widths, None);
    }
    // The marker takes room, which may hide one more column, which changes the marker: the
    // fewest hidden columns whose marker leaves room for the rest wins, the long form first. A
    // marker that would leave no column at all gives way itself.
    for count in hidden..fits.len() {
        for long in [true, false] {
            let marker = hidden_marker(count, long);
            let room = (text::width(&marker) as u16).saturating_add(SPACING);
            let fitted = fit_widths(fits, available.saturating_sub(room), SPACING);
            if hidden_of(&fitted) == count {
                return (fitted, Some(marker));
            }
        }
    }
    (widths, None)
}

/// The selected row's style: the theme's selection, dimmed when the table has no focus.
fn selection_style(theme: &Theme, focused: bool) -> Style {
    if focused {
        theme.selection
    } else {
        theme.selection.add_modifier(Modifier::DIM)
    }
}
