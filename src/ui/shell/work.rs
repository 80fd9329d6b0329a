//! Work the runtime does in the background while the dashboard goes on, as the shell tells it:
//! the export under way and the import (checked, asked about, sent), each on the status line
//! with its progress, and how it ended in the flash line.

use ratatui::text::{Line, Span};

use super::Shell;
use super::chrome::SPINNER;
use super::overlays::Question;
use crate::effect::{Effect, ViewImport};
use crate::ui::pane::Level;
use crate::ui::widgets::flash::FlashLevel;

/// How far the import under way has come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportStatus {
    /// What is imported: `transactions`.
    pub what: String,
    /// Rows answered so far, of the rows to send.
    pub done: u64,
    pub total: u64,
}

/// A file checked for `:import`, as the shell shows it before asking to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCheck {
    pub resource: crate::effect::ImportResource,
    /// The file, as shown.
    pub path: String,
    /// `3 rows of customers: 2 ready, 1 with problems (…)`.
    pub summary: String,
    /// Rows ready to send.
    pub ready: usize,
    /// Rows with problems (recorded as invalid when the others are sent).
    pub failing: usize,
    /// The file's own shape fails (a missing or unknown column): nothing can be sent.
    pub blocked: bool,
    /// The problems by column, most frequent first.
    pub by_column: Vec<(String, usize)>,
    /// Every problem, one line each (`row 3, column email, value "x": ...`).
    pub problems: Vec<String>,
}

/// How far the export under way has come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportStatus {
    /// What is exported: `transactions`.
    pub what: String,
    /// Where to.
    pub path: String,
    /// Rows read so far, and the total once the first page told it.
    pub done: u64,
    pub total: Option<u64>,
}

/// The export, the import and the snapshot under way.
#[derive(Debug, Default)]
pub(super) struct Work {
    export: Option<ExportStatus>,
    import: Option<ImportStatus>,
    /// The snapshot being taken (`:snapshot`).
    pub(super) snapshot: Option<super::snapshot::Running>,
    /// The pane whose `:import` was checked or is being sent: its list reloads when it ends.
    pub(super) import_pane: Option<usize>,
}

impl Work {
    pub(super) fn exporting(&self) -> bool {
        self.export.is_some()
    }

    pub(super) fn importing(&self) -> bool {
        self.import.is_some()
    }
}

impl Shell {
    /// An export started, or moved on: the status line says how far it has come.
    pub fn export_progress(&mut self, status: ExportStatus) {
        self.work.export = Some(status);
    }

    /// Whether an export is under way.
    pub fn exporting(&self) -> bool {
        self.work.exporting()
    }

    /// The export ended: `Ok` with what was written, `Err` with why not.
    pub fn export_ended(&mut self, result: Result<String, String>) {
        self.work.export = None;
        match result {
            Ok(done) => self.notify(Level::Success, done),
            Err(why) => self.notify(Level::Error, why),
        }
    }

    /// A pane asks for `:import`: refused in read-only mode and while another import is under
    /// way; else the file is checked, for pane `pane`.
    pub(super) fn file_import(
        &mut self,
        pane: usize,
        import: Box<ViewImport>,
    ) -> Option<Box<ViewImport>> {
        if self.session.header.read_only {
            self.notify(
                Level::Error,
                "Read-only mode: nothing is imported. Start taxdash without --read-only to \
                 change records."
                    .into(),
            );
            return None;
        }
        if self.work.importing() || self.work.import_pane.is_some() {
            self.notify(
                Level::Error,
                "An import is under way: wait for it to end.".into(),
            );
            return None;
        }
        self.work.import_pane = Some(pane);
        Some(import)
    }

    /// A file for `:import` was read and checked: the report, and the question whether to
    /// send the rows that pass; or, when none can be sent, why not (every problem goes to
    /// `:messages`).
    pub fn import_checked(&mut self, checked: Result<ImportCheck, String>) {
        let check = match checked {
            Ok(check) => check,
            Err(why) => {
                self.work.import_pane = None;
                self.notify(Level::Error, why);
                return;
            }
        };
        for problem in &check.problems {
            self.notices
                .messages
                .push_now(FlashLevel::Error, problem.clone());
        }
        if check.blocked || check.ready == 0 {
            self.work.import_pane = None;
            self.notify(
                Level::Error,
                format!(
                    "Nothing to send from {}: {}. :messages lists the problems.",
                    check.path, check.summary
                ),
            );
            return;
        }
        let title = format!("Import {}", check.resource);
        self.layers
            .push(Box::new(Question::import(title, import_report(&check))));
    }

    /// An import started sending, or moved on: the status line says how far it has come.
    pub fn import_progress(&mut self, status: ImportStatus) {
        self.work.import = Some(status);
    }

    /// The import ended: `Ok` with what was done, `Err` with why it stopped. The list it was
    /// imported into reloads.
    pub fn import_ended(&mut self, result: Result<String, String>) -> Vec<Effect> {
        self.work.import = None;
        match result {
            Ok(done) => self.notify(Level::Success, done),
            Err(why) => self.notify(Level::Error, why),
        }
        match self.work.import_pane.take() {
            Some(pane) if pane < self.tabs.panes.len() => self.with_pane(pane, |p, ctx| {
                p.command("refresh", &[], ctx);
            }),
            _ => Vec::new(),
        }
    }

    /// The status line while an import, an export or a snapshot is under way: how far it has
    /// come.
    pub(super) fn work_line(&self, width: u16) -> Option<Line<'static>> {
        let spinner = SPINNER[self.notices.spinner];
        let text = if let Some(import) = &self.work.import {
            format!(
                " {spinner} importing {}: {} of {} rows sent  Esc stops",
                import.what,
                crate::ui::text::thousands(import.done),
                crate::ui::text::thousands(import.total)
            )
        } else if let Some(export) = &self.work.export {
            let counted = match export.total {
                Some(total) => format!(
                    "{} of {} rows",
                    crate::ui::text::thousands(export.done),
                    crate::ui::text::thousands(total)
                ),
                None => "waiting for the first page".to_owned(),
            };
            format!(
                " {spinner} exporting {}: {counted} → {}  Esc cancels",
                export.what, export.path
            )
        } else {
            return self.snapshot_line(width);
        };
        Some(Line::from(Span::styled(
            crate::ui::text::truncate(&text, usize::from(width)).into_owned(),
            self.theme.muted,
        )))
    }
}

/// The `:import` question: the file, what its rows came to, the problems by column and the
/// first few, and what sending does.
fn import_report(check: &ImportCheck) -> String {
    use std::fmt::Write as _;
    const SHOWN: usize = 3;
    let mut text = format!("{}\n{}", check.path, check.summary);
    if !check.by_column.is_empty() {
        text.push_str("\n\nProblems by column:");
        for (column, n) in check.by_column.iter().take(SHOWN) {
            let _ = write!(text, "\n  {column}: {n}");
        }
        if check.by_column.len() > SHOWN {
            let _ = write!(
                text,
                "\n  and {} columns more",
                check.by_column.len() - SHOWN
            );
        }
        text.push('\n');
        for problem in check.problems.iter().take(SHOWN) {
            let _ = write!(text, "\n{problem}");
        }
        if check.problems.len() > SHOWN {
            let _ = write!(text, "\n(all {} in :messages)", check.problems.len());
        }
    }
    let rows = if check.ready == 1 { "row" } else { "rows" };
    if check.failing > 0 {
        let _ = write!(
            text,
            "\n\nSend the {} {rows} that pass? The others are recorded as invalid in the \
             results file.",
            check.ready
        );
    } else {
        let _ = write!(text, "\n\nSend the {} {rows}?", check.ready);
    }
    text
}
