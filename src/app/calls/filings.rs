//! Carries out the filing calls. The Tenanted-only ones are refused by the client, before
//! sending, on a v1 profile.

use crate::api::{ApiResult, Client};
use crate::effect::{FilingCall, FilingReply};

pub(super) async fn execute(client: &Client, call: FilingCall) -> ApiResult<FilingReply> {
    match call {
        FilingCall::List { filter, page } => client
            .list_filings(&filter, page)
            .await
            .map(FilingReply::Page),
        FilingCall::Get { id } => client
            .get_filing(&id)
            .await
            .map(|f| FilingReply::One(Box::new(f))),
        FilingCall::Transactions { id } => client
            .list_filing_transactions(&id)
            .await
            .map(FilingReply::Transactions),
        FilingCall::BackFilingOptions => client
            .back_filing_options()
            .await
            .map(FilingReply::BackFilingOptions),
        FilingCall::BulkApprove { ids } => client
            .bulk_approve_filings(&ids)
            .await
            .map(FilingReply::Bulk),
        FilingCall::BulkPause { ids } => {
            client.bulk_pause_filings(&ids).await.map(FilingReply::Bulk)
        }
    }
}
