//! Timestamps as the service writes them: RFC 3339 with an offset, or a naive ISO date-time.

use std::fmt;

use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A point in time. Reads `2025-02-18T19:43:32.684802` (no offset: taken as UTC),
/// `2025-01-23T13:01:29.949Z`, `2025-01-23T08:01:29-05:00`, a space instead of `T`, or a bare
/// `YYYY-MM-DD` (midnight UTC). Writes RFC 3339 in UTC ending in `Z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub DateTime<Utc>);

impl Timestamp {
    pub fn now() -> Self {
        Timestamp(Utc::now())
    }

    /// Parses any of the accepted forms; `None` when the text is none of them.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
            return Some(Timestamp(dt.with_timezone(&Utc)));
        }
        for fmt in [
            "%Y-%m-%dT%H:%M:%S%.f",
            "%Y-%m-%d %H:%M:%S%.f",
            "%Y-%m-%dT%H:%M",
        ] {
            if let Ok(naive) = NaiveDateTime::parse_from_str(s, fmt) {
                return Some(Timestamp(naive.and_utc()));
            }
        }
        if let Ok(dt) = DateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S%.f%#z") {
            return Some(Timestamp(dt.with_timezone(&Utc)));
        }
        NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|naive| Timestamp(naive.and_utc()))
    }

    /// The calendar date in UTC.
    pub fn date(&self) -> NaiveDate {
        self.0.date_naive()
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(dt: DateTime<Utc>) -> Self {
        Timestamp(dt)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Timestamp::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("not a timestamp: {s:?}")))
    }
}

/// An optional day that reads a `YYYY-MM-DD` date or any [`Timestamp`] form (its UTC day), and
/// null as `None`: for fields the service sends as dates that were once timestamps.
pub(crate) fn optional_day<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    let Some(s) = Option::<std::borrow::Cow<'de, str>>::deserialize(d)? else {
        return Ok(None);
    };
    Timestamp::parse(&s)
        .map(|t| Some(t.date()))
        .ok_or_else(|| serde::de::Error::custom(format!("not a date: {s:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        serde_json::from_value(serde_json::Value::String(s.into())).unwrap()
    }

    #[test]
    fn an_optional_day_reads_a_date_a_timestamp_and_null() {
        #[derive(serde::Deserialize)]
        struct Row {
            #[serde(default, deserialize_with = "optional_day")]
            day: Option<NaiveDate>,
        }
        let day = |v: serde_json::Value| serde_json::from_value::<Row>(v).map(|r| r.day);
        let jan19 = NaiveDate::from_ymd_opt(2025, 1, 19);
        assert_eq!(
            day(serde_json::json!({"day": "2025-01-19"})).unwrap(),
            jan19
        );
        assert_eq!(
            day(serde_json::json!({"day": "2025-01-19T22:10:00Z"})).unwrap(),
            jan19
        );
        assert_eq!(day(serde_json::json!({"day": null})).unwrap(), None);
        assert_eq!(day(serde_json::json!({})).unwrap(), None);
        assert!(day(serde_json::json!({"day": "last week"})).is_err());
    }

    #[test]
    fn reads_with_and_without_offset() {
        assert_eq!(ts("2025-01-23T13:01:29Z"), ts("2025-01-23T08:01:29-05:00"));
        assert_eq!(ts("2025-01-23T13:01:29"), ts("2025-01-23T13:01:29+00:00"));
        assert_eq!(
            ts("2025-02-18T19:43:32.684802").0.timestamp_subsec_micros(),
            684_802
        );
        assert_eq!(ts("2025-01-23 13:01:29"), ts("2025-01-23T13:01:29Z"));
        assert_eq!(ts("2025-01-23").to_string(), "2025-01-23T00:00:00Z");
    }

    #[test]
    fn writes_rfc3339_utc() {
        assert_eq!(
            ts("2025-01-23T08:01:29.5-05:00").to_string(),
            "2025-01-23T13:01:29.500Z"
        );
        assert_eq!(
            serde_json::to_string(&ts("2025-01-23T13:01:29Z")).unwrap(),
            "\"2025-01-23T13:01:29Z\""
        );
    }

    #[test]
    fn rejects_text_that_is_no_timestamp() {
        assert!(serde_json::from_str::<Timestamp>("\"yesterday\"").is_err());
        assert!(serde_json::from_str::<Timestamp>("\"2025-02-31\"").is_err());
    }
}
