//! Rules on exemptions (certificates).

use serde_json::Value;

use super::check::{Check, Checked};
use super::limits::is_fein;
use crate::model::{ExemptionCreate, ExemptionStatus, ExemptionType};

/// Body of POST /v1/exemptions.
///
/// - Required: `exemption_type` (`customer`, `wholesale` or `transaction`; `reverse_charge` is
///   only ever read, never created), `status`, `start_date`, and the non-blank strings
///   `customer_id`, `FEIN`, `sales_tax_id`.
/// - Optional: `end_date` (not before `start_date`), `jurisdiction`, `country_code` (a country
///   code the service accepts), `transaction_id`, `reseller` (boolean).
pub fn exemption_create(body: &Value) -> Checked<ExemptionCreate> {
    let mut c = Check::body(body)?;
    c.enum_of("exemption_type", ExemptionType::CREATABLE);
    c.enum_of("status", ExemptionStatus::KNOWN);
    let start = c.date("start_date");
    let end = c.optional_date("end_date");
    c.not_before("end_date", end, "start_date", start);
    for field in ["customer_id", "sales_tax_id"] {
        c.non_blank_str(field);
    }
    if let Some(fein) = c.non_blank_str("FEIN")
        && !is_fein(fein)
    {
        c.rule(
            "FEIN",
            "FEIN must be nine digits, with or without a hyphen after the second: 12-3456789",
        );
    }
    c.optional_strs(&["jurisdiction", "transaction_id"]);
    c.optional_country("country_code");
    c.optional_bool("reseller");
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
            "exemption_type": "wholesale",
            "status": "ACTIVE",
            "start_date": "2025-01-01",
            "end_date": "2027-12-31",
            "customer_id": "cust_123",
            "FEIN": "12-3456789",
            "sales_tax_id": "SR-998877",
            "jurisdiction": "TX",
            "country_code": "US",
            "reseller": true,
            "transaction_id": "tran_1"
        })
    }

    fn with(field: &str, value: Value) -> Value {
        let mut body = valid();
        body[field] = value;
        body
    }

    #[test]
    fn a_valid_body_reads_as_the_request() {
        let req = exemption_create(&valid()).unwrap();
        assert_eq!(req.exemption_type, ExemptionType::Wholesale);
        assert_eq!(req.status, ExemptionStatus::Active);
        assert_eq!(req.end_date, NaiveDate::from_ymd_opt(2027, 12, 31));
        assert_eq!(req.fein, "12-3456789");
        assert_eq!(req.reseller, Some(true));
    }

    #[test]
    fn a_minimal_body() {
        let body = json!({"exemption_type": "customer", "status": "INACTIVE",
                          "start_date": "2025-01-01", "customer_id": "c", "FEIN": "123456789",
                          "sales_tax_id": "s"});
        let req = exemption_create(&body).unwrap();
        assert_eq!(req.end_date, None);
        assert_eq!(req.country_code, None);
    }

    #[test]
    fn reverse_charge_cannot_be_created() {
        let errs = errors_of(exemption_create(&with(
            "exemption_type",
            json!("reverse_charge"),
        )));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "exemption_type"]),
            "enum",
            json!("reverse_charge"),
        );
        assert_eq!(
            e.msg,
            "Input should be 'customer', 'wholesale' or 'transaction'"
        );
    }

    #[test]
    fn an_exemption_type_in_the_wrong_case() {
        let errs = errors_of(exemption_create(&with("exemption_type", json!("CUSTOMER"))));
        only(&errs);
        expect(
            &errs,
            json!(["body", "exemption_type"]),
            "enum",
            json!("CUSTOMER"),
        );
    }

    #[test]
    fn an_unknown_status() {
        let errs = errors_of(exemption_create(&with("status", json!("PENDING"))));
        let e = only(&errs);
        expect(&errs, json!(["body", "status"]), "enum", json!("PENDING"));
        assert_eq!(
            e.msg,
            "Input should be 'ACTIVE', 'INACTIVE', 'EXPIRED', 'DEACTIVATED' or 'ARCHIVED'"
        );
    }

    #[test]
    fn an_end_date_before_the_start_date() {
        let errs = errors_of(exemption_create(&with("end_date", json!("2024-12-31"))));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "end_date"]),
            "value_error",
            json!("2024-12-31"),
        );
        assert_eq!(
            e.msg,
            "Value error, end_date must not be before start_date (2025-01-01)"
        );
    }

    #[test]
    fn identifiers_must_not_be_blank() {
        for field in ["customer_id", "FEIN", "sales_tax_id"] {
            let errs = errors_of(exemption_create(&with(field, json!(" "))));
            let e = only(&errs);
            expect(&errs, json!(["body", field]), "value_error", json!(" "));
            assert_eq!(e.msg, format!("Value error, {field} must not be blank"));
        }
    }

    #[test]
    fn a_fein_is_nine_digits_hyphen_optional() {
        for fein in ["12-3456789", "123456789"] {
            assert!(
                exemption_create(&with("FEIN", json!(fein))).is_ok(),
                "{fein}"
            );
        }
        for fein in ["123", "12-345678", "1-23456789", "12 3456789"] {
            let errs = errors_of(exemption_create(&with("FEIN", json!(fein))));
            let e = only(&errs);
            expect(&errs, json!(["body", "FEIN"]), "value_error", json!(fein));
            assert_eq!(
                e.msg,
                "Value error, FEIN must be nine digits, with or without a hyphen after the second: 12-3456789"
            );
        }
    }

    #[test]
    fn fein_keeps_its_capitals() {
        let mut body = valid();
        if let Some(m) = body.as_object_mut() {
            m.remove("FEIN");
        }
        body["fein"] = json!("12-3456789");
        let errs = errors_of(exemption_create(&body));
        only(&errs);
        expect(&errs, json!(["body", "FEIN"]), "missing", Value::Null);
    }

    #[test]
    fn optional_fields_are_checked_when_given() {
        let mut body = with("country_code", json!("USA"));
        body["reseller"] = json!("no");
        body["jurisdiction"] = json!(48);
        let errs = errors_of(exemption_create(&body));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(&errs, json!(["body", "country_code"]), "enum", json!("USA"));
        expect(&errs, json!(["body", "reseller"]), "bool_type", json!("no"));
        expect(
            &errs,
            json!(["body", "jurisdiction"]),
            "string_type",
            json!(48),
        );
    }

    #[test]
    fn every_missing_field_is_reported_together() {
        let errs = errors_of(exemption_create(&json!({})));
        assert_eq!(errs.len(), 6, "{errs:#?}");
        for field in [
            "exemption_type",
            "status",
            "start_date",
            "customer_id",
            "FEIN",
            "sales_tax_id",
        ] {
            expect(&errs, json!(["body", field]), "missing", Value::Null);
        }
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&valid(), exemption_create);
    }
}
