//! Transactions: the list, one transaction, a credit note, a tax estimate, the back-filing
//! terms, the check of the exempt sales.

use chrono::NaiveDate;

use crate::model::filters::TransactionFilter;
use crate::model::{
    BackFilingTerms, CreditNoteRequest, EstimateRequest, EstimateResponse, Page, PageParams,
    Transaction, TransactionCreate,
};

#[derive(Debug, Clone, PartialEq)]
pub enum TransactionCall {
    List {
        filter: TransactionFilter,
        page: PageParams,
    },
    Get {
        id: String,
    },
    /// The transaction a shop knows by its own id.
    GetByExternal {
        external_id: String,
    },
    CreditNote {
        original_id: String,
        body: Box<CreditNoteRequest>,
    },
    /// Rewrites credit note `credit_note_id` of sale `original_id` (PUT), refused by the service
    /// unless the note is still pending.
    UpdateCreditNote {
        original_id: String,
        credit_note_id: String,
        body: Box<CreditNoteRequest>,
    },
    Estimate {
        body: Box<EstimateRequest>,
    },
    /// Rewrites transaction `id` (PUT), refused by the service for a locked or filed one.
    Update {
        id: String,
        body: Box<TransactionCreate>,
    },
    BackFilingTerms,
    /// The exempt sales dated `from` to `to` without a certificate valid on their day.
    ExemptionCheck {
        from: NaiveDate,
        to: NaiveDate,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum TransactionReply {
    Page(Page<Transaction>),
    /// A transaction read, or a credit note issued.
    One(Box<Transaction>),
    Estimate(Box<EstimateResponse>),
    BackFilingTerms(BackFilingTerms),
    /// How many exempt sales were checked, and those without a valid certificate.
    ExemptionFindings {
        checked: usize,
        findings: Vec<crate::checks::exemptions::Finding>,
    },
}

impl TransactionCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            TransactionCall::CreditNote { .. }
                | TransactionCall::UpdateCreditNote { .. }
                | TransactionCall::Update { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            TransactionCall::List { page, .. } => {
                format!("loading transactions (page {})", page.page)
            }
            TransactionCall::Get { id } => format!("loading transaction {id}"),
            TransactionCall::GetByExternal { external_id } => {
                format!("looking up external id {external_id}")
            }
            TransactionCall::CreditNote { original_id, .. } => {
                format!("issuing a credit note on {original_id}")
            }
            TransactionCall::UpdateCreditNote { credit_note_id, .. } => {
                format!("saving credit note {credit_note_id}")
            }
            TransactionCall::Estimate { .. } => "estimating tax".to_owned(),
            TransactionCall::Update { id, .. } => format!("saving transaction {id}"),
            TransactionCall::BackFilingTerms => "loading the back-filing terms".to_owned(),
            TransactionCall::ExemptionCheck { from, to } => {
                format!("checking the exempt sales of {from} to {to} against the exemptions")
            }
        }
    }
}
