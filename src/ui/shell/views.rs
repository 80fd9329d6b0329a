//! Saved views: `:view save NAME` keeps the focused list's filter and sort in the config file
//! (`[views.<pane>.<name>]`, written by the runtime: the shell asks with a [`FileCall`]),
//! `:view NAME` shows the list so again, `:view` lists them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use super::Shell;
use super::calls::ShellCall;
use crate::config::SavedView;
use crate::effect::{Effect, Failure, FileCall, Reply};

/// Every saved view, by pane (its title in lower case) and name, and the columns the config
/// file chose.
#[derive(Debug, Default)]
pub(super) struct Views {
    by_pane: BTreeMap<String, BTreeMap<String, SavedView>>,
    /// The config file they are written to; `None`: kept until the dashboard closes.
    file: Option<PathBuf>,
    /// The columns the config file chose, by pane.
    columns: BTreeMap<String, Vec<String>>,
}

/// A view on its way to the config file: what to keep, and say, when the runtime answers.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ViewSaving {
    file: PathBuf,
    pane: String,
    name: String,
    view: SavedView,
}

/// The focused pane's view names and column names, shared with the command line's completion.
#[derive(Debug, Clone, Default)]
pub(super) struct ViewNames(Arc<Mutex<Vec<String>>>, Arc<Mutex<Vec<String>>>);

impl ViewNames {
    pub(super) fn set(&self, names: Vec<String>, columns: Vec<String>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = names;
        *self.1.lock().unwrap_or_else(PoisonError::into_inner) = columns;
    }

    /// What `:columns ` completes to: the focused list's column names.
    pub(super) fn columns(&self) -> Vec<String> {
        self.1
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What `:view ` completes to: `save`, then the names.
    pub(super) fn candidates(&self) -> Vec<String> {
        let mut candidates = vec!["save".to_owned()];
        candidates.extend(
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .iter()
                .cloned(),
        );
        candidates
    }
}

impl Shell {
    /// The saved views read from the config file at `file` (`None`: no file; views saved are
    /// kept until the dashboard closes).
    #[must_use]
    pub fn with_views(
        mut self,
        file: Option<PathBuf>,
        views: BTreeMap<String, BTreeMap<String, SavedView>>,
    ) -> Self {
        self.views.by_pane = views;
        self.views.file = file;
        self
    }

    /// Shows only the columns `[columns]` in the config file names for each pane (by its title in
    /// lower case); names a pane does not know are said in the footer.
    #[must_use]
    pub fn with_columns(mut self, columns: BTreeMap<String, Vec<String>>) -> Self {
        self.views.columns = columns;
        self.apply_columns();
        self
    }

    /// Gives each pane the columns the config file chose for it.
    pub(super) fn apply_columns(&mut self) {
        let mut troubles = Vec::new();
        for pane in &mut self.tabs.panes {
            let key = pane.title().to_lowercase();
            if let Some(names) = self.views.columns.get(&key)
                && let Err(why) = pane.choose_columns(names)
            {
                troubles.push(format!("[columns] {key}: {why}"));
            }
        }
        for trouble in troubles {
            self.notify_error(trouble);
        }
    }

    /// The focused pane's key in `[views.<pane>]`.
    fn view_pane(&self) -> String {
        self.focused().title().to_lowercase()
    }

    /// The names of the focused pane's saved views, sorted.
    pub(super) fn focused_view_names(&self) -> Vec<String> {
        self.views
            .by_pane
            .get(&self.view_pane())
            .map(|views| views.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The focused pane's views in words, for `:view` and the help.
    pub(super) fn views_said(&self) -> String {
        let title = self.focused().title().to_owned();
        let names = self.focused_view_names();
        if names.is_empty() {
            format!("No saved views of {title}: :view save NAME keeps its filter and sort.")
        } else {
            format!(
                "Saved views of {title}: {} (:view NAME shows one).",
                names.join(", ")
            )
        }
    }

    /// `:view`, `:view save NAME`, `:view NAME`.
    pub(super) fn view_command(&mut self, args: &[&str]) -> Vec<Effect> {
        match args {
            [] => {
                let said = self.views_said();
                self.notify_info(said);
                Vec::new()
            }
            ["save", name] => self.save_view(name),
            [name] if *name != "save" => self.show_view(name),
            _ => {
                self.notify_error("Usage: :view NAME, or :view save NAME");
                Vec::new()
            }
        }
    }

    /// `:view save NAME`: the runtime writes the view in the config file, and the answer
    /// ([`Shell::view_saved`]) keeps it; without a config file it is kept at once.
    fn save_view(&mut self, name: &str) -> Vec<Effect> {
        let Some(view) = self.focused().saved_view() else {
            self.notify_error("This tab has no list to keep a view of.");
            return Vec::new();
        };
        let pane = self.view_pane();
        let Some(file) = self.views.file.clone() else {
            self.keep_view(pane, name.to_owned(), view);
            self.notify_info(format!(
                "View {name} kept until taxdash closes (no config file here)"
            ));
            return Vec::new();
        };
        let call = FileCall::SaveView {
            file: file.clone(),
            pane: pane.clone(),
            name: name.to_owned(),
            view: view.clone(),
        };
        let saving = ViewSaving {
            file,
            pane,
            name: name.to_owned(),
            view,
        };
        vec![self.own_call(ShellCall::SaveView(Box::new(saving)), call.into())]
    }

    /// `:columns save`: the runtime writes the focused list's columns, as shown, in the config
    /// file's `[columns]`, so that they come back at the next start.
    pub(super) fn save_columns(&mut self) -> Vec<Effect> {
        let columns = self.focused().shown_columns();
        if columns.is_empty() {
            self.notify_error("This tab has no columns to keep.");
            return Vec::new();
        }
        let pane = self.view_pane();
        let Some(file) = self.views.file.clone() else {
            self.views.columns.insert(pane, columns);
            self.notify_info("Columns kept until taxdash closes (no config file here)");
            return Vec::new();
        };
        let call = FileCall::SaveColumns {
            file,
            pane: pane.clone(),
            columns: columns.clone(),
        };
        vec![self.own_call(ShellCall::SaveColumns(pane, columns), call.into())]
    }

    /// The runtime's answer to columns written in the config file.
    pub(super) fn columns_saved(
        &mut self,
        pane: String,
        columns: Vec<String>,
        result: Result<Reply, Failure>,
    ) {
        match result {
            Ok(_) => {
                let file = self
                    .views
                    .file
                    .as_ref()
                    .map(|f| f.display().to_string())
                    .unwrap_or_default();
                self.notify_info(format!(
                    "Columns of {pane} saved in {file}: {}",
                    columns.join(", ")
                ));
                self.views.columns.insert(pane, columns);
            }
            Err(failure) => {
                self.notify_error(format!("The columns were not saved: {}", failure.message));
            }
        }
    }

    /// The runtime's answer to a view written in the config file: kept and said, or the error
    /// said.
    pub(super) fn view_saved(&mut self, saving: ViewSaving, result: Result<Reply, Failure>) {
        let ViewSaving {
            file,
            pane,
            name,
            view,
        } = saving;
        match result {
            Ok(_) => {
                self.keep_view(pane, name.clone(), view);
                self.notify_info(format!("View {name} saved in {}", file.display()));
            }
            Err(failure) => {
                self.notify_error(format!("View {name} was not saved: {}", failure.message));
            }
        }
    }

    fn keep_view(&mut self, pane: String, name: String, view: SavedView) {
        self.views
            .by_pane
            .entry(pane)
            .or_default()
            .insert(name, view);
    }

    fn show_view(&mut self, name: &str) -> Vec<Effect> {
        let Some(view) = self
            .views
            .by_pane
            .get(&self.view_pane())
            .and_then(|views| views.get(name))
            .cloned()
        else {
            let said = self.views_said();
            self.notify_error(format!("No view {name}. {said}"));
            return Vec::new();
        };
        if self.focused().has_unsaved_input() {
            self.notify_error("This tab holds unsaved input: finish or cancel it first.");
            return Vec::new();
        }
        let mut taken = false;
        let effects = self.with_pane(self.tabs.focus, |p, ctx| taken = p.apply_view(&view, ctx));
        if taken {
            self.notify_info(format!("View {name}"));
        }
        effects
    }
}
