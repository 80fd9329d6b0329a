//! The `/` filter: a search over name, email, company and id, and the country and state, checked
//! as typed.

use crate::model::filters::CustomerFilter;
use crate::model::{AddressStatus, FieldError};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, chosen, either, given, list_value,
};
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormValues};

/// The `/` filter form, holding the filter in force.
pub fn filter_form(current: &CustomerFilter) -> Form {
    let mut form = Form::new(vec![
        FieldSpec::new("search_query", "Search", FieldKind::Text)
            .rule("part of a name, email, company or id; empty for any"),
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US, CA or DE; empty for any"),
        FieldSpec::new("state", "State", FieldKind::Text)
            .rule("subdivision code such as CA or ON; empty for any"),
        any_of_field(
            "address",
            "Address status",
            AddressStatus::KNOWN,
            AddressStatus::as_str,
        ),
    ])
    .with_validator(check_codes)
    .with_value(
        "address",
        list_value(&current.address_status_in, AddressStatus::as_str),
    );
    if let Some(q) = &current.search_query {
        form = form.with_value("search_query", q.as_str());
    }
    if let Some(c) = current.country.first() {
        form = form.with_value("country", c.as_str());
    }
    if let Some(s) = &current.state {
        form = form.with_value("state", s.as_str());
    }
    form
}

/// The filter form's rule: codes, when given, are well formed (either case is accepted).
fn check_codes(values: &FormValues) -> Vec<FieldError> {
    check_country_and_state(values, "country", "state")
}

/// The filter the form's values describe.
pub fn filter_of(values: &FormValues) -> CustomerFilter {
    CustomerFilter {
        search_query: given(values, "search_query").map(str::to_owned),
        country: given(values, "country")
            .map(str::to_uppercase)
            .into_iter()
            .collect(),
        state: given(values, "state").map(str::to_uppercase),
        address_status_in: chosen(values, "address", AddressStatus::parse),
        ..CustomerFilter::default()
    }
}

/// A one-line summary of the filter in force: `matching "ada", country CA`.
pub fn describe(filter: &CustomerFilter) -> String {
    let mut parts = Vec::new();
    if let Some(q) = &filter.search_query {
        parts.push(format!("matching \"{q}\""));
    }
    if let Some(c) = filter.country.first() {
        parts.push(format!("country {c}"));
    }
    if let Some(s) = &filter.state {
        parts.push(format!("state {s}"));
    }
    if !filter.address_status_in.is_empty() {
        let a = either(&filter.address_status_in, AddressStatus::as_str);
        parts.push(format!("address {a}"));
    }
    if parts.is_empty() {
        "all customers".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    fn values(search: &str, country: &str, state: &str) -> FormValues {
        filter_form(&CustomerFilter::default())
            .with_value("search_query", FieldValue::from(search))
            .with_value("country", FieldValue::from(country))
            .with_value("state", FieldValue::from(state))
            .values()
    }

    #[test]
    fn the_form_reads_as_the_filter_and_says_what_is_shown() {
        let filter = filter_of(&values(" ada ", "ca", "on"));
        assert_eq!(filter.search_query.as_deref(), Some("ada"));
        assert_eq!(filter.country, vec!["CA".to_owned()]);
        assert_eq!(filter.state.as_deref(), Some("ON"));
        assert_eq!(describe(&filter), "matching \"ada\", country CA, state ON");
        assert_eq!(describe(&filter_of(&values("", "", ""))), "all customers");
    }

    #[test]
    fn malformed_codes_are_refused_under_their_fields() {
        let errors = check_codes(&values("", "Canada", "US-CA"));
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["country", "state"]);
        assert!(check_codes(&values("x", "de", "")).is_empty());
    }

    #[test]
    fn the_form_opens_on_the_filter_in_force() {
        let current = filter_of(&values("lovelace", "GB", ""));
        let form = filter_form(&current);
        assert_eq!(form.values().text("search_query"), Some("lovelace"));
        assert_eq!(form.values().text("country"), Some("GB"));
        assert!(!form.is_dirty());
    }
}
