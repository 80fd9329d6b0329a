//! Error answers of the sandbox, in the service's v1 shapes.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use serde_json::{Map, Value};

use crate::model::{ErrorBody, FieldError};

/// The error answer a v1 route of the sandbox sends: every way a request can fail, each
/// answered with the status and `{detail}` body the live service would send (not the client's
/// [`crate::api::ApiError`], which reads such answers on the other side).
#[derive(Debug)]
pub enum ErrorAnswer {
    /// 401 with the given detail.
    Unauthorized(&'static str),
    /// 403 with the given detail.
    Forbidden(&'static str),
    /// 404 `{detail}`.
    NotFound(String),
    /// 400 `{detail}`: a business rule.
    BadRequest(String),
    /// 409 `{detail}`: a state conflict.
    Conflict(String),
    /// 422 `{detail: [...]}`.
    Validation(Vec<FieldError>),
    /// 429 with `Retry-After` in seconds.
    RateLimited { retry_after_secs: u64 },
    /// An injected or real server failure.
    Status(StatusCode, String),
}

impl ErrorAnswer {
    pub fn not_found(what: &str, id: &str) -> Self {
        ErrorAnswer::NotFound(format!("{what} {id} not found"))
    }
}

impl From<Vec<FieldError>> for ErrorAnswer {
    fn from(errors: Vec<FieldError>) -> Self {
        ErrorAnswer::Validation(errors)
    }
}

impl From<FieldError> for ErrorAnswer {
    fn from(error: FieldError) -> Self {
        ErrorAnswer::Validation(vec![error])
    }
}

impl IntoResponse for ErrorAnswer {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ErrorAnswer::Unauthorized(d) => (StatusCode::UNAUTHORIZED, ErrorBody::message(d)),
            ErrorAnswer::Forbidden(d) => (StatusCode::FORBIDDEN, ErrorBody::message(d)),
            ErrorAnswer::NotFound(d) => (StatusCode::NOT_FOUND, ErrorBody::message(d)),
            ErrorAnswer::BadRequest(d) => (StatusCode::BAD_REQUEST, ErrorBody::message(d)),
            ErrorAnswer::Conflict(d) => (StatusCode::CONFLICT, ErrorBody::message(d)),
            // Every item carries `ctx`, an empty object when there is nothing to say, as the
            // live service's items do.
            ErrorAnswer::Validation(errors) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorBody::validation(
                    errors
                        .into_iter()
                        .map(|mut e| {
                            e.ctx.get_or_insert_with(|| Value::Object(Map::new()));
                            e
                        })
                        .collect(),
                ),
            ),
            ErrorAnswer::RateLimited { retry_after_secs } => {
                let mut response = (
                    StatusCode::TOO_MANY_REQUESTS,
                    Json(ErrorBody::message("Rate limit exceeded. Retry later.")),
                )
                    .into_response();
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
                return response;
            }
            ErrorAnswer::Status(status, d) => (status, ErrorBody::message(d)),
        };
        (status, Json(body)).into_response()
    }
}

/// What a v1 route answers: its body, or an [`ErrorAnswer`].
pub type Answered<T> = Result<T, ErrorAnswer>;
