//! Transaction rows: a sale (or any type but a credit note) with one line, or a credit note
//! against the sale named in `related_to`, by the rules of the Transactions pane's forms. The
//! line is the row's `external_product_id`, `quantity` (1 when empty) and `total_amount`; the
//! address is the row's `street_1`, `city`, `county`, `state`, `postal_code` and `country` (as
//! the ship-to address); the customer is matched by `customer_external_id` or `customer_email`
//! (and named `customer_name` when the service adds it).

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::{Kind, Problem, Request, Row, fields, settle};
use crate::model::LocPart;
use crate::rules;

/// The columns only an import reads.
pub(super) const EXTRA: &[&str] = &[
    "external_product_id",
    "quantity",
    "description",
    "street_1",
    "customer_external_id",
    "customer_email",
];

/// The export's columns that are not sent (the service computes them; `id` is the service's,
/// the `external_id` is what keeps a transaction from being made twice).
pub(super) const READ_ONLY: &[&str] = &[
    "id",
    "processing_status",
    "direction",
    "document_type",
    "customer_id",
    "subtotal",
    "total_discount",
    "taxable_amount",
    "total_tax_amount_calculated",
    "tax_rate_calculated",
    "total_tax_amount_imported",
    "tax_rate_imported",
    "total_tax_liability_amount",
    "tax_liability_source",
    "final_total_amount",
    "exempt",
    "refund_status",
    "filing_id",
    "locked",
    "item_count",
];

/// The columns every file needs.
pub(super) const REQUIRED: &[&str] = &[
    "external_id",
    "date",
    "type",
    "total_amount",
    "external_product_id",
];

const CREDIT_NOTE_TYPES: &[&str] = &["FULL_CREDIT_NOTE", "PARTIAL_CREDIT_NOTE"];

const TOP: &[(&str, &str, Kind)] = &[
    ("external_id", "external_id", Kind::Text),
    ("date", "date", Kind::Timestamp),
    ("status", "status", Kind::Text),
    ("currency", "currency", Kind::Text),
    ("total_amount", "total_amount", Kind::Decimal),
    ("marketplace", "marketplace", Kind::Bool),
    ("description", "description", Kind::Text),
];

const LINE: &[(&str, &str, Kind)] = &[
    ("external_product_id", "external_product_id", Kind::Text),
    ("quantity", "quantity", Kind::Decimal),
];

const ADDRESS: &[(&str, &str, Kind)] = &[
    ("street_1", "street_1", Kind::Text),
    ("city", "city", Kind::Text),
    ("county", "county", Kind::Text),
    ("state", "state", Kind::Text),
    ("postal_code", "postal_code", Kind::Text),
    ("country", "country", Kind::Text),
];

const CUSTOMER: &[(&str, &str, Kind)] = &[
    ("customer_name", "name", Kind::Text),
    ("customer_external_id", "external_id", Kind::Text),
    ("customer_email", "email", Kind::Text),
];

/// The column of an error's `loc` (after `body`).
fn column(at: &[LocPart]) -> String {
    let key = |i: usize| match at.get(i) {
        Some(LocPart::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    match (key(0), key(2)) {
        (Some("transaction_items"), Some("amount")) => "total_amount".into(),
        (Some("transaction_items"), Some("external_id")) => "external_id".into(),
        (Some("transaction_items"), None) => "external_product_id".into(),
        (Some("transaction_items" | "addresses"), Some(field)) | (Some(field), _)
            if field != "customer" =>
        {
            field.into()
        }
        (Some("customer"), _) => match key(1) {
            Some("name") => "customer_name".into(),
            Some("email") => "customer_email".into(),
            Some(other) => format!("customer_{other}"),
            None => "customer_external_id".into(),
        },
        _ => "(row)".into(),
    }
}

pub(super) fn request(row: &Row) -> Result<Request, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut shaped = BTreeSet::new();
    let mut body = fields(row, TOP, &mut problems, &mut shaped);
    let mut line = fields(row, LINE, &mut problems, &mut shaped);
    line.entry("quantity").or_insert_with(|| json!("1"));
    if let Some(amount) = body.get("total_amount") {
        line.insert("amount".into(), amount.clone());
    }
    if let Some(date) = body.get("date") {
        line.insert("date".into(), date.clone());
    }
    if let Some(id) = row.get("external_id") {
        line.insert("external_id".into(), json!(format!("{id}-1")));
    }
    let kind = row.get("type").unwrap_or_default();
    let credit_note = CREDIT_NOTE_TYPES.contains(&kind);
    let checked = if credit_note {
        let sale = row.get("related_to");
        if sale.is_none() {
            problems.push(Problem {
                row: row.number,
                column: "related_to".into(),
                value: String::new(),
                rule: "a credit note names the sale it credits: that sale's id".into(),
            });
        }
        line.remove("date");
        if let Some(date) = body.get("date") {
            line.insert("date".into(), date.clone());
        }
        body.insert("transaction_items".into(), json!([line]));
        rules::credit_note(&Value::Object(body)).map(|note| Request::CreditNote {
            sale: sale.unwrap_or_default().to_owned(),
            body: Box::new(note),
        })
    } else {
        body.insert("type".into(), json!(kind));
        body.insert("transaction_items".into(), json!([line]));
        let mut address = fields(row, ADDRESS, &mut problems, &mut shaped);
        let addresses = if address.is_empty() {
            json!([])
        } else {
            address.insert("type".into(), json!("SHIP_TO"));
            json!([address])
        };
        body.insert("addresses".into(), addresses);
        let customer: Map<String, Value> = fields(row, CUSTOMER, &mut problems, &mut shaped);
        body.insert("customer".into(), Value::Object(customer));
        if let Some(source) = row.get("source") {
            body.insert("source".into(), json!(source));
        }
        rules::transaction_create(&Value::Object(body)).map(|t| Request::Transaction(Box::new(t)))
    };
    settle(checked, problems, row, &shaped, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::ImportResource;
    use crate::import::{InputFormat, check, parse};
    use std::path::Path;

    fn report(text: &str) -> crate::import::Report {
        let table = parse::read(text.as_bytes(), InputFormat::Csv).unwrap();
        check(ImportResource::Transactions, &table, Path::new("."))
    }

    const HEADER: &str = "external_id,date,type,status,currency,total_amount,\
                          external_product_id,quantity,state,country,customer_external_id,related_to";

    #[test]
    fn a_sale_and_its_credit_note_become_their_requests() {
        let r = report(&format!(
            "{HEADER}\n\
             ord-1,2026-11-01,SALE,COMMITTED,USD,12.50,sku-1,2,TX,US,c-1,\n\
             cn-1,2026-11-02T10:00:00Z,PARTIAL_CREDIT_NOTE,COMMITTED,USD,5,sku-1,,,,,tran_9\n"
        ));
        assert!(r.is_clean(), "{}", r.describe(ImportResource::Transactions));
        let Request::Transaction(sale) = &r.planned[0].request else {
            panic!("a sale");
        };
        assert_eq!(
            sale.transaction_items[0].amount.unwrap().to_string(),
            "12.50"
        );
        assert_eq!(sale.transaction_items[0].quantity.unwrap().to_string(), "2");
        assert_eq!(sale.addresses[0].address.state.as_deref(), Some("TX"));
        assert_eq!(sale.customer, json!({"external_id": "c-1"}));
        let Request::CreditNote { sale, body } = &r.planned[1].request else {
            panic!("a credit note");
        };
        assert_eq!(sale, "tran_9");
        assert_eq!(body.transaction_items[0].external_id, "cn-1-1");
    }

    #[test]
    fn shape_problems_name_the_column_and_are_not_repeated_by_the_rules() {
        let r = report(&format!(
            "{HEADER}\n\
             ord-1,2026-02-30,SALE,,USD,\"12,50\",sku-1,,,,,\n\
             ord-2,2026-11-01,SOLD,,USD,1,,,,XX,,\n\
             cn-1,2026-11-01,FULL_CREDIT_NOTE,COMMITTED,USD,1,sku-1,,,,,\n"
        ));
        let found: Vec<(u64, &str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.row, p.column.as_str(), p.value.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (2, "date", "2026-02-30"),
                (2, "total_amount", "12,50"),
                (3, "type", "SOLD"),
                (3, "country", "XX"),
                (3, "external_product_id", ""),
                (4, "related_to", ""),
            ]
        );
        assert!(
            r.problems[1].rule.contains("12.50"),
            "{}",
            r.problems[1].rule
        );
    }
}
