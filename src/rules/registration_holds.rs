//! Which registrations hold their jurisdiction: while one does, a second registration of the
//! same tax type there is refused (the sandbox answers 409). One rule for every side that asks.

use crate::model::{Registration, RegistrationStatus, TaxType};

/// Whether a registration in `status` holds its jurisdiction, so that a second one of the same
/// tax type there is a duplicate.
///
/// - Held: `REGISTERED`, `PROCESSING`, `VALIDATING` and `SELF_MANAGED`, the statuses that cover
///   the jurisdiction (see [`crate::rules::attention::is_active`]); `AWAITING_CLARIFICATION`, an
///   application still open (answer the jurisdiction's question rather than apply again); and
///   `DEREGISTERING`, a registration still open, its last returns due, until the jurisdiction
///   closes it (register again once it is `DEREGISTERED`).
/// - Not held: `UNREGISTERED` (no registration in force), `DEREGISTERED`, `CANCELLED`, and a
///   status this version does not know (the service decides).
pub fn holds_jurisdiction(status: &RegistrationStatus) -> bool {
    crate::rules::attention::is_active(status)
        || matches!(
            status,
            RegistrationStatus::AwaitingClarification | RegistrationStatus::Deregistering
        )
}

/// The registration of `registrations` that a new one in `country`/`state` of `tax_type` would
/// duplicate: the same jurisdiction (codes compared without regard to case or surrounding
/// space), a status that holds it ([`holds_jurisdiction`]), and the same tax type, or either
/// without one.
pub fn duplicate_registration<'a>(
    registrations: &'a [Registration],
    country: &str,
    state: &str,
    tax_type: Option<&TaxType>,
) -> Option<&'a Registration> {
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    registrations.iter().find(|r| {
        same(&r.country_code, country)
            && same(&r.state_code, state)
            && holds_jurisdiction(&r.status)
            && (r.tax_type.is_none() || tax_type.is_none() || r.tax_type.as_ref() == tax_type)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn registration(state: &str, status: &str, tax: Option<&str>) -> Registration {
        serde_json::from_value(json!({
            "id": format!("regs_{state}_{status}"), "status": status, "country_code": "US",
            "state_code": state, "filing_frequency": "MONTHLY", "tax_type": tax
        }))
        .unwrap()
    }

    #[test]
    fn the_statuses_that_hold_a_jurisdiction() {
        use RegistrationStatus as S;
        for (status, held) in [
            (S::Registered, true),
            (S::Processing, true),
            (S::Validating, true),
            (S::SelfManaged, true),
            (S::AwaitingClarification, true),
            (S::Deregistering, true),
            (S::Unregistered, false),
            (S::Deregistered, false),
            (S::Cancelled, false),
            (S::Other("ON_HOLD".into()), false),
        ] {
            assert_eq!(holds_jurisdiction(&status), held, "{status}");
        }
    }

    #[test]
    fn a_second_registration_of_the_same_tax_type_is_a_duplicate() {
        let on_file = [
            registration("TX", "DEREGISTERING", Some("SALES_AND_USE_TAX")),
            registration("VA", "DEREGISTERED", Some("SALES_TAX")),
            registration("WI", "UNREGISTERED", Some("USE_TAX")),
            registration("CO", "REGISTERED", None),
        ];
        let sales_and_use = TaxType::SalesAndUseTax;
        let found = duplicate_registration(&on_file, "us", " tx", Some(&sales_and_use));
        assert_eq!(found.map(|r| r.id.as_str()), Some("regs_TX_DEREGISTERING"));
        // Another tax type is not a duplicate; no tax type on either side is.
        assert!(duplicate_registration(&on_file, "US", "TX", Some(&TaxType::UseTax)).is_none());
        assert!(duplicate_registration(&on_file, "US", "TX", None).is_some());
        assert!(duplicate_registration(&on_file, "US", "CO", Some(&TaxType::SalesTax)).is_some());
        // Closed or never in force: free to register.
        assert!(duplicate_registration(&on_file, "US", "VA", Some(&TaxType::SalesTax)).is_none());
        assert!(duplicate_registration(&on_file, "US", "WI", Some(&TaxType::UseTax)).is_none());
        assert!(duplicate_registration(&on_file, "CA", "TX", None).is_none());
    }
}
