//! Authentication and target selection on the Tenanted API, in the documented order:
//! 1. `Api-Key` and a bearer token together: 400 `multiple_credentials`;
//! 2. the credential the endpoint takes (none on public endpoints, a session token on the users
//!    and API-key endpoints, an API key elsewhere): 401 `unauthorized` when missing, invalid or
//!    of the wrong kind; 403 `forbidden` for a Member creating an API key;
//! 3. the rate limit per credential: 429 `rate_limited`;
//! 4. `Api-Version`: 400 `invalid_api_version`;
//! 5. each selector (`Organization-Id`, `Connection-Id`, `Entity-Id` with `Entity-Source`)
//!    resolves among the reachable organizations: 404 `not_found` (an unreachable organization
//!    answers as a nonexistent one), 409 `entity_resolution_ambiguous`, and 400
//!    `conflicting_target_selectors` when they disagree;
//! 6. without a selector, reads run against the home organization and writes with a credential
//!    reaching several organizations answer 400 `missing_target_selector`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::directory::{self, CONNECTIONS, PARTNER_KEYS, Role};
use super::{Tenant, TenantedError, TenantedResult};
use crate::model::tenanted::ApiVersion;
use crate::sandbox::App;
use crate::sandbox::auth::header_value;
use crate::sandbox::store::Org;

/// Which credential an endpoint takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndpointKind {
    /// No credential; selectors are ignored.
    Public,
    /// Users endpoints: a session token only.
    Users,
    /// API-key management: a session token of an Owner or Admin.
    ApiKeys,
    /// Everything else: an API key only.
    Keyed,
}

/// The kind of the endpoint at `path`.
pub(crate) fn endpoint_kind(path: &str) -> EndpointKind {
    let under = |prefix: &str| path == prefix || path.starts_with(&format!("{prefix}/"));
    if path == "/products/categories" || path.starts_with("/public/") {
        EndpointKind::Public
    } else if under("/users") {
        EndpointKind::Users
    } else if under("/api-keys") {
        EndpointKind::ApiKeys
    } else {
        EndpointKind::Keyed
    }
}

/// Whether a request reads (GET, and the POST that reveals saved credentials) rather than writes.
pub(crate) fn is_read(method: &Method, path: &str) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
        || (*method == Method::POST && path.ends_with("/credentials/reveal"))
}

/// The bearer token of `Authorization`, if the header is sent at all (`Some("")` when it does not
/// hold one, so that it still counts as a credential sent).
fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = header_value(headers, header::AUTHORIZATION.as_str())?;
    let token = value
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned())
        .unwrap_or_default();
    Some(token)
}

/// What a credential is and what it reaches (the first organization is its home).
struct Credential {
    /// The rate limit's key.
    limit_key: String,
    reaches: Vec<Arc<Org>>,
    role: Option<Role>,
}

const NO_CREDENTIAL: &str =
    "This endpoint needs a credential: send Api-Key, or a session token as Authorization: Bearer.";

/// An API key: an organization's own key, or a partner key.
fn api_key(app: &App, key: &str) -> Option<Credential> {
    if let Some(org) = app.store.org_for_key(key) {
        return Some(Credential {
            limit_key: key.to_owned(),
            reaches: vec![Arc::clone(org)],
            role: None,
        });
    }
    let partner = PARTNER_KEYS.iter().find(|p| p.key == key)?;
    let reaches: Vec<Arc<Org>> = partner
        .reaches
        .iter()
        .filter_map(|id| app.store.org_by_id(id).map(Arc::clone))
        .collect();
    (!reaches.is_empty()).then(|| Credential {
        limit_key: key.to_owned(),
        reaches,
        role: None,
    })
}

/// A session token: its user's organization and role.
fn session(app: &App, token: &str) -> Option<Credential> {
    let session = directory::session(token)?;
    let org = app.store.org_by_id(session.organization_id)?;
    Some(Credential {
        limit_key: format!("session:{token}"),
        reaches: vec![Arc::clone(org)],
        role: Some(session.role),
    })
}

/// Steps 1 and 2: the credential the endpoint takes, checked. `None` on a public endpoint.
fn credential(
    app: &App,
    kind: EndpointKind,
    headers: &HeaderMap,
) -> TenantedResult<Option<Credential>> {
    let key = header_value(headers, "api-key");
    let token = bearer(headers);
    if key.is_some() && token.is_some() {
        return Err(TenantedError::BadRequest {
            code: "multiple_credentials",
            message: "Send one credential: either Api-Key or Authorization: Bearer, not both."
                .into(),
        });
    }
    match kind {
        EndpointKind::Public => Ok(None),
        EndpointKind::Keyed => match (key, token) {
            (Some(key), _) => api_key(app, &key)
                .map(Some)
                .ok_or_else(|| TenantedError::Unauthorized("The API key is not valid.".into())),
            (None, Some(_)) => Err(TenantedError::Unauthorized(
                "This endpoint takes an API key (Api-Key), not a session token.".into(),
            )),
            (None, None) => Err(TenantedError::Unauthorized(NO_CREDENTIAL.into())),
        },
        EndpointKind::Users | EndpointKind::ApiKeys => {
            let token = match (key, token) {
                (_, Some(token)) => token,
                (Some(_), None) => {
                    return Err(TenantedError::Unauthorized(
                        "This endpoint takes a signed-in user's session token \
                         (Authorization: Bearer), not an API key."
                            .into(),
                    ));
                }
                (None, None) => return Err(TenantedError::Unauthorized(NO_CREDENTIAL.into())),
            };
            let credential = session(app, &token).ok_or_else(|| {
                TenantedError::Unauthorized("The session token is not valid.".into())
            })?;
            if kind == EndpointKind::ApiKeys && !credential.role.is_some_and(Role::manages_keys) {
                return Err(TenantedError::Forbidden(
                    "Only an Owner or Admin of the organization can manage API keys.".into(),
                ));
            }
            Ok(Some(credential))
        }
    }
}

/// Step 4: the release of `Api-Version`, the default when absent.
pub(crate) fn api_version(headers: &HeaderMap) -> TenantedResult<ApiVersion> {
    let Some(raw) = headers.get("api-version") else {
        return Ok(ApiVersion::DEFAULT);
    };
    let text = raw.to_str().unwrap_or("");
    ApiVersion::parse(text).ok_or_else(|| TenantedError::BadRequest {
        code: "invalid_api_version",
        message: format!(
            "Api-Version must be a release date YYYY-MM-DD on or after {}; {:?} is not one.",
            ApiVersion::DEFAULT,
            text.chars().take(40).collect::<String>()
        ),
    })
}

/// The answer to a selector naming an organization the credential does not reach: the same for
/// one that does not exist.
fn no_such(what: &str, id: &str) -> TenantedError {
    TenantedError::NotFound(format!("{what} {id} not found."))
}

fn reached<'a>(reaches: &'a [Arc<Org>], id: &str) -> Option<&'a Arc<Org>> {
    reaches.iter().find(|o| o.id == id)
}

/// Step 5: the organization each selector sent names, checked to agree. `Ok(None)` when no
/// selector was sent.
fn resolve(headers: &HeaderMap, reaches: &[Arc<Org>]) -> TenantedResult<Option<Arc<Org>>> {
    let org_id = header_value(headers, "organization-id");
    let connection_id = header_value(headers, "connection-id");
    let entity_id = header_value(headers, "entity-id");
    let entity_source = header_value(headers, "entity-source");
    let mut named: Vec<(&str, &Arc<Org>)> = Vec::new();
    if let Some(id) = &org_id {
        named.push((
            "Organization-Id",
            reached(reaches, id).ok_or_else(|| no_such("Organization", id))?,
        ));
    }
    if let Some(id) = &connection_id {
        let org = CONNECTIONS
            .iter()
            .find(|c| c.id == id)
            .and_then(|c| reached(reaches, c.organization_id))
            .ok_or_else(|| no_such("Connection", id))?;
        named.push(("Connection-Id", org));
    }
    if let Some(entity) = &entity_id {
        let matches: Vec<&Arc<Org>> = CONNECTIONS
            .iter()
            .filter(|c| c.entity_id == entity)
            .filter(|c| {
                entity_source
                    .as_deref()
                    .is_none_or(|s| c.entity_source.eq_ignore_ascii_case(s))
            })
            .filter(|c| connection_id.as_deref().is_none_or(|id| c.id == id))
            .filter_map(|c| reached(reaches, c.organization_id))
            .collect();
        let org = match matches.as_slice() {
            [] => return Err(no_such("Entity", entity)),
            [one] => *one,
            _ => {
                return Err(TenantedError::Conflict {
                    code: "entity_resolution_ambiguous",
                    message: format!(
                        "Entity {entity} matches {} connections: add Entity-Source or \
                         Connection-Id to choose one.",
                        matches.len()
                    ),
                });
            }
        };
        named.push(("Entity-Id", org));
    }
    let Some((first_name, first)) = named.first().copied() else {
        return Ok(None);
    };
    if let Some((other_name, other)) = named.iter().find(|(_, o)| o.id != first.id) {
        return Err(TenantedError::BadRequest {
            code: "conflicting_target_selectors",
            message: format!(
                "{first_name} selects organization {} but {other_name} selects {}: send \
                 selectors that agree, or one of them.",
                first.id, other.id
            ),
        });
    }
    Ok(Some(Arc::clone(first)))
}

/// Checks a Tenanted request in the documented order and hands the handler its [`Tenant`] (and,
/// for the v1 handlers of the mirror, the target organization as `Extension<Arc<Org>>`).
pub(crate) async fn authenticate(
    State(app): State<Arc<App>>,
    mut request: Request,
    next: Next,
) -> Response {
    match tenant(
        &app,
        request.method(),
        request.uri().path(),
        request.headers(),
    ) {
        Ok(tenant) => {
            if let Some(org) = &tenant.org {
                request.extensions_mut().insert(Arc::clone(org));
            }
            request.extensions_mut().insert(tenant);
            next.run(request).await
        }
        Err(e) => e.into_response(),
    }
}

fn tenant(app: &App, method: &Method, path: &str, headers: &HeaderMap) -> TenantedResult<Tenant> {
    let kind = endpoint_kind(path);
    let credential = credential(app, kind, headers)?;
    if let (Some(limit), Some(credential)) = (&app.rate_limit, &credential)
        && let Err(retry_after_secs) = limit.check(&credential.limit_key)
    {
        return Err(TenantedError::RateLimited {
            retry_after_secs: retry_after_secs.max(1),
        });
    }
    let version = api_version(headers)?;
    let Some(credential) = credential else {
        return Ok(Tenant {
            version,
            org: None,
            reachable: Vec::new(),
        });
    };
    let reaches = credential.reaches;
    let selected = resolve(headers, &reaches)?;
    let home = reaches.first().map(Arc::clone);
    let org = match (selected, home) {
        (Some(org), _) => org,
        (None, Some(home)) if is_read(method, path) || reaches.len() == 1 => home,
        _ => {
            return Err(TenantedError::BadRequest {
                code: "missing_target_selector",
                message: format!(
                    "This credential reaches {} organizations: name the one to change with \
                     Organization-Id, Connection-Id or Entity-Id.",
                    reaches.len()
                ),
            });
        }
    };
    Ok(Tenant {
        version,
        org: Some(org),
        reachable: reaches,
    })
}
