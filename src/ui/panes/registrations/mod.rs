//! The Registrations pane: the paged list with its filters and sort, the detail of one
//! registration, and the deregistration wizard.

mod columns;
pub mod credentials;
mod detail;
mod filter;
pub mod wizard;

use std::collections::HashMap;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

pub use self::columns::columns;
use self::credentials::CredentialsForm;
use self::detail::Extras;
use self::filter::{describe, filter_form, filter_of};
use self::wizard::{DeregisterWizard, WizardEvent};
use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::filters::RegistrationFilter;

use crate::model::Registration;
use crate::ui::keymap::Action;
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::skeleton::paging::PageCalls;
use crate::ui::theme::Theme;
use crate::ui::widgets::confirm::{self, Confirm};
use crate::ui::widgets::detail::DetailState;
use crate::ui::widgets::form::{Form, FormOutcome};
use crate::ui::widgets::paged_table::{Column, PagedTable};

/// What the detail view shows and waits for.
struct DetailView {
    registration: Registration,
    extras: Extras,
    state: DetailState,
    waiting: HashMap<RequestId, DetailCall>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DetailCall {
    Registration,
    Oss,
    Form,
    /// Revealing this wire field.
    Reveal(&'static str),
    /// Revealing every saved portal credential (Tenanted).
    RevealAll,
}

enum Mode {
    List,
    Filter(Form),
    Detail,
}

/// The Registrations pane.
pub struct RegistrationsPane {
    table: PagedTable<Registration>,
    columns: Vec<Column<Registration>>,
    filter: RegistrationFilter,
    pages: PageCalls,
    mode: Mode,
    detail: Option<DetailView>,
    wizard: Option<DeregisterWizard>,
    deregistering: Option<RequestId>,
    confirm: Option<Confirm>,
    loaded: bool,
    /// The portal credentials form (Tenanted), with its calls under way.
    credentials: Option<CredentialsForm>,
    saving_credentials: Option<RequestId>,
    revealing_credentials: Option<RequestId>,
    /// The client speaks the Tenanted API (the credentials key is offered).
    tenanted: bool,
}

impl Default for RegistrationsPane {
    fn default() -> Self {
        Self::new()
    }
}

impl RegistrationsPane {
    pub fn new() -> Self {
        RegistrationsPane {
            table: PagedTable::new("registrations"),
            columns: columns(),
            filter: RegistrationFilter::default(),
            pages: PageCalls::default(),
            mode: Mode::List,
            detail: None,
            wizard: None,
            deregistering: None,
            confirm: None,
            loaded: false,
            credentials: None,
            saving_credentials: None,
            revealing_credentials: None,
            tenanted: false,
        }
    }

    /// Asks for the pages the table wants.
    fn fetch(&mut self, ctx: &mut Ctx) {
        let mut filter = self.filter.clone();
        filter.order_by = self.table.sort_keys();
        self.pages
            .fetch(&mut self.table, ctx, |want| Call::Registrations {
                filter: filter.clone(),
                page: want.params(),
            });
    }

    /// Starts over with the filter in force: old answers still on their way are cancelled.
    fn reload(&mut self, ctx: &mut Ctx) {
        self.pages.cancel_all(ctx);
        self.table.reset();
        self.fetch(ctx);
    }

    fn open_detail(&mut self, registration: Registration, ctx: &mut Ctx) {
        let mut waiting = HashMap::new();
        waiting.insert(
            ctx.call(Call::Registration {
                id: registration.id.clone(),
                reveal: None,
            }),
            DetailCall::Registration,
        );
        if registration.country_code == "ZZ_EU" || registration.oss_type.is_some() {
            waiting.insert(
                ctx.call(Call::OssCountries {
                    registration_id: registration.id.clone(),
                }),
                DetailCall::Oss,
            );
        }
        let (country, state) = (
            registration.country_code.clone(),
            registration.state_code.clone(),
        );
        waiting.insert(
            ctx.call(Call::JurisdictionForm { country, state }),
            DetailCall::Form,
        );
        self.detail = Some(DetailView {
            registration,
            extras: Extras::default(),
            state: DetailState::default(),
            waiting,
        });
        self.mode = Mode::Detail;
    }

    /// The registration the user is on: the detail's, or the table's selected row.
    fn current(&self) -> Option<&Registration> {
        match self.mode {
            Mode::Detail => self.detail.as_ref().map(|d| &d.registration),
            _ => self.table.selected(),
        }
    }

    fn open_wizard(&mut self, ctx: &mut Ctx) {
        if ctx.read_only() {
            ctx.notify(Level::Error, "Read-only mode: changes are turned off.");
            return;
        }
        match self.current().cloned() {
            Some(r) => self.wizard = Some(DeregisterWizard::new(r)),
            None => ctx.notify(Level::Info, "Select a registration first."),
        }
    }

    /// Shows a changed registration everywhere it appears, without a reload.
    fn replace(&mut self, registration: &Registration) {
        self.table
            .replace_where(|r| r.id == registration.id, registration.clone());
        if let Some(d) = &mut self.detail
            && d.registration.id == registration.id
        {
            d.registration = registration.clone();
        }
    }

    fn reveal(&mut self, ctx: &mut Ctx) {
        let Some(d) = &mut self.detail else {
            ctx.notify(
                Level::Info,
                "Open a registration (enter) to reveal its credentials.",
            );
            return;
        };
        if ctx.tenanted().is_some() {
            if d.extras.portal.is_some() {
                ctx.notify(Level::Info, "The saved portal credentials are shown.");
                return;
            }
            let id = ctx.call(Call::RevealCredentials {
                registration_id: d.registration.id.clone(),
            });
            d.waiting.insert(id, DetailCall::RevealAll);
            return;
        }
        let Some(field) = ["password_encrypted", "pin_encrypted"]
            .into_iter()
            .find(|f| !d.extras.revealed.iter().any(|(r, _)| r == f))
        else {
            ctx.notify(Level::Info, "The portal password and PIN are both shown.");
            return;
        };
        let id = ctx.call(Call::Registration {
            id: d.registration.id.clone(),
            reveal: Some(field.into()),
        });
        d.waiting.insert(id, DetailCall::Reveal(field));
    }

    /// `, sorted by state_code (descending)`, or nothing.
    fn sort_note(&self) -> String {
        self.table
            .sort()
            .map_or_else(String::new, |s| format!(", sorted by {s}"))
    }

    fn handle_wizard_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        let Some(wizard) = &mut self.wizard else {
            return;
        };
        match wizard.handle_key(key) {
            WizardEvent::None => {}
            WizardEvent::Close => self.wizard = None,
            WizardEvent::AskDiscard => self.confirm = Some(Confirm::discard_input()),
            WizardEvent::Send(body) => {
                let registration_id = wizard.registration().id.clone();
                self.deregistering = Some(ctx.call(Call::Deregister {
                    registration_id,
                    body,
                }));
            }
        }
    }
}

impl Pane for RegistrationsPane {
    fn title(&self) -> &str {
        "Registrations"
    }

    fn hints(&self) -> Vec<PaneHint> {
        if self.confirm.is_some() {
            return vec![PaneHint::keys("y/n", "answer")];
        }
        if self.credentials.is_some() {
            return vec![
                PaneHint::keys("tab", "field"),
                PaneHint::keys("ctrl-s", "save"),
                PaneHint::keys("ctrl-r", "show saved"),
                PaneHint::keys("esc", "close"),
            ];
        }
        if self.wizard.is_some() {
            return vec![
                PaneHint::keys("enter", "next"),
                PaneHint::keys("esc", "back"),
                PaneHint::keys("tab", "field"),
            ];
        }
        match self.mode {
            Mode::Filter(_) => vec![
                PaneHint::keys("tab", "next field"),
                PaneHint::keys("←/→", "choose"),
                PaneHint::keys("enter", "apply"),
                PaneHint::keys("esc", "cancel"),
            ],
            Mode::Detail => vec![
                PaneHint::action(Action::Back, "back"),
                PaneHint::action(Action::Up, "scroll"),
                PaneHint::action(Action::Reveal, "reveal"),
                PaneHint::action(Action::OpenUrl, "open portal"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::Deregister, "deregister"),
            ]
            .into_iter()
            .chain(self.credentials_hint())
            .collect(),
            Mode::List => vec![
                PaneHint::action(Action::Open, "open"),
                PaneHint::action(Action::Filter, "filter"),
                PaneHint::action(Action::Sort, "sort"),
                PaneHint::action(Action::SortReverse, "reverse"),
                PaneHint::action(Action::Refresh, "refresh"),
                PaneHint::action(Action::CopyId, "copy id"),
                PaneHint::action(Action::Deregister, "deregister"),
            ]
            .into_iter()
            .chain(self.credentials_hint())
            .collect(),
        }
    }

    fn show(&mut self, ctx: &mut Ctx) {
        self.tenanted = ctx.tenanted().is_some();
        if !self.loaded {
            self.loaded = true;
            self.fetch(ctx);
        }
    }

    fn captures_text(&self) -> bool {
        self.wizard.is_some()
            || self.credentials.is_some()
            || self.confirm.is_some()
            || matches!(self.mode, Mode::Filter(_))
    }

    fn on_key(&mut self, key: KeyEvent, ctx: &mut Ctx) {
        if let Some(yes) = confirm::answer(&mut self.confirm, key) {
            if yes {
                self.wizard = None;
                self.credentials = None;
                if matches!(self.mode, Mode::Filter(_)) {
                    self.mode = if self.detail.is_some() {
                        Mode::Detail
                    } else {
                        Mode::List
                    };
                }
            }
            return;
        }
        if self.credentials.is_some() {
            self.handle_credentials_key(key, ctx);
            return;
        }
        if self.wizard.is_some() {
            self.handle_wizard_key(key, ctx);
            return;
        }
        if let Mode::Filter(form) = &mut self.mode {
            match form.handle_key(key) {
                FormOutcome::Submit => {
                    self.filter = filter_of(&form.values());
                    self.mode = Mode::List;
                    ctx.notify(Level::Info, format!("showing {}", describe(&self.filter)));
                    self.reload(ctx);
                }
                FormOutcome::Cancel => self.mode = Mode::List,
                FormOutcome::AskDiscard => self.confirm = Some(Confirm::discard_input()),
                FormOutcome::None | FormOutcome::Invalid => {}
            }
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match (&self.mode, action) {
            (_, Action::Deregister) => self.open_wizard(ctx),
            (_, Action::Credentials) => self.open_credentials(ctx),
            (_, Action::CopyId) => match self.current() {
                Some(r) => ctx.copy(r.id.clone()),
                None => return false,
            },
            (_, Action::OpenUrl) => match self.current() {
                Some(r) if !r.filing_website_url.is_empty() => {
                    ctx.open_url(r.filing_website_url.clone())
                }
                Some(_) => ctx.notify(Level::Info, "This registration has no filing website."),
                None => return false,
            },
            (Mode::Detail, Action::Back) => {
                self.mode = Mode::List;
                self.detail = None;
            }
            (Mode::Detail, Action::Reveal) => self.reveal(ctx),
            (Mode::Detail, action)
                if self
                    .detail
                    .as_mut()
                    .is_some_and(|d| d.state.navigate(action)) => {}
            (Mode::Detail, Action::Refresh) => {
                if let Some(r) = self.detail.as_ref().map(|d| d.registration.clone()) {
                    self.open_detail(r, ctx);
                }
            }
            (Mode::List, action) if self.table.navigate(action) => {}
            (Mode::List, Action::Open) => match self.table.selected().cloned() {
                Some(r) => self.open_detail(r, ctx),
                None => return false,
            },
            (Mode::List, Action::Filter) => self.mode = Mode::Filter(filter_form(&self.filter)),
            (Mode::List, Action::Refresh) => self.reload(ctx),
            (Mode::List, Action::Sort | Action::SortReverse) => {
                let Some(next) = self
                    .table
                    .next_sort(&self.columns, action == Action::SortReverse)
                else {
                    return false;
                };
                self.pages.cancel_all(ctx);
                self.table.set_sort(Some(next));
                ctx.notify(Level::Info, format!("sorted by {next}"));
            }
            _ => return false,
        }
        if matches!(self.mode, Mode::List) {
            self.fetch(ctx);
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if self.pages.owns(id) {
            self.pages
                .receive(id, result, &mut self.table, ctx, |reply| match reply {
                    Reply::Registrations(rows) => Some(rows),
                    _ => None,
                });
            self.fetch(ctx);
            return;
        }
        if [self.saving_credentials, self.revealing_credentials].contains(&Some(id)) {
            self.receive_credentials(id, result, ctx);
            return;
        }
        if self.deregistering == Some(id) {
            self.deregistering = None;
            match result {
                Ok(Reply::Deregistered(registration)) => {
                    ctx.notify(
                        Level::Success,
                        format!(
                            "Deregistration requested: {} is now {}.",
                            wizard::jurisdiction(&registration),
                            registration.status
                        ),
                    );
                    self.replace(&registration);
                    self.wizard = None;
                }
                Ok(_) => {}
                Err(failure) => {
                    ctx.notify(Level::Error, failure.message.clone());
                    if let Some(w) = &mut self.wizard {
                        w.failed(&failure);
                    }
                }
            }
            return;
        }
        let Some(d) = &mut self.detail else { return };
        let Some(kind) = d.waiting.remove(&id) else {
            return;
        };
        match (kind, result) {
            (DetailCall::Registration, Ok(Reply::Registration(r))) => d.registration = r,
            (DetailCall::Reveal(field), Ok(Reply::Registration(r))) => {
                let value = if field == "pin_encrypted" {
                    r.pin_encrypted
                } else {
                    r.password_encrypted
                };
                match value {
                    Some(v) => d.extras.revealed.push((field.to_owned(), v)),
                    None => ctx.notify(
                        Level::Info,
                        format!("This registration has no {field} on file."),
                    ),
                }
            }
            (DetailCall::RevealAll, Ok(Reply::RevealedCredentials(revealed))) => {
                d.extras.portal = Some(revealed.fields);
            }
            (DetailCall::Oss, Ok(Reply::OssCountries(c))) => d.extras.oss_countries = Some(Ok(c)),
            (DetailCall::Form, Ok(Reply::JurisdictionForm(f))) => d.extras.form = Some(Ok(f)),
            (DetailCall::Oss, Err(f)) => d.extras.oss_countries = Some(Err(f.message)),
            (DetailCall::Form, Err(f)) => d.extras.form = Some(Err(f.message)),
            (_, Err(f)) => ctx.notify(Level::Error, f.message),
            _ => {}
        }
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["deregister", "filter", "refresh"]
    }

    fn command(&mut self, name: &str, _args: &[&str], ctx: &mut Ctx) -> bool {
        match name {
            "deregister" => self.open_wizard(ctx),
            "filter" => self.mode = Mode::Filter(filter_form(&self.filter)),
            "refresh" => self.reload(ctx),
            _ => return false,
        }
        true
    }

    fn has_unsaved_input(&self) -> bool {
        self.wizard
            .as_ref()
            .is_some_and(DeregisterWizard::has_unsaved_input)
            || self
                .credentials
                .as_ref()
                .is_some_and(CredentialsForm::has_unsaved_input)
            || matches!(&self.mode, Mode::Filter(f) if f.is_dirty())
    }

    fn draw(
        &mut self,
        frame: &mut Frame,
        area: Rect,
        theme: &Theme,
        _keys: &crate::ui::keymap::Keymap,
        focused: bool,
    ) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(if focused {
                theme.border_focus
            } else {
                theme.border
            })
            .title(Line::from(vec![
                Span::styled(" Registrations ", theme.title),
                Span::styled(
                    format!("— {}{} ", describe(&self.filter), self.sort_note()),
                    theme.muted,
                ),
            ]));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let buf = frame.buffer_mut();
        match &mut self.mode {
            Mode::Detail => {
                if let Some(d) = &mut self.detail {
                    let view = detail::build(&d.registration, &d.extras, theme);
                    ratatui::widgets::StatefulWidget::render(view, inner, buf, &mut d.state);
                }
            }
            Mode::Filter(form) => form.render(inner, buf, theme),
            Mode::List => self.table.render(inner, buf, theme, &self.columns, focused),
        }
        if let Some(wizard) = &mut self.wizard {
            wizard.render(inner, buf, theme);
        }
        if let Some(form) = &mut self.credentials {
            form.render(inner, buf, theme);
        }
        if let Some(confirm) = &self.confirm {
            confirm.render(inner, buf, theme);
        }
    }
}
