//! Local files: completing a path typed in a form (no call to the service).

#[derive(Debug, Clone, PartialEq)]
pub enum FileCall {
    /// The paths completing what was typed.
    CompletePath { partial: String },
}

#[derive(Debug, Clone, PartialEq)]
pub enum FileReply {
    PathCompletions(Vec<String>),
}

impl FileCall {
    pub fn describe(&self) -> String {
        match self {
            FileCall::CompletePath { .. } => "completing the path".to_owned(),
        }
    }
}
