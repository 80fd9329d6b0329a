//! Drawing the Overview: the tiles in a grid (or a line each on a small terminal), the map and
//! the calendar beneath.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::tiles::{Count, Tile};
use super::{OverviewPane, Section};
use crate::ui::keymap::Keymap;
use crate::ui::text::truncate_line;
use crate::ui::theme::Theme;
use crate::ui::widgets::pane_block;

/// Below this many rows or columns the tiles are drawn a line each.
const FULL_HEIGHT: u16 = 34;
const FULL_WIDTH: u16 = 120;

/// Tiles per row of the grid.
const GRID_COLUMNS: usize = 4;

pub(super) fn draw(
    pane: &mut OverviewPane,
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    keys: &Keymap,
    focused: bool,
) {
    let block = pane_block("Overview", &pane.subtitle(), theme, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let buf = frame.buffer_mut();
    let full = inner.height >= FULL_HEIGHT && inner.width >= FULL_WIDTH;
    let summary = summary(pane, keys, theme);
    let selected = (pane.section == Section::Tiles && focused).then_some(pane.cursor);
    pane.hits.clear();
    let small = if full {
        Vec::new()
    } else {
        small_tile_lines(&pane.tiles, selected, inner, theme, &mut pane.hits)
    };
    let tile_rows = if full {
        let rows = pane.tiles.len().div_ceil(GRID_COLUMNS);
        let height = pane
            .tiles
            .iter()
            .map(|t| t.entries.len() + t.items.len().max(1) + 3)
            .max()
            .unwrap_or(5);
        u16::try_from(rows * height + summary_row(pane.tiles.len(), &summary)).unwrap_or(u16::MAX)
    } else if pane.section == Section::Tiles {
        u16::try_from(small.len()).unwrap_or(u16::MAX)
    } else {
        // Small terminal, the map or the calendar in use: they take the whole tab.
        0
    };
    let [top, bottom] =
        Layout::vertical([Constraint::Length(tile_rows), Constraint::Min(0)]).areas(inner);
    if full {
        tile_grid(
            &pane.tiles,
            selected,
            &summary,
            top,
            buf,
            theme,
            &mut pane.hits,
        );
    } else if top.height > 0 {
        Paragraph::new(small).render(top, buf);
    }
    if bottom.height > 0 {
        lower(pane, bottom, buf, theme, focused);
    }
}

/// The map beside the calendar.
fn lower(pane: &mut OverviewPane, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
    let [map, calendar] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area);
    let border = |on: bool| {
        if on && focused {
            theme.border_focus
        } else {
            theme.border
        }
    };
    let map_block = Block::bordered()
        .title(Span::styled(" Map ", theme.title))
        .border_style(border(pane.section == Section::Map));
    let calendar_block = Block::bordered()
        .title(Span::styled(" Filing calendar ", theme.title))
        .border_style(border(pane.section == Section::Calendar));
    let map_inner = map_block.inner(map);
    let calendar_inner = calendar_block.inner(calendar);
    map_block.render(map, buf);
    calendar_block.render(calendar, buf);
    pane.map.render(
        map_inner,
        buf,
        theme,
        focused && pane.section == Section::Map,
    );
    pane.calendar.render(
        calendar_inner,
        buf,
        theme,
        focused && pane.section == Section::Calendar,
    );
}

/// The style of a count: the alarm colour when something is there on an urgent tile.
fn count_style(count: &Count, urgent: bool, theme: &Theme) -> Style {
    match count {
        Count::Waiting | Count::Unavailable(_) => theme.muted,
        Count::Failed(_) => theme.error,
        Count::Exact(0) => theme.status_good,
        Count::Exact(_) | Count::AtLeast(_) if urgent => theme.status_bad,
        Count::Exact(_) | Count::AtLeast(_) => theme.status_pending,
    }
}

/// Whether the first count of `tile` calls for action today.
fn urgent(tile: &Tile) -> bool {
    tile.entries.first().is_some_and(|e| e.urgent)
}

/// The cell after the tiles: the day, when the counts were made, and how to move.
fn summary(pane: &OverviewPane, keys: &Keymap, theme: &Theme) -> Vec<Line<'static>> {
    use crate::ui::keymap::Action;
    let today = pane.reading.data.today;
    let mut lines = vec![Line::styled(
        today.format("%A %Y-%m-%d").to_string(),
        theme.title,
    )];
    let every = pane.refresh_every.as_secs() / 60;
    let refreshed = match &pane.refreshed_at {
        Some(at) => format!("counted at {}", at.format("%H:%M")),
        None => "counting…".to_owned(),
    };
    let cadence = if every == 0 {
        format!(
            "{refreshed}; {} counts again",
            keys.keys_for(Action::Refresh)
        )
    } else {
        format!("{refreshed}; again every {every} min")
    };
    lines.push(Line::styled(cadence, theme.muted));
    lines.push(Line::default());
    let key = |action| Span::styled(keys.keys_for(action), theme.key);
    lines.push(Line::from(vec![
        key(Action::Open),
        Span::raw(" opens the chosen count's list"),
    ]));
    lines.push(Line::from(vec![
        key(Action::NextSection),
        Span::raw(" "),
        key(Action::PrevSection),
        Span::raw(" tiles, map, calendar"),
    ]));
    lines.push(Line::from(vec![
        Span::styled(":tile N", theme.key),
        Span::raw(" opens tile N"),
    ]));
    lines
}

fn tile_grid(
    tiles: &[Tile],
    selected: Option<(usize, usize)>,
    summary: &[Line<'static>],
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    hits: &mut Vec<(Rect, (usize, usize))>,
) {
    let rows = tiles.len().div_ceil(GRID_COLUMNS);
    let extra = u16::try_from(summary_row(tiles.len(), summary)).unwrap_or(0);
    let [area, below] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(extra)]).areas(area);
    if extra > 0 {
        let [cell, _] = Layout::horizontal([
            Constraint::Ratio(1, GRID_COLUMNS as u32),
            Constraint::Min(0),
        ])
        .areas(below);
        today_box(summary, cell, buf, theme);
    }
    let row_areas = Layout::vertical(vec![Constraint::Ratio(1, rows as u32); rows]).split(area);
    for (r, row_area) in row_areas.iter().enumerate() {
        let cells = Layout::horizontal(vec![
            Constraint::Ratio(1, GRID_COLUMNS as u32);
            GRID_COLUMNS
        ])
        .split(*row_area);
        for (c, cell) in cells.iter().enumerate() {
            let index = r * GRID_COLUMNS + c;
            if let Some(tile) = tiles.get(index) {
                let chosen = selected.filter(|(t, _)| *t == index).map(|(_, e)| e);
                tile_box(tile, index, chosen, *cell, buf, theme);
                let inner = Block::bordered().inner(*cell);
                for entry in 0..tile.entries.len() {
                    let y = inner.y + u16::try_from(entry).unwrap_or(u16::MAX);
                    if y < inner.bottom() {
                        hits.push((
                            Rect {
                                y,
                                height: 1,
                                ..inner
                            },
                            (index, entry),
                        ));
                    }
                }
            } else if index == tiles.len() {
                today_box(summary, *cell, buf, theme);
            }
        }
    }
}

/// The lines a row of its own takes for the day's box when the tiles fill every cell of the
/// grid (none otherwise: it takes the cell after the tiles).
fn summary_row(tiles: usize, summary: &[Line<'static>]) -> usize {
    if tiles.is_multiple_of(GRID_COLUMNS) {
        summary.len() + 2
    } else {
        0
    }
}

/// The day, when the counts were made, and how to move.
fn today_box(summary: &[Line<'static>], cell: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = Block::bordered()
        .border_style(theme.border)
        .title(Span::styled(" Today ", theme.title));
    let inner = block.inner(cell);
    block.render(cell, buf);
    let width = usize::from(inner.width);
    let lines: Vec<Line> = summary
        .iter()
        .cloned()
        .map(|l| truncate_line(l, width))
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

fn tile_box(
    tile: &Tile,
    index: usize,
    chosen: Option<usize>,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let count = tile.count();
    let block = Block::bordered()
        .border_style(if chosen.is_some() {
            theme.border_focus
        } else {
            theme.border
        })
        .title(Line::from(vec![
            Span::styled(format!(" {} ", index + 1), theme.key),
            Span::styled(format!("{} ", tile.title), theme.title),
        ]))
        .title(
            Line::from(Span::styled(
                format!(" {} ", count.label()),
                count_style(&count, urgent(tile), theme),
            ))
            .right_aligned(),
        );
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width);
    let mut lines: Vec<Line> = tile
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut line = Line::from(vec![
                Span::styled(
                    format!("{:>6} ", e.count.label()),
                    count_style(&e.count, e.urgent, theme),
                ),
                Span::raw(e.words()),
            ]);
            if chosen == Some(i) {
                line = line.style(theme.selection);
            }
            line
        })
        .collect();
    if let Some(trouble) = tile.trouble() {
        lines.push(Line::styled(trouble, theme.error));
    }
    lines.push(Line::default());
    for item in &tile.items {
        let style = if item.urgent {
            theme.status_bad
        } else {
            theme.muted
        };
        lines.push(Line::styled(format!("• {}", item.text), style));
    }
    let lines: Vec<Line> = lines.into_iter().map(|l| truncate_line(l, width)).collect();
    Paragraph::new(lines).render(inner, buf);
}

/// The tiles a line each on a small terminal: the tile's number and title, then its counts; a
/// count that does not fit goes on the next line, under the counts, so that every count keeps
/// its words. Below them, the selected tile's trouble or first record. Each count's place is
/// kept in `hits`, for clicks; the lines are returned for their height.
fn small_tile_lines(
    tiles: &[Tile],
    selected: Option<(usize, usize)>,
    area: Rect,
    theme: &Theme,
    hits: &mut Vec<(Rect, (usize, usize))>,
) -> Vec<Line<'static>> {
    let width = usize::from(area.width);
    let title_width = tiles
        .iter()
        .map(|t| crate::ui::text::width(t.title))
        .max()
        .unwrap_or(0)
        .min(width * 2 / 5);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (t, tile) in tiles.iter().enumerate() {
        let mut spans = vec![
            Span::styled(format!("{} ", t + 1), theme.key),
            Span::styled(
                crate::ui::text::pad_to(tile.title, title_width, ratatui::layout::Alignment::Left),
                theme.title,
            ),
        ];
        let indent = Line::from(spans.clone()).width();
        for (i, e) in tile.entries.iter().enumerate() {
            let chosen = selected == Some((t, i));
            let mut count = count_style(&e.count, e.urgent, theme);
            let mut label = Style::default();
            if chosen {
                count = count.patch(theme.selection);
                label = theme.selection;
            }
            let text = [e.count.label(), format!(" {}", e.words())];
            let needs: usize = text.iter().map(|t| crate::ui::text::width(t)).sum();
            let mut at = Line::from(spans.clone()).width();
            if i > 0 && at + 3 + needs > width {
                lines.push(Line::from(std::mem::take(&mut spans)));
                spans.push(Span::raw(" ".repeat(indent)));
                spans.push(Span::styled("  ", theme.muted));
            } else {
                spans.push(Span::styled(if i == 0 { "  " } else { " · " }, theme.muted));
            }
            at = Line::from(spans.clone()).width();
            let [count_text, words] = text;
            spans.push(Span::styled(count_text, count));
            spans.push(Span::styled(words, label));
            let end = Line::from(spans.clone()).width().min(width);
            let y = area.y + u16::try_from(lines.len()).unwrap_or(u16::MAX);
            if at < end && y < area.bottom() {
                let x = area.x + u16::try_from(at).unwrap_or(u16::MAX);
                let w = u16::try_from(end - at).unwrap_or(u16::MAX);
                hits.push((Rect::new(x, y, w, 1), (t, i)));
            }
        }
        lines.push(Line::from(spans));
    }
    let mut lines: Vec<Line<'static>> =
        lines.into_iter().map(|l| truncate_line(l, width)).collect();
    // The selected tile's trouble or first record, below the lines.
    if let Some(tile) = selected.and_then(|(t, _)| tiles.get(t)) {
        let line = match (tile.trouble(), tile.items.first()) {
            (Some(trouble), _) => Line::styled(trouble, theme.error),
            (None, Some(item)) => Line::styled(format!("  • {}", item.text), theme.muted),
            (None, None) => Line::default(),
        };
        lines.push(truncate_line(line, width));
    }
    lines
}
