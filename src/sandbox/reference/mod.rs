//! Fixed reference facts the sandbox answers with: jurisdictions and their names, portals and
//! rates, physical nexus categories, jurisdiction-specific registration forms, the product
//! category catalog and the back-filing terms.
//!
//! Nothing here depends on an organization or on the seed: every caller gets the same answer.

mod addresses;
mod catalog;
mod forms;
mod jurisdictions;
mod nexus_categories;

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::model::{
    BackFilingTerms, ExemptTreatment, JurisdictionForm, PeriodModel, PhysicalNexusCategory,
    ProductCategory, SalesOrTransactions,
};

pub use addresses::postal_code_fits;
#[cfg(test)]
pub(crate) use forms::schema_violations;
pub use jurisdictions::{
    CANADA_FEDERAL, CANADIAN_PROVINCES, EU_MEMBER_STATES, EU_ONE_STOP_SHOP, Jurisdiction,
    US_STATES, is_eu_member, lookup,
};

/// Display name of a jurisdiction: `("US", "TX")` is Texas, `("CA", "")` Canada, `("ZZ_EU", "")`
/// the European Union, `("DE", "")` Germany. `None` for a pair the tables do not know.
pub fn jurisdiction_name(country: &str, state: &str) -> Option<&'static str> {
    if country.trim().eq_ignore_ascii_case("US") && state.trim().is_empty() {
        return Some("United States");
    }
    lookup(country, state).map(|j| j.name)
}

/// Days after a period's end that a jurisdiction's return is due (a registration's
/// `filing_days`): the 20th of the next month in most US states (the last day of it in
/// California, Nevada and Utah, the 25th in Washington, the 23rd in Ohio), a month in Canada
/// (three months for an annual GST/HST or QST return; the 20th in Saskatchewan) and in the EU.
pub fn filing_days(country: &str, state: &str, frequency: &crate::model::FilingFrequency) -> i64 {
    use crate::model::FilingFrequency as F;
    let annual = matches!(frequency, F::Annually);
    match (country.trim(), state.trim()) {
        ("US", "CA" | "NV" | "UT") => 30,
        ("US", "WA") => 25,
        ("US", "OH") => 23,
        ("CA", "" | "QC") if annual => 90,
        ("US", _) | ("CA", "SK") => 20,
        _ => 30,
    }
}

/// The tax authority's online portal for a jurisdiction, where returns are filed. A jurisdiction
/// the tables have no portal for gets a well-formed placeholder address naming it.
pub fn filing_website_url(country: &str, state: &str) -> String {
    if country.trim().eq_ignore_ascii_case("ZZ_EU") {
        return "https://vat-one-stop-shop.ec.europa.eu".to_owned();
    }
    if let Some(portal) = lookup(country, state).and_then(|j| j.portal) {
        return portal.to_owned();
    }
    let slug = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let (country, state) = (slug(country), slug(state));
    match (country.is_empty(), state.is_empty()) {
        (true, _) => "https://tax-portal.example.org/".to_owned(),
        (false, true) => format!("https://tax-portal.example.org/{country}"),
        (false, false) => format!("https://tax-portal.example.org/{country}/{state}"),
    }
}

/// The rate the sandbox applies in a jurisdiction, as a fraction (`0.0725` is 7.25 %): the US
/// state base rate (no local taxes), GST plus provincial tax or HST in Canada (GST alone for a
/// country-level `("CA", "")`), the standard VAT rate of an EU member state (also for
/// `("ZZ_EU", member)`). Zero where the tables know no tax.
pub fn tax_rate(country: &str, state: &str) -> Decimal {
    let row = if country.trim().eq_ignore_ascii_case("ZZ_EU") {
        lookup(state, "")
    } else {
        lookup(country, state)
    };
    row.map_or(Decimal::ZERO, |j| {
        Decimal::from_str(j.rate).expect("rates in the jurisdiction tables are decimals")
    })
}

/// Economic nexus rule of a jurisdiction: thresholds in its own currency, the measuring period
/// and what counts toward the thresholds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NexusThresholds {
    /// Sales amount that creates nexus, if the jurisdiction counts sales.
    pub sales: Option<Decimal>,
    /// Number of transactions that creates nexus, if the jurisdiction counts them.
    pub transactions: Option<i64>,
    /// Whether both must be met (otherwise either one is enough).
    pub both_required: bool,
    /// The period sales and transactions are measured over.
    pub period_model: PeriodModel,
    /// Whether sales made through a marketplace facilitator count toward the thresholds.
    pub marketplace_included: bool,
    /// Whether exempt sales count toward the thresholds.
    pub exempt_treatment: ExemptTreatment,
}

impl NexusThresholds {
    /// Which thresholds create nexus, as the service names it.
    pub fn sales_or_transactions(&self) -> SalesOrTransactions {
        match (self.sales.is_some(), self.transactions.is_some()) {
            (true, true) if self.both_required => SalesOrTransactions::Both,
            (true, true) => SalesOrTransactions::Either,
            (true, false) => SalesOrTransactions::Sales,
            (false, _) => SalesOrTransactions::Transactions,
        }
    }
}

/// Economic nexus rule of a jurisdiction; `None` when the tables know no economic nexus rule for
/// it (states without a sales tax, unknown jurisdictions).
pub fn nexus_thresholds(country: &str, state: &str) -> Option<NexusThresholds> {
    let j = lookup(country, state)?;
    if j.threshold_sales == 0 && j.threshold_transactions == 0 {
        return None;
    }
    let (period_model, marketplace_included, exempt_treatment) = nexus_measure(country, state);
    Some(NexusThresholds {
        sales: (j.threshold_sales > 0).then(|| Decimal::new(i64::from(j.threshold_sales) * 100, 2)),
        transactions: (j.threshold_transactions > 0).then(|| i64::from(j.threshold_transactions)),
        both_required: j.thresholds_both,
        period_model,
        marketplace_included,
        exempt_treatment,
    })
}

/// How a jurisdiction measures economic nexus: the period, whether marketplace sales count, and
/// whether exempt sales do. Most US states look at the current or previous calendar year, count
/// marketplace sales and count exempt sales; the exceptions are listed.
fn nexus_measure(country: &str, state: &str) -> (PeriodModel, bool, ExemptTreatment) {
    use ExemptTreatment as E;
    use PeriodModel as P;
    if !country.trim().eq_ignore_ascii_case("US") {
        return (P::CalendarYear, true, E::Included);
    }
    let period = match state {
        "AL" | "FL" | "PA" | "WY" => P::PrecedingYear,
        "CT" => P::PrecedingYearFromOctober,
        "MS" | "TN" | "TX" | "MN" | "ME" => P::Previous12Months,
        "NY" | "IL" | "VT" | "GA" => P::Previous4Quarters,
        "CA" | "CO" | "WA" => P::CalendarYear,
        _ => P::CurrentOrPrevious,
    };
    let marketplace_included = !matches!(
        state,
        "AZ" | "AR"
            | "FL"
            | "IA"
            | "IL"
            | "IN"
            | "KY"
            | "MI"
            | "MO"
            | "NC"
            | "OK"
            | "SC"
            | "TN"
            | "VT"
            | "WY"
    );
    let exempt = match state {
        "CO" | "FL" | "KS" | "MO" | "NM" | "OK" | "TN" => E::Excluded,
        "GA" | "OH" => E::Depends,
        "IL" => E::YesSalesNoTransactions,
        _ => E::Included,
    };
    (period, marketplace_included, exempt)
}

/// The physical nexus categories offered for a jurisdiction, as
/// `(category, title, description, example)`: US categories for `US`, Canadian ones (including
/// manufacture or production in Canada) for `CA`, and the international set (permanent
/// establishment and the like) for EU member states, `ZZ_EU` and any other country. The state
/// does not change the set.
pub fn physical_nexus_categories(
    country: &str,
    _state: &str,
) -> Vec<(
    PhysicalNexusCategory,
    &'static str,
    &'static str,
    &'static str,
)> {
    let set: &[nexus_categories::Descriptor] = match country.trim().to_ascii_uppercase().as_str() {
        "US" => &nexus_categories::US,
        "CA" => &nexus_categories::CANADA,
        _ => &nexus_categories::INTERNATIONAL,
    };
    set.iter()
        .map(|d| (d.category.clone(), d.title, d.description, d.example))
        .collect()
}

/// The registration form of a jurisdiction. California, Idaho, Texas and Alabama have their own
/// JSON Schema (draft 2020-12) and `default_form: false`; every other jurisdiction answers the
/// default form with an empty schema. `metadata` carries the help article, the portal and the
/// filing frequencies the jurisdiction assigns.
pub fn jurisdiction_form(country: &str, state: &str) -> JurisdictionForm {
    forms::form(country, state)
}

/// The product category catalog: main categories (`PHYSICAL`, `DIGITAL`, `SERVICE`,
/// `MISCELLANEOUS`, `UNKNOWN`) with their subcategories.
pub fn product_catalog() -> Vec<ProductCategory> {
    catalog::catalog()
}

/// The back-filing terms currently in force.
pub fn back_filing_terms() -> BackFilingTerms {
    catalog::terms()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use serde_json::json;

    use super::*;

    #[test]
    fn tables_are_complete_and_unique() {
        assert_eq!(US_STATES.len(), 51);
        for table in [
            &US_STATES[..],
            &CANADIAN_PROVINCES[..],
            &EU_MEMBER_STATES[..],
        ] {
            let codes: HashSet<_> = table.iter().map(|j| j.code).collect();
            assert_eq!(codes.len(), table.len());
        }
    }

    #[test]
    fn every_rate_parses_and_is_a_fraction() {
        let all = US_STATES
            .iter()
            .chain(&CANADIAN_PROVINCES)
            .chain(&EU_MEMBER_STATES)
            .chain([&CANADA_FEDERAL, &EU_ONE_STOP_SHOP]);
        for j in all {
            let rate = Decimal::from_str(j.rate).unwrap();
            assert!(rate >= Decimal::ZERO && rate < Decimal::ONE, "{}", j.code);
        }
    }

    #[test]
    fn names_and_rates() {
        assert_eq!(jurisdiction_name("US", "tx"), Some("Texas"));
        assert_eq!(jurisdiction_name("US", "DC"), Some("District of Columbia"));
        assert_eq!(jurisdiction_name("CA", "QC"), Some("Quebec"));
        assert_eq!(jurisdiction_name("CA", ""), Some("Canada"));
        assert_eq!(jurisdiction_name("ZZ_EU", ""), Some("European Union"));
        assert_eq!(jurisdiction_name("IE", ""), Some("Ireland"));
        assert_eq!(jurisdiction_name("US", "XX"), None);
        assert_eq!(tax_rate("US", "CA"), Decimal::new(725, 4));
        assert_eq!(tax_rate("CA", "QC"), Decimal::new(14975, 5));
        assert_eq!(tax_rate("ZZ_EU", "FI"), Decimal::new(255, 3));
        assert_eq!(tax_rate("US", "OR"), Decimal::ZERO);
        assert_eq!(tax_rate("JP", ""), Decimal::ZERO);
    }

    #[test]
    fn portal_urls_are_well_formed() {
        assert_eq!(
            filing_website_url("US", "CA"),
            "https://onlineservices.cdtfa.ca.gov"
        );
        assert_eq!(
            filing_website_url("JP", "13"),
            "https://tax-portal.example.org/jp/13"
        );
        for j in &US_STATES {
            assert!(filing_website_url("US", j.code).starts_with("https://"));
        }
    }

    #[test]
    fn thresholds() {
        let ny = nexus_thresholds("US", "NY").unwrap();
        assert_eq!(ny.sales.unwrap().to_string(), "500000.00");
        assert_eq!(ny.transactions, Some(100));
        assert!(ny.both_required);
        assert_eq!(nexus_thresholds("US", "OR"), None);
    }

    #[test]
    fn category_sets_follow_the_country() {
        let names = |c: &str| -> Vec<_> {
            physical_nexus_categories(c, "")
                .into_iter()
                .map(|t| t.0)
                .collect()
        };
        assert!(names("CA").contains(&PhysicalNexusCategory::ManufactureOrProductionInCanada));
        assert!(names("DE").contains(&PhysicalNexusCategory::PermanentEstablishment));
        assert!(names("US").contains(&PhysicalNexusCategory::WarehouseAndInventoryPresence));
        assert!(!names("US").contains(&PhysicalNexusCategory::PermanentEstablishment));
        for (_, title, description, example) in physical_nexus_categories("US", "WA") {
            assert!(!title.is_empty() && description.ends_with('.') && !example.is_empty());
        }
    }

    #[test]
    fn forms_of_states_with_their_own_fields() {
        for state in ["CA", "ID", "TX", "AL"] {
            let form = jurisdiction_form("US", state);
            assert!(!form.default_form, "{state}");
            let schema = &form.jurisdiction_fields_json_schema;
            assert_eq!(schema["type"], "object");
            assert!(!schema["required"].as_array().unwrap().is_empty());
            assert!(form.metadata["portal_url"].is_string());
            assert!(!form.tax_types.is_empty());
        }
        let tx = jurisdiction_form("US", "TX");
        let ok = json!({
            "registration_type": "REMOTE_SELLER",
            "business_name": "Acme",
            "texas_taxpayer_number": "32012345678",
            "webfile_number": "RT123456",
            "sltr_elected": "YES",
        });
        assert!(schema_violations(&tx.jurisdiction_fields_json_schema, &ok).is_empty());
        let bad = json!({ "registration_type": "MAYBE", "business_name": "" });
        assert_eq!(
            schema_violations(&tx.jurisdiction_fields_json_schema, &bad).len(),
            4
        );
    }

    #[test]
    fn other_jurisdictions_use_the_default_form() {
        for (country, state) in [("US", "OH"), ("CA", "BC"), ("ZZ_EU", ""), ("US", "ZZ")] {
            let form = jurisdiction_form(country, state);
            assert!(form.default_form);
            assert_eq!(form.jurisdiction_fields_json_schema, json!({}));
        }
    }

    #[test]
    fn catalog_and_terms() {
        let catalog = product_catalog();
        let names: Vec<_> = catalog.iter().map(|c| c.name.as_str()).collect();
        for expected in ["PHYSICAL", "DIGITAL", "SERVICE"] {
            assert!(names.contains(&expected));
        }
        assert!(catalog.iter().all(|c| !c.subcategories.is_empty()));
        let terms = back_filing_terms();
        assert!(terms.version > 0 && !terms.fees.is_empty());
    }
}
