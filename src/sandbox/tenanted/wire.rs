//! The Tenanted wire conventions: camelCase keys, the renamed and re-shaped fields of each
//! release, money at scale 2, rates at scale 9, timestamps in UTC ending in `Z`; request bodies
//! read back into their v1 form. Answers are written by [`answer`](super::answer).

use axum::body::Bytes;
use chrono::SecondsFormat;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::Value;

use super::answer::Tenanted;
use super::envelope::{TenantedError, TenantedResult};
use crate::model::casing::to_snake;
use crate::model::tenanted::ApiVersion;
use crate::model::{FieldError, Timestamp};

/// Reads a JSON body: `None` when there is none, a 422 `validation_failed` when it is not JSON.
pub(crate) fn json_body(bytes: &Bytes) -> TenantedResult<Option<Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(bytes).map(Some).map_err(|e| {
        TenantedError::from(FieldError::new(
            "json_invalid",
            vec!["body".into()],
            format!("The body is not valid JSON: {e}"),
            Value::Null,
        ))
    })
}

/// An amount: a decimal string at scale 2 (`"12.50"`).
pub(crate) fn money(d: Decimal) -> Value {
    Value::String(at_scale(d, 2).to_string())
}

/// A timestamp in RFC 3339, UTC, ending in `Z`.
pub(crate) fn timestamp(t: &Timestamp) -> Value {
    Value::String(t.0.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

/// `d` rounded half away from zero to `scale` places, and written with exactly that many.
pub(crate) fn at_scale(d: Decimal, scale: u32) -> Decimal {
    let mut d = d.round_dp_with_strategy(scale, RoundingStrategy::MidpointAwayFromZero);
    d.rescale(scale);
    d
}

/// A v1 answer in its Tenanted form for `version`: keys in camelCase and every release rule of
/// the mirror (see [`answer`](super::answer)):
/// - `country` is `countryCode` from 2026-10-06 (addresses, customers, transactions, estimates);
/// - a country-level filing's `stateCode`/`stateName` are `""` before 2026-10-06, null from it;
/// - a transaction line with no product name has `productName` null before 2026-10-06, `""`
///   from it;
/// - amounts at scale 2, rates at scale 9, timestamps ending in `Z`.
pub(crate) fn to_tenanted(version: ApiVersion, v1: &Value) -> Value {
    // Writing a JSON value into a JSON value cannot fail: its keys are text.
    serde_json::to_value(Tenanted::new(version, v1)).unwrap_or(Value::Null)
}

/// Paths whose request bodies carry addresses, customers or transactions (the objects whose
/// `countryCode` is v1's `country` from 2026-10-06).
fn carries_country(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    matches!(
        parts.as_slice(),
        ["customers" | "transactions" | "tax-estimations"]
            | ["customers", _]
            | ["transactions", _, "credit_notes"]
    )
}

/// A Tenanted request body in its v1 form for the handler at `path`: keys in `snake_case` and,
/// from 2026-10-06, `countryCode` of the body, its addresses and its customer read as `country`.
pub(crate) fn from_tenanted(version: ApiVersion, path: &str, body: Value) -> Value {
    let mut body = to_snake(body);
    if version.is_latest_shape() && carries_country(path) {
        rename_country(&mut body);
        if let Some(Value::Array(addresses)) = body.get_mut("addresses") {
            addresses.iter_mut().for_each(rename_country);
        }
        if let Some(customer) = body.get_mut("customer") {
            rename_country(customer);
        }
    }
    body
}

fn rename_country(object: &mut Value) {
    if let Value::Object(map) = object
        && !map.contains_key("country")
        && let Some(code) = map.remove("country_code")
    {
        map.insert("country".to_owned(), code);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const OLD: ApiVersion = ApiVersion::DEFAULT;
    const NEW: ApiVersion = ApiVersion::LATEST;

    #[test]
    fn amounts_rates_and_timestamps_take_their_fixed_forms() {
        let v1 = json!({
            "total_amount": "12.5", "tax_rate_calculated": "0.0725", "quantity": "2",
            "created_at": "2026-10-06T12:00:00+02:00", "start_date": "2026-10-01",
            "metadata": {"total_amount": "1"}
        });
        assert_eq!(
            to_tenanted(OLD, &v1),
            json!({
                "totalAmount": "12.50", "taxRateCalculated": "0.072500000", "quantity": "2",
                "createdAt": "2026-10-06T10:00:00Z", "startDate": "2026-10-01",
                "metadata": {"total_amount": "1"}
            })
        );
        assert_eq!(money(Decimal::new(1005, 3)), json!("1.01"));
    }

    #[test]
    fn release_rules_apply_per_version() {
        let filing =
            json!({"date_filed": null, "state_code": "", "state_name": "Canada", "country": "CA"});
        assert_eq!(
            to_tenanted(OLD, &filing),
            json!({"dateFiled": null, "stateCode": "", "stateName": "", "country": "CA"})
        );
        assert_eq!(
            to_tenanted(NEW, &filing),
            json!({"dateFiled": null, "stateCode": null, "stateName": null, "countryCode": "CA"})
        );
        let line = json!({"product_name": null});
        assert_eq!(to_tenanted(OLD, &line), json!({"productName": null}));
        assert_eq!(to_tenanted(NEW, &line), json!({"productName": ""}));
    }

    #[test]
    fn request_country_codes_are_read_as_country_in_the_latest_release() {
        let body = json!({
            "countryCode": "US", "addresses": [{"street1": "1 Main", "countryCode": "US"}],
            "customer": {"countryCode": "CA"}
        });
        assert_eq!(
            from_tenanted(NEW, "/transactions", body.clone()),
            json!({
                "country": "US", "addresses": [{"street_1": "1 Main", "country": "US"}],
                "customer": {"country": "CA"}
            })
        );
        assert_eq!(
            from_tenanted(OLD, "/transactions", body.clone())["addresses"][0]["country_code"],
            "US"
        );
        assert_eq!(
            from_tenanted(NEW, "/exemptions", body)["country_code"],
            "US"
        );
    }
}
