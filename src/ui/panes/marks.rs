//! Rows marked for an action on several at once (Space marks, the action takes the marked rows,
//! or the selected row when none is marked). The marks are kept by record id, so they survive
//! paging and a row updated by a write keeps its mark.

use ratatui::text::{Line, Span};

use crate::model::tenanted::CertificateImport;
use crate::model::{Filing, Page};
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, PagedTable};

/// A record with an id that names it in the service.
pub trait Keyed {
    fn key(&self) -> &str;
}

impl Keyed for CertificateImport {
    fn key(&self) -> &str {
        &self.id
    }
}

impl Keyed for Filing {
    fn key(&self) -> &str {
        &self.id
    }
}

/// A row of a list offering marks: the record and whether it is marked (a copy of the
/// [`Marks`], for drawing).
#[derive(Debug, Clone, PartialEq)]
pub struct Marked<R> {
    pub row: R,
    pub marked: bool,
}

/// The ids of the marked rows, in the order they were marked.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    ids: Vec<String>,
}

impl Marks {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.ids.iter().any(|m| m == id)
    }

    /// Forgets every mark (a new filter shows other rows).
    pub fn clear<R: Keyed>(&mut self, table: &mut PagedTable<Marked<R>>) {
        for id in std::mem::take(&mut self.ids) {
            redraw(table, &id, false);
        }
    }

    /// Marks the selected row, or unmarks it when it is marked. Returns the row's new state, or
    /// `None` when no row is selected.
    pub fn toggle<R: Keyed>(&mut self, table: &mut PagedTable<Marked<R>>) -> Option<bool> {
        let id = table.selected()?.row.key().to_owned();
        let marked = if self.contains(&id) {
            self.ids.retain(|m| *m != id);
            false
        } else {
            self.ids.push(id.clone());
            true
        };
        redraw(table, &id, marked);
        Some(marked)
    }

    /// Unmarks `id` (an action went through for it).
    pub fn remove<R: Keyed>(&mut self, table: &mut PagedTable<Marked<R>>, id: &str) {
        if self.contains(id) {
            self.ids.retain(|m| m != id);
            redraw(table, id, false);
        }
    }

    /// What an action takes: the marked ids, or the selected row's id when nothing is marked.
    pub fn targets<R: Keyed>(&self, table: &PagedTable<Marked<R>>) -> Vec<String> {
        if self.ids.is_empty() {
            table
                .selected()
                .map(|m| vec![m.row.key().to_owned()])
                .unwrap_or_default()
        } else {
            self.ids.clone()
        }
    }

    /// A page of records as rows, each marked when its id is.
    pub fn rows<R: Keyed>(&self, page: Page<R>) -> Page<Marked<R>> {
        let Page {
            items,
            total,
            page,
            size,
            pages,
        } = page;
        let items = items
            .into_iter()
            .map(|row| Marked {
                marked: self.contains(row.key()),
                row,
            })
            .collect();
        Page {
            items,
            total,
            page,
            size,
            pages,
        }
    }

    /// Puts a record changed by a write in place of its row, keeping the row's mark.
    pub fn update<R: Keyed + Clone>(&self, table: &mut PagedTable<Marked<R>>, row: R) -> usize {
        let id = row.key().to_owned();
        let marked = self.contains(&id);
        table.replace_where(|m| m.row.key() == id, Marked { row, marked })
    }
}

/// Sets the drawn mark of the cached row `id`.
fn redraw<R: Keyed>(table: &mut PagedTable<Marked<R>>, id: &str, marked: bool) {
    table.update_where(|m| m.row.key() == id, |m| m.marked = marked);
}

/// The marker column: `●` on a marked row.
pub fn marker_column<R>() -> Column<Marked<R>> {
    Column::new(" ", marker_cell::<R>).width(ColumnWidth::fixed(1))
}

fn marker_cell<'r, R>(m: &'r Marked<R>, theme: &Theme) -> Line<'r> {
    if m.marked {
        Line::from(Span::styled("●", theme.key))
    } else {
        Line::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tenanted::CertificateImportStatus;

    fn import(id: &str) -> CertificateImport {
        CertificateImport {
            id: id.into(),
            status: CertificateImportStatus::Uploaded,
            exemption_id: None,
            customer_id: None,
            customer_name: None,
            file_name: None,
            country_code: None,
            jurisdiction: None,
            exemption_type: None,
            uploaded_at: None,
        }
    }

    fn table(marks: &Marks, ids: &[&str]) -> PagedTable<Marked<CertificateImport>> {
        let mut table = PagedTable::new("imports");
        let wants = table.wants();
        let rows: Vec<_> = ids.iter().map(|id| import(id)).collect();
        let page = Page::new(rows, ids.len() as u64, 1, 100);
        table.receive(wants[0].generation, 1, marks.rows(page));
        table
    }

    #[test]
    fn marks_follow_the_cursor_and_survive_a_reload() {
        let mut marks = Marks::default();
        let mut t = table(&marks, &["a", "b", "c"]);
        assert_eq!(
            marks.targets(&t),
            vec!["a"],
            "the selected row when none is marked"
        );
        assert_eq!(marks.toggle(&mut t), Some(true));
        t.down(2);
        assert_eq!(marks.toggle(&mut t), Some(true));
        assert_eq!(marks.targets(&t), vec!["a", "c"]);
        assert!(t.row(0).unwrap().marked && !t.row(1).unwrap().marked);
        assert_eq!(marks.toggle(&mut t), Some(false), "a second press unmarks");
        assert_eq!(marks.targets(&t), vec!["a"]);

        let again = table(&marks, &["a", "b", "c"]);
        assert!(
            again.row(0).unwrap().marked,
            "a reloaded page keeps the marks"
        );

        let mut changed = import("a");
        changed.status = CertificateImportStatus::Approved;
        assert_eq!(marks.update(&mut t, changed), 1);
        assert!(t.row(0).unwrap().marked, "an updated row keeps its mark");
        marks.remove(&mut t, "a");
        assert!(marks.is_empty() && !t.row(0).unwrap().marked);
    }
}
