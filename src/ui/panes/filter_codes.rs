//! What every list's `/` filter form checks alike: the text of a field as given, and a country
//! and a state (subdivision) that, when given, are well-formed codes in either case.

use serde_json::Value;

use crate::model::{FieldError, LocPart};
use crate::rules;
use crate::ui::widgets::form::FormValues;

/// The trimmed text of field `name`, when not empty.
pub fn given<'v>(values: &'v FormValues, name: &str) -> Option<&'v str> {
    values.text(name).map(str::trim).filter(|v| !v.is_empty())
}

/// The trimmed, upper-cased text of field `name`, when not empty: a code as the service wants it.
pub fn code(values: &FormValues, name: &str) -> Option<String> {
    given(values, name).map(str::to_uppercase)
}

/// A refusal of query field `name`, showing what was typed.
pub fn query_error(name: &str, msg: impl Into<String>, input: &str) -> FieldError {
    FieldError::new(
        "value_error",
        vec![LocPart::from("query"), LocPart::from(name)],
        msg,
        Value::String(input.to_owned()),
    )
}

/// The refusals of the country field `country` and the state field `state`: each, when given,
/// must be a country code (or `ZZ_EU`) and a subdivision code.
pub fn check_country_and_state(values: &FormValues, country: &str, state: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(c) = given(values, country)
        && !rules::is_country_code(&c.to_uppercase())
    {
        errors.push(query_error(
            country,
            "country must be an ISO 3166-1 alpha-2 code such as US, or ZZ_EU",
            c,
        ));
    }
    if let Some(s) = given(values, state)
        && let Err(msg) = rules::check_state_code(&s.to_uppercase())
    {
        errors.push(query_error(state, msg, s));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::{FieldKind, FieldSpec, Form};

    fn values(country: &str, state: &str) -> FormValues {
        Form::new(vec![
            FieldSpec::new("country", "Country", FieldKind::Text),
            FieldSpec::new("state", "State", FieldKind::Text),
        ])
        .with_value("country", country)
        .with_value("state", state)
        .values()
    }

    #[test]
    fn codes_are_checked_in_either_case_and_refusals_name_their_field() {
        assert!(check_country_and_state(&values(" us ", "ca"), "country", "state").is_empty());
        assert!(check_country_and_state(&values("", ""), "country", "state").is_empty());
        assert!(check_country_and_state(&values("zz_eu", ""), "country", "state").is_empty());
        let errors = check_country_and_state(&values("USA", "?!"), "country", "state");
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["country", "state"]);
        assert_eq!(errors[0].input, Value::String("USA".into()));
        assert_eq!(code(&values(" ca ", ""), "country").as_deref(), Some("CA"));
    }
}
