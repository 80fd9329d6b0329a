//! Exemptions: the list, one exemption, a new exemption, its files and the certificate upload;
//! the certificate imports awaiting approval and their approval (Tenanted API).

use std::path::PathBuf;

use crate::model::filters::ExemptionFilter;
use crate::model::tenanted::{
    ApproveImport, BulkApproveImports, CertificateImport, CertificateImportStatus,
};
use crate::model::{Attachment, Exemption, ExemptionCreate, Page, PageParams};

#[derive(Debug, Clone, PartialEq)]
pub enum ExemptionCall {
    List {
        filter: ExemptionFilter,
        page: PageParams,
    },
    Get {
        id: String,
    },
    Create {
        body: Box<ExemptionCreate>,
    },
    Attachments {
        exemption_id: String,
    },
    /// Reads the file at `path`, checks it (exists, readable, a PDF by its content, at most
    /// 10 MB) and uploads it as the exemption's certificate; a file that fails a check is
    /// refused at the `file` field and nothing is sent.
    UploadCertificate {
        exemption_id: String,
        path: PathBuf,
    },
    /// Fetches the file at `location` (an attachment's `file_location`) and writes it to `path`
    /// (`~/` is the home directory) in one step: complete or not at all. An existing file is
    /// refused unless `overwrite`.
    SaveAttachment {
        location: String,
        path: PathBuf,
        overwrite: bool,
    },
    /// Fetches the file at `location` into a temporary file named `file_name`, for a viewer.
    FetchAttachment {
        location: String,
        file_name: String,
    },
    /// Certificate imports (Tenanted API only), of one status when `status` is set.
    Imports {
        status: Option<CertificateImportStatus>,
        page: PageParams,
    },
    /// Approves one certificate import, creating its exemption (Tenanted API only).
    ApproveImport {
        id: String,
        body: ApproveImport,
    },
    /// Approves several certificate imports at once, all or none (Tenanted API only).
    BulkApproveImports {
        body: BulkApproveImports,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExemptionReply {
    Page(Page<Exemption>),
    /// An exemption read or created.
    One(Box<Exemption>),
    Attachments(Vec<Attachment>),
    /// A certificate uploaded.
    Attachment(Attachment),
    /// An attachment's file written to this path, of this many bytes.
    Saved {
        path: PathBuf,
        bytes: u64,
    },
    /// An attachment's file fetched into this temporary file.
    Fetched(PathBuf),
    ImportsPage(Page<CertificateImport>),
    /// Certificate imports as they stand after an approval (one or several).
    ImportsApproved(Vec<CertificateImport>),
}

impl ExemptionCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            ExemptionCall::Create { .. }
                | ExemptionCall::UploadCertificate { .. }
                | ExemptionCall::ApproveImport { .. }
                | ExemptionCall::BulkApproveImports { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            ExemptionCall::List { page, .. } => format!("loading exemptions (page {})", page.page),
            ExemptionCall::Get { id } => format!("loading exemption {id}"),
            ExemptionCall::Create { .. } => "creating an exemption".to_owned(),
            ExemptionCall::Attachments { exemption_id } => {
                format!("loading the files of {exemption_id}")
            }
            ExemptionCall::UploadCertificate { path, .. } => {
                format!("uploading {}", path.display())
            }
            ExemptionCall::SaveAttachment { path, .. } => {
                format!("saving the file to {}", path.display())
            }
            ExemptionCall::FetchAttachment { file_name, .. } => {
                format!("fetching {file_name}")
            }
            ExemptionCall::Imports { page, .. } => {
                format!("loading certificate imports (page {})", page.page)
            }
            ExemptionCall::ApproveImport { id, .. } => format!("approving certificate import {id}"),
            ExemptionCall::BulkApproveImports { body } => {
                format!("approving {} certificate imports", body.ids.len())
            }
        }
    }
}
