//! The shell's simple overlays as layers: the help (`?`), the messages (`:messages`), the
//! questions (quit with unsaved input, send a checked `:import`) and the command line (`:`).

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::layers::{Ask, LayerCx, ShellLayer};
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::theme::Theme;
use crate::ui::widgets::command_line::{CommandLine, CommandOutcome};
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::help::{Help, HelpOutcome};
use crate::ui::widgets::messages::MessagesView;

/// Rows a notch of the wheel scrolls.
pub(super) const WHEEL_ROWS: usize = 3;

/// A page that scrolls and closes with its keys: the help, the messages, a record's history.
pub(super) trait Page: Send {
    fn page_key(&mut self, key: KeyEvent) -> HelpOutcome;

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme);
}

/// A page is an overlay that scrolls with its keys and the wheel and closes with Esc.
impl<P: Page> Layer for P {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render(area, buf, theme);
    }
}

impl<P: Page> ShellLayer for P {
    fn key(&mut self, key: KeyEvent, _cx: &mut LayerCx) -> LayerOutcome {
        match self.page_key(key) {
            HelpOutcome::None => LayerOutcome::Keep,
            HelpOutcome::Close => LayerOutcome::Close,
        }
    }

    fn wheel(&mut self, key: KeyEvent) {
        for _ in 0..WHEEL_ROWS {
            self.page_key(key);
        }
    }
}

impl Page for Help {
    fn page_key(&mut self, key: KeyEvent) -> HelpOutcome {
        self.handle_key(key)
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        Help::render(self, area, buf, theme);
    }
}

impl Page for MessagesView {
    fn page_key(&mut self, key: KeyEvent) -> HelpOutcome {
        self.handle_key(key)
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        MessagesView::render(self, area, buf, theme);
    }
}

/// A yes/no question of the shell's, and what each answer asks.
pub(super) struct Question {
    confirm: Confirm,
    yes: Ask,
    /// What no asks, if anything.
    no: Option<Ask>,
    /// The answer Ctrl-C gives.
    interrupt: bool,
}

impl Question {
    /// "You have unsaved input. Quit and discard it?": yes quits; Ctrl-C quits too.
    pub(super) fn quit() -> Self {
        Question {
            confirm: Confirm::new("You have unsaved input. Quit and discard it?", false)
                .with_title("Quit"),
            yes: Ask::QuitNow,
            no: None,
            interrupt: true,
        }
    }

    /// Whether to send the rows of a file checked for `:import`: the report and the question.
    /// Ctrl-C sends nothing.
    pub(super) fn import(title: String, report: String) -> Self {
        Question {
            confirm: Confirm::new(report, false).with_title(title),
            yes: Ask::SendImport,
            no: Some(Ask::DeclineImport),
            interrupt: false,
        }
    }

    fn answered(&self, yes: bool, cx: &mut LayerCx) -> LayerOutcome {
        let asked = if yes {
            Some(&self.yes)
        } else {
            self.no.as_ref()
        };
        if let Some(ask) = asked {
            cx.ask(ask.clone());
        }
        LayerOutcome::Close
    }

    fn outcome(&self, outcome: ConfirmOutcome, cx: &mut LayerCx) -> LayerOutcome {
        match outcome {
            ConfirmOutcome::Yes => self.answered(true, cx),
            ConfirmOutcome::No => self.answered(false, cx),
            ConfirmOutcome::None => LayerOutcome::Keep,
        }
    }
}

impl Layer for Question {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.confirm.render(area, buf, theme);
    }
}

impl ShellLayer for Question {
    fn key(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        let outcome = self.confirm.handle_key(key);
        self.outcome(outcome, cx)
    }

    fn interrupt(&mut self, _key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        self.answered(self.interrupt, cx)
    }

    fn click(&mut self, area: Rect, column: u16, row: u16, cx: &mut LayerCx) -> LayerOutcome {
        let outcome = self.confirm.click(area, column, row);
        self.outcome(outcome, cx)
    }
}

/// The `:` command line, open in the footer. Closing hands its history back to the shell, with
/// the command entered.
pub(super) struct CommandLayer {
    line: CommandLine,
}

impl CommandLayer {
    /// The command line, opened holding `text`.
    pub(super) fn open(mut line: CommandLine, text: &str) -> Self {
        line.open_with(text);
        CommandLayer { line }
    }
}

impl Layer for CommandLayer {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.line.render(area, buf, theme);
    }
}

impl ShellLayer for CommandLayer {
    fn key(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        let run = match self.line.handle_key(key) {
            CommandOutcome::None => return LayerOutcome::Keep,
            CommandOutcome::Submitted(text) => Some(text),
            CommandOutcome::Cancelled => None,
        };
        cx.ask(Ask::Command {
            history: self.line.history().to_vec(),
            run,
        });
        LayerOutcome::Close
    }

    /// Ctrl-C is a key of the line's like any other.
    fn interrupt(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        self.key(key, cx)
    }

    fn paste(&mut self, text: &str) -> bool {
        self.line.paste(text);
        true
    }

    fn in_footer(&self) -> bool {
        true
    }
}
