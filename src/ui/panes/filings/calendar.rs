//! The filing calendar: the current month and the two after it as `cal`-like grids, each day
//! marked with the returns due on it that are not filed, and the selected day's returns listed
//! under the grids.
//!
//! ```text
//! ! 1 overdue before November (oldest 2026-09-20)
//!    November 2026         December 2026          January 2027
//! Mo Tu We Th Fr Sa Su  Mo Tu We Th Fr Sa Su  Mo Tu We Th Fr Sa Su
//!                    1      1  2  3  4  5  6               1  2  3
//!  2  3  4  5  6  7  8   7  8  9 10 11 12 13   4  5  6  7  8  9 10
//!  9 10!11 12 13 14 15  14 15 16 17 18 19 20¹ 11 12 13 14 15 16 17
//! 16 17 18 19 20 21 22  21 22 23 24 25 26 27  18 19 20 21 22 23 24
//! 23 24 25 26 27²28 29  28 29 30 31           25 26 27 28 29 30 31
//! 30
//! Fri 2026-11-27 · 2 due
//! US-NY  2026-10-01 – 2026-10-31  1,234.50 USD  UNFILED
//! US-TX  2026-10-01 – 2026-10-31  87.00 USD  FILING
//! ```
//!
//! - A day with returns due that are not filed shows their count as a superscript (`20²`, `⁺`
//!   for more than nine) in the pending style; a day before today with such returns is overdue:
//!   `10!` in the bad style. Today is bold and underlined. The marks are characters, so they
//!   read without colour too.
//! - Returns overdue from before the first month shown are summed up on a line above the grids.
//!   That line is a stop of the selection (the "overdue" pseudo-day): moving left or up from
//!   the first day shown goes to it, right or down comes back; selected, it lists those returns
//!   with their due dates.
//! - [`CalendarMove`] moves the selected day (←/→ a day, ↑/↓ a week), always within the months
//!   shown and the overdue line, or a cursor among the selected day's returns;
//!   [`FilingCalendar::selected_filing`] is the one under the cursor. Of the keymap's actions,
//!   [`FilingCalendar::handle`] takes `Left`/`Right` (a day), `Up`/`Down` (a week),
//!   `PageUp`/`PageDown` (the cursor) and `Top` (back to today).
//! - The selection is highlighted only while the calendar has focus; the title of the list
//!   names the selected day either way.
//! - When the area is too narrow for three grids side by side, they are stacked if the height
//!   allows, else only the first ones are drawn and `+2 months →` says how many are left out.

use std::cmp::Ordering;

use chrono::{Datelike, Days, Months, NaiveDate};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::columns::{self, Due};
use crate::model::{Filing, FilingStatus};
use crate::ui::keymap::Action;
use crate::ui::text;
use crate::ui::theme::Theme;

/// How many months are shown: the current one and the two after it.
pub const MONTHS: u32 = 3;

/// Columns of one day: two for the number, one for its mark.
const DAY_W: u16 = 3;

/// Columns of one month's grid.
const MONTH_W: u16 = DAY_W * 7;

/// The grid's header: the days of the week, Monday first, over the day numbers.
const WEEKDAYS: &str = "Mo Tu We Th Fr Sa Su";

/// Columns between two grids side by side.
const GAP: u16 = 1;

/// Lines the list under the grids keeps for itself (its title and one return) before the grids
/// are stacked.
const LIST_MIN: u16 = 2;

/// What the selection is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalendarSelection {
    /// The line of returns overdue from before the first month shown.
    Overdue,
    /// A day of the months shown.
    Day(NaiveDate),
}

/// A movement in the calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalendarMove {
    /// A day back.
    Left,
    /// A day on.
    Right,
    /// A week back.
    Up,
    /// A week on.
    Down,
    /// The next return of the selected day.
    NextFiling,
    /// The previous return of the selected day.
    PrevFiling,
}

impl CalendarMove {
    /// The movement of an arrow key: ←/→ a day, ↑/↓ a week.
    pub fn from_key(key: &KeyEvent) -> Option<CalendarMove> {
        match key.code {
            KeyCode::Left => Some(CalendarMove::Left),
            KeyCode::Right => Some(CalendarMove::Right),
            KeyCode::Up => Some(CalendarMove::Up),
            KeyCode::Down => Some(CalendarMove::Down),
            _ => None,
        }
    }

    /// Days the selection moves by; `None` for a movement among the returns.
    fn days(self) -> Option<i64> {
        match self {
            CalendarMove::Left => Some(-1),
            CalendarMove::Right => Some(1),
            CalendarMove::Up => Some(-7),
            CalendarMove::Down => Some(7),
            CalendarMove::NextFiling | CalendarMove::PrevFiling => None,
        }
    }
}

/// The filing calendar's state: the day it is, the returns, and what is selected.
#[derive(Debug, Clone)]
pub struct FilingCalendar {
    today: NaiveDate,
    filings: Vec<Filing>,
    selected: CalendarSelection,
    /// Index of the cursor in [`FilingCalendar::selected_filings`].
    cursor: usize,
}

/// Whether a return is still to be filed.
fn open(f: &Filing) -> bool {
    f.status != Some(FilingStatus::Filed)
}

/// `US-CA`, or the country alone for a return of the whole country.
fn jurisdiction(f: &Filing) -> String {
    match f.state_code.as_deref().filter(|s| !s.is_empty()) {
        Some(state) => format!("{}-{state}", f.country_code),
        None => f.country_code.clone(),
    }
}

/// The mark of a day with `n` returns due: `¹` … `⁹`, `⁺` for more.
fn count_mark(n: usize) -> char {
    const SUPERSCRIPTS: [char; 9] = ['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    SUPERSCRIPTS.get(n.wrapping_sub(1)).copied().unwrap_or('⁺')
}

/// The first day of `d`'s month.
fn month_start(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

/// Weeks (rows) the grid of the month starting on `first` takes.
fn weeks_in(first: NaiveDate) -> u16 {
    let next = first + Months::new(1);
    let days = (next - first).num_days() as u16;
    let lead = first.weekday().num_days_from_monday() as u16;
    (lead + days).div_ceil(7)
}

impl FilingCalendar {
    /// A calendar on `today` without returns, today selected.
    pub fn new(today: NaiveDate) -> Self {
        FilingCalendar {
            today,
            filings: Vec::new(),
            selected: CalendarSelection::Day(today),
            cursor: 0,
        }
    }

    /// Replaces the returns; the selected day, and the return under the cursor when it is still
    /// there, stay selected.
    pub fn set_filings(&mut self, filings: Vec<Filing>) {
        let kept = self.selected_filing().map(|f| f.id.clone());
        self.filings = filings;
        self.settle();
        self.cursor = kept
            .and_then(|id| self.selected_filings().iter().position(|f| f.id == id))
            .unwrap_or(self.cursor);
        self.clamp_cursor();
    }

    /// Moves the calendar to another day; the selection stays unless it left the months shown.
    pub fn set_today(&mut self, today: NaiveDate) {
        self.today = today;
        self.settle();
        self.clamp_cursor();
    }

    pub fn today(&self) -> NaiveDate {
        self.today
    }

    pub fn filings(&self) -> &[Filing] {
        &self.filings
    }

    pub fn selection(&self) -> CalendarSelection {
        self.selected
    }

    /// The first day shown: the first of today's month.
    pub fn first_day(&self) -> NaiveDate {
        month_start(self.today)
    }

    /// The last day shown: the end of the second month after today's.
    pub fn last_day(&self) -> NaiveDate {
        self.first_day() + Months::new(MONTHS) - Days::new(1)
    }

    /// The returns not filed that were due before the first day shown, oldest first.
    pub fn overdue_before(&self) -> Vec<&Filing> {
        let first = self.first_day();
        let mut out: Vec<&Filing> = self
            .filings
            .iter()
            .filter(|f| open(f) && f.due_date.is_some_and(|d| d < first))
            .collect();
        out.sort_by(|a, b| by_due(a, b));
        out
    }

    /// The returns due on `day` (filed ones included), by jurisdiction.
    pub fn due_on(&self, day: NaiveDate) -> Vec<&Filing> {
        let mut out: Vec<&Filing> = self
            .filings
            .iter()
            .filter(|f| f.due_date == Some(day))
            .collect();
        out.sort_by(|a, b| by_due(a, b));
        out
    }

    /// The returns the list under the grids shows: those due on the selected day, or the
    /// overdue ones from before the first month when the overdue line is selected.
    pub fn selected_filings(&self) -> Vec<&Filing> {
        match self.selected {
            CalendarSelection::Overdue => self.overdue_before(),
            CalendarSelection::Day(d) => self.due_on(d),
        }
    }

    /// The return under the cursor (what Enter opens).
    pub fn selected_filing(&self) -> Option<&Filing> {
        self.selected_filings().get(self.cursor).copied()
    }

    /// Moves the selection by `dx` days, within the months shown: before the first day it
    /// goes to the overdue line when there is one, else stops at the first day; past the last
    /// it stops there. From the overdue line a move forward goes to the first day. Returns
    /// whether the selection changed.
    pub fn move_by(&mut self, dx: i64) -> bool {
        let (first, last) = (self.first_day(), self.last_day());
        let target = match self.selected {
            CalendarSelection::Overdue if dx > 0 => CalendarSelection::Day(first),
            CalendarSelection::Overdue => CalendarSelection::Overdue,
            CalendarSelection::Day(d) => {
                let to = d
                    .checked_add_signed(chrono::TimeDelta::days(dx))
                    .unwrap_or(d);
                if to < first && !self.overdue_before().is_empty() {
                    CalendarSelection::Overdue
                } else {
                    CalendarSelection::Day(to.clamp(first, last))
                }
            }
        };
        if target == self.selected {
            return false;
        }
        self.selected = target;
        self.cursor = 0;
        true
    }

    /// Moves the cursor to the next return of the selected day; `false` at the last.
    pub fn next_filing(&mut self) -> bool {
        if self.cursor + 1 < self.selected_filings().len() {
            self.cursor += 1;
            true
        } else {
            false
        }
    }

    /// Moves the cursor to the previous return of the selected day; `false` at the first.
    pub fn prev_filing(&mut self) -> bool {
        if self.cursor > 0 {
            self.cursor -= 1;
            true
        } else {
            false
        }
    }

    /// Carries out a movement; returns whether anything changed.
    pub fn apply(&mut self, movement: CalendarMove) -> bool {
        match (movement, movement.days()) {
            (_, Some(dx)) => self.move_by(dx),
            (CalendarMove::NextFiling, None) => self.next_filing(),
            (_, None) => self.prev_filing(),
        }
    }

    /// Selects today; returns whether the selection changed.
    pub fn select_today(&mut self) -> bool {
        let today = CalendarSelection::Day(self.today);
        if self.selected == today {
            return false;
        }
        self.selected = today;
        self.cursor = 0;
        true
    }

    /// A keymap action: `Up`/`Down` (k/j, ↑/↓) move a week, `PageUp`/`PageDown` move the
    /// cursor among the selected day's returns, `Top` (g, Home) goes back to today. Returns
    /// whether the action was used (also when it is at the end of its range and nothing moved,
    /// so the pane does not take it for something else); other actions are left to the pane.
    pub fn handle(&mut self, action: Action) -> bool {
        let movement = match action {
            Action::Top => {
                self.select_today();
                return true;
            }
            Action::Up => CalendarMove::Up,
            Action::Down => CalendarMove::Down,
            Action::Left => CalendarMove::Left,
            Action::Right => CalendarMove::Right,
            Action::PageUp => CalendarMove::PrevFiling,
            Action::PageDown => CalendarMove::NextFiling,
            _ => return false,
        };
        self.apply(movement);
        true
    }

    /// Keeps the selection on something shown: the overdue line only while it has returns, a
    /// day only within the months shown (else today).
    fn settle(&mut self) {
        let (first, last) = (self.first_day(), self.last_day());
        self.selected = match self.selected {
            CalendarSelection::Overdue if self.overdue_before().is_empty() => {
                CalendarSelection::Day(first)
            }
            CalendarSelection::Day(d) if d < first || d > last => {
                CalendarSelection::Day(self.today)
            }
            other => other,
        };
    }

    fn clamp_cursor(&mut self) {
        self.cursor = self
            .cursor
            .min(self.selected_filings().len().saturating_sub(1));
    }

    /// The returns not filed due on each day shown, as (count, overdue).
    fn marks_on(&self, day: NaiveDate) -> Option<(usize, bool)> {
        let n = self
            .filings
            .iter()
            .filter(|f| open(f) && f.due_date == Some(day))
            .count();
        (n > 0).then_some((n, day < self.today))
    }

    /// Draws the calendar in `area`; the selection is highlighted while `focused`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        if area.is_empty() {
            return;
        }
        let bottom = area.bottom();
        let mut y = area.y;
        let selected_style = |style: Style, on: bool| {
            if on && focused {
                style.patch(theme.selection)
            } else {
                style
            }
        };

        let overdue = self.overdue_before();
        if let Some(oldest) = overdue.first().and_then(|f| f.due_date) {
            let (count, oldest) = (overdue.len(), text::date(oldest));
            let mut summary = format!(
                "! {count} overdue before {} (oldest {oldest})",
                self.first_day().format("%B"),
            );
            if text::width(&summary) > usize::from(area.width) {
                summary = format!("! {count} overdue (oldest {oldest})");
            }
            let summary = text::truncate(&summary, usize::from(area.width)).into_owned();
            let style = selected_style(
                theme.status_bad,
                self.selected == CalendarSelection::Overdue,
            );
            buf.set_stringn(area.x, y, summary, usize::from(area.width), style);
            y += 1;
        }

        // How many grids fit side by side, and how many rows of them.
        let cols = ((area.width + GAP) / (MONTH_W + GAP)).clamp(1, MONTHS as u16);
        let months: Vec<NaiveDate> = (0..MONTHS)
            .map(|i| self.first_day() + Months::new(i))
            .collect();
        let mut shown = 0usize;
        let mut first_row = true;
        for row in months.chunks(usize::from(cols)) {
            let height = 2 + row.iter().map(|m| weeks_in(*m)).max().unwrap_or(6);
            let fits = y.saturating_add(height + LIST_MIN) <= bottom;
            if !first_row && !fits {
                break;
            }
            for (i, month) in row.iter().enumerate() {
                let x = area.x + (i as u16) * (MONTH_W + GAP);
                self.render_month(*month, Position::new(x, y), area, buf, theme, focused);
            }
            shown += row.len();
            y = y.saturating_add(height);
            first_row = false;
            if y >= bottom {
                break;
            }
        }
        let hidden = months.len() - shown;
        if hidden > 0 {
            // The note goes on the first title row when there is room beside the grids, else
            // on a line of its own under them.
            let note = hidden_note(hidden);
            let w = text::width(&note) as u16;
            if area.width >= cols * (MONTH_W + GAP) + w {
                let title_y = area.y + u16::from(!overdue.is_empty());
                buf.set_stringn(area.right() - w, title_y, note, usize::from(w), theme.muted);
            } else if y < bottom {
                buf.set_stringn(area.x, y, note, usize::from(area.width), theme.muted);
                y += 1;
            }
        }
        if y >= bottom {
            return;
        }
        self.render_list(
            Rect::new(area.x, y, area.width, bottom - y),
            buf,
            theme,
            focused,
        );
    }

    /// One month's grid with its top-left corner at `at`, clipped to `area`.
    fn render_month(
        &self,
        month: NaiveDate,
        at: Position,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        focused: bool,
    ) {
        let mut put = |col: u16, row: u16, s: &str, style: Style| {
            let (cx, cy) = (at.x.saturating_add(col), at.y.saturating_add(row));
            if cy < area.bottom() && cx < area.right() {
                let max = usize::from(area.right() - cx);
                buf.set_stringn(cx, cy, s, max, style);
            }
        };
        let title = text::pad_to(
            &month.format("%B %Y").to_string(),
            usize::from(MONTH_W - 1),
            ratatui::layout::Alignment::Center,
        );
        put(0, 0, &title, theme.title);
        put(0, 1, WEEKDAYS, theme.table_header);
        let lead = month.weekday().num_days_from_monday() as u16;
        let mut day = month;
        while day.month() == month.month() {
            let slot = lead + day.day0() as u16;
            let (col, row) = ((slot % 7) * DAY_W, 2 + slot / 7);
            let (mark, style) = match self.marks_on(day) {
                Some((_, true)) => ('!', theme.status_bad),
                Some((n, false)) => (count_mark(n), theme.status_pending),
                None => (' ', theme.base),
            };
            let number_style = if day == self.today {
                style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                style
            };
            let on = self.selected == CalendarSelection::Day(day) && focused;
            let pick = |s: Style| if on { s.patch(theme.selection) } else { s };
            put(col, row, &format!("{:>2}", day.day()), pick(number_style));
            put(col + 2, row, &mark.to_string(), pick(style));
            let Some(next) = day.succ_opt() else { break };
            day = next;
        }
    }

    /// The selected day's returns under a title line, the cursor's one highlighted while
    /// `focused`, scrolled to keep the cursor in view.
    fn render_list(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        let width = usize::from(area.width);
        let filings = self.selected_filings();
        let title = match self.selected {
            CalendarSelection::Overdue => format!(
                "Overdue before {} · {}",
                self.first_day().format("%B %Y"),
                filings.len()
            ),
            CalendarSelection::Day(d) => {
                let today = if d == self.today { " (today)" } else { "" };
                if filings.is_empty() {
                    format!("Nothing due on {}{today}", d.format("%a %Y-%m-%d"))
                } else {
                    format!("{}{today} · {} due", d.format("%a %Y-%m-%d"), filings.len())
                }
            }
        };
        let title_style = if filings.is_empty() {
            theme.muted
        } else {
            theme.title
        };
        buf.set_stringn(
            area.x,
            area.y,
            text::truncate(&title, width),
            width,
            title_style,
        );
        let rows = usize::from(area.height.saturating_sub(1));
        if rows == 0 {
            return;
        }
        let start = (self.cursor + 1).saturating_sub(rows);
        for (i, f) in filings.iter().enumerate().skip(start).take(rows) {
            let y = area.y + 1 + (i - start) as u16;
            let line = self.filing_line(f, theme);
            let line = text::truncate_line(line, width);
            buf.set_line(area.x, y, &line, area.width);
            if focused && i == self.cursor {
                buf.set_style(Rect::new(area.x, y, area.width, 1), theme.selection);
            }
        }
    }

    /// One return of the list: (due date,) jurisdiction, period, amount, status, overdue.
    fn filing_line(&self, f: &Filing, theme: &Theme) -> Line<'static> {
        let mut spans = Vec::new();
        if self.selected == CalendarSelection::Overdue {
            let due = f.due_date.map(text::date).unwrap_or_default();
            spans.push(Span::styled(format!("{due}  "), theme.muted));
        }
        spans.push(Span::raw(format!("{:<5}  ", jurisdiction(f))));
        spans.push(Span::raw(format!("{}  ", columns::period(f))));
        let amount = columns::amount(f).unwrap_or_else(|| text::MISSING.to_owned());
        spans.push(Span::styled(amount, theme.money));
        spans.push(Span::raw("  "));
        match &f.status {
            Some(s) => spans.push(Span::styled(
                s.as_str().to_owned(),
                columns::status_style(s, theme),
            )),
            None => spans.push(Span::styled(text::MISSING, theme.muted)),
        }
        if columns::due_on(f, self.today) == Due::Overdue {
            spans.push(Span::raw("  "));
            spans.push(Span::styled("⚠ overdue", theme.status_bad));
        }
        Line::from(spans)
    }
}

/// `+2 months →`: how many months did not fit.
fn hidden_note(hidden: usize) -> String {
    format!("+{} →", crate::ui::text::count(hidden as u64, "month"))
}

/// Oldest due date first, then by jurisdiction and period.
fn by_due(a: &Filing, b: &Filing) -> Ordering {
    a.due_date
        .cmp(&b.due_date)
        .then_with(|| jurisdiction(a).cmp(&jurisdiction(b)))
        .then_with(|| a.start_date.cmp(&b.start_date))
        .then_with(|| a.id.cmp(&b.id))
}

#[cfg(test)]
mod tests {
    use crossterm::event::KeyModifiers;
    use ratatui::style::Modifier;

    use super::*;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, find, row_text};

    fn day(m: u32, d: u32) -> NaiveDate {
        let year = if m == 1 { 2027 } else { 2026 };
        NaiveDate::from_ymd_opt(year, m, d).unwrap()
    }

    /// A return of `state` due on `due`, with an amount in US dollars.
    fn filing(id: &str, state: &str, status: &str, due: &str) -> Filing {
        serde_json::from_value(serde_json::json!({
            "id": id, "registration_id": "r1", "start_date": "2026-10-01",
            "end_date": "2026-10-31", "country_code": "US", "state_code": state,
            "due_date": due, "status": status, "amount": "1234.5", "currency": "USD"
        }))
        .unwrap()
    }

    fn calendar(today: NaiveDate, filings: Vec<Filing>) -> FilingCalendar {
        let mut cal = FilingCalendar::new(today);
        cal.set_filings(filings);
        cal
    }

    fn draw(cal: &FilingCalendar, width: u16, height: u16, theme: &Theme) -> Buffer {
        let mut buf = blank(width, height);
        cal.render(buf.area, &mut buf, theme, true);
        buf
    }

    /// The 21 cells of a grid's row starting at (`x`, `y`), trailing spaces removed.
    fn grid_row(buf: &Buffer, x: u16, y: u16) -> String {
        let row: String = (x..x + MONTH_W).map(|x| buf[(x, y)].symbol()).collect();
        row.trim_end().to_owned()
    }

    /// Where the number of `d` is drawn when the grids start at row `top` of a wide area.
    fn at(d: NaiveDate, top: u16) -> (u16, u16) {
        let first = day(11, 1);
        let month = (d.year() - first.year()) * 12 + d.month() as i32 - 11;
        let lead = d.with_day(1).unwrap().weekday().num_days_from_monday() as u16;
        let slot = lead + d.day0() as u16;
        let x = month as u16 * (MONTH_W + GAP) + (slot % 7) * DAY_W;
        (x, top + 2 + slot / 7)
    }

    /// The three cells of day `d`: its number and its mark.
    fn day_cells(buf: &Buffer, d: NaiveDate, top: u16) -> (String, Style) {
        let (x, y) = at(d, top);
        let text = (x..x + DAY_W).map(|x| buf[(x, y)].symbol()).collect();
        (text, buf[(x, y)].style())
    }

    #[test]
    fn a_month_is_laid_out_like_cal() {
        let cal = calendar(day(11, 10), Vec::new());
        let buf = draw(&cal, 70, 14, &Theme::default());
        let (left, header) = find(&buf, "Mo Tu We Th Fr Sa Su");
        let y = header - 1;
        assert!(row_text(&buf, y).starts_with("   November 2026"));
        assert_eq!(grid_row(&buf, left, y + 1), "Mo Tu We Th Fr Sa Su");
        // 2026-11-01 is a Sunday: alone in the first week, under `Su`.
        assert_eq!(grid_row(&buf, left, y + 2), "                   1");
        assert_eq!(grid_row(&buf, left, y + 3), " 2  3  4  5  6  7  8");
        assert_eq!(grid_row(&buf, left, y + 7), "30");
        // December and January beside it.
        assert_eq!(grid_row(&buf, 22, y + 2), "    1  2  3  4  5  6");
        assert_eq!(day_cells(&buf, day(12, 31), 0).0, "31 ");
        assert!(row_text(&buf, y).contains("January 2027"));
    }

    #[test]
    fn days_with_returns_due_show_their_count() {
        let cal = calendar(
            day(11, 10),
            vec![
                filing("a", "CA", "UNFILED", "2026-11-20"),
                filing("b", "TX", "FILING", "2026-11-20"),
                filing("c", "NY", "FILED", "2026-11-20"),
                filing("d", "WA", "UNFILED", "2026-12-15"),
            ],
        );
        let theme = Theme::default();
        let buf = draw(&cal, 70, 14, &theme);
        // The filed return does not count.
        assert_styled(&buf, "20²", theme.status_pending);
        assert_styled(&buf, "15¹", theme.status_pending);
        assert_eq!(count_mark(9), '⁹');
        assert_eq!(count_mark(12), '⁺');
    }

    #[test]
    fn overdue_days_and_today_are_marked() {
        let cal = calendar(
            day(11, 24),
            vec![
                filing("a", "CA", "UNFILED", "2026-11-10"),
                filing("b", "TX", "FILED", "2026-11-12"),
            ],
        );
        let theme = Theme::default();
        let buf = draw(&cal, 70, 14, &theme);
        assert_styled(&buf, "10!", theme.status_bad);
        // A day whose returns are all filed is not marked.
        let (text, style) = day_cells(&buf, day(11, 12), 0);
        assert_eq!(text, "12 ");
        assert_ne!(style.fg, theme.status_pending.fg);
        let today = Modifier::BOLD | Modifier::UNDERLINED;
        let (text, style) = day_cells(&buf, day(11, 24), 0);
        assert_eq!(text, "24 ");
        assert!(style.add_modifier.contains(today), "{style:?}");
        let (_, style) = day_cells(&buf, day(11, 23), 0);
        assert!(!style.add_modifier.contains(Modifier::UNDERLINED));
    }

    #[test]
    fn the_marks_read_without_colour() {
        let mono = Theme::load("mono", None).unwrap();
        let cal = calendar(
            day(11, 24),
            vec![
                filing("a", "CA", "UNFILED", "2026-11-10"),
                filing("b", "TX", "UNFILED", "2026-11-27"),
                filing("c", "NY", "UNFILED", "2026-11-27"),
            ],
        );
        let buf = draw(&cal, 70, 14, &mono);
        let text = all_text(&buf);
        assert!(text.contains("10!"), "{text}");
        assert!(text.contains("27²"), "{text}");
        let (x, y) = find(&buf, "10!");
        let overdue = buf[(x, y)].style();
        let (x, y) = find(&buf, "27²");
        let pending = buf[(x, y)].style();
        assert_ne!(overdue.add_modifier, pending.add_modifier);
        let (_, today) = day_cells(&buf, day(11, 24), 0);
        assert!(today.add_modifier.contains(Modifier::UNDERLINED));
    }

    #[test]
    fn moving_crosses_months_and_stays_in_the_range() {
        let mut cal = calendar(day(11, 30), Vec::new());
        assert!(cal.apply(CalendarMove::Right));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(12, 1)));
        assert!(cal.apply(CalendarMove::Up));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 24)));
        assert!(cal.handle(Action::Down));
        assert!(cal.handle(Action::Down));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(12, 8)));
        for _ in 0..20 {
            cal.move_by(7);
        }
        assert_eq!(cal.selection(), CalendarSelection::Day(day(1, 31)));
        assert!(!cal.apply(CalendarMove::Right), "the last day shown");
        for _ in 0..20 {
            cal.move_by(-7);
        }
        // Nothing overdue from before November: the first day is as far as it goes.
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 1)));
        assert!(!cal.apply(CalendarMove::Left));
        assert!(!cal.handle(Action::Open));
        assert!(cal.handle(Action::Top));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 30)));
        let arrow = KeyEvent::new(KeyCode::Left, KeyModifiers::NONE);
        assert_eq!(CalendarMove::from_key(&arrow), Some(CalendarMove::Left));
    }

    #[test]
    fn the_selected_days_returns_are_listed_with_money_and_status() {
        let mut cal = calendar(
            day(11, 24),
            vec![
                filing("a", "CA", "UNFILED", "2026-11-10"),
                filing("b", "TX", "FILING", "2026-11-27"),
                filing("c", "NY", "FILED", "2026-11-27"),
            ],
        );
        let theme = Theme::default();
        cal.move_by(3);
        let buf = draw(&cal, 70, 16, &theme);
        let text = all_text(&buf);
        assert!(text.contains("Fri 2026-11-27 · 2 due"), "{text}");
        assert!(
            text.contains("US-NY  2026-10-01 – 2026-10-31  1,234.50 USD  FILED"),
            "{text}"
        );
        assert!(
            text.contains("US-TX  2026-10-01 – 2026-10-31  1,234.50 USD  FILING"),
            "{text}"
        );
        assert!(!text.contains("⚠ overdue"), "{text}");
        // The cursor: the first return, then the next one.
        assert_eq!(cal.selected_filing().map(|f| f.id.as_str()), Some("c"));
        assert_styled(&buf, "US-NY", theme.selection);
        assert!(cal.handle(Action::PageDown));
        assert_eq!(cal.selected_filing().map(|f| f.id.as_str()), Some("b"));
        assert!(!cal.next_filing());
        assert!(cal.prev_filing());

        // The overdue day lists its return as overdue.
        cal.move_by(-17);
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 10)));
        let buf = draw(&cal, 70, 16, &theme);
        let text = all_text(&buf);
        assert!(
            text.contains("US-CA  2026-10-01 – 2026-10-31  1,234.50 USD  UNFILED  ⚠ overdue"),
            "{text}"
        );
        assert_styled(&buf, "⚠ overdue", theme.status_bad);
    }

    #[test]
    fn returns_overdue_before_the_first_month_are_summed_up_and_reachable() {
        let mut cal = calendar(
            day(11, 3),
            vec![
                filing("a", "CA", "UNFILED", "2026-09-20"),
                filing("b", "TX", "PAUSED", "2026-08-20"),
                filing("c", "NY", "UNFILED", "2026-10-31"),
                filing("d", "WA", "FILED", "2026-07-20"),
            ],
        );
        let theme = Theme::default();
        let buf = draw(&cal, 70, 16, &theme);
        assert_eq!(
            row_text(&buf, 0),
            "! 3 overdue before November (oldest 2026-08-20)"
        );
        assert_styled(&buf, "3 overdue", theme.status_bad);
        // Up from the first week goes to the summary, down comes back.
        assert!(cal.apply(CalendarMove::Up));
        assert_eq!(cal.selection(), CalendarSelection::Overdue);
        assert!(!cal.apply(CalendarMove::Up));
        let buf = draw(&cal, 70, 18, &theme);
        let text = all_text(&buf);
        assert!(text.contains("Overdue before November 2026 · 3"), "{text}");
        assert_styled(&buf, "3 overdue", theme.selection);
        let (_, first) = find(&buf, "2026-08-20  US-TX");
        let (_, second) = find(&buf, "2026-09-20  US-CA");
        assert_eq!(second, first + 1, "oldest first:\n{text}");
        assert_eq!(cal.selected_filing().map(|f| f.id.as_str()), Some("b"));
        assert!(cal.apply(CalendarMove::Right));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 1)));

        // Once they are filed, the summary goes and the selection leaves it.
        cal.move_by(-1);
        let filed: Vec<Filing> = cal
            .filings()
            .iter()
            .cloned()
            .map(|mut f| {
                f.status = Some(FilingStatus::Filed);
                f
            })
            .collect();
        cal.set_filings(filed);
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 1)));
        let buf = draw(&cal, 70, 16, &theme);
        assert!(!all_text(&buf).contains("overdue before"));
    }

    #[test]
    fn new_returns_and_a_new_day_keep_the_selection() {
        let mut cal = calendar(
            day(11, 10),
            vec![filing("a", "CA", "UNFILED", "2026-11-20")],
        );
        cal.move_by(10);
        cal.set_filings(vec![
            filing("z", "AZ", "UNFILED", "2026-11-20"),
            filing("a", "CA", "UNFILED", "2026-11-20"),
        ]);
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 20)));
        assert_eq!(cal.selected_filing().map(|f| f.id.as_str()), Some("a"));
        cal.set_today(day(11, 11));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(11, 20)));
        // A day that leaves the months shown gives way to today.
        cal.set_today(day(12, 2));
        assert_eq!(cal.selection(), CalendarSelection::Day(day(12, 2)));
        assert_eq!(
            cal.last_day(),
            NaiveDate::from_ymd_opt(2027, 2, 28).unwrap()
        );
    }

    #[test]
    fn a_narrow_area_shows_fewer_months_and_stays_inside() {
        let cal = calendar(
            day(11, 24),
            vec![
                filing("a", "CA", "UNFILED", "2026-11-24"),
                filing("b", "TX", "UNFILED", "2026-12-20"),
                filing("c", "NY", "UNFILED", "2026-09-20"),
            ],
        );
        let mut buf = blank(60, 14);
        let area = Rect::new(2, 1, 40, 10);
        cal.render(area, &mut buf, &Theme::default(), true);
        let text = all_text(&buf);
        assert!(text.contains("November 2026"), "{text}");
        assert!(!text.contains("December"), "{text}");
        assert!(text.contains("+2 months →"), "{text}");
        // The overdue summary is shortened to fit.
        assert!(text.contains("! 1 overdue (oldest 2026-09-20)"), "{text}");
        assert!(text.contains("Tue 2026-11-24 (today) · 1 due"), "{text}");
        for y in 0..14 {
            for x in 0..60 {
                if !area.contains((x, y).into()) {
                    assert_eq!(buf[(x, y)].symbol(), " ", "({x}, {y}) outside:\n{text}");
                }
            }
        }
        // Too narrow even for the note beside the grid: it goes under it.
        let mut buf = blank(24, 12);
        cal.render(buf.area, &mut buf, &Theme::default(), true);
        assert!(all_text(&buf).contains("+2 months →"), "{}", all_text(&buf));
    }

    #[test]
    fn a_narrow_tall_area_stacks_the_months() {
        let cal = calendar(day(11, 24), Vec::new());
        let buf = draw(&cal, 30, 40, &Theme::default());
        let (_, nov) = find(&buf, "November 2026");
        let (_, dec) = find(&buf, "December 2026");
        let (_, jan) = find(&buf, "January 2027");
        assert_eq!((dec - nov, jan - dec), (8, 7));
        assert!(!all_text(&buf).contains("months →"));
    }

    #[test]
    fn a_long_day_keeps_its_cursor_in_view_and_counts_past_nine() {
        let states = [
            "AL", "AZ", "CA", "CO", "FL", "GA", "IL", "NY", "TX", "WA", "WI",
        ];
        let filings = states
            .iter()
            .map(|s| filing(s, s, "UNFILED", "2026-11-27"))
            .collect();
        let mut cal = calendar(day(11, 24), filings);
        cal.move_by(3);
        for _ in 0..10 {
            cal.next_filing();
        }
        let theme = Theme::default();
        let buf = draw(&cal, 70, 12, &theme);
        assert_eq!(day_cells(&buf, day(11, 27), 0).0, "27⁺");
        let text = all_text(&buf);
        assert!(text.contains("Fri 2026-11-27 · 11 due"), "{text}");
        assert!(!text.contains("US-AL"), "scrolled past the first:\n{text}");
        assert_styled(&buf, "US-WI", theme.selection);

        // Without focus nothing is highlighted: not the day, not the return.
        let mut buf = blank(70, 12);
        cal.render(buf.area, &mut buf, &theme, false);
        let (_, style) = day_cells(&buf, day(11, 27), 0);
        assert!(!style.add_modifier.contains(Modifier::REVERSED));
        let (x, y) = find(&buf, "US-WI");
        assert!(
            !buf[(x, y)]
                .style()
                .add_modifier
                .contains(Modifier::REVERSED)
        );
    }
}
