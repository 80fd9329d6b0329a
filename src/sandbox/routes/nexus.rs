//! Nexus: economic nexus rows, physical nexus records and their categories.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use serde_json::Value;

use super::{required_body, saved};
use crate::model::{
    Nexus, NexusStatus, Page, PhysicalNexus, PhysicalNexusCategoryInfo, PhysicalNexusSource,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::reference;
use crate::sandbox::store::{Kind, Org, OrgData};

/// After a physical presence in `country`/`state` was added, changed or removed: that
/// jurisdiction's economic nexus row follows (physical nexus met, nexus met, status).
fn follow_physical(data: &mut OrgData, country: &str, state: &str) {
    let today = crate::clock::today();
    let since =
        crate::rules::physical_nexus_since(&data.demo.physical_nexus, country, state, today);
    let Some(row) = data
        .demo
        .nexus
        .iter_mut()
        .find(|n| n.country_code == country && n.state_code == state)
    else {
        return;
    };
    let before = row.clone();
    crate::rules::apply_physical_nexus(row, since);
    if *row != before {
        row.updated_at = Some(crate::model::Timestamp(chrono::Utc::now()));
        let id = row.id.clone();
        data.touch(Kind::Nexus, id);
    }
}

const ECONOMIC_ORDER: &[&str] = &[
    "state_code",
    "country_code",
    "state_name",
    "status",
    "transactions_amount",
    "transaction_count",
    "nexus_met_date",
    "tax_liability",
];
const PHYSICAL_ORDER: &[&str] = &[
    "country_code",
    "state_code",
    "start_date",
    "end_date",
    "category",
    "city",
];

pub async fn list_economic(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Nexus>>> {
    let mut q = Query::parse(raw.as_deref());
    let known: Vec<&str> = NexusStatus::KNOWN.iter().map(NexusStatus::as_str).collect();
    let statuses = q.one_of_list("status__in", &known).unwrap_or_else(|| {
        NexusStatus::DEFAULT_FILTER
            .iter()
            .map(|s| s.as_str().to_owned())
            .collect()
    });
    let search = q.get("search_query").map(str::to_lowercase);
    let mut states = q.list("state_code__in");
    states.extend(q.get("state_code").map(str::to_owned));
    let countries = q.list("country_code__in");
    let collected = q.bool("collected_tax_nexus_met");
    let order = q.order_by(ECONOMIC_ORDER, "state_code,country_code");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&Nexus> = data
        .demo
        .nexus
        .iter()
        .filter(|n| {
            n.status
                .as_ref()
                .is_some_and(|s| statuses.iter().any(|x| x == s.as_str()))
        })
        .filter(|n| {
            search.as_ref().is_none_or(|s| {
                n.state_name.to_lowercase().contains(s)
                    || n.state_code.to_lowercase() == *s
                    || n.id.contains(s.as_str())
            })
        })
        .filter(|n| {
            states.is_empty() || states.iter().any(|s| s.eq_ignore_ascii_case(&n.state_code))
        })
        .filter(|n| {
            countries.is_empty()
                || countries
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&n.country_code))
        })
        .filter(|n| collected.is_none_or(|c| n.collected_tax_nexus_met.unwrap_or(false) == c))
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn get_economic(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Nexus>> {
    let data = org.read();
    data.demo
        .nexus
        .iter()
        .find(|n| n.id == id)
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Nexus", &id))
}

pub async fn list_physical(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<PhysicalNexus>>> {
    let mut q = Query::parse(raw.as_deref());
    let country = q.get("country_code").map(str::to_owned);
    let state = q.get("state_code").map(str::to_owned);
    let order = q.order_by(
        PHYSICAL_ORDER,
        "country_code,state_code,start_date,end_date",
    );
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&PhysicalNexus> = data
        .demo
        .physical_nexus
        .iter()
        .filter(|p| {
            country
                .as_ref()
                .is_none_or(|c| c.eq_ignore_ascii_case(&p.country_code))
        })
        .filter(|p| {
            state
                .as_ref()
                .is_none_or(|s| s.eq_ignore_ascii_case(&p.state_code))
        })
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn create_physical(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<PhysicalNexus>> {
    let request = crate::rules::physical_nexus_create(&required_body(&body)?)?;
    // A presence in the United States or Canada is in one of its states or provinces.
    let (country, state) = (&request.country_code, &request.state_code);
    if matches!(country.as_str(), "US" | "CA")
        && crate::sandbox::reference::lookup(country, state).is_none()
    {
        let msg = super::registration_writes::not_a_state(country, state);
        return Err(vec![crate::model::FieldError::new(
            "value_error",
            vec!["body".into(), "state_code".into()],
            format!("Value error, {msg}"),
            Value::String(state.clone()),
        )]
        .into());
    }
    let record = {
        let mut data = org.write();
        let record = PhysicalNexus {
            id: data.new_id("phys"),
            country_code: request.country_code,
            state_code: request.state_code,
            start_date: request.start_date,
            end_date: request.end_date,
            category: request.category,
            external_id: request.external_id,
            source: Some(PhysicalNexusSource::User),
            street_1: request.street_1,
            street_2: request.street_2,
            city: request.city,
            postal_code: request.postal_code,
        };
        data.demo.physical_nexus.push(record.clone());
        data.touch(Kind::PhysicalNexus, record.id.clone());
        follow_physical(&mut data, &record.country_code, &record.state_code);
        record
    };
    saved(&app).await?;
    Ok(Json(record))
}

pub async fn update_physical(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<PhysicalNexus>> {
    let request = crate::rules::physical_nexus_update(&required_body(&body)?)?;
    let record = {
        let mut data = org.write();
        let record = data
            .demo
            .physical_nexus
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| ErrorAnswer::not_found("Physical nexus", &id))?;
        if let Some(code) = &request.postal_code
            && let Some(rule) =
                crate::rules::postal_code_rule("postal_code", &record.country_code, code)
        {
            return Err(postal_code_error(rule, code));
        }
        record.start_date = request.start_date;
        record.end_date = request.end_date;
        record.category = request.category;
        record.street_1 = request.street_1;
        record.street_2 = request.street_2;
        record.city = request.city;
        record.postal_code = request.postal_code;
        let record = record.clone();
        data.touch(Kind::PhysicalNexus, id);
        follow_physical(&mut data, &record.country_code, &record.state_code);
        record
    };
    saved(&app).await?;
    Ok(Json(record))
}

/// A postal code that breaks the form of the record's country.
pub(super) fn postal_code_error(rule: String, code: &str) -> ErrorAnswer {
    crate::model::FieldError::new(
        "value_error",
        vec!["body".into(), "postal_code".into()],
        format!("Value error, {rule}"),
        Value::String(code.to_owned()),
    )
    .into()
}

pub async fn delete_physical(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Value>> {
    {
        let mut data = org.write();
        let Some(at) = data.demo.physical_nexus.iter().position(|p| p.id == id) else {
            return Err(ErrorAnswer::not_found("Physical nexus", &id));
        };
        let gone = data.demo.physical_nexus.remove(at);
        data.touch(Kind::PhysicalNexus, id.clone());
        follow_physical(&mut data, &gone.country_code, &gone.state_code);
    }
    saved(&app).await?;
    Ok(Json(
        serde_json::json!({ "detail": format!("Physical nexus {id} deleted") }),
    ))
}

pub async fn categories(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Vec<PhysicalNexusCategoryInfo>>> {
    let mut q = Query::parse(raw.as_deref());
    let country = q.get("country_code").unwrap_or("US").to_uppercase();
    let state = q.get("state_code").map(str::to_uppercase);
    if !crate::rules::is_country_code(&country) {
        q.push_error(crate::model::FieldError::new(
            "enum",
            vec!["query".into(), "country_code".into()],
            "Input should be an ISO 3166-1 alpha-2 country code or ZZ_EU",
            Value::String(country.clone()),
        ));
    }
    q.finish()?;
    let data = org.read();
    let today = crate::clock::today();
    let assigned = |category: &crate::model::PhysicalNexusCategory| {
        data.demo.physical_nexus.iter().any(|p| {
            p.category == *category
                && p.country_code == country
                && state.as_ref().is_none_or(|s| *s == p.state_code)
                && p.end_date.is_none_or(|end| end >= today)
        })
    };
    let rows = reference::physical_nexus_categories(&country, state.as_deref().unwrap_or(""))
        .into_iter()
        .map(
            |(name, title, description, example)| PhysicalNexusCategoryInfo {
                is_category_assigned: assigned(&name),
                name,
                title: title.to_owned(),
                description: description.to_owned(),
                example: example.to_owned(),
            },
        )
        .collect();
    Ok(Json(rows))
}
