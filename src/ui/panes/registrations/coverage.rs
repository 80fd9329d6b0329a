//! The register review's warning when the returns asked for will not cover the time since
//! nexus was met in the jurisdiction ([`crate::rules::coverage_gap`]).

use chrono::NaiveDate;
use serde_json::Value;

use crate::model::{FilingFrequency, format};

/// The warning for the body about to be sent (`filing_frequency`, `create_filings_from`,
/// `create_back_filing`, `registration_date`), given the day nexus was met in `place`; `None`
/// when the returns cover it, or nothing says when nexus was met. Without `create_filings_from`
/// the returns start from the registration date.
pub fn coverage_warning(body: &Value, nexus_met: Option<NaiveDate>, place: &str) -> Option<String> {
    let nexus_met = nexus_met?;
    let day = |name: &str| {
        body.get(name)
            .and_then(Value::as_str)
            .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    };
    let from = day("create_filings_from").or_else(|| day("registration_date"))?;
    let frequency = body
        .get("filing_frequency")
        .and_then(Value::as_str)
        .map_or(FilingFrequency::Unknown, FilingFrequency::parse);
    let back_filing = body
        .get("create_back_filing")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let gap = crate::rules::coverage_gap(nexus_met, &frequency, from, back_filing)?;
    let asked = if back_filing {
        "with the period before back-filed"
    } else {
        "back-filing off"
    };
    Some(format!(
        "⚠ Nexus in {place} was met on {}, but the returns asked for start on {} ({asked}): \
         {} would have no return. Back-file, or create filings from an earlier date.",
        format::date(gap.nexus_met),
        format::date(gap.first_covered),
        format::period(gap.nexus_met, gap.last_uncovered()),
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::coverage_warning;

    fn met() -> Option<chrono::NaiveDate> {
        "2026-05-05".parse().ok()
    }

    #[test]
    fn kansas_from_june_without_back_filing_leaves_may_uncovered() {
        let body = json!({
            "filing_frequency": "MONTHLY",
            "create_filings_from": "2026-06-01",
            "create_back_filing": false,
        });
        let said = coverage_warning(&body, met(), "Kansas").expect("a warning");
        assert!(
            said.contains("Nexus in Kansas was met on 2026-05-05"),
            "{said}"
        );
        assert!(
            said.contains("start on 2026-06-01 (back-filing off)"),
            "{said}"
        );
        assert!(
            said.contains("2026-05-05 – 2026-05-31 would have no return"),
            "{said}"
        );
    }

    #[test]
    fn back_filing_or_an_earlier_start_covers_it_and_says_nothing() {
        let back_filed = json!({
            "filing_frequency": "MONTHLY",
            "create_filings_from": "2026-06-01",
            "create_back_filing": true,
        });
        assert_eq!(coverage_warning(&back_filed, met(), "Kansas"), None);
        let earlier = json!({
            "filing_frequency": "QUARTERLY",
            "create_filings_from": "2026-06-01",
        });
        assert_eq!(coverage_warning(&earlier, met(), "Kansas"), None);
        // Nothing known of nexus: nothing said.
        let body = json!({"filing_frequency": "MONTHLY", "create_filings_from": "2026-09-01"});
        assert_eq!(coverage_warning(&body, None, "Kansas"), None);
    }

    #[test]
    fn without_a_start_the_registration_date_counts() {
        let body = json!({"filing_frequency": "MONTHLY", "registration_date": "2026-08-10"});
        let said = coverage_warning(&body, met(), "Kansas").expect("a warning");
        assert!(said.contains("start on 2026-08-01"), "{said}");
    }
}
