//! The v1 error bodies: `{detail: string}` and the 422 `{detail: [{type, loc, msg, input, ctx?}]}`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One element of a `loc` path: a key (`"body"`, `"closure_date"`) or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LocPart {
    Index(u64),
    Key(String),
}

impl From<&str> for LocPart {
    fn from(s: &str) -> Self {
        LocPart::Key(s.to_owned())
    }
}

impl From<String> for LocPart {
    fn from(s: String) -> Self {
        LocPart::Key(s)
    }
}

impl From<usize> for LocPart {
    fn from(i: usize) -> Self {
        LocPart::Index(i as u64)
    }
}

impl std::fmt::Display for LocPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocPart::Index(i) => write!(f, "{i}"),
            LocPart::Key(k) => f.write_str(k),
        }
    }
}

/// One field-level validation error, in the service's 422 shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldError {
    /// Kind of failure, for example `missing`, `enum`, `value_error`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Where: `["body", "closure_date"]`, `["query", "size"]`, `["body", "transaction_items", 0, "amount"]`.
    pub loc: Vec<LocPart>,
    /// Text for people.
    pub msg: String,
    /// The offending value, echoed.
    #[serde(default)]
    pub input: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ctx: Option<Value>,
}

impl FieldError {
    /// An error of kind `kind` (`missing`, `enum`, `value_error`, ...) at `loc`.
    pub fn new(kind: &str, loc: Vec<LocPart>, msg: impl Into<String>, input: Value) -> Self {
        FieldError {
            kind: kind.to_owned(),
            loc,
            msg: msg.into(),
            input,
            ctx: None,
        }
    }

    /// The same error with a `ctx` object (for example the allowed values of an enumeration).
    pub fn with_ctx(mut self, ctx: Value) -> Self {
        self.ctx = Some(ctx);
        self
    }

    /// The field path without its first element (`body`, `query`, `path`), joined by dots:
    /// `transaction_items.0.amount`. What a form matches against its field names.
    pub fn field_path(&self) -> String {
        let parts = match self.loc.first() {
            Some(LocPart::Key(k)) if matches!(k.as_str(), "body" | "query" | "path" | "header") => {
                &self.loc[1..]
            }
            _ => &self.loc[..],
        };
        parts
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// The `detail` of an error body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ErrorDetail {
    Message(String),
    Validation(Vec<FieldError>),
    Other(Value),
}

/// A v1 error body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub detail: ErrorDetail,
}

impl ErrorBody {
    pub fn message(msg: impl Into<String>) -> Self {
        ErrorBody {
            detail: ErrorDetail::Message(msg.into()),
        }
    }

    pub fn validation(errors: Vec<FieldError>) -> Self {
        ErrorBody {
            detail: ErrorDetail::Validation(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_both_bodies() {
        let b: ErrorBody =
            serde_json::from_value(json!({"detail": "Unauthenticated request."})).unwrap();
        assert_eq!(
            b.detail,
            ErrorDetail::Message("Unauthenticated request.".into())
        );
        let b: ErrorBody = serde_json::from_value(json!({"detail": [
            {"type": "missing", "loc": ["body", "transaction_items", 0, "amount"], "msg": "Field required", "input": null}
        ]}))
        .unwrap();
        let ErrorDetail::Validation(errs) = b.detail else {
            panic!("not a validation body")
        };
        assert_eq!(errs[0].field_path(), "transaction_items.0.amount");
        assert_eq!(errs[0].loc[2], LocPart::Index(0));
    }

    #[test]
    fn ctx_is_left_out_when_absent() {
        let e = FieldError {
            kind: "missing".into(),
            loc: vec!["body".into()],
            msg: "Field required".into(),
            input: Value::Null,
            ctx: None,
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"type": "missing", "loc": ["body"], "msg": "Field required", "input": null})
        );
    }
}
