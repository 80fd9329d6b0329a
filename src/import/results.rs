//! The results file of an import, `FILE.results.csv` beside the input: one line per row
//! (`row,outcome,id,external_id,message`), so a spreadsheet counts the rows of the input.
//!
//! Each outcome is written and flushed as it is known, so a run stopped at any moment (Ctrl-C, a
//! lost network, a killed process) leaves a file that says which rows are done. A row whose
//! request has left is first noted in the journal beside it, `FILE.results.csv.journal`, which
//! then keeps every line of the run in order: a row noted there without an outcome was on its way
//! when the run stopped. At the end of a run the results file is rewritten (whole, then renamed
//! into place) with each row's last line, in row order, and the journal is removed; a run
//! stopped before that leaves both, and [`read`] reads them together.
//!
//! Outcomes: `sending` (the request left; the answer is not known yet), `created`, `updated`,
//! `exists` (the service already had it; the message says what matched), `failed` (the service
//! refused it, or it could not be reached; the message says why), `invalid` (skipped by
//! `--skip-invalid`: the message lists its problems). `--resume` skips the rows whose last line
//! is `created`, `updated` or `exists`.

use std::collections::{BTreeMap, HashMap};
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

impl Line {
    fn record(&self) -> [String; 5] {
        [
            self.row.to_string(),
            self.outcome.as_str().to_owned(),
            self.id.clone().unwrap_or_default(),
            self.external_id.clone().unwrap_or_default(),
            self.message.clone(),
        ]
    }

    /// The line of a record, `None` for one that is not (a line cut short by a killed process).
    fn of(record: &csv::StringRecord) -> Option<Line> {
        let row = record.get(0)?.parse().ok()?;
        let outcome = record.get(1).and_then(Outcome::parse)?;
        let text = |i: usize| record.get(i).filter(|s| !s.is_empty()).map(str::to_owned);
        Some(Line {
            row,
            outcome,
            id: text(2),
            external_id: text(3),
            message: text(4).unwrap_or_default(),
        })
    }
}

const HEADER: [&str; 5] = ["row", "outcome", "id", "external_id", "message"];

/// The results file beside `input`: `input` with `.results.csv` added to its name.
pub fn path_beside(input: &Path) -> PathBuf {
    let mut name = input.file_name().unwrap_or_default().to_os_string();
    name.push(".results.csv");
    input.with_file_name(name)
}

/// The journal of the results file at `results`: `.journal` added to its name.
pub fn journal_path(results: &Path) -> PathBuf {
    let mut name = results.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// The results file and its journal, open for appending.
struct Files {
    results: csv::Writer<File>,
    /// Opened at the first line written.
    journal: Option<csv::Writer<File>>,
}

/// Where the results are written, one flushed line at a time; shared by the rows in flight.
pub struct Results {
    path: PathBuf,
    out: Mutex<Files>,
}

fn appending(path: &Path) -> io::Result<csv::Writer<File>> {
    let file = OpenOptions::new().append(true).create(true).open(path)?;
    Ok(csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(file))
}

impl Results {
    /// A new file at `path` (replacing one there, and its journal), with its header.
    pub fn create(path: &Path) -> io::Result<Self> {
        match std::fs::remove_file(journal_path(path)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let file = File::create(path)?;
        let mut out = csv::Writer::from_writer(file);
        out.write_record(HEADER).map_err(io::Error::other)?;
        out.flush()?;
        Ok(Results {
            path: path.to_owned(),
            out: Mutex::new(Files {
                results: out,
                journal: None,
            }),
        })
    }

    /// The file at `path`, its lines kept and new ones appended (for `--resume`).
    pub fn append(path: &Path) -> io::Result<Self> {
        let results = OpenOptions::new().append(true).open(path)?;
        Ok(Results {
            path: path.to_owned(),
            out: Mutex::new(Files {
                results: csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(results),
                journal: None,
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `line` and flushes it: to the journal, and, unless the row is only on its way
    /// (`sending`), to the results file.
    pub fn write(&self, line: &Line) -> io::Result<()> {
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        let record = line.record();
        if out.journal.is_none() {
            out.journal = Some(appending(&journal_path(&self.path))?);
        }
        if let Some(journal) = &mut out.journal {
            journal.write_record(&record).map_err(io::Error::other)?;
            journal.flush()?;
        }
        if line.outcome != Outcome::Sending {
            out.results
                .write_record(&record)
                .map_err(io::Error::other)?;
            out.results.flush()?;
        }
        Ok(())
    }

    /// Leaves the results file with one line per row, its last, in row order: written whole
    /// beside it, made durable, renamed over it; then the journal is removed.
    pub fn finish(&self) -> io::Result<()> {
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        out.results.flush()?;
        if let Some(journal) = &mut out.journal {
            journal.flush()?;
        }
        let last = read(&self.path).map_err(io::Error::other)?;
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut temp = tempfile::NamedTempFile::new_in(dir)?;
        {
            let mut writer = csv::Writer::from_writer(temp.as_file_mut());
            writer.write_record(HEADER).map_err(io::Error::other)?;
            let ordered: BTreeMap<u64, Line> = last.into_iter().collect();
            for line in ordered.values() {
                writer
                    .write_record(line.record())
                    .map_err(io::Error::other)?;
            }
            writer.flush()?;
        }
        temp.as_file().sync_all()?;
        temp.persist(&self.path).map_err(|e| e.error)?;
        out.results = appending(&self.path)?;
        out.journal = None;
        match std::fs::remove_file(journal_path(&self.path)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Each row's last line: the results file at `path`, then, over it, its journal when a run
/// stopped before its end left one.
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
    for line in reader.records().filter_map(|r| Line::of(&r.ok()?)) {
        last.insert(line.row, line);
    }
    let journal = journal_path(path);
    match File::open(&journal) {
        Ok(file) => {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(file);
            for line in reader.records().filter_map(|r| Line::of(&r.ok()?)) {
                last.insert(line.row, line);
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(format!(
                "the journal {} of an unfinished run cannot be read: {e}",
                journal.display()
            ));
        }
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_of_a_row_is_its_state_and_the_end_of_a_run_keeps_only_it() {
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
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains(",sending,"),
            "a row on its way is noted in the journal only: {text}"
        );

        // The end of a run: one line per row, in row order; the journal gone.
        let results = Results::append(&path).unwrap();
        results
            .write(&line(4, Outcome::Exists, Some("x_4")))
            .unwrap();
        results.write(&line(1, Outcome::Invalid, None)).unwrap();
        results.finish().unwrap();
        let rows: Vec<String> = csv::Reader::from_path(&path)
            .unwrap()
            .records()
            .map(|r| {
                let r = r.unwrap();
                format!("{},{}", &r[0], &r[1])
            })
            .collect();
        assert_eq!(rows, ["1,invalid", "2,created", "3,sending", "4,exists"]);
        assert!(!journal_path(&path).exists());
        assert_eq!(
            read(&path).unwrap()[&4],
            line(4, Outcome::Exists, Some("x_4"))
        );

        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        assert!(read(&path).unwrap_err().contains("not a results file"));
    }
}
