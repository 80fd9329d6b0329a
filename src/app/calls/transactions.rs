//! Carries out the transaction calls.

use crate::api::{ApiResult, Client};
use crate::effect::{TransactionCall, TransactionReply};

pub(super) async fn execute(client: &Client, call: TransactionCall) -> ApiResult<TransactionReply> {
    match call {
        TransactionCall::List { filter, page } => client
            .list_transactions(&filter, page)
            .await
            .map(TransactionReply::Page),
        TransactionCall::Get { id } => client
            .get_transaction(&id)
            .await
            .map(|t| TransactionReply::One(Box::new(t))),
        TransactionCall::GetByExternal { external_id } => client
            .get_transaction_by_external_id(&external_id)
            .await
            .map(|t| TransactionReply::One(Box::new(t))),
        TransactionCall::CreditNote { original_id, body } => client
            .create_credit_note(&original_id, &body)
            .await
            .map(|t| TransactionReply::One(Box::new(t))),
        TransactionCall::UpdateCreditNote {
            original_id,
            credit_note_id,
            body,
        } => client
            .update_credit_note(&original_id, &credit_note_id, &body)
            .await
            .map(|t| TransactionReply::One(Box::new(t))),
        TransactionCall::Update { id, body } => client
            .update_transaction(&id, &body)
            .await
            .map(|t| TransactionReply::One(Box::new(t))),
        TransactionCall::Estimate { body } => client
            .estimate_tax(&body)
            .await
            .map(|e| TransactionReply::Estimate(Box::new(e))),
        TransactionCall::BackFilingTerms => client
            .get_back_filing_terms()
            .await
            .map(TransactionReply::BackFilingTerms),
        TransactionCall::ExemptionCheck { from, to } => {
            crate::reads::read_exemption_findings(client, from, to, &mut crate::reads::Quiet)
                .await
                .map(|(checked, findings)| TransactionReply::ExemptionFindings {
                    checked,
                    findings,
                })
        }
    }
}
