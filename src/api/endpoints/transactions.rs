//! Transactions: list, detail (by ID or external ID), create, credit notes.

use reqwest::Method;
use serde::Deserialize;

use crate::api::transport::Call;
use crate::api::{ApiError, ApiResult, Client};
use crate::model::filters::TransactionFilter;
use crate::model::{CreditNoteRequest, Page, PageParams, Transaction, TransactionCreate};

/// The create answer: the service's sample is a list holding one transaction, its field list a
/// single object. Both are read.
#[derive(Deserialize)]
#[serde(untagged)]
enum Created {
    List(Vec<Transaction>),
    One(Box<Transaction>),
}

impl Client {
    /// GET /v1/transactions: one page of transactions (the last 12 months unless the filter
    /// gives dates).
    pub async fn list_transactions(
        &self,
        filter: &TransactionFilter,
        page: PageParams,
    ) -> ApiResult<Page<Transaction>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/transactions/{id}.
    pub async fn get_transaction(&self, id: &str) -> ApiResult<Transaction> {
        self.transport.send(Call::get(&["transactions", id])).await
    }

    /// GET /`v1/transactions/external/{external_id`}.
    pub async fn get_transaction_by_external_id(
        &self,
        external_id: &str,
    ) -> ApiResult<Transaction> {
        let call = Call::get(&["transactions", "external", external_id]);
        self.transport.send(call).await
    }

    /// POST /v1/transactions: accepted (202) and `QUEUED`; the tax is calculated shortly after,
    /// so read `processing_status` (see [`Transaction::tax_is_calculated`]) before the totals.
    pub async fn create_transaction(&self, request: &TransactionCreate) -> ApiResult<Transaction> {
        let call = Call::new(Method::POST, &["transactions"]).json(request)?;
        match self.transport.send::<Created>(call).await? {
            Created::One(t) => Ok(*t),
            Created::List(list) => list
                .into_iter()
                .next()
                .ok_or_else(|| ApiError::Undecodable {
                    what: "POST /v1/transactions".to_owned(),
                    detail: "the answer is an empty list, not the created transaction".to_owned(),
                }),
        }
    }

    /// POST /`v1/transactions/{id}/credit_notes`: a full or partial credit note against a sale.
    pub async fn create_credit_note(
        &self,
        original_transaction_id: &str,
        request: &CreditNoteRequest,
    ) -> ApiResult<Transaction> {
        let call = Call::new(
            Method::POST,
            &["transactions", original_transaction_id, "credit_notes"],
        )
        .json(request)?;
        self.transport.send(call).await
    }
}
