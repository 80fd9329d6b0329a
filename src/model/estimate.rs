//! Tax estimates (POST /v1/tax/estimate).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{AddressWrite, TaxExemption, Timestamp};

/// A line to estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateItemRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    pub date: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_product_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantity: Option<Decimal>,
    pub amount: Decimal,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exempt: Option<bool>,
}

/// Body of POST /v1/tax/estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateRequest {
    pub date: Timestamp,
    pub external_id: String,
    pub currency: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<bool>,
    pub addresses: Vec<AddressWrite>,
    pub transaction_items: Vec<EstimateItemRequest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<Value>,
}

/// One tax in an estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateTaxItem {
    pub name: String,
    pub rate: Option<Decimal>,
    pub amount: Option<Decimal>,
    pub exempt: Option<bool>,
    pub exempt_reason: Option<String>,
    pub rule: Option<String>,
}

/// An estimated line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateItem {
    pub external_id: Option<String>,
    pub date: Option<Timestamp>,
    pub description: Option<String>,
    pub external_product_id: Option<String>,
    pub quantity: Option<Decimal>,
    pub amount: Decimal,
    pub exempt: Option<bool>,
    pub tax_amount: Option<Decimal>,
    pub taxable_amount: Option<Decimal>,
    pub tax_rate: Option<Decimal>,
    pub exempt_reason: Option<TaxExemption>,
    #[serde(default)]
    pub tax_items: Vec<EstimateTaxItem>,
}

/// Answer of POST /v1/tax/estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateResponse {
    pub date: Timestamp,
    pub external_id: String,
    pub currency: String,
    pub description: Option<String>,
    pub marketplace: Option<bool>,
    #[serde(default)]
    pub addresses: Vec<Value>,
    pub transaction_items: Vec<EstimateItem>,
    pub total_tax_amount_calculated: Option<Decimal>,
    pub taxable_amount: Option<Decimal>,
    pub tax_rate_calculated: Option<Decimal>,
    pub nexus_met: Option<bool>,
    pub has_active_registration: Option<bool>,
}
