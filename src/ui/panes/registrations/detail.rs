//! The detail of one registration: every field of the interface's Registration, grouped, with
//! the OSS countries of a one-stop-shop registration and the jurisdiction's own fields read
//! against the jurisdiction's JSON Schema.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::tenanted::RevealedFields;
use crate::model::{JurisdictionForm, OssCountry, Registration, RegistrationStatus, RevealField};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Cell, Detail, Section, flag, opt, plain, section};

/// The style of a registration status, by what it means for the user.
pub fn status_style(status: &RegistrationStatus, theme: &Theme) -> ratatui::style::Style {
    match status {
        RegistrationStatus::Registered | RegistrationStatus::SelfManaged => theme.status_good,
        RegistrationStatus::Processing
        | RegistrationStatus::Validating
        | RegistrationStatus::Deregistering => theme.status_pending,
        RegistrationStatus::AwaitingClarification | RegistrationStatus::Unregistered => {
            theme.status_bad
        }
        RegistrationStatus::Deregistered | RegistrationStatus::Cancelled => theme.status_closed,
        RegistrationStatus::Other(_) => theme.base,
    }
}

/// Everything the detail shows besides the registration itself.
#[derive(Debug, Default, Clone)]
pub struct Extras {
    pub oss_countries: Option<Result<Vec<OssCountry>, String>>,
    pub form: Option<Result<JurisdictionForm, String>>,
    /// Fields revealed in clear.
    pub revealed: Vec<(RevealField, String)>,
    /// Every saved portal credential, revealed on request (Tenanted API).
    pub portal: Option<RevealedFields>,
}

fn masked(extras: &Extras, field: RevealField, value: Option<&String>, reveal_key: &str) -> Cell {
    if let Some((_, clear)) = extras.revealed.iter().find(|(f, _)| *f == field) {
        return Some(Line::from(clear.clone()));
    }
    if let Some(portal) = &extras.portal {
        let clear = match field {
            RevealField::Password => &portal.password,
            RevealField::Pin => &portal.pin,
        };
        if let Some(clear) = clear {
            return Some(Line::from(clear.clone()));
        }
    }
    value.map(|v| Line::from(format!("{v}  ({reveal_key} reveals)")))
}

/// Builds the detail view.
pub fn build<'t>(r: &Registration, extras: &Extras, theme: &'t Theme, keys: &Keymap) -> Detail<'t> {
    let reveal_key = keys.keys_for(Action::Reveal);
    let open_key = keys.keys_for(Action::OpenUrl);
    let money = |v: &Option<rust_decimal::Decimal>| {
        v.map(|d| Line::from(Span::styled(text::money(d, None), theme.money)))
    };
    let mut sections = vec![
        section(
            "Identity",
            vec![
                ("ID", plain(&r.id)),
                ("Jurisdiction", plain(super::wizard::jurisdiction(r))),
                (
                    "Status",
                    Some(Line::from(Span::styled(
                        r.status.to_string(),
                        status_style(&r.status, theme),
                    ))),
                ),
                ("Registration type", opt(r.registration_type.as_ref())),
                ("Category", opt(r.registration_category.as_ref())),
                ("Tax type", opt(r.tax_type.as_ref())),
                ("Sales tax ID", opt(r.sales_tax_id.as_ref())),
                ("Registration email", opt(r.registration_email.as_ref())),
                ("Portal username", opt(r.username.as_ref())),
                (
                    "Portal password",
                    masked(
                        extras,
                        RevealField::Password,
                        r.password_encrypted.as_ref(),
                        &reveal_key,
                    ),
                ),
                (
                    "Portal PIN",
                    masked(
                        extras,
                        RevealField::Pin,
                        r.pin_encrypted.as_ref(),
                        &reveal_key,
                    ),
                ),
                ("All credentials on file", flag(r.has_all_credentials)),
                ("Comment", opt(r.comment.as_ref())),
            ],
        ),
        section(
            "Filing",
            vec![
                ("Filing frequency", plain(&r.filing_frequency)),
                ("Filing days", opt(r.filing_days.as_ref())),
                ("First frequency", opt(r.initial_filing_frequency.as_ref())),
                (
                    "Scheduled frequency",
                    opt(r.scheduled_filing_frequency.as_ref()),
                ),
                (
                    "Scheduled from",
                    opt(r.filing_frequency_effective_date.as_ref()),
                ),
                ("Fiscal year ends (month)", opt(r.period_end_month.as_ref())),
                ("Create filings from", opt(r.create_filings_from.as_ref())),
                ("Back-filing", flag(r.create_back_filing)),
                ("Do not file", flag(r.do_not_file)),
                (
                    "Filing website",
                    Some(Line::from(format!(
                        "{}  ({open_key} opens)",
                        r.filing_website_url
                    )))
                    .filter(|_| !r.filing_website_url.is_empty()),
                ),
                ("Regime", opt(r.registrations_regime.as_ref())),
                ("Regime change", opt(r.change_regime_status.as_ref())),
            ],
        ),
        section(
            "Dates",
            vec![
                ("Registration date", opt(r.registration_date.as_ref())),
                (
                    "Registration requested",
                    r.registration_requested
                        .map(|t| Line::from(text::timestamp(&t))),
                ),
                (
                    "Registration completed",
                    r.registration_completed
                        .map(|t| Line::from(text::timestamp(&t))),
                ),
                (
                    "Created",
                    r.created_at.map(|t| Line::from(text::timestamp(&t))),
                ),
                ("Marked collecting", opt(r.marked_collecting_date.as_ref())),
                ("Importer of record no.", opt(r.ior_number.as_ref())),
                ("Importer of record date", opt(r.ior_date.as_ref())),
            ],
        ),
        section(
            "Deregistration",
            vec![
                (
                    "Requested",
                    r.deregistration_requested
                        .map(|t| Line::from(text::timestamp(&t))),
                ),
                (
                    "Completed",
                    r.deregistration_completed
                        .map(|t| Line::from(text::timestamp(&t))),
                ),
            ],
        ),
        section(
            "Money",
            vec![
                ("Fees", money(&r.amount_fees)),
                ("Credits available", money(&r.credits_total_available)),
            ],
        ),
        section(
            "Flags",
            vec![
                ("Auto-registered", flag(r.auto_registered)),
                ("Third party enabled", flag(r.third_party_enabled)),
                ("Two-factor enabled", flag(r.two_factor_enabled)),
                ("Marked collecting", flag(r.marked_collecting)),
                (
                    "Needs marking as collecting",
                    flag(r.needs_mark_as_collecting),
                ),
                ("Voluntary disclosure", flag(r.vda)),
                ("Imported", flag(r.imported)),
                ("SST import", flag(r.sst_import)),
                ("Initial sync", flag(r.initial_sync)),
                ("Retail delivery fee", flag(r.retail_delivery_fee_obligated)),
                (
                    "Retail delivery fee from",
                    opt(r.retail_delivery_fee_effective_from.as_ref()),
                ),
            ],
        ),
    ];
    if r.country_code == "ZZ_EU" || r.oss_type.is_some() {
        let mut rows = vec![
            ("OSS scheme", opt(r.oss_type.as_ref())),
            (
                "Member state of identification",
                opt(r.oss_member_state_of_identification_code.as_ref()),
            ),
        ];
        match &extras.oss_countries {
            None => rows.push((
                "Countries",
                Some(Line::from(Span::styled("loading…", theme.muted))),
            )),
            Some(Err(e)) => rows.push((
                "Countries",
                Some(Line::from(Span::styled(e.clone(), theme.error))),
            )),
            Some(Ok(countries)) if countries.is_empty() => rows.push(("Countries", None)),
            Some(Ok(countries)) => {
                for c in countries {
                    let until = c
                        .end_date
                        .map(|d| format!(" until {d}"))
                        .unwrap_or_default();
                    rows.push((
                        "Country",
                        Some(Line::from(vec![
                            Span::raw(format!(
                                "{}  {}  from {}{until}  ",
                                c.country_code, c.id, c.effective_date
                            )),
                            Span::styled(
                                c.status.to_string(),
                                if c.status.is_known() && c.status.as_str() == "ACTIVE" {
                                    theme.status_good
                                } else {
                                    theme.status_closed
                                },
                            ),
                        ])),
                    ));
                }
            }
        }
        sections.push(section("EU one-stop shop", rows));
    }
    if let Some(portal) = &extras.portal {
        sections.push(portal_section(r, portal, theme));
    }
    sections.push(jurisdiction_section(r, extras, theme));
    Detail::new(theme, sections)
}

/// The saved portal credentials in clear, shown after `v` until the detail closes.
fn portal_section(r: &Registration, portal: &RevealedFields, theme: &Theme) -> Section<'static> {
    let value = |v: &Option<String>| -> Cell {
        Some(match v.as_deref().filter(|v| !v.is_empty()) {
            Some(v) => Line::from(v.to_owned()),
            None => Line::from(Span::styled("none saved", theme.muted)),
        })
    };
    let mut section = Section::new("Portal credentials (revealed)")
        .maybe("Username", value(&portal.username))
        .maybe("Password", value(&portal.password))
        .maybe("PIN", value(&portal.pin));
    if let Some((_, label)) = super::credentials::code_field(r) {
        let code = portal
            .cdtfa_third_party_access_security_code
            .clone()
            .or_else(|| portal.access_code.clone());
        section = section.maybe(label, value(&code));
    }
    if portal.security_questions.is_empty() {
        section = section.maybe(
            "Security questions",
            Some(Line::from(Span::styled("none saved", theme.muted))),
        );
    }
    for q in &portal.security_questions {
        section = section.row(
            "Security question",
            Line::from(format!("{} — {}", q.question, q.answer)),
        );
    }
    section
}

/// The jurisdiction's own fields, read against its schema: each property with its title, its
/// value, and a mark when a required one is missing. Secrets are never shown.
fn jurisdiction_section(r: &Registration, extras: &Extras, theme: &Theme) -> Section<'static> {
    let values = r
        .jurisdiction_specific_fields
        .as_ref()
        .and_then(Value::as_object);
    let mut rows: Vec<(&'static str, Cell)> = Vec::new();
    let mut owned: Vec<(String, Cell)> = Vec::new();
    match &extras.form {
        None => rows.push((
            "Form",
            Some(Line::from(Span::styled("loading…", theme.muted))),
        )),
        Some(Err(e)) => rows.push((
            "Form",
            Some(Line::from(Span::styled(e.clone(), theme.error))),
        )),
        Some(Ok(form)) if form.default_form => {
            rows.push((
                "Form",
                Some(Line::from(Span::styled(
                    "the generic form (no state-specific fields)",
                    theme.muted,
                ))),
            ));
        }
        Some(Ok(form)) => {
            let schema = &form.jurisdiction_fields_json_schema;
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(properties) = schema["properties"].as_object() {
                for (name, property) in properties {
                    let title = crate::ui::widgets::form::field_label(schema, name);
                    let secret = property.as_object().map_or_else(
                        || crate::model::secrets::is_secret(name),
                        |p| crate::model::secrets::is_secret_property(name, p),
                    );
                    let value = values.and_then(|v| v.get(name)).filter(|v| !v.is_null());
                    let cell = match (value, secret) {
                        (Some(_), true) => {
                            Some(Line::from(Span::styled("•••••• (on file)", theme.muted)))
                        }
                        (Some(Value::String(s)), false) => Some(Line::from(s.clone())),
                        (Some(Value::Bool(b)), false) => {
                            Some(Line::from(crate::model::format::yes_no(*b)))
                        }
                        (Some(other), false) => Some(Line::from(other.to_string())),
                        (None, _) if required.contains(&name.as_str()) => Some(Line::from(
                            Span::styled("missing (required)", theme.warning),
                        )),
                        (None, _) => None,
                    };
                    owned.push((title, cell));
                }
            }
        }
    }
    let section = section("Jurisdiction fields", rows);
    owned
        .into_iter()
        .fold(section, |s, (label, value)| s.maybe(label, value))
}
