//! The shell's overlays as a stack of [`Layer`]s over the panes. The top one has the keys (and
//! pastes, clicks and the wheel), every one is drawn, bottom first, and each says after a key
//! or an answer whether it stays ([`LayerOutcome`]). What an overlay cannot do itself it asks
//! for through its [`LayerCx`]: a read (its answer comes back to it), or something of the
//! shell's ([`Ask`]): quitting, running a command, going to a record. An overlay that closes
//! drops the reads it still waited for.

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use super::Shell;
use super::calls::ShellCall;
use crate::effect::{Call, Effect, Failure, Goto, Reply, RequestId};
use crate::ui::keymap::Keymap;
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::pane::Level;

/// An overlay of the shell: a [`Layer`] that handles its own keys.
pub(super) trait ShellLayer: Layer {
    /// A key while it is on top.
    fn key(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome;

    /// Ctrl-C while it is on top: by default it closes and the dashboard quits (asking first
    /// when a pane holds unsaved input).
    fn interrupt(&mut self, _key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        cx.ask(Ask::Quit);
        LayerOutcome::Close
    }

    /// A click at (`column`, `row`) while it is on top, drawn over `area`; by default nothing.
    fn click(&mut self, _area: Rect, _column: u16, _row: u16, _cx: &mut LayerCx) -> LayerOutcome {
        LayerOutcome::Keep
    }

    /// A notch of the wheel while it is on top (`key` is Up or Down); by default nothing.
    fn wheel(&mut self, _key: KeyEvent) {}

    /// Pasted text while it is on top: whether it took it.
    fn paste(&mut self, _text: &str) -> bool {
        false
    }

    /// Whether it is drawn in the footer line (the command line) rather than over the panes.
    fn in_footer(&self) -> bool {
        false
    }

    /// The reads it waits for.
    fn awaited(&self) -> Vec<RequestId> {
        Vec::new()
    }

    /// The answer to one of its reads.
    fn receive(
        &mut self,
        _id: RequestId,
        _result: Result<Reply, Failure>,
        _cx: &mut LayerCx,
    ) -> LayerOutcome {
        LayerOutcome::Keep
    }
}

/// What an overlay asks of the shell besides staying or closing.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ask {
    /// Quit, asking first when a pane holds unsaved input.
    Quit,
    /// Quit at once (the quit question answered yes).
    QuitNow,
    /// The command line closed: its history is kept for its next opening, and `run` is the
    /// command entered, if any.
    Command {
        history: Vec<String>,
        run: Option<String>,
    },
    /// Open the command line holding this text.
    CommandLine(&'static str),
    /// Show the tab that takes `goto` (a found record).
    Goto(Box<Goto>),
    /// Send the rows of the file checked for `:import`.
    SendImport,
    /// The rows of the file checked for `:import` are not sent.
    DeclineImport,
}

/// What an overlay may use while it handles a key or an answer: the keymap, the reads it asks
/// for, and what it asks of the shell.
pub(super) struct LayerCx<'a> {
    pub(super) keys: &'a Keymap,
    next_id: &'a mut u64,
    calls: Vec<(RequestId, Call)>,
    asks: Vec<Ask>,
}

impl<'a> LayerCx<'a> {
    fn new(keys: &'a Keymap, next_id: &'a mut u64) -> Self {
        LayerCx {
            keys,
            next_id,
            calls: Vec::new(),
            asks: Vec::new(),
        }
    }

    /// Asks for `call`; its answer comes back to the overlay with the id answered here.
    pub(super) fn call(&mut self, call: impl Into<Call>) -> RequestId {
        *self.next_id += 1;
        let id = RequestId(*self.next_id);
        self.calls.push((id, call.into()));
        id
    }

    pub(super) fn ask(&mut self, ask: Ask) {
        self.asks.push(ask);
    }
}

/// The parts of a [`LayerCx`] once the overlay is done with it.
type Asked = (Vec<(RequestId, Call)>, Vec<Ask>);

impl Shell {
    /// Runs `f` on the overlay at `index` (taken off the stack meanwhile) with a context, then
    /// settles what it answered. Nothing happens without an overlay there.
    fn with_layer(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut dyn ShellLayer, &mut LayerCx) -> LayerOutcome,
    ) -> Vec<Effect> {
        if index >= self.layers.len() {
            return Vec::new();
        }
        let mut layer = self.layers.remove(index);
        let (outcome, asked) = {
            let mut cx = LayerCx::new(&self.keymap, &mut self.calls.next_id);
            let outcome = f(layer.as_mut(), &mut cx);
            (outcome, (cx.calls, cx.asks))
        };
        self.settle(layer, index, outcome, asked)
    }

    /// Opens an overlay on top; `open` builds it, asking through its context for what it reads.
    pub(super) fn open_layer(
        &mut self,
        open: impl FnOnce(&mut LayerCx) -> Box<dyn ShellLayer>,
    ) -> Vec<Effect> {
        let (layer, asked) = {
            let mut cx = LayerCx::new(&self.keymap, &mut self.calls.next_id);
            let layer = open(&mut cx);
            (layer, (cx.calls, cx.asks))
        };
        let index = self.layers.len();
        self.settle(layer, index, LayerOutcome::Keep, asked)
    }

    /// Puts the overlay back at `index` if it stays (closing drops the reads it waited for),
    /// sends the reads it asked for, and does what it asked of the shell.
    fn settle(
        &mut self,
        layer: Box<dyn ShellLayer>,
        index: usize,
        outcome: LayerOutcome,
        (calls, asks): Asked,
    ) -> Vec<Effect> {
        let mut effects: Vec<Effect> = calls
            .into_iter()
            .map(|(id, call)| {
                self.calls.adopt(id, ShellCall::Layer);
                Effect::Call {
                    id,
                    call: Box::new(call),
                }
            })
            .collect();
        match outcome {
            LayerOutcome::Keep | LayerOutcome::AskDiscard => {
                let index = index.min(self.layers.len());
                self.layers.insert(index, layer);
            }
            LayerOutcome::Close => {
                for id in layer.awaited() {
                    self.calls.forget(id);
                    effects.push(Effect::Cancel(id));
                }
            }
        }
        for ask in asks {
            effects.extend(self.answer_ask(ask));
        }
        effects
    }

    /// Does what an overlay asked of the shell.
    fn answer_ask(&mut self, ask: Ask) -> Vec<Effect> {
        match ask {
            Ask::Quit => self.request_quit(),
            Ask::QuitNow => self.quit_now(),
            Ask::Command { history, run } => {
                self.commands.keep_history(history);
                match run {
                    Some(text) => self.run_command(&text),
                    None => Vec::new(),
                }
            }
            Ask::CommandLine(text) => self.open_command_line(text),
            Ask::Goto(goto) => self.goto(&goto),
            Ask::SendImport => vec![Effect::SendImport],
            Ask::DeclineImport => {
                self.work.import_pane = None;
                self.notify(Level::Info, "Import not sent: nothing was sent.".into());
                Vec::new()
            }
        }
    }

    /// A key for the overlay on top (Ctrl-C as an interruption).
    pub(super) fn layer_key(&mut self, key: KeyEvent, ctrl_c: bool) -> Vec<Effect> {
        let top = self.layers.len().saturating_sub(1);
        self.with_layer(top, |layer, cx| {
            if ctrl_c {
                layer.interrupt(key, cx)
            } else {
                layer.key(key, cx)
            }
        })
    }

    /// A click for the overlay on top.
    pub(super) fn layer_click(&mut self, column: u16, row: u16) -> Vec<Effect> {
        let top = self.layers.len().saturating_sub(1);
        let area = self.hits.body;
        self.with_layer(top, |layer, cx| layer.click(area, column, row, cx))
    }

    /// The answer to an overlay's read, to the overlay that waits for it; dropped when none
    /// does any more.
    pub(super) fn layer_answer(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
    ) -> Vec<Effect> {
        match self.layers.iter().position(|l| l.awaited().contains(&id)) {
            Some(index) => self.with_layer(index, |layer, cx| layer.receive(id, result, cx)),
            None => Vec::new(),
        }
    }
}
