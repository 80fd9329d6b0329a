//! The Nexus pane: two views of where the business owes tax, switched with `t` (or `:physical`
//! and `:economic`). The physical view lists, creates, edits and deletes physical presence
//! records; the economic view lists each jurisdiction's economic nexus against its thresholds.

mod economic;
mod filter;
mod form;
mod history;

pub use self::history::event_in_words;
mod physical;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use self::economic::Economic;
use self::physical::Physical;
use crate::effect::{Failure, Reply, RequestId};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Pane, PaneHint};
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::form::{Form, FormOutcome, FormValues};

/// What a view's list area shows.
pub enum Mode {
    List,
    /// The `/` filter form.
    Filter(Form),
}

/// Runs a key through an open filter form and its "discard?" question. Returns the values to
/// apply when the user submitted a filter that passes its rules.
fn filter_key(mode: &mut Mode, discard: &mut Option<Confirm>, key: KeyEvent) -> Option<FormValues> {
    if let Some(confirm) = discard {
        match confirm.handle_key(key) {
            ConfirmOutcome::Yes => {
                *discard = None;
                *mode = Mode::List;
            }
            ConfirmOutcome::No => *discard = None,
            ConfirmOutcome::None => {}
        }
        return None;
    }
    let Mode::Filter(form) = mode else {
        return None;
    };
    match form.handle_key(key) {
        FormOutcome::Submit => {
            let values = form.values();
            *mode = Mode::List;
            Some(values)
        }
        FormOutcome::Cancel => {
            *mode = Mode::List;
            None
        }
        FormOutcome::AskDiscard => {
            *discard = Some(Confirm::discard_input());
            None
        }
        FormOutcome::None | FormOutcome::Invalid => None,
    }
}

/// The hints of an open filter form.
fn filter_hints() -> Vec<PaneHint> {
    vec![
        PaneHint::keys("tab", "next field"),
        PaneHint::keys("←/→", "choose"),
        PaneHint::keys("ctrl-s", "apply"),
        PaneHint::keys("esc", "cancel"),
    ]
}

/// Which view the pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Physical,
    Economic,
}

/// The Nexus pane.
pub struct NexusPane {
    view: View,
    physical: Physical,
    economic: Economic,
    /// The client speaks the Tenanted API (the exposure history is offered).
    tenanted: bool,
}

impl Default for NexusPane {
    fn default() -> Self {
        Self::new()
    }
}

impl NexusPane {
    pub fn new() -> Self {
        NexusPane {
            view: View::Physical,
            physical: Physical::new(),
            economic: Economic::new(),
            tenanted: false,
        }
    }

    /// The exposure history key's hint, on the Tenanted API only.
    fn history_hint(&self) -> Option<PaneHint> {
        self.tenanted
            .then(|| PaneHint::action(Action::History, "history"))
    }

    /// Shows `view`, loading it the first time.
    fn switch(&mut self, view: View, ctx: &mut Ctx) {
        self.view = view;
        self.show(ctx);
    }
}

impl Pane for NexusPane {
    fn title(&self) -> &str {
        "Nexus"
    }

    fn hints(&self) -> Vec<PaneHint> {
        match self.view {
            View::Physical => self.physical.hints(),
            View::Economic if self.economic.discard.is_some() => {
                vec![PaneHint::keys("y/n", "answer")]
            }
            View::Economic if matches!(self.economic.mode, Mode::Filter(_)) => filter_hints(),
            View::Economic if self.economic.in_history() => vec![
                PaneHint::action(Action::Back, "close"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::PageDown, "page"),
                PaneHint::action(Action::CopyId, "copy id"),
            ],
            View::Economic if self.economic.in_detail() => vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
            ]
            .into_iter()
            .chain(self.history_hint())
            .collect(),
            View::Economic => [PaneHint::action(Action::Open, "open")]
                .into_iter()
                .chain(self.history_hint())
                .chain([
                    PaneHint::action(Action::Filter, "filter"),
                    PaneHint::action(Action::ToggleView, "physical"),
                    PaneHint::action(Action::Refresh, "refresh"),
                    PaneHint::action(Action::CopyId, "copy id"),
                ])
                .collect(),
        }
    }

    fn show(&mut self, ctx: &mut Ctx) {
        self.tenanted = ctx.tenanted().is_some();
        match self.view {
            View::Physical => self.physical.show(ctx),
            View::Economic => self.economic.show(ctx),
        }
    }

    fn captures_text(&self) -> bool {
        match self.view {
            View::Physical => self.physical.captures_text(),
            View::Economic => self.economic.captures_text(),
        }
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        match self.view {
            View::Physical => self.physical.on_key(key, ctx),
            View::Economic => self.economic.on_key(key, ctx),
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if action == Action::History && self.view == View::Physical {
            ctx.notify(
                crate::ui::pane::Level::Info,
                "The exposure history is kept for economic nexus: V shows the economic view.",
            );
            return true;
        }
        if action == Action::ToggleView && !self.economic.in_detail() && !self.economic.in_history()
        {
            let next = match self.view {
                View::Physical => View::Economic,
                View::Economic => View::Physical,
            };
            self.switch(next, ctx);
            return true;
        }
        match self.view {
            View::Physical => self.physical.on_action(action, ctx),
            View::Economic => self.economic.on_action(action, ctx),
        }
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if !self.physical.receive(id, &result, ctx) {
            self.economic.receive(id, &result, ctx);
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["physical", "economic", "filter", "refresh"]
    }

    fn command(&mut self, name: &str, _args: &[&str], ctx: &mut Ctx) -> bool {
        match (name, self.view) {
            ("physical", _) => self.switch(View::Physical, ctx),
            ("economic", _) => self.switch(View::Economic, ctx),
            ("filter", View::Physical) => self.physical.open_filter(),
            ("filter", View::Economic) => self.economic.open_filter(),
            ("refresh", View::Physical) => self.physical.reload(ctx),
            ("refresh", View::Economic) => self.economic.reload(ctx),
            _ => return false,
        }
        true
    }

    fn has_unsaved_input(&self) -> bool {
        self.physical.has_unsaved_input() || self.economic.has_unsaved_input()
    }

    fn draw(
        &mut self,
        frame: &mut Frame,
        area: Rect,
        theme: &Theme,
        _keys: &crate::ui::keymap::Keymap,
        focused: bool,
    ) {
        let subtitle = match self.view {
            View::Physical => format!(
                "— physical: {} ",
                filter::describe_physical(&self.physical.filter)
            ),
            View::Economic => format!(
                "— economic: {} ",
                filter::describe_economic(&self.economic.filter)
            ),
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(if focused {
                theme.border_focus
            } else {
                theme.border
            })
            .title(Line::from(vec![
                Span::styled(" Nexus ", theme.title),
                Span::styled(subtitle, theme.muted),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        match self.view {
            View::Physical => self.physical.draw(inner, buf, theme, focused),
            View::Economic => self.economic.draw(inner, buf, theme, focused),
        }
    }
}
