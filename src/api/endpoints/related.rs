//! The lookups across resources, the edits of a transaction and of a pending credit note, and
//! address validation.

use reqwest::Method;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::{
    AddressFields, AddressSearchResult, AddressSuggestion, CreditNoteRequest, Customer, Filing,
    Page, PageParams, SaleFigures, SuggestionQuery, Transaction, TransactionCreate,
};

impl Client {
    /// `GET /v1/customers/external/{external_id}`: the customer the shop knows by that id.
    pub async fn get_customer_by_external_id(&self, external_id: &str) -> ApiResult<Customer> {
        let call = Call::get(&["customers", "external", external_id]);
        self.transport.send(call).await
    }

    /// `GET /v1/customers/{id}/transactions`: the customer's transactions (not paged).
    pub async fn list_customer_transactions(&self, id: &str) -> ApiResult<Vec<Transaction>> {
        let call = Call::get(&["customers", id, "transactions"]);
        self.transport.send(call).await
    }

    /// `POST /v1/customers/{id}/transactions`: a new transaction of that customer.
    pub async fn create_customer_transaction(
        &self,
        id: &str,
        request: &TransactionCreate,
    ) -> ApiResult<Transaction> {
        let call = Call::new(Method::POST, &["customers", id, "transactions"]).json(request)?;
        self.transport.send(call).await
    }

    /// `GET /v1/filings/registration/{id}`: one page of the registration's filings.
    pub async fn list_registration_filings(
        &self,
        id: &str,
        page: PageParams,
    ) -> ApiResult<Page<Filing>> {
        let call = Call::get(&["filings", "registration", id])
            .param("page", &page.page.to_string())
            .param("size", &page.size.to_string());
        self.transport.send(call).await
    }

    /// `GET /v1/transactions/filings/{filing_id}`: the transactions the return covers.
    pub async fn list_filing_transactions(&self, filing_id: &str) -> ApiResult<Vec<Transaction>> {
        let call = Call::get(&["transactions", "filings", filing_id]);
        self.transport.send(call).await
    }

    /// The same list read for the filing check: each transaction's figures alone
    /// ([`SaleFigures`]), the rest of each record passed over as it is read.
    pub async fn list_filing_sales(&self, filing_id: &str) -> ApiResult<Vec<SaleFigures>> {
        let call = Call::get(&["transactions", "filings", filing_id]);
        self.transport.send(call).await
    }

    /// `PUT /v1/transactions/{id}`: rewrites a transaction the service still lets change (not a
    /// locked or filed one).
    pub async fn update_transaction(
        &self,
        id: &str,
        request: &TransactionCreate,
    ) -> ApiResult<Transaction> {
        let call = Call::new(Method::PUT, &["transactions", id]).json(request)?;
        self.transport.send(call).await
    }

    /// `PUT /v1/transactions/{id}/credit_notes/{credit_note_id}`: rewrites a pending credit note.
    pub async fn update_credit_note(
        &self,
        original_transaction_id: &str,
        credit_note_id: &str,
        request: &CreditNoteRequest,
    ) -> ApiResult<Transaction> {
        let call = Call::new(
            Method::PUT,
            &[
                "transactions",
                original_transaction_id,
                "credit_notes",
                credit_note_id,
            ],
        )
        .json(request)?;
        self.transport.send(call).await
    }

    /// `POST /v1/address_validation/search`: the address checked, standardized and enriched.
    pub async fn validate_address(
        &self,
        address: &AddressFields,
    ) -> ApiResult<Vec<AddressSearchResult>> {
        let call = Call::new(Method::POST, &["address_validation", "search"])
            .json(address)?
            .reading();
        self.transport.send(call).await
    }

    /// `POST /v1/address_validation/suggestions`: the places that fit a partial address.
    pub async fn suggest_addresses(
        &self,
        query: &SuggestionQuery,
    ) -> ApiResult<Vec<AddressSuggestion>> {
        let call = Call::new(Method::POST, &["address_validation", "suggestions"])
            .json(query)?
            .reading();
        self.transport.send(call).await
    }
}
