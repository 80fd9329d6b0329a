//! `taxdash export`: the profile, the client, the progress line, the output and the signals
//! around [`crate::export`].

use std::io::{IsTerminal, Write};

use futures::StreamExt;
use tokio::io::AsyncWriteExt;

use super::{CommandFailure, Context};
use crate::api::{Client, ClientConfig};
use crate::app::start_demo;
use crate::cli::ExportArgs;
use crate::config::ApiKind;
use crate::effect::ListQuery;
use crate::export::{
    ExportError, ExportJob, ExportSummary, Retries, export, export_to_file, progress_bar,
};
use crate::os::signals::{Signal, listen};

impl From<ExportError> for CommandFailure {
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Interrupted(signal) => CommandFailure {
                message: signal.outcome(),
                exit_code: signal.exit_code(),
            },
            other => CommandFailure::new(other),
        }
    }
}

/// Where `taxdash export` reads from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// The profile's service (config, keyring and the `TAXDASH_*` overrides).
    Profile,
    /// `--demo`: the embedded sandbox on demo data, started for this export and stopped after
    /// it, as the dashboard's `--demo` starts it (on the API `--api` names, v1 by default); no
    /// profile or key is read.
    Demo(Option<ApiKind>),
}

/// Runs `taxdash export`: checks the filter flags, resolves the profile (config, keyring and
/// the `TAXDASH_*` overrides) or starts the demo sandbox, then exports to `--out` or stdout,
/// racing SIGINT (Ctrl-C), SIGTERM and SIGHUP: on any of them the export stops and no partial
/// `--out` file or temporary file is left. A progress line is drawn on stderr only when stderr
/// is a terminal.
pub async fn run(
    ctx: &Context,
    args: &ExportArgs,
    service: Service,
) -> Result<ExportSummary, ExportError> {
    let query = ListQuery::from_flags(args.resource, &args.filters)?;
    let setup = |e: &dyn std::fmt::Display| ExportError::Setup(e.to_string());
    let (config, sandbox) = match service {
        Service::Profile => {
            let profile = ctx.resolve().await.map_err(|e| setup(&e))?;
            (ClientConfig::from_profile(&profile), None)
        }
        Service::Demo(api) => {
            let (sandbox, config) = start_demo(api).await.map_err(|e| {
                ExportError::Setup(format!("the demo sandbox could not start: {e}"))
            })?;
            (config, Some(sandbox))
        }
    };
    let client = config.with_env(&*ctx.env).and_then(Client::new);
    let result = match client {
        Ok(client) => export_with(&client, query, args).await,
        Err(e) => Err(setup(&e)),
    };
    if let Some(sandbox) = sandbox {
        sandbox.stop().await;
    }
    result
}

/// The export itself, on a ready client.
async fn export_with(
    client: &Client,
    query: ListQuery,
    args: &ExportArgs,
) -> Result<ExportSummary, ExportError> {
    let job = ExportJob::new(query, args.format);
    let progress = progress_bar(args.resource);
    // Each retry: on the progress line when stderr is a terminal, else as a line of its own,
    // so a script's log says why the export is slow.
    let retries = Retries::default();
    let terminal = std::io::stderr().is_terminal();
    // Once the export has ended (an interrupt), the pages still under way say nothing more.
    let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let quiet = std::sync::Arc::clone(&ended);
    let client = &client.with_retry_observer(retries.observer(move |notice| {
        if !terminal && !quiet.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = writeln!(std::io::stderr(), "taxdash: {}: {notice}", notice.what);
        }
    }));
    let signals = listen(Signal::ENDING)
        .map_err(|e| ExportError::Setup(format!("could not listen to signals: {e}")))?;

    let work = async {
        if let Some(path) = &args.out {
            export_to_file(client, &job, path, &progress).await
        } else {
            let mut stdout = tokio::io::stdout();
            let summary = export(client, &job, &mut stdout, &progress).await?;
            stdout.flush().await.map_err(|source| ExportError::Write {
                target: "stdout".into(),
                source,
            })?;
            Ok(summary)
        }
    };
    let result = tokio::select! {
        result = retries.scope(work) => result,
        signal = first(signals) => Err(ExportError::Interrupted(signal)),
    };
    ended.store(true, std::sync::atomic::Ordering::SeqCst);
    progress.finish_and_clear();

    if let Ok(summary) = &result {
        report(args, summary);
    }
    result
}

/// The first signal received; never, if the stream ends.
async fn first(mut signals: crate::os::signals::Signals) -> Signal {
    match signals.next().await {
        Some(signal) => signal,
        None => std::future::pending().await,
    }
}

/// A line on stderr when it is a terminal, and a warning (always) when the list changed while
/// it was read.
fn report(args: &ExportArgs, summary: &ExportSummary) {
    let mut stderr = std::io::stderr();
    if summary.checked != summary.total {
        let _ = writeln!(
            stderr,
            "taxdash: warning: read {} {} but the service announced {}; \
             the list changed during the export",
            summary.checked, args.resource, summary.total
        );
    }
    if stderr.is_terminal() {
        let target = args
            .out
            .as_ref()
            .map_or_else(|| "stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(stderr, "{}", done(args, summary, &target));
    }
}

/// The closing line: `exported 5 filings (5 of 37 checked, 1 page) to stdout`.
fn done(args: &ExportArgs, summary: &ExportSummary, target: &str) -> String {
    use crate::model::format::{count, thousands};
    let pages = count(summary.pages, "page");
    let read = if summary.rows == summary.checked {
        pages
    } else {
        format!(
            "{} of {} checked, {pages}",
            thousands(summary.rows),
            thousands(summary.checked)
        )
    };
    format!(
        "exported {} {} ({read}) to {target}",
        thousands(summary.rows),
        args.resource
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::Format;
    use crate::export::FilterFlags;
    use crate::model::Resource;

    #[test]
    fn the_closing_line_says_how_many_rows_were_checked_when_some_were_dropped() {
        let args = ExportArgs {
            resource: Resource::Filings,
            format: Format::Csv,
            out: None,
            filters: FilterFlags::default(),
        };
        let summary = |rows, checked, pages| ExportSummary {
            rows,
            checked,
            total: checked,
            pages,
        };
        assert_eq!(
            done(&args, &summary(5, 37, 1), "stdout"),
            "exported 5 filings (5 of 37 checked, 1 page) to stdout"
        );
        assert_eq!(
            done(&args, &summary(250, 250, 3), "out.csv"),
            "exported 250 filings (3 pages) to out.csv"
        );
    }
}
