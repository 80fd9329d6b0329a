//! Rules on changing a registration (PUT /v1/registrations/{id}): the keys of the live
//! document's `RegistrationUpdateAPI`, each read with its type, and the registration's own
//! fields, which an update sent back as read leaves as they are.

use serde_json::{Value, json};

use super::check::{Check, Checked};
use super::registration_create::{
    REQUESTABLE_REGIME_STATUS, has_own_schema, offered_frequencies, schema_errors,
};
use crate::model::{FilingFrequency, JurisdictionForm, RegistrationUpdate, RegistrationsRegime};

/// The registration's texts an update may change.
const TEXTS: &[&str] = &[
    "registration_key",
    "deregistration_key",
    "encrypted_username",
    "username",
    "comment",
    "tax_id",
    "sales_tax_id",
];

/// The timestamps a create or an update may set (`2025-02-18T19:43:32.684802`, with or without
/// an offset).
pub(super) const TIMESTAMPS: &[&str] = &[
    "registration_requested",
    "registration_completed",
    "deregistration_requested",
    "deregistration_completed",
];

/// The flags an update may change.
const FLAGS: &[&str] = &[
    "auto_registered",
    "third_party_enabled",
    "do_not_file",
    "two_factor_enabled",
    "marked_collecting",
    "is_approaching",
    "vda",
];

/// The fields of a registration the service sets, by the type the record gives them. Sent in an
/// update (a record sent back as it was read), they change nothing; a value that could not be
/// the field's is refused all the same, so that a client's mistake is not silently dropped.
mod set_by_the_service {
    pub const TEXTS: &[&str] = &[
        "id",
        "country_code",
        "state_code",
        "state_name",
        "filing_website_url",
        "marked_collecting_date",
        "ior_number",
        "oss_member_state_of_identification_code",
        "password_encrypted",
        "pin_encrypted",
        "registration_type",
        "initial_filing_frequency",
        "scheduled_filing_frequency",
        "oss_type",
        "tax_type",
        "registration_category",
    ];
    pub const WHOLE_NUMBERS: &[&str] = &["filing_days", "period_end_month"];
    pub const DECIMALS: &[&str] = &["amount_fees", "credits_total_available"];
    pub const FLAGS: &[&str] = &[
        "needs_mark_as_collecting",
        "create_back_filing",
        "retail_delivery_fee_obligated",
        "initial_sync",
        "imported",
        "sst_import",
        "has_all_credentials",
    ];
    pub const DATES: &[&str] = &[
        "filing_frequency_effective_date",
        "retail_delivery_fee_effective_from",
        "ior_date",
    ];
    pub const TIMESTAMPS: &[&str] = &["created_at"];
}

/// Body of PUT /v1/registrations/{id}: only the fields to change, read as
/// [`RegistrationUpdate`] (the live document's `RegistrationUpdateAPI`, with `sales_tax_id` and
/// `jurisdiction_specific_fields`); any other key changes nothing.
///
/// Each key has its type: texts, flags (`true`/`false`), dates `YYYY-MM-DD`, timestamps,
/// `registrations_regime` `STANDARD` or `SIMPLIFIED`; `registration_email` an address;
/// `sales_tax_id` not blank and of the form's shape; `filing_frequency` among the form's frequencies; `change_regime_status` only `REQUESTED`
/// (approving and completing a regime change is the service's); `status` is not changed here (a
/// deregistration is requested on its own). `jurisdiction_specific_fields` names the fields to
/// change: merged over `saved` (the registration's fields on file), the result must pass the
/// form's schema. The registration's other fields (its `id`, `filing_days`, `amount_fees`, ...)
/// are the service's: sent with the type the record gives them, they are left as they are;
/// with another type, refused.
pub fn registration_update(
    body: &Value,
    form: &JurisdictionForm,
    saved: Option<&Value>,
) -> Checked<RegistrationUpdate> {
    let mut c = Check::body(body)?;
    if c.raw("status").is_some() {
        c.rule(
            "status",
            "status is not changed by an update: ask for a deregistration instead",
        );
    }
    c.optional_date("registration_date");
    c.optional_date("create_filings_from");
    registration_email(&mut c);
    c.optional_strs(TEXTS);
    sales_tax_id(&mut c, form);
    for field in TIMESTAMPS {
        c.optional_timestamp(field);
    }
    for field in FLAGS {
        c.optional_bool(field);
    }
    regime(&mut c);
    let offered = offered_frequencies(form);
    if let Some(frequency) = c.optional_enum_of("filing_frequency", FilingFrequency::KNOWN)
        && !offered.is_empty()
        && !offered.iter().any(|f| f == frequency.as_str())
    {
        c.rule(
            "filing_frequency",
            format!(
                "filing_frequency {frequency} is not assigned here: {}",
                offered.join(", ")
            ),
        );
    }
    jurisdiction_fields(&mut c, form, saved);
    fields_set_by_the_service(&mut c);
    c.finish(body)
}

/// `registration_email`, an optional address.
pub(super) fn registration_email(c: &mut Check<'_>) {
    if let Some(email) = c.optional_str("registration_email")
        && !super::is_email(email)
    {
        c.rule(
            "registration_email",
            "registration_email must be an email address",
        );
    }
}

/// `sales_tax_id`, when sent as text: not blank, and of the shape the jurisdiction's form gives
/// its own `sales_tax_id` (California's `^[0-9]{3}-?[0-9]{6}$`), so that an id the state would
/// not recognise (a client's `"null"`, say) is refused rather than stored.
pub(super) fn sales_tax_id(c: &mut Check<'_>, form: &JurisdictionForm) {
    let Some(id) = c.raw("sales_tax_id").and_then(Value::as_str) else {
        return;
    };
    if id.trim().is_empty() {
        c.rule(
            "sales_tax_id",
            "sales_tax_id must not be blank: leave it out to keep the one on file",
        );
        return;
    }
    let shape = has_own_schema(form)
        .then(|| {
            form.jurisdiction_fields_json_schema
                .pointer("/properties/sales_tax_id")
        })
        .flatten();
    if let Some(shape) = shape {
        let loc = c.loc_of("sales_tax_id");
        for e in schema_errors(shape, &Value::String(id.to_owned()), &loc) {
            c.push(e);
        }
    }
}

/// `registrations_regime` `STANDARD` or `SIMPLIFIED`, and `change_regime_status` only
/// `REQUESTED`: approving and completing a regime change is the service's.
pub(super) fn regime(c: &mut Check<'_>) {
    c.optional_enum_of("registrations_regime", RegistrationsRegime::KNOWN);
    if let Some(status) = c.optional_str("change_regime_status")
        && status != REQUESTABLE_REGIME_STATUS
    {
        c.rule(
            "change_regime_status",
            format!(
                "change_regime_status can only be {REQUESTABLE_REGIME_STATUS}: {status} is set by the service"
            ),
        );
    }
}

/// `jurisdiction_specific_fields`: an object, merged over `saved` and checked against the form's
/// schema when the form has one.
fn jurisdiction_fields(c: &mut Check<'_>, form: &JurisdictionForm, saved: Option<&Value>) {
    let Some(changed) = c.raw("jurisdiction_specific_fields") else {
        return;
    };
    match changed {
        Value::Object(changes) if has_own_schema(form) => {
            let mut merged = saved
                .filter(|v| v.is_object())
                .cloned()
                .unwrap_or_else(|| json!({}));
            if let Some(m) = merged.as_object_mut() {
                for (k, v) in changes {
                    m.insert(k.clone(), v.clone());
                }
            }
            let loc = c.loc_of("jurisdiction_specific_fields");
            for e in schema_errors(&form.jurisdiction_fields_json_schema, &merged, &loc) {
                c.push(e);
            }
        }
        Value::Object(_) | Value::Null => {}
        other => c.fail(
            "jurisdiction_specific_fields",
            "model_attributes_type",
            "Input should be a valid dictionary",
            other,
        ),
    }
}

/// The type of each field the service sets (see [`set_by_the_service`]).
fn fields_set_by_the_service(c: &mut Check<'_>) {
    use set_by_the_service as s;
    c.optional_strs(s::TEXTS);
    for field in s::WHOLE_NUMBERS {
        c.optional_int(field);
    }
    c.optional_decimals(s::DECIMALS);
    for field in s::FLAGS {
        c.optional_bool(field);
    }
    for field in s::DATES {
        c.optional_date(field);
    }
    for field in s::TIMESTAMPS {
        c.optional_timestamp(field);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FieldError;
    use crate::sandbox::reference::jurisdiction_form;

    fn paths(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(FieldError::field_path).collect()
    }

    fn texas_fields() -> Value {
        json!({
            "registration_type": "REMOTE_SELLER",
            "business_name": "Acme",
            "texas_taxpayer_number": "12345678901",
            "webfile_number": "AB123456"
        })
    }

    #[test]
    fn an_update_checks_what_it_changes_over_what_is_saved() {
        let form = jurisdiction_form("US", "TX");
        let saved = texas_fields();
        let change = json!({ "jurisdiction_specific_fields": { "webfile_number": "ZZ999999" } });
        assert!(registration_update(&change, &form, Some(&saved)).is_ok());
        let bad = json!({
            "jurisdiction_specific_fields": { "registration_type": "SALES_TAX" },
            "change_regime_status": "APPROVED",
            "status": "DEREGISTERED"
        });
        let errors = registration_update(&bad, &form, Some(&saved)).unwrap_err();
        assert_eq!(
            paths(&errors),
            [
                "status",
                "change_regime_status",
                "jurisdiction_specific_fields.registered_location_number"
            ],
            "an in-state seller needs its outlet number"
        );
    }

    #[test]
    fn a_sales_tax_id_is_never_blank_and_has_the_forms_shape() {
        let california = jurisdiction_form("US", "CA");
        for sent in ["null", " ", "12-34"] {
            let errors = registration_update(&json!({ "sales_tax_id": sent }), &california, None)
                .unwrap_err();
            assert_eq!(paths(&errors), ["sales_tax_id"], "{sent:?}");
        }
        let taken = json!({ "sales_tax_id": "123-456789" });
        assert!(registration_update(&taken, &california, None).is_ok());
        let ohio = jurisdiction_form("US", "OH");
        assert!(registration_update(&json!({ "sales_tax_id": "" }), &ohio, None).is_err());
        assert!(registration_update(&json!({ "sales_tax_id": "null" }), &ohio, None).is_ok());
    }

    #[test]
    fn every_live_key_is_read_with_its_type() {
        let form = jurisdiction_form("US", "OH");
        let body = json!({
            "registration_date": "2025-03-01", "registration_email": "tax@example.com",
            "registration_key": "REG-1", "deregistration_key": "DEREG-1",
            "registration_requested": "2025-02-18T19:43:32.684802",
            "registration_completed": "2025-02-20T10:00:00Z",
            "deregistration_requested": "2026-01-05T09:00:00+01:00",
            "deregistration_completed": "2026-02-01",
            "auto_registered": true, "registrations_regime": "SIMPLIFIED",
            "change_regime_status": "REQUESTED", "third_party_enabled": false,
            "do_not_file": true, "two_factor_enabled": true, "marked_collecting": true,
            "encrypted_username": "x", "username": "u", "filing_frequency": "QUARTERLY",
            "create_filings_from": "2025-04-01", "is_approaching": false, "comment": "c",
            "vda": true, "tax_id": "T-1", "sales_tax_id": "S-1",
            "filing_days": 20, "amount_fees": "25.00", "id": "regs_demo1_00001",
            "an_unknown_key": [1, 2]
        });
        let read = registration_update(&body, &form, None).unwrap();
        assert_eq!(read.registration_key.as_deref(), Some("REG-1"));
        assert_eq!(
            read.deregistration_completed.map(|t| t.date().to_string()),
            Some("2026-02-01".to_owned())
        );
        assert_eq!(read.filing_frequency, Some(FilingFrequency::Quarterly));
        assert_eq!(read.marked_collecting, Some(true));
        for key in RegistrationUpdate::LIVE_KEYS {
            assert!(body.get(key).is_some(), "{key} is in the body above");
        }
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused_on_its_field() {
        let form = jurisdiction_form("US", "OH");
        for (field, value, kind) in [
            ("deregistration_completed", json!("x"), "datetime_parsing"),
            ("registration_requested", json!(5), "datetime_type"),
            ("filing_days", json!("abc"), "int_type"),
            ("amount_fees", json!("abc"), "decimal_parsing"),
            ("marked_collecting", json!("yes"), "bool_type"),
            ("registrations_regime", json!("LOOSE"), "enum"),
            ("filing_frequency", json!(["MONTHLY"]), "enum"),
            ("comment", json!({}), "string_type"),
            ("id", json!(7), "string_type"),
            ("created_at", json!("yesterday"), "datetime_parsing"),
        ] {
            let errors = registration_update(&json!({ field: value }), &form, None).unwrap_err();
            assert_eq!(paths(&errors), [field], "{field}");
            assert_eq!(errors[0].kind, kind, "{field}: {errors:?}");
        }
    }
}
