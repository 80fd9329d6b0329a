//! `taxdash import`: reading and checking the file, the profile and the client, the progress
//! line, the results file and the signals around [`crate::import`].

use std::collections::{BTreeSet, HashMap};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use futures::StreamExt;

use super::export::Service;
use super::{CommandFailure, Context};
use crate::cli::ImportArgs;
use crate::export::{Retries, count_progress, titled_progress_bar};
use crate::import::check_file;
use crate::import::results::{self, Line, Outcome, Results};
use crate::import::send::{self, DEFAULT_CONCURRENCY};
use crate::os::signals::{Signal, listen};

/// Runs `taxdash import`: reads and checks the whole file (nothing is sent yet, and no profile
/// is needed for `--dry-run`), then, when every row passes (or `--skip-invalid`), sends the rows
/// and writes the results file. `out` receives the dry run's report and the closing line.
pub async fn run(
    ctx: &Context,
    args: &ImportArgs,
    service: Service,
    out: &mut (dyn Write + Send),
) -> Result<(), CommandFailure> {
    let report = check_file(args.resource, &args.file).map_err(CommandFailure::new)?;
    let resource = args.resource;
    if args.dry_run {
        let _ = writeln!(out, "{}", report.describe(resource));
        return if report.is_clean() {
            Ok(())
        } else {
            Err(CommandFailure::new(
                "some rows fail the checks; nothing was sent",
            ))
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
        return Err(CommandFailure::new(format!(
            "nothing was sent: the file fails the checks{hint}"
        )));
    }

    let (results, previous) = if let Some(path) = &args.resume {
        {
            let previous = results::read(path).map_err(CommandFailure::new)?;
            let results = Results::append(path).map_err(|e| {
                CommandFailure::new(format!("cannot write to {}: {e}", path.display()))
            })?;
            (results, previous)
        }
    } else {
        {
            let path = results::path_beside(&args.file);
            let results = Results::create(&path).map_err(|e| {
                CommandFailure::new(format!("cannot write {}: {e}", path.display()))
            })?;
            (results, HashMap::default())
        }
    };
    let written = |e: std::io::Error| {
        CommandFailure::new(format!("cannot write {}: {e}", results.path().display()))
    };
    for (row, rules) in report.invalid_rows() {
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

    let connected = super::connect(ctx, service).await?;
    // Every write is recorded in the audit log before it is sent: without it, nothing is sent.
    let audited = ctx
        .open_history(matches!(service, Service::Demo(_)))
        .await
        .map(|history| {
            crate::history::audited(
                &connected.client,
                history,
                &connected.profile,
                &connected.organization,
            )
        });
    let client = match audited {
        Ok((client, _log)) => client,
        Err(e) => {
            connected.close().await;
            return Err(CommandFailure::new(format!("nothing was sent: {e}")));
        }
    };
    let sandbox = connected.sandbox;
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
        .map_err(|e| CommandFailure::new(format!("could not listen to signals: {e}")))?;
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
        sent.describe(resource, done, skipped, results.path())
    );
    if let Some(signal) = stopped_by {
        return Err(CommandFailure {
            message: format!(
                "{}; --resume {} sends the rest",
                signal.outcome(),
                results.path().display()
            ),
            exit_code: signal.exit_code(),
        });
    }
    if sent.failed > 0 {
        return Err(CommandFailure::new(format!(
            "{} {} failed; see {} (--resume sends them again)",
            sent.failed,
            if sent.failed == 1 { "row" } else { "rows" },
            results.path().display()
        )));
    }
    Ok(())
}
