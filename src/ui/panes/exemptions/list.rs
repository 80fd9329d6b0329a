//! The list: its pages, the live search, the sort, and the keys that move through it.

use crossterm::event::KeyEvent;

use super::filter::filter_form;
use super::search::{Search, SearchOutcome};
use super::{ExemptionsPane, Mode};
use crate::effect::Call;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};

impl ExemptionsPane {
    /// Asks for the pages the table wants, with the filter and the sort in force.
    pub(super) fn fetch(&mut self, ctx: &mut Ctx) {
        let mut filter = self.filter.clone();
        filter.order_by = self.table.sort_keys();
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::Exemptions {
                filter: filter.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the filter in force: answers still on their way are cancelled.
    pub(super) fn reload(&mut self, ctx: &mut Ctx) {
        self.cancel_pages(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    /// Cancels every page request still on its way.
    pub(super) fn cancel_pages(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
    }

    /// Sets the search text in force and reloads when it changed.
    pub(super) fn apply_search(&mut self, text: &str, ctx: &mut Ctx) {
        let query = Some(text.trim())
            .filter(|q| !q.is_empty())
            .map(str::to_owned);
        if query != self.filter.search_query {
            self.filter.search_query = query;
            self.reload(ctx);
        }
    }

    /// `s` picks the next sortable column, `S` reverses the direction.
    pub(super) fn sort(&mut self, action: Action, ctx: &mut Ctx) {
        let Some(next) = self
            .table
            .next_sort(&self.columns, action == Action::SortReverse)
        else {
            return;
        };
        self.cancel_pages(ctx);
        self.table.set_sort(Some(next));
        ctx.notify(Level::Info, format!("sorted by {next}"));
    }

    pub(super) fn list_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            // Movement: the table moves its cursor.
            action if self.table.navigate(action) => {}
            Action::Open => match self.table.selected().cloned() {
                Some(e) => self.open_detail(e, ctx),
                None => return false,
            },
            Action::Filter => {
                self.search = Some(Search::new(
                    self.filter.search_query.as_deref().unwrap_or_default(),
                ))
            }
            Action::Sort | Action::SortReverse => self.sort(action, ctx),
            Action::Refresh => self.reload(ctx),
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// A key while the search line has the keys: the text is sent as it changes.
    pub(super) fn search_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(search) = &mut self.search else {
            return;
        };
        match search.handle_key(key) {
            // Sent once the typing pauses (see `tick`), so a fast typist costs one request.
            SearchOutcome::Edited => {
                self.pending_search = Some((search.text().to_owned(), SEARCH_DEBOUNCE_TICKS));
            }
            SearchOutcome::Done => {
                self.search = None;
                if let Some((text, _)) = self.pending_search.take() {
                    self.apply_search(&text, ctx);
                }
            }
            SearchOutcome::Cleared => {
                self.search = None;
                self.pending_search = None;
                self.apply_search("", ctx);
            }
            SearchOutcome::MoreFilters => {
                self.search = None;
                // The text still waiting goes with the filters, sent when they are applied.
                if let Some((text, _)) = self.pending_search.take() {
                    self.filter.search_query = Some(text.trim())
                        .filter(|q| !q.is_empty())
                        .map(str::to_owned);
                }
                self.mode = Mode::Filter(filter_form(&self.filter));
            }
            SearchOutcome::None => {}
        }
    }
}

/// Ticks (of 100 ms) the typing must pause before the search is sent.
pub(super) const SEARCH_DEBOUNCE_TICKS: u8 = 3;
