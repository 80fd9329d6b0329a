//! `taxdash export`: the profile, the client, the progress bar, the output and Ctrl-C around
//! [`crate::export`].

use std::io::{IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::io::AsyncWriteExt;

use super::{Context, EXIT_INTERRUPTED, Failure};
use crate::api::{Client, ClientConfig};
use crate::cli::ExportArgs;
use crate::export::{
    ExportError, ExportJob, ExportSummary, ListQuery, Resource, export, export_to_file,
};

impl From<ExportError> for Failure {
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Interrupted => Failure {
                message: "interrupted".into(),
                exit_code: EXIT_INTERRUPTED,
            },
            other => Failure::new(other),
        }
    }
}

/// Runs `taxdash export`: checks the filter flags, resolves the profile (config, keyring and
/// the `TAXDASH_*` overrides), then exports to `--out` or stdout, racing Ctrl-C. A progress bar
/// is drawn on stderr only when stderr is a terminal.
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

    let work = async {
        match &args.out {
            Some(path) => export_to_file(&client, &job, path, &progress).await,
            None => {
                let mut stdout = tokio::io::stdout();
                let summary = export(&client, &job, &mut stdout, &progress).await?;
                stdout.flush().await.map_err(|source| ExportError::Write {
                    target: "stdout".into(),
                    source,
                })?;
                Ok(summary)
            }
        }
    };
    let result = tokio::select! {
        result = work => result,
        () = interrupted() => Err(ExportError::Interrupted),
    };
    progress.finish_and_clear();

    if let Ok(summary) = &result {
        report(args, summary);
    }
    result
}

/// Completes on Ctrl-C; never, when the handler cannot be installed.
async fn interrupted() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// A bar on stderr when it is a terminal; a hidden one (no output at all) otherwise.
fn progress_bar(resource: Resource) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {human_pos}/{human_len} rows, {per_sec}, {eta} left",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_prefix(format!("exporting {resource}"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
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
