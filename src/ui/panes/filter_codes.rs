//! What every list's `/` filter form checks alike: the text of a field as given, and a country
//! and a state (subdivision) that, when given, are well-formed codes in either case.

use serde_json::Value;

use crate::model::{FieldError, LocPart};
use crate::rules;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, FormValues};

/// The trimmed text of field `name`, when not empty.
pub fn given<'v>(values: &'v FormValues, name: &str) -> Option<&'v str> {
    values.text(name).map(str::trim).filter(|v| !v.is_empty())
}

/// The trimmed, upper-cased text of field `name`, when not empty: a code as the service wants it.
pub fn code(values: &FormValues, name: &str) -> Option<String> {
    given(values, name).map(str::to_uppercase)
}

/// A multi-select over the values of an enumeration (`known`, named by `name`); nothing chosen
/// is any.
pub fn any_of_field<T>(
    field: &'static str,
    label: &'static str,
    known: &[T],
    name: fn(&T) -> &str,
) -> FieldSpec {
    let choices = known
        .iter()
        .map(|v| Choice::new(name(v), name(v), ""))
        .collect();
    FieldSpec::new(field, label, FieldKind::MultiSelect(choices))
        .rule("←/→ move · space toggle; none chosen for any")
}

/// The values chosen in multi-select `field`, read back as the enumeration.
pub fn chosen<T>(values: &FormValues, field: &str, parse: fn(&str) -> T) -> Vec<T> {
    values.list(field).into_iter().map(parse).collect()
}

/// The value a multi-select holds for `items`: their names.
pub fn list_value<T>(items: &[T], name: fn(&T) -> &str) -> FieldValue {
    FieldValue::List(items.iter().map(|i| name(i).to_owned()).collect())
}

/// Values in words: `EXPOSED or PENDING_REGISTRATION`.
pub fn either<T>(items: &[T], name: fn(&T) -> &str) -> String {
    items.iter().map(name).collect::<Vec<_>>().join(" or ")
}

/// The date in field `name`, when it is given and well formed.
pub fn date(values: &FormValues, name: &str) -> Option<chrono::NaiveDate> {
    given(values, name).and_then(|d| rules::parse_date(d).ok())
}

/// The refusals of date fields given in `(from, to)` pairs: each date, when given, well formed,
/// and no `to` before its `from`.
pub fn check_date_ranges(values: &FormValues, ranges: &[(&str, &str)]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for &(from_name, to_name) in ranges {
        let mut dates = [None, None];
        for (i, name) in [from_name, to_name].into_iter().enumerate() {
            if let Some(d) = given(values, name) {
                match rules::parse_date(d) {
                    Ok(date) => dates[i] = Some(date),
                    Err(msg) => errors.push(query_error(name, msg, d)),
                }
            }
        }
        if let [Some(from), Some(to)] = dates
            && to < from
        {
            errors.push(query_error(
                to_name,
                format!("must not be before {from}"),
                &to.to_string(),
            ));
        }
    }
    errors
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
