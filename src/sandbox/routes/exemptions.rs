//! Exemptions (certificates) and their attachments.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, OriginalUri, Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE, HOST, HeaderName};
use serde_json::Value;

use super::{required_body, saved};
use crate::model::{
    Attachment, Exemption, ExemptionStatus, FieldError, Page, RelatedEntityType, Timestamp,
};
use crate::sandbox::App;
use crate::sandbox::demo_data::StoredAttachment;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::store::{Kind, Org};

/// The fields the list's `order_by` accepts.
const ORDER_FIELDS: &[&str] = &["end_date", "FEIN", "sales_tax_id", "status"];
/// Largest certificate the service takes.
pub const MAX_CERTIFICATE_BYTES: usize = 10 * 1024 * 1024;

pub async fn list(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Exemption>>> {
    let mut q = Query::parse(raw.as_deref());
    let filterable: Vec<&str> = ExemptionStatus::FILTERABLE
        .iter()
        .map(ExemptionStatus::as_str)
        .collect();
    let statuses = q
        .one_of_list("status__in", &filterable)
        .unwrap_or_else(|| filterable.iter().map(|s| (*s).to_owned()).collect());
    let search = q.get("search_query").map(str::to_lowercase);
    let countries = q.list("country_code");
    let jurisdiction = q.get("jurisdiction").map(str::to_owned);
    let start = q.date("start_date");
    let end = q.date("end_date");
    let customer_id = q.get("customer_id").map(str::to_owned);
    let transaction_id = q.get("transaction_id").map(str::to_owned);
    let order = q.order_by(ORDER_FIELDS, "end_date,FEIN,sales_tax_id,status");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let email_of = |e: &Exemption| {
        e.customer_id
            .as_ref()
            .and_then(|id| data.demo.customers.iter().find(|c| &c.id == id))
            .and_then(|c| c.email.clone())
    };
    let rows: Vec<&Exemption> = data
        .demo
        .exemptions
        .iter()
        .filter(|e| {
            e.status
                .as_ref()
                .is_some_and(|s| statuses.iter().any(|x| x == s.as_str()))
        })
        .filter(|e| {
            search.as_ref().is_none_or(|s| {
                e.id.to_lowercase().contains(s)
                    || e.customer_name
                        .as_ref()
                        .is_some_and(|n| n.to_lowercase().contains(s))
                    || email_of(e).is_some_and(|m| m.to_lowercase().contains(s))
            })
        })
        .filter(|e| {
            countries.is_empty()
                || e.country_code
                    .as_ref()
                    .is_some_and(|c| countries.iter().any(|x| x.eq_ignore_ascii_case(c)))
        })
        .filter(|e| {
            jurisdiction.as_ref().is_none_or(|j| {
                e.jurisdiction
                    .as_ref()
                    .is_some_and(|x| x.eq_ignore_ascii_case(j))
            })
        })
        .filter(|e| start.is_none_or(|d| e.start_date >= d))
        .filter(|e| end.is_none_or(|d| e.end_date.is_some_and(|x| x <= d)))
        .filter(|e| {
            customer_id
                .as_ref()
                .is_none_or(|c| e.customer_id.as_ref() == Some(c))
        })
        .filter(|e| {
            transaction_id
                .as_ref()
                .is_none_or(|t| e.transaction_id.as_ref() == Some(t))
        })
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn get_one(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Exemption>> {
    let data = org.read();
    data.demo
        .exemptions
        .iter()
        .find(|e| e.id == id)
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Exemption", &id))
}

pub async fn create(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<Exemption>> {
    let request = crate::rules::exemption_create(&required_body(&body)?)?;
    let exemption = {
        let mut data = org.write();
        let customer = data
            .demo
            .customers
            .iter()
            .find(|c| c.id == request.customer_id)
            .cloned()
            .ok_or_else(|| ErrorAnswer::not_found("Customer", &request.customer_id))?;
        let now = Timestamp::now();
        let exemption = Exemption {
            id: data.new_id("exmp"),
            exemption_type: request.exemption_type,
            status: Some(request.status),
            start_date: request.start_date,
            end_date: request.end_date,
            customer_id: Some(request.customer_id),
            fein: Some(request.fein),
            sales_tax_id: Some(request.sales_tax_id),
            jurisdiction: request.jurisdiction,
            country_code: request.country_code,
            transaction_id: request.transaction_id,
            reseller: Some(request.reseller.unwrap_or(false)),
            organization_id: Some(org.id.clone()),
            customer_name: customer.name.clone(),
            attachment_id: None,
            customer: Some(customer),
            attachment: Some(Vec::new()),
            created_at: Some(now),
            updated_at: Some(now),
        };
        let mut listed = exemption.clone();
        listed.customer = None;
        listed.attachment = None;
        data.demo.exemptions.push(listed);
        data.touch(Kind::Exemption, exemption.id.clone());
        exemption
    };
    saved(&app).await?;
    Ok(Json(exemption))
}

/// The attachments of an exemption, each with the web address its file is fetched from (see
/// [`located`]).
pub async fn attachments(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
) -> Answered<Json<Vec<Attachment>>> {
    let data = org.read();
    if !data.demo.exemptions.iter().any(|e| e.id == id) {
        return Err(ErrorAnswer::not_found("Exemption", &id));
    }
    Ok(Json(
        data.demo
            .attachments
            .iter()
            .filter(|a| a.attachment.related_entity_id == id)
            .map(|a| located(&a.attachment, &uri, &headers))
            .collect(),
    ))
}

/// `attachment` with the web address of its file: `uri` (the exemption's attachments path)
/// followed by `/{attachment id}/file`, on the host the request was sent to.
fn located(attachment: &Attachment, uri: &axum::http::Uri, headers: &HeaderMap) -> Attachment {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1");
    let base = format!("http://{host}{}", uri.path().trim_end_matches('/'));
    Attachment {
        file_location: Some(format!("{base}/{}/file", attachment.id)),
        ..attachment.clone()
    }
}

/// The file of one attachment of an exemption, as uploaded.
pub async fn attachment_file(
    Extension(org): Extension<Arc<Org>>,
    Path((id, attachment_id)): Path<(String, String)>,
) -> Answered<([(HeaderName, String); 2], Vec<u8>)> {
    let data = org.read();
    let stored = data
        .demo
        .attachments
        .iter()
        .find(|a| a.attachment.id == attachment_id && a.attachment.related_entity_id == id)
        .ok_or_else(|| ErrorAnswer::not_found("Attachment", &attachment_id))?;
    let a = &stored.attachment;
    let name = a
        .file_name
        .as_deref()
        .unwrap_or("certificate.pdf")
        .replace(['"', '\\', '\r', '\n'], "_");
    Ok((
        [
            (
                CONTENT_TYPE,
                a.mime_type
                    .clone()
                    .unwrap_or_else(|| "application/pdf".into()),
            ),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        stored.bytes.clone(),
    ))
}

fn file_error(kind: &str, msg: &str, input: Value) -> ErrorAnswer {
    FieldError::new(kind, vec!["body".into(), "file".into()], msg, input).into()
}

/// Upload: `multipart/form-data` with one part named `file`, a PDF of at most 10 MB.
pub async fn upload(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> Answered<Json<Attachment>> {
    if !org.read().demo.exemptions.iter().any(|e| e.id == id) {
        return Err(ErrorAnswer::not_found("Exemption", &id));
    }
    let mut multipart = multipart.map_err(|_| {
        file_error(
            "missing",
            "Field required: send multipart/form-data with a part named file",
            Value::Null,
        )
    })?;
    let mut file = None;
    loop {
        let field = multipart.next_field().await.map_err(|e| {
            file_error(
                "value_error",
                &format!("Value error, the upload could not be read: {e}"),
                Value::Null,
            )
        })?;
        let Some(field) = field else { break };
        if field.name() == Some("file") {
            let name = field.file_name().unwrap_or("certificate.pdf").to_owned();
            let mime = field.content_type().unwrap_or("application/pdf").to_owned();
            let bytes = field.bytes().await.map_err(|e| {
                file_error(
                    "value_error",
                    &format!("Value error, the upload could not be read: {e}"),
                    Value::Null,
                )
            })?;
            file = Some((name, mime, bytes));
            break;
        }
    }
    let Some((name, mime, bytes)) = file else {
        return Err(file_error(
            "missing",
            "Field required: a part named file",
            Value::Null,
        ));
    };
    if bytes.len() > MAX_CERTIFICATE_BYTES {
        return Err(file_error(
            "value_error",
            &format!(
                "Value error, file must be at most 10 MB; {name} is {} bytes",
                bytes.len()
            ),
            Value::String(name),
        ));
    }
    if !bytes.starts_with(b"%PDF-") {
        return Err(file_error(
            "value_error",
            &format!("Value error, file must be a PDF; {name} is not one"),
            Value::String(name),
        ));
    }
    let attachment = {
        let mut data = org.write();
        let attachment = Attachment {
            id: data.new_id("atch"),
            related_entity_id: id.clone(),
            related_entity_type: RelatedEntityType::Exemption,
            file_name: Some(name),
            mime_type: Some(mime),
            file_size_bytes: Some(bytes.len() as u64),
            created_at: Some(Timestamp::now()),
            file_location: None,
            file_location_type: None,
        };
        if let Some(e) = data.demo.exemptions.iter_mut().find(|e| e.id == id)
            && e.attachment_id.is_none()
        {
            e.attachment_id = Some(attachment.id.clone());
            data.touch(Kind::Exemption, id.clone());
        }
        data.demo.attachments.push(StoredAttachment {
            attachment: attachment.clone(),
            bytes: bytes.to_vec(),
        });
        data.touch(Kind::Attachment, attachment.id.clone());
        attachment
    };
    saved(&app).await?;
    Ok(Json(located(&attachment, &uri, &headers)))
}
