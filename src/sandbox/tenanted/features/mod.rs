//! The Tenanted-only feature endpoints: portal credentials (update and reveal), deregistration,
//! nexus exposure history, certificate imports (with the public request pages), back-filing
//! options and the bulk filing actions.
//!
//! Their records live in each organization's [`TenantedRecords`](crate::sandbox::demo_data::TenantedRecords)
//! and are saved with the state like every v1 write; portal access codes, passwords, PINs and
//! security answers are kept sealed by the [`vault::Vault`].

mod credentials;
mod filings;
mod imports;
pub(crate) mod vault;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post, put};

use serde_json::Value;

use super::{TenantedResult, page_of, saved, to_json};
use crate::model::FieldError;
use crate::sandbox::App;
use crate::sandbox::demo_data::DemoOrg;
use vault::{Vault, VaultError};

pub(crate) use credentials::{opened, secret};

/// The feature routes, merged under the Tenanted authentication layer (the `/public/` ones take
/// no credential there).
pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/registrations/{id}/credentials", put(credentials::update))
        .route(
            "/registrations/{id}/credentials/reveal",
            post(credentials::reveal),
        )
        .route(
            "/registrations/{id}/deregister",
            post(credentials::deregister),
        )
        .route(
            "/nexus/{id}/exposure-history",
            get(filings::exposure_history),
        )
        .route(
            "/certificate-imports",
            get(imports::list).post(imports::upload),
        )
        .route(
            "/certificate-imports/bulk-approve",
            post(imports::bulk_approve),
        )
        .route("/certificate-imports/{id}", get(imports::get_one))
        .route("/certificate-imports/{id}/approve", post(imports::approve))
        .route(
            "/public/certificate-requests/{token}",
            get(imports::landing_page),
        )
        .route(
            "/public/certificate-requests/{token}/confirm-upload",
            post(imports::confirm_upload),
        )
        .route(
            "/filings/backFilingRequest/options",
            get(filings::back_filing_options),
        )
        .route("/filings/bulk/approve", post(filings::bulk_approve))
        .route("/filings/bulk/pause", post(filings::bulk_pause))
}

/// Seals every secret `demo` holds in clear (generated demo data, or an earlier JSON state):
/// portal access codes of registrations whose portal takes one move to the sealed codes; every
/// other secret (passwords, PINs, codes kept in the jurisdiction-specific fields) and every
/// security question's answer is sealed where it is. Afterwards no secret of `demo` is in
/// clear, in memory or in any state written from it.
pub(crate) fn seal_secrets(demo: &mut DemoOrg, vault: &Vault) -> Result<(), VaultError> {
    let secrets = std::mem::take(&mut demo.secrets);
    for (id, field, value) in secrets {
        let sealed = vault.seal(&value)?;
        let portal_code = credentials::code_of_secret(&field).filter(|_| {
            demo.registrations
                .iter()
                .any(|r| r.id == id && credentials::has_portal_code(r))
        });
        match portal_code {
            Some(key) => credentials::keep_sealed(&mut demo.tenanted, &id, key, sealed),
            None => demo.secrets.push((id, field, sealed)),
        }
    }
    for (_, questions) in &mut demo.tenanted.security_questions {
        for q in questions {
            q.answer = vault.seal(&q.answer)?;
        }
    }
    Ok(())
}

/// A body that must be a JSON object when sent (absent and `null` are `None`).
fn object_body(body: Option<Value>) -> TenantedResult<Option<Value>> {
    match body {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v)),
        Some(other) => Err(FieldError::new(
            "model_attributes_type",
            vec!["body".into()],
            "Input should be a valid dictionary or object to extract fields from",
            other,
        )
        .into()),
    }
}

/// The ids at `key` of a bulk action's body, in the order sent: a non-empty list of strings (a
/// 422 names what is wrong, with `too_short` as the message for an empty list).
fn id_list(body: Option<&Value>, key: &str, too_short: &str) -> TenantedResult<Vec<String>> {
    let loc = || vec!["body".into(), key.into()];
    let Some(value) = body.and_then(|b| b.get(key)).filter(|v| !v.is_null()) else {
        return Err(FieldError::new("missing", loc(), "Field required", Value::Null).into());
    };
    let Some(items) = value.as_array() else {
        return Err(FieldError::new(
            "list_type",
            loc(),
            "Input should be a valid list",
            value.clone(),
        )
        .into());
    };
    if items.is_empty() {
        return Err(FieldError::new("too_short", loc(), too_short, value.clone()).into());
    }
    let mut errors = Vec::new();
    let mut ids = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if let Some(s) = item.as_str() {
            ids.push(s.to_owned());
        } else {
            let mut at = loc();
            at.push(i.into());
            errors.push(FieldError::new(
                "string_type",
                at,
                "Input should be a valid string",
                item.clone(),
            ));
        }
    }
    if errors.is_empty() {
        Ok(ids)
    } else {
        Err(errors.into())
    }
}
