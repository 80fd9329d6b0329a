//! The audit hook: every write the client sends is told to an [`AuditSink`] before it goes out
//! and again when its answer comes, from the one place every call passes (the transport), so no
//! caller can forget it. The sink keeps the record (the history database's audit log); this
//! side decides what it may see: the method, the path, the organization, the generation, and
//! the body with every secret removed (see [`crate::model::secrets`]), a file upload as its name
//! and size only. Headers, and so the API key, are never given to it.

use std::sync::Arc;

use serde_json::Value;

use super::error::ApiError;
use super::generation::Generation;
use crate::model::secrets;

/// A write about to be sent.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteSent<'a> {
    /// `POST`, `PUT`, `DELETE`…
    pub method: &'a str,
    /// The path as sent, `/v1/registrations/reg_1/deregister`.
    pub path: &'a str,
    /// The kind of record written, in v1's spelling: `registrations`, `physical_nexus`.
    pub resource: &'a str,
    /// The record's id when the path names one.
    pub record_id: Option<&'a str>,
    /// The organization the call acts on (`""`: the key's home organization).
    pub organization: &'a str,
    pub generation: Generation,
    /// The body, secrets removed.
    pub body: SentBody,
}

/// What a write carried, as the audit log may keep it.
#[derive(Debug, Clone, PartialEq)]
pub enum SentBody {
    None,
    /// The JSON as sent, each secret's value replaced by [`secrets::REMOVED`].
    Json(Value),
    /// A file upload: its name, type and size, never its bytes.
    File {
        name: String,
        mime: String,
        size: usize,
    },
}

impl SentBody {
    /// The body as one JSON value: `null`, the JSON, or `{"file": {name, type, size}}`.
    pub fn to_json(&self) -> Value {
        match self {
            SentBody::None => Value::Null,
            SentBody::Json(v) => v.clone(),
            SentBody::File { name, mime, size } => serde_json::json!({
                "file": {"name": name, "type": mime, "size": size}
            }),
        }
    }
}

/// How a write ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOutcome {
    /// 2xx.
    Ok,
    /// The service refused it (4xx).
    Refused,
    /// The service failed (5xx), or the network or the wait did.
    Failed,
}

/// The answer to a write.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteAnswer {
    pub outcome: WriteOutcome,
    /// The last HTTP status received, if any.
    pub status: Option<u16>,
    /// The record's id: the answer's `id`, else the path's.
    pub record_id: Option<String>,
    /// The service's request id: the answer's request-id header or the error envelope's.
    pub request_id: Option<String>,
    /// The error in words (secrets sent are removed from it).
    pub error: Option<String>,
}

/// An entry the sink made for a write, to complete later.
pub type AuditTicket = i64;

/// Keeps the audit log. Called from async code: each call must be short (one small write).
pub trait AuditSink: Send + Sync {
    /// A write is about to be sent. An error stops it: a write that cannot be recorded is not
    /// sent.
    fn sent(&self, write: &WriteSent<'_>) -> Result<AuditTicket, String>;
    /// Its answer came (or its attempts ended without one).
    fn answered(&self, ticket: AuditTicket, answer: &WriteAnswer);
    /// The caller stopped waiting: the write may or may not have reached the service.
    fn abandoned(&self, ticket: AuditTicket);
}

/// The shared sink of a client.
pub type Auditor = Arc<dyn AuditSink>;

/// Path words that are not record ids.
const WORDS: &[&str] = &[
    "external",
    "bulk",
    "bulk-approve",
    "physical_nexus",
    "search",
    "suggestions",
    "estimate",
    "approve",
    "pause",
];

/// The resource and the record id a call's path (v1 segments, no prefix) names:
/// `registrations/reg_1/deregister` is `registrations`, `reg_1`;
/// `nexus/physical_nexus/pn_1` is `physical_nexus`, `pn_1`.
pub(crate) fn resource_of(segments: &[String]) -> (&str, Option<&str>) {
    let at = usize::from(
        segments.first().map(String::as_str) == Some("nexus")
            && segments.get(1).map(String::as_str) == Some("physical_nexus"),
    );
    let resource = segments.get(at).map_or("", String::as_str);
    let id = segments[(at + 1).min(segments.len())..]
        .iter()
        .map(String::as_str)
        .find(|s| !WORDS.contains(s));
    (resource, id)
}

/// The JSON body with secrets removed, and the secret values (to scrub from error texts).
pub(crate) fn redact(bytes: &[u8]) -> (Value, Vec<String>) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return (
            Value::String(format!("({} bytes, not JSON)", bytes.len())),
            Vec::new(),
        );
    };
    let mut found = Vec::new();
    secret_values(&value, false, &mut found);
    (secrets::redact(&value), found)
}

fn secret_values(value: &Value, inside: bool, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                secret_values(v, inside || secrets::is_secret(k), out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| secret_values(v, inside, out)),
        Value::String(s) if inside && !s.is_empty() => out.push(s.clone()),
        Value::Number(n) if inside => out.push(n.to_string()),
        _ => {}
    }
}

/// `text` with each of `secrets` replaced.
pub(crate) fn scrub(text: &str, secrets: &[String]) -> String {
    secrets.iter().fold(text.to_owned(), |t, s| {
        t.replace(s.as_str(), secrets::REMOVED)
    })
}

/// The record id of a write's answer: its `id` (or `registration_id`), or that of the one
/// record of a list answer, if it has one.
pub(crate) fn answer_id(body: &[u8]) -> Option<String> {
    let mut value: Value = serde_json::from_slice(body).ok()?;
    if let Value::Array(items) = &mut value
        && items.len() == 1
    {
        value = items.remove(0);
    }
    ["id", "registration_id", "registrationId"]
        .iter()
        .find_map(|k| value.get(k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// An error's outcome.
pub(crate) fn outcome_of(error: &ApiError, status: Option<u16>) -> WriteOutcome {
    match (error, status) {
        (ApiError::Server { .. } | ApiError::Network { .. } | ApiError::Timeout { .. }, _) => {
            WriteOutcome::Failed
        }
        (_, Some(s)) if (400..500).contains(&s) => WriteOutcome::Refused,
        _ => WriteOutcome::Failed,
    }
}

/// Completes the entry when the call ends; marks it abandoned when the call's future is dropped
/// first.
pub(crate) struct Pending {
    sink: Auditor,
    ticket: Option<AuditTicket>,
}

impl Pending {
    pub fn new(sink: Auditor, ticket: AuditTicket) -> Self {
        Pending {
            sink,
            ticket: Some(ticket),
        }
    }

    pub fn answered(mut self, answer: &WriteAnswer) {
        if let Some(ticket) = self.ticket.take() {
            self.sink.answered(ticket, answer);
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(ticket) = self.ticket.take() {
            self.sink.abandoned(ticket);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn paths_name_their_resource_and_record() {
        let cases: &[(&[&str], &str, Option<&str>)] = &[
            (&["registrations"], "registrations", None),
            (
                &["registrations", "reg_1", "deregister"],
                "registrations",
                Some("reg_1"),
            ),
            (
                &["nexus", "physical_nexus", "pn_1"],
                "physical_nexus",
                Some("pn_1"),
            ),
            (&["nexus", "physical_nexus"], "physical_nexus", None),
            (
                &["certificate-imports", "bulk-approve"],
                "certificate-imports",
                None,
            ),
            (&["filings", "bulk", "pause"], "filings", None),
            (
                &["transactions", "external", "ord 1"],
                "transactions",
                Some("ord 1"),
            ),
        ];
        for (path, resource, id) in cases {
            let path = segs(path);
            assert_eq!(resource_of(&path), (*resource, *id), "{path:?}");
        }
    }

    #[test]
    fn secret_values_are_found_and_scrubbed_from_texts() {
        let (body, found) =
            redact(br#"{"password":"hunter2","jurisdictionSpecificFields":{"accessCode":"A-9"},"pin":1234,"name":"x"}"#);
        assert_eq!(body["name"], "x");
        assert_eq!(found.len(), 3);
        assert_eq!(
            scrub("bad value hunter2 and A-9 and 1234", &found),
            "bad value [removed] and [removed] and [removed]"
        );
    }
}
