//! The deregistration wizard: the registration, the reason, the closure date, the
//! acknowledgement that a final return is owed, a review of exactly what will be sent, and the
//! state code typed to confirm. Every step is checked by `rules::deregistration`, the same rule
//! the service applies, so the wizard cannot send a body the service would refuse; a refusal
//! the service still makes (a 422) lands under the field it names, and nothing typed is lost.

use chrono::{NaiveDate, Utc};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use serde_json::{Map, Value};

use crate::effect::{Failure, FailureKind};
use crate::model::{DeregistrationReason, DeregistrationRequest, FieldError, Registration};
use crate::rules;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{
    Choice, FieldKind, FieldSpec, Form, FormOutcome, FormValues, Review, TypedConfirmation,
    TypedOutcome,
};

/// The steps, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Registration,
    Reason,
    ClosureDate,
    Acknowledgement,
    Review,
    Confirm,
}

impl Step {
    const ALL: [Step; 6] = [
        Step::Registration,
        Step::Reason,
        Step::ClosureDate,
        Step::Acknowledgement,
        Step::Review,
        Step::Confirm,
    ];

    fn title(self) -> &'static str {
        match self {
            Step::Registration => "The registration",
            Step::Reason => "Reason",
            Step::ClosureDate => "Closure date",
            Step::Acknowledgement => "Final return",
            Step::Review => "Review what will be sent",
            Step::Confirm => "Confirm",
        }
    }

    fn number(self) -> usize {
        Step::ALL.iter().position(|s| *s == self).unwrap_or(0) + 1
    }

    fn next(self) -> Step {
        Step::ALL.get(self.number()).copied().unwrap_or(self)
    }

    fn previous(self) -> Option<Step> {
        self.number().checked_sub(2).map(|i| Step::ALL[i])
    }

    /// The step holding the wire field `name`.
    fn of_field(name: &str) -> Option<Step> {
        match name {
            "reason" => Some(Step::Reason),
            "closure_date" => Some(Step::ClosureDate),
            "final_return_acknowledged" => Some(Step::Acknowledgement),
            _ => None,
        }
    }
}

/// What the wizard asks of its pane.
#[derive(Debug, Clone, PartialEq)]
pub enum WizardEvent {
    None,
    /// Close the wizard (nothing was sent, or it was and succeeded).
    Close,
    /// Ask before closing: typed input would be lost.
    AskDiscard,
    /// Send this checked body.
    Send(DeregistrationRequest),
}

/// A form of one step: its field, checked by the deregistration rule alone.
fn step_form(spec: FieldSpec) -> Form {
    let field = spec.name;
    Form::new(vec![spec]).with_validator(move |values: &FormValues| {
        rules::deregistration(Some(&values.to_json()))
            .err()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.field_path() == field)
            .collect()
    })
}

/// A closure date the service accepts but that reads like a slip: before the registration
/// began, or more than a year from `today`. The request is still sent as typed.
pub fn closure_warning(
    closure: NaiveDate,
    registered: Option<NaiveDate>,
    today: NaiveDate,
) -> Option<String> {
    if let Some(registered) = registered
        && closure < registered
    {
        return Some(format!(
            "The closure date {closure} is before this registration began ({registered}). It will be sent as typed: check it is the date you mean."
        ));
    }
    let year_ahead = today.checked_add_months(chrono::Months::new(12))?;
    (closure > year_ahead).then(|| {
        format!(
            "The closure date {closure} is more than a year from today ({today}). It will be sent as typed: check it is the date you mean."
        )
    })
}

/// The wizard's state.
pub struct DeregisterWizard {
    registration: Registration,
    step: Step,
    reason: Form,
    closure_date: Form,
    acknowledgement: Form,
    review: Option<Review>,
    confirm: TypedConfirmation,
    /// Waiting for the service's answer.
    sending: bool,
    /// Why the last attempt failed, when the failure names no field.
    failure: Option<String>,
    /// What the review asks the user to look at twice (a closure date that reads like a slip).
    warning: Option<String>,
}

impl DeregisterWizard {
    pub fn new(registration: Registration) -> Self {
        let reasons = DeregistrationReason::KNOWN
            .iter()
            .map(|r| Choice::new(r.as_str(), r.as_str(), r.explanation()))
            .collect();
        let code = confirmation_code(&registration);
        DeregisterWizard {
            reason: step_form(
                FieldSpec::new("reason", "Reason", FieldKind::Select(reasons))
                    .rule("why the registration closes: ←/→ to choose")
                    .required(),
            ),
            closure_date: step_form(
                FieldSpec::new("closure_date", "Closure date", FieldKind::Date)
                    .rule("YYYY-MM-DD; a past or a future date")
                    .required(),
            ),
            acknowledgement: step_form(
                FieldSpec::new(
                    "final_return_acknowledged",
                    "I acknowledge that a final return is owed for this registration",
                    FieldKind::Checkbox,
                )
                .rule("space to tick; required")
                .required(),
            ),
            review: None,
            confirm: TypedConfirmation::new(code),
            registration,
            step: Step::Registration,
            sending: false,
            failure: None,
            warning: None,
        }
    }

    /// The warning the review step shows, if any.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    pub fn step(&self) -> Step {
        self.step
    }

    pub fn registration(&self) -> &Registration {
        &self.registration
    }

    pub fn is_sending(&self) -> bool {
        self.sending
    }

    /// Whether anything typed would be lost by closing.
    pub fn has_unsaved_input(&self) -> bool {
        [&self.reason, &self.closure_date, &self.acknowledgement]
            .iter()
            .any(|f| f.is_dirty())
    }

    /// The body the steps make, exactly as it would be sent.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        for form in [&self.reason, &self.closure_date, &self.acknowledgement] {
            if let Value::Object(fields) = form.to_json() {
                body.extend(fields);
            }
        }
        Value::Object(body)
    }

    fn form_mut(&mut self, step: Step) -> Option<&mut Form> {
        match step {
            Step::Reason => Some(&mut self.reason),
            Step::ClosureDate => Some(&mut self.closure_date),
            Step::Acknowledgement => Some(&mut self.acknowledgement),
            _ => None,
        }
    }

    /// Places field errors under their fields and goes to the first step in error. Returns
    /// whether any error named a field of the wizard.
    fn place_errors(&mut self, errors: &[FieldError]) -> bool {
        let mut first: Option<Step> = None;
        for step in [Step::Reason, Step::ClosureDate, Step::Acknowledgement] {
            let mine: Vec<FieldError> = errors
                .iter()
                .filter(|e| Step::of_field(&e.field_path()) == Some(step))
                .cloned()
                .collect();
            if let Some(form) = self.form_mut(step) {
                form.set_errors(&mine);
            }
            if !mine.is_empty() && first.is_none() {
                first = Some(step);
            }
        }
        if let Some(step) = first {
            self.step = step;
        }
        first.is_some()
    }

    /// Handles one key.
    pub fn handle_key(&mut self, key: KeyEvent) -> WizardEvent {
        if self.sending {
            return WizardEvent::None;
        }
        match self.step {
            Step::Registration => match key.code {
                KeyCode::Enter if self.registration.status.can_deregister() => {
                    self.step = Step::Reason;
                    WizardEvent::None
                }
                KeyCode::Esc | KeyCode::Char('q') => self.close(),
                _ => WizardEvent::None,
            },
            Step::Reason | Step::ClosureDate | Step::Acknowledgement => {
                let step = self.step;
                let outcome = self
                    .form_mut(step)
                    .map_or(FormOutcome::None, |f| f.handle_key(key));
                match outcome {
                    FormOutcome::Submit => {
                        self.step = step.next();
                        if self.step == Step::Review {
                            self.enter_review();
                        }
                    }
                    FormOutcome::Cancel | FormOutcome::AskDiscard => {
                        self.step = step.previous().unwrap_or(step);
                    }
                    FormOutcome::None | FormOutcome::Invalid => {}
                }
                WizardEvent::None
            }
            Step::Review => match key.code {
                KeyCode::Enter => {
                    self.step = Step::Confirm;
                    WizardEvent::None
                }
                KeyCode::Esc => {
                    self.step = Step::Acknowledgement;
                    WizardEvent::None
                }
                _ => {
                    if let Some(review) = &mut self.review {
                        review.handle_key(key);
                    }
                    WizardEvent::None
                }
            },
            Step::Confirm => match self.confirm.handle_key(key) {
                TypedOutcome::Confirmed => self.send(),
                TypedOutcome::Cancelled => {
                    self.step = Step::Review;
                    WizardEvent::None
                }
                TypedOutcome::None => WizardEvent::None,
            },
        }
    }

    fn close(&self) -> WizardEvent {
        if self.has_unsaved_input() {
            WizardEvent::AskDiscard
        } else {
            WizardEvent::Close
        }
    }

    /// Esc from anywhere but a text step: back out of the wizard.
    pub fn request_close(&self) -> WizardEvent {
        self.close()
    }

    fn enter_review(&mut self) {
        self.failure = None;
        match rules::deregistration(Some(&self.body())) {
            Ok(body) => {
                self.warning = closure_warning(
                    body.closure_date,
                    self.registration.registration_date,
                    Utc::now().date_naive(),
                );
                self.review = Some(Review::new(&self.body()));
            }
            Err(errors) => {
                self.place_errors(&errors);
            }
        }
    }

    /// Checks the whole body once more and hands it over to be sent.
    fn send(&mut self) -> WizardEvent {
        match rules::deregistration(Some(&self.body())) {
            Ok(request) => {
                self.sending = true;
                self.failure = None;
                WizardEvent::Send(request)
            }
            Err(errors) => {
                self.place_errors(&errors);
                WizardEvent::None
            }
        }
    }

    /// The service refused: its field errors go under their fields, anything else shows on the
    /// review; every value stays as typed, ready to be fixed and sent again.
    pub fn failed(&mut self, failure: &Failure) {
        self.sending = false;
        let placed = failure.kind == FailureKind::Validation && self.place_errors(&failure.fields);
        if !placed {
            self.failure = Some(failure.message.clone());
            self.step = Step::Review;
        }
        self.confirm = TypedConfirmation::new(confirmation_code(&self.registration));
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.clamp(20, 84);
        let height = area.height.clamp(8, 22);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        Clear.render(popup, buf);
        let title = format!(
            " Deregister {} — step {} of {}: {} ",
            jurisdiction(&self.registration),
            self.step.number(),
            Step::ALL.len(),
            self.step.title()
        );
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focus)
            .title(Span::styled(title, theme.title));
        let inner = block.inner(popup);
        block.render(popup, buf);
        let [body, failure, hints] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(2),
            Constraint::Length(1),
        ])
        .areas(inner);
        match self.step {
            Step::Registration => self.render_registration(body, buf, theme),
            Step::Reason => self.reason.render(body, buf, theme),
            Step::ClosureDate => self.closure_date.render(body, buf, theme),
            Step::Acknowledgement => self.acknowledgement.render(body, buf, theme),
            Step::Review => {
                if let Some(review) = &mut self.review {
                    review.render(body, buf, theme);
                }
            }
            Step::Confirm => self.confirm.render(body, buf, theme),
        }
        if let (Some(warning), None, Step::Review | Step::Confirm) =
            (&self.warning, &self.failure, self.step)
        {
            Paragraph::new(Line::from(Span::styled(
                format!("⚠ {warning}"),
                theme.warning,
            )))
            .wrap(Wrap { trim: true })
            .render(failure, buf);
        } else if let Some(message) = &self.failure {
            Paragraph::new(Line::from(Span::styled(message.clone(), theme.error)))
                .wrap(Wrap { trim: true })
                .render(failure, buf);
        } else if self.sending {
            Paragraph::new(Line::from(Span::styled(
                "sending the request…",
                theme.muted,
            )))
            .render(failure, buf);
        }
        let hint = match self.step {
            Step::Registration if !self.registration.status.can_deregister() => "esc close",
            Step::Registration => "enter next   esc close",
            Step::Review => "enter confirm   esc back",
            Step::Confirm => "enter send   esc back",
            _ => "enter next   esc back",
        };
        Paragraph::new(Line::from(Span::styled(hint, theme.muted))).render(hints, buf);
    }

    fn render_registration(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let r = &self.registration;
        let label = |t: &str| Span::styled(format!("{t:<18}"), theme.muted);
        let mut lines = vec![
            Line::from(vec![label("Jurisdiction"), Span::raw(jurisdiction(r))]),
            Line::from(vec![
                label("Status"),
                Span::styled(r.status.to_string(), theme.title),
            ]),
            Line::from(vec![
                label("Sales tax ID"),
                Span::raw(r.sales_tax_id.clone().unwrap_or_else(|| "—".into())),
            ]),
            Line::from(vec![
                label("Filing frequency"),
                Span::raw(r.filing_frequency.to_string()),
            ]),
            Line::default(),
        ];
        if r.status.can_deregister() {
            lines.push(Line::from(Span::raw(
                "The service will be asked to close this registration. Nothing is sent before the last step.",
            )));
        } else {
            lines.push(Line::from(Span::styled(
                format!(
                    "This registration is {}: a deregistration cannot be requested.",
                    r.status
                ),
                theme.error,
            )));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(area, buf);
    }
}

/// `California (US-CA)`, `European Union (ZZ_EU)`.
pub fn jurisdiction(r: &Registration) -> String {
    let code = if r.state_code.is_empty() {
        r.country_code.clone()
    } else {
        format!("{}-{}", r.country_code, r.state_code)
    };
    if r.state_name.is_empty() {
        code
    } else {
        format!("{} ({code})", r.state_name)
    }
}

/// What the user types to confirm: the state code, or the country code of a country-level
/// registration.
fn confirmation_code(r: &Registration) -> String {
    if r.state_code.is_empty() {
        r.country_code.clone()
    } else {
        r.state_code.clone()
    }
}

#[cfg(test)]
mod warning_tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn a_closure_date_that_reads_like_a_slip_is_pointed_out() {
        let today = day("2026-11-24");
        let registered = Some(day("2024-04-25"));
        let before = closure_warning(day("1900-01-01"), registered, today).unwrap();
        assert!(
            before.contains("before this registration began (2024-04-25)"),
            "{before}"
        );
        let far = closure_warning(day("9999-12-31"), registered, today).unwrap();
        assert!(far.contains("more than a year from today"), "{far}");
        assert_eq!(closure_warning(day("2026-12-31"), registered, today), None);
        assert_eq!(closure_warning(day("2024-04-25"), registered, today), None);
        assert_eq!(
            closure_warning(day("2027-11-24"), None, today),
            None,
            "a year to the day"
        );
    }
}
