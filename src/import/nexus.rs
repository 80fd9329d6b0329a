//! Physical nexus rows: created, or updated when the row has an `id` (as `taxdash export
//! physical-nexus` writes it), by the rules of the Nexus pane's form.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Kind, Problem, Request, Row, fields, flat, settle};
use crate::rules;

/// The export's columns that are not sent.
pub(super) const READ_ONLY: &[&str] = &["source"];

/// `category` and `start_date`; `country_code` and `state_code` too unless the file has an `id`
/// column (an update cannot change them).
pub(super) fn required(columns: &[String]) -> Vec<&'static str> {
    let mut required = vec!["category", "start_date"];
    if !columns.iter().any(|c| c == "id") {
        required.extend(["country_code", "state_code"]);
    }
    required
}

const EDITABLE: &[(&str, &str, Kind)] = &[
    ("start_date", "start_date", Kind::Date),
    ("end_date", "end_date", Kind::Date),
    ("category", "category", Kind::Text),
    ("street_1", "street_1", Kind::Text),
    ("street_2", "street_2", Kind::Text),
    ("city", "city", Kind::Text),
    ("postal_code", "postal_code", Kind::Text),
];

const CREATE_ONLY: &[(&str, &str, Kind)] = &[
    ("country_code", "country_code", Kind::Text),
    ("state_code", "state_code", Kind::Text),
    ("external_id", "external_id", Kind::Text),
];

pub(super) fn request(row: &Row) -> Result<Request, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut shaped = BTreeSet::new();
    let mut body = fields(row, EDITABLE, &mut problems, &mut shaped);
    let checked = if let Some(id) = row.get("id") {
        rules::physical_nexus_update(&Value::Object(body)).map(|body| {
            Request::PhysicalNexusUpdate {
                id: id.to_owned(),
                body: Box::new(body),
            }
        })
    } else {
        body.extend(fields(row, CREATE_ONLY, &mut problems, &mut shaped));
        rules::physical_nexus_create(&Value::Object(body))
            .map(|body| Request::PhysicalNexusCreate(Box::new(body)))
    };
    settle(checked, problems, row, &shaped, flat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::ImportResource;
    use crate::import::{InputFormat, check, parse};
    use std::path::Path;

    fn report(text: &str) -> crate::import::Report {
        let table = parse::read(text.as_bytes(), InputFormat::Csv).unwrap();
        check(ImportResource::PhysicalNexus, &table, Path::new("."))
    }

    #[test]
    fn a_row_with_an_id_updates_and_one_without_creates() {
        let r = report(
            "id,country_code,state_code,category,start_date,end_date,source\n\
             phys_1,US,CA,PHYSICAL_BUSINESS_LOCATION,2025-01-01,,API\n\
             ,US,TX,WAREHOUSE_AND_INVENTORY_PRESENCE,2025-02-01,2025-12-31,\n",
        );
        assert!(
            r.is_clean(),
            "{}",
            r.describe(ImportResource::PhysicalNexus)
        );
        assert!(matches!(
            &r.planned[0].request,
            Request::PhysicalNexusUpdate { id, .. } if id == "phys_1"
        ));
        assert!(matches!(
            &r.planned[1].request,
            Request::PhysicalNexusCreate(body) if body.state_code == "TX"
        ));
    }

    #[test]
    fn each_bad_cell_is_reported_with_its_row_column_value_and_rule() {
        let r = report(
            "country_code,state_code,category,start_date,end_date\n\
             US,CA,PHYSICAL_BUSINESS_LOCATION,2026-02-30,\n\
             US,US-TX,SHED,2025-02-01,2025-01-01\n",
        );
        let found: Vec<(u64, &str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.row, p.column.as_str(), p.value.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (2, "start_date", "2026-02-30"),
                (3, "state_code", "US-TX"),
                (3, "end_date", "2025-01-01"),
                (3, "category", "SHED"),
            ]
        );
        assert!(
            r.problems[0]
                .rule
                .contains("February 2026, which has 28 days")
        );
        assert!(r.planned.is_empty());
    }
}
