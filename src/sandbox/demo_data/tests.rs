//! Properties every generated organization must have.

use std::collections::HashSet;

use super::*;
use crate::model::{OssCountryStatus, RegistrationStatus, RegistrationType};
use crate::sandbox::reference::{self, schema_violations};

fn org0() -> DemoOrg {
    generate(42, 0, "orgn_demo_1", DEMO_ANCHOR)
}

fn org1() -> DemoOrg {
    generate(42, 1, "orgn_demo_2", DEMO_ANCHOR)
}

#[test]
fn same_seed_same_data() {
    assert_eq!(org0(), org0());
    assert_eq!(org1(), org1());
}

#[test]
fn different_seed_different_data() {
    let other = generate(43, 0, "orgn_demo_1", DEMO_ANCHOR);
    let this = org0();
    assert_ne!(this, other);
    // Ids and structure stay; the drawn values change.
    assert_eq!(this.customers.len(), other.customers.len());
    assert_ne!(this.customers[0].name, other.customers[0].name);
}

#[test]
fn organizations_differ_and_share_no_id() {
    let (a, b) = (org0(), org1());
    assert!(b.registrations.len() < a.registrations.len());
    assert!(b.customers.len() < a.customers.len());
    let ids_a = all_ids(&a);
    let ids_b = all_ids(&b);
    assert!(ids_a.is_disjoint(&ids_b));
}

fn all_ids(org: &DemoOrg) -> HashSet<String> {
    let mut ids = Vec::new();
    ids.extend(org.registrations.iter().map(|r| r.id.clone()));
    ids.extend(
        org.oss_countries
            .iter()
            .flat_map(|(_, c)| c.iter().map(|c| c.id.clone())),
    );
    ids.extend(org.physical_nexus.iter().map(|p| p.id.clone()));
    ids.extend(org.nexus.iter().map(|n| n.id.clone()));
    ids.extend(org.customers.iter().map(|c| c.id.clone()));
    ids.extend(
        org.customers
            .iter()
            .flat_map(|c| c.customer_tax_registrations.iter().flatten())
            .map(|t| t.id.clone()),
    );
    ids.extend(org.exemptions.iter().map(|e| e.id.clone()));
    ids.extend(org.attachments.iter().map(|a| a.attachment.id.clone()));
    ids.extend(org.products.iter().map(|p| p.id.clone()));
    ids.extend(org.filings.iter().map(|f| f.id.clone()));
    let count = ids.len();
    let unique: HashSet<String> = ids.into_iter().collect();
    assert_eq!(
        unique.len(),
        count,
        "ids are unique within {}",
        org.organization_id
    );
    unique
}

#[test]
fn counts_are_in_range() {
    let org = org0();
    assert!((28..=32).contains(&org.registrations.len()));
    assert!((35..=45).contains(&org.physical_nexus.len()));
    assert!((45..=60).contains(&org.nexus.len()));
    assert!((180..=220).contains(&org.customers.len()));
    let with_tax_ids = org
        .customers
        .iter()
        .filter(|c| {
            c.customer_tax_registrations
                .as_ref()
                .is_some_and(|t| !t.is_empty())
        })
        .count();
    assert!((20..=45).contains(&with_tax_ids), "{with_tax_ids}");
    assert!((380..=420).contains(&org.exemptions.len()));
    let third = org.exemptions.len() / 3;
    assert!((third..=third + 2).contains(&org.attachments.len()));
    assert!((55..=65).contains(&org.products.len()));
    assert!(org.filings.len() >= org.registrations.len());

    let small = org1();
    assert_eq!(small.registrations.len(), 9);
    assert_eq!(small.customers.len(), 20);
    assert_eq!(small.exemptions.len(), 30);
}

#[test]
fn required_registrations_are_present() {
    let org = org0();
    for state in ["CA", "ID", "TX", "NY", "WA", "AL"] {
        assert!(
            org.registrations
                .iter()
                .any(|r| r.country_code == "US" && r.state_code == state),
            "{state}"
        );
    }
    assert!(org.registrations.iter().any(|r| r.country_code == "CA"));
    let eu: Vec<_> = org
        .registrations
        .iter()
        .filter(|r| r.country_code == "ZZ_EU")
        .collect();
    assert_eq!(eu.len(), 1);
    let eu = eu[0];
    assert_eq!(eu.registration_type, Some(RegistrationType::EuOss));
    assert!(eu.oss_type.is_some() && eu.oss_member_state_of_identification_code.is_some());
    let (owner, countries) = &org.oss_countries[0];
    assert_eq!(owner, &eu.id);
    assert!(countries.len() >= 6);
    assert!(
        countries
            .iter()
            .any(|c| c.status == OssCountryStatus::Removed && c.end_date.is_some())
    );
    assert!(
        countries
            .iter()
            .filter(|c| c.status == OssCountryStatus::Active)
            .count()
            >= 5
    );
}

#[test]
fn every_registration_status_appears() {
    let org = org0();
    for status in RegistrationStatus::KNOWN {
        assert!(
            org.registrations.iter().any(|r| &r.status == status),
            "{status}"
        );
    }
    for r in &org.registrations {
        let deregistering = r.status == RegistrationStatus::Deregistering;
        if deregistering {
            assert!(r.deregistration_requested.is_some());
        }
        assert!(r.password_encrypted.as_deref().is_none_or(|p| p == MASK));
        assert!(r.pin_encrypted.as_deref().is_none_or(|p| p == MASK));
        if r.password_encrypted.is_some() {
            assert!(org.secrets.iter().any(|(id, field, value)| id == &r.id
                && field == "password_encrypted"
                && !value.is_empty()));
        }
    }
}

#[test]
fn every_registration_is_due_as_its_jurisdiction_says() {
    for org in [org0(), org1()] {
        for r in &org.registrations {
            let days = reference::filing_days(&r.country_code, &r.state_code, &r.filing_frequency);
            assert_eq!(r.filing_days, Some(days), "{} {}", r.id, r.state_code);
        }
    }
}

#[test]
fn jurisdiction_fields_satisfy_their_schema() {
    let org = org0();
    for state in ["CA", "ID", "TX", "AL"] {
        let registration = org
            .registrations
            .iter()
            .find(|r| r.country_code == "US" && r.state_code == state)
            .unwrap();
        let fields = registration.jurisdiction_specific_fields.as_ref().unwrap();
        let form = reference::jurisdiction_form("US", state);
        let schema = &form.jurisdiction_fields_json_schema;
        assert_eq!(
            schema_violations(schema, fields),
            Vec::<String>::new(),
            "{state}"
        );
        for key in schema["required"].as_array().unwrap() {
            assert!(fields.get(key.as_str().unwrap()).is_some());
        }
    }
}

#[test]
fn physical_nexus_categories_fit_their_jurisdiction() {
    for p in org0().physical_nexus {
        let allowed = reference::physical_nexus_categories(&p.country_code, &p.state_code);
        assert!(
            allowed.iter().any(|c| c.0 == p.category),
            "{} {}",
            p.id,
            p.category
        );
        if let Some(end) = p.end_date {
            assert!(end >= p.start_date);
        }
    }
}

#[test]
fn exemptions_and_attachments_fit_together() {
    let org = org0();
    let customers: HashSet<_> = org.customers.iter().map(|c| c.id.as_str()).collect();
    for e in &org.exemptions {
        assert!(customers.contains(e.customer_id.as_deref().unwrap()));
        let fein = e.fein.as_deref().unwrap();
        assert!(fein.len() == 10 && fein.as_bytes()[2] == b'-');
        if let Some(end) = e.end_date {
            assert!(end >= e.start_date, "{}", e.id);
        }
    }
    for stored in &org.attachments {
        let a = &stored.attachment;
        assert!(stored.bytes.starts_with(b"%PDF-"));
        assert!(stored.bytes.ends_with(b"%%EOF"));
        assert_eq!(a.file_size_bytes, Some(stored.bytes.len() as u64));
        assert_eq!(a.mime_type.as_deref(), Some("application/pdf"));
        let owner = org
            .exemptions
            .iter()
            .find(|e| e.id == a.related_entity_id)
            .unwrap();
        assert_eq!(owner.attachment_id.as_deref(), Some(a.id.as_str()));
    }
}

#[test]
fn filings_belong_to_registrations_and_add_up() {
    let org = org0();
    for f in &org.filings {
        assert!(org.registrations.iter().any(|r| r.id == f.registration_id));
        assert!(f.start_date <= f.end_date && f.end_date < DEMO_ANCHOR);
        let amount = f.amount_calculated.unwrap() - f.amount_discounts.unwrap()
            + f.amount_penalties.unwrap()
            + f.amount_fees.unwrap();
        assert_eq!(f.amount, Some(amount));
    }
}

#[test]
fn customer_order_is_stable() {
    let org = org0();
    for (i, c) in org.customers.iter().enumerate() {
        assert_eq!(c.id, format!("cust_demo1_{:05}", i + 1));
    }
}

/// Whether `city` is a city of `state` in `country` in the place tables.
fn city_of_state(country: &str, state: &str, city: &str) -> bool {
    if country == "US" {
        return places::US_PLACES
            .iter()
            .chain(places::US_SALE_PLACES)
            .any(|p| p.state == state && p.city == city);
    }
    places::CA_PLACES
        .iter()
        .chain(places::EU_PLACES)
        .chain(places::WORLD_SALE_PLACES)
        .any(|p| p.country == country && (state.is_empty() || p.state == state) && p.city == city)
}

/// Every fault of one address: a city of another state, a postal code outside the state's range.
fn address_faults(
    what: &str,
    country: Option<&str>,
    state: Option<&str>,
    city: Option<&str>,
    postal: Option<&str>,
) -> Vec<String> {
    let (Some(country), Some(city)) = (country, city) else {
        return Vec::new();
    };
    let state = state.unwrap_or("");
    let mut faults = Vec::new();
    if !city_of_state(country, state, city) {
        faults.push(format!("{what}: {city} is not in {state} {country}"));
    }
    if let Some(postal) = postal
        && reference::postal_code_fits(country, state, postal) == Some(false)
    {
        faults.push(format!(
            "{what}: {postal} is not a postal code of {state} {country}"
        ));
    }
    faults
}

#[test]
fn every_demo_address_has_a_city_of_its_state_and_a_postal_code_of_its_range() {
    for (index, org) in [org0(), org1()].into_iter().enumerate() {
        let mut faults = Vec::new();
        let mut checked = 0;
        for c in &org.customers {
            checked += 1;
            faults.extend(address_faults(
                &c.id,
                c.address.country.as_deref(),
                c.address.state.as_deref(),
                c.address.city.as_deref(),
                c.address.postal_code.as_deref(),
            ));
        }
        let anchor = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let count = BASE_COUNT[index];
        let (_, transactions) = generate_scaled(42, index, &org.organization_id, anchor, 1);
        let all: Vec<u32> = (0..count).collect();
        let mut shipped = 0;
        for t in transactions.rows_at(&all, &org.customers) {
            for a in &t.addresses {
                shipped += usize::from(a.address.city.is_some());
                faults.extend(address_faults(
                    &t.id,
                    a.address.country.as_deref(),
                    a.address.state.as_deref(),
                    a.address.city.as_deref(),
                    a.address.postal_code.as_deref(),
                ));
            }
            // The rate charged is the rate of the state shipped to.
            if let (Some(rate), Some(country)) = (t.tax_rate_calculated, t.country.as_deref()) {
                let state = t.state.as_deref().unwrap_or("");
                assert_eq!(rate, reference::tax_rate(country, state), "{}", t.id);
            }
        }
        assert!(
            checked > 10 && shipped * 10 > count as usize * 9,
            "{shipped}"
        );
        assert!(
            faults.is_empty(),
            "{} faults: {:#?}",
            faults.len(),
            &faults[..faults.len().min(20)]
        );
    }
}

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

#[test]
fn the_same_anchor_gives_the_same_data_and_another_shifts_the_dates() {
    let later = day("2027-02-27");
    assert_eq!(
        generate(42, 0, "orgn_demo_1", later),
        generate(42, 0, "orgn_demo_1", later)
    );
    let (before, after) = (org0(), generate(42, 0, "orgn_demo_1", later));
    assert_ne!(before, after);
    // The same records, their dates moved with the anchor.
    assert_eq!(before.registrations.len(), after.registrations.len());
    assert_eq!(before.customers, after.customers);
    let latest = |org: &DemoOrg| org.filings.iter().map(|f| f.end_date).max().unwrap();
    assert!(latest(&before) < DEMO_ANCHOR && latest(&after) < later);
    assert!(latest(&after) > DEMO_ANCHOR);
    let pending = |org: &DemoOrg| {
        org.registrations
            .iter()
            .find(|r| r.status == RegistrationStatus::AwaitingClarification)
            .and_then(|r| r.registration_date)
            .unwrap()
    };
    assert_eq!(
        (pending(&after) - pending(&before)).num_days(),
        (later - DEMO_ANCHOR).num_days()
    );
}

/// What organization 0 shows needing attention on `anchor`, whatever the day.
fn assert_attention_around(anchor: NaiveDate) {
    use crate::checks::{activity_by_place, forecast};
    use crate::model::{
        ExemptionStatus, FilingStatus, NexusStatus, ProcessingStatus, TransactionStatus,
    };
    let (org, transactions) = generate_scaled(42, 0, "orgn_demo_1", anchor, 1);
    let at = |what: &str| format!("{what} on {anchor}");
    let covered = |state: &str| {
        org.registrations.iter().any(|r| {
            r.country_code == "US"
                && r.state_code == state
                && matches!(
                    r.status,
                    RegistrationStatus::Registered
                        | RegistrationStatus::Processing
                        | RegistrationStatus::Validating
                        | RegistrationStatus::SelfManaged
                )
        })
    };
    let us = |n: &&Nexus| n.country_code == "US";
    assert!(
        org.nexus.iter().filter(us).any(|n| matches!(
            n.status,
            Some(NexusStatus::Exposed | NexusStatus::PendingRegistration)
        ) && !covered(&n.state_code)),
        "{}",
        at("an exposed state without registration")
    );
    assert!(
        org.physical_nexus.iter().any(|p| p.country_code == "US"
            && p.start_date <= anchor
            && p.end_date.is_none_or(|end| end >= anchor)
            && !covered(&p.state_code)),
        "{}",
        at("a physical presence without registration")
    );
    let approaching = org
        .nexus
        .iter()
        .filter(|n| n.status == Some(NexusStatus::Approaching))
        .count();
    assert!(approaching >= 3, "{} {approaching}", at("approaching"));

    let open: Vec<&Filing> = org
        .filings
        .iter()
        .filter(|f| matches!(f.status, Some(FilingStatus::Unfiled | FilingStatus::Filing)))
        .collect();
    let due_in = |from: i64, to: i64| {
        open.iter()
            .filter(|f| {
                let days = (f.due_date.unwrap() - anchor).num_days();
                (from..=to).contains(&days)
            })
            .count()
    };
    assert!(
        org.filings
            .iter()
            .any(|f| f.status == Some(FilingStatus::Unfiled)
                && f.due_date.is_some_and(|due| due < anchor)),
        "{}",
        at("overdue")
    );
    assert!(
        due_in(0, 7) >= 3,
        "{} {}",
        at("due within 7 days"),
        due_in(0, 7)
    );
    assert!(
        due_in(8, 30) >= 3,
        "{} {}",
        at("due in 8-30 days"),
        due_in(8, 30)
    );
    assert!(
        org.filings
            .iter()
            .any(|f| f.status == Some(FilingStatus::Paused)),
        "{}",
        at("paused")
    );
    for f in &org.filings {
        assert!(f.end_date < anchor, "{}: {}", at("ended periods"), f.id);
        assert!(f.due_date.unwrap() > f.end_date, "{}", f.id);
    }

    let ends_in = |from: i64, to: i64, status: &ExemptionStatus| {
        org.exemptions
            .iter()
            .filter(|e| e.status.as_ref() == Some(status))
            .filter(|e| {
                e.end_date
                    .is_some_and(|end| (from..=to).contains(&(end - anchor).num_days()))
            })
            .count()
    };
    assert!(
        ends_in(0, 30, &ExemptionStatus::Active) >= 3,
        "{}",
        at("expiring")
    );
    assert!(
        ends_in(-30, -1, &ExemptionStatus::Expired) >= 3,
        "{}",
        at("recently expired")
    );

    let with =
        |status: RegistrationStatus| org.registrations.iter().filter(move |r| r.status == status);
    assert!(with(RegistrationStatus::AwaitingClarification).count() >= 1);
    assert!(
        org.registrations
            .iter()
            .any(|r| r.needs_mark_as_collecting == Some(true))
    );
    assert!(
        org.registrations
            .iter()
            .filter(|r| r.has_all_credentials == Some(false))
            .count()
            >= 2
    );
    assert!(with(RegistrationStatus::Deregistering).any(|r| {
        r.deregistration_requested
            .is_some_and(|t| t.date() < anchor)
            && r.deregistration_completed.is_none()
    }));
    for r in &org.registrations {
        if let Some(date) = r.registration_date {
            assert!(date <= anchor, "{}: {}", at("registered"), r.id);
        }
    }
    assert!(
        org.tenanted
            .certificate_imports
            .iter()
            .any(|c| c.status == ImportStatus::Uploaded),
        "{}",
        at("imports awaiting approval")
    );

    let all: Vec<u32> = (0..BASE_COUNT[0]).collect();
    let rows = transactions.rows_at(&all, &org.customers);
    let invalid = rows
        .iter()
        .filter(|t| t.status == Some(TransactionStatus::Invalid))
        .count();
    let refetch = rows
        .iter()
        .filter(|t| t.processing_status == Some(ProcessingStatus::NeedsRefetch))
        .count();
    assert!((2..=10).contains(&invalid), "{} {invalid}", at("invalid"));
    assert!((2..=10).contains(&refetch), "{} {refetch}", at("refetch"));

    // Approaching states the forecast sees crossed at their last 90 days' pace (the Overview
    // lists the soonest first).
    let from = anchor - chrono::Days::new(u64::from(forecast::PACE_DAYS) - 1);
    let recent: Vec<_> = rows
        .into_iter()
        .filter(|t| t.kind == crate::model::TransactionType::Sale)
        .filter(|t| (from..=anchor).contains(&t.date.date()))
        .collect();
    let pace = activity_by_place(&crate::model::SaleFigures::of(&recent));
    let crossed = org
        .nexus
        .iter()
        .filter(|n| n.status == Some(NexusStatus::Approaching))
        .filter(|n| {
            let key = (n.country_code.clone(), n.state_code.clone());
            let f = forecast::forecast(n, &pace.get(&key).copied().unwrap_or_default(), anchor);
            matches!(f.crossing, forecast::Crossing::Around { .. })
        })
        .count();
    assert!(crossed >= 2, "{} {crossed}", at("approaching and crossed"));
}

#[test]
fn organization_0_needs_attention_whatever_the_anchor() {
    for anchor in [
        DEMO_ANCHOR,
        day("2027-02-27"),
        day("2027-01-31"),
        day("2026-12-01"),
        day("2028-02-29"),
        day("2027-06-30"),
        // Every latest return falls 8 to 30 days out: some move into the week.
        day("2025-07-04"),
    ] {
        assert_attention_around(anchor);
    }
}
