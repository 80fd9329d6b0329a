//! Registrations: list, detail with reveal, jurisdictions, jurisdiction forms, OSS countries,
//! deregistration.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use serde_json::Value;

use super::{json_body, saved};
use crate::model::{
    FieldError, FilingFrequency, JurisdictionForm, OssCountry, Page, Registration,
    RegistrationJurisdiction, RegistrationStatus, TaxType, Timestamp,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::reference;
use crate::sandbox::store::Org;
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
) -> Answered<Json<Page<Registration>>> {
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
) -> Answered<Json<Vec<RegistrationJurisdiction>>> {
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

fn find<'a>(registrations: &'a [Registration], id: &str) -> Answered<&'a Registration> {
    registrations
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| ErrorAnswer::not_found("Registration", id))
}

pub async fn get_one(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Registration>> {
    let mut q = Query::parse(raw.as_deref());
    let reveal = q.one_of("reveal", REVEALABLE);
    q.finish()?;
    let data = org.read();
    let mut registration = find(&data.demo.registrations, &id)?.clone();
    if let Some(field) = reveal {
        let secret = secret(&data, &id, &field)
            .map(|sealed| {
                opened(&app.vault, sealed, "credential")
                    .map_err(|e| ErrorAnswer::Status(StatusCode::INTERNAL_SERVER_ERROR, e))
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
) -> Answered<Json<JurisdictionForm>> {
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
) -> Answered<Json<Vec<OssCountry>>> {
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
) -> Answered<Json<Registration>> {
    let body = json_body(&body)?;
    crate::rules::deregistration(body.as_ref())?;
    let registration = {
        let mut data = org.write();
        let registration = data
            .registration_mut(&id)
            .ok_or_else(|| ErrorAnswer::not_found("Registration", &id))?;
        if !registration.status.can_deregister() {
            return Err(ErrorAnswer::Conflict(format!(
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
