//! The pane's writes: the new-exemption form with its customer lookup, and the certificate
//! upload with its path completion. Both are refused in read-only mode before they open.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::create::{self, CUSTOMER, CUSTOMER_SEARCH};
use super::upload::Upload;
use super::{ExemptionsPane, Mode};
use crate::effect::{Call, Failure, FailureKind, Reply, RequestId};
use crate::model::filters::CustomerFilter;
use crate::model::{Attachment, Exemption, PageParams};
use crate::ui::pane::{Ctx, Level};
use crate::ui::widgets::confirm::Confirm;
use crate::ui::widgets::form::{Form, FormOutcome};

/// Customers offered by one lookup at most.
const LOOKUP_SIZE: u32 = 20;

/// Whether writes are allowed; says why not when they are not.
fn may_write(ctx: &mut Ctx) -> bool {
    if ctx.read_only() {
        ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
    }
    !ctx.read_only()
}

/// A write the service (or the runtime's file check) refused: the fields it names show their
/// errors under them, and every value stays as typed.
fn refused(form: &mut Form, failure: &Failure) {
    form.set_busy(false);
    if failure.kind == FailureKind::Validation {
        form.set_errors(&failure.fields);
    }
}

/// The text of the create form's customer lookup.
fn lookup_text(form: &Form) -> String {
    form.values()
        .text(CUSTOMER_SEARCH)
        .unwrap_or_default()
        .trim()
        .to_owned()
}

impl ExemptionsPane {
    /// `n`: the new-exemption form, its customer field filled with a first lookup.
    pub(super) fn open_create(&mut self, ctx: &mut Ctx) {
        if may_write(ctx) {
            self.mode = Mode::Create(create::create_form());
            self.look_up(String::new(), ctx);
        }
    }

    /// `e` (attach certificate): the upload form for the exemption the user is on.
    pub(super) fn open_upload(&mut self, ctx: &mut Ctx) {
        if !may_write(ctx) {
            return;
        }
        match self.current().cloned() {
            Some(exemption) => self.mode = Mode::Upload(Upload::new(exemption)),
            None => ctx.notify(Level::Info, "Select an exemption first."),
        }
    }

    /// Asks for the customers matching `text`, cancelling the lookup still on its way.
    fn look_up(&mut self, text: String, ctx: &mut Ctx) {
        if let Some((id, _)) = self.lookup.take() {
            ctx.cancel(id);
        }
        let filter = CustomerFilter {
            search_query: Some(text.clone()).filter(|t| !t.is_empty()),
            ..CustomerFilter::default()
        };
        let id = ctx.call(Call::Customers {
            filter,
            page: PageParams::new(1, LOOKUP_SIZE),
        });
        self.lookup = Some((id, text));
    }

    /// A key in the create form: a changed lookup text looks customers up again.
    pub(super) fn create_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Mode::Create(form) = &mut self.mode else {
            return;
        };
        let before = lookup_text(form);
        let outcome = form.handle_key(key);
        let after = lookup_text(form);
        if after != before {
            self.look_up(after, ctx);
        }
        match outcome {
            FormOutcome::Submit => self.submit_create(ctx),
            FormOutcome::Cancel => self.close_form(),
            FormOutcome::AskDiscard => self.confirm = Some(Confirm::discard_input()),
            FormOutcome::None | FormOutcome::Invalid => {}
        }
    }

    /// Sends the new exemption when every rule passes.
    fn submit_create(&mut self, ctx: &mut Ctx) {
        let Mode::Create(form) = &mut self.mode else {
            return;
        };
        match create::create_body(&form.values()) {
            Ok(body) => {
                form.set_busy(true);
                self.creating = Some(ctx.call(Call::CreateExemption {
                    body: Box::new(body),
                }));
            }
            Err(errors) => form.set_errors(&errors),
        }
    }

    /// A key in the upload form: Tab completes the path, Enter uploads.
    pub(super) fn upload_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Mode::Upload(upload) = &mut self.mode else {
            return;
        };
        if key.code == KeyCode::Tab && key.modifiers == KeyModifiers::NONE {
            if let Some(partial) = upload.tab() {
                if let Some((id, _)) = self.completing.take() {
                    ctx.cancel(id);
                }
                let id = ctx.call(Call::CompletePath {
                    partial: partial.clone(),
                });
                self.completing = Some((id, partial));
            }
            return;
        }
        match upload.key(key) {
            FormOutcome::Submit => {
                // A completion still on its way would change the path after it was sent.
                if let Some((id, _)) = self.completing.take() {
                    ctx.cancel(id);
                }
                upload.form.set_busy(true);
                self.uploading = Some(ctx.call(Call::UploadCertificate {
                    exemption_id: upload.exemption.id.clone(),
                    path: PathBuf::from(upload.path().trim()),
                }));
            }
            FormOutcome::Cancel => self.close_form(),
            FormOutcome::AskDiscard => self.confirm = Some(Confirm::discard_input()),
            FormOutcome::None | FormOutcome::Invalid => {}
        }
    }

    /// The answer to a write, a lookup or a completion; `false` when `id` is none of them.
    pub(super) fn receive_write(
        &mut self,
        id: RequestId,
        result: &Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> bool {
        if self.lookup.as_ref().is_some_and(|(l, _)| *l == id) {
            let text = self.lookup.take().map(|(_, t)| t).unwrap_or_default();
            self.customers_found(&text, result, ctx);
        } else if self.completing.as_ref().is_some_and(|(c, _)| *c == id) {
            let partial = self.completing.take().map(|(_, p)| p).unwrap_or_default();
            if let (Mode::Upload(upload), Ok(Reply::PathCompletions(found))) =
                (&mut self.mode, result)
            {
                if found.is_empty() {
                    ctx.notify(Level::Info, format!("no path starts with {partial}"));
                }
                upload.completions(&partial, found.clone());
            }
        } else if self.creating == Some(id) {
            self.creating = None;
            match result {
                Ok(Reply::Exemption(exemption)) => self.created(exemption, ctx),
                Ok(_) => {}
                Err(failure) => {
                    if let Mode::Create(form) = &mut self.mode {
                        refused(form, failure);
                    }
                    ctx.notify(Level::Error, failure.message.clone());
                }
            }
        } else if self.uploading == Some(id) {
            self.uploading = None;
            match result {
                Ok(Reply::Attachment(file)) => self.attached(file, ctx),
                Ok(_) => {}
                Err(failure) => {
                    if let Mode::Upload(upload) = &mut self.mode {
                        refused(&mut upload.form, failure);
                    }
                    ctx.notify(Level::Error, failure.message.clone());
                }
            }
        } else {
            return false;
        }
        true
    }

    /// The customers matching the lookup become the customer field's choices.
    fn customers_found(&mut self, text: &str, result: &Result<Reply, Failure>, ctx: &mut Ctx) {
        let Mode::Create(form) = &mut self.mode else {
            return;
        };
        match result {
            Ok(Reply::CustomersPage(page)) => {
                if page.items.is_empty() {
                    ctx.notify(Level::Info, format!("no customer matches \"{text}\""));
                }
                let choices = page.items.iter().map(create::customer_choice).collect();
                form.set_choices(CUSTOMER, choices);
            }
            Ok(_) => {}
            Err(failure) => ctx.notify(Level::Error, failure.message.clone()),
        }
    }

    fn created(&mut self, exemption: &Exemption, ctx: &mut Ctx) {
        ctx.notify(
            Level::Success,
            format!("Exemption {} created.", exemption.id),
        );
        if matches!(self.mode, Mode::Create(_)) {
            self.open_detail(exemption.clone(), ctx);
        }
        self.reload(ctx);
    }

    /// A certificate attached: back where the upload was opened, the files shown again.
    fn attached(&mut self, file: &Attachment, ctx: &mut Ctx) {
        let name = file.file_name.as_deref().unwrap_or(&file.id);
        ctx.notify(
            Level::Success,
            format!("Certificate {name} attached to {}.", file.related_entity_id),
        );
        if matches!(self.mode, Mode::Upload(_)) {
            self.close_form();
        }
        if self
            .detail
            .as_ref()
            .is_some_and(|d| d.exemption.id == file.related_entity_id)
        {
            self.refresh_files(ctx);
        }
    }
}
