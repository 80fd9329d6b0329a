//! Registering in a jurisdiction: pick it from a searchable list (every US state and DC, every
//! Canadian province and territory, `ZZ_EU`), fill a form made of the common fields and the
//! jurisdiction's own fields generated from its JSON Schema, review exactly the body to be sent,
//! send it. Every edit and the submit are checked by [`rules::registration_create`] against the
//! jurisdiction's form, the same check the service makes, so a body that breaks the schema is
//! never sent; a refusal the service still makes lands under its field with every value kept.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use serde_json::{Value, json};

use crate::effect::{Failure, FailureKind};
use crate::model::{JurisdictionForm, OssType, Registration};
use crate::rules::{self, EU_ONE_STOP_SHOP};
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog;
use crate::ui::widgets::form::{
    Choice, FieldKind, FieldSpec, FieldValue, Form, FormOutcome, FormValues, Review, SchemaFields,
};
use crate::ui::widgets::keys::{is_press, typed_char};
use crate::ui::widgets::state_map::{TILES, Tile};

/// Where the jurisdiction's own fields go in the body.
pub const FIELDS: &str = "jurisdiction_specific_fields";

/// How many matches the jurisdiction list shows.
const SHOWN: usize = 12;

/// The flow's steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Jurisdiction,
    /// The jurisdiction's form is being read.
    Loading,
    Form,
    Review,
}

/// What the flow asks of its pane.
#[derive(Debug, Clone, PartialEq)]
pub enum RegisterEvent {
    None,
    Close,
    AskDiscard,
    /// The rules refused a submit: say this in the footer.
    Refused(String),
    /// Read the registration form of this jurisdiction, and hand it to
    /// [`RegisterFlow::form_loaded`].
    LoadForm {
        country: String,
        state: String,
    },
    /// Send this body (POST /v1/registrations).
    Send(Value),
    /// Send these changes of registration `id` (PUT /v1/registrations/{id}).
    Update {
        id: String,
        body: Value,
    },
}

/// What the body is made from, besides the form's values.
#[derive(Clone)]
struct Maker {
    tile: &'static Tile,
    form: JurisdictionForm,
    schema: SchemaFields,
    /// Masked fields, whose values the review hides.
    secrets: Vec<&'static str>,
    /// The registration being edited, and the body its values made when the form opened.
    editing: Option<(Registration, Value)>,
}

impl Maker {
    fn is_oss(&self) -> bool {
        self.tile.country == EU_ONE_STOP_SHOP
    }

    /// The body exactly as it would be sent.
    fn body(&self, values: &FormValues) -> Value {
        let mut body = values.to_json();
        self.schema.typed(values, &mut body);
        let Some(obj) = body.as_object_mut() else {
            return body;
        };
        if self.editing.is_some() {
            return body;
        }
        if self.is_oss() {
            obj.insert("registration_import_type".into(), json!("OSS"));
        } else {
            obj.insert("registration_import_type".into(), json!("REGULAR"));
            obj.insert("country_code".into(), json!(self.tile.country));
            obj.insert("state_code".into(), json!(self.tile.state.unwrap_or("")));
            obj.insert("state_name".into(), json!(self.tile.name));
        }
        body
    }

    /// What an edit sends: the fields whose values differ from those the form opened with
    /// (within `jurisdiction_specific_fields`, the changed ones alone).
    fn changes(&self, values: &FormValues) -> Value {
        let Some((_, before)) = &self.editing else {
            return self.body(values);
        };
        let now = self.body(values);
        let mut out = serde_json::Map::new();
        for (k, v) in now.as_object().into_iter().flatten() {
            if k == FIELDS {
                let mut changed = serde_json::Map::new();
                for (name, value) in v.as_object().into_iter().flatten() {
                    if before[FIELDS].get(name) != Some(value) {
                        changed.insert(name.clone(), value.clone());
                    }
                }
                if !changed.is_empty() {
                    out.insert(k.clone(), Value::Object(changed));
                }
            } else if before.get(k) != Some(v) {
                out.insert(k.clone(), v.clone());
            }
        }
        Value::Object(out)
    }

    fn check(&self, values: &FormValues) -> Vec<crate::model::FieldError> {
        match &self.editing {
            None => rules::registration_create(&self.body(values), &self.form).err(),
            Some((r, _)) => rules::registration_update(
                &self.changes(values),
                &self.form,
                r.jurisdiction_specific_fields.as_ref(),
            )
            .err(),
        }
        .unwrap_or_default()
    }
}

/// The fields every registration of the jurisdiction's kind asks for.
fn common_fields(form: &JurisdictionForm, oss: bool) -> Vec<FieldSpec> {
    let mut specs = vec![
        FieldSpec::new("registration_date", "Registration date", FieldKind::Date)
            .rule("YYYY-MM-DD; when the registration took effect"),
        FieldSpec::new("registration_email", "Registration email", FieldKind::Text)
            .rule("the address the tax authority writes to"),
    ];
    if oss {
        let types = OssType::KNOWN
            .iter()
            .map(|t| Choice::new(t.as_str(), t.as_str(), oss_explanation(t)))
            .collect();
        specs.push(FieldSpec::new("oss_type", "OSS scheme", FieldKind::Select(types)).required());
        specs.push(
            FieldSpec::new(
                "member_state_of_identification_code",
                "Member state of identification",
                FieldKind::Text,
            )
            .rule("two-letter code of the EU country the OSS return is filed in: FR, IE, ...")
            .required(),
        );
    } else {
        let frequencies = rules::offered_frequencies(form)
            .into_iter()
            .map(|f| Choice::new(f.clone(), f, ""))
            .collect();
        specs.push(
            FieldSpec::new(
                "filing_frequency",
                "Filing frequency",
                FieldKind::Select(frequencies),
            )
            .rule("as the jurisdiction assigned it")
            .required(),
        );
        let tax_types = form
            .tax_types
            .iter()
            .map(|t| Choice::new(t.as_str(), t.as_str(), ""))
            .collect();
        specs.push(
            FieldSpec::new("tax_type", "Tax type", FieldKind::Select(tax_types))
                .rule("among the tax types registered in this jurisdiction")
                .required(),
        );
        specs.push(
            FieldSpec::new("sales_tax_id", "Sales tax ID", FieldKind::Text)
                .rule("the account number the jurisdiction issued"),
        );
        specs.push(
            FieldSpec::new(
                "create_filings_from",
                "Create filings from",
                FieldKind::Date,
            )
            .rule("YYYY-MM-DD; the first period returns are prepared for"),
        );
        specs.push(
            FieldSpec::new(
                "create_back_filing",
                "Back-file periods before that date",
                FieldKind::Checkbox,
            )
            .rule("space to tick"),
        );
    }
    specs.push(FieldSpec::new("comment", "Comment", FieldKind::Text));
    specs
}

/// The fields an edit offers: those an update may change.
fn edit_fields(form: &JurisdictionForm, oss: bool) -> Vec<FieldSpec> {
    let mut specs = vec![
        FieldSpec::new("registration_date", "Registration date", FieldKind::Date)
            .rule("YYYY-MM-DD; when the registration took effect"),
        FieldSpec::new("registration_email", "Registration email", FieldKind::Text)
            .rule("the address the tax authority writes to"),
    ];
    if !oss {
        let frequencies = rules::offered_frequencies(form)
            .into_iter()
            .map(|f| Choice::new(f.clone(), f, ""))
            .collect();
        specs.push(
            FieldSpec::new(
                "filing_frequency",
                "Filing frequency",
                FieldKind::Select(frequencies),
            )
            .rule("as the jurisdiction assigned it"),
        );
        specs.push(FieldSpec::new(
            "sales_tax_id",
            "Sales tax ID",
            FieldKind::Text,
        ));
        specs.push(
            FieldSpec::new(
                "create_filings_from",
                "Create filings from",
                FieldKind::Date,
            )
            .rule("YYYY-MM-DD"),
        );
    }
    specs.push(FieldSpec::new("comment", "Comment", FieldKind::Text));
    let regime = vec![
        Choice::new("", "(no change)", ""),
        Choice::new(
            rules::REQUESTABLE_REGIME_STATUS,
            "Request a regime change",
            "The service approves and completes it; its status follows in the detail.",
        ),
    ];
    specs.push(
        FieldSpec::new(
            "change_regime_status",
            "Regime change",
            FieldKind::Select(regime),
        )
        .rule("the status itself is not changed here: D requests a deregistration"),
    );
    specs
}

/// The value of a saved registration's field, as the form holds it.
fn saved_value(value: &Value) -> Option<FieldValue> {
    match value {
        Value::String(s) => Some(FieldValue::Text(s.clone())),
        Value::Bool(b) => Some(FieldValue::Bool(*b)),
        Value::Number(n) => Some(FieldValue::Text(n.to_string())),
        _ => None,
    }
}

fn oss_explanation(t: &OssType) -> &'static str {
    match t {
        OssType::Union => "EU sellers' distance sales of goods and B2C services within the EU.",
        OssType::NonUnion => "Sellers outside the EU supplying B2C services to EU consumers.",
        OssType::Ioss => "Imports of consignments of at most EUR 150.",
        OssType::Other(_) => "",
    }
}

/// The register flow's state.
pub struct RegisterFlow {
    step: Step,
    query: String,
    cursor: usize,
    maker: Option<Maker>,
    form: Option<Form>,
    review: Option<Review>,
    sending: bool,
    /// Why the form could not be read, or the service refused without naming a field.
    failure: Option<String>,
    /// When nexus was met in the jurisdiction, once read (`None` while not, or never met).
    nexus_met: Option<chrono::NaiveDate>,
    /// What the review warns of: returns that will not cover the time since nexus was met.
    warning: Option<String>,
    /// The registrations on file (as the list holds them): a jurisdiction one of them holds is
    /// marked in the list, and a second registration of the same tax type there is refused
    /// before it is sent ([`rules::duplicate_registration`], the service's 409).
    on_file: Vec<Registration>,
}

impl RegisterFlow {
    /// The flow on its first step.
    pub fn new() -> Self {
        RegisterFlow {
            step: Step::Jurisdiction,
            query: String::new(),
            cursor: 0,
            maker: None,
            form: None,
            review: None,
            sending: false,
            failure: None,
            nexus_met: None,
            warning: None,
            on_file: Vec::new(),
        }
    }

    /// The flow knowing the registrations on file.
    pub fn with_on_file(mut self, registrations: Vec<Registration>) -> Self {
        self.on_file = registrations;
        self
    }

    /// The registration on file that holds `tile`'s jurisdiction (of any tax type).
    fn held(&self, tile: &Tile) -> Option<&Registration> {
        rules::duplicate_registration(&self.on_file, tile.country, tile.state.unwrap_or(""), None)
    }

    /// Why the body to be sent would duplicate a registration on file, if it would.
    fn duplicate(&self, body: &Value) -> Option<String> {
        let maker = self
            .maker
            .as_ref()
            .filter(|m| m.editing.is_none() && !m.is_oss())?;
        let tax_type = body
            .get("tax_type")
            .and_then(Value::as_str)
            .and_then(|t| t.parse::<crate::model::TaxType>().ok());
        let held = rules::duplicate_registration(
            &self.on_file,
            maker.tile.country,
            maker.tile.state.unwrap_or(""),
            tax_type.as_ref(),
        )?;
        Some(format!(
            "{} is already registered ({}, {}): the service refuses a second registration of \
             the same tax type while one holds the jurisdiction. Nothing was sent.",
            maker.tile.name,
            held.id,
            held.status.as_str()
        ))
    }

    /// When nexus was met in the jurisdiction being registered, as read beside its form; a
    /// review already open gets its warning now.
    pub fn nexus_loaded(&mut self, met: Option<chrono::NaiveDate>) {
        self.nexus_met = met;
        if self.step == Step::Review {
            self.warn();
        }
    }

    /// Sets the review's warning from the body to be sent and when nexus was met: only for a
    /// new registration.
    fn warn(&mut self) {
        self.warning = match (&self.maker, self.body()) {
            (Some(maker), Some(body)) if maker.editing.is_none() => {
                super::coverage::coverage_warning(&body, self.nexus_met, maker.tile.name)
            }
            _ => None,
        };
    }

    /// The review's warning, if the returns asked for leave time since nexus uncovered.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// The flow with the jurisdiction already chosen (from the Overview's map); `None` when it
    /// is none of the list's.
    pub fn on(country: &str, state: Option<&str>) -> Option<(Self, RegisterEvent)> {
        let tile = TILES.iter().find(|t| {
            t.country == country && (t.state == state || (t.state.is_none() && state.is_none()))
        })?;
        let mut flow = Self::new();
        let event = flow.choose(tile);
        Some((flow, event))
    }

    /// The flow editing `registration`: its jurisdiction's form is read, then the form opens
    /// prefilled with what is on file.
    pub fn edit(registration: Registration) -> Option<(Self, RegisterEvent)> {
        let tile = TILES.iter().find(|t| {
            t.country == registration.country_code
                && t.state.unwrap_or("") == registration.state_code
        })?;
        let mut flow = Self::new();
        let event = flow.choose(tile);
        if let Some(m) = &mut flow.maker {
            m.editing = Some((registration, Value::Null));
        }
        if flow.maker.as_ref().is_some_and(Maker::is_oss) {
            let form = flow.maker.as_ref().map(|m| m.form.clone());
            flow.form_loaded(form.ok_or_else(String::new));
        }
        Some((flow, event))
    }

    pub fn step(&self) -> Step {
        self.step
    }

    pub fn form(&self) -> Option<&Form> {
        self.form.as_ref()
    }

    /// The jurisdiction's form while it is the step on screen.
    pub fn form_mut(&mut self) -> Option<&mut Form> {
        self.form.as_mut().filter(|_| self.step == Step::Form)
    }

    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The jurisdictions whose code or name holds the query, in the list's order.
    pub fn matches(&self) -> Vec<&'static Tile> {
        let q = self.query.trim().to_lowercase();
        let mut exact: Vec<&'static Tile> = Vec::new();
        let mut rest: Vec<&'static Tile> = Vec::new();
        for t in TILES {
            let code = t.state.unwrap_or(t.country).to_lowercase();
            if code == q {
                exact.push(t);
            } else if q.is_empty() || code.contains(&q) || t.name.to_lowercase().contains(&q) {
                rest.push(t);
            }
        }
        exact.extend(rest);
        exact
    }

    pub fn has_unsaved_input(&self) -> bool {
        self.form.as_ref().is_some_and(Form::is_dirty)
    }

    /// The body the form makes now, exactly as it would be sent (for an edit, the changes).
    pub fn body(&self) -> Option<Value> {
        Some(self.maker.as_ref()?.changes(&self.form.as_ref()?.values()))
    }

    fn choose(&mut self, tile: &'static Tile) -> RegisterEvent {
        self.step = Step::Loading;
        self.failure = None;
        self.maker = Some(Maker {
            tile,
            form: JurisdictionForm {
                country_code: tile.country.into(),
                state_code: tile.state.unwrap_or("").into(),
                default_form: true,
                jurisdiction_fields_json_schema: json!({}),
                metadata: Value::Null,
                tax_types: Vec::new(),
            },
            schema: SchemaFields::default(),
            secrets: Vec::new(),
            editing: None,
        });
        if tile.country == EU_ONE_STOP_SHOP {
            // The one-stop shop has no schema of its own: its fields are the OSS payload's.
            let form = self.maker.as_ref().map(|m| m.form.clone());
            if let Some(form) = form {
                self.form_loaded(Ok(form));
            }
            return RegisterEvent::None;
        }
        RegisterEvent::LoadForm {
            country: tile.country.into(),
            state: tile.state.unwrap_or("").into(),
        }
    }

    /// The jurisdiction's form as the service answered it: the register form opens.
    pub fn form_loaded(&mut self, result: Result<JurisdictionForm, String>) {
        let Some(maker) = &mut self.maker else {
            return;
        };
        match result {
            Ok(form) => {
                maker.schema =
                    SchemaFields::generate(&form.jurisdiction_fields_json_schema, FIELDS);
                maker.form = form;
                let oss = maker.is_oss();
                let mut specs = if maker.editing.is_some() {
                    edit_fields(&maker.form, oss)
                } else {
                    common_fields(&maker.form, oss)
                };
                if !oss {
                    specs.extend(maker.schema.specs());
                }
                maker.secrets = specs
                    .iter()
                    .filter(|s| s.kind == FieldKind::Masked)
                    .map(|s| s.name)
                    .collect();
                let mut form = Form::new(specs);
                for field in &maker.schema.fields {
                    if let Some(default) = &field.default {
                        form = form.with_value(field.spec.name, default.clone());
                    }
                }
                if let [only] = maker.form.tax_types.as_slice() {
                    form = form.with_value("tax_type", FieldValue::Choice(only.as_str().into()));
                }
                if let Some((r, _)) = &maker.editing {
                    let saved = serde_json::to_value(r).unwrap_or_default();
                    let names: Vec<&'static str> = form.specs().map(|s| s.name).collect();
                    for name in names {
                        if maker.secrets.contains(&name) {
                            continue; // a secret on file is never shown, only replaced
                        }
                        let pointer = format!("/{}", name.replace('.', "/"));
                        if let Some(v) = saved.pointer(&pointer).and_then(saved_value) {
                            form = form.with_value(name, v);
                        }
                    }
                    let before = maker.body(&form.values());
                    if let Some((_, b)) = &mut maker.editing {
                        *b = before;
                    }
                }
                let check = maker.clone();
                self.form = Some(form.with_validator(move |values| check.check(values)));
                self.step = Step::Form;
            }
            Err(message) => {
                self.failure = Some(format!(
                    "The registration form could not be read: {message}"
                ));
                self.step = Step::Jurisdiction;
            }
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> RegisterEvent {
        if self.sending || !is_press(&key) {
            return RegisterEvent::None;
        }
        match self.step {
            Step::Jurisdiction => self.search_key(key),
            Step::Loading => match key.code {
                KeyCode::Esc => RegisterEvent::Close,
                _ => RegisterEvent::None,
            },
            Step::Form => {
                let Some(form) = &mut self.form else {
                    return RegisterEvent::Close;
                };
                match form.handle_key(key) {
                    FormOutcome::Submit => {
                        self.failure = None;
                        let mut shown = self.body().unwrap_or_default();
                        if shown.as_object().is_some_and(serde_json::Map::is_empty) {
                            self.failure =
                                Some("Nothing changed: there is nothing to send.".into());
                            return RegisterEvent::None;
                        }
                        if let Some(maker) = &self.maker {
                            for name in &maker.secrets {
                                let pointer = format!("/{}", name.replace('.', "/"));
                                if let Some(v) = shown.pointer_mut(&pointer) {
                                    *v = json!("••••••");
                                }
                            }
                        }
                        self.warn();
                        let specs = self.form.iter().flat_map(Form::specs);
                        self.review = Some(Review::new(&shown).in_words(specs));
                        self.step = Step::Review;
                        RegisterEvent::None
                    }
                    FormOutcome::Cancel => RegisterEvent::Close,
                    FormOutcome::AskDiscard => RegisterEvent::AskDiscard,
                    FormOutcome::Invalid => form
                        .refusal()
                        .map_or(RegisterEvent::None, RegisterEvent::Refused),
                    FormOutcome::None => RegisterEvent::None,
                }
            }
            Step::Review => match key.code {
                KeyCode::Enter => self.send(),
                KeyCode::Esc => {
                    self.step = Step::Form;
                    RegisterEvent::None
                }
                _ => {
                    if let Some(review) = &mut self.review {
                        review.handle_key(key);
                    }
                    RegisterEvent::None
                }
            },
        }
    }

    fn search_key(&mut self, key: KeyEvent) -> RegisterEvent {
        let found = self.matches().len();
        match (key.code, typed_char(&key)) {
            (KeyCode::Esc, _) => return RegisterEvent::Close,
            (KeyCode::Enter, _) => {
                if let Some(tile) = self.matches().get(self.cursor).copied() {
                    return self.choose(tile);
                }
            }
            (KeyCode::Down, _) => self.cursor = (self.cursor + 1).min(found.saturating_sub(1)),
            (KeyCode::Up, _) => self.cursor = self.cursor.saturating_sub(1),
            (KeyCode::Backspace, _) => {
                self.query.pop();
                self.cursor = 0;
            }
            (_, Some(c)) => {
                self.query.push(c);
                self.cursor = 0;
            }
            _ => {}
        }
        RegisterEvent::None
    }

    fn send(&mut self) -> RegisterEvent {
        let (Some(maker), Some(form)) = (&self.maker, &mut self.form) else {
            return RegisterEvent::None;
        };
        let values = form.values();
        let errors = maker.check(&values);
        if !errors.is_empty() {
            form.set_errors(&errors);
            self.step = Step::Form;
            return RegisterEvent::None;
        }
        if let Some(why) = self.duplicate(&maker.body(&values)) {
            self.step = Step::Form;
            self.failure = Some(why.clone());
            return RegisterEvent::Refused(why);
        }
        let (Some(maker), Some(form)) = (&self.maker, &mut self.form) else {
            return RegisterEvent::None;
        };
        self.sending = true;
        form.set_busy(true);
        match &maker.editing {
            Some((r, _)) => RegisterEvent::Update {
                id: r.id.clone(),
                body: maker.changes(&values),
            },
            None => RegisterEvent::Send(maker.body(&values)),
        }
    }

    /// The service refused: field errors under their fields, anything else above the form;
    /// every value stays as typed.
    pub fn failed(&mut self, failure: &Failure) {
        self.sending = false;
        self.step = Step::Form;
        if let Some(form) = &mut self.form {
            form.set_busy(false);
            if failure.kind == FailureKind::Validation {
                form.set_errors(&failure.fields);
            }
        }
        if failure.kind != FailureKind::Validation || failure.fields.is_empty() {
            self.failure = Some(failure.message.clone());
        }
    }

    /// The title: the jurisdiction once chosen, and the step.
    fn title(&self) -> String {
        let at = self
            .maker
            .as_ref()
            .map(|m| format!(" in {}", m.tile.name))
            .unwrap_or_default();
        let verb = match self.maker.as_ref().and_then(|m| m.editing.as_ref()) {
            Some((r, _)) => format!("Edit {}", r.id),
            None => "Register".to_owned(),
        };
        let step = match self.step {
            Step::Jurisdiction => "choose the jurisdiction",
            Step::Loading => "reading its form",
            Step::Form => "details",
            Step::Review => "review what will be sent",
        };
        format!(" {verb}{at} — {step} ")
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let popup = dialog::centered(area, 90, 30, buf);
        let block = dialog::framed(self.title(), theme);
        let inner = block.inner(popup);
        block.render(popup, buf);
        let note = match (&self.failure, &self.warning, self.step) {
            (Some(failure), _, _) => Some((failure.as_str(), theme.error)),
            (None, Some(warning), Step::Review) => Some((warning.as_str(), theme.warning)),
            _ => None,
        };
        let failure_height = if note.is_some() { 3 } else { 0 };
        let [body, failure, hints] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(failure_height),
            Constraint::Length(1),
        ])
        .areas(inner);
        let hint = match self.step {
            Step::Jurisdiction => "type to search · ↑/↓ choose · enter open its form · esc close",
            Step::Loading => "esc close",
            Step::Form => "tab next field · enter review · esc close",
            Step::Review => "enter send · esc back to the form · ↑/↓ scroll",
        };
        match self.step {
            Step::Jurisdiction => self.render_search(body, buf, theme),
            Step::Loading => Paragraph::new("Reading the jurisdiction's registration form…")
                .style(theme.muted)
                .render(body, buf),
            Step::Form => {
                if let Some(form) = &mut self.form {
                    form.render(body, buf, theme);
                }
            }
            Step::Review => {
                if let Some(review) = &mut self.review {
                    review.render(body, buf, theme);
                }
            }
        }
        if let Some((text, style)) = note {
            Paragraph::new(text)
                .style(style)
                .wrap(Wrap { trim: true })
                .render(failure, buf);
        }
        Paragraph::new(hint).style(theme.muted).render(hints, buf);
    }

    fn render_search(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let mut lines = vec![
            Line::from(vec![
                Span::styled("Jurisdiction: ", theme.title),
                Span::raw(self.query.clone()),
                Span::styled("▏", theme.muted),
            ]),
            Line::raw(""),
        ];
        let found = self.matches();
        let start = self.cursor.saturating_sub(SHOWN - 1);
        for (i, t) in found.iter().enumerate().skip(start).take(SHOWN) {
            let code = match t.state {
                Some(s) => format!("{}-{s}", t.country),
                None => t.country.to_owned(),
            };
            let held = self.held(t);
            let mark = held.map_or(String::new(), |r| {
                format!("  · registered ({})", r.status.as_str())
            });
            let text = format!("{code:<8}{}{mark}", t.name);
            lines.push(if i == self.cursor {
                Line::styled(format!("› {text}"), theme.selection)
            } else if held.is_some() {
                Line::styled(format!("  {text}"), theme.muted)
            } else {
                Line::raw(format!("  {text}"))
            });
        }
        if found.is_empty() {
            lines.push(Line::styled("No jurisdiction matches.", theme.muted));
        }
        Paragraph::new(lines).render(area, buf);
    }
}

impl Default for RegisterFlow {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::reference::jurisdiction_form;
    use crate::ui::widgets::testing::{all_text, ctrl, key};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn opened(state: &str) -> RegisterFlow {
        let (mut flow, event) = RegisterFlow::on("US", Some(state)).unwrap();
        assert_eq!(
            event,
            RegisterEvent::LoadForm {
                country: "US".into(),
                state: state.into()
            }
        );
        flow.form_loaded(Ok(jurisdiction_form("US", state)));
        assert_eq!(flow.step(), Step::Form);
        flow
    }

    /// The whole form, drawn tall enough to hold every field.
    fn drawn(flow: &mut RegisterFlow) -> String {
        let theme = Theme::default();
        let mut terminal = Terminal::new(TestBackend::new(80, 140)).unwrap();
        let form = flow.form.as_mut().unwrap();
        terminal
            .draw(|f| form.render(f.area(), f.buffer_mut(), &theme))
            .unwrap();
        all_text(terminal.backend().buffer())
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
            .trim_end()
            .to_owned()
    }

    #[test]
    fn snapshot_of_the_texas_form() {
        let mut flow = opened("TX");
        let text = drawn(&mut flow);
        assert!(text.contains("Webfile number *"), "{text}");
        insta::assert_snapshot!("register_form_texas", text);
    }

    #[test]
    fn snapshot_of_the_california_form() {
        let mut flow = opened("CA");
        let text = drawn(&mut flow);
        assert!(
            text.contains("CDTFA third party access security code"),
            "{text}"
        );
        insta::assert_snapshot!("register_form_california", text);
    }

    #[test]
    fn a_refusal_lands_under_its_field_with_the_values_kept() {
        let mut flow = opened("TX");
        let name = "jurisdiction_specific_fields.webfile_number";
        let form = flow.form.take().unwrap().with_value(name, "AB123456");
        flow.form = Some(form);
        let failure = Failure {
            kind: FailureKind::Validation,
            message: "The service refused 1 value".into(),
            fields: vec![crate::model::FieldError::new(
                "value_error",
                vec!["body".into(), FIELDS.into(), "webfile_number".into()],
                "Value error, this WebFile number belongs to another taxpayer",
                Value::Null,
            )],
        };
        flow.failed(&failure);
        assert_eq!(flow.step(), Step::Form);
        let form = flow.form().unwrap();
        assert!(
            form.errors_for(name)
                .iter()
                .any(|e| e.contains("another taxpayer")),
            "{:?}",
            form.errors_for(name)
        );
        assert_eq!(form.values().text(name), Some("AB123456"));
    }

    #[test]
    fn secrets_are_hidden_on_the_review() {
        let mut flow = opened("AL");
        let form = flow.form.as_mut().unwrap();
        for (name, value) in [
            ("filing_frequency", FieldValue::Choice("MONTHLY".into())),
            ("tax_type", FieldValue::Choice("SALES_TAX".into())),
            ("jurisdiction_specific_fields.sign_on_id", "acme".into()),
            ("jurisdiction_specific_fields.access_code", "4321".into()),
            (
                "jurisdiction_specific_fields.third_party_password",
                "hunter22".into(),
            ),
            (
                "jurisdiction_specific_fields.sales_tax_id",
                "R0012345".into(),
            ),
        ] {
            *form = std::mem::replace(form, Form::new(Vec::new())).with_value(name, value);
        }
        assert_eq!(flow.handle_key(ctrl('s')), RegisterEvent::None);
        assert_eq!(
            flow.step(),
            Step::Review,
            "{:?}",
            flow.form().map(Form::form_errors)
        );
        let theme = Theme::default();
        let mut terminal = Terminal::new(TestBackend::new(100, 40)).unwrap();
        terminal
            .draw(|f| flow.render(f.area(), f.buffer_mut(), &theme))
            .unwrap();
        let text = all_text(terminal.backend().buffer());
        assert!(text.contains("Third party password:"), "{text}");
        assert!(
            !text.contains("hunter22") && !text.contains("4321"),
            "{text}"
        );
        match flow.handle_key(key(KeyCode::Enter)) {
            RegisterEvent::Send(body) => {
                assert_eq!(
                    body[FIELDS]["third_party_password"],
                    json!("hunter22"),
                    "the secret itself is sent"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
