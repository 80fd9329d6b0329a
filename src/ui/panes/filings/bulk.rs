//! The bulk actions: the confirmation naming how many filings, the call, and the answer filing
//! by filing (rows that went through change and lose their mark, refused ones keep it).

use super::results::{Bulk, BulkReport, filings_noun};
use super::{Dialog, FilingsPane, Pending};
use crate::effect::{Call, Failure, FailureKind, Reply};
use crate::model::FilingStatus;
use crate::ui::pane::{Ctx, Level};
use crate::ui::widgets::confirm::Confirm;

impl FilingsPane {
    /// `A` or `P`: asks to confirm the action on the marked filings (or the one in view).
    pub(super) fn ask_bulk(&mut self, action: Bulk, ctx: &mut Ctx) {
        let what = match action {
            Bulk::Approve => "Approving filings in bulk",
            Bulk::Pause => "Pausing filings in bulk",
        };
        if self.refuse_if_v1(what, ctx) {
            return;
        }
        if self.bulk.is_some() {
            ctx.notify(
                Level::Info,
                "A bulk action is on its way; wait for its answer.",
            );
            return;
        }
        let ids = match &self.detail {
            Some(d) => vec![d.filing.id.clone()],
            None => self.marks.targets(&self.table),
        };
        if ids.is_empty() {
            ctx.notify(Level::Info, format!("No filing to {} here.", action.verb()));
            return;
        }
        let (what, then) = match action {
            Bulk::Approve => (" for filing", "Approved filings are filed when due."),
            Bulk::Pause => ("", "Paused filings are not filed until resumed."),
        };
        let verb = action.verb();
        let question = format!(
            "{}{} {}{what}? {then}",
            verb[..1].to_ascii_uppercase(),
            &verb[1..],
            filings_noun(ids.len())
        );
        self.dialog = Some(Dialog::Bulk {
            confirm: Confirm::new(question, false).with_title(format!("Bulk {verb}")),
            action,
            ids,
        });
    }

    pub(super) fn send_bulk(&mut self, action: Bulk, ids: Vec<String>, ctx: &mut Ctx) {
        let call = match action {
            Bulk::Approve => Call::BulkApproveFilings { ids: ids.clone() },
            Bulk::Pause => Call::BulkPauseFilings { ids: ids.clone() },
        };
        let id = ctx.call(call);
        self.bulk = Some(Pending { id, action, ids });
    }

    /// The answer to a bulk action.
    pub(super) fn receive_bulk(
        &mut self,
        pending: Pending,
        result: Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) {
        match result {
            Ok(Reply::BulkFilings(answer)) => {
                for item in answer.results.iter().filter(|i| i.error.is_none()) {
                    self.marks.remove(&mut self.table, &item.filing_id);
                    if let Some(status) = &item.status {
                        let status = FilingStatus::parse(&status.to_ascii_uppercase());
                        let id = item.filing_id.as_str();
                        self.table.update_where(
                            |m| m.row.id == id,
                            |m| m.row.status = Some(status.clone()),
                        );
                        if let Some(d) = self.detail.as_mut().filter(|d| d.filing.id == id) {
                            d.filing.status = Some(status.clone());
                        }
                    }
                    // The whole record (its approval time) comes with the filing itself.
                    let id = ctx.call(Call::Filing {
                        id: item.filing_id.clone(),
                    });
                    self.refreshing.insert(id);
                }
                let report = BulkReport {
                    action: pending.action,
                    items: answer.results,
                };
                let level = if report.succeeded() == report.items.len() {
                    Level::Success
                } else {
                    Level::Error
                };
                ctx.notify(level, report.summary());
                self.report = Some(report);
            }
            Ok(_) => {}
            Err(failure) if failure.kind == FailureKind::Unsupported => {
                ctx.notify(Level::Error, failure.message);
            }
            Err(failure) => {
                ctx.notify(
                    Level::Error,
                    format!(
                        "Nothing was {} ({}): {} The marks are kept.",
                        pending.action.done(),
                        filings_noun(pending.ids.len()),
                        failure.message
                    ),
                );
            }
        }
    }
}
