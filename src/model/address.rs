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

/// What checking an address found: the service's verdict and the addresses offered in its
/// place (the standardized one first, then the suggested places).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressCheck {
    pub status: String,
    pub candidates: Vec<AddressFields>,
}

impl AddressFields {
    /// `1 CONGRESS AVE, AUSTIN, TX 78701, US (TRAVIS)`.
    pub fn one_line(&self) -> String {
        let state_zip = [self.state.as_deref(), self.postal_code.as_deref()]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let mut line = [
            self.street_1.as_deref(),
            self.city.as_deref(),
            Some(state_zip.as_str()),
            self.country.as_deref(),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(", ");
        if let Some(county) = self.county.as_deref().filter(|c| !c.is_empty()) {
            line.push_str(" (");
            line.push_str(county);
            line.push(')');
        }
        line
    }
}
