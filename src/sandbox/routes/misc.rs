//! Filings, back-filing terms, products (listed, read, created, edited) and tax estimates.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use rust_decimal::Decimal;

use super::{required_body, saved};
use crate::model::{
    AddressType, BackFilingTerms, EstimateItem, EstimateResponse, EstimateTaxItem, Filing,
    FilingStatus, Page, Product, ProductCategory, ProductStatus, RegistrationStatus, TaxExemption,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::reference;
use crate::sandbox::store::{Kind, Org};

const FILING_ORDER: &[&str] = &[
    "start_date",
    "end_date",
    "due_date",
    "status",
    "state_code",
    "country_code",
    "amount",
];
const PRODUCT_ORDER: &[&str] = &[
    "name",
    "code",
    "status",
    "product_category",
    "product_subcategory",
    "external_id",
];

pub async fn filings(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Filing>>> {
    let mut q = Query::parse(raw.as_deref());
    let known: Vec<&str> = FilingStatus::KNOWN
        .iter()
        .map(FilingStatus::as_str)
        .collect();
    let statuses = q.one_of_list("status__in", &known);
    let state = q.get("state_code").map(str::to_owned);
    let countries = q.list("country_code");
    let start = q.date("start_date");
    let end = q.date("end_date");
    let filed_from = q.date("date_filed__gte");
    let filed_to = q.date("date_filed__lte");
    let order = q.order_by(FILING_ORDER, "");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&Filing> = data
        .demo
        .filings
        .iter()
        .filter(|f| {
            statuses.as_ref().is_none_or(|s| {
                f.status
                    .as_ref()
                    .is_some_and(|x| s.iter().any(|y| y == x.as_str()))
            })
        })
        .filter(|f| {
            state.as_ref().is_none_or(|s| {
                f.state_code
                    .as_ref()
                    .is_some_and(|x| x.eq_ignore_ascii_case(s))
            })
        })
        .filter(|f| {
            countries.is_empty()
                || countries
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&f.country_code))
        })
        .filter(|f| start.is_none_or(|d| f.start_date >= d))
        .filter(|f| end.is_none_or(|d| f.end_date <= d))
        .filter(|f| {
            let filed = f.date_filed;
            filed_from.is_none_or(|d| filed.is_some_and(|x| x >= d))
                && filed_to.is_none_or(|d| filed.is_some_and(|x| x <= d))
        })
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn filing(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Filing>> {
    let data = org.read();
    data.demo
        .filings
        .iter()
        .find(|f| f.id == id)
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Filing", &id))
}

pub async fn back_filing_terms(Extension(_org): Extension<Arc<Org>>) -> Json<BackFilingTerms> {
    Json(reference::back_filing_terms())
}

pub async fn products(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Product>>> {
    let mut q = Query::parse(raw.as_deref());
    let search = q.get("query").map(str::to_lowercase);
    let known: Vec<&str> = ProductStatus::KNOWN
        .iter()
        .map(ProductStatus::as_str)
        .collect();
    let statuses = q.one_of_list("status__in", &known);
    let categories = q.list("product_category__in");
    let subcategories = q.list("product_subcategory__in");
    let sources = q.list("source__in");
    let order = q.order_by(PRODUCT_ORDER, "");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&Product> = data
        .demo
        .products
        .iter()
        .filter(|p| {
            search.as_ref().is_none_or(|s| {
                p.name.to_lowercase().contains(s)
                    || p.code.to_lowercase().contains(s)
                    || p.external_id.to_lowercase().contains(s)
                    || p.sku.iter().any(|k| k.to_lowercase().contains(s))
            })
        })
        .filter(|p| {
            statuses
                .as_ref()
                .is_none_or(|s| s.iter().any(|x| x == p.status.as_str()))
        })
        .filter(|p| categories.is_empty() || categories.contains(&p.product_category))
        .filter(|p| subcategories.is_empty() || subcategories.contains(&p.product_subcategory))
        .filter(|p| sources.is_empty() || p.source.as_ref().is_some_and(|s| sources.contains(s)))
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn product(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Product>> {
    let data = org.read();
    data.demo
        .products
        .iter()
        .find(|p| p.id == id)
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Product", &id))
}

/// POST /v1/products: a product entered by hand, `APPROVED` and from `OTHER` unless the body
/// says otherwise; its external id must be new.
pub async fn create_product(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<Product>> {
    let catalog = reference::product_catalog();
    let w = crate::rules::product_create(&required_body(&body)?, &catalog)?;
    let product = {
        let mut data = org.write();
        let external_id = w.external_id.unwrap_or_default();
        if data
            .demo
            .products
            .iter()
            .any(|p| p.external_id == external_id)
        {
            return Err(ErrorAnswer::Status(
                StatusCode::CONFLICT,
                format!("A product with external_id {external_id} already exists."),
            ));
        }
        let product = Product {
            id: data.new_id("prod"),
            code: external_id.clone(),
            external_id,
            sku: Vec::new(),
            name: w.name.unwrap_or_default(),
            description: w.description.unwrap_or_default(),
            status: w.status.unwrap_or(ProductStatus::Approved),
            product_category: w.product_category.unwrap_or_default(),
            product_subcategory: w.product_subcategory.unwrap_or_default(),
            tax_exempt: w.tax_exempt.unwrap_or_default(),
            source: Some(w.source.unwrap_or_else(|| "OTHER".into())),
            connection_id: None,
            classification_failed: false,
            store_name: None,
            source_taxonomy_type: None,
            source_taxonomy_code: None,
            source_taxonomy_id: None,
            source_taxonomy_name: None,
            source_taxonomy_categories: None,
            source_taxonomy_metadata: None,
        };
        data.demo.products.push(product.clone());
        data.touch(Kind::Product, product.id.clone());
        product
    };
    saved(&app).await?;
    Ok(Json(product))
}

/// `PUT /v1/products/{id}`: the body replaces the fields it gives. As the live document's
/// `ProductUpdate` has it, `name`, `product_category`, `product_subcategory` and `tax_exempt`
/// are required in every edit (422 `missing` naming each one absent), and `status` and
/// `classification_failed` not given take their defaults, `APPROVED` and `false`: the user's
/// save approves the product as it now stands. An `ARCHIVED` product (a status the interface
/// document adds, unknown to that document's enumeration) stays archived unless the body names
/// a status.
pub async fn update_product(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Product>> {
    let body = required_body(&body)?;
    let catalog = reference::product_catalog();
    let product = {
        let mut data = org.write();
        let p = data
            .demo
            .products
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| ErrorAnswer::not_found("Product", &id))?;
        let w = crate::rules::product_update(&body, &catalog)?;
        p.name = w.name;
        p.product_category = w.product_category;
        p.product_subcategory = w.product_subcategory;
        p.tax_exempt = w.tax_exempt;
        if let Some(external_id) = w.external_id {
            p.external_id = external_id;
        }
        if let Some(description) = w.description {
            p.description = description;
        }
        if w.source.is_some() {
            p.source = w.source;
        }
        p.status = match (w.status, &p.status) {
            (Some(status), _) => status,
            (None, ProductStatus::Archived) => ProductStatus::Archived,
            (None, _) => ProductStatus::Approved,
        };
        p.classification_failed = w.classification_failed.unwrap_or(false);
        let product = p.clone();
        data.touch(Kind::Product, id);
        product
    };
    saved(&app).await?;
    Ok(Json(product))
}

pub async fn product_categories(
    Extension(_org): Extension<Arc<Org>>,
) -> Json<Vec<ProductCategory>> {
    Json(reference::product_catalog())
}

/// POST /v1/tax/estimate: the tax each item would bear at the ship-to (or first) address.
pub async fn estimate(
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<EstimateResponse>> {
    let request = crate::rules::estimate(&required_body(&body)?)?;
    let address = request
        .addresses
        .iter()
        .find(|a| a.kind == Some(AddressType::ShipTo))
        .or(request.addresses.first());
    let country = address
        .and_then(|a| a.address.country.clone())
        .unwrap_or_else(|| "US".into())
        .to_uppercase();
    let state = address
        .and_then(|a| a.address.state.clone())
        .unwrap_or_default()
        .to_uppercase();
    let rate = reference::tax_rate(&country, &state);
    let data = org.read();
    let registered = data.demo.registrations.iter().any(|r| {
        r.country_code == country
            && (r.state_code == state || r.state_code.is_empty())
            && r.status == RegistrationStatus::Registered
    });
    let nexus_met =
        data.demo.nexus.iter().any(|n| {
            n.country_code == country && n.state_code == state && n.nexus_met == Some(true)
        });
    let taxed = registered || nexus_met;
    let mut total_tax = Decimal::ZERO;
    let mut taxable_total = Decimal::ZERO;
    let items: Vec<EstimateItem> = request
        .transaction_items
        .iter()
        .map(|i| {
            let exempt = i.exempt == Some(true);
            let applies = taxed && !exempt;
            let taxable = if applies { i.amount } else { Decimal::ZERO };
            let tax = (taxable * rate).round_dp(2);
            total_tax += tax;
            taxable_total += taxable;
            EstimateItem {
                external_id: i.external_id.clone(),
                date: Some(i.date),
                description: i.description.clone(),
                external_product_id: i.external_product_id.clone(),
                quantity: i.quantity,
                amount: i.amount,
                exempt: Some(!applies),
                tax_amount: Some(tax),
                taxable_amount: Some(taxable),
                tax_rate: Some(if applies { rate } else { Decimal::ZERO }),
                exempt_reason: if exempt {
                    Some(TaxExemption::Transaction)
                } else if !taxed {
                    Some(TaxExemption::NoRuleFound)
                } else {
                    None
                },
                tax_items: if applies {
                    vec![EstimateTaxItem {
                        name: format!(
                            "{} tax",
                            reference::jurisdiction_name(&country, &state).unwrap_or(&country)
                        ),
                        rate: Some(rate),
                        amount: Some(tax),
                        exempt: Some(false),
                        exempt_reason: None,
                        rule: None,
                    }]
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    Ok(Json(EstimateResponse {
        date: request.date,
        external_id: request.external_id,
        currency: request.currency,
        description: request.description,
        marketplace: request.marketplace,
        addresses: request
            .addresses
            .iter()
            .filter_map(|a| serde_json::to_value(a).ok())
            .collect(),
        transaction_items: items,
        total_tax_amount_calculated: Some(total_tax),
        taxable_amount: Some(taxable_total),
        tax_rate_calculated: Some(if taxed { rate } else { Decimal::ZERO }),
        nexus_met: Some(nexus_met),
        has_active_registration: Some(registered),
    }))
}
