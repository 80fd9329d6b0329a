//! The `/` filter: a search, a date range, the enumerations the service filters on, country and state,
//! checked as typed. The sort stays with the table.

use crate::model::filters::TransactionFilter;
use crate::model::{
    AddressStatus, Direction, FieldError, ProcessingStatus, TransactionExemptStatus,
    TransactionStatus, TransactionType,
};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, check_date_ranges, chosen, date, either, given,
    list_value,
};
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
    let mut fields = vec![
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
        any_of_field(
            "processing",
            "Processing status",
            ProcessingStatus::KNOWN,
            ProcessingStatus::as_str,
        ),
        select(
            "direction",
            "Direction",
            any_of(Direction::KNOWN, Direction::as_str),
        ),
        any_of_field(
            "type",
            "Type",
            TransactionType::KNOWN,
            TransactionType::as_str,
        ),
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        FieldSpec::new("state", "State", FieldKind::Text)
            .rule("subdivision code such as TX or ON; empty for any"),
        select("marketplace", "Marketplace", yes_no()),
        any_of_field(
            "exempt",
            "Exempt status",
            TransactionExemptStatus::KNOWN,
            TransactionExemptStatus::as_str,
        ),
        any_of_field(
            "address",
            "Address status",
            AddressStatus::KNOWN,
            AddressStatus::as_str,
        ),
    ];
    // Kept here (the Overview's count of transactions queued over a minute): shown, so that
    // editing the filter keeps it, or sets it aside in sight.
    if current.only_ids.is_some() {
        fields.push(
            FieldSpec::new(
                "only_counted",
                "Only those the Overview counted",
                FieldKind::Checkbox,
            )
            .rule("kept here: the transactions seen queued over a minute; space to untick"),
        );
    }
    let mut form = Form::new(fields).with_validator(check);
    if current.only_ids.is_some() {
        form = form.with_value("only_counted", FieldValue::Bool(true));
    }
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
    form = form.with_value(
        "processing",
        list_value(&current.processing_status_in, ProcessingStatus::as_str),
    );
    if let Some(d) = &current.direction {
        form = form.with_value("direction", choice(d.as_str()));
    }
    form = form.with_value(
        "type",
        list_value(&current.transaction_type, TransactionType::as_str),
    );
    if let Some(c) = current.country.first() {
        form = form.with_value("country", c.as_str());
    }
    if let Some(s) = &current.state_code {
        form = form.with_value("state", s.as_str());
    }
    if let Some(m) = current.marketplace {
        form = form.with_value("marketplace", choice(&m.to_string()));
    }
    form.with_value(
        "exempt",
        list_value(&current.exempt_in, TransactionExemptStatus::as_str),
    )
    .with_value(
        "address",
        list_value(&current.address_status_in, AddressStatus::as_str),
    )
}

/// The filter form's rules: dates well formed and in order, codes well formed.
fn check(values: &FormValues) -> Vec<FieldError> {
    let mut errors = check_date_ranges(values, &[("date_from", "date_to")]);
    errors.extend(check_country_and_state(values, "country", "state"));
    errors
}

/// The filter the form's values describe (the sort stays with the table); the transactions kept
/// here stay `current`'s while their box is ticked.
pub fn filter_of(values: &FormValues, current: &TransactionFilter) -> TransactionFilter {
    TransactionFilter {
        search_query: given(values, "search_query").map(str::to_owned),
        date_from: date(values, "date_from"),
        date_to: date(values, "date_to"),
        status: given(values, "status").map(TransactionStatus::parse),
        processing_status_in: chosen(values, "processing", ProcessingStatus::parse),
        direction: given(values, "direction").map(Direction::parse),
        transaction_type: chosen(values, "type", TransactionType::parse),
        country: given(values, "country")
            .map(str::to_uppercase)
            .into_iter()
            .collect(),
        state_code: given(values, "state").map(str::to_uppercase),
        marketplace: given(values, "marketplace").map(|m| m == "true"),
        exempt_in: chosen(values, "exempt", TransactionExemptStatus::parse),
        address_status_in: chosen(values, "address", AddressStatus::parse),
        only_ids: current
            .only_ids
            .clone()
            .filter(|_| values.bool("only_counted") == Some(true)),
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
    if let Some(ids) = &filter.only_ids {
        parts.push(format!("the {} seen queued for over a minute", ids.len()));
    }
    if let Some(s) = &filter.status {
        parts.push(format!("status {s}"));
    }
    if !filter.processing_status_in.is_empty() {
        let p = either(&filter.processing_status_in, ProcessingStatus::as_str);
        parts.push(format!("processing {p}"));
    }
    if let Some(d) = &filter.direction {
        parts.push(format!("direction {d}"));
    }
    if !filter.transaction_type.is_empty() {
        let t = either(&filter.transaction_type, TransactionType::as_str);
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
    if !filter.exempt_in.is_empty() {
        let e = either(&filter.exempt_in, TransactionExemptStatus::as_str);
        parts.push(format!("exempt status {e}"));
    }
    if !filter.address_status_in.is_empty() {
        let a = either(&filter.address_status_in, AddressStatus::as_str);
        parts.push(format!("address {a}"));
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
        let filter = filter_of(&form_with(&[]), &TransactionFilter::default());
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
            (
                "type",
                FieldValue::List(vec!["SALE".into(), "FULL_CREDIT_NOTE".into()]),
            ),
            (
                "address",
                FieldValue::List(vec!["UNVERIFIED".into(), "INVALID".into()]),
            ),
            ("state", " tx ".into()),
            ("marketplace", FieldValue::Choice("false".into())),
        ]);
        let filter = filter_of(&values, &TransactionFilter::default());
        assert_eq!(filter.date_from, NaiveDate::from_ymd_opt(2026, 1, 1));
        assert_eq!(filter.state_code.as_deref(), Some("TX"));
        assert_eq!(filter.marketplace, Some(false));
        assert_eq!(
            describe(&filter),
            "2026-01-01 to 2026-03-31, matching \"ord-7\", status COMMITTED, \
             type SALE or FULL_CREDIT_NOTE, state TX, not marketplace, \
             address UNVERIFIED or INVALID"
        );
        assert_eq!(
            filter.address_status_in,
            [AddressStatus::Unverified, AddressStatus::Invalid]
        );
        let again = filter_form(&filter);
        assert_eq!(filter_of(&again.values(), &filter), filter);
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

    #[test]
    fn the_transactions_kept_here_survive_editing_the_filter_and_can_be_set_aside() {
        let tile = TransactionFilter {
            only_ids: Some(vec!["txn_1".into(), "txn_2".into()]),
            ..TransactionFilter::default()
        };
        let edited = filter_form(&tile).with_value("state", "tx");
        let filter = filter_of(&edited.values(), &tile);
        assert_eq!(filter.only_ids, tile.only_ids, "kept");
        assert_eq!(filter.state_code.as_deref(), Some("TX"));
        let unticked = filter_form(&filter).with_value("only_counted", FieldValue::Bool(false));
        assert_eq!(filter_of(&unticked.values(), &filter).only_ids, None);
        // A list without them offers no such box.
        let plain = filter_form(&TransactionFilter::default());
        assert!(plain.specs().all(|f| f.name != "only_counted"));
    }
}
