//! Customers and their tax registrations.

use std::sync::Arc;

use crate::sandbox::tenanted::mirror::Json;
use axum::Extension;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};

use super::{required_body, saved};
use crate::model::{
    Address, AddressStatus, Customer, CustomerStatus, CustomerTaxRegistration, CustomerTaxType,
    CustomerWrite, Page,
};
use crate::sandbox::App;
use crate::sandbox::error::{Answered, ErrorAnswer};
use crate::sandbox::listing::sorted_page;
use crate::sandbox::query::Query;
use crate::sandbox::store::{Kind, Org};

/// What a customer list can be ordered by: the live document's own example
/// (`created_at,street_1,street_2,city,state,postal_code,country,status`) among them.
/// Customers carry no `created_at`; ordered by it, they stay in the order they were created.
const ORDER_FIELDS: &[&str] = &[
    "created_at",
    "street_1",
    "street_2",
    "postal_code",
    "name",
    "email",
    "company_name",
    "country",
    "state",
    "city",
    "status",
    "external_id",
    "source",
];

/// EU member states, whose tax ids are VAT numbers.
const EU: &[&str] = &[
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
    "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
];

pub async fn list(
    Extension(org): Extension<Arc<Org>>,
    RawQuery(raw): RawQuery,
) -> Answered<Json<Page<Customer>>> {
    let mut q = Query::parse(raw.as_deref());
    let search = q.get("search_query").map(str::to_lowercase);
    let countries = q.list("country");
    let state = q.get("state").map(str::to_owned);
    let sources = q.list("source__in");
    let order = q.order_by(ORDER_FIELDS, "");
    let page = q.page();
    q.finish()?;
    let data = org.read();
    let rows: Vec<&Customer> = data
        .demo
        .customers
        .iter()
        .filter(|c| {
            search.as_ref().is_none_or(|s| {
                c.id.to_lowercase().contains(s)
                    || [&c.name, &c.email, &c.company_name, &c.external_id]
                        .into_iter()
                        .flatten()
                        .any(|v| v.to_lowercase().contains(s))
            })
        })
        .filter(|c| {
            countries.is_empty()
                || c.address
                    .country
                    .as_ref()
                    .is_some_and(|x| countries.iter().any(|y| y.eq_ignore_ascii_case(x)))
        })
        .filter(|c| {
            state.as_ref().is_none_or(|s| {
                c.address
                    .state
                    .as_ref()
                    .is_some_and(|x| x.eq_ignore_ascii_case(s))
            })
        })
        .filter(|c| sources.is_empty() || c.source.as_ref().is_some_and(|x| sources.contains(x)))
        .collect();
    Ok(Json(sorted_page(rows, &order, page)))
}

pub async fn get_one(
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
) -> Answered<Json<Customer>> {
    let data = org.read();
    data.demo
        .customers
        .iter()
        .find(|c| c.id == id)
        .cloned()
        .map(Json)
        .ok_or_else(|| ErrorAnswer::not_found("Customer", &id))
}

/// Copies every field given in `w` onto `c`.
fn apply(c: &mut Customer, w: CustomerWrite) {
    macro_rules! set {
        ($($($f:ident).+),*) => { $( if w.$($f).+.is_some() { c.$($f).+ = w.$($f).+; } )* };
    }
    set!(
        name,
        external_id,
        external_friendly_id,
        status,
        email,
        phone,
        company_name,
        address.street_1,
        address.street_2,
        address.city,
        address.county,
        address.state,
        address.postal_code,
        address.country,
        address.full_address,
        source,
        address_status,
        registration_number
    );
}

pub async fn create(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    body: Bytes,
) -> Answered<Json<Customer>> {
    let request = crate::rules::customer_write(&required_body(&body)?)?;
    let customer = {
        let mut data = org.write();
        let mut customer = Customer {
            id: data.new_id("cust"),
            organization_id: org.id.clone(),
            name: None,
            external_id: None,
            external_friendly_id: None,
            status: Some(CustomerStatus::Active),
            email: None,
            phone: None,
            company_name: None,
            address: Address::default(),
            source: Some("API".into()),
            connection_id: None,
            // The interface's default, unless the body gives one.
            address_status: Some(AddressStatus::Unverified),
            registration_number: None,
            customer_tax_registrations: Some(Vec::new()),
            store_name: None,
        };
        apply(&mut customer, request);
        data.demo.customers.push(customer.clone());
        data.touch(Kind::Customer, customer.id.clone());
        customer
    };
    saved(&app).await?;
    Ok(Json(customer))
}

pub async fn update(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<Customer>> {
    let request = crate::rules::customer_write(&required_body(&body)?)?;
    let customer = {
        let mut data = org.write();
        let customer = data
            .demo
            .customers
            .iter_mut()
            .find(|c| c.id == id)
            .ok_or_else(|| ErrorAnswer::not_found("Customer", &id))?;
        // The body's own country was checked with its postal code; a postal code sent alone is
        // held to the country on file.
        if request.address.country.is_none()
            && let (Some(code), Some(country)) =
                (&request.address.postal_code, &customer.address.country)
            && let Some(rule) = crate::rules::postal_code_rule("postal_code", country, code)
        {
            return Err(super::nexus::postal_code_error(rule, code));
        }
        let moved = [
            &request.address.street_1,
            &request.address.street_2,
            &request.address.city,
            &request.address.county,
            &request.address.state,
            &request.address.postal_code,
            &request.address.country,
        ]
        .iter()
        .any(|f| f.is_some());
        apply(customer, request);
        // A changed address is checked again, as the address validation would.
        if moved {
            let status = super::addresses::status_of(&crate::model::AddressFields {
                full_address: None,
                ..customer.address.clone().into()
            });
            customer.address_status = Some(AddressStatus::parse(status));
        }
        let customer = customer.clone();
        data.touch(Kind::Customer, id);
        customer
    };
    saved(&app).await?;
    Ok(Json(customer))
}

/// The kind of tax id, told from the customer's country and the id's form.
fn tax_type_of(country: &str, tax_id: &str) -> CustomerTaxType {
    let id = tax_id.to_ascii_uppercase();
    match country {
        "CA" if id.contains("TQ") => CustomerTaxType::Qst,
        "CA" if id.contains("RT") => CustomerTaxType::GstHst,
        "CA" => CustomerTaxType::Pst,
        c if EU.contains(&c) || c == "GB" => CustomerTaxType::Vat,
        _ => CustomerTaxType::Unknown,
    }
}

/// Whether the id has the form its kind should have.
fn looks_valid(kind: &CustomerTaxType, tax_id: &str) -> bool {
    let id: String = tax_id
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    match kind {
        CustomerTaxType::GstHst => {
            id.len() == 15 && id[..9].chars().all(|c| c.is_ascii_digit()) && &id[9..11] == "RT"
        }
        CustomerTaxType::Qst => id.len() == 16 && id[..10].chars().all(|c| c.is_ascii_digit()),
        CustomerTaxType::Vat => {
            id.len() >= 8
                && id.len() <= 14
                && id[..2].chars().all(|c| c.is_ascii_alphabetic())
                && id[2..].chars().all(|c| c.is_ascii_alphanumeric())
        }
        _ => id.len() >= 5,
    }
}

/// Creates the customer's tax registration, or updates the one with the same tax type and country.
pub async fn tax_registration(
    State(app): State<Arc<App>>,
    Extension(org): Extension<Arc<Org>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Answered<Json<CustomerTaxRegistration>> {
    let request = crate::rules::customer_tax_registration(&required_body(&body)?)?;
    let registration = {
        let mut data = org.write();
        let fresh_id = data.new_id("txr");
        let customer = data
            .demo
            .customers
            .iter_mut()
            .find(|c| c.id == id)
            .ok_or_else(|| ErrorAnswer::not_found("Customer", &id))?;
        let country = customer
            .address
            .country
            .clone()
            .unwrap_or_else(|| "US".into());
        let tax_id = request.tax_id.trim().to_owned();
        let tax_type = tax_type_of(&country, &tax_id);
        let is_valid = looks_valid(&tax_type, &tax_id);
        let list = customer
            .customer_tax_registrations
            .get_or_insert_with(Vec::new);
        let registration = if let Some(existing) = list
            .iter_mut()
            .find(|r| r.tax_type == tax_type && r.country_code == country)
        {
            existing.tax_id = tax_id;
            existing.is_valid = is_valid;
            existing.clone()
        } else {
            let r = CustomerTaxRegistration {
                id: fresh_id,
                customer_id: id.clone(),
                country_code: country,
                tax_type,
                tax_id,
                is_valid,
            };
            list.push(r.clone());
            r
        };
        data.touch(Kind::Customer, id.clone());
        registration
    };
    saved(&app).await?;
    Ok(Json(registration))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_id_kinds() {
        assert_eq!(
            tax_type_of("CA", "123456789RT0001"),
            CustomerTaxType::GstHst
        );
        assert!(looks_valid(&CustomerTaxType::GstHst, "123456789RT0001"));
        assert!(!looks_valid(&CustomerTaxType::GstHst, "12345RT0001"));
        assert_eq!(tax_type_of("DE", "DE123456789"), CustomerTaxType::Vat);
        assert!(looks_valid(&CustomerTaxType::Vat, "DE123456789"));
        assert_eq!(tax_type_of("US", "12-3456789"), CustomerTaxType::Unknown);
    }
}
