//! Exemptions (certificates) and their attachments.

use reqwest::Method;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::ExemptionFilter;
use crate::model::{Attachment, Exemption, ExemptionCreate, Page, PageParams};

/// A file to attach: its name as the user sees it, its type and its bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Upload {
    pub file_name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

impl Upload {
    /// A PDF, the kind of file the service takes for exemption certificates.
    pub fn pdf(file_name: impl Into<String>, bytes: Vec<u8>) -> Self {
        Upload {
            file_name: file_name.into(),
            mime: "application/pdf".to_owned(),
            bytes,
        }
    }
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload")
            .field("file_name", &self.file_name)
            .field("mime", &self.mime)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl Client {
    /// GET /v1/exemptions: one page of exemptions.
    pub async fn list_exemptions(
        &self,
        filter: &ExemptionFilter,
        page: PageParams,
    ) -> ApiResult<Page<Exemption>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/exemptions/{id}.
    pub async fn get_exemption(&self, id: &str) -> ApiResult<Exemption> {
        self.transport.send(Call::get(&["exemptions", id])).await
    }

    /// POST /v1/exemptions: answers the exemption with its customer and (no) attachments.
    pub async fn create_exemption(&self, request: &ExemptionCreate) -> ApiResult<Exemption> {
        let call = Call::new(Method::POST, &["exemptions"]).json(request)?;
        self.transport.send(call).await
    }

    /// GET /v1/exemptions/{id}/attachments.
    pub async fn list_attachments(&self, exemption_id: &str) -> ApiResult<Vec<Attachment>> {
        let call = Call::get(&["exemptions", exemption_id, "attachments"]);
        self.transport.send(call).await
    }

    /// The file of an attachment, from its `file_location` (see [`Attachment::file_location`]):
    /// with the credentials on the service's own origin, without them elsewhere.
    pub async fn download_attachment(&self, location: &str) -> ApiResult<Vec<u8>> {
        self.transport.fetch(location).await
    }

    /// POST /v1/exemptions/{id}/attachments: uploads a certificate as `multipart/form-data`,
    /// one part named `file`.
    pub async fn upload_attachment(
        &self,
        exemption_id: &str,
        upload: Upload,
    ) -> ApiResult<Attachment> {
        let call = Call::new(Method::POST, &["exemptions", exemption_id, "attachments"]).file(
            "file",
            &upload.file_name,
            &upload.mime,
            upload.bytes,
        );
        self.transport.send(call).await
    }
}
