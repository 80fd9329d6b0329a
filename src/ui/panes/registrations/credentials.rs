//! The portal credentials form (Tenanted API): the username, password and PIN the state portal
//! takes, and the state's access code for a California or Idaho registration. Secrets are typed
//! masked and never shown again once saved; only the fields the user filled are sent (an empty
//! field keeps its saved value). Before anything is sent the body is checked by the same rules
//! the service applies, so a refusal shows under its field with nothing sent; a refusal the
//! service still makes lands at the field it names, and nothing typed is lost. The saved values
//! are read back in clear only when the user asks (Ctrl-R), and shown until the form closes.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use serde_json::Value;

use super::wizard::jurisdiction;
use crate::effect::Failure;
use crate::model::casing::{camel_to_snake, to_camel};
use crate::model::tenanted::{ApiVersion, CredentialsUpdate, CredentialsUpdated, RevealedFields};
use crate::model::{FieldError, LocPart, Registration};
use crate::rules::{self, CredentialsRefusal};
use crate::ui::pane::{Ctx, Level};
use crate::ui::shell::NEEDS_TENANTED;
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormOutcome, FormValues};
use crate::ui::widgets::keys::{is_ctrl, is_press};

/// `C`: the portal credentials form of `registration`, when its state keeps an access code
/// and the client speaks the Tenanted API; otherwise says why not.
pub(super) fn open(registration: Option<&Registration>, ctx: &mut Ctx) -> Option<CredentialsForm> {
    let Some(version) = ctx.tenanted() else {
        ctx.notify(
            Level::Error,
            format!("Saving portal credentials {NEEDS_TENANTED}."),
        );
        return None;
    };
    let Some(r) = registration else {
        ctx.notify(Level::Info, "Select a registration first.");
        return None;
    };
    if code_field(r).is_none() {
        ctx.notify(
            Level::Info,
            format!(
                "Portal access codes are kept for {STATES_WITH_CODES} registrations; {} has none.",
                jurisdiction(r)
            ),
        );
        return None;
    }
    Some(CredentialsForm::new(r.clone(), version))
}

/// The words of a save the service acknowledged.
pub(super) fn saved_in_words(form: Option<&CredentialsForm>, done: &CredentialsUpdated) -> String {
    let jurisdiction = form.map_or_else(
        || done.registration_id.clone(),
        |f| jurisdiction(f.registration()),
    );
    let complete = match done.has_all_credentials {
        Some(true) => "; every credential the portal needs is on file",
        Some(false) => "; some credentials the portal needs are still missing",
        None => "",
    };
    format!(
        "Saved the portal credentials of {jurisdiction}: {}{complete}.",
        updated_in_words(&done.updated_fields)
    )
}

/// The wire field of California's code, as the form names it.
pub const CA_CODE: &str = "jurisdiction_specific_fields.cdtfa_third_party_access_security_code";
/// The wire field of Idaho's code, as the form names it.
pub const ID_CODE: &str = "jurisdiction_specific_fields.access_code";

/// The states whose portal takes an access code kept by the service, in words.
pub const STATES_WITH_CODES: &str =
    "California (CDTFA third-party access security code) and Idaho (access code)";

/// The state's access code field: its wire name and its label, or `None` for a state without.
pub fn code_field(r: &Registration) -> Option<(&'static str, &'static str)> {
    match (r.country_code.as_str(), r.state_code.as_str()) {
        ("US", "CA") => Some((CA_CODE, "CDTFA third-party access security code")),
        ("US", "ID") => Some((ID_CODE, "Idaho access code")),
        _ => None,
    }
}

/// What the form asks of its pane.
#[derive(Debug, Clone, PartialEq)]
pub enum CredentialsEvent {
    None,
    /// The rules refused a submit: say this in the footer.
    Refused(String),
    Close,
    AskDiscard,
    /// Send this body (it passed the rules).
    Send(CredentialsUpdate),
    /// Read the saved values back.
    Reveal,
}

/// The open credentials form of one registration.
pub struct CredentialsForm {
    registration: Registration,
    form: Form,
    /// The saved values, read back on request; dropped with the form.
    revealed: Option<RevealedFields>,
    sending: bool,
}

impl CredentialsForm {
    /// The form for `registration` (in California or Idaho) on release `version`.
    pub fn new(registration: Registration, version: ApiVersion) -> Self {
        let mut specs = vec![
            FieldSpec::new("username", "Portal username", FieldKind::Text)
                .rule("leave empty to keep the saved username"),
            FieldSpec::new("password", "Portal password", FieldKind::Masked)
                .rule("typed hidden; leave empty to keep the saved password"),
            FieldSpec::new("pin", "Portal PIN (optional)", FieldKind::Masked)
                .rule("typed hidden; leave empty to keep the saved PIN"),
        ];
        if let Some((name, label)) = code_field(&registration)
            && version.includes(ApiVersion::PORTAL_CODES)
        {
            specs.push(
                FieldSpec::new(name, label, FieldKind::Masked)
                    .rule("typed hidden; kept encrypted, never shown again once saved"),
            );
        }
        let checked = registration.clone();
        let form =
            Form::new(specs).with_validator(move |values| refusals(values, &checked, version));
        CredentialsForm {
            registration,
            form,
            revealed: None,
            sending: false,
        }
    }

    pub fn registration(&self) -> &Registration {
        &self.registration
    }

    pub fn has_unsaved_input(&self) -> bool {
        self.form.is_dirty()
    }

    pub fn form_mut(&mut self) -> &mut Form {
        &mut self.form
    }

    /// Handles one key: the form's, plus Ctrl-R to reveal the saved values.
    pub fn handle_key(&mut self, key: KeyEvent) -> CredentialsEvent {
        if is_press(&key) && is_ctrl(&key, 'r') {
            return CredentialsEvent::Reveal;
        }
        match self.form.handle_key(key) {
            FormOutcome::Invalid => self
                .form
                .refusal()
                .map_or(CredentialsEvent::None, CredentialsEvent::Refused),
            FormOutcome::None => CredentialsEvent::None,
            FormOutcome::Cancel => CredentialsEvent::Close,
            FormOutcome::AskDiscard => CredentialsEvent::AskDiscard,
            FormOutcome::Submit => match serde_json::from_value(self.form.to_json()) {
                Ok(body) => {
                    self.sending = true;
                    self.form.set_busy(true);
                    CredentialsEvent::Send(body)
                }
                Err(e) => {
                    self.form.set_errors(&[body_error(format!(
                        "the form could not be read as credentials: {e}"
                    ))]);
                    CredentialsEvent::None
                }
            },
        }
    }

    /// The service refused the body: its errors go under the fields they name (the message on
    /// the form when it names none); the values stay.
    pub fn failed(&mut self, failure: &Failure) {
        self.sending = false;
        self.form.set_busy(false);
        if failure.fields.is_empty() {
            self.form.set_errors(&[body_error(failure.message.clone())]);
        } else {
            self.form.set_errors(&failure.fields);
        }
    }

    /// The saved values, read back on request.
    pub fn revealed(&mut self, fields: RevealedFields) {
        self.revealed = Some(fields);
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let popup = dialog::centered(area, 110, 30, buf);
        let title = format!(
            " Portal credentials — {} ",
            jurisdiction(&self.registration)
        );
        let block = dialog::framed(title, theme);
        let inner = block.inner(popup);
        block.render(popup, buf);
        let [note, body, status, hints] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        Paragraph::new(Line::from(Span::styled(
            "Only the fields you fill are sent; an empty field keeps its saved value.",
            theme.muted,
        )))
        .wrap(Wrap { trim: true })
        .render(note, buf);
        match &self.revealed {
            Some(fields) => {
                let [form, saved] =
                    Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                        .areas(body);
                self.form.render(form, buf, theme);
                let code = code_field(&self.registration).map(|(_, label)| label);
                render_revealed(fields, code, saved, buf, theme);
            }
            None => self.form.render(body, buf, theme),
        }
        if self.sending {
            Paragraph::new(Line::from(Span::styled("saving…", theme.muted))).render(status, buf);
        }
        Paragraph::new(Line::from(Span::styled(
            "tab next field   ctrl-s save   ctrl-r show saved values   esc close",
            theme.muted,
        )))
        .render(hints, buf);
    }
}

/// The saved credentials in clear, beside the form.
fn render_revealed(
    fields: &RevealedFields,
    code_label: Option<&str>,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let block = Block::default()
        .borders(Borders::LEFT)
        .border_style(theme.border)
        .title(Span::styled(" Saved values (revealed) ", theme.warning));
    let inner = block.inner(area);
    block.render(area, buf);
    Paragraph::new(revealed_lines(fields, code_label, theme))
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

/// The lines of the saved credentials: username, password, PIN, the state's code, and the
/// security questions with their answers.
pub fn revealed_lines(
    fields: &RevealedFields,
    code_label: Option<&str>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let row = |label: &str, value: &Option<String>| {
        Line::from(vec![
            Span::styled(format!(" {label}: "), theme.muted),
            match value.as_deref().filter(|v| !v.is_empty()) {
                Some(v) => Span::raw(v.to_owned()),
                None => Span::styled("none saved", theme.muted),
            },
        ])
    };
    let mut lines = vec![
        row("Username", &fields.username),
        row("Password", &fields.password),
        row("PIN", &fields.pin),
    ];
    if let Some(label) = code_label {
        let code = fields
            .cdtfa_third_party_access_security_code
            .clone()
            .or_else(|| fields.access_code.clone());
        lines.push(row(label, &code));
    }
    if fields.security_questions.is_empty() {
        lines.push(Line::from(Span::styled(
            " No security questions saved",
            theme.muted,
        )));
    }
    for (i, q) in fields.security_questions.iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(format!(" Question {}: ", i + 1), theme.muted),
            Span::raw(q.question.clone()),
        ]));
        lines.push(Line::from(vec![
            Span::styled("   Answer: ", theme.muted),
            Span::raw(q.answer.clone()),
        ]));
    }
    lines
}

/// An error about the body as a whole (shown above the fields).
fn body_error(message: String) -> FieldError {
    FieldError::new(
        "value_error",
        vec![LocPart::Key("body".into())],
        message,
        Value::Null,
    )
}

/// What the rules refuse in the values, before anything is sent: the service's own rules on
/// the body (blank values, codes of the release and of the registration's state) and its rule
/// that the registration must have its details on file. Paths come back in the form's
/// `snake_case`.
fn refusals(
    values: &FormValues,
    registration: &Registration,
    version: ApiVersion,
) -> Vec<FieldError> {
    let body = values.to_json();
    if body.as_object().is_none_or(serde_json::Map::is_empty) {
        return vec![body_error(
            "Nothing to save: fill the fields to change (an empty field keeps its saved value)."
                .into(),
        )];
    }
    let mut errors =
        match rules::credentials_update(Some(&to_camel(body)), &registration.state_code, version) {
            Ok(_) => Vec::new(),
            Err(CredentialsRefusal::Invalid(errors)) => errors,
            Err(CredentialsRefusal::WrongState(error)) => vec![error],
        };
    for error in &mut errors {
        for part in &mut error.loc {
            if let LocPart::Key(key) = part {
                *key = camel_to_snake(key);
            }
        }
    }
    let missing = registration.missing_for_credentials();
    if !missing.is_empty() {
        errors.push(body_error(format!(
            "{} has no {} on file: the service keeps portal credentials only for a registration \
             with its business name, registration type and sales tax id. Nothing was sent.",
            jurisdiction(registration),
            missing.join(", ")
        )));
    }
    errors
}

/// The changed fields of an answer in words: `username, access code`.
pub fn updated_in_words(fields: &[String]) -> String {
    let words: Vec<&str> = fields
        .iter()
        .map(|f| match f.rsplit('.').next().unwrap_or(f) {
            "username" => "username",
            "password" => "password",
            "pin" => "PIN",
            "cdtfaThirdPartyAccessSecurityCode" | "cdtfa_third_party_access_security_code" => {
                "CDTFA third-party access security code"
            }
            "accessCode" | "access_code" => "access code",
            other => other,
        })
        .collect();
    if words.is_empty() {
        "nothing changed".to_owned()
    } else {
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyModifiers};
    use serde_json::json;

    use super::*;
    use crate::effect::FailureKind;

    fn registration(state: &str, fields: Value) -> Registration {
        serde_json::from_value(json!({
            "id": "regs_1", "status": "REGISTERED", "country_code": "US", "state_code": state,
            "state_name": "Idaho", "filing_frequency": "MONTHLY", "registration_type": "OTHER",
            "jurisdiction_specific_fields": fields,
        }))
        .unwrap()
    }

    fn complete() -> Value {
        json!({"business_name": "Acme", "registration_type": "SALES_TAX", "sales_tax_id": "1"})
    }

    fn press(
        form: &mut CredentialsForm,
        code: KeyCode,
        modifiers: KeyModifiers,
    ) -> CredentialsEvent {
        form.handle_key(KeyEvent::new(code, modifiers))
    }

    fn type_text(form: &mut CredentialsForm, text: &str) {
        for c in text.chars() {
            press(form, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    fn screen(form: &mut CredentialsForm) -> String {
        let mut buf = Buffer::empty(Rect::new(0, 0, 100, 34));
        form.render(buf.area, &mut buf, &Theme::default());
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn only_filled_fields_are_sent_in_the_shape_of_the_update() {
        let mut form = CredentialsForm::new(registration("ID", complete()), ApiVersion::LATEST);
        type_text(&mut form, "pine");
        for _ in 0..3 {
            press(&mut form, KeyCode::Tab, KeyModifiers::NONE);
        }
        type_text(&mut form, "12345678");
        let event = press(&mut form, KeyCode::Char('s'), KeyModifiers::CONTROL);
        let CredentialsEvent::Send(body) = event else {
            panic!("sent: {event:?}");
        };
        assert_eq!(body.username.as_deref(), Some("pine"));
        assert_eq!(body.password, None, "empty keeps the saved password");
        assert_eq!(
            body.jurisdiction_specific_fields
                .and_then(|c| c.access_code)
                .as_deref(),
            Some("12345678")
        );
        assert!(!screen(&mut form).contains("12345678"), "typed masked");
    }

    #[test]
    fn a_service_refusal_lands_at_its_field_and_the_values_stay() {
        let mut form = CredentialsForm::new(registration("ID", complete()), ApiVersion::LATEST);
        type_text(&mut form, "pine");
        let event = press(&mut form, KeyCode::Char('s'), KeyModifiers::CONTROL);
        assert!(matches!(event, CredentialsEvent::Send(_)), "{event:?}");
        form.failed(&Failure {
            kind: FailureKind::Validation,
            message: "The request failed validation".into(),
            fields: vec![FieldError::new(
                "value_error",
                vec!["body".into(), "username".into()],
                "username is already used by another registration",
                Value::Null,
            )],
        });
        let shown = screen(&mut form);
        let username = shown.find("Portal username").unwrap();
        let error = shown.find("username is already used").unwrap();
        let password = shown.find("Portal password").unwrap();
        assert!(username < error && error < password, "{shown}");
        assert!(shown.contains("pine"), "the value stays: {shown}");
    }

    #[test]
    fn rule_five_and_older_releases_are_checked_before_sending() {
        let lacking = json!({"business_name": "Acme", "registration_type": "SALES_TAX"});
        let mut form = CredentialsForm::new(registration("ID", lacking), ApiVersion::LATEST);
        type_text(&mut form, "pine");
        let event = press(&mut form, KeyCode::Char('s'), KeyModifiers::CONTROL);
        assert!(
            matches!(&event, CredentialsEvent::Refused(why) if why.starts_with("Not sent: ")),
            "nothing is sent, and the footer says why: {event:?}"
        );
        assert!(screen(&mut form).contains("has no sales tax id on file"));

        let before_codes = ApiVersion::DEREGISTER_BODY_REQUIRED;
        let mut form = CredentialsForm::new(registration("ID", complete()), before_codes);
        assert!(
            !screen(&mut form).contains("Idaho access code"),
            "no code field before the release that has codes"
        );
        let event = press(&mut form, KeyCode::Char('s'), KeyModifiers::CONTROL);
        assert!(
            matches!(event, CredentialsEvent::None | CredentialsEvent::Refused(_)),
            "an empty form sends nothing: {event:?}"
        );
        assert!(screen(&mut form).contains("Nothing to save"));
    }
}
