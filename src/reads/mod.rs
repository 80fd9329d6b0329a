//! Reading the records a check needs through the client: every page of a list, at the
//! client's pace and with its retries ([`read_all`]), and the readings each check makes
//! ([`read_forecasts`], [`read_exemption_findings`], [`read_filing_findings`]) or the dashboard
//! asks for ([`read_pace`], [`read_covered_sales_of`], [`read_standing`]). The judgements
//! themselves are [`crate::checks`]'s, pure; this module is their I/O. The commands, the
//! dashboard's runtime, the export and the import share it.

use std::collections::HashMap;

use chrono::NaiveDate;
use serde::de::DeserializeOwned;

use crate::api::{ApiResult, Client};
use crate::checks::{
    Place, activity_by_place, exemptions, filings, forecast, pace_filter, sort_forecasts,
};
use crate::model::filters::{
    ExemptionFilter, FilingFilter, ListFilter, NexusFilter, TransactionFilter,
};
use crate::model::{
    Exemption, ExemptionStatus, Filing, Nexus, NexusStatus, PageParams, PeriodActivity,
    Transaction, TransactionExemptStatus, TransactionType,
};

/// The most pages one list is read to: 1,000,000 records.
const MAX_PAGES: u32 = 10_000;

/// Told as a check reads: what it reads, and how far it got (`read` of `total`).
pub trait Progress: Send {
    fn reading(&mut self, what: &str, read: u64, total: u64);
}

/// No one to tell.
pub struct Quiet;

impl Progress for Quiet {
    fn reading(&mut self, _: &str, _: u64, _: u64) {}
}

/// Every record of the list `filter` filters: the first page, then every page its total implies,
/// asked for together (the client's pacing spaces them, first asked first sent) and read in
/// order. Stops at the first page shorter than asked or once the total is read, and the pages
/// still waiting for their turn are never sent: a service that announces more than it delivers
/// costs the pages under way at most, never a loop.
pub async fn read_all<F, T>(
    client: &Client,
    filter: &F,
    what: &str,
    progress: &mut dyn Progress,
) -> ApiResult<Vec<T>>
where
    F: ListFilter + Clone + Send + Sync + 'static,
    T: DeserializeOwned + Send + 'static,
{
    read_all_ahead(client, filter, what, 1, progress)
        .await
        .map(|(rows, _)| rows)
}

/// [`read_all`] asking for the first `expected` pages at once (the number the same list had
/// on an earlier reading), so that a list as long as it was is read in one round trip; the
/// pages its first page announces beyond them are asked for when it answers. Answers the rows
/// and the number of pages the list announced. Each page is read on a task of its own, so that
/// pages that arrive together are read on every thread free, not one after the other.
pub async fn read_all_ahead<F, T>(
    client: &Client,
    filter: &F,
    what: &str,
    expected: u32,
    progress: &mut dyn Progress,
) -> ApiResult<(Vec<T>, u32)>
where
    F: ListFilter + Clone + Send + Sync + 'static,
    T: DeserializeOwned + Send + 'static,
{
    use futures::StreamExt;
    let size = PageParams::MAX_SIZE;
    let filter = std::sync::Arc::new(filter.clone());
    let ask = |page: u32| {
        let (client, filter) = (client.clone(), std::sync::Arc::clone(&filter));
        // Dropped unread (the list ended before it), the page's task stops too.
        on_a_task(async move {
            client
                .list_as::<F, T>(&filter, PageParams::new(page, size))
                .await
        })
    };
    let mut asked = expected.clamp(1, MAX_PAGES);
    let mut pages: futures::stream::FuturesOrdered<_> = (1..=asked).map(ask).collect();
    let mut out = Vec::new();
    let (mut total, mut announced) = (0u64, 1u32);
    let mut read = 0u32;
    while let Some(answer) = pages.next().await {
        let answer = answer?;
        read += 1;
        if read == 1 {
            total = answer.total;
            announced = u32::try_from(total.div_ceil(u64::from(size)))
                .unwrap_or(MAX_PAGES)
                .clamp(1, MAX_PAGES);
            out.reserve(usize::try_from(total).unwrap_or(0).min(100_000));
            if announced > asked {
                pages.extend((asked + 1..=announced).map(ask));
                asked = announced;
            }
        }
        let short = answer.items.len() < size as usize;
        out.extend(answer.items);
        progress.reading(what, out.len() as u64, total.max(out.len() as u64));
        if short || (out.len() as u64) >= total {
            break;
        }
    }
    Ok((out, announced))
}

/// `read` on a task of its own, so that answers arriving together are read on every thread free,
/// not one after the other on the caller's. Dropped before it ends (its answer no longer
/// wanted), the task is aborted; a task that panicked answers as a failed read.
fn on_a_task<T: Send + 'static>(
    read: impl std::future::Future<Output = ApiResult<T>> + Send + 'static,
) -> impl std::future::Future<Output = ApiResult<T>> + Send {
    use futures::FutureExt;
    tokio_util::task::AbortOnDropHandle::new(tokio::spawn(read)).map(|joined| {
        joined.unwrap_or_else(|e| {
            Err(crate::api::ApiError::Undecodable {
                what: "a reading".to_owned(),
                detail: format!("it stopped: {e}"),
            })
        })
    })
}

/// The forecast of every jurisdiction approaching or below its threshold with sales, soonest
/// crossing first: the nexus list, and the last 90 days' sales for the pace.
pub async fn read_forecasts(
    client: &Client,
    today: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<Vec<forecast::Forecast>> {
    let nexus: Vec<Nexus> = read_all(
        client,
        &NexusFilter {
            status_in: vec![NexusStatus::Approaching, NexusStatus::NotExposed],
            ..NexusFilter::default()
        },
        "nexus",
        progress,
    )
    .await?;
    let wanted: Vec<&Nexus> = nexus.iter().filter(|n| forecast::wanted(n)).collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let pace = read_pace(client, today, progress).await?;
    let mut out: Vec<forecast::Forecast> = wanted
        .into_iter()
        .map(|n| {
            let key = (n.country_code.clone(), n.state_code.clone());
            forecast::forecast(n, &pace.get(&key).copied().unwrap_or_default(), today)
        })
        .collect();
    sort_forecasts(&mut out);
    Ok(out)
}

/// The trailing 90 days' sales per jurisdiction (one reading of the transactions, every page).
pub async fn read_pace(
    client: &Client,
    today: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<HashMap<Place, PeriodActivity>> {
    read_pace_ahead(client, today, 1, progress)
        .await
        .map(|(pace, _)| pace)
}

/// [`read_pace`] asking for the first `expected` pages at once (see [`read_all_ahead`]);
/// answers the pace and the number of pages the transactions announced.
pub async fn read_pace_ahead(
    client: &Client,
    today: NaiveDate,
    expected: u32,
    progress: &mut dyn Progress,
) -> ApiResult<(HashMap<Place, PeriodActivity>, u32)> {
    let (sales, pages): (Vec<crate::model::SaleFigures>, u32) = read_all_ahead(
        client,
        &pace_filter(today),
        "transactions of the last 90 days",
        expected,
        progress,
    )
    .await?;
    Ok((activity_by_place(&sales), pages))
}

/// Exempt sales dated `from` to `to` without a certificate valid on their day: the exempt sales
/// of the range (credit notes follow their sale, and purchases are not sales), and every exemption (active, inactive and expired: the ones the
/// list shows).
pub async fn read_exemption_findings(
    client: &Client,
    from: NaiveDate,
    to: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<(usize, Vec<exemptions::Finding>)> {
    let sales: Vec<Transaction> = read_all(
        client,
        &TransactionFilter {
            exempt_in: vec![
                TransactionExemptStatus::FullyExempt,
                TransactionExemptStatus::PartiallyExempt,
            ],
            transaction_type: vec![TransactionType::Sale],
            direction: Some(crate::model::Direction::Sale),
            date_from: Some(from),
            date_to: Some(to),
            ..TransactionFilter::default()
        },
        "exempt transactions",
        progress,
    )
    .await?;
    let certificates: Vec<Exemption> = read_all(
        client,
        &ExemptionFilter {
            status_in: ExemptionStatus::FILTERABLE.to_vec(),
            ..ExemptionFilter::default()
        },
        "exemptions",
        progress,
    )
    .await?;
    let counted = sales
        .iter()
        .filter(|t| crate::model::TransactionStatus::counts_for_tax(t.status.as_ref()))
        .count();
    Ok((counted, exemptions::findings(&sales, &certificates)))
}

/// The sales of the transactions the service lists for each filing of `ids` (see
/// [`filings::covered_sales`]), as each answers: its place in `ids`, and its answer. Every list
/// is asked for at once, each on a task of its own (see [`on_a_task`]); the client's pacing
/// spaces them, first asked first sent. Dropping the stream stops the reads still under way.
fn covered_sales_as_read(
    client: &Client,
    ids: &[String],
) -> impl futures::Stream<Item = ApiResult<(usize, ApiResult<crate::model::CoveredSales>)>> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| {
            let (client, id) = (client.clone(), id.clone());
            on_a_task(async move {
                let listed = client.list_filing_sales(&id).await;
                Ok((i, listed.map(|listed| filings::covered_sales(&listed))))
            })
        })
        .collect::<futures::stream::FuturesUnordered<_>>()
}

/// The sales of the transactions the service lists for each filing of `ids`, in the order
/// given; the first read that fails fails them all.
pub async fn read_covered_sales_of(
    client: &Client,
    ids: &[String],
    progress: &mut dyn Progress,
) -> ApiResult<Vec<crate::model::CoveredSales>> {
    use futures::StreamExt;
    let mut out = vec![crate::model::CoveredSales::NotRead; ids.len()];
    let mut answers = std::pin::pin!(covered_sales_as_read(client, ids));
    let mut done = 0u64;
    while let Some(answer) = answers.next().await {
        let (i, sales) = answer?;
        out[i] = sales?;
        done += 1;
        progress.reading("transactions of each filing", done, ids.len() as u64);
    }
    Ok(out)
}

/// The same as [`read_covered_sales_of`] for filings that may no longer be there (the ones an
/// Overview checked on an earlier run): each id whose transactions were read, with their
/// sales; an id whose read fails (gone, refused, timed out) is left out, not the whole answer.
pub async fn read_covered_sales_each(
    client: &Client,
    ids: &[String],
) -> Vec<(String, crate::model::CoveredSales)> {
    use futures::StreamExt;
    covered_sales_as_read(client, ids)
        .filter_map(|answer| {
            std::future::ready(match answer {
                Ok((i, Ok(sales))) => Some((ids[i].clone(), sales)),
                Ok((i, Err(e))) => {
                    tracing::debug!("the transactions of {} read ahead: {e}", ids[i]);
                    None
                }
                Err(e) => {
                    tracing::debug!("a filing's transactions read ahead: {e}");
                    None
                }
            })
        })
        .collect()
        .await
}

/// Reads, beside each of `filings` that [`filings::needs_transactions`] on `today`, the sales of
/// the transactions the service lists for it, into
/// [`Filing::covered_sales`](crate::model::Filing::covered_sales): what [`filings::check`]
/// compares.
pub async fn read_covered_sales(
    client: &Client,
    filings: &mut [Filing],
    today: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<()> {
    let wanted: Vec<usize> = (0..filings.len())
        .filter(|&i| filings::needs_transactions(&filings[i], today))
        .collect();
    let ids: Vec<String> = wanted.iter().map(|&i| filings[i].id.clone()).collect();
    let sales = read_covered_sales_of(client, &ids, progress).await?;
    for (i, covered) in wanted.into_iter().zip(sales) {
        filings[i].covered_sales = covered;
    }
    Ok(())
}

/// Filings whose figures do not add up: every filing `filter` lists, with the transactions of
/// each that needs them (see [`read_covered_sales`]), checked by [`filings::check`].
pub async fn read_filing_findings(
    client: &Client,
    filter: &FilingFilter,
    tolerance: crate::model::Tolerance,
    today: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<(usize, Vec<filings::Finding>)> {
    let mut all: Vec<Filing> = read_all(client, filter, "filings", progress).await?;
    read_covered_sales(client, &mut all, today, progress).await?;
    let out = all
        .iter()
        .flat_map(|f| filings::check(f, tolerance))
        .collect();
    Ok((all.len(), out))
}

/// The economic nexus rows of the jurisdictions in `filter`'s standing on `today` (see
/// [`crate::model::filters::NexusFilter::standing`]): the economic nexus (every status the
/// service lists by default), the physical presences and the registrations read whole and
/// judged together by [`crate::rules::attention::standings`], the one rule the Overview counts
/// by. A jurisdiction with no economic nexus record gets a row of its own with no status. The
/// rest of `filter` is asked of the service and narrows the rows; its sort orders them.
pub async fn read_standing(
    client: &Client,
    filter: &NexusFilter,
    today: NaiveDate,
    progress: &mut dyn Progress,
) -> ApiResult<Vec<Nexus>> {
    let Some(standing) = filter.standing else {
        return read_all(client, filter, "nexus", progress).await;
    };
    let nexus: Vec<Nexus> = read_all(client, &NexusFilter::default(), "nexus", progress).await?;
    let physical: Vec<crate::model::PhysicalNexus> = read_all(
        client,
        &crate::model::filters::PhysicalNexusFilter::default(),
        "physical nexus",
        progress,
    )
    .await?;
    let registrations: Vec<crate::model::Registration> = read_all(
        client,
        &crate::model::filters::RegistrationFilter::default(),
        "registrations",
        progress,
    )
    .await?;
    let narrowed = filter.remote();
    let unnarrowed = NexusFilter {
        order_by: Vec::new(),
        ..narrowed.clone()
    } == NexusFilter::default();
    // The rows the rest of the filter lets through, in the order asked for.
    let allowed: Vec<String> = if unnarrowed && narrowed.order_by.is_empty() {
        nexus.iter().map(|n| n.id.clone()).collect()
    } else {
        read_all::<_, Nexus>(client, &narrowed, "nexus", progress)
            .await?
            .into_iter()
            .map(|n| n.id)
            .collect()
    };
    let mut rows: Vec<(usize, Nexus)> =
        crate::rules::attention::standings(&nexus, &physical, &registrations, today)
            .into_iter()
            .filter(|j| j.standing == standing)
            .filter_map(|j| {
                let flagged = Some(j.reason());
                let row = match j.nexus {
                    Some(n) => allowed.iter().position(|id| *id == n.id).map(|at| (at, n)),
                    None if unnarrowed => {
                        place_row(&j.country, j.state.as_deref(), &j.name).map(|n| (usize::MAX, n))
                    }
                    None => None,
                };
                row.map(|(at, n)| (at, Nexus { flagged, ..n }))
            })
            .collect();
    rows.sort_by_key(|(at, _)| *at);
    Ok(rows.into_iter().map(|(_, n)| n).collect())
}

/// A row for a jurisdiction the service keeps no economic nexus record of: its place and name,
/// no id, no status.
fn place_row(country: &str, state: Option<&str>, name: &str) -> Option<Nexus> {
    serde_json::from_value(serde_json::json!({
        "id": "",
        "country_code": country,
        "state_code": state.unwrap_or_default(),
        "state_name": name,
    }))
    .ok()
}
