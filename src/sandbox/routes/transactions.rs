//! Transactions: the paged list over compact rows, detail, create (202, tax calculated a little
//! later) and credit notes.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use chrono::Utc;
use rust_decimal::Decimal;
use serde_json::Value;

use super::{required_body, saved};
use crate::model::{
    Address, AddressStatus, AddressWrite, CreditNoteRequest, Customer, CustomerStatus, Direction,
    Page, ProcessingStatus, RefundStatus, Timestamp, Transaction, TransactionAddress,
    TransactionExemptStatus, TransactionItem, TransactionStatus, TransactionType,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::query::Query;
use crate::sandbox::store::{Kind, Org, OrgData};
use crate::sandbox::transactions::{
    DEFAULT_ORDER, Filter, ORDER_FIELDS, calculate_tax, with_applied_exemptions,
};

fn names<T>(known: &[T], f: impl Fn(&T) -> &str) -> Vec<&str> {
    known.iter().map(f).collect()
}

/// Reads checked wire values into an enumeration.
fn parse_all<T>(values: Option<Vec<String>>, parse: fn(&str) -> T) -> Vec<T> {
    values
        .unwrap_or_default()
        .iter()
        .map(|s| parse(s))
        .collect()
}

/// Calculates the tax of queued transactions whose time has come, before any read.
pub(super) fn settle(org: &Org) {
    if org.read().transactions.has_queued() {
        let mut data = org.write();
        let OrgData {
            demo, transactions, ..
        } = &mut *data;
        transactions.settle(Timestamp::now(), &demo.customers);
    }
}

pub async fn list(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Transaction>>> {
    let mut q = Query::parse(raw.as_deref());
    let statuses = q.one_of_list(
        "status",
        &names(TransactionStatus::KNOWN, TransactionStatus::as_str),
    );
    let processing = q.one_of_list(
        "processing_status__in",
        &names(ProcessingStatus::KNOWN, ProcessingStatus::as_str),
    );
    let exempt = q.one_of_list(
        "exempt__in",
        &names(
            TransactionExemptStatus::KNOWN,
            TransactionExemptStatus::as_str,
        ),
    );
    let kinds = q.one_of_list(
        "transaction_type",
        &names(TransactionType::KNOWN, TransactionType::as_str),
    );
    let refund_status = q.one_of(
        "refund_status",
        &names(RefundStatus::KNOWN, RefundStatus::as_str),
    );
    let direction = q.one_of("direction", &names(Direction::KNOWN, Direction::as_str));
    let address = q.one_of_list(
        "address_status__in",
        &names(AddressStatus::KNOWN, AddressStatus::as_str),
    );
    let filter = Filter {
        search: q.get("search_query").map(str::to_owned),
        state_code: q.get("state_code").map(str::to_owned),
        state_name: q.get("state").map(str::to_owned),
        countries: q.list("country"),
        statuses: parse_all(statuses, TransactionStatus::parse),
        refund_status: refund_status.map(|s| RefundStatus::parse(&s)),
        processing: parse_all(processing, ProcessingStatus::parse),
        exempt: parse_all(exempt, TransactionExemptStatus::parse),
        kinds: parse_all(kinds, TransactionType::parse),
        address: parse_all(address, AddressStatus::parse),
        marketplace: q.bool("marketplace"),
        direction: direction.map(|d| Direction::parse(&d)),
        filing_id: q.get("filing_id").map(str::to_owned),
        source: q.get("transaction_source").map(str::to_owned),
        from: q.date("date__gte"),
        to: q.date("date__lte"),
        customer: None,
    };
    let order = q.order_by(ORDER_FIELDS, DEFAULT_ORDER);
    let page = q.page();
    q.finish()?;
    settle(&org);
    let data = org.read();
    let positions =
        data.transactions
            .query(&filter, &order, crate::clock::today(), &data.demo.customers);
    let start = page.offset().min(positions.len());
    let end = (start + page.size as usize).min(positions.len());
    let items = data
        .transactions
        .rows_at(&positions[start..end], &data.demo.customers)
        .into_iter()
        .map(|t| with_applied_exemptions(t, &data.demo.exemptions))
        .collect();
    Ok(Json(Page::new(
        items,
        positions.len() as u64,
        page.page,
        page.size,
    )))
}

pub async fn get_one(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Transaction>> {
    settle(&org);
    let data = org.read();
    data.transactions
        .get(&id, &data.demo.customers)
        .map(|t| Json(with_applied_exemptions(t, &data.demo.exemptions)))
        .ok_or_else(|| ErrorAnswer::not_found("Transaction", &id))
}

pub async fn get_external(
    Extension(org): Extension<Arc<Org>>,
    Path(external_id): Path<String>,
) -> Answered<Json<Transaction>> {
    settle(&org);
    let data = org.read();
    data.transactions
        .get_by_external_id(&external_id, &data.demo.customers)
        .map(|t| Json(with_applied_exemptions(t, &data.demo.exemptions)))
        .ok_or_else(|| ErrorAnswer::not_found("Transaction with external_id", &external_id))
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .filter(|s| !s.trim().is_empty())
}

/// The customer a created transaction names: matched by external id or email, else added.
fn match_customer(data: &mut OrgData, org_id: &str, v: &Value) -> Customer {
    let external_id = text(v, "external_id");
    let email = text(v, "email");
    if let Some(found) = data.demo.customers.iter().find(|c| {
        (external_id.is_some() && c.external_id == external_id)
            || (email.is_some() && c.email == email)
    }) {
        return found.clone();
    }
    let customer = Customer {
        id: data.new_id("cust"),
        organization_id: org_id.to_owned(),
        name: text(v, "name"),
        external_id,
        external_friendly_id: None,
        status: Some(CustomerStatus::Active),
        email,
        phone: text(v, "phone"),
        company_name: None,
        address: Address {
            street_1: text(v, "street_1"),
            street_2: text(v, "street_2"),
            city: text(v, "city"),
            county: text(v, "county"),
            state: text(v, "state"),
            postal_code: text(v, "postal_code"),
            country: text(v, "country"),
            full_address: text(v, "full_address"),
        },
        source: text(v, "source").or(Some("API".into())),
        connection_id: None,
        address_status: None,
        registration_number: None,
        customer_tax_registrations: Some(Vec::new()),
        store_name: None,
    };
    data.demo.customers.push(customer.clone());
    data.touch(Kind::Customer, customer.id.clone());
    customer
}

pub(super) fn address(a: &AddressWrite) -> TransactionAddress {
    TransactionAddress {
        kind: a.kind.clone().unwrap_or(crate::model::AddressType::ShipTo),
        id: None,
        transaction_id: None,
        phone: a.phone.clone(),
        address: a.address.clone().into(),
        is_unincorporated: None,
        status: None,
        connection_id: None,
    }
}

#[expect(clippy::too_many_arguments)]
pub(super) fn item(
    id: String,
    org_id: &str,
    external_id: Option<String>,
    date: Timestamp,
    product: String,
    description: Option<String>,
    quantity: Option<Decimal>,
    amount: Option<Decimal>,
    currency: &str,
) -> TransactionItem {
    TransactionItem {
        id,
        external_id,
        organization_id: Some(org_id.to_owned()),
        date: Some(date),
        description,
        external_product_id: Some(product),
        product: None,
        product_id: None,
        product_name: None,
        product_description: None,
        quantity,
        amount,
        tax_amount_imported: None,
        tax_rate_imported: None,
        tax_amount_calculated: None,
        tax_rate_calculated: None,
        original_currency: Some(currency.to_owned()),
        destination_currency: Some(currency.to_owned()),
        converted_amount: None,
        converted_taxable_amount: None,
        converted_tax_amount_imported: None,
        converted_tax_amount_calculated: None,
        converted_total_discount: None,
        converted_subtotal: None,
        taxable_amount: None,
        tax_exemption: None,
        exempt: Some(false),
        tax_items: Vec::new(),
        total_discount: Some(Decimal::ZERO),
        subtotal: amount,
        is_reverse_charge_self_accounted: None,
    }
}

/// A bare transaction with the fields every created one shares.
fn blank(
    org_id: &str,
    external_id: String,
    date: Timestamp,
    kind: TransactionType,
    currency: &str,
) -> Transaction {
    let mut t: Transaction = serde_json::from_value(serde_json::json!({
        "id": "", "external_id": external_id, "date": date, "type": kind, "addresses": [], "transaction_items": []
    }))
    .unwrap_or_else(|_| unreachable!("a minimal transaction always reads"));
    t.organization_id = Some(org_id.to_owned());
    t.currency = Some(currency.to_owned());
    t.destination_currency = Some(currency.to_owned());
    t.direction = Some(Direction::Sale);
    t.exempt = Some(TransactionExemptStatus::NotExempt);
    t.source = Some("API".into());
    t.is_duplicate = Some(false);
    t.locked = Some(false);
    t
}

/// POST /v1/transactions: accepted with 202 and `QUEUED`; tax is calculated after the
/// configured processing delay. The answer is a list holding the transaction, as in the
/// service's sample.
pub async fn create(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<(StatusCode, Json<Vec<Transaction>>)> {
    let created = create_for(&app, &org, &required_body(&body)?, None)?;
    saved(&app).await?;
    Ok((StatusCode::ACCEPTED, Json(vec![created])))
}

/// Records a new transaction (queued for its tax): of the customer the body names, or of
/// `customer` (its position among the organization's customers) when given.
pub(super) fn create_for(
    app: &App,
    org: &Org,
    body: &Value,
    customer: Option<usize>,
) -> Answered<Transaction> {
    let request = crate::rules::transaction_create(body)?;
    let created = {
        let mut data = org.write();
        if data.transactions.has_external_id(&request.external_id) {
            return Err(ErrorAnswer::Conflict(format!(
                "A transaction with external_id {} already exists",
                request.external_id
            )));
        }
        let customer = match customer.and_then(|i| data.demo.customers.get(i)) {
            Some(c) => c.clone(),
            None => match_customer(&mut data, &org.id, &request.customer),
        };
        let currency = request.currency.clone().unwrap_or_else(|| "USD".into());
        let mut t = blank(
            &org.id,
            request.external_id.clone(),
            request.date,
            request.kind.clone(),
            &currency,
        );
        t.addresses = request.addresses.iter().map(address).collect();
        let ship = t
            .addresses
            .iter()
            .find(|a| a.kind == crate::model::AddressType::ShipTo)
            .or(t.addresses.first());
        t.country = ship.and_then(|a| a.address.country.clone());
        t.state = ship.and_then(|a| a.address.state.clone());
        t.transaction_items = request
            .transaction_items
            .iter()
            .map(|i| {
                let id = data.new_id("item");
                item(
                    id,
                    &org.id,
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
        let items_total: Decimal = t.transaction_items.iter().filter_map(|i| i.amount).sum();
        t.total_amount = Some(request.total_amount.unwrap_or(items_total));
        t.subtotal = Some(items_total);
        t.description.clone_from(&request.description);
        t.marketplace = request.marketplace;
        t.status = Some(
            request
                .status
                .clone()
                .unwrap_or(TransactionStatus::Committed),
        );
        t.processing_status = Some(ProcessingStatus::Queued);
        t.customer_id = Some(customer.id.clone());
        t.customer = Some(customer);
        let ready_at = Timestamp(Utc::now() + app.processing_delay);
        let OrgData {
            demo, transactions, ..
        } = &mut *data;
        transactions.insert(t, Some(ready_at), &demo.customers)
    };
    Ok(created)
}

/// The lines of a credit note as stored, each with a new id.
pub(super) fn credit_items(
    data: &mut OrgData,
    org_id: &str,
    request: &CreditNoteRequest,
) -> Vec<TransactionItem> {
    request
        .transaction_items
        .iter()
        .map(|i| {
            let id = data.new_id("item");
            let mut it = item(
                id,
                org_id,
                Some(i.external_id.clone()),
                i.date,
                i.external_product_id.clone(),
                i.description.clone(),
                Some(i.quantity),
                Some(i.amount),
                &request.currency,
            );
            it.total_discount = i.discount_amount;
            it
        })
        .collect()
}

/// POST /`v1/transactions/{id}/credit_notes`: a full or partial credit note against a sale.
pub async fn credit_note(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Transaction>> {
    let request = crate::rules::credit_note(&required_body(&body)?)?;
    settle(&org);
    let note = {
        let mut data = org.write();
        let original = data
            .transactions
            .get(&id, &data.demo.customers)
            .ok_or_else(|| ErrorAnswer::not_found("Transaction", &id))?;
        if original.kind != TransactionType::Sale {
            return Err(ErrorAnswer::BadRequest(format!(
                "Credit notes can only be issued against a sale; {id} is a {}",
                original.kind
            )));
        }
        let original_currency = original.currency.clone().unwrap_or_else(|| "USD".into());
        if request.currency != original_currency {
            return Err(ErrorAnswer::BadRequest(format!(
                "The credit note's currency {} must be the sale's currency {original_currency}",
                request.currency
            )));
        }
        if data.transactions.has_external_id(&request.external_id) {
            return Err(ErrorAnswer::Conflict(format!(
                "A transaction with external_id {} already exists",
                request.external_id
            )));
        }
        let sale_total = original
            .final_total_amount
            .or(original.total_amount)
            .unwrap_or_default();
        let credited: Decimal = data
            .transactions
            .credit_notes_of(&id)
            .iter()
            .filter_map(|t| t.total_amount)
            .sum();
        let left = sale_total - credited;
        if request.total_amount > left {
            return Err(ErrorAnswer::BadRequest(format!(
                "The credit note's total_amount {} exceeds the {left} {original_currency} still open on {id}",
                request.total_amount
            )));
        }
        let earlier = data.transactions.credit_notes_of(&id);
        crate::rules::credit_note_lines(&request, &original, &earlier)?;
        let full = request.total_amount == left;
        let kind = if full {
            TransactionType::FullCreditNote
        } else {
            TransactionType::PartialCreditNote
        };
        let mut t = blank(
            &org.id,
            request.external_id.clone(),
            request.date,
            kind,
            &request.currency,
        );
        t.addresses = match &request.addresses {
            Some(a) if !a.is_empty() => a.iter().map(address).collect(),
            _ => original.addresses.clone(),
        };
        t.country.clone_from(&original.country);
        t.state.clone_from(&original.state);
        t.transaction_items = credit_items(&mut data, &org.id, &request);
        t.total_amount = Some(request.total_amount);
        t.description.clone_from(&request.description);
        t.marketplace = request.marketplace.or(original.marketplace);
        t.status = Some(match request.status.as_str() {
            "PENDING" => TransactionStatus::Pending,
            "CANCELLED" => TransactionStatus::Cancelled,
            _ => TransactionStatus::Committed,
        });
        t.related_to = Some(id.clone());
        t.customer_id.clone_from(&original.customer_id);
        t.customer.clone_from(&original.customer);
        calculate_tax(&mut t);
        let mut original = original;
        original.refund_status = Some(if full {
            RefundStatus::FullyRefunded
        } else {
            RefundStatus::PartiallyRefunded
        });
        let OrgData {
            demo, transactions, ..
        } = &mut *data;
        transactions.update(original, &demo.customers);
        transactions.insert(t, None, &demo.customers)
    };
    saved(&app).await?;
    Ok(Json(note))
}
