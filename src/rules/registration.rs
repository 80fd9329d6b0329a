//! Rules on registrations: deregistration.

use serde_json::Value;

use super::check::{Check, Checked};
use crate::model::{DeregistrationReason, DeregistrationRequest, FieldError};

/// Body of POST /v1/registrations/{id}/deregister, required since 2026-09-22.
///
/// - No body (or a JSON `null`): one `missing` error at `["body"]`.
/// - `closure_date`: a real `YYYY-MM-DD` date; past and future dates are both accepted.
/// - `reason`: `FULL_BUSINESS_CLOSURE` or `CLOSING_NEXUS_IN_STATE`.
/// - `final_return_acknowledged`: a boolean, and `true`: closing a registration leaves a final
///   return owed, and the caller confirms knowing it.
pub fn deregistration(body: Option<&Value>) -> Checked<DeregistrationRequest> {
    let body = match body {
        None | Some(Value::Null) => {
            return Err(vec![FieldError::new(
                "missing",
                vec!["body".into()],
                "Field required",
                Value::Null,
            )]);
        }
        Some(body) => body,
    };
    let mut c = Check::body(body)?;
    c.date("closure_date");
    c.enum_of("reason", DeregistrationReason::KNOWN);
    if c.bool("final_return_acknowledged") == Some(false) {
        c.rule(
            "final_return_acknowledged",
            "final_return_acknowledged must be true: a final return is owed for the period up \
             to the closure date, and it must be acknowledged before deregistering",
        );
    }
    c.finish(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{errors_of, expect, only, sweep};
    use chrono::NaiveDate;
    use serde_json::json;

    fn valid() -> Value {
        json!({
            "closure_date": "2026-06-30",
            "reason": "CLOSING_NEXUS_IN_STATE",
            "final_return_acknowledged": true
        })
    }

    fn with(field: &str, value: Value) -> Value {
        let mut body = valid();
        body[field] = value;
        body
    }

    fn without(field: &str) -> Value {
        let mut body = valid();
        if let Some(m) = body.as_object_mut() {
            m.remove(field);
        }
        body
    }

    #[test]
    fn a_valid_body_reads_as_the_request() {
        let req = deregistration(Some(&valid())).unwrap();
        assert_eq!(
            req.closure_date,
            NaiveDate::from_ymd_opt(2026, 6, 30).unwrap()
        );
        assert_eq!(req.reason, DeregistrationReason::ClosingNexusInState);
        assert!(req.final_return_acknowledged);
    }

    #[test]
    fn past_and_future_closure_dates_are_both_accepted() {
        for date in ["1999-12-31", "2099-01-01"] {
            assert!(deregistration(Some(&with("closure_date", json!(date)))).is_ok());
        }
        let full = with("reason", json!("FULL_BUSINESS_CLOSURE"));
        assert!(deregistration(Some(&full)).is_ok());
    }

    #[test]
    fn no_body_is_one_missing_error_at_body() {
        for body in [None, Some(&Value::Null)] {
            let errs = errors_of(deregistration(body));
            let e = only(&errs);
            expect(&errs, json!(["body"]), "missing", Value::Null);
            assert_eq!(e.msg, "Field required");
        }
    }

    #[test]
    fn a_body_that_is_not_an_object() {
        let errs = errors_of(deregistration(Some(&json!(["2026-06-30"]))));
        only(&errs);
        expect(
            &errs,
            json!(["body"]),
            "model_attributes_type",
            json!(["2026-06-30"]),
        );
    }

    #[test]
    fn a_closure_date_that_does_not_exist() {
        let errs = errors_of(deregistration(Some(&with(
            "closure_date",
            json!("2026-02-31"),
        ))));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "closure_date"]),
            "date_parsing",
            json!("2026-02-31"),
        );
        assert!(e.msg.contains("YYYY-MM-DD"), "{}", e.msg);
        assert!(
            e.msg.contains("day 31 is out of range for February 2026"),
            "{}",
            e.msg
        );
    }

    #[test]
    fn a_closure_date_in_another_form_or_type() {
        let errs = errors_of(deregistration(Some(&with(
            "closure_date",
            json!("30/06/2026"),
        ))));
        expect(
            &errs,
            json!(["body", "closure_date"]),
            "date_parsing",
            json!("30/06/2026"),
        );
        let errs = errors_of(deregistration(Some(&with("closure_date", json!(20260630)))));
        expect(
            &errs,
            json!(["body", "closure_date"]),
            "date_type",
            json!(20260630),
        );
    }

    #[test]
    fn an_unknown_reason() {
        let errs = errors_of(deregistration(Some(&with("reason", json!("BANKRUPT")))));
        let e = only(&errs);
        expect(&errs, json!(["body", "reason"]), "enum", json!("BANKRUPT"));
        assert_eq!(
            e.msg,
            "Input should be 'FULL_BUSINESS_CLOSURE' or 'CLOSING_NEXUS_IN_STATE'"
        );
        assert_eq!(
            e.ctx,
            Some(json!({"expected": "'FULL_BUSINESS_CLOSURE' or 'CLOSING_NEXUS_IN_STATE'"}))
        );
    }

    #[test]
    fn an_acknowledgement_that_is_false() {
        let errs = errors_of(deregistration(Some(&with(
            "final_return_acknowledged",
            json!(false),
        ))));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "final_return_acknowledged"]),
            "value_error",
            json!(false),
        );
        assert!(
            e.msg
                .starts_with("Value error, final_return_acknowledged must be true")
        );
        assert!(e.msg.contains("final return is owed"), "{}", e.msg);
    }

    #[test]
    fn an_acknowledgement_that_is_missing() {
        let errs = errors_of(deregistration(Some(&without("final_return_acknowledged"))));
        only(&errs);
        expect(
            &errs,
            json!(["body", "final_return_acknowledged"]),
            "missing",
            Value::Null,
        );
    }

    #[test]
    fn an_acknowledgement_that_is_not_a_boolean() {
        for input in [json!("yes"), json!("true"), json!(1), Value::Null] {
            let errs = errors_of(deregistration(Some(&with(
                "final_return_acknowledged",
                input.clone(),
            ))));
            only(&errs);
            expect(
                &errs,
                json!(["body", "final_return_acknowledged"]),
                "bool_type",
                input,
            );
        }
    }

    #[test]
    fn every_error_is_reported_together() {
        let body = json!({"closure_date": "2026-13-01", "reason": "BANKRUPT", "extra": 1});
        let errs = errors_of(deregistration(Some(&body)));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "closure_date"]),
            "date_parsing",
            json!("2026-13-01"),
        );
        expect(&errs, json!(["body", "reason"]), "enum", json!("BANKRUPT"));
        expect(
            &errs,
            json!(["body", "final_return_acknowledged"]),
            "missing",
            Value::Null,
        );
        let errs = errors_of(deregistration(Some(&json!({}))));
        assert_eq!(errs.len(), 3);
        assert!(errs.iter().all(|e| e.kind == "missing"));
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&valid(), |b| deregistration(Some(b)));
    }
}
