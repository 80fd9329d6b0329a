//! The paged table under every list pane: a state machine that decides which pages of a
//! server-side list to fetch, and a renderer that draws only the visible window.
//!
//! The table never holds the whole list. It knows the total row count from the first answer,
//! keeps at most [`MAX_CACHED_PAGES`] pages of [`PAGE_SIZE`] rows (evicting the page farthest
//! from the cursor), and builds table rows only for the rows on screen, so frame time and memory
//! stay the same for a hundred rows or a million. `G` on a million rows asks for the last page
//! only.
//!
//! # The conversation with the pane
//!
//! 1. After handling a key (and after each answer), the pane calls [`PagedTable::wants`] and turns
//!    each [`PageRequest`] into a fetch effect. A page is asked for once.
//! 2. The runtime's answer goes to [`PagedTable::receive`] with the request's generation. Answers
//!    from before the last [`PagedTable::reset`] (a filter or sort change) are dropped, so stale
//!    rows never show. A failed fetch goes to [`PagedTable::fail`]; [`PagedTable::retry`] (bound
//!    to refresh) asks again.
//! 3. [`PagedTable::render`] draws the header (with the sort indicator), the visible rows
//!    (placeholders `…` for rows whose page is still on its way) and the status line
//!    `row 1,234 of 1,000,000`.

mod column;
mod render;

use std::collections::{BTreeMap, BTreeSet};

pub use column::{
    CellDraw, CellFn, Column, ColumnFit, ColumnWidth, DEFAULT_PRIORITY, FieldFn, JudgedCellFn,
    fit_widths, priority,
};
pub use render::{FLAG, GUTTER};

use crate::model::{Page, PageParams};
use crate::ui::judging::Judging;
use crate::ui::keymap::Action;
use crate::ui::widgets::spinner::Spinner;

/// Rows per page asked of the server (its maximum).
pub const PAGE_SIZE: u32 = 100;

/// Pages kept in memory at most.
pub const MAX_CACHED_PAGES: usize = 10;

/// How close (in rows) the cursor may come to a page boundary before the neighbouring page is
/// fetched.
pub const PREFETCH_MARGIN: u64 = 20;

/// One page the table wants fetched. `page` is the server's 1-based page number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    /// Hand this back to [`PagedTable::receive`] or [`PagedTable::fail`].
    pub generation: u64,
    pub page: u32,
    pub size: u32,
    /// The server's `order_by` parameter (`-date` for descending), when the user chose a sort.
    pub order_by: Option<String>,
}

impl PageRequest {
    /// The `page` and `size` query parameters.
    pub fn params(&self) -> PageParams {
        PageParams::new(self.page, self.size)
    }
}

/// A sort chosen by the user: a column's key and the direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    pub key: &'static str,
    pub descending: bool,
}

impl Sort {
    /// The server's `order_by` value: `date` or `-date`.
    pub fn order_by(&self) -> String {
        if self.descending {
            format!("-{}", self.key)
        } else {
            self.key.to_owned()
        }
    }
}

/// A page that came back empty or short before the end the service announced: the list ends
/// there, and nothing is asked again until the user refreshes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortfall {
    /// The total the service announced.
    pub announced: u64,
    /// The 1-based page that fell short.
    pub page: u32,
    /// Rows that page held.
    pub rows: u64,
}

impl std::fmt::Display for Shortfall {
    /// `the service announced 1,000,000 rows but page 1 was empty`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let announced = crate::ui::text::thousands(self.announced);
        if self.rows == 0 {
            write!(
                f,
                "the service announced {announced} but page {} was empty",
                self.page
            )
        } else {
            write!(
                f,
                "the service announced {announced} but page {} held only {}",
                self.page, self.rows
            )
        }
    }
}

/// The state of a paged table over rows of type `R`. See the module documentation.
#[derive(Debug, Clone)]
pub struct PagedTable<R> {
    generation: u64,
    /// Rows in the whole list; `None` until the first page of this generation arrives.
    total: Option<u64>,
    cursor: u64,
    /// Index of the first visible row.
    offset: u64,
    /// Body rows drawn by the last render (1 before the first).
    viewport: u16,
    page_size: u32,
    max_pages: usize,
    /// Cached pages by 1-based page number.
    pages: BTreeMap<u32, Vec<R>>,
    requested: BTreeSet<u32>,
    failed: BTreeSet<u32>,
    sort: Option<Sort>,
    /// Where the service's pages fell short of the total it announced, in this generation.
    shortfall: Option<Shortfall>,
    /// A second shortfall in one generation stops every fetch until [`PagedTable::retry`].
    halted: bool,
    /// What the rows are, for `loading registrations…` and `no registrations`.
    noun: &'static str,
    spinner: Spinner,
    /// Where the last render put the header and the rows, for the mouse.
    hits: Option<Hits>,
    /// The titles of the columns the last render drew (a column hidden for want of room is
    /// not among them).
    drawn: Vec<&'static str>,
    /// What judged cells are drawn by.
    judging: Judging,
}

/// Where the last render drew the table: its header's columns and its rows.
#[derive(Debug, Clone, Default)]
struct Hits {
    header_y: u16,
    /// Each column shown: its first cell, its width, its sort key (`""`: not sortable).
    columns: Vec<(u16, u16, &'static str)>,
    body: ratatui::layout::Rect,
}

/// What a click on the table hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableClick {
    /// Outside the table, or on nothing that acts.
    Nothing,
    /// The header of the column with this sort key.
    Header(&'static str),
    /// The row at this index.
    Row(u64),
}

impl<R> Default for PagedTable<R> {
    fn default() -> Self {
        PagedTable::new("rows")
    }
}

impl<R> PagedTable<R> {
    /// An empty table of `noun` (plural: `"registrations"`), waiting for its first page.
    pub fn new(noun: &'static str) -> Self {
        PagedTable {
            generation: 0,
            total: None,
            cursor: 0,
            offset: 0,
            viewport: 1,
            page_size: PAGE_SIZE,
            max_pages: MAX_CACHED_PAGES,
            pages: BTreeMap::new(),
            requested: BTreeSet::new(),
            failed: BTreeSet::new(),
            sort: None,
            shortfall: None,
            halted: false,
            noun,
            spinner: Spinner::new(),
            hits: None,
            drawn: Vec::new(),
            judging: Judging::default(),
        }
    }

    /// Draws the judged cells ([`Column::judged`]) by `judging` from now on.
    pub fn judge_by(&mut self, judging: Judging) {
        self.judging = judging;
    }

    /// Sets the page size (clamped to 1-[`PAGE_SIZE`]) and drops what was loaded.
    #[must_use]
    pub fn with_page_size(mut self, size: u32) -> Self {
        self.page_size = size.clamp(1, PAGE_SIZE);
        self.reset();
        self
    }

    /// Sets how many pages the cache keeps (at least 4: the visible window plus neighbours).
    #[must_use]
    pub fn with_cache_pages(mut self, pages: usize) -> Self {
        self.max_pages = pages.max(4);
        self
    }

    /// Draws the spinner in ASCII.
    #[must_use]
    pub fn with_ascii_spinner(mut self, ascii: bool) -> Self {
        self.spinner = self.spinner.with_ascii(ascii);
        self
    }

    /// The current generation: bumped by every [`PagedTable::reset`].
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Rows in the whole list, once known.
    /// Whether the last render drew the column titled `title` (none is before the first): what
    /// is read only for a column a user sees waits for it.
    pub fn drew_column(&self, title: &str) -> bool {
        self.drawn.contains(&title)
    }

    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// Index of the selected row.
    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    /// Index of the first visible row.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Body rows shown by the last render: the step of [`PagedTable::page_down`].
    pub fn visible_rows(&self) -> u16 {
        self.viewport
    }

    /// Pages held in memory now (never more than the cache bound).
    pub fn cached_pages(&self) -> usize {
        self.pages.len()
    }

    /// True until the first page of the current generation has arrived.
    pub fn is_loading(&self) -> bool {
        self.total.is_none()
    }

    /// The chosen sort, if any.
    pub fn sort(&self) -> Option<Sort> {
        self.sort
    }

    /// The server's `order_by` for the chosen sort.
    pub fn order_by(&self) -> Option<String> {
        self.sort.map(|s| s.order_by())
    }

    /// Advances the loading spinner (call on the runtime's tick).
    pub fn tick(&mut self) {
        self.spinner.tick();
    }

    // ----- pages ------------------------------------------------------------------------------

    /// The 1-based page holding row `index`.
    fn page_of(&self, index: u64) -> u32 {
        u32::try_from(index / u64::from(self.page_size) + 1).unwrap_or(u32::MAX)
    }

    /// The number of pages of a list of `total` rows.
    fn page_count(&self, total: u64) -> u32 {
        u32::try_from(total.div_ceil(u64::from(self.page_size))).unwrap_or(u32::MAX)
    }

    /// The row at `index`, when its page is loaded.
    pub fn row(&self, index: u64) -> Option<&R> {
        let page = self.pages.get(&self.page_of(index))?;
        page.get(usize::try_from(index % u64::from(self.page_size)).ok()?)
    }

    /// Every row held, page by page.
    pub fn rows(&self) -> impl Iterator<Item = &R> {
        self.pages.values().flatten()
    }

    /// The selected row; `None` while its page is not loaded (or the list is empty).
    pub fn selected(&self) -> Option<&R> {
        if self.total.is_some_and(|t| self.cursor < t) {
            self.row(self.cursor)
        } else {
            None
        }
    }

    /// The sort in force as the service's `order_by` keys (empty: the service's own order).
    pub fn sort_keys(&self) -> Vec<crate::model::filters::Sort> {
        self.sort
            .map(|s| crate::model::filters::Sort {
                field: s.key.to_owned(),
                descending: s.descending,
            })
            .into_iter()
            .collect()
    }

    /// Moves the cursor for a movement action (a row up or down, a page, the first or the last
    /// row); `false` for any other action, which is left to the caller.
    pub fn navigate(&mut self, action: Action) -> bool {
        let page = self.visible_rows().max(1);
        match action {
            Action::Up => self.up(1),
            Action::Down => self.down(1),
            Action::PageUp => self.page_up(page),
            Action::PageDown => self.page_down(page),
            Action::Top => self.top(),
            Action::Bottom => self.bottom(),
            _ => return false,
        }
        true
    }

    /// The sort `s` asks for (the next sortable column of `columns`, ascending) or, with
    /// `reverse`, `S` (the same column the other way); `None` when no column sorts.
    pub fn next_sort(&self, columns: &[Column<R>], reverse: bool) -> Option<Sort> {
        let keys: Vec<&'static str> = columns
            .iter()
            .filter(|c| c.sortable())
            .map(|c| c.key)
            .collect();
        let first = *keys.first()?;
        Some(match (reverse, self.sort) {
            (true, Some(s)) => Sort {
                descending: !s.descending,
                ..s
            },
            (true, None) => Sort {
                key: first,
                descending: true,
            },
            (false, Some(s)) => {
                let i = keys
                    .iter()
                    .position(|k| *k == s.key)
                    .map_or(0, |i| (i + 1) % keys.len());
                Sort {
                    key: keys[i],
                    descending: false,
                }
            }
            (false, None) => Sort {
                key: first,
                descending: false,
            },
        })
    }

    /// Replaces every cached row matching `pred` with `row` (a record changed by a write), so
    /// the list shows the change without a reload. Returns how many rows were replaced.
    pub fn replace_where(&mut self, pred: impl Fn(&R) -> bool, row: R) -> usize
    where
        R: Clone,
    {
        let mut replaced = 0;
        for cached in self.pages.values_mut().flat_map(|page| page.iter_mut()) {
            if pred(cached) {
                *cached = row.clone();
                replaced += 1;
            }
        }
        replaced
    }

    /// The index of the first cached row matching `pred` (only the pages held are looked at).
    pub fn position(&self, pred: impl Fn(&R) -> bool) -> Option<u64> {
        self.pages.iter().find_map(|(page, rows)| {
            let first = u64::from(page - 1) * u64::from(self.page_size);
            rows.iter().position(&pred).map(|i| first + i as u64)
        })
    }

    /// Changes every cached row matching `pred` in place with `change` (a mark set on a row).
    /// Returns how many rows were changed.
    pub fn update_where(
        &mut self,
        pred: impl Fn(&R) -> bool,
        mut change: impl FnMut(&mut R),
    ) -> usize {
        let mut changed = 0;
        for cached in self.pages.values_mut().flat_map(|page| page.iter_mut()) {
            if pred(cached) {
                change(cached);
                changed += 1;
            }
        }
        changed
    }

    /// Whether the page of row `index` was asked for and not yet answered.
    fn is_pending(&self, index: u64) -> bool {
        self.requested.contains(&self.page_of(index))
    }

    /// Whether a page failed to load (and was not retried yet).
    pub fn has_failures(&self) -> bool {
        !self.failed.is_empty()
    }

    /// Whether fetching the page of row `index` failed (and was not retried yet).
    fn has_failed(&self, index: u64) -> bool {
        self.failed.contains(&self.page_of(index))
    }

    /// The pages to fetch now: those of the visible window and the cursor, plus the neighbouring
    /// page when the cursor is within [`PREFETCH_MARGIN`] rows of a page boundary. Pages already
    /// held, asked for, or failed are left out; those returned are marked as asked for.
    pub fn wants(&mut self) -> Vec<PageRequest> {
        let mut pages = BTreeSet::new();
        match self.total {
            // Nothing known yet: the cursor's page tells the total.
            None => {
                pages.insert(self.page_of(self.cursor));
            }
            Some(0) => {}
            Some(total) => {
                let last = total - 1;
                let window_end = (self.offset + u64::from(self.viewport.max(1)) - 1).min(last);
                pages.extend(self.page_of(self.offset.min(last))..=self.page_of(window_end));
                let here = self.page_of(self.cursor);
                pages.insert(here);
                let within = self.cursor % u64::from(self.page_size);
                if within < PREFETCH_MARGIN && here > 1 {
                    pages.insert(here - 1);
                }
                if u64::from(self.page_size) - within <= PREFETCH_MARGIN
                    && here < self.page_count(total)
                {
                    pages.insert(here + 1);
                }
            }
        }
        if self.halted {
            return Vec::new();
        }
        pages.retain(|p| {
            !self.pages.contains_key(p) && !self.requested.contains(p) && !self.failed.contains(p)
        });
        self.requested.extend(&pages);
        let order_by = self.order_by();
        pages
            .into_iter()
            .map(|page| PageRequest {
                generation: self.generation,
                page,
                size: self.page_size,
                order_by: order_by.clone(),
            })
            .collect()
    }

    /// Takes the answer to a [`PageRequest`]. Returns false (and changes nothing) when the answer
    /// belongs to an older generation. Updates the total, clamping the cursor when the list
    /// shrank, and evicts the pages farthest from the cursor beyond the cache bound.
    pub fn receive(&mut self, generation: u64, page: u32, answer: Page<R>) -> bool {
        if generation != self.generation {
            return false;
        }
        self.requested.remove(&page);
        self.failed.remove(&page);
        let mut items = answer.items;
        items.truncate(self.page_size as usize);
        let total = self.checked_total(page, answer.total, items.len() as u64);
        self.set_total(total);
        if page >= 1 && page <= self.page_count(total) && !items.is_empty() {
            self.pages.insert(page, items);
        }
        self.evict();
        true
    }

    /// Records that fetching `page` failed; it is not asked for again until
    /// [`PagedTable::retry`]. Returns false for an older generation.
    pub fn fail(&mut self, generation: u64, page: u32) -> bool {
        if generation != self.generation {
            return false;
        }
        self.requested.remove(&page);
        self.failed.insert(page);
        true
    }

    /// The total to believe after page `page` of a list announced at `announced` rows came back
    /// with `rows` rows: the announced one, unless the page is empty or short before the
    /// announced end, which ends the list there (and is remembered, see
    /// [`PagedTable::shortfall`]).
    fn checked_total(&mut self, page: u32, announced: u64, rows: u64) -> u64 {
        let size = u64::from(self.page_size);
        let before = u64::from(page.saturating_sub(1)) * size;
        let expected = announced.saturating_sub(before).min(size);
        if page == 0 || rows >= expected {
            return announced;
        }
        if self.shortfall.is_some() {
            self.halted = true;
        }
        self.shortfall = Some(Shortfall {
            announced,
            page,
            rows,
        });
        before + rows
    }

    /// Where the service's pages fell short of the total it announced, if they did.
    pub fn shortfall(&self) -> Option<Shortfall> {
        self.shortfall
    }

    /// Whether fetching stopped after pages kept falling short (until [`PagedTable::retry`]).
    pub fn is_halted(&self) -> bool {
        self.halted
    }

    /// Lets failed pages be asked for again by the next [`PagedTable::wants`], and fetching
    /// start again after pages fell short.
    pub fn retry(&mut self) {
        self.failed.clear();
        self.halted = false;
    }

    /// Starts over for a new filter or sort: a new generation, an empty cache, the cursor on the
    /// first row, and the loading state until the first page of the new generation arrives.
    pub fn reset(&mut self) {
        self.generation += 1;
        self.total = None;
        self.cursor = 0;
        self.offset = 0;
        self.pages.clear();
        self.requested.clear();
        self.failed.clear();
        self.shortfall = None;
        self.halted = false;
    }

    /// Sorts by the column with sort key `key`: ascending first, the other way when it is the
    /// sort already. Reloads (see [`PagedTable::reset`]). An empty key is ignored.
    pub fn sort_by(&mut self, key: &'static str) {
        if key.is_empty() {
            return;
        }
        let descending = self.sort.is_some_and(|s| s.key == key && !s.descending);
        self.set_sort(Some(Sort { key, descending }));
    }

    /// Sets the sort (`None`: the server's own order) and reloads when it changed.
    pub fn set_sort(&mut self, sort: Option<Sort>) {
        if self.sort != sort {
            self.sort = sort;
            self.reset();
        }
    }

    fn set_total(&mut self, total: u64) {
        self.total = Some(total);
        let count = self.page_count(total);
        self.pages.retain(|p, _| *p <= count);
        self.requested.retain(|p| *p <= count);
        self.failed.retain(|p| *p <= count);
        self.cursor = self.cursor.min(total.saturating_sub(1));
        self.follow_cursor();
    }

    fn evict(&mut self) {
        let here = self.page_of(self.cursor);
        while self.pages.len() > self.max_pages {
            let Some(&farthest) = self.pages.keys().max_by_key(|p| p.abs_diff(here)) else {
                break;
            };
            self.pages.remove(&farthest);
        }
    }

    /// What a click at (`column`, `row`), in screen cells, hit in the table as last drawn: a
    /// sortable column's header, a row of the list, or nothing.
    pub fn click(&self, column: u16, row: u16) -> TableClick {
        let Some(hits) = &self.hits else {
            return TableClick::Nothing;
        };
        if row == hits.header_y {
            return hits
                .columns
                .iter()
                .find(|(x, w, key)| !key.is_empty() && column >= *x && column < x + w)
                .map_or(TableClick::Nothing, |(_, _, key)| TableClick::Header(key));
        }
        let body = hits.body;
        if row < body.y || row >= body.bottom() || column < body.x || column >= body.right() {
            return TableClick::Nothing;
        }
        let index = self.offset + u64::from(row - body.y);
        match self.total {
            Some(total) if index < total => TableClick::Row(index),
            _ => TableClick::Nothing,
        }
    }

    // ----- movement ---------------------------------------------------------------------------

    /// Index of the last row, when the list is known and not empty.
    fn last_index(&self) -> Option<u64> {
        self.total.filter(|&t| t > 0).map(|t| t - 1)
    }

    /// Keeps the cursor on screen and the window within the list.
    fn follow_cursor(&mut self) {
        let height = u64::from(self.viewport.max(1));
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + height {
            self.offset = self.cursor + 1 - height;
        }
        let max_offset = self.total.unwrap_or(0).saturating_sub(height);
        self.offset = self.offset.min(max_offset);
    }

    /// Moves the cursor to row `index`, clamped to the list.
    pub fn select(&mut self, index: u64) {
        if let Some(last) = self.last_index() {
            self.cursor = index.min(last);
            self.follow_cursor();
        }
    }

    /// Moves the cursor `n` rows down.
    pub fn down(&mut self, n: u64) {
        self.select(self.cursor.saturating_add(n));
    }

    /// Moves the cursor `n` rows up.
    pub fn up(&mut self, n: u64) {
        self.select(self.cursor.saturating_sub(n));
    }

    /// Scrolls a screen down: the window and the cursor move by `rows` (see
    /// [`PagedTable::visible_rows`]).
    pub fn page_down(&mut self, rows: u16) {
        if self.last_index().is_none() {
            return;
        }
        let rows = u64::from(rows.max(1));
        self.offset = self.offset.saturating_add(rows);
        self.down(rows);
    }

    /// Scrolls a screen up.
    pub fn page_up(&mut self, rows: u16) {
        if self.last_index().is_none() {
            return;
        }
        let rows = u64::from(rows.max(1));
        self.offset = self.offset.saturating_sub(rows);
        self.up(rows);
    }

    /// The first row (`g`).
    pub fn top(&mut self) {
        self.select(0);
    }

    /// The last row (`G`): only the last page (and the rows on screen) become wanted.
    pub fn bottom(&mut self) {
        self.select(u64::MAX);
    }
}

#[cfg(test)]
mod tests;
