//! Keys, pastes and the mouse. Each goes to the overlay on top when there is one; else Ctrl-C
//! and Esc (stop waiting, cancel the export, stop the import) are the shell's, a pane taking
//! text gets the keys raw, and the keymap's actions go to the shell (tabs, jumps, find, help,
//! the command line) or to the focused pane.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::Shell;
use super::layers::ShellLayer;
use super::overlays::{Question, WHEEL_ROWS};
use crate::effect::Effect;
use crate::ui::keymap::Action;
use crate::ui::pane::Level;

impl Shell {
    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        // A refusal or a hint is answered by the key that follows it.
        self.notices.flash.key_pressed();
        let ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if !self.layers.is_empty() {
            return self.layer_key(key, ctrl_c);
        }
        if ctrl_c {
            return self.request_quit();
        }
        let captures_text = self.focused().captures_text();
        if key.code == KeyCode::Esc && self.focused_retry().is_some() {
            return self.stop_waiting();
        }
        if key.code == KeyCode::Esc && self.work.exporting() && !captures_text {
            return vec![Effect::CancelExport];
        }
        if key.code == KeyCode::Esc && self.work.importing() && !captures_text {
            return vec![Effect::StopImport];
        }
        let focus = self.tabs.focus;
        if captures_text {
            return self.with_pane(focus, |p, ctx| p.on_key(key, ctx));
        }
        if self.jumps.pending() {
            return self.jump_key(key);
        }
        let Some(action) = self.keymap.action(&key) else {
            return Vec::new();
        };
        if matches!(action, Action::Back | Action::JumpBack)
            && let Some(effects) = self.back_to_tile(action)
        {
            return effects;
        }
        if action.is_write() && self.session.header.read_only {
            self.notify_error(self.session.header.refusal());
            return Vec::new();
        }
        let count = self.tabs.panes.len();
        match action {
            Action::Quit => self.request_quit(),
            Action::Help => {
                let help = self.help();
                self.open_layer(|_| Box::new(help))
            }
            Action::CommandLine => self.open_command_line(""),
            Action::Jump => {
                self.start_jump();
                Vec::new()
            }
            Action::Find => self.open_command_line("find "),
            Action::RecordHistory => self.open_record_history(),
            Action::JumpBack => self.jump_back(),
            Action::JumpForward => self.jump_forward(),
            Action::NextPane => self.focus_pane((focus + 1) % count),
            Action::PrevPane => self.focus_pane((focus + count - 1) % count),
            Action::Pane(n) if (n as usize) <= count => self.focus_pane(n as usize - 1),
            Action::Refresh => {
                // A refresh reads the history again too: the snapshots another dashboard or a
                // scheduled `watch` took since are marked (a team's history is shared).
                let mut effects = self.with_pane(focus, |p, ctx| {
                    p.on_action(Action::Refresh, ctx);
                });
                effects.push(self.read_changed());
                effects
            }
            action => self.with_pane(focus, |p, ctx| {
                p.on_action(action, ctx);
            }),
        }
    }

    /// Text pasted (a terminal's bracketed paste: one event, however long) goes to the text
    /// field that has the focus (the command line, a pane's form), cut to what the field keeps.
    /// Where no text field has the focus it is dropped, and none of its characters acts as a
    /// key: a pasted `q` quits nothing.
    pub fn handle_paste(&mut self, text: &str) -> Vec<Effect> {
        if let Some(top) = self.layers.last_mut() {
            // Another overlay than the command line (a question, the help) takes nothing.
            if top.paste(text) {
                return Vec::new();
            }
        } else if self.focused().captures_text() {
            let mut took = false;
            let focus = self.tabs.focus;
            let effects = self.with_pane(focus, |p, ctx| took = p.on_paste(text, ctx));
            if took {
                return effects;
            }
        }
        self.notify(
            Level::Info,
            "Nothing pasted: no text field has the focus".into(),
        );
        Vec::new()
    }

    /// Handles one mouse event: a click on a tab shows it, a click in the pane goes to the pane
    /// (a row, a tile, a column's header, a dialog's button), a click on a question's buttons
    /// answers it, and the wheel scrolls whatever is on screen, three rows a notch.
    pub fn handle_mouse(&mut self, mouse: MouseEvent) -> Vec<Effect> {
        let scroll = match mouse.kind {
            MouseEventKind::ScrollDown => Some(KeyCode::Down),
            MouseEventKind::ScrollUp => Some(KeyCode::Up),
            MouseEventKind::Down(MouseButton::Left) => None,
            _ => return Vec::new(),
        };
        let (column, row) = (mouse.column, mouse.row);
        if let Some(code) = scroll {
            return self.scroll(code);
        }
        if !self.layers.is_empty() {
            // A click elsewhere than on a question leaves the overlay open.
            return self.layer_click(column, row);
        }
        let position = ratatui::layout::Position::new(column, row);
        if let Some(index) = self.hits.tabs.iter().position(|r| r.contains(position)) {
            return self.focus_pane(index);
        }
        if self.hits.body.contains(position) {
            let focus = self.tabs.focus;
            return self.with_pane(focus, |p, ctx| {
                p.on_click(column, row, ctx);
            });
        }
        Vec::new()
    }

    /// A notch of the wheel: three rows up or down, in the overlay on top or the pane.
    fn scroll(&mut self, code: KeyCode) -> Vec<Effect> {
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        if let Some(top) = self.layers.last_mut() {
            top.wheel(key);
            return Vec::new();
        }
        if self.focused().captures_text() {
            return Vec::new();
        }
        let action = if code == KeyCode::Down {
            Action::Down
        } else {
            Action::Up
        };
        let focus = self.tabs.focus;
        self.with_pane(focus, |p, ctx| {
            for _ in 0..WHEEL_ROWS {
                p.on_action(action, ctx);
            }
        })
    }

    /// Quits, after asking when a pane holds unsaved input.
    pub(super) fn request_quit(&mut self) -> Vec<Effect> {
        if self.tabs.panes.iter().any(|p| p.has_unsaved_input()) {
            return self.open_layer(|_| Box::new(Question::quit()) as Box<dyn ShellLayer>);
        }
        self.quit_now()
    }

    pub(super) fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }
}
