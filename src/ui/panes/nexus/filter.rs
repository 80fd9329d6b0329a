//! The `/` filters of both views: country and state for physical nexus, status and state for
//! economic nexus, codes checked as typed.

use crate::model::filters::{NexusFilter, PhysicalNexusFilter};
use crate::model::{FieldError, NexusStatus};
use crate::ui::panes::filter_codes::{check_country_and_state, code};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// The rules of both filters: a country, when given, is a country code; a state, when given, a
/// subdivision code.
fn check_codes(values: &FormValues) -> Vec<FieldError> {
    check_country_and_state(values, "country", "state")
}

fn state_field() -> FieldSpec {
    FieldSpec::new("state", "State", FieldKind::Text)
        .rule("subdivision code such as CA or ON; empty for any")
}

/// The physical view's `/` form.
pub fn physical_form(current: &PhysicalNexusFilter) -> Form {
    Form::new(vec![
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        state_field(),
    ])
    .with_validator(check_codes)
    .with_value("country", current.country_code.clone().unwrap_or_default())
    .with_value("state", current.state_code.clone().unwrap_or_default())
}

/// The physical filter the form's values describe.
pub fn physical_of(values: &FormValues) -> PhysicalNexusFilter {
    PhysicalNexusFilter {
        country_code: code(values, "country"),
        state_code: code(values, "state"),
        order_by: Vec::new(),
    }
}

/// The statuses a user can filter by: the service's default ones and the OSS ones.
fn status_choices() -> Vec<Choice> {
    std::iter::once(Choice::new("", "any", "every status but the OSS ones"))
        .chain(
            NexusStatus::KNOWN
                .iter()
                .map(|s| Choice::new(s.as_str(), s.as_str(), "")),
        )
        .collect()
}

/// The economic view's `/` form.
pub fn economic_form(current: &NexusFilter) -> Form {
    let status = current
        .status_in
        .first()
        .map(|s| s.as_str().to_owned())
        .unwrap_or_default();
    Form::new(vec![
        FieldSpec::new("status", "Status", FieldKind::Select(status_choices()))
            .rule("←/→ to choose"),
        state_field(),
    ])
    .with_validator(check_codes)
    .with_value("status", FieldValue::Choice(status))
    .with_value("state", current.state_code.clone().unwrap_or_default())
}

/// The economic filter the form's values describe.
pub fn economic_of(values: &FormValues) -> NexusFilter {
    NexusFilter {
        status_in: code(values, "status")
            .map(|s| vec![NexusStatus::parse(&s)])
            .unwrap_or_default(),
        state_code: code(values, "state"),
        ..NexusFilter::default()
    }
}

/// A one-line summary of a physical filter.
pub fn describe_physical(filter: &PhysicalNexusFilter) -> String {
    let parts: Vec<String> = [
        filter.country_code.as_ref().map(|c| format!("country {c}")),
        filter.state_code.as_ref().map(|s| format!("state {s}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "all records".into()
    } else {
        parts.join(", ")
    }
}

/// A one-line summary of an economic filter.
pub fn describe_economic(filter: &NexusFilter) -> String {
    let parts: Vec<String> = [
        filter.status_in.first().map(|s| format!("status {s}")),
        filter.state_code.as_ref().map(|s| format!("state {s}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "all jurisdictions".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_checked_and_read_upper_cased() {
        let form = physical_form(&PhysicalNexusFilter::default())
            .with_value("country", "us")
            .with_value("state", "co");
        assert!(check_codes(&form.values()).is_empty());
        let filter = physical_of(&form.values());
        assert_eq!(filter.country_code.as_deref(), Some("US"));
        assert_eq!(describe_physical(&filter), "country US, state CO");

        let form = form
            .with_value("state", "US-CO")
            .with_value("country", "USA");
        let errors = check_codes(&form.values());
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["country", "state"]);
    }

    #[test]
    fn the_economic_filter_round_trips() {
        let filter = NexusFilter {
            status_in: vec![NexusStatus::Exposed],
            state_code: Some("TX".into()),
            ..NexusFilter::default()
        };
        let form = economic_form(&filter);
        assert_eq!(economic_of(&form.values()), filter);
        assert_eq!(describe_economic(&filter), "status EXPOSED, state TX");
        assert_eq!(
            describe_economic(&NexusFilter::default()),
            "all jurisdictions"
        );
    }
}
