//! What the service already holds for the rows about to be sent, so that an import run twice
//! makes nothing twice.
//!
//! A row is matched by its external id when its resource has one: a transaction or credit note
//! (`GET /v1/transactions/external/{id}`, one read a row: no list filters by it), a customer
//! (the whole customer list when it takes fewer reads than the rows, else
//! `GET /v1/customers/external/{id}` a row), a physical nexus (the physical nexus list, read
//! once). A physical nexus row without an external id is matched by its jurisdiction, category,
//! start date and address; an exemption, which has no external id, by its customer, sales tax
//! id, type and start date (and its jurisdiction and country when the row gives them), from its
//! customer's exemptions (one list a customer). Every read goes through the client: its pace and
//! its retries.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::{StreamExt, stream};

use super::Request;
use super::send::Job;
use crate::api::{ApiError, Client, CustomerFilter, ExemptionFilter, PhysicalNexusFilter};
use crate::model::{
    Customer, Exemption, ExemptionCreate, PageParams, PhysicalNexus, PhysicalNexusCreate,
};
use crate::reads::{Quiet, read_all};

/// What matched, in the closing line's words.
pub const BY_EXTERNAL_ID: &str = "external_id";
const BY_PLACE: &str = "jurisdiction, category, start date and address";
const BY_CERTIFICATE: &str = "customer, sales tax id, type and start date";

/// Lists read at once (customers' exemptions).
const READS_AT_ONCE: usize = 4;

/// A record the service already holds for a row, and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub id: String,
    /// What matched: [`BY_EXTERNAL_ID`], or the fields of a resource without one.
    pub by: &'static str,
    /// The row's message in the results file: `matched by external_id imp-nl-1`.
    pub message: String,
}

impl Found {
    /// The record `id`, matched `by` those fields, with these values (`what`).
    fn new(id: String, by: &'static str, what: impl std::fmt::Display) -> Self {
        Found {
            id,
            by,
            message: format!("matched by {what}"),
        }
    }

    /// The record `id`, found by the row's external id `external_id`.
    pub fn by_external_id(id: String, external_id: &str) -> Self {
        Found::new(
            id,
            BY_EXTERNAL_ID,
            format_args!("external_id {external_id}"),
        )
    }
}

/// What the reads before sending learned of a row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Existing {
    /// Not read before sending: the row is looked up as it is sent, when it can be.
    #[default]
    Unread,
    /// The service holds nothing the row matches.
    Absent,
    Found(Found),
    /// The read failed: the row is not sent, since it could make a second record.
    Unknown(String),
}

impl Existing {
    fn of(found: Option<Found>) -> Self {
        found.map_or(Existing::Absent, Existing::Found)
    }
}

/// The physical nexus among `list` that a create of `body` would repeat: the one of its
/// external id when it has one, else one of its jurisdiction, category, start date and address.
pub fn physical_nexus_match(body: &PhysicalNexusCreate, list: &[PhysicalNexus]) -> Option<Found> {
    if let Some(external) = &body.external_id {
        return list
            .iter()
            .find(|p| p.external_id.as_ref() == Some(external))
            .map(|p| Found::by_external_id(p.id.clone(), external));
    }
    list.iter()
        .find(|p| {
            p.country_code == body.country_code
                && p.state_code == body.state_code
                && p.category == body.category
                && p.start_date == body.start_date
                && p.street_1 == body.street_1
                && p.street_2 == body.street_2
                && p.city == body.city
                && p.postal_code == body.postal_code
        })
        .map(|p| {
            let what = format_args!(
                "jurisdiction {}-{}, category {}, start date {} and address",
                p.country_code, p.state_code, p.category, p.start_date
            );
            Found::new(p.id.clone(), BY_PLACE, what)
        })
}

/// The exemption among `list` (the customer's) that a create of `body` would repeat.
pub fn exemption_match(body: &ExemptionCreate, list: &[Exemption]) -> Option<Found> {
    let given = |row: &Option<String>, held: &Option<String>| row.is_none() || row == held;
    list.iter()
        .find(|e| {
            e.sales_tax_id.as_deref() == Some(body.sales_tax_id.as_str())
                && e.start_date == body.start_date
                && e.exemption_type == body.exemption_type
                && given(&body.jurisdiction, &e.jurisdiction)
                && given(&body.country_code, &e.country_code)
        })
        .map(|e| {
            let what = format_args!(
                "customer {}, sales tax id {}, type {} and start date {}",
                body.customer_id, body.sales_tax_id, body.exemption_type, body.start_date
            );
            Found::new(e.id.clone(), BY_CERTIFICATE, what)
        })
}

/// The physical nexus records of `body`'s jurisdiction, for a row not read before sending.
pub async fn physical_nexus_in_place(
    client: &Client,
    body: &PhysicalNexusCreate,
) -> Result<Vec<PhysicalNexus>, ApiError> {
    let filter = PhysicalNexusFilter {
        country_code: Some(body.country_code.clone()),
        state_code: Some(body.state_code.clone()),
        ..PhysicalNexusFilter::default()
    };
    read_all(client, &filter, "physical nexus", &mut Quiet).await
}

/// The exemptions of `customer_id`.
pub async fn exemptions_of(client: &Client, customer_id: &str) -> Result<Vec<Exemption>, ApiError> {
    let filter = ExemptionFilter {
        customer_id: Some(customer_id.to_owned()),
        ..ExemptionFilter::default()
    };
    read_all(client, &filter, "exemptions", &mut Quiet).await
}

/// Reads what the service holds for `jobs` in as few list reads as answer them, and files it in
/// each job's [`Job::existing`]: the physical nexus list once, the customer list when it is
/// shorter in pages than the customer rows, each exemption row's customer's exemptions once. Rows
/// left [`Existing::Unread`] look themselves up as they are sent. Once `stop` is set no further
/// list is read.
pub async fn read_existing(client: &Client, jobs: &mut [Job], stop: &AtomicBool) {
    let nexus: Vec<usize> = positions(jobs, |r| matches!(r, Request::PhysicalNexusCreate(_)));
    if !nexus.is_empty() && !stop.load(Ordering::SeqCst) {
        let list = read_all::<_, PhysicalNexus>(
            client,
            &PhysicalNexusFilter::default(),
            "physical nexus",
            &mut Quiet,
        )
        .await;
        for &i in &nexus {
            let Request::PhysicalNexusCreate(body) = &jobs[i].planned.request else {
                continue;
            };
            jobs[i].existing = match &list {
                Ok(list) => Existing::of(physical_nexus_match(body, list)),
                Err(e) => unknown(e),
            };
        }
    }
    let customers: Vec<usize> = positions(
        jobs,
        |r| matches!(r, Request::Customer { id: None, body, .. } if body.external_id.is_some()),
    );
    if !customers.is_empty() && !stop.load(Ordering::SeqCst) {
        read_customers(client, jobs, &customers).await;
    }
    let exemptions: Vec<usize> = positions(jobs, |r| matches!(r, Request::Exemption { .. }));
    let mut owners: Vec<String> = exemptions
        .iter()
        .filter_map(|&i| match &jobs[i].planned.request {
            Request::Exemption { body, .. } => Some(body.customer_id.clone()),
            _ => None,
        })
        .collect();
    owners.sort_unstable();
    owners.dedup();
    let lists: HashMap<String, Result<Vec<Exemption>, ApiError>> = stream::iter(owners)
        .take_while(|_| std::future::ready(!stop.load(Ordering::SeqCst)))
        .map(|customer| async move {
            let list = exemptions_of(client, &customer).await;
            (customer, list)
        })
        .buffer_unordered(READS_AT_ONCE)
        .collect()
        .await;
    for i in exemptions {
        let Request::Exemption { body, .. } = &jobs[i].planned.request else {
            continue;
        };
        jobs[i].existing = match lists.get(&body.customer_id) {
            Some(Ok(list)) => Existing::of(exemption_match(body, list)),
            Some(Err(e)) => unknown(e),
            None => Existing::Unread,
        };
    }
}

/// The customer rows `at` (new customers with an external id) against the whole customer list,
/// when reading it takes no more reads than the rows; otherwise they are left to their own
/// lookup.
async fn read_customers(client: &Client, jobs: &mut [Job], at: &[usize]) {
    let filter = CustomerFilter::default();
    let Ok(probe) = client.list_customers(&filter, PageParams::new(1, 1)).await else {
        return;
    };
    let pages = probe.total.div_ceil(u64::from(PageParams::MAX_SIZE));
    if pages > at.len() as u64 {
        return;
    }
    let list = read_all::<_, Customer>(client, &filter, "customers", &mut Quiet).await;
    let mut known: HashMap<&str, &str> = HashMap::new();
    if let Ok(list) = &list {
        for c in list {
            if let Some(external) = &c.external_id {
                known.entry(external).or_insert(&c.id);
            }
        }
    }
    for &i in at {
        let Request::Customer { body, .. } = &jobs[i].planned.request else {
            continue;
        };
        let Some(external) = body.external_id.as_deref() else {
            continue;
        };
        jobs[i].existing = match &list {
            Ok(_) => Existing::of(
                known
                    .get(external)
                    .map(|id| Found::by_external_id((*id).to_owned(), external)),
            ),
            Err(e) => unknown(e),
        };
    }
}

/// The positions of the jobs still unread whose request `wanted` takes.
fn positions(jobs: &[Job], wanted: impl Fn(&Request) -> bool) -> Vec<usize> {
    jobs.iter()
        .enumerate()
        .filter(|(_, j)| j.existing == Existing::Unread && wanted(&j.planned.request))
        .map(|(i, _)| i)
        .collect()
}

fn unknown(e: &ApiError) -> Existing {
    Existing::Unknown(format!(
        "not sent: whether the service already holds it could not be read: {e}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nexus(id: &str, external: Option<&str>, city: Option<&str>) -> PhysicalNexus {
        serde_json::from_value(json!({
            "id": id, "country_code": "US", "state_code": "NV", "start_date": "2025-01-01",
            "category": "PHYSICAL_BUSINESS_LOCATION", "external_id": external, "city": city
        }))
        .unwrap()
    }

    fn create(external: Option<&str>, city: Option<&str>) -> PhysicalNexusCreate {
        serde_json::from_value(json!({
            "country_code": "US", "state_code": "NV", "start_date": "2025-01-01",
            "category": "PHYSICAL_BUSINESS_LOCATION", "external_id": external, "city": city
        }))
        .unwrap()
    }

    #[test]
    fn a_physical_nexus_is_matched_by_its_external_id_else_by_place_and_address() {
        let held = [
            nexus("phys_1", Some("pn-1"), Some("Reno")),
            nexus("phys_2", None, Some("Las Vegas")),
        ];
        let found = physical_nexus_match(&create(Some("pn-1"), None), &held).unwrap();
        assert_eq!(
            (found.id.as_str(), found.by, found.message.as_str()),
            ("phys_1", BY_EXTERNAL_ID, "matched by external_id pn-1")
        );
        assert_eq!(
            physical_nexus_match(&create(Some("pn-9"), Some("Reno")), &held),
            None,
            "an external id the service does not hold is a new record, wherever it is"
        );
        let found = physical_nexus_match(&create(None, Some("Las Vegas")), &held).unwrap();
        assert_eq!((found.id.as_str(), found.by), ("phys_2", BY_PLACE));
        assert_eq!(
            physical_nexus_match(&create(None, Some("Henderson")), &held),
            None,
            "a second place in the same state is its own record"
        );
    }
}
