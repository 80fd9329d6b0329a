//! The address fields the service spells the same way wherever a record has a full address (a
//! customer, a transaction's addresses, the address validation), flattened into those records;
//! and address validation: an address checked by the service, and the addresses it suggests.
//!
//! They come in two shapes, because the service reads and answers them in two: a record as the
//! service answers it ([`Address`]) says `null` for an absent value, and a request
//! ([`AddressFields`]) leaves an absent value out, so that a `PUT` does not clear what it does
//! not name.

use serde::{Deserialize, Serialize};

/// Declares the fields once, and from them both shapes ([`Address`], [`AddressFields`]) and the
/// conversions between them; a field with an alias is read by either name.
macro_rules! addresses {
    ($($field:ident $(or $alias:literal)?),+ $(,)?) => {
        /// An address as a record carries it (a customer, a transaction's address): every field,
        /// `null` when absent.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct Address {
            $(
                $(#[serde(alias = $alias)])?
                pub $field: Option<String>,
            )+
        }

        /// An address as a request sends it (a customer's or a transaction's body, the address
        /// validation) and as the validation answers it: an absent field is left out.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct AddressFields {
            $(
                #[serde(default, skip_serializing_if = "Option::is_none")]
                $(#[serde(alias = $alias)])?
                pub $field: Option<String>,
            )+
        }

        impl From<AddressFields> for Address {
            fn from(a: AddressFields) -> Self {
                Address { $($field: a.$field),+ }
            }
        }

        impl From<Address> for AddressFields {
            fn from(a: Address) -> Self {
                AddressFields { $($field: a.$field),+ }
            }
        }
    };
}

addresses! {
    street_1,
    street_2,
    city,
    county,
    state,
    postal_code,
    country or "country_code",
    full_address,
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

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use crate::model::{AddressWrite, Customer, CustomerWrite, TransactionAddress};

    /// `text` read as `T` and written again: the same text, key for key and in order.
    fn round_trip<T: Serialize + DeserializeOwned>(text: &str) -> T {
        let value: T = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), text);
        value
    }

    #[test]
    fn a_record_says_null_for_an_absent_address_field_in_its_own_place() {
        let customer: Customer = round_trip(concat!(
            r#"{"id":"cust_1","organization_id":"org_1","name":"Ada","external_id":null,"#,
            r#""external_friendly_id":null,"status":"ACTIVE","email":null,"phone":null,"#,
            r#""company_name":null,"street_1":"1 Main St","street_2":null,"city":"Austin","#,
            r#""county":null,"state":"TX","postal_code":"78701","country":"US","#,
            r#""full_address":null,"source":"API","connection_id":null,"address_status":null,"#,
            r#""registration_number":null,"customer_tax_registrations":[],"store_name":null}"#
        ));
        assert_eq!(customer.address.city.as_deref(), Some("Austin"));
        let address: TransactionAddress = round_trip(concat!(
            r#"{"type":"SHIP_TO","id":null,"transaction_id":"tx_1","phone":null,"#,
            r#""street_1":null,"street_2":null,"city":null,"county":null,"state":"TX","#,
            r#""postal_code":null,"country":"US","full_address":null,"#,
            r#""is_unincorporated":false,"status":null,"connection_id":null}"#
        ));
        assert_eq!(address.address.state.as_deref(), Some("TX"));
    }

    #[test]
    fn a_request_leaves_an_absent_address_field_out() {
        let body: CustomerWrite =
            round_trip(r#"{"name":"Ada","city":"Austin","country":"US","source":"API"}"#);
        assert_eq!(body.address.country.as_deref(), Some("US"));
        let address: AddressWrite =
            round_trip(r#"{"type":"BILL_TO","phone":"555","street_1":"1 Main St","state":"TX"}"#);
        assert_eq!(address.address.street_1.as_deref(), Some("1 Main St"));
    }

    #[test]
    fn country_code_is_read_as_the_country() {
        let customer: Customer =
            serde_json::from_str(r#"{"id":"c","country_code":"CA","street_1":null}"#).unwrap();
        assert_eq!(customer.address.country.as_deref(), Some("CA"));
        let body: CustomerWrite = serde_json::from_str(r#"{"country_code":"CA"}"#).unwrap();
        assert_eq!(body.address.country.as_deref(), Some("CA"));
    }
}
