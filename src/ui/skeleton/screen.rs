//! What a pane shows, as one value: the list, the filter form, the detail of one record, or a
//! form or view of the pane's own (opened over the detail it came from). Overlays (questions,
//! pickers, wizards) lie on top, the last one opened on top.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::ui::judging::Judging;
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::PaneHint;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::Confirm;
use crate::ui::widgets::detail::{Detail, DetailState, Section};
use crate::ui::widgets::form::address::AddressPanel;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form};
use ratatui::text::{Line, Span};

pub use crate::ui::layer::{Layer, LayerOutcome, question_hints};

/// The detail of one record.
pub trait DetailView: Send {
    /// The record shown, as its list's rows hold it (see [`super::ListSpec::Record`]).
    type Record;

    /// The record's id (`y` copies it).
    fn id(&self) -> &str;

    /// The record shown, as last read.
    fn record(&self) -> &Self::Record;

    fn record_mut(&mut self) -> &mut Self::Record;

    /// The detail's scroll position.
    fn state(&mut self) -> &mut DetailState;

    /// The words after the pane's title.
    fn subtitle(&self) -> String;

    /// Draws the detail; `keys` names the live bindings in any text that mentions a key.
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, keys: &Keymap);

    /// Judges the record by `judging` when it is drawn (for a detail that shows a judgement of
    /// it, such as whether a filing adds up); the skeleton hands on its list's.
    fn judge_by(&mut self, _judging: Judging) {}
}

/// A form or a read-only page of a pane's own (a new record, a credit note, the terms).
pub trait PaneView: Send {
    /// The form that has the keys, if any; a view without one is scrolled and closed with Esc.
    fn form(&self) -> Option<&Form>;

    /// A copy for the jump list to show again on the way back: a page of results the user came
    /// from (a check's findings), never a form. `None`: the view is left behind.
    fn kept(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    fn form_mut(&mut self) -> Option<&mut Form>;

    /// The words after the pane's title.
    fn subtitle(&self) -> String;

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme);

    /// What submitting the form does, for its hint.
    fn submit_label(&self) -> &'static str {
        "submit"
    }

    /// The scroll position of a view without a form.
    fn scroll(&mut self) -> Option<&mut DetailState> {
        None
    }

    /// The form on screen and its address panel, when the form has an address to check.
    fn address(&mut self) -> Option<(&mut Form, &mut AddressPanel)> {
        None
    }
}

/// A pane with no views of its own.
pub enum NoView {}

impl PaneView for NoView {
    fn form(&self) -> Option<&Form> {
        match *self {}
    }
    fn form_mut(&mut self) -> Option<&mut Form> {
        match *self {}
    }
    fn subtitle(&self) -> String {
        match *self {}
    }
    fn draw(&mut self, _: Rect, _: &mut Buffer, _: &Theme) {
        match *self {}
    }
}

/// What a pane shows. It cannot be half-set: a detail screen always has its record.
pub enum Screen<D, V> {
    List,
    /// The filter form, over the list.
    Filter(Form),
    Detail(D),
    /// A form or view of the pane's own, opened over the detail in `over` when there was one.
    View {
        view: V,
        over: Option<D>,
    },
}

impl<D: DetailView, V: PaneView> Screen<D, V> {
    /// The form that has the keys, if any.
    pub fn form(&self) -> Option<&Form> {
        match self {
            Screen::Filter(form) => Some(form),
            Screen::View { view, .. } => view.form(),
            Screen::List | Screen::Detail(_) => None,
        }
    }

    /// The detail on screen, or the one under the view on screen.
    pub fn detail(&self) -> Option<&D> {
        match self {
            Screen::Detail(d) | Screen::View { over: Some(d), .. } => Some(d),
            _ => None,
        }
    }

    pub fn detail_mut(&mut self) -> Option<&mut D> {
        match self {
            Screen::Detail(d) | Screen::View { over: Some(d), .. } => Some(d),
            _ => None,
        }
    }

    /// The view on screen, if any.
    pub fn view(&self) -> Option<&V> {
        match self {
            Screen::View { view, .. } => Some(view),
            _ => None,
        }
    }

    pub fn view_mut(&mut self) -> Option<&mut V> {
        match self {
            Screen::View { view, .. } => Some(view),
            _ => None,
        }
    }

    pub fn is_list(&self) -> bool {
        matches!(self, Screen::List)
    }

    pub fn is_detail(&self) -> bool {
        matches!(self, Screen::Detail(_))
    }

    /// Opens `view` over what is on screen (the detail stays underneath).
    pub fn open(&mut self, view: V) {
        let over = match std::mem::replace(self, Screen::List) {
            Screen::Detail(d) | Screen::View { over: Some(d), .. } => Some(d),
            _ => None,
        };
        *self = Screen::View { view, over };
    }

    /// Closes a form or view: back to the detail it was opened over, else to the list.
    pub fn close(&mut self) {
        *self = match std::mem::replace(self, Screen::List) {
            Screen::View { over: Some(d), .. } | Screen::Detail(d) => Screen::Detail(d),
            _ => Screen::List,
        };
    }
}

/// A pane with no dialogs of its own.
pub enum NoLayer {}

impl Layer for NoLayer {
    fn hints(&self) -> Vec<PaneHint> {
        match *self {}
    }
    fn draw(&mut self, _: Rect, _: &mut Buffer, _: &Theme) {
        match *self {}
    }
}

/// One dialog over the screen.
pub enum Overlay<O> {
    /// "Discard the unsaved input?" about what lies beneath.
    Discard(Confirm),
    Own(O),
}

impl<O: Layer> Overlay<O> {
    /// The dialog as the layer it is.
    fn layer(&self) -> &dyn Layer {
        match self {
            Overlay::Discard(c) => c,
            Overlay::Own(o) => o,
        }
    }

    pub fn hints(&self) -> Vec<PaneHint> {
        self.layer().hints()
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            Overlay::Discard(c) => c.draw(area, buf, theme),
            Overlay::Own(o) => o.draw(area, buf, theme),
        }
    }

    pub fn has_unsaved_input(&self) -> bool {
        self.layer().has_unsaved_input()
    }

    pub fn captures_text(&self) -> bool {
        self.layer().captures_text()
    }
}

/// The hints of an open form: `submit` names what Ctrl-S does (`apply`, `save`); the keys of
/// the focused field come second (`←/→ choose` on a select, `space toggle` on a multi-select or
/// a checkbox).
pub fn form_hints(form: &Form, submit: &'static str) -> Vec<PaneHint> {
    let mut hints = vec![PaneHint::keys("tab", "next field")];
    let spec = form.focused_spec();
    match spec.map(|s| &s.kind) {
        // A short select is drawn as a list: the arrows of a list choose in it.
        Some(FieldKind::Select(_)) if spec.is_some_and(FieldSpec::is_short_select) => {
            hints.push(PaneHint::keys("↑/↓", "choose"));
        }
        Some(FieldKind::Select(_)) => hints.push(PaneHint::keys("←/→", "choose")),
        Some(FieldKind::MultiSelect(_)) => {
            hints.push(PaneHint::keys("←/→", "move"));
            hints.push(PaneHint::keys("space", "toggle"));
        }
        Some(FieldKind::Checkbox) => hints.push(PaneHint::keys("space", "toggle")),
        Some(FieldKind::MultiLine) => hints.push(PaneHint::keys("enter", "new line")),
        _ => {}
    }
    hints.push(PaneHint::keys("ctrl-s", submit));
    hints.push(PaneHint::keys("esc", "cancel"));
    hints
}

/// The hints of a read-only page.
pub fn page_hints() -> Vec<PaneHint> {
    vec![
        PaneHint::action(Action::Back, "back"),
        PaneHint::action(Action::Up, "scroll"),
    ]
}

/// How a record reads in a detail of its own: its id, its words for the title, and the
/// sections of its fields, built from the record, what was read beside it (`E`), the live
/// key bindings (for fields that name a key), and the settings the detail was given (where a
/// field is a judgement of the record).
pub struct RecordView<R, E = ()> {
    pub id: fn(&R) -> &str,
    pub title: fn(&R) -> String,
    pub build: for<'t> fn(&R, &E, &'t Theme, &Keymap, &Judging) -> Detail<'t>,
}

/// Records of another resource listed under a record's detail (a customer's transactions, a
/// return's transactions), one line each, or why they could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    pub title: &'static str,
    pub rows: Result<Vec<(String, String)>, String>,
}

impl Related {
    /// The section drawn under the record's own.
    pub fn section(&self, theme: &Theme) -> Section<'static> {
        let section = Section::new(self.title);
        match &self.rows {
            Ok(rows) if rows.is_empty() => section.row("", Span::styled("none", theme.muted)),
            Ok(rows) => rows.iter().fold(section, |s, (label, value)| {
                s.row(label.clone(), Line::from(value.clone()))
            }),
            Err(why) => section.row("", Span::styled(why.clone(), theme.error)),
        }
    }
}

/// The detail of a record: the record, its scroll, how it reads, what the pane reads or keeps
/// beside it (`extra`: its files, its forms; nothing by default), and the related records
/// listed under it once read.
pub struct RecordDetail<R: 'static, E: 'static = ()> {
    pub record: R,
    pub extra: E,
    pub related: Option<Related>,
    state: DetailState,
    view: &'static RecordView<R, E>,
    judging: Judging,
}

impl<R, E: Default> RecordDetail<R, E> {
    pub fn new(record: R, view: &'static RecordView<R, E>) -> Self {
        RecordDetail {
            record,
            extra: E::default(),
            related: None,
            state: DetailState::default(),
            view,
            judging: Judging::default(),
        }
    }
}

impl<R: Send + Sync, E: Send + Sync> DetailView for RecordDetail<R, E> {
    type Record = R;

    fn id(&self) -> &str {
        (self.view.id)(&self.record)
    }

    fn record(&self) -> &R {
        &self.record
    }

    fn record_mut(&mut self) -> &mut R {
        &mut self.record
    }

    fn state(&mut self) -> &mut DetailState {
        &mut self.state
    }

    fn subtitle(&self) -> String {
        (self.view.title)(&self.record)
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, keys: &Keymap) {
        use ratatui::widgets::StatefulWidget;
        let mut detail = (self.view.build)(&self.record, &self.extra, theme, keys, &self.judging);
        if let Some(related) = &self.related {
            detail.sections.push(related.section(theme));
        }
        detail.render(area, buf, &mut self.state);
    }

    fn judge_by(&mut self, judging: Judging) {
        self.judging = judging;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::{Choice, FieldSpec};
    use crate::ui::widgets::testing::key;
    use crossterm::event::KeyCode;

    fn labels(hints: &[PaneHint]) -> Vec<String> {
        hints
            .iter()
            .map(|h| match h.key {
                crate::ui::pane::HintKey::Keys(k) => format!("{k} {}", h.label),
                crate::ui::pane::HintKey::Action(a) => format!("{a:?} {}", h.label),
            })
            .collect()
    }

    #[test]
    fn a_form_footer_names_the_keys_of_the_focused_field() {
        let choices = || vec![Choice::new("A", "A", ""), Choice::new("B", "B", "")];
        let mut form = Form::new(vec![
            FieldSpec::new("status", "Status", FieldKind::MultiSelect(choices())),
            FieldSpec::new("kind", "Kind", FieldKind::Select(choices())),
            FieldSpec::new(
                "month",
                "Month",
                FieldKind::Select(
                    (1..=12)
                        .map(|m| Choice::new(m.to_string(), m.to_string(), ""))
                        .collect(),
                ),
            ),
            FieldSpec::new("name", "Name", FieldKind::Text),
        ]);
        assert_eq!(
            labels(&form_hints(&form, "apply")),
            [
                "tab next field",
                "←/→ move",
                "space toggle",
                "ctrl-s apply",
                "esc cancel"
            ]
        );
        form.handle_key(key(KeyCode::Tab));
        assert_eq!(
            labels(&form_hints(&form, "apply"))[1],
            "↑/↓ choose",
            "two choices are drawn as a list"
        );
        form.handle_key(key(KeyCode::Tab));
        assert_eq!(
            labels(&form_hints(&form, "apply"))[1],
            "←/→ choose",
            "twelve are not"
        );
        form.handle_key(key(KeyCode::Tab));
        assert_eq!(
            labels(&form_hints(&form, "save")),
            ["tab next field", "ctrl-s save", "esc cancel"],
            "a text field takes ←/→ as cursor keys: not offered as choosing"
        );
    }
}
