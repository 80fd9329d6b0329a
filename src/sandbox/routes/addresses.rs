//! Address validation over the places the demo data knows: a street in a known city, state and
//! ZIP code verifies; a ZIP code that is not the city's is corrected (search) or suggested
//! (suggestions); an address naming no known place gets no suggestion.

use axum::body::Bytes;

use super::json_body;
use crate::model::{AddressFields, AddressSearchResult, AddressSuggestion, SuggestionQuery};
use crate::sandbox::demo_data::places::{US_PLACES, UsPlace};
use crate::sandbox::error::Answered;
use crate::sandbox::tenanted::mirror::Json;

fn same(a: Option<&str>, b: &str) -> bool {
    a.is_some_and(|a| a.trim().eq_ignore_ascii_case(b))
}

fn blank(s: Option<&str>) -> bool {
    s.is_none_or(|s| s.trim().is_empty())
}

/// The places of the city and state named (either may be missing), else of the ZIP code.
fn places<'p>(city: Option<&str>, state: Option<&str>, zip: Option<&str>) -> Vec<&'p UsPlace> {
    let by_city: Vec<&UsPlace> = US_PLACES
        .iter()
        .filter(|p| same(city, p.city) && (blank(state) || same(state, p.state)))
        .collect();
    if !by_city.is_empty() {
        return by_city;
    }
    US_PLACES
        .iter()
        .filter(|p| same(zip, p.zip) && blank(city))
        .collect()
}

/// The verdict a check of `sent` gets: `INVALID` when it names no known place, `VERIFIED` with a
/// street and the place's own ZIP code, else `PARTIALLY_VERIFIED`.
pub fn status_of(sent: &AddressFields) -> &'static str {
    let found = places(
        sent.city.as_deref(),
        sent.state.as_deref(),
        sent.postal_code.as_deref(),
    );
    if found.is_empty() {
        return "INVALID";
    }
    let zip_ok = found
        .iter()
        .any(|p| same(sent.postal_code.as_deref(), p.zip));
    if zip_ok && !blank(sent.street_1.as_deref()) {
        "VERIFIED"
    } else {
        "PARTIALLY_VERIFIED"
    }
}

/// A body of text `fields`, every one optional: a value of another type answers 422 naming
/// its field, as every other write does; no body is an empty one.
fn read<T: serde::de::DeserializeOwned + Default>(body: &Bytes, fields: &[&str]) -> Answered<T> {
    let Some(v) = json_body(body)? else {
        return Ok(T::default());
    };
    let mut check = crate::rules::Check::body(&v)?;
    check.optional_strs(fields);
    check.optional_str("country");
    Ok(check.finish(&v)?)
}

/// `POST /v1/address_validation/search`.
pub async fn search(body: Bytes) -> Answered<Json<Vec<AddressSearchResult>>> {
    let sent: AddressFields = read(&body, crate::rules::ADDRESS_TEXT)?;
    let found = places(
        sent.city.as_deref(),
        sent.state.as_deref(),
        sent.postal_code.as_deref(),
    );
    let Some(place) = found
        .iter()
        .find(|p| same(sent.postal_code.as_deref(), p.zip))
        .or(found.first())
    else {
        return Ok(Json(vec![AddressSearchResult {
            address_submitted: sent.clone(),
            response_address: sent,
            verification_status: "INVALID".into(),
            enrich_fields: Vec::new(),
        }]));
    };
    let zip_ok = same(sent.postal_code.as_deref(), place.zip);
    let street = sent.street_1.as_deref().map(|s| s.trim().to_uppercase());
    let status = match (zip_ok, blank(street.as_deref())) {
        (true, false) => "VERIFIED",
        _ => "PARTIALLY_VERIFIED",
    };
    let mut enrich = Vec::new();
    if blank(sent.county.as_deref()) {
        enrich.push("county".to_owned());
    }
    if !zip_ok {
        enrich.push("postal_code".to_owned());
    }
    let response = AddressFields {
        street_1: street,
        street_2: sent.street_2.as_deref().map(|s| s.trim().to_uppercase()),
        city: Some(place.city.to_uppercase()),
        county: Some(place.county.to_uppercase()),
        state: Some(place.state.to_owned()),
        postal_code: Some(place.zip.to_owned()),
        country: Some("US".into()),
        full_address: None,
    };
    Ok(Json(vec![AddressSearchResult {
        address_submitted: sent,
        response_address: response,
        verification_status: status.into(),
        enrich_fields: enrich,
    }]))
}

/// `POST /v1/address_validation/suggestions`.
pub async fn suggestions(body: Bytes) -> Answered<Json<Vec<AddressSuggestion>>> {
    let q: SuggestionQuery = read(&body, &["line1", "city", "state", "postalCode"])?;
    let found = places(
        q.city.as_deref(),
        q.state.as_deref(),
        q.postal_code.as_deref(),
    );
    Ok(Json(
        found
            .into_iter()
            .map(|p| AddressSuggestion {
                city: p.city.to_uppercase(),
                county: Some(format!("{} County", p.county)),
                state: p.state.to_owned(),
                postal_code: p.zip.to_owned(),
                country: "US".into(),
            })
            .collect(),
    ))
}
