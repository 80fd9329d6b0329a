//! The Registrations pane: the paged list with its filters and sort, the detail of one
//! registration, the deregistration wizard and the portal credentials form (Tenanted API).

mod columns;
mod coverage;
pub mod credentials;
mod detail;
mod filter;
pub mod register;
pub mod wizard;

use crate::effect::{
    FilingCall, FilingReply, NexusCall, NexusReply, RegistrationCall, RegistrationReply,
};
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use self::columns::columns;
use self::credentials::{CredentialsEvent, CredentialsForm};
use self::detail::Extras;
use self::register::{RegisterEvent, RegisterFlow};
use self::wizard::{DeregisterWizard, WizardEvent};
use crate::effect::Goto;
use crate::effect::{Call, Failure, Reply};
use crate::model::filters::{NexusFilter, RegistrationFilter};
use crate::model::{PageParams, Registration, RevealField};
use crate::rules::EU_ONE_STOP_SHOP;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, PaneHint, Relation};
use crate::ui::panes::{detail_lists, relations};
use crate::ui::skeleton::list_spec;
use crate::ui::skeleton::{
    Answer, Layer, LayerOutcome, NoView, On, Operation, PaneSpec, Parts, Reads, RecordDetail,
    RecordView, Requests, Scope, Screen, Skeleton, Verb, may_write, tenanted, unexpected,
};
use crate::ui::theme::Theme;
use crate::ui::widgets::form::Form;

/// The Registrations pane.
pub type RegistrationsPane = Skeleton<Registrations>;

list_spec! {
    /// The registration list.
    RegistrationList {
        row: Registration,
        filter: RegistrationFilter,
        noun: "registrations",
        columns: columns,
        call: Registrations(RegistrationCall::List),
        page: RegistrationReply::Page,
        describe: filter::describe,
        form: filter::filter_form,
        filter_of: |values, _current| filter::filter_of(values),
        kept_here: RegistrationFilter::is_local, RegistrationFilter::keeps,
        goto: Registrations,
    }
}

/// The title of a registration's returns under its detail.
const RETURNS: &str = "Returns";

/// The registration the detail shows, with what was read beside it (its returns are its
/// related records).
pub type RegistrationDetail = RecordDetail<Registration, Extras>;

/// How a registration reads in the detail.
static REGISTRATION: RecordView<Registration, Extras> = RecordView {
    id: |r| &r.id,
    title: wizard::jurisdiction,
    build: |r, extras, theme, keys, _| detail::build(r, extras, theme, keys),
};

/// The pane's dialogs.
pub enum RegistrationDialog {
    Register(Box<RegisterFlow>),
    Deregister(Box<DeregisterWizard>),
    Credentials(Box<CredentialsForm>),
}

impl Layer for RegistrationDialog {
    fn hints(&self) -> Vec<PaneHint> {
        match self {
            RegistrationDialog::Register(_) | RegistrationDialog::Deregister(_) => vec![
                PaneHint::keys("enter", "next"),
                PaneHint::keys("esc", "back"),
                PaneHint::keys("tab", "field"),
            ],
            RegistrationDialog::Credentials(_) => vec![
                PaneHint::keys("tab", "field"),
                PaneHint::keys("ctrl-s", "save"),
                PaneHint::keys("ctrl-r", "show saved"),
                PaneHint::keys("esc", "close"),
            ],
        }
    }

    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self {
            RegistrationDialog::Register(r) => r.render(area, buf, theme),
            RegistrationDialog::Deregister(w) => w.render(area, buf, theme),
            RegistrationDialog::Credentials(f) => f.render(area, buf, theme),
        }
    }

    fn has_unsaved_input(&self) -> bool {
        match self {
            RegistrationDialog::Register(r) => r.has_unsaved_input(),
            RegistrationDialog::Deregister(w) => w.has_unsaved_input(),
            RegistrationDialog::Credentials(f) => f.has_unsaved_input(),
        }
    }

    fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            RegistrationDialog::Register(r) => r.form_mut(),
            RegistrationDialog::Deregister(w) => w.current_form(),
            RegistrationDialog::Credentials(f) => Some(f.form_mut()),
        }
    }
}

/// What the pane waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The detail's registration, its OSS countries, its jurisdiction's form.
    Record,
    Oss,
    Form,
    /// The detail's returns.
    Filings,
    /// Revealing one masked field (v1).
    Reveal(RevealField),
    /// Revealing every saved portal credential (Tenanted).
    RevealAll,
    Deregister,
    /// The register flow's jurisdiction form, and the registration it sends.
    RegisterForm,
    /// The economic nexus of the jurisdiction being registered: when nexus was met, for the
    /// review's warning.
    RegisterNexus,
    Register,
    /// The returns not filed yet, for the deregistration review.
    UnfiledReturns,
    SaveCredentials,
    /// The saved credentials read back into the credentials form.
    RevealCredentials,
}

impl Operation for Op {
    fn scope(&self) -> Scope {
        match self {
            Op::Record | Op::Oss | Op::Form | Op::Filings | Op::Reveal(_) | Op::RevealAll => {
                Scope::Detail
            }
            Op::Deregister
            | Op::RegisterForm
            | Op::RegisterNexus
            | Op::Register
            | Op::UnfiledReturns
            | Op::SaveCredentials
            | Op::RevealCredentials => Scope::Pane,
        }
    }
}

/// What is the Registrations pane's own.
#[derive(Default)]
pub struct Registrations;

impl Registrations {
    /// `o`: the registration's filing website, in the browser.
    fn open_portal(parts: &Parts<Self>, ctx: &mut Ctx) {
        match parts.current() {
            Some(r) if !r.filing_website_url.is_empty() => {
                ctx.open_url(r.filing_website_url.clone());
            }
            _ => ctx.notify(Level::Info, "This registration has no filing website."),
        }
    }

    /// `C`: the portal credentials form (see [`credentials::open`]).
    fn open_credentials(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        if let Some(form) = credentials::open(parts.current(), ctx) {
            parts.push(RegistrationDialog::Credentials(Box::new(form)));
        }
    }

    /// `e`: the registration's form, prefilled, sending only what changes.
    fn open_edit(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Some(r) = parts.current().cloned() else {
            ctx.notify(Level::Info, "Select a registration first.");
            return;
        };
        let label = wizard::jurisdiction(&r);
        match RegisterFlow::edit(r) {
            Some((flow, event)) => {
                parts.push(RegistrationDialog::Register(Box::new(flow)));
                Self::register_event(event, &mut parts.requests, ctx);
            }
            None => ctx.notify(
                Level::Info,
                format!("{label} has no registration form in this version."),
            ),
        }
    }

    fn register_key(
        flow: &mut RegisterFlow,
        key: KeyEvent,
        requests: &mut Requests<Op>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        let event = flow.handle_key(key);
        Self::register_event(event, requests, ctx)
    }

    fn register_event(
        event: RegisterEvent,
        requests: &mut Requests<Op>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match event {
            RegisterEvent::None => LayerOutcome::Keep,
            RegisterEvent::Refused(why) => {
                ctx.notify(Level::Refused, why);
                LayerOutcome::Keep
            }
            RegisterEvent::Close => LayerOutcome::Close,
            RegisterEvent::AskDiscard => LayerOutcome::AskDiscard,
            RegisterEvent::LoadForm { country, state } => {
                let nexus = NexusFilter {
                    country_code_in: vec![country.clone()],
                    state_code: (!state.is_empty()).then(|| state.clone()),
                    ..NexusFilter::default()
                };
                let call =
                    Call::Registrations(RegistrationCall::JurisdictionForm { country, state });
                requests.call(ctx, call, Op::RegisterForm);
                requests.call(
                    ctx,
                    Call::Nexus(NexusCall::List {
                        filter: nexus,
                        page: PageParams::new(1, 10),
                    }),
                    Op::RegisterNexus,
                );
                LayerOutcome::Keep
            }
            RegisterEvent::Send(body) => {
                let call = Call::Registrations(RegistrationCall::Create { body });
                requests.call(ctx, call, Op::Register);
                LayerOutcome::Keep
            }
            RegisterEvent::Update { id, body } => {
                let call = Call::Registrations(RegistrationCall::Update {
                    registration_id: id,
                    body,
                });
                requests.call(ctx, call, Op::Register);
                LayerOutcome::Keep
            }
        }
    }

    fn register_flow(parts: &mut Parts<Self>) -> Option<&mut RegisterFlow> {
        parts.own_overlays_mut().find_map(|o| match o {
            RegistrationDialog::Register(r) => Some(&mut **r),
            _ => None,
        })
    }

    fn open_wizard(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match parts.current().cloned() {
            Some(r) => parts.push(RegistrationDialog::Deregister(Box::new(
                DeregisterWizard::new(r),
            ))),
            None => ctx.notify(Level::Info, "Select a registration first."),
        }
    }

    /// `v`: the next masked field in clear (v1), or every saved portal credential (Tenanted).
    fn reveal(parts: &mut Parts<Self>, ctx: &mut Ctx) {
        let Parts {
            screen, requests, ..
        } = parts;
        let Screen::Detail(d) = screen else {
            let open = ctx.key(Action::Open);
            ctx.notify(
                Level::Info,
                format!("Open a registration ({open}) to reveal its credentials."),
            );
            return;
        };
        let registration_id = d.record.id.clone();
        if ctx.tenanted().is_some() {
            if d.extra.portal.is_some() {
                ctx.notify(Level::Info, "The saved portal credentials are shown.");
            } else {
                let call =
                    Call::Registrations(RegistrationCall::RevealCredentials { registration_id });
                requests.call(ctx, call, Op::RevealAll);
            }
            return;
        }
        let Some(field) = RevealField::ALL
            .into_iter()
            .find(|f| !d.extra.revealed.iter().any(|(r, _)| r == f))
        else {
            ctx.notify(Level::Info, "The portal password and PIN are both shown.");
            return;
        };
        let call = Call::Registrations(RegistrationCall::Get {
            id: registration_id,
            reveal: Some(field),
        });
        requests.call(ctx, call, Op::Reveal(field));
    }

    fn wizard_key(
        wizard: &mut DeregisterWizard,
        key: KeyEvent,
        requests: &mut Requests<Op>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match wizard.handle_key(key) {
            WizardEvent::None => LayerOutcome::Keep,
            WizardEvent::Refused(why) => {
                ctx.notify(Level::Refused, why);
                LayerOutcome::Keep
            }
            WizardEvent::Close => LayerOutcome::Close,
            WizardEvent::AskDiscard => LayerOutcome::AskDiscard,
            WizardEvent::Send(body) => {
                let registration_id = wizard.registration().id.clone();
                let call = Call::Registrations(RegistrationCall::Deregister {
                    registration_id,
                    body,
                });
                requests.call(ctx, call, Op::Deregister);
                LayerOutcome::Keep
            }
            WizardEvent::LoadFilings(filter) => {
                let call = Call::Filings(FilingCall::List {
                    filter,
                    page: PageParams::new(1, 100),
                });
                requests.call(ctx, call, Op::UnfiledReturns);
                LayerOutcome::Keep
            }
        }
    }

    fn credentials_key(
        form: &mut CredentialsForm,
        key: KeyEvent,
        requests: &mut Requests<Op>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        let registration_id = form.registration().id.clone();
        match form.handle_key(key) {
            CredentialsEvent::None => LayerOutcome::Keep,
            CredentialsEvent::Refused(why) => {
                ctx.notify(Level::Refused, why);
                LayerOutcome::Keep
            }
            CredentialsEvent::Close => LayerOutcome::Close,
            CredentialsEvent::AskDiscard => LayerOutcome::AskDiscard,
            CredentialsEvent::Send(body) => {
                let call = Call::Registrations(RegistrationCall::UpdateCredentials {
                    registration_id,
                    body,
                });
                requests.call(ctx, call, Op::SaveCredentials);
                LayerOutcome::Keep
            }
            CredentialsEvent::Reveal => {
                let call =
                    Call::Registrations(RegistrationCall::RevealCredentials { registration_id });
                requests.call(ctx, call, Op::RevealCredentials);
                LayerOutcome::Keep
            }
        }
    }

    fn wizard(parts: &mut Parts<Self>) -> Option<&mut DeregisterWizard> {
        parts.own_overlays_mut().find_map(|o| match o {
            RegistrationDialog::Deregister(w) => Some(&mut **w),
            _ => None,
        })
    }

    fn credentials(parts: &mut Parts<Self>) -> Option<&mut CredentialsForm> {
        parts.own_overlays_mut().find_map(|o| match o {
            RegistrationDialog::Credentials(f) => Some(&mut **f),
            _ => None,
        })
    }

    /// An answer to one of the detail's calls.
    fn detail_answer(
        op: Op,
        result: Result<Reply, Failure>,
        d: &mut RegistrationDetail,
        ctx: &mut Ctx,
    ) {
        match (op, result) {
            (Op::Record, Ok(Reply::Registrations(RegistrationReply::One(r)))) => d.record = r,
            (Op::Reveal(field), Ok(Reply::Registrations(RegistrationReply::One(r)))) => {
                match field.value_in(&r) {
                    Some(v) => d.extra.revealed.push((field, v.clone())),
                    None => ctx.notify(
                        Level::Info,
                        format!("This registration has no {} on file.", field.label()),
                    ),
                }
            }
            (
                Op::RevealAll,
                Ok(Reply::Registrations(RegistrationReply::RevealedCredentials(revealed))),
            ) => {
                d.extra.portal = Some(revealed.fields);
            }
            (Op::Oss, Ok(Reply::Registrations(RegistrationReply::OssCountries(c)))) => {
                d.extra.oss_countries = Some(Ok(c));
            }
            (Op::Form, Ok(Reply::Registrations(RegistrationReply::JurisdictionForm(f)))) => {
                d.extra.form = Some(Ok(f));
            }
            (Op::Filings, Ok(Reply::Registrations(RegistrationReply::Filings(page)))) => {
                d.related = Some(detail_lists::filings(RETURNS, &page.items));
            }
            (Op::Filings, Err(f)) => {
                d.related = Some(detail_lists::failed(RETURNS, f.message));
            }
            (Op::Oss, Err(f)) => d.extra.oss_countries = Some(Err(f.message)),
            (Op::Form, Err(f)) => d.extra.form = Some(Err(f.message)),
            (_, Err(f)) => ctx.notify(Level::Error, f.message),
            (op, Ok(reply)) => unexpected(&format!("{op:?}"), &reply, ctx),
        }
    }
}

impl PaneSpec for Registrations {
    type List = RegistrationList;
    type Extra = Extras;
    type View = NoView;
    type Overlay = RegistrationDialog;
    type Op = Op;

    fn arrive(&mut self, goto: &Goto, parts: &mut Parts<Self>, ctx: &mut Ctx) -> bool {
        let Goto::Register { country, state } = goto else {
            return false;
        };
        if !may_write(ctx) {
            return true;
        }
        let on_file: Vec<Registration> = parts.list.table().rows().cloned().collect();
        match RegisterFlow::on(country, state.as_deref()) {
            Some((flow, event)) => {
                let flow = flow.with_on_file(on_file);
                parts.push(RegistrationDialog::Register(Box::new(flow)));
                Self::register_event(event, &mut parts.requests, ctx);
            }
            None => parts.push(RegistrationDialog::Register(Box::new(
                RegisterFlow::new().with_on_file(on_file),
            ))),
        }
        true
    }

    const TITLE: &'static str = "Registrations";
    const DETAIL: &'static RecordView<Registration, Extras> = &REGISTRATION;
    const RESOURCE: Option<crate::model::Resource> = Some(crate::model::Resource::Registrations);
    const RELATIONS: fn(&Registration) -> Vec<Relation> = relations::of_registration;

    const VERBS: &'static [Verb<Self>] = &[
        Verb::key(Action::New, "register", On::List, |v| {
            let on_file = v.parts.list.table().rows().cloned().collect();
            let flow = RegisterFlow::new().with_on_file(on_file);
            v.parts.push(RegistrationDialog::Register(Box::new(flow)));
        })
        .writes()
        .starts_new(),
        Verb::key(Action::Reveal, "reveal", On::Detail, |v| {
            Self::reveal(v.parts, v.ctx);
        }),
        Verb::key(Action::OpenUrl, "open portal", On::Detail, |v| {
            Self::open_portal(v.parts, v.ctx);
        }),
        Verb::key(Action::Edit, "edit", On::Both, |v| {
            Self::open_edit(v.parts, v.ctx);
        })
        .writes(),
        Verb::key(Action::Deregister, "deregister", On::Both, |v| {
            Self::open_wizard(v.parts, v.ctx);
        })
        .also("deregister")
        .writes(),
        Verb::key(Action::Credentials, "credentials", On::Both, |v| {
            Self::open_credentials(v.parts, v.ctx);
        })
        .writes()
        .offered(tenanted),
    ];

    const DETAIL_READS: Reads<Registration, Op> = |r| {
        let id = || r.id.clone();
        let mut reads = vec![(
            RegistrationCall::Get {
                id: id(),
                reveal: None,
            }
            .into(),
            Op::Record,
        )];
        if r.country_code == EU_ONE_STOP_SHOP || r.oss_type.is_some() {
            let registration_id = id();
            reads.push((
                RegistrationCall::OssCountries { registration_id }.into(),
                Op::Oss,
            ));
        }
        reads.push((
            RegistrationCall::Filings {
                registration_id: id(),
            }
            .into(),
            Op::Filings,
        ));
        let (country, state) = (r.country_code.clone(), r.state_code.clone());
        reads.push((
            RegistrationCall::JurisdictionForm { country, state }.into(),
            Op::Form,
        ));
        reads
    };

    fn overlay_key(
        &mut self,
        overlay: &mut RegistrationDialog,
        key: KeyEvent,
        parts: &mut Parts<Self>,
        ctx: &mut Ctx,
    ) -> LayerOutcome {
        match overlay {
            RegistrationDialog::Register(r) => Self::register_key(r, key, &mut parts.requests, ctx),
            RegistrationDialog::Deregister(w) => Self::wizard_key(w, key, &mut parts.requests, ctx),
            RegistrationDialog::Credentials(f) => {
                Self::credentials_key(f, key, &mut parts.requests, ctx)
            }
        }
    }

    fn receive(&mut self, op: Op, result: Answer, parts: &mut Parts<Self>, ctx: &mut Ctx) {
        match (op, result) {
            (
                Op::Deregister,
                Ok(Reply::Registrations(RegistrationReply::Deregistered(registration))),
            ) => {
                ctx.notify(
                    Level::Success,
                    format!(
                        "Deregistration requested: {} is now {}.",
                        wizard::jurisdiction(&registration),
                        registration.status
                    ),
                );
                parts.record_read(registration);
                parts.close_overlays(|o| matches!(o, RegistrationDialog::Deregister(_)));
            }
            (Op::RegisterForm, result) => {
                let form = match result {
                    Ok(Reply::Registrations(RegistrationReply::JurisdictionForm(f))) => Ok(f),
                    Ok(other) => Err(format!("an unexpected answer: {other:?}")),
                    Err(failure) => Err(failure.message),
                };
                if let Some(flow) = Self::register_flow(parts) {
                    flow.form_loaded(form);
                }
            }
            (Op::RegisterNexus, result) => {
                // A read that fails only leaves the review without its warning.
                let met = match result {
                    Ok(Reply::Nexus(NexusReply::Page(page))) => page
                        .items
                        .iter()
                        .filter_map(|n| {
                            n.nexus_met_date
                                .or(n.economic_nexus_met_date)
                                .or(n.physical_nexus_met_date)
                        })
                        .min(),
                    _ => None,
                };
                if let Some(flow) = Self::register_flow(parts) {
                    flow.nexus_loaded(met);
                }
            }
            (Op::Register, Ok(Reply::Registrations(RegistrationReply::Created(registration)))) => {
                ctx.notify(
                    Level::Success,
                    format!(
                        "Registered in {}: {} is {}.",
                        wizard::jurisdiction(&registration),
                        registration.id,
                        registration.status
                    ),
                );
                parts.close_overlays(|o| matches!(o, RegistrationDialog::Register(_)));
                parts.list.reload_at(Some(registration.id.clone()), ctx);
            }
            (Op::Register, Ok(Reply::Registrations(RegistrationReply::Updated(registration)))) => {
                ctx.notify(
                    Level::Success,
                    format!(
                        "Saved the changes of {}.",
                        wizard::jurisdiction(&registration)
                    ),
                );
                parts.close_overlays(|o| matches!(o, RegistrationDialog::Register(_)));
                parts.record_read(registration);
            }
            (Op::Register, Err(failure)) => {
                ctx.notify(Level::Error, failure.message.clone());
                if let Some(flow) = Self::register_flow(parts) {
                    flow.failed(&failure);
                }
            }
            (Op::UnfiledReturns, result) => {
                let filings = match result {
                    Ok(Reply::Filings(FilingReply::Page(page))) => Ok(page.items),
                    Ok(other) => Err(format!("an unexpected answer: {other:?}")),
                    Err(failure) => Err(failure.message),
                };
                if let Some(w) = Self::wizard(parts) {
                    w.filings_loaded(filings);
                }
            }
            (Op::Deregister, Err(failure)) => {
                ctx.notify(Level::Error, failure.message.clone());
                if let Some(w) = Self::wizard(parts) {
                    w.failed(&failure);
                }
            }
            (
                Op::SaveCredentials,
                Ok(Reply::Registrations(RegistrationReply::CredentialsUpdated(done))),
            ) => {
                let words =
                    credentials::saved_in_words(Self::credentials(parts).map(|f| &*f), &done);
                ctx.notify(Level::Success, words);
                // The secrets typed are dropped with the form: never shown again.
                parts.close_overlays(|o| matches!(o, RegistrationDialog::Credentials(_)));
            }
            (Op::SaveCredentials, Err(failure)) => {
                ctx.notify(Level::Error, failure.message.clone());
                if let Some(form) = Self::credentials(parts) {
                    form.failed(&failure);
                }
            }
            (
                Op::RevealCredentials,
                Ok(Reply::Registrations(RegistrationReply::RevealedCredentials(revealed))),
            ) => {
                if let Some(form) = Self::credentials(parts) {
                    form.revealed(revealed.fields);
                }
            }
            (Op::RevealCredentials, Err(failure)) => ctx.notify(Level::Error, failure.message),
            (op, result) => match parts.screen.detail_mut() {
                Some(d) => Self::detail_answer(op, result, d, ctx),
                None => {
                    if let Err(failure) = result {
                        ctx.notify(Level::Error, failure.message);
                    }
                }
            },
        }
    }

    fn subtitle(&self, parts: &Parts<Self>) -> Option<String> {
        // The list's filter stays in the title over the detail too, as it always has.
        Some(parts.list.subtitle())
    }
}
