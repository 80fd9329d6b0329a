//! The physical nexus view: the paged list of presence records, filtered by country and state,
//! with `n` new, `e` edit and `x` delete (after a confirmation naming the record).

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Widget};

use super::filter::{describe_physical, physical_form, physical_of};
use super::form::{Body, CATEGORY, Editing, NexusForm, category_choices};
use super::{Mode, filter_hints, filter_key};
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::PhysicalNexus;
use crate::model::filters::PhysicalNexusFilter;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::form::FormOutcome;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, PagedTable};

/// `US-CA`.
pub fn jurisdiction(p: &PhysicalNexus) -> String {
    format!("{}-{}", p.country_code, p.state_code)
}

fn jurisdiction_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(jurisdiction(p))
}

fn category_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(category_words(p.category.as_str()))
}

/// A category code as words: `DELIVERY_BY_COMMON_CARRIER` → `Delivery by common carrier`. The
/// service's own titles come per jurisdiction; the form shows those.
pub(super) fn category_words(code: &str) -> String {
    let lower = code.replace('_', " ").to_lowercase();
    let mut chars = lower.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn start_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(text::date(p.start_date))
}

fn end_cell<'r>(p: &'r PhysicalNexus, theme: &Theme) -> Line<'r> {
    match p.end_date {
        Some(d) => Line::from(text::date(d)),
        None => Line::from(Span::styled("ongoing", theme.muted)),
    }
}

fn city_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(p.city.as_deref().unwrap_or(""))
}

fn source_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(p.source.as_ref().map_or("", |s| s.as_str()))
}

/// The list's columns, in the service's default order (no sort offered).
pub fn columns() -> Vec<Column<PhysicalNexus>> {
    vec![
        Column::new("Jurisdiction", jurisdiction_cell).width(ColumnWidth::fixed(12)),
        Column::new("Category", category_cell).width(ColumnWidth::between(16, 50, 3)),
        Column::new("Start", start_cell).width(ColumnWidth::fixed(10)),
        Column::new("End", end_cell).width(ColumnWidth::fixed(10)),
        Column::new("City", city_cell).width(ColumnWidth::between(8, 24, 1)),
        Column::new("Source", source_cell).width(ColumnWidth::between(6, 14, 1)),
    ]
}

/// What the open question is about.
enum Question {
    /// Discard the input of the open form (the record form first, else the filter).
    Discard,
    Delete(Box<PhysicalNexus>),
}

/// The physical nexus view's state.
pub struct Physical {
    table: PagedTable<PhysicalNexus>,
    columns: Vec<Column<PhysicalNexus>>,
    pub filter: PhysicalNexusFilter,
    pages: PageCalls,
    mode: Mode,
    editor: Option<NexusForm>,
    question: Option<(Confirm, Question)>,
    /// The create, update or delete on its way.
    writing: Option<RequestId>,
    categories: Option<RequestId>,
    loaded: bool,
}

impl Physical {
    pub fn new() -> Self {
        Physical {
            table: PagedTable::new("records"),
            columns: columns(),
            filter: PhysicalNexusFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            editor: None,
            question: None,
            writing: None,
            categories: None,
            loaded: false,
        }
    }

    pub fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::PhysicalNexus {
                filter: self.filter.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the filter in force, cancelling answers still on their way.
    pub fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    pub fn open_filter(&mut self) {
        self.mode = Mode::Filter(physical_form(&self.filter));
    }

    pub fn hints(&self) -> Vec<PaneHint> {
        if self.question.is_some() {
            return vec![PaneHint::keys("y/n", "answer")];
        }
        if self.editor.is_some() {
            return vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("←/→", "choose"),
                PaneHint::keys("ctrl-s", "save"),
                PaneHint::keys("esc", "close"),
            ];
        }
        if matches!(self.mode, Mode::Filter(_)) {
            return filter_hints();
        }
        vec![
            PaneHint::action(Action::Filter, "filter"),
            PaneHint::action(Action::ToggleView, "economic"),
            PaneHint::action(Action::New, "new"),
            PaneHint::action(Action::Edit, "edit"),
            PaneHint::action(Action::Delete, "delete"),
            PaneHint::action(Action::Refresh, "refresh"),
            PaneHint::action(Action::CopyId, "copy id"),
        ]
    }

    pub fn captures_text(&self) -> bool {
        self.question.is_some() || self.editor.is_some() || matches!(self.mode, Mode::Filter(_))
    }

    pub fn has_unsaved_input(&self) -> bool {
        self.editor.as_ref().is_some_and(|e| e.form.is_dirty())
            || matches!(&self.mode, Mode::Filter(f) if f.is_dirty())
    }

    /// Whether a write may start; says why not in the footer.
    fn may_write(&self, ctx: &mut Ctx) -> bool {
        if ctx.read_only() {
            ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
            return false;
        }
        if self.writing.is_some() {
            ctx.notify(Level::Info, "A change is still being saved.");
            return false;
        }
        true
    }

    /// Asks for the categories of `jurisdiction` for the open form, once per jurisdiction.
    fn fetch_categories(&mut self, jurisdiction: (String, String), ctx: &mut Ctx) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        if let Some(old) = self.categories.take() {
            ctx.cancel(old);
        }
        let (country, state) = jurisdiction.clone();
        editor.categories_for = Some(jurisdiction);
        self.categories = Some(ctx.call(Call::PhysicalNexusCategories { country, state }));
    }

    fn open_edit(&mut self, ctx: &mut Ctx) {
        let Some(record) = self.table.selected().cloned() else {
            ctx.notify(Level::Info, "Select a record first.");
            return;
        };
        let editor = NexusForm::edit(&record);
        let jurisdiction = editor.categories_for.clone();
        self.editor = Some(editor);
        if let Some(j) = jurisdiction {
            self.fetch_categories(j, ctx);
        }
    }

    fn ask_delete(&mut self, ctx: &mut Ctx) {
        let Some(record) = self.table.selected().cloned() else {
            ctx.notify(Level::Info, "Select a record first.");
            return;
        };
        let question = Confirm::new(
            format!(
                "Delete physical nexus {} ({} in {})?",
                record.id,
                record.category,
                jurisdiction(&record)
            ),
            false,
        )
        .with_title("Delete");
        self.question = Some((question, Question::Delete(Box::new(record))));
    }

    fn answer(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some((confirm, _)) = &mut self.question else {
            return;
        };
        match confirm.handle_key(key) {
            ConfirmOutcome::None => {}
            ConfirmOutcome::No => self.question = None,
            ConfirmOutcome::Yes => match self.question.take().map(|(_, q)| q) {
                Some(Question::Delete(record)) if self.may_write(ctx) => {
                    self.writing = Some(ctx.call(Call::DeletePhysicalNexus { id: record.id }));
                }
                Some(Question::Discard) if self.editor.is_some() => self.close_editor(ctx),
                Some(Question::Discard) => self.mode = Mode::List,
                Some(Question::Delete(_)) | None => {}
            },
        }
    }

    fn close_editor(&mut self, ctx: &mut Ctx) {
        self.editor = None;
        if let Some(id) = self.categories.take() {
            ctx.cancel(id);
        }
    }

    fn editor_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        let before = editor.form.focused_name();
        match editor.form.handle_key(key) {
            FormOutcome::Submit => match editor.body() {
                Ok(body) => {
                    if !self.may_write(ctx) {
                        return;
                    }
                    let call = match body {
                        Body::Create(body) => Call::CreatePhysicalNexus { body },
                        Body::Update(id, body) => Call::UpdatePhysicalNexus { id, body },
                    };
                    if let Some(editor) = &mut self.editor {
                        editor.form.set_busy(true);
                    }
                    self.writing = Some(ctx.call(call));
                }
                Err(errors) => editor.form.set_errors(&errors),
            },
            FormOutcome::Cancel => self.close_editor(ctx),
            FormOutcome::AskDiscard => {
                self.question = Some((Confirm::discard_input(), Question::Discard));
            }
            FormOutcome::None | FormOutcome::Invalid => {
                let left_state = before == Some("state_code")
                    && editor.form.focused_name() != Some("state_code");
                if left_state
                    && let Some(typed) = editor.typed_jurisdiction()
                    && editor.categories_for.as_ref() != Some(&typed)
                {
                    self.fetch_categories(typed, ctx);
                }
            }
        }
    }

    /// A key while [`Physical::captures_text`].
    pub fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        if self.question.is_some() {
            self.answer(key, ctx);
        } else if self.editor.is_some() {
            self.editor_key(key, ctx);
        } else {
            let mut discard = None;
            if let Some(values) = filter_key(&mut self.mode, &mut discard, key) {
                self.filter = physical_of(&values);
                ctx.notify(
                    Level::Info,
                    format!("showing {}", describe_physical(&self.filter)),
                );
                self.reload(ctx);
            }
            if let Some(confirm) = discard {
                self.question = Some((confirm, Question::Discard));
            }
        }
    }

    pub fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            // Movement: the table moves its cursor.
            action if self.table.navigate(action) => {}
            Action::Filter => self.open_filter(),
            Action::Refresh => self.reload(ctx),
            Action::CopyId => match self.table.selected() {
                Some(p) => ctx.copy(p.id.clone()),
                None => return false,
            },
            Action::New => {
                if self.may_write(ctx) {
                    self.editor = Some(NexusForm::create());
                }
            }
            Action::Edit => {
                if self.may_write(ctx) {
                    self.open_edit(ctx);
                }
            }
            Action::Delete => {
                if self.may_write(ctx) {
                    self.ask_delete(ctx);
                }
            }
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// Takes the answer to `id` if it is one of the view's; answers whether it was.
    pub fn receive(
        &mut self,
        id: RequestId,
        result: &Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> bool {
        if self.pages.owns(id) {
            self.pages.receive(
                id,
                result.clone(),
                &mut self.table,
                ctx,
                |reply| match reply {
                    Reply::PhysicalNexusPage(rows) => Some(rows),
                    _ => None,
                },
            );
            self.fetch(ctx);
            return true;
        }
        if self.categories == Some(id) {
            self.categories = None;
            match (result, &mut self.editor) {
                (Ok(Reply::PhysicalNexusCategories(list)), Some(editor)) => {
                    editor.form.set_choices(CATEGORY, category_choices(list));
                }
                (Err(failure), editor) => {
                    // Leaving the state field again asks again.
                    if let Some(editor) = editor {
                        editor.categories_for = None;
                    }
                    ctx.notify(
                        Level::Error,
                        format!("Categories not loaded: {}", failure.message),
                    );
                }
                _ => {}
            }
            return true;
        }
        if self.writing != Some(id) {
            return false;
        }
        self.writing = None;
        match result {
            Ok(Reply::PhysicalNexus(saved)) => {
                ctx.notify(
                    Level::Success,
                    format!(
                        "Saved physical nexus {} ({} in {}).",
                        saved.id,
                        saved.category,
                        jurisdiction(saved)
                    ),
                );
                self.close_editor(ctx);
                self.reload(ctx);
            }
            Ok(Reply::Deleted) => {
                ctx.notify(Level::Success, "Physical nexus deleted.");
                self.reload(ctx);
            }
            Ok(_) => {}
            Err(failure) => {
                ctx.notify(Level::Error, failure.message.clone());
                if let Some(editor) = &mut self.editor {
                    editor.form.set_busy(false);
                    editor.form.set_errors(&failure.fields);
                }
            }
        }
        true
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        match &mut self.mode {
            Mode::Filter(form) => form.render(area, buf, theme),
            Mode::List => self.table.render(area, buf, theme, &self.columns, focused),
        }
        if let Some(editor) = &mut self.editor {
            let title = match &editor.editing {
                Editing::Create => " New physical nexus ".to_owned(),
                Editing::Update(id) => format!(" Edit physical nexus {id} "),
            };
            Clear.render(area, buf);
            let block = Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border_focus)
                .title(Span::styled(title, theme.title));
            let inner = block.inner(area);
            block.render(area, buf);
            editor.form.render(inner, buf, theme);
        }
        if let Some((confirm, _)) = &self.question {
            confirm.render(area, buf, theme);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{Effect, FailureKind};
    use crate::model::{FieldError, LocPart};
    use crossterm::event::{KeyCode, KeyModifiers};
    use serde_json::json;

    /// What one step asked of the runtime.
    #[derive(Default)]
    struct Out {
        next_id: u64,
        effects: Vec<Effect>,
        notices: Vec<(Level, String)>,
    }

    impl Out {
        fn ctx(&mut self, read_only: bool) -> Ctx<'_> {
            Ctx::new(
                &mut self.next_id,
                &mut self.effects,
                &mut self.notices,
                read_only,
            )
        }

        fn calls(&self) -> Vec<&Call> {
            self.effects
                .iter()
                .filter_map(|e| match e {
                    Effect::Call { call, .. } => Some(&**call),
                    _ => None,
                })
                .collect()
        }
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn type_in(view: &mut Physical, out: &mut Out, text: &str) {
        for c in text.chars() {
            view.on_key(key(KeyCode::Char(c)), &mut out.ctx(false));
        }
    }

    #[test]
    fn category_codes_read_as_words() {
        assert_eq!(
            category_words("DELIVERY_BY_COMMON_CARRIER"),
            "Delivery by common carrier"
        );
        assert_eq!(category_words("INVENTORY"), "Inventory");
        assert_eq!(category_words(""), "");
    }

    #[test]
    fn read_only_opens_no_form_and_says_why() {
        let mut view = Physical::new();
        let mut out = Out::default();
        for action in [Action::New, Action::Edit, Action::Delete] {
            assert!(view.on_action(action, &mut out.ctx(true)));
        }
        assert!(view.editor.is_none() && view.question.is_none());
        assert_eq!(out.notices.len(), 3);
        assert!(out.notices[0].1.starts_with("Read-only mode"));
        assert!(out.calls().iter().all(|c| !c.is_write()));
    }

    #[test]
    fn leaving_the_state_field_asks_for_its_categories_once() {
        let mut view = Physical::new();
        let mut out = Out::default();
        view.on_action(Action::New, &mut out.ctx(false));
        type_in(&mut view, &mut out, "US");
        view.on_key(key(KeyCode::Tab), &mut out.ctx(false));
        type_in(&mut view, &mut out, "CO");
        view.on_key(key(KeyCode::Tab), &mut out.ctx(false));
        view.on_key(key(KeyCode::Tab), &mut out.ctx(false));
        let asked: Vec<_> = out
            .calls()
            .into_iter()
            .filter(|c| matches!(c, Call::PhysicalNexusCategories { .. }))
            .cloned()
            .collect();
        assert_eq!(
            asked,
            [Call::PhysicalNexusCategories {
                country: "US".into(),
                state: "CO".into()
            }]
        );
    }

    #[test]
    fn a_422_lands_under_its_field_and_keeps_the_values() {
        let mut view = Physical::new();
        let mut out = Out::default();
        view.on_action(Action::New, &mut out.ctx(false));
        type_in(&mut view, &mut out, "US");
        let id = RequestId(99);
        view.writing = Some(id);
        let failure = Failure {
            kind: FailureKind::Validation,
            message: "The service refused the record.".into(),
            fields: vec![FieldError::new(
                "value_error",
                vec![LocPart::from("body"), LocPart::from("city")],
                "city is not in the state",
                json!("Nowhere"),
            )],
        };
        assert!(view.receive(id, &Err(failure), &mut out.ctx(false)));
        let editor = view.editor.as_ref().expect("the form stays open");
        assert_eq!(editor.form.errors_for("city"), ["city is not in the state"]);
        assert_eq!(editor.form.values().text("country_code"), Some("US"));
        assert!(!editor.form.is_busy());
        assert_eq!(out.notices.last().map(|n| n.0), Some(Level::Error));
    }
}
