//! Carries out the calls panes ask for, with the client, and words their failures for users.

use super::files;
use crate::api::{ApiError, Client, Upload};
use crate::effect::{Call, Failure, FailureKind, Reply};
use crate::model::tenanted::CertificateImportStatus;

/// Makes one call.
pub async fn execute(client: &Client, call: Call) -> Result<Reply, Failure> {
    let result = match call {
        Call::Registrations { filter, page } => client
            .list_registrations(&filter, page)
            .await
            .map(Reply::Registrations),
        Call::Registration { id, reveal: None } => {
            client.get_registration(&id).await.map(Reply::Registration)
        }
        Call::Registration {
            id,
            reveal: Some(field),
        } => client
            .reveal_registration(&id, field)
            .await
            .map(Reply::Registration),
        Call::OssCountries { registration_id } => client
            .list_oss_countries(&registration_id)
            .await
            .map(Reply::OssCountries),
        Call::JurisdictionForm { country, state } => client
            .get_jurisdiction_form(&country, &state)
            .await
            .map(Reply::JurisdictionForm),
        Call::Deregister {
            registration_id,
            body,
        } => client
            .deregister(&registration_id, &body)
            .await
            .map(Reply::Deregistered),
        Call::Nexus { filter, page } => {
            client.list_nexus(&filter, page).await.map(Reply::NexusPage)
        }
        Call::NexusRow { id } => client.get_nexus(&id).await.map(Reply::Nexus),
        Call::PhysicalNexus { filter, page } => client
            .list_physical_nexus(&filter, page)
            .await
            .map(Reply::PhysicalNexusPage),
        Call::PhysicalNexusCategories { country, state } => client
            .list_physical_nexus_categories(Some(&country), Some(&state))
            .await
            .map(Reply::PhysicalNexusCategories),
        Call::CreatePhysicalNexus { body } => client
            .create_physical_nexus(&body)
            .await
            .map(Reply::PhysicalNexus),
        Call::UpdatePhysicalNexus { id, body } => client
            .update_physical_nexus(&id, &body)
            .await
            .map(Reply::PhysicalNexus),
        Call::DeletePhysicalNexus { id } => client
            .delete_physical_nexus(&id)
            .await
            .map(|()| Reply::Deleted),
        Call::Customers { filter, page } => client
            .list_customers(&filter, page)
            .await
            .map(Reply::CustomersPage),
        Call::Customer { id } => client.get_customer(&id).await.map(Reply::Customer),
        Call::CreateCustomer { body } => client.create_customer(&body).await.map(Reply::Customer),
        Call::CustomerTaxRegistration { customer_id, body } => client
            .put_customer_tax_registration(&customer_id, &body)
            .await
            .map(Reply::CustomerTaxRegistration),
        Call::Exemptions { filter, page } => client
            .list_exemptions(&filter, page)
            .await
            .map(Reply::ExemptionsPage),
        Call::Exemption { id } => client
            .get_exemption(&id)
            .await
            .map(|e| Reply::Exemption(Box::new(e))),
        Call::CreateExemption { body } => client
            .create_exemption(&body)
            .await
            .map(|e| Reply::Exemption(Box::new(e))),
        Call::Attachments { exemption_id } => client
            .list_attachments(&exemption_id)
            .await
            .map(Reply::Attachments),
        Call::UploadCertificate { exemption_id, path } => {
            let checked = tokio::task::spawn_blocking(move || files::read_certificate(&path)).await;
            let (name, bytes) = match checked {
                Ok(result) => result?,
                Err(e) => {
                    return Err(Failure {
                        kind: FailureKind::Other,
                        message: format!("the file could not be read: {e}"),
                        fields: Vec::new(),
                    });
                }
            };
            client
                .upload_attachment(&exemption_id, Upload::pdf(name, bytes))
                .await
                .map(Reply::Attachment)
        }
        Call::CompletePath { partial } => {
            let found = tokio::task::spawn_blocking(move || files::complete_path(&partial)).await;
            return Ok(Reply::PathCompletions(found.unwrap_or_default()));
        }
        // --- Certificate imports and filings ---------------------------------------------------
        call @ (Call::CertificateImports { .. }
        | Call::ApproveCertificateImport { .. }
        | Call::BulkApproveCertificateImports { .. }
        | Call::Filings { .. }
        | Call::Filing { .. }
        | Call::BackFilingOptions
        | Call::BulkApproveFilings { .. }
        | Call::BulkPauseFilings { .. }) => return imports_and_filings(client, call).await,
        // --- end of certificate imports and filings --------------------------------------------
        Call::Transactions { filter, page } => client
            .list_transactions(&filter, page)
            .await
            .map(Reply::TransactionsPage),
        Call::Transaction { id } => client
            .get_transaction(&id)
            .await
            .map(|t| Reply::Transaction(Box::new(t))),
        Call::CreditNote { original_id, body } => client
            .create_credit_note(&original_id, &body)
            .await
            .map(|t| Reply::Transaction(Box::new(t))),
        Call::Estimate { body } => client
            .estimate_tax(&body)
            .await
            .map(|e| Reply::Estimate(Box::new(e))),
        Call::BackFilingTerms => client
            .get_back_filing_terms()
            .await
            .map(Reply::BackFilingTerms),

        // Tenanted API: organizations, portal credentials, exposure history.
        Call::Organizations { page } => client
            .list_organizations(page)
            .await
            .map(Reply::Organizations),
        Call::UpdateCredentials {
            registration_id,
            body,
        } => client
            .update_registration_credentials(&registration_id, &body)
            .await
            .map(Reply::CredentialsUpdated),
        Call::RevealCredentials { registration_id } => client
            .reveal_registration_credentials(&registration_id)
            .await
            .map(|r| Reply::RevealedCredentials(Box::new(r))),
        Call::ExposureHistory { nexus_id, page } => client
            .nexus_exposure_history(&nexus_id, page)
            .await
            .map(Reply::ExposureHistory),
    };
    result.map_err(failure)
}

/// The calls of the certificate imports and the Filings pane. The Tenanted-only ones are refused
/// by the client, before sending, on a v1 profile.
async fn imports_and_filings(client: &Client, call: Call) -> Result<Reply, Failure> {
    let result = match call {
        Call::CertificateImports { status, page } => client
            .list_certificate_imports(status.as_ref().map(CertificateImportStatus::as_str), page)
            .await
            .map(Reply::CertificateImportsPage),
        Call::ApproveCertificateImport { id, body } => client
            .approve_certificate_import(&id, &body)
            .await
            .map(|i| Reply::CertificateImportsApproved(vec![i])),
        Call::BulkApproveCertificateImports { body } => client
            .bulk_approve_certificate_imports(&body)
            .await
            .map(|b| Reply::CertificateImportsApproved(b.items)),
        Call::Filings { filter, page } => client
            .list_filings(&filter, page)
            .await
            .map(Reply::FilingsPage),
        Call::Filing { id } => client
            .get_filing(&id)
            .await
            .map(|f| Reply::Filing(Box::new(f))),
        Call::BackFilingOptions => client
            .back_filing_options()
            .await
            .map(Reply::BackFilingOptions),
        Call::BulkApproveFilings { ids } => client
            .bulk_approve_filings(&ids)
            .await
            .map(Reply::BulkFilings),
        Call::BulkPauseFilings { ids } => client
            .bulk_pause_filings(&ids)
            .await
            .map(Reply::BulkFilings),
        other => {
            return Err(Failure {
                kind: FailureKind::Other,
                message: format!("{} is not a call of imports or filings", other.describe()),
                fields: Vec::new(),
            });
        }
    };
    result.map_err(failure)
}

/// The failure a pane shows for a client error. The client's messages never hold the key.
pub fn failure(error: ApiError) -> Failure {
    let kind = match &error {
        ApiError::Unauthorized { .. } => FailureKind::Unauthorized,
        ApiError::Forbidden { .. } => FailureKind::Forbidden,
        ApiError::NotFound { .. } => FailureKind::NotFound,
        ApiError::Validation(_) => FailureKind::Validation,
        ApiError::Conflict { .. } => FailureKind::Conflict,
        ApiError::BadRequest { .. } => FailureKind::Other,
        ApiError::RateLimited { .. } => FailureKind::RateLimited,
        ApiError::Server { .. } => FailureKind::Server,
        ApiError::Network { .. } => FailureKind::Network,
        ApiError::Timeout { .. } => FailureKind::Timeout,
        ApiError::Undecodable { .. } => FailureKind::Undecodable,
        ApiError::MethodNotAllowed { .. } => FailureKind::Other,
        ApiError::Tenanted(e) => match e.status {
            401 => FailureKind::Unauthorized,
            403 => FailureKind::Forbidden,
            404 => FailureKind::NotFound,
            409 => FailureKind::Conflict,
            422 => FailureKind::Validation,
            _ => FailureKind::Other,
        },
        ApiError::Unsupported { .. } => FailureKind::Unsupported,
    };
    Failure {
        kind,
        message: error.to_string(),
        fields: error.field_errors().to_vec(),
    }
}
