//! Customer rows: created, or updated when the row has an `id`, with their tax ids (`tax_id`,
//! several separated by `;`), by the rules of the Customers pane's forms.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{Kind, Problem, Request, Row, fields, flat, rule_problems};
use crate::rules;

/// The columns only an import reads.
pub(super) const EXTRA: &[&str] = &["tax_id"];

/// The export's columns that are not sent.
pub(super) const READ_ONLY: &[&str] = &["address_status", "store_name", "tax_registration_count"];

const SENT: &[(&str, &str, Kind)] = &[
    ("name", "name", Kind::Text),
    ("status", "status", Kind::Text),
    ("email", "email", Kind::Text),
    ("phone", "phone", Kind::Text),
    ("company_name", "company_name", Kind::Text),
    ("external_id", "external_id", Kind::Text),
    ("external_friendly_id", "external_friendly_id", Kind::Text),
    ("street_1", "street_1", Kind::Text),
    ("street_2", "street_2", Kind::Text),
    ("city", "city", Kind::Text),
    ("county", "county", Kind::Text),
    ("state", "state", Kind::Text),
    ("postal_code", "postal_code", Kind::Text),
    ("country", "country", Kind::Text),
    ("source", "source", Kind::Text),
    ("registration_number", "registration_number", Kind::Text),
];

pub(super) fn request(row: &Row) -> Result<Request, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut shaped = BTreeSet::new();
    let body = fields(row, SENT, &mut problems, &mut shaped);
    let checked = rules::customer_write(&Value::Object(body));
    if let Err(errors) = &checked {
        problems.extend(rule_problems(row, errors.clone(), &shaped, flat));
    }
    let mut tax_ids = Vec::new();
    let mut given: Vec<&str> = row
        .get("tax_id")
        .into_iter()
        .flat_map(|c| c.split(';'))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if given.is_empty() && row.cells.contains_key("tax_id") {
        // Only separators: the rule says what is missing.
        given.push("");
    }
    for tax_id in given {
        match rules::customer_tax_registration(&json!({ "tax_id": tax_id })) {
            Ok(t) => tax_ids.push(t),
            Err(errors) => {
                problems.extend(rule_problems(row, errors, &shaped, |_| "tax_id".into()));
            }
        }
    }
    match checked {
        Ok(body) if problems.is_empty() => Ok(Request::Customer {
            id: row.get("id").map(str::to_owned),
            body: Box::new(body),
            tax_ids,
        }),
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::ImportResource;
    use crate::import::{InputFormat, check, parse};
    use std::path::Path;

    #[test]
    fn tax_ids_ride_with_the_customer_and_blank_ones_are_refused() {
        let table = parse::read(
            b"external_id,name,email,tax_id,address_status\n\
              c-1,Ada,ada@example.com,GB123; DE456,VERIFIED\n\
              c-2,Bob,bob@example,;,\n",
            InputFormat::Csv,
        )
        .unwrap();
        let r = check(ImportResource::Customers, &table, Path::new("."));
        let Request::Customer { id, tax_ids, .. } = &r.planned[0].request else {
            panic!("a customer");
        };
        assert_eq!(id, &None);
        let ids: Vec<&str> = tax_ids.iter().map(|t| t.tax_id.as_str()).collect();
        assert_eq!(ids, ["GB123", "DE456"]);
        let columns: Vec<&str> = r.problems.iter().map(|p| p.column.as_str()).collect();
        assert_eq!(columns, ["email", "tax_id"]);
        assert!(r.problems[0].rule.contains("email address"));
    }
}
