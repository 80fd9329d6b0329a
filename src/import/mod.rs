//! Importing records from a spreadsheet: physical nexus, customers, exemptions and transactions
//! read from CSV, JSON or JSON Lines ([`parse`]), every row checked before anything is sent by
//! the rules the dashboard's forms use ([`crate::rules`]) and by the file's own shape, then sent
//! through the client at the service's pace ([`send`]), each row's outcome written to a results
//! file as it is known ([`results`]), so that a stopped run resumes without sending a row twice.
//! A row the service already holds is not sent again ([`lookup`]): a file imported twice makes
//! each record once.
//!
//! The columns are those `taxdash export` writes for the same resource: an export, edited in a
//! spreadsheet, imports back (a physical nexus row with an `id` updates that record). The
//! export's read-only columns (`source` of a physical nexus, a transaction's calculated taxes,
//! ...) are accepted and not sent; a few columns only an import reads (a customer's `tax_id`, an
//! exemption's `certificate`, a transaction line's `external_product_id` and `quantity`) are
//! listed by [`ImportResource::columns`].

mod customers;
mod exemptions;
pub mod lookup;
mod nexus;
pub mod parse;
pub mod results;
pub mod send;
mod transactions;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::api::Upload;
use crate::effect::ImportResource;
use crate::model::format;
use crate::model::{
    CreditNoteRequest, CustomerTaxRegistrationWrite, CustomerWrite, ExemptionCreate, FieldError,
    LocPart, PhysicalNexusCreate, PhysicalNexusUpdate, Resource, TransactionCreate,
};
pub use parse::{InputFormat, ParseError, Row, Table};

/// The import's side of a resource: the columns it reads, the requests its rows make.
impl ImportResource {
    /// Every column the import reads: the export's columns, then those only an import reads.
    pub fn columns(self) -> Vec<&'static str> {
        let (export, extra) = match self {
            ImportResource::PhysicalNexus => (Resource::PhysicalNexus, &[][..]),
            ImportResource::Customers => (Resource::Customers, customers::EXTRA),
            ImportResource::Exemptions => (Resource::Exemptions, exemptions::EXTRA),
            ImportResource::Transactions => (Resource::Transactions, transactions::EXTRA),
        };
        let mut columns = export.csv_columns();
        columns.extend(extra);
        columns
    }

    /// The export's columns that are read but never sent (the service computes them).
    pub fn read_only(self) -> &'static [&'static str] {
        match self {
            ImportResource::PhysicalNexus => nexus::READ_ONLY,
            ImportResource::Customers => customers::READ_ONLY,
            ImportResource::Exemptions => exemptions::READ_ONLY,
            ImportResource::Transactions => transactions::READ_ONLY,
        }
    }

    /// The columns a file must have, given the columns it has.
    fn required(self, columns: &[String]) -> Vec<&'static str> {
        match self {
            ImportResource::PhysicalNexus => nexus::required(columns),
            ImportResource::Customers => Vec::new(),
            ImportResource::Exemptions => exemptions::REQUIRED.to_vec(),
            ImportResource::Transactions => transactions::REQUIRED.to_vec(),
        }
    }

    /// The column that must not repeat inside a file, if any.
    fn unique(self) -> Option<&'static str> {
        match self {
            ImportResource::Exemptions => None,
            _ => Some("external_id"),
        }
    }

    /// The request one row makes, or its problems.
    fn request(self, row: &Row, dir: &Path) -> Result<Request, Vec<Problem>> {
        match self {
            ImportResource::PhysicalNexus => nexus::request(row),
            ImportResource::Customers => customers::request(row),
            ImportResource::Exemptions => exemptions::request(row, dir),
            ImportResource::Transactions => transactions::request(row),
        }
    }
}

/// One thing wrong with a file: where (the row as a spreadsheet numbers it, the header being row
/// 1; and the column), the value found, and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub row: u64,
    pub column: String,
    pub value: String,
    pub rule: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.column)?;
        if !self.value.is_empty() {
            write!(f, ", value {:?}", self.value)?;
        }
        write!(f, ": {}", self.rule)
    }
}

/// What one row asks of the service, checked and typed.
#[derive(Debug, Clone)]
pub enum Request {
    PhysicalNexusCreate(Box<PhysicalNexusCreate>),
    PhysicalNexusUpdate {
        id: String,
        body: Box<PhysicalNexusUpdate>,
    },
    Customer {
        /// The customer to update; `None` creates one.
        id: Option<String>,
        body: Box<CustomerWrite>,
        tax_ids: Vec<CustomerTaxRegistrationWrite>,
    },
    Exemption {
        body: Box<ExemptionCreate>,
        certificate: Option<Upload>,
    },
    Transaction(Box<TransactionCreate>),
    CreditNote {
        /// The id of the sale it credits.
        sale: String,
        body: Box<CreditNoteRequest>,
    },
}

/// A row that passed every check, ready to send.
#[derive(Debug, Clone)]
pub struct Planned {
    pub row: u64,
    /// The row's external id, when it has one (written to the results file).
    pub external_id: Option<String>,
    pub request: Request,
}

/// The checks of a whole file: the rows ready to send and every problem found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Records in the file.
    pub rows: usize,
    pub planned: Vec<Planned>,
    /// Problems of the file's header (missing or unknown columns): no row can be sent.
    pub file_problems: Vec<Problem>,
    /// Problems of single rows, in row order.
    pub problems: Vec<Problem>,
}

impl Report {
    /// The rows with at least one problem.
    pub fn failing_rows(&self) -> BTreeSet<u64> {
        self.problems.iter().map(|p| p.row).collect()
    }

    /// The rows that fail the checks, each with its problems in one message (for the results
    /// file's `invalid` lines).
    pub fn invalid_rows(&self) -> Vec<(u64, String)> {
        let mut rows: Vec<(u64, String)> = Vec::new();
        for p in &self.problems {
            let text = format!("{}: {}", p.column, p.rule);
            match rows.last_mut() {
                Some((row, message)) if *row == p.row => {
                    message.push_str("; ");
                    message.push_str(&text);
                }
                _ => rows.push((p.row, text)),
            }
        }
        rows
    }

    /// Whether nothing at all is wrong.
    pub fn is_clean(&self) -> bool {
        self.file_problems.is_empty() && self.problems.is_empty()
    }

    /// The problems by column, most frequent first: `(column, count)`.
    pub fn by_column(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for p in self.file_problems.iter().chain(&self.problems) {
            *counts.entry(&p.column).or_default() += 1;
        }
        let mut counts: Vec<(String, usize)> =
            counts.into_iter().map(|(c, n)| (c.to_owned(), n)).collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        counts
    }

    /// Every problem, the file's first, each on a line; then a summary line.
    pub fn describe(&self, resource: ImportResource) -> String {
        let mut out = String::new();
        for p in self.file_problems.iter().chain(&self.problems) {
            out.push_str(&p.to_string());
            out.push('\n');
        }
        out.push_str(&self.summary(resource));
        out
    }

    /// `12 rows of customers: 10 ready, 2 with problems (3 problems: 2 in email, 1 in country)`.
    pub fn summary(&self, resource: ImportResource) -> String {
        let failing = self.failing_rows().len();
        let mut line = format!(
            "{} of {resource}: {} ready",
            format::count(self.rows as u64, "row"),
            self.planned.len(),
        );
        if failing > 0 {
            let _ = write!(line, ", {failing} with problems");
        }
        let total = self.file_problems.len() + self.problems.len();
        if total > 0 {
            let columns: Vec<String> = self
                .by_column()
                .iter()
                .map(|(c, n)| format!("{n} in {c}"))
                .collect();
            let _ = write!(
                line,
                " ({}: {})",
                format::count(total as u64, "problem"),
                columns.join(", ")
            );
        }
        line
    }
}

/// Checks every row of `table` as `resource`: the header (missing and unknown columns), each
/// row by the resource's rules, and the external ids repeated inside the file. `dir` is where
/// relative paths in the file (an exemption's `certificate`) are read from. Sends nothing.
pub fn check(resource: ImportResource, table: &Table, dir: &Path) -> Report {
    let mut report = Report {
        rows: table.rows.len(),
        ..Report::default()
    };
    let known = resource.columns();
    for column in &table.columns {
        if column.is_empty() || known.contains(&column.as_str()) {
            continue;
        }
        report.file_problems.push(Problem {
            row: 1,
            column: column.clone(),
            value: String::new(),
            rule: format!(
                "unknown column; {resource} are read from the columns {}",
                known.join(", ")
            ),
        });
    }
    let mut missing = BTreeSet::new();
    for column in resource.required(&table.columns) {
        if !table.columns.iter().any(|c| c == column) {
            missing.insert(column);
            report.file_problems.push(Problem {
                row: 1,
                column: column.to_owned(),
                value: String::new(),
                rule: "missing column: every row needs it".into(),
            });
        }
    }
    let mut seen: HashMap<String, u64> = HashMap::new();
    for row in &table.rows {
        let mut problems = Vec::new();
        if let Some(column) = resource.unique()
            && let Some(id) = row.get(column)
        {
            if let Some(first) = seen.get(id) {
                problems.push(Problem {
                    row: row.number,
                    column: column.to_owned(),
                    value: id.to_owned(),
                    rule: format!("{column} repeats row {first}: each row needs its own"),
                });
            } else {
                seen.insert(id.to_owned(), row.number);
            }
        }
        match resource.request(row, dir) {
            Ok(request) if problems.is_empty() => report.planned.push(Planned {
                row: row.number,
                external_id: row.get("external_id").map(str::to_owned),
                request,
            }),
            Ok(_) => {}
            // A column missing from the header is said once, not again on every row.
            Err(more) => problems.extend(
                more.into_iter()
                    .filter(|p| !missing.contains(p.column.as_str())),
            ),
        }
        report.problems.extend(problems);
    }
    report
}

/// Why a file to import was not checked: it could not be read, or not as a table.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Parse { path: PathBuf, source: ParseError },
}

/// Reads the file at `path` (its format from its name) and checks every row as `resource`;
/// relative paths inside it are read from its directory. Sends nothing.
pub fn check_file(resource: ImportResource, path: &Path) -> Result<Report, FileError> {
    let bytes = std::fs::read(path).map_err(|source| FileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let table = parse::read(&bytes, InputFormat::of(path)).map_err(|source| FileError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Ok(check(resource, &table, dir))
}

/// How a cell is read into the body before the rules check it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    /// `YYYY-MM-DD`.
    Date,
    /// A timestamp or a date: a date-shaped cell must be a day that exists.
    Timestamp,
    /// Written with a point: `12.50`.
    Decimal,
    /// `true` or `false`.
    Bool,
}

/// The cells of `row` named in `fields` (`(column, body field, kind)`) as a JSON object; an
/// empty cell is left out. A cell of the wrong shape (a comma in a decimal, a day that does not
/// exist, a boolean that is not `true`/`false`) is a problem, and its column is added to
/// `shaped`, so that the rules' own error on the same value is not reported twice.
fn fields(
    row: &Row,
    fields: &[(&str, &str, Kind)],
    problems: &mut Vec<Problem>,
    shaped: &mut BTreeSet<String>,
) -> Map<String, Value> {
    let mut body = Map::new();
    for &(column, field, kind) in fields {
        let Some(cell) = row.get(column) else {
            continue;
        };
        let mut problem = |rule: String| {
            shaped.insert(column.to_owned());
            problems.push(Problem {
                row: row.number,
                column: column.to_owned(),
                value: cell.to_owned(),
                rule,
            });
        };
        let value = match kind {
            Kind::Text => Value::String(cell.to_owned()),
            Kind::Date => {
                if let Err(rule) = crate::rules::parse_date(cell) {
                    problem(rule);
                }
                Value::String(cell.to_owned())
            }
            Kind::Timestamp => {
                if cell.len() == 10
                    && let Err(rule) = crate::rules::parse_date(cell)
                {
                    problem(rule);
                }
                Value::String(cell.to_owned())
            }
            Kind::Decimal => {
                if cell.contains(',') {
                    problem(format!(
                        "a decimal is written with a point, without thousands separators: {}",
                        cell.replace(['.', ' '], "").replace(',', ".")
                    ));
                }
                Value::String(cell.to_owned())
            }
            Kind::Bool => match cell.to_ascii_lowercase().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => {
                    problem("write true or false".into());
                    Value::String(cell.to_owned())
                }
            },
        };
        body.insert(field.to_owned(), value);
    }
    body
}

/// The rules' errors on a row's body as problems: `column` names the column of each error's
/// `loc`; errors on a column already reported for its shape are left out.
/// A row's outcome: its request when the rules took its body and the shape checks found
/// nothing, else every problem, the rules' own named by column (those already said by a shape
/// check left out).
fn settle<R>(
    checked: Result<R, Vec<FieldError>>,
    mut problems: Vec<Problem>,
    row: &Row,
    shaped: &BTreeSet<String>,
    column: impl Fn(&[LocPart]) -> String,
) -> Result<R, Vec<Problem>> {
    match checked {
        Ok(request) if problems.is_empty() => Ok(request),
        Ok(_) => Err(problems),
        Err(errors) => {
            problems.extend(rule_problems(row, errors, shaped, column));
            Err(problems)
        }
    }
}

fn rule_problems(
    row: &Row,
    errors: Vec<FieldError>,
    shaped: &BTreeSet<String>,
    column: impl Fn(&[LocPart]) -> String,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for error in errors {
        let at = error.loc.get(1..).unwrap_or_default();
        let name = column(at);
        if shaped.contains(&name) {
            continue;
        }
        let value = row.get(&name).map_or_else(
            || match &error.input {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            },
            str::to_owned,
        );
        let rule = if error.kind == "missing" {
            "required: the row needs a value here".to_owned()
        } else {
            error.msg.trim_start_matches("Value error, ").to_owned()
        };
        let problem = Problem {
            row: row.number,
            column: name,
            value,
            rule,
        };
        if !problems.contains(&problem) {
            problems.push(problem);
        }
    }
    problems
}

/// The column of a flat body's error: its field's name.
fn flat(at: &[LocPart]) -> String {
    match at.first() {
        Some(LocPart::Key(k)) => k.clone(),
        Some(LocPart::Index(i)) => i.to_string(),
        None => "(row)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        parse::read(text.as_bytes(), InputFormat::Csv).unwrap()
    }

    #[test]
    fn unknown_and_missing_columns_are_named_on_the_header_row() {
        let t = table("country_code,state_code,start_date,colour\nUS,CA,2026-01-01,red\n");
        let report = check(ImportResource::PhysicalNexus, &t, Path::new("."));
        let named: Vec<(u64, &str)> = report
            .file_problems
            .iter()
            .map(|p| (p.row, p.column.as_str()))
            .collect();
        assert_eq!(named, [(1, "colour"), (1, "category")]);
        assert!(report.file_problems[0].rule.starts_with("unknown column"));
        assert!(report.file_problems[1].rule.starts_with("missing column"));
        assert!(
            report.problems.is_empty(),
            "the missing column is not repeated on the row: {:?}",
            report.problems
        );
    }

    #[test]
    fn a_repeated_external_id_is_a_problem_of_the_later_row() {
        let t = table("external_id,name\nc-1,Ada\nc-2,Bob\nc-1,Eve\n");
        let report = check(ImportResource::Customers, &t, Path::new("."));
        assert_eq!(report.planned.len(), 2);
        assert_eq!(report.problems.len(), 1);
        let p = &report.problems[0];
        assert_eq!(
            (p.row, p.column.as_str(), p.value.as_str()),
            (4, "external_id", "c-1")
        );
        assert!(p.rule.contains("repeats row 2"), "{}", p.rule);
    }

    #[test]
    fn the_summary_counts_problems_by_column() {
        let t = table("external_id,name,email,country\nc-1,Ada,nope,GB\nc-2,Bob,also nope,XX\n");
        let report = check(ImportResource::Customers, &t, Path::new("."));
        assert_eq!(
            report.summary(ImportResource::Customers),
            "2 rows of customers: 0 ready, 2 with problems (3 problems: 2 in email, 1 in country)"
        );
    }
}
