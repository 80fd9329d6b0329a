//! Exemption rows: created by the rules of the Exemptions pane's form, with the PDF named in
//! `certificate` (a path, relative to the file's directory) checked as the upload checks it and
//! attached once the exemption exists.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::{Kind, Problem, Request, Row, fields, flat, rule_problems};
use crate::api::Upload;
use crate::rules;

/// The columns only an import reads.
pub(super) const EXTRA: &[&str] = &["certificate"];

/// The export's columns that are not sent.
pub(super) const READ_ONLY: &[&str] =
    &["customer_name", "attachment_id", "created_at", "updated_at"];

/// The columns every file needs.
pub(super) const REQUIRED: &[&str] = &[
    "exemption_type",
    "status",
    "start_date",
    "customer_id",
    "FEIN",
    "sales_tax_id",
];

const SENT: &[(&str, &str, Kind)] = &[
    ("exemption_type", "exemption_type", Kind::Text),
    ("status", "status", Kind::Text),
    ("start_date", "start_date", Kind::Date),
    ("end_date", "end_date", Kind::Date),
    ("customer_id", "customer_id", Kind::Text),
    ("FEIN", "FEIN", Kind::Text),
    ("sales_tax_id", "sales_tax_id", Kind::Text),
    ("jurisdiction", "jurisdiction", Kind::Text),
    ("country_code", "country_code", Kind::Text),
    ("transaction_id", "transaction_id", Kind::Text),
    ("reseller", "reseller", Kind::Bool),
];

pub(super) fn request(row: &Row, dir: &Path) -> Result<Request, Vec<Problem>> {
    let mut problems = Vec::new();
    if let Some(id) = row.get("id") {
        problems.push(Problem {
            row: row.number,
            column: "id".into(),
            value: id.to_owned(),
            rule: "an exemption cannot be changed once made: leave id empty to create a new one"
                .into(),
        });
    }
    let mut shaped = BTreeSet::new();
    let body = fields(row, SENT, &mut problems, &mut shaped);
    let checked = rules::exemption_create(&Value::Object(body));
    if let Err(errors) = &checked {
        problems.extend(rule_problems(row, errors.clone(), &shaped, flat));
    }
    let mut certificate = None;
    if let Some(path) = row.get("certificate") {
        match crate::os::files::read_certificate(&dir.join(path)) {
            Ok((name, bytes)) => certificate = Some(Upload::pdf(name, bytes)),
            Err(refusal) => problems.push(Problem {
                row: row.number,
                column: "certificate".into(),
                value: path.to_owned(),
                rule: refusal.message,
            }),
        }
    }
    match checked {
        Ok(body) if problems.is_empty() => Ok(Request::Exemption {
            body: Box::new(body),
            certificate,
        }),
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::ImportResource;
    use crate::import::{InputFormat, check, parse};

    #[test]
    fn the_certificate_must_be_a_pdf_beside_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.pdf"), b"%PDF-1.4 test").unwrap();
        std::fs::write(dir.path().join("not.pdf"), b"hello").unwrap();
        let table = parse::read(
            b"exemption_type,status,start_date,customer_id,FEIN,sales_tax_id,reseller,certificate\n\
              wholesale,ACTIVE,2026-01-01,cust_1,12-3456789,SR-1,true,ok.pdf\n\
              wholesale,ACTIVE,2026-01-01,cust_1,12-3456789,SR-2,yes,not.pdf\n",
            InputFormat::Csv,
        )
        .unwrap();
        let r = check(ImportResource::Exemptions, &table, dir.path());
        let Request::Exemption { certificate, .. } = &r.planned[0].request else {
            panic!("an exemption");
        };
        assert_eq!(certificate.as_ref().unwrap().file_name, "ok.pdf");
        let columns: Vec<(u64, &str)> = r
            .problems
            .iter()
            .map(|p| (p.row, p.column.as_str()))
            .collect();
        assert_eq!(columns, [(3, "reseller"), (3, "certificate")]);
        assert!(r.problems[1].rule.contains("must be a PDF"));
    }
}
