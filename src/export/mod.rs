//! Exporting a whole list: every page of one resource, written as CSV, JSON or JSON Lines.
//!
//! [`export`] reads the first page to learn the total, then fetches the other pages with a
//! bounded number in flight ([`ExportJob::concurrency`], 8 by default), each on its own task, and
//! writes them in page order as they arrive. The pages take their turns at the client's pacing
//! in page order too, so none is written late behind a page that was sent before it. At most `concurrency` pages are held at a time, so
//! memory does not grow with the length of the list. Every call goes through the client, so its
//! rate limiter paces them and its retries cover transient failures.
//!
//! JSON and JSON Lines carry each record as the service sent it, read through
//! [`Client::list_raw`]: fields this version does not model are kept, an absent field stays
//! absent, v1 records are byte for byte the service's (each put on one line), a Tenanted
//! record's keys are spelled as v1's. CSV reads each record as the typed model and writes the
//! resource's documented columns.
//!
//! [`export_to_file`] writes to a temporary file next to the target and renames it over the
//! target only once the whole list is written: a failed or interrupted export (dropping the
//! future) leaves neither a half-written file nor the temporary one behind.
//!
//! A filter kept on this side ([`ListQuery::is_local`]: `--overdue`, `--expiring-within`, …)
//! drops rows of each page before they are written: the summary then counts the rows checked
//! (read from the service) apart from the rows written, and the progress line says how many of
//! the rows checked were kept.
//!
//! The list is read by page number while it may change on the service: a record added or removed
//! during the export can shift the pages, so the row count can differ from the total announced
//! by the first page. The summary reports both.
//!
//! A service can also promise more than it delivers: a page that comes back empty or short
//! before the announced end stops the export there with [`ExportError::Short`], naming the page
//! and both counts, after at most [`ExportJob::concurrency`] pages more were asked for. A list
//! that really shrank (the short page's own total agrees with the rows read) is not short: the
//! export ends there, complete.

mod columns;
mod filters;
mod pages;
mod progress;

use std::future::Future;
use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::{StreamExt, stream};
use indicatif::ProgressBar;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use filters::{FilterError, FilterFlags, Flag};
pub(crate) use progress::counting as count_progress;
pub use progress::{Retries, bar as progress_bar, titled as titled_progress_bar};

use serde_json::value::RawValue;

use crate::api::{ApiError, ApiResult, Client};
use crate::effect::{Format, ListQuery};
use crate::model::{
    Customer, Exemption, Filing, Nexus, Page, PageParams, PhysicalNexus, Product, Registration,
    Resource, Transaction,
};
use crate::os::signals::Signal;
use columns::{Record, cells, header};
use pages::{Plan, Verdict};

/// The export's side of a resource: the columns it writes as CSV.
impl Resource {
    /// The CSV header: the resource's columns, in order.
    pub fn csv_columns(self) -> Vec<&'static str> {
        match self {
            Resource::Registrations => header::<Registration>().collect(),
            Resource::PhysicalNexus => header::<PhysicalNexus>().collect(),
            Resource::Nexus => header::<Nexus>().collect(),
            Resource::Exemptions => header::<Exemption>().collect(),
            Resource::Customers => header::<Customer>().collect(),
            Resource::Transactions => header::<Transaction>().collect(),
            Resource::Filings => header::<Filing>().collect(),
            Resource::Products => header::<Product>().collect(),
        }
    }
}

/// What to export and how.
#[derive(Debug, Clone)]
pub struct ExportJob {
    pub query: ListQuery,
    pub format: Format,
    /// Rows per page, 1 to 100. Default 100, the service's largest.
    pub page_size: u32,
    /// Pages fetched at the same time. Default 8.
    pub concurrency: usize,
}

impl ExportJob {
    pub const DEFAULT_CONCURRENCY: usize = 8;

    /// The default page size and concurrency.
    pub fn new(query: ListQuery, format: Format) -> Self {
        ExportJob {
            query,
            format,
            page_size: PageParams::MAX_SIZE,
            concurrency: Self::DEFAULT_CONCURRENCY,
        }
    }
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportSummary {
    /// Records written.
    pub rows: u64,
    /// Records read from the service: `rows`, plus those a filter kept on this side dropped.
    pub checked: u64,
    /// The total the first page announced (before any filter kept on this side).
    pub total: u64,
    /// Pages fetched.
    pub pages: u32,
}

/// Why an export stopped. Nothing here holds the API key.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A filter flag the resource does not take, or a value it does not accept.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// A page could not be fetched (after the client's retries).
    #[error("fetching page {page} of the {resource} failed: {source}")]
    Fetch {
        resource: Resource,
        page: u32,
        source: ApiError,
    },
    /// The output could not be written.
    #[error("could not write {target}: {source}")]
    Write { target: String, source: io::Error },
    /// A page could not be turned into the output format.
    #[error("could not write page {page} as {format:?}: {detail}")]
    Render {
        page: u32,
        format: Format,
        detail: String,
    },
    /// A page came back empty or short before the end the service announced, and the list did
    /// not shrink: the service promised records it did not deliver.
    #[error(
        "the service announced {} {resource}, but page {page} {}; {} read in all, so the \
         export is incomplete and stopped there",
        indicatif::HumanCount(*.announced),
        pages::held(*.rows, *.expected),
        indicatif::HumanCount(*.read)
    )]
    Short {
        resource: Resource,
        page: u32,
        /// The total the short page announced.
        announced: u64,
        /// The rows on that page, and the rows expected there.
        rows: u64,
        expected: u64,
        /// The rows read, that page's included.
        read: u64,
    },
    /// A page's task ended without an answer (it panicked).
    #[error("fetching page {page} stopped unexpectedly: {detail}")]
    Task { page: u32, detail: String },
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped it.
    #[error("{}", .0.outcome())]
    Interrupted(Signal),
    /// Something the command needs before it can export (profile, key, client).
    #[error("{0}")]
    Setup(String),
}

/// One fetched page, already written in the output format.
struct Chunk {
    bytes: Vec<u8>,
    /// Rows written: those the filter kept on this side keeps.
    rows: u64,
    /// Rows the service sent.
    fetched: u64,
    /// The total this page announced.
    total: u64,
    /// The page size the service says it used.
    size: u32,
}

/// Exports every page of `job.query` to `out`, advancing `progress` (its length is set to the
/// total) as rows are written. `out` is flushed at the end.
pub async fn export<W>(
    client: &Client,
    job: &ExportJob,
    out: &mut W,
    progress: &ProgressBar,
) -> Result<ExportSummary, ExportError>
where
    W: AsyncWrite + Unpin + ?Sized,
{
    let size = job.page_size.clamp(1, PageParams::MAX_SIZE);
    let query = Arc::new(job.query.clone());
    let format = job.format;
    progress::start(progress);
    let first = fetch(
        client.clone(),
        query.clone(),
        PageParams::new(1, size),
        format,
    );
    let first = progress::waited(progress, 1, first).await?;
    let plan = Plan::new(first.total, first.size, size);
    let local = query.is_local();
    progress::counting(progress, first.total);
    let mut writer = Writer::new(out, format);
    writer.begin(query.resource()).await?;
    let mut summary = ExportSummary {
        rows: 0,
        checked: 0,
        total: first.total,
        pages: 1,
    };
    let verdict = accept(&plan, 1, &first, &mut summary, query.resource())?;
    writer.chunk(&first).await?;
    progress::advance(progress, &summary, local, first.fetched);
    drop(first);

    if verdict == Verdict::More {
        // Told by each page's task once it has asked, so the next asks after it.
        let mut asked: Option<oneshot::Receiver<()>> = None;
        let rest = stream::iter(2..=plan.pages())
            .map(|page| {
                let fetched = fetch(
                    client.clone(),
                    query.clone(),
                    PageParams::new(page, size),
                    format,
                );
                let (tell, told) = oneshot::channel();
                let before = asked.replace(told);
                PageTask {
                    handle: tokio::spawn(in_turn(before, tell, fetched)),
                    page,
                }
            })
            .buffered(job.concurrency.max(1));
        futures::pin_mut!(rest);
        let mut page = 1;
        loop {
            page += 1;
            let Some(chunk) = progress::waited(progress, page, rest.next()).await else {
                break;
            };
            let chunk = chunk?;
            summary.pages += 1;
            let verdict = accept(&plan, page, &chunk, &mut summary, query.resource())?;
            writer.chunk(&chunk).await?;
            progress::advance(progress, &summary, local, chunk.fetched);
            if verdict == Verdict::Ended {
                // The list shrank: no page after this one has anything.
                break;
            }
        }
    }
    writer.end().await?;
    Ok(summary)
}

/// Counts page `page`'s rows into `summary` and judges them against the plan; a short page is
/// an error.
fn accept(
    plan: &Plan,
    page: u32,
    chunk: &Chunk,
    summary: &mut ExportSummary,
    resource: Resource,
) -> Result<Verdict, ExportError> {
    summary.rows += chunk.rows;
    summary.checked += chunk.fetched;
    match plan.judge(page, chunk.fetched, chunk.total, summary.checked) {
        Verdict::Short => Err(ExportError::Short {
            resource,
            page,
            announced: chunk.total,
            rows: chunk.fetched,
            expected: plan.expected(page),
            read: summary.checked,
        }),
        verdict => Ok(verdict),
    }
}

/// Exports to the file at `path`: written to a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. On any error, or when the future is dropped, the temporary
/// file is removed and `path` is untouched. The file is readable by its owner only (on Unix).
pub async fn export_to_file(
    client: &Client,
    job: &ExportJob,
    path: &Path,
    progress: &ProgressBar,
) -> Result<ExportSummary, ExportError> {
    let failed = |source| ExportError::Write {
        target: path.display().to_string(),
        source,
    };
    let name = path.file_name().ok_or_else(|| {
        failed(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path does not name a file",
        ))
    })?;
    if crate::os::files::is_special(path) {
        // A device or a pipe (`--out /dev/null`): written straight, never replaced by a file.
        let mut file = tokio::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .await
            .map_err(failed)?;
        let summary = export(client, job, &mut file, progress).await?;
        tokio::io::AsyncWriteExt::flush(&mut file)
            .await
            .map_err(failed)?;
        return Ok(summary);
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let temp = tempfile::Builder::new()
        .prefix(&format!(".{}.", name.to_string_lossy()))
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(|e| failed(crate::os::files::without_temporary_path(e)))?;
    // Declared after `temp`, so dropped first: the handle closes before the file is removed.
    let mut file = tokio::fs::File::from_std(temp.as_file().try_clone().map_err(failed)?);
    let summary = export(client, job, &mut file, progress).await?;
    file.sync_all().await.map_err(failed)?;
    drop(file);
    temp.persist(path).map_err(|e| failed(e.error))?;
    Ok(summary)
}

/// Fetches one page and writes it in `format`: JSON and JSON Lines write each item exactly as
/// the service sent it (fields this version does not model included, an absent one left
/// absent); CSV reads each item as the typed record and writes its columns. A filter kept on
/// this side reads the items as typed records to judge them, and writes those it keeps in the
/// same way.
async fn fetch(
    client: Client,
    query: Arc<ListQuery>,
    page: PageParams,
    format: Format,
) -> Result<Chunk, ExportError> {
    let failed = |source| ExportError::Fetch {
        resource: query.resource(),
        page: page.page,
        source,
    };
    let raw = match &*query {
        ListQuery::Registrations(f) => client.list_raw(f, page).await,
        ListQuery::Filings(f) => client.list_raw(f, page).await,
        ListQuery::PhysicalNexus(f) => client.list_raw(f, page).await,
        ListQuery::Nexus(f) => client.list_raw(f, page).await,
        ListQuery::Exemptions(f) => client.list_raw(f, page).await,
        ListQuery::Customers(f) => client.list_raw(f, page).await,
        ListQuery::Transactions(f) => client.list_raw(f, page).await,
        ListQuery::Products(f) => client.list_raw(f, page).await,
    }
    .map_err(failed)?;
    let local = query.is_local();
    let rows = Rows {
        client: &client,
        format,
        local,
    };
    // Verdicts that take more than the row: judged by the same readers as the lists' (the
    // filing check with each filing's transactions, the standing from three lists).
    let judged: Option<std::collections::HashSet<String>> = match &*query {
        ListQuery::Filings(f) if f.not_adding_up.is_some() => {
            let mut filings = Vec::with_capacity(raw.items.len());
            for item in &raw.items {
                filings.push(client.read_item::<Filing>(item).map_err(failed)?);
            }
            let today = crate::clock::today();
            crate::reads::read_covered_sales(
                &client,
                &mut filings,
                today,
                &mut crate::reads::Quiet,
            )
            .await
            .map_err(failed)?;
            Some(
                filings
                    .into_iter()
                    .filter(|r| f.keeps(r))
                    .map(|r| r.id)
                    .collect(),
            )
        }
        ListQuery::Nexus(f) if f.is_local() => {
            let today = crate::clock::today();
            let rows = crate::reads::read_standing(&client, f, today, &mut crate::reads::Quiet)
                .await
                .map_err(failed)?;
            Some(rows.into_iter().map(|r| r.id).collect())
        }
        _ => None,
    };
    let judged_keeps = |id: &str| judged.as_ref().is_none_or(|ids| ids.contains(id));
    let rendered = match &*query {
        ListQuery::Registrations(f) => rows.render::<Registration>(raw, |row| f.keeps(row)),
        ListQuery::Filings(f) => rows.render::<Filing>(raw, |row| {
            if judged.is_some() {
                judged_keeps(&row.id)
            } else {
                f.keeps(row)
            }
        }),
        ListQuery::PhysicalNexus(_) => rows.render::<PhysicalNexus>(raw, |_| true),
        ListQuery::Nexus(_) => rows.render::<Nexus>(raw, |row| judged_keeps(&row.id)),
        ListQuery::Exemptions(f) => rows.render::<Exemption>(raw, |row| f.keeps(row)),
        ListQuery::Customers(_) => rows.render::<Customer>(raw, |_| true),
        ListQuery::Transactions(f) => rows.render::<Transaction>(raw, |row| f.keeps(row)),
        ListQuery::Products(_) => rows.render::<Product>(raw, |_| true),
    };
    rendered
        .map_err(failed)?
        .map_err(|detail| ExportError::Render {
            page: page.page,
            format,
            detail,
        })
}

/// How the items of a page are read and written.
struct Rows<'a> {
    client: &'a Client,
    format: Format,
    /// Whether a filter kept on this side judges each row.
    local: bool,
}

impl Rows<'_> {
    /// Writes the items of `page` (as sent) that `keeps` keeps, in the output format: CSV rows
    /// without the header; JSON records separated by `,\n`; JSON Lines records each ending in
    /// `\n`. An item that cannot be read as `T`, where it must be, fails the page.
    fn render<T: Record>(
        &self,
        page: Page<Box<RawValue>>,
        keeps: impl Fn(&T) -> bool,
    ) -> ApiResult<Result<Chunk, String>> {
        let fetched = page.items.len() as u64;
        let (total, size) = (page.total, page.size);
        let (bytes, rows) = if self.format == Format::Csv {
            let mut records = Vec::with_capacity(page.items.len());
            for item in &page.items {
                let record: T = self.client.read_item(item)?;
                if !self.local || keeps(&record) {
                    records.push(record);
                }
            }
            let rows = records.len() as u64;
            match csv_rows(&records) {
                Ok(bytes) => (bytes, rows),
                Err(detail) => return Ok(Err(detail)),
            }
        } else {
            let mut items = page.items;
            if self.local {
                let mut kept = Vec::with_capacity(items.len());
                for item in items {
                    if keeps(&self.client.read_item::<T>(&item)?) {
                        kept.push(item);
                    }
                }
                items = kept;
            }
            (json_records(&items, self.format), items.len() as u64)
        };
        Ok(Ok(Chunk {
            bytes,
            rows,
            fetched,
            total,
            size,
        }))
    }
}

/// The records' CSV rows, without the header.
fn csv_rows<T: Record>(records: &[T]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(records.len() * 256);
    let mut csv = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(&mut bytes);
    records
        .iter()
        .try_for_each(|record| csv.write_record(cells(record)))
        .and_then(|()| csv.flush().map_err(Into::into))
        .map_err(|e| e.to_string())?;
    drop(csv);
    Ok(bytes)
}

/// The items as sent, each on one line: separated by `,\n` (JSON) or each ending in `\n`
/// (JSON Lines).
fn json_records(items: &[Box<RawValue>], format: Format) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(items.iter().map(|i| i.get().len() + 2).sum());
    for (i, item) in items.iter().enumerate() {
        if format == Format::Json && i > 0 {
            bytes.extend_from_slice(b",\n");
        }
        one_line(item.get(), &mut bytes);
        if format == Format::Jsonl {
            bytes.push(b'\n');
        }
    }
    bytes
}

/// Appends the JSON text `json` without the whitespace between its tokens, so a record the
/// service sent spread over lines takes one line. Everything else (key order, the spelling of
/// numbers, escapes) is kept as sent. Whitespace inside strings is part of a value and stays:
/// JSON has no raw line break inside a string.
fn one_line(json: &str, out: &mut Vec<u8>) {
    let bytes = json.as_bytes();
    out.reserve(bytes.len());
    // Copied a run at a time: from after the last whitespace dropped up to the next one.
    let mut run = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                // A string, whitespace and all, up to its closing quote.
                at += 1;
                while at < bytes.len() {
                    match bytes[at] {
                        b'\\' => at += 2,
                        b'"' => break,
                        _ => at += 1,
                    }
                }
                at += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                out.extend_from_slice(&bytes[run..at]);
                at += 1;
                run = at;
            }
            _ => at += 1,
        }
    }
    out.extend_from_slice(&bytes[run..]);
}

/// `request`, asked once the page before has asked (`before` tells), and telling the page
/// after (`tell`) once it has: the pages take their turns at the client's pacing in page order,
/// whatever order their tasks start in, so they come back in the order they are written and
/// none waits behind a page asked after it.
async fn in_turn<F: Future>(
    before: Option<oneshot::Receiver<()>>,
    tell: oneshot::Sender<()>,
    request: F,
) -> F::Output {
    if let Some(before) = before {
        // Gone (its page failed or was stopped): nothing to wait for.
        let _ = before.await;
    }
    let mut request = std::pin::pin!(request);
    // The first poll takes the request's place in the pacing's queue.
    let first = std::future::poll_fn(|cx| Poll::Ready(request.as_mut().poll(cx))).await;
    let _ = tell.send(());
    match first {
        Poll::Ready(out) => out,
        Poll::Pending => request.await,
    }
}

/// A spawned page fetch that is aborted when dropped, so an export that stops early (an error,
/// Ctrl-C) leaves no request running.
struct PageTask {
    handle: JoinHandle<Result<Chunk, ExportError>>,
    page: u32,
}

impl Future for PageTask {
    type Output = Result<Chunk, ExportError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let page = self.page;
        Pin::new(&mut self.handle).poll(cx).map(|joined| {
            joined.unwrap_or_else(|e| {
                Err(ExportError::Task {
                    page,
                    detail: e.to_string(),
                })
            })
        })
    }
}

impl Drop for PageTask {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

/// Writes the chunks with what goes around them: the CSV header, the JSON array's brackets.
struct Writer<'a, W: ?Sized> {
    out: &'a mut W,
    format: Format,
    records: u64,
}

impl<'a, W: AsyncWrite + Unpin + ?Sized> Writer<'a, W> {
    fn new(out: &'a mut W, format: Format) -> Self {
        Writer {
            out,
            format,
            records: 0,
        }
    }

    async fn put(&mut self, bytes: &[u8]) -> Result<(), ExportError> {
        self.out
            .write_all(bytes)
            .await
            .map_err(|source| ExportError::Write {
                target: "the output".into(),
                source,
            })
    }

    async fn begin(&mut self, resource: Resource) -> Result<(), ExportError> {
        match self.format {
            Format::Csv => {
                let mut line = Vec::new();
                let mut csv = csv::Writer::from_writer(&mut line);
                csv.write_record(resource.csv_columns())
                    .and_then(|()| csv.flush().map_err(Into::into))
                    .map_err(|e| ExportError::Render {
                        page: 1,
                        format: Format::Csv,
                        detail: e.to_string(),
                    })?;
                drop(csv);
                self.put(&line).await
            }
            Format::Json => self.put(b"[").await,
            Format::Jsonl => Ok(()),
        }
    }

    async fn chunk(&mut self, chunk: &Chunk) -> Result<(), ExportError> {
        if chunk.rows == 0 {
            return Ok(());
        }
        if self.format == Format::Json {
            let lead: &[u8] = if self.records == 0 { b"\n" } else { b",\n" };
            self.put(lead).await?;
        }
        self.put(&chunk.bytes).await?;
        self.records += chunk.rows;
        Ok(())
    }

    async fn end(&mut self) -> Result<(), ExportError> {
        if self.format == Format::Json {
            let close: &[u8] = if self.records == 0 { b"]\n" } else { b"\n]\n" };
            self.put(close).await?;
        }
        self.out.flush().await.map_err(|source| ExportError::Write {
            target: "the output".into(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(format: Format, texts: &[&str]) -> String {
        let items: Vec<Box<RawValue>> = texts
            .iter()
            .map(|t| RawValue::from_string((*t).to_owned()).unwrap())
            .collect();
        String::from_utf8(json_records(&items, format)).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pages_ask_in_page_order_whatever_order_their_tasks_start_in() {
        let order = Arc::new(std::sync::Mutex::new(Vec::new()));
        let asking = |page: u32| {
            let order = Arc::clone(&order);
            async move {
                order.lock().unwrap().push(page);
                tokio::task::yield_now().await;
                page
            }
        };
        let mut before = None;
        let mut chained = Vec::new();
        for page in 1..=20 {
            let (tell, told) = oneshot::channel();
            chained.push((page, in_turn(before.replace(told), tell, asking(page))));
        }
        // Started last page first.
        let tasks: Vec<_> = chained
            .into_iter()
            .rev()
            .map(|(page, f)| (page, tokio::spawn(f)))
            .collect();
        for (page, task) in tasks {
            assert_eq!(task.await.unwrap(), page);
        }
        assert_eq!(*order.lock().unwrap(), (1..=20).collect::<Vec<_>>());
    }

    #[test]
    fn records_are_written_as_sent_each_on_one_line() {
        let sent =
            "{\n  \"z\": 1.50,\n  \"a\": \"two  words\\n \\\"quoted\\\" \",\n  \"n\": null\n}";
        assert_eq!(
            lines(Format::Jsonl, &[sent, r#"{"id":"b"}"#]),
            "{\"z\":1.50,\"a\":\"two  words\\n \\\"quoted\\\" \",\"n\":null}\n{\"id\":\"b\"}\n"
        );
        assert_eq!(
            lines(Format::Json, &[r#"{"id": "a"}"#, r#"{"id":"b"}"#]),
            "{\"id\":\"a\"},\n{\"id\":\"b\"}"
        );
    }
}
