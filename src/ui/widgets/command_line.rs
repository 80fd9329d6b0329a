//! The `:` command line: one line of text with history and Tab completion of command names and
//! their arguments (`:theme light`, `:nexus CA`). It runs nothing itself; Enter hands the text to
//! the owner.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use ratatui_textarea::{CursorMove, TextArea};
use unicode_width::UnicodeWidthStr;

use super::keys::{is_back_tab, is_press};
use super::line_edit;
use crate::ui::theme::Theme;

/// How many commands the history keeps.
pub const HISTORY_LIMIT: usize = 100;

/// What a key did to the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandOutcome {
    /// Still open.
    None,
    /// Enter on a command: its text, trimmed. The line is closed.
    Submitted(String),
    /// Esc, or Enter on an empty line. The line is closed.
    Cancelled,
}

/// Candidates for the arguments of a command, by command name.
pub type ArgumentSource = Box<dyn Fn(&str) -> Vec<String> + Send>;

/// A Tab cycle in progress: the word being completed starts at `start` (a char index) and each
/// Tab puts the next of `matches` in its place.
#[derive(Debug)]
struct Cycle {
    start: usize,
    matches: Vec<String>,
    index: usize,
}

/// The most characters a paste puts on the command line: a command and a long path.
pub const PASTE_MAX_CHARS: usize = 4096;

/// The command line's state, kept by its owner across openings so history survives.
pub struct CommandLine {
    input: TextArea<'static>,
    open: bool,
    history: Vec<String>,
    /// The history entry shown, while browsing with Up/Down.
    browsing: Option<usize>,
    /// What was typed before browsing started, restored by Down past the newest entry.
    draft: String,
    commands: Vec<String>,
    arguments: ArgumentSource,
    cycle: Option<Cycle>,
}

impl std::fmt::Debug for CommandLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandLine")
            .field("text", &self.text())
            .field("open", &self.open)
            .field("history", &self.history)
            .field("commands", &self.commands)
            .finish_non_exhaustive()
    }
}

impl CommandLine {
    /// A closed command line completing `commands`, with no argument candidates.
    pub fn new<S: Into<String>>(commands: impl IntoIterator<Item = S>) -> Self {
        CommandLine {
            input: TextArea::default(),
            open: false,
            history: Vec::new(),
            browsing: None,
            draft: String::new(),
            commands: commands.into_iter().map(Into::into).collect(),
            arguments: Box::new(|_| Vec::new()),
            cycle: None,
        }
    }

    /// The same line completing the arguments of a command from `source`
    /// (`"theme"` -> `["dark", "light", "high-contrast", "mono"]`).
    pub fn with_arguments(mut self, source: impl Fn(&str) -> Vec<String> + Send + 'static) -> Self {
        self.arguments = Box::new(source);
        self
    }

    /// The same line remembering `history` (oldest first), as an earlier line left it: the
    /// owner keeps the history between openings.
    #[must_use]
    pub fn with_history(mut self, history: Vec<String>) -> Self {
        self.history = history;
        self
    }

    /// Opens an empty line; the history stays.
    pub fn open(&mut self) {
        self.open = true;
        self.set_text("");
        self.browsing = None;
        self.draft.clear();
    }

    /// Opens the line holding `text`, the cursor at its end (`find `).
    pub fn open_with(&mut self, text: &str) {
        self.open();
        self.set_text(text);
    }

    pub fn close(&mut self) {
        self.open = false;
        self.cycle = None;
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// What is typed.
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// Past commands, oldest first.
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// Puts pasted `text` at the cursor, on the one line (line breaks as spaces), at most
    /// [`PASTE_MAX_CHARS`] of it.
    pub fn paste(&mut self, text: &str) {
        if !self.open {
            return;
        }
        let taken: String = line_edit::pasted_chars(text, false)
            .take(PASTE_MAX_CHARS)
            .collect();
        if self.input.insert_str(taken) {
            self.cycle = None;
            self.browsing = None;
        }
    }

    fn set_text(&mut self, text: &str) {
        self.input = TextArea::new(vec![text.to_owned()]);
        self.input.move_cursor(CursorMove::End);
        self.cycle = None;
    }

    /// Enter submits, Esc cancels, Up/Down walk the history, Tab and Shift-Tab complete; other
    /// keys edit the line. Keys are ignored while the line is closed.
    pub fn handle_key(&mut self, key: KeyEvent) -> CommandOutcome {
        if !self.open || !is_press(&key) {
            return CommandOutcome::None;
        }
        if is_back_tab(&key) {
            self.complete(false);
            return CommandOutcome::None;
        }
        match key.code {
            KeyCode::Esc => {
                self.close();
                return CommandOutcome::Cancelled;
            }
            KeyCode::Enter => return self.submit(),
            KeyCode::Tab => self.complete(true),
            KeyCode::Up => self.recall_older(),
            KeyCode::Down => self.recall_newer(),
            _ => {
                if line_edit::edit(&mut self.input, &key).changed() {
                    self.cycle = None;
                    self.browsing = None;
                }
            }
        }
        CommandOutcome::None
    }

    fn submit(&mut self) -> CommandOutcome {
        let command = self.text().trim().to_owned();
        self.close();
        if command.is_empty() {
            return CommandOutcome::Cancelled;
        }
        if self.history.last() != Some(&command) {
            self.history.push(command.clone());
            if self.history.len() > HISTORY_LIMIT {
                self.history.remove(0);
            }
        }
        CommandOutcome::Submitted(command)
    }

    fn recall_older(&mut self) {
        let Some(newest) = self.history.len().checked_sub(1) else {
            return;
        };
        let at = match self.browsing {
            None => {
                self.draft = self.text();
                newest
            }
            Some(at) => at.saturating_sub(1),
        };
        self.browsing = Some(at);
        let entry = self.history[at].clone();
        self.set_text(&entry);
    }

    fn recall_newer(&mut self) {
        let Some(at) = self.browsing else {
            return;
        };
        if at + 1 < self.history.len() {
            self.browsing = Some(at + 1);
            let entry = self.history[at + 1].clone();
            self.set_text(&entry);
        } else {
            self.browsing = None;
            let draft = std::mem::take(&mut self.draft);
            self.set_text(&draft);
        }
    }

    /// The word being completed (from its start, a char index) and its candidates, matched
    /// case-insensitively: command names for the first word, the command's arguments after it.
    fn candidates(&self) -> (usize, Vec<String>) {
        let text = self.text();
        let start = text.rfind(' ').map_or(0, |i| i + 1);
        let prefix = text[start..].to_lowercase();
        let pool = if start == 0 {
            self.commands.clone()
        } else {
            let command = text.split_whitespace().next().unwrap_or_default();
            (self.arguments)(command)
        };
        let matches = pool
            .into_iter()
            .filter(|c| c.to_lowercase().starts_with(&prefix))
            .collect();
        (text[..start].chars().count(), matches)
    }

    /// Tab: a single match replaces the word (a command name gains a space, ready for its
    /// argument); several matches first extend the word to what they share, then each further
    /// Tab (`forward`) or Shift-Tab steps through them.
    fn complete(&mut self, forward: bool) {
        if let Some(cycle) = &mut self.cycle {
            let n = cycle.matches.len();
            cycle.index = if forward {
                (cycle.index + 1) % n
            } else {
                (cycle.index + n - 1) % n
            };
            let (start, word) = (cycle.start, cycle.matches[cycle.index].clone());
            self.replace_word(start, &word);
            return;
        }
        let (start, matches) = self.candidates();
        let typed = self.text().chars().count() - start;
        match matches.as_slice() {
            [] => {}
            [only] => {
                let mut word = only.clone();
                if start == 0 {
                    word.push(' ');
                }
                self.set_text(&(self.head(start) + &word));
            }
            [first, rest @ ..] => {
                let shared = rest.iter().fold(first.chars().count(), |n, m| {
                    first
                        .chars()
                        .zip(m.chars())
                        .take(n)
                        .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                        .count()
                });
                if shared > typed {
                    let word: String = first.chars().take(shared).collect();
                    self.set_text(&(self.head(start) + &word));
                } else {
                    let index = if forward { 0 } else { matches.len() - 1 };
                    let word = matches[index].clone();
                    self.replace_word(start, &word);
                    self.cycle = Some(Cycle {
                        start,
                        matches,
                        index,
                    });
                }
            }
        }
    }

    /// The first `chars` characters of the text.
    fn head(&self, chars: usize) -> String {
        self.text().chars().take(chars).collect()
    }

    /// Puts `word` in place of everything from char `start`, keeping a cycle in progress.
    fn replace_word(&mut self, start: usize, word: &str) {
        let cycle = self.cycle.take();
        self.set_text(&(self.head(start) + word));
        self.cycle = cycle;
    }

    /// The completion hint: the candidates for the word being typed, the one a Tab cycle shows
    /// marked, or a reminder of the keys on an empty line with no commands.
    fn hint(&self, theme: &Theme) -> Line<'static> {
        let (matches, current) = match &self.cycle {
            Some(cycle) => (cycle.matches.clone(), Some(cycle.index)),
            None => (self.candidates().1, None),
        };
        if matches.is_empty() {
            return Line::styled("Tab completes  ↑↓ history  Esc cancels", theme.muted);
        }
        let mut spans = Vec::new();
        for (i, m) in matches.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" ", theme.muted));
            }
            let style = if current == Some(i) {
                theme.key
            } else {
                theme.muted
            };
            spans.push(Span::styled(m, style));
        }
        Line::from(spans)
    }

    /// Draws `:`, the text with its cursor, and the completion hint after it, on the first row
    /// of `area`.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        if area.is_empty() {
            return;
        }
        let row = Rect { height: 1, ..area };
        Span::styled(":", theme.key).render(row, buf);
        let rest = Rect {
            x: row.x + 1,
            width: row.width - 1,
            ..row
        };
        let wanted = self.text().width() as u16 + 1;
        let input_area = Rect {
            width: wanted.min(rest.width),
            ..rest
        };
        self.input.set_style(theme.input_focus);
        self.input.set_cursor_line_style(Style::default());
        self.input
            .set_cursor_style(theme.input_focus.patch(theme.selection));
        (&self.input).render(input_area, buf);

        let gap = 2;
        if rest.width > input_area.width + gap {
            let hint_area = Rect {
                x: input_area.right() + gap,
                width: rest.width - input_area.width - gap,
                ..row
            };
            self.hint(theme).render(hint_area, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::testing::{
        assert_styled, back_tab, blank, ctrl, find, key, row_text, typing,
    };
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    const COMMANDS: [&str; 6] = ["export", "filter", "nexus", "quit", "theme", "transactions"];

    fn line() -> CommandLine {
        let mut line = CommandLine::new(COMMANDS).with_arguments(|cmd| {
            let args: &[&str] = match cmd {
                "theme" => &["dark", "light", "high-contrast", "mono"],
                "nexus" => &["CA", "CO", "NY", "TX"],
                _ => &[],
            };
            args.iter().map(std::string::ToString::to_string).collect()
        });
        line.open();
        line
    }

    fn type_in(line: &mut CommandLine, text: &str) {
        for k in typing(text) {
            assert_eq!(line.handle_key(k), CommandOutcome::None);
        }
    }

    #[test]
    fn a_paste_lands_on_the_line_with_breaks_as_spaces_and_submits_nothing() {
        let mut line = line();
        type_in(&mut line, "import ");
        line.paste("/tmp/a\nb.csv\r\n");
        assert!(line.is_open());
        assert_eq!(line.text(), "import /tmp/a b.csv ");
        line.paste(&"x".repeat(PASTE_MAX_CHARS * 2));
        assert_eq!(line.text().chars().count(), 20 + PASTE_MAX_CHARS);
    }

    #[test]
    fn enter_submits_and_esc_cancels() {
        let mut line = line();
        type_in(&mut line, "nexus CA ");
        assert_eq!(
            line.handle_key(key(KeyCode::Enter)),
            CommandOutcome::Submitted("nexus CA".into())
        );
        assert!(!line.is_open());
        line.open();
        type_in(&mut line, "qu");
        assert_eq!(
            line.handle_key(key(KeyCode::Esc)),
            CommandOutcome::Cancelled
        );
        line.open();
        assert_eq!(
            line.handle_key(key(KeyCode::Enter)),
            CommandOutcome::Cancelled
        );
        assert_eq!(line.history(), ["nexus CA"]);
    }

    #[test]
    fn the_shell_editing_keys_edit_the_line() {
        let mut line = line();
        type_in(&mut line, "theme dark");
        line.handle_key(ctrl('w'));
        assert_eq!(line.text(), "theme ");
        type_in(&mut line, "light");
        line.handle_key(ctrl('a'));
        line.handle_key(ctrl('k'));
        assert_eq!(line.text(), "", "Ctrl-K from the start deletes the line");
        type_in(&mut line, "nexus TX");
        line.handle_key(ctrl('u'));
        assert_eq!(line.text(), "", "Ctrl-U deletes back to the start");
        assert!(line.is_open());
    }

    #[test]
    fn history_survives_reopening_and_restores_the_draft() {
        let mut line = line();
        for cmd in ["theme light", "nexus CA", "nexus CA", "export csv"] {
            line.open();
            type_in(&mut line, cmd);
            line.handle_key(key(KeyCode::Enter));
        }
        assert_eq!(line.history(), ["theme light", "nexus CA", "export csv"]);
        line.open();
        type_in(&mut line, "fil");
        line.handle_key(key(KeyCode::Up));
        assert_eq!(line.text(), "export csv");
        line.handle_key(key(KeyCode::Up));
        line.handle_key(key(KeyCode::Up));
        line.handle_key(key(KeyCode::Up));
        assert_eq!(line.text(), "theme light", "the oldest entry stays put");
        line.handle_key(key(KeyCode::Down));
        assert_eq!(line.text(), "nexus CA");
        line.handle_key(key(KeyCode::Down));
        line.handle_key(key(KeyCode::Down));
        assert_eq!(
            line.text(),
            "fil",
            "past the newest entry, the draft comes back"
        );
        line.handle_key(key(KeyCode::Up));
        assert_eq!(
            line.handle_key(key(KeyCode::Enter)),
            CommandOutcome::Submitted("export csv".into())
        );
    }

    #[test]
    fn tab_completes_a_unique_command_then_its_argument() {
        let mut line = line();
        type_in(&mut line, "th");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "theme ");
        type_in(&mut line, "l");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "theme light");
        let mut line = self::line();
        type_in(&mut line, "nexus ny");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "nexus NY", "arguments match whatever the case");
    }

    #[test]
    fn tab_extends_a_shared_prefix_then_cycles() {
        let mut line = line();
        type_in(&mut line, "nexus ");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "nexus CA");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "nexus CO");
        line.handle_key(back_tab());
        line.handle_key(back_tab());
        assert_eq!(line.text(), "nexus TX", "Shift-Tab steps back and wraps");

        let mut line = self::line();
        type_in(&mut line, "fi");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "filter ");

        let mut line = self::line();
        type_in(&mut line, "t");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(
            line.text(),
            "theme",
            "theme and transactions share only the t"
        );
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "transactions");
        type_in(&mut line, "x");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "transactionsx", "typing ends the cycle");

        let mut line = self::line();
        type_in(&mut line, "e");
        line.handle_key(key(KeyCode::Tab));
        assert_eq!(line.text(), "export ");
    }

    #[test]
    fn draws_the_prompt_text_and_hint() {
        let theme = Theme::default();
        let mut line = line();
        type_in(&mut line, "theme ");
        let mut terminal = Terminal::new(TestBackend::new(60, 1)).unwrap();
        terminal
            .draw(|f| line.render(f.area(), f.buffer_mut(), &theme))
            .unwrap();
        insta::assert_snapshot!(terminal.backend());
        let buf = terminal.backend().buffer();
        assert_styled(buf, ":", theme.key);
        assert_styled(buf, "theme", theme.input_focus);
        assert_styled(buf, "high-contrast", theme.muted);

        line.handle_key(key(KeyCode::Tab));
        line.handle_key(key(KeyCode::Tab));
        let mut buf = blank(60, 1);
        line.render(buf.area, &mut buf, &theme);
        let row = row_text(&buf, 0);
        assert!(row.starts_with(":theme light "), "{row}");
        assert!(row.ends_with("  dark light high-contrast mono"), "{row}");
        assert_styled(&buf, "dark", theme.muted);
        let (x, y) = find(&buf, "light high");
        assert_eq!(
            buf[(x, y)].style().fg,
            theme.key.fg,
            "the cycle marks its current word"
        );
    }
}
