//! The certificate imports view of the Exemptions pane (Tenanted API): certificates customers
//! sent in for a missing exemption, by default those awaiting approval. Space marks rows; `A`
//! approves the marked ones (or the selected one) once the exemption type is chosen and the
//! approval confirmed: one import with the single approval, several with the bulk approval,
//! which takes all or none. Each approved row shows its new exemption; a refusal is said and
//! every mark is kept.

mod columns;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::effect::{Call, Failure, FailureKind, Reply, RequestId};
use crate::model::tenanted::{
    APPROVAL_EXEMPTION_TYPES, ApproveImport, BulkApproveImports, CertificateImport,
};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint};
use crate::ui::panes::marks::{Marked, Marks};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::paged_table::{Column, PagedTable};
use crate::ui::widgets::picker::{Picker, PickerOutcome};

/// The statuses the list can show, the first by default; `all` sends no status.
pub const STATUSES: [&str; 4] = ["UPLOADED", "REQUESTED", "APPROVED", "all"];

/// The question open over the list.
enum Dialog {
    /// Which status to list.
    Status(Picker),
    /// The exemption type the approval of `ids` creates.
    Type { picker: Picker, ids: Vec<String> },
    /// The last word before approving.
    Confirm {
        confirm: Confirm,
        ids: Vec<String>,
        exemption_type: String,
    },
}

/// What an answer was to the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    Handled,
    /// Imports were approved: the exemption list has new rows.
    Approved,
}

/// The approval on its way.
struct Approving {
    id: RequestId,
    ids: Vec<String>,
    exemption_type: String,
}

/// The certificate imports view.
pub struct Imports {
    table: PagedTable<Marked<CertificateImport>>,
    columns: Vec<Column<Marked<CertificateImport>>>,
    /// Index into [`STATUSES`].
    status: usize,
    pages: PageCalls,
    marks: Marks,
    dialog: Option<Dialog>,
    approving: Option<Approving>,
    /// Why the view cannot list anything (the profile is on v1), shown instead of the list.
    unavailable: Option<String>,
    loaded: bool,
}

impl Default for Imports {
    fn default() -> Self {
        Self::new()
    }
}

/// `1 certificate import`, `3 certificate imports`.
fn imports_noun(n: usize) -> String {
    if n == 1 {
        "1 certificate import".to_owned()
    } else {
        format!("{n} certificate imports")
    }
}

impl Imports {
    pub fn new() -> Self {
        Imports {
            table: PagedTable::new("certificate imports"),
            columns: columns::columns(),
            status: 0,
            pages: PageCalls::default(),
            marks: Marks::default(),
            dialog: None,
            approving: None,
            unavailable: None,
            loaded: false,
        }
    }

    /// The status filter sent (`None`: every status).
    fn status_filter(&self) -> Option<String> {
        let status = STATUSES[self.status];
        (status != "all").then(|| status.to_owned())
    }

    /// What the list shows, for the pane's title.
    pub fn subtitle(&self) -> String {
        let shown = match self.status_filter() {
            Some(s) if s == "UPLOADED" => "awaiting approval (UPLOADED)".to_owned(),
            Some(s) => s,
            None => "every status".to_owned(),
        };
        let marked = match self.marks.len() {
            0 => String::new(),
            n => format!(", {n} marked"),
        };
        format!("certificate imports {shown}{marked}")
    }

    /// Loads the first time the view is shown; on v1 it says what it needs instead.
    pub fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded {
            self.loaded = true;
            if ctx.tenanted().is_none() {
                let why = format!("Certificate imports {NEEDS_TENANTED}.");
                ctx.notify(Level::Error, why.clone());
                self.unavailable = Some(why);
            }
            self.fetch(ctx);
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx) {
        if self.unavailable.is_some() {
            return;
        }
        let status = self.status_filter();
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::CertificateImports {
                status: status.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the status in force.
    pub fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.loaded = true;
        self.fetch(ctx);
    }

    pub fn hints(&self) -> Vec<PaneHint> {
        match &self.dialog {
            Some(Dialog::Confirm { .. }) => return vec![PaneHint::keys("y/n", "answer")],
            Some(_) => {
                return vec![
                    PaneHint::keys("←/→", "choose"),
                    PaneHint::keys("enter", "continue"),
                    PaneHint::keys("esc", "cancel"),
                ];
            }
            None => {}
        }
        vec![
            PaneHint::action(Action::Mark, "mark"),
            PaneHint::action(Action::Approve, "approve"),
            PaneHint::action(Action::Filter, "status"),
            PaneHint::action(Action::Refresh, "refresh"),
            PaneHint::action(Action::CopyId, "copy id"),
            PaneHint::action(Action::Imports, "exemptions"),
        ]
    }

    /// Whether a dialog has the keys.
    pub fn captures_text(&self) -> bool {
        self.dialog.is_some()
    }

    /// A key while a dialog is open.
    pub fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        self.dialog = match dialog {
            Dialog::Status(mut picker) => match picker.handle_key(key) {
                PickerOutcome::None => Some(Dialog::Status(picker)),
                PickerOutcome::Cancelled => None,
                PickerOutcome::Picked(status) => {
                    self.status = STATUSES.iter().position(|s| *s == status).unwrap_or(0);
                    self.marks.clear(&mut self.table);
                    self.reload(ctx);
                    None
                }
            },
            Dialog::Type { mut picker, ids } => match picker.handle_key(key) {
                PickerOutcome::None => Some(Dialog::Type { picker, ids }),
                PickerOutcome::Cancelled => None,
                PickerOutcome::Picked(exemption_type) => {
                    let question = format!(
                        "Approve {} ({}) as {exemption_type} exemptions? Each approval creates \
                         an exemption for its customer.",
                        imports_noun(ids.len()),
                        ids.join(", ")
                    );
                    Some(Dialog::Confirm {
                        confirm: Confirm::new(question, false).with_title("Approve"),
                        ids,
                        exemption_type,
                    })
                }
            },
            Dialog::Confirm {
                mut confirm,
                ids,
                exemption_type,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::None => Some(Dialog::Confirm {
                    confirm,
                    ids,
                    exemption_type,
                }),
                ConfirmOutcome::No => None,
                ConfirmOutcome::Yes => {
                    self.approve(ids, exemption_type, ctx);
                    None
                }
            },
        };
    }

    /// Sends the approval: the single one for one import, the bulk one for several.
    fn approve(&mut self, ids: Vec<String>, exemption_type: String, ctx: &mut Ctx) {
        let call = match ids.as_slice() {
            [id] => Call::ApproveCertificateImport {
                id: id.clone(),
                body: ApproveImport {
                    exemption_type: Some(exemption_type.clone()),
                },
            },
            _ => Call::BulkApproveCertificateImports {
                body: BulkApproveImports {
                    ids: ids.clone(),
                    exemption_type: Some(exemption_type.clone()),
                },
            },
        };
        let id = ctx.call(call);
        self.approving = Some(Approving {
            id,
            ids,
            exemption_type,
        });
    }

    /// `A`: asks for the exemption type of the marked imports (or the selected one).
    fn open_approval(&mut self, ctx: &mut Ctx) {
        if let Some(why) = &self.unavailable {
            ctx.notify(Level::Error, why.clone());
            return;
        }
        if ctx.read_only() {
            ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
            return;
        }
        if self.approving.is_some() {
            ctx.notify(
                Level::Info,
                "An approval is on its way; wait for its answer.",
            );
            return;
        }
        let ids = self.marks.targets(&self.table);
        if ids.is_empty() {
            ctx.notify(Level::Info, "No certificate import to approve here.");
            return;
        }
        let choices = APPROVAL_EXEMPTION_TYPES.map(str::to_owned).to_vec();
        let default = APPROVAL_EXEMPTION_TYPES
            .iter()
            .position(|t| *t == "CUSTOMER")
            .unwrap_or(0);
        let message = format!("Approve {} as exemptions of type", imports_noun(ids.len()));
        self.dialog = Some(Dialog::Type {
            picker: Picker::new("Exemption type", message, choices, default),
            ids,
        });
    }

    pub fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            action if self.table.navigate(action) => {}
            Action::Mark => {
                if self.marks.toggle(&mut self.table).is_none() {
                    return false;
                }
                self.table.down(1);
            }
            Action::Approve => self.open_approval(ctx),
            Action::Filter => {
                let choices = STATUSES.map(str::to_owned).to_vec();
                self.dialog = Some(Dialog::Status(Picker::new(
                    "Status",
                    "Show the certificate imports of status",
                    choices,
                    self.status,
                )));
            }
            Action::Refresh => self.reload(ctx),
            Action::CopyId => match self.table.selected() {
                Some(m) => ctx.copy(m.row.id.clone()),
                None => return false,
            },
            _ => return false,
        }
        self.fetch(ctx);
        true
    }

    /// Whether `id` is a call of this view.
    pub fn owns(&self, id: RequestId) -> bool {
        self.pages.owns(id) || self.approving.as_ref().is_some_and(|a| a.id == id)
    }

    /// Takes the answer to a call of this view (see [`Imports::owns`]).
    pub fn receive(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> Received {
        if self.pages.owns(id) {
            if let Err(f) = &result
                && f.kind == FailureKind::Unsupported
            {
                self.unavailable = Some(f.message.clone());
            }
            let marks = &self.marks;
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::CertificateImportsPage(rows) => Some(marks.rows(rows)),
                    _ => None,
                });
            self.fetch(ctx);
            return Received::Handled;
        }
        let Some(approving) = self.approving.take_if(|a| a.id == id) else {
            return Received::Handled;
        };
        match result {
            Ok(Reply::CertificateImportsApproved(items)) => {
                let mut exemptions = Vec::new();
                for item in items {
                    self.marks.remove(&mut self.table, &item.id);
                    if let Some(e) = &item.exemption_id {
                        exemptions.push(e.clone());
                    }
                    self.marks.update(&mut self.table, item);
                }
                let created = if exemptions.is_empty() {
                    String::new()
                } else {
                    format!(": exemption {}", exemptions.join(", "))
                };
                ctx.notify(
                    Level::Success,
                    format!(
                        "Approved {} as {}{created}",
                        imports_noun(approving.ids.len()),
                        approving.exemption_type
                    ),
                );
                Received::Approved
            }
            Ok(_) => Received::Handled,
            Err(failure) => {
                let kept = if self.marks.is_empty() {
                    String::new()
                } else {
                    " The marks are kept.".to_owned()
                };
                ctx.notify(
                    Level::Error,
                    format!("Nothing was approved. {}{kept}", failure.message),
                );
                Received::Handled
            }
        }
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        if let Some(why) = &self.unavailable {
            let lines = vec![
                Line::from(Span::styled(why.clone(), theme.warning)),
                Line::default(),
                Line::from(Span::styled(
                    ":exemptions (or the key shown below) goes back to the exemptions, which work with both APIs.",
                    theme.muted,
                )),
            ];
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(area, buf);
        } else {
            self.table.render(area, buf, theme, &self.columns, focused);
        }
        match &self.dialog {
            Some(Dialog::Status(picker)) | Some(Dialog::Type { picker, .. }) => {
                picker.render(area, buf, theme)
            }
            Some(Dialog::Confirm { confirm, .. }) => confirm.render(area, buf, theme),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests;
