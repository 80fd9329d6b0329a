//! The pane's writes: the new-exemption form with its customer lookup, and the certificate
//! upload with its path completion. Both are refused in read-only mode before they open.

use crate::effect::{
    CustomerCall, CustomerReply, ExemptionCall, ExemptionReply, FileCall, FileReply,
};
use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::certificate::{self, SaveFile};
use super::create::{self, CUSTOMER, CUSTOMER_SEARCH};
use super::upload::Upload;
use super::{ExemptionForm, Exemptions, Op};
use crate::effect::{Call, Failure, Reply};
use crate::model::filters::CustomerFilter;
use crate::model::{Attachment, Exemption, PageParams};
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level};
use crate::ui::skeleton::{Parts, open_detail, send_form, unexpected};
use crate::ui::widgets::form::{Form, FormOutcome};

/// Customers offered by one lookup at most.
const LOOKUP_SIZE: u32 = 20;

/// The text of the create form's customer lookup.
fn lookup_text(form: &Form) -> String {
    form.values()
        .text(CUSTOMER_SEARCH)
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// `n`: the new-exemption form, its customer field filled with a first lookup.
pub(super) fn open_create(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    parts
        .screen
        .open(ExemptionForm::Create(create::create_form()));
    look_up(parts, String::new(), ctx);
}

/// `a` (attach certificate): the upload form for the exemption the user is on.
pub(super) fn open_upload(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    match parts.current().cloned() {
        Some(exemption) => parts
            .screen
            .open(ExemptionForm::Upload(Upload::new(exemption))),
        None => ctx.notify(Level::Info, "Select an exemption first."),
    }
}

/// `w` in the detail: the form saving the exemption's attached file to a path.
pub(super) fn open_save(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    match certificate::attachment(parts.screen.detail()) {
        Ok((attachment, location)) => parts.screen.open(ExemptionForm::Save(SaveFile::new(
            attachment,
            location,
            ctx.save_folder(),
        ))),
        Err(why) => ctx.notify(Level::Info, why),
    }
}

/// `O` in the detail: the attached file fetched, then opened with the system's viewer.
pub(super) fn view_file(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    match certificate::attachment(parts.screen.detail()) {
        Ok((attachment, location)) => {
            let call = Call::Exemptions(ExemptionCall::FetchAttachment {
                location,
                file_name: certificate::file_name(&attachment),
            });
            parts.requests.again(ctx, call, Op::Fetch);
        }
        Err(why) => ctx.notify(Level::Info, why),
    }
}

/// Asks for the customers matching `text`, cancelling the lookup still on its way.
fn look_up(parts: &mut Parts<Exemptions>, text: String, ctx: &mut Ctx) {
    let filter = CustomerFilter {
        search_query: Some(text.clone()).filter(|t| !t.is_empty()),
        ..CustomerFilter::default()
    };
    let call = Call::Customers(CustomerCall::List {
        filter,
        page: PageParams::new(1, LOOKUP_SIZE),
    });
    parts.requests.again(ctx, call, Op::Lookup(text));
}

/// A key in a form: a changed lookup text looks customers up again; Tab in the upload form
/// completes the path.
pub(super) fn view_key(
    key: KeyEvent,
    parts: &mut Parts<Exemptions>,
    ctx: &mut Ctx,
) -> Option<FormOutcome> {
    match parts.screen.view_mut()? {
        ExemptionForm::Create(form) => {
            let before = lookup_text(form);
            let outcome = form.handle_key(key);
            let after = lookup_text(form);
            if after != before {
                look_up(parts, after, ctx);
            }
            Some(outcome)
        }
        ExemptionForm::Upload(upload) => {
            if key.code == KeyCode::Tab && key.modifiers == KeyModifiers::NONE {
                if let Some(partial) = upload.tab() {
                    let call = Call::Files(FileCall::CompletePath {
                        partial: partial.clone(),
                    });
                    parts.requests.again(ctx, call, Op::Complete(partial));
                }
                return Some(FormOutcome::None);
            }
            Some(upload.key(key))
        }
        ExemptionForm::Save(save) => Some(save.form.handle_key(key)),
    }
}

/// A paste into the new-exemption form's customer field looks customers up, as typing does.
pub(super) fn pasted(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    if let Some(ExemptionForm::Create(form)) = parts.screen.view()
        && form.focused_name() == Some(CUSTOMER_SEARCH)
    {
        let text = lookup_text(form);
        look_up(parts, text, ctx);
    }
}

/// Sends the form on screen when every rule passes.
pub(super) fn submit(parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    let (view, requests) = parts.view_and_requests();
    match view {
        Some(ExemptionForm::Create(form)) => {
            let body = create::create_body(&form.values());
            send_form(form, body, requests, ctx, |body| {
                let body = Box::new(body);
                (Call::Exemptions(ExemptionCall::Create { body }), Op::Create)
            });
        }
        Some(ExemptionForm::Upload(upload)) => {
            // A completion still on its way would change the path after it was sent.
            requests.cancel_where(ctx, |op| matches!(op, Op::Complete(_)));
            upload.form.set_busy(true);
            let call = Call::Exemptions(ExemptionCall::UploadCertificate {
                exemption_id: upload.exemption.id.clone(),
                path: PathBuf::from(upload.path().trim()),
            });
            requests.call(ctx, call, Op::Upload);
        }
        Some(ExemptionForm::Save(save)) => {
            save.form.set_busy(true);
            let call = Call::Exemptions(ExemptionCall::SaveAttachment {
                location: save.location.clone(),
                path: save.target(),
                overwrite: save.overwrite(),
            });
            requests.call(ctx, call, Op::Save);
        }
        None => {}
    }
}

/// The answer to a write, a lookup or a completion.
pub(super) fn receive(
    _spec: &mut Exemptions,
    op: Op,
    result: Result<Reply, Failure>,
    parts: &mut Parts<Exemptions>,
    ctx: &mut Ctx,
) {
    match (op, result) {
        (Op::Lookup(text), Ok(Reply::Customers(CustomerReply::Page(page)))) => {
            if let Some(ExemptionForm::Create(form)) = parts.screen.view_mut() {
                if page.items.is_empty() {
                    ctx.notify(Level::Info, format!("no customer matches \"{text}\""));
                }
                let choices = page.items.iter().map(create::customer_choice).collect();
                form.set_choices(CUSTOMER, choices);
            }
        }
        (Op::Complete(partial), Ok(Reply::Files(FileReply::PathCompletions(found)))) => {
            if let Some(ExemptionForm::Upload(upload)) = parts.screen.view_mut() {
                if found.is_empty() {
                    ctx.notify(Level::Info, format!("no path starts with {partial}"));
                }
                upload.completions(&partial, found);
            }
        }
        (Op::Create, Ok(Reply::Exemptions(ExemptionReply::One(exemption)))) => {
            created(&exemption, parts, ctx);
        }
        (Op::Upload, Ok(Reply::Exemptions(ExemptionReply::Attachment(file)))) => {
            attached(&file, parts, ctx);
        }
        (Op::Save, Ok(Reply::Exemptions(ExemptionReply::Saved { path, bytes }))) => {
            ctx.notify(
                Level::Success,
                format!("Saved {} ({bytes} bytes).", path.display()),
            );
            if matches!(parts.screen.view(), Some(ExemptionForm::Save(_))) {
                parts.screen.close();
            }
        }
        (Op::Save, Err(failure)) => {
            if let Some(ExemptionForm::Save(save)) = parts.screen.view_mut() {
                save.refused(&failure);
            }
            parts.refused(&failure, ctx);
        }
        (Op::Fetch, Ok(Reply::Exemptions(ExemptionReply::Fetched(path)))) => {
            let save = ctx.key(Action::SaveFile);
            ctx.open_file(path, format!("Save the certificate with {save} instead."));
        }
        (Op::Create | Op::Upload, Err(failure)) => parts.refused(&failure, ctx),
        (_, Err(failure)) => ctx.notify(Level::Error, failure.message),
        (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
    }
}

fn created(exemption: &Exemption, parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    ctx.notify(
        Level::Success,
        format!("Exemption {} created.", exemption.id),
    );
    if matches!(parts.screen.view(), Some(ExemptionForm::Create(_))) {
        open_detail(parts, exemption, ctx);
    }
    parts.list.reload_at(Some(exemption.id.clone()), ctx);
}

/// A certificate attached: back where the upload was opened, the files shown again.
fn attached(file: &Attachment, parts: &mut Parts<Exemptions>, ctx: &mut Ctx) {
    let name = file.file_name.as_deref().unwrap_or(&file.id);
    ctx.notify(
        Level::Success,
        format!("Certificate {name} attached to {}.", file.related_entity_id),
    );
    if matches!(parts.screen.view(), Some(ExemptionForm::Upload(_))) {
        parts.screen.close();
    }
    if parts
        .screen
        .detail()
        .is_some_and(|d| d.record.id == file.related_entity_id)
    {
        let exemption_id = file.related_entity_id.clone();
        let call = Call::Exemptions(ExemptionCall::Attachments { exemption_id });
        parts.requests.again(ctx, call, Op::Files);
    }
}
