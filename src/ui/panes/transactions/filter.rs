//! The `/` filter: a search, a date range, the enumerations the service filters on, country and state,
//! checked as typed. The sort stays with the table.

use crate::model::filters::TransactionFilter;
use crate::model::{
    Direction, FieldError, ProcessingStatus, TransactionExemptStatus, TransactionStatus,
    TransactionType,
};
use crate::rules;
use crate::ui::panes::filter_codes::{check_country_and_state, given, query_error};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// What the service lists when no date is given.
pub const DEFAULT_WINDOW: &str = "last 12 months (the service's default)";

/// Choices of an enumeration filter, with "any" first.
fn any_of<T>(known: &[T], name: fn(&T) -> &str) -> Vec<Choice> {
    std::iter::once(Choice::new("", "any", "no filter on this field"))
        .chain(known.iter().map(|v| Choice::new(name(v), name(v), "")))
        .collect()
}

/// Any, yes or no.
fn yes_no() -> Vec<Choice> {
    vec![
        Choice::new("", "any", "no filter on this field"),
        Choice::new("true", "yes", ""),
        Choice::new("false", "no", ""),
    ]
}

fn select(name: &'static str, label: &'static str, choices: Vec<Choice>) -> FieldSpec {
    FieldSpec::new(name, label, FieldKind::Select(choices)).rule("←/→ to choose")
}

/// The `/` filter form, holding the filter in force.
pub fn filter_form(current: &TransactionFilter) -> Form {
    let mut form = Form::new(vec![
        FieldSpec::new("search_query", "Search", FieldKind::Text)
            .rule("part of an external id, id or customer; empty for any"),
        FieldSpec::new("date_from", "From", FieldKind::Date)
            .rule("YYYY-MM-DD; empty for the service's default, the last 12 months"),
        FieldSpec::new("date_to", "To", FieldKind::Date).rule("YYYY-MM-DD; empty for today"),
        select(
            "status",
            "Status",
            any_of(TransactionStatus::KNOWN, TransactionStatus::as_str),
        ),
        select(
            "processing",
            "Processing status",
            any_of(ProcessingStatus::KNOWN, ProcessingStatus::as_str),
        ),
        select(
            "direction",
            "Direction",
            any_of(Direction::KNOWN, Direction::as_str),
        ),
        select(
            "type",
            "Type",
            any_of(TransactionType::KNOWN, TransactionType::as_str),
        ),
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        FieldSpec::new("state", "State", FieldKind::Text)
            .rule("subdivision code such as TX or ON; empty for any"),
        select("marketplace", "Marketplace", yes_no()),
        select(
            "exempt",
            "Exempt",
            any_of(
                TransactionExemptStatus::KNOWN,
                TransactionExemptStatus::as_str,
            ),
        ),
    ])
    .with_validator(check);
    let choice = |s: &str| FieldValue::Choice(s.to_owned());
    if let Some(q) = &current.search_query {
        form = form.with_value("search_query", q.as_str());
    }
    if let Some(d) = current.date_from {
        form = form.with_value("date_from", d.to_string());
    }
    if let Some(d) = current.date_to {
        form = form.with_value("date_to", d.to_string());
    }
    if let Some(s) = &current.status {
        form = form.with_value("status", choice(s.as_str()));
    }
    if let Some(p) = current.processing_status_in.first() {
        form = form.with_value("processing", choice(p.as_str()));
    }
    if let Some(d) = &current.direction {
        form = form.with_value("direction", choice(d.as_str()));
    }
    if let Some(t) = current.transaction_type.first() {
        form = form.with_value("type", choice(t.as_str()));
    }
    if let Some(c) = current.country.first() {
        form = form.with_value("country", c.as_str());
    }
    if let Some(s) = &current.state_code {
        form = form.with_value("state", s.as_str());
    }
    if let Some(m) = current.marketplace {
        form = form.with_value("marketplace", choice(&m.to_string()));
    }
    if let Some(e) = current.exempt_in.first() {
        form = form.with_value("exempt", choice(e.as_str()));
    }
    form
}

/// The filter form's rules: dates well formed and in order, codes well formed.
fn check(values: &FormValues) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut error = |name: &str, msg: String, input: &str| {
        errors.push(query_error(name, msg, input));
    };
    let mut dates = [None, None];
    for (i, name) in ["date_from", "date_to"].into_iter().enumerate() {
        if let Some(d) = given(values, name) {
            match rules::parse_date(d) {
                Ok(date) => dates[i] = Some(date),
                Err(msg) => error(name, msg, d),
            }
        }
    }
    if let [Some(from), Some(to)] = dates
        && to < from
    {
        error(
            "date_to",
            format!("must not be before {from}"),
            &to.to_string(),
        );
    }
    errors.extend(check_country_and_state(values, "country", "state"));
    errors
}

/// The filter the form's values describe (the sort stays with the table).
pub fn filter_of(values: &FormValues) -> TransactionFilter {
    let date = |name| given(values, name).and_then(|d| rules::parse_date(d).ok());
    TransactionFilter {
        search_query: given(values, "search_query").map(str::to_owned),
        date_from: date("date_from"),
        date_to: date("date_to"),
        status: given(values, "status").map(TransactionStatus::parse),
        processing_status_in: given(values, "processing")
            .map(ProcessingStatus::parse)
            .into_iter()
            .collect(),
        direction: given(values, "direction").map(Direction::parse),
        transaction_type: given(values, "type")
            .map(TransactionType::parse)
            .into_iter()
            .collect(),
        country: given(values, "country")
            .map(str::to_uppercase)
            .into_iter()
            .collect(),
        state_code: given(values, "state").map(str::to_uppercase),
        marketplace: given(values, "marketplace").map(|m| m == "true"),
        exempt_in: given(values, "exempt")
            .map(TransactionExemptStatus::parse)
            .into_iter()
            .collect(),
        ..TransactionFilter::default()
    }
}

/// A one-line summary of the filter in force, always saying which dates are shown:
/// `last 12 months, state TX`, `2026-01-01 to 2026-03-31, status COMMITTED`.
pub fn describe(filter: &TransactionFilter) -> String {
    let mut parts = vec![match (filter.date_from, filter.date_to) {
        (None, None) => DEFAULT_WINDOW.to_owned(),
        (Some(from), Some(to)) => format!("{from} to {to}"),
        (Some(from), None) => format!("from {from}"),
        (None, Some(to)) => format!("up to {to}"),
    }];
    if let Some(q) = &filter.search_query {
        parts.push(format!("matching \"{q}\""));
    }
    if let Some(s) = &filter.status {
        parts.push(format!("status {s}"));
    }
    if let Some(p) = filter.processing_status_in.first() {
        parts.push(format!("processing {p}"));
    }
    if let Some(d) = &filter.direction {
        parts.push(format!("direction {d}"));
    }
    if let Some(t) = filter.transaction_type.first() {
        parts.push(format!("type {t}"));
    }
    if let Some(c) = filter.country.first() {
        parts.push(format!("country {c}"));
    }
    if let Some(s) = &filter.state_code {
        parts.push(format!("state {s}"));
    }
    if let Some(m) = filter.marketplace {
        parts.push(if m { "marketplace" } else { "not marketplace" }.to_owned());
    }
    if let Some(e) = filter.exempt_in.first() {
        parts.push(format!("exempt {e}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn form_with(pairs: &[(&str, FieldValue)]) -> FormValues {
        pairs
            .iter()
            .fold(filter_form(&TransactionFilter::default()), |f, (n, v)| {
                f.with_value(n, v.clone())
            })
            .values()
    }

    #[test]
    fn no_dates_means_the_last_12_months() {
        let filter = filter_of(&form_with(&[]));
        assert_eq!(filter, TransactionFilter::default());
        assert_eq!(describe(&filter), DEFAULT_WINDOW);
        assert!(DEFAULT_WINDOW.starts_with("last 12 months"));
    }

    #[test]
    fn the_form_reads_as_the_filter_and_back() {
        let values = form_with(&[
            ("search_query", " ord-7 ".into()),
            ("date_from", "2026-01-01".into()),
            ("date_to", "2026-03-31".into()),
            ("status", FieldValue::Choice("COMMITTED".into())),
            ("type", FieldValue::Choice("SALE".into())),
            ("state", " tx ".into()),
            ("marketplace", FieldValue::Choice("false".into())),
        ]);
        let filter = filter_of(&values);
        assert_eq!(filter.date_from, NaiveDate::from_ymd_opt(2026, 1, 1));
        assert_eq!(filter.state_code.as_deref(), Some("TX"));
        assert_eq!(filter.marketplace, Some(false));
        assert_eq!(
            describe(&filter),
            "2026-01-01 to 2026-03-31, matching \"ord-7\", status COMMITTED, type SALE, state TX, \
             not marketplace"
        );
        let again = filter_form(&filter);
        assert_eq!(filter_of(&again.values()), filter);
        assert!(!again.is_dirty());
    }

    #[test]
    fn bad_dates_and_codes_are_refused_under_their_fields() {
        let errors = check(&form_with(&[
            ("date_from", "2026-02-30".into()),
            ("country", "USA".into()),
            ("state", "TEXAS".into()),
        ]));
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["date_from", "country", "state"]);
        let reversed = check(&form_with(&[
            ("date_from", "2026-03-01".into()),
            ("date_to", "2026-02-01".into()),
        ]));
        assert_eq!(reversed[0].field_path(), "date_to");
    }
}
