//! Rules on customers and their tax registrations.

use serde_json::Value;

use super::check::{Check, Checked};
use super::values::is_email;
use crate::model::{
    AddressStatus, CustomerStatus, CustomerTaxRegistrationWrite, CustomerWrite, SOURCES,
};

/// The customer fields that are free text.
const TEXT: &[&str] = &[
    "name",
    "external_id",
    "external_friendly_id",
    "phone",
    "company_name",
    "street_1",
    "street_2",
    "city",
    "county",
    "state",
    "postal_code",
    "full_address",
    "registration_number",
];

/// The rules on a customer's fields, every one optional: `email` well formed, `country` a country
/// code the service accepts, `status` `ACTIVE` or `ARCHIVED`, the rest strings. Also used for the
/// customer embedded in a transaction.
pub(crate) fn customer_fields(c: &mut Check) {
    c.optional_strs(TEXT);
    c.optional_word_of("source", SOURCES);
    c.optional_enum_of("status", CustomerStatus::KNOWN);
    if let Some(email) = c.optional_str("email")
        && !is_email(email)
    {
        c.rule(
            "email",
            "email must be an email address such as name@example.com",
        );
    }
    let country = c.optional_country("country");
    c.postal_code_of("postal_code", country);
}

/// Body of POST /v1/customers and PUT /v1/customers/{id}: every field optional; `email`, when
/// given, well formed; `country` a country code the service accepts; `status` `ACTIVE` or
/// `ARCHIVED`; `source` one of the interface's `SourceEnum`; `address_status` one of its
/// `AddressStatus`; the rest strings. An empty object is a valid body.
pub fn customer_write(body: &Value) -> Checked<CustomerWrite> {
    let mut c = Check::body(body)?;
    customer_fields(&mut c);
    c.optional_enum_of("address_status", AddressStatus::KNOWN);
    c.finish(body)
}

/// Body of POST /v1/customers/{id}/tax-registrations: `tax_id`, required and not blank.
pub fn customer_tax_registration(body: &Value) -> Checked<CustomerTaxRegistrationWrite> {
    let mut c = Check::body(body)?;
    c.non_blank_str("tax_id");
    c.finish(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{errors_of, expect, only, sweep};
    use serde_json::json;

    fn valid() -> Value {
        json!({
            "name": "Ada Lovelace",
            "email": "ada@example.com",
            "status": "ACTIVE",
            "street_1": "12 St James's Sq",
            "city": "London",
            "postal_code": "SW1Y 4JH",
            "country": "GB",
            "registration_number": "GB123456789",
            "external_id": "crm-42",
            "external_friendly_id": "C-42",
            "phone": "+44 20 7946 0000",
            "company_name": "Analytical Engines Ltd",
            "street_2": "Floor 2",
            "county": "Greater London",
            "state": "ENG",
            "full_address": "12 St James's Sq, London SW1Y 4JH",
            "source": "API"
        })
    }

    fn with(field: &str, value: Value) -> Value {
        let mut body = valid();
        body[field] = value;
        body
    }

    #[test]
    fn a_valid_body_reads_as_the_request() {
        let req = customer_write(&valid()).unwrap();
        assert_eq!(req.name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(req.status, Some(CustomerStatus::Active));
        assert_eq!(req.address.country.as_deref(), Some("GB"));
    }

    #[test]
    fn every_field_is_optional() {
        assert_eq!(customer_write(&json!({})), Ok(CustomerWrite::default()));
        let nulls = json!({"email": null, "country": null, "status": null, "name": null});
        assert_eq!(customer_write(&nulls), Ok(CustomerWrite::default()));
    }

    #[test]
    fn a_malformed_email() {
        for bad in ["ada", "ada@example", "ada @example.com", ""] {
            let errs = errors_of(customer_write(&with("email", json!(bad))));
            let e = only(&errs);
            expect(&errs, json!(["body", "email"]), "value_error", json!(bad));
            assert_eq!(
                e.msg,
                "Value error, email must be an email address such as name@example.com"
            );
        }
    }

    #[test]
    fn a_country_that_is_not_a_code() {
        let errs = errors_of(customer_write(&with("country", json!("United Kingdom"))));
        only(&errs);
        expect(
            &errs,
            json!(["body", "country"]),
            "enum",
            json!("United Kingdom"),
        );
    }

    #[test]
    fn an_unknown_status() {
        let errs = errors_of(customer_write(&with("status", json!("DELETED"))));
        let e = only(&errs);
        expect(&errs, json!(["body", "status"]), "enum", json!("DELETED"));
        assert_eq!(e.msg, "Input should be 'ACTIVE' or 'ARCHIVED'");
    }

    #[test]
    fn text_fields_must_be_strings() {
        let body = with("phone", json!(5551234));
        let body = {
            let mut b = body;
            b["street_2"] = json!({"line": 2});
            b
        };
        let errs = errors_of(customer_write(&body));
        assert_eq!(errs.len(), 2);
        expect(
            &errs,
            json!(["body", "phone"]),
            "string_type",
            json!(5551234),
        );
        expect(
            &errs,
            json!(["body", "street_2"]),
            "string_type",
            json!({"line": 2}),
        );
    }

    #[test]
    fn a_body_that_is_not_an_object() {
        let errs = errors_of(customer_write(&json!("Ada")));
        only(&errs);
        expect(
            &errs,
            json!(["body"]),
            "model_attributes_type",
            json!("Ada"),
        );
    }

    #[test]
    fn a_tax_registration() {
        let req = customer_tax_registration(&json!({"tax_id": "GB123456789"})).unwrap();
        assert_eq!(req.tax_id, "GB123456789");
    }

    #[test]
    fn a_blank_tax_id() {
        for blank in ["", "   "] {
            let errs = errors_of(customer_tax_registration(&json!({"tax_id": blank})));
            let e = only(&errs);
            expect(
                &errs,
                json!(["body", "tax_id"]),
                "value_error",
                json!(blank),
            );
            assert_eq!(e.msg, "Value error, tax_id must not be blank");
        }
    }

    #[test]
    fn a_missing_or_mistyped_tax_id() {
        let errs = errors_of(customer_tax_registration(&json!({})));
        only(&errs);
        expect(&errs, json!(["body", "tax_id"]), "missing", Value::Null);
        let errs = errors_of(customer_tax_registration(&json!({"tax_id": 123})));
        only(&errs);
        expect(&errs, json!(["body", "tax_id"]), "string_type", json!(123));
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&valid(), customer_write);
        sweep(&json!({"tax_id": "T-1"}), customer_tax_registration);
    }

    #[test]
    fn postal_codes_of_the_us_and_canada_have_their_form() {
        let mut body = valid();
        body["country"] = json!("US");
        body["postal_code"] = json!("9410,5");
        let errs = errors_of(customer_write(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "postal_code"]),
            "value_error",
            json!("9410,5"),
        );
        body["country"] = json!("CA");
        body["postal_code"] = json!("M5V 2T6");
        assert!(customer_write(&body).is_ok());
        // Without a country the code is only bounded in length.
        let body = json!({"postal_code": "9410,5"});
        assert!(customer_write(&body).is_ok());
    }
}
