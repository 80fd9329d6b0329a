//! Address validation: an address checked by the service, and the addresses it suggests.

use serde::{Deserialize, Serialize};

/// An address as the validation sends and answers it; every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_1: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_2: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub county: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_address: Option<String>,
}

/// One answer of `POST /v1/address_validation/search`: the address sent, the address the service
/// found, whether it verified it (`VERIFIED`, `PARTIALLY_VERIFIED`, …; an unknown word is
/// kept) and the fields it added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressSearchResult {
    pub address_submitted: AddressFields,
    pub response_address: AddressFields,
    pub verification_status: String,
    #[serde(default)]
    pub enrich_fields: Vec<String>,
}

/// The body of `POST /v1/address_validation/suggestions` (the service's own spelling).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestionQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line1: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(
        default,
        rename = "postalCode",
        skip_serializing_if = "Option::is_none"
    )]
    pub postal_code: Option<String>,
}

/// One suggested place: city, county, state, postal code and country.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressSuggestion {
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub county: Option<String>,
    #[serde(default)]
    pub state: String,
    #[serde(default)]
    pub postal_code: String,
    #[serde(default)]
    pub country: String,
}
