//! The filters: the live search (its text is the list's `search_query`) and the filter form for
//! status, country and jurisdiction, codes checked as typed.

use crate::model::filters::ExemptionFilter;
use crate::model::{ExemptionStatus, FieldError};
use crate::ui::panes::filter_codes::{check_country_and_state, code};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The filter form's rule: a country, when given, is a country code; a jurisdiction, when
/// given, a subdivision code.
fn check_codes(values: &FormValues) -> Vec<FieldError> {
    check_country_and_state(values, "country_code", "jurisdiction")
}

/// The statuses the list may be filtered by: the three the service accepts.
fn status_choices() -> Vec<Choice> {
    std::iter::once(Choice::new("", "any", "active, inactive and expired"))
        .chain(
            ExemptionStatus::FILTERABLE
                .iter()
                .map(|s| Choice::new(s.as_str(), s.as_str(), "")),
        )
        .collect()
}

/// The filter form, holding the filter in force.
pub fn filter_form(current: &ExemptionFilter) -> Form {
    let status = current
        .status_in
        .first()
        .map(|s| s.as_str().to_owned())
        .unwrap_or_default();
    Form::new(vec![
        FieldSpec::new("status", "Status", FieldKind::Select(status_choices()))
            .rule("←/→ to choose; ACTIVE, INACTIVE or EXPIRED"),
        FieldSpec::new("country_code", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        FieldSpec::new("jurisdiction", "Jurisdiction", FieldKind::Text)
            .rule("subdivision code such as TX or ON; empty for any"),
    ])
    .with_validator(check_codes)
    .with_value("status", status)
    .with_value(
        "country_code",
        current.country_code.first().cloned().unwrap_or_default(),
    )
    .with_value(
        "jurisdiction",
        current.jurisdiction.clone().unwrap_or_default(),
    )
}

/// The filter the form's values describe, keeping the search and the sort of `current`.
pub fn filter_of(values: &FormValues, current: &ExemptionFilter) -> ExemptionFilter {
    let status_in = values
        .text("status")
        .filter(|s| !s.is_empty())
        .map(ExemptionStatus::parse)
        .into_iter()
        .collect();
    ExemptionFilter {
        search_query: current.search_query.clone(),
        status_in,
        country_code: code(values, "country_code").into_iter().collect(),
        jurisdiction: code(values, "jurisdiction"),
        order_by: current.order_by.clone(),
        ..ExemptionFilter::default()
    }
}

/// A one-line summary of the filter in force: `EXPIRED, matching "acme", country US`.
pub fn describe(filter: &ExemptionFilter) -> String {
    let mut parts = Vec::new();
    match filter.status_in.as_slice() {
        [] => parts.push("active, inactive and expired".to_owned()),
        statuses => parts.push(
            statuses
                .iter()
                .map(ExemptionStatus::as_str)
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
    if let Some(q) = &filter.search_query {
        parts.push(format!("matching \"{q}\""));
    }
    if let Some(c) = filter.country_code.first() {
        parts.push(format!("country {c}"));
    }
    if let Some(j) = &filter.jurisdiction {
        parts.push(format!("jurisdiction {j}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    fn values(status: &str, country: &str, jurisdiction: &str) -> FormValues {
        filter_form(&ExemptionFilter::default())
            .with_value("status", FieldValue::Choice(status.into()))
            .with_value("country_code", FieldValue::from(country))
            .with_value("jurisdiction", FieldValue::from(jurisdiction))
            .values()
    }

    #[test]
    fn the_form_reads_as_the_filter_and_keeps_the_search() {
        let current = ExemptionFilter {
            search_query: Some("acme".into()),
            ..ExemptionFilter::default()
        };
        let filter = filter_of(&values("EXPIRED", " us ", "tx"), &current);
        assert_eq!(filter.status_in, vec![ExemptionStatus::Expired]);
        assert_eq!(filter.country_code, vec!["US".to_owned()]);
        assert_eq!(filter.jurisdiction.as_deref(), Some("TX"));
        assert_eq!(filter.search_query.as_deref(), Some("acme"));
        assert_eq!(
            describe(&filter),
            "EXPIRED, matching \"acme\", country US, jurisdiction TX"
        );
        let any = filter_of(&values("", "", ""), &ExemptionFilter::default());
        assert_eq!(any, ExemptionFilter::default());
        assert_eq!(describe(&any), "active, inactive and expired");
    }

    #[test]
    fn only_the_filterable_statuses_are_offered() {
        let form = filter_form(&ExemptionFilter::default());
        let spec = form.specs().next().unwrap();
        let offered: Vec<&str> = spec.choices().iter().map(|c| c.value.as_str()).collect();
        assert_eq!(offered, ["", "ACTIVE", "INACTIVE", "EXPIRED"]);
    }

    #[test]
    fn malformed_codes_are_refused_under_their_fields() {
        let errors = check_codes(&values("", "USA", "Texas"));
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["country_code", "jurisdiction"]);
        assert!(check_codes(&values("", "ca", "on")).is_empty());
    }

    #[test]
    fn the_form_opens_on_the_filter_in_force() {
        let current = filter_of(&values("INACTIVE", "CA", "ON"), &ExemptionFilter::default());
        let form = filter_form(&current);
        assert_eq!(form.values().text("status"), Some("INACTIVE"));
        assert_eq!(form.values().text("country_code"), Some("CA"));
        assert!(!form.is_dirty());
    }
}
