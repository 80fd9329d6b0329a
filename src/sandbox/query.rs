//! Query strings as the service reads them: repeated keys for arrays, comma-separated lists,
//! `page`/`size` bounds, and 422 answers in its shape for values it refuses.

use chrono::NaiveDate;
use serde_json::{Value, json};

use crate::model::{FieldError, LocPart, PageParams};

/// The decoded pairs of one query string, with the errors found while reading them.
#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
    errors: Vec<FieldError>,
}

fn loc(name: &str) -> Vec<LocPart> {
    vec!["query".into(), name.into()]
}

impl Query {
    pub fn parse(raw: Option<&str>) -> Self {
        let pairs = raw
            .and_then(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).ok())
            .unwrap_or_default();
        Query {
            pairs,
            errors: Vec::new(),
        }
    }

    /// The last value given for `name`, if any and not empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// Every value given for `name`: repeated keys and comma-separated values, trimmed.
    pub fn list(&self, name: &str) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == name)
            .flat_map(|(_, v)| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// Values of `name` that must each be one of `allowed`; `None` when the parameter is absent.
    pub fn one_of_list(&mut self, name: &str, allowed: &[&str]) -> Option<Vec<String>> {
        let values = self.list(name);
        if values.is_empty() {
            return None;
        }
        for v in &values {
            if !allowed.contains(&v.as_str()) {
                self.errors
                    .push(enum_error(loc(name), allowed, Value::String(v.clone())));
            }
        }
        Some(values)
    }

    /// A single value that must be one of `allowed`.
    pub fn one_of(&mut self, name: &str, allowed: &[&str]) -> Option<String> {
        let v = self.get(name)?.to_owned();
        if !allowed.contains(&v.as_str()) {
            self.errors
                .push(enum_error(loc(name), allowed, Value::String(v.clone())));
        }
        Some(v)
    }

    pub fn date(&mut self, name: &str) -> Option<NaiveDate> {
        let v = self.get(name)?.to_owned();
        match NaiveDate::parse_from_str(&v, "%Y-%m-%d") {
            Ok(d) if v.len() == 10 => Some(d),
            _ => {
                self.errors.push(FieldError::new(
                    "date_from_datetime_parsing",
                    loc(name),
                    format!("{name} should be a valid date in the format YYYY-MM-DD"),
                    Value::String(v),
                ));
                None
            }
        }
    }

    pub fn bool(&mut self, name: &str) -> Option<bool> {
        let v = self.get(name)?.to_owned();
        match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Some(true),
            "false" | "0" | "no" | "off" => Some(false),
            _ => {
                self.errors.push(FieldError::new(
                    "bool_parsing",
                    loc(name),
                    "Input should be a valid boolean, unable to interpret input",
                    Value::String(v),
                ));
                None
            }
        }
    }

    fn int(&mut self, name: &str, default: u32, min: u32, max: Option<u32>) -> u32 {
        let Some(raw) = self.get(name).map(str::to_owned) else {
            return default;
        };
        let Ok(n) = raw.trim().parse::<i64>() else {
            self.errors.push(FieldError::new(
                "int_parsing",
                loc(name),
                "Input should be a valid integer, unable to parse string as an integer",
                Value::String(raw),
            ));
            return default;
        };
        if n < i64::from(min) {
            self.errors.push(
                FieldError::new(
                    "greater_than_equal",
                    loc(name),
                    format!("Input should be greater than or equal to {min}"),
                    Value::String(raw),
                )
                .with_ctx(json!({ "ge": min })),
            );
            return default;
        }
        // No bound given is the largest page this side can count to: a larger one is refused,
        // never wrapped round to a small one.
        let max = max.or((n > i64::from(u32::MAX)).then_some(u32::MAX));
        if let Some(max) = max.filter(|&m| n > i64::from(m)) {
            self.errors.push(
                FieldError::new(
                    "less_than_equal",
                    loc(name),
                    format!("Input should be less than or equal to {max}"),
                    Value::String(raw),
                )
                .with_ctx(json!({ "le": max })),
            );
            return default;
        }
        n as u32
    }

    /// `page` (>= 1, default 1) and `size` (1-100, default 50).
    pub fn page(&mut self) -> PageParams {
        let page = self.int("page", 1, 1, None);
        let size = self.int(
            "size",
            PageParams::DEFAULT_SIZE,
            1,
            Some(PageParams::MAX_SIZE),
        );
        PageParams::new(page, size)
    }

    /// `order_by`: comma-separated fields, `-field` for descending, each one of `allowed`.
    /// Returns `default` when absent.
    pub fn order_by(&mut self, allowed: &[&str], default: &str) -> Vec<SortKey> {
        let raw = self.get("order_by").unwrap_or(default).to_owned();
        let mut keys = Vec::new();
        for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, descending) = match part.strip_prefix('-') {
                Some(f) => (f, true),
                None => (part.strip_prefix('+').unwrap_or(part), false),
            };
            if allowed.contains(&field) {
                keys.push(SortKey {
                    field: field.to_owned(),
                    descending,
                });
            } else {
                self.errors.push(
                    FieldError::new(
                        "value_error",
                        loc("order_by"),
                        format!(
                            "Value error, order_by field {field:?} is not one of: {}",
                            allowed.join(", ")
                        ),
                        Value::String(raw.clone()),
                    )
                    .with_ctx(json!({ "allowed": allowed })),
                );
            }
        }
        keys
    }

    /// Records an error found by the caller.
    pub fn push_error(&mut self, error: FieldError) {
        self.errors.push(error);
    }

    /// Ends reading: the errors, if any, as one 422.
    pub fn finish(self) -> Result<(), Vec<FieldError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }
}

/// One `order_by` key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SortKey {
    pub field: String,
    pub descending: bool,
}

/// A pydantic-style `enum` error listing the allowed values.
pub fn enum_error(loc: Vec<LocPart>, allowed: &[&str], input: Value) -> FieldError {
    let expected = match allowed {
        [] => String::new(),
        [one] => format!("'{one}'"),
        [init @ .., last] => format!(
            "{} or '{last}'",
            init.iter()
                .map(|v| format!("'{v}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    FieldError::new("enum", loc, format!("Input should be {expected}"), input)
        .with_ctx(json!({ "expected": expected }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_merge_repeated_keys_and_commas() {
        let q = Query::parse(Some("country_code__in=US&country_code__in=CA,DE&x="));
        assert_eq!(q.list("country_code__in"), ["US", "CA", "DE"]);
        assert_eq!(q.get("x"), None);
    }

    #[test]
    fn page_bounds_answer_in_the_service_shape() {
        let mut q = Query::parse(Some("page=0&size=101"));
        q.page();
        let errs = q.finish().unwrap_err();
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].kind, "greater_than_equal");
        assert_eq!(
            errs[0].loc,
            vec![LocPart::from("query"), LocPart::from("page")]
        );
        assert_eq!(errs[1].kind, "less_than_equal");
        assert_eq!(errs[1].input, Value::String("101".into()));
    }

    #[test]
    fn a_page_beyond_what_is_counted_is_refused_not_wrapped() {
        for page in ["4294967296", "4294967297", "99999999999999999"] {
            let mut q = Query::parse(Some(&format!("page={page}")));
            q.page();
            let errs = q.finish().unwrap_err();
            assert_eq!(errs[0].kind, "less_than_equal", "{page}");
            assert_eq!(errs[0].input, Value::String(page.into()));
        }
        let mut q = Query::parse(Some("page=4294967295"));
        assert_eq!(q.page().page, u32::MAX);
        assert!(q.finish().is_ok());
    }

    #[test]
    fn defaults_when_absent() {
        let mut q = Query::parse(None);
        assert_eq!(q.page(), PageParams::new(1, 50));
        assert!(q.finish().is_ok());
    }

    #[test]
    fn order_by_reads_direction_and_refuses_unknown_fields() {
        let mut q = Query::parse(Some("order_by=-end_date,FEIN,colour"));
        let keys = q.order_by(&["end_date", "FEIN"], "");
        assert_eq!(
            keys,
            vec![
                SortKey {
                    field: "end_date".into(),
                    descending: true
                },
                SortKey {
                    field: "FEIN".into(),
                    descending: false
                }
            ]
        );
        assert_eq!(q.finish().unwrap_err()[0].kind, "value_error");
    }

    #[test]
    fn enum_message_lists_values() {
        let e = enum_error(vec![], &["A", "B", "C"], Value::Null);
        assert_eq!(e.msg, "Input should be 'A', 'B' or 'C'");
    }
}
