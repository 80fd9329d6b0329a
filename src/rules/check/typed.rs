//! The readers of typed values: dates, timestamps, decimals, enumerations, country and currency
//! codes.

use std::fmt::Display;
use std::str::FromStr;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Check, Need};
use crate::model::{FieldError, Timestamp};
use crate::rules::codes::{country_hint, currency_hint, is_country_code, is_currency};
use crate::rules::values::{parse_date, parse_decimal};

/// A decimal as the model reads it (so that what passes here always deserializes).
fn model_decimal(v: &Value) -> Option<Decimal> {
    <Decimal as Deserialize>::deserialize(v).ok()
}

/// The `'a', 'b' or 'c'` list the service uses in enumeration errors.
fn quoted_choices<E: Display>(choices: &[E]) -> String {
    let quoted: Vec<String> = choices.iter().map(|c| format!("'{c}'")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl<'a> Check<'a> {
    fn date_at(&mut self, field: &str, need: Need) -> Option<NaiveDate> {
        let v = self.take(field, need)?;
        let Some(s) = v.as_str() else {
            self.fail(field, "date_type", "Input should be a valid date", v);
            return None;
        };
        match parse_date(s) {
            Ok(d) => Some(d),
            Err(msg) => {
                self.fail(field, "date_parsing", msg, v);
                None
            }
        }
    }

    /// A required `YYYY-MM-DD` date that exists in the calendar.
    pub fn date(&mut self, field: &str) -> Option<NaiveDate> {
        self.date_at(field, Need::Required)
    }

    /// An optional `YYYY-MM-DD` date.
    pub fn optional_date(&mut self, field: &str) -> Option<NaiveDate> {
        self.date_at(field, Need::Optional)
    }

    fn timestamp_at(&mut self, field: &str, need: Need) -> Option<Timestamp> {
        let v = self.take(field, need)?;
        let Some(s) = v.as_str() else {
            self.fail(
                field,
                "datetime_type",
                "Input should be a valid datetime",
                v,
            );
            return None;
        };
        if let Some(t) = Timestamp::parse(s) {
            Some(t)
        } else {
            let msg = "Input should be a valid datetime, such as 2026-01-31T13:45:00Z, \
                       2026-01-31T13:45:00 or 2026-01-31";
            self.fail(field, "datetime_parsing", msg, v);
            None
        }
    }

    /// A required timestamp, in any form [`Timestamp::parse`] reads.
    pub fn timestamp(&mut self, field: &str) -> Option<Timestamp> {
        self.timestamp_at(field, Need::Required)
    }

    /// An optional timestamp.
    pub fn optional_timestamp(&mut self, field: &str) -> Option<Timestamp> {
        self.timestamp_at(field, Need::Optional)
    }

    fn decimal_at(&mut self, field: &str, need: Need) -> Option<Decimal> {
        let v = self.take(field, need)?;
        let read = match v {
            // Strings are held to plain or scientific notation before the model reads them.
            Value::String(s) => parse_decimal(s).and_then(|_| model_decimal(v)),
            Value::Number(_) => model_decimal(v),
            _ => {
                let msg = "Decimal input should be an integer, float or string";
                self.fail(field, "decimal_type", msg, v);
                return None;
            }
        };
        if read.is_none() {
            let msg =
                "Input should be a valid decimal, such as 12.50, within 28 significant digits";
            self.fail(field, "decimal_parsing", msg, v);
        }
        read
    }

    /// A required decimal, sent as a JSON number or a string (`12.5`, `"12.50"`).
    pub fn decimal(&mut self, field: &str) -> Option<Decimal> {
        self.decimal_at(field, Need::Required)
    }

    /// An optional decimal.
    pub fn optional_decimal(&mut self, field: &str) -> Option<Decimal> {
        self.decimal_at(field, Need::Optional)
    }

    /// Several optional decimals.
    pub fn optional_decimals(&mut self, fields: &[&str]) {
        for field in fields {
            self.optional_decimal(field);
        }
    }

    /// An optional whole number, sent as a JSON integer (`int_type` otherwise: no `"30"`, no
    /// `30.5`).
    pub fn optional_int(&mut self, field: &str) -> Option<i64> {
        let v = self.take(field, Need::Optional)?;
        let read = v.as_i64();
        if read.is_none() {
            self.fail(field, "int_type", "Input should be a valid integer", v);
        }
        read
    }

    fn enum_at<E>(&mut self, field: &str, allowed: &[E], need: Need) -> Option<E>
    where
        E: FromStr + PartialEq + Display,
    {
        let v = self.take(field, need)?;
        let value = v.as_str().and_then(|s| E::from_str(s).ok());
        match value {
            Some(e) if allowed.contains(&e) => Some(e),
            _ => {
                self.not_one_of(field, &quoted_choices(allowed), v);
                None
            }
        }
    }

    /// The `enum` error of a value of `field` that is none of `expected`.
    fn not_one_of(&mut self, field: &str, expected: &str, v: &Value) {
        let loc = self.loc_of(field);
        let msg = format!("Input should be {expected}");
        self.errors.push(
            FieldError::new("enum", loc, msg, v.clone()).with_ctx(json!({ "expected": expected })),
        );
    }

    /// A required member of `allowed` (usually an open enumeration's `KNOWN`, or a narrower
    /// list such as `ExemptionType::CREATABLE`).
    pub fn enum_of<E>(&mut self, field: &str, allowed: &[E]) -> Option<E>
    where
        E: FromStr + PartialEq + Display,
    {
        self.enum_at(field, allowed, Need::Required)
    }

    /// An optional member of `allowed`.
    pub fn optional_enum_of<E>(&mut self, field: &str, allowed: &[E]) -> Option<E>
    where
        E: FromStr + PartialEq + Display,
    {
        self.enum_at(field, allowed, Need::Optional)
    }

    /// An optional string that must be one of `allowed` (a closed list of words the document
    /// gives, such as its `SourceEnum`): otherwise an `enum` error naming them.
    pub fn optional_word_of(&mut self, field: &str, allowed: &[&str]) -> Option<&'a str> {
        let v = self.take(field, Need::Optional)?;
        match v.as_str() {
            Some(s) if allowed.contains(&s) => Some(s),
            _ => {
                self.not_one_of(field, &quoted_choices(allowed), v);
                None
            }
        }
    }

    /// A string that must pass `is_valid`; otherwise an `enum` error with `msg` and the hint
    /// `hint` gives for the value, if any.
    fn code_at(
        &mut self,
        field: &str,
        need: Need,
        is_valid: fn(&str) -> bool,
        msg: &str,
        hint: fn(&str) -> Option<String>,
    ) -> Option<&'a str> {
        let s = self.str_at(field, need)?;
        if is_valid(s) {
            return Some(s);
        }
        let msg = match hint(s) {
            Some(h) => format!("{msg} ({h})"),
            None => msg.to_owned(),
        };
        let input = Value::String(s.to_owned());
        self.fail(field, "enum", msg, &input);
        None
    }

    fn country_at(&mut self, field: &str, need: Need) -> Option<&'a str> {
        let msg = "Input should be an ISO 3166-1 alpha-2 country code \
                   (two capital letters, such as US or DE) or ZZ_EU";
        self.code_at(field, need, is_country_code, msg, country_hint)
    }

    /// A required country code (see [`is_country_code`]).
    pub fn country(&mut self, field: &str) -> Option<&'a str> {
        self.country_at(field, Need::Required)
    }

    /// An optional country code.
    pub fn optional_country(&mut self, field: &str) -> Option<&'a str> {
        self.country_at(field, Need::Optional)
    }

    fn currency_at(&mut self, field: &str, need: Need) -> Option<&'a str> {
        let msg = "Input should be an ISO 4217 currency code the service accepts, \
                   such as USD, EUR or CAD";
        self.code_at(field, need, is_currency, msg, currency_hint)
    }

    /// A required currency code (see [`is_currency`]).
    pub fn currency(&mut self, field: &str) -> Option<&'a str> {
        self.currency_at(field, Need::Required)
    }

    /// An optional currency code.
    pub fn optional_currency(&mut self, field: &str) -> Option<&'a str> {
        self.currency_at(field, Need::Optional)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check::tests::errors_of;
    use crate::rules::testing::expect;

    #[test]
    fn decimals_from_numbers_and_strings() {
        let body = json!({"a": 12.5, "b": "0.10", "c": 7, "d": "1e2", "e": true, "f": "12,50",
                          "g": "1e40", "h": [1]});
        let mut read = Vec::new();
        let errs = errors_of(body, |c| {
            for f in ["a", "b", "c", "d", "e", "f", "g", "h"] {
                read.push(c.decimal(f));
            }
        });
        assert_eq!(read[0], Some(Decimal::new(125, 1)));
        assert_eq!(read[1], Some(Decimal::new(10, 2)));
        assert_eq!(read[2], Some(Decimal::from(7)));
        assert_eq!(read[3], Some(Decimal::from(100)));
        assert_eq!(errs.len(), 4);
        expect(&errs, json!(["body", "e"]), "decimal_type", json!(true));
        expect(
            &errs,
            json!(["body", "f"]),
            "decimal_parsing",
            json!("12,50"),
        );
        expect(
            &errs,
            json!(["body", "g"]),
            "decimal_parsing",
            json!("1e40"),
        );
        expect(&errs, json!(["body", "h"]), "decimal_type", json!([1]));
    }

    #[test]
    fn timestamps_in_the_forms_the_model_reads() {
        let body = json!({"a": "2026-01-31T13:45:00Z", "b": "2026-01-31", "c": "31/01/2026",
                          "d": 1769867100});
        let errs = errors_of(body, |c| {
            assert!(c.timestamp("a").is_some());
            assert!(c.timestamp("b").is_some());
            c.timestamp("c");
            c.timestamp("d");
        });
        assert_eq!(errs.len(), 2);
        expect(
            &errs,
            json!(["body", "c"]),
            "datetime_parsing",
            json!("31/01/2026"),
        );
        expect(
            &errs,
            json!(["body", "d"]),
            "datetime_type",
            json!(1769867100),
        );
    }

    #[test]
    fn dates_report_type_and_parsing_apart() {
        let errs = errors_of(json!({"a": 20260131, "b": "2026-02-31"}), |c| {
            c.date("a");
            c.date("b");
        });
        expect(&errs, json!(["body", "a"]), "date_type", json!(20260131));
        let e = expect(
            &errs,
            json!(["body", "b"]),
            "date_parsing",
            json!("2026-02-31"),
        );
        assert!(
            e.msg.contains("out of range for February 2026"),
            "{}",
            e.msg
        );
    }

    #[test]
    fn enumerations_list_what_they_accept() {
        use crate::model::CreditNoteStatus;
        let errs = errors_of(json!({"s": "DONE", "t": 3, "u": "PENDING"}), |c| {
            c.enum_of("s", CreditNoteStatus::KNOWN);
            c.enum_of("t", CreditNoteStatus::KNOWN);
            assert_eq!(
                c.enum_of("u", CreditNoteStatus::KNOWN),
                Some(CreditNoteStatus::Pending)
            );
        });
        assert_eq!(errs.len(), 2);
        let e = expect(&errs, json!(["body", "s"]), "enum", json!("DONE"));
        assert_eq!(
            e.msg,
            "Input should be 'PENDING', 'CANCELLED' or 'COMMITTED'"
        );
        assert_eq!(
            e.ctx,
            Some(json!({"expected": "'PENDING', 'CANCELLED' or 'COMMITTED'"}))
        );
        expect(&errs, json!(["body", "t"]), "enum", json!(3));
    }

    #[test]
    fn choices_are_quoted_like_the_service() {
        assert_eq!(quoted_choices(&["A"]), "'A'");
        assert_eq!(quoted_choices(&["A", "B"]), "'A' or 'B'");
        assert_eq!(quoted_choices(&["A", "B", "C"]), "'A', 'B' or 'C'");
    }

    #[test]
    fn country_and_currency_codes_with_hints() {
        let body = json!({"a": "uk", "b": "de", "c": "XYZ", "d": "ZZ_EU", "e": "usd"});
        let errs = errors_of(body, |c| {
            c.country("a");
            c.country("b");
            c.currency("c");
            assert_eq!(c.country("d"), Some("ZZ_EU"));
            c.currency("e");
        });
        assert_eq!(errs.len(), 4);
        let e = expect(&errs, json!(["body", "a"]), "enum", json!("uk"));
        assert!(e.msg.ends_with("(the United Kingdom is GB)"), "{}", e.msg);
        let e = expect(&errs, json!(["body", "b"]), "enum", json!("de"));
        assert!(e.msg.ends_with("(write it as DE)"), "{}", e.msg);
        let e = expect(&errs, json!(["body", "c"]), "enum", json!("XYZ"));
        assert!(e.msg.contains("ISO 4217"), "{}", e.msg);
        expect(&errs, json!(["body", "e"]), "enum", json!("usd"));
    }
}
