//! Field-name casing between the generations: v1 writes `snake_case`, the Tenanted API
//! `camelCase`. Both the sandbox (answering the Tenanted API from v1 records) and the client
//! (reading Tenanted answers into the v1 types) translate JSON with these functions, so the two
//! sides agree on every name.
//!
//! The two conversions are inverse on every name the interface uses: `street_1` <-> `street1`,
//! `country_code` <-> `countryCode`, and names without a lowercase letter (`FEIN`) or already
//! holding an underscore are left alone. JSON Schema documents and free-form metadata are carried
//! as they are (their keys are not field names).

use serde_json::{Map, Value};

/// Keys whose values are documents of their own, never translated (both spellings).
const OPAQUE: &[&str] = &[
    "jurisdiction_fields_json_schema",
    "jurisdictionFieldsJsonSchema",
    "metadata",
];

/// `country_code` -> `countryCode`, `street_1` -> `street1`; `FEIN` stays.
pub fn snake_to_camel(name: &str) -> String {
    if !name.contains('_') || !name.bytes().any(|b| b.is_ascii_lowercase()) {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len());
    let mut upper_next = false;
    for (i, c) in name.chars().enumerate() {
        if c == '_' && i > 0 {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `countryCode` -> `country_code`, `street1` -> `street_1`; `FEIN` and `already_snake` stay.
pub fn camel_to_snake(name: &str) -> String {
    let has_lower = name.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper_or_digit = name
        .bytes()
        .any(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    if name.contains('_') || !has_lower || !has_upper_or_digit {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let boundary = match prev {
            Some(p) if c.is_ascii_uppercase() => p.is_ascii_lowercase() || p.is_ascii_digit(),
            Some(p) if c.is_ascii_digit() => p.is_ascii_alphabetic(),
            _ => false,
        };
        if boundary {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        prev = Some(c);
    }
    out
}

/// Renames every object key of `value`, depth first, with `rename`; opaque documents are kept.
pub fn rename_keys(value: Value, rename: &impl Fn(&str) -> String) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = if OPAQUE.contains(&k.as_str()) {
                        v
                    } else {
                        rename_keys(v, rename)
                    };
                    (rename(&k), v)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| rename_keys(v, rename)).collect())
        }
        other => other,
    }
}

/// Every key to `camelCase`.
pub fn to_camel(value: Value) -> Value {
    rename_keys(value, &|k| snake_to_camel(k))
}

/// Every key to `snake_case`.
pub fn to_snake(value: Value) -> Value {
    rename_keys(value, &|k| camel_to_snake(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_round_trip() {
        for (snake, camel) in [
            ("country_code", "countryCode"),
            ("street_1", "street1"),
            (
                "cdtfa_third_party_access_security_code",
                "cdtfaThirdPartyAccessSecurityCode",
            ),
            ("security_questions", "securityQuestions"),
            ("request_id", "requestId"),
            ("FEIN", "FEIN"),
            ("id", "id"),
            ("ZZ_EU", "ZZ_EU"),
        ] {
            assert_eq!(snake_to_camel(snake), camel, "{snake}");
            assert_eq!(camel_to_snake(camel), snake, "{camel}");
        }
    }

    #[test]
    fn documents_are_renamed_deeply_but_schemas_are_kept() {
        let v = json!({
            "country_code": "US",
            "items": [{"postal_code": "1", "tax_items": [{"tax_rate_calculated": "0.1"}]}],
            "jurisdiction_fields_json_schema": {"additionalProperties": false, "properties": {"business_name": {}}}
        });
        let camel = to_camel(v.clone());
        assert_eq!(camel["countryCode"], "US");
        assert_eq!(camel["items"][0]["taxItems"][0]["taxRateCalculated"], "0.1");
        assert_eq!(
            camel["jurisdictionFieldsJsonSchema"]["properties"]["business_name"],
            json!({})
        );
        assert_eq!(to_snake(camel), v);
    }
}
