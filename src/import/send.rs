//! Sending the checked rows: through the client (its shared rate limiter and its retries, which
//! repeat only what is safe to repeat), a few rows in flight, each row's outcome written to the
//! results file as soon as it is known.
//!
//! A row that was on its way when an earlier run stopped (its last line `sending`, or `failed`
//! with no answer known) is looked up before it is sent again: a transaction or credit note by
//! its external id, a customer by its external id, a physical nexus by its jurisdiction, category
//! and start, an exemption by its customer, sales tax id, type and start. A transaction refused
//! as a duplicate external id (409) is looked up too and counts as `exists`. A customer or
//! exemption made by an earlier run whose tax id or certificate failed is finished, not made
//! again.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::{StreamExt, stream};
use indicatif::ProgressBar;

use super::results::{Line, Outcome, Results};
use super::{Planned, Request};
use crate::api::{ApiError, Client, ExemptionFilter, PhysicalNexusFilter};
use crate::model::PageParams;

/// Rows in flight at once: enough to keep the rate limiter's slots filled while each request
/// travels.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// A row to send, with what an earlier run left of it.
#[derive(Debug, Clone)]
pub struct Job {
    pub planned: Planned,
    /// An earlier run sent it without learning the answer: look it up first.
    pub verify: bool,
    /// The record an earlier run made for it, left unfinished (a customer's tax id, an
    /// exemption's certificate).
    pub known_id: Option<String>,
}

/// The rows to send given the results of an earlier run (`previous`, each row's last line):
/// those done are left out and counted.
pub fn resume<S: BuildHasher>(
    planned: Vec<Planned>,
    previous: &HashMap<u64, Line, S>,
) -> (Vec<Job>, usize) {
    let mut done = 0;
    let mut jobs = Vec::new();
    for p in planned {
        let last = previous.get(&p.row);
        if last.is_some_and(|l| l.outcome.is_done()) {
            done += 1;
            continue;
        }
        let verify = last.is_some_and(|l| matches!(l.outcome, Outcome::Sending | Outcome::Failed));
        jobs.push(Job {
            known_id: last.and_then(|l| l.id.clone()),
            verify,
            planned: p,
        });
    }
    (jobs, done)
}

/// How the rows sent fared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    pub created: usize,
    pub updated: usize,
    pub exists: usize,
    pub failed: usize,
}

impl Sent {
    /// `imported 10 transactions: 8 created, 1 already there, 1 failed (2 done before, 1
    /// invalid skipped); results in in.csv.results.csv`.
    pub fn describe(
        &self,
        resource: super::ImportResource,
        done: usize,
        skipped: usize,
        path: &std::path::Path,
    ) -> String {
        let total = self.created + self.updated + self.exists + self.failed;
        let mut parts = Vec::new();
        for (n, what) in [
            (self.created, "created"),
            (self.updated, "updated"),
            (self.exists, "already there"),
            (self.failed, "failed"),
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

    fn count(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Created => self.created += 1,
            Outcome::Updated => self.updated += 1,
            Outcome::Exists => self.exists += 1,
            Outcome::Failed | Outcome::Sending | Outcome::Invalid => self.failed += 1,
        }
    }
}

/// Sends `jobs`, `concurrency` at a time, writing each row's lines to `results` and advancing
/// `progress` by one per row answered. Once `stop` is set no new row is started; the rows in
/// flight are finished and written. Fails only when the results file cannot be written (then
/// nothing more is sent).
pub async fn send(
    client: &Client,
    jobs: Vec<Job>,
    concurrency: usize,
    results: &Results,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> io::Result<Sent> {
    let broken = Arc::new(AtomicBool::new(false));
    let answers = stream::iter(jobs)
        .take_while(|_| {
            let go = !stop.load(Ordering::SeqCst) && !broken.load(Ordering::SeqCst);
            std::future::ready(go)
        })
        .map(|job| one(client, job, results))
        .buffer_unordered(concurrency.max(1));
    futures::pin_mut!(answers);
    let mut sent = Sent::default();
    let mut failure = None;
    while let Some(answer) = answers.next().await {
        match answer {
            Ok(outcome) => sent.count(outcome),
            Err(e) => {
                broken.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
            }
        }
        progress.inc(1);
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(sent),
    }
}

/// Sends one row: its `sending` line, the request, its outcome line.
async fn one(client: &Client, job: Job, results: &Results) -> io::Result<Outcome> {
    let Job {
        planned,
        verify,
        known_id,
    } = job;
    let line = |outcome, id, message| Line {
        row: planned.row,
        outcome,
        id,
        external_id: planned.external_id.clone(),
        message,
    };
    results.write(&line(Outcome::Sending, known_id.clone(), String::new()))?;
    let answer = carry_out(client, &planned.request, verify, known_id).await;
    let outcome = match answer {
        Ok((outcome, id)) => line(outcome, Some(id), String::new()),
        Err(Refused { id, message }) => line(Outcome::Failed, id, message),
    };
    results.write(&outcome)?;
    Ok(outcome.outcome)
}

/// Why a row failed, and the record it made before failing, if any.
struct Refused {
    id: Option<String>,
    message: String,
}

impl From<ApiError> for Refused {
    fn from(e: ApiError) -> Self {
        Refused {
            id: None,
            message: e.to_string(),
        }
    }
}

/// A found record, `Ok(None)` for none; other errors fail the row.
fn found<T>(answer: Result<T, ApiError>) -> Result<Option<T>, Refused> {
    match answer {
        Ok(t) => Ok(Some(t)),
        Err(ApiError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

async fn carry_out(
    client: &Client,
    request: &Request,
    verify: bool,
    known_id: Option<String>,
) -> Result<(Outcome, String), Refused> {
    match request {
        Request::PhysicalNexusUpdate { id, body } => {
            let p = client.update_physical_nexus(id, body).await?;
            Ok((Outcome::Updated, p.id))
        }
        Request::PhysicalNexusCreate(body) => {
            if verify {
                let filter = PhysicalNexusFilter {
                    country_code: Some(body.country_code.clone()),
                    state_code: Some(body.state_code.clone()),
                    ..PhysicalNexusFilter::default()
                };
                let page = client
                    .list_physical_nexus(&filter, PageParams::new(1, PageParams::MAX_SIZE))
                    .await?;
                if let Some(p) = page
                    .items
                    .into_iter()
                    .find(|p| p.category == body.category && p.start_date == body.start_date)
                {
                    return Ok((Outcome::Exists, p.id));
                }
            }
            let p = client.create_physical_nexus(body).await?;
            Ok((Outcome::Created, p.id))
        }
        Request::Customer { id, body, tax_ids } => {
            // Made by an earlier run whose tax id failed, or whose answer was lost.
            let mut made = known_id;
            if verify
                && made.is_none()
                && id.is_none()
                && let Some(external) = &body.external_id
            {
                made = found(client.get_customer_by_external_id(external).await)?.map(|c| c.id);
            }
            let (outcome, id) = match (id, made) {
                (Some(id), _) => (Outcome::Updated, client.update_customer(id, body).await?.id),
                (None, Some(made)) => (
                    Outcome::Created,
                    client.update_customer(&made, body).await?.id,
                ),
                (None, None) => (Outcome::Created, client.create_customer(body).await?.id),
            };
            for tax in tax_ids {
                if let Err(e) = client.put_customer_tax_registration(&id, tax).await {
                    return Err(Refused {
                        message: format!(
                            "customer {id} is saved, but its tax id {} was refused: {e}",
                            tax.tax_id
                        ),
                        id: Some(id),
                    });
                }
            }
            Ok((outcome, id))
        }
        Request::Exemption { body, certificate } => {
            let mut id = known_id;
            if verify && id.is_none() {
                let filter = ExemptionFilter {
                    customer_id: Some(body.customer_id.clone()),
                    ..ExemptionFilter::default()
                };
                let page = client
                    .list_exemptions(&filter, PageParams::new(1, PageParams::MAX_SIZE))
                    .await?;
                id = page
                    .items
                    .into_iter()
                    .find(|e| {
                        e.sales_tax_id.as_deref() == Some(body.sales_tax_id.as_str())
                            && e.start_date == body.start_date
                            && e.exemption_type == body.exemption_type
                    })
                    .map(|e| e.id);
            }
            let id = match id {
                Some(id) => id,
                None => client.create_exemption(body).await?.id,
            };
            if let Some(upload) = certificate
                && let Err(e) = client.upload_attachment(&id, upload.clone()).await
            {
                return Err(Refused {
                    message: format!(
                        "exemption {id} is saved, but its certificate {} was refused: {e}",
                        upload.file_name
                    ),
                    id: Some(id),
                });
            }
            Ok((Outcome::Created, id))
        }
        Request::Transaction(body) => {
            if verify
                && let Some(t) = found(
                    client
                        .get_transaction_by_external_id(&body.external_id)
                        .await,
                )?
            {
                return Ok((Outcome::Exists, t.id));
            }
            match client.create_transaction(body).await {
                Ok(t) => Ok((Outcome::Created, t.id)),
                Err(conflict @ ApiError::Conflict { .. }) => {
                    already(client, &body.external_id, conflict).await
                }
                Err(e) => Err(e.into()),
            }
        }
        Request::CreditNote { sale, body } => {
            if verify
                && let Some(t) = found(
                    client
                        .get_transaction_by_external_id(&body.external_id)
                        .await,
                )?
            {
                return Ok((Outcome::Exists, t.id));
            }
            let original = client.get_transaction(sale).await?;
            if let Err(errors) = crate::rules::credit_note_lines(body, &original, &[]) {
                let rules: Vec<String> = errors
                    .iter()
                    .map(|e| e.msg.trim_start_matches("Value error, ").to_owned())
                    .collect();
                return Err(Refused {
                    id: None,
                    message: rules.join("; "),
                });
            }
            match client.create_credit_note(sale, body).await {
                Ok(t) => Ok((Outcome::Created, t.id)),
                Err(conflict @ ApiError::Conflict { .. }) => {
                    already(client, &body.external_id, conflict).await
                }
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// After a 409 on a create: the transaction of that external id, as `exists`; the conflict
/// itself when there is none.
async fn already(
    client: &Client,
    external_id: &str,
    conflict: ApiError,
) -> Result<(Outcome, String), Refused> {
    match found(client.get_transaction_by_external_id(external_id).await)? {
        Some(t) => Ok((Outcome::Exists, t.id)),
        None => Err(conflict.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::ImportResource;

    #[test]
    fn the_closing_line_counts_each_outcome() {
        let sent = Sent {
            created: 8,
            updated: 0,
            exists: 1,
            failed: 1,
        };
        assert_eq!(
            sent.describe(
                ImportResource::Transactions,
                2,
                1,
                std::path::Path::new("in.csv.results.csv")
            ),
            "imported 10 transactions: 8 created, 1 already there, 1 failed \
             (2 done before, 1 invalid skipped); results in in.csv.results.csv"
        );
    }
}
