//! Nexus exposure history, back-filing options and the bulk filing actions.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::{Extension, Json};
use serde_json::{Map, Value, json};

use super::super::wire::{json_body, money, timestamp};
use super::super::{Tenant, TenantedError, TenantedResult};
use super::{id_list, object_body, page_of, saved};
use crate::model::tenanted::ApiVersion;
use crate::model::{FieldError, Filing, FilingStatus, Timestamp};
use crate::sandbox::App;
use crate::sandbox::demo_data::{BackFilingOptionRecord, ExposureRecord};
use crate::sandbox::query::Query;
use crate::sandbox::store::Kind;

/// An exposure event: the state is `stateCode` from 2026-10-06, always present (null for a
/// country-level nexus); before, `state`, left out when the nexus has none.
fn event_row(e: &ExposureRecord, version: ApiVersion) -> Value {
    let mut row = Map::new();
    row.insert("id".into(), json!(e.id));
    row.insert("occurredAt".into(), timestamp(&e.occurred_at));
    row.insert("eventType".into(), json!(e.event_type));
    if version.is_latest_shape() {
        row.insert("stateCode".into(), json!(e.state_code));
    } else if let Some(state) = &e.state_code {
        row.insert("state".into(), json!(state));
    }
    row.insert("countryCode".into(), json!(e.country_code));
    row.insert("status".into(), json!(e.status));
    row.insert("salesAmount".into(), money(e.sales_amount));
    row.insert("transactionCount".into(), json!(e.transaction_count));
    row.insert("description".into(), json!(e.description));
    Value::Object(row)
}

/// `GET /nexus/{id}/exposure-history`: what happened to one nexus, oldest first, paged.
pub async fn exposure_history(
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let mut q = Query::parse(raw.as_deref());
    let data = org.read();
    if !data.demo.nexus.iter().any(|n| n.id == id) {
        return Err(TenantedError::NotFound(format!("Nexus {id} not found.")));
    }
    let mut events: Vec<&ExposureRecord> = data
        .demo
        .tenanted
        .exposure_events
        .iter()
        .filter(|e| e.nexus_id == id)
        .collect();
    events.sort_by(|a, b| (a.occurred_at, &a.id).cmp(&(b.occurred_at, &b.id)));
    let rows = events
        .into_iter()
        .map(|e| event_row(e, tenant.version))
        .collect();
    let page = page_of(rows, &mut q)?;
    q.finish()?;
    Ok(Json(page))
}

/// A back-filing option. A country-level one's `stateCode` is `""` before 2026-10-06 and null
/// from it (as on filings); `helpArticleLabel` is text or null before 2026-10-06 and always
/// text (`""` when none) from it.
fn option_row(o: &BackFilingOptionRecord, version: ApiVersion) -> Value {
    let latest = version.is_latest_shape();
    let state = match &o.state_code {
        Some(s) => json!(s),
        None if latest => Value::Null,
        None => json!(""),
    };
    let label = match &o.help_article_label {
        Some(l) => json!(l),
        None if latest => json!(""),
        None => Value::Null,
    };
    json!({
        "id": o.id,
        "countryCode": o.country_code,
        "stateCode": state,
        "periodStart": o.period_start,
        "periodEnd": o.period_end,
        "label": o.label,
        "helpArticleLabel": label,
        "helpArticleUrl": o.help_article_url,
        "estimatedLiability": money(o.estimated_liability),
    })
}

/// `GET /filings/backFilingRequest/options`: `{items}`.
pub async fn back_filing_options(
    Extension(tenant): Extension<Tenant>,
) -> TenantedResult<Json<Value>> {
    let org = tenant.target()?;
    let data = org.read();
    let items: Vec<Value> = data
        .demo
        .tenanted
        .back_filing_options
        .iter()
        .map(|o| option_row(o, tenant.version))
        .collect();
    Ok(Json(json!({ "items": items })))
}

/// The `filingIds` of a bulk action: a non-empty list of strings.
fn filing_ids(body: Option<Value>) -> TenantedResult<Vec<String>> {
    let Some(body) = object_body(body)? else {
        return Err(FieldError::new(
            "missing",
            vec!["body".into()],
            "Field required: send {\"filingIds\": [...]}",
            Value::Null,
        )
        .into());
    };
    id_list(
        Some(&body),
        "filingIds",
        "filingIds must name at least one filing",
    )
}

/// What a bulk action does to one filing.
#[derive(Clone, Copy)]
enum Action {
    Approve,
    Pause,
}

impl Action {
    fn verb(self) -> &'static str {
        match self {
            Action::Approve => "approved",
            Action::Pause => "paused",
        }
    }

    /// Applies the action to an UNFILED filing.
    fn apply(self, filing: &mut Filing) {
        match self {
            Action::Approve => {
                filing.status = Some(FilingStatus::Filing);
                filing.approved_at = Some(Timestamp::now());
            }
            Action::Pause => filing.status = Some(FilingStatus::Paused),
        }
    }
}

/// Runs `action` on each filing: an UNFILED one changes; any other keeps its status and gets a
/// `conflict` error, an unknown id a `not_found` one. `{jobId: null, results}` before
/// 2026-10-06, `{results}` from it.
async fn bulk(
    app: &Arc<App>,
    tenant: &Tenant,
    body: Bytes,
    action: Action,
) -> TenantedResult<Value> {
    let org = tenant.target()?;
    let ids = filing_ids(json_body(&body)?)?;
    let mut changed = false;
    let results: Vec<Value> = {
        let mut data = org.write();
        let mut touched = Vec::new();
        let results: Vec<Value> = ids
            .iter()
            .map(|id| {
                let Some(filing) = data.demo.filings.iter_mut().find(|f| f.id == *id) else {
                    return json!({
                        "filingId": id,
                        "status": null,
                        "error": {"code": "not_found", "message": format!("Filing {id} not found.")},
                    });
                };
                let error = if filing.status == Some(FilingStatus::Unfiled) {
                    action.apply(filing);
                    changed = true;
                    touched.push(id.clone());
                    Value::Null
                } else {
                    let status = filing
                        .status
                        .as_ref()
                        .map_or("without a status", |s| s.as_str());
                    json!({
                        "code": "conflict",
                        "message": format!(
                            "Filing {id} is {status}: only an UNFILED filing can be {}.",
                            action.verb()
                        ),
                    })
                };
                json!({
                    "filingId": id,
                    "status": filing.status.as_ref().map(crate::model::FilingStatus::as_str),
                    "error": error,
                })
            })
            .collect();
        for id in touched {
            data.touch(Kind::Filing, id);
        }
        results
    };
    if changed {
        saved(app).await?;
    }
    Ok(if tenant.version.is_latest_shape() {
        json!({ "results": results })
    } else {
        json!({ "jobId": null, "results": results })
    })
}

/// `POST /filings/bulk/approve` `{filingIds}`: UNFILED filings become FILING.
pub async fn bulk_approve(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    bulk(&app, &tenant, body, Action::Approve).await.map(Json)
}

/// `POST /filings/bulk/pause` `{filingIds}`: UNFILED filings become PAUSED.
pub async fn bulk_pause(
    State(app): State<Arc<App>>,
    Extension(tenant): Extension<Tenant>,
    body: Bytes,
) -> TenantedResult<Json<Value>> {
    bulk(&app, &tenant, body, Action::Pause).await.map(Json)
}
