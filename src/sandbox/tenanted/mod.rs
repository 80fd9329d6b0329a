//! The Tenanted API of the sandbox: the same records as v1 under paths without a prefix, with
//! camelCase keys, dated releases (`Api-Version`), credentials that reach several organizations
//! and selectors that pick one, and the error envelope.
//!
//! Every request on a Tenanted path goes through [`select::authenticate`], which checks the
//! credential, the rate limit, the release and the selectors, then hands the handler a
//! [`Tenant`] (and the target organization, for the v1 handlers the mirror reuses).

pub(crate) mod answer;
pub(crate) mod directory;
pub(crate) mod envelope;
pub(crate) mod features;
pub(crate) mod mirror;
mod native;
pub(crate) mod select;
pub(crate) mod wire;

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::routing::{get, post};
use serde_json::Value;

pub(crate) use envelope::{TenantedError, TenantedResult};

use super::App;
use super::query::Query;
use super::store::Org;
use crate::model::Page;
use crate::model::tenanted::ApiVersion;

/// Who a Tenanted request acts for, inserted as a request extension by the authentication
/// layer: handlers take `Extension<Tenant>`.
#[derive(Clone)]
pub(crate) struct Tenant {
    /// The release the request runs (`Api-Version`, or the default).
    pub version: ApiVersion,
    /// The target organization: the selectors', or the credential's home organization. `None`
    /// only on public endpoints.
    pub org: Option<Arc<Org>>,
    /// Every organization the credential reaches.
    pub reachable: Vec<Arc<Org>>,
}

impl Tenant {
    /// The target organization; a 404 `not_found` on a public endpoint, which has none.
    pub fn target(&self) -> TenantedResult<&Arc<Org>> {
        self.org
            .as_ref()
            .ok_or_else(|| TenantedError::NotFound("No organization is selected.".into()))
    }
}

/// The Tenanted routes: `mirror` (the v1 handlers, already wrapped in the translation layer),
/// the native endpoints and the feature endpoints, all behind the authentication and selector
/// layer.
pub(crate) fn router(app: Arc<App>, mirror: Router<Arc<App>>) -> Router<Arc<App>> {
    Router::new()
        .merge(mirror)
        .route("/products/categories", get(native::product_categories))
        .route("/organizations", get(native::organizations))
        .route("/users", get(native::users))
        .route("/users/invitations", post(native::invite))
        .route("/api-keys", post(native::create_api_key))
        .merge(features::routes())
        .route_layer(middleware::from_fn_with_state(app, select::authenticate))
}

/// Saves the state after an accepted write; the answer waits until it is on disk.
async fn saved(app: &Arc<App>) -> TenantedResult<()> {
    app.store.save_in_background(app).await.map_err(|e| {
        tracing::error!("{e}");
        TenantedError::Internal("The sandbox could not save its state file.".into())
    })
}

/// A page of `rows` as `{items, total, page, size, pages}`, from the query's `page` and `size`.
fn page_of(rows: Vec<Value>, q: &mut Query) -> TenantedResult<Value> {
    let params = q.page();
    let total = rows.len() as u64;
    let items: Vec<Value> = rows
        .into_iter()
        .skip(params.offset())
        .take(params.size as usize)
        .collect();
    to_json(&Page::new(items, total, params.page, params.size))
}

/// A value as JSON, for answers built from the records.
fn to_json<T: serde::Serialize>(value: &T) -> TenantedResult<Value> {
    serde_json::to_value(value).map_err(|e| TenantedError::Internal(e.to_string()))
}
