//! Registrations: list, detail with reveal, jurisdictions, jurisdiction forms, OSS countries,
//! deregistration.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use serde_json::Value;

use super::{json_body, required_body, saved};
use crate::model::{
    FieldError, FilingFrequency, JurisdictionForm, OssCountry, Page, Registration,
    RegistrationJurisdiction, RegistrationStatus, TaxType, Timestamp,
};
use crate::sandbox::App;
use crate::sandbox::error::{ApiError, ApiResult};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::reference;
use crate::sandbox::store::{Kind, Org};
use crate::sandbox::tenanted::features::{opened, secret};

fn names<T>(known: &[T], f: impl Fn(&T) -> &str) -> Vec<&str> {
    known.iter().map(f).collect()
}

const ORDER_FIELDS: &[&str] = &[
    "country_code",
    "state_code",
    "state_name",
    "status",
    "filing_frequency",
    "registration_date",
    "tax_type",
    "registration_type",
    "created_at",
    "sales_tax_id",
];

/// Fields `?reveal=` can show.
const REVEALABLE: &[&str] = &["password_encrypted", "pin_encrypted"];

fn status_filter(q: &mut Query) -> Vec<RegistrationStatus> {
    let allowed = names(RegistrationStatus::KNOWN, RegistrationStatus::as_str);
    q.one_of_list("status__in", &allowed).map_or_else(
        || RegistrationStatus::KNOWN.to_vec(),
        |v| v.iter().map(|s| RegistrationStatus::parse(s)).collect(),
    )
}

pub async fn list(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<Page<Registration>>> {
    let mut q = Query::parse(raw.as_deref());
    let statuses = status_filter(&mut q);
    let state = q.get("state_code").map(str::to_owned);
    let frequencies = q.one_of_list(
        "filing_frequency__in",
        &names(FilingFrequency::KNOWN, FilingFrequency::as_str),
    );
    let tax_types = q.one_of_list("tax_type__in", &names(TaxType::KNOWN, TaxType::as_str));
    let countries = q.list("country_code__in");
    let order = q.order_by(ORDER_FIELDS, "");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&Registration> = data
        .demo
        .registrations
        .iter()
        .filter(|r| statuses.contains(&r.status))
        .filter(|r| {
            state
                .as_ref()
                .is_none_or(|s| r.state_code.eq_ignore_ascii_case(s))
        })
        .filter(|r| {
            frequencies
                .as_ref()
                .is_none_or(|f| f.iter().any(|x| x == r.filing_frequency.as_str()))
        })
        .filter(|r| {
            tax_types.as_ref().is_none_or(|t| {
                r.tax_type
                    .as_ref()
                    .is_some_and(|x| t.iter().any(|y| y == x.as_str()))
            })
        })
        .filter(|r| {
            countries.is_empty()
                || countries
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&r.country_code))
        })
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn jurisdictions(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<Vec<RegistrationJurisdiction>>> {
    let mut q = Query::parse(raw.as_deref());
    let statuses = status_filter(&mut q);
    q.finish()?;
    let data = org.read();
    let mut rows: Vec<RegistrationJurisdiction> = Vec::new();
    for r in data
        .demo
        .registrations
        .iter()
        .filter(|r| statuses.contains(&r.status) && r.sst_import != Some(true))
    {
        let row = RegistrationJurisdiction {
            country_code: r.country_code.clone(),
            state_code: r.state_code.clone(),
            state_name: r.state_name.clone(),
        };
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    rows.sort_by(|a, b| (&a.country_code, &a.state_code).cmp(&(&b.country_code, &b.state_code)));
    Ok(Json(rows))
}

fn find<'a>(registrations: &'a [Registration], id: &str) -> ApiResult<&'a Registration> {
    registrations
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| ApiError::not_found("Registration", id))
}

pub async fn get_one(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<Registration>> {
    let mut q = Query::parse(raw.as_deref());
    let reveal = q.one_of("reveal", REVEALABLE);
    q.finish()?;
    let data = org.read();
    let mut registration = find(&data.demo.registrations, &id)?.clone();
    if let Some(field) = reveal {
        let secret = secret(&data, &id, &field)
            .map(|sealed| {
                opened(&app.vault, sealed, "credential")
                    .map_err(|e| ApiError::Status(StatusCode::INTERNAL_SERVER_ERROR, e))
            })
            .transpose()?;
        match field.as_str() {
            "password_encrypted" => registration.password_encrypted = secret,
            _ => registration.pin_encrypted = secret,
        }
    }
    Ok(Json(registration))
}

pub async fn jurisdiction_form(
    Extension(_org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<JurisdictionForm>> {
    let q = Query::parse(raw.as_deref());
    let mut errors = Vec::new();
    let mut required = |name: &str| {
        let v = q.get(name).map(str::to_owned);
        if v.is_none() {
            errors.push(FieldError::new(
                "missing",
                vec!["query".into(), name.into()],
                "Field required",
                Value::Null,
            ));
        }
        v
    };
    let (country, state) = (required("country_code"), required("state_code"));
    if let Some(c) = &country
        && !crate::rules::is_country_code(c)
    {
        errors.push(FieldError::new(
            "value_error",
            vec!["query".into(), "country_code".into()],
            "Value error, country_code must be an ISO 3166-1 alpha-2 code such as US",
            Value::String(c.clone()),
        ));
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    let (country, state) = (country.unwrap_or_default(), state.unwrap_or_default());
    Ok(Json(reference::jurisdiction_form(
        &country.to_uppercase(),
        &state.to_uppercase(),
    )))
}

pub async fn oss_countries(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<OssCountry>>> {
    let data = org.read();
    find(&data.demo.registrations, &id)?;
    let countries = data
        .demo
        .oss_countries
        .iter()
        .find(|(rid, _)| *rid == id)
        .map(|(_, c)| c.clone())
        .unwrap_or_default();
    Ok(Json(countries))
}

pub async fn deregister(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Registration>> {
    let body = json_body(&body)?;
    crate::rules::deregistration(body.as_ref())?;
    let registration = {
        let mut data = org.write();
        let registration = data
            .registration_mut(&id)
            .ok_or_else(|| ApiError::not_found("Registration", &id))?;
        if !registration.status.can_deregister() {
            return Err(ApiError::Conflict(format!(
                "Registration {id} is {}: a deregistration cannot be requested",
                registration.status
            )));
        }
        registration.status = RegistrationStatus::Deregistering;
        registration.deregistration_requested = Some(Timestamp::now());
        registration.clone()
    };
    saved(&app).await?;
    Ok(Json(registration))
}

/// The jurisdiction a create body is about: `ZZ_EU` for an OSS import, else its country and
/// state (upper-cased; empty when absent, for the rules to refuse).
fn jurisdiction_of(body: &Value) -> (String, String) {
    if body["registration_import_type"].as_str() == Some("OSS") {
        return ("ZZ_EU".into(), String::new());
    }
    let code = |k: &str| body[k].as_str().unwrap_or_default().trim().to_uppercase();
    (code("country_code"), code("state_code"))
}

/// POST /v1/registrations: a REGULAR, OSS or SST import, checked by
/// [`crate::rules::registration_create`] against the jurisdiction's form (its schema included).
/// An active registration for the same jurisdiction and tax type already on file answers 409.
pub async fn create(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> ApiResult<Json<Registration>> {
    let body = required_body(&body)?;
    let (country, state) = jurisdiction_of(&body);
    let form = reference::jurisdiction_form(&country, &state);
    crate::rules::registration_create(&body, &form)?;
    let import = body["registration_import_type"]
        .as_str()
        .unwrap_or("REGULAR");
    let tax_type = body["tax_type"].as_str().map(TaxType::parse).or_else(|| {
        (import == "REGULAR")
            .then(|| form.tax_types.first().cloned())
            .flatten()
    });
    let registration = {
        let mut data = org.write();
        if let Some(active) = data.demo.registrations.iter().find(|r| {
            r.country_code == country
                && r.state_code == state
                && r.status.can_deregister()
                && (r.tax_type.is_none() || tax_type.is_none() || r.tax_type == tax_type)
        }) {
            let what = tax_type.as_ref().map_or("", TaxType::as_str);
            return Err(ApiError::Conflict(format!(
                "An active {what} registration already exists for {country}{}: {} is {}",
                if state.is_empty() {
                    String::new()
                } else {
                    format!("-{state}")
                },
                active.id,
                active.status
            )));
        }
        let id = data.new_id("regs");
        let name = reference::jurisdiction_name(&country, &state)
            .unwrap_or(&state)
            .to_owned();
        let mut fields = body.clone();
        let obj = fields.as_object_mut().expect("checked as an object");
        for secret in [
            "password_plain_text",
            "password_metadata_plain_text",
            "registration_import_type",
        ] {
            obj.remove(secret);
        }
        if import == "OSS" {
            let msi = obj.remove("member_state_of_identification_code");
            obj.insert(
                "oss_member_state_of_identification_code".into(),
                msi.unwrap_or(Value::Null),
            );
        }
        let today = crate::clock::today();
        let defaults = serde_json::json!({
            "id": id,
            "status": "REGISTERED",
            "country_code": country,
            "state_code": state,
            "state_name": name,
            "filing_frequency": "MONTHLY",
            "registration_type": if import == "OSS" { "EU_OSS" } else { "OTHER" },
            "filing_website_url": reference::filing_website_url(&country, &state),
            "registration_date": today,
            "registration_requested": Timestamp::now(),
            "registration_category": "IMPORTED",
            "imported": true,
            "created_at": Timestamp::now(),
            "tax_type": tax_type.as_ref().map(TaxType::as_str),
        });
        for (k, v) in defaults.as_object().into_iter().flatten() {
            if !obj.contains_key(k)
                || matches!(k.as_str(), "id" | "status" | "country_code" | "state_code")
            {
                obj.insert(k.clone(), v.clone());
            }
        }
        let registration: Registration = serde_json::from_value(fields).map_err(|e| {
            tracing::error!("a checked registration does not read: {e}");
            ApiError::Status(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The registration could not be made.".into(),
            )
        })?;
        data.demo.registrations.push(registration.clone());
        data.touch(Kind::Registration, id);
        registration
    };
    saved(&app).await?;
    Ok(Json(registration))
}

/// PUT /v1/registrations/{id}: changes the fields the body names, checked by
/// [`crate::rules::registration_update`] against the registration's jurisdiction form;
/// `jurisdiction_specific_fields` are merged over those on file.
pub async fn update(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Registration>> {
    let body = required_body(&body)?;
    let current = {
        let data = org.read();
        find(&data.demo.registrations, &id)?.clone()
    };
    let form = reference::jurisdiction_form(&current.country_code, &current.state_code);
    crate::rules::registration_update(&body, &form, current.jurisdiction_specific_fields.as_ref())?;
    let mut fields = serde_json::to_value(&current)
        .map_err(|e| ApiError::Status(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    if let (Some(obj), Some(changes)) = (fields.as_object_mut(), body.as_object()) {
        for (k, v) in changes {
            if k == "jurisdiction_specific_fields" {
                let slot = obj
                    .entry(k.clone())
                    .or_insert_with(|| serde_json::json!({}));
                if !slot.is_object() {
                    *slot = serde_json::json!({});
                }
                if let (Some(saved), Some(new)) = (slot.as_object_mut(), v.as_object()) {
                    for (name, value) in new {
                        saved.insert(name.clone(), value.clone());
                    }
                }
            } else {
                obj.insert(k.clone(), v.clone());
            }
        }
    }
    let updated: Registration = serde_json::from_value(fields).map_err(|e| {
        tracing::error!("an updated registration does not read: {e}");
        ApiError::Status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The registration could not be changed.".into(),
        )
    })?;
    {
        let mut data = org.write();
        let slot = data
            .registration_mut(&id)
            .ok_or_else(|| ApiError::not_found("Registration", &id))?;
        *slot = updated.clone();
    }
    saved(&app).await?;
    Ok(Json(updated))
}
