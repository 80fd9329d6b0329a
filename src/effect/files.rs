//! Local files: completing a path typed in a form, and keeping a saved view or a list's columns
//! in the config file (no call to the service).

use std::path::PathBuf;

use crate::config::SavedView;

#[derive(Debug, Clone, PartialEq)]
pub enum FileCall {
    /// The paths completing what was typed.
    CompletePath { partial: String },
    /// Keeps `view` as view `name` of `pane` (`[views.<pane>.<name>]`) in the config file at
    /// `file`, the rest of the file as it was.
    SaveView {
        file: PathBuf,
        pane: String,
        name: String,
        view: SavedView,
    },
    /// Keeps `columns` as the columns of `pane` (`[columns]`, `<pane> = [...]`) in the config
    /// file at `file`, the rest of the file as it was.
    SaveColumns {
        file: PathBuf,
        pane: String,
        columns: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum FileReply {
    PathCompletions(Vec<String>),
    /// The view, or the columns, are in the config file.
    Saved,
}

impl FileCall {
    pub fn describe(&self) -> String {
        match self {
            FileCall::CompletePath { .. } => "completing the path".to_owned(),
            FileCall::SaveView { .. } => "saving the view".to_owned(),
            FileCall::SaveColumns { .. } => "saving the columns".to_owned(),
        }
    }
}
