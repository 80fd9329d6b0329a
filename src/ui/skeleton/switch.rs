//! A tab holding two panes, one shown at a time (physical and economic nexus; exemptions and
//! certificate imports), switched by a key or by naming the view as a `:` command.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::effect::{Failure, Goto, Reply, RequestId};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Pane, PaneHint, Relation, SavedState, VerbHelp};
use crate::ui::theme::Theme;

/// Two panes under one tab. See the module documentation.
pub struct Switch<A, B> {
    title: &'static str,
    first: A,
    second: B,
    on_second: bool,
    /// The key that switches, and the names of the two views (their `:` commands).
    toggle: Action,
    names: [&'static str; 2],
}

impl<A: Pane, B: Pane> Switch<A, B> {
    pub fn new(
        title: &'static str,
        (first, first_name): (A, &'static str),
        (second, second_name): (B, &'static str),
        toggle: Action,
    ) -> Self {
        Switch {
            title,
            first,
            second,
            on_second: false,
            toggle,
            names: [first_name, second_name],
        }
    }

    pub fn first(&self) -> &A {
        &self.first
    }

    pub fn second(&self) -> &B {
        &self.second
    }

    pub fn first_mut(&mut self) -> &mut A {
        &mut self.first
    }

    pub fn second_mut(&mut self) -> &mut B {
        &mut self.second
    }

    /// Whether the second view is shown.
    pub fn on_second(&self) -> bool {
        self.on_second
    }

    fn active(&self) -> &dyn Pane {
        if self.on_second {
            &self.second
        } else {
            &self.first
        }
    }

    fn active_mut(&mut self) -> &mut dyn Pane {
        if self.on_second {
            &mut self.second
        } else {
            &mut self.first
        }
    }

    /// Shows the second view (`true`) or the first, loading it the first time.
    pub fn switch(&mut self, second: bool, ctx: &mut Ctx) {
        self.on_second = second;
        self.active_mut().show(ctx);
    }
}

/// What the jump list keeps of a [`Switch`]: which view was shown, and that view's state.
struct SwitchState {
    on_second: bool,
    state: SavedState,
}

impl<A: Pane, B: Pane> Pane for Switch<A, B> {
    fn title(&self) -> &str {
        self.title
    }

    fn hints(&self) -> Vec<PaneHint> {
        let mut hints = self.active().hints();
        if self.active().at_rest() {
            let other = self.names[usize::from(!self.on_second)];
            hints.push(PaneHint::action(self.toggle, other));
        }
        hints
    }

    fn show(&mut self, ctx: &mut Ctx) {
        self.active_mut().show(ctx);
    }

    fn goto(&mut self, goto: &Goto, ctx: &mut Ctx) -> bool {
        if self.first.goto(goto, ctx) {
            self.on_second = false;
            true
        } else if self.second.goto(goto, ctx) {
            self.on_second = true;
            true
        } else {
            false
        }
    }

    fn relations(&self) -> Vec<Relation> {
        self.active().relations()
    }

    fn current_record(&self) -> Option<(crate::model::Resource, String)> {
        self.active().current_record()
    }

    fn mark_changed(&mut self, changed: &crate::ui::pane::ChangedRecords) {
        self.first.mark_changed(changed);
        self.second.mark_changed(changed);
    }

    /// The view shown and its state.
    fn save_state(&self) -> Option<SavedState> {
        let state = self.active().save_state()?;
        Some(Box::new(SwitchState {
            on_second: self.on_second,
            state,
        }))
    }

    fn restore_state(&mut self, state: SavedState, ctx: &mut Ctx) -> bool {
        let Ok(saved) = state.downcast::<SwitchState>() else {
            return false;
        };
        self.on_second = saved.on_second;
        self.active_mut().restore_state(saved.state, ctx)
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if action == self.toggle && self.active().at_rest() {
            self.switch(!self.on_second, ctx);
            return true;
        }
        self.active_mut().on_action(action, ctx)
    }

    fn captures_text(&self) -> bool {
        self.active().captures_text()
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        self.active_mut().on_key(key, ctx);
    }

    fn on_paste(&mut self, text: &str, ctx: &mut Ctx) -> bool {
        self.active_mut().on_paste(text, ctx)
    }

    fn on_click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> bool {
        self.active_mut().on_click(column, row, ctx)
    }

    /// Both lists take the names each has: taken when either knows them all.
    fn choose_columns(&mut self, names: &[String]) -> Result<(), String> {
        let first = self.first_mut().choose_columns(names);
        let second = self.second_mut().choose_columns(names);
        first.or(second)
    }

    fn column_names(&self) -> Vec<String> {
        self.active().column_names()
    }

    fn shown_columns(&self) -> Vec<String> {
        self.active().shown_columns()
    }

    fn saved_view(&self) -> Option<crate::config::SavedView> {
        self.active().saved_view()
    }

    fn apply_view(&mut self, view: &crate::config::SavedView, ctx: &mut Ctx) -> bool {
        self.active_mut().apply_view(view, ctx)
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.first.waits_for(id) {
            self.first.receive(id, result, ctx);
            if self.first.changed_elsewhere() {
                self.second.command("refresh", &[], ctx);
            }
        } else {
            self.second.receive(id, result, ctx);
            if self.second.changed_elsewhere() {
                self.first.command("refresh", &[], ctx);
            }
        }
    }

    fn waits_for(&self, id: RequestId) -> bool {
        self.first.waits_for(id) || self.second.waits_for(id)
    }

    fn command(&mut self, name: &str, args: &[&str], ctx: &mut Ctx) -> bool {
        if let Some(i) = self.names.iter().position(|n| *n == name) {
            if self.captures_text() {
                return false;
            }
            self.switch(i == 1, ctx);
            return true;
        }
        if self.active_mut().command(name, args, ctx) {
            return true;
        }
        // `:import` reads into the one list that takes it (physical nexus, not the economic
        // rows): that list is shown for it.
        let other = !self.on_second;
        let takes = if other {
            self.second.commands().contains(&name)
        } else {
            self.first.commands().contains(&name)
        };
        if name == "import" && takes && !self.captures_text() {
            self.switch(other, ctx);
            return self.active_mut().command(name, args, ctx);
        }
        false
    }

    fn commands(&self) -> Vec<&'static str> {
        let mut commands: Vec<&'static str> = self.names.to_vec();
        commands.extend(self.first.commands());
        commands.extend(self.second.commands());
        commands.sort_unstable();
        commands.dedup();
        commands
    }

    /// The shown view's, and the commands that name each view.
    fn verbs(&self) -> Vec<VerbHelp> {
        let mut verbs = self.active().verbs();
        verbs.extend(self.names.iter().map(|name| VerbHelp {
            key: None,
            command: Some(format!(":{name}")),
            label: format!("the {name} view"),
            writes: false,
        }));
        verbs
    }

    fn has_unsaved_input(&self) -> bool {
        self.first.has_unsaved_input() || self.second.has_unsaved_input()
    }

    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        let first = self.first.tick(ctx);
        self.second.tick(ctx) || first
    }

    fn reconnected(&mut self, ctx: &mut Ctx) {
        self.active_mut().reconnected(ctx);
    }

    fn at_rest(&self) -> bool {
        self.active().at_rest()
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &Keymap, focused: bool) {
        self.active_mut().draw(frame, area, theme, keys, focused);
    }
}
