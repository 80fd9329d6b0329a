//! Carries out the exemption calls: the certificate upload reads and checks its file first,
//! and a file that fails a check is refused at the `file` field with nothing sent.

use super::{failure, refused};
use crate::api::{Client, Upload};
use crate::effect::{ExemptionCall, ExemptionReply, Failure, FailureKind};
use crate::model::tenanted::CertificateImportStatus;
use crate::os::files;

pub(super) async fn execute(
    client: &Client,
    call: ExemptionCall,
) -> Result<ExemptionReply, Failure> {
    let result = match call {
        ExemptionCall::List { filter, page } => client
            .list_exemptions(&filter, page)
            .await
            .map(ExemptionReply::Page),
        ExemptionCall::Get { id } => client
            .get_exemption(&id)
            .await
            .map(|e| ExemptionReply::One(Box::new(e))),
        ExemptionCall::Create { body } => client
            .create_exemption(&body)
            .await
            .map(|e| ExemptionReply::One(Box::new(e))),
        ExemptionCall::Attachments { exemption_id } => client
            .list_attachments(&exemption_id)
            .await
            .map(ExemptionReply::Attachments),
        ExemptionCall::UploadCertificate { exemption_id, path } => {
            let checked = tokio::task::spawn_blocking(move || files::read_certificate(&path)).await;
            let (name, bytes) = match checked {
                Ok(result) => result.map_err(refused)?,
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
                .map(ExemptionReply::Attachment)
        }
        ExemptionCall::SaveAttachment {
            location,
            path,
            overwrite,
        } => {
            let path = files::expand_home(&path);
            if !overwrite && path.exists() {
                return Err(refused(files::exists(&path)));
            }
            let bytes = client
                .download_attachment(&location)
                .await
                .map_err(failure)?;
            let size = bytes.len() as u64;
            let target = path.clone();
            let written =
                tokio::task::spawn_blocking(move || files::write_whole(&target, &bytes, overwrite))
                    .await;
            return match written {
                Ok(Ok(())) => Ok(ExemptionReply::Saved { path, bytes: size }),
                Ok(Err(refusal)) => Err(refused(refusal)),
                Err(e) => Err(Failure {
                    kind: FailureKind::Other,
                    message: format!("the file could not be written: {e}"),
                    fields: Vec::new(),
                }),
            };
        }
        ExemptionCall::FetchAttachment {
            location,
            file_name,
        } => {
            let bytes = client
                .download_attachment(&location)
                .await
                .map_err(failure)?;
            let written =
                tokio::task::spawn_blocking(move || files::write_for_viewing(&file_name, &bytes))
                    .await;
            return match written {
                Ok(result) => result.map(ExemptionReply::Fetched).map_err(refused),
                Err(e) => Err(Failure {
                    kind: FailureKind::Other,
                    message: format!("the file could not be written: {e}"),
                    fields: Vec::new(),
                }),
            };
        }
        ExemptionCall::Imports { status, page } => client
            .list_certificate_imports(status.as_ref().map(CertificateImportStatus::as_str), page)
            .await
            .map(ExemptionReply::ImportsPage),
        ExemptionCall::ApproveImport { id, body } => client
            .approve_certificate_import(&id, &body)
            .await
            .map(|i| ExemptionReply::ImportsApproved(vec![i])),
        ExemptionCall::BulkApproveImports { body } => client
            .bulk_approve_certificate_imports(&body)
            .await
            .map(|b| ExemptionReply::ImportsApproved(b.items)),
    };
    result.map_err(failure)
}
