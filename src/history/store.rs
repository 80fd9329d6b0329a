//! The one interface the history is written against: a [`Store`] takes SQL and parameters and
//! answers rows. Two stores implement it: the `SQLite` file of one person ([`super::db`]) and
//! the `PostgreSQL` server of a team ([`super::server::store`]).
//!
//! - SQL is written once, with `?1`-style parameters, in the words both dialects share
//!   (`INSERT … ON CONFLICT DO NOTHING`, `RETURNING id`, `CAST(? AS TEXT)`); the server's store
//!   numbers them `$1`. Where the dialects differ (the schema, how a transaction that writes
//!   starts, storing a page of records at once), the difference is named by [`Dialect`] at the
//!   one place that needs it.
//! - Values cross as [`Param`] (in) and [`Value`] (out): integers, text, bytes, and, for the
//!   server's one-statement batches, arrays of text and bytes.
//! - A failure is a [`DbError`] of a [`DbErrorKind`] the history turns into words naming the
//!   file or the server.

use std::fmt;

/// Which SQL a store speaks where the two differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A parameter of a statement.
#[derive(Debug, Clone, Copy)]
pub enum Param<'a> {
    Null,
    Int(i64),
    Text(&'a str),
    Blob(&'a [u8]),
}

impl<'a> From<&'a str> for Param<'a> {
    fn from(s: &'a str) -> Self {
        Param::Text(s)
    }
}

impl<'a> From<&'a String> for Param<'a> {
    fn from(s: &'a String) -> Self {
        Param::Text(s)
    }
}

impl From<i64> for Param<'_> {
    fn from(i: i64) -> Self {
        Param::Int(i)
    }
}

impl<'a, T> From<Option<T>> for Param<'a>
where
    T: Into<Param<'a>>,
{
    fn from(value: Option<T>) -> Self {
        value.map_or(Param::Null, Into::into)
    }
}

/// A column's value in a row answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Null,
    Int(i64),
    Text(String),
    Blob(Vec<u8>),
}

/// One row answered, its columns in the order selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> &Value {
        self.0.get(i).unwrap_or(&Value::Null)
    }

    /// Column `i` as an integer (0 when it is none).
    pub fn int(&self, i: usize) -> i64 {
        self.opt_int(i).unwrap_or(0)
    }

    pub fn opt_int(&self, i: usize) -> Option<i64> {
        match self.at(i) {
            Value::Int(n) => Some(*n),
            Value::Text(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// Column `i` as text (empty when it is none).
    pub fn text(&self, i: usize) -> String {
        self.opt_text(i).unwrap_or_default()
    }

    pub fn opt_text(&self, i: usize) -> Option<String> {
        match self.at(i) {
            Value::Text(s) => Some(s.clone()),
            Value::Int(n) => Some(n.to_string()),
            Value::Blob(b) => String::from_utf8(b.clone()).ok(),
            Value::Null => None,
        }
    }

    /// Column `i` as a snapshot's record body ([`super::body`]), taken out: unpacked when
    /// stored packed; `None` when it is none or damaged.
    pub fn take_body(&mut self, i: usize) -> Option<String> {
        match self.0.get_mut(i).map(|v| std::mem::replace(v, Value::Null)) {
            Some(Value::Text(s)) => Some(s),
            Some(Value::Blob(b)) => super::body::unpack(b),
            _ => None,
        }
    }

    pub fn blob(&self, i: usize) -> Vec<u8> {
        match self.at(i) {
            Value::Blob(b) => b.clone(),
            Value::Text(s) => s.as_bytes().to_vec(),
            _ => Vec::new(),
        }
    }
}

/// What kind of failure a statement met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbErrorKind {
    /// The disk or the database is full.
    Full,
    /// The file or its contents are not a database.
    Corrupt,
    /// The server cannot be reached, or the connection to it was lost.
    Unreachable,
    /// The role may not do this (a grant is missing).
    Denied,
    /// The database's schema is newer than this program knows.
    Newer { found: i64, known: i64 },
    /// Anything else.
    Other,
}

/// A failed statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbError {
    pub kind: DbErrorKind,
    pub message: String,
}

impl DbError {
    pub fn new(kind: DbErrorKind, message: impl Into<String>) -> Self {
        DbError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A database the history is kept in.
pub trait Store: Send {
    /// Which SQL it speaks where the dialects differ.
    fn dialect(&self) -> Dialect;

    /// Runs `sql`, one or several statements without parameters (the schema, `BEGIN`).
    fn batch(&self, sql: &str) -> Result<(), DbError>;

    /// Runs one statement: how many rows it changed.
    fn execute(&self, sql: &str, params: &[Param<'_>]) -> Result<u64, DbError>;

    /// Runs one statement: the rows it answers.
    fn query(&self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DbError>;

    /// Stages a page of a snapshot's records, in order, in the connection's own
    /// `staged_records`: all of the page or none of it.
    fn stage(&self, records: &[StagedRecord<'_>]) -> Result<(), DbError>;

    /// Stores snapshot bodies, each its hash and its body as stored ([`super::body::pack`]),
    /// those already stored skipped.
    fn store_bodies(&self, bodies: &[(&[u8], &[u8])]) -> Result<(), DbError> {
        for (hash, body) in bodies {
            self.execute(
                super::snapshot::INSERT_BODY,
                &[Param::Blob(hash), Param::Blob(body)],
            )?;
        }
        Ok(())
    }

    /// A count that changes whenever the store's connection is made anew (a server that went
    /// away and came back): what a connection kept for itself (staged records) is gone then.
    fn epoch(&self) -> u64 {
        0
    }

    /// The file's connection, for what only `SQLite` has (its pragmas).
    fn sqlite(&self) -> Option<&rusqlite::Connection> {
        None
    }
}

/// One record staged: its resource's name, id and its body's hash.
#[derive(Debug, Clone, Copy)]
pub struct StagedRecord<'a> {
    pub resource: &'a str,
    pub id: &'a str,
    pub hash: &'a [u8],
}

/// `sql` with its `?N` parameters written `$N`, as the server reads them. A `?` inside a quoted
/// string is left as it is.
pub fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    for c in sql.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => out.push('$'),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_for_the_server_outside_quotes() {
        assert_eq!(
            numbered("SELECT x FROM t WHERE a = ?1 AND b = '?' AND c = ?12"),
            "SELECT x FROM t WHERE a = $1 AND b = '?' AND c = $12"
        );
    }

    #[test]
    fn a_row_reads_its_columns_as_asked() {
        let mut row = Row(vec![
            Value::Int(7),
            Value::Text("a".into()),
            Value::Null,
            Value::Blob(vec![1, 2]),
        ]);
        assert_eq!(row.int(0), 7);
        assert_eq!(row.text(1), "a");
        assert_eq!(row.opt_text(2), None);
        assert_eq!(row.int(2), 0);
        assert_eq!(row.blob(3), [1, 2]);
        assert_eq!(row.take_body(1).as_deref(), Some("a"));
        assert_eq!(row.opt_text(1), None);
        assert_eq!(row.opt_int(9), None);
    }
}
