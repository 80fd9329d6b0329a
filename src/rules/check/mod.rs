//! The toolkit the body validators are written with: a [`Check`] walks one JSON object, reads
//! each field with the rule it must meet, and collects every failure as a [`FieldError`] in the
//! service's 422 shape.
//!
//! Each reader returns the value it read (`Some`) when the field is present and valid, so that
//! rules across fields (an end date not before a start date) can be checked afterwards; a missing
//! optional field and an explicit `null` in an optional field both read as `None`.

use std::fmt::Display;

use chrono::NaiveDate;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::model::{FieldError, LocPart};
use crate::rules::limits::{max_chars, postal_code_rule, too_long};

mod typed;

/// What a validator answers: the typed request, or every field error found.
pub type Checked<T> = Result<T, Vec<FieldError>>;

/// Whether a field must be present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Required,
    Optional,
}

/// The message of a body, or nested object, that is not a JSON object.
const NOT_AN_OBJECT: &str = "Input should be a valid dictionary or object to extract fields from";

/// An error saying the value at `loc` is not an object.
fn not_an_object(loc: Vec<LocPart>, input: &Value) -> FieldError {
    FieldError::new("model_attributes_type", loc, NOT_AN_OBJECT, input.clone())
}

/// The checker of one JSON object at a location (`["body"]`, `["body", "addresses", 0]`).
#[derive(Debug)]
pub struct Check<'a> {
    map: &'a Map<String, Value>,
    loc: Vec<LocPart>,
    errors: Vec<FieldError>,
}

impl<'a> Check<'a> {
    /// Starts checking a request body. A body that is not a JSON object answers one error at
    /// `["body"]`.
    pub fn body(body: &'a Value) -> Result<Self, Vec<FieldError>> {
        match body {
            Value::Object(map) => Ok(Check {
                map,
                loc: vec!["body".into()],
                errors: Vec::new(),
            }),
            other => Err(vec![not_an_object(vec!["body".into()], other)]),
        }
    }

    /// Ends the check: every error found, or else the body read as `T`.
    ///
    /// The readers accept only what `T`'s deserialization accepts, so the last step cannot fail
    /// on a body that passed; should it ever, the answer is still a field error, never a bare
    /// serde message.
    pub fn finish<T: DeserializeOwned>(self, body: &Value) -> Checked<T> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        T::deserialize(body).map_err(|_| {
            vec![FieldError::new(
                "value_error",
                self.loc,
                "Value error, the body does not have the shape this request needs",
                Value::Null,
            )]
        })
    }

    /// The errors found so far.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The location of `field` inside this object.
    pub fn loc_of(&self, field: &str) -> Vec<LocPart> {
        let mut loc = self.loc.clone();
        loc.push(field.into());
        loc
    }

    /// The raw value of `field`, if present (possibly `null`).
    pub fn raw(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field)
    }

    /// Records an error of kind `kind` on `field`.
    pub fn fail(&mut self, field: &str, kind: &str, msg: impl Into<String>, input: &Value) {
        let loc = self.loc_of(field);
        self.errors
            .push(FieldError::new(kind, loc, msg, input.clone()));
    }

    /// Records a broken business rule on `field` (`value_error`); `rule` names the field and
    /// says what it must be. The field's value is echoed.
    /// Adds an error found elsewhere (a schema's, say), with its own `loc`.
    pub fn push(&mut self, error: FieldError) {
        self.errors.push(error);
    }

    pub fn rule(&mut self, field: &str, rule: impl Display) {
        let input = self.raw(field).cloned().unwrap_or(Value::Null);
        self.fail(field, "value_error", format!("Value error, {rule}"), &input);
    }

    /// The value of `field` to check, or `None` when there is nothing to check: a required field
    /// that is absent is recorded as `missing`; an optional one absent or `null` is skipped. A
    /// required field sent as `null` is returned, so that its type check reports it.
    fn take(&mut self, field: &str, need: Need) -> Option<&'a Value> {
        match (self.map.get(field), need) {
            (None, Need::Required) => {
                self.fail(field, "missing", "Field required", &Value::Null);
                None
            }
            (None | Some(Value::Null), Need::Optional) => None,
            (Some(v), _) => Some(v),
        }
    }

    /// A string no longer than the field takes ([`max_chars`]).
    fn str_at(&mut self, field: &str, need: Need) -> Option<&'a str> {
        let v = self.take(field, need)?;
        let Some(s) = v.as_str() else {
            self.fail(field, "string_type", "Input should be a valid string", v);
            return None;
        };
        let max = max_chars(field);
        let chars = s.chars().count();
        if chars > max {
            let loc = self.loc_of(field);
            self.errors.push(
                FieldError::new(
                    "string_too_long",
                    loc,
                    too_long(field, max, chars),
                    v.clone(),
                )
                .with_ctx(json!({ "max_length": max })),
            );
            return None;
        }
        Some(s)
    }

    /// Whether an error was already recorded on `field`.
    fn failed(&self, field: &str) -> bool {
        let loc = self.loc_of(field);
        self.errors.iter().any(|e| e.loc == loc)
    }

    /// The rule that `field`, when given as a text without another fault, has the form of a
    /// postal code of `country`: a ZIP code in the US, `A1A 1A1` in Canada (see
    /// [`postal_code_rule`]); other countries' codes are only bounded in length.
    pub fn postal_code_of(&mut self, field: &str, country: Option<&str>) {
        if let (Some(country), Some(Value::String(code))) = (country, self.raw(field))
            && !self.failed(field)
            && let Some(rule) = postal_code_rule(field, country, code)
        {
            self.rule(field, rule);
        }
    }

    /// A required string.
    pub fn required_str(&mut self, field: &str) -> Option<&'a str> {
        self.str_at(field, Need::Required)
    }

    /// A required string of at least one character (`string_too_short` otherwise).
    pub fn non_empty_str(&mut self, field: &str) -> Option<&'a str> {
        let s = self.required_str(field)?;
        if s.is_empty() {
            let loc = self.loc_of(field);
            self.errors.push(
                FieldError::new(
                    "string_too_short",
                    loc,
                    "String should have at least 1 character",
                    Value::String(String::new()),
                )
                .with_ctx(json!({ "min_length": 1 })),
            );
            return None;
        }
        Some(s)
    }

    /// A required string that is not empty or only spaces.
    pub fn non_blank_str(&mut self, field: &str) -> Option<&'a str> {
        let s = self.required_str(field)?;
        if s.trim().is_empty() {
            self.rule(field, format_args!("{field} must not be blank"));
            return None;
        }
        Some(s)
    }

    /// An optional string.
    pub fn optional_str(&mut self, field: &str) -> Option<&'a str> {
        self.str_at(field, Need::Optional)
    }

    /// Several optional strings.
    pub fn optional_strs(&mut self, fields: &[&str]) {
        for field in fields {
            self.optional_str(field);
        }
    }

    fn bool_at(&mut self, field: &str, need: Need) -> Option<bool> {
        let v = self.take(field, need)?;
        if let Some(b) = v.as_bool() {
            Some(b)
        } else {
            let msg = "Input should be a valid boolean, true or false";
            self.fail(field, "bool_type", msg, v);
            None
        }
    }

    /// A required boolean (`true` or `false`; no `"yes"`, no `1`).
    pub fn bool(&mut self, field: &str) -> Option<bool> {
        self.bool_at(field, Need::Required)
    }

    /// An optional boolean.
    pub fn optional_bool(&mut self, field: &str) -> Option<bool> {
        self.bool_at(field, Need::Optional)
    }

    fn object_at(&mut self, field: &str, need: Need) -> Option<Check<'a>> {
        let v = self.take(field, need)?;
        match v {
            Value::Object(map) => Some(Check {
                map,
                loc: self.loc_of(field),
                errors: Vec::new(),
            }),
            other => {
                self.errors.push(not_an_object(self.loc_of(field), other));
                None
            }
        }
    }

    /// A required nested object, checked by `each`.
    pub fn object(&mut self, field: &str, each: impl FnOnce(&mut Check<'a>)) -> bool {
        self.nested(field, Need::Required, each)
    }

    /// An optional nested object, checked by `each` when present.
    pub fn optional_object(&mut self, field: &str, each: impl FnOnce(&mut Check<'a>)) -> bool {
        self.nested(field, Need::Optional, each)
    }

    fn nested(&mut self, field: &str, need: Need, each: impl FnOnce(&mut Check<'a>)) -> bool {
        let Some(mut sub) = self.object_at(field, need) else {
            return false;
        };
        each(&mut sub);
        self.errors.append(&mut sub.errors);
        true
    }

    fn array_at(
        &mut self,
        field: &str,
        need: Need,
        min_len: usize,
        mut each: impl FnMut(&mut Check<'a>),
    ) -> Option<usize> {
        let v = self.take(field, need)?;
        let Some(items) = v.as_array() else {
            self.fail(field, "list_type", "Input should be a valid list", v);
            return None;
        };
        if items.len() < min_len {
            let s = if min_len == 1 { "" } else { "s" };
            let msg = format!(
                "List should have at least {min_len} item{s} after validation, not {}",
                items.len()
            );
            let loc = self.loc_of(field);
            self.errors.push(
                FieldError::new("too_short", loc, msg, v.clone()).with_ctx(json!({
                    "field_type": "List",
                    "min_length": min_len,
                    "actual_length": items.len(),
                })),
            );
        }
        for (i, item) in items.iter().enumerate() {
            let mut loc = self.loc_of(field);
            loc.push(i.into());
            match item {
                Value::Object(map) => {
                    let mut sub = Check {
                        map,
                        loc,
                        errors: Vec::new(),
                    };
                    each(&mut sub);
                    self.errors.append(&mut sub.errors);
                }
                other => self.errors.push(not_an_object(loc, other)),
            }
        }
        Some(items.len())
    }

    /// A required array of objects with at least `min_len` elements, each checked by `each`.
    /// Answers the number of elements.
    pub fn array(
        &mut self,
        field: &str,
        min_len: usize,
        each: impl FnMut(&mut Check<'a>),
    ) -> Option<usize> {
        self.array_at(field, Need::Required, min_len, each)
    }

    /// An optional array of objects, each checked by `each`.
    pub fn optional_array(
        &mut self,
        field: &str,
        each: impl FnMut(&mut Check<'a>),
    ) -> Option<usize> {
        self.array_at(field, Need::Optional, 0, each)
    }

    /// The rule that a period does not end before it starts: when both dates were read, an
    /// `end_field` earlier than `start` is recorded on `end_field`.
    pub fn not_before(
        &mut self,
        end_field: &str,
        end: Option<NaiveDate>,
        start_field: &str,
        start: Option<NaiveDate>,
    ) {
        if let (Some(end), Some(start)) = (end, start)
            && end < start
        {
            self.rule(
                end_field,
                format_args!("{end_field} must not be before {start_field} ({start})"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{expect, only};
    use serde_json::json;

    /// Runs `f` on `body` and answers the errors it found.
    pub(super) fn errors_of(body: Value, f: impl FnOnce(&mut Check)) -> Vec<FieldError> {
        let mut c = Check::body(&body).unwrap();
        f(&mut c);
        c.errors
    }

    #[test]
    fn a_body_that_is_not_an_object() {
        for body in [json!([1]), json!("x"), json!(3), json!(null)] {
            let errs = Check::body(&body).unwrap_err();
            let e = only(&errs);
            expect(
                &errs,
                json!(["body"]),
                "model_attributes_type",
                body.clone(),
            );
            assert_eq!(e.msg, NOT_AN_OBJECT);
        }
    }

    #[test]
    fn missing_and_null_required_fields() {
        let errs = errors_of(json!({"b": null}), |c| {
            c.required_str("a");
            c.required_str("b");
            c.optional_str("c");
        });
        assert_eq!(errs.len(), 2);
        expect(&errs, json!(["body", "a"]), "missing", Value::Null);
        assert_eq!(errs[0].msg, "Field required");
        expect(&errs, json!(["body", "b"]), "string_type", Value::Null);
    }

    #[test]
    fn optional_fields_may_be_absent_or_null_but_not_the_wrong_type() {
        let errs = errors_of(json!({"s": null, "n": 4, "b": "yes"}), |c| {
            assert_eq!(c.optional_str("s"), None);
            assert_eq!(c.optional_str("absent"), None);
            c.optional_str("n");
            c.optional_bool("b");
        });
        assert_eq!(errs.len(), 2);
        expect(&errs, json!(["body", "n"]), "string_type", json!(4));
        expect(&errs, json!(["body", "b"]), "bool_type", json!("yes"));
    }

    #[test]
    fn arrays_check_each_element_at_its_index() {
        let body = json!({"items": [{"x": "ok"}, {"x": 1}, "not an object"], "empty": [],
                          "scalar": 5});
        let errs = errors_of(body, |c| {
            assert_eq!(
                c.array("items", 1, |item| {
                    item.required_str("x");
                }),
                Some(3)
            );
            c.array("empty", 1, |_| {});
            c.array("scalar", 0, |_| {});
            c.array("absent", 0, |_| {});
        });
        assert_eq!(errs.len(), 5);
        expect(
            &errs,
            json!(["body", "items", 1, "x"]),
            "string_type",
            json!(1),
        );
        expect(
            &errs,
            json!(["body", "items", 2]),
            "model_attributes_type",
            json!("not an object"),
        );
        let e = expect(&errs, json!(["body", "empty"]), "too_short", json!([]));
        assert_eq!(
            e.msg,
            "List should have at least 1 item after validation, not 0"
        );
        expect(&errs, json!(["body", "scalar"]), "list_type", json!(5));
        expect(&errs, json!(["body", "absent"]), "missing", Value::Null);
    }

    #[test]
    fn nested_objects() {
        let errs = errors_of(json!({"o": {"n": 2}, "p": "x"}), |c| {
            assert!(c.object("o", |o| {
                o.required_str("n");
            }));
            assert!(!c.object("p", |_| {}));
            assert!(!c.optional_object("q", |_| {}));
        });
        assert_eq!(errs.len(), 2);
        expect(&errs, json!(["body", "o", "n"]), "string_type", json!(2));
        expect(
            &errs,
            json!(["body", "p"]),
            "model_attributes_type",
            json!("x"),
        );
    }

    #[test]
    fn blank_strings_and_date_order_are_value_errors() {
        let body = json!({"id": "  ", "start": "2026-03-01", "end": "2026-02-28"});
        let errs = errors_of(body, |c| {
            c.non_blank_str("id");
            let start = c.date("start");
            let end = c.date("end");
            c.not_before("end", end, "start", start);
        });
        assert_eq!(errs.len(), 2);
        let e = expect(&errs, json!(["body", "id"]), "value_error", json!("  "));
        assert_eq!(e.msg, "Value error, id must not be blank");
        let e = expect(
            &errs,
            json!(["body", "end"]),
            "value_error",
            json!("2026-02-28"),
        );
        assert_eq!(
            e.msg,
            "Value error, end must not be before start (2026-03-01)"
        );
    }

    #[test]
    fn finish_reads_the_typed_body_only_without_errors() {
        #[derive(Debug, serde::Deserialize, PartialEq)]
        struct T {
            a: String,
        }
        let body = json!({"a": "x"});
        let mut c = Check::body(&body).unwrap();
        c.required_str("a");
        assert_eq!(c.finish::<T>(&body), Ok(T { a: "x".into() }));

        let body = json!({"a": 1});
        let mut c = Check::body(&body).unwrap();
        c.required_str("a");
        assert_eq!(c.finish::<T>(&body).unwrap_err().len(), 1);

        // A validator that forgot a rule still answers a field error, not a serde message.
        let c = Check::body(&body).unwrap();
        let errs = c.finish::<T>(&body).unwrap_err();
        expect(&errs, json!(["body"]), "value_error", Value::Null);
    }

    #[test]
    fn texts_longer_than_their_field_takes_are_refused_with_the_bound() {
        let body = json!({"street_1": "x".repeat(256), "city": "y".repeat(255),
                          "customer_id": "c".repeat(101), "description": "é".repeat(1000)});
        let errs = errors_of(body, |c| {
            assert_eq!(c.optional_str("street_1"), None);
            assert!(c.optional_str("city").is_some());
            c.required_str("customer_id");
            assert!(
                c.optional_str("description").is_some(),
                "characters, not bytes"
            );
        });
        assert_eq!(errs.len(), 2, "{errs:#?}");
        let e = expect(
            &errs,
            json!(["body", "street_1"]),
            "string_too_long",
            json!("x".repeat(256)),
        );
        assert_eq!(
            e.msg,
            "street_1 must be at most 255 characters; this one has 256"
        );
        assert_eq!(e.ctx, Some(json!({"max_length": 255})));
        expect(
            &errs,
            json!(["body", "customer_id"]),
            "string_too_long",
            json!("c".repeat(101)),
        );
    }

    #[test]
    fn postal_codes_follow_their_country_once_the_text_is_fine() {
        let body = json!({"a": "9410,5", "b": "K1A 0B1", "c": "12345",
                          "postal_code": "1".repeat(21)});
        let errs = errors_of(body, |c| {
            for f in ["a", "b", "c", "postal_code"] {
                c.optional_str(f);
            }
            c.postal_code_of("a", Some("US"));
            c.postal_code_of("b", Some("CA"));
            c.postal_code_of("c", None);
            c.postal_code_of("postal_code", Some("US"));
        });
        assert_eq!(errs.len(), 2, "{errs:#?}");
        let e = expect(&errs, json!(["body", "a"]), "value_error", json!("9410,5"));
        assert!(
            e.msg.starts_with("Value error, a must be a US ZIP code"),
            "{}",
            e.msg
        );
        // Too long already: one error, not two.
        expect(
            &errs,
            json!(["body", "postal_code"]),
            "string_too_long",
            json!("1".repeat(21)),
        );
    }
}
