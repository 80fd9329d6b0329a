//! A pane's list: the paged table, its columns, the filter in force, the page calls, and the
//! state of the load (loading, loaded, failed, stale, short). What a list is *of* comes from a
//! [`ListSpec`]; everything else is here, once.
//!
//! - A failed first load shows its error in the pane, with the refresh key to retry.
//! - A failed refresh keeps the rows on screen, marked stale with the time they were fetched.
//! - A page that comes back empty or short before the announced end ends the list there and
//!   says so; nothing is asked again until the user refreshes.
//! - Any success clears the error.

use std::fmt::Write as _;

use chrono::{DateTime, Local};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::paging::PageCalls;
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::filters::Sort as SortKey;
use crate::model::{Page, PageParams};
use crate::ui::judging::Judging;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::text::{self, thousands, truncate};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{Form, FormValues};
use crate::ui::widgets::paged_table::{Column, PAGE_SIZE, PagedTable, TableClick};
use unicode_width::UnicodeWidthStr;

/// What a list is of: its rows, its filter, its call and its columns.
pub trait ListSpec: Send + 'static {
    /// The record a row shows: the row itself, or the record under a row's mark.
    type Record: Clone + Send + Sync + serde::Serialize + 'static;
    type Row: Clone + Send + 'static + std::borrow::Borrow<Self::Record> + From<Self::Record>;
    type Filter: Clone + Default + PartialEq + Send + 'static;

    /// The rows, plural: `registrations`.
    const NOUN: &'static str;

    fn columns() -> Vec<Column<Self::Row>>;

    /// The call for one page, with the filter and the sort in force.
    fn call(filter: &Self::Filter, sort: Vec<SortKey>, page: PageParams) -> Call;

    /// The page in an answer to [`ListSpec::call`].
    fn page(reply: Reply) -> Option<Page<Self::Row>>;

    /// A row's id (copied by `y`, and how a changed record finds its row).
    fn id(row: &Self::Row) -> &str;

    /// The filter in words, for the title: `all registrations`, `customers named "acme"`.
    fn describe(filter: &Self::Filter) -> String;

    /// Sets whether a row shows as marked, for lists whose rows carry the mark (see
    /// [`ListView::toggle_mark`]); lists without marks leave it alone.
    fn set_marked(_row: &mut Self::Row, _marked: bool) {}

    /// The filter form, filled with `filter`.
    fn filter_form(filter: &Self::Filter) -> Form;

    /// The filter a submitted form describes (`current`: the filter in force, for what the
    /// form leaves out; `judging`: what a filter on a judgement, such as filings that do not add
    /// up, judges by).
    fn filter_of(values: &FormValues, current: &Self::Filter, judging: &Judging) -> Self::Filter;

    /// Whether part of `filter` is kept on this side (a window the service cannot filter by):
    /// the list then reads every page of the query, up to [`LOCAL_PAGES`], and shows only the
    /// rows [`ListSpec::keeps`] keeps.
    fn is_local(_filter: &Self::Filter) -> bool {
        false
    }

    /// Whether `row` passes the part of `filter` kept on this side.
    fn keeps(_filter: &Self::Filter, _row: &Self::Row) -> bool {
        true
    }

    /// The sort a new list opens with (`None`: the service's own order).
    fn default_sort() -> Option<crate::ui::widgets::paged_table::Sort> {
        None
    }

    /// The filter (and the row to open) that `goto` asks of this list, if it names it.
    fn landing(_goto: &crate::effect::Goto) -> Option<(Self::Filter, Option<Self::Row>)> {
        None
    }
}

/// What a click did to a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListClick {
    /// It hit nothing that acts.
    Nothing,
    /// It selected a row or sorted the list.
    Used,
    /// It hit the row already selected: the caller opens it.
    Open,
}

/// Pages a list read whole (a filter kept on this side) reads at most.
pub const LOCAL_PAGES: u32 = 20;

/// A list read whole for a filter kept on this side: the pages read so far and the rows kept.
#[derive(Debug, Clone)]
struct Scan<R> {
    /// The table generation the scan is for.
    generation: u64,
    kept: Vec<R>,
    /// Rows read from the service.
    checked: u64,
    /// What the service announced for the query.
    announced: u64,
    pages_read: u32,
    /// A page call on its way.
    asking: bool,
    /// A page failed: nothing more is asked until the user refreshes.
    failed: bool,
    done: bool,
}

impl<R> Scan<R> {
    fn new(generation: u64) -> Self {
        Scan {
            generation,
            kept: Vec::new(),
            checked: 0,
            announced: 0,
            pages_read: 0,
            asking: false,
            failed: false,
            done: false,
        }
    }
}

/// How the last load went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// Not asked yet (the pane was never shown).
    Idle,
    Loading,
    Loaded,
    /// The last load failed with this message; `stale` tells when the rows still shown were
    /// fetched (`None`: nothing to show).
    Failed {
        message: String,
        stale: Option<DateTime<Local>>,
    },
}

/// A pane's list. See the module documentation.
pub struct ListView<L: ListSpec> {
    table: PagedTable<L::Row>,
    columns: Vec<Column<L::Row>>,
    filter: L::Filter,
    pages: PageCalls,
    load: Load,
    /// The rows shown before a refresh, kept until the refresh is answered.
    previous: Option<PagedTable<L::Row>>,
    /// When the rows on screen were fetched.
    fetched_at: Option<DateTime<Local>>,
    /// The ids of the rows marked for an action on several at once, in the order marked.
    marks: Vec<String>,
    /// Why this list cannot be had with this profile (nothing is asked of the service).
    unavailable: Option<String>,
    /// The row to select once the first page of a restored or reloaded list is in.
    pending_cursor: Option<u64>,
    /// The record to select once it is among the rows (a record just saved).
    pending_id: Option<String>,
    /// The reading of every page, while a filter kept on this side is in force.
    scan: Option<Scan<L::Row>>,
    /// The names of the columns the user hid (`[columns]` in the config, `:columns`).
    hidden: Vec<String>,
    /// The record's fields shown as columns after the declared ones (`:columns exempt`), in the
    /// order chosen.
    fields: Vec<String>,
    /// The ids of the records changed since the previous snapshot, flagged in the list.
    changed: Option<std::sync::Arc<std::collections::HashSet<String>>>,
    /// What the pane read on the side for its rows, laid on each row as it arrives (see
    /// [`ListView::complete_with`]).
    complete: Option<Completion<L::Row>>,
    /// What the rows are judged by, in the columns that judge them and in the filter form.
    judging: Judging,
}

/// Lays on a row what its pane read on the side (a figure of another list).
pub type Completion<R> = Box<dyn Fn(&mut R) + Send>;

/// A column's name in the config file and on the command line: its title in lower case, words
/// joined by `_` (`Sales tax ID` → `sales_tax_id`); empty for a column without a title.
pub fn column_name(title: &str) -> String {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// Whether field `name` holds money: an amount (`total_tax_amount_calculated`), a liability.
fn is_money_field(name: &str) -> bool {
    name.split('_').any(|w| w == "amount" || w == "liability")
}

/// Whether `name` can name a record's field: lower case letters, digits and `_`.
fn is_field_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The text of field `name` of `row`'s record as the service sent it: a text as it is, a number
/// or yes/no as written, an amount as money with the record's currency (`10.64 USD`, as every
/// screen writes money), a list or object as compact JSON, nothing for a field left out.
fn field_text<L: ListSpec>(row: &L::Row, name: &str) -> String {
    let record: &L::Record = std::borrow::Borrow::borrow(row);
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::to_value(record) else {
        return String::new();
    };
    let amount = fields
        .get(name)
        .filter(|_| is_money_field(name))
        .and_then(|v| match v {
            serde_json::Value::String(text) => text.parse::<rust_decimal::Decimal>().ok(),
            serde_json::Value::Number(n) => n.to_string().parse().ok(),
            _ => None,
        });
    if let Some(amount) = amount {
        let currency = fields.get("currency").and_then(serde_json::Value::as_str);
        return crate::model::format::money(amount, currency);
    }
    match fields.remove(name) {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(text)) => text,
        Some(serde_json::Value::Bool(flag)) => crate::model::format::yes_no(flag).to_owned(),
        Some(other) => other.to_string(),
    }
}

impl<L: ListSpec> Default for ListView<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: ListSpec> ListView<L> {
    pub fn new() -> Self {
        let mut table = PagedTable::new(L::NOUN);
        table.set_sort(L::default_sort());
        ListView {
            table,
            columns: L::columns(),
            filter: L::Filter::default(),
            pages: PageCalls::default(),
            load: Load::Idle,
            previous: None,
            fetched_at: None,
            marks: Vec::new(),
            unavailable: None,
            pending_cursor: None,
            pending_id: None,
            scan: None,
            hidden: Vec::new(),
            fields: Vec::new(),
            changed: None,
            complete: None,
            judging: Judging::default(),
        }
    }

    /// Judges the rows by `judging` from now on (the settings of the pane's context).
    pub fn judge_by(&mut self, judging: Judging) {
        self.judging = judging;
        self.table.judge_by(judging);
        if let Some(previous) = self.previous.as_mut() {
            previous.judge_by(judging);
        }
    }

    /// What the rows are judged by.
    pub fn judging(&self) -> Judging {
        self.judging
    }

    /// Completes every row held, and each row that arrives from now on, with `complete`: what
    /// the pane read on the side (the rows of another list) shown in a column of this one.
    pub fn complete_with(&mut self, complete: Completion<L::Row>) {
        if let Some(scan) = self.scan.as_mut() {
            scan.kept.iter_mut().for_each(&complete);
        }
        if let Some(previous) = self.previous.as_mut() {
            previous.update_where(|_| true, &complete);
        }
        self.table.update_where(|_| true, &complete);
        self.complete = Some(complete);
    }

    /// Lays the pane's side reading on a row that arrives.
    fn completed(&self, row: &mut L::Row) {
        if let Some(complete) = &self.complete {
            complete(row);
        }
    }

    /// The names of every column of the list, in its order (untitled ones left out).
    pub fn column_names() -> Vec<String> {
        L::columns()
            .iter()
            .map(|c| column_name(c.title))
            .filter(|n| !n.is_empty())
            .collect()
    }

    /// Whether the column `name` is shown.
    pub fn shows_column(&self, name: &str) -> bool {
        if Self::column_names().iter().any(|n| n == name) {
            !self.hidden.iter().any(|h| h == name)
        } else {
            self.fields.iter().any(|f| f == name)
        }
    }

    /// The fields of the records held that no declared column shows, sorted: what `:columns`
    /// can add. A field every record held leaves out is not among them.
    pub fn field_names(&self) -> Vec<String> {
        let declared = Self::column_names();
        let mut names = std::collections::BTreeSet::new();
        for row in self.table.rows() {
            let record: &L::Record = std::borrow::Borrow::borrow(row);
            if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(record) {
                names.extend(fields.into_iter().map(|(name, _)| name));
            }
        }
        names.extend(self.fields.iter().cloned());
        names.retain(|n| !declared.contains(n));
        names.into_iter().collect()
    }

    /// The names `:columns` knows: the declared columns, then the record's other fields.
    pub fn choosable_columns(&self) -> Vec<String> {
        let mut all = Self::column_names();
        all.extend(self.field_names());
        all
    }

    /// Shows only the columns named, in the config file's order for the record's fields (and
    /// any untitled column); a name that is not a declared column is shown as the record's
    /// field of that name (its cells are empty where the record has no such field). Refused:
    /// no name, or a name that cannot be a field's.
    pub fn choose_columns(&mut self, names: &[String]) -> Result<(), String> {
        if names.is_empty() {
            return Err(format!("name at least one column of {}", L::NOUN));
        }
        if let Some(bad) = names.iter().find(|n| !is_field_name(n)) {
            return Err(format!(
                "{bad:?} is not a column name (lower case letters, digits and _): {}",
                Self::column_names().join(", ")
            ));
        }
        let all = Self::column_names();
        self.hidden = all.iter().filter(|n| !names.contains(n)).cloned().collect();
        self.fields = names.iter().filter(|n| !all.contains(n)).cloned().collect();
        self.columns = self.shown_columns();
        Ok(())
    }

    /// Shows column `name` if hidden, hides it if shown (never the last one shown): a declared
    /// column, or a field of the records held. Returns whether it is shown now.
    pub fn toggle_column(&mut self, name: &str) -> Result<bool, String> {
        let declared = Self::column_names();
        let is_declared = declared.iter().any(|n| n == name);
        let fields = if is_declared {
            Vec::new()
        } else {
            self.field_names()
        };
        if !is_declared && !fields.iter().any(|n| n == name) {
            let fields = if fields.is_empty() {
                "; the record's other fields can be named once rows are in".to_owned()
            } else {
                format!("; fields: {}", fields.join(", "))
            };
            return Err(format!(
                "no column or field {name} in {}: columns {}{fields}",
                L::NOUN,
                declared.join(", ")
            ));
        }
        if self.shows_column(name) {
            if self.columns.iter().filter(|c| !c.title.is_empty()).count() <= 1 {
                return Err("the last column shown stays".to_owned());
            }
            if is_declared {
                self.hidden.push(name.to_owned());
            } else {
                self.fields.retain(|f| f != name);
            }
        } else if is_declared {
            self.hidden.retain(|h| h != name);
        } else {
            self.fields.push(name.to_owned());
        }
        self.columns = self.shown_columns();
        Ok(self.shows_column(name))
    }

    /// The names of the columns shown, in order, for the config file's `[columns]`.
    pub fn shown_column_names(&self) -> Vec<String> {
        self.columns
            .iter()
            .map(|c| column_name(c.title))
            .filter(|n| !n.is_empty())
            .collect()
    }

    fn shown_columns(&self) -> Vec<Column<L::Row>> {
        let mut columns: Vec<Column<L::Row>> = L::columns()
            .into_iter()
            .filter(|c| {
                let name = column_name(c.title);
                !self.hidden.contains(&name)
            })
            .collect();
        columns.extend(
            self.fields
                .iter()
                .map(|name| Column::field(name, field_text::<L>)),
        );
        columns
    }

    /// Marks the list as one this profile cannot have, saying `why` in the pane: nothing is
    /// asked of the service.
    pub fn set_unavailable(&mut self, why: impl Into<String>) {
        let why = why.into();
        self.load = Load::Failed {
            message: why.clone(),
            stale: None,
        };
        self.unavailable = Some(why);
    }

    /// Why this list cannot be had with this profile, if it cannot.
    pub fn unavailable(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// The filter in force.
    pub fn filter(&self) -> &L::Filter {
        &self.filter
    }

    pub fn table(&self) -> &PagedTable<L::Row> {
        &self.table
    }

    pub fn table_mut(&mut self) -> &mut PagedTable<L::Row> {
        &mut self.table
    }

    pub fn load(&self) -> &Load {
        &self.load
    }

    /// The selected row.
    pub fn selected(&self) -> Option<&L::Row> {
        self.table.selected()
    }

    /// Loads the first page the first time the list is shown.
    pub fn show(&mut self, ctx: &mut Ctx) {
        if self.load == Load::Idle && self.unavailable.is_none() {
            self.fetch(ctx);
        }
    }

    /// Asks for the pages the table wants.
    pub fn fetch(&mut self, ctx: &mut Ctx) {
        if self.unavailable.is_some() {
            return;
        }
        if L::is_local(&self.filter) {
            self.fetch_whole(ctx);
            return;
        }
        self.scan = None;
        let filter = &self.filter;
        let sort = self.table.sort_keys();
        let before = self.pages.len();
        self.pages.fetch(&mut self.table, ctx, |want| {
            L::call(filter, sort.clone(), want.params())
        });
        if self.pages.len() > before && self.table.total().is_none() {
            self.load = Load::Loading;
        }
    }

    /// The fetch of a list read whole: the next page of the query while there is one to read,
    /// then the table's pages served from the rows kept.
    fn fetch_whole(&mut self, ctx: &mut Ctx) {
        let generation = self.table.generation();
        if self
            .scan
            .as_ref()
            .is_none_or(|s| s.generation != generation)
        {
            self.scan = Some(Scan::new(generation));
        }
        let Some(scan) = self.scan.as_mut() else {
            return;
        };
        if !scan.done {
            if !scan.asking && !scan.failed {
                scan.asking = true;
                let page = scan.pages_read + 1;
                let params = PageParams::new(page, PAGE_SIZE);
                let id = ctx.call(L::call(&self.filter, self.table.sort_keys(), params));
                self.pages.insert(id, generation, page);
                if self.table.total().is_none() {
                    self.load = Load::Loading;
                }
            }
            return;
        }
        for want in self.table.wants() {
            let size = want.size as usize;
            let start = (want.page as usize - 1) * size;
            let rows: Vec<L::Row> = scan.kept.iter().skip(start).take(size).cloned().collect();
            let total = scan.kept.len() as u64;
            self.table.receive(
                generation,
                want.page,
                Page::new(rows, total, want.page, want.size),
            );
        }
    }

    /// Files one page of a list read whole: its kept rows join the others; once the last page
    /// (or the [`LOCAL_PAGES`]th) is in, the table shows the rows kept.
    fn receive_whole(&mut self, page: Page<L::Row>, ctx: &mut Ctx) {
        let Some(scan) = self.scan.as_mut() else {
            return;
        };
        scan.asking = false;
        scan.pages_read += 1;
        scan.announced = page.total;
        scan.checked += page.items.len() as u64;
        let short = page.items.len() < PAGE_SIZE as usize;
        scan.kept.extend(
            page.items
                .into_iter()
                .filter(|row| L::keeps(&self.filter, row)),
        );
        if short || scan.checked >= scan.announced || scan.pages_read >= LOCAL_PAGES {
            scan.done = true;
            for row in &mut scan.kept {
                let marked = self.marks.iter().any(|m| m == L::id(row));
                L::set_marked(row, marked);
                if let Some(complete) = &self.complete {
                    complete(row);
                }
            }
            // The table takes the kept rows before the cursor is put back on them.
            self.fetch_whole(ctx);
            self.previous = None;
            self.load = Load::Loaded;
            self.fetched_at = Some(Local::now());
            if let Some(cursor) = self.pending_cursor.take() {
                self.table.select(cursor);
            }
            if let Some(id) = self.pending_id.take()
                && let Some(index) = self.table.position(|r| L::id(r) == id)
            {
                self.table.select(index);
            }
        }
    }

    /// For a list read whole, how many rows were kept of how many read: `5 of 37 filings
    /// checked`, saying when the reading stopped before the end.
    pub fn checked(&self) -> Option<String> {
        let scan = self.scan.as_ref().filter(|s| s.done)?;
        let kept = thousands(scan.kept.len() as u64);
        let checked = thousands(scan.checked);
        let mut said = format!("{kept} of {checked} {} checked", L::NOUN);
        if scan.checked < scan.announced {
            let _ = write!(
                said,
                " (the first {LOCAL_PAGES} pages of {}; narrow the filter to check the rest)",
                thousands(scan.announced)
            );
        }
        Some(said)
    }

    /// Starts over (a new filter or sort): answers still on their way are cancelled and the
    /// rows on screen go.
    pub fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.previous = None;
        self.table.reset();
        self.fetch(ctx);
    }

    /// Starts over after a write, keeping the cursor where it was and moving it onto the record
    /// `id` once its row is in (a record just saved stays selected).
    pub fn reload_at(&mut self, id: Option<String>, ctx: &mut Ctx) {
        let cursor = self.table.cursor();
        self.reload(ctx);
        self.pending_cursor = Some(cursor);
        self.pending_id = id;
    }

    /// Asks again for the same list (`r`): the rows stay on screen until the answer comes, and
    /// stay (marked stale) if it fails.
    pub fn refresh(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        if self.table.total().is_some() {
            self.previous = Some(self.table.clone());
        }
        self.table.reset();
        self.table.retry();
        self.fetch(ctx);
    }

    /// Sets a new filter and reloads; says what the list now shows.
    pub fn apply_filter(&mut self, filter: L::Filter, ctx: &mut Ctx) {
        self.filter = filter;
        self.marks.clear();
        ctx.notify(
            Level::Info,
            format!("showing {}", L::describe(&self.filter)),
        );
        self.reload(ctx);
    }

    /// Whether a filter other than the list's own default is in force.
    pub fn is_filtered(&self) -> bool {
        self.filter != L::Filter::default()
    }

    /// Goes back to the list's default filter and says what it now shows.
    pub fn clear_filter(&mut self, ctx: &mut Ctx) {
        self.filter = L::Filter::default();
        self.marks.clear();
        ctx.notify(
            Level::Info,
            format!("filter cleared: showing {}", L::describe(&self.filter)),
        );
        self.reload(ctx);
    }

    /// Sets a new filter and reloads when it changed, without a word (a live search).
    pub fn set_filter_quietly(&mut self, filter: L::Filter, ctx: &mut Ctx) {
        if filter != self.filter {
            self.filter = filter;
            self.reload(ctx);
        }
    }

    /// Changes the filter in place without reloading (what a form will start from).
    pub fn filter_mut(&mut self) -> &mut L::Filter {
        &mut self.filter
    }

    /// The filter form, filled with the filter in force.
    pub fn filter_form(&self) -> Form {
        L::filter_form(&self.filter)
    }

    /// The filter a submitted filter form describes.
    pub fn filter_of(&self, values: &FormValues) -> L::Filter {
        L::filter_of(values, &self.filter, &self.judging)
    }

    /// The list as the export engine reads it: the filter and the sort in force; `None` for a
    /// list it cannot export.
    pub fn query(&self) -> Option<crate::effect::ListQuery> {
        let call = L::call(&self.filter, self.table.sort_keys(), PageParams::new(1, 1));
        crate::effect::ListQuery::from_call(&call)
    }

    /// The sort chosen, if any.
    pub fn sort(&self) -> Option<crate::ui::widgets::paged_table::Sort> {
        self.table.sort()
    }

    /// Shows the list as it was saved: `filter`, `sort`, and the cursor on row `cursor` once
    /// the rows are in.
    pub fn restore(
        &mut self,
        filter: L::Filter,
        sort: Option<crate::ui::widgets::paged_table::Sort>,
        cursor: u64,
        ctx: &mut Ctx,
    ) {
        self.pages.cancel_all(ctx);
        self.filter = filter;
        self.marks.clear();
        self.table.set_sort(sort);
        self.pending_cursor = Some(cursor);
        self.previous = None;
        self.table.reset();
        self.fetch(ctx);
    }

    /// Whether `id` is one of the list's page calls.
    pub fn owns(&self, id: RequestId) -> bool {
        self.pages.owns(id)
    }

    /// Files the answer to a page call, then asks for what the table wants next.
    pub fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        let Some((generation, page)) = self.pages.take(id) else {
            return;
        };
        if generation != self.table.generation() {
            return;
        }
        if self
            .scan
            .as_ref()
            .is_some_and(|s| s.generation == generation && !s.done)
        {
            let message = match result.map(L::page) {
                Ok(Some(rows)) => {
                    self.receive_whole(rows, ctx);
                    self.fetch(ctx);
                    return;
                }
                Ok(None) => "the service answered with something other than a page".to_owned(),
                Err(failure) => failure.message,
            };
            // Not asked again until the user refreshes (a new reading).
            if let Some(scan) = self.scan.as_mut() {
                scan.asking = false;
                scan.failed = true;
            }
            self.table.fail(generation, page);
            self.failed(&message, ctx);
            return;
        }
        match result.map(L::page) {
            Ok(Some(mut rows)) => {
                for row in &mut rows.items {
                    let marked = self.marks.iter().any(|m| m == L::id(row));
                    L::set_marked(row, marked);
                    self.completed(row);
                }
                self.table.receive(generation, page, rows);
                if let Some(cursor) = self.pending_cursor.take() {
                    self.table.select(cursor);
                }
                // The saved record, when it is among the rows now held; else the cursor stays.
                if let Some(id) = self.pending_id.take()
                    && let Some(index) = self.table.position(|r| L::id(r) == id)
                {
                    self.table.select(index);
                }
                self.previous = None;
                self.load = Load::Loaded;
                self.fetched_at = Some(Local::now());
                if let Some(short) = self.table.shortfall() {
                    ctx.notify(Level::Error, format!("{short}."));
                }
            }
            Ok(None) => {
                self.table.fail(generation, page);
                self.failed("the service answered with something other than a page", ctx);
            }
            Err(failure) => {
                self.table.fail(generation, page);
                self.failed(&failure.message, ctx);
            }
        }
        self.fetch(ctx);
    }

    /// A page failed: the rows fetched before stay, marked stale.
    fn failed(&mut self, message: &str, ctx: &mut Ctx) {
        if let Some(previous) = self.previous.take() {
            self.table = previous;
        }
        let stale = self.table.total().and(self.fetched_at);
        let first = !matches!(self.load, Load::Failed { .. });
        self.load = Load::Failed {
            message: message.to_owned(),
            stale,
        };
        if first {
            ctx.notify(Level::Error, message.to_owned());
        }
    }

    /// Whether the last load failed (a pane that reloads by itself when the service is back).
    pub fn has_failed(&self) -> bool {
        matches!(self.load, Load::Failed { .. })
    }

    /// Movement, refresh and sort; `false` for any other action.
    pub fn action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            action if self.table.navigate(action) => {}
            Action::Refresh => self.refresh(ctx),
            Action::Sort | Action::SortReverse => {
                let Some(next) = self
                    .table
                    .next_sort(&self.columns, action == Action::SortReverse)
                else {
                    return false;
                };
                self.pages.cancel_all(ctx);
                self.previous = None;
                self.table.set_sort(Some(next));
                ctx.notify(Level::Info, self.sort_words(next));
            }
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// A click at (`column`, `row`) on the list as last drawn: a sortable column's header sorts
    /// by it (the other way on a second click), a row is selected, and a click on the row already
    /// selected opens it (returns [`ListClick::Open`]).
    pub fn click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> ListClick {
        match self.table.click(column, row) {
            TableClick::Nothing => ListClick::Nothing,
            TableClick::Header(key) => {
                self.pages.cancel_all(ctx);
                self.previous = None;
                self.table.sort_by(key);
                if let Some(sort) = self.table.sort() {
                    ctx.notify(Level::Info, self.sort_words(sort));
                }
                self.fetch(ctx);
                ListClick::Used
            }
            TableClick::Row(index) if index == self.table.cursor() => ListClick::Open,
            TableClick::Row(index) => {
                self.table.select(index);
                self.fetch(ctx);
                ListClick::Used
            }
        }
    }

    /// `sorted by customer ▲`: the sort in words, by the title of the column sorted by.
    fn sort_words(&self, sort: crate::ui::widgets::paged_table::Sort) -> String {
        let title = self
            .columns
            .iter()
            .find(|c| c.sortable() && c.key == sort.key)
            .map_or_else(|| sort.key.replace('_', " "), |c| c.title.to_owned());
        text::sorted_by(&title, sort.descending)
    }

    /// Whether any column sorts (the sort keys are offered).
    pub fn sortable(&self) -> bool {
        self.columns.iter().any(Column::sortable)
    }

    /// Shows a changed record in its row, without a reload (a marked row keeps its mark).
    pub fn replace(&mut self, row: &L::Row) {
        let id = L::id(row).to_owned();
        let mut row = row.clone();
        L::set_marked(&mut row, self.is_marked(&id));
        self.completed(&mut row);
        if let Some(scan) = self.scan.as_mut() {
            for kept in scan.kept.iter_mut().filter(|r| L::id(r) == id) {
                kept.clone_from(&row);
            }
        }
        self.table.replace_where(|r| L::id(r) == id, row);
    }

    /// Changes the cached row `id` in place (in the rows a list read whole kept, too).
    pub fn update(&mut self, id: &str, mut change: impl FnMut(&mut L::Row)) {
        if let Some(scan) = self.scan.as_mut() {
            scan.kept
                .iter_mut()
                .filter(|r| L::id(r) == id)
                .for_each(&mut change);
        }
        self.table.update_where(|r| L::id(r) == id, change);
    }

    // ----- marks: Space marks rows, an action takes the marked ones ---------------------------

    /// How many rows are marked.
    pub fn marked(&self) -> usize {
        self.marks.len()
    }

    pub fn is_marked(&self, id: &str) -> bool {
        self.marks.iter().any(|m| m == id)
    }

    /// Marks the selected row, or unmarks it, and moves down a row. Returns the row's new
    /// state, or `None` when no row is selected.
    pub fn toggle_mark(&mut self) -> Option<bool> {
        let id = L::id(self.table.selected()?).to_owned();
        let marked = !self.is_marked(&id);
        if marked {
            self.marks.push(id.clone());
        } else {
            self.marks.retain(|m| *m != id);
        }
        self.update(&id, |r| L::set_marked(r, marked));
        self.table.down(1);
        Some(marked)
    }

    /// Unmarks `id` (an action went through for it).
    pub fn unmark(&mut self, id: &str) {
        if self.is_marked(id) {
            self.marks.retain(|m| m != id);
            self.update(id, |r| L::set_marked(r, false));
        }
    }

    /// Forgets every mark.
    pub fn clear_marks(&mut self) {
        for id in std::mem::take(&mut self.marks) {
            self.update(&id, |r| L::set_marked(r, false));
        }
    }

    /// What an action on several rows takes: the marked ids, or the selected row's id when
    /// nothing is marked.
    pub fn targets(&self) -> Vec<String> {
        if self.marks.is_empty() {
            self.selected()
                .map(|r| vec![L::id(r).to_owned()])
                .unwrap_or_default()
        } else {
            self.marks.clone()
        }
    }

    /// `, 2 marked`, or nothing.
    pub fn marked_note(&self) -> String {
        match self.marks.len() {
            0 => String::new(),
            n => format!(", {n} marked"),
        }
    }

    /// The list in words, for the title: the filter, what a filter kept on this side
    /// checked, and the sort.
    pub fn subtitle(&self) -> String {
        let sort = self
            .table
            .sort()
            .map_or_else(String::new, |s| format!(", {}", self.sort_words(s)));
        let checked = self
            .checked()
            .map_or_else(String::new, |c| format!(": {c}"));
        format!("{}{checked}{sort}", L::describe(&self.filter))
    }

    /// Flags the rows whose ids `changed` holds (changed since the previous snapshot); `None`
    /// flags none.
    pub fn set_changed(
        &mut self,
        changed: Option<std::sync::Arc<std::collections::HashSet<String>>>,
    ) {
        self.changed = changed;
    }

    /// Advances the loading spinner.
    pub fn tick(&mut self) {
        self.table.tick();
    }

    /// Draws the list: the table (the rows before a refresh while it is on its way), and a line
    /// under it when the load failed or the pages fell short.
    pub fn render(
        &mut self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        refresh_key: &str,
        focused: bool,
    ) {
        let note = self.note(theme, refresh_key, usize::from(area.width));
        let table_area = match note {
            Some(_) if area.height > 2 => Rect {
                height: area.height - 1,
                ..area
            },
            _ => area,
        };
        if let Load::Failed {
            message,
            stale: None,
        } = &self.load
            && self.table.total().is_none()
        {
            buf.set_style(area, theme.base);
            let lines = [
                Line::styled(format!("✗ {} could not be loaded", L::NOUN), theme.error),
                Line::styled(
                    truncate(message, usize::from(area.width)).into_owned(),
                    theme.error,
                ),
            ];
            for (i, line) in lines.into_iter().enumerate() {
                let y = area.y + u16::try_from(i).unwrap_or(0);
                if y < area.bottom() {
                    line.render(
                        Rect {
                            y,
                            height: 1,
                            ..area
                        },
                        buf,
                    );
                }
            }
        } else {
            let table = self.previous.as_mut().unwrap_or(&mut self.table);
            match &self.changed {
                Some(ids) if !ids.is_empty() => {
                    table.render_flagged(table_area, buf, theme, &self.columns, focused, &|row| {
                        ids.contains(L::id(row))
                    });
                }
                _ => table.render(table_area, buf, theme, &self.columns, focused),
            }
        }
        if let Some(note) = note
            && table_area.height < area.height
        {
            let y = area.bottom() - 1;
            note.render(
                Rect {
                    y,
                    height: 1,
                    ..area
                },
                buf,
            );
        }
    }

    /// What the line under the table says, if anything, in `width` columns: a long failure is
    /// cut so that the key that retries stays in view.
    fn note(&self, theme: &Theme, refresh_key: &str, width: usize) -> Option<Line<'static>> {
        match &self.load {
            Load::Failed { message, stale } => {
                let when = stale.map_or_else(String::new, |t| {
                    format!(" · rows as fetched at {}", t.format("%H:%M:%S"))
                });
                let tail = format!("{when} · {refresh_key} retries");
                let room = width.saturating_sub(tail.width() + 2).max(1);
                Some(Line::from(vec![
                    Span::styled(format!("✗ {}", truncate(message, room)), theme.error),
                    Span::styled(tail, theme.muted),
                ]))
            }
            _ if self
                .scan
                .as_ref()
                .is_some_and(|s| !s.done && s.pages_read > 0) =>
            {
                let scan = self.scan.as_ref()?;
                let pages = scan
                    .announced
                    .div_ceil(u64::from(PAGE_SIZE))
                    .min(u64::from(LOCAL_PAGES));
                Some(Line::styled(
                    format!(
                        "reading every page for the filter: page {} of {pages}, {} {} read",
                        scan.pages_read + 1,
                        thousands(scan.checked),
                        L::NOUN
                    ),
                    theme.muted,
                ))
            }
            _ => self.table.shortfall().map(|short| {
                Line::styled(
                    format!("⚠ {short} · {refresh_key} asks again"),
                    theme.warning,
                )
            }),
        }
    }
}

/// Declares a [`ListSpec`] whose rows are a resource's records (`id` their id), listed by one
/// call with the filter and the sort in force (`filter.order_by`), and read from one page reply:
///
/// ```ignore
/// list_spec! {
///     /// The customer list.
///     CustomerList {
///         row: Customer, filter: CustomerFilter, noun: "customers", columns: columns,
///         call: Customers(CustomerCall::List), page: CustomerReply::Page,
///         describe: filter::describe, form: filter::filter_form,
///         filter_of: |values, _current| filter::filter_of(values),
///     }
/// }
/// ```
///
/// `filter_of` may name a third argument, the [`Judging`] the list judges its rows by, for a
/// filter on a judgement (`|values, _current, judging| …`). With `=> marked` after the row type,
/// rows are [`crate::ui::panes::marks::Marked`] records that carry their mark. With `kept_here: Filter::is_local, Filter::keeps` last, part of the filter is
/// kept on this side (see [`ListSpec::is_local`]); with `default_sort: Sort { … }`, the list opens
/// so sorted; with `goto: Variant` last, the list is where [`crate::effect::Goto`]'s `Variant`
/// (its filter, and the record to open) lands.
macro_rules! list_spec {
    (
        $(#[$doc:meta])*
        $name:ident {
            row: $row:ty $(=> $marked:ident)?,
            filter: $filter:ty,
            noun: $noun:literal,
            columns: $columns:path,
            call: $group:ident($call:ident :: $list:ident),
            page: $reply:ident :: $page:ident,
            describe: $describe:path,
            form: $form:path,
            filter_of: |$values:ident, $current:ident $(, $judging:ident)?| $filter_of:expr
            $(, kept_here: $is_local:path, $keeps:path)?
            $(, default_sort: $sort:expr)?
            $(, goto: $goto:ident)? $(,)?
        }
    ) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::ui::skeleton::ListSpec for $name {
            type Record = $row;
            type Row = $crate::ui::skeleton::list_row!($row $(, $marked)?);
            type Filter = $filter;
            const NOUN: &'static str = $noun;

            fn columns() -> Vec<$crate::ui::widgets::paged_table::Column<Self::Row>> {
                $columns()
            }

            fn call(
                filter: &$filter,
                sort: Vec<$crate::model::filters::Sort>,
                page: $crate::model::PageParams,
            ) -> $crate::effect::Call {
                let mut filter = filter.clone();
                filter.order_by = sort;
                $crate::effect::Call::$group($crate::effect::$call::$list { filter, page })
            }

            fn page(reply: $crate::effect::Reply) -> Option<$crate::model::Page<Self::Row>> {
                match reply {
                    $crate::effect::Reply::$group($crate::effect::$reply::$page(page)) => {
                        Some($crate::ui::skeleton::list_row!(@wrap page $(, $marked)?))
                    }
                    _ => None,
                }
            }

            fn id(row: &Self::Row) -> &str {
                $crate::ui::skeleton::list_row!(@id row $(, $marked)?)
            }

            $crate::ui::skeleton::list_row!(@set_marked $(, $marked)?);

            fn describe(filter: &$filter) -> String {
                $describe(filter)
            }

            fn filter_form(filter: &$filter) -> $crate::ui::widgets::form::Form {
                $form(filter)
            }

            fn filter_of(
                $values: &$crate::ui::widgets::form::FormValues,
                $current: &$filter,
                judging: &$crate::ui::judging::Judging,
            ) -> $filter {
                let _ = judging;
                $(let $judging = judging;)?
                $filter_of
            }

            $(
                fn is_local(filter: &$filter) -> bool {
                    $is_local(filter)
                }

                fn keeps(filter: &$filter, row: &Self::Row) -> bool {
                    $keeps(filter, std::borrow::Borrow::borrow(row))
                }
            )?

            $(
                fn default_sort() -> Option<$crate::ui::widgets::paged_table::Sort> {
                    Some($sort)
                }
            )?

            $(
                fn landing(
                    goto: &$crate::effect::Goto,
                ) -> Option<($filter, Option<Self::Row>)> {
                    match goto {
                        $crate::effect::Goto::$goto { filter, open } => {
                            Some((filter.clone(), open.clone().map(Into::into)))
                        }
                        _ => None,
                    }
                }
            )?
        }
    };
}

/// The pieces of [`list_spec!`] that differ between plain and marked rows.
macro_rules! list_row {
    ($row:ty) => { $row };
    ($row:ty, marked) => { $crate::ui::panes::marks::Marked<$row> };
    (@wrap $page:ident) => { $page };
    (@wrap $page:ident, marked) => { $page.map($crate::ui::panes::marks::Marked::new) };
    (@id $row:ident) => { &$row.id };
    (@id $row:ident, marked) => { &$row.row.id };
    (@set_marked) => {};
    (@set_marked , marked) => {
        fn set_marked(row: &mut Self::Row, marked: bool) {
            row.marked = marked;
        }
    };
}

pub(crate) use {list_row, list_spec};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::FailureKind;
    use crate::effect::{CustomerCall, CustomerReply, NexusReply};
    use crate::model::Customer;
    use crate::model::filters::CustomerFilter;
    use crate::ui::keymap::Action;
    use crate::ui::panes::customers::{CustomersPane, columns};
    use crate::ui::skeleton::testing::{Fixture, failure};
    use chrono::NaiveDate;

    list_spec! {
        /// A list of customers, as a pane would declare it.
        People {
            row: Customer,
            filter: CustomerFilter,
            noun: "customers",
            columns: columns,
            call: Customers(CustomerCall::List),
            page: CustomerReply::Page,
            describe: everyone,
            form: no_form,
            filter_of: |_values, current| current.clone(),
        }
    }

    fn everyone(_: &CustomerFilter) -> String {
        "everyone".to_owned()
    }

    fn no_form(_: &CustomerFilter) -> Form {
        Form::new(Vec::new())
    }

    fn customer(id: &str) -> Customer {
        serde_json::from_value(serde_json::json!({"id": id, "name": format!("Name {id}")})).unwrap()
    }

    #[expect(clippy::unnecessary_wraps)] // an answer as the runtime hands it to a pane
    fn page(rows: Vec<Customer>, total: u64) -> Result<Reply, Failure> {
        let page = Page::new(rows, total, 1, 100);
        Ok(Reply::Customers(CustomerReply::Page(page)))
    }

    fn shown() -> Fixture<CustomersPane> {
        let mut h = Fixture::new(CustomersPane::default());
        h.show();
        h
    }

    #[test]
    fn a_list_declared_by_the_macro_reads_its_pages() {
        let rows = Page::new(vec![customer("c1")], 1, 1, 100);
        let got = People::page(Reply::Customers(CustomerReply::Page(rows.clone()))).unwrap();
        assert_eq!(got, rows);
        assert!(People::page(Reply::Nexus(NexusReply::PhysicalDeleted)).is_none());
        assert_eq!(People::id(&customer("c1")), "c1");
        let call = People::call(
            &CustomerFilter::default(),
            Vec::new(),
            PageParams::new(2, 10),
        );
        assert!(matches!(call, Call::Customers(CustomerCall::List { page, .. }) if page.page == 2));
    }

    #[test]
    fn a_failed_first_load_shows_its_error_in_the_pane_and_r_retries() {
        let mut h = shown();
        let (id, _) = h.only_call();
        h.answer(
            id,
            Err(failure(
                FailureKind::Network,
                "could not connect to 127.0.0.1:9",
            )),
        );
        let screen = h.screen(100, 12);
        assert!(screen.contains("customers could not be loaded"), "{screen}");
        assert!(
            screen.contains("could not connect to 127.0.0.1:9"),
            "{screen}"
        );
        assert!(screen.contains("r retries"), "{screen}");
        assert!(!screen.contains("loading"), "no frozen spinner: {screen}");
        assert_eq!(h.notices.len(), 1, "said once");

        h.action(crate::ui::keymap::Action::Refresh);
        let (again, _) = h.only_call();
        h.answer(again, page(vec![customer("c1")], 1));
        let screen = h.screen(100, 12);
        assert!(screen.contains("Name c1"), "{screen}");
        assert!(
            !screen.contains("✗"),
            "a success clears the error: {screen}"
        );
    }

    #[test]
    fn a_failed_refresh_keeps_the_rows_marked_stale() {
        let mut h = shown();
        let (id, _) = h.only_call();
        h.answer(id, page(vec![customer("c1"), customer("c2")], 2));
        h.action(crate::ui::keymap::Action::Refresh);
        let (again, _) = h.only_call();
        let during = h.screen(100, 12);
        assert!(
            during.contains("Name c2"),
            "the rows stay while refreshing: {during}"
        );
        h.answer(
            again,
            Err(failure(FailureKind::Server, "the service failed (503)")),
        );
        let screen = h.screen(100, 12);
        assert!(
            screen.contains("Name c1") && screen.contains("Name c2"),
            "{screen}"
        );
        assert!(screen.contains("the service failed (503)"), "{screen}");
        assert!(screen.contains("rows as fetched at"), "{screen}");
        assert!(h.pane.parts.list.selected().is_some(), "still usable");
    }

    #[test]
    fn an_empty_page_under_a_huge_total_ends_the_list_and_is_not_asked_again() {
        let mut h = shown();
        let (id, _) = h.only_call();
        h.answer(id, page(Vec::new(), 1_000_000));
        assert!(h.calls().is_empty(), "no page is asked again");
        for _ in 0..20 {
            h.tick();
            h.action(crate::ui::keymap::Action::Bottom);
        }
        assert!(h.calls().is_empty(), "not by ticks, not by moving");
        let screen = h.screen(110, 12);
        assert!(
            screen.contains("the service announced 1,000,000 but page 1 was empty"),
            "{screen}"
        );
        assert_eq!(
            screen.matches("no customers").count(),
            1,
            "the empty list is said once: {screen}"
        );
        assert_eq!(h.pane.parts.list.table().total(), Some(0));
        h.action(crate::ui::keymap::Action::Refresh);
        assert_eq!(h.calls().len(), 1, "the user asks again with r");
    }

    #[test]
    fn a_short_page_before_the_end_ends_the_list_there() {
        let mut h = shown();
        let (id, _) = h.only_call();
        let rows: Vec<Customer> = (0..40).map(|i| customer(&format!("c{i}"))).collect();
        h.answer(id, page(rows, 500));
        assert_eq!(h.pane.parts.list.table().total(), Some(40));
        let short = h.pane.parts.list.table().shortfall().expect("said");
        assert_eq!((short.page, short.rows, short.announced), (1, 40, 500));
        for _ in 0..60 {
            h.action(crate::ui::keymap::Action::Down);
        }
        assert!(h.calls().is_empty(), "nothing past the end is asked for");
    }

    #[test]
    fn a_list_that_failed_loads_again_when_the_service_is_back() {
        let mut h = shown();
        let (id, _) = h.only_call();
        h.answer(id, Err(failure(FailureKind::Network, "connection refused")));
        h.with(crate::ui::pane::Pane::reconnected);
        assert_eq!(h.calls().len(), 1, "reloads by itself");
        let mut fine = shown();
        let (id, _) = fine.only_call();
        fine.answer(id, page(vec![customer("c1")], 1));
        fine.with(crate::ui::pane::Pane::reconnected);
        assert!(fine.calls().is_empty(), "a list that loaded stays as it is");
    }

    #[test]
    fn a_pane_state_saved_and_given_back_reloads_its_filter_sort_cursor_and_detail() {
        use crate::ui::keymap::Action;
        let mut h = shown();
        let (id, _) = h.only_call();
        let rows: Vec<Customer> = (0..5).map(|i| customer(&format!("c{i}"))).collect();
        h.answer(id, page(rows.clone(), 5));
        *h.pane.parts.list.filter_mut() = CustomerFilter {
            search_query: Some("name".into()),
            ..CustomerFilter::default()
        };
        h.action(Action::Down);
        h.action(Action::Down);
        h.action(Action::Open);
        h.calls();
        let saved = h.pane.state();
        assert_eq!(saved.cursor, 2);
        assert_eq!(saved.detail.as_ref().map(|c| c.id.as_str()), Some("c2"));

        // Elsewhere: back to the list, another filter.
        h.action(Action::Back);
        h.with(|p, ctx| p.parts.list.apply_filter(CustomerFilter::default(), ctx));
        h.calls();

        h.with(|p, ctx| p.restore(saved, ctx));
        let calls = h.calls();
        let list = calls
            .iter()
            .find_map(|(id, c)| match c {
                Call::Customers(CustomerCall::List { filter, .. }) => Some((*id, filter.clone())),
                _ => None,
            })
            .expect("the list is asked for again");
        assert_eq!(list.1.search_query.as_deref(), Some("name"), "its filter");
        assert!(
            calls
                .iter()
                .any(|(_, c)| *c == Call::Customers(CustomerCall::Get { id: "c2".into() })),
            "the detail asks for its record: {calls:?}"
        );
        assert!(h.pane.parts.screen.is_detail());
        h.answer(list.0, page(rows, 5));
        assert_eq!(h.pane.parts.list.table().cursor(), 2, "the cursor is back");
    }

    #[test]
    fn esc_on_a_filtered_list_clears_the_filter_and_says_so() {
        use crate::ui::keymap::Action;
        let mut h = shown();
        let (id, _) = h.only_call();
        h.answer(id, page(vec![customer("c1")], 1));
        assert!(
            !h.action(Action::Back),
            "an unfiltered list has nothing to clear"
        );
        h.with(|p, ctx| {
            let filter = CustomerFilter {
                search_query: Some("ada".into()),
                ..CustomerFilter::default()
            };
            p.parts.list.apply_filter(filter, ctx);
        });
        h.calls();
        assert!(h.action(Action::Back));
        let (_, call) = h.only_call();
        assert_eq!(
            call,
            Call::Customers(CustomerCall::List {
                filter: CustomerFilter::default(),
                page: PageParams::new(1, 100),
            })
        );
        let said = &h.notices.last().unwrap().1;
        assert!(said.starts_with("filter cleared: showing"), "{said}");
        assert!(!h.pane.parts.list.is_filtered());
    }

    #[test]
    fn a_reload_after_a_write_keeps_the_saved_record_selected() {
        use crate::ui::keymap::Action;
        let mut h = shown();
        let (id, _) = h.only_call();
        let rows: Vec<Customer> = (0..5).map(|i| customer(&format!("c{i}"))).collect();
        h.answer(id, page(rows.clone(), 5));
        h.action(Action::Down);
        h.with(|p, ctx| p.parts.list.reload_at(Some("c3".into()), ctx));
        let (again, _) = h.only_call();
        h.answer(again, page(rows, 5));
        assert_eq!(h.pane.parts.list.table().cursor(), 3, "on the saved record");
    }

    // ----- a filter kept on this side: every page read, only the kept rows shown ------------

    use crate::effect::{FilingCall, FilingReply};
    use crate::model::Filing;
    use crate::model::filters::{DateWindow, FilingFilter};
    use crate::ui::panes::filings::FilingsPane;

    /// Filing `n`, due on November `due` 2026.
    fn filing(n: usize, due: u32) -> Filing {
        serde_json::from_value(serde_json::json!({
            "id": format!("f{n}"), "registration_id": "r1", "status": "UNFILED",
            "start_date": "2026-10-01", "end_date": "2026-10-31", "country_code": "US",
            "due_date": format!("2026-11-{due:02}")
        }))
        .unwrap()
    }

    /// Overdue on 2026-11-24: due by the 23rd.
    fn overdue() -> FilingFilter {
        FilingFilter {
            due: Some(DateWindow::new(None, NaiveDate::from_ymd_opt(2026, 11, 23))),
            ..FilingFilter::default()
        }
    }

    #[expect(clippy::unnecessary_wraps)] // an answer as the runtime hands it to a pane
    fn filings(rows: Vec<Filing>, total: u64, page: u32) -> Result<Reply, Failure> {
        let page = Page::new(rows, total, page, PAGE_SIZE);
        Ok(Reply::Filings(FilingReply::Page(page)))
    }

    /// The one call on its way: its id and the page it asks for.
    fn asked(h: &mut Fixture<FilingsPane>) -> (RequestId, u32) {
        match h.only_call() {
            (id, Call::Filings(FilingCall::List { page, .. })) => (id, page.page),
            other => panic!("a page of filings: {other:?}"),
        }
    }

    fn overdue_list() -> Fixture<FilingsPane> {
        let mut h = Fixture::new(FilingsPane::default());
        h.show();
        h.calls();
        h.with(|p, ctx| p.parts.list.apply_filter(overdue(), ctx));
        h
    }

    #[test]
    fn a_filter_kept_here_reads_every_page_and_shows_only_the_kept_rows() {
        let mut h = overdue_list();
        // 150 rows: every third one due on the 20th (overdue), the others on the 30th.
        let rows: Vec<Filing> = (0..150)
            .map(|n| filing(n, if n % 3 == 0 { 20 } else { 30 }))
            .collect();
        let (first, page) = asked(&mut h);
        assert_eq!(page, 1);
        h.answer(first, filings(rows[..100].to_vec(), 150, 1));
        assert!(h.pane.parts.list.checked().is_none(), "not done yet");
        let reading = h.screen(120, 12);
        assert!(
            reading.contains("reading every page for the filter: page 2 of 2, 100 filings read"),
            "{reading}"
        );
        let (second, page) = asked(&mut h);
        assert_eq!(page, 2, "the next page is read before anything is shown");
        h.answer(second, filings(rows[100..].to_vec(), 150, 2));
        assert!(h.calls().is_empty(), "nothing past the end");

        let list = &h.pane.parts.list;
        assert_eq!(
            list.table().total(),
            Some(50),
            "the count is the kept count"
        );
        assert_eq!(list.table().row(1).map(|r| r.row.id.as_str()), Some("f3"));
        assert_eq!(list.checked().as_deref(), Some("50 of 150 filings checked"));
        let title = list.subtitle();
        assert!(title.contains(": 50 of 150 filings checked"), "{title}");
        let screen = h.screen(160, 12);
        assert!(screen.contains("f3"), "{screen}");
        assert!(!screen.contains("f1 "), "{screen}");

        // Moving down the kept rows asks the service nothing more.
        for _ in 0..49 {
            h.action(Action::Down);
        }
        assert!(h.calls().is_empty());
        assert_eq!(
            h.pane.parts.list.selected().map(|r| r.row.id.as_str()),
            Some("f147")
        );
    }

    #[test]
    fn a_filter_kept_here_stops_after_the_page_bound_and_says_how_many_were_checked() {
        let mut h = overdue_list();
        for n in 1..=LOCAL_PAGES {
            let (id, page) = asked(&mut h);
            assert_eq!(page, n);
            let rows = (0..100)
                .map(|k| filing(k, if k == 0 { 20 } else { 30 }))
                .collect();
            h.answer(id, filings(rows, 5_000, n));
        }
        assert!(h.calls().is_empty(), "no page past the bound");
        let said = h.pane.parts.list.checked().unwrap();
        assert_eq!(
            said,
            "20 of 2,000 filings checked (the first 20 pages of 5,000; narrow the filter to \
             check the rest)"
        );
    }

    #[test]
    fn a_failed_page_of_a_list_read_whole_says_so_and_r_reads_again() {
        let mut h = overdue_list();
        let (id, _) = asked(&mut h);
        h.answer(
            id,
            Err(failure(FailureKind::Server, "the service failed (503)")),
        );
        assert!(h.pane.parts.list.has_failed());
        h.action(Action::Refresh);
        let (again, page) = asked(&mut h);
        assert_eq!(page, 1, "the reading starts over");
        h.answer(again, filings(vec![filing(1, 20), filing(2, 30)], 2, 1));
        assert_eq!(h.pane.parts.list.table().total(), Some(1));
        // Back to a filter the service applies: pages are asked as the table wants them.
        h.with(|p, ctx| p.parts.list.apply_filter(FilingFilter::default(), ctx));
        let (id, _) = asked(&mut h);
        h.answer(id, filings(vec![filing(1, 20), filing(2, 30)], 2, 1));
        assert_eq!(h.pane.parts.list.table().total(), Some(2));
        assert!(h.pane.parts.list.checked().is_none());
    }
}
