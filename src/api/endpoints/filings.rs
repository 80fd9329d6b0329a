//! Filings and the back-filing terms.

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::FilingFilter;
use crate::model::{BackFilingTerms, Filing, Page, PageParams};

impl Client {
    /// GET /v1/filings: one page of filings.
    pub async fn list_filings(
        &self,
        filter: &FilingFilter,
        page: PageParams,
    ) -> ApiResult<Page<Filing>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/filings/{id}.
    pub async fn get_filing(&self, id: &str) -> ApiResult<Filing> {
        self.transport.send(Call::get(&["filings", id])).await
    }

    /// GET /v1/filings/back-filing-terms/current: the terms shown before approving a
    /// back-filing.
    pub async fn get_back_filing_terms(&self) -> ApiResult<BackFilingTerms> {
        let call = Call::get(&["filings", "back-filing-terms", "current"]);
        self.transport.send(call).await
    }
}
