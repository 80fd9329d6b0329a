//! Columns of a paged table and the fitting of their widths to the space there is.

use std::fmt;

use ratatui::layout::Alignment;
use ratatui::text::Line;

use crate::ui::judging::Judging;
use crate::ui::theme::Theme;

/// Draws one cell of a row. The line may borrow from the row; it is cut to the column's width
/// with an ellipsis, so it never wraps.
pub type CellFn<R> = for<'r> fn(&'r R, &Theme) -> Line<'r>;

/// Draws one cell of a row that shows a judgement of it, by the settings the table was given
/// ([`super::PagedTable::judge_by`]).
pub type JudgedCellFn<R> = for<'r> fn(&'r R, &Theme, &Judging) -> Line<'r>;

/// The text of field `name` of a row's record, as the service sent it (see
/// [`Column::field`]).
pub type FieldFn<R> = fn(&R, &str) -> String;

/// How a column draws its cells.
pub enum CellDraw<R> {
    Plain(CellFn<R>),
    Judged(JudgedCellFn<R>),
    /// A field of the record that no declared column shows, chosen with `:columns`.
    Field(&'static str, FieldFn<R>),
}

impl<R> CellDraw<R> {
    /// The cell of `row`.
    pub fn line<'r>(&self, row: &'r R, theme: &Theme, judging: &Judging) -> Line<'r> {
        match self {
            CellDraw::Plain(cell) => cell(row, theme),
            CellDraw::Judged(cell) => cell(row, theme, judging),
            CellDraw::Field(name, text) => Line::from(text(row, name)),
        }
    }
}

impl<R> Clone for CellDraw<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for CellDraw<R> {}

/// How wide a column may be: at least `min`, at most `max` (0: no limit), and its share
/// (`weight`) of the room left once every shown column has its minimum (0: stays at `min`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnWidth {
    pub min: u16,
    pub max: u16,
    pub weight: u16,
}

impl ColumnWidth {
    /// Exactly `width` columns.
    pub const fn fixed(width: u16) -> Self {
        ColumnWidth {
            min: width,
            max: width,
            weight: 0,
        }
    }

    /// At least `min`, growing without limit by `weight`.
    pub const fn flex(min: u16, weight: u16) -> Self {
        ColumnWidth {
            min,
            max: 0,
            weight,
        }
    }

    /// From `min` to `max`, growing by `weight`.
    pub const fn between(min: u16, max: u16, weight: u16) -> Self {
        ColumnWidth { min, max, weight }
    }

    /// Whether the column can take one more cell of width `current + 1`.
    fn can_grow(self, current: u16) -> bool {
        self.weight > 0 && (self.max == 0 || current < self.max)
    }
}

/// How long a column stays when the table is too narrow for all of them, unless told otherwise.
pub const DEFAULT_PRIORITY: u8 = priority::DEFAULT;

/// The priorities the panes give their columns; higher stays longer. Amounts are not ranked
/// here: they are kept ([`Column::keep`]).
pub mod priority {
    /// Identifiers (the service's ids, external ids, tax ids): the first to give way.
    pub const ID: u8 = 10;
    /// Timestamps and secondary dates.
    pub const TIME: u8 = 20;
    /// Details that the detail view shows anyway (country, source, type).
    pub const DETAIL: u8 = 30;
    pub const DEFAULT: u8 = 50;
    /// Dates that drive the work (due, end).
    pub const DATE: u8 = 60;
    /// What names the row (jurisdiction, customer, period).
    pub const NAME: u8 = 70;
    /// Status, and the mark of a marked row: the last to give way before amounts.
    pub const STATUS: u8 = 90;
}

/// One column of a paged table over rows of type `R`.
pub struct Column<R> {
    pub title: &'static str,
    /// The field the server sorts by (`order_by`), or `""` when the column is not sortable.
    pub key: &'static str,
    pub width: ColumnWidth,
    pub align: Alignment,
    pub cell: CellDraw<R>,
    /// When the table is too narrow, the columns of the lowest priority are hidden first.
    pub priority: u8,
    /// Never cut (amounts, short statuses): the column is as wide as its widest cell on screen
    /// before any other column gets room, and is hidden only after every column that is not
    /// kept.
    pub keep: bool,
    /// Shown whole or not at all (a code such as `PARTIAL_CREDIT_NOTE`, which cut to `PAR…`
    /// reads as its neighbour): as wide as its widest cell on screen, and hidden, by its
    /// priority, when that does not fit. Unlike a kept column it gives way as any other.
    pub whole: bool,
}

impl<R> Column<R> {
    /// A left-aligned, unsortable column at least as wide as its title, sharing spare room with
    /// weight 1.
    pub const fn new(title: &'static str, cell: CellFn<R>) -> Self {
        Column {
            title,
            key: "",
            width: ColumnWidth::flex(title.len() as u16, 1),
            align: Alignment::Left,
            cell: CellDraw::Plain(cell),
            priority: DEFAULT_PRIORITY,
            keep: false,
            whole: false,
        }
    }

    /// A column showing field `name` of the record (`:columns exempt`), titled with the field's
    /// name in words (`Total tax amount calculated`, which `:columns` reads back as the name),
    /// drawn whole when it fits and hidden first when it does not.
    pub fn field(name: &str, text: FieldFn<R>) -> Self {
        let title = field_title(&crate::model::format::code_words(name));
        Column {
            cell: CellDraw::Field(field_title(name), text),
            priority: priority::ID,
            whole: true,
            ..Column::new(title, |_, _| Line::default())
        }
    }

    /// [`Column::new`] for a column whose cells show a judgement of the row (whether a filing
    /// adds up), drawn by the settings the table was given.
    pub const fn judged(title: &'static str, cell: JudgedCellFn<R>) -> Self {
        Column {
            title,
            key: "",
            width: ColumnWidth::flex(title.len() as u16, 1),
            align: Alignment::Left,
            cell: CellDraw::Judged(cell),
            priority: DEFAULT_PRIORITY,
            keep: false,
            whole: false,
        }
    }

    /// How long the column stays when the table is too narrow: lower gives way first (ids and
    /// timestamps low, status high). The default is [`DEFAULT_PRIORITY`].
    pub const fn priority(mut self, priority: u8) -> Self {
        self.priority = priority;
        self
    }

    /// Marks the column as never cut (amounts, totals, a status whose words are short): it gets
    /// the full width of its cells first and is hidden last.
    pub const fn keep(mut self) -> Self {
        self.keep = true;
        self
    }

    /// Marks the column as shown whole or hidden, never cut ([`Column::whole`]).
    pub const fn whole(mut self) -> Self {
        self.whole = true;
        self
    }

    /// Makes the column sortable by the server field `key`.
    pub const fn sort_key(mut self, key: &'static str) -> Self {
        self.key = key;
        self
    }

    /// Sets the width rules.
    pub const fn width(mut self, width: ColumnWidth) -> Self {
        self.width = width;
        self
    }

    /// Aligns the cells and the title to the right (for amounts and counts).
    pub const fn right(mut self) -> Self {
        self.align = Alignment::Right;
        self
    }

    /// Whether the column can be sorted by.
    pub const fn sortable(&self) -> bool {
        !self.key.is_empty()
    }
}

impl<R> Clone for Column<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Column<R> {}

impl<R> fmt::Debug for Column<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Column")
            .field("title", &self.title)
            .field("key", &self.key)
            .field("width", &self.width)
            .field("align", &self.align)
            .field("priority", &self.priority)
            .field("keep", &self.keep)
            .field("whole", &self.whole)
            .finish_non_exhaustive()
    }
}

/// `name` for as long as the program runs: a column's title is static. Each field name is kept
/// once, and only the names of a record's own fields are asked for, so the set stays small.
fn field_title(name: &str) -> &'static str {
    static TITLES: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut titles = TITLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(title) = titles.get(name) {
        return title;
    }
    let title: &'static str = Box::leak(name.to_owned().into_boxed_str());
    titles.insert(title);
    title
}

/// What the fitting needs to know of a column: its width rules, its priority, whether it is
/// never cut, and how wide its content is on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnFit {
    pub width: ColumnWidth,
    pub priority: u8,
    pub keep: bool,
    /// The widest of its title and its cells on screen; 0 when no row is on screen.
    pub content: u16,
}

impl From<ColumnWidth> for ColumnFit {
    /// A column of the default priority that may be cut, content unknown.
    fn from(width: ColumnWidth) -> Self {
        ColumnFit {
            width,
            priority: DEFAULT_PRIORITY,
            keep: false,
            content: 0,
        }
    }
}

/// Cells a column may take past its content when there is room to spare, so neighbours do not
/// touch.
pub const PADDING: u16 = 2;

/// Fits columns into `available` cells with `spacing` cells between neighbours.
///
/// While the minimum widths (and the spacing) of the shown columns do not fit, one whole column
/// is hidden (width 0): the one of the lowest priority, a kept column only once no other is
/// left, the rightmost among equals. So the grid never wraps or squeezes text into nothing, and
/// what matters most stays. The room left over is shared by weight, never taking a column past
/// its maximum; rounding leftovers go one cell at a time from the left. Room that no column may
/// take stays unused on the right.
///
/// When the content on screen is known (rows are shown), widths follow it instead: the room
/// left goes first to the columns whose content is cut, the one missing the least made whole
/// first, each up to its widest cell (its maximum then gives way to what is really there); what is still
/// left pads each growable column by up to [`PADDING`] cells, and the rest stays unused on the
/// right. So a wide terminal shows every id whole without stretching a column into a band of
/// blanks, and a narrow one cuts only the longest text.
pub fn fit_widths(columns: &[ColumnFit], available: u16, spacing: u16) -> Vec<u16> {
    let widths: Vec<ColumnWidth> = columns.iter().map(|c| c.width).collect();
    let mut shown = vec![true; columns.len()];
    let needed = |shown: &[bool]| -> u32 {
        let mins: Vec<u32> = (0..widths.len())
            .filter(|&i| shown[i])
            .map(|i| u32::from(widths[i].min.max(1)))
            .collect();
        let gaps = u32::from(spacing) * (mins.len() as u32).saturating_sub(1);
        mins.iter().sum::<u32>() + gaps
    };
    while needed(&shown) > u32::from(available) {
        let victim = (0..columns.len())
            .filter(|&i| shown[i])
            .min_by_key(|&i| (columns[i].keep, columns[i].priority, std::cmp::Reverse(i)));
        match victim {
            Some(i) => shown[i] = false,
            None => break,
        }
    }

    let mut out: Vec<u16> = (0..widths.len())
        .map(|i| if shown[i] { widths[i].min.max(1) } else { 0 })
        .collect();
    let used = u16::try_from(needed(&shown)).unwrap_or(available);
    let mut spare = available.saturating_sub(used);
    if columns.iter().any(|c| c.content > 0) {
        fill_to_content(columns, &shown, &mut out, spare);
        return out;
    }
    while spare > 0 {
        let growable: Vec<usize> = (0..widths.len())
            .filter(|&i| shown[i] && widths[i].can_grow(out[i]))
            .collect();
        if growable.is_empty() {
            break;
        }
        let weights: u32 = growable.iter().map(|&i| u32::from(widths[i].weight)).sum();
        let mut given = 0;
        for &i in &growable {
            let mut share = (u32::from(spare) * u32::from(widths[i].weight) / weights) as u16;
            if widths[i].max > 0 {
                share = share.min(widths[i].max - out[i]);
            }
            out[i] += share;
            given += share;
        }
        if given == 0 {
            // Less room than columns wanting it: one cell each from the left.
            for &i in &growable {
                if spare == 0 {
                    break;
                }
                out[i] += 1;
                spare -= 1;
            }
        } else {
            spare -= given;
        }
    }
    out
}

/// Shares `spare` cells by content: cut columns first, the least cut made whole first, each up
/// to its content; then up to [`PADDING`] cells each, from the left.
fn fill_to_content(columns: &[ColumnFit], shown: &[bool], out: &mut [u16], mut spare: u16) {
    let growable = |i: usize| shown[i] && columns[i].width.weight > 0;
    let mut cut: Vec<usize> = (0..columns.len())
        .filter(|&i| growable(i) && columns[i].content > out[i])
        .collect();
    cut.sort_by_key(|&i| (columns[i].content - out[i], i));
    for i in cut {
        let give = spare.min(columns[i].content - out[i]);
        out[i] += give;
        spare -= give;
    }
    for _ in 0..PADDING {
        for i in (0..columns.len()).filter(|&i| growable(i)) {
            if spare == 0 {
                return;
            }
            if out[i] < columns[i].content.max(columns[i].width.min) + PADDING {
                out[i] += 1;
                spare -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sized(min: u16, content: u16) -> ColumnFit {
        ColumnFit {
            content,
            ..ColumnFit::from(ColumnWidth::between(min, 20, 1))
        }
    }

    #[test]
    fn a_wide_table_follows_the_content_and_leaves_the_rest_on_the_right() {
        // An id of 20, a name of 12, a date of 10 (fixed), all mins smaller.
        let cols = [
            sized(6, 20),
            sized(8, 12),
            ColumnFit {
                content: 10,
                ..ColumnFit::from(ColumnWidth::fixed(10))
            },
        ];
        let w = fit_widths(&cols, 200, 1);
        // Each growable column whole plus its padding; the fixed one as it is; no band.
        assert_eq!(w, [22, 14, 10]);
        // The content wins over a maximum: the id is not cut at 20 when it is 30 wide.
        let long = [sized(6, 30), sized(8, 12)];
        assert_eq!(fit_widths(&long, 200, 1), [32, 14]);
    }

    #[test]
    fn a_narrow_table_cuts_only_the_column_that_misses_the_most() {
        // An id of 20 (min 6), a customer of 14 (min 8), a description of 60 (min 10).
        let cols = [sized(6, 20), sized(8, 14), sized(10, 60)];
        // Mins 24 + 2 gaps = 26; 54 spare: the customer's 6 and the id's 14 first, the
        // description gets the remaining 34.
        let w = fit_widths(&cols, 80, 1);
        assert_eq!(w, [20, 14, 44]);
        assert_eq!(total(&w, 1), 80);
        // Less room: the two short ones still whole, the long one cut.
        assert_eq!(fit_widths(&cols, 60, 1), [20, 14, 24]);
        // Too little for all: the customer whole, then the id as far as it goes.
        assert_eq!(fit_widths(&cols, 40, 1), [14, 14, 10]);
    }

    fn fits(widths: &[ColumnWidth]) -> Vec<ColumnFit> {
        widths.iter().copied().map(ColumnFit::from).collect()
    }

    fn total(widths: &[u16], spacing: u16) -> u16 {
        let shown: Vec<u16> = widths.iter().copied().filter(|&w| w > 0).collect();
        shown.iter().sum::<u16>() + spacing * (shown.len() as u16).saturating_sub(1)
    }

    #[test]
    fn shares_spare_room_by_weight() {
        let cols = [
            ColumnWidth::flex(4, 1),
            ColumnWidth::flex(4, 3),
            ColumnWidth::fixed(6),
        ];
        // 4 + 4 + 6 + 2 spaces = 16; 24 spare: 6 to the first, 18 to the second.
        let w = fit_widths(&fits(&cols), 40, 1);
        assert_eq!(w, [10, 22, 6]);
        assert_eq!(total(&w, 1), 40);
    }

    #[test]
    fn respects_maximums_and_leaves_the_rest() {
        let cols = [ColumnWidth::between(2, 5, 1), ColumnWidth::between(2, 8, 1)];
        assert_eq!(fit_widths(&fits(&cols), 100, 1), [5, 8]);
        // A capped column's share goes to the others.
        let cols = [ColumnWidth::between(2, 3, 1), ColumnWidth::flex(2, 1)];
        assert_eq!(fit_widths(&fits(&cols), 21, 1), [3, 17]);
    }

    #[test]
    fn hides_columns_that_do_not_fit_from_the_right() {
        let cols = [
            ColumnWidth::flex(10, 1),
            ColumnWidth::fixed(8),
            ColumnWidth::flex(5, 1),
        ];
        // 10 + 1 + 8 = 19 fits in 22, the third (1 + 5) does not.
        let w = fit_widths(&fits(&cols), 22, 1);
        assert_eq!(w, [13, 8, 0]);
        assert_eq!(total(&w, 1), 22);
        assert_eq!(fit_widths(&fits(&cols), 5, 1), [0, 0, 0]);
    }

    #[test]
    fn hides_the_lowest_priority_first_and_kept_columns_last() {
        let fit = |min, priority, keep| ColumnFit {
            width: ColumnWidth::fixed(min),
            priority,
            keep,
            content: 0,
        };
        // An id (low), an amount (kept, lowest number), a status (high), a timestamp (low).
        let cols = [
            fit(10, 10, false),
            fit(12, 0, true),
            fit(8, 90, false),
            fit(16, 20, false),
        ];
        // All: 10 + 12 + 8 + 16 + 3 = 49.
        assert_eq!(fit_widths(&cols, 49, 1), [10, 12, 8, 16]);
        // The id goes first, though it is the leftmost.
        assert_eq!(fit_widths(&cols, 48, 1), [0, 12, 8, 16]);
        // Then the timestamp, then the status; the kept amount stays to the end.
        assert_eq!(fit_widths(&cols, 30, 1), [0, 12, 8, 0]);
        assert_eq!(fit_widths(&cols, 20, 1), [0, 12, 0, 0]);
        assert_eq!(fit_widths(&cols, 11, 1), [0, 0, 0, 0]);
    }

    #[test]
    fn spreads_rounding_leftovers_from_the_left() {
        let cols = [ColumnWidth::flex(1, 1); 3];
        // 3 + 2 spaces = 5; 2 spare for three equal weights.
        assert_eq!(fit_widths(&fits(&cols), 7, 1), [2, 2, 1]);
        for width in 0..60 {
            let w = fit_widths(&fits(&cols), width, 1);
            assert!(total(&w, 1) <= width, "{width}: {w:?}");
        }
    }

    #[test]
    fn a_column_starts_as_wide_as_its_title() {
        struct Place(String);
        fn cell<'r>(p: &'r Place, _: &Theme) -> Line<'r> {
            Line::from(p.0.as_str())
        }
        let c: Column<Place> = Column::new("Jurisdiction", cell).sort_key("state").right();
        assert_eq!(c.width.min, 12);
        assert!(c.sortable());
        assert_eq!(c.align, Alignment::Right);
    }
}
