//! The interface generation: the one place that knows how v1 differs from what may follow
//! (path prefix, credential headers, error bodies). Endpoint methods never look at it.

use std::borrow::Cow;

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use super::error::{ApiError, ErrorContext};
use super::selector::Selector;
use super::service_error::{status_detail, tenanted_error};
use crate::credentials::ApiKey;
use crate::model::casing;
use crate::model::tenanted::ApiVersion;
use crate::model::{ErrorBody, ErrorDetail, FieldError};

/// Which interface generation the client speaks.
///
/// This is the one place that knows how they differ; the endpoint methods describe v1 calls
/// (v1 paths without the prefix, `snake_case` bodies, v1 answer types) and work on both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generation {
    /// The legacy v1 interface: paths under `/v1`, `x-api-key` and `x-organization-id`,
    /// `{detail}` error bodies.
    #[default]
    V1,
    /// The dated Tenanted API at one release: no path prefix, `Api-Key` and `Api-Version`
    /// headers, organization selector headers, camelCase bodies, the `{code, message, requestId,
    /// errors}` error envelope.
    Tenanted(ApiVersion),
}

impl Generation {
    /// The Tenanted API at its latest release.
    pub const TENANTED_LATEST: Generation = Generation::Tenanted(ApiVersion::LATEST);

    /// A short label for headers and logs: `v1`, `tenanted 2026-10-06`.
    pub fn label(self) -> Cow<'static, str> {
        match self {
            Generation::V1 => Cow::Borrowed("v1"),
            Generation::Tenanted(version) => Cow::Owned(format!("tenanted {version}")),
        }
    }

    /// Whether this is the Tenanted API (any release).
    pub fn is_tenanted(self) -> bool {
        matches!(self, Generation::Tenanted(_))
    }

    /// The Tenanted release, if any.
    pub fn api_version(self) -> Option<ApiVersion> {
        match self {
            Generation::V1 => None,
            Generation::Tenanted(version) => Some(version),
        }
    }

    /// Path segments every endpoint path starts with.
    pub(crate) fn path_prefix(self) -> &'static [&'static str] {
        match self {
            Generation::V1 => &["v1"],
            Generation::Tenanted(_) => &[],
        }
    }

    /// The path of an endpoint, from its v1 segments (below the prefix): the Tenanted API
    /// names the tax estimate `tax-estimations`.
    pub(crate) fn map_path(self, segments: &[String]) -> Vec<String> {
        match self {
            Generation::Tenanted(_) if segments == ["tax", "estimate"] => {
                vec!["tax-estimations".to_owned()]
            }
            _ => segments.to_vec(),
        }
    }

    /// The headers sent on every call whatever the organization: the key (marked sensitive,
    /// so it is left out of `Debug` output) and, for the Tenanted API, the release.
    pub(crate) fn credential_headers(self, key: &ApiKey) -> Result<HeaderMap, InvalidHeader> {
        let key_name = match self {
            Generation::V1 => "x-api-key",
            Generation::Tenanted(_) => "api-key",
        };
        let mut key_value =
            HeaderValue::from_str(key.expose()).map_err(|_| InvalidHeader::ApiKey)?;
        key_value.set_sensitive(true);
        let mut headers = HeaderMap::new();
        headers.insert(HeaderName::from_static(key_name), key_value);
        if let Generation::Tenanted(version) = self
            && let Ok(version) = HeaderValue::from_str(&version.to_string())
        {
            headers.insert(HeaderName::from_static("api-version"), version);
        }
        Ok(headers)
    }

    /// The headers naming the organization a call acts on: `x-organization-id` for v1, the
    /// selector headers for the Tenanted API.
    pub(crate) fn target_headers(
        self,
        organization_id: &str,
        selector: &Selector,
    ) -> Result<HeaderMap, InvalidHeader> {
        let (pairs, invalid) = match self {
            Generation::V1 => (
                vec![("x-organization-id", organization_id)],
                InvalidHeader::OrganizationId,
            ),
            Generation::Tenanted(_) => (selector.headers(), InvalidHeader::Selector),
        };
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            let value = HeaderValue::from_str(value).map_err(|_| invalid)?;
            headers.insert(HeaderName::from_static(name), value);
        }
        Ok(headers)
    }

    /// Both sets of headers at once.
    #[cfg(test)]
    pub(crate) fn auth_headers(
        self,
        organization_id: &str,
        key: &ApiKey,
    ) -> Result<HeaderMap, InvalidHeader> {
        let mut headers = self.credential_headers(key)?;
        let selector = Selector::Organization(organization_id.to_owned());
        headers.extend(self.target_headers(organization_id, &selector)?);
        Ok(headers)
    }

    /// A JSON request body as this generation spells it. The Tenanted API takes camelCase keys,
    /// and from 2026-10-06 `countryCode` where v1 says `country`.
    pub(crate) fn encode_body(self, body: Value) -> Value {
        match self {
            Generation::V1 => body,
            Generation::Tenanted(version) => {
                let camel = casing::to_camel(body);
                if version.is_latest_shape() {
                    casing::rename_keys(camel, &|k| {
                        if k == "country" {
                            "countryCode".to_owned()
                        } else {
                            k.to_owned()
                        }
                    })
                } else {
                    camel
                }
            }
        }
    }

    /// An answer's JSON as the v1 model types read it: the Tenanted API's keys to `snake_case`
    /// (a `country_code` that v1 calls `country` is read by alias).
    pub(crate) fn decode_answer(self, answer: Value) -> Value {
        match self {
            Generation::V1 => answer,
            Generation::Tenanted(_) => casing::to_snake(answer),
        }
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
            Generation::Tenanted(_) => tenanted_error(status, body, ctx),
        }
    }
}

impl std::fmt::Display for Generation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

/// A credential that cannot travel in an HTTP header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidHeader {
    #[error("the API key contains characters an HTTP header cannot carry")]
    ApiKey,
    #[error("the organization ID contains characters an HTTP header cannot carry")]
    OrganizationId,
    #[error(
        "the organization, connection or entity selector contains characters an HTTP header \
         cannot carry"
    )]
    Selector,
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
    let detail = || message.clone().unwrap_or_else(|| status_detail(status));
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
    use crate::api::error::Redactor;
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

#[cfg(test)]
mod tenanted_tests {
    use super::*;
    use crate::model::{Customer, EstimateRequest};
    use serde_json::json;

    const OLD: Generation = Generation::Tenanted(ApiVersion::DEFAULT);
    const NEW: Generation = Generation::TENANTED_LATEST;

    #[test]
    fn labels_name_the_release() {
        assert_eq!(Generation::V1.label(), "v1");
        assert_eq!(NEW.label(), "tenanted 2026-10-06");
        assert_eq!(OLD.to_string(), "tenanted 2026-07-21");
    }

    #[test]
    fn tenanted_headers_carry_the_key_release_and_selector() {
        let key = ApiKey::new("k3y").unwrap();
        let h = NEW.credential_headers(&key).unwrap();
        assert!(h["api-key"].is_sensitive());
        assert_eq!(h["api-version"], "2026-10-06");
        assert!(!h.contains_key("x-api-key"));
        assert!(!format!("{h:?}").contains("k3y"));

        let t = |s: Selector| NEW.target_headers("ignored", &s).unwrap();
        assert!(t(Selector::Home).is_empty());
        assert_eq!(
            t(Selector::Organization("orgn_2".into()))["organization-id"],
            "orgn_2"
        );
        assert_eq!(
            t(Selector::Connection("conn_1".into()))["connection-id"],
            "conn_1"
        );
        let h = t(Selector::Entity {
            id: "ent_1".into(),
            source: Some("CHECKOUT".into()),
        });
        assert_eq!(h["entity-id"], "ent_1");
        assert_eq!(h["entity-source"], "CHECKOUT");
        assert!(!h.contains_key("x-organization-id"));
        // v1 ignores the selector.
        let h = Generation::V1
            .target_headers("orgn_1", &Selector::Connection("conn_1".into()))
            .unwrap();
        assert_eq!(h["x-organization-id"], "orgn_1");
        assert_eq!(h.len(), 1);
        assert_eq!(
            NEW.target_headers("", &Selector::Organization("a\nb".into())),
            Err(InvalidHeader::Selector)
        );
    }

    #[test]
    fn paths_lose_the_prefix_and_the_estimate_is_renamed() {
        let path = |g: Generation, s: &[&str]| {
            let segments: Vec<String> = s.iter().map(std::string::ToString::to_string).collect();
            let mut all: Vec<String> = g
                .path_prefix()
                .iter()
                .map(std::string::ToString::to_string)
                .collect();
            all.extend(g.map_path(&segments));
            all.join("/")
        };
        assert_eq!(path(NEW, &["tax", "estimate"]), "tax-estimations");
        assert_eq!(
            path(Generation::V1, &["tax", "estimate"]),
            "v1/tax/estimate"
        );
        assert_eq!(path(OLD, &["registrations", "r1"]), "registrations/r1");
    }

    #[test]
    fn request_bodies_are_camel_case_and_rename_country_from_2026_10_06() {
        let body = json!({"external_id": "o1", "addresses": [{"street_1": "1 Main", "country": "US"}],
                          "metadata": {"keep_me": 1}});
        let old = OLD.encode_body(body.clone());
        assert_eq!(old["externalId"], "o1");
        assert_eq!(old["addresses"][0]["street1"], "1 Main");
        assert_eq!(old["addresses"][0]["country"], "US");
        assert_eq!(old["metadata"]["keep_me"], 1);
        let new = NEW.encode_body(body.clone());
        assert_eq!(new["addresses"][0]["countryCode"], "US");
        assert!(new["addresses"][0].get("country").is_none());
        let between = Generation::Tenanted(ApiVersion::PORTAL_CODES).encode_body(body.clone());
        assert_eq!(between["addresses"][0]["country"], "US");
        assert_eq!(Generation::V1.encode_body(body.clone()), body);
    }

    #[test]
    fn answers_of_both_releases_read_into_the_v1_types() {
        for country_key in ["country", "countryCode"] {
            let answer = json!({"id": "cust_1", "organizationId": "orgn_1", "name": "A",
                "externalId": null, "externalFriendlyId": null, "status": "ACTIVE", "email": null,
                "phone": null, "companyName": null, "street1": "1 Main", "street2": null,
                "city": null, "county": null, "state": "CA", "postalCode": "94105",
                country_key: "US", "fullAddress": null, "source": null, "connectionId": null,
                "addressStatus": null, "registrationNumber": null, "storeName": null});
            let customer: Customer = serde_json::from_value(NEW.decode_answer(answer)).unwrap();
            assert_eq!(customer.address.country.as_deref(), Some("US"));
            assert_eq!(customer.address.street_1.as_deref(), Some("1 Main"));
            assert_eq!(customer.address.postal_code.as_deref(), Some("94105"));
        }
    }

    #[test]
    fn an_estimate_request_round_trips_through_the_latest_spelling() {
        let request: EstimateRequest = serde_json::from_value(json!({
            "date": "2026-10-06T12:00:00Z", "external_id": "e1", "currency": "USD",
            "addresses": [{"type": "SHIP_TO", "street_1": "1 Main", "city": "SF",
                           "state": "CA", "postal_code": "94105", "country": "US"}],
            "transaction_items": [{"date": "2026-10-06T12:00:00Z", "amount": "10.00"}]
        }))
        .unwrap();
        let sent = NEW.encode_body(serde_json::to_value(&request).unwrap());
        assert_eq!(sent["addresses"][0]["countryCode"], "US");
        assert_eq!(sent["transactionItems"][0]["amount"], "10.00");
        // What the service reads back (camel -> snake) is the same request.
        let back: EstimateRequest = serde_json::from_value(NEW.decode_answer(sent)).unwrap();
        assert_eq!(back, request);
    }
}
