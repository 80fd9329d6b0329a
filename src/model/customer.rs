//! Customers and their tax registrations.

use serde::{Deserialize, Serialize};

use super::{Address, AddressFields};

open_enum! {
    pub enum CustomerStatus { Active = "ACTIVE", Archived = "ARCHIVED" }
}

open_enum! {
    /// Result of address verification.
    pub enum AddressStatus {
        Unverified = "UNVERIFIED",
        Invalid = "INVALID",
        PartiallyVerified = "PARTIALLY_VERIFIED",
        Verified = "VERIFIED",
        Unverifiable = "UNVERIFIABLE",
        Blank = "BLANK",
    }
}

impl AddressStatus {
    /// The statuses of an address that needs fixing: the address queue.
    pub const NEEDS_FIXING: &'static [AddressStatus] = &[
        AddressStatus::Invalid,
        AddressStatus::Unverified,
        AddressStatus::PartiallyVerified,
        AddressStatus::Blank,
    ];
}

open_enum! {
    pub enum CustomerTaxType {
        Gst = "gst",
        Hst = "hst",
        GstHst = "gst_hst",
        Qst = "qst",
        Pst = "pst",
        Rst = "rst",
        Vat = "vat",
        Unknown = "unknown",
    }
}

/// A customer as the service answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Customer {
    pub id: String,
    #[serde(default)]
    pub organization_id: String,
    pub name: Option<String>,
    pub external_id: Option<String>,
    pub external_friendly_id: Option<String>,
    pub status: Option<CustomerStatus>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub company_name: Option<String>,
    #[serde(flatten)]
    pub address: Address,
    /// One of about 80 platform identifiers: kept as text.
    pub source: Option<String>,
    pub connection_id: Option<String>,
    pub address_status: Option<AddressStatus>,
    pub registration_number: Option<String>,
    #[serde(default)]
    pub customer_tax_registrations: Option<Vec<CustomerTaxRegistration>>,
    pub store_name: Option<String>,
}

/// Body of POST /v1/customers and PUT /v1/customers/{id}: every field optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CustomerWrite {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_friendly_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CustomerStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_name: Option<String>,
    #[serde(flatten)]
    pub address: AddressFields,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_number: Option<String>,
}

/// A customer's tax registration (GST/HST, VAT and so on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomerTaxRegistration {
    pub id: String,
    pub customer_id: String,
    pub country_code: String,
    pub tax_type: CustomerTaxType,
    pub tax_id: String,
    pub is_valid: bool,
}

/// Body of POST /v1/customers/{id}/tax-registrations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomerTaxRegistrationWrite {
    pub tax_id: String,
}
