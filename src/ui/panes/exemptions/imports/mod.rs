//! The certificate imports view of the Exemptions pane (Tenanted API): certificates customers
//! sent in for a missing exemption, by default those awaiting approval. Space marks rows; `A`
//! approves the marked ones (or the selected one) once the exemption type is chosen and the
//! approval confirmed: one import with the single approval, several with the bulk approval,
//! which takes all or none. Each approved row shows its new exemption; a refusal is said and
//! every mark is kept. On a v1 profile the client refuses the list without sending, and the
//! view says what to change.

mod columns;

use crate::effect::{ExemptionCall, ExemptionReply};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::effect::Goto;
use crate::effect::{Call, Reply};
use crate::model::filters::Sort;
use crate::model::tenanted::{
    APPROVAL_EXEMPTION_TYPES, ApproveImport, BulkApproveImports, CertificateImport,
    CertificateImportStatus,
};
use crate::model::{Page, PageParams};
use crate::ui::judging::Judging;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint};
use crate::ui::panes::filter_codes::{any_of_field, chosen, either, list_value};
use crate::ui::panes::marks::Marked;
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::skeleton::{
    Answer, Destination, Layer, LayerOutcome, ListSpec, NoView, On, Operation, PaneSpec, Parts,
    RecordView, Skeleton, Verb, question_hints, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{Confirm, ConfirmOutcome};
use crate::ui::widgets::detail::{Detail, Section};
use crate::ui::widgets::form::{Form, FormValues};
use crate::ui::widgets::paged_table::Column;
use crate::ui::widgets::picker::{Picker, PickerOutcome};

/// The certificate imports view.
pub type ImportsPane = Skeleton<Imports>;

/// Which imports the list shows: the statuses chosen (by default those awaiting approval), or
/// all when none is. The service filters by one status; several are kept on this side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportFilter {
    pub status_in: Vec<CertificateImportStatus>,
}

impl Default for ImportFilter {
    fn default() -> Self {
        ImportFilter {
            status_in: vec![CertificateImportStatus::Uploaded],
        }
    }
}

impl ImportFilter {
    /// The status the service is asked for: the one chosen, or none when several are.
    fn asked(&self) -> Option<CertificateImportStatus> {
        match self.status_in.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}

/// `2 certificate imports`.
fn imports_noun(n: usize) -> String {
    crate::ui::text::count(n as u64, "certificate import")
}

/// The import list, rows marked for the approval.
pub struct ImportList;

impl ListSpec for ImportList {
    type Record = CertificateImport;
    type Row = Marked<CertificateImport>;
    type Filter = ImportFilter;
    const NOUN: &'static str = "certificate imports";

    fn columns() -> Vec<Column<Marked<CertificateImport>>> {
        columns::columns()
    }

    fn call(filter: &ImportFilter, _: Vec<Sort>, page: PageParams) -> Call {
        Call::Exemptions(ExemptionCall::Imports {
            status: filter.asked(),
            page,
        })
    }

    fn page(reply: Reply) -> Option<Page<Marked<CertificateImport>>> {
        match reply {
            Reply::Exemptions(ExemptionReply::ImportsPage(page)) => Some(page.map(Marked::new)),
            _ => None,
        }
    }

    fn id(row: &Marked<CertificateImport>) -> &str {
        &row.row.id
    }

    fn set_marked(row: &mut Marked<CertificateImport>, marked: bool) {
        row.marked = marked;
    }

    fn describe(filter: &ImportFilter) -> String {
        let shown = match filter.status_in.as_slice() {
            [] => "every status".to_owned(),
            [CertificateImportStatus::Uploaded] => "awaiting approval (UPLOADED)".to_owned(),
            statuses => either(statuses, CertificateImportStatus::as_str),
        };
        format!("certificate imports {shown}")
    }

    fn filter_form(filter: &ImportFilter) -> Form {
        Form::new(vec![
            any_of_field(
                "status",
                "Status",
                CertificateImportStatus::KNOWN,
                CertificateImportStatus::as_str,
            )
            .rule("the imports shown; UPLOADED awaits approval; none chosen for every status"),
        ])
        .with_value(
            "status",
            list_value(&filter.status_in, CertificateImportStatus::as_str),
        )
    }

    fn filter_of(values: &FormValues, _: &ImportFilter, _: &Judging) -> ImportFilter {
        ImportFilter {
            status_in: chosen(values, "status", CertificateImportStatus::parse),
        }
    }

    /// Several statuses: the service is asked for all, the others are dropped here.
    fn is_local(filter: &ImportFilter) -> bool {
        filter.status_in.len() > 1
    }

    fn keeps(filter: &ImportFilter, row: &Marked<CertificateImport>) -> bool {
        filter.status_in.is_empty() || filter.status_in.contains(&row.row.status)
    }
}

/// Every field of one import (the row holds them all).
fn import_detail<'t>(i: &CertificateImport, theme: &'t Theme) -> Detail<'t> {
    let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "—".to_owned());
    let section = Section::new("Certificate import")
        .row("Id", i.id.clone())
        .row("Status", i.status.as_str().to_owned())
        .row("Customer", text(&i.customer_name))
        .row("Customer id", text(&i.customer_id))
        .row("File", text(&i.file_name))
        .row("Country", text(&i.country_code))
        .row("Jurisdiction", text(&i.jurisdiction))
        .row("Exemption type", text(&i.exemption_type))
        .row("Exemption", text(&i.exemption_id));
    Detail::new(theme, vec![section])
}

/// How an import reads in the detail.
static IMPORT: RecordView<CertificateImport> = RecordView {
    id: |i| &i.id,
    title: |i| format!("certificate import {}", i.id),
    build: |import, (), theme, _, _| import_detail(import, theme),
};

/// The approval's dialogs: the exemption type, then the confirmation.
pub enum ImportDialog {
    Type {
        picker: Picker,
        ids: Vec<String>,
    },
    Confirm {
        confirm: Confirm,
        ids: Vec<String>,
        exemption_type: String,
    },
}

impl Layer for ImportDialog {
    fn hints(&self) -> Vec<PaneHint> {
        match self {
            ImportDialog::Confirm { .. } => question_hints(),
            ImportDialog::Type { .. } => vec![
                PaneHint::keys("←/→", "choose"),
                PaneHint::keys("enter", "continue"),
                PaneHint::keys("esc", "cancel"),
            ],
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            ImportDialog::Type { picker, .. } => picker.render(area, buf, theme),
            ImportDialog::Confirm { confirm, .. } => confirm.render(area, buf, theme),
        }
    }
}

/// What the view waits for.
#[derive(Debug)]
pub enum Op {
    /// The approval of these imports as `exemption_type`.
    Approve {
        ids: Vec<String>,
        exemption_type: String,
    },
}

impl Operation for Op {}

/// What is the imports view's own.
#[derive(Default)]
pub struct Imports {
    /// An approval created exemptions the exemptions view does not show yet.
    approved: bool,
}

impl Imports {
    /// Says why the list cannot be had, when it cannot; returns whether it did.
    fn action_unavailable(parts: &Parts<Self>, ctx: &mut Ctx) -> bool {
        match parts.list.unavailable() {
            Some(why) => {
                ctx.notify(Level::Error, why.to_owned());
                true
            }
            None => false,
        }
    }

    fn open_approval(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if Self::action_unavailable(parts, ctx) {
            return;
        }
        let approval = |op: &Op| matches!(op, Op::Approve { .. });
        if parts.requests.on_its_way(approval, "An approval", ctx) {
            return;
        }
        let ids = parts.list.targets();
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
        parts.push(ImportDialog::Type {
            picker: Picker::new("Exemption type", message, choices, default),
            ids,
        });
    }

    fn approve(parts: &mut Parts<Self>, ids: Vec<String>, exemption_type: String, ctx: &mut Ctx) {
        let call = match ids.as_slice() {
            [id] => Call::Exemptions(ExemptionCall::ApproveImport {
                id: id.clone(),
                body: ApproveImport {
                    exemption_type: Some(exemption_type.clone()),
                },
            }),
            _ => Call::Exemptions(ExemptionCall::BulkApproveImports {
                body: BulkApproveImports {
                    ids: ids.clone(),
                    exemption_type: Some(exemption_type.clone()),
                },
            }),
        };
        let op = Op::Approve {
            ids,
            exemption_type,
        };
        parts.requests.call(ctx, call, op);
    }
}

impl PaneSpec for Imports {
    type List = ImportList;
    type Extra = ();
    type View = NoView;
    type Overlay = ImportDialog;
    type Op = Op;

    fn goto(&self, goto: &Goto) -> Option<Destination<Self>> {
        match goto {
            Goto::CertificateImports { status_in } => Some((
                ImportFilter {
                    status_in: status_in.clone(),
                },
                None,
            )),
            _ => None,
        }
    }

    const TITLE: &'static str = "Exemptions";
    const DETAIL: &'static RecordView<CertificateImport> = &IMPORT;
    const FILTER: &'static str = "status";

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::Mark, "mark", On::List, |v| {
            v.parts.list.toggle_mark();
        }),
        Verb::key(Action::Approve, "approve", On::List, |v| {
            Self::open_approval(v.parts, v.ctx);
        })
        .writes(),
    ];

    /// On a v1 profile the list says what it needs, and nothing is asked of the service.
    fn show(&mut self, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if !parts.tenanted && parts.list.unavailable().is_none() {
            let why = format!("Certificate imports {NEEDS_TENANTED}.");
            ctx.notify(Level::Error, why.clone());
            parts.list.set_unavailable(why);
        }
    }

    fn action(&mut self, action: Action, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        matches!(action, Action::Refresh | Action::Filter) && Self::action_unavailable(parts, ctx)
    }

    fn overlay_key(
        &mut self,
        overlay: &mut ImportDialog,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match overlay {
            ImportDialog::Type { picker, ids } => match picker.handle_key(key) {
                PickerOutcome::None => LayerOutcome::Keep,
                PickerOutcome::Cancelled => LayerOutcome::Close,
                PickerOutcome::Picked(exemption_type) => {
                    let question = format!(
                        "Approve {} ({}) as {exemption_type} exemptions? Each approval creates \
                         an exemption for its customer.",
                        imports_noun(ids.len()),
                        ids.join(", ")
                    );
                    parts.push(ImportDialog::Confirm {
                        confirm: Confirm::new(question, false).with_title("Approve"),
                        ids: std::mem::take(ids),
                        exemption_type,
                    });
                    LayerOutcome::Close
                }
            },
            ImportDialog::Confirm {
                confirm,
                ids,
                exemption_type,
            } => match confirm.handle_key(key) {
                ConfirmOutcome::None => LayerOutcome::Keep,
                ConfirmOutcome::No => LayerOutcome::Close,
                ConfirmOutcome::Yes => {
                    let (ids, kind) = (std::mem::take(ids), std::mem::take(exemption_type));
                    Self::approve(parts, ids, kind, ctx);
                    LayerOutcome::Close
                }
            },
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Op::Approve {
            ids,
            exemption_type,
        } = op;
        match result {
            Ok(Reply::Exemptions(ExemptionReply::ImportsApproved(items))) => {
                let mut exemptions = Vec::new();
                for item in items {
                    parts.list.unmark(&item.id);
                    if let Some(e) = &item.exemption_id {
                        exemptions.push(e.clone());
                    }
                    parts.list.replace(&Marked::new(item));
                }
                let created = if exemptions.is_empty() {
                    String::new()
                } else {
                    format!(": exemption {}", exemptions.join(", "))
                };
                ctx.notify(
                    Level::Success,
                    format!(
                        "Approved {} as {exemption_type}{created}",
                        imports_noun(ids.len())
                    ),
                );
                self.approved = true;
            }
            Ok(reply) => unexpected("the approval", &reply, ctx),
            Err(failure) => {
                let kept = if parts.list.marked() == 0 {
                    String::new()
                } else {
                    " The marks are kept.".to_owned()
                };
                ctx.notify(
                    Level::Error,
                    format!("Nothing was approved. {}{kept}", failure.message),
                );
            }
        }
    }

    fn changed_elsewhere(&mut self) -> bool {
        std::mem::take(&mut self.approved)
    }

    fn subtitle(&self, parts: &Parts<Self>) -> Option<String> {
        parts
            .screen
            .is_list()
            .then(|| format!("{}{}", parts.list.subtitle(), parts.list.marked_note()))
    }
}

#[cfg(test)]
mod tests;
