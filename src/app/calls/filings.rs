//! Carries out the filing calls. The Tenanted-only ones are refused by the client, before
//! sending, on a v1 profile.

use crate::api::{ApiResult, Client};
use crate::effect::{FilingCall, FilingReply};

pub(super) async fn execute(client: &Client, call: FilingCall) -> ApiResult<FilingReply> {
    match call {
        FilingCall::List { filter, page } => {
            let mut answer = client.list_filings(&filter, page).await?;
            // "Does not add up" judges each row by both comparisons: its transactions are read
            // beside it before the rows are kept or counted.
            if filter.not_adding_up.is_some() {
                crate::reads::read_covered_sales(
                    client,
                    &mut answer.items,
                    crate::clock::today(),
                    &mut crate::reads::Quiet,
                )
                .await?;
            }
            Ok(FilingReply::Page(answer))
        }
        FilingCall::CoveredSales { ids } => {
            crate::reads::read_covered_sales_of(client, &ids, &mut crate::reads::Quiet)
                .await
                .map(|sales| FilingReply::CoveredSales(ids.into_iter().zip(sales).collect()))
        }
        FilingCall::CheckedBefore { ids } => Ok(FilingReply::CoveredSales(
            crate::reads::read_covered_sales_each(client, &ids).await,
        )),
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
