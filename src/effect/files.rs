//! Local files: completing a path typed in a form, and keeping a saved view in the config file
//! (no call to the service).

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
}

#[derive(Debug, Clone, PartialEq)]
pub enum FileReply {
    PathCompletions(Vec<String>),
    /// The view is in the config file.
    ViewSaved,
}

impl FileCall {
    pub fn describe(&self) -> String {
        match self {
            FileCall::CompletePath { .. } => "completing the path".to_owned(),
            FileCall::SaveView { .. } => "saving the view".to_owned(),
        }
    }
}
