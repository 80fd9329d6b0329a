//! The exemptions a transaction's answer embeds: those that applied to an exempt sale.

use serde_json::Value;

use crate::model::{
    Exemption, ExemptionStatus, ExemptionType, Transaction, TransactionExemptStatus,
};

/// The fields of an embedded exemption (the service's `Exemption` shape): the list's extras
/// (`customer_name`, `attachment_id`) and the create answer's (`customer`, `attachment`) are not
/// part of it.
const NOT_EMBEDDED: &[&str] = &["customer_name", "attachment_id", "customer", "attachment"];

/// Whether `e` applies to `t`: a transaction exemption naming it, or a customer or wholesale
/// exemption of its customer in its jurisdiction, in force on its date (active then: `ACTIVE`, or
/// `EXPIRED` since).
fn applies(e: &Exemption, t: &Transaction) -> bool {
    let day = t.date.date();
    let in_force = matches!(
        e.status,
        Some(ExemptionStatus::Active | ExemptionStatus::Expired)
    ) && e.start_date <= day
        && e.end_date.is_none_or(|end| day <= end);
    if !in_force {
        return false;
    }
    if e.exemption_type == ExemptionType::Transaction {
        return e.transaction_id.as_deref() == Some(t.id.as_str());
    }
    let country = t.country.as_deref().or_else(|| {
        t.addresses
            .iter()
            .find_map(|a| a.address.country.as_deref())
    });
    let state = t
        .state
        .as_deref()
        .or_else(|| t.addresses.iter().find_map(|a| a.address.state.as_deref()));
    e.customer_id.is_some()
        && e.customer_id == t.customer_id
        && e.jurisdiction
            .as_deref()
            .is_none_or(|j| j.is_empty() || Some(j) == state)
        && e.country_code
            .as_deref()
            .is_none_or(|c| country.is_none_or(|tc| tc == c))
}

/// `t` with `exemptions` set to the exemptions that applied: for a fully or partially exempt
/// transaction, those of `all` that apply to it (see [`applies`]); none for any other.
pub fn with_applied_exemptions(mut t: Transaction, all: &[Exemption]) -> Transaction {
    let exempt = matches!(
        t.exempt,
        Some(TransactionExemptStatus::FullyExempt | TransactionExemptStatus::PartiallyExempt)
    );
    let applied = if exempt {
        all.iter()
            .filter(|e| applies(e, &t))
            .filter_map(|e| serde_json::to_value(e).ok())
            .map(|mut v| {
                if let Value::Object(map) = &mut v {
                    for key in NOT_EMBEDDED {
                        map.remove(*key);
                    }
                }
                v
            })
            .collect()
    } else {
        Vec::new()
    };
    t.exemptions = Some(applied);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sale(exempt: &str) -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-03-01T10:00:00Z",
            "type": "SALE", "exempt": exempt, "customer_id": "cust_1", "state": "TX",
            "country": "US"
        }))
        .unwrap()
    }

    fn exemption(id: &str, kind: &str, status: &str, jurisdiction: &str) -> Exemption {
        serde_json::from_value(json!({
            "id": id, "exemption_type": kind, "status": status, "start_date": "2025-01-01",
            "end_date": null, "customer_id": "cust_1", "FEIN": "12-3456789",
            "sales_tax_id": "TX-1", "jurisdiction": jurisdiction, "country_code": "US",
            "transaction_id": null, "reseller": false, "organization_id": "orgn_1",
            "customer_name": "Ada", "attachment_id": "atch_1", "customer": null,
            "attachment": null, "created_at": null, "updated_at": null
        }))
        .unwrap()
    }

    fn ids(t: &Transaction) -> Vec<String> {
        t.exemptions
            .iter()
            .flatten()
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn an_exempt_sale_embeds_the_exemptions_in_force_for_its_customer_and_state() {
        let mut late = exemption("exmp_late", "customer", "ACTIVE", "TX");
        late.start_date = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let mut named = exemption("exmp_named", "transaction", "ACTIVE", "TX");
        named.transaction_id = Some("tran_1".into());
        let mut other_sale = exemption("exmp_other_sale", "transaction", "ACTIVE", "TX");
        other_sale.transaction_id = Some("tran_2".into());
        let mut other_customer = exemption("exmp_other_customer", "customer", "ACTIVE", "TX");
        other_customer.customer_id = Some("cust_2".into());
        let all = [
            exemption("exmp_tx", "customer", "ACTIVE", "TX"),
            exemption("exmp_wholesale", "wholesale", "EXPIRED", "TX"),
            exemption("exmp_ca", "customer", "ACTIVE", "CA"),
            exemption("exmp_archived", "customer", "ARCHIVED", "TX"),
            late,
            named,
            other_sale,
            other_customer,
        ];
        let t = with_applied_exemptions(sale("FULLY_EXEMPT"), &all);
        assert_eq!(ids(&t), ["exmp_tx", "exmp_wholesale", "exmp_named"]);
        let first = &t.exemptions.as_ref().unwrap()[0];
        assert_eq!(first["jurisdiction"], json!("TX"));
        assert_eq!(first["status"], json!("ACTIVE"));
        assert_eq!(first["FEIN"], json!("12-3456789"));
        assert!(first.get("customer_name").is_none() && first.get("attachment_id").is_none());

        let t = with_applied_exemptions(sale("PARTIALLY_EXEMPT"), &all);
        assert_eq!(ids(&t).len(), 3);
        let t = with_applied_exemptions(sale("NOT_EXEMPT"), &all);
        assert_eq!(
            t.exemptions,
            Some(Vec::new()),
            "none applied to a taxed sale"
        );
    }
}
