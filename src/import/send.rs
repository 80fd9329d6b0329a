//! Sending the checked rows: first what the service already holds for them is read
//! ([`super::lookup`]), then each row goes through the client (its shared rate limiter and its
//! retries, which repeat only what is safe to repeat), a few rows in flight, each row's outcome
//! written to the results file as soon as it is known.
//!
//! A row the service already holds (matched by its external id, or by its fields where the
//! resource has none) is `exists`, with how it matched, and nothing is sent for it. A
//! transaction refused as a duplicate external id (409) is looked up and counts as `exists` too.
//! A row that was on its way when an earlier run stopped (its last line `sending`, or `failed`)
//! is looked up the same way; a customer or exemption made by an earlier run whose tax id or
//! certificate failed is finished, not made again.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::{StreamExt, stream};
use indicatif::ProgressBar;

use super::lookup::{self, Existing, Found};
use super::results::{Line, Outcome, Results};
use super::{Planned, Request};
use crate::api::{ApiError, Client};

/// Rows in flight at once: enough to keep the rate limiter's slots filled while each request
/// travels.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// A row to send, with what an earlier run left of it.
#[derive(Debug, Clone)]
pub struct Job {
    pub planned: Planned,
    /// An earlier run sent it without learning the answer.
    pub verify: bool,
    /// The record an earlier run made for it, left unfinished (a customer's tax id, an
    /// exemption's certificate).
    pub known_id: Option<String>,
    /// What the reads before sending found of it.
    pub existing: Existing,
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
            existing: Existing::Unread,
        });
    }
    (jobs, done)
}

/// How the rows sent fared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sent {
    pub created: usize,
    pub updated: usize,
    pub exists: usize,
    pub failed: usize,
    /// The rows already there, by what matched them.
    pub matched: BTreeMap<&'static str, usize>,
}

impl Sent {
    /// `imported 10 transactions: 8 created, 1 already there by external_id, 1 failed (2 done
    /// before, 1 invalid skipped); results in in.csv.results.csv`.
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
            (self.created, "created".to_owned()),
            (self.updated, "updated".to_owned()),
            (self.exists, self.already_there()),
            (self.failed, "failed".to_owned()),
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

    /// `already there by external_id`, or with several ways `already there (2 by external_id,
    /// 1 by …)`.
    fn already_there(&self) -> String {
        match self.matched.len() {
            0 => "already there".to_owned(),
            1 => {
                let by = self.matched.keys().next().copied().unwrap_or_default();
                format!("already there by {by}")
            }
            _ => {
                let ways: Vec<String> = self
                    .matched
                    .iter()
                    .map(|(by, n)| format!("{n} by {by}"))
                    .collect();
                format!("already there ({})", ways.join(", "))
            }
        }
    }

    fn count(&mut self, outcome: Outcome, by: Option<&'static str>) {
        match outcome {
            Outcome::Created => self.created += 1,
            Outcome::Updated => self.updated += 1,
            Outcome::Exists => {
                self.exists += 1;
                if let Some(by) = by {
                    *self.matched.entry(by).or_default() += 1;
                }
            }
            Outcome::Failed | Outcome::Sending | Outcome::Invalid => self.failed += 1,
        }
    }
}

/// Reads what the service already holds for `jobs`, then sends them, `concurrency` at a time,
/// writing each row's lines to `results` and advancing `progress` by one per row answered; at
/// the end the results file is left with one line per row. Once `stop` is set no new row is
/// started; the rows in flight are finished and written. Fails only when the results file
/// cannot be written (then nothing more is sent).
pub async fn send(
    client: &Client,
    mut jobs: Vec<Job>,
    concurrency: usize,
    results: &Results,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> io::Result<Sent> {
    lookup::read_existing(client, &mut jobs, stop).await;
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
            Ok((outcome, by)) => sent.count(outcome, by),
            Err(e) => {
                broken.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
            }
        }
        progress.inc(1);
    }
    match failure {
        Some(e) => Err(e),
        None => results.finish().map(|()| sent),
    }
}

/// Sends one row: its `sending` line, the request, its outcome line; answers the outcome and,
/// for a row already there, what matched it.
async fn one(
    client: &Client,
    job: Job,
    results: &Results,
) -> io::Result<(Outcome, Option<&'static str>)> {
    let line = |outcome, id, message| Line {
        row: job.planned.row,
        outcome,
        id,
        external_id: job.planned.external_id.clone(),
        message,
    };
    results.write(&line(Outcome::Sending, job.known_id.clone(), String::new()))?;
    let (written, by) = match carry_out(client, &job).await {
        Ok(Settled::Done(outcome, id)) => (line(outcome, Some(id), String::new()), None),
        Ok(Settled::There(found)) => (
            line(Outcome::Exists, Some(found.id), found.message),
            Some(found.by),
        ),
        Err(Refused { id, message }) => (line(Outcome::Failed, id, message), None),
    };
    results.write(&written)?;
    Ok((written.outcome, by))
}

/// How a row ended: created or updated, or found already there.
enum Settled {
    Done(Outcome, String),
    There(Found),
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

/// What the reads before sending found of a row, looked up now when they did not read it
/// (`look` is the row's own lookup, `None` when it has nothing to be looked up by).
async fn existing<F>(job: &Job, look: Option<F>) -> Result<Option<Found>, Refused>
where
    F: Future<Output = Result<Option<Found>, Refused>>,
{
    match &job.existing {
        Existing::Found(found) => Ok(Some(found.clone())),
        Existing::Absent => Ok(None),
        Existing::Unknown(message) => Err(Refused {
            id: None,
            message: message.clone(),
        }),
        Existing::Unread => match look {
            Some(look) => look.await,
            None => Ok(None),
        },
    }
}

/// The transaction of `external_id`, if the service holds one.
async fn transaction_there(client: &Client, external_id: &str) -> Result<Option<Found>, Refused> {
    let t = found(client.get_transaction_by_external_id(external_id).await)?;
    Ok(t.map(|t| Found::by_external_id(t.id, external_id)))
}

async fn carry_out(client: &Client, job: &Job) -> Result<Settled, Refused> {
    let Job {
        planned,
        verify,
        known_id,
        ..
    } = job;
    match &planned.request {
        Request::PhysicalNexusUpdate { id, body } => {
            let p = client.update_physical_nexus(id, body).await?;
            Ok(Settled::Done(Outcome::Updated, p.id))
        }
        Request::PhysicalNexusCreate(body) => {
            let look = async {
                let list = lookup::physical_nexus_in_place(client, body).await?;
                Ok(lookup::physical_nexus_match(body, &list))
            };
            if let Some(there) = existing(job, Some(look)).await? {
                return Ok(Settled::There(there));
            }
            let p = client.create_physical_nexus(body).await?;
            Ok(Settled::Done(Outcome::Created, p.id))
        }
        Request::Customer { id, body, tax_ids } => {
            let (outcome, id) = if let Some(id) = id {
                (Outcome::Updated, client.update_customer(id, body).await?.id)
            } else {
                // Made by an earlier run whose tax id failed, or whose answer was lost.
                let mut made = known_id.clone();
                if made.is_none() {
                    let look = body.external_id.as_deref().map(|external| async move {
                        let c = found(client.get_customer_by_external_id(external).await)?;
                        Ok(c.map(|c| Found::by_external_id(c.id, external)))
                    });
                    match existing(job, look).await? {
                        Some(there) if !verify => return Ok(Settled::There(there)),
                        there => made = there.map(|f| f.id),
                    }
                }
                match made {
                    Some(made) => (
                        Outcome::Created,
                        client.update_customer(&made, body).await?.id,
                    ),
                    None => (Outcome::Created, client.create_customer(body).await?.id),
                }
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
            Ok(Settled::Done(outcome, id))
        }
        Request::Exemption { body, certificate } => {
            let mut id = known_id.clone();
            if id.is_none() {
                let look = async {
                    let list = lookup::exemptions_of(client, &body.customer_id).await?;
                    Ok(lookup::exemption_match(body, &list))
                };
                match existing(job, Some(look)).await? {
                    Some(there) if !verify => return Ok(Settled::There(there)),
                    there => id = there.map(|f| f.id),
                }
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
            Ok(Settled::Done(Outcome::Created, id))
        }
        Request::Transaction(body) => {
            let look = transaction_there(client, &body.external_id);
            if let Some(there) = existing(job, Some(look)).await? {
                return Ok(Settled::There(there));
            }
            match client.create_transaction(body).await {
                Ok(t) => Ok(Settled::Done(Outcome::Created, t.id)),
                Err(conflict @ ApiError::Conflict { .. }) => {
                    already(client, &body.external_id, conflict).await
                }
                Err(e) => Err(e.into()),
            }
        }
        Request::CreditNote { sale, body } => {
            let look = transaction_there(client, &body.external_id);
            if let Some(there) = existing(job, Some(look)).await? {
                return Ok(Settled::There(there));
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
                Ok(t) => Ok(Settled::Done(Outcome::Created, t.id)),
                Err(conflict @ ApiError::Conflict { .. }) => {
                    already(client, &body.external_id, conflict).await
                }
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// After a 409 on a create: the transaction of that external id, as already there; the
/// conflict itself when there is none.
async fn already(
    client: &Client,
    external_id: &str,
    conflict: ApiError,
) -> Result<Settled, Refused> {
    match transaction_there(client, external_id).await? {
        Some(there) => Ok(Settled::There(there)),
        None => Err(conflict.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::ImportResource;

    #[test]
    fn the_closing_line_counts_each_outcome() {
        let sent = Sent {
            created: 8,
            updated: 0,
            exists: 1,
            failed: 1,
            matched: [(lookup::BY_EXTERNAL_ID, 1)].into(),
        };
        assert_eq!(
            sent.describe(
                ImportResource::Transactions,
                2,
                1,
                std::path::Path::new("in.csv.results.csv")
            ),
            "imported 10 transactions: 8 created, 1 already there by external_id, 1 failed \
             (2 done before, 1 invalid skipped); results in in.csv.results.csv"
        );
    }
}
