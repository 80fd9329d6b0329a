//! `taxdash audit`: the changes taxdash has sent, from the history database's audit log, newest
//! first, as a table, CSV, JSON or JSON Lines.

use std::io::Write;
use std::path::Path;

use super::CommandFailure;
use crate::cli::{AuditArgs, AuditFormat};
use crate::history::audit::{Entry, Filter, Outcome};
use crate::history::{AuditLog, History, db};

/// Prints the entries `args` selects from the history database (`history`: `--history` or
/// `TAXDASH_HISTORY`, else the platform one) to `out`. A database that does not exist yet has
/// no entries (and is not made); one that cannot be read is an error naming it.
pub fn run(
    history: Option<&Path>,
    args: &AuditArgs,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    let outcome = args
        .outcome
        .as_deref()
        .map(|o| {
            Outcome::parse(o).ok_or_else(|| {
                CommandFailure::new(format!(
                    "--outcome {o:?} is not one of {}",
                    Outcome::ALL.map(Outcome::name).join(", ")
                ))
            })
        })
        .transpose()?;
    let filter = Filter {
        since: args.since,
        resource: args.resource.clone(),
        outcome,
        who: None,
    };
    let path = db::default_path(history).map_err(CommandFailure::new)?;
    let entries = if path.exists() {
        AuditLog::new(History::open(&path).map_err(CommandFailure::new)?)
            .entries(&filter)
            .map_err(CommandFailure::new)?
    } else {
        Vec::new()
    };
    write(&entries, args.format, out)
        .map_err(|e| CommandFailure::new(format!("could not write the entries: {e}")))
}

/// The entries in `format`.
pub fn write(entries: &[Entry], format: AuditFormat, out: &mut dyn Write) -> std::io::Result<()> {
    match format {
        AuditFormat::Table => table(entries, out),
        AuditFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, entries)?;
            writeln!(out)
        }
        AuditFormat::Jsonl => {
            for e in entries {
                serde_json::to_writer(&mut *out, e)?;
                writeln!(out)?;
            }
            Ok(())
        }
        AuditFormat::Csv => {
            let mut csv = csv::Writer::from_writer(out);
            csv.write_record(COLUMNS)?;
            for e in entries {
                csv.write_record(row(e))?;
            }
            csv.flush()
        }
    }
}

const COLUMNS: [&str; 16] = [
    "id",
    "started_at",
    "finished_at",
    "profile",
    "organization",
    "generation",
    "api_release",
    "method",
    "path",
    "resource",
    "record_id",
    "outcome",
    "status",
    "request_id",
    "error",
    "body",
];

fn row(e: &Entry) -> [String; 16] {
    let time =
        |t: &chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    [
        e.id.to_string(),
        time(&e.started_at),
        e.finished_at.as_ref().map(time).unwrap_or_default(),
        e.profile.clone(),
        e.organization.clone(),
        e.generation.clone(),
        e.api_release.clone().unwrap_or_default(),
        e.method.clone(),
        e.path.clone(),
        e.resource.clone(),
        e.record_id.clone().unwrap_or_default(),
        e.outcome.name().to_owned(),
        e.status.map(|s| s.to_string()).unwrap_or_default(),
        e.request_id.clone().unwrap_or_default(),
        e.error.clone().unwrap_or_default(),
        if e.body.is_null() {
            String::new()
        } else {
            e.body.to_string()
        },
    ]
}

fn table(entries: &[Entry], out: &mut dyn Write) -> std::io::Result<()> {
    if entries.is_empty() {
        return writeln!(out, "No change recorded.");
    }
    writeln!(
        out,
        "{:<23}  {:<7}  {:<8}  {:<6}  {:<20}  {:<24}  PATH",
        "STARTED", "OUTCOME", "STATUS", "METHOD", "RESOURCE", "RECORD"
    )?;
    for e in entries {
        writeln!(
            out,
            "{:<23}  {:<7}  {:<8}  {:<6}  {:<20}  {:<24}  {}",
            crate::model::format::utc_time_seconds(e.started_at),
            e.outcome.name(),
            e.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
            e.method,
            e.resource,
            e.record_id.as_deref().unwrap_or("-"),
            e.path,
        )?;
    }
    Ok(())
}
