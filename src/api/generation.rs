//! The interface generation: the one place that knows how v1 differs from what may follow
//! (path prefix, credential headers, error bodies). Endpoint methods never look at it.

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::error::{ApiError, Redactor};
use crate::credentials::ApiKey;
use crate::model::{ErrorBody, ErrorDetail, FieldError};

/// Which interface generation the client speaks.
///
/// Only v1 exists today. The dated Tenanted generation (no path prefix, `Api-Key` and
/// `Api-Version` headers, the `{code, message, requestId, errors}` error envelope) is added here
/// as a variant; the endpoint methods do not change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generation {
    /// The legacy v1 interface: paths under `/v1`, `x-api-key` and `x-organization-id`,
    /// `{detail}` error bodies.
    #[default]
    V1,
}

/// What an error message may name besides the service's own words.
pub(crate) struct ErrorContext<'a> {
    /// `GET /v1/registrations/regs_1`.
    pub what: &'a str,
    pub organization_id: &'a str,
    pub redactor: &'a Redactor,
}

impl Generation {
    /// A short label for headers and logs: `v1`.
    pub fn label(self) -> &'static str {
        match self {
            Generation::V1 => "v1",
        }
    }

    /// Path segments every endpoint path starts with.
    pub(crate) fn path_prefix(self) -> &'static [&'static str] {
        match self {
            Generation::V1 => &["v1"],
        }
    }

    /// The headers that carry the credential on every call. The key's header is marked
    /// sensitive, so it is left out of `Debug` output.
    pub(crate) fn auth_headers(
        self,
        organization_id: &str,
        key: &ApiKey,
    ) -> Result<HeaderMap, InvalidHeader> {
        let (key_name, org_name) = match self {
            Generation::V1 => ("x-api-key", "x-organization-id"),
        };
        let mut key_value =
            HeaderValue::from_str(key.expose()).map_err(|_| InvalidHeader::ApiKey)?;
        key_value.set_sensitive(true);
        let org_value =
            HeaderValue::from_str(organization_id).map_err(|_| InvalidHeader::OrganizationId)?;
        let mut headers = HeaderMap::new();
        headers.insert(HeaderName::from_static(key_name), key_value);
        headers.insert(HeaderName::from_static(org_name), org_value);
        Ok(headers)
    }

    /// Turns an error answer into an [`ApiError`]. 429 and 5xx are read here too; the transport
    /// decides about retrying them.
    pub(crate) fn error_from(
        self,
        status: StatusCode,
        body: &[u8],
        ctx: &ErrorContext,
    ) -> ApiError {
        match self {
            Generation::V1 => v1_error(status, body, ctx),
        }
    }
}

/// A credential that cannot travel in an HTTP header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidHeader {
    #[error("the API key contains characters an HTTP header cannot carry")]
    ApiKey,
    #[error("the organization ID contains characters an HTTP header cannot carry")]
    OrganizationId,
}

/// The v1 body: `{detail: "text"}` or, on 422, `{detail: [{type, loc, msg, input, ctx?}]}`.
fn v1_error(status: StatusCode, body: &[u8], ctx: &ErrorContext) -> ApiError {
    let parsed = serde_json::from_slice::<ErrorBody>(body).ok();
    let (message, fields) = match parsed.map(|b| b.detail) {
        Some(ErrorDetail::Message(m)) => (Some(ctx.redactor.text(&m)), None),
        Some(ErrorDetail::Validation(errors)) => (
            None,
            Some(
                errors
                    .into_iter()
                    .map(|e| ctx.redactor.field_error(e))
                    .collect::<Vec<_>>(),
            ),
        ),
        Some(ErrorDetail::Other(v)) => (Some(ctx.redactor.value(v).to_string()), None),
        None => (None, None),
    };
    let detail = || {
        message.clone().unwrap_or_else(|| {
            format!(
                "HTTP {} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("")
            )
            .trim_end()
            .to_owned()
        })
    };
    let org = || ctx.organization_id.to_owned();
    match status {
        StatusCode::UNAUTHORIZED => ApiError::Unauthorized {
            organization_id: org(),
            detail: detail(),
        },
        StatusCode::FORBIDDEN => ApiError::Forbidden {
            organization_id: org(),
            detail: detail(),
        },
        StatusCode::NOT_FOUND => ApiError::NotFound { detail: detail() },
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed {
            what: ctx.what.to_owned(),
        },
        StatusCode::CONFLICT => ApiError::Conflict { detail: detail() },
        StatusCode::UNPROCESSABLE_ENTITY => ApiError::Validation(fields.unwrap_or_else(|| {
            vec![FieldError::new(
                "value_error",
                Vec::new(),
                detail(),
                serde_json::Value::Null,
            )]
        })),
        StatusCode::TOO_MANY_REQUESTS => ApiError::RateLimited { retry_after: None },
        s if s.is_server_error() => ApiError::Server {
            status: s.as_u16(),
            detail: message,
        },
        _ => ApiError::BadRequest { detail: detail() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(status: u16, body: serde_json::Value) -> ApiError {
        let redactor = Redactor::new(ApiKey::new("k3y").unwrap());
        let ctx = ErrorContext {
            what: "GET /v1/x",
            organization_id: "orgn_1",
            redactor: &redactor,
        };
        Generation::V1.error_from(
            StatusCode::from_u16(status).unwrap(),
            body.to_string().as_bytes(),
            &ctx,
        )
    }

    #[test]
    fn v1_bodies_become_typed_errors() {
        assert_eq!(
            read(401, json!({"detail": "Unauthenticated request."})),
            ApiError::Unauthorized {
                organization_id: "orgn_1".into(),
                detail: "Unauthenticated request.".into()
            }
        );
        let e = read(
            422,
            json!({"detail": [{"type": "missing", "loc": ["body", "reason"], "msg": "Field required", "input": null}]}),
        );
        assert_eq!(e.field_errors()[0].field_path(), "reason");
        assert_eq!(
            read(503, json!({})),
            ApiError::Server {
                status: 503,
                detail: None
            }
        );
        assert_eq!(
            read(418, json!("teapot")),
            ApiError::BadRequest {
                detail: "HTTP 418 I'm a teapot".into()
            }
        );
        let e = read(422, json!({"detail": "bad body"}));
        assert_eq!(e.field_errors()[0].msg, "bad body");
    }

    #[test]
    fn v1_sends_both_credential_headers() {
        let h = Generation::V1
            .auth_headers("orgn_1", &ApiKey::new("k3y").unwrap())
            .unwrap();
        assert_eq!(h["x-organization-id"], "orgn_1");
        assert!(h["x-api-key"].is_sensitive());
        assert!(!format!("{h:?}").contains("k3y"));
    }
}
