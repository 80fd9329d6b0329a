//! The routes: v1 under `/v1`, and the same handlers mirrored on the Tenanted API. Unknown paths
//! answer 404 and wrong verbs 405 before authentication, as the live service does; every matched
//! route checks its credential, its organization and the rate limit.

mod addresses;
mod customers;
mod exemptions;
mod misc;
mod nexus;
mod registration_writes;
mod registrations;
mod related;
mod transactions;

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::DefaultBodyLimit;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::{Value, json};

use super::App;
use super::error::{Answered, ErrorAnswer};
use super::{auth, faults, tenanted};
use crate::model::FieldError;

/// Largest request body: a 10 MB certificate plus its multipart framing.
const BODY_LIMIT: usize = 11 * 1024 * 1024;

/// The v1 resources, shared by `/v1` and the Tenanted mirror. With `mirror`, the paths the
/// Tenanted API answers otherwise are left out: `/tax/estimate` (there `POST /tax-estimations`),
/// `/registrations/{id}/deregister` (its own Tenanted handler) and `/products/categories`
/// (public there).
fn resources(mirror: bool) -> Router<Arc<App>> {
    let mut routes = Router::new()
        .route(
            "/registrations",
            get(registrations::list).post(registration_writes::create),
        )
        .route(
            "/registrations/jurisdictions",
            get(registrations::jurisdictions),
        )
        .route(
            "/registrations/jurisdiction-specific-fields",
            get(registrations::jurisdiction_form),
        )
        .route(
            "/registrations/{id}",
            get(registrations::get_one).put(registration_writes::update),
        )
        .route(
            "/registrations/{id}/oss-countries",
            get(registrations::oss_countries),
        )
        .route("/nexus", get(nexus::list_economic))
        .route("/nexus/{id}", get(nexus::get_economic))
        .route(
            "/nexus/physical_nexus",
            get(nexus::list_physical).post(nexus::create_physical),
        )
        .route("/nexus/physical_nexus/categories", get(nexus::categories))
        .route(
            "/nexus/physical_nexus/{id}",
            put(nexus::update_physical).delete(nexus::delete_physical),
        )
        .route(
            "/exemptions",
            get(exemptions::list).post(exemptions::create),
        )
        .route("/exemptions/{id}", get(exemptions::get_one))
        .route(
            "/exemptions/{id}/attachments",
            get(exemptions::attachments).post(exemptions::upload),
        )
        .route(
            "/exemptions/{id}/attachments/{attachment_id}/file",
            get(exemptions::attachment_file),
        )
        .route("/customers", get(customers::list).post(customers::create))
        .route(
            "/customers/{id}",
            get(customers::get_one).put(customers::update),
        )
        .route(
            "/customers/external/{external_id}",
            get(related::customer_by_external_id),
        )
        .route(
            "/customers/{id}/transactions",
            get(related::customer_transactions).post(related::create_customer_transaction),
        )
        .route(
            "/customers/{id}/tax-registrations",
            post(customers::tax_registration),
        )
        .route(
            "/transactions",
            get(transactions::list).post(transactions::create),
        )
        .route(
            "/transactions/external/{external_id}",
            get(transactions::get_external),
        )
        .route(
            "/transactions/{id}",
            get(transactions::get_one).put(related::update_transaction),
        )
        .route(
            "/transactions/filings/{filing_id}",
            get(related::filing_transactions),
        )
        .route(
            "/transactions/{id}/credit_notes",
            post(transactions::credit_note),
        )
        .route(
            "/transactions/{id}/credit_notes/{credit_note_id}",
            put(related::update_credit_note),
        )
        .route(
            "/filings/registration/{id}",
            get(related::registration_filings),
        )
        .route("/address_validation/search", post(addresses::search))
        .route(
            "/address_validation/suggestions",
            post(addresses::suggestions),
        )
        .route("/filings", get(misc::filings))
        .route(
            "/filings/back-filing-terms/current",
            get(misc::back_filing_terms),
        )
        .route("/filings/{id}", get(misc::filing))
        .route("/products", get(misc::products).post(misc::create_product))
        .route(
            "/products/{id}",
            get(misc::product).put(misc::update_product),
        );
    if !mirror {
        routes = routes
            .route(
                "/registrations/{id}/deregister",
                post(registrations::deregister),
            )
            .route("/products/categories", get(misc::product_categories))
            .route("/tax/estimate", post(misc::estimate));
    }
    routes
}

/// v1 under `/v1`, the Tenanted API beside it (no prefix), and the fallbacks of both: a v1 path
/// answers `{detail}`, a Tenanted path the envelope (see [`tenanted::envelope`]).
pub(crate) fn router(app: Arc<App>) -> Router {
    let v1 = resources(false).route_layer(middleware::from_fn_with_state(
        Arc::clone(&app),
        auth::authenticate,
    ));
    let mirror = resources(true)
        .route("/tax-estimations", post(misc::estimate))
        .route_layer(middleware::from_fn(tenanted::mirror::translate));
    Router::new()
        .nest("/v1", v1)
        .merge(tenanted::router(Arc::clone(&app), mirror))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                axum::Json(json!({ "detail": "Not Found" })),
            )
        })
        .method_not_allowed_fallback(|| async {
            (
                StatusCode::METHOD_NOT_ALLOWED,
                axum::Json(json!({ "detail": "Method Not Allowed" })),
            )
        })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            faults::inject,
        ))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            super::frozen::guard,
        ))
        .layer(middleware::from_fn(whole_body))
        .layer(middleware::from_fn(tenanted::envelope::envelope_errors))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Answers compressed to a client that asks (`Accept-Encoding: gzip`), as the service's
        // front does: at gzip's fastest level, which packs JSON almost as well as its default
        // at a fraction of the processor time (the sandbox shares its machine with its client).
        .layer(
            tower_http::compression::CompressionLayer::new()
                .quality(tower_http::CompressionLevel::Fastest),
        )
        .with_state(app)
}

/// Reads the request's body whole before anything answers it. A request refused before its
/// handler reads the body (a wrong key, the rate limit, an injected fault) would otherwise close
/// its kept-alive connection, and a client still sending the body would see a broken pipe
/// instead of the answer. A body over [`BODY_LIMIT`] is answered 413, and its connection closed.
async fn whole_body(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(_) => ErrorAnswer::Status(
            StatusCode::PAYLOAD_TOO_LARGE,
            "The request body is over the 11 MB limit, or could not be read.".into(),
        )
        .into_response(),
    }
}

/// Reads a JSON body: `None` when there is none, a 422 in the service's shape when it is not JSON.
fn json_body(bytes: &Bytes) -> Answered<Option<Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(bytes).map(Some).map_err(|e| {
        ErrorAnswer::from(
            FieldError::new(
                "json_invalid",
                vec!["body".into(), (e.column().saturating_sub(1)).into()],
                "JSON decode error",
                json!({}),
            )
            .with_ctx(json!({ "error": e.to_string() })),
        )
    })
}

/// A JSON body that must be there.
fn required_body(bytes: &Bytes) -> Answered<Value> {
    json_body(bytes)?.ok_or_else(|| {
        FieldError::new(
            "missing",
            vec!["body".into()],
            "Field required",
            Value::Null,
        )
        .into()
    })
}

/// Saves the state after an accepted write; the answer waits until it is on disk.
async fn saved(app: &Arc<App>) -> Answered<()> {
    app.store.save_in_background(app).await.map_err(|e| {
        tracing::error!("{e}");
        ErrorAnswer::Status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The sandbox could not save its state file.".into(),
        )
    })
}
