//! The Tenanted API's error envelope, `{code, message, requestId, errors: [{field, code,
//! message}]}`, read into [`ServiceError`] with a message a user can act on.

use std::fmt;

use reqwest::StatusCode;
use serde_json::Value;

use super::error::{ApiError, validation_message};
use super::generation::ErrorContext;
use crate::model::tenanted::{ErrorCode, ErrorEnvelope};
use crate::model::{FieldError, LocPart, casing};

/// A refusal of the Tenanted API, as its error envelope told it (scrubbed of the key).
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceError {
    /// The HTTP status (400, 401, 403, 404, 405, 409, 422, ...).
    pub status: u16,
    /// What went wrong, for branching (`missing_target_selector`, `not_found`, ...).
    pub code: ErrorCode,
    /// The service's own words.
    pub message: String,
    /// `req_...`: the ID support needs to find the call.
    pub request_id: Option<String>,
    /// Field-level details; `loc` is `["body", snake_case parts...]`, so
    /// [`FieldError::field_path`] reads `jurisdiction_specific_fields.access_code`.
    pub errors: Vec<FieldError>,
    /// On a 405, the methods the path takes (`Allow` header).
    pub allow: Vec<String>,
}

impl ServiceError {
    /// What the code means, and what to do about it.
    fn explanation(&self) -> String {
        let m = &self.message;
        match &self.code {
            ErrorCode::MissingTargetSelector => format!(
                "The API key reaches several organizations and the service needs to know which \
                 one to act on ({m}). Choose an organization with `:org`, or set \
                 `organization_id` in the profile."
            ),
            ErrorCode::ConflictingTargetSelectors => format!(
                "The organization, connection and entity settings point at different \
                 organizations ({m}). Keep one of `organization_id`, `connection_id` and \
                 `entity_id` in the profile, or make them agree."
            ),
            ErrorCode::MultipleCredentials => format!(
                "The request carried both an API key and a session token ({m}); the service \
                 takes one credential per call."
            ),
            ErrorCode::InvalidApiVersion => format!(
                "The service does not know the API release asked for ({m}). Set `api_version` \
                 in the profile to a release date such as 2026-10-06, or remove it."
            ),
            ErrorCode::Unauthorized => format!(
                "The service refused the API key ({m}). Check the key with `taxdash login`."
            ),
            ErrorCode::Forbidden => format!(
                "The credential is not allowed to do this ({m}). Ask an owner or admin of the \
                 organization."
            ),
            ErrorCode::NotFound => format!(
                "Not found: {m}. The record may have been deleted, or it belongs to an \
                 organization the API key does not reach."
            ),
            ErrorCode::MethodNotAllowed => {
                let allowed = if self.allow.is_empty() {
                    String::new()
                } else {
                    format!("; it takes {}", self.allow.join(", "))
                };
                format!(
                    "The service does not accept this method on this path ({m}{allowed}). This \
                     is a taxdash bug; please report it."
                )
            }
            ErrorCode::EntityResolutionAmbiguous => format!(
                "The entity ID matches connections in more than one place ({m}). Add \
                 `entity_source` or `connection_id` to the profile to say which one."
            ),
            ErrorCode::ValidationFailed => validation_message(&self.errors),
            ErrorCode::Conflict => format!(
                "The service refused the change because it conflicts with the current state: {m}"
            ),
            ErrorCode::BadRequest => format!("The service refused the request: {m}"),
            ErrorCode::RateLimited => format!(
                "Too many requests: the rate limit of the API key was reached ({m}). Try again \
                 shortly."
            ),
            ErrorCode::Other(code) => format!(
                "The service refused the request (HTTP {}, {code}): {m}",
                self.status
            ),
        }
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation())?;
        if let Some(id) = &self.request_id {
            write!(f, " (request ID {id}; quote it to support)")?;
        }
        Ok(())
    }
}

/// The code a status means when the body is not an envelope.
fn code_of_status(status: StatusCode) -> ErrorCode {
    match status.as_u16() {
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        409 => ErrorCode::Conflict,
        422 => ErrorCode::ValidationFailed,
        429 => ErrorCode::RateLimited,
        _ => ErrorCode::BadRequest,
    }
}

/// A dotted camelCase field path (`transactionItems.0.amount`) as a `loc` under `body`.
pub(crate) fn loc_of_field(field: &str) -> Vec<LocPart> {
    let mut loc = vec![LocPart::from("body")];
    loc.extend(
        field
            .split('.')
            .filter(|p| !p.is_empty())
            .map(|part| match part.parse::<u64>() {
                Ok(i) => LocPart::Index(i),
                Err(_) => LocPart::Key(casing::camel_to_snake(part)),
            }),
    );
    loc
}

/// Reads a Tenanted error answer. 429 and 5xx become [`ApiError::RateLimited`] and
/// [`ApiError::Server`] (the transport retries them); the request ID of those is logged.
pub(crate) fn tenanted_error(status: StatusCode, body: &[u8], ctx: &ErrorContext) -> ApiError {
    let redactor = ctx.redactor;
    let envelope = serde_json::from_slice::<ErrorEnvelope>(body).ok();
    let request_id = envelope
        .as_ref()
        .and_then(|e| e.request_id.as_deref())
        .map(|id| redactor.text(id));
    let message = envelope
        .as_ref()
        .map(|e| redactor.text(&e.message))
        .filter(|m| !m.is_empty());
    if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
        tracing::warn!(
            what = ctx.what,
            status = status.as_u16(),
            request_id = request_id.as_deref().unwrap_or("-"),
            "the service refused the call"
        );
        return if status == StatusCode::TOO_MANY_REQUESTS {
            ApiError::RateLimited { retry_after: None }
        } else {
            ApiError::Server {
                status: status.as_u16(),
                detail: message,
            }
        };
    }
    let code = envelope
        .as_ref()
        .map(|e| ErrorCode::parse(&redactor.text(&e.code)))
        .unwrap_or_else(|| code_of_status(status));
    let errors = envelope
        .map(|e| e.errors)
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            let kind = if e.code.is_empty() {
                "value_error".to_owned()
            } else {
                e.code
            };
            redactor.field_error(FieldError::new(
                &kind,
                loc_of_field(&e.field),
                e.message,
                Value::Null,
            ))
        })
        .collect();
    let message = message.unwrap_or_else(|| {
        format!(
            "HTTP {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("")
        )
        .trim_end()
        .to_owned()
    });
    ApiError::Tenanted(Box::new(ServiceError {
        status: status.as_u16(),
        code,
        message,
        request_id,
        errors,
        allow: Vec::new(),
    }))
}

/// The methods of an `Allow` header value: `GET, POST` -> `["GET", "POST"]`.
pub(crate) fn parse_allow(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect()
}
