//! The physical nexus view: the paged list of presence records, filtered by country and state,
//! with `n` new, `e` edit and `x` delete (after a confirmation naming the record).

use crate::effect::{NexusCall, NexusReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use super::filter::{describe_physical, physical_form, physical_of};
use super::form::{Body, CATEGORY, Editing, NexusForm, category_choices};
use crate::effect::{Call, Reply};
use crate::model::PhysicalNexus;
use crate::model::filters::PhysicalNexusFilter;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint};
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, Layer, LayerOutcome, On, Operation, PaneSpec, PaneView, Parts, RecordView, Skeleton,
    Verb, address_key, question_hints, send_form, unexpected,
};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::detail::{Detail, Section};
use crate::ui::widgets::form::address::{AddressNames, AddressPanel};
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

/// `US-CA`.
pub fn jurisdiction(p: &PhysicalNexus) -> String {
    format!("{}-{}", p.country_code, p.state_code)
}

fn jurisdiction_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(jurisdiction(p))
}

fn category_cell<'r>(p: &'r PhysicalNexus, _: &Theme) -> Line<'r> {
    Line::from(p.category.label())
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
        Column::new("Jurisdiction", jurisdiction_cell)
            .width(ColumnWidth::fixed(12))
            .priority(priority::NAME),
        Column::new("Category", category_cell)
            .width(ColumnWidth::between(16, 50, 3))
            .priority(priority::DEFAULT),
        Column::new("Start", start_cell)
            .width(ColumnWidth::fixed(10))
            .priority(priority::TIME),
        Column::new("End", end_cell)
            .width(ColumnWidth::fixed(10))
            .priority(priority::DATE),
        Column::new("City", city_cell)
            .width(ColumnWidth::between(8, 24, 1))
            .priority(priority::DEFAULT),
        Column::new("Source", source_cell)
            .width(ColumnWidth::between(6, 14, 1))
            .priority(priority::DETAIL),
    ]
}

/// The physical nexus view.
pub type PhysicalPane = Skeleton<Physical>;

list_spec! {
    /// The list of presence records.
    PhysicalList {
        row: PhysicalNexus,
        filter: PhysicalNexusFilter,
        noun: "records",
        columns: columns,
        call: Nexus(NexusCall::Physical),
        page: NexusReply::PhysicalPage,
        describe: describe_physical,
        form: physical_form,
        filter_of: |values, _current| physical_of(values),
        goto: PhysicalNexus,
    }
}

/// Every field of one record.
fn record_detail<'t>(p: &PhysicalNexus, theme: &'t Theme) -> Detail<'t> {
    let dash = || "—".to_owned();
    let section = Section::new("Physical nexus")
        .row("Id", p.id.clone())
        .row("Jurisdiction", jurisdiction(p))
        .row("Category", p.category.label())
        .row("Start date", text::date(p.start_date))
        .row("End date", p.end_date.map_or_else(dash, text::date))
        .row("Street", p.street_1.clone().unwrap_or_else(dash))
        .row("City", p.city.clone().unwrap_or_else(dash))
        .row("Postal code", p.postal_code.clone().unwrap_or_else(dash))
        .row(
            "Source",
            p.source.as_ref().map_or_else(dash, ToString::to_string),
        );
    Detail::new(theme, vec![section])
}

/// A record in words: `Inventory in US-TX, Austin`.
pub fn record_in_words(p: &PhysicalNexus) -> String {
    let city = p
        .city
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .map_or_else(String::new, |c| format!(", {c}"));
    format!("{} in {}{city}", p.category.label(), jurisdiction(p))
}

/// How a record reads in the detail.
static RECORD: RecordView<PhysicalNexus> = RecordView {
    id: |p| &p.id,
    title: |p| format!("physical: {} in {}", p.category.label(), jurisdiction(p)),
    build: |record, (), theme, _, _| record_detail(record, theme),
};

/// The record form (new or edit), drawn in a box over the list.
pub struct Editor(NexusForm, AddressPanel);

/// The record form's address fields.
const ADDRESS: AddressNames = AddressNames {
    state: "state_code",
    country: "country_code",
    ..AddressNames::PLAIN
};

impl Editor {
    fn new(form: NexusForm) -> Self {
        Editor(form, AddressPanel::new(ADDRESS))
    }
}

impl PaneView for Editor {
    fn form(&self) -> Option<&Form> {
        Some(&self.0.form)
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        Some(&mut self.0.form)
    }

    fn subtitle(&self) -> String {
        match &self.0.editing {
            Editing::Create => "new physical nexus".to_owned(),
            Editing::Update { words, .. } => format!("edit {words}"),
        }
    }

    fn submit_label(&self) -> &'static str {
        "save"
    }

    fn address(&mut self) -> Option<(&mut Form, &mut AddressPanel)> {
        Some((&mut self.0.form, &mut self.1))
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let title = match &self.0.editing {
            Editing::Create => " New physical nexus ".to_owned(),
            Editing::Update { id, words } => format!(" Edit {words} ({id}) "),
        };
        Clear.render(area, buf);
        let block = crate::ui::widgets::dialog::framed(title, theme);
        let inner = block.inner(area);
        block.render(area, buf);
        self.1.draw_with(&mut self.0.form, inner, buf, theme);
    }
}

/// "Delete physical nexus …?"
pub struct DeleteQuestion {
    confirm: Confirm,
    record: Box<PhysicalNexus>,
}

impl Layer for DeleteQuestion {
    fn hints(&self) -> Vec<PaneHint> {
        question_hints()
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.confirm.render(area, buf, theme);
    }
}

/// What the view waits for.
#[derive(Debug)]
pub enum Op {
    /// The create, update or delete on its way.
    Write,
    /// The categories of the form's jurisdiction.
    Categories,
    /// The address check of the form.
    Address,
}

impl Operation for Op {}

/// What is the physical view's own.
#[derive(Default)]
pub struct Physical;

impl Physical {
    /// Whether a write is on its way (another may not start); says so in the footer.
    fn busy(parts: &Parts<Self>, ctx: &mut Ctx) -> bool {
        let write = |op: &Op| matches!(op, Op::Write);
        parts.requests.on_its_way(write, "A change", ctx)
    }

    /// Asks for the categories of `jurisdiction` for the open form, once per jurisdiction.
    fn fetch_categories(parts: &mut Parts<Self>, jurisdiction: (String, String), ctx: &mut Ctx) {
        let Some(Editor(editor, _)) = parts.screen.view_mut() else {
            return;
        };
        let (country, state) = jurisdiction.clone();
        editor.categories_for = Some(jurisdiction);
        let call = Call::Nexus(NexusCall::PhysicalCategories { country, state });
        parts.requests.again(ctx, call, Op::Categories);
    }

    fn open_create(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if !Self::busy(parts, ctx) {
            parts.screen.open(Editor::new(NexusForm::create()));
        }
    }

    fn open_edit(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if Self::busy(parts, ctx) {
            return;
        }
        let Some(record) = parts.current().cloned() else {
            ctx.notify(Level::Info, "Select a record first.");
            return;
        };
        let editor = NexusForm::edit(&record, record_in_words(&record));
        let jurisdiction = editor.categories_for.clone();
        parts.screen.open(Editor::new(editor));
        if let Some(j) = jurisdiction {
            Self::fetch_categories(parts, j, ctx);
        }
    }

    fn ask_delete(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if Self::busy(parts, ctx) {
            return;
        }
        let Some(record) = parts.current().cloned() else {
            ctx.notify(Level::Info, "Select a record first.");
            return;
        };
        let confirm = Confirm::new(
            format!(
                "Delete physical nexus {} ({} in {})?",
                record.id,
                record.category.label(),
                jurisdiction(&record)
            ),
            false,
        )
        .with_title("Delete");
        parts.push(DeleteQuestion {
            confirm,
            record: Box::new(record),
        });
    }
}

impl PaneSpec for Physical {
    type List = PhysicalList;
    type Extra = ();
    type View = Editor;
    type Overlay = DeleteQuestion;
    type Op = Op;

    const TITLE: &'static str = "Nexus";
    const DETAIL: &'static RecordView<PhysicalNexus> = &RECORD;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::PhysicalNexus);
    const IMPORTS: Option<crate::effect::ImportResource> =
        Some(crate::effect::ImportResource::PhysicalNexus);

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::New, "new", On::Both, |v| {
            Self::open_create(v.parts, v.ctx);
        })
        .writes()
        .starts_new(),
        Verb::key(Action::Edit, "edit", On::Both, |v| {
            Self::open_edit(v.parts, v.ctx);
        })
        .writes(),
        Verb::key(Action::Delete, "delete", On::Both, |v| {
            Self::ask_delete(v.parts, v.ctx);
        })
        .writes(),
    ];

    /// The exposure history is the economic view's: `h` here says where it is.
    fn action(&mut self, action: Action, _: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        if action != Action::History {
            return false;
        }
        let toggle = ctx.key(Action::ToggleView);
        ctx.notify(
            Level::Hint,
            format!(
                "The exposure history is kept for economic nexus: {toggle} shows the economic view."
            ),
        );
        true
    }

    /// Leaving the state field asks for the jurisdiction's categories, once per jurisdiction;
    /// Ctrl-L checks the address, Ctrl-N moves among the addresses offered, Ctrl-T takes one.
    fn view_key(key: KeyEvent, parts: &mut Parts<Self>, ctx: &mut Ctx) -> Option<FormOutcome> {
        if let Some(outcome) = address_key(&key, parts, ctx, Op::Address) {
            return Some(outcome);
        }
        let Editor(editor, _) = parts.screen.view_mut()?;
        let before = editor.form.focused_name();
        let outcome = editor.form.handle_key(key);
        let left_state =
            before == Some("state_code") && editor.form.focused_name() != Some("state_code");
        if matches!(outcome, FormOutcome::None | FormOutcome::Invalid)
            && left_state
            && let Some(typed) = editor.typed_jurisdiction()
            && editor.categories_for.as_ref() != Some(&typed)
        {
            Self::fetch_categories(parts, typed, ctx);
        }
        Some(outcome)
    }

    fn submit(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(Editor(editor, _)) = parts.screen.view_mut() else {
            return;
        };
        let body = editor.body();
        if body.is_ok() && Self::busy(parts, ctx) {
            return;
        }
        let (Some(Editor(editor, _)), requests) = parts.view_and_requests() else {
            return;
        };
        send_form(&mut editor.form, body, requests, ctx, |body| {
            let call = match body {
                Body::Create(body) => NexusCall::CreatePhysical { body },
                Body::Update(id, body) => NexusCall::UpdatePhysical { id, body },
            };
            (Call::Nexus(call), Op::Write)
        });
    }

    fn overlay_key(
        &mut self,
        question: &mut DeleteQuestion,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match question.confirm.handle_key(key) {
            ConfirmOutcome::None => LayerOutcome::Keep,
            ConfirmOutcome::No => LayerOutcome::Close,
            ConfirmOutcome::Yes => {
                if !Self::busy(parts, ctx) {
                    let id = question.record.id.clone();
                    parts.requests.call(
                        ctx,
                        Call::Nexus(NexusCall::DeletePhysical { id }),
                        Op::Write,
                    );
                }
                LayerOutcome::Close
            }
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (Op::Address, result) => parts.address_checked(result, ctx),
            (Op::Categories, Ok(Reply::Nexus(NexusReply::PhysicalCategories(list)))) => {
                if let Some(Editor(editor, _)) = parts.screen.view_mut() {
                    editor.form.set_choices(CATEGORY, category_choices(&list));
                }
            }
            (Op::Categories, Err(failure)) => {
                // Leaving the state field again asks again.
                if let Some(Editor(editor, _)) = parts.screen.view_mut() {
                    editor.categories_for = None;
                }
                ctx.notify(
                    Level::Error,
                    format!("Categories not loaded: {}", failure.message),
                );
            }
            (Op::Write, Ok(Reply::Nexus(NexusReply::Physical(saved)))) => {
                ctx.notify(
                    Level::Success,
                    format!(
                        "Saved physical nexus {} ({} in {}).",
                        saved.id,
                        saved.category.label(),
                        jurisdiction(&saved)
                    ),
                );
                parts
                    .requests
                    .cancel_where(ctx, |op| matches!(op, Op::Categories));
                if parts.screen.view().is_some() {
                    parts.screen.close();
                }
                let id = saved.id.clone();
                if let Some(d) = parts.screen.detail_mut() {
                    d.record = saved;
                }
                parts.list.reload_at(Some(id), ctx);
            }
            (Op::Write, Ok(Reply::Nexus(NexusReply::PhysicalDeleted))) => {
                ctx.notify(Level::Success, "Physical nexus deleted.");
                parts.requests.cancel_detail(ctx);
                parts.screen = crate::ui::skeleton::Screen::List;
                parts.list.reload_at(None, ctx);
            }
            (Op::Write, Err(failure)) => parts.refused(&failure, ctx),
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }

    fn subtitle(&self, parts: &Parts<Self>) -> Option<String> {
        match &parts.screen {
            crate::ui::skeleton::Screen::List | crate::ui::skeleton::Screen::Filter(_) => {
                Some(format!("physical: {}", parts.list.subtitle()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::KeyCode;
    use serde_json::json;

    use super::*;
    use crate::effect::{Failure, FailureKind};
    use crate::model::{FieldError, LocPart};
    use crate::ui::pane::Pane;
    use crate::ui::skeleton::testing::Fixture;

    fn view(read_only: bool) -> Fixture<PhysicalPane> {
        let h = Fixture::new(PhysicalPane::default());
        if read_only { h.read_only() } else { h }
    }

    fn editor(h: &Fixture<PhysicalPane>) -> &NexusForm {
        match h.pane.parts.screen.view() {
            Some(Editor(editor, _)) => editor,
            None => panic!("the form is open"),
        }
    }

    #[test]
    fn a_category_has_one_label_in_the_list_the_form_and_the_delete_question() {
        use crate::model::{PhysicalNexusCategory as C, PhysicalNexusCategoryInfo};
        assert_eq!(
            C::WarehouseAndInventoryPresence.label(),
            "Warehouse and inventory presence"
        );
        assert_eq!(C::parse("SOMETHING_NEW").label(), "Something new");
        assert_eq!(C::parse("").label(), "");
        let info = PhysicalNexusCategoryInfo {
            name: C::WarehouseAndInventoryPresence,
            title: "Warehouse or inventory".into(),
            description: String::new(),
            example: String::new(),
            is_category_assigned: false,
        };
        let choices = super::super::form::category_choices(&[info]);
        assert_eq!(choices[0].label, "Warehouse and inventory presence");
    }

    #[test]
    fn read_only_opens_no_form_and_says_why() {
        let mut h = view(true);
        for action in [Action::New, Action::Edit, Action::Delete] {
            assert!(h.action(action));
        }
        assert!(h.pane.parts.screen.view().is_none() && h.pane.parts.overlays.is_empty());
        assert_eq!(h.notices.len(), 3);
        assert!(h.notices[0].1.starts_with("Read-only mode"));
        assert!(h.calls().iter().all(|(_, c)| !c.is_write()));
    }

    #[test]
    fn leaving_the_state_field_asks_for_its_categories_once() {
        let mut h = view(false);
        h.action(Action::New);
        h.type_text("US");
        h.press(KeyCode::Tab);
        h.type_text("CO");
        h.press(KeyCode::Tab);
        h.press(KeyCode::Tab);
        let asked: Vec<Call> = h
            .calls()
            .into_iter()
            .map(|(_, c)| c)
            .filter(|c| matches!(c, Call::Nexus(NexusCall::PhysicalCategories { .. })))
            .collect();
        assert_eq!(
            asked,
            [Call::Nexus(NexusCall::PhysicalCategories {
                country: "US".into(),
                state: "CO".into()
            })]
        );
    }

    #[test]
    fn a_422_lands_under_its_field_and_keeps_the_values() {
        let mut h = view(false);
        let record: PhysicalNexus = serde_json::from_value(json!({
            "id": "phys_1", "country_code": "US", "state_code": "CO",
            "start_date": "2024-01-01", "category": "INVENTORY", "city": "Denver"
        }))
        .unwrap();
        h.load(vec![record], NexusReply::PhysicalPage);
        h.action(Action::Edit);
        h.calls();
        h.submit();
        let Some((id, _)) = h
            .calls()
            .into_iter()
            .find(|(_, c)| matches!(c, Call::Nexus(NexusCall::UpdatePhysical { .. })))
        else {
            panic!("the form was sent: {:?}", editor(&h).form.form_errors());
        };
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
        h.answer(id, Err(failure));
        let form = &editor(&h).form;
        assert_eq!(form.errors_for("city"), ["City is not in the state"]);
        assert_eq!(form.values().text("city"), Some("Denver"));
        assert!(!form.is_busy());
        assert_eq!(h.last_level(), Some(Level::Error));
        assert!(h.pane.captures_text(), "the form keeps the keys");
    }
}
