//! `taxdash export`: the profile, the client, the progress line, the output and the signals
//! around [`crate::export`].

use std::io::{IsTerminal, Write};

use futures::StreamExt;
use tokio::io::AsyncWriteExt;

use super::{Context, Failure};
use crate::api::{Client, ClientConfig};
use crate::app::signals::{Signal, listen};
use crate::cli::ExportArgs;
use crate::export::{
    ExportError, ExportJob, ExportSummary, ListQuery, export, export_to_file, progress_bar,
};

impl From<ExportError> for Failure {
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Interrupted(signal) => Failure {
                message: signal.outcome(),
                exit_code: signal.exit_code(),
            },
            other => Failure::new(other),
        }
    }
}

/// Runs `taxdash export`: checks the filter flags, resolves the profile (config, keyring and
/// the `TAXDASH_*` overrides), then exports to `--out` or stdout, racing SIGINT (Ctrl-C),
/// SIGTERM and SIGHUP: on any of them the export stops and no partial `--out` file or temporary
/// file is left. A progress line is drawn on stderr only when stderr is a terminal.
pub async fn run(ctx: &Context, args: &ExportArgs) -> Result<ExportSummary, ExportError> {
    let query = ListQuery::from_flags(args.resource, &args.filters)?;
    let profile = ctx
        .resolve()
        .await
        .map_err(|e| ExportError::Setup(e.to_string()))?;
    let client = ClientConfig::from_profile(&profile)
        .with_env(&*ctx.env)
        .and_then(Client::new)
        .map_err(|e| ExportError::Setup(e.to_string()))?;
    let job = ExportJob::new(query, args.format);
    let progress = progress_bar(args.resource);
    let signals = listen(Signal::ENDING)
        .map_err(|e| ExportError::Setup(format!("could not listen to signals: {e}")))?;

    let work = async {
        if let Some(path) = &args.out {
            export_to_file(&client, &job, path, &progress).await
        } else {
            let mut stdout = tokio::io::stdout();
            let summary = export(&client, &job, &mut stdout, &progress).await?;
            stdout.flush().await.map_err(|source| ExportError::Write {
                target: "stdout".into(),
                source,
            })?;
            Ok(summary)
        }
    };
    let result = tokio::select! {
        result = work => result,
        signal = first(signals) => Err(ExportError::Interrupted(signal)),
    };
    progress.finish_and_clear();

    if let Ok(summary) = &result {
        report(args, summary);
    }
    result
}

/// The first signal received; never, if the stream ends.
async fn first(mut signals: crate::app::signals::Signals) -> Signal {
    match signals.next().await {
        Some(signal) => signal,
        None => std::future::pending().await,
    }
}

/// A line on stderr when it is a terminal, and a warning (always) when the list changed while
/// it was read.
fn report(args: &ExportArgs, summary: &ExportSummary) {
    let mut stderr = std::io::stderr();
    if summary.rows != summary.total {
        let _ = writeln!(
            stderr,
            "taxdash: warning: wrote {} {} but the service announced {}; \
             the list changed during the export",
            summary.rows, args.resource, summary.total
        );
    }
    if stderr.is_terminal() {
        let target = args
            .out
            .as_ref()
            .map_or_else(|| "stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(
            stderr,
            "exported {} {} ({} pages) to {target}",
            summary.rows, args.resource, summary.pages
        );
    }
}
