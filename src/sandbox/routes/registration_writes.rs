//! Writing registrations: `POST /v1/registrations` (the `REGULAR`, `OSS` and `SST` imports) and
//! `PUT /v1/registrations/{id}`. Each body is checked by the rules the dashboard's form uses
//! before anything is kept, and only what a body may set reaches the record: a key the request
//! does not take changes nothing, and what the live record always carries (its `filing_days`,
//! its `state_name`, ...) is the sandbox's to compute.

use std::sync::Arc;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde_json::{Map, Value, json};

use super::{required_body, saved};
use crate::model::{
    FieldError, FilingFrequency, OssType, Registration, RegistrationUpdate, TaxType, Timestamp,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::reference;
use crate::sandbox::store::{Kind, Org};
use crate::sandbox::tenanted::mirror::Json;

/// What an SST import is filed as: the Streamlined Sales Tax registration covers its member
/// states together, so it is kept as a US registration without a state.
const SST_NAME: &str = "Streamlined Sales Tax";

/// The keys of a create body copied into the new record, whatever the import: each is checked by
/// [`crate::rules::registration_create`].
const KEPT: &[&str] = &[
    "registration_date",
    "registration_email",
    "registration_key",
    "deregistration_key",
    "registration_requested",
    "registration_completed",
    "deregistration_requested",
    "deregistration_completed",
    "auto_registered",
    "do_not_file",
    "registrations_regime",
    "change_regime_status",
    "username",
    "comment",
    "imported",
    "sales_tax_id",
    "vda",
];

/// The keys a `REGULAR` import adds.
const KEPT_REGULAR: &[&str] = &[
    "filing_frequency",
    "create_filings_from",
    "create_back_filing",
    "initial_sync",
    "amount_fees",
    "tax_type",
    "jurisdiction_specific_fields",
];

/// The `registration_import_type` of a checked create body.
fn import_of(body: &Value) -> &str {
    body["registration_import_type"]
        .as_str()
        .unwrap_or("REGULAR")
}

/// The jurisdiction a checked create body is about: `ZZ_EU` for an OSS import, the US without a
/// state for an SST one, else its country and state (upper-cased).
fn jurisdiction_of(body: &Value) -> (String, String) {
    match import_of(body) {
        "OSS" => ("ZZ_EU".into(), String::new()),
        "SST" => ("US".into(), String::new()),
        _ => {
            let code = |k: &str| body[k].as_str().unwrap_or_default().trim().to_uppercase();
            (code("country_code"), code("state_code"))
        }
    }
}

/// Why `state` is not a state of the United States or a province or territory of Canada
/// (`country` `US` or `CA`).
pub(super) fn not_a_state(country: &str, state: &str) -> String {
    if country == "US" {
        format!("{state} is not a state of the United States: a state code such as TX or DC")
    } else {
        format!(
            "{state} is not a province or territory of Canada: ON, QC, ..., or none for the GST/HST"
        )
    }
}

/// Refuses a `REGULAR` import of what is not a jurisdiction the sandbox knows: a US state or DC,
/// Canada or a province or territory, an EU member state (without a state). The one-stop shop
/// `ZZ_EU` is registered through an `OSS` import.
fn check_jurisdiction(body: &Value, country: &str, state: &str) -> Answered<()> {
    let known = country != "ZZ_EU" && reference::lookup(country, state).is_some();
    if known {
        return Ok(());
    }
    let (field, msg) = match country {
        "US" | "CA" => ("state_code", not_a_state(country, state)),
        "ZZ_EU" => (
            "country_code",
            "ZZ_EU is registered through an OSS import (registration_import_type OSS)".to_owned(),
        ),
        _ if reference::is_eu_member(country) => (
            "state_code",
            format!("{country} is registered as a whole country: state_code must be empty"),
        ),
        _ => (
            "country_code",
            format!(
                "{country} is not a jurisdiction the sandbox registers in: a US state, Canada \
                 or a province, or an EU member state"
            ),
        ),
    };
    let input = body.get(field).cloned().unwrap_or(Value::Null);
    Err(vec![FieldError::new(
        "value_error",
        vec!["body".into(), field.into()],
        format!("Value error, {msg}"),
        input,
    )]
    .into())
}

/// POST /v1/registrations: a REGULAR, OSS or SST import, checked by
/// [`crate::rules::registration_create`] against the jurisdiction's form (its schema included).
/// A REGULAR import names a jurisdiction the sandbox knows (422 otherwise); a registration
/// already on file that holds the jurisdiction for the same tax type (see
/// [`crate::rules::holds_jurisdiction`]) answers 409.
pub async fn create(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<Registration>> {
    let body = required_body(&body)?;
    let (country, state) = jurisdiction_of(&body);
    let form = reference::jurisdiction_form(&country, &state);
    crate::rules::registration_create(&body, &form)?;
    let import = import_of(&body);
    if import == "REGULAR" {
        check_jurisdiction(&body, &country, &state)?;
    }
    let tax_type = body["tax_type"]
        .as_str()
        .map(TaxType::parse)
        .filter(|_| import == "REGULAR")
        .or_else(|| {
            (import == "REGULAR")
                .then(|| form.tax_types.first().cloned())
                .flatten()
        });
    let registration = {
        let mut data = org.write();
        if let Some(held) = crate::rules::duplicate_registration(
            &data.demo.registrations,
            &country,
            &state,
            tax_type.as_ref(),
        ) {
            let place = if state.is_empty() {
                country.clone()
            } else {
                format!("{country}-{state}")
            };
            return Err(ErrorAnswer::Conflict(format!(
                "A registration already exists for {place}: {} is {}",
                held.id, held.status
            )));
        }
        let id = data.new_id("regs");
        let registration = new_registration(
            &id,
            &body,
            (&country, &state),
            tax_type,
            crate::clock::today(),
        )?;
        data.demo.registrations.push(registration.clone());
        data.touch(Kind::Registration, id);
        registration
    };
    saved(&app).await?;
    Ok(Json(registration))
}

/// The record a checked create body makes: the keys it may set, and what the sandbox computes.
fn new_registration(
    id: &str,
    body: &Value,
    (country, state): (&str, &str),
    tax_type: Option<TaxType>,
    today: NaiveDate,
) -> Answered<Registration> {
    let import = import_of(body);
    let mut fields = Map::new();
    let kept = KEPT.iter().chain(if import == "REGULAR" {
        KEPT_REGULAR
    } else {
        &[]
    });
    for key in kept {
        if let Some(v) = body.get(*key).filter(|v| !v.is_null()) {
            fields.insert((*key).to_owned(), v.clone());
        }
    }
    let frequency = match import {
        "OSS" if body["oss_type"].as_str() == Some(OssType::Ioss.as_str()) => {
            FilingFrequency::Monthly
        }
        "OSS" => FilingFrequency::Quarterly,
        "SST" => FilingFrequency::Monthly,
        _ => body["filing_frequency"]
            .as_str()
            .map_or(FilingFrequency::Monthly, FilingFrequency::parse),
    };
    let name = if import == "SST" {
        SST_NAME
    } else {
        reference::jurisdiction_name(country, state).unwrap_or(state)
    };
    let now = Timestamp::now();
    let defaults = json!({
        "registration_date": today,
        "registration_requested": now,
        "imported": true,
    });
    for (k, v) in defaults.as_object().into_iter().flatten() {
        fields.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let computed = json!({
        "id": id,
        "status": "REGISTERED",
        "country_code": country,
        "state_code": state,
        "state_name": name,
        "filing_frequency": frequency.as_str(),
        "filing_days": reference::filing_days(country, state, &frequency),
        "registration_type": if import == "OSS" { "EU_OSS" } else { "OTHER" },
        "filing_website_url": reference::filing_website_url(country, state),
        "registration_category": "IMPORTED",
        "created_at": now,
        "tax_type": tax_type.as_ref().map(TaxType::as_str),
        "sst_import": import == "SST",
        "oss_type": (import == "OSS").then(|| body["oss_type"].clone()),
        "oss_member_state_of_identification_code":
            (import == "OSS").then(|| body["member_state_of_identification_code"].clone()),
    });
    for (k, v) in computed.as_object().into_iter().flatten() {
        fields.insert(k.clone(), v.clone());
    }
    serde_json::from_value(Value::Object(fields)).map_err(|e| {
        tracing::error!("a checked registration does not read: {e}");
        ErrorAnswer::Status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The registration could not be made.".into(),
        )
    })
}

/// PUT /v1/registrations/{id}: the keys of the live document's `RegistrationUpdateAPI` (and
/// `sales_tax_id`, `jurisdiction_specific_fields`), checked by
/// [`crate::rules::registration_update`] against the registration's jurisdiction form, change
/// the record; any other key changes nothing (its `id` above all).
pub async fn update(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Registration>> {
    let body = required_body(&body)?;
    let current = {
        let data = org.read();
        data.demo
            .registrations
            .iter()
            .find(|r| r.id == id)
            .cloned()
            .ok_or_else(|| ErrorAnswer::not_found("Registration", &id))?
    };
    let form = reference::jurisdiction_form(&current.country_code, &current.state_code);
    let changes = crate::rules::registration_update(
        &body,
        &form,
        current.jurisdiction_specific_fields.as_ref(),
    )?;
    let updated = {
        let mut data = org.write();
        let slot = data
            .registration_mut(&id)
            .ok_or_else(|| ErrorAnswer::not_found("Registration", &id))?;
        apply(changes, slot, crate::clock::today());
        slot.clone()
    };
    saved(&app).await?;
    Ok(Json(updated))
}

/// Sets what `changes` names, and only that: a new filing frequency brings its filing days;
/// marking the registration as collecting dates it (today, unless a date is on file) and clears
/// the call to do so; jurisdiction-specific fields are merged over those on file.
fn apply(changes: RegistrationUpdate, r: &mut Registration, today: NaiveDate) {
    fn set<T>(slot: &mut Option<T>, value: Option<T>) {
        if value.is_some() {
            *slot = value;
        }
    }
    let RegistrationUpdate {
        registration_date,
        registration_email,
        registration_key,
        deregistration_key,
        registration_requested,
        registration_completed,
        deregistration_requested,
        deregistration_completed,
        auto_registered,
        registrations_regime,
        change_regime_status,
        third_party_enabled,
        do_not_file,
        two_factor_enabled,
        marked_collecting,
        encrypted_username: _,
        username,
        filing_frequency,
        create_filings_from,
        is_approaching: _,
        comment,
        vda,
        tax_id: _,
        sales_tax_id,
        jurisdiction_specific_fields,
    } = changes;
    set(&mut r.registration_date, registration_date);
    set(&mut r.registration_email, registration_email);
    set(&mut r.registration_key, registration_key);
    set(&mut r.deregistration_key, deregistration_key);
    set(&mut r.registration_requested, registration_requested);
    set(&mut r.registration_completed, registration_completed);
    set(&mut r.deregistration_requested, deregistration_requested);
    set(&mut r.deregistration_completed, deregistration_completed);
    set(&mut r.auto_registered, auto_registered);
    set(&mut r.registrations_regime, registrations_regime);
    set(&mut r.change_regime_status, change_regime_status);
    set(&mut r.third_party_enabled, third_party_enabled);
    set(&mut r.do_not_file, do_not_file);
    set(&mut r.two_factor_enabled, two_factor_enabled);
    set(&mut r.username, username);
    set(&mut r.create_filings_from, create_filings_from);
    set(&mut r.comment, comment);
    set(&mut r.vda, vda);
    set(&mut r.sales_tax_id, sales_tax_id);
    if let Some(marked) = marked_collecting {
        r.marked_collecting = Some(marked);
        if marked {
            r.needs_mark_as_collecting = Some(false);
            r.marked_collecting_date
                .get_or_insert_with(|| today.to_string());
        }
    }
    if let Some(frequency) = filing_frequency {
        r.filing_days = Some(reference::filing_days(
            &r.country_code,
            &r.state_code,
            &frequency,
        ));
        r.filing_frequency = frequency;
    }
    if let Some(changed) = jurisdiction_specific_fields {
        let slot = r
            .jurisdiction_specific_fields
            .get_or_insert_with(|| json!({}));
        if !slot.is_object() {
            *slot = json!({});
        }
        if let Some(saved) = slot.as_object_mut() {
            saved.extend(changed);
        }
    }
}
