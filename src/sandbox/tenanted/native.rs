//! The Tenanted endpoints v1 has no counterpart for: organizations, users and API keys, and the
//! public product catalog.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::{Map, Value, json};

use super::directory::{Role, org_info};
use super::wire::{json_body, timestamp, to_tenanted};
use super::{Tenant, TenantedError, TenantedResult, page_of, saved, to_json};
use crate::model::tenanted::ApiVersion;
use crate::model::{FieldError, Timestamp};
use crate::sandbox::App;
use crate::sandbox::query::Query;
use crate::sandbox::reference;
use crate::sandbox::store::{DirectoryUser, Org};

/// `GET /products/categories`: the catalog, the same for every caller (public).
pub async fn product_categories(
    Extension(tenant): Extension<Tenant>,
) -> TenantedResult<Json<Value>> {
    let catalog = to_json(&reference::product_catalog())?;
    Ok(Json(to_tenanted(tenant.version, &catalog)))
}

/// An organization's row: `state` and `countryCode` are `""` when unset before 2026-10-06, null
/// from it.
fn organization_row(org: &Org, version: ApiVersion) -> Value {
    let info = org_info(&org.id);
    let unset = || {
        if version.is_latest_shape() {
            Value::Null
        } else {
            json!("")
        }
    };
    let text = |v: Option<&str>| v.map_or_else(unset, |s| json!(s));
    json!({
        "id": org.id,
        "name": info.map_or(org.id.as_str(), |i| i.name),
        "state": text(info.and_then(|i| i.state)),
        "countryCode": text(info.and_then(|i| i.country_code)),
        "createdAt": info.and_then(|i| Timestamp::parse(i.created_at)).map_or(Value::Null, |t| timestamp(&t)),
    })
}

/// A page of `rows` as the JSON `{items, total, page, size, pages}`, from the `page` and `size`
/// of `raw_query` (which takes no other parameter).
fn listing(rows: Vec<Value>, raw_query: Option<&str>) -> TenantedResult<Json<Value>> {
    let mut q = Query::parse(raw_query);
    let page = page_of(rows, &mut q)?;
    q.finish()?;
    Ok(Json(page))
}

/// `GET /organizations`: every organization the credential reaches, whatever the selectors.
pub async fn organizations(
    Extension(tenant): Extension<Tenant>,
    RawQuery(raw): RawQuery,
) -> TenantedResult<Json<Value>> {
    let rows = tenant
        .reachable
        .iter()
        .map(|org| organization_row(org, tenant.version))
        .collect();
    listing(rows, raw.as_deref())
}

fn user_row(user: &DirectoryUser) -> Value {
    json!({"id": user.id, "email": user.email, "role": user.role, "status": user.status})
}

/// `GET /users`: the users of the session's organization.
pub async fn users(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    RawQuery(raw): RawQuery,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let rows = app
        .store
        .users()
        .iter()
        .filter(|u| u.organization_id == org.id)
        .map(user_row)
        .collect();
    listing(rows, raw.as_deref())
}

/// A required text field of a JSON object body, trimmed; the 422 names it.
fn text_field(
    body: &Map<String, Value>,
    name: &str,
    errors: &mut Vec<FieldError>,
) -> Option<String> {
    match body.get(name) {
        None | Some(Value::Null) => {
            errors.push(FieldError::new(
                "missing",
                vec!["body".into(), name.into()],
                "Field required",
                Value::Null,
            ));
            None
        }
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(other) => {
            errors.push(FieldError::new(
                "value_error",
                vec!["body".into(), name.into()],
                format!("{name} must be non-blank text"),
                other.clone(),
            ));
            None
        }
    }
}

/// The body as a JSON object; 422 when absent or not an object.
fn object_body(bytes: &Bytes) -> TenantedResult<Map<String, Value>> {
    match json_body(bytes)? {
        Some(Value::Object(map)) => Ok(map),
        other => Err(FieldError::new(
            if other.is_none() {
                "missing"
            } else {
                "model_attributes_type"
            },
            vec!["body".into()],
            "The body must be a JSON object",
            other.unwrap_or(Value::Null),
        )
        .into()),
    }
}

/// `POST /users/invitations` `{email, role}`: a new user of the session's organization, status
/// `INVITED`.
pub async fn invite(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    body: Bytes,
) -> TenantedResult<(StatusCode, Json<Value>)> {
    let org = tenant.target()?;
    let body = object_body(&body)?;
    let mut errors = Vec::new();
    let email = text_field(&body, "email", &mut errors);
    let role = text_field(&body, "role", &mut errors);
    if let Some(email) = &email
        && !valid_email(email)
    {
        errors.push(FieldError::new(
            "value_error",
            vec!["body".into(), "email".into()],
            "email must be an address like name@example.com",
            json!(email),
        ));
    }
    let role = role.and_then(|r| {
        let parsed = Role::parse(&r);
        if parsed.is_none() {
            errors.push(FieldError::new(
                "enum",
                vec!["body".into(), "role".into()],
                "role must be one of OWNER, ADMIN, MEMBER",
                json!(r),
            ));
        }
        parsed
    });
    let (Some(email), Some(role)) = (email, role) else {
        return Err(errors.into());
    };
    if !errors.is_empty() {
        return Err(errors.into());
    }
    let user = {
        let mut users = app.store.users();
        if users
            .iter()
            .any(|u| u.organization_id == org.id && u.email.eq_ignore_ascii_case(&email))
        {
            return Err(TenantedError::conflict(format!(
                "{email} is already a user of the organization."
            )));
        }
        let suffix = &org.id[org.id.len().saturating_sub(1)..];
        let user = DirectoryUser {
            organization_id: org.id.clone(),
            id: format!("user_{suffix}new{:05}", users.len() + 1),
            email,
            role: role.as_str().to_owned(),
            status: "INVITED".to_owned(),
        };
        users.push(user.clone());
        user
    };
    saved(&app).await?;
    Ok((StatusCode::CREATED, Json(user_row(&user))))
}

fn valid_email(email: &str) -> bool {
    email.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
    }) && !email.contains(char::is_whitespace)
}

/// Random lowercase hex characters.
fn hex(len: usize) -> String {
    let n: u128 = rand::random();
    format!("{n:032x}")[..len.min(32)].to_owned()
}

/// `POST /api-keys` `{name}` (session of an Owner or Admin): a new key of the session's
/// organization. The sandbox shows it once and does not accept it afterwards.
pub async fn create_api_key(
    Extension(tenant): Extension<Tenant>,
    body: Bytes,
) -> TenantedResult<(StatusCode, Json<Value>)> {
    let org = tenant.target()?;
    let body = object_body(&body)?;
    let mut errors = Vec::new();
    let Some(name) = text_field(&body, "name", &mut errors) else {
        return Err(errors.into());
    };
    if name.chars().count() > 100 {
        return Err(TenantedError::invalid(
            "name",
            "string_too_long",
            "name must be at most 100 characters",
        ));
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": format!("apik_{}", hex(16)),
            "name": name,
            "key": format!("sbx_{}", hex(32)),
            "organizationId": org.id,
            "createdAt": timestamp(&Timestamp::now()),
        })),
    ))
}
