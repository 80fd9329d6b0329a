//! Rules on tax estimate requests.

use serde_json::Value;

use super::check::{Check, Checked};
use crate::model::{AddressType, EstimateRequest};

/// The address types an estimate takes.
const ESTIMATE_ADDRESS_TYPES: &[AddressType] = &[AddressType::ShipTo, AddressType::BillTo];

/// An address to estimate for, as the live service requires it: `type` `SHIP_TO` or `BILL_TO`,
/// and `state`, `postal_code`, `country` (an accepted code) present, the postal code in the
/// country's form (US and CA); the rest optional strings.
fn estimate_address(c: &mut Check) {
    c.enum_of("type", ESTIMATE_ADDRESS_TYPES);
    c.required_str("state");
    c.required_str("postal_code");
    let country = c.country("country");
    c.postal_code_of("postal_code", country);
    c.optional_strs(&[
        "phone",
        "street_1",
        "street_2",
        "city",
        "county",
        "full_address",
    ]);
}

/// One line to estimate: `date` (a timestamp) and `amount` (a decimal) required; `quantity` a
/// decimal, `exempt` a boolean, the identifiers and descriptions strings.
fn estimate_item(c: &mut Check) {
    c.timestamp("date");
    c.decimal("amount");
    c.optional_decimal("quantity");
    c.optional_bool("exempt");
    c.optional_strs(&[
        "external_id",
        "external_product_id",
        "description",
        "product_category",
    ]);
}

/// Body of POST /v1/tax/estimate.
///
/// - Required: `date` (a timestamp), `external_id`, `currency` (the spec's `CurrencyEnum`),
///   `addresses` (at least one; each with `type` `SHIP_TO` or `BILL_TO`, `state`, `postal_code`
///   and an accepted `country`) and `transaction_items` (a non-empty list; each with a `date`
///   and a decimal `amount`, `quantity` a decimal and `exempt` a boolean when given).
/// - Optional: `description` (string), `marketplace` (boolean), `customer` (an object).
pub fn estimate(body: &Value) -> Checked<EstimateRequest> {
    let mut c = Check::body(body)?;
    c.timestamp("date");
    c.required_str("external_id");
    c.currency("currency");
    c.array("addresses", 1, estimate_address);
    c.array("transaction_items", 1, estimate_item);
    c.optional_str("description");
    c.optional_bool("marketplace");
    c.optional_object("customer", |_| {});
    c.finish(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{errors_of, expect, only, sweep};
    use rust_decimal::Decimal;
    use serde_json::json;

    fn valid() -> Value {
        json!({
            "date": "2026-03-01T12:00:00Z",
            "external_id": "quote-1",
            "currency": "USD",
            "description": "Quote for a kettle",
            "marketplace": false,
            "addresses": [{"type": "SHIP_TO", "street_1": "1 Congress Ave", "city": "Austin",
                           "state": "TX", "postal_code": "78701", "country": "US",
                           "phone": "+1 512 555 0100", "street_2": "Suite 2",
                           "county": "Travis", "full_address": "1 Congress Ave, Austin"}],
            "transaction_items": [{"date": "2026-03-01T12:00:00Z", "amount": "19.99",
                                   "quantity": 1, "external_product_id": "sku-1",
                                   "external_id": "q-1-1", "description": "Kettle",
                                   "product_category": "PHYSICAL", "exempt": false}],
            "customer": {"name": "Quote Customer"}
        })
    }

    #[test]
    fn a_valid_body_reads_as_the_request() {
        let req = estimate(&valid()).unwrap();
        assert_eq!(req.currency, "USD");
        assert_eq!(req.transaction_items[0].amount, Decimal::new(1999, 2));
        assert_eq!(req.addresses[0].kind, Some(AddressType::ShipTo));
        assert!(req.customer.is_some());
    }

    #[test]
    fn the_required_fields() {
        let errs = errors_of(estimate(&json!({})));
        assert_eq!(errs.len(), 5, "{errs:#?}");
        for field in [
            "date",
            "external_id",
            "currency",
            "addresses",
            "transaction_items",
        ] {
            expect(&errs, json!(["body", field]), "missing", Value::Null);
        }
    }

    #[test]
    fn items_and_addresses_must_not_be_empty() {
        let mut body = valid();
        body["transaction_items"] = json!([]);
        body["addresses"] = json!([]);
        let errs = errors_of(estimate(&body));
        assert_eq!(errs.len(), 2, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "transaction_items"]),
            "too_short",
            json!([]),
        );
        expect(&errs, json!(["body", "addresses"]), "too_short", json!([]));
    }

    #[test]
    fn each_item_needs_a_date_and_an_amount() {
        let mut body = valid();
        body["transaction_items"] = json!([{"description": "no date, no amount"},
                                           {"date": "2026-03-01", "amount": "free"}]);
        let errs = errors_of(estimate(&body));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "transaction_items", 0, "date"]),
            "missing",
            Value::Null,
        );
        expect(
            &errs,
            json!(["body", "transaction_items", 0, "amount"]),
            "missing",
            Value::Null,
        );
        expect(
            &errs,
            json!(["body", "transaction_items", 1, "amount"]),
            "decimal_parsing",
            json!("free"),
        );
    }

    #[test]
    fn a_currency_outside_the_list() {
        let mut body = valid();
        body["currency"] = json!("XYZ");
        let errs = errors_of(estimate(&body));
        only(&errs);
        expect(&errs, json!(["body", "currency"]), "enum", json!("XYZ"));
    }

    #[test]
    fn an_address_the_estimate_cannot_use() {
        let mut body = valid();
        body["addresses"] = json!([{"type": "SHIP_FROM", "state": "TX", "country": "USA"}]);
        let errs = errors_of(estimate(&body));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        let e = expect(
            &errs,
            json!(["body", "addresses", 0, "type"]),
            "enum",
            json!("SHIP_FROM"),
        );
        assert_eq!(e.msg, "Input should be 'SHIP_TO' or 'BILL_TO'");
        expect(
            &errs,
            json!(["body", "addresses", 0, "postal_code"]),
            "missing",
            Value::Null,
        );
        expect(
            &errs,
            json!(["body", "addresses", 0, "country"]),
            "enum",
            json!("USA"),
        );
    }

    #[test]
    fn a_us_address_needs_a_zip_code() {
        let mut body = valid();
        body["addresses"][0]["postal_code"] = json!("787");
        let errs = errors_of(estimate(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "addresses", 0, "postal_code"]),
            "value_error",
            json!("787"),
        );
    }

    #[test]
    fn a_customer_that_is_not_an_object() {
        let mut body = valid();
        body["customer"] = json!("Quote Customer");
        let errs = errors_of(estimate(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "customer"]),
            "model_attributes_type",
            json!("Quote Customer"),
        );
        body["customer"] = Value::Null;
        assert_eq!(estimate(&body).map(|r| r.customer), Ok(None));
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&valid(), estimate);
    }
}
