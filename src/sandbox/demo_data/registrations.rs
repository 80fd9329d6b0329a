//! Registrations, their OSS countries and the credentials kept apart from them.

use chrono::{Datelike, NaiveDate};
use rand::Rng;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::profiles::RegSpec;
use super::util::{
    chance, date_between, days_after, days_before, digits, letters, money, month_start_plus,
    password, pick, slug, timestamp_on, ymd,
};
use super::{Ctx, MASK, Section};
use crate::model::{
    FilingFrequency, OssCountry, OssCountryStatus, OssType, Registration, RegistrationCategory,
    RegistrationStatus as S, RegistrationType, RegistrationsRegime, Timestamp,
};
use crate::sandbox::reference;

pub struct Generated {
    pub registrations: Vec<Registration>,
    pub oss_countries: Vec<(String, Vec<OssCountry>)>,
    pub secrets: Vec<(String, String, String)>,
}

/// Whether the jurisdiction has completed the registration (it has an account number).
pub fn is_established(status: &S) -> bool {
    matches!(
        status,
        S::Registered | S::Deregistering | S::Deregistered | S::SelfManaged
    )
}

pub fn generate(ctx: &Ctx) -> Generated {
    let mut rng = ctx.rng(Section::Registrations);
    let mut out = Generated {
        registrations: Vec::new(),
        oss_countries: Vec::new(),
        secrets: Vec::new(),
    };
    for (i, spec) in ctx.profile.registrations.iter().enumerate() {
        let id = ctx.id("regs", i + 1);
        let registration = registration(ctx, &mut rng, &id, spec, &mut out.secrets);
        if spec.country == "ZZ_EU" {
            let since = registration.registration_date.unwrap_or(ctx.anchor);
            out.oss_countries
                .push((id.clone(), oss_countries(ctx, &mut rng, since)));
        }
        out.registrations.push(registration);
    }
    out
}

fn registration(
    ctx: &Ctx,
    rng: &mut impl Rng,
    id: &str,
    spec: &RegSpec,
    secrets: &mut Vec<(String, String, String)>,
) -> Registration {
    let profile = ctx.profile;
    let status = spec.status.clone();
    let established = is_established(&status);
    let pending = matches!(
        status,
        S::Processing | S::Validating | S::AwaitingClarification | S::Unregistered
    );

    // Dates: established registrations go back years, pending ones are a few weeks old.
    let registration_date = if pending {
        date_between(rng, days_before(ctx.anchor, 60), days_before(ctx.anchor, 4))
    } else if spec.country == "ZZ_EU" {
        ctx.ymd(2021, 7, 1)
    } else {
        date_between(rng, ctx.ymd(2019, 1, 1), days_before(ctx.anchor, 200))
    };
    let requested = days_before(registration_date, rng.random_range(7..45));
    let completed = (established || status == S::Cancelled)
        .then(|| days_after(registration_date, rng.random_range(0..5)));
    let (deregistration_requested, deregistration_completed) = match status {
        S::Deregistering => {
            let asked = date_between(rng, days_before(ctx.anchor, 40), days_before(ctx.anchor, 3));
            (Some(asked), None)
        }
        S::Deregistered => {
            // Between March of last year and March of this one, at the default anchor.
            let asked = date_between(
                rng,
                days_before(ctx.anchor, 624),
                days_before(ctx.anchor, 229),
            );
            (
                Some(asked),
                Some(days_after(asked, rng.random_range(20..60))),
            )
        }
        _ => (None, None),
    };

    let frequency = spec.frequency.clone();
    let sales_tax_id = established.then(|| sales_tax_id(rng, spec.country, spec.state));
    let business_name = profile.legal_name;

    // Credentials: most established registrations have them all; the values are kept apart.
    let has_password = established && !chance(rng, 1, 8);
    let needs_pin = established && chance(rng, 1, 3);
    let has_pin = needs_pin && !chance(rng, 1, 6);
    if has_password {
        secrets.push((id.into(), "password_encrypted".into(), password(rng)));
    }
    if has_pin {
        let length = rng.random_range(4..=6);
        let pin = digits(rng, length);
        secrets.push((id.into(), "pin_encrypted".into(), pin));
    }
    let jurisdiction_specific_fields = (spec.country == "US")
        .then(|| jurisdiction_fields(rng, id, spec.state, business_name, &sales_tax_id, secrets))
        .flatten();

    let eu = spec.country == "ZZ_EU";
    let canada_simplified = spec.country == "CA" && matches!(spec.state, "" | "QC");
    let retail_delivery_fee_from = match spec.state {
        "CO" if spec.country == "US" => Some(ymd(2022, 7, 1)),
        "MN" if spec.country == "US" => Some(ymd(2024, 7, 1)),
        _ => None,
    };
    let next_change = spec.next_frequency.clone().filter(|_| established);
    let username = established.then(|| format!("{}{}", slug(business_name), digits(rng, 3)));
    let comment = match status {
        S::AwaitingClarification => Some(
            "The state asked for the date of the first sale into the state and the NAICS code."
                .to_owned(),
        ),
        S::Deregistering => Some("Closing nexus: the warehouse lease in the state ended.".into()),
        S::Cancelled => Some("Cancelled before submission; sales stayed below threshold.".into()),
        S::SelfManaged => Some("Filed in-house by the finance team.".into()),
        _ => None,
    };
    let known_frequency = (frequency != FilingFrequency::Unknown).then(|| frequency.clone());
    let imported = status == S::SelfManaged || (established && chance(rng, 1, 10));

    Registration {
        id: id.into(),
        status: status.clone(),
        country_code: spec.country.into(),
        state_code: spec.state.into(),
        state_name: reference::jurisdiction_name(spec.country, spec.state)
            .unwrap_or(spec.state)
            .into(),
        filing_frequency: frequency.clone(),
        filing_days: Some(spec.filing_days),
        registration_type: Some(if eu {
            RegistrationType::EuOss
        } else {
            RegistrationType::Other_
        }),
        filing_website_url: reference::filing_website_url(spec.country, spec.state),
        registration_date: Some(registration_date),
        registration_email: Some(format!("tax@{}", profile.domain)),
        registration_key: None,
        deregistration_key: None,
        registration_requested: Some(timestamp_on(rng, requested)),
        registration_completed: completed.map(|d| timestamp_on(rng, d)),
        deregistration_requested: deregistration_requested.map(|d| timestamp_on(rng, d)),
        deregistration_completed: deregistration_completed.map(|d| timestamp_on(rng, d)),
        auto_registered: Some(established && !imported && chance(rng, 1, 2)),
        registrations_regime: Some(if canada_simplified {
            RegistrationsRegime::Simplified
        } else {
            RegistrationsRegime::Standard
        }),
        change_regime_status: None,
        third_party_enabled: Some(established && chance(rng, 2, 3)),
        do_not_file: Some(status == S::SelfManaged),
        two_factor_enabled: Some(chance(rng, 1, 3)),
        marked_collecting: Some(established),
        marked_collecting_date: established.then(|| registration_date.to_string()),
        needs_mark_as_collecting: Some(status == S::Processing),
        initial_filing_frequency: known_frequency,
        scheduled_filing_frequency: next_change.clone(),
        filing_frequency_effective_date: next_change.map(|_| ymd(ctx.anchor.year() + 1, 1, 1)),
        period_end_month: (frequency == FilingFrequency::AnnualFiscalYear).then_some(6),
        username,
        comment,
        create_filings_from: established.then(|| month_start_plus(registration_date, 0)),
        create_back_filing: Some(established && chance(rng, 1, 6)),
        retail_delivery_fee_obligated: Some(retail_delivery_fee_from.is_some()),
        retail_delivery_fee_effective_from: retail_delivery_fee_from,
        initial_sync: Some(true),
        amount_fees: Some(*pick(rng, &[0, 0, 0, 1500, 2500, 5000]))
            .map(|cents| Decimal::new(cents, 2)),
        vda: Some(established && chance(rng, 1, 12)),
        imported: Some(imported),
        sales_tax_id,
        ior_number: None,
        ior_date: None,
        sst_import: Some(false),
        oss_type: eu.then_some(OssType::Union),
        oss_member_state_of_identification_code: eu
            .then(|| profile.oss.map(|(msi, _)| msi.to_owned()))
            .flatten(),
        tax_type: spec.tax_type.clone(),
        created_at: Some(timestamp_on(rng, requested)),
        credits_total_available: Some(if established && chance(rng, 1, 8) {
            money(rng, 1_000, 60_000)
        } else {
            Decimal::new(0, 2)
        }),
        registration_category: Some(if imported {
            RegistrationCategory::Imported
        } else {
            RegistrationCategory::Regular
        }),
        jurisdiction_specific_fields,
        has_all_credentials: Some(has_password && (has_pin == needs_pin)),
        password_encrypted: has_password.then(|| MASK.to_owned()),
        pin_encrypted: has_pin.then(|| MASK.to_owned()),
    }
}

/// An account number in the shape the jurisdiction issues.
fn sales_tax_id(rng: &mut impl Rng, country: &str, state: &str) -> String {
    match (country, state) {
        ("US", "CA") => format!("{}-{}", digits(rng, 3), digits(rng, 6)),
        ("US", "ID") => digits(rng, 9),
        ("US", "TX") => format!("3{}", digits(rng, 10)),
        ("US", "AL") => format!("R{}", digits(rng, 9)),
        ("US", "NY") => format!("{}-{}", digits(rng, 2), digits(rng, 7)),
        ("US", "WA") => format!("604{}", digits(rng, 6)),
        ("US", _) => {
            let length = rng.random_range(8..=10);
            digits(rng, length)
        }
        ("CA", "") => format!("{}RT0001", digits(rng, 9)),
        ("CA", "QC") => format!("{}TQ0001", digits(rng, 10)),
        ("CA", "BC") => format!("PST-{}-{}", digits(rng, 4), digits(rng, 4)),
        ("CA", _) => digits(rng, 7),
        ("ZZ_EU", _) => format!("IE{}{}", digits(rng, 7), letters(rng, 2)),
        _ => digits(rng, 10),
    }
}

/// The fields of a state with its own registration form (valid against the state's schema);
/// codes and passwords are masked in the record and kept in `secrets`.
fn jurisdiction_fields(
    rng: &mut impl Rng,
    id: &str,
    state: &str,
    business_name: &str,
    sales_tax_id: &Option<String>,
    secrets: &mut Vec<(String, String, String)>,
) -> Option<Value> {
    let mut keep = |field: &str, value: String| {
        secrets.push((
            id.to_owned(),
            format!("jurisdiction_specific_fields.{field}"),
            value,
        ));
    };
    let tax_id = sales_tax_id.clone().unwrap_or_default();
    let fields = match state {
        "CA" => {
            keep(
                "cdtfa_third_party_access_security_code",
                letters(rng, 4) + &digits(rng, 4),
            );
            json!({
                "registration_type": "REMOTE_SELLER",
                "business_name": business_name,
                "sales_tax_id": tax_id,
                "mfa_completed": true,
            })
        }
        "ID" => {
            keep("access_code", digits(rng, 8));
            json!({
                "registration_type": "SALES_TAX",
                "business_name": business_name,
                "sales_tax_id": tax_id,
                "mfa_completed": false,
            })
        }
        "TX" => json!({
            "registration_type": "REMOTE_SELLER",
            "business_name": business_name,
            "texas_taxpayer_number": tax_id,
            "webfile_number": format!("RT{}", digits(rng, 6)),
            "sltr_elected": "YES",
        }),
        "AL" => {
            keep("access_code", digits(rng, 6));
            keep("third_party_password", password(rng));
            json!({
                "sign_on_id": format!("{}_tax", slug(business_name)),
                "access_code": MASK,
                "third_party_password": MASK,
                "sales_tax_id": tax_id,
                "local_tax_id": format!("L{}", digits(rng, 7)),
            })
        }
        _ => return None,
    };
    Some(fields)
}

/// EU countries covered by the one-stop shop: all active but the last, which was removed.
fn oss_countries(ctx: &Ctx, rng: &mut impl Rng, since: NaiveDate) -> Vec<OssCountry> {
    let Some((_, countries)) = ctx.profile.oss else {
        return Vec::new();
    };
    let last = countries.len().saturating_sub(1);
    countries
        .iter()
        .enumerate()
        .map(|(i, country)| {
            let effective = if i < 4 {
                since
            } else {
                month_start_plus(date_between(rng, since, ctx.ymd(2025, 6, 30)), 1)
            };
            let removed = i == last;
            OssCountry {
                id: ctx.id("oss", i + 1),
                country_code: (*country).to_owned(),
                effective_date: effective,
                end_date: removed.then(|| ctx.ymd(2025, 12, 31)),
                status: if removed {
                    OssCountryStatus::Removed
                } else {
                    OssCountryStatus::Active
                },
            }
        })
        .collect()
}

/// Whether a registration's account was open on `date`.
pub fn open_on(registration: &Registration, date: NaiveDate) -> bool {
    let started = registration
        .registration_date
        .is_some_and(|start| start <= date);
    let ended = registration
        .deregistration_completed
        .map(|ts: Timestamp| ts.date())
        .is_some_and(|end| end < date);
    started && !ended
}
