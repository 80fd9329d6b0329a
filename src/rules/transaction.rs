//! Rules on transactions and credit notes, and on the addresses they carry.

use rust_decimal::Decimal;
use serde_json::Value;

use super::check::{Check, Checked};
use super::customer::customer_fields;
use crate::model::{
    AddressType, CreditNoteRequest, CreditNoteStatus, TransactionCreate, TransactionStatus,
    TransactionType,
};

/// The free-text fields of an address (on a transaction, and sent to the address validation).
pub const ADDRESS_TEXT: &[&str] = &[
    "phone",
    "street_1",
    "street_2",
    "city",
    "county",
    "state",
    "postal_code",
    "full_address",
];

/// An address on a transaction or credit note: `type` required (`BILL_TO`, `SHIP_TO`,
/// `SHIP_FROM`, `BILL_FROM`), `country` an accepted country code when given, the rest optional
/// strings.
fn address(c: &mut Check) {
    c.enum_of("type", AddressType::KNOWN);
    c.optional_strs(ADDRESS_TEXT);
    let country = c.optional_country("country");
    c.postal_code_of("postal_code", country);
}

/// Body of POST /`v1/transactions/{id}/credit_notes`.
///
/// - Required: `external_id`, `date` (a timestamp), `status` (`PENDING`, `CANCELLED`,
///   `COMMITTED`), `total_amount` (a decimal, number or string), `currency` (the spec's
///   `CurrencyEnum`), and `transaction_items`, a non-empty list.
/// - Each item: `external_id`, `date`, `external_product_id`, `quantity` and `amount` required;
///   `discount_amount` less than the item's `amount`; other amounts decimals.
/// - Optional: the other amounts (decimals), `marketplace` (boolean), texts, and `addresses`
///   (each with a `type` and, when given, an
///   accepted `country`).
pub fn credit_note(body: &Value) -> Checked<CreditNoteRequest> {
    let mut c = Check::body(body)?;
    c.required_str("external_id");
    c.timestamp("date");
    c.enum_of("status", CreditNoteStatus::KNOWN);
    c.decimal("total_amount");
    c.currency("currency");
    c.array("transaction_items", 1, credit_note_item);
    c.optional_strs(&[
        "external_friendly_id",
        "secondary_external_id",
        "description",
        "external_customer_id",
    ]);
    c.optional_bool("marketplace");
    c.optional_decimals(&["tax_amount_imported", "tax_rate_imported", "taxable_amount"]);
    c.optional_array("addresses", address);
    c.finish(body)
}

/// One line of a credit note.
fn credit_note_item(c: &mut Check) {
    c.required_str("external_id");
    c.timestamp("date");
    c.required_str("external_product_id");
    c.decimal("quantity");
    let amount = c.decimal("amount");
    if amount.is_some_and(|a| a <= Decimal::ZERO) {
        c.rule(
            "amount",
            "amount must be more than 0: a credit note line credits a positive amount",
        );
    }
    c.optional_str("description");
    c.optional_decimals(&["tax_amount_imported", "tax_rate_imported", "taxable_amount"]);
    let discount = c.optional_decimal("discount_amount");
    // Against an amount that is itself refused the discount says nothing more.
    if let (Some(discount), Some(amount)) = (discount, amount)
        && amount > Decimal::ZERO
        && discount >= amount
    {
        c.rule(
            "discount_amount",
            format_args!("discount_amount must be less than the item's amount ({amount})"),
        );
    }
}

/// Body of POST /v1/transactions.
///
/// - Required: `external_id` (at least one character), `date` (a timestamp), `type` (a
///   transaction type), `addresses` (a list, each with a `type` and, when given, an accepted
///   `country`), `transaction_items` (a list; each with `date`, `external_product_id`, and
///   `quantity` and `amount` as decimals; the imported tax amounts decimals when given), and `customer`, an object whose fields
///   follow the customer rules (well-formed `email` and `country`, known `status`).
/// - Optional: `currency` (the spec's `CurrencyEnum`), `total_amount` (decimal), `marketplace`
///   (boolean), `status` (a transaction status), `description` and `source` (strings).
pub fn transaction_create(body: &Value) -> Checked<TransactionCreate> {
    let mut c = Check::body(body)?;
    c.non_empty_str("external_id");
    c.timestamp("date");
    c.enum_of("type", TransactionType::KNOWN);
    c.array("addresses", 0, address);
    c.array("transaction_items", 0, transaction_item);
    c.object("customer", customer_fields);
    c.optional_currency("currency");
    c.optional_decimal("total_amount");
    c.optional_bool("marketplace");
    c.optional_enum_of("status", TransactionStatus::KNOWN);
    c.optional_strs(&["description", "source"]);
    c.finish(body)
}

/// Why `t` can no longer be changed, if it cannot: it is locked, or a return covering it is
/// being filed or was filed.
pub fn locked_reason(t: &crate::model::Transaction) -> Option<String> {
    use crate::model::ProcessingStatus;
    if t.locked == Some(true) {
        return Some(format!(
            "Transaction {} is locked and cannot be changed",
            t.id
        ));
    }
    match &t.processing_status {
        Some(
            ProcessingStatus::FilingStarted
            | ProcessingStatus::FilingDone
            | ProcessingStatus::Locked,
        ) => Some(format!(
            "Transaction {} is part of a filed return and cannot be changed",
            t.id
        )),
        _ => None,
    }
}

/// One line of a transaction.
fn transaction_item(c: &mut Check) {
    c.timestamp("date");
    c.required_str("external_product_id");
    c.optional_strs(&["external_id", "description"]);
    c.decimal("quantity");
    c.decimal("amount");
    c.optional_decimals(&["tax_amount_imported", "tax_rate_imported"]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{errors_of, expect, only, sweep};
    use rust_decimal::Decimal;
    use serde_json::json;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn note() -> Value {
        json!({
            "external_id": "cn-1001",
            "date": "2026-03-02T10:00:00Z",
            "status": "COMMITTED",
            "total_amount": "54.12",
            "currency": "USD",
            "external_customer_id": "c-77",
            "external_friendly_id": "CN-1001",
            "secondary_external_id": "shop-1001",
            "description": "Return of one item",
            "marketplace": false,
            "tax_amount_imported": "4.12",
            "tax_rate_imported": "0.0825",
            "taxable_amount": 50,
            "transaction_items": [{
                "external_id": "cn-1001-1",
                "date": "2026-03-02T10:00:00Z",
                "external_product_id": "sku-9",
                "quantity": 1,
                "amount": 50,
                "discount_amount": "5.00",
                "tax_amount_imported": 4.12,
                "tax_rate_imported": "0.0825",
                "taxable_amount": "45.00",
                "description": "Blue mug"
            }],
            "addresses": [{"type": "SHIP_TO", "phone": "+1 512 555 0100",
                           "street_1": "1 Congress Ave", "street_2": "Suite 2",
                           "city": "Austin", "county": "Travis", "state": "TX",
                           "postal_code": "78701", "country": "US",
                           "full_address": "1 Congress Ave, Suite 2, Austin, TX 78701"}]
        })
    }

    fn sale() -> Value {
        json!({
            "external_id": "ord-5",
            "date": "2026-03-01T09:30:00",
            "type": "SALE",
            "currency": "CAD",
            "total_amount": 113,
            "marketplace": true,
            "status": "PENDING",
            "description": "Order 5",
            "source": "API",
            "addresses": [{"type": "BILL_TO", "city": "Toronto", "state": "ON",
                           "country": "CA"}],
            "transaction_items": [{"date": "2026-03-01", "external_product_id": "sku-1",
                                   "quantity": "2", "amount": "100.00",
                                   "external_id": "ord-5-1", "description": "Kettle",
                                   "tax_amount_imported": "13.00",
                                   "tax_rate_imported": "0.13"}],
            "customer": {"name": "Grace", "email": "grace@example.ca", "country": "CA"}
        })
    }

    #[test]
    fn a_valid_credit_note_reads_as_the_request() {
        let req = credit_note(&note()).unwrap();
        assert_eq!(req.status, CreditNoteStatus::Committed);
        assert_eq!(req.total_amount, dec("54.12"));
        let item = &req.transaction_items[0];
        assert_eq!(item.amount, dec("50"));
        assert_eq!(item.discount_amount, Some(dec("5.00")));
        assert_eq!(item.tax_amount_imported, Some(dec("4.12")));
        assert_eq!(req.addresses.as_ref().map(Vec::len), Some(1));
    }

    #[test]
    fn a_currency_outside_the_list() {
        let mut body = note();
        body["currency"] = json!("XYZ");
        let errs = errors_of(credit_note(&body));
        only(&errs);
        expect(&errs, json!(["body", "currency"]), "enum", json!("XYZ"));
    }

    #[test]
    fn a_credit_line_credits_a_positive_amount() {
        for amount in [json!("-5.00"), json!(0), json!("0.00")] {
            let mut body = note();
            body["transaction_items"][0]["amount"] = amount.clone();
            body["transaction_items"][0]["discount_amount"] = json!("-10");
            let errs = errors_of(credit_note(&body));
            let e = expect(
                &errs,
                json!(["body", "transaction_items", 0, "amount"]),
                "value_error",
                amount.clone(),
            );
            assert_eq!(
                e.msg,
                "Value error, amount must be more than 0: a credit note line credits a positive amount"
            );
        }
    }

    #[test]
    fn an_empty_external_id_is_too_short() {
        let mut body = sale();
        body["external_id"] = json!("");
        let errs = errors_of(transaction_create(&body));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "external_id"]),
            "string_too_short",
            json!(""),
        );
        assert_eq!(e.ctx, Some(json!({"min_length": 1})));
    }

    #[test]
    fn an_item_without_quantity_or_amount_names_the_field() {
        for field in ["quantity", "amount"] {
            let mut body = sale();
            body["transaction_items"][0]
                .as_object_mut()
                .unwrap()
                .remove(field);
            let errs = errors_of(transaction_create(&body));
            only(&errs);
            expect(
                &errs,
                json!(["body", "transaction_items", 0, field]),
                "missing",
                json!(null),
            );
        }
    }

    #[test]
    fn a_us_address_takes_a_zip_code() {
        let mut body = sale();
        body["addresses"][0] = json!({"type": "SHIP_TO", "country": "US", "postal_code": "9410,5"});
        let errs = errors_of(transaction_create(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "addresses", 0, "postal_code"]),
            "value_error",
            json!("9410,5"),
        );
        body["addresses"][0]["postal_code"] = json!("94105-0001");
        assert!(transaction_create(&body).is_ok());
    }

    #[test]
    fn a_discount_equal_to_the_amount() {
        let mut body = note();
        body["transaction_items"][0]["discount_amount"] = json!("50.00");
        let errs = errors_of(credit_note(&body));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "transaction_items", 0, "discount_amount"]),
            "value_error",
            json!("50.00"),
        );
        assert_eq!(
            e.msg,
            "Value error, discount_amount must be less than the item's amount (50)"
        );
        body["transaction_items"][0]["discount_amount"] = json!(60);
        assert_eq!(errors_of(credit_note(&body)).len(), 1);
        body["transaction_items"][0]["discount_amount"] = json!(49.99);
        assert!(credit_note(&body).is_ok());
    }

    #[test]
    fn credit_note_items_are_required_and_not_empty() {
        let mut body = note();
        body["transaction_items"] = json!([]);
        let errs = errors_of(credit_note(&body));
        only(&errs);
        expect(
            &errs,
            json!(["body", "transaction_items"]),
            "too_short",
            json!([]),
        );
        if let Some(m) = body.as_object_mut() {
            m.remove("transaction_items");
        }
        let errs = errors_of(credit_note(&body));
        expect(
            &errs,
            json!(["body", "transaction_items"]),
            "missing",
            Value::Null,
        );
        body["transaction_items"] = json!({"amount": 1});
        let errs = errors_of(credit_note(&body));
        expect(
            &errs,
            json!(["body", "transaction_items"]),
            "list_type",
            json!({"amount": 1}),
        );
    }

    #[test]
    fn credit_note_item_fields_are_checked_at_their_index() {
        let mut body = note();
        let second = json!({"date": "soon", "quantity": "one", "amount": null,
                            "taxable_amount": false});
        if let Some(items) = body["transaction_items"].as_array_mut() {
            items.push(second);
        }
        let errs = errors_of(credit_note(&body));
        assert_eq!(errs.len(), 6, "{errs:#?}");
        let at = |field: &str| json!(["body", "transaction_items", 1, field]);
        expect(&errs, at("external_id"), "missing", Value::Null);
        expect(&errs, at("external_product_id"), "missing", Value::Null);
        expect(&errs, at("date"), "datetime_parsing", json!("soon"));
        expect(&errs, at("quantity"), "decimal_parsing", json!("one"));
        expect(&errs, at("amount"), "decimal_type", Value::Null);
        expect(&errs, at("taxable_amount"), "decimal_type", json!(false));
    }

    #[test]
    fn credit_note_top_level_rules() {
        let mut body = note();
        body["status"] = json!("REFUNDED");
        body["total_amount"] = json!("54,12");
        body["date"] = json!(20260302);
        body["marketplace"] = json!("false");
        body["tax_rate_imported"] = json!("8%");
        let errs = errors_of(credit_note(&body));
        assert_eq!(errs.len(), 5, "{errs:#?}");
        expect(&errs, json!(["body", "status"]), "enum", json!("REFUNDED"));
        expect(
            &errs,
            json!(["body", "total_amount"]),
            "decimal_parsing",
            json!("54,12"),
        );
        expect(
            &errs,
            json!(["body", "date"]),
            "datetime_type",
            json!(20260302),
        );
        expect(
            &errs,
            json!(["body", "marketplace"]),
            "bool_type",
            json!("false"),
        );
        expect(
            &errs,
            json!(["body", "tax_rate_imported"]),
            "decimal_parsing",
            json!("8%"),
        );
    }

    #[test]
    fn credit_note_addresses_are_checked_when_given() {
        let mut body = note();
        body["addresses"] = json!([{"type": "HOME", "country": "USA"}, {"country": "US"}, 7]);
        let errs = errors_of(credit_note(&body));
        assert_eq!(errs.len(), 4, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "addresses", 0, "type"]),
            "enum",
            json!("HOME"),
        );
        expect(
            &errs,
            json!(["body", "addresses", 0, "country"]),
            "enum",
            json!("USA"),
        );
        expect(
            &errs,
            json!(["body", "addresses", 1, "type"]),
            "missing",
            Value::Null,
        );
        expect(
            &errs,
            json!(["body", "addresses", 2]),
            "model_attributes_type",
            json!(7),
        );
        if let Some(m) = body.as_object_mut() {
            m.remove("addresses");
        }
        assert!(credit_note(&body).is_ok());
    }

    #[test]
    fn a_valid_sale_reads_as_the_request() {
        let req = transaction_create(&sale()).unwrap();
        assert_eq!(req.kind, TransactionType::Sale);
        assert_eq!(req.total_amount, Some(dec("113")));
        assert_eq!(req.transaction_items[0].amount, Some(dec("100.00")));
        assert_eq!(req.transaction_items[0].quantity, Some(dec("2")));
        assert_eq!(req.customer["name"], json!("Grace"));
    }

    #[test]
    fn a_sale_needs_its_six_fields() {
        let errs = errors_of(transaction_create(&json!({"currency": "USD"})));
        assert_eq!(errs.len(), 6, "{errs:#?}");
        for field in [
            "external_id",
            "date",
            "type",
            "addresses",
            "transaction_items",
            "customer",
        ] {
            expect(&errs, json!(["body", field]), "missing", Value::Null);
        }
    }

    #[test]
    fn sale_fields_are_checked() {
        let mut body = sale();
        body["type"] = json!("RETURN");
        body["currency"] = json!("cad");
        body["status"] = json!("DONE");
        body["customer"] = json!("Grace");
        body["addresses"][0]["country"] = json!("Canada");
        body["transaction_items"][0]["amount"] = json!("1 000");
        body["transaction_items"][0]["external_product_id"] = json!(1);
        let errs = errors_of(transaction_create(&body));
        assert_eq!(errs.len(), 7, "{errs:#?}");
        expect(&errs, json!(["body", "type"]), "enum", json!("RETURN"));
        let e = expect(&errs, json!(["body", "currency"]), "enum", json!("cad"));
        assert!(e.msg.ends_with("(write it as CAD)"), "{}", e.msg);
        expect(&errs, json!(["body", "status"]), "enum", json!("DONE"));
        expect(
            &errs,
            json!(["body", "customer"]),
            "model_attributes_type",
            json!("Grace"),
        );
        expect(
            &errs,
            json!(["body", "addresses", 0, "country"]),
            "enum",
            json!("Canada"),
        );
        let item = |f: &str| json!(["body", "transaction_items", 0, f]);
        expect(&errs, item("amount"), "decimal_parsing", json!("1 000"));
        expect(&errs, item("external_product_id"), "string_type", json!(1));
    }

    #[test]
    fn the_embedded_customer_follows_the_customer_rules() {
        let mut body = sale();
        body["customer"] = json!({"email": "grace", "country": "XX", "status": "GONE"});
        let errs = errors_of(transaction_create(&body));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "customer", "email"]),
            "value_error",
            json!("grace"),
        );
        expect(
            &errs,
            json!(["body", "customer", "country"]),
            "enum",
            json!("XX"),
        );
        expect(
            &errs,
            json!(["body", "customer", "status"]),
            "enum",
            json!("GONE"),
        );
    }

    #[test]
    fn sale_items_need_a_date_and_a_product() {
        let mut body = sale();
        body["transaction_items"] = json!([{"amount": 5, "quantity": 1}]);
        let errs = errors_of(transaction_create(&body));
        assert_eq!(errs.len(), 2, "{errs:#?}");
        expect(
            &errs,
            json!(["body", "transaction_items", 0, "date"]),
            "missing",
            Value::Null,
        );
        expect(
            &errs,
            json!(["body", "transaction_items", 0, "external_product_id"]),
            "missing",
            Value::Null,
        );
    }

    #[test]
    fn a_body_the_model_cannot_read_is_refused_field_by_field() {
        sweep(&note(), credit_note);
        sweep(&sale(), transaction_create);
    }
}
