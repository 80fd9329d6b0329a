//! The Tenanted wire conventions, as translations of the v1 JSON: camelCase keys, the renamed and
//! re-shaped fields of each release, money at scale 2, rates at scale 9, timestamps in UTC ending
//! in `Z`.

use axum::body::Bytes;
use chrono::SecondsFormat;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Map, Value, json};

use super::envelope::{TenantedError, TenantedResult};
use crate::model::casing::{snake_to_camel, to_snake};
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

/// A rate: a decimal string at scale 9 (`"0.072500000"`).
pub(crate) fn rate(d: Decimal) -> Value {
    Value::String(at_scale(d, 9).to_string())
}

/// A timestamp in RFC 3339, UTC, ending in `Z`.
pub(crate) fn timestamp(t: &Timestamp) -> Value {
    Value::String(t.0.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

fn at_scale(d: Decimal, scale: u32) -> Decimal {
    let mut d = d.round_dp_with_strategy(scale, RoundingStrategy::MidpointAwayFromZero);
    d.rescale(scale);
    d
}

/// The amounts of the v1 records (every `Decimal` field that is neither a rate nor a quantity),
/// plus those of the Tenanted-only records.
const MONEY_KEYS: &[&str] = &[
    "amount",
    "amount_adjusted",
    "amount_calculated",
    "amount_discounts",
    "amount_fees",
    "amount_penalties",
    "amount_sales",
    "amount_tax_collected",
    "calculated_tax_liability",
    "converted_amount",
    "converted_final_total_amount",
    "converted_subtotal",
    "converted_tax_amount_calculated",
    "converted_tax_amount_imported",
    "converted_taxable_amount",
    "converted_total_amount",
    "converted_total_discount",
    "converted_total_recoverable_input_vat",
    "converted_total_tax_amount_calculated",
    "converted_total_tax_amount_imported",
    "converted_total_tax_liability_amount",
    "credits_total_available",
    "discount_amount",
    "estimated_liability",
    "final_total_amount",
    "imported_tax_liability",
    "previous_transactions_amount",
    "sales_amount",
    "subtotal",
    "tax_amount",
    "tax_amount_calculated",
    "tax_amount_imported",
    "tax_liability",
    "taxable_amount",
    "threshold_sales",
    "total_amount",
    "total_discount",
    "total_recoverable_input_vat",
    "total_tax_amount_calculated",
    "total_tax_amount_imported",
    "total_tax_liability",
    "total_tax_liability_amount",
    "total_taxable_sales",
    "transactions_amount",
];

/// The timestamps of the v1 records (besides every name ending in `_at`). `YYYY-MM-DD` dates are
/// left as they are.
const TIMESTAMP_KEYS: &[&str] = &[
    "date",
    "date_filed",
    "registration_requested",
    "registration_completed",
    "deregistration_requested",
    "deregistration_completed",
];

/// Keys whose values are documents of their own, carried as they are.
const OPAQUE: &[&str] = &["jurisdiction_fields_json_schema", "metadata"];

/// What kind of value a v1 key holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Money,
    Rate,
    Timestamp,
    Other,
}

fn kind_of(key: &str) -> Kind {
    if key.split('_').any(|part| part == "rate") {
        Kind::Rate
    } else if MONEY_KEYS.contains(&key) {
        Kind::Money
    } else if TIMESTAMP_KEYS.contains(&key) || key.ends_with("_at") {
        Kind::Timestamp
    } else {
        Kind::Other
    }
}

fn decimal_of(v: &Value) -> Option<Decimal> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

/// A scalar of kind `kind` in its Tenanted form; anything else (null, text that is not a number
/// or a date-time) is kept.
fn scalar(kind: Kind, v: Value) -> Value {
    match kind {
        Kind::Money => decimal_of(&v).map_or(v, money),
        Kind::Rate => decimal_of(&v).map_or(v, rate),
        Kind::Timestamp => match &v {
            Value::String(s) if s.contains('T') => Timestamp::parse(s).map_or(v, |t| timestamp(&t)),
            _ => v,
        },
        Kind::Other => v,
    }
}

/// A v1 answer in its Tenanted form for `version`: keys in camelCase and every release rule of
/// the mirror:
/// - `country` is `countryCode` from 2026-10-06 (addresses, customers, transactions, estimates);
/// - a country-level filing's `stateCode`/`stateName` are `""` before 2026-10-06, null from it;
/// - a transaction line with no product name has `productName` null before 2026-10-06, `""`
///   from it;
/// - amounts at scale 2, rates at scale 9, timestamps ending in `Z`.
pub(crate) fn to_tenanted(version: ApiVersion, v1: Value) -> Value {
    match v1 {
        Value::Object(map) => Value::Object(object(version, map)),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| to_tenanted(version, v)).collect())
        }
        other => other,
    }
}

fn object(version: ApiVersion, mut map: Map<String, Value>) -> Map<String, Value> {
    let latest = version.is_latest_shape();
    let blank = |v: Option<&Value>| v.is_none_or(|v| v.is_null() || v.as_str() == Some(""));
    // A country-level filing (no state code) has no state: v1 names the country as its state.
    if map.contains_key("date_filed") && blank(map.get("state_code")) {
        for key in ["state_code", "state_name"] {
            map.insert(key.to_owned(), if latest { Value::Null } else { json!("") });
        }
    }
    // A transaction line without a product name.
    if map.contains_key("product_name") && blank(map.get("product_name")) {
        map.insert(
            "product_name".to_owned(),
            if latest { json!("") } else { Value::Null },
        );
    }
    map.into_iter()
        .map(|(key, value)| {
            let value = if OPAQUE.contains(&key.as_str()) {
                value
            } else {
                match value {
                    Value::Object(_) | Value::Array(_) => to_tenanted(version, value),
                    scalar_value => scalar(kind_of(&key), scalar_value),
                }
            };
            let name = if latest && key == "country" {
                "countryCode".to_owned()
            } else {
                snake_to_camel(&key)
            };
            (name, value)
        })
        .collect()
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
            to_tenanted(OLD, v1),
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
            to_tenanted(OLD, filing.clone()),
            json!({"dateFiled": null, "stateCode": "", "stateName": "", "country": "CA"})
        );
        assert_eq!(
            to_tenanted(NEW, filing),
            json!({"dateFiled": null, "stateCode": null, "stateName": null, "countryCode": "CA"})
        );
        let line = json!({"product_name": null});
        assert_eq!(to_tenanted(OLD, line.clone()), json!({"productName": null}));
        assert_eq!(to_tenanted(NEW, line), json!({"productName": ""}));
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
