//! The deregistration wizard: the registration, the reason, the closure date, the
//! acknowledgement that a final return is owed, a review of exactly what will be sent (with the
//! returns of the jurisdiction still not filed, asked of the service as the review opens), and
//! the state code typed to confirm. Every step is checked by `rules::deregistration`, the same rule
//! the service applies, so the wizard cannot send a body the service would refuse; a refusal
//! the service still makes (a 422) lands under the field it names, and nothing typed is lost.

use std::fmt::Write as _;

use chrono::NaiveDate;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use serde_json::{Map, Value};

use crate::effect::{Failure, FailureKind};
use crate::model::filters::FilingFilter;
use crate::model::{
    DeregistrationReason, DeregistrationRequest, FieldError, Filing, FilingStatus, Registration,
};
use crate::rules;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog;
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
    /// The rules refused a step: say this in the footer.
    Refused(String),
    /// Close the wizard (nothing was sent, or it was and succeeded).
    Close,
    /// Ask before closing: typed input would be lost.
    AskDiscard,
    /// Send this checked body.
    Send(DeregistrationRequest),
    /// Ask the service for the filings of this filter (the review opened), and hand them to
    /// [`DeregisterWizard::filings_loaded`].
    LoadFilings(FilingFilter),
}

/// The unfiled returns the review lists, as far as they are known.
#[derive(Debug, Clone, PartialEq)]
pub enum UnfiledReturns {
    /// Not asked yet.
    NotAsked,
    /// Asked, no answer yet.
    Loading,
    /// The registration's returns not filed, by due date.
    Loaded(Vec<Filing>),
    /// The service could not say; the request can still be sent.
    Failed(String),
}

/// How many unfiled returns the review lists before it says how many more there are.
const UNFILED_SHOWN: usize = 5;

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
    /// A closure date that reads like a slip, as first typed, and what the closure step says
    /// of it: the step asked for it once more, and goes on only when the same date is typed
    /// again.
    doubted: Option<(NaiveDate, String)>,
    /// The closure date typed twice: it goes on without asking again.
    typed_twice: Option<NaiveDate>,
    /// The jurisdiction's returns not filed yet, shown on the review.
    unfiled: UnfiledReturns,
}

impl DeregisterWizard {
    pub fn new(registration: Registration) -> Self {
        let reasons = DeregistrationReason::KNOWN
            .iter()
            .map(|r| {
                Choice::new(
                    r.as_str(),
                    crate::model::format::code_words(r.as_str()),
                    r.explanation(),
                )
            })
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
            doubted: None,
            typed_twice: None,
            unfiled: UnfiledReturns::NotAsked,
        }
    }

    /// On leaving the closure step: whether to go on. A date before the registration began,
    /// or more than a year ahead, is asked for once more (the field emptied, the reason said
    /// under it); the step goes on when the same date is typed again, so that Enter pressed
    /// through the warning never takes it to the review.
    fn closure_typed_twice(&mut self) -> bool {
        let typed = self.closure_date.to_json();
        let Some(date) = typed["closure_date"]
            .as_str()
            .and_then(|d| d.parse::<NaiveDate>().ok())
        else {
            return true;
        };
        let today = crate::clock::today();
        let Some(warning) = closure_warning(date, self.registration.registration_date, today)
        else {
            self.doubted = None;
            return true;
        };
        if self.typed_twice == Some(date) || self.doubted.as_ref().is_some_and(|d| d.0 == date) {
            self.typed_twice = Some(date);
            self.doubted = None;
            return true;
        }
        let said = warning.replace(
            "It will be sent as typed: check it is the date you mean.",
            "Check it is the date you mean:",
        );
        self.doubted = Some((
            date,
            format!("{said} type {date} once more to keep it, or another date."),
        ));
        self.closure_date.fill("closure_date", "");
        false
    }

    /// The filings the review asks for: those of the registration's jurisdiction that are not
    /// filed (unfiled, filing or paused).
    pub fn unfiled_filter(&self) -> FilingFilter {
        let r = &self.registration;
        FilingFilter {
            status_in: vec![
                FilingStatus::Unfiled,
                FilingStatus::Filing,
                FilingStatus::Paused,
            ],
            state_code: Some(r.state_code.clone()).filter(|s| !s.is_empty()),
            country_code: vec![r.country_code.clone()],
            ..FilingFilter::default()
        }
    }

    /// The unfiled returns as far as they are known.
    pub fn unfiled(&self) -> &UnfiledReturns {
        &self.unfiled
    }

    /// The service's answer to [`WizardEvent::LoadFilings`]: the filings of this registration
    /// (others of the same jurisdiction are left out), by due date; or why they could not be read.
    pub fn filings_loaded(&mut self, result: Result<Vec<Filing>, String>) {
        self.unfiled = match result {
            Ok(filings) => {
                let mut mine: Vec<Filing> = filings
                    .into_iter()
                    .filter(|f| f.registration_id == self.registration.id)
                    .filter(|f| f.status != Some(FilingStatus::Filed))
                    .collect();
                mine.sort_by_key(|f| (f.due_date.is_none(), f.due_date, f.start_date));
                UnfiledReturns::Loaded(mine)
            }
            Err(message) => UnfiledReturns::Failed(message),
        };
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

    /// The form of the step on screen, if it is one.
    pub fn current_form(&mut self) -> Option<&mut Form> {
        self.form_mut(self.step)
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
                    FormOutcome::Submit
                        if step == Step::ClosureDate && !self.closure_typed_twice() =>
                    {
                        return WizardEvent::Refused(
                            "Closure date: check it, then type it once more to go on".into(),
                        );
                    }
                    FormOutcome::Submit => {
                        self.step = step.next();
                        if self.step == Step::Review {
                            self.enter_review();
                            if self.step == Step::Review
                                && matches!(
                                    self.unfiled,
                                    UnfiledReturns::NotAsked | UnfiledReturns::Failed(_)
                                )
                            {
                                self.unfiled = UnfiledReturns::Loading;
                                return WizardEvent::LoadFilings(self.unfiled_filter());
                            }
                        }
                    }
                    FormOutcome::Cancel | FormOutcome::AskDiscard => {
                        self.step = step.previous().unwrap_or(step);
                    }
                    FormOutcome::Invalid => {
                        if let Some(refusal) = self.form_mut(step).and_then(|f| f.refusal()) {
                            return WizardEvent::Refused(refusal);
                        }
                    }
                    FormOutcome::None => {}
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
                    crate::clock::today(),
                );
                let forms = [&self.reason, &self.closure_date, &self.acknowledgement];
                self.review = Some(
                    Review::new(&self.body()).in_words(forms.into_iter().flat_map(Form::specs)),
                );
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
        let popup = dialog::centered(area, 84, 22, buf);
        let title = format!(
            " Deregister {} — step {} of {}: {} ",
            jurisdiction(&self.registration),
            self.step.number(),
            Step::ALL.len(),
            self.step.title()
        );
        let block = dialog::framed(title, theme);
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
                let lines = self.unfiled_lines(crate::clock::today(), theme);
                let room = body.height.saturating_sub(4).max(1);
                let height = u16::try_from(lines.len()).unwrap_or(u16::MAX).min(room);
                let [unfiled, review_area] =
                    Layout::vertical([Constraint::Length(height), Constraint::Min(1)]).areas(body);
                Paragraph::new(lines)
                    .wrap(Wrap { trim: true })
                    .render(unfiled, buf);
                if let Some(review) = &mut self.review {
                    review.render(review_area, buf, theme);
                }
            }
            Step::Confirm => self.confirm.render(body, buf, theme),
        }
        let warning = match self.step {
            Step::Review | Step::Confirm => self.warning.as_deref(),
            Step::ClosureDate => self.doubted.as_ref().map(|d| d.1.as_str()),
            _ => None,
        };
        if let (Some(warning), None) = (warning, &self.failure) {
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

    /// What the review says of the returns still owed: that a final return is owed, and the
    /// unfiled returns (period, due date, status, amount; overdue ones marked on `today`), or
    /// why they are not known. Ends with a blank line before the body.
    pub fn unfiled_lines(&self, today: NaiveDate, theme: &Theme) -> Vec<Line<'static>> {
        let place = jurisdiction(&self.registration);
        let owed =
            format!("A final return is owed for {place}, for the period up to the closure date.");
        let mut lines = vec![Line::from(Span::styled(owed, theme.warning))];
        match &self.unfiled {
            UnfiledReturns::NotAsked | UnfiledReturns::Loading => lines.push(Line::from(
                Span::styled("Looking for returns not filed yet…", theme.muted),
            )),
            UnfiledReturns::Failed(message) => lines.push(Line::from(Span::styled(
                format!(
                    "The returns not filed yet could not be read ({message}); the request can still be sent."
                ),
                theme.error,
            ))),
            UnfiledReturns::Loaded(filings) if filings.is_empty() => lines.push(Line::from(
                Span::styled("No earlier return is left unfiled.", theme.muted),
            )),
            UnfiledReturns::Loaded(filings) => {
                let overdue = filings
                    .iter()
                    .filter(|f| f.due_date.is_some_and(|d| d < today))
                    .count();
                let mut head = format!(
                    "{} earlier return{} not filed yet",
                    filings.len(),
                    if filings.len() == 1 { " is" } else { "s are" }
                );
                if overdue > 0 {
                    let _ = write!(head, ", {overdue} overdue");
                }
                head.push_str(if filings.len() == 1 {
                    ": file it too."
                } else {
                    ": file them too."
                });
                lines.push(Line::from(Span::styled(head, theme.warning)));
                for f in filings.iter().take(UNFILED_SHOWN) {
                    lines.push(unfiled_line(f, today, theme));
                }
                if filings.len() > UNFILED_SHOWN {
                    lines.push(Line::from(Span::styled(
                        format!("  … and {} more", filings.len() - UNFILED_SHOWN),
                        theme.muted,
                    )));
                }
            }
        }
        lines.push(Line::default());
        lines
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

/// One unfiled return: `  2026-07-01 – 2026-09-30  due 2026-10-20  UNFILED  1,234.56 USD  OVERDUE`.
fn unfiled_line(f: &Filing, today: NaiveDate, theme: &Theme) -> Line<'static> {
    let due = f
        .due_date
        .map_or_else(|| "due —".to_owned(), |d| format!("due {}", text::date(d)));
    let status = f
        .status
        .as_ref()
        .map_or_else(|| "—".to_owned(), ToString::to_string);
    let amount = f
        .total_tax_liability
        .or(f.amount)
        .map(|a| text::money(a, f.currency.as_deref()))
        .unwrap_or_default();
    let mut spans = vec![Span::raw(format!(
        "  {}  {due}  {status}  {amount}",
        text::period(f.start_date, f.end_date)
    ))];
    if f.due_date.is_some_and(|d| d < today) {
        spans.push(Span::styled("  OVERDUE", theme.error));
    }
    Line::from(spans)
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

#[cfg(test)]
mod unfiled_tests {
    use super::*;
    use crossterm::event::KeyModifiers;
    use serde_json::json;

    fn wizard() -> DeregisterWizard {
        DeregisterWizard::new(
            serde_json::from_value(json!({
                "id": "regs_1", "status": "REGISTERED", "country_code": "US", "state_code": "TN",
                "state_name": "Tennessee", "filing_frequency": "MONTHLY",
                "registration_type": "OTHER"
            }))
            .unwrap(),
        )
    }

    fn filing(id: &str, registration: &str, start: &str, end: &str, due: &str) -> Filing {
        serde_json::from_value(json!({
            "id": id, "registration_id": registration, "status": "UNFILED",
            "start_date": start, "end_date": end, "due_date": due, "country_code": "US",
            "state_code": "TN", "total_tax_liability": "120.50", "currency": "USD"
        }))
        .unwrap()
    }

    fn key(w: &mut DeregisterWizard, code: KeyCode) -> WizardEvent {
        w.handle_key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    /// Walks to the review: the first reason, a closure date, the acknowledgement.
    fn to_review(w: &mut DeregisterWizard) -> WizardEvent {
        key(w, KeyCode::Enter);
        key(w, KeyCode::Right);
        key(w, KeyCode::Enter);
        for c in "2026-12-31".chars() {
            key(w, KeyCode::Char(c));
        }
        key(w, KeyCode::Enter);
        key(w, KeyCode::Char(' '));
        key(w, KeyCode::Enter)
    }

    fn text(w: &DeregisterWizard) -> String {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        w.unfiled_lines(today, &Theme::default())
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_review_asks_for_the_jurisdictions_returns_not_filed() {
        let mut w = wizard();
        let WizardEvent::LoadFilings(filter) = to_review(&mut w) else {
            panic!("the review asks for the unfiled returns");
        };
        assert_eq!(w.step(), Step::Review);
        assert_eq!(filter.state_code.as_deref(), Some("TN"));
        assert_eq!(filter.country_code, ["US"]);
        assert_eq!(
            filter.status_in,
            [
                FilingStatus::Unfiled,
                FilingStatus::Filing,
                FilingStatus::Paused
            ]
        );
        assert!(text(&w).contains("Looking for returns"), "{}", text(&w));

        w.filings_loaded(Ok(vec![
            filing("f2", "regs_1", "2026-11-01", "2026-11-30", "2026-12-20"),
            filing("f1", "regs_1", "2026-09-01", "2026-09-30", "2026-10-20"),
            filing("f9", "regs_other", "2025-01-01", "2025-01-31", "2025-02-20"),
        ]));
        let shown = text(&w);
        assert!(
            shown.contains("A final return is owed for Tennessee (US-TN)"),
            "{shown}"
        );
        assert!(
            shown.contains("2 earlier returns are not filed yet, 1 overdue"),
            "{shown}"
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert!(
            lines[2].contains("2026-09-01 – 2026-09-30  due 2026-10-20  UNFILED  120.50 USD")
                && lines[2].contains("OVERDUE"),
            "the earliest due first, marked overdue: {shown}"
        );
        assert!(
            lines[3].contains("2026-11-01") && !lines[3].contains("OVERDUE"),
            "{shown}"
        );
        assert!(
            !shown.contains("2025-01-01"),
            "another registration's return: {shown}"
        );
    }

    #[test]
    fn a_failed_look_up_is_said_and_the_request_still_goes() {
        let mut w = wizard();
        to_review(&mut w);
        w.filings_loaded(Err("the service did not answer".into()));
        let shown = text(&w);
        assert!(
            shown.contains("could not be read (the service did not answer)")
                && shown.contains("can still be sent"),
            "{shown}"
        );
        key(&mut w, KeyCode::Enter);
        assert_eq!(w.step(), Step::Confirm);
        for c in "TN".chars() {
            key(&mut w, KeyCode::Char(c));
        }
        assert!(matches!(key(&mut w, KeyCode::Enter), WizardEvent::Send(_)));
    }
}
