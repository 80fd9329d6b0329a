//! The Tenanted feature endpoints (credentials, deregistration, exposure history, certificate
//! imports, back-filing options, bulk filing actions); none yet.

/// The feature routes, merged under the Tenanted authentication layer.
pub(crate) fn routes() -> axum::Router<std::sync::Arc<crate::sandbox::App>> {
    axum::Router::new()
}
