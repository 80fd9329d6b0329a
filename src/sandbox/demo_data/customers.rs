//! Customers in the US, Canada and the EU, some with tax registrations.

use rand::Rng;

use super::places::{
    CA_PLACES, COMPANY_KINDS, COMPANY_STEMS, COMPANY_SUFFIXES, EU_PLACES, FIRST_NAMES, LAST_NAMES,
    STREET_KINDS, STREETS, US_PLACES,
};
use super::util::{chance, digits, pick, slug, weighted};
use super::{Ctx, Section};
use crate::model::{
    AddressStatus, Customer, CustomerStatus, CustomerTaxRegistration, CustomerTaxType,
};

/// Where a customer's address comes from.
struct Address {
    street_1: String,
    street_2: Option<String>,
    city: &'static str,
    county: Option<&'static str>,
    state: &'static str,
    postal_code: &'static str,
    country: &'static str,
    phone: String,
}

pub fn generate(ctx: &Ctx) -> Vec<Customer> {
    let mut rng = ctx.rng(Section::Customers);
    let mut tax_registration_count = 0;
    (0..ctx.profile.customers)
        .map(|i| customer(ctx, &mut rng, i, &mut tax_registration_count))
        .collect()
}

fn customer(ctx: &Ctx, rng: &mut impl Rng, i: usize, txr_count: &mut usize) -> Customer {
    let id = ctx.id("cust", i + 1);
    let first = *pick(rng, FIRST_NAMES);
    let last = *pick(rng, LAST_NAMES);
    let person = format!("{first} {last}");
    let company = chance(rng, 7, 10).then(|| {
        format!(
            "{} {} {}",
            pick(rng, COMPANY_STEMS),
            pick(rng, COMPANY_KINDS),
            pick(rng, COMPANY_SUFFIXES)
        )
    });
    let address = address(ctx, rng);
    let email = match &company {
        Some(company) => {
            let domain = slug(company.rsplit_once(' ').map_or(company, |(name, _)| name));
            format!("{}.{}@{domain}.com", slug(first), slug(last))
        }
        None => format!(
            "{}{}{}@{}",
            slug(first),
            slug(last),
            rng.random_range(1..99),
            pick(rng, &["example.com", "example.net", "example.org"])
        ),
    };
    let source = *weighted(
        rng,
        &[
            ("API", 35),
            ("IMPORT", 25),
            ("CUSTOM", 15),
            ("CHECKOUT", 10),
            ("BILLING_PLATFORM", 10),
            ("INTERNAL_ERP", 5),
        ],
    );
    let connected = matches!(source, "API" | "CHECKOUT" | "BILLING_PLATFORM");
    let address_status = weighted(
        rng,
        &[
            (AddressStatus::Verified, 70),
            (AddressStatus::PartiallyVerified, 10),
            (AddressStatus::Unverified, 10),
            (AddressStatus::Invalid, 4),
            (AddressStatus::Unverifiable, 3),
            (AddressStatus::Blank, 3),
        ],
    )
    .clone();
    let blank = address_status == AddressStatus::Blank;
    let full_address = (!blank).then(|| {
        let street = match &address.street_2 {
            Some(unit) => format!("{}, {unit}", address.street_1),
            None => address.street_1.clone(),
        };
        format!(
            "{street}, {}, {} {}, {}",
            address.city, address.state, address.postal_code, address.country
        )
    });
    let tax_registrations =
        tax_registrations(ctx, rng, &id, &address, company.is_some(), txr_count);
    let keep = |value: &str| (!blank).then(|| value.to_owned());
    Customer {
        organization_id: ctx.organization_id.to_owned(),
        name: Some(person),
        external_id: Some(format!("crm-{}", 100_000 + i * 37)),
        external_friendly_id: Some(format!("C-{:05}", 1_001 + i)),
        status: Some(if chance(rng, 2, 25) {
            CustomerStatus::Archived
        } else {
            CustomerStatus::Active
        }),
        email: Some(email),
        phone: Some(address.phone.clone()),
        registration_number: company
            .as_ref()
            .filter(|_| address.country != "US" && chance(rng, 1, 2))
            .map(|_| digits(rng, 9)),
        company_name: company,
        address: crate::model::Address {
            street_1: keep(&address.street_1),
            street_2: address.street_2.as_deref().and_then(keep),
            city: keep(address.city),
            county: address.county.and_then(keep),
            state: keep(address.state),
            postal_code: keep(address.postal_code),
            country: Some(address.country.to_owned()),
            full_address,
        },
        source: Some(source.to_owned()),
        connection_id: connected.then(|| format!("conn_demo{}_01", ctx.org_index + 1)),
        address_status: Some(address_status),
        customer_tax_registrations: Some(tax_registrations),
        store_name: connected.then(|| "Online store".to_owned()),
        id,
    }
}

fn address(ctx: &Ctx, rng: &mut impl Rng) -> Address {
    let (canada, eu) = ctx.profile.foreign_customers;
    let roll = rng.random_range(0..100);
    let street_1 = format!(
        "{} {} {}",
        rng.random_range(1..9_999),
        pick(rng, STREETS),
        pick(rng, STREET_KINDS)
    );
    let street_2 = chance(rng, 1, 4).then(|| format!("Suite {}", rng.random_range(1..60) * 10));
    let line = rng.random_range(0..100);
    if roll < canada + eu {
        let place = pick(rng, if roll < canada { CA_PLACES } else { EU_PLACES });
        let phone = if place.country == "CA" {
            format!("{}{line:02}", place.phone)
        } else {
            format!("{}{} {}", place.phone, digits(rng, 4), digits(rng, 4))
        };
        return Address {
            street_1,
            street_2,
            city: place.city,
            county: None,
            state: place.state,
            postal_code: place.postal,
            country: place.country,
            phone,
        };
    }
    let place = pick(rng, US_PLACES);
    Address {
        street_1,
        street_2,
        city: place.city,
        county: Some(place.county),
        state: place.state,
        postal_code: place.zip,
        country: "US",
        phone: format!("+1 {}-555-01{line:02}", place.area),
    }
}

/// Canadian businesses register for GST/HST (and QST or PST in their province); EU ones for VAT.
fn tax_registrations(
    ctx: &Ctx,
    rng: &mut impl Rng,
    customer_id: &str,
    address: &Address,
    business: bool,
    count: &mut usize,
) -> Vec<CustomerTaxRegistration> {
    if address.country == "US" || !(business || chance(rng, 1, 3)) || chance(rng, 1, 6) {
        return Vec::new();
    }
    let number = digits(rng, 9);
    let mut kinds = Vec::new();
    if address.country == "CA" {
        let federal = if matches!(address.state, "ON" | "NS" | "NB" | "NL" | "PE") {
            CustomerTaxType::Hst
        } else {
            CustomerTaxType::Gst
        };
        kinds.push((federal, format!("{number}RT0001")));
        match address.state {
            "QC" => kinds.push((CustomerTaxType::Qst, format!("{}TQ0001", digits(rng, 10)))),
            "BC" => kinds.push((CustomerTaxType::Pst, format!("PST-{}", digits(rng, 8)))),
            "MB" => kinds.push((
                CustomerTaxType::Rst,
                format!("{}-{}", digits(rng, 6), digits(rng, 1)),
            )),
            _ => {}
        }
    } else {
        kinds.push((CustomerTaxType::Vat, format!("{}{number}", address.country)));
    }
    kinds
        .into_iter()
        .map(|(tax_type, tax_id)| {
            *count += 1;
            CustomerTaxRegistration {
                id: ctx.id("txr", *count),
                customer_id: customer_id.to_owned(),
                country_code: address.country.to_owned(),
                tax_type,
                tax_id,
                is_valid: !chance(rng, 1, 10),
            }
        })
        .collect()
}
