//! `:edit` on a transaction's detail: its external id, description and ship-to address
//! rewritten (`PUT /v1/transactions/{id}`), the lines, date and customer sent as they are. The
//! address is checked like every form's ([`AddressPanel`]). A locked or filed transaction gets
//! no form: the footer says why it cannot be edited, and nothing is sent.

use serde_json::{Map, Value, json};

use crate::model::{AddressType, FieldError, Transaction, TransactionAddress, TransactionCreate};
use crate::rules;
use crate::ui::widgets::form::address::AddressPanel;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormValues};

/// The address the edit form shows: the ship-to one, else the first.
fn ship_to(t: &Transaction) -> Option<&TransactionAddress> {
    t.addresses
        .iter()
        .find(|a| a.kind == AddressType::ShipTo)
        .or(t.addresses.first())
}

/// The edit form, holding `t`'s values, with its address check.
pub fn edit_form(t: &Transaction) -> (Form, AddressPanel) {
    let text = |name, label, rule| FieldSpec::new(name, label, FieldKind::Text).rule(rule);
    let mut form = Form::new(vec![
        text("external_id", "External id", "the id the shop uses").required(),
        text("description", "Description", "optional"),
        text("street_1", "Ship-to street", "ctrl-l checks the address"),
        text("city", "Ship-to city", ""),
        text("state", "Ship-to state", "subdivision code such as TX"),
        text("postal_code", "Ship-to postal code", ""),
        text("country", "Ship-to country", "ISO code such as US"),
    ]);
    form = form.with_value("external_id", t.external_id.as_str());
    if let Some(d) = &t.description {
        form = form.with_value("description", d.as_str());
    }
    if let Some(a) = ship_to(t) {
        for (name, value) in [
            ("street_1", &a.address.street_1),
            ("city", &a.address.city),
            ("state", &a.address.state),
            ("postal_code", &a.address.postal_code),
            ("country", &a.address.country),
        ] {
            if let Some(v) = value {
                form = form.with_value(name, v.as_str());
            }
        }
    }
    let original = t.clone();
    let form =
        form.with_validator(move |values| edit_body(&original, values).err().unwrap_or_default());
    (form, AddressPanel::default())
}

/// An object without its null members.
fn object(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(
        pairs
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<Map<_, _>>(),
    )
}

/// The body the form's values make for `t`: the new external id, description and ship-to
/// address; every other address, line, the date and the customer as on file.
pub fn edit_json(t: &Transaction, values: &FormValues) -> Value {
    let text = |name: &str| {
        values
            .text(name)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map_or(Value::Null, |s| Value::String(s.to_owned()))
    };
    let upper = |name: &str| match text(name) {
        Value::String(s) => Value::String(s.to_uppercase()),
        other => other,
    };
    let shown = t
        .addresses
        .iter()
        .position(|a| a.kind == AddressType::ShipTo)
        .unwrap_or(0);
    let mut addresses: Vec<Value> = t
        .addresses
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != shown)
        .map(|(_, a)| {
            object(vec![
                ("type", json!(a.kind)),
                ("street_1", json!(a.address.street_1)),
                ("street_2", json!(a.address.street_2)),
                ("city", json!(a.address.city)),
                ("county", json!(a.address.county)),
                ("state", json!(a.address.state)),
                ("postal_code", json!(a.address.postal_code)),
                ("country", json!(a.address.country)),
            ])
        })
        .collect();
    let kind = ship_to(t).map_or(AddressType::ShipTo, |a| a.kind.clone());
    addresses.insert(
        0,
        object(vec![
            ("type", json!(kind)),
            ("street_1", text("street_1")),
            ("city", text("city")),
            ("state", upper("state")),
            ("postal_code", text("postal_code")),
            ("country", upper("country")),
        ]),
    );
    let items: Vec<Value> = t
        .transaction_items
        .iter()
        .map(|i| {
            object(vec![
                ("external_id", json!(i.external_id)),
                ("date", json!(i.date.unwrap_or(t.date))),
                (
                    "external_product_id",
                    json!(i.external_product_id.clone().unwrap_or_default()),
                ),
                ("description", json!(i.description)),
                (
                    "quantity",
                    json!(i.quantity.unwrap_or(rust_decimal::Decimal::ONE)),
                ),
                ("amount", json!(i.amount.unwrap_or_default())),
            ])
        })
        .collect();
    let customer = t
        .customer
        .as_ref()
        .and_then(|c| c.external_id.clone())
        .map_or_else(|| json!({}), |id| json!({ "external_id": id }));
    object(vec![
        ("external_id", text("external_id")),
        ("date", json!(t.date)),
        ("type", json!(t.kind)),
        ("addresses", Value::Array(addresses)),
        ("transaction_items", Value::Array(items)),
        ("customer", customer),
        ("currency", json!(t.currency)),
        ("description", text("description")),
    ])
}

/// The body to send, or the rule errors that keep it from being sent.
pub fn edit_body(
    t: &Transaction,
    values: &FormValues,
) -> Result<TransactionCreate, Vec<FieldError>> {
    rules::transaction_create(&edit_json(t, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    fn sale() -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-11-01T10:00:00Z",
            "type": "SALE", "currency": "USD", "description": "first",
            "addresses": [
                {"type": "BILL_TO", "city": "Dallas", "state": "TX", "country": "US"},
                {"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin", "state": "TX",
                 "postal_code": "78701", "country": "US"}
            ],
            "transaction_items": [{"id": "item_1", "external_id": "l1",
                "external_product_id": "sku", "quantity": "2", "amount": "10.00"}],
            "customer": {"id": "cust_1", "external_id": "c-1"}
        }))
        .unwrap()
    }

    #[test]
    fn the_form_holds_the_ship_to_address_and_the_body_keeps_the_rest() {
        let t = sale();
        let (form, _) = edit_form(&t);
        assert_eq!(form.values().text("city"), Some("Austin"));
        let mut form = form;
        form.fill("postal_code", FieldValue::from("78702"));
        form.fill("description", FieldValue::from("second"));
        let body = edit_body(&t, &form.values()).expect("a valid body");
        assert_eq!(body.external_id, "ord-1");
        assert_eq!(body.description.as_deref(), Some("second"));
        assert_eq!(body.addresses.len(), 2, "the bill-to address kept");
        assert_eq!(
            body.addresses[0].address.postal_code.as_deref(),
            Some("78702")
        );
        assert_eq!(body.addresses[1].address.city.as_deref(), Some("Dallas"));
        assert_eq!(body.transaction_items.len(), 1);
        assert_eq!(body.transaction_items[0].external_product_id, "sku");
        assert_eq!(body.customer, json!({"external_id": "c-1"}));

        form.fill("external_id", FieldValue::from(""));
        assert!(
            edit_body(&t, &form.values()).is_err(),
            "an external id is required"
        );
    }
}
