//! The Tenanted API's error envelope, `{code, message, requestId, errors: [{field, code,
//! message}]}`, read into [`ServiceError`] with a message a user can act on.

use std::fmt;

use reqwest::StatusCode;
use serde_json::Value;

use super::error::{ApiError, ErrorContext, validation_message};
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
    let code = envelope.as_ref().map_or_else(
        || code_of_status(status),
        |e| ErrorCode::parse(&redactor.text(&e.code)),
    );
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
    let message = message.unwrap_or_else(|| status_detail(status));
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

/// The detail of an error answer that gives none: `HTTP 404 Not Found` (just `HTTP 599` for a
/// status without a reason phrase).
pub(super) fn status_detail(status: StatusCode) -> String {
    format!(
        "HTTP {} {}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    )
    .trim_end()
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error::Redactor;
    use crate::api::generation::Generation;
    use crate::credentials::ApiKey;
    use crate::model::tenanted::ApiVersion;
    use serde_json::json;

    const KEY: &str = "sk_test_SECRET";

    fn read(status: u16, body: Value) -> ApiError {
        let redactor = Redactor::new(ApiKey::new(KEY).unwrap());
        let ctx = ErrorContext {
            what: "POST /transactions",
            organization_id: "",
            redactor: &redactor,
        };
        Generation::Tenanted(ApiVersion::LATEST).error_from(
            StatusCode::from_u16(status).unwrap(),
            body.to_string().as_bytes(),
            &ctx,
        )
    }

    fn envelope(code: &str, message: &str) -> Value {
        json!({"code": code, "message": message, "requestId": "req_0123456789abcdef0123", "errors": []})
    }

    #[test]
    fn codes_and_request_ids_reach_the_caller() {
        for (status, code, expected) in [
            (
                400,
                "missing_target_selector",
                ErrorCode::MissingTargetSelector,
            ),
            (
                400,
                "conflicting_target_selectors",
                ErrorCode::ConflictingTargetSelectors,
            ),
            (400, "multiple_credentials", ErrorCode::MultipleCredentials),
            (400, "invalid_api_version", ErrorCode::InvalidApiVersion),
            (401, "unauthorized", ErrorCode::Unauthorized),
            (403, "forbidden", ErrorCode::Forbidden),
            (404, "not_found", ErrorCode::NotFound),
            (405, "method_not_allowed", ErrorCode::MethodNotAllowed),
            (
                409,
                "entity_resolution_ambiguous",
                ErrorCode::EntityResolutionAmbiguous,
            ),
            (409, "conflict", ErrorCode::Conflict),
            (422, "validation_failed", ErrorCode::ValidationFailed),
            (400, "bad_request", ErrorCode::BadRequest),
            (400, "brand_new", ErrorCode::Other("brand_new".into())),
        ] {
            let e = read(status, envelope(code, "words"));
            let service = e.service_error().unwrap_or_else(|| panic!("{code}: {e:?}"));
            assert_eq!(service.code, expected);
            assert_eq!(service.status, status);
            assert_eq!(e.request_id(), Some("req_0123456789abcdef0123"));
            let text = e.to_string();
            assert!(
                text.ends_with("(request ID req_0123456789abcdef0123; quote it to support)"),
                "{text}"
            );
        }
    }

    #[test]
    fn messages_say_what_to_do() {
        let text = read(400, envelope("missing_target_selector", "Which one?")).to_string();
        assert!(text.contains("`:org`"), "{text}");
        assert!(text.contains("organization_id"), "{text}");
        assert!(text.contains("Which one?"), "{text}");
        let text = read(409, envelope("entity_resolution_ambiguous", "Two match.")).to_string();
        assert!(text.contains("entity_source"), "{text}");
        assert!(text.contains("connection_id"), "{text}");
        let text = read(401, envelope("unauthorized", "Invalid key.")).to_string();
        assert!(text.contains("taxdash login"), "{text}");
        assert!(read(401, envelope("unauthorized", "x")).is_unauthorized());
    }

    #[test]
    fn the_key_never_reaches_a_message() {
        let body = json!({
            "code": "unauthorized",
            "message": format!("Key {KEY} is not valid"),
            "requestId": "req_0123456789abcdef0123",
            "errors": [{"field": "apiKey", "code": "invalid", "message": format!("{KEY} revoked")}]
        });
        let e = read(401, body);
        assert!(!e.to_string().contains("SECRET"), "{e}");
        assert!(!format!("{e:?}").contains("SECRET"), "{e:?}");
    }

    #[test]
    fn field_errors_are_read_with_snake_case_paths() {
        let e = read(
            422,
            json!({
                "code": "validation_failed",
                "message": "Some values are not valid.",
                "requestId": "req_0123456789abcdef0123",
                "errors": [
                    {"field": "jurisdictionSpecificFields.accessCode", "code": "blank", "message": "must not be blank"},
                    {"field": "transactionItems.0.amount", "code": "invalid", "message": "not a number"},
                    {"field": "", "code": "missing", "message": "a body is required"}
                ]
            }),
        );
        assert_eq!(
            e.errors_at("jurisdiction_specific_fields.access_code")
                .map(|f| f.msg.as_str())
                .collect::<Vec<_>>(),
            ["must not be blank"]
        );
        assert_eq!(e.errors_at("transaction_items.0.amount").count(), 1);
        assert_eq!(e.field_errors()[1].loc[2], LocPart::Index(0));
        assert_eq!(e.errors_at("").count(), 1);
        assert_eq!(e.field_errors()[0].kind, "blank");
        let text = e.to_string();
        assert!(
            text.contains("jurisdiction_specific_fields.access_code: must not be blank"),
            "{text}"
        );
    }

    #[test]
    fn limits_and_failures_keep_their_retryable_kinds() {
        assert_eq!(
            read(429, envelope("rate_limited", "slow down")),
            ApiError::RateLimited { retry_after: None }
        );
        assert_eq!(
            read(503, envelope("service_unavailable", "down")),
            ApiError::Server {
                status: 503,
                detail: Some("down".into())
            }
        );
    }

    #[test]
    fn a_body_that_is_no_envelope_is_read_from_the_status() {
        let redactor = Redactor::new(ApiKey::new(KEY).unwrap());
        let ctx = ErrorContext {
            what: "GET /x",
            organization_id: "",
            redactor: &redactor,
        };
        let e = tenanted_error(StatusCode::NOT_FOUND, b"<html>nope</html>", &ctx);
        assert_eq!(e.code(), Some(&ErrorCode::NotFound));
        assert_eq!(e.request_id(), None);
        assert!(e.to_string().contains("HTTP 404 Not Found"), "{e}");
        assert!(!e.to_string().contains("request ID"), "{e}");
    }

    #[test]
    fn allow_headers_are_split() {
        assert_eq!(parse_allow("GET, POST"), ["GET", "POST"]);
        assert_eq!(parse_allow("POST"), ["POST"]);
        assert!(parse_allow(" ").is_empty());
    }
}
