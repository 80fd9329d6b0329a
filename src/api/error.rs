//! What a call can fail with, in words a compliance user can act on.
//!
//! Every message is built from values the service sent (its `detail` text, field errors) after
//! [`Redactor`] has scrubbed them, and from the organization ID; never from the API key.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde_json::Value;

pub use super::service_error::ServiceError;
use crate::credentials::ApiKey;
use crate::model::FieldError;
use crate::model::tenanted::ErrorCode;

/// The result of a client call.
pub type ApiResult<T> = Result<T, ApiError>;

/// Why a call to the service failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 401: the key is missing, unknown or revoked.
    #[error(
        "The service refused the API key for organization {organization_id} ({detail}). \
         Check the key with `taxdash login`."
    )]
    Unauthorized {
        organization_id: String,
        detail: String,
    },
    /// 403: the key is valid but not for this organization (or the action needs an admin).
    #[error(
        "The API key is not allowed to act for organization {organization_id} ({detail}). \
         Check the organization ID of the profile, or use the key issued for that organization."
    )]
    Forbidden {
        organization_id: String,
        detail: String,
    },
    /// 404: no such record in this organization, or no such path.
    #[error(
        "Not found: {}. The record may have been deleted, or it belongs to another \
         organization.",
        without_stop(.detail)
    )]
    NotFound { detail: String },
    /// 422: the service refused values; one entry per field, in the service's shape.
    #[error("{}", validation_message(.0))]
    Validation(Vec<FieldError>),
    /// 409: the change conflicts with the record's current state (or a duplicate).
    #[error("The service refused the change because it conflicts with the current state: {detail}")]
    Conflict { detail: String },
    /// 400 (and any other refusal without a more precise meaning).
    #[error("The service refused the request: {detail}")]
    BadRequest { detail: String },
    /// 429 after the retries allowed: the rate limit of the key was reached.
    #[error("{}", rate_limited_message(*.retry_after))]
    RateLimited { retry_after: Option<Duration> },
    /// 5xx after the retries allowed.
    #[error(
        "The service failed (HTTP {status}{}). Try again later; if it keeps failing, the \
         service may be down.", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default()
    )]
    Server { status: u16, detail: Option<String> },
    /// The service could not be reached, or the connection broke. `detail` says it in words
    /// ("could not connect to 127.0.0.1:8080: connection refused"); the HTTP stack's own chain
    /// of errors goes to the log.
    #[error(
        "{}. Check the network connection and the profile's base URL.",
        sentence(detail)
    )]
    Network { detail: String },
    /// No answer within the request timeout, on each of `attempts` attempts.
    #[error(
        "The service did not answer within {}{}. Try again later; if it keeps happening, the \
         service is down or slow (TAXDASH_TIMEOUT sets the wait).",
        seconds(*.after), tries(*.attempts)
    )]
    Timeout { after: Duration, attempts: u32 },
    /// An answer that is not what the interface describes.
    #[error(
        "The service's answer to {what} could not be read ({detail}). The service may have \
         changed; a newer taxdash may read it."
    )]
    Undecodable { what: String, detail: String },
    /// 405: the service does not take this method on this path.
    #[error(
        "The service does not accept {what} (HTTP 405). This is a taxdash bug; please report it."
    )]
    MethodNotAllowed { what: String },
    /// A refusal of the Tenanted API (4xx other than 429), read from its error envelope.
    #[error("{0}")]
    Tenanted(Box<ServiceError>),
    /// A call only the Tenanted API offers, asked of a v1 client.
    #[error(
        "{what} needs the Tenanted API, and this profile uses v1: set api = \"tenanted\" in \
         the profile (or TAXDASH_API=tenanted)."
    )]
    Unsupported { what: String },
}

impl ApiError {
    /// The field errors of a 422; empty for every other error.
    pub fn field_errors(&self) -> &[FieldError] {
        match self {
            ApiError::Validation(errors) => errors,
            ApiError::Tenanted(e) => &e.errors,
            _ => &[],
        }
    }

    /// The Tenanted error envelope behind this error, if it is one.
    pub fn service_error(&self) -> Option<&ServiceError> {
        match self {
            ApiError::Tenanted(e) => Some(e),
            _ => None,
        }
    }

    /// The Tenanted error code, if this is a Tenanted refusal.
    pub fn code(&self) -> Option<&ErrorCode> {
        self.service_error().map(|e| &e.code)
    }

    /// The request ID the service gave the failed call (Tenanted API only), for support.
    pub fn request_id(&self) -> Option<&str> {
        self.service_error().and_then(|e| e.request_id.as_deref())
    }

    /// Whether the service refused the credential (v1 401 or Tenanted `unauthorized`).
    pub fn is_unauthorized(&self) -> bool {
        matches!(self, ApiError::Unauthorized { .. })
            || self.code() == Some(&ErrorCode::Unauthorized)
    }

    /// The field errors at one field path, as [`FieldError::field_path`] spells it
    /// (`closure_date`, `transaction_items.0.amount`).
    pub fn errors_at<'a>(&'a self, field_path: &'a str) -> impl Iterator<Item = &'a FieldError> {
        self.field_errors()
            .iter()
            .filter(move |e| e.field_path() == field_path)
    }

    /// The field errors grouped by field path, for a form to show next to its fields. Errors
    /// about the whole body or query have the path `""`.
    pub fn errors_by_field(&self) -> BTreeMap<String, Vec<&FieldError>> {
        let mut map: BTreeMap<String, Vec<&FieldError>> = BTreeMap::new();
        for e in self.field_errors() {
            map.entry(e.field_path()).or_default().push(e);
        }
        map
    }
}

pub(crate) use crate::model::format::seconds;

/// ` (4 attempts)`, or nothing for one.
fn tries(attempts: u32) -> String {
    if attempts > 1 {
        format!(" ({attempts} attempts)")
    } else {
        String::new()
    }
}

/// `text` with a capital first letter.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn rate_limited_message(retry_after: Option<Duration>) -> String {
    let when = match retry_after {
        Some(d) => format!("Try again in {}.", seconds(d)),
        None => "Try again shortly.".to_owned(),
    };
    format!("Too many requests: the rate limit of the API key was reached. {when}")
}

/// `text` without the full stop (and space) it ends with, to be followed by one of ours.
fn without_stop(text: &str) -> &str {
    text.trim_end().trim_end_matches('.')
}

pub(crate) fn validation_message(errors: &[FieldError]) -> String {
    if errors.is_empty() {
        return "The service refused the values sent, without naming a field.".to_owned();
    }
    let lines: Vec<String> = errors
        .iter()
        .map(|e| match e.field_path() {
            p if p.is_empty() => e.msg.clone(),
            p => format!("{p}: {}", e.msg),
        })
        .collect();
    let noun = if errors.len() == 1 { "value" } else { "values" };
    format!(
        "The service refused {} {noun}: {}",
        errors.len(),
        lines.join("; ")
    )
}

/// Scrubs the API key from text the service sends back, so no message, log or panic built from
/// an answer can carry it (a misbehaving proxy or service could echo a header).
#[derive(Clone)]
pub(crate) struct Redactor {
    key: ApiKey,
}

/// What the key is replaced with.
const MASK: &str = "****";

impl Redactor {
    pub fn new(key: ApiKey) -> Self {
        Redactor { key }
    }

    pub fn text(&self, s: &str) -> String {
        let key = self.key.expose();
        if key.is_empty() || !s.contains(key) {
            s.to_owned()
        } else {
            s.replace(key, MASK)
        }
    }

    pub fn value(&self, v: Value) -> Value {
        match v {
            Value::String(s) => Value::String(self.text(&s)),
            Value::Array(items) => Value::Array(items.into_iter().map(|i| self.value(i)).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (self.text(&k), self.value(v)))
                    .collect(),
            ),
            other => other,
        }
    }

    pub fn field_error(&self, e: FieldError) -> FieldError {
        FieldError {
            kind: self.text(&e.kind),
            loc: e
                .loc
                .into_iter()
                .map(|p| match p {
                    crate::model::LocPart::Key(k) => crate::model::LocPart::Key(self.text(&k)),
                    index @ crate::model::LocPart::Index(_) => index,
                })
                .collect(),
            msg: self.text(&e.msg),
            input: self.value(e.input),
            ctx: e.ctx.map(|c| self.value(c)),
        }
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Redactor(****)")
    }
}

/// What an error message may name besides the service's own words.
pub(crate) struct ErrorContext<'a> {
    /// `GET /v1/registrations/regs_1`.
    pub what: &'a str,
    pub organization_id: &'a str,
    pub redactor: &'a Redactor,
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_404_that_ends_its_sentence_is_not_given_a_second_full_stop() {
        for detail in ["Customer cus_1 not found.", "Customer cus_1 not found"] {
            let said = ApiError::NotFound {
                detail: detail.into(),
            }
            .to_string();
            assert!(
                said.starts_with("Not found: Customer cus_1 not found. The record"),
                "{said}"
            );
            assert!(!said.contains(".."), "{said}");
        }
    }

    use super::*;
    use serde_json::json;

    fn field(loc: &[&str], msg: &str) -> FieldError {
        FieldError::new(
            "value_error",
            loc.iter().map(|s| (*s).into()).collect(),
            msg,
            Value::Null,
        )
    }

    #[test]
    fn validation_lists_every_field() {
        let e = ApiError::Validation(vec![
            field(&["body", "closure_date"], "not a date"),
            field(&["body", "final_return_acknowledged"], "must be true"),
        ]);
        let text = e.to_string();
        assert!(text.contains("closure_date: not a date"), "{text}");
        assert!(
            text.contains("final_return_acknowledged: must be true"),
            "{text}"
        );
        assert_eq!(e.errors_at("closure_date").count(), 1);
        assert_eq!(
            e.errors_by_field().keys().collect::<Vec<_>>(),
            ["closure_date", "final_return_acknowledged"]
        );
    }

    #[test]
    fn rate_limit_says_when() {
        let e = ApiError::RateLimited {
            retry_after: Some(Duration::from_mins(1)),
        };
        assert!(e.to_string().contains("Try again in 60 s."));
        let e = ApiError::Timeout {
            after: Duration::from_millis(1500),
            attempts: 1,
        };
        assert!(e.to_string().contains("within 1.5 s. "), "{e}");
        let e = ApiError::Timeout {
            after: Duration::from_secs(30),
            attempts: 4,
        };
        assert!(
            e.to_string()
                .starts_with("The service did not answer within 30 s (4 attempts)."),
            "the wait of one attempt, not their sum: {e}"
        );
        let e = ApiError::Network {
            detail: "could not connect to 127.0.0.1:8080: connection refused".into(),
        };
        assert!(
            e.to_string()
                .starts_with("Could not connect to 127.0.0.1:8080: connection refused. "),
            "{e}"
        );
    }

    #[test]
    fn the_redactor_scrubs_nested_values() {
        let r = Redactor::new(ApiKey::new("sk_live_SECRET").unwrap());
        let v = r.value(json!({"a": ["x sk_live_SECRET y", {"sk_live_SECRET": 1}]}));
        assert!(!v.to_string().contains("SECRET"), "{v}");
        let e = r.field_error(
            FieldError::new(
                "value_error",
                vec!["header".into(), "sk_live_SECRET".into()],
                "bad sk_live_SECRET",
                json!("sk_live_SECRET"),
            )
            .with_ctx(json!({"got": "sk_live_SECRET"})),
        );
        assert!(!format!("{e:?}").contains("SECRET"));
    }
}
