//! The `/` filter: a small form over the list's filters, checked as typed.

use crate::model::filters::RegistrationFilter;
use crate::model::{FieldError, FilingFrequency, RegistrationStatus, TaxType};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, chosen, either, list_value,
};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// Choices of an enumeration filter, with "any" first.
fn any_of<T>(known: &[T], name: fn(&T) -> &str) -> Vec<Choice> {
    std::iter::once(Choice::new("", "any", "no filter on this field"))
        .chain(known.iter().map(|v| Choice::new(name(v), name(v), "")))
        .collect()
}

/// The `/` filter form.
pub fn filter_form(current: &RegistrationFilter) -> Form {
    let form = Form::new(vec![
        any_of_field(
            "status",
            "Status",
            RegistrationStatus::KNOWN,
            RegistrationStatus::as_str,
        ),
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US, CA or ZZ_EU; empty for any"),
        FieldSpec::new("state", "State", FieldKind::Text)
            .rule("subdivision code such as CA or ON; empty for any"),
        FieldSpec::new(
            "frequency",
            "Filing frequency",
            FieldKind::Select(any_of(FilingFrequency::KNOWN, FilingFrequency::as_str)),
        )
        .rule("←/→ to choose"),
        FieldSpec::new(
            "tax_type",
            "Tax type",
            FieldKind::Select(any_of(TaxType::KNOWN, TaxType::as_str)),
        )
        .rule("←/→ to choose"),
        // Kept here (the service has no filter for them): shown, so that editing the filter
        // keeps them, or unticks them in sight.
        FieldSpec::new(
            "to_mark_as_collecting",
            "To mark as collecting",
            FieldKind::Checkbox,
        )
        .rule("kept here: the service says to mark as collecting; space to tick"),
        FieldSpec::new(
            "missing_credentials",
            "Missing credentials",
            FieldKind::Checkbox,
        )
        .rule("kept here: portal credentials missing where they can be kept; space to tick"),
    ])
    .with_validator(check_codes);
    let mut form = form;
    form = form.with_value(
        "status",
        list_value(&current.status_in, RegistrationStatus::as_str),
    );
    if let Some(c) = current.country_code_in.first() {
        form = form.with_value("country", c.as_str());
    }
    if let Some(s) = &current.state_code {
        form = form.with_value("state", s.as_str());
    }
    if let Some(f) = current.filing_frequency_in.first() {
        form = form.with_value("frequency", FieldValue::Choice(f.as_str().to_owned()));
    }
    if let Some(t) = current.tax_type_in.first() {
        form = form.with_value("tax_type", FieldValue::Choice(t.as_str().to_owned()));
    }
    form.with_value(
        "to_mark_as_collecting",
        FieldValue::Bool(current.to_mark_as_collecting),
    )
    .with_value(
        "missing_credentials",
        FieldValue::Bool(current.missing_credentials),
    )
}

/// The filter form's rule: codes, when given, are well formed.
fn check_codes(values: &FormValues) -> Vec<FieldError> {
    check_country_and_state(values, "country", "state")
}

/// The filter the form's values describe (the sort stays with the table).
pub fn filter_of(values: &FormValues) -> RegistrationFilter {
    let text = |name: &str| {
        values
            .text(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_uppercase)
    };
    RegistrationFilter {
        status_in: chosen(values, "status", RegistrationStatus::parse),
        state_code: text("state"),
        filing_frequency_in: text("frequency")
            .map(|s| vec![FilingFrequency::parse(&s)])
            .unwrap_or_default(),
        country_code_in: text("country").into_iter().collect(),
        tax_type_in: text("tax_type")
            .map(|s| vec![TaxType::parse(&s)])
            .unwrap_or_default(),
        to_mark_as_collecting: values.bool("to_mark_as_collecting") == Some(true),
        missing_credentials: values.bool("missing_credentials") == Some(true),
        ..RegistrationFilter::default()
    }
}

/// A one-line summary of the filter in force.
pub fn describe(filter: &RegistrationFilter) -> String {
    let mut parts = Vec::new();
    if !filter.status_in.is_empty() {
        parts.push(format!(
            "status {}",
            either(&filter.status_in, RegistrationStatus::as_str)
        ));
    }
    if let Some(c) = filter.country_code_in.first() {
        parts.push(format!("country {c}"));
    }
    if let Some(s) = &filter.state_code {
        parts.push(format!("state {s}"));
    }
    if let Some(f) = filter.filing_frequency_in.first() {
        parts.push(format!("filing {f}"));
    }
    if let Some(t) = filter.tax_type_in.first() {
        parts.push(format!("tax type {t}"));
    }
    if filter.to_mark_as_collecting {
        parts.push("to mark as collecting".into());
    }
    if filter.missing_credentials {
        parts.push("missing credentials".into());
    }
    if parts.is_empty() {
        "all registrations".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_statuses_read_as_the_filter_and_back() {
        let form = filter_form(&RegistrationFilter::default())
            .with_value(
                "status",
                FieldValue::List(vec!["REGISTERED".into(), "PROCESSING".into()]),
            )
            .with_value("state", "tx");
        let filter = filter_of(&form.values());
        assert_eq!(
            filter.status_in,
            [
                RegistrationStatus::Registered,
                RegistrationStatus::Processing
            ]
        );
        assert_eq!(
            describe(&filter),
            "status REGISTERED or PROCESSING, state TX"
        );
        let again = filter_form(&filter);
        assert_eq!(filter_of(&again.values()), filter);
        assert!(!again.is_dirty());
        assert_eq!(
            describe(&RegistrationFilter::default()),
            "all registrations"
        );
    }

    #[test]
    fn the_flags_kept_here_survive_editing_the_filter_and_can_be_unticked() {
        // Tile 4's count opens the list with a flag the service has no filter for.
        let tile = RegistrationFilter {
            missing_credentials: true,
            ..RegistrationFilter::default()
        };
        let edited = filter_form(&tile).with_value("state", "ny");
        let filter = filter_of(&edited.values());
        assert!(filter.missing_credentials, "kept through the edit");
        assert_eq!(filter.state_code.as_deref(), Some("NY"));
        let unticked =
            filter_form(&filter).with_value("missing_credentials", FieldValue::Bool(false));
        assert!(!filter_of(&unticked.values()).missing_credentials);
    }
}
