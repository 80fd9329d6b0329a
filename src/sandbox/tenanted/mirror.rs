//! The mirror: v1 handlers answering Tenanted paths. The request's JSON body is turned into its
//! v1 form before the handler reads it, and the handler's [`Json`] answer is written in its
//! Tenanted form for the request's release, straight from the records (error answers are turned
//! into envelopes by [`envelope_errors`](super::envelope::envelope_errors)).

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::answer::Tenanted;
use super::envelope::envelope;
use super::wire::{from_tenanted, json_body};
use super::{Tenant, TenantedError};
use crate::model::tenanted::ApiVersion;

tokio::task_local! {
    /// The Tenanted release the handler under way answers in; unset on v1 paths.
    static RELEASE: ApiVersion;
}

/// The JSON answer of a handler shared by v1 and the mirror: on v1 the record as it is, on a
/// Tenanted path written in the request's release by [`Tenanted`], without a second pass.
pub(crate) struct Json<T>(pub T);

/// Marks an answer already in its Tenanted form.
#[derive(Clone, Copy)]
struct Written;

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        let release = RELEASE.try_with(|version| *version).ok();
        let body = match release {
            Some(version) => serde_json::to_vec(&Tenanted::new(version, &self.0)),
            None => serde_json::to_vec(&self.0),
        };
        match body {
            Ok(bytes) => {
                let mut response = (
                    [(
                        header::CONTENT_TYPE,
                        HeaderValue::from_static("application/json"),
                    )],
                    bytes,
                )
                    .into_response();
                if release.is_some() {
                    response.extensions_mut().insert(Written);
                }
                response
            }
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        }
    }
}

/// Largest JSON request body read (as for every request).
const REQUEST_LIMIT: usize = 11 * 1024 * 1024;

/// Largest JSON answer read back when a handler did not write it with [`Json`] (a page of the
/// largest size is far below it).
const ANSWER_LIMIT: usize = 256 * 1024 * 1024;

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"))
}

/// Whether a request body is read as JSON: sent as JSON, or with no content type (the v1
/// handlers read JSON whatever the header says); multipart uploads are passed on untouched.
fn body_is_json(headers: &HeaderMap) -> bool {
    !headers.contains_key(header::CONTENT_TYPE) || is_json(headers)
}

/// Translates the request body to v1, and runs the handler in the request's Tenanted release so
/// that its [`Json`] answer is written in that release's form.
pub(crate) async fn translate(request: Request, next: Next) -> Response {
    let Some(tenant) = request.extensions().get::<Tenant>().cloned() else {
        return TenantedError::Internal("The request reached the mirror unauthenticated.".into())
            .into_response();
    };
    let version = tenant.version;
    let path = request.uri().path().to_owned();
    let request = if body_is_json(request.headers()) {
        let (mut parts, body) = request.into_parts();
        let Ok(bytes) = to_bytes(body, REQUEST_LIMIT).await else {
            return envelope(
                StatusCode::PAYLOAD_TOO_LARGE,
                "bad_request",
                "The JSON body is over the 11 MB limit, or could not be read.",
                &[],
            );
        };
        let bytes = match json_body(&bytes) {
            Ok(Some(value)) => match serde_json::to_vec(&from_tenanted(version, &path, value)) {
                Ok(v1) => v1.into(),
                Err(e) => return TenantedError::Internal(e.to_string()).into_response(),
            },
            Ok(None) => bytes,
            Err(e) => return e.into_response(),
        };
        parts.headers.remove(header::CONTENT_LENGTH);
        Request::from_parts(parts, Body::from(bytes))
    } else {
        request
    };
    let response = RELEASE.scope(version, next.run(request)).await;
    if !response.status().is_success()
        || !is_json(response.headers())
        || response.extensions().get::<Written>().is_some()
    {
        return response;
    }
    // An answer not written by `Json`: read back and rewritten.
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, ANSWER_LIMIT).await else {
        return TenantedError::Internal("The answer could not be read.".into()).into_response();
    };
    let Ok(v1) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    match serde_json::to_vec(&Tenanted::new(version, &v1)) {
        Ok(out) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            parts.headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            Response::from_parts(parts, Body::from(out))
        }
        Err(e) => TenantedError::Internal(e.to_string()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    async fn body(response: Response) -> Value {
        let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn a_handler_answers_v1_as_it_is_and_the_mirror_in_its_release() {
        let answer = || Json(json!({"country": "US", "total_amount": "5"}));
        let v1 = answer().into_response();
        assert!(v1.extensions().get::<Written>().is_none());
        assert_eq!(
            body(v1).await,
            json!({"country": "US", "total_amount": "5"})
        );
        let tenanted = RELEASE
            .scope(ApiVersion::LATEST, async move { answer().into_response() })
            .await;
        assert!(tenanted.extensions().get::<Written>().is_some());
        assert!(is_json(tenanted.headers()));
        assert_eq!(
            body(tenanted).await,
            json!({"countryCode": "US", "totalAmount": "5.00"})
        );
    }
}
