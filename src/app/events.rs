//! Applying the terminal's events to the shell, a batch at a time: keys (Ctrl-Z asks for a
//! suspend instead), clicks and the wheel, pastes (whole, as one event) and resizes.

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};
use futures::{FutureExt, Stream, StreamExt};

use super::Ended;
use crate::effect::Effect;
use crate::os::signals::Signal;
use crate::ui::shell::Shell;

/// How long the loop applies terminal events already waiting before it draws and listens to
/// answers again: a flood of events (a paste typed as keys) never starves them. A signal stops
/// a batch at once.
pub const BATCH: Duration = Duration::from_millis(500);

/// Where the terminal's events go while the loop takes a batch of them.
pub(super) struct Batch<'a> {
    pub shell: &'a mut Shell,
    pub effects: &'a mut Vec<Effect>,
    pub stop: &'a mut Option<Signal>,
}

impl Batch<'_> {
    /// Applies `first`, then the events already waiting after it, for at most [`BATCH`] or
    /// until a signal arrives: then the loop draws once and listens to everything else again.
    /// Answers whether anything on screen changed and the signal that stopped the batch, or how
    /// the loop ends: the events ran out, or the terminal went away (an error from its input;
    /// nothing then reads it again).
    pub fn take<E, S>(
        self,
        first: Option<io::Result<Event>>,
        events: &mut E,
        signals: &mut S,
    ) -> Result<(bool, Option<Signal>), Ended>
    where
        E: Stream<Item = io::Result<Event>> + Unpin,
        S: Stream<Item = Signal> + Unpin,
    {
        let started = Instant::now();
        let mut dirty = false;
        let mut next = first;
        loop {
            match next {
                None => return Err(Ended::EventsEnded),
                Some(Err(e)) => {
                    tracing::warn!("the terminal's input ended: {e}");
                    return Err(Ended::TerminalGone);
                }
                Some(Ok(event)) => {
                    dirty |= apply_event(self.shell, event, self.effects, self.stop);
                }
            }
            if started.elapsed() >= BATCH {
                return Ok((dirty, None));
            }
            if let Some(Some(signal)) = signals.next().now_or_never() {
                return Ok((dirty, Some(signal)));
            }
            match events.next().now_or_never() {
                // The end is met again by the loop, after what the batch asked (a suspend).
                Some(None) | None => return Ok((dirty, None)),
                Some(event) => next = event,
            }
        }
    }
}

/// Ctrl-Z, which arrives as a key while the terminal is raw.
fn is_suspend_key(key: &KeyEvent) -> bool {
    key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL)
}

/// Applies one terminal event; Ctrl-Z asks for a suspend instead of reaching the shell, and a
/// paste reaches it whole, as one event.
fn apply_event(
    shell: &mut Shell,
    event: Event,
    effects: &mut Vec<Effect>,
    stop: &mut Option<Signal>,
) -> bool {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release && is_suspend_key(&key) => {
            *stop = Some(Signal::Suspend);
            false
        }
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            effects.extend(shell.handle_key(key));
            true
        }
        Event::Mouse(mouse) => {
            // The pointer moving or a button let go changes nothing on screen.
            let acts = matches!(
                mouse.kind,
                MouseEventKind::Down(_) | MouseEventKind::ScrollDown | MouseEventKind::ScrollUp
            );
            if acts {
                effects.extend(shell.handle_mouse(mouse));
            }
            acts
        }
        Event::Paste(text) => {
            effects.extend(shell.handle_paste(&text));
            true
        }
        Event::Resize(..) => true,
        _ => false,
    }
}
