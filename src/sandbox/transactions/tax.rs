//! Tax as the sandbox calculates it: the jurisdiction's rate, split the way its authorities levy
//! it, rounded per item.

use rust_decimal::Decimal;

use crate::model::{
    AddressType, ProcessingStatus, TaxItem, TaxLiabilitySource, Transaction,
    TransactionExemptStatus,
};
use crate::sandbox::reference;

/// A decimal amount in minor units (cents).
pub(super) fn cents_of(amount: Decimal) -> i64 {
    let mut a = amount.round_dp(2);
    a.rescale(2);
    a.mantissa() as i64
}

/// The tax items of one item: the jurisdiction's rate split the way its authorities levy it.
pub(super) fn split_tax(
    country: &str,
    state: &str,
    rate: Decimal,
    taxable: Decimal,
    currency: &str,
) -> Vec<TaxItem> {
    let tax = |name: &str, kind: &str, jurisdiction: &str, r: Decimal| TaxItem {
        name: name.to_owned(),
        rate: r,
        amount: (taxable * r).round_dp(2),
        rule_id: None,
        converted_amount: None,
        currency: Some(currency.to_owned()),
        destination_currency: Some(currency.to_owned()),
        external_id: None,
        kind: Some("CALCULATED".into()),
        jurisdiction_type: Some(kind.to_owned()),
        jurisdiction_name: Some(jurisdiction.to_owned()),
    };
    let name = reference::jurisdiction_name(country, state).unwrap_or(state);
    match country {
        "US" => {
            let local = (rate * Decimal::new(25, 2)).round_dp(4);
            let mut v = vec![tax(
                &format!("{name} state tax"),
                "STATE",
                name,
                rate - local,
            )];
            if !local.is_zero() {
                v.push(tax(&format!("{name} local tax"), "CITY", name, local));
            }
            v
        }
        "CA" => {
            let gst = Decimal::new(5, 2);
            let mut v = vec![tax("GST", "COUNTRY", "Canada", gst.min(rate))];
            if rate > gst {
                v.push(tax(
                    &format!("{name} provincial tax"),
                    "STATE",
                    name,
                    rate - gst,
                ));
            }
            v
        }
        _ => vec![tax("VAT", "COUNTRY", name, rate)],
    }
}

/// Calculates the tax of a created transaction from its ship-to (or first) address, as the
/// service does once processing is over.
pub fn calculate_tax(t: &mut Transaction) {
    let address = t
        .addresses
        .iter()
        .find(|a| a.kind == AddressType::ShipTo)
        .or(t.addresses.first());
    let country = address
        .and_then(|a| a.address.country.clone())
        .or(t.country.clone())
        .unwrap_or_default();
    let state = address
        .and_then(|a| a.address.state.clone())
        .or(t.state.clone())
        .unwrap_or_default();
    let rate = reference::tax_rate(&country, &state);
    let currency = t.currency.clone().unwrap_or_else(|| "USD".into());
    let exempt_all = t.exempt == Some(TransactionExemptStatus::FullyExempt);
    let mut tax_total = Decimal::ZERO;
    let mut taxable_total = Decimal::ZERO;
    let mut subtotal = Decimal::ZERO;
    for item in &mut t.transaction_items {
        let amount = item.amount.unwrap_or_default();
        let exempt = exempt_all || item.exempt == Some(true);
        let taxable = if exempt { Decimal::ZERO } else { amount };
        let tax = (taxable * rate).round_dp(2);
        item.taxable_amount = Some(taxable);
        item.tax_amount_calculated = Some(tax);
        item.tax_rate_calculated = Some(if exempt { Decimal::ZERO } else { rate });
        item.tax_items = if exempt {
            Vec::new()
        } else {
            split_tax(&country, &state, rate, taxable, &currency)
        };
        subtotal += amount;
        tax_total += tax;
        taxable_total += taxable;
    }
    let liability = if t.marketplace == Some(true) {
        Decimal::ZERO
    } else {
        tax_total
    };
    t.country = Some(country).filter(|c| !c.is_empty());
    t.state = Some(state).filter(|s| !s.is_empty());
    t.subtotal = Some(subtotal);
    t.taxable_amount = Some(taxable_total);
    t.total_tax_amount_calculated = Some(tax_total);
    t.tax_rate_calculated = Some(rate);
    t.total_tax_liability_amount = Some(liability);
    t.tax_liability_source = Some(TaxLiabilitySource::Calculated);
    t.final_total_amount = Some(subtotal + liability);
    t.processing_status = Some(ProcessingStatus::Processed);
}
