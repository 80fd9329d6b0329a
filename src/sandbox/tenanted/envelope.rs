//! The Tenanted error envelope `{code, message, requestId, errors}`, and the layer that turns
//! every other error answer on a Tenanted path (a v1 handler's `{detail}`, a fallback, an
//! injected fault) into one.

use axum::Json;
use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;

use crate::model::casing::snake_to_camel;
use crate::model::{ErrorBody, ErrorDetail, FieldError, LocPart};

/// One field-level detail of an envelope. `field` is a dotted camelCase path, `""` for the body
/// as a whole.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct EnvField {
    pub field: String,
    pub code: String,
    pub message: String,
}

/// Every way a Tenanted request fails, each answered with its envelope `code`.
#[derive(Debug)]
pub(crate) enum TenantedError {
    /// 400 with one of the selector, credential, release or business-rule codes.
    BadRequest { code: &'static str, message: String },
    /// 401 `unauthorized`.
    Unauthorized(String),
    /// 403 `forbidden`.
    Forbidden(String),
    /// 404 `not_found`.
    NotFound(String),
    /// 409 `entity_resolution_ambiguous` or `conflict`.
    Conflict { code: &'static str, message: String },
    /// 422 `validation_failed`.
    Validation {
        message: String,
        errors: Vec<EnvField>,
    },
    /// 429 `rate_limited` with `Retry-After` in seconds.
    RateLimited { retry_after_secs: u64 },
    /// 500 `internal_error`.
    Internal(String),
}

pub(crate) type TenantedResult<T> = Result<T, TenantedError>;

impl TenantedError {
    /// A 400 `bad_request`: a business rule.
    pub fn bad_request(message: impl Into<String>) -> Self {
        TenantedError::BadRequest {
            code: "bad_request",
            message: message.into(),
        }
    }

    /// A 409 `conflict`: a state conflict.
    pub fn conflict(message: impl Into<String>) -> Self {
        TenantedError::Conflict {
            code: "conflict",
            message: message.into(),
        }
    }

    /// A 422 with one error at the dotted camelCase `field`.
    pub fn invalid(field: &str, code: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        TenantedError::Validation {
            message: format!("The request is not valid: {field}: {message}"),
            errors: vec![EnvField {
                field: field.to_owned(),
                code: code.to_owned(),
                message,
            }],
        }
    }
}

/// The envelope body.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a> {
    code: &'a str,
    message: &'a str,
    request_id: String,
    errors: &'a [EnvField],
}

/// A fresh request id: `req_` and 20 lowercase hex characters.
pub(crate) fn request_id() -> String {
    let n: u128 = rand::random();
    let hex = format!("{n:032x}");
    format!("req_{}", &hex[..20])
}

/// An envelope answer.
pub(crate) fn envelope(
    status: StatusCode,
    code: &str,
    message: &str,
    errors: &[EnvField],
) -> Response {
    let body = Envelope {
        code,
        message,
        request_id: request_id(),
        errors,
    };
    (status, Json(body)).into_response()
}

impl IntoResponse for TenantedError {
    fn into_response(self) -> Response {
        match self {
            TenantedError::BadRequest { code, message } => {
                envelope(StatusCode::BAD_REQUEST, code, &message, &[])
            }
            TenantedError::Unauthorized(m) => {
                envelope(StatusCode::UNAUTHORIZED, "unauthorized", &m, &[])
            }
            TenantedError::Forbidden(m) => envelope(StatusCode::FORBIDDEN, "forbidden", &m, &[]),
            TenantedError::NotFound(m) => envelope(StatusCode::NOT_FOUND, "not_found", &m, &[]),
            TenantedError::Conflict { code, message } => {
                envelope(StatusCode::CONFLICT, code, &message, &[])
            }
            TenantedError::Validation { message, errors } => envelope(
                StatusCode::UNPROCESSABLE_ENTITY,
                "validation_failed",
                &message,
                &errors,
            ),
            TenantedError::RateLimited { retry_after_secs } => {
                let mut response = envelope(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    &format!("Rate limit exceeded. Retry in {retry_after_secs} s."),
                    &[],
                );
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
                response
            }
            TenantedError::Internal(m) => {
                envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", &m, &[])
            }
        }
    }
}

/// A v1 `loc` as an envelope `field`: without the leading `body`, key parts in camelCase,
/// joined by dots. Other locations (`query`, `path`) keep their names, which the Tenanted API
/// does not rename.
pub(crate) fn field_of(loc: &[LocPart]) -> String {
    let (body, parts) = match loc.first() {
        Some(LocPart::Key(k)) if k == "body" => (true, &loc[1..]),
        _ => (false, loc),
    };
    parts
        .iter()
        .map(|p| match p {
            LocPart::Key(k) if body => snake_to_camel(k),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

impl From<&FieldError> for EnvField {
    fn from(e: &FieldError) -> Self {
        EnvField {
            field: field_of(&e.loc),
            code: e.kind.clone(),
            message: e.msg.clone(),
        }
    }
}

impl From<Vec<FieldError>> for TenantedError {
    fn from(errors: Vec<FieldError>) -> Self {
        let errors: Vec<EnvField> = errors.iter().map(EnvField::from).collect();
        let message = match errors.as_slice() {
            [one] if one.field.is_empty() => format!("The request is not valid: {}", one.message),
            [one] => format!("The request is not valid: {}: {}", one.field, one.message),
            many => format!(
                "The request is not valid: {} fields failed validation.",
                many.len()
            ),
        };
        TenantedError::Validation { message, errors }
    }
}

impl From<FieldError> for TenantedError {
    fn from(error: FieldError) -> Self {
        TenantedError::from(vec![error])
    }
}

/// The envelope `code` of an error status with no more specific code.
pub(crate) fn code_for(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        422 => "validation_failed",
        429 => "rate_limited",
        503 => "service_unavailable",
        500..=599 => "internal_error",
        _ => "bad_request",
    }
}

/// Whether `path` belongs to v1 (whose error bodies stay `{detail}`).
pub(crate) fn is_v1_path(path: &str) -> bool {
    path == "/v1" || path.starts_with("/v1/")
}

/// Largest error body read back for conversion; errors are small.
const ERROR_BODY_LIMIT: usize = 1024 * 1024;

/// Outermost layer: on a Tenanted path, an error answer not already an envelope (a v1 handler's
/// `{detail}`, a 404/405 fallback, an injected fault, a body over the size limit) is answered
/// as one, keeping its status and its `Allow` and `Retry-After` headers.
pub(crate) async fn envelope_errors(request: Request, next: Next) -> Response {
    let v1 = is_v1_path(request.uri().path());
    let response = next.run(request).await;
    let status = response.status();
    if v1 || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = to_bytes(body, ERROR_BODY_LIMIT).await.unwrap_or_default();
    let value: Option<Value> = serde_json::from_slice(&bytes).ok();
    if value
        .as_ref()
        .is_some_and(|v| v.get("code").is_some() && v.get("requestId").is_some())
    {
        return Response::from_parts(parts, Body::from(bytes));
    }
    let detail = value
        .and_then(|v| serde_json::from_value::<ErrorBody>(v).ok())
        .map(|b| b.detail);
    let mut converted = match detail {
        Some(ErrorDetail::Validation(errors)) if status == StatusCode::UNPROCESSABLE_ENTITY => {
            TenantedError::from(errors).into_response()
        }
        Some(ErrorDetail::Message(message)) => envelope(status, code_for(status), &message, &[]),
        _ => {
            let text = String::from_utf8_lossy(&bytes).trim().to_owned();
            let message = if text.is_empty() || text.starts_with('{') {
                status
                    .canonical_reason()
                    .unwrap_or("The request failed.")
                    .to_owned()
            } else {
                text
            };
            envelope(status, code_for(status), &message, &[])
        }
    };
    *converted.status_mut() = status;
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            converted.headers_mut().insert(name, value.clone());
        }
    }
    converted
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn locations_become_dotted_camel_case_fields() {
        let e = FieldError::new(
            "missing",
            vec![
                "body".into(),
                "transaction_items".into(),
                0usize.into(),
                "tax_amount_imported".into(),
            ],
            "Field required",
            json!(null),
        );
        assert_eq!(
            EnvField::from(&e),
            EnvField {
                field: "transactionItems.0.taxAmountImported".into(),
                code: "missing".into(),
                message: "Field required".into(),
            }
        );
        assert_eq!(field_of(&["body".into()]), "");
        assert_eq!(
            field_of(&["query".into(), "status__in".into()]),
            "query.status__in"
        );
    }

    #[test]
    fn request_ids_are_fresh_and_shaped() {
        let (a, b) = (request_id(), request_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 24);
        assert!(a.starts_with("req_"));
        assert!(
            a[4..]
                .bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
        );
    }
}
