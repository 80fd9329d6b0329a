//! The frame around the panes: header, tabs, footer, notices, overlays, and the routing of keys
//! and answers. Read-only mode is enforced here, once for every pane: write actions are refused
//! before a pane sees them, and a write call that gets through is answered with a failure
//! without being sent.

use std::collections::HashMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::keymap::{Action, Keymap};
use super::pane::{Ctx, HintKey, Level, Pane, PaneHint};
use super::theme::Theme;
use crate::effect::{Answer, Effect, Failure, FailureKind, RequestId};

/// What the header tells about the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderInfo {
    pub profile: String,
    pub organization: String,
    /// The API generation, `v1`.
    pub generation: String,
    pub demo: bool,
    pub read_only: bool,
}

/// What the last answers said of the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Connection {
    Connecting,
    Connected,
    Trouble(String),
}

/// A one-line notice in the footer, gone after a while.
#[derive(Debug, Clone)]
struct Notice {
    level: Level,
    text: String,
    ticks_left: u16,
}

/// Ticks a notice stays (at 100 ms a tick).
const NOTICE_TICKS: u16 = 50;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The dashboard's frame and its panes.
pub struct Shell {
    panes: Vec<Box<dyn Pane>>,
    shown: Vec<bool>,
    focus: usize,
    keymap: Keymap,
    theme: Theme,
    header: HeaderInfo,
    connection: Connection,
    waiting: HashMap<RequestId, (usize, String)>,
    next_id: u64,
    notice: Option<Notice>,
    spinner: usize,
    quit: bool,
    log_path: Option<String>,
}

impl Shell {
    pub fn new(panes: Vec<Box<dyn Pane>>, keymap: Keymap, theme: Theme, header: HeaderInfo) -> Self {
        let shown = vec![false; panes.len()];
        Shell {
            panes,
            shown,
            focus: 0,
            keymap,
            theme,
            header,
            connection: Connection::Connecting,
            waiting: HashMap::new(),
            next_id: 0,
            notice: None,
            spinner: 0,
            quit: false,
            log_path: None,
        }
    }

    /// Where the log file is, for the help overlay.
    pub fn with_log_path(mut self, path: impl Into<String>) -> Self {
        self.log_path = Some(path.into());
        self
    }

    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Shows the first pane; returns what it asks for.
    pub fn start(&mut self) -> Vec<Effect> {
        self.with_pane(self.focus, |pane, ctx| pane.show(ctx))
    }

    pub fn notify_info(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice { level: Level::Info, text: text.into(), ticks_left: NOTICE_TICKS });
    }

    pub fn notify_error(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice { level: Level::Error, text: text.into(), ticks_left: NOTICE_TICKS * 2 });
    }

    /// Runs `f` on pane `index` with a context, then files what it asked for.
    fn with_pane(&mut self, index: usize, f: impl FnOnce(&mut dyn Pane, &mut Ctx)) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut notices = Vec::new();
        {
            let pane = self.panes[index].as_mut();
            let mut ctx = Ctx::new(&mut self.next_id, &mut effects, &mut notices, self.header.read_only);
            f(pane, &mut ctx);
        }
        if let Some((level, text)) = notices.pop() {
            self.notice = Some(Notice { level, text, ticks_left: NOTICE_TICKS });
        }
        self.file_effects(index, effects)
    }

    /// Records which pane waits for which call, and refuses writes in read-only mode.
    fn file_effects(&mut self, pane: usize, effects: Vec<Effect>) -> Vec<Effect> {
        let mut out = Vec::new();
        let mut refused = Vec::new();
        for effect in effects {
            match effect {
                Effect::Call { id, call } if self.header.read_only && call.is_write() => {
                    refused.push(Answer {
                        id,
                        result: Err(Failure {
                            kind: FailureKind::ReadOnly,
                            message: "Read-only mode: nothing was sent. Start taxdash without --read-only to change records."
                                .into(),
                            fields: Vec::new(),
                        }),
                    });
                    self.waiting.insert(id, (pane, String::new()));
                }
                Effect::Call { id, ref call } => {
                    self.waiting.insert(id, (pane, call.describe()));
                    out.push(effect);
                }
                Effect::Cancel(id) => {
                    self.waiting.remove(&id);
                    out.push(effect);
                }
                Effect::Quit => self.quit = true,
                other => out.push(other),
            }
        }
        for answer in refused {
            out.extend(self.handle_answer(answer));
        }
        out
    }

    /// Routes an answer to the pane that asked; answers nobody waits for are dropped.
    pub fn handle_answer(&mut self, answer: Answer) -> Vec<Effect> {
        let Some((pane, _)) = self.waiting.remove(&answer.id) else { return Vec::new() };
        match &answer.result {
            Ok(_) => self.connection = Connection::Connected,
            Err(f) if f.kind.is_connection() => self.connection = Connection::Trouble(f.message.clone()),
            Err(f) if f.kind == FailureKind::Unauthorized || f.kind == FailureKind::Forbidden => {
                self.connection = Connection::Trouble("the service refused the API key".into());
            }
            Err(_) => self.connection = Connection::Connected,
        }
        let Answer { id, result } = answer;
        self.with_pane(pane, |p, ctx| p.receive(id, result, ctx))
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return self.request_quit();
        }
        if self.panes[self.focus].captures_text() {
            return self.with_pane(self.focus, |p, ctx| p.on_key(key, ctx));
        }
        let Some(action) = self.keymap.action(&key) else { return Vec::new() };
        if action.is_write() && self.header.read_only {
            self.notify_error("Read-only mode: changes are turned off.");
            return Vec::new();
        }
        match action {
            Action::Quit => self.request_quit(),
            Action::NextPane => self.focus_pane((self.focus + 1) % self.panes.len()),
            Action::PrevPane => self.focus_pane((self.focus + self.panes.len() - 1) % self.panes.len()),
            Action::Pane(n) if (n as usize) <= self.panes.len() => self.focus_pane(n as usize - 1),
            action => self.with_pane(self.focus, |p, ctx| {
                p.on_action(action, ctx);
            }),
        }
    }

    fn request_quit(&mut self) -> Vec<Effect> {
        if self.panes.iter().any(|p| p.has_unsaved_input()) && !self.quit_confirmed_once() {
            self.notify_error("Unsaved input: press q again (or ctrl-c) to quit and discard it.");
            return Vec::new();
        }
        self.quit = true;
        vec![Effect::Quit]
    }

    /// A second quit request while the unsaved-input notice shows confirms it.
    fn quit_confirmed_once(&self) -> bool {
        self.notice.as_ref().is_some_and(|n| n.text.starts_with("Unsaved input"))
    }

    fn focus_pane(&mut self, index: usize) -> Vec<Effect> {
        if index >= self.panes.len() {
            return Vec::new();
        }
        self.focus = index;
        self.shown[index] = true;
        self.with_pane(index, |p, ctx| p.show(ctx))
    }

    /// Advances the spinner and notices; returns whether the screen changed.
    pub fn tick(&mut self) -> bool {
        let mut changed = false;
        if let Some(n) = &mut self.notice {
            n.ticks_left = n.ticks_left.saturating_sub(1);
            if n.ticks_left == 0 {
                self.notice = None;
                changed = true;
            }
        }
        if self.waiting.values().any(|(p, _)| *p == self.focus) {
            self.spinner = (self.spinner + 1) % SPINNER.len();
            changed = true;
        }
        for pane in &mut self.panes {
            changed |= pane.tick();
        }
        changed
    }

    /// The focused pane's hints with their live keys, writes left out in read-only mode.
    pub fn hints(&self) -> Vec<(String, &'static str)> {
        let mut hints: Vec<PaneHint> = self.panes[self.focus].hints();
        if !self.panes[self.focus].captures_text() {
            hints.push(PaneHint::action(Action::NextPane, "next tab"));
            hints.push(PaneHint::action(Action::Help, "help"));
            hints.push(PaneHint::action(Action::Quit, "quit"));
        }
        hints
            .into_iter()
            .filter(|h| !(self.header.read_only && h.is_write()))
            .map(|h| {
                let keys = match h.key {
                    HintKey::Action(a) => self.keymap.keys_for(a),
                    HintKey::Keys(k) => k.to_owned(),
                };
                (keys, h.label)
            })
            .filter(|(keys, _)| !keys.is_empty())
            .collect()
    }

    pub fn draw(&mut self, frame: &mut Frame) {
        let [header, tabs, body, status, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        frame.render_widget(Paragraph::new(self.header_line()).style(self.theme.header), header);
        frame.render_widget(Paragraph::new(self.tabs_line()), tabs);
        let theme = self.theme.clone();
        self.panes[self.focus].draw(frame, body, &theme, true);
        frame.render_widget(Paragraph::new(self.status_line()), status);
        frame.render_widget(Paragraph::new(self.footer_line(footer)), footer);
    }

    fn header_line(&self) -> Line<'static> {
        let h = &self.header;
        let mut spans = vec![
            Span::styled(" taxdash ", self.theme.header.add_modifier(ratatui::style::Modifier::BOLD)),
            Span::raw(format!(" profile {} ", h.profile)),
            Span::raw(format!("│ org {} ", h.organization)),
            Span::raw(format!("│ API {} ", h.generation)),
        ];
        if h.demo {
            spans.push(Span::styled(" DEMO ", self.theme.badge_demo));
            spans.push(Span::raw(" "));
        }
        if h.read_only {
            spans.push(Span::styled(" READ-ONLY ", self.theme.badge_read_only));
            spans.push(Span::raw(" "));
        }
        spans.push(Span::raw(match &self.connection {
            Connection::Connecting => "│ ○ connecting".to_owned(),
            Connection::Connected => "│ ● connected".to_owned(),
            Connection::Trouble(_) => "│ ✕ connection trouble".to_owned(),
        }));
        Line::from(spans)
    }

    fn tabs_line(&self) -> Line<'static> {
        let mut spans = vec![Span::raw(" ")];
        for (i, pane) in self.panes.iter().enumerate() {
            let style = if i == self.focus { self.theme.tab_active } else { self.theme.tab };
            spans.push(Span::styled(format!("{} {}", i + 1, pane.title()), style));
            spans.push(Span::raw("   "));
        }
        Line::from(spans)
    }

    fn status_line(&self) -> Line<'static> {
        if let Some(n) = &self.notice {
            let style = match n.level {
                Level::Info => self.theme.info,
                Level::Success => self.theme.success,
                Level::Error => self.theme.error,
            };
            return Line::from(Span::styled(format!(" {}", n.text), style));
        }
        let loading: Vec<&str> =
            self.waiting.values().filter(|(p, what)| *p == self.focus && !what.is_empty()).map(|(_, w)| w.as_str()).collect();
        if let Some(what) = loading.first() {
            return Line::from(Span::styled(format!(" {} {what}…", SPINNER[self.spinner]), self.theme.muted));
        }
        if let Connection::Trouble(why) = &self.connection {
            return Line::from(Span::styled(format!(" {why}"), self.theme.warning));
        }
        Line::default()
    }

    fn footer_line(&self, area: Rect) -> Line<'static> {
        let mut spans = vec![Span::raw(" ")];
        let mut used = 1usize;
        for (keys, label) in self.hints() {
            let width = keys.chars().count() + label.chars().count() + 3;
            if used + width > area.width as usize {
                break;
            }
            used += width;
            spans.push(Span::styled(keys, self.theme.key));
            spans.push(Span::styled(format!(" {label}  "), Style::default()));
        }
        Line::from(spans)
    }
}
