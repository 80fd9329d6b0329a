//! What the keys do, in words: the footer's hints (the focused pane's, then the shell's) and the
//! `?` overlay (every live binding of the focused pane and the shell, grouped), both from the
//! live keymap.

use super::Shell;
use crate::ui::keymap::Action;
use crate::ui::pane::HintKey;
use crate::ui::widgets::help::{Help, Hint};

impl Shell {
    /// The `?` overlay: every live binding of the focused pane and the shell, and the log file.
    pub(super) fn help(&self) -> Help {
        let pane = self.focused().title().to_owned();
        let shown = self.pane_hints();
        let verbs = crate::ui::skeleton::verbs::help_lines(
            &self.focused().verbs(),
            &shown,
            &self.keymap,
            self.session.header.read_only,
        );
        let mut hints: Vec<Hint> = shown
            .into_iter()
            .map(|(keys, label)| (keys, label.to_owned()))
            .chain(verbs)
            .map(|(keys, label)| Hint::new(keys, label, pane.clone()))
            .collect();
        let global = [
            (Action::Up, "up"),
            (Action::Down, "down"),
            (Action::Top, "first row"),
            (
                Action::Jump,
                "jump: a letter below, or again for the first row",
            ),
            (
                Action::Find,
                "find an id, an external id or text (:find TEXT)",
            ),
            (
                Action::RecordHistory,
                "the record's history across the stored snapshots",
            ),
            (Action::JumpBack, "back where the last jump left"),
            (Action::JumpForward, "forward again (ctrl-i: where not tab)"),
            (Action::Bottom, "last row"),
            (Action::PageUp, "page up"),
            (Action::PageDown, "page down"),
            (Action::NextPane, "next tab"),
            (Action::PrevPane, "previous tab"),
            (
                Action::CommandLine,
                "command line (:help, :theme, :quit, pane names)",
            ),
            (Action::Help, "this help"),
            (Action::Quit, "quit"),
        ];
        for (action, label) in global {
            hints.push(Hint::new(self.keymap.keys_for(action), label, "Everywhere"));
        }
        hints.push(Hint::new(
            ":messages",
            "the last messages, whole, with their times",
            "Everywhere",
        ));
        hints.push(Hint::new(
            ":audit",
            "every change sent: r resource, o outcome, Enter one",
            "Everywhere",
        ));
        hints.push(Hint::new(
            ":snapshot",
            "take a snapshot of this service; Δ and H follow it",
            "Everywhere",
        ));
        for (keys, label) in [
            (":export", "csv, json or jsonl [FILE]: the list as shown"),
            (":view", "save NAME keeps filter and sort; NAME shows it"),
            (":columns", "the list's columns; NAME shows or hides one"),
            ("mouse", "click a tab, a row, a header; the wheel scrolls"),
        ] {
            hints.push(Hint::new(keys, label, "Lists"));
        }
        if !self.session.header.read_only && self.focused().commands().contains(&"import") {
            hints.push(Hint::new(
                ":import",
                "FILE: check a CSV, JSON or JSONL file, then send its rows",
                "Lists",
            ));
        }
        let jump = self.keymap.keys_for(Action::Jump);
        for relation in self.focused().relations() {
            hints.push(Hint::new(
                format!("{jump} {}", relation.key),
                relation.label,
                "Jumps from this record",
            ));
        }
        for (i, p) in self.tabs.panes.iter().enumerate() {
            hints.push(Hint::new((i + 1).to_string(), p.title().to_owned(), "Tabs"));
        }
        hints.extend(
            crate::ui::widgets::line_edit::KEYS
                .iter()
                .map(|(keys, label)| Hint::new(*keys, *label, "Text fields")),
        );
        let mut extra = Vec::new();
        if let Some(path) = &self.session.log_path {
            extra.push(format!("Log file: {path}"));
        }
        if self.session.header.read_only {
            extra.push(self.session.header.refusal().into());
        }
        if !self.focused_view_names().is_empty() {
            extra.push(self.views_said());
        }
        if self.session.organizations.len() > 1 {
            extra.push(format!(
                "Acting on {}; :org ID switches to another organization the key reaches.",
                self.organization_label()
            ));
        }
        Help::new(hints, extra)
    }

    /// The footer's hints: the focused pane's, then the shell's, with their live keys.
    pub fn hints(&self) -> Vec<(String, &'static str)> {
        let mut hints = if self.jumps.pending() {
            self.jump_hints()
        } else {
            self.pane_hints()
        };
        hints.extend(self.shell_hints());
        hints
    }

    /// The shell's own footer hints (command line, help, quit), which the footer always keeps;
    /// none while the focused pane takes typed text.
    pub(super) fn shell_hints(&self) -> Vec<(String, &'static str)> {
        if self.focused().captures_text() {
            return Vec::new();
        }
        [
            (Action::CommandLine, "command"),
            (Action::Help, "help"),
            (Action::Quit, "quit"),
        ]
        .into_iter()
        .map(|(action, label)| (self.keymap.keys_for(action), label))
        .filter(|(keys, _)| !keys.is_empty())
        .collect()
    }

    /// The focused pane's hints with their live keys, writes left out in read-only mode.
    fn pane_hints(&self) -> Vec<(String, &'static str)> {
        let mut hints: Vec<(String, &'static str)> = self
            .focused()
            .hints()
            .into_iter()
            .filter(|h| !(self.session.header.read_only && h.is_write()))
            .map(|h| {
                let keys = match h.key {
                    HintKey::Action(a) => self.keymap.keys_for(a),
                    HintKey::Keys(k) => k.to_owned(),
                };
                (keys, h.label)
            })
            .filter(|(keys, _)| !keys.is_empty())
            .collect();
        // A record's history, once there are snapshots to show it from.
        if self.session.snapshots > 0 && self.focused().current_record().is_some() {
            let keys = self.keymap.keys_for(Action::RecordHistory);
            if !keys.is_empty() {
                hints.push((keys, "history"));
            }
        }
        hints
    }
}
