//! Related jumps and the jump list. The jump prefix (`g`) then a letter follows one of the
//! relations the focused pane offers for its record; `g` again goes to the first row. Every
//! [`Goto`] the shell carries out is a jump: the place it left (the tab and that tab's list,
//! filter, cursor and open detail) goes on the jump list, which `ctrl-o` walks back and
//! `ctrl-i` / `ctrl-n` forward again.

use crossterm::event::{KeyCode, KeyEvent};

use super::Shell;
use crate::effect::Effect;
use crate::ui::keymap::Action;
use crate::ui::pane::{Leads, Relation, SavedState};

/// How many places the jump list keeps each way.
const KEPT: usize = 50;

/// A place the jump list can go back to: a tab and what it showed.
pub(super) struct Spot {
    pane: usize,
    state: Option<SavedState>,
}

/// A list the Overview opened (a tile's count): the tab, and what it showed before, which it
/// shows again when the user goes back to the Overview.
pub(super) struct FromTile {
    pane: usize,
    before: Option<SavedState>,
}

/// The places behind and ahead, whether the jump prefix waits for its letter, and the list a
/// tile opened last.
#[derive(Default)]
pub(super) struct Jumps {
    back: Vec<Spot>,
    forward: Vec<Spot>,
    pending: bool,
    from_tile: Option<FromTile>,
}

impl Jumps {
    /// Forgets every place (the panes were built again).
    pub(super) fn clear(&mut self) {
        *self = Jumps::default();
    }

    pub(super) fn pending(&self) -> bool {
        self.pending
    }

    /// The user went to tab `pane`: a list a tile opened elsewhere is that tab's own list now.
    pub(super) fn went_to(&mut self, pane: usize) {
        if self.from_tile.as_ref().is_some_and(|t| t.pane != pane) {
            self.from_tile = None;
        }
    }
}

impl Shell {
    /// Where the user is now, for the jump list.
    pub(super) fn spot(&self) -> Spot {
        Spot {
            pane: self.tabs.focus,
            state: self.focused().save_state(),
        }
    }

    /// A jump left `from`: it goes on the jump list, and the places ahead are forgotten.
    pub(super) fn jumped_from(&mut self, from: Spot) {
        self.jumps.back.push(from);
        if self.jumps.back.len() > KEPT {
            self.jumps.back.remove(0);
        }
        self.jumps.forward.clear();
    }

    /// A tile of the Overview opened tab `pane`'s list, which showed `before` until then.
    pub(super) fn opened_from_tile(&mut self, pane: usize, before: Option<SavedState>) {
        self.jumps.from_tile = Some(FromTile { pane, before });
    }

    /// `Esc` on a list a tile opened (with nothing open over it), or `ctrl-o` from it: back to
    /// the Overview with that tile chosen, the tab showing again what it showed before. `None`
    /// when the focused list is not one a tile opened (the key does what it does elsewhere).
    pub(super) fn back_to_tile(&mut self, action: Action) -> Option<Vec<Effect>> {
        let focus = self.tabs.focus;
        let opened = self.jumps.from_tile.as_ref()?;
        if opened.pane != focus {
            // The user went on elsewhere: the list is the tab's own now.
            self.jumps.from_tile = None;
            return None;
        }
        if action == Action::Back && !self.focused().at_rest() {
            return None;
        }
        let opened = self.jumps.from_tile.take()?;
        let mut effects = self.jump_back();
        if let Some(before) = opened.before {
            effects.extend(self.with_pane(opened.pane, |p, ctx| {
                p.restore_state(before, ctx);
            }));
        }
        Some(effects)
    }

    /// The jump prefix was pressed: the next key picks the relation.
    pub(super) fn start_jump(&mut self) {
        self.jumps.pending = true;
    }

    /// The key after the jump prefix: the prefix again is the first row, a relation's letter
    /// follows it, anything else (Esc) lets the prefix go.
    pub(super) fn jump_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.jumps.pending = false;
        if self.keymap.action(&key) == Some(Action::Jump) {
            return self.with_pane(self.tabs.focus, |p, ctx| {
                p.on_action(Action::Top, ctx);
            });
        }
        let KeyCode::Char(letter) = key.code else {
            return Vec::new();
        };
        let Some(relation) = self
            .focused()
            .relations()
            .into_iter()
            .find(|r| r.key == letter)
        else {
            self.notify_error(format!("Nothing to jump to with {letter} here."));
            return Vec::new();
        };
        match relation.to {
            Leads::To(goto) => self.goto(&goto),
            Leads::Open(id) => self.find(&id),
            Leads::Say(why) => {
                self.notify_info(why);
                Vec::new()
            }
        }
    }

    /// The footer while the prefix waits: the letters the record offers.
    pub(super) fn jump_hints(&self) -> Vec<(String, &'static str)> {
        let mut hints: Vec<(String, &'static str)> = self
            .focused()
            .relations()
            .into_iter()
            .map(|r: Relation| (r.key.to_string(), r.label))
            .collect();
        hints.push((self.keymap.keys_for(Action::Jump), "first row"));
        hints.push(("esc".to_owned(), "cancel"));
        hints
    }

    /// `ctrl-o`: back to the place the last jump left, keeping this one to come forward to.
    pub(super) fn jump_back(&mut self) -> Vec<Effect> {
        let Some(spot) = self.jumps.back.pop() else {
            self.notify_info("The jump list has no earlier place.".to_owned());
            return Vec::new();
        };
        let here = self.spot();
        match self.visit(spot) {
            Ok(effects) => {
                self.jumps.forward.push(here);
                effects
            }
            Err(spot) => {
                self.jumps.back.push(spot);
                Vec::new()
            }
        }
    }

    /// `ctrl-i` / `ctrl-n`: forward again to the place `ctrl-o` left.
    pub(super) fn jump_forward(&mut self) -> Vec<Effect> {
        let Some(spot) = self.jumps.forward.pop() else {
            self.notify_info("The jump list has no later place.".to_owned());
            return Vec::new();
        };
        let here = self.spot();
        match self.visit(spot) {
            Ok(effects) => {
                self.jumps.back.push(here);
                effects
            }
            Err(spot) => {
                self.jumps.forward.push(spot);
                Vec::new()
            }
        }
    }

    /// Shows `spot` again: its tab, with the list, filter, cursor and detail it had. A tab
    /// holding unsaved input is left alone, and the spot is handed back.
    fn visit(&mut self, spot: Spot) -> Result<Vec<Effect>, Spot> {
        if spot.pane >= self.tabs.panes.len() {
            return Ok(Vec::new());
        }
        if spot.pane != self.tabs.focus && self.tabs.panes[spot.pane].has_unsaved_input() {
            let title = self.tabs.panes[spot.pane].title().to_owned();
            self.notify_error(format!(
                "{title} holds unsaved input: finish or cancel it there first."
            ));
            return Err(spot);
        }
        let Spot { pane, state } = spot;
        let mut effects = Vec::new();
        if let Some(state) = state {
            effects.extend(self.with_pane(pane, |p, ctx| {
                p.restore_state(state, ctx);
            }));
        }
        effects.extend(self.focus_pane(pane));
        Ok(effects)
    }
}
