//! The CSV columns of each exported resource: a stable, documented set per resource, each cell
//! written from the record's typed value.
//!
//! Cell formats, identical to the JSON export's values wherever both have one:
//!
//! - amounts and rates: the decimal's own string (`12.50` stays `12.50`, never `12.5`);
//! - dates: `YYYY-MM-DD`; timestamps: RFC 3339 in UTC (`2025-01-23T13:01:29Z`);
//! - enumerations: their wire string, including values this version does not know;
//! - booleans: `true` / `false`; absent values: an empty cell.
//!
//! Nested data (a transaction's items and addresses, a customer's tax registrations) is left to
//! the JSON exports, apart from a few counts and names that fit one cell.

use std::fmt::Display;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::model::{
    Customer, Exemption, Filing, Nexus, PhysicalNexus, Product, Registration, Transaction,
};

/// One CSV column: its header and how a record fills it.
pub(crate) type Column<T> = (&'static str, fn(&T) -> String);

/// A record that can be exported as one CSV row (the JSON exports write the record as sent).
pub(crate) trait Record: Serialize + DeserializeOwned + Send + 'static {
    /// The CSV columns, in order.
    const COLUMNS: &'static [Column<Self>];
}

/// The value's own text (`Display`): wire string, decimal string, ISO date, RFC 3339.
fn show<T: Display>(value: &T) -> String {
    value.to_string()
}

/// The value's text, or an empty cell.
fn opt<T: Display>(value: &Option<T>) -> String {
    value.as_ref().map(ToString::to_string).unwrap_or_default()
}

impl Record for Registration {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |r| r.id.clone()),
        ("status", |r| show(&r.status)),
        ("country_code", |r| r.country_code.clone()),
        ("state_code", |r| r.state_code.clone()),
        ("state_name", |r| r.state_name.clone()),
        ("registration_type", |r| opt(&r.registration_type)),
        ("tax_type", |r| opt(&r.tax_type)),
        ("filing_frequency", |r| show(&r.filing_frequency)),
        ("filing_days", |r| opt(&r.filing_days)),
        ("registration_date", |r| opt(&r.registration_date)),
        ("registration_email", |r| opt(&r.registration_email)),
        ("sales_tax_id", |r| opt(&r.sales_tax_id)),
        ("registrations_regime", |r| opt(&r.registrations_regime)),
        ("oss_type", |r| opt(&r.oss_type)),
        ("amount_fees", |r| opt(&r.amount_fees)),
        ("credits_total_available", |r| {
            opt(&r.credits_total_available)
        }),
        ("has_all_credentials", |r| opt(&r.has_all_credentials)),
        ("registration_requested", |r| opt(&r.registration_requested)),
        ("registration_completed", |r| opt(&r.registration_completed)),
        ("deregistration_requested", |r| {
            opt(&r.deregistration_requested)
        }),
        ("deregistration_completed", |r| {
            opt(&r.deregistration_completed)
        }),
        ("created_at", |r| opt(&r.created_at)),
    ];
}

impl Record for PhysicalNexus {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |p| p.id.clone()),
        ("country_code", |p| p.country_code.clone()),
        ("state_code", |p| p.state_code.clone()),
        ("category", |p| show(&p.category)),
        ("start_date", |p| show(&p.start_date)),
        ("end_date", |p| opt(&p.end_date)),
        ("external_id", |p| opt(&p.external_id)),
        ("source", |p| opt(&p.source)),
        ("street_1", |p| opt(&p.street_1)),
        ("street_2", |p| opt(&p.street_2)),
        ("city", |p| opt(&p.city)),
        ("postal_code", |p| opt(&p.postal_code)),
    ];
}

impl Record for Nexus {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |n| n.id.clone()),
        ("country_code", |n| n.country_code.clone()),
        ("state_code", |n| n.state_code.clone()),
        ("state_name", |n| n.state_name.clone()),
        ("status", |n| opt(&n.status)),
        ("nexus_type", |n| opt(&n.nexus_type)),
        ("nexus_met", |n| opt(&n.nexus_met)),
        ("nexus_met_date", |n| opt(&n.nexus_met_date)),
        ("economic_nexus_met", |n| opt(&n.economic_nexus_met)),
        ("economic_nexus_met_date", |n| {
            opt(&n.economic_nexus_met_date)
        }),
        ("physical_nexus_met", |n| opt(&n.physical_nexus_met)),
        ("physical_nexus_met_date", |n| {
            opt(&n.physical_nexus_met_date)
        }),
        ("collected_tax_nexus_met", |n| {
            opt(&n.collected_tax_nexus_met)
        }),
        ("threshold_sales", |n| {
            // A whole amount, as the JSON's integer.
            opt(&n.threshold_sales.map(|d| {
                if d.fract().is_zero() {
                    d.trunc().normalize()
                } else {
                    d
                }
            }))
        }),
        ("threshold_transactions", |n| opt(&n.threshold_transactions)),
        ("sales_or_transactions", |n| opt(&n.sales_or_transactions)),
        ("trigger", |n| opt(&n.trigger)),
        ("marketplace_included", |n| opt(&n.marketplace_included)),
        ("treatment_of_exempt_transactions", |n| {
            opt(&n.treatment_of_exempt_transactions)
        }),
        ("transactions_amount", |n| opt(&n.transactions_amount)),
        ("transaction_count", |n| opt(&n.transaction_count)),
        ("total_transactions", |n| opt(&n.total_transactions)),
        ("total_transactions_included", |n| {
            opt(&n.total_transactions_included)
        }),
        ("total_transactions_exempted", |n| {
            opt(&n.total_transactions_exempted)
        }),
        ("total_transactions_marketplace", |n| {
            opt(&n.total_transactions_marketplace)
        }),
        ("previous_transactions_amount", |n| {
            opt(&n.previous_transactions_amount)
        }),
        ("previous_transaction_count", |n| {
            opt(&n.previous_transaction_count)
        }),
        ("period_model", |n| opt(&n.period_model)),
        ("period_start_date", |n| opt(&n.period_start_date)),
        ("period_end_date", |n| opt(&n.period_end_date)),
        ("previous_period_start_date", |n| {
            opt(&n.previous_period_start_date)
        }),
        ("previous_period_end_date", |n| {
            opt(&n.previous_period_end_date)
        }),
        ("tax_liability", |n| opt(&n.tax_liability)),
        ("calculated_tax_liability", |n| {
            opt(&n.calculated_tax_liability)
        }),
        ("imported_tax_liability", |n| opt(&n.imported_tax_liability)),
        ("currency", |n| opt(&n.currency)),
        ("start_date", |n| opt(&n.start_date)),
        ("is_vda_eligible", |n| opt(&n.vda_eligible())),
        ("created_at", |n| opt(&n.created_at)),
        ("updated_at", |n| opt(&n.updated_at)),
    ];
}

impl Record for Exemption {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |e| e.id.clone()),
        ("exemption_type", |e| show(&e.exemption_type)),
        ("status", |e| opt(&e.status)),
        ("start_date", |e| show(&e.start_date)),
        ("end_date", |e| opt(&e.end_date)),
        ("customer_id", |e| opt(&e.customer_id)),
        ("customer_name", |e| opt(&e.customer_name)),
        ("FEIN", |e| opt(&e.fein)),
        ("sales_tax_id", |e| opt(&e.sales_tax_id)),
        ("jurisdiction", |e| opt(&e.jurisdiction)),
        ("country_code", |e| opt(&e.country_code)),
        ("transaction_id", |e| opt(&e.transaction_id)),
        ("reseller", |e| opt(&e.reseller)),
        ("attachment_id", |e| opt(&e.attachment_id)),
        ("created_at", |e| opt(&e.created_at)),
        ("updated_at", |e| opt(&e.updated_at)),
    ];
}

impl Record for Customer {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |c| c.id.clone()),
        ("name", |c| opt(&c.name)),
        ("status", |c| opt(&c.status)),
        ("email", |c| opt(&c.email)),
        ("phone", |c| opt(&c.phone)),
        ("company_name", |c| opt(&c.company_name)),
        ("external_id", |c| opt(&c.external_id)),
        ("external_friendly_id", |c| opt(&c.external_friendly_id)),
        ("street_1", |c| opt(&c.address.street_1)),
        ("street_2", |c| opt(&c.address.street_2)),
        ("city", |c| opt(&c.address.city)),
        ("county", |c| opt(&c.address.county)),
        ("state", |c| opt(&c.address.state)),
        ("postal_code", |c| opt(&c.address.postal_code)),
        ("country", |c| opt(&c.address.country)),
        ("address_status", |c| opt(&c.address_status)),
        ("source", |c| opt(&c.source)),
        ("store_name", |c| opt(&c.store_name)),
        ("registration_number", |c| opt(&c.registration_number)),
        ("tax_registration_count", |c| {
            show(&c.customer_tax_registrations.as_ref().map_or(0, Vec::len))
        }),
    ];
}

impl Record for Transaction {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |t| t.id.clone()),
        ("external_id", |t| t.external_id.clone()),
        ("date", |t| show(&t.date)),
        ("type", |t| show(&t.kind)),
        ("status", |t| opt(&t.status)),
        ("processing_status", |t| opt(&t.processing_status)),
        ("direction", |t| opt(&t.direction)),
        ("document_type", |t| opt(&t.document_type)),
        ("customer_id", |t| opt(&t.customer_id)),
        ("customer_name", |t| {
            t.customer
                .as_ref()
                .and_then(|c| c.name.clone())
                .unwrap_or_default()
        }),
        ("currency", |t| opt(&t.currency)),
        ("total_amount", |t| opt(&t.total_amount)),
        ("subtotal", |t| opt(&t.subtotal)),
        ("total_discount", |t| opt(&t.total_discount)),
        ("taxable_amount", |t| opt(&t.taxable_amount)),
        ("total_tax_amount_calculated", |t| {
            opt(&t.total_tax_amount_calculated)
        }),
        ("tax_rate_calculated", |t| opt(&t.tax_rate_calculated)),
        ("total_tax_amount_imported", |t| {
            opt(&t.total_tax_amount_imported)
        }),
        ("tax_rate_imported", |t| opt(&t.tax_rate_imported)),
        ("total_tax_liability_amount", |t| {
            opt(&t.total_tax_liability_amount)
        }),
        ("tax_liability_source", |t| opt(&t.tax_liability_source)),
        ("final_total_amount", |t| opt(&t.final_total_amount)),
        ("exempt", |t| opt(&t.exempt)),
        ("marketplace", |t| opt(&t.marketplace)),
        ("refund_status", |t| opt(&t.refund_status)),
        ("related_to", |t| opt(&t.related_to)),
        ("country", |t| opt(&t.country)),
        ("state", |t| opt(&t.state)),
        ("county", |t| opt(&t.county)),
        ("city", |t| opt(&t.city)),
        ("postal_code", |t| opt(&t.postal_code)),
        ("source", |t| opt(&t.source)),
        ("filing_id", |t| opt(&t.filing_id)),
        ("locked", |t| opt(&t.locked)),
        ("item_count", |t| show(&t.transaction_items.len())),
    ];
}

impl Record for Filing {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |f| f.id.clone()),
        ("registration_id", |f| f.registration_id.clone()),
        ("start_date", |f| show(&f.start_date)),
        ("end_date", |f| show(&f.end_date)),
        ("country_code", |f| f.country_code.clone()),
        ("state_code", |f| opt(&f.state_code)),
        ("state_name", |f| opt(&f.state_name)),
        ("status", |f| opt(&f.status)),
        ("due_date", |f| opt(&f.due_date)),
        ("amount", |f| opt(&f.amount)),
        ("currency", |f| opt(&f.currency)),
        ("date_filed", |f| opt(&f.date_filed)),
        ("approved_at", |f| opt(&f.approved_at)),
    ];
}

impl Record for Product {
    const COLUMNS: &'static [Column<Self>] = &[
        ("id", |p| p.id.clone()),
        ("external_id", |p| p.external_id.clone()),
        ("code", |p| p.code.clone()),
        ("sku", |p| p.sku.join(";")),
        ("name", |p| p.name.clone()),
        ("description", |p| p.description.clone()),
        ("status", |p| show(&p.status)),
        ("product_category", |p| p.product_category.clone()),
        ("product_subcategory", |p| p.product_subcategory.clone()),
        ("tax_exempt", |p| show(&p.tax_exempt)),
        ("classification_failed", |p| show(&p.classification_failed)),
        ("source", |p| opt(&p.source)),
        ("connection_id", |p| opt(&p.connection_id)),
    ];
}

/// The header names of `T`'s columns.
pub(crate) fn header<T: Record>() -> impl Iterator<Item = &'static str> {
    T::COLUMNS.iter().map(|(name, _)| *name)
}

/// `T`'s cells for one record, in column order.
pub(crate) fn cells<T: Record>(record: &T) -> impl Iterator<Item = String> + '_ {
    T::COLUMNS.iter().map(move |(_, cell)| cell(record))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::str::FromStr;

    use rust_decimal::Decimal;
    use serde_json::json;

    use super::*;

    fn names<T: Record>() -> Vec<&'static str> {
        header::<T>().collect()
    }

    #[test]
    fn column_names_are_unique_and_start_with_the_id() {
        for cols in [
            names::<Registration>(),
            names::<PhysicalNexus>(),
            names::<Nexus>(),
            names::<Exemption>(),
            names::<Customer>(),
            names::<Transaction>(),
            names::<Filing>(),
            names::<Product>(),
        ] {
            assert_eq!(cols[0], "id");
            let unique: HashSet<_> = cols.iter().collect();
            assert_eq!(unique.len(), cols.len(), "{cols:?}");
        }
    }

    #[test]
    fn cells_use_the_wire_forms() {
        let t: Transaction = serde_json::from_value(json!({
            "id": "tran_1", "external_id": "e1", "date": "2025-02-18T19:43:32.5-05:00",
            "type": "SALE", "processing_status": "SOMETHING_NEW", "total_amount": "12.50",
            "tax_rate_calculated": "0.072500", "marketplace": false,
            "transaction_items": [{"id": "i1"}, {"id": "i2"}]
        }))
        .unwrap();
        let row: Vec<(&str, String)> = header::<Transaction>().zip(cells(&t)).collect();
        let cell = |name: &str| row.iter().find(|(n, _)| *n == name).unwrap().1.clone();
        assert_eq!(cell("date"), "2025-02-19T00:43:32.500Z");
        assert_eq!(cell("processing_status"), "SOMETHING_NEW");
        assert_eq!(cell("total_amount"), "12.50");
        assert_eq!(cell("tax_rate_calculated"), "0.072500");
        assert_eq!(cell("marketplace"), "false");
        assert_eq!(cell("status"), "");
        assert_eq!(cell("item_count"), "2");
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["date"], json!(cell("date")));
        assert_eq!(json["total_amount"], json!(cell("total_amount")));
    }

    #[test]
    fn decimal_cells_are_the_json_string() {
        let mut negative_zero = Decimal::new(0, 2);
        negative_zero.set_sign_negative(true);
        let values = ["-12.345", "0", "0.00", "1000000.000001", "7.2500"]
            .map(|t| Decimal::from_str(t).unwrap());
        for d in values.into_iter().chain([negative_zero]) {
            assert_eq!(json!(opt(&Some(d))), serde_json::to_value(d).unwrap());
        }
        assert_eq!(opt(&Decimal::from_str("7.2500").ok()), "7.2500");
    }

    #[test]
    fn nexus_rows_carry_the_rule_and_its_counts() {
        let n: Nexus = serde_json::from_value(json!({
            "id": "nexu_1", "country_code": "US", "state_code": "NY", "state_name": "New York",
            "threshold_sales": "500000.00", "threshold_transactions": 100,
            "sales_or_transactions": "BOTH", "trigger": "SALES", "marketplace_included": true,
            "treatment_of_exempt_transactions": "INCLUDED", "period_model": "PREVIOUS_4_QUARTERS",
            "total_transactions": 131, "total_transactions_included": 120,
            "total_transactions_exempted": 11, "total_transactions_marketplace": 40,
            "previous_period_start_date": "2024-10-01", "previous_period_end_date": "2025-09-30",
            "start_date": "2026-02-01", "vda_eligible": true
        }))
        .unwrap();
        let row: Vec<(&str, String)> = header::<Nexus>().zip(cells(&n)).collect();
        let cell = |name: &str| row.iter().find(|(k, _)| *k == name).unwrap().1.clone();
        assert_eq!(cell("threshold_sales"), "500000");
        assert_eq!(
            cell("threshold_sales"),
            serde_json::to_value(&n).unwrap()["threshold_sales"].to_string()
        );
        assert_eq!(cell("sales_or_transactions"), "BOTH");
        assert_eq!(cell("period_model"), "PREVIOUS_4_QUARTERS");
        assert_eq!(cell("treatment_of_exempt_transactions"), "INCLUDED");
        assert_eq!(cell("marketplace_included"), "true");
        assert_eq!(cell("total_transactions"), "131");
        assert_eq!(cell("total_transactions_included"), "120");
        assert_eq!(cell("total_transactions_exempted"), "11");
        assert_eq!(cell("total_transactions_marketplace"), "40");
        assert_eq!(cell("previous_period_start_date"), "2024-10-01");
        assert_eq!(cell("previous_period_end_date"), "2025-09-30");
        assert_eq!(cell("start_date"), "2026-02-01");
        assert_eq!(cell("is_vda_eligible"), "true", "read from the older name");
    }
}
