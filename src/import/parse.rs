//! Reading an import file: CSV (UTF-8, with or without a byte order mark, `,` or `;` separated,
//! detected from the header line), JSON (one array of objects) and JSON Lines (one object a
//! line), into rows of named text cells.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde_json::Value;

/// How an import file is written, from its name: `.json`, `.jsonl` / `.ndjson`, else CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    Csv,
    Json,
    Jsonl,
}

impl InputFormat {
    /// The format a file's extension names; CSV unless `.json`, `.jsonl` or `.ndjson`.
    pub fn of(path: &Path) -> Self {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("json") => InputFormat::Json,
            Some("jsonl" | "ndjson") => InputFormat::Jsonl,
            _ => InputFormat::Csv,
        }
    }
}

/// One record of the file: its row number as a spreadsheet shows it (the header is row 1, so
/// the first record is row 2; in JSON Lines the line number, in a JSON array the item's place
/// counted from 2 likewise) and its cells by column name. An empty cell is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    pub number: u64,
    pub cells: BTreeMap<String, String>,
}

impl Row {
    /// The cell of `column`, trimmed; `None` when absent or blank.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.cells
            .get(column)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    }
}

/// The columns and rows of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// The header's names in order (for JSON, every key met, in the order first met).
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

/// A file that cannot be read as a table at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// Reads `bytes` in `format`.
pub fn read(bytes: &[u8], format: InputFormat) -> Result<Table, ParseError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ParseError(format!("the file is not UTF-8 text ({e})")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        InputFormat::Csv => read_csv(text),
        InputFormat::Json => read_json(text),
        InputFormat::Jsonl => read_jsonl(text),
    }
}

/// The separator of a CSV file: `;` when the header line has more of them than commas (outside
/// quotes), else `,`.
fn separator(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or_default();
    let (mut commas, mut semicolons, mut quoted) = (0, 0, false);
    for c in header.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => commas += 1,
            ';' if !quoted => semicolons += 1,
            _ => {}
        }
    }
    if semicolons > commas { b';' } else { b',' }
}

fn read_csv(text: &str) -> Result<Table, ParseError> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator(text))
        .flexible(true)
        .from_reader(text.as_bytes());
    let columns: Vec<String> = reader
        .headers()
        .map_err(|e| ParseError(format!("the header line cannot be read: {e}")))?
        .iter()
        .map(|h| h.trim().to_owned())
        .collect();
    if columns.iter().all(String::is_empty) {
        return Err(ParseError("the file has no header line".into()));
    }
    let mut rows = Vec::new();
    // Lines counted up to `counted` bytes in, so each record's line costs only the bytes since
    // the previous one.
    let (mut counted, mut line) = (0, 1);
    for record in reader.records() {
        let record = record.map_err(|e| ParseError(format!("the file is not valid CSV: {e}")))?;
        // The line the record starts on, blank lines counted (the csv reader skips them).
        let number = record.position().map_or(0, |p| {
            let mut start = usize::try_from(p.byte())
                .unwrap_or(usize::MAX)
                .min(text.len());
            let bytes = text.as_bytes();
            while start < bytes.len() && matches!(bytes[start], b'\r' | b'\n') {
                start += 1;
            }
            let start = start.max(counted);
            line += bytes[counted..start].split(|&b| b == b'\n').count() as u64 - 1;
            counted = start;
            line
        });
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if record.len() > columns.len() {
            return Err(ParseError(format!(
                "row {number} has {} cells but the header names {} columns",
                record.len(),
                columns.len()
            )));
        }
        let cells = columns
            .iter()
            .zip(record.iter())
            .filter(|(name, value)| !name.is_empty() && !value.trim().is_empty())
            .map(|(name, value)| (name.clone(), value.to_owned()))
            .collect();
        rows.push(Row { number, cells });
    }
    Ok(Table { columns, rows })
}

fn read_json(text: &str) -> Result<Table, ParseError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ParseError(format!("the file is not valid JSON: {e}")))?;
    let Value::Array(items) = value else {
        return Err(ParseError("the file is not a JSON array of records".into()));
    };
    let mut table = Table::default();
    for (i, item) in items.into_iter().enumerate() {
        table.push(i as u64 + 2, item)?;
    }
    Ok(table)
}

fn read_jsonl(text: &str) -> Result<Table, ParseError> {
    let mut table = Table::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = i as u64 + 1;
        let item: Value = serde_json::from_str(line)
            .map_err(|e| ParseError(format!("line {number} is not valid JSON: {e}")))?;
        table.push(number, item)?;
    }
    Ok(table)
}

impl Table {
    /// Adds a JSON record as a row: strings as they are, numbers and booleans as their text,
    /// `null` as an empty cell, a list or object as its JSON text (which the rules then refuse).
    fn push(&mut self, number: u64, item: Value) -> Result<(), ParseError> {
        let Value::Object(fields) = item else {
            return Err(ParseError(format!("record {number} is not a JSON object")));
        };
        let mut cells = BTreeMap::new();
        for (key, value) in fields {
            if !self.columns.contains(&key) {
                self.columns.push(key.clone());
            }
            let text = match value {
                Value::Null => continue,
                Value::String(s) => s,
                other => other.to_string(),
            };
            if !text.trim().is_empty() {
                cells.insert(key, text);
            }
        }
        self.rows.push(Row { number, cells });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell<'t>(t: &'t Table, row: usize, col: &str) -> Option<&'t str> {
        t.rows[row].get(col)
    }

    #[test]
    fn csv_with_a_bom_and_semicolons_reads_like_plain_csv() {
        let plain = read(b"a,b\n1,\"x,y\"\n\n3,\n", InputFormat::Csv).unwrap();
        let excel = read(
            "\u{feff}a;b\r\n1;x,y\r\n\r\n3;\r\n".as_bytes(),
            InputFormat::Csv,
        )
        .unwrap();
        for t in [&plain, &excel] {
            assert_eq!(t.columns, ["a", "b"]);
            assert_eq!(t.rows.len(), 2);
            assert_eq!(cell(t, 0, "b"), Some("x,y"));
            assert_eq!(t.rows[0].number, 2);
            assert_eq!(t.rows[1].number, 4, "the blank line still counts");
            assert_eq!(cell(t, 1, "b"), None, "an empty cell is absent");
        }
    }

    #[test]
    fn json_and_json_lines_turn_values_into_cells() {
        let json = read(
            br#"[{"a": "x", "n": 12.5, "b": true, "z": null}, {"a": "y"}]"#,
            InputFormat::Json,
        )
        .unwrap();
        assert_eq!(json.columns, ["a", "b", "n", "z"]);
        assert_eq!(cell(&json, 0, "n"), Some("12.5"));
        assert_eq!(cell(&json, 0, "b"), Some("true"));
        assert_eq!(cell(&json, 0, "z"), None);
        assert_eq!(json.rows[1].number, 3);
        let lines = read(b"{\"a\": \"x\"}\n\n{\"a\": \"y\"}\n", InputFormat::Jsonl).unwrap();
        assert_eq!(lines.rows[1].number, 3, "the line number");
        assert!(
            read(b"{\"a\": 1}\nnope\n", InputFormat::Jsonl)
                .unwrap_err()
                .0
                .contains("line 2")
        );
    }

    #[test]
    fn the_format_follows_the_extension() {
        assert_eq!(InputFormat::of(Path::new("a.JSON")), InputFormat::Json);
        assert_eq!(InputFormat::of(Path::new("a.jsonl")), InputFormat::Jsonl);
        assert_eq!(InputFormat::of(Path::new("a.csv")), InputFormat::Csv);
        assert_eq!(InputFormat::of(Path::new("a.txt")), InputFormat::Csv);
    }
}
