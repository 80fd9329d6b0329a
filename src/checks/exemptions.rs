//! Exempt sales without a valid certificate: each fully or partially exempt transaction
//! against its customer's exemptions.
//!
//! A sale is covered when one of its customer's exemptions was in force on the day of the sale:
//! started on or before it, with no end or an end on or after it, not deactivated (nor inactive
//! or archived; `EXPIRED` is the status of one that was in force then and has ended since), for
//! the sale's jurisdiction or its whole country. A transaction exemption naming the sale covers
//! it. Otherwise the finding names the nearest miss, in this order: a certificate that would
//! have covered it but was deactivated; one of the right jurisdiction that expired N days before
//! the sale, or started N days after it (the nearest); one in force for another jurisdiction;
//! none at all.

use chrono::{Months, NaiveDate};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::model::{Exemption, ExemptionStatus, ExemptionType, Transaction};

/// Why an exempt sale is not covered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// The customer has no exemption at all (or the sale names no customer).
    NoCertificate,
    /// One covered the jurisdiction but had ended `days` days before the sale.
    Expired { exemption_id: String, days: i64 },
    /// One covered the jurisdiction but started `days` days after the sale.
    StartedAfter { exemption_id: String, days: i64 },
    /// One in force on the day was for another jurisdiction.
    OtherJurisdiction {
        exemption_id: String,
        jurisdiction: String,
    },
    /// One would have covered it but is deactivated (or inactive, or archived).
    Deactivated {
        exemption_id: String,
        status: String,
    },
}

impl Reason {
    /// The reason in words: "expired 12 days before the sale".
    pub fn words(&self) -> String {
        let days = |n: i64| crate::model::format::count(n.unsigned_abs(), "day");
        match self {
            Reason::NoCertificate => "no certificate".to_owned(),
            Reason::Expired {
                exemption_id,
                days: n,
            } => {
                format!("{exemption_id} expired {} before the sale", days(*n))
            }
            Reason::StartedAfter {
                exemption_id,
                days: n,
            } => {
                format!("{exemption_id} started {} after the sale", days(*n))
            }
            Reason::OtherJurisdiction {
                exemption_id,
                jurisdiction,
            } => format!("{exemption_id} is for {jurisdiction}"),
            Reason::Deactivated {
                exemption_id,
                status,
            } => format!("{exemption_id} is {}", status.to_ascii_lowercase()),
        }
    }

    /// A short name for the kind of reason (`expired`), for filters and counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::NoCertificate => "no_certificate",
            Reason::Expired { .. } => "expired",
            Reason::StartedAfter { .. } => "started_after",
            Reason::OtherJurisdiction { .. } => "other_jurisdiction",
            Reason::Deactivated { .. } => "deactivated",
        }
    }
}

/// One exempt sale without a valid certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub transaction_id: String,
    pub external_id: String,
    pub date: NaiveDate,
    pub customer_id: Option<String>,
    pub customer_name: Option<String>,
    /// `US-TX`, or the country alone.
    pub jurisdiction: String,
    pub exempt: Option<String>,
    pub total_amount: Option<Decimal>,
    pub currency: Option<String>,
    #[serde(flatten)]
    pub reason: Reason,
}

/// The sale's country and state, from its fields or else its addresses.
fn place(t: &Transaction) -> (Option<&str>, Option<&str>) {
    let country = t.country.as_deref().or_else(|| {
        t.addresses
            .iter()
            .find_map(|a| a.address.country.as_deref())
    });
    let state = t
        .state
        .as_deref()
        .or_else(|| t.addresses.iter().find_map(|a| a.address.state.as_deref()));
    (country, state.filter(|s| !s.is_empty()))
}

/// Whether `e` is for the sale's place: its jurisdiction (or country-wide) in its country.
fn same_place(e: &Exemption, country: Option<&str>, state: Option<&str>) -> bool {
    let jurisdiction = e.jurisdiction.as_deref().filter(|j| !j.is_empty());
    let country_ok = e
        .country_code
        .as_deref()
        .filter(|c| !c.is_empty())
        .is_none_or(|c| country.is_none_or(|tc| tc == c));
    country_ok && jurisdiction.is_none_or(|j| Some(j) == state)
}

fn switched_off(e: &Exemption) -> bool {
    matches!(
        e.status,
        Some(ExemptionStatus::Deactivated | ExemptionStatus::Inactive | ExemptionStatus::Archived)
    )
}

fn where_of(e: &Exemption) -> String {
    match (
        e.country_code.as_deref().filter(|c| !c.is_empty()),
        e.jurisdiction.as_deref().filter(|j| !j.is_empty()),
    ) {
        (Some(c), Some(j)) => format!("{c}-{j}"),
        (None, Some(j)) => j.to_owned(),
        (Some(c), None) => c.to_owned(),
        (None, None) => "anywhere".to_owned(),
    }
}

/// The first day checked when none is given: 12 months before the last day checked, in the
/// dashboard's `:check exemptions` and the command line's `check exemptions` alike.
pub fn default_from(to: NaiveDate) -> NaiveDate {
    to.checked_sub_months(Months::new(12)).unwrap_or(to)
}

/// Checks exempt sale `t` against `exemptions` (its customer's, or all of them: others are
/// skipped). `None` when covered.
pub fn check(t: &Transaction, exemptions: &[&Exemption]) -> Option<Reason> {
    let day = t.date.date();
    let (country, state) = place(t);
    let mine: Vec<&Exemption> = exemptions
        .iter()
        .copied()
        .filter(|e| {
            if e.exemption_type == ExemptionType::Transaction {
                e.transaction_id.as_deref() == Some(t.id.as_str())
            } else {
                e.customer_id.is_some() && e.customer_id == t.customer_id
            }
        })
        .collect();
    let in_period = |e: &Exemption| e.start_date <= day && e.end_date.is_none_or(|end| day <= end);
    let fits = |e: &Exemption| {
        e.exemption_type == ExemptionType::Transaction || same_place(e, country, state)
    };
    if mine
        .iter()
        .any(|e| in_period(e) && fits(e) && !switched_off(e))
    {
        return None;
    }
    if let Some(e) = mine.iter().find(|e| in_period(e) && fits(e)) {
        return Some(Reason::Deactivated {
            exemption_id: e.id.clone(),
            status: e.status.as_ref().map_or("", |s| s.as_str()).to_owned(),
        });
    }
    let placed: Vec<&&Exemption> = mine
        .iter()
        .filter(|e| fits(e) && !switched_off(e))
        .collect();
    let expired = placed
        .iter()
        .filter_map(|e| {
            e.end_date
                .filter(|end| *end < day)
                .map(|end| (e, (day - end).num_days()))
        })
        .min_by_key(|(_, n)| *n);
    let started = placed
        .iter()
        .filter(|e| e.start_date > day)
        .map(|e| (e, (e.start_date - day).num_days()))
        .min_by_key(|(_, n)| *n);
    match (expired, started) {
        (Some((e, n)), Some((_, m))) if n <= m => {
            return Some(Reason::Expired {
                exemption_id: e.id.clone(),
                days: n,
            });
        }
        (_, Some((e, m))) => {
            return Some(Reason::StartedAfter {
                exemption_id: e.id.clone(),
                days: m,
            });
        }
        (Some((e, n)), None) => {
            return Some(Reason::Expired {
                exemption_id: e.id.clone(),
                days: n,
            });
        }
        (None, None) => {}
    }
    if let Some(e) = mine.iter().find(|e| in_period(e) && !switched_off(e)) {
        return Some(Reason::OtherJurisdiction {
            exemption_id: e.id.clone(),
            jurisdiction: where_of(e),
        });
    }
    Some(Reason::NoCertificate)
}

/// Checks every sale of `sales` (the exempt ones of a period) against `exemptions` (every
/// exemption, any customer), in the order given.
pub fn findings(sales: &[Transaction], exemptions: &[Exemption]) -> Vec<Finding> {
    let mut by_customer: std::collections::HashMap<&str, Vec<&Exemption>> =
        std::collections::HashMap::new();
    let mut by_transaction: std::collections::HashMap<&str, Vec<&Exemption>> =
        std::collections::HashMap::new();
    for e in exemptions {
        if let Some(t) = e.transaction_id.as_deref() {
            by_transaction.entry(t).or_default().push(e);
        }
        if let Some(c) = e.customer_id.as_deref() {
            by_customer.entry(c).or_default().push(e);
        }
    }
    sales
        .iter()
        .filter(|t| crate::model::TransactionStatus::counts_for_tax(t.status.as_ref()))
        .filter_map(|t| {
            let mut candidates: Vec<&Exemption> = t
                .customer_id
                .as_deref()
                .and_then(|c| by_customer.get(c))
                .cloned()
                .unwrap_or_default();
            if let Some(more) = by_transaction.get(t.id.as_str()) {
                candidates.extend(more.iter().copied());
            }
            let reason = check(t, &candidates)?;
            let (country, state) = place(t);
            Some(Finding {
                transaction_id: t.id.clone(),
                external_id: t.external_id.clone(),
                date: t.date.date(),
                customer_id: t.customer_id.clone(),
                customer_name: t.customer.as_ref().and_then(|c| c.name.clone()),
                jurisdiction: match (country, state) {
                    (Some(c), Some(s)) => format!("{c}-{s}"),
                    (Some(c), None) => c.to_owned(),
                    (None, Some(s)) => s.to_owned(),
                    (None, None) => String::new(),
                },
                exempt: t.exempt.as_ref().map(|e| e.as_str().to_owned()),
                total_amount: t.total_amount,
                currency: t.currency.clone(),
                reason,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sale(date: &str) -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_1", "external_id": "ord-1", "date": format!("{date}T12:00:00Z"),
            "type": "SALE", "customer_id": "cus_1", "country": "US", "state": "TX",
            "exempt": "FULLY_EXEMPT", "total_amount": "100.00", "currency": "USD",
            "customer": {"id": "cus_1", "name": "Acme"}
        }))
        .unwrap()
    }

    fn cert(id: &str, extra: serde_json::Value) -> Exemption {
        let mut v = json!({
            "id": id, "exemption_type": "customer", "status": "ACTIVE",
            "start_date": "2026-01-01", "customer_id": "cus_1", "country_code": "US",
            "jurisdiction": "TX"
        });
        if let (Some(base), Some(extra)) = (v.as_object_mut(), extra.as_object()) {
            for (k, val) in extra {
                base.insert(k.clone(), val.clone());
            }
        }
        serde_json::from_value(v).unwrap()
    }

    fn reason(t: &Transaction, certs: &[Exemption]) -> Option<Reason> {
        check(t, &certs.iter().collect::<Vec<_>>())
    }

    #[test]
    fn a_certificate_in_force_on_the_day_covers_the_sale() {
        let t = sale("2026-06-01");
        assert_eq!(reason(&t, &[cert("e1", json!({}))]), None);
        // Ending on the day of the sale still covers it.
        assert_eq!(
            reason(&t, &[cert("e1", json!({"end_date": "2026-06-01"}))]),
            None
        );
        // Expired since, but in force then: covered.
        assert_eq!(
            reason(
                &t,
                &[cert(
                    "e1",
                    json!({"status": "EXPIRED", "end_date": "2026-07-01"})
                )]
            ),
            None
        );
        // A country-wide certificate covers every state of the country.
        assert_eq!(
            reason(&t, &[cert("e1", json!({"jurisdiction": null}))]),
            None
        );
        // Starting on the day covers it too.
        assert_eq!(
            reason(&t, &[cert("e1", json!({"start_date": "2026-06-01"}))]),
            None
        );
    }

    #[test]
    fn each_miss_is_named_with_its_reason() {
        let t = sale("2026-06-01");
        assert_eq!(reason(&t, &[]), Some(Reason::NoCertificate));
        let expired = reason(&t, &[cert("e1", json!({"end_date": "2026-05-20"}))]).unwrap();
        assert_eq!(expired.words(), "e1 expired 12 days before the sale");
        let later = reason(&t, &[cert("e1", json!({"start_date": "2026-06-02"}))]).unwrap();
        assert_eq!(later.words(), "e1 started 1 day after the sale");
        let other = reason(&t, &[cert("e1", json!({"jurisdiction": "CA"}))]).unwrap();
        assert_eq!(other.words(), "e1 is for US-CA");
        let off = reason(&t, &[cert("e1", json!({"status": "DEACTIVATED"}))]).unwrap();
        assert_eq!(off.words(), "e1 is deactivated");
        // Another country's country-wide certificate.
        let abroad = reason(
            &t,
            &[cert(
                "e1",
                json!({"jurisdiction": null, "country_code": "CA"}),
            )],
        )
        .unwrap();
        assert_eq!(abroad.kind(), "other_jurisdiction");
    }

    #[test]
    fn the_nearest_miss_is_named() {
        let t = sale("2026-06-01");
        let certs = [
            cert("far", json!({"end_date": "2026-02-01"})),
            cert("near", json!({"end_date": "2026-05-30"})),
            cert("later", json!({"start_date": "2026-09-01"})),
        ];
        assert_eq!(
            reason(&t, &certs),
            Some(Reason::Expired {
                exemption_id: "near".into(),
                days: 2
            })
        );
    }

    #[test]
    fn other_customers_certificates_do_not_count_but_a_transaction_one_does() {
        let t = sale("2026-06-01");
        let theirs = cert("e1", json!({"customer_id": "cus_2"}));
        assert_eq!(
            findings(std::slice::from_ref(&t), std::slice::from_ref(&theirs))[0].reason,
            Reason::NoCertificate
        );
        let own = cert(
            "e2",
            json!({"exemption_type": "transaction", "transaction_id": "tran_1",
                   "customer_id": null, "jurisdiction": "NY"}),
        );
        assert!(findings(&[t], &[theirs, own]).is_empty());
    }

    #[test]
    fn a_finding_carries_the_sale() {
        let f = findings(&[sale("2026-06-01")], &[]).remove(0);
        assert_eq!(f.jurisdiction, "US-TX");
        assert_eq!(f.customer_name.as_deref(), Some("Acme"));
        assert_eq!(f.date.to_string(), "2026-06-01");
        let v = serde_json::to_value(&f).unwrap();
        assert_eq!(v["reason"], "no_certificate");
    }
}
