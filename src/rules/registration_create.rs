//! Rules on creating a registration: the common fields, and the jurisdiction's own fields checked
//! against the JSON Schema of its registration form.
//!
//! The schema is checked by the `jsonschema` crate, never by hand-written keyword checks, so the
//! dashboard's form and the sandbox agree by construction: both call [`registration_create`] with
//! the same [`JurisdictionForm`].

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use serde_json::{Value, json};

use jsonschema::error::ValidationErrorKind as Kind;

use super::check::{Check, Checked};
use crate::model::{FieldError, JurisdictionForm, LocPart, OssType, TaxType};

/// The discriminator of the create payloads.
pub const IMPORT_TYPES: &[&str] = &["REGULAR", "OSS", "SST"];

/// The filing frequencies a jurisdiction assigns, from its form's metadata.
pub fn offered_frequencies(form: &JurisdictionForm) -> Vec<String> {
    form.metadata["filing_frequencies"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// Whether the form carries a schema of its own (not the default form's empty one).
pub fn has_own_schema(form: &JurisdictionForm) -> bool {
    !form.default_form
        && form
            .jurisdiction_fields_json_schema
            .as_object()
            .is_some_and(|o| !o.is_empty())
}

/// The validator of `schema`, compiled once: a form checks its values at every key typed, and
/// compiling costs far more than checking. `None` (logged) when it does not compile.
fn compiled(schema: &Value) -> Option<Arc<jsonschema::Validator>> {
    /// The schemas compiled so far, by their text; the jurisdictions' forms are few.
    static COMPILED: LazyLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> =
        LazyLock::new(Mutex::default);
    const KEPT: usize = 64;
    let key = schema.to_string();
    let mut compiled = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(validator) = compiled.get(&key) {
        return Some(Arc::clone(validator));
    }
    match jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
    {
        Ok(validator) => {
            if compiled.len() >= KEPT {
                compiled.clear();
            }
            let validator = Arc::new(validator);
            compiled.insert(key, Arc::clone(&validator));
            Some(validator)
        }
        Err(e) => {
            tracing::warn!("a registration form's schema does not compile: {e}");
            None
        }
    }
}

/// Every way `fields` breaks `schema`, as field errors under `loc` (the path of the object that
/// holds the fields, `["body", "jurisdiction_specific_fields"]`). Each error's `loc` names the
/// field (a missing required property is named itself, not its parent) and its message says the
/// rule in words (`must be 1 to 5 digits`), its `ctx` the schema's keyword and pattern. A schema the validator cannot compile is logged and checks nothing.
pub fn schema_errors(schema: &Value, fields: &Value, loc: &[LocPart]) -> Vec<FieldError> {
    let Some(validator) = compiled(schema) else {
        return Vec::new();
    };
    validator
        .iter_errors(fields)
        .map(|error| {
            let mut at = loc.to_vec();
            for segment in error.instance_path() {
                at.push(match segment {
                    jsonschema::paths::LocationSegment::Property(p) => LocPart::Key(p.into()),
                    jsonschema::paths::LocationSegment::Index(i) => i.into(),
                });
            }
            let keyword = error.kind().keyword().to_owned();
            let (kind, msg) = match error.kind() {
                Kind::Required { property } => {
                    at.push(LocPart::Key(
                        property.as_str().unwrap_or_default().to_owned(),
                    ));
                    ("missing", "Field required".to_owned())
                }
                other => (
                    kind_of(&keyword),
                    format!("Value error, {}", rule_in_words(other)),
                ),
            };
            // The value is not echoed: a schema's field may hold a secret.
            let input = Value::Null;
            let mut ctx = json!({ "rule": keyword });
            if let Kind::Pattern { pattern } = error.kind() {
                ctx["pattern"] = json!(pattern);
            }
            FieldError::new(kind, at, msg, input).with_ctx(ctx)
        })
        .collect()
}

/// What a schema rule asks, without the value that broke it.
fn rule_in_words(kind: &Kind) -> String {
    match kind {
        Kind::Pattern { pattern } => super::pattern_in_words(pattern).map_or_else(
            || format!("must match the pattern {pattern}"),
            |words| format!("must be {words}"),
        ),
        Kind::MinLength { limit } => format!("must have at least {limit} characters"),
        Kind::MaxLength { limit } => format!("must have at most {limit} characters"),
        Kind::Enum { options } => format!("must be one of {options}"),
        Kind::Constant { expected_value } => format!("must be {expected_value}"),
        Kind::Type { kind } => format!("must be of type {kind:?}").to_lowercase(),
        Kind::Format { format } => format!("must be a valid {format}"),
        Kind::Minimum { limit } => format!("must be at least {limit}"),
        Kind::Maximum { limit } => format!("must be at most {limit}"),
        Kind::AdditionalProperties { unexpected } => {
            format!("does not take {}", unexpected.join(", "))
        }
        other => format!("breaks the schema's {} rule", other.keyword()),
    }
}

/// The 422 `type` of a schema keyword's failure, after the service's own names.
fn kind_of(keyword: &str) -> &'static str {
    match keyword {
        "pattern" => "string_pattern_mismatch",
        "minLength" => "string_too_short",
        "maxLength" => "string_too_long",
        "enum" | "const" => "enum",
        "type" => "type_error",
        "format" => "format_error",
        "additionalProperties" => "extra_forbidden",
        _ => "value_error",
    }
}

/// Body of POST /v1/registrations, as the live service takes it: `registration_import_type`
/// `REGULAR` (the default when absent), `OSS` or `SST`, checked against `form`, the registration
/// form of the body's jurisdiction.
///
/// REGULAR: `country_code`, `state_code`, `state_name` and `filing_frequency` required, the
/// frequency among the form's `metadata.filing_frequencies`; `tax_type` among the form's
/// `tax_types`; dates `YYYY-MM-DD`; `registration_email` an address;
/// `jurisdiction_specific_fields` an object that passes the form's schema (required when the
/// schema requires anything). OSS: `member_state_of_identification_code` required, `oss_type`
/// `UNION`, `NON_UNION` or `IOSS`. SST: `username` required. Every other key of the payloads
/// has its type too: texts, flags, timestamps, `registrations_regime`, `change_regime_status`
/// only `REQUESTED`.
pub fn registration_create(body: &Value, form: &JurisdictionForm) -> Checked<Value> {
    let mut c = Check::body(body)?;
    let import = c
        .optional_str("registration_import_type")
        .unwrap_or("REGULAR");
    match import {
        "REGULAR" => regular(&mut c, form),
        "OSS" => {
            c.country("member_state_of_identification_code");
            c.optional_enum_of("oss_type", OssType::KNOWN);
            c.optional_str("username");
            c.optional_str("password_plain_text");
        }
        "SST" => {
            c.required_str("username");
            c.optional_str("password_plain_text");
        }
        other => c.fail(
            "registration_import_type",
            "enum",
            format!("Input should be {}", IMPORT_TYPES.join(", ")),
            &Value::String(other.to_owned()),
        ),
    }
    c.optional_date("registration_date");
    super::registration_update::registration_email(&mut c);
    c.optional_strs(&[
        "comment",
        "sales_tax_id",
        "registration_key",
        "deregistration_key",
        "tax_id",
        "password_metadata_plain_text",
    ]);
    super::registration_update::sales_tax_id(&mut c, form);
    for field in super::registration_update::TIMESTAMPS {
        c.optional_timestamp(field);
    }
    for field in [
        "imported",
        "auto_registered",
        "do_not_file",
        "vda",
        "sst_import",
    ] {
        c.optional_bool(field);
    }
    super::registration_update::regime(&mut c);
    c.finish(body)
}

/// What a user may ask of `change_regime_status`: the others are the service's to set.
pub const REQUESTABLE_REGIME_STATUS: &str = "REQUESTED";

fn regular(c: &mut Check<'_>, form: &JurisdictionForm) {
    c.country("country_code");
    c.required_str("state_code");
    c.required_str("state_name");
    c.optional_str("username");
    let offered = offered_frequencies(form);
    if let Some(frequency) = c.required_str("filing_frequency")
        && !offered.is_empty()
        && !offered.iter().any(|f| f == frequency)
    {
        c.rule(
            "filing_frequency",
            format!(
                "filing_frequency {frequency} is not assigned in {}-{}: it assigns {}",
                form.country_code,
                form.state_code,
                offered.join(", ")
            ),
        );
    }
    if let Some(tax_type) = c.optional_str("tax_type")
        && !form.tax_types.is_empty()
        && !form.tax_types.iter().any(|t| t.as_str() == tax_type)
    {
        let names: Vec<&str> = form.tax_types.iter().map(TaxType::as_str).collect();
        c.rule(
            "tax_type",
            format!(
                "tax_type {tax_type} cannot be registered in {}-{}: it takes {}",
                form.country_code,
                form.state_code,
                names.join(", ")
            ),
        );
    }
    c.optional_date("create_filings_from");
    c.optional_bool("create_back_filing");
    c.optional_bool("initial_sync");
    c.optional_decimal("amount_fees");
    if has_own_schema(form) {
        let empty = json!({});
        let fields = match c.raw("jurisdiction_specific_fields") {
            None | Some(Value::Null) => &empty,
            Some(v) => v,
        };
        let loc = c.loc_of("jurisdiction_specific_fields");
        let errors = schema_errors(&form.jurisdiction_fields_json_schema, fields, &loc);
        for e in errors {
            c.push(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::reference::jurisdiction_form;

    fn texas() -> Value {
        json!({
            "registration_import_type": "REGULAR",
            "country_code": "US",
            "state_code": "TX",
            "state_name": "Texas",
            "filing_frequency": "MONTHLY",
            "tax_type": "SALES_AND_USE_TAX",
            "registration_date": "2026-11-01",
            "jurisdiction_specific_fields": {
                "registration_type": "REMOTE_SELLER",
                "business_name": "Acme",
                "texas_taxpayer_number": "12345678901",
                "webfile_number": "AB123456"
            }
        })
    }

    fn paths(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(FieldError::field_path).collect()
    }

    #[test]
    fn a_complete_texas_body_passes() {
        let form = jurisdiction_form("US", "TX");
        assert!(registration_create(&texas(), &form).is_ok());
    }

    #[test]
    fn schema_failures_land_on_the_field_and_name_the_rule() {
        let form = jurisdiction_form("US", "TX");
        let mut body = texas();
        body["jurisdiction_specific_fields"]["webfile_number"] = json!("12");
        body["jurisdiction_specific_fields"]
            .as_object_mut()
            .unwrap()
            .remove("business_name");
        let errors = registration_create(&body, &form).unwrap_err();
        let found = paths(&errors);
        assert!(found.contains(&"jurisdiction_specific_fields.webfile_number".to_owned()));
        assert!(found.contains(&"jurisdiction_specific_fields.business_name".to_owned()));
        let pattern = errors
            .iter()
            .find(|e| e.field_path().ends_with("webfile_number"))
            .unwrap();
        assert_eq!(pattern.kind, "string_pattern_mismatch");
        assert_eq!(
            pattern.msg,
            "Value error, must be 2 capital letters, then 6 digits"
        );
        let ctx = pattern.ctx.as_ref().expect("the rule in ctx");
        assert_eq!(ctx["rule"], "pattern");
        assert_eq!(ctx["pattern"], "^[A-Z]{2}[0-9]{6}$");
    }

    #[test]
    fn a_frequency_or_tax_type_the_jurisdiction_does_not_offer_is_refused() {
        let form = jurisdiction_form("US", "TX");
        let mut body = texas();
        body["filing_frequency"] = json!("BI_MONTHLY");
        body["tax_type"] = json!("USE_TAX");
        let errors = registration_create(&body, &form).unwrap_err();
        assert_eq!(paths(&errors), ["filing_frequency", "tax_type"]);
        assert!(
            errors[0].msg.contains("MONTHLY, QUARTERLY"),
            "{}",
            errors[0].msg
        );
    }

    #[test]
    fn missing_jurisdiction_fields_are_each_required() {
        let form = jurisdiction_form("US", "TX");
        let mut body = texas();
        body.as_object_mut()
            .unwrap()
            .remove("jurisdiction_specific_fields");
        let errors = registration_create(&body, &form).unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors.iter().all(|e| e.kind == "missing"));
    }

    #[test]
    fn the_default_form_takes_no_jurisdiction_fields_check() {
        let form = jurisdiction_form("US", "OH");
        let mut body = texas();
        body["state_code"] = json!("OH");
        body["tax_type"] = json!("SALES_TAX");
        body["jurisdiction_specific_fields"] = json!({});
        assert!(registration_create(&body, &form).is_ok());
    }

    #[test]
    fn an_oss_body_needs_its_member_state() {
        let form = jurisdiction_form("ZZ_EU", "");
        let body = json!({ "registration_import_type": "OSS", "oss_type": "UNION" });
        let errors = registration_create(&body, &form).unwrap_err();
        assert_eq!(paths(&errors), ["member_state_of_identification_code"]);
        let ok = json!({
            "registration_import_type": "OSS",
            "oss_type": "IOSS",
            "member_state_of_identification_code": "FR"
        });
        assert!(registration_create(&ok, &form).is_ok());
    }
}
