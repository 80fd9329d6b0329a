//! Exemptions (certificates) and their attachments.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{Customer, Timestamp};

open_enum! {
    /// Kind of exemption (`reverse_charge` is seen on reads only).
    pub enum ExemptionType {
        Customer = "customer",
        Wholesale = "wholesale",
        Transaction = "transaction",
        ReverseCharge = "reverse_charge",
    }
}

impl ExemptionType {
    /// The values a create accepts.
    pub const CREATABLE: &'static [ExemptionType] =
        &[Self::Customer, Self::Wholesale, Self::Transaction];
}

open_enum! {
    pub enum ExemptionStatus {
        Active = "ACTIVE",
        Inactive = "INACTIVE",
        Expired = "EXPIRED",
        Deactivated = "DEACTIVATED",
        Archived = "ARCHIVED",
    }
}

impl ExemptionStatus {
    /// The values the list's `status__in` filter accepts.
    pub const FILTERABLE: &'static [ExemptionStatus] =
        &[Self::Active, Self::Inactive, Self::Expired];
}

open_enum! {
    pub enum RelatedEntityType {
        Exemption = "EXEMPTION",
        Registration = "REGISTRATION",
        Filing = "FILING",
        FilingPayment = "FILING_PAYMENT",
    }
}

/// An exemption as listed, fetched or created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exemption {
    pub id: String,
    pub exemption_type: ExemptionType,
    pub status: Option<ExemptionStatus>,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    pub customer_id: Option<String>,
    #[serde(rename = "FEIN")]
    pub fein: Option<String>,
    pub sales_tax_id: Option<String>,
    pub jurisdiction: Option<String>,
    pub country_code: Option<String>,
    pub transaction_id: Option<String>,
    pub reseller: Option<bool>,
    pub organization_id: Option<String>,
    /// List items: the customer's name.
    pub customer_name: Option<String>,
    /// List items: the first attachment's id.
    pub attachment_id: Option<String>,
    /// Create answer: the customer.
    pub customer: Option<Customer>,
    /// Create answer: the attachments.
    pub attachment: Option<Vec<Attachment>>,
    pub created_at: Option<Timestamp>,
    pub updated_at: Option<Timestamp>,
}

/// Body of POST /v1/exemptions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExemptionCreate {
    pub exemption_type: ExemptionType,
    pub status: ExemptionStatus,
    pub start_date: NaiveDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<NaiveDate>,
    pub customer_id: String,
    #[serde(rename = "FEIN")]
    pub fein: String,
    pub sales_tax_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jurisdiction: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reseller: Option<bool>,
}

/// A file attached to an exemption (or another record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attachment {
    pub id: String,
    pub related_entity_id: String,
    pub related_entity_type: RelatedEntityType,
    pub file_name: Option<String>,
    pub mime_type: Option<String>,
    pub file_size_bytes: Option<u64>,
    pub created_at: Option<Timestamp>,
    /// Where the file can be fetched (a web address), when the service says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_location: Option<String>,
    /// `S3` or `LOCAL`, when the service says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_location_type: Option<String>,
}
