//! The progress line of an export, honest about waiting: until the first page answers it says
//! that it waits for the service and for how long (no `0/0 rows` as if done), then it counts rows
//! against the announced total; whenever a page keeps it waiting for a second or more, it says
//! which page and for how long.

use std::future::Future;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::time::Instant;

use super::Resource;
use crate::api::{RetryNotice, RetryObserver};

/// How long a page may take before the line says it is waited for.
const PATIENCE: Duration = Duration::from_secs(1);

/// The latest retry of the export's calls, which the line says while a page is waited for:
/// `waiting for page 3 (31 s so far) · no answer for 30 s, trying again, 2 of 4`.
#[derive(Clone, Default)]
pub struct Retries(Arc<Mutex<Option<RetryNotice>>>);

tokio::task_local! {
    static RETRIES: Retries;
}

impl Retries {
    /// An observer for the client ([`crate::api::Client::with_retry_observer`]) that keeps the
    /// latest retry for the line; `also` is told of each one too.
    pub fn observer(&self, also: impl Fn(&RetryNotice) + Send + Sync + 'static) -> RetryObserver {
        let slot = Arc::clone(&self.0);
        Arc::new(move |notice: &RetryNotice| {
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(notice.clone());
            also(notice);
        })
    }

    /// Runs `work` (the export) with the line reading these retries.
    pub async fn scope<F: Future>(&self, work: F) -> F::Output {
        RETRIES.scope(self.clone(), work).await
    }

    fn latest() -> Option<RetryNotice> {
        RETRIES
            .try_with(|r| r.0.lock().unwrap_or_else(PoisonError::into_inner).clone())
            .ok()
            .flatten()
    }

    fn clear() {
        let _ = RETRIES.try_with(|r| *r.0.lock().unwrap_or_else(PoisonError::into_inner) = None);
    }
}

/// A progress line on stderr when it is a terminal; a hidden one (no output at all) otherwise.
pub fn bar(resource: Resource) -> ProgressBar {
    titled(format!("exporting {resource}"))
}

/// A progress line on stderr when it is a terminal, headed `prefix`; a hidden one otherwise.
pub fn titled(prefix: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_prefix(prefix);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Before the first page: what is waited for, and nothing counted yet.
pub(crate) fn start(progress: &ProgressBar) {
    let style = ProgressStyle::with_template("{prefix}: {spinner} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    progress.set_style(style);
    progress.set_message(waiting(1, Duration::ZERO));
}

/// Once the first page told the total: rows against it.
pub(crate) fn counting(progress: &ProgressBar, total: u64) {
    let style = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {human_pos}/{human_len} rows, {per_sec}, {eta} left{msg}",
    )
    .map_or_else(
        |_| ProgressStyle::default_bar(),
        |s| s.progress_chars("=> "),
    );
    progress.set_style(style);
    progress.set_length(total);
    progress.set_message("");
}

/// Counts one page: `fetched` rows more checked against the total; with a filter kept on this
/// side (`local`), the line also says how many of the rows checked were kept: `5 kept`.
pub(crate) fn advance(
    progress: &ProgressBar,
    summary: &super::ExportSummary,
    local: bool,
    fetched: u64,
) {
    progress.inc(fetched);
    if local {
        progress.set_message(kept(summary.rows, summary.checked));
    }
}

/// The message of a filtered export: `, 5 kept of 37 checked`.
fn kept(rows: u64, checked: u64) -> String {
    format!(
        ", {} kept of {} checked",
        indicatif::HumanCount(rows),
        indicatif::HumanCount(checked)
    )
}

/// What the line says while page `page` has been waited for `waited`.
fn waiting(page: u32, waited: Duration) -> String {
    let secs = waited.as_secs();
    if page == 1 {
        format!("waiting for the service to answer ({secs} s so far)")
    } else {
        format!(" · waiting for page {page} ({secs} s so far)")
    }
}

/// Awaits `fetch`, the fetch of page `page`, saying on the line each second past the first how
/// long it has been waited for (retries included) and the latest retry, and clearing that once
/// it is done.
pub(crate) async fn waited<F: Future>(progress: &ProgressBar, page: u32, fetch: F) -> F::Output {
    let started = Instant::now();
    let mut ticks = tokio::time::interval_at(started + PATIENCE, PATIENCE);
    futures::pin_mut!(fetch);
    let mut said = false;
    loop {
        tokio::select! {
            output = &mut fetch => {
                Retries::clear();
                if said && page > 1 {
                    progress.set_message("");
                }
                return output;
            }
            _ = ticks.tick() => {
                let mut line = waiting(page, started.elapsed());
                if let Some(retry) = Retries::latest() {
                    line = format!("{line} · {retry}");
                }
                progress.set_message(line);
                said = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_slow_page_is_said_with_its_real_wait_then_cleared() {
        let progress = ProgressBar::hidden();
        start(&progress);
        assert_eq!(
            progress.message(),
            "waiting for the service to answer (0 s so far)"
        );
        let first = waited(&progress, 1, async {
            tokio::time::sleep(Duration::from_millis(3500)).await;
            7
        });
        assert_eq!(first.await, 7);
        assert_eq!(
            progress.message(),
            "waiting for the service to answer (3 s so far)"
        );
        counting(&progress, 100);
        assert_eq!(progress.message(), "");

        let progress_ref = &progress;
        let slow = waited(progress_ref, 4, async {
            tokio::time::sleep(Duration::from_millis(2500)).await;
        });
        let watch = async {
            tokio::time::sleep(Duration::from_millis(2200)).await;
            progress_ref.message()
        };
        let ((), during) = tokio::join!(slow, watch);
        assert_eq!(during, " · waiting for page 4 (2 s so far)");
        assert_eq!(progress.message(), "", "cleared once the page came");

        waited(&progress, 5, async {}).await;
        assert_eq!(progress.message(), "", "a quick page says nothing");
    }

    #[tokio::test(start_paused = true)]
    async fn the_line_says_the_latest_retry_while_the_page_is_waited_for() {
        let progress = ProgressBar::hidden();
        start(&progress);
        let retries = Retries::default();
        let told = Arc::new(Mutex::new(0));
        let counted = Arc::clone(&told);
        let observer = retries.observer(move |_| *counted.lock().unwrap() += 1);
        let notice = |attempt| RetryNotice {
            what: "GET /v1/customers".into(),
            cause: crate::api::RetryCause::NoAnswer {
                after: Duration::from_secs(30),
            },
            attempt,
            attempts: 4,
            wait: Duration::from_millis(200),
        };
        let progress_ref = &progress;
        let page = async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            observer(&notice(2));
            tokio::time::sleep(Duration::from_secs(30)).await;
            observer(&notice(3));
            tokio::time::sleep(Duration::from_secs(5)).await;
        };
        let watch = async {
            tokio::time::sleep(Duration::from_millis(31_500)).await;
            let second = progress_ref.message();
            tokio::time::sleep(Duration::from_secs(30)).await;
            (second, progress_ref.message())
        };
        let ((), (second, third)) = retries
            .scope(async { tokio::join!(waited(progress_ref, 1, page), watch) })
            .await;
        assert_eq!(
            second,
            "waiting for the service to answer (31 s so far) · no answer for 30 s, trying \
             again, 2 of 4"
        );
        assert_eq!(
            third,
            "waiting for the service to answer (61 s so far) · no answer for 30 s, trying \
             again, 3 of 4"
        );
        assert_eq!(
            *told.lock().unwrap(),
            2,
            "the other listener hears each one"
        );
        // The page came: the next one starts with no retry said.
        let later = retries.scope(waited(progress_ref, 2, async {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            progress_ref.message()
        }));
        assert_eq!(later.await, " · waiting for page 2 (1 s so far)");
    }

    #[test]
    fn a_filtered_export_counts_rows_checked_and_says_how_many_were_kept() {
        let progress = ProgressBar::hidden();
        counting(&progress, 250);
        let mut summary = crate::export::ExportSummary {
            rows: 3,
            checked: 100,
            total: 250,
            pages: 1,
        };
        advance(&progress, &summary, true, 100);
        assert_eq!(progress.position(), 100, "the bar counts rows checked");
        assert_eq!(progress.message(), ", 3 kept of 100 checked");
        summary.rows = 100;
        advance(&progress, &summary, false, 100);
        assert_eq!(progress.position(), 200);
    }
}
