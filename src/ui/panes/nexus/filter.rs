//! The `/` filters of both views: country and state for physical nexus, status and state for
//! economic nexus, codes checked as typed.

use crate::model::filters::{NexusFilter, PhysicalNexusFilter};
use crate::model::{FieldError, NexusStatus, Standing};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, chosen, code, either, list_value,
};
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

/// The economic view's `/` form.
pub fn economic_form(current: &NexusFilter) -> Form {
    Form::new(vec![
        any_of_field("status", "Status", NexusStatus::KNOWN, NexusStatus::as_str)
            .rule("←/→ move · space toggle; none chosen for every status but the OSS ones"),
        state_field(),
        // Kept here (judged from nexus, physical presence and registrations read together):
        // shown, so that editing the filter keeps it, or sets it aside in sight.
        FieldSpec::new("standing", "Standing", FieldKind::Select(standings()))
            .rule("kept here: nexus, physical presence and registrations read together; ←/→"),
    ])
    .with_validator(check_codes)
    .with_value(
        "status",
        list_value(&current.status_in, NexusStatus::as_str),
    )
    .with_value("state", current.state_code.clone().unwrap_or_default())
    .with_value(
        "standing",
        FieldValue::Choice(current.standing.map_or("", Standing::in_words).to_owned()),
    )
}

/// The standings a jurisdiction can have, "any" first.
fn standings() -> Vec<Choice> {
    std::iter::once(Choice::new("", "any", "no filter on the standing"))
        .chain(
            Standing::ALL
                .iter()
                .map(|s| Choice::new(s.in_words(), s.in_words(), "")),
        )
        .collect()
}

/// The economic filter the form's values describe.
pub fn economic_of(values: &FormValues) -> NexusFilter {
    NexusFilter {
        status_in: chosen(values, "status", NexusStatus::parse),
        state_code: code(values, "state"),
        standing: values
            .text("standing")
            .and_then(|words| Standing::ALL.into_iter().find(|s| s.in_words() == words)),
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
        filter.standing.map(|s| {
            format!(
                "{} (nexus, physical presence and registrations read together)",
                s.in_words()
            )
        }),
        (!filter.status_in.is_empty())
            .then(|| format!("status {}", either(&filter.status_in, NexusStatus::as_str))),
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
            status_in: vec![NexusStatus::PendingRegistration, NexusStatus::Exposed],
            state_code: Some("TX".into()),
            ..NexusFilter::default()
        };
        let form = economic_form(&filter);
        assert_eq!(economic_of(&form.values()), filter);
        assert_eq!(
            form.to_json()["status"],
            serde_json::json!(["PENDING_REGISTRATION", "EXPOSED"])
        );
        assert_eq!(
            describe_economic(&filter),
            "status PENDING_REGISTRATION or EXPOSED, state TX"
        );
        assert_eq!(
            describe_economic(&NexusFilter::default()),
            "all jurisdictions"
        );
    }

    #[test]
    fn the_standing_kept_here_survives_editing_the_filter_and_can_be_set_aside() {
        let tile = NexusFilter {
            standing: Some(Standing::ExposedUnregistered),
            ..NexusFilter::default()
        };
        let edited = economic_form(&tile).with_value("state", "mi");
        let filter = economic_of(&edited.values());
        assert_eq!(filter.standing, Some(Standing::ExposedUnregistered), "kept");
        assert_eq!(filter.state_code.as_deref(), Some("MI"));
        let any = economic_form(&filter).with_value("standing", FieldValue::Choice(String::new()));
        assert_eq!(economic_of(&any.values()).standing, None);
        assert!(
            !economic_form(&filter).is_dirty(),
            "the form reads back as the filter"
        );
    }
}
