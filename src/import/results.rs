//! The results file of an import, `FILE.results.csv` beside the input: one line per event of a
//! row (`row,outcome,id,external_id,message`), written and flushed as each happens, so a run
//! stopped at any moment (Ctrl-C, a lost network, a killed process) leaves a file that says
//! which rows are done. A row's last line is its state.
//!
//! Outcomes: `sending` (the request left; the answer is not known yet), `created`, `updated`,
//! `exists` (the service already had it: a transaction of the same external id), `failed` (the
//! service refused it, or it could not be reached; the message says why), `invalid` (skipped by
//! `--skip-invalid`: the message lists its problems). `--resume` skips the rows whose last line
//! is `created`, `updated` or `exists`.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// What happened to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Sending,
    Created,
    Updated,
    Exists,
    Failed,
    Invalid,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Sending => "sending",
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Exists => "exists",
            Outcome::Failed => "failed",
            Outcome::Invalid => "invalid",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [
            Outcome::Sending,
            Outcome::Created,
            Outcome::Updated,
            Outcome::Exists,
            Outcome::Failed,
            Outcome::Invalid,
        ]
        .into_iter()
        .find(|o| o.as_str() == s)
    }

    /// Whether the row needs nothing more.
    pub fn is_done(self) -> bool {
        matches!(self, Outcome::Created | Outcome::Updated | Outcome::Exists)
    }
}

/// One line of the results file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub row: u64,
    pub outcome: Outcome,
    /// The record's id on the service, when known.
    pub id: Option<String>,
    pub external_id: Option<String>,
    pub message: String,
}

const HEADER: [&str; 5] = ["row", "outcome", "id", "external_id", "message"];

/// The results file beside `input`: `input` with `.results.csv` added to its name.
pub fn path_beside(input: &Path) -> PathBuf {
    let mut name = input.file_name().unwrap_or_default().to_os_string();
    name.push(".results.csv");
    input.with_file_name(name)
}

/// Where the results are written, one flushed line at a time; shared by the rows in flight.
pub struct Results {
    path: PathBuf,
    out: Mutex<csv::Writer<File>>,
}

impl Results {
    /// A new file at `path` (replacing one there), with its header.
    pub fn create(path: &Path) -> io::Result<Self> {
        let file = File::create(path)?;
        let mut out = csv::Writer::from_writer(file);
        out.write_record(HEADER).map_err(io::Error::other)?;
        out.flush()?;
        Ok(Results {
            path: path.to_owned(),
            out: Mutex::new(out),
        })
    }

    /// The file at `path`, its lines kept and new ones appended (for `--resume`).
    pub fn append(path: &Path) -> io::Result<Self> {
        let file = OpenOptions::new().append(true).open(path)?;
        let out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        Ok(Results {
            path: path.to_owned(),
            out: Mutex::new(out),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `line` and flushes it to the file.
    pub fn write(&self, line: &Line) -> io::Result<()> {
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        let row = line.row.to_string();
        out.write_record([
            row.as_str(),
            line.outcome.as_str(),
            line.id.as_deref().unwrap_or_default(),
            line.external_id.as_deref().unwrap_or_default(),
            line.message.as_str(),
        ])
        .map_err(io::Error::other)?;
        out.flush()
    }
}

/// Each row's last line in the results file at `path`.
pub fn read(path: &Path) -> Result<HashMap<u64, Line>, String> {
    let shown = path.display();
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| format!("the results file {shown} cannot be read: {e}"))?;
    let header = reader
        .headers()
        .map_err(|e| format!("the results file {shown} cannot be read: {e}"))?;
    if header.iter().collect::<Vec<_>>() != HEADER {
        return Err(format!(
            "{shown} is not a results file of taxdash import (its header is not {})",
            HEADER.join(",")
        ));
    }
    let mut last = HashMap::new();
    for record in reader.records() {
        // A line cut short by a killed process is the last one; it is skipped.
        let Ok(record) = record else { continue };
        let (Some(row), Some(outcome)) = (
            record.get(0).and_then(|r| r.parse().ok()),
            record.get(1).and_then(Outcome::parse),
        ) else {
            continue;
        };
        let text = |i: usize| record.get(i).filter(|s| !s.is_empty()).map(str::to_owned);
        last.insert(
            row,
            Line {
                row,
                outcome,
                id: text(2),
                external_id: text(3),
                message: text(4).unwrap_or_default(),
            },
        );
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_of_a_row_is_its_state() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_beside(&dir.path().join("in.csv"));
        assert!(path.ends_with("in.csv.results.csv"));
        let line = |row, outcome, id: Option<&str>| Line {
            row,
            outcome,
            id: id.map(str::to_owned),
            external_id: Some(format!("e-{row}")),
            message: "a, \"quoted\" message".into(),
        };
        let results = Results::create(&path).unwrap();
        results.write(&line(2, Outcome::Sending, None)).unwrap();
        results
            .write(&line(2, Outcome::Created, Some("x_1")))
            .unwrap();
        results.write(&line(3, Outcome::Sending, None)).unwrap();
        drop(results);
        let results = Results::append(&path).unwrap();
        results.write(&line(4, Outcome::Failed, None)).unwrap();
        drop(results);
        let last = read(&path).unwrap();
        assert_eq!(last[&2], line(2, Outcome::Created, Some("x_1")));
        assert_eq!(last[&3].outcome, Outcome::Sending);
        assert_eq!(last[&4].outcome, Outcome::Failed);
        assert!(last[&2].outcome.is_done() && !last[&3].outcome.is_done());

        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        assert!(read(&path).unwrap_err().contains("not a results file"));
    }
}
