//! A registration's portal credentials (update, reveal) and its deregistration.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::{Extension, Json};
use chrono::NaiveDate;
use serde_json::{Map, Value, json};

use super::super::wire::{json_body, timestamp, to_tenanted};
use super::super::{Tenant, TenantedError, TenantedResult};
use super::{saved, to_json};
use crate::model::casing::to_snake;
use crate::model::tenanted::ApiVersion;
use crate::model::{Registration, RegistrationStatus, Timestamp};
use crate::rules::{CA_CODE, CredentialsRefusal, ID_CODE};
use crate::sandbox::App;
use crate::sandbox::demo_data::{MASK, SealedCode, TenantedRecords};
use crate::sandbox::store::{Kind, OrgData, secret_key};
use crate::sandbox::tenanted::features::vault::Vault;

/// The portal codes: camelCase key, and the key of the clear demo secret it replaces.
const CODES: [(&str, &str); 2] = [
    (
        CA_CODE,
        "jurisdiction_specific_fields.cdtfa_third_party_access_security_code",
    ),
    (ID_CODE, "jurisdiction_specific_fields.access_code"),
];

/// The camelCase code key a demo secret named `field` holds, if it is a portal code.
pub(super) fn code_of_secret(field: &str) -> Option<&'static str> {
    CODES.iter().find(|(_, f)| *f == field).map(|(k, _)| *k)
}

/// Whether the registration is in a state whose portal takes an access code (CA or ID).
pub(super) fn has_portal_code(r: &Registration) -> bool {
    r.country_code == "US" && matches!(r.state_code.as_str(), "CA" | "ID")
}

/// Keeps `sealed` as the saved code `key` of registration `id`, in place of any earlier one.
pub(super) fn keep_sealed(records: &mut TenantedRecords, id: &str, key: &str, sealed: String) {
    match records
        .sealed_codes
        .iter_mut()
        .find(|c| c.registration_id == id && c.field == key)
    {
        Some(code) => code.sealed = sealed,
        None => records.sealed_codes.push(SealedCode {
            registration_id: id.to_owned(),
            field: key.to_owned(),
            sealed,
        }),
    }
}

fn not_found(id: &str) -> TenantedError {
    TenantedError::NotFound(format!("Registration {id} not found."))
}

/// The sealed secret `field` of registration `id`.
pub(crate) fn secret<'a>(data: &'a OrgData, id: &str, field: &str) -> Option<&'a str> {
    data.demo
        .secrets
        .iter()
        .find(|(r, f, _)| r == id && f == field)
        .map(|(_, _, v)| v.as_str())
}

/// Keeps `sealed` as secret `field` of registration `id`, in place of any earlier one.
fn set_secret(data: &mut OrgData, id: &str, field: &str, sealed: String) {
    match data
        .demo
        .secrets
        .iter_mut()
        .find(|(r, f, _)| r == id && f == field)
    {
        Some(slot) => slot.2 = sealed,
        None => data
            .demo
            .secrets
            .push((id.to_owned(), field.to_owned(), sealed)),
    }
    data.touch(Kind::Secret, secret_key(id, field));
}

/// Opens a sealed secret for an answer; a secret that does not open is a 500 (the vault's key
/// is not the one it was sealed with), never a wrong value.
pub(crate) fn opened(vault: &Vault, sealed: &str, what: &str) -> Result<String, String> {
    vault.open(sealed).map_err(|e| {
        tracing::error!("a saved {what} does not open: {e}");
        format!("The saved {what} could not be opened: the sandbox's key file is not the one it was saved with.")
    })
}

/// `PUT /registrations/{id}/credentials`: saves the credentials sent (rules 1-5 of the
/// interface, checked in the order 404, 422, 400 for another state's code, 400 for missing
/// registration details) and answers which fields changed, never a value.
pub async fn update(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let body = json_body(&body)?;
    let (state, details) = {
        let data = org.read();
        let r = data.registration(&id).ok_or_else(|| not_found(&id))?;
        (r.state_code.clone(), r.missing_for_credentials())
    };
    let update = match crate::rules::credentials_update(body.as_ref(), &state, tenant.version) {
        Ok(update) => update,
        Err(CredentialsRefusal::Invalid(errors)) => return Err(errors.into()),
        Err(CredentialsRefusal::WrongState(e)) => {
            let message = e.msg.strip_prefix("Value error, ").unwrap_or(&e.msg);
            return Err(TenantedError::bad_request(message));
        }
    };
    if !details.is_empty() {
        return Err(TenantedError::bad_request(format!(
            "Registration {id} lacks {} on file: portal credentials are saved only for a \
             registration with business name, registration type and sales tax id in its \
             jurisdiction-specific fields.",
            words(&details)
        )));
    }
    // Seal every secret before taking the lock: a vault error changes nothing.
    let seal = |value: &str| {
        app.vault.seal(value).map_err(|e| {
            tracing::error!("{e}");
            TenantedError::Internal("The credentials could not be stored.".into())
        })
    };
    let password = update.password.as_deref().map(seal).transpose()?;
    let pin = update.pin.as_deref().map(seal).transpose()?;
    let mut sealed = Vec::new();
    if let Some(codes) = &update.jurisdiction_specific_fields {
        for (key, value) in [
            (CA_CODE, &codes.cdtfa_third_party_access_security_code),
            (ID_CODE, &codes.access_code),
        ] {
            if let Some(value) = value {
                sealed.push((key, seal(value)?));
            }
        }
    }
    let mut updated_fields = Vec::new();
    let has_all = {
        let mut data = org.write();
        if let Some(username) = update.username {
            if let Some(r) = data.registration_mut(&id) {
                r.username = Some(username);
            }
            updated_fields.push("username".to_owned());
        }
        for (key, field, value) in [
            ("password", "password_encrypted", password),
            ("pin", "pin_encrypted", pin),
        ] {
            if let Some(value) = value {
                set_secret(&mut data, &id, field, value);
                if let Some(r) = data.registration_mut(&id) {
                    match key {
                        "password" => r.password_encrypted = Some(MASK.into()),
                        _ => r.pin_encrypted = Some(MASK.into()),
                    }
                }
                updated_fields.push(key.to_owned());
            }
        }
        for (key, s) in sealed {
            keep_sealed(&mut data.demo.tenanted, &id, key, s);
            data.touch(Kind::SealedCode, secret_key(&id, key));
            if let Some((_, earlier)) = CODES.iter().find(|(k, _)| *k == key) {
                data.demo
                    .secrets
                    .retain(|(r, f, _)| !(*r == id && f == earlier));
                data.touch(Kind::Secret, secret_key(&id, earlier));
            }
            updated_fields.push(format!("jurisdictionSpecificFields.{key}"));
        }
        let complete = data.registration(&id).is_some_and(|r| r.username.is_some())
            && secret(&data, &id, "password_encrypted").is_some()
            && secret(&data, &id, "pin_encrypted").is_some();
        let r = data.registration_mut(&id).ok_or_else(|| not_found(&id))?;
        let has_all = r.has_all_credentials.unwrap_or(false) || complete;
        r.has_all_credentials = Some(has_all);
        has_all
    };
    if !updated_fields.is_empty() {
        saved(&app).await?;
    }
    Ok(Json(json!({
        "registrationId": id,
        "updatedFields": updated_fields,
        "hasAllCredentials": has_all,
        "updatedAt": timestamp(&Timestamp::now()),
    })))
}

/// `a`, `a and b`, `a, b and c`.
fn words(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `POST /registrations/{id}/credentials/reveal`: the saved credentials in clear. Security
/// questions are `securityQuestions` from 2026-10-06 (`security_questions` before); the portal
/// access codes appear from 2026-10-05, and only those saved.
pub async fn reveal(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let data = org.read();
    let r = data.registration(&id).ok_or_else(|| not_found(&id))?;
    let open = |sealed: &str, what: &str| {
        opened(&app.vault, sealed, what).map_err(TenantedError::Internal)
    };
    let mut questions = data
        .demo
        .tenanted
        .security_questions
        .iter()
        .find(|(rid, _)| *rid == id)
        .map(|(_, q)| q.clone())
        .unwrap_or_default();
    for q in &mut questions {
        q.answer = open(&q.answer, "security answer")?;
    }
    let password = secret(&data, &id, "password_encrypted")
        .map(|s| open(s, "password"))
        .transpose()?;
    let pin = secret(&data, &id, "pin_encrypted")
        .map(|s| open(s, "PIN"))
        .transpose()?;
    let mut fields = Map::new();
    fields.insert("username".into(), json!(r.username));
    fields.insert("password".into(), json!(password));
    fields.insert("pin".into(), json!(pin));
    let questions_key = if tenant.version.is_latest_shape() {
        "securityQuestions"
    } else {
        "security_questions"
    };
    fields.insert(questions_key.into(), to_json(&questions)?);
    if tenant.version.includes(ApiVersion::PORTAL_CODES) {
        for code in data
            .demo
            .tenanted
            .sealed_codes
            .iter()
            .filter(|c| c.registration_id == id)
        {
            match app.vault.open(&code.sealed) {
                Ok(clear) => {
                    fields.insert(code.field.clone(), Value::String(clear));
                }
                Err(e) => tracing::warn!("a saved portal code of {id} is left out: {e}"),
            }
        }
    }
    Ok(Json(json!({"registrationId": id, "fields": fields})))
}

/// `POST /registrations/{id}/deregister`: the rules of v1 with camelCase field paths. Releases
/// before 2026-09-22 accept no body (then no closure date is recorded); from 2026-09-22 the body
/// is required. Answers the registration in its Tenanted shape.
pub async fn deregister(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let body = json_body(&body)?;
    if org.read().registration(&id).is_none() {
        return Err(not_found(&id));
    }
    let required = tenant
        .version
        .includes(ApiVersion::DEREGISTER_BODY_REQUIRED);
    let closure: Option<(NaiveDate, String)> = match body.filter(|b| !b.is_null()) {
        None if !required => None,
        body => {
            let v1 = body.map(to_snake);
            let request = crate::rules::deregistration(v1.as_ref()).map_err(|mut errors| {
                for e in &mut errors {
                    for (snake, camel) in [
                        ("closure_date", "closureDate"),
                        ("final_return_acknowledged", "finalReturnAcknowledged"),
                    ] {
                        e.msg = e.msg.replace(snake, camel);
                    }
                }
                TenantedError::from(errors)
            })?;
            Some((request.closure_date, request.reason.as_str().to_owned()))
        }
    };
    let registration = {
        let mut data = org.write();
        let registration = data.registration_mut(&id).ok_or_else(|| not_found(&id))?;
        if !registration.status.can_deregister() {
            let closing = matches!(
                registration.status,
                RegistrationStatus::Deregistering | RegistrationStatus::Deregistered
            );
            return Err(TenantedError::conflict(if closing {
                format!(
                    "Registration {id} is already {}: its deregistration was requested before.",
                    registration.status
                )
            } else {
                format!(
                    "Registration {id} is {}: a deregistration cannot be requested.",
                    registration.status
                )
            }));
        }
        registration.status = RegistrationStatus::Deregistering;
        registration.deregistration_requested = Some(Timestamp::now());
        let answer = registration.clone();
        let records = &mut data.demo.tenanted;
        let at = records
            .closures
            .iter()
            .position(|c| c.registration_id == id);
        match (closure, at) {
            (Some((closure_date, reason)), Some(at)) => {
                records.closures[at].closure_date = closure_date;
                records.closures[at].reason = reason;
            }
            (Some((closure_date, reason)), None) => {
                records.closures.push(crate::sandbox::demo_data::Closure {
                    registration_id: id.clone(),
                    closure_date,
                    reason,
                });
            }
            (None, Some(at)) => {
                records.closures.remove(at);
            }
            (None, None) => {}
        }
        data.touch(Kind::Closure, id.clone());
        answer
    };
    saved(&app).await?;
    Ok(Json(to_tenanted(tenant.version, &to_json(&registration)?)))
}
