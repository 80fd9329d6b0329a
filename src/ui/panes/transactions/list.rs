//! The list: its pages fetched in the sort the user chose, its keys, and `s`/`S` cycling the
//! service's `order_by` fields.

use super::Mode;
use super::TransactionsPane;
use super::filter::filter_form;
use crate::effect::Call;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};

impl TransactionsPane {
    /// Asks for the pages the table wants, in the sort the user chose.
    pub(super) fn fetch(&mut self, ctx: &mut Ctx) {
        let mut filter = self.filter.clone();
        filter.order_by = self.table.sort_keys();
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::Transactions {
                filter: filter.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the filter in force: old answers still on their way are cancelled.
    pub(super) fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    /// `s` picks the next sortable column, `S` turns the sort around.
    fn sort(&mut self, action: Action, ctx: &mut Ctx) {
        let Some(next) = self
            .table
            .next_sort(&self.columns, action == Action::SortReverse)
        else {
            return;
        };
        self.pages.cancel_all(ctx);
        self.table.set_sort(Some(next));
        ctx.notify(Level::Info, format!("sorted by {next}"));
    }

    pub(super) fn list_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            // Movement: the table moves its cursor.
            action if self.table.navigate(action) => {}
            Action::Open => match self.table.selected().cloned() {
                Some(t) => self.open_detail(t, ctx),
                None => return false,
            },
            Action::Filter => self.mode = Mode::Filter(filter_form(&self.filter)),
            Action::Refresh => self.reload(ctx),
            Action::Sort | Action::SortReverse => self.sort(action, ctx),
            _ => return false,
        }
        if matches!(self.mode, Mode::List) {
            self.fetch(ctx);
        }
        true
    }
}
