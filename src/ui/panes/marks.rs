//! Rows of a list offering marks (Space marks, an action takes the marked rows, or the selected
//! row when none is marked). The marks themselves are kept by the list
//! ([`crate::ui::skeleton::ListView::toggle_mark`]), by record id, so they survive paging and a
//! row updated by a write keeps its mark; a row carries a copy of its mark for drawing.

use std::borrow::Borrow;

use chrono::NaiveDate;
use ratatui::text::{Line, Span};

use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// A row of a list offering marks: the record, whether it is marked, and the day it was read
/// (what "overdue" is measured against when the row is drawn).
#[derive(Debug, Clone, PartialEq)]
pub struct Marked<R> {
    pub row: R,
    pub marked: bool,
    pub read_on: NaiveDate,
}

impl<R> Marked<R> {
    /// A row not marked (the list marks it when it arrives), read today.
    pub fn new(row: R) -> Self {
        Marked::read_on(row, crate::clock::today())
    }

    /// A row not marked, read on `day`.
    pub fn read_on(row: R, day: NaiveDate) -> Self {
        Marked {
            row,
            marked: false,
            read_on: day,
        }
    }
}

impl<R> From<R> for Marked<R> {
    fn from(row: R) -> Self {
        Marked::new(row)
    }
}

impl<R> Borrow<R> for Marked<R> {
    fn borrow(&self) -> &R {
        &self.row
    }
}

/// The marker column: `●` on a marked row.
pub fn marker_column<R>() -> Column<Marked<R>> {
    Column::new(" ", marker_cell::<R>)
        .width(ColumnWidth::fixed(1))
        .priority(priority::STATUS)
}

fn marker_cell<'r, R>(m: &'r Marked<R>, theme: &Theme) -> Line<'r> {
    if m.marked {
        Line::from(Span::styled("●", theme.key))
    } else {
        Line::default()
    }
}
