//! Certificate imports: certificates sent in for customers' missing exemptions, their approval
//! (which creates the exemption), and the public pages where a customer answers a request.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, RawQuery, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::{Value, json};

use super::super::wire::{json_body, timestamp};
use super::super::{Tenant, TenantedError, TenantedResult};
use super::{id_list, object_body, page_of, saved};
use crate::model::tenanted::{APPROVAL_EXEMPTION_TYPES, ApiVersion};
use crate::model::{Exemption, ExemptionStatus, ExemptionType, FieldError, Timestamp};
use crate::sandbox::App;
use crate::sandbox::demo_data::{CertificateImportRecord, ImportStatus};
use crate::sandbox::query::{Query, enum_error};
use crate::sandbox::store::{Kind, Org, OrgData};

/// Largest certificate taken (as for v1 attachments).
const MAX_CERTIFICATE_BYTES: usize = 10 * 1024 * 1024;

/// The statuses the list filters on, in any case.
const STATUSES: [ImportStatus; 3] = [
    ImportStatus::Requested,
    ImportStatus::Uploaded,
    ImportStatus::Approved,
];

/// A status as the release writes it: uppercase from 2026-10-06, lowercase before.
fn status_text(status: ImportStatus, version: ApiVersion) -> String {
    if version.is_latest_shape() {
        status.as_str().to_owned()
    } else {
        status.as_str().to_lowercase()
    }
}

/// The exemption an import names: `""` before 2026-10-06 when none, null from it.
fn exemption_id(import: &CertificateImportRecord, version: ApiVersion) -> Value {
    match &import.exemption_id {
        Some(id) => json!(id),
        None if version.is_latest_shape() => Value::Null,
        None => json!(""),
    }
}

/// An import in its Tenanted shape.
fn row(import: &CertificateImportRecord, version: ApiVersion) -> Value {
    json!({
        "id": import.id,
        "status": status_text(import.status, version),
        "exemptionId": exemption_id(import, version),
        "customerId": import.customer_id,
        "customerName": import.customer_name,
        "fileName": import.file_name,
        "countryCode": import.country_code,
        "jurisdiction": import.jurisdiction,
        "exemptionType": import.exemption_type,
        "uploadedAt": import.uploaded_at.as_ref().map(timestamp),
    })
}

fn not_found(id: &str) -> TenantedError {
    TenantedError::NotFound(format!("Certificate import {id} not found."))
}

/// `GET /certificate-imports`: every import, newest id last, optionally of one `status` (any
/// case).
pub async fn list(
    Extension(tenant): Extension<Tenant>,
    RawQuery(raw): RawQuery,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let mut q = Query::parse(raw.as_deref());
    let status = match q.get("status").map(str::to_owned) {
        None => None,
        Some(text) => {
            let found = STATUSES
                .into_iter()
                .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()));
            if found.is_none() {
                let allowed: Vec<&str> = STATUSES.iter().map(|s| s.as_str()).collect();
                q.push_error(enum_error(
                    vec!["query".into(), "status".into()],
                    &allowed,
                    Value::String(text),
                ));
            }
            found
        }
    };
    let data = org.read();
    let rows = data
        .demo
        .tenanted
        .certificate_imports
        .iter()
        .filter(|c| status.is_none_or(|s| c.status == s))
        .map(|c| row(c, tenant.version))
        .collect();
    let page = page_of(rows, &mut q)?;
    q.finish()?;
    Ok(Json(page))
}

/// `GET /certificate-imports/{id}`: where one upload stands.
pub async fn get_one(
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let data = org.read();
    data.demo
        .tenanted
        .certificate_imports
        .iter()
        .find(|c| c.id == id)
        .map(|c| Json(row(c, tenant.version)))
        .ok_or_else(|| not_found(&id))
}

/// A file part sent with an upload.
struct Upload {
    file_name: String,
    size: u64,
}

fn file_error(kind: &str, message: String) -> TenantedError {
    FieldError::new(
        kind,
        vec!["body".into(), "file".into()],
        message,
        Value::Null,
    )
    .into()
}

/// Reads a multipart upload: its `file` part (a PDF of at most 10 MB) and its text parts.
async fn read_upload(
    multipart: Result<Multipart, MultipartRejection>,
    text_parts: &[&str],
) -> TenantedResult<(Upload, Vec<(String, String)>)> {
    let mut multipart = multipart.map_err(|_| {
        file_error(
            "missing",
            "Field required: send multipart/form-data with a part named file (a PDF)".into(),
        )
    })?;
    let unreadable = |e: axum::extract::multipart::MultipartError| {
        file_error(
            "value_error",
            format!("Value error, the upload could not be read: {e}"),
        )
    };
    let mut file = None;
    let mut texts = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" && file.is_none() {
            let file_name = field.file_name().unwrap_or("certificate.pdf").to_owned();
            let bytes = field.bytes().await.map_err(unreadable)?;
            file = Some((file_name, bytes));
        } else if text_parts.contains(&name.as_str()) {
            let text = field.text().await.map_err(unreadable)?;
            texts.push((name, text));
        }
    }
    let Some((file_name, bytes)) = file else {
        return Err(file_error(
            "missing",
            "Field required: a part named file, holding the certificate as a PDF".into(),
        ));
    };
    check_pdf(&file_name, &bytes)?;
    Ok((
        Upload {
            file_name,
            size: bytes.len() as u64,
        },
        texts,
    ))
}

fn check_pdf(file_name: &str, bytes: &Bytes) -> TenantedResult<()> {
    if bytes.len() > MAX_CERTIFICATE_BYTES {
        return Err(file_error(
            "value_error",
            format!(
                "Value error, file must be at most 10 MB; {file_name} is {} bytes",
                bytes.len()
            ),
        ));
    }
    if !bytes.starts_with(b"%PDF-") {
        return Err(file_error(
            "value_error",
            format!("Value error, file must be a PDF; {file_name} does not start with %PDF-"),
        ));
    }
    Ok(())
}

/// `POST /certificate-imports` (multipart `file` and `customerId`): a certificate for one of the
/// organization's customers, awaiting approval. Answers 201 with the import.
pub async fn upload(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    multipart: Result<Multipart, MultipartRejection>,
) -> TenantedResult<(StatusCode, Json<Value>)> {
    let org = tenant.target()?;
    let (upload, texts) = read_upload(multipart, &["customerId"]).await?;
    let customer_id = texts
        .into_iter()
        .find(|(name, _)| name == "customerId")
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            TenantedError::from(FieldError::new(
                "missing",
                vec!["body".into(), "customerId".into()],
                "Field required: a text part named customerId, the customer the certificate is for",
                Value::Null,
            ))
        })?;
    let import = {
        let mut data = org.write();
        let customer = data
            .demo
            .customers
            .iter()
            .find(|c| c.id == customer_id)
            .cloned()
            .ok_or_else(|| TenantedError::NotFound(format!("Customer {customer_id} not found.")))?;
        let import = CertificateImportRecord {
            id: data.new_id("cimp"),
            status: ImportStatus::Uploaded,
            exemption_id: None,
            customer_id: customer.id.clone(),
            customer_name: customer
                .company_name
                .clone()
                .or(customer.name.clone())
                .unwrap_or_else(|| customer.id.clone()),
            file_name: Some(upload.file_name),
            file_size: Some(upload.size),
            country_code: customer
                .address
                .country
                .clone()
                .unwrap_or_else(|| "US".into()),
            jurisdiction: customer.address.state.clone().unwrap_or_default(),
            exemption_type: None,
            uploaded_at: Some(Timestamp::now()),
            request_token: None,
        };
        data.demo.tenanted.certificate_imports.push(import.clone());
        data.touch(Kind::CertificateImport, import.id.clone());
        import
    };
    saved(&app).await?;
    Ok((StatusCode::CREATED, Json(row(&import, tenant.version))))
}

/// The exemption type of an approval: from 2026-10-06 one of `CUSTOMER`, `WHOLESALE`,
/// `TRANSACTION`, `REVERSE_CHARGE` (default `CUSTOMER`); before, any text (default `customer`).
fn exemption_type(body: Option<&Value>, version: ApiVersion) -> TenantedResult<String> {
    let latest = version.is_latest_shape();
    let default = if latest { "CUSTOMER" } else { "customer" };
    let Some(value) = body.and_then(|b| b.get("exemptionType")) else {
        return Ok(default.to_owned());
    };
    let field = |kind: &str, message: String| -> TenantedError {
        FieldError::new(
            kind,
            vec!["body".into(), "exemptionType".into()],
            message,
            value.clone(),
        )
        .into()
    };
    match value {
        Value::Null => Ok(default.to_owned()),
        Value::String(s) if latest => {
            if APPROVAL_EXEMPTION_TYPES.contains(&s.as_str()) {
                Ok(s.clone())
            } else {
                Err(field(
                    "enum",
                    format!(
                        "exemptionType must be one of {} (release {}); {s:?} is not",
                        APPROVAL_EXEMPTION_TYPES.join(", "),
                        ApiVersion::LATEST
                    ),
                ))
            }
        }
        Value::String(s) if s.trim().is_empty() => Err(field(
            "value_error",
            "Value error, exemptionType must not be blank: leave it out for the default customer"
                .into(),
        )),
        Value::String(s) => Ok(s.trim().to_owned()),
        _ => Err(field(
            "string_type",
            "Input should be a valid string".into(),
        )),
    }
}

/// Refuses an import that is not awaiting approval.
fn awaiting(import: &CertificateImportRecord) -> TenantedResult<()> {
    if import.status == ImportStatus::Uploaded {
        return Ok(());
    }
    Err(TenantedError::conflict(format!(
        "Certificate import {} is {}: only an UPLOADED import awaits approval.",
        import.id,
        import.status.as_str()
    )))
}

/// Approves the import at `index`: creates its exemption and marks it APPROVED.
fn approve_at(org: &Org, data: &mut OrgData, index: usize, kind: &str) -> CertificateImportRecord {
    let exemption_id = data.new_id("exmp");
    let import = &data.demo.tenanted.certificate_imports[index];
    let now = Timestamp::now();
    let exemption = Exemption {
        id: exemption_id.clone(),
        exemption_type: ExemptionType::parse(&kind.to_lowercase()),
        status: Some(ExemptionStatus::Active),
        start_date: crate::clock::today(),
        end_date: None,
        customer_id: Some(import.customer_id.clone()),
        fein: None,
        sales_tax_id: None,
        jurisdiction: (!import.jurisdiction.is_empty()).then(|| import.jurisdiction.clone()),
        country_code: Some(import.country_code.clone()),
        transaction_id: None,
        reseller: Some(kind.eq_ignore_ascii_case("wholesale")),
        organization_id: Some(org.id.clone()),
        customer_name: Some(import.customer_name.clone()),
        attachment_id: None,
        customer: None,
        attachment: None,
        created_at: Some(now),
        updated_at: Some(now),
    };
    data.demo.exemptions.push(exemption);
    data.touch(Kind::Exemption, exemption_id.clone());
    let import = &mut data.demo.tenanted.certificate_imports[index];
    import.status = ImportStatus::Approved;
    import.exemption_id = Some(exemption_id);
    import.exemption_type = Some(kind.to_owned());
    let import = import.clone();
    data.touch(Kind::CertificateImport, import.id.clone());
    import
}

/// `POST /certificate-imports/{id}/approve` `{exemptionType?}`.
pub async fn approve(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let body = object_body(json_body(&body)?)?;
    let import = {
        let mut data = org.write();
        let index = data
            .demo
            .tenanted
            .certificate_imports
            .iter()
            .position(|c| c.id == id)
            .ok_or_else(|| not_found(&id))?;
        let kind = exemption_type(body.as_ref(), tenant.version)?;
        awaiting(&data.demo.tenanted.certificate_imports[index])?;
        approve_at(org, &mut data, index, &kind)
    };
    saved(&app).await?;
    Ok(Json(row(&import, tenant.version)))
}

/// The `ids` of a bulk approval: a non-empty list of strings, each kept once.
fn ids_of(body: Option<&Value>) -> TenantedResult<Vec<String>> {
    let mut ids: Vec<String> = Vec::new();
    for id in id_list(body, "ids", "ids must name at least one certificate import")? {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}

/// `POST /certificate-imports/bulk-approve` `{ids, exemptionType?}`: all or nothing; an unknown
/// id answers 404 and one not awaiting approval 409, each naming it.
pub async fn bulk_approve(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let body = object_body(json_body(&body)?)?;
    let ids = ids_of(body.as_ref())?;
    let kind = exemption_type(body.as_ref(), tenant.version)?;
    let approved = {
        let mut data = org.write();
        let mut indexes = Vec::new();
        for id in &ids {
            let index = data
                .demo
                .tenanted
                .certificate_imports
                .iter()
                .position(|c| c.id == *id)
                .ok_or_else(|| not_found(id))?;
            awaiting(&data.demo.tenanted.certificate_imports[index])?;
            indexes.push(index);
        }
        indexes
            .into_iter()
            .map(|i| approve_at(org, &mut data, i, &kind))
            .collect::<Vec<_>>()
    };
    saved(&app).await?;
    let items: Vec<Value> = approved.iter().map(|c| row(c, tenant.version)).collect();
    Ok(Json(json!({ "items": items })))
}

/// The organization and index of the import a public token names.
fn by_token(app: &App, token: &str) -> TenantedResult<(Arc<Org>, usize)> {
    app.store
        .orgs()
        .iter()
        .find_map(|org| {
            let data = org.read();
            data.demo
                .tenanted
                .certificate_imports
                .iter()
                .position(|c| c.request_token.as_deref() == Some(token))
                .map(|i| (Arc::clone(org), i))
        })
        .ok_or_else(|| TenantedError::NotFound(format!("Certificate request {token} not found.")))
}

/// `GET /public/certificate-requests/{token}` (no credential): the page a customer lands on.
/// A request not answered yet is `PENDING` from 2026-10-06 (`requested` before).
pub async fn landing_page(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(token): Path<String>,
) -> TenantedResult<Json<Value>> {
    let (org, index) = by_token(&app, &token)?;
    let data = org.read();
    let import = &data.demo.tenanted.certificate_imports[index];
    let status = match import.status {
        ImportStatus::Requested if tenant.version.is_latest_shape() => "PENDING".to_owned(),
        other => status_text(other, tenant.version),
    };
    Ok(Json(json!({
        "token": token,
        "customerName": import.customer_name,
        "status": status,
    })))
}

/// `POST /public/certificate-requests/{token}/confirm-upload` (no credential; multipart
/// `file`): the customer's certificate, now awaiting approval.
pub async fn confirm_upload(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    Path(token): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> TenantedResult<Json<Value>> {
    let (org, index) = by_token(&app, &token)?;
    let (upload, _) = read_upload(multipart, &[]).await?;
    let import = {
        let mut data = org.write();
        let import = &mut data.demo.tenanted.certificate_imports[index];
        if import.status != ImportStatus::Requested {
            return Err(TenantedError::conflict(format!(
                "Certificate request {token} was already answered: a certificate was uploaded."
            )));
        }
        import.status = ImportStatus::Uploaded;
        import.file_name = Some(upload.file_name);
        import.file_size = Some(upload.size);
        import.uploaded_at = Some(Timestamp::now());
        let import = import.clone();
        data.touch(Kind::CertificateImport, import.id.clone());
        import
    };
    saved(&app).await?;
    Ok(Json(json!({
        "importId": import.id,
        "status": status_text(import.status, tenant.version),
        "exemptionId": exemption_id(&import, tenant.version),
    })))
}
