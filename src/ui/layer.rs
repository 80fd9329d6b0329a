//! What lies over a screen. A layer is drawn over what is beneath it and has the keys while it
//! is on top; layers are kept in stacks, drawn bottom first, and the top one says with a
//! [`LayerOutcome`] whether it stays. A pane's dialogs (wizards, pickers, reports, the "discard
//! the unsaved input?" question) lie over the pane in its skeleton's stack; the shell's overlays
//! (the help, the messages, the command line, its questions, find, the audit log, a record's
//! history) lie over the panes in the shell's. Each dialog is placed with
//! [`crate::ui::widgets::popup::Popup`].

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::ui::pane::PaneHint;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::Confirm;
use crate::ui::widgets::form::Form;

/// Something drawn over a screen that has the keys while it is on top.
pub trait Layer: Send {
    /// The keys it offers, for the footer (the shell's overlays leave the pane's there).
    fn hints(&self) -> Vec<PaneHint> {
        Vec::new()
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme);

    /// Whether closing it now would lose typed input.
    fn has_unsaved_input(&self) -> bool {
        false
    }

    /// Whether it takes the raw keys (a question, a form); a dialog of a pane that does not gets
    /// the keymap's actions through [`crate::ui::skeleton::PaneSpec::action`].
    fn captures_text(&self) -> bool {
        true
    }

    /// The form whose focused field takes a paste, if the layer shows one now.
    fn form_mut(&mut self) -> Option<&mut Form> {
        None
    }
}

/// What a key (or an answer) did to the layer on top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerOutcome {
    Keep,
    Close,
    /// Esc with typed input: ask before closing.
    AskDiscard,
}

/// The hints of a yes/no question (the question widget's own keys, not the keymap's).
pub fn question_hints() -> Vec<PaneHint> {
    vec![PaneHint::keys("y/n", "answer")]
}

/// A yes/no question is a layer: its owner reads the answer from the keys it gives it.
impl Layer for Confirm {
    fn hints(&self) -> Vec<PaneHint> {
        question_hints()
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render(area, buf, theme);
    }
}
