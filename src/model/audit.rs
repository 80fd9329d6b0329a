//! The audit log as its readers see it: one recorded write ([`Entry`]), how it ended
//! ([`Outcome`]), and which entries to read ([`Filter`]). The history database keeps the log;
//! `taxdash audit` and the dashboard's `:audit` read it through these.

use std::fmt;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;

/// How a write ended, as the log shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Ok,
    Refused,
    Failed,
    /// Sent, and its process is still waiting for the answer.
    Pending,
    /// Sent, and no answer will be known: its process ended or stopped waiting.
    Unknown,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [
        Outcome::Ok,
        Outcome::Refused,
        Outcome::Failed,
        Outcome::Pending,
        Outcome::Unknown,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
            Outcome::Pending => "pending",
            Outcome::Unknown => "unknown",
        }
    }

    /// `ok`, `refused`…, any case.
    pub fn parse(s: &str) -> Option<Outcome> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One recorded write.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub id: i64,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Who sent it: the person's configured name, else `user@host` (empty in entries recorded
    /// before taxdash kept it).
    pub who: String,
    pub profile: String,
    pub organization: String,
    /// `v1` or `tenanted`.
    pub generation: String,
    /// The Tenanted API's release (`2026-10-06`).
    pub api_release: Option<String>,
    pub method: String,
    pub path: String,
    pub resource: String,
    pub record_id: Option<String>,
    /// The body as sent, secrets removed (`null`: none).
    pub body: Value,
    pub outcome: Outcome,
    pub status: Option<u16>,
    pub request_id: Option<String>,
    pub error: Option<String>,
}

impl Entry {
    /// Who sent it as every list shows it: the name, `-` in entries recorded before taxdash
    /// kept it.
    pub fn who_shown(&self) -> &str {
        match self.who.trim() {
            "" => "-",
            who => who,
        }
    }
}

/// Which entries to read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Started on or after this day (UTC).
    pub since: Option<NaiveDate>,
    /// Only this resource (`registrations`, `filings`…), any case.
    pub resource: Option<String>,
    pub outcome: Option<Outcome>,
    /// Only entries whose person contains this, any case.
    pub who: Option<String>,
}

impl Filter {
    /// Whether `e` is one of the entries the filter keeps (its day is left to the reader).
    pub fn keeps(&self, e: &Entry) -> bool {
        self.resource
            .as_deref()
            .is_none_or(|r| e.resource.eq_ignore_ascii_case(r.trim()))
            && self.outcome.is_none_or(|o| e.outcome == o)
            && self
                .who
                .as_deref()
                .is_none_or(|w| e.who.to_lowercase().contains(&w.trim().to_lowercase()))
    }
}
