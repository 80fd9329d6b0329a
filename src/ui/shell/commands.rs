//! The `:` command line: what it completes (the commands, `:theme`'s themes, `:org`'s
//! organizations, `:view`'s views, `:columns`' columns), the history it keeps between
//! openings, and running what is entered: the shell's own commands, a tab's name, else the
//! focused pane's.

use super::Shell;
use super::overlays::CommandLayer;
use super::views::ViewNames;
use crate::effect::Effect;
use crate::ui::pane::Pane;
use crate::ui::theme::Theme;
use crate::ui::widgets::command_line::CommandLine;
use crate::ui::widgets::messages::MessagesView;

/// The shell's own commands (besides the tabs' names and the panes' commands).
pub(super) const SHELL_COMMANDS: [&str; 8] = [
    "quit", "help", "messages", "theme", "view", "find", "audit", "snapshot",
];

/// What the command line completes and remembers between openings.
pub(super) struct Commands {
    /// The commands of the shell and the panes, before any that depend on the session.
    base: Vec<String>,
    /// The organizations the key reaches, for `:org` (offered when there are several).
    organizations: Vec<String>,
    /// The focused pane's saved views and columns, set as the line opens.
    pub(super) names: ViewNames,
    /// The commands entered, oldest first.
    history: Vec<String>,
}

impl Commands {
    pub(super) fn new(panes: &[Box<dyn Pane>]) -> Self {
        let mut base: Vec<String> = SHELL_COMMANDS.iter().map(|c| (*c).to_owned()).collect();
        for pane in panes {
            base.push(pane.title().to_lowercase());
            base.extend(pane.commands().into_iter().map(str::to_owned));
        }
        base.sort();
        base.dedup();
        Commands {
            base,
            organizations: Vec::new(),
            names: ViewNames::default(),
            history: Vec::new(),
        }
    }

    /// The organizations the key reaches were listed: `:org` completes them.
    pub(super) fn set_organizations(&mut self, ids: Vec<String>) {
        self.organizations = ids;
    }

    /// The history the line had when it closed.
    pub(super) fn keep_history(&mut self, history: Vec<String>) {
        self.history = history;
    }

    /// A closed command line completing what there is to complete, with the history.
    fn line(&self) -> CommandLine {
        let mut commands = self.base.clone();
        if self.organizations.len() > 1 {
            commands.push("org".to_owned());
            commands.sort();
        }
        let organizations = self.organizations.clone();
        let views = self.names.clone();
        CommandLine::new(commands)
            .with_arguments(move |command| match command {
                "theme" => Theme::available(None),
                "org" => organizations.clone(),
                "view" => views.candidates(),
                "columns" => views.columns(),
                "export" => ["csv", "json", "jsonl"].map(str::to_owned).to_vec(),
                _ => Vec::new(),
            })
            .with_history(self.history.clone())
    }
}

impl Shell {
    /// Opens the command line holding `text`, completing the focused pane's views and columns.
    pub(super) fn open_command_line(&mut self, text: &'static str) -> Vec<Effect> {
        self.commands
            .names
            .set(self.focused_view_names(), self.focused().column_names());
        let line = self.commands.line();
        self.open_layer(|_| Box::new(CommandLayer::open(line, text)))
    }

    /// Runs a `:` command: the shell's own (`quit`, `help`, `messages`, `audit`, `snapshot`,
    /// `org`, `view`, `find`, `theme NAME`), a tab's name, else the focused pane's.
    pub(super) fn run_command(&mut self, text: &str) -> Vec<Effect> {
        let mut words = text.split_whitespace();
        let Some(name) = words.next() else {
            return Vec::new();
        };
        let args: Vec<&str> = words.collect();
        let name = name.to_lowercase();
        match name.as_str() {
            "q" | "quit" => return self.request_quit(),
            "help" => {
                let help = self.help();
                return self.open_layer(|_| Box::new(help));
            }
            "messages" => {
                let view = MessagesView::new(&self.notices.messages);
                return self.open_layer(|_| Box::new(view));
            }
            "audit" => return self.open_audit(),
            "snapshot" => return self.take_snapshot(),
            "org" => return self.org_command(&args),
            "view" => return self.view_command(&args),
            "columns" if args == ["save"] => return self.save_columns(),
            "find" => return self.find(&args.join(" ")),
            "theme" => {
                return if let Some(theme) = args.first() {
                    vec![Effect::Theme((*theme).to_owned())]
                } else {
                    self.notify_error(format!(
                        "Usage: :theme NAME ({})",
                        Theme::available(None).join(", ")
                    ));
                    Vec::new()
                };
            }
            _ => {}
        }
        if let Some(index) = self
            .tabs
            .panes
            .iter()
            .position(|p| p.title().to_lowercase() == name)
        {
            return self.focus_pane(index);
        }
        let mut known = false;
        let focus = self.tabs.focus;
        let effects = self.with_pane(focus, |p, ctx| known = p.command(&name, &args, ctx));
        if !known {
            self.notify_error(format!(
                "Unknown command :{name}. Tab completes the commands there are."
            ));
        }
        effects
    }
}
