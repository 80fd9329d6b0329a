//! `taxdash import`: reading and checking the file, the profile and the client, the progress
//! line, the results file and the signals around [`crate::import`].

use std::collections::{BTreeSet, HashMap};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::StreamExt;

use super::export::Service;
use super::{Context, Failure};
use crate::api::{Client, ClientConfig};
use crate::app::signals::{Signal, listen};
use crate::app::start_demo;
use crate::cli::ImportArgs;
use crate::export::{Retries, count_progress, titled_progress_bar};
use crate::import::results::{self, Line, Outcome, Results};
use crate::import::send::{self, DEFAULT_CONCURRENCY, Sent};
use crate::import::{InputFormat, Report, check, parse};

/// Runs `taxdash import`: reads and checks the whole file (nothing is sent yet, and no profile
/// is needed for `--dry-run`), then, when every row passes (or `--skip-invalid`), sends the rows
/// and writes the results file. `out` receives the dry run's report and the closing line.
pub async fn run(
    ctx: &Context,
    args: &ImportArgs,
    service: Service,
    out: &mut (dyn Write + Send),
) -> Result<(), Failure> {
    let report = read_and_check(args)?;
    let resource = args.resource;
    if args.dry_run {
        let _ = writeln!(out, "{}", report.describe(resource));
        return if report.is_clean() {
            Ok(())
        } else {
            Err(Failure::new("some rows fail the checks; nothing was sent"))
        };
    }
    if !report.file_problems.is_empty() || (!report.problems.is_empty() && !args.skip_invalid) {
        let mut stderr = std::io::stderr();
        let _ = writeln!(stderr, "{}", report.describe(resource));
        let hint = if report.file_problems.is_empty() {
            " (--skip-invalid sends the rows that pass)"
        } else {
            ""
        };
        return Err(Failure::new(format!(
            "nothing was sent: the file fails the checks{hint}"
        )));
    }

    let (results, previous) = if let Some(path) = &args.resume {
        {
            let previous = results::read(path).map_err(Failure::new)?;
            let results = Results::append(path)
                .map_err(|e| Failure::new(format!("cannot write to {}: {e}", path.display())))?;
            (results, previous)
        }
    } else {
        {
            let path = results::path_beside(&args.file);
            let results = Results::create(&path)
                .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display())))?;
            (results, HashMap::default())
        }
    };
    let written =
        |e: std::io::Error| Failure::new(format!("cannot write {}: {e}", results.path().display()));
    for (row, rules) in invalid_rows(&report) {
        if previous
            .get(&row)
            .is_none_or(|l: &Line| !l.outcome.is_done())
        {
            results
                .write(&Line {
                    row,
                    outcome: Outcome::Invalid,
                    id: None,
                    external_id: None,
                    message: rules,
                })
                .map_err(written)?;
        }
    }
    let (jobs, done) = send::resume(report.planned, &previous);

    let (client, sandbox) = client(ctx, service).await?;
    let progress = titled_progress_bar(format!("importing {resource}"));
    count_progress(&progress, jobs.len() as u64);
    let retries = Retries::default();
    let terminal = std::io::stderr().is_terminal();
    let client = client.with_retry_observer(retries.observer(move |notice| {
        if !terminal {
            let _ = writeln!(std::io::stderr(), "taxdash: {}: {notice}", notice.what);
        }
    }));
    let mut signals = listen(Signal::ENDING)
        .map_err(|e| Failure::new(format!("could not listen to signals: {e}")))?;
    let stop = AtomicBool::new(false);
    let mut stopped_by = None;
    let work = retries.scope(send::send(
        &client,
        jobs,
        DEFAULT_CONCURRENCY,
        &results,
        &progress,
        &stop,
    ));
    tokio::pin!(work);
    let sent = loop {
        tokio::select! {
            sent = &mut work => break sent,
            Some(signal) = signals.next(), if stopped_by.is_none() => {
                // The rows in flight finish and are written; no new row starts.
                stop.store(true, Ordering::SeqCst);
                stopped_by = Some(signal);
            }
        }
    };
    progress.finish_and_clear();
    if let Some(sandbox) = sandbox {
        sandbox.stop().await;
    }
    let sent = sent.map_err(written)?;
    let skipped = report
        .problems
        .iter()
        .map(|p| p.row)
        .collect::<BTreeSet<_>>()
        .len();
    let _ = writeln!(
        out,
        "{}",
        closing(resource.name(), &sent, done, skipped, results.path())
    );
    if let Some(signal) = stopped_by {
        return Err(Failure {
            message: format!(
                "{}; --resume {} sends the rest",
                signal.outcome(),
                results.path().display()
            ),
            exit_code: signal.exit_code(),
        });
    }
    if sent.failed > 0 {
        return Err(Failure::new(format!(
            "{} {} failed; see {} (--resume sends them again)",
            sent.failed,
            if sent.failed == 1 { "row" } else { "rows" },
            results.path().display()
        )));
    }
    Ok(())
}

/// The file read and checked.
fn read_and_check(args: &ImportArgs) -> Result<Report, Failure> {
    let shown = args.file.display();
    let bytes =
        std::fs::read(&args.file).map_err(|e| Failure::new(format!("cannot read {shown}: {e}")))?;
    let table = parse::read(&bytes, InputFormat::of(&args.file))
        .map_err(|e| Failure::new(format!("{shown}: {e}")))?;
    let dir = match args.file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Ok(check(args.resource, &table, dir))
}

/// The rows that fail the checks, each with its problems in one message.
fn invalid_rows(report: &Report) -> Vec<(u64, String)> {
    let mut rows: Vec<(u64, String)> = Vec::new();
    for p in &report.problems {
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

/// The client of the profile, or of the demo sandbox (started here, returned to be stopped).
async fn client(
    ctx: &Context,
    service: Service,
) -> Result<(Client, Option<crate::sandbox::Sandbox>), Failure> {
    let (config, sandbox) = match service {
        Service::Profile => {
            let profile = ctx.resolve().await.map_err(Failure::new)?;
            (ClientConfig::from_profile(&profile), None)
        }
        Service::Demo(api) => {
            let (sandbox, config) = start_demo(api)
                .await
                .map_err(|e| Failure::new(format!("the demo sandbox could not start: {e}")))?;
            (config, Some(sandbox))
        }
    };
    match config.with_env(&*ctx.env).and_then(Client::new) {
        Ok(client) => Ok((client, sandbox)),
        Err(e) => {
            if let Some(sandbox) = sandbox {
                sandbox.stop().await;
            }
            Err(Failure::new(e))
        }
    }
}

/// `imported 10 transactions: 8 created, 1 already there, 1 failed (2 done before, 1 invalid
/// skipped); results in in.csv.results.csv`.
fn closing(resource: &str, sent: &Sent, done: usize, skipped: usize, path: &Path) -> String {
    let total = sent.created + sent.updated + sent.exists + sent.failed;
    let mut parts = Vec::new();
    for (n, what) in [
        (sent.created, "created"),
        (sent.updated, "updated"),
        (sent.exists, "already there"),
        (sent.failed, "failed"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    if parts.is_empty() {
        parts.push("nothing to send".into());
    }
    let mut before = Vec::new();
    if done > 0 {
        before.push(format!("{done} done before"));
    }
    if skipped > 0 {
        before.push(format!("{skipped} invalid skipped"));
    }
    let before = if before.is_empty() {
        String::new()
    } else {
        format!(" ({})", before.join(", "))
    };
    format!(
        "imported {total} {resource}: {}{before}; results in {}",
        parts.join(", "),
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_counts_each_outcome() {
        let sent = Sent {
            created: 8,
            updated: 0,
            exists: 1,
            failed: 1,
        };
        assert_eq!(
            closing("transactions", &sent, 2, 1, Path::new("in.csv.results.csv")),
            "imported 10 transactions: 8 created, 1 already there, 1 failed \
             (2 done before, 1 invalid skipped); results in in.csv.results.csv"
        );
    }
}
