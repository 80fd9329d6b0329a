//! Transactions, their addresses, items and tax items, and credit note requests.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Address, AddressFields, AddressStatus, Customer, Timestamp};

open_enum! {
    pub enum TransactionType {
        Sale = "SALE",
        FullCreditNote = "FULL_CREDIT_NOTE",
        PartialCreditNote = "PARTIAL_CREDIT_NOTE",
        TaxRefund = "TAX_REFUND",
        TaxCollection = "TAX_COLLECTION",
        Archive = "ARCHIVE",
    }
}

impl TransactionType {
    /// A full or partial credit note.
    pub fn is_credit_note(&self) -> bool {
        matches!(
            self,
            TransactionType::FullCreditNote | TransactionType::PartialCreditNote
        )
    }
}

open_enum! {
    pub enum TransactionStatus {
        Pending = "PENDING",
        Committed = "COMMITTED",
        Cancelled = "CANCELLED",
        FullyRefunded = "FULLY_REFUNDED",
        PartiallyRefunded = "PARTIALLY_REFUNDED",
        Invalid = "INVALID",
        Archived = "ARCHIVED",
    }
}

impl TransactionStatus {
    /// Whether a transaction in this status counts for tax, in every check (the nexus pace,
    /// exempt sales against certificates, a filing's sales against its transactions): it was
    /// made and stands (`PENDING`, `COMMITTED`), or stands and was refunded (`FULLY_REFUNDED`,
    /// `PARTIALLY_REFUNDED`: the refund is its credit note, which counts against it). A
    /// `CANCELLED`, `INVALID` or `ARCHIVED` one does not. A status this side does not know, or
    /// none, counts: a sale is not left out of a check on a word it cannot read.
    pub fn counts_for_tax(status: Option<&TransactionStatus>) -> bool {
        !matches!(
            status,
            Some(
                TransactionStatus::Cancelled
                    | TransactionStatus::Invalid
                    | TransactionStatus::Archived
            )
        )
    }
}

open_enum! {
    /// Where the service is in calculating a transaction's tax.
    pub enum ProcessingStatus {
        New = "NEW",
        Updated = "UPDATED",
        Queued = "QUEUED",
        AddressDone = "ADDRESS_DONE",
        ExemptDone = "EXEMPT_DONE",
        NexusDone = "NEXUS_DONE",
        Processed = "PROCESSED",
        FilingStarted = "FILING_STARTED",
        FilingDone = "FILING_DONE",
        Locked = "LOCKED",
        Pending = "PENDING",
        Archived = "ARCHIVED",
        NeedsRefetch = "NEEDS_REFETCH",
        ExcludedInCalculation = "EXCLUDED_IN_CALCULATION",
        DeferredFromFiling = "DEFERRED_FROM_FILING",
    }
}

impl ProcessingStatus {
    /// Whether tax totals can be read: calculation has finished (and may since have moved on to
    /// filing).
    pub fn tax_is_calculated(&self) -> bool {
        matches!(
            self,
            Self::Processed
                | Self::FilingStarted
                | Self::FilingDone
                | Self::Locked
                | Self::DeferredFromFiling
        )
    }
}

open_enum! {
    pub enum TransactionExemptStatus {
        NotExempt = "NOT_EXEMPT",
        PartiallyExempt = "PARTIALLY_EXEMPT",
        FullyExempt = "FULLY_EXEMPT",
        ZeroRateNotExempt = "ZERO_RATE_NOT_EXEMPT",
    }
}

open_enum! {
    pub enum RefundStatus { FullyRefunded = "FULLY_REFUNDED", PartiallyRefunded = "PARTIALLY_REFUNDED" }
}

open_enum! {
    pub enum TaxLiabilitySource { Calculated = "CALCULATED", Collected = "COLLECTED" }
}

open_enum! {
    pub enum DocumentType {
        Invoice = "INVOICE",
        SalesOrder = "SALES_ORDER",
        CashSale = "CASH_SALE",
        CashRefund = "CASH_REFUND",
    }
}

open_enum! {
    pub enum Direction { Sale = "SALE", Purchase = "PURCHASE" }
}

open_enum! {
    pub enum AddressType { BillTo = "BILL_TO", ShipTo = "SHIP_TO", ShipFrom = "SHIP_FROM", BillFrom = "BILL_FROM" }
}

open_enum! {
    /// Why an item is exempt.
    pub enum TaxExemption {
        Product = "PRODUCT",
        Transaction = "TRANSACTION",
        Customer = "CUSTOMER",
        Region = "REGION",
        ReverseCharge = "REVERSE_CHARGE",
        ZeroRateTax = "ZERO_RATE_TAX",
        HighValuePhysicalGoods = "HIGH_VALUE_PHYSICAL_GOODS",
        Export = "EXPORT",
        ZeroValueItem = "ZERO_VALUE_ITEM",
        NoRuleFound = "NO_RULE_FOUND",
        Imported = "IMPORTED",
        ZeroRateNotExempt = "ZERO_RATE_NOT_EXEMPT",
    }
}

open_enum! {
    /// Status given to a credit note on create.
    pub enum CreditNoteStatus { Pending = "PENDING", Cancelled = "CANCELLED", Committed = "COMMITTED" }
}

/// An address on a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionAddress {
    #[serde(rename = "type")]
    pub kind: AddressType,
    pub id: Option<String>,
    pub transaction_id: Option<String>,
    pub phone: Option<String>,
    #[serde(flatten)]
    pub address: Address,
    pub is_unincorporated: Option<bool>,
    pub status: Option<AddressStatus>,
    pub connection_id: Option<String>,
}

/// One tax applied to an item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaxItem {
    pub name: String,
    pub rate: Decimal,
    pub amount: Decimal,
    pub rule_id: Option<String>,
    pub converted_amount: Option<Decimal>,
    pub currency: Option<String>,
    pub destination_currency: Option<String>,
    pub external_id: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub jurisdiction_type: Option<String>,
    pub jurisdiction_name: Option<String>,
}

/// One line of a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionItem {
    pub id: String,
    pub external_id: Option<String>,
    pub organization_id: Option<String>,
    pub date: Option<Timestamp>,
    pub description: Option<String>,
    pub external_product_id: Option<String>,
    pub product: Option<String>,
    pub product_id: Option<String>,
    pub product_name: Option<String>,
    pub product_description: Option<String>,
    pub quantity: Option<Decimal>,
    pub amount: Option<Decimal>,
    pub tax_amount_imported: Option<Decimal>,
    pub tax_rate_imported: Option<Decimal>,
    pub tax_amount_calculated: Option<Decimal>,
    pub tax_rate_calculated: Option<Decimal>,
    pub original_currency: Option<String>,
    pub destination_currency: Option<String>,
    pub converted_amount: Option<Decimal>,
    pub converted_taxable_amount: Option<Decimal>,
    pub converted_tax_amount_imported: Option<Decimal>,
    pub converted_tax_amount_calculated: Option<Decimal>,
    pub converted_total_discount: Option<Decimal>,
    pub converted_subtotal: Option<Decimal>,
    pub taxable_amount: Option<Decimal>,
    pub tax_exemption: Option<TaxExemption>,
    pub exempt: Option<bool>,
    #[serde(default)]
    pub tax_items: Vec<TaxItem>,
    pub total_discount: Option<Decimal>,
    pub subtotal: Option<Decimal>,
    pub is_reverse_charge_self_accounted: Option<bool>,
}

/// A sale, purchase or credit note as the service answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    pub id: String,
    pub external_id: String,
    pub organization_id: Option<String>,
    pub date: Timestamp,
    #[serde(rename = "type")]
    pub kind: TransactionType,
    #[serde(default)]
    pub addresses: Vec<TransactionAddress>,
    #[serde(default)]
    pub transaction_items: Vec<TransactionItem>,
    pub customer: Option<Customer>,
    pub customer_id: Option<String>,
    pub shop_date: Option<String>,
    pub shop_date_tz: Option<String>,
    pub description: Option<String>,
    pub refund_status: Option<RefundStatus>,
    pub total_amount: Option<Decimal>,
    pub marketplace: Option<bool>,
    pub exempt: Option<TransactionExemptStatus>,
    pub exemptions: Option<Vec<Value>>,
    pub related_to: Option<String>,
    pub secondary_external_id: Option<String>,
    pub secondary_source: Option<String>,
    pub external_friendly_id: Option<String>,
    pub total_tax_amount_imported: Option<Decimal>,
    pub tax_rate_imported: Option<Decimal>,
    pub total_tax_amount_calculated: Option<Decimal>,
    pub tax_rate_calculated: Option<Decimal>,
    pub total_tax_liability_amount: Option<Decimal>,
    pub tax_liability_source: Option<TaxLiabilitySource>,
    pub taxable_amount: Option<Decimal>,
    pub currency: Option<String>,
    pub locked: Option<bool>,
    pub source: Option<String>,
    pub connection_id: Option<String>,
    pub filing_id: Option<String>,
    pub city: Option<String>,
    pub county: Option<String>,
    pub state: Option<String>,
    pub postal_code: Option<String>,
    #[serde(alias = "country_code")]
    pub country: Option<String>,
    pub status: Option<TransactionStatus>,
    pub document_type: Option<DocumentType>,
    pub created_from: Option<String>,
    pub address_status: Option<AddressStatus>,
    pub processing_status: Option<ProcessingStatus>,
    pub is_duplicate: Option<bool>,
    pub destination_currency: Option<String>,
    pub converted_total_amount: Option<Decimal>,
    pub converted_total_tax_amount_imported: Option<Decimal>,
    pub converted_total_tax_amount_calculated: Option<Decimal>,
    pub conversion_rate: Option<Decimal>,
    pub converted_taxable_amount: Option<Decimal>,
    pub converted_total_discount: Option<Decimal>,
    pub converted_subtotal: Option<Decimal>,
    pub converted_total_tax_liability_amount: Option<Decimal>,
    pub converted_final_total_amount: Option<Decimal>,
    pub store_name: Option<String>,
    pub is_deferred_transaction: Option<bool>,
    pub direction: Option<Direction>,
    pub total_recoverable_input_vat: Option<Decimal>,
    pub converted_total_recoverable_input_vat: Option<Decimal>,
    pub input_vat_recovery_rate: Option<Decimal>,
    pub total_discount: Option<Decimal>,
    pub subtotal: Option<Decimal>,
    pub final_total_amount: Option<Decimal>,
}

/// The figures of a transaction the checks add up: a return's sales
/// ([`crate::checks::filings::sales_of`]) and a jurisdiction's pace
/// ([`crate::checks::activity_by_place`]), read alone: the transactions read for those checks
/// only can be thousands of records of several kilobytes each, of which nothing else is kept.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SaleFigures {
    #[serde(rename = "type")]
    pub kind: TransactionType,
    pub status: Option<TransactionStatus>,
    pub direction: Option<Direction>,
    pub subtotal: Option<Decimal>,
    pub total_amount: Option<Decimal>,
    #[serde(alias = "country_code")]
    pub country: Option<String>,
    pub state: Option<String>,
    pub marketplace: Option<bool>,
    pub exempt: Option<TransactionExemptStatus>,
    /// The places of its addresses, for a record that names none itself.
    #[serde(default)]
    pub addresses: Vec<PlaceFigures>,
}

/// The place of one of a transaction's addresses, read alone (see [`SaleFigures`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PlaceFigures {
    #[serde(alias = "country_code")]
    pub country: Option<String>,
    pub state: Option<String>,
}

impl SaleFigures {
    /// The figures of each of `transactions`, in order.
    pub fn of(transactions: &[Transaction]) -> Vec<SaleFigures> {
        transactions.iter().map(SaleFigures::from).collect()
    }
}

impl From<&Transaction> for SaleFigures {
    fn from(t: &Transaction) -> Self {
        SaleFigures {
            kind: t.kind.clone(),
            status: t.status.clone(),
            direction: t.direction.clone(),
            subtotal: t.subtotal,
            total_amount: t.total_amount,
            country: t.country.clone(),
            state: t.state.clone(),
            marketplace: t.marketplace,
            exempt: t.exempt.clone(),
            addresses: t
                .addresses
                .iter()
                .map(|a| PlaceFigures {
                    country: a.address.country.clone(),
                    state: a.address.state.clone(),
                })
                .collect(),
        }
    }
}

impl Transaction {
    /// Whether the tax totals are final; while false they must be shown as pending, not as zero.
    pub fn tax_is_calculated(&self) -> bool {
        self.processing_status
            .as_ref()
            .is_some_and(ProcessingStatus::tax_is_calculated)
    }
}

/// An address in a create or credit-note request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AddressWrite {
    #[serde(rename = "type")]
    pub kind: Option<AddressType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(flatten)]
    pub address: AddressFields,
}

/// A line in POST /v1/transactions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionItemWrite {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    pub date: Timestamp,
    pub external_product_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantity: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_amount_imported: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_rate_imported: Option<Decimal>,
}

/// Body of POST /v1/transactions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionCreate {
    pub external_id: String,
    pub date: Timestamp,
    #[serde(rename = "type")]
    pub kind: TransactionType,
    pub addresses: Vec<AddressWrite>,
    pub transaction_items: Vec<TransactionItemWrite>,
    /// The customer, with at least the fields the service needs to match or create one.
    pub customer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_amount: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TransactionStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A line in a credit note request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreditNoteItem {
    pub external_id: String,
    pub date: Timestamp,
    pub external_product_id: String,
    pub quantity: Decimal,
    pub amount: Decimal,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_amount_imported: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_rate_imported: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taxable_amount: Option<Decimal>,
    /// Discount on the line; must be less than `amount`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<Decimal>,
}

/// Body of POST /`v1/transactions/{id}/credit_notes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreditNoteRequest {
    pub external_id: String,
    pub date: Timestamp,
    pub status: CreditNoteStatus,
    pub total_amount: Decimal,
    pub currency: String,
    pub transaction_items: Vec<CreditNoteItem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_friendly_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary_external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_amount_imported: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_rate_imported: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taxable_amount: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addresses: Option<Vec<AddressWrite>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_customer_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::str::FromStr;

    #[test]
    fn amounts_read_from_numbers_and_strings_and_write_as_strings() {
        let item: CreditNoteItem = serde_json::from_value(json!({
            "external_id": "i1", "date": "2025-01-01T00:00:00Z", "external_product_id": "p",
            "quantity": 2, "amount": 12.34, "tax_amount_imported": "0.10"
        }))
        .unwrap();
        assert_eq!(item.amount, Decimal::from_str("12.34").unwrap());
        assert_eq!(item.quantity, Decimal::from(2));
        let back = serde_json::to_value(&item).unwrap();
        assert_eq!(back["amount"], json!("12.34"));
        assert_eq!(back["tax_amount_imported"], json!("0.10"));
    }

    #[test]
    fn an_unknown_status_does_not_fail_the_transaction() {
        let t: Transaction = serde_json::from_value(json!({
            "id": "tran_1", "external_id": "e1", "date": "2025-02-18T19:43:32.684802", "type": "SALE",
            "processing_status": "SOMETHING_NEW", "addresses": [], "transaction_items": []
        }))
        .unwrap();
        assert_eq!(
            t.processing_status,
            Some(ProcessingStatus::Other("SOMETHING_NEW".into()))
        );
        assert!(!t.tax_is_calculated());
    }
}
