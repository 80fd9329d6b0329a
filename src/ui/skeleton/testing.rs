//! The one test fixture of every pane: keys and answers in, calls, notices and the drawn
//! screen out.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::effect::{Call, Effect, Failure, FailureKind, Reply, RequestId};
use crate::model::tenanted::ApiVersion;
use crate::model::{Page, PageParams};
use crate::ui::judging::Judging;
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Level, Pane};
use crate::ui::theme::Theme;

/// A pane with what it asked for so far.
pub struct Fixture<P> {
    pub pane: P,
    next_id: u64,
    pub effects: Vec<Effect>,
    pub notices: Vec<(Level, String)>,
    read_only: bool,
    tenanted: Option<ApiVersion>,
    judging: Judging,
}

impl<P: Pane> Fixture<P> {
    pub fn new(pane: P) -> Self {
        Fixture {
            pane,
            next_id: 0,
            effects: Vec::new(),
            notices: Vec::new(),
            read_only: false,
            tenanted: None,
            judging: Judging::default(),
        }
    }

    /// The same pane judging records by `judging`, as the config file may set it.
    pub fn judging(mut self, judging: Judging) -> Self {
        self.judging = judging;
        self
    }

    /// The same pane in read-only mode.
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// The same pane on the Tenanted API.
    pub fn tenanted(mut self) -> Self {
        self.tenanted = Some(ApiVersion::default());
        self
    }

    pub fn with<T>(&mut self, f: impl FnOnce(&mut P, &mut Ctx) -> T) -> T {
        let mut ctx = Ctx::new(
            &mut self.next_id,
            &mut self.effects,
            &mut self.notices,
            self.read_only,
        )
        .with_tenanted(self.tenanted)
        .with_judging(self.judging);
        f(&mut self.pane, &mut ctx)
    }

    pub fn show(&mut self) {
        self.with(super::super::pane::Pane::show);
    }

    pub fn action(&mut self, action: Action) -> bool {
        self.with(|p, ctx| p.on_action(action, ctx))
    }

    pub fn command(&mut self, name: &str, args: &[&str]) -> bool {
        self.with(|p, ctx| p.command(name, args, ctx))
    }

    pub fn key(&mut self, key: KeyEvent) {
        assert!(self.pane.captures_text(), "a form or dialog has the keys");
        self.with(|p, ctx| p.on_key(key, ctx));
    }

    pub fn press(&mut self, code: KeyCode) {
        self.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    pub fn type_text(&mut self, text: &str) {
        text.chars().for_each(|c| self.press(KeyCode::Char(c)));
    }

    /// Ctrl-S.
    pub fn submit(&mut self) {
        self.key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    }

    pub fn tick(&mut self) {
        self.with(super::super::pane::Pane::tick);
    }

    pub fn answer(&mut self, id: RequestId, result: Result<Reply, Failure>) {
        self.with(|p, ctx| p.receive(id, result, ctx));
    }

    /// The calls asked for since the last look, forgetting every effect.
    pub fn calls(&mut self) -> Vec<(RequestId, Call)> {
        self.effects
            .drain(..)
            .filter_map(|e| match e {
                Effect::Call { id, call } => Some((id, *call)),
                _ => None,
            })
            .collect()
    }

    /// The one call asked for since the last look.
    pub fn only_call(&mut self) -> (RequestId, Call) {
        let mut calls = self.calls();
        assert_eq!(calls.len(), 1, "one call: {calls:?}");
        calls.remove(0)
    }

    /// Shows the pane and answers its first page call with `rows`, wrapped by `reply`.
    pub fn load<R, A: Into<Reply>>(&mut self, rows: Vec<R>, reply: impl FnOnce(Page<R>) -> A) {
        self.show();
        let (id, _) = self.calls().remove(0);
        let total = rows.len() as u64;
        let page = Page::new(rows, total, 1, PageParams::DEFAULT_SIZE);
        self.answer(id, Ok(reply(page).into()));
        self.calls();
    }

    /// The last notice's level.
    pub fn last_level(&self) -> Option<Level> {
        self.notices.last().map(|n| n.0)
    }

    /// What the pane draws into a `width` x `height` area, row by row.
    pub fn screen(&mut self, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
        let theme = Theme::default();
        let keys = Keymap::default();
        terminal
            .draw(|frame| {
                let area = frame.area();
                self.pane.draw(frame, area, &theme, &keys, true);
            })
            .expect("draws");
        crate::ui::widgets::testing::all_text(terminal.backend().buffer())
    }
}

/// A failure of `kind` saying `message`.
pub fn failure(kind: FailureKind, message: &str) -> Failure {
    Failure {
        kind,
        message: message.into(),
        fields: Vec::new(),
    }
}
