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

/// The platforms a customer's or a product's record may come from (the interface's
/// `SourceEnum`: the live document's list, and `CHECKOUT`, which the interface document names
/// among its neutral members). Read as text, so that an answer naming one this version does not
/// know is shown; a write must name one of these.
pub const SOURCES: &[&str] = &[
    "BIGCOMMERCE",
    "BESTBUY",
    "BUNNY",
    "CHARGEBEE",
    "SHOPIFY",
    "STRIPE",
    "AMAZON",
    "TIKTOK",
    "CUSTOM",
    "UNKNOWN",
    "IMPORT",
    "ZUORA",
    "APIDECK",
    "QUICKBOOKS",
    "API",
    "APPLE_APP_STORE",
    "GOOGLE_APP_STORE",
    "WALMART",
    "PAYPAL",
    "NETSUITE",
    "XERO",
    "MAXIO",
    "RECURLY",
    "SALESFORCE",
    "ETSY",
    "EBAY",
    "WIX",
    "SQUARESPACE",
    "WOOCOMMERCE",
    "MAGENTO",
    "BILLING_PLATFORM",
    "DEEL",
    "RIPPLING",
    "GUSTO",
    "FACEBOOK",
    "OTHER",
    "ORDWAY",
    "INSTAGRAM",
    "PINTEREST",
    "WAYFAIR",
    "WISH",
    "POS",
    "TARGET",
    "NEWEGG",
    "GROUPON",
    "GOOGLE_EXPRESS",
    "NOCNOC",
    "MERCADO_LIBRE",
    "MODALYST",
    "NORDSTROM",
    "FAIRE",
    "SHOPWARE",
    "ZOHO",
    "SAGE-INTACCT",
    "AIRWALLEX",
    "ORB",
    "ZENSKAR",
    "MICROSOFT_DYNAMICS_365",
    "KICKSTARTER",
    "INTERNAL_ERP",
    "CHECKOUT",
];

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
    /// How far the address is verified; a new customer's is `UNVERIFIED` unless given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_status: Option<AddressStatus>,
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
