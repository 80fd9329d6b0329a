//! The rule between a credit note and the sale it credits: each line credits one of the sale's
//! products, and no more than the sale's lines of that product have left after the credit notes
//! issued before.
//!
//! Lines are matched by `external_product_id`, the product the sale's line sold: a sale with two
//! lines of one product has their amounts together to credit. Amounts compared are the lines'
//! `amount` (before tax and discounts), the figure the sale's lines carry.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde_json::Value;

use crate::model::{CreditNoteRequest, FieldError, Transaction};

/// Why the service would refuse to change credit note `note` (`None` when it still may): only
/// a credit note still `PENDING` can be rewritten.
pub fn credit_note_locked(note: &Transaction) -> Option<String> {
    use crate::model::TransactionStatus;
    if note.status == Some(TransactionStatus::Pending) {
        return None;
    }
    let status = note
        .status
        .as_ref()
        .map_or("without a status", TransactionStatus::as_str);
    Some(format!(
        "Only a pending credit note can be changed; {} is {status}",
        note.id
    ))
}

/// Checks the lines of `note` against `sale` and the credit notes issued against it before
/// (`earlier`): every line's product is on the sale, and the lines of a product, added in the
/// order sent, do not pass what is left to credit on it. Each refused line is named with its
/// index and field (`["body", "transaction_items", 2, "amount"]`).
pub fn credit_note_lines(
    note: &CreditNoteRequest,
    sale: &Transaction,
    earlier: &[&Transaction],
) -> Result<(), Vec<FieldError>> {
    let mut left: HashMap<&str, Decimal> = HashMap::new();
    for item in &sale.transaction_items {
        if let Some(product) = item.external_product_id.as_deref() {
            *left.entry(product).or_default() += item.amount.unwrap_or_default();
        }
    }
    for credited in earlier.iter().flat_map(|t| &t.transaction_items) {
        if let Some(product) = credited.external_product_id.as_deref()
            && let Some(open) = left.get_mut(product)
        {
            *open -= credited.amount.unwrap_or_default();
        }
    }
    let mut errors = Vec::new();
    for (i, line) in note.transaction_items.iter().enumerate() {
        let at = |field: &str| {
            vec![
                "body".into(),
                "transaction_items".into(),
                i.into(),
                field.into(),
            ]
        };
        let product = line.external_product_id.as_str();
        let Some(open) = left.get_mut(product) else {
            errors.push(FieldError::new(
                "value_error",
                at("external_product_id"),
                format!(
                    "Value error, transaction_items.{i}.external_product_id {product} is not \
                     sold on {}: a credit note credits the sale's own lines",
                    sale.id
                ),
                Value::String(product.to_owned()),
            ));
            continue;
        };
        if line.amount > *open {
            let open = (*open).max(Decimal::ZERO);
            errors.push(FieldError::new(
                "value_error",
                at("amount"),
                format!(
                    "Value error, transaction_items.{i}.amount {} is more than the {open} left \
                     to credit on {product} of {}",
                    line.amount, sale.id
                ),
                Value::String(line.amount.to_string()),
            ));
            continue;
        }
        *open -= line.amount;
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{expect, only};
    use serde_json::json;

    fn sale() -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_9", "external_id": "ord-9", "date": "2026-03-01T10:00:00Z", "type": "SALE",
            "addresses": [],
            "transaction_items": [
                {"id": "i1", "external_product_id": "sku-1", "amount": "100.00"},
                {"id": "i2", "external_product_id": "sku-2", "amount": "30.00"},
                {"id": "i3", "external_product_id": "sku-2", "amount": "20.00"}
            ]
        }))
        .unwrap()
    }

    fn note(lines: &[(&str, &str)]) -> CreditNoteRequest {
        let items: Vec<Value> = lines
            .iter()
            .enumerate()
            .map(|(n, (product, amount))| {
                json!({"external_id": format!("l{n}"), "date": "2026-03-02T10:00:00Z",
                       "external_product_id": product, "quantity": 1, "amount": amount})
            })
            .collect();
        serde_json::from_value(json!({
            "external_id": "cn", "date": "2026-03-02T10:00:00Z", "status": "COMMITTED",
            "total_amount": "1", "currency": "USD", "transaction_items": items
        }))
        .unwrap()
    }

    fn credited(lines: &[(&str, &str)]) -> Transaction {
        let mut t = sale();
        t.id = "tran_cn".into();
        t.transaction_items = note(lines)
            .transaction_items
            .iter()
            .map(|l| {
                serde_json::from_value(
                    json!({"id": "x", "external_product_id": l.external_product_id,
                                              "amount": l.amount.to_string()}),
                )
                .unwrap()
            })
            .collect();
        t
    }

    #[test]
    fn lines_up_to_what_each_product_has_left_pass() {
        let sale = sale();
        assert!(
            credit_note_lines(&note(&[("sku-1", "100.00"), ("sku-2", "50")]), &sale, &[]).is_ok()
        );
        let before = credited(&[("sku-1", "60")]);
        assert!(credit_note_lines(&note(&[("sku-1", "40.00")]), &sale, &[&before]).is_ok());
    }

    #[test]
    fn a_line_past_what_is_left_is_named_with_its_field() {
        let sale = sale();
        let before = credited(&[("sku-1", "60")]);
        let errs = credit_note_lines(
            &note(&[("sku-2", "10"), ("sku-1", "40.01")]),
            &sale,
            &[&before],
        )
        .unwrap_err();
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", "transaction_items", 1, "amount"]),
            "value_error",
            json!("40.01"),
        );
        assert_eq!(
            e.msg,
            "Value error, transaction_items.1.amount 40.01 is more than the 40.00 left to credit on sku-1 of tran_9"
        );
    }

    #[test]
    fn lines_of_one_product_add_up() {
        let errs = credit_note_lines(&note(&[("sku-2", "30"), ("sku-2", "20.01")]), &sale(), &[])
            .unwrap_err();
        let e = expect(
            &errs,
            json!(["body", "transaction_items", 1, "amount"]),
            "value_error",
            json!("20.01"),
        );
        assert!(e.msg.contains("the 20.00 left"), "{}", e.msg);
    }

    #[test]
    fn a_product_the_sale_does_not_have_is_refused() {
        let errs = credit_note_lines(&note(&[("sku-404", "1")]), &sale(), &[]).unwrap_err();
        let e = expect(
            &errs,
            json!(["body", "transaction_items", 0, "external_product_id"]),
            "value_error",
            json!("sku-404"),
        );
        assert!(e.msg.contains("is not sold on tran_9"), "{}", e.msg);
    }

    #[test]
    fn nothing_left_after_a_full_credit() {
        let before = credited(&[("sku-1", "100"), ("sku-2", "50")]);
        let errs = credit_note_lines(&note(&[("sku-1", "0.01")]), &sale(), &[&before]).unwrap_err();
        assert!(only(&errs).msg.contains("the 0.00 left"), "{}", errs[0].msg);
    }
}
