//! Error answers of the sandbox, in the service's v1 shapes.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use serde_json::{Map, Value};

use crate::model::{ErrorBody, FieldError};

/// Every way a sandbox request can fail, each answered as the live service would.
#[derive(Debug)]
pub enum ApiError {
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

impl ApiError {
    pub fn not_found(what: &str, id: &str) -> Self {
        ApiError::NotFound(format!("{what} {id} not found"))
    }
}

impl From<Vec<FieldError>> for ApiError {
    fn from(errors: Vec<FieldError>) -> Self {
        ApiError::Validation(errors)
    }
}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        ApiError::Validation(vec![error])
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::Unauthorized(d) => (StatusCode::UNAUTHORIZED, ErrorBody::message(d)),
            ApiError::Forbidden(d) => (StatusCode::FORBIDDEN, ErrorBody::message(d)),
            ApiError::NotFound(d) => (StatusCode::NOT_FOUND, ErrorBody::message(d)),
            ApiError::BadRequest(d) => (StatusCode::BAD_REQUEST, ErrorBody::message(d)),
            ApiError::Conflict(d) => (StatusCode::CONFLICT, ErrorBody::message(d)),
            // Every item carries `ctx`, an empty object when there is nothing to say, as the
            // live service's items do.
            ApiError::Validation(errors) => (
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
            ApiError::RateLimited { retry_after_secs } => {
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
            ApiError::Status(status, d) => (status, ErrorBody::message(d)),
        };
        (status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
