//! The live service's lookups across resources (a customer by its external id, a customer's
//! transactions, a registration's filings, a filing's transactions) and its edits of a
//! transaction and of a pending credit note.

use std::sync::Arc;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::transactions::{address, create_for, credit_items, item, settle};
use super::{required_body, saved};
use crate::model::{
    CreditNoteStatus, Customer, Filing, Page, ProcessingStatus, Transaction, TransactionStatus,
    TransactionType,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::store::{Org, OrgData};
use crate::sandbox::tenanted::mirror::Json;
use crate::sandbox::transactions::{DEFAULT_ORDER, Filter, calculate_tax, with_applied_exemptions};

/// The most transactions a customer's or a filing's list answers (the service does not page
/// them).
const MOST: usize = 500;

/// `GET /v1/customers/external/{external_id}`.
pub async fn customer_by_external_id(
    Extension(org): Extension<Arc<Org>>,
    Path(external_id): Path<String>,
) -> Answered<Json<Customer>> {
    let data = org.read();
    data.demo
        .customers
        .iter()
        .find(|c| c.external_id.as_deref() == Some(external_id.as_str()))
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Customer with external_id", &external_id))
}

/// The transactions `filter` finds, newest first, at most [`MOST`].
fn transactions_of(data: &OrgData, filter: &Filter) -> Vec<Transaction> {
    let order = Query::parse(Some("order_by=-date")).order_by(&["date"], DEFAULT_ORDER);
    let positions =
        data.transactions
            .query(filter, &order, crate::clock::today(), &data.demo.customers);
    let n = positions.len().min(MOST);
    data.transactions
        .rows_at(&positions[..n], &data.demo.customers)
        .into_iter()
        .map(|t| with_applied_exemptions(t, &data.demo.exemptions))
        .collect()
}

/// Every day since long ago: the lists below are not held to the last twelve months.
fn all_time() -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(2000, 1, 1)
}

fn customer_position(data: &OrgData, id: &str) -> Answered<usize> {
    data.demo
        .customers
        .iter()
        .position(|c| c.id == id)
        .ok_or_else(|| ErrorAnswer::not_found("Customer", id))
}

/// `GET /v1/customers/{id}/transactions`: the customer's transactions, newest first.
pub async fn customer_transactions(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Vec<Transaction>>> {
    settle(&org);
    let data = org.read();
    let position = customer_position(&data, &id)?;
    let filter = Filter {
        customer: u32::try_from(position).ok(),
        from: all_time(),
        ..Filter::default()
    };
    Ok(Json(transactions_of(&data, &filter)))
}

/// `POST /v1/customers/{id}/transactions`: a new transaction of that customer (the body's
/// `customer`, if any, is not looked at).
pub async fn create_customer_transaction(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Transaction>> {
    let mut body = required_body(&body)?;
    let position = customer_position(&org.read(), &id)?;
    if let Value::Object(map) = &mut body {
        map.entry("customer").or_insert_with(|| json!({}));
    }
    let created = create_for(&app, &org, &body, Some(position))?;
    saved(&app).await?;
    Ok(Json(created))
}

/// `GET /v1/filings/registration/{id}`: the registration's filings, a page of them.
pub async fn registration_filings(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Filing>>> {
    let mut q = Query::parse(raw.as_deref());
    let order = q.order_by(&["start_date", "end_date", "due_date"], "-start_date");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    if !data.demo.registrations.iter().any(|r| r.id == id) {
        return Err(ErrorAnswer::not_found("Registration", &id));
    }
    let rows: Vec<&Filing> = data
        .demo
        .filings
        .iter()
        .filter(|f| f.registration_id == id)
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

/// `GET /v1/transactions/filings/{filing_id}`: the transactions the return covers: those of
/// its jurisdiction dated within its period, and any recorded against it.
pub async fn filing_transactions(
    Extension(org): Extension<Arc<Org>>,
    Path(filing_id): Path<String>,
) -> Answered<Json<Vec<Transaction>>> {
    settle(&org);
    let data = org.read();
    let filing = data
        .demo
        .filings
        .iter()
        .find(|f| f.id == filing_id)
        .ok_or_else(|| ErrorAnswer::not_found("Filing", &filing_id))?;
    let covered = Filter {
        state_code: filing.state_code.clone().filter(|s| !s.is_empty()),
        countries: vec![filing.country_code.clone()],
        from: Some(filing.start_date),
        to: Some(filing.end_date),
        ..Filter::default()
    };
    let mut rows = transactions_of(&data, &covered);
    for t in data
        .transactions
        .recorded_against(&filing_id)
        .into_iter()
        .take(MOST)
    {
        if !rows.iter().any(|r| r.id == t.id) {
            rows.push(with_applied_exemptions(t, &data.demo.exemptions));
        }
    }
    Ok(Json(rows))
}

pub use crate::rules::locked_reason;

/// `PUT /v1/transactions/{id}`: the transaction rewritten from the body (the fields of a new
/// one), its tax calculated again; refused for a locked or filed one.
pub async fn update_transaction(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Transaction>> {
    let mut body = required_body(&body)?;
    if let Value::Object(map) = &mut body {
        map.entry("customer").or_insert_with(|| json!({}));
    }
    settle(&org);
    let updated = {
        let mut data = org.write();
        let mut t = data
            .transactions
            .get(&id, &data.demo.customers)
            .ok_or_else(|| ErrorAnswer::not_found("Transaction", &id))?;
        if let Some(why) = locked_reason(&t) {
            return Err(ErrorAnswer::BadRequest(why));
        }
        let request = crate::rules::transaction_create(&body)?;
        if request.external_id != t.external_id
            && data.transactions.has_external_id(&request.external_id)
        {
            return Err(ErrorAnswer::Conflict(format!(
                "A transaction with external_id {} already exists",
                request.external_id
            )));
        }
        let currency = request
            .currency
            .clone()
            .or_else(|| t.currency.clone())
            .unwrap_or_else(|| "USD".into());
        t.external_id.clone_from(&request.external_id);
        t.date = request.date;
        t.addresses = request.addresses.iter().map(address).collect();
        let ship = t
            .addresses
            .iter()
            .find(|a| a.kind == crate::model::AddressType::ShipTo)
            .or(t.addresses.first());
        t.country = ship.and_then(|a| a.address.country.clone());
        t.state = ship.and_then(|a| a.address.state.clone());
        let org_id = org.id.clone();
        t.transaction_items = request
            .transaction_items
            .iter()
            .map(|i| {
                let item_id = data.new_id("item");
                item(
                    item_id,
                    &org_id,
                    i.external_id.clone(),
                    i.date,
                    i.external_product_id.clone(),
                    i.description.clone(),
                    i.quantity,
                    i.amount,
                    &currency,
                )
            })
            .collect();
        let items_total = t.transaction_items.iter().filter_map(|i| i.amount).sum();
        t.total_amount = Some(request.total_amount.unwrap_or(items_total));
        t.subtotal = Some(items_total);
        t.currency = Some(currency);
        if request.description.is_some() {
            t.description = request.description;
        }
        if request.marketplace.is_some() {
            t.marketplace = request.marketplace;
        }
        if let Some(status) = request.status {
            t.status = Some(status);
        }
        t.processing_status = Some(ProcessingStatus::Processed);
        calculate_tax(&mut t);
        let OrgData {
            demo, transactions, ..
        } = &mut *data;
        transactions.update(t.clone(), &demo.customers);
        with_applied_exemptions(t, &demo.exemptions)
    };
    saved(&app).await?;
    Ok(Json(updated))
}

/// `PUT /v1/transactions/{id}/credit_notes/{credit_note_id}`: a credit note of that sale still
/// `PENDING`, rewritten from the body (the fields of a new credit note) under the same rules as a
/// new one: the sale's currency, an external id no other transaction has, a total within what
/// the sale's other credit notes left open, and each line within what its sale line has left.
pub async fn update_credit_note(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path((id, note_id)): Path<(String, String)>,
    body: Bytes,
) -> Answered<Json<Transaction>> {
    let request = crate::rules::credit_note(&required_body(&body)?)?;
    settle(&org);
    let updated = {
        let mut data = org.write();
        let mut note = data
            .transactions
            .get(&note_id, &data.demo.customers)
            .filter(|t| t.related_to.as_deref() == Some(id.as_str()))
            .ok_or_else(|| ErrorAnswer::not_found("Credit note", &note_id))?;
        if !matches!(
            note.kind,
            TransactionType::FullCreditNote | TransactionType::PartialCreditNote
        ) {
            return Err(ErrorAnswer::not_found("Credit note", &note_id));
        }
        if let Some(why) = crate::rules::credit_note_locked(&note) {
            return Err(ErrorAnswer::BadRequest(why));
        }
        let sale = data
            .transactions
            .get(&id, &data.demo.customers)
            .ok_or_else(|| ErrorAnswer::not_found("Transaction", &id))?;
        let currency = sale.currency.clone().unwrap_or_else(|| "USD".into());
        if request.currency != currency {
            return Err(ErrorAnswer::BadRequest(format!(
                "The credit note's currency {} must be the sale's currency {currency}",
                request.currency
            )));
        }
        if request.external_id != note.external_id
            && data.transactions.has_external_id(&request.external_id)
        {
            return Err(ErrorAnswer::Conflict(format!(
                "A transaction with external_id {} already exists",
                request.external_id
            )));
        }
        let others: Vec<&Transaction> = data
            .transactions
            .credit_notes_of(&id)
            .into_iter()
            .filter(|t| t.id != note_id)
            .collect();
        let sale_total = sale
            .final_total_amount
            .or(sale.total_amount)
            .unwrap_or_default();
        let left = sale_total
            - others
                .iter()
                .filter_map(|t| t.total_amount)
                .sum::<Decimal>();
        if request.total_amount > left {
            return Err(ErrorAnswer::BadRequest(format!(
                "The credit note's total_amount {} exceeds the {left} {currency} still open on {id}",
                request.total_amount
            )));
        }
        crate::rules::credit_note_lines(&request, &sale, &others)?;
        note.kind = if request.total_amount == left {
            TransactionType::FullCreditNote
        } else {
            TransactionType::PartialCreditNote
        };
        note.external_id.clone_from(&request.external_id);
        note.date = request.date;
        note.total_amount = Some(request.total_amount);
        note.transaction_items = credit_items(&mut data, &org.id, &request);
        if request.description.is_some() {
            note.description = request.description;
        }
        note.status = Some(match request.status {
            CreditNoteStatus::Cancelled => TransactionStatus::Cancelled,
            CreditNoteStatus::Committed => TransactionStatus::Committed,
            _ => TransactionStatus::Pending,
        });
        calculate_tax(&mut note);
        let OrgData {
            demo, transactions, ..
        } = &mut *data;
        transactions.update(note.clone(), &demo.customers);
        note
    };
    saved(&app).await?;
    Ok(Json(updated))
}
