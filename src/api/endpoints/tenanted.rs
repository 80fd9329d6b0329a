//! What only the Tenanted API offers: organizations, portal credentials, exposure history,
//! certificate imports, back-filing options and bulk filing actions. On a v1 client each of
//! these answers [`ApiError::Unsupported`] without sending anything.

use reqwest::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::api::transport::Call;
use crate::api::{ApiError, ApiResult, Client};
use crate::model::filters::Query;
use crate::model::tenanted::{
    ApproveImport, BackFilingOption, BulkApproval, BulkApproveImports, BulkFilingAction,
    BulkFilingResult, CertificateImport, CredentialsUpdate, CredentialsUpdated, ExposureEvent,
    Organization, RevealedCredentials,
};
use crate::model::{Page, PageParams};

/// `{items: [...]}`.
#[derive(Deserialize)]
struct Items<T> {
    items: Vec<T>,
}

fn paged(page: PageParams) -> Query {
    let mut query = Query::default();
    query.page(page);
    query
}

impl Client {
    /// Refuses a Tenanted-only call on a v1 client; `what` names it for the user.
    fn tenanted_only(&self, what: &str) -> ApiResult<()> {
        if self.generation().is_tenanted() {
            Ok(())
        } else {
            Err(ApiError::Unsupported {
                what: what.to_owned(),
            })
        }
    }

    /// GET /organizations: the organizations the API key reaches (with no selector, all of
    /// them).
    pub async fn list_organizations(&self, page: PageParams) -> ApiResult<Page<Organization>> {
        self.tenanted_only("Listing organizations")?;
        let call = Call::get(&["organizations"]).query(paged(page));
        self.transport.send(call).await
    }

    /// PUT /registrations/{id}/credentials: saves portal credentials; fields left `None` keep
    /// their saved value. Answers which fields changed, never their values.
    pub async fn update_registration_credentials(
        &self,
        id: &str,
        body: &CredentialsUpdate,
    ) -> ApiResult<CredentialsUpdated> {
        self.tenanted_only("Saving portal credentials")?;
        let call = Call::new(Method::PUT, &["registrations", id, "credentials"]).json(body)?;
        self.transport.send(call).await
    }

    /// POST /registrations/{id}/credentials/reveal: the saved portal credentials in clear.
    pub async fn reveal_registration_credentials(
        &self,
        id: &str,
    ) -> ApiResult<RevealedCredentials> {
        self.tenanted_only("Revealing portal credentials")?;
        let call = Call::new(
            Method::POST,
            &["registrations", id, "credentials", "reveal"],
        );
        self.transport.send(call).await
    }

    /// GET /nexus/{id}/exposure-history: what happened to a nexus, oldest first.
    pub async fn nexus_exposure_history(
        &self,
        nexus_id: &str,
        page: PageParams,
    ) -> ApiResult<Page<ExposureEvent>> {
        self.tenanted_only("The exposure history of a nexus")?;
        let call = Call::get(&["nexus", nexus_id, "exposure-history"]).query(paged(page));
        self.transport.send(call).await
    }

    /// GET /certificate-imports: certificates sent in for missing exemptions, optionally only
    /// those with `status` (any case).
    pub async fn list_certificate_imports(
        &self,
        status: Option<&str>,
        page: PageParams,
    ) -> ApiResult<Page<CertificateImport>> {
        self.tenanted_only("Certificate imports")?;
        let mut call = Call::get(&["certificate-imports"]);
        if let Some(status) = status.filter(|s| !s.is_empty()) {
            call = call.param("status", status);
        }
        self.transport.send(call.query(paged(page))).await
    }

    /// POST /certificate-imports/{id}/approve: approves an uploaded certificate, creating its
    /// exemption.
    pub async fn approve_certificate_import(
        &self,
        id: &str,
        body: &ApproveImport,
    ) -> ApiResult<CertificateImport> {
        self.tenanted_only("Approving certificate imports")?;
        let call = Call::new(Method::POST, &["certificate-imports", id, "approve"]).json(body)?;
        self.transport.send(call).await
    }

    /// POST /certificate-imports/bulk-approve: approves several imports, all or none.
    pub async fn bulk_approve_certificate_imports(
        &self,
        body: &BulkApproveImports,
    ) -> ApiResult<BulkApproval> {
        self.tenanted_only("Approving certificate imports")?;
        let call = Call::new(Method::POST, &["certificate-imports", "bulk-approve"]).json(body)?;
        self.transport.send(call).await
    }

    /// GET /filings/backFilingRequest/options: the past periods that can be filed late.
    pub async fn back_filing_options(&self) -> ApiResult<Vec<BackFilingOption>> {
        self.tenanted_only("Back-filing options")?;
        let call = Call::get(&["filings", "backFilingRequest", "options"]);
        let answer: Items<BackFilingOption> = self.transport.send(call).await?;
        Ok(answer.items)
    }

    /// POST /filings/bulk/approve: approves each unfiled filing; the others are reported one by
    /// one in the answer.
    pub async fn bulk_approve_filings(&self, ids: &[String]) -> ApiResult<BulkFilingResult> {
        self.tenanted_only("Approving filings in bulk")?;
        self.bulk_filing_action("approve", ids).await
    }

    /// POST /filings/bulk/pause: pauses each unfiled filing; the others are reported one by one
    /// in the answer.
    pub async fn bulk_pause_filings(&self, ids: &[String]) -> ApiResult<BulkFilingResult> {
        self.tenanted_only("Pausing filings in bulk")?;
        self.bulk_filing_action("pause", ids).await
    }

    async fn bulk_filing_action(
        &self,
        action: &str,
        ids: &[String],
    ) -> ApiResult<BulkFilingResult> {
        let body = BulkFilingAction {
            filing_ids: ids.to_vec(),
        };
        let call = Call::new(Method::POST, &["filings", "bulk", action]).json(&body)?;
        self.transport.send(call).await
    }

    /// Any call, as given: `segments` below the generation's prefix (mapped like the typed
    /// methods' paths), extra headers (replacing a selector header of the same name), a JSON
    /// body in the generation's spelling. Answers the JSON as sent. For checking the service's
    /// behaviour where no typed method reaches.
    #[doc(hidden)]
    pub async fn raw_call(
        &self,
        method: Method,
        segments: &[&str],
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> ApiResult<Value> {
        let mut call = Call::new(method, segments);
        for (name, value) in headers {
            call = call.header(name, value)?;
        }
        if let Some(body) = body {
            call = call.json(body)?;
        }
        self.transport.send_raw(call).await
    }
}
