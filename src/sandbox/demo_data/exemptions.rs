//! Exemption certificates of customers, a third of them with a PDF attachment.

use chrono::{Datelike, NaiveDate};
use rand::Rng;

use super::pdf;
use super::util::{
    chance, date_between, days_after, days_before, digits, fein, pick, timestamp_on, weighted, ymd,
};
use super::{Ctx, Section, StoredAttachment};
use crate::model::{
    Attachment, Customer, Exemption, ExemptionStatus as St, ExemptionType as Ty, Registration,
    RelatedEntityType,
};
use crate::sandbox::reference;
use crate::sandbox::transactions::{BASE_COUNT, demo_transaction_id};

/// Every n-th exemption carries a certificate file.
const ATTACHMENT_EVERY: usize = 3;

pub fn generate(
    ctx: &Ctx,
    customers: &[Customer],
    registrations: &[Registration],
) -> (Vec<Exemption>, Vec<StoredAttachment>) {
    let mut rng = ctx.rng(Section::Exemptions);
    // Certificates are held for North American customers; businesses hold most of them.
    let holders: Vec<(usize, &Customer)> = customers
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.address.country.as_deref(), Some("US" | "CA")))
        .collect();
    // Each holder as (index into `holders`, weight).
    let weights: Vec<(usize, u32)> = holders
        .iter()
        .enumerate()
        .map(|(k, (_, c))| (k, if c.company_name.is_some() { 4 } else { 1 }))
        .collect();
    let feins: Vec<String> = holders.iter().map(|_| fein(&mut rng)).collect();
    let us_states: Vec<&str> = registrations
        .iter()
        .filter(|r| r.country_code == "US")
        .map(|r| r.state_code.as_str())
        .collect();
    if holders.is_empty() {
        return (Vec::new(), Vec::new());
    }

    let mut exemptions = Vec::with_capacity(ctx.profile.exemptions);
    let mut attachments = Vec::new();
    for i in 0..ctx.profile.exemptions {
        let holder = *weighted(&mut rng, &weights);
        let (_, customer) = holders[holder];
        let mut exemption = exemption(
            ctx,
            &mut rng,
            ctx.id("exmp", i + 1),
            customer,
            &feins[holder],
            &us_states,
        );
        if exemption.exemption_type == Ty::Transaction {
            // A transaction exemption names one of the organization's demo sales.
            let count = BASE_COUNT
                .get(ctx.org_index)
                .copied()
                .unwrap_or(BASE_COUNT[1]);
            exemption.transaction_id = Some(demo_transaction_id(
                ctx.org_index,
                (i as u32 * 7_919) % count,
            ));
        }
        if i % ATTACHMENT_EVERY == 0 {
            let stored = certificate(ctx, &mut rng, attachments.len() + 1, &exemption, customer);
            exemption.attachment_id = Some(stored.attachment.id.clone());
            attachments.push(stored);
        }
        exemptions.push(exemption);
    }
    if ctx.profile.attention {
        let moved = place_attention(ctx.anchor, &mut exemptions);
        // Their certificate files say the new end.
        for stored in &mut attachments {
            let Some(k) = moved
                .iter()
                .copied()
                .find(|k| exemptions[*k].id == stored.attachment.related_entity_id)
            else {
                continue;
            };
            let e = &exemptions[k];
            let customer = customers
                .iter()
                .find(|c| Some(&c.id) == e.customer_id.as_ref());
            if let Some(customer) = customer {
                stored.bytes = certificate_file(ctx, e, customer).1;
                stored.attachment.file_size_bytes = Some(stored.bytes.len() as u64);
            }
        }
    }
    (exemptions, attachments)
}

/// How many certificates an organization with attention shows running out within 30 days, and
/// again expired in the 30 days before, whatever the anchor.
const ENDING: usize = 3;

/// Makes sure the certificates show what needs attention on `today`: when fewer than [`ENDING`]
/// active ones run out within 30 days (or expired ones ended in the 30 days before), the end
/// dates of the others nearest to it are moved into that window. Where the drawn dates
/// already give enough, nothing moves. Returns the indexes of the certificates moved.
fn place_attention(today: NaiveDate, exemptions: &mut [Exemption]) -> Vec<usize> {
    let mut moved = Vec::new();
    for (status, window, offsets) in [
        (St::Active, (0, 30), [6_i64, 15, 27]),
        (St::Expired, (-30, -1), [-4, -12, -23]),
    ] {
        let within = |e: &Exemption| {
            e.end_date
                .is_some_and(|end| (window.0..=window.1).contains(&(end - today).num_days()))
        };
        let mine = |e: &Exemption| e.status.as_ref() == Some(&status);
        let mut missing =
            ENDING.saturating_sub(exemptions.iter().filter(|e| mine(e) && within(e)).count());
        // The certificates nearest the window move: those that expired last, those that run
        // out first after it (then those without an end).
        let mut candidates: Vec<usize> = (0..exemptions.len())
            .filter(|k| mine(&exemptions[*k]) && !within(&exemptions[*k]))
            .collect();
        candidates.sort_by_key(|k| {
            let end = exemptions[*k].end_date;
            let distance = end.map_or(i64::MAX, |end| (end - today).num_days().abs());
            (distance, std::cmp::Reverse(*k))
        });
        for k in candidates {
            if missing == 0 {
                break;
            }
            let e = &mut exemptions[k];
            let end = today + chrono::Duration::days(offsets[missing - 1]);
            if e.start_date < end {
                missing -= 1;
                e.end_date = Some(end);
                moved.push(k);
            }
        }
    }
    moved
}

fn exemption(
    ctx: &Ctx,
    rng: &mut impl Rng,
    id: String,
    customer: &Customer,
    fein: &str,
    us_states: &[&str],
) -> Exemption {
    let country = customer
        .address
        .country
        .clone()
        .unwrap_or_else(|| "US".into());
    let home = customer.address.state.clone().unwrap_or_default();
    let elsewhere = home.is_empty() || chance(rng, 2, 5);
    let jurisdiction = if country == "US" && elsewhere && !us_states.is_empty() {
        pick(rng, us_states).to_string()
    } else {
        home
    };
    let exemption_type = weighted(
        rng,
        &[
            (Ty::Customer, 45),
            (Ty::Wholesale, 45),
            (Ty::Transaction, 10),
        ],
    )
    .clone();
    let status = weighted(
        rng,
        &[
            (St::Active, 68),
            (St::Expired, 12),
            (St::Inactive, 8),
            (St::Deactivated, 5),
            (St::Archived, 7),
        ],
    )
    .clone();
    let start = date_between(rng, ctx.ymd(2021, 1, 1), days_before(ctx.anchor, 30));
    let end = match status {
        St::Expired => Some(date_between(
            rng,
            days_after(start, 180),
            days_before(ctx.anchor, 1),
        ))
        .filter(|end| *end > start),
        St::Active if chance(rng, 1, 2) => {
            let year_end = ymd(ctx.anchor.year() + rng.random_range(1..=3), 12, 31);
            // About one dated certificate in ten runs out within weeks of the demo's today, for
            // the expiring views (drawn from the start date: the random sequence stays as it was).
            let day = u64::from(start.ordinal());
            Some(if day % 10 == 0 {
                days_after(ctx.anchor, 5 + day % 45)
            } else {
                year_end
            })
        }
        St::Inactive | St::Deactivated | St::Archived if chance(rng, 1, 2) => {
            Some(date_between(rng, start, ctx.anchor))
        }
        _ => None,
    };
    let created = timestamp_on(rng, start);
    let updated_on = date_between(rng, start, ctx.anchor);
    let updated = timestamp_on(rng, updated_on);
    Exemption {
        id,
        sales_tax_id: Some(match exemption_type {
            Ty::Wholesale => format!("{jurisdiction}-R{}", digits(rng, 8)),
            _ => format!("{jurisdiction}-E{}", digits(rng, 7)),
        }),
        reseller: Some(exemption_type == Ty::Wholesale),
        exemption_type,
        status: Some(status),
        start_date: start,
        end_date: end,
        customer_id: Some(customer.id.clone()),
        fein: Some(fein.to_owned()),
        jurisdiction: Some(jurisdiction),
        country_code: Some(country),
        transaction_id: None,
        organization_id: Some(ctx.organization_id.to_owned()),
        // The customer's own name, as the service lists it and as a search finds it.
        customer_name: customer.name.clone(),
        attachment_id: None,
        customer: None,
        attachment: None,
        created_at: Some(created),
        updated_at: Some(updated),
    }
}

/// The certificate file of an exemption.
fn certificate(
    ctx: &Ctx,
    rng: &mut impl Rng,
    n: usize,
    exemption: &Exemption,
    customer: &Customer,
) -> StoredAttachment {
    let (file_name, bytes) = certificate_file(ctx, exemption, customer);
    StoredAttachment {
        attachment: Attachment {
            id: ctx.id("atch", n),
            related_entity_id: exemption.id.clone(),
            related_entity_type: RelatedEntityType::Exemption,
            file_name: Some(file_name),
            mime_type: Some("application/pdf".into()),
            file_size_bytes: Some(bytes.len() as u64),
            created_at: Some(timestamp_on(rng, exemption.start_date)),
            file_location: None,
            file_location_type: None,
        },
        bytes,
    }
}

/// The name and PDF bytes of an exemption's certificate.
fn certificate_file(ctx: &Ctx, exemption: &Exemption, customer: &Customer) -> (String, Vec<u8>) {
    let jurisdiction = exemption.jurisdiction.clone().unwrap_or_default();
    let country = exemption.country_code.clone().unwrap_or_default();
    let place = reference::jurisdiction_name(&country, &jurisdiction).unwrap_or("");
    let kind = match exemption.exemption_type {
        Ty::Wholesale => "Resale Certificate",
        Ty::Transaction => "Single Purchase Exemption Certificate",
        _ => "Sales Tax Exemption Certificate",
    };
    let title = format!("{place} {kind}").trim().to_owned();
    let or_none = |value: &Option<String>| value.clone().unwrap_or_else(|| "-".into());
    let lines = vec![
        format!("Certificate: {}", exemption.id),
        format!(
            "Purchaser: {}",
            or_none(&customer.company_name.clone().or(customer.name.clone()))
        ),
        format!("Contact: {}", or_none(&customer.name)),
        format!("Address: {}", or_none(&customer.address.full_address)),
        format!("FEIN: {}", or_none(&exemption.fein)),
        format!("State tax ID: {}", or_none(&exemption.sales_tax_id)),
        format!("Jurisdiction: {jurisdiction}, {country}"),
        format!("Exemption type: {}", exemption.exemption_type),
        match exemption.end_date {
            Some(end) => format!("Valid from {} to {end}", exemption.start_date),
            None => format!("Valid from {} until revoked", exemption.start_date),
        },
        format!("Seller: {}", ctx.profile.legal_name),
        String::new(),
        "I certify that the purchases described are exempt from sales and use tax".into(),
        "for the reason stated, and that the information given is correct.".into(),
    ];
    let bytes = pdf::one_page(&title, &lines);
    let file_name = format!(
        "{}-{}-{}.pdf",
        kind.to_ascii_lowercase().replace(' ', "-"),
        jurisdiction.to_ascii_lowercase(),
        exemption.id
    );
    (file_name, bytes)
}
