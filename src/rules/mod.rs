//! The service's documented rules, as pure functions.
//!
//! Each body validator takes the JSON body exactly as it would be sent and answers the typed
//! request, or every [`FieldError`](crate::model::FieldError) found, in the shape of the service's
//! 422 answer (`{"detail": [errors]}`): the sandbox calls them before accepting a request, and the
//! dashboard's forms call them on the body they are about to send, mapping each error's `loc` back
//! onto a field. They accept only what the typed model reads, so a body that passes always
//! deserializes, and a wrong JSON type is a field error too, never a serde message.
//!
//! Conventions, after the service (FastAPI/pydantic v2):
//! - `loc` is `["body", field]`, or deeper (`["body", "transaction_items", 0, "amount"]`); `input`
//!   echoes the offending value (`null` for a missing field).
//! - Types: `missing`, `string_type`, `bool_type`, `date_type`, `date_parsing`, `datetime_type`,
//!   `datetime_parsing`, `decimal_type`, `decimal_parsing`, `enum`, `list_type`, `too_short`,
//!   `model_attributes_type` (not an object), and `value_error` for business rules, whose message
//!   names the field and the rule.
//! - Country and currency codes fail as `enum` with a short message instead of the whole list.
//! - Every text is bounded (`string_too_long`, see [`max_chars`]); a postal code given with the
//!   country US or CA has that country's form; a FEIN is nine digits, hyphen optional.
//! - An optional field sent as `null` counts as absent.
//!
//! The field-level helpers ([`parse_date`], [`is_country_code`], ...) let a form check one value as
//! it is typed.

pub mod attention;
mod check;
mod codes;
mod coverage;
mod credentials;
mod credit;
mod customer;
mod economic;
mod estimate;
mod exemption;
mod limits;
mod nexus;
mod patterns;
mod product;
mod registration;
mod registration_create;
mod registration_holds;
mod registration_update;
mod transaction;
mod values;

pub use check::{Check, Checked};
pub use codes::{EU_ONE_STOP_SHOP, filing_currency, is_country_code, is_currency};
pub use coverage::{CoverageGap, coverage_gap, first_covered, period_start};
pub use credentials::{CA_CODE, CredentialsRefusal, ID_CODE, credentials_update};
pub use credit::{credit_note_lines, credit_note_locked};
pub use customer::{customer_tax_registration, customer_write};
pub use economic::{
    APPROACHING_AT, EconomicJudgement, EconomicRule, economic_status, judges_previous,
    measuring_periods,
};
pub use estimate::estimate;
pub use exemption::exemption_create;
pub use limits::{
    DEFAULT_MAX_CHARS, is_canadian_postal_code, is_fein, is_us_zip, max_chars, postal_code_rule,
};
pub use nexus::{
    NexusRoute, apply_physical_nexus, effective_nexus_status, nexus_status, physical_nexus_create,
    physical_nexus_since, physical_nexus_update,
};
pub use patterns::pattern_in_words;
pub use product::{
    pairs as product_pair, product_create, product_update,
    subcategories_of as product_subcategories,
};
pub use registration::deregistration;
pub use registration_create::{
    IMPORT_TYPES, REQUESTABLE_REGIME_STATUS, has_own_schema, offered_frequencies,
    registration_create, schema_errors,
};
pub use registration_holds::{duplicate_registration, holds_jurisdiction};
pub use registration_update::registration_update;
pub use transaction::{ADDRESS_TEXT, credit_note, locked_reason, transaction_create};
pub(crate) use values::parse_decimal;
pub use values::{
    check_day_range, check_input_vat_recovery_rate, check_period_end_month, check_state_code,
    is_email, parse_date,
};

/// Assertions shared by the rule tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::model::FieldError;
    use serde_json::{Value, json};

    /// The one error of `errors`; fails when there is not exactly one.
    pub fn only(errors: &[FieldError]) -> &FieldError {
        assert_eq!(errors.len(), 1, "expected exactly one error: {errors:#?}");
        &errors[0]
    }

    /// The error at `loc` (a JSON array such as `["body", "end_date"]`), checked to be of kind
    /// `kind` and to echo `input`.
    pub fn expect<'e>(
        errors: &'e [FieldError],
        loc: Value,
        kind: &str,
        input: Value,
    ) -> &'e FieldError {
        let found = errors
            .iter()
            .find(|e| serde_json::to_value(&e.loc).ok().as_ref() == Some(&loc));
        let Some(e) = found else {
            panic!("no error at {loc}: {errors:#?}");
        };
        assert_eq!(e.kind, kind, "kind of the error at {loc}: {e:#?}");
        assert_eq!(e.input, input, "input of the error at {loc}: {e:#?}");
        e
    }

    /// Replaces every value in `valid`, at any depth, with values of every JSON type, and runs
    /// `validate` on each variant: a body the typed model cannot read must be refused field by
    /// field, never through the last-resort error of [`Check::finish`](super::Check::finish).
    pub fn sweep<T>(valid: &Value, validate: impl Fn(&Value) -> Result<T, Vec<FieldError>>) {
        let wrong = [
            Value::Null,
            json!(true),
            json!(-1),
            json!(2.5),
            json!(""),
            json!("x"),
            json!([]),
            json!([{}]),
            json!({}),
        ];
        let mut paths = Vec::new();
        leaf_paths(valid, String::new(), &mut paths);
        assert!(!paths.is_empty(), "nothing to sweep");
        for path in &paths {
            for value in &wrong {
                let mut body = valid.clone();
                if let Some(slot) = body.pointer_mut(path) {
                    *slot = value.clone();
                }
                if let Err(errors) = validate(&body) {
                    assert!(
                        errors
                            .iter()
                            .all(|e| e.loc.len() > 1 || e.kind != "value_error"),
                        "{path} = {value}: {errors:#?}"
                    );
                }
            }
        }
    }

    /// The JSON pointers of every value inside `v` (the root excluded).
    fn leaf_paths(v: &Value, at: String, out: &mut Vec<String>) {
        let children: Vec<(String, &Value)> = match v {
            Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => return,
        };
        for (key, child) in children {
            let path = format!("{at}/{key}");
            out.push(path.clone());
            leaf_paths(child, path, out);
        }
    }

    /// The errors of a validator's answer; fails when it accepted the body.
    pub fn errors_of<T: std::fmt::Debug>(checked: Result<T, Vec<FieldError>>) -> Vec<FieldError> {
        match checked {
            Ok(t) => panic!("accepted: {t:#?}"),
            Err(errors) => errors,
        }
    }
}
