//! `taxdash audit`: the changes taxdash has sent, from the history database's audit log, newest
//! first, as a table, CSV, JSON or JSON Lines.

use std::io::Write;

use super::CommandFailure;
use crate::cli::{AuditArgs, AuditFormat};
use crate::history::audit::{Entry, Filter, Outcome};
use crate::history::{AuditLog, Location};

/// Prints the entries `args` selects from the history (`--history`, `TAXDASH_HISTORY`, the
/// profile's `history` key, else the platform file) to `out`. A file that does not exist yet
/// has no entries (and is not made); a history that cannot be read is an error naming it.
pub async fn run(
    ctx: &super::Context,
    args: &AuditArgs,
    demo: bool,
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
        who: args.who.clone(),
    };
    let entries = match ctx.history_location(demo)? {
        Location::File(path) if !path.exists() => Vec::new(),
        // The demo's log lasts as long as the dashboard that recorded it.
        Location::Memory => {
            eprintln!(
                "taxdash: the demo keeps its audit log for the session of its dashboard only; \
                 start both with --history FILE to read it here"
            );
            Vec::new()
        }
        _ => {
            let log = AuditLog::new(ctx.open_history(false).await?);
            tokio::task::spawn_blocking(move || log.entries(&filter))
                .await
                .map_err(|e| CommandFailure::new(format!("the audit log could not be read: {e}")))?
                .map_err(CommandFailure::new)?
        }
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

const COLUMNS: [&str; 17] = [
    "id",
    "started_at",
    "finished_at",
    "who",
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

fn row(e: &Entry) -> [String; 17] {
    let time =
        |t: &chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    [
        e.id.to_string(),
        time(&e.started_at),
        e.finished_at.as_ref().map(time).unwrap_or_default(),
        e.who.clone(),
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
    // Who sent each: `-` for entries recorded before taxdash kept it; as wide as the longest.
    let who = |e: &Entry| e.who_shown().to_owned();
    let who_width = entries
        .iter()
        .map(|e| who(e).chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    writeln!(
        out,
        "{:<23}  {:<who_width$}  {:<7}  {:<8}  {:<6}  {:<20}  {:<24}  PATH",
        "STARTED", "WHO", "OUTCOME", "STATUS", "METHOD", "RESOURCE", "RECORD"
    )?;
    for e in entries {
        writeln!(
            out,
            "{:<23}  {:<who_width$}  {:<7}  {:<8}  {:<6}  {:<20}  {:<24}  {}",
            crate::model::format::utc_time_seconds(e.started_at),
            who(e),
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
