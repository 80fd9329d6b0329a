//! Rules on a registration's portal credentials (Tenanted `PUT /registrations/{id}/credentials`).
//!
//! The body is read as sent, in camelCase, so `loc` paths are camelCase too
//! (`["body", "jurisdictionSpecificFields", "accessCode"]`). The rules of the interface:
//!
//! 1. Only the keys sent change; leaving a key out, or sending it as `null`, keeps its saved
//!    value (the `jurisdictionSpecificFields` object too).
//! 2. Codes are stored encrypted and never returned by the update (the sandbox's concern).
//! 3. An unsupported key or a blank value answers 422 ([`CredentialsRefusal::Invalid`]). The
//!    portal access codes only exist from release 2026-10-05: before it they are unsupported keys.
//! 4. A code for a state other than the registration's answers 400
//!    ([`CredentialsRefusal::WrongState`]): California's `cdtfaThirdPartyAccessSecurityCode` only
//!    on a registration in CA, Idaho's `accessCode` only on one in ID.
//! 5. A registration that lacks business name, registration type or sales tax id on file answers
//!    400: see [`crate::model::Registration::missing_for_credentials`], which the count of
//!    registrations missing credentials reads too.

use serde_json::{Map, Value};

use crate::model::tenanted::{ApiVersion, CredentialsUpdate, PortalCodes};
use crate::model::{FieldError, LocPart};

/// The top-level keys the update accepts, in camelCase.
const TOP_KEYS: [&str; 4] = ["username", "password", "pin", "jurisdictionSpecificFields"];

/// The object holding the portal access codes.
const JSF: &str = "jurisdictionSpecificFields";

/// California's CDTFA third-party access security code.
pub const CA_CODE: &str = "cdtfaThirdPartyAccessSecurityCode";

/// Idaho's portal access code.
pub const ID_CODE: &str = "accessCode";

/// Why a credentials update is refused.
#[derive(Debug, Clone, PartialEq)]
pub enum CredentialsRefusal {
    /// Rule 3 and the types: answered 422 with every error found.
    Invalid(Vec<FieldError>),
    /// Rule 4: a code for another state than the registration's, answered 400.
    WrongState(FieldError),
}

fn loc(parts: &[&str]) -> Vec<LocPart> {
    std::iter::once("body")
        .chain(parts.iter().copied())
        .map(LocPart::from)
        .collect()
}

/// The state a portal code belongs to, with the state's name.
fn code_state(key: &str) -> Option<(&'static str, &'static str)> {
    match key {
        CA_CODE => Some(("CA", "California")),
        ID_CODE => Some(("ID", "Idaho")),
        _ => None,
    }
}

/// Collects the errors of one object's values, all optional non-blank strings.
struct Reader {
    errors: Vec<FieldError>,
}

impl Reader {
    /// Reads `key` of `map` at `path`: `None` when absent or `null`, else a non-blank string.
    fn text(&mut self, map: &Map<String, Value>, path: &[&str]) -> Option<String> {
        let key = path.last().copied().unwrap_or_default();
        match map.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => {
                let dotted = path.join(".");
                self.errors.push(FieldError::new(
                    "value_error",
                    loc(path),
                    format!(
                        "Value error, {dotted} must not be blank: send the value to save, or leave \
                         the key out (or null) to keep the saved one"
                    ),
                    Value::String(s.clone()),
                ));
                None
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.errors.push(FieldError::new(
                    "string_type",
                    loc(path),
                    format!(
                        "Input should be a valid string: {} must be text",
                        path.join(".")
                    ),
                    other.clone(),
                ));
                None
            }
        }
    }

    /// Records every key of `map` that is not in `allowed` as unsupported.
    fn unsupported(
        &mut self,
        map: &Map<String, Value>,
        at: &[&str],
        allowed: &[&str],
        why: impl Fn(&str) -> String,
    ) {
        for (key, value) in map {
            if allowed.contains(&key.as_str()) {
                continue;
            }
            let mut path = at.to_vec();
            path.push(key);
            self.errors.push(FieldError::new(
                "extra_forbidden",
                loc(&path),
                format!("Extra inputs are not permitted: {}", why(key)),
                value.clone(),
            ));
        }
    }
}

/// Checks the body of `PUT /registrations/{id}/credentials` (camelCase, as sent) for a
/// registration in `registration_state` (`"CA"`, `"ID"`, `""` for a country-level one) under
/// release `version`, and answers the update to apply (only the keys sent and not null).
///
/// An absent body is refused like a body that is not an object; `{}` is accepted and changes
/// nothing.
// The refusal carries one whole field error (rule 4) by design: it is built once per request.
#[expect(clippy::result_large_err)]
pub fn credentials_update(
    body: Option<&Value>,
    registration_state: &str,
    version: ApiVersion,
) -> Result<CredentialsUpdate, CredentialsRefusal> {
    let map = match body {
        Some(Value::Object(map)) => map,
        None | Some(Value::Null) => {
            return Err(CredentialsRefusal::Invalid(vec![FieldError::new(
                "missing",
                loc(&[]),
                "Field required: send an object with the credentials to change (username, \
                 password, pin, jurisdictionSpecificFields)",
                Value::Null,
            )]));
        }
        Some(other) => {
            return Err(CredentialsRefusal::Invalid(vec![FieldError::new(
                "model_attributes_type",
                loc(&[]),
                "Input should be a valid dictionary or object to extract fields from",
                other.clone(),
            )]));
        }
    };
    let codes_supported = version.includes(ApiVersion::PORTAL_CODES);
    let mut r = Reader { errors: Vec::new() };
    r.unsupported(map, &[], &TOP_KEYS, |key| {
        format!(
            "{key} is not a credential this endpoint updates; send username, password, pin or \
             {JSF}"
        )
    });
    let username = r.text(map, &["username"]);
    let password = r.text(map, &["password"]);
    let pin = r.text(map, &["pin"]);

    let mut codes: Option<PortalCodes> = None;
    let mut wrong_state = None;
    match map.get(JSF) {
        None | Some(Value::Null) => {}
        Some(Value::Object(fields)) => {
            let allowed: &[&str] = if codes_supported {
                &[CA_CODE, ID_CODE]
            } else {
                &[]
            };
            r.unsupported(fields, &[JSF], allowed, |key| {
                if code_state(key).is_some() {
                    format!(
                        "{JSF}.{key} is a portal access code, accepted from release {} on; \
                         this request runs release {version}",
                        ApiVersion::PORTAL_CODES
                    )
                } else if codes_supported {
                    format!(
                        "{JSF}.{key} is not a portal access code; send {CA_CODE} (California) or \
                         {ID_CODE} (Idaho)"
                    )
                } else {
                    format!(
                        "{JSF}.{key} is not accepted; portal access codes exist from release {} on",
                        ApiVersion::PORTAL_CODES
                    )
                }
            });
            if codes_supported {
                let ca = r.text(fields, &[JSF, CA_CODE]);
                let id = r.text(fields, &[JSF, ID_CODE]);
                for (key, value) in [(CA_CODE, &ca), (ID_CODE, &id)] {
                    let Some((state, name)) = code_state(key) else {
                        continue;
                    };
                    if value.is_some() && registration_state != state && wrong_state.is_none() {
                        let here = if registration_state.is_empty() {
                            "a country-level registration".to_owned()
                        } else {
                            format!("a registration in {registration_state}")
                        };
                        wrong_state = Some(FieldError::new(
                            "value_error",
                            loc(&[JSF, key]),
                            format!(
                                "Value error, {JSF}.{key} is {name}'s portal access code and is \
                                 accepted only on a registration in {state}; this is {here}"
                            ),
                            fields.get(key).cloned().unwrap_or(Value::Null),
                        ));
                    }
                }
                codes = Some(PortalCodes {
                    cdtfa_third_party_access_security_code: ca,
                    access_code: id,
                });
            }
        }
        Some(other) => r.errors.push(FieldError::new(
            "model_attributes_type",
            loc(&[JSF]),
            "Input should be a valid dictionary or object to extract fields from",
            other.clone(),
        )),
    }
    if !r.errors.is_empty() {
        return Err(CredentialsRefusal::Invalid(r.errors));
    }
    if let Some(e) = wrong_state {
        return Err(CredentialsRefusal::WrongState(e));
    }
    Ok(CredentialsUpdate {
        username,
        password,
        pin,
        jurisdiction_specific_fields: codes.filter(|c| {
            c.cdtfa_third_party_access_security_code.is_some() || c.access_code.is_some()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{expect, only};
    use serde_json::json;

    const CODES: ApiVersion = ApiVersion::PORTAL_CODES;
    const BEFORE: ApiVersion = ApiVersion::DEREGISTER_BODY_REQUIRED;

    fn invalid(r: Result<CredentialsUpdate, CredentialsRefusal>) -> Vec<FieldError> {
        match r {
            Err(CredentialsRefusal::Invalid(errors)) => errors,
            other => panic!("expected a 422 refusal: {other:#?}"),
        }
    }

    fn wrong_state(r: Result<CredentialsUpdate, CredentialsRefusal>) -> FieldError {
        match r {
            Err(CredentialsRefusal::WrongState(e)) => e,
            other => panic!("expected a 400 refusal: {other:#?}"),
        }
    }

    #[test]
    fn rule_1_only_the_keys_sent_are_in_the_update() {
        let body = json!({"password": "s3cret", "username": null});
        let update = credentials_update(Some(&body), "CA", CODES).unwrap();
        assert_eq!(update.password.as_deref(), Some("s3cret"));
        assert_eq!(update.username, None);
        assert_eq!(update.pin, None);
        assert_eq!(update.jurisdiction_specific_fields, None);

        for body in [json!({}), json!({JSF: null}), json!({JSF: {}})] {
            let update = credentials_update(Some(&body), "CA", CODES).unwrap();
            assert_eq!(update, CredentialsUpdate::default(), "{body}");
        }
        let body = json!({JSF: {CA_CODE: "ABCD1234", ID_CODE: null}});
        let update = credentials_update(Some(&body), "CA", CODES).unwrap();
        let codes = update.jurisdiction_specific_fields.unwrap();
        assert_eq!(
            codes.cdtfa_third_party_access_security_code.as_deref(),
            Some("ABCD1234")
        );
        assert_eq!(codes.access_code, None);
    }

    #[test]
    fn rule_3_an_unsupported_key_is_refused_where_it_is() {
        let body = json!({"password": "x", "token": "t", JSF: {"vendorCode": "9"}});
        let errs = invalid(credentials_update(Some(&body), "CA", CODES));
        assert_eq!(errs.len(), 2, "{errs:#?}");
        let e = expect(
            &errs,
            json!(["body", "token"]),
            "extra_forbidden",
            json!("t"),
        );
        assert!(e.msg.contains("token is not a credential"), "{}", e.msg);
        let e = expect(
            &errs,
            json!(["body", JSF, "vendorCode"]),
            "extra_forbidden",
            json!("9"),
        );
        assert!(
            e.msg.contains(CA_CODE) && e.msg.contains(ID_CODE),
            "{}",
            e.msg
        );
    }

    #[test]
    fn rule_3_a_blank_value_is_refused() {
        let body = json!({"pin": "  ", JSF: {ID_CODE: ""}});
        let errs = invalid(credentials_update(Some(&body), "ID", CODES));
        assert_eq!(errs.len(), 2, "{errs:#?}");
        let e = expect(&errs, json!(["body", "pin"]), "value_error", json!("  "));
        assert!(e.msg.contains("pin must not be blank"), "{}", e.msg);
        let e = expect(
            &errs,
            json!(["body", JSF, ID_CODE]),
            "value_error",
            json!(""),
        );
        assert!(
            e.msg
                .contains("jurisdictionSpecificFields.accessCode must not be blank"),
            "{}",
            e.msg
        );
    }

    #[test]
    fn rule_3_codes_before_their_release_are_unsupported_keys() {
        let body = json!({JSF: {CA_CODE: "ABCD1234"}});
        let errs = invalid(credentials_update(Some(&body), "CA", BEFORE));
        let e = only(&errs);
        expect(
            &errs,
            json!(["body", JSF, CA_CODE]),
            "extra_forbidden",
            json!("ABCD1234"),
        );
        assert!(e.msg.contains("2026-10-05"), "{}", e.msg);
        assert!(e.msg.contains("2026-09-22"), "{}", e.msg);
        // The same code is accepted from its release on.
        assert!(credentials_update(Some(&body), "CA", CODES).is_ok());
        assert!(credentials_update(Some(&body), "CA", ApiVersion::LATEST).is_ok());
        // The other credentials are unaffected by the release.
        assert!(credentials_update(Some(&json!({"pin": "1234"})), "CA", BEFORE).is_ok());
    }

    #[test]
    fn wrong_types_are_field_errors() {
        let body = json!({"username": 5, "password": true, JSF: "ABCD"});
        let errs = invalid(credentials_update(Some(&body), "CA", CODES));
        assert_eq!(errs.len(), 3, "{errs:#?}");
        expect(&errs, json!(["body", "username"]), "string_type", json!(5));
        expect(
            &errs,
            json!(["body", "password"]),
            "string_type",
            json!(true),
        );
        expect(
            &errs,
            json!(["body", JSF]),
            "model_attributes_type",
            json!("ABCD"),
        );
        let errs = invalid(credentials_update(
            Some(&json!({JSF: {ID_CODE: 12345678}})),
            "ID",
            CODES,
        ));
        expect(
            &errs,
            json!(["body", JSF, ID_CODE]),
            "string_type",
            json!(12345678),
        );
        for body in [None, Some(json!(null)), Some(json!(["pin"]))] {
            let errs = invalid(credentials_update(body.as_ref(), "CA", CODES));
            assert_eq!(
                serde_json::to_value(&only(&errs).loc).unwrap(),
                json!(["body"])
            );
        }
    }

    #[test]
    fn rule_4_a_code_for_another_state_is_a_400() {
        let e = wrong_state(credentials_update(
            Some(&json!({JSF: {CA_CODE: "ABCD1234"}})),
            "ID",
            CODES,
        ));
        assert_eq!(
            serde_json::to_value(&e.loc).unwrap(),
            json!(["body", JSF, CA_CODE])
        );
        assert!(e.msg.contains("California"), "{}", e.msg);
        assert!(e.msg.contains("a registration in ID"), "{}", e.msg);

        let e = wrong_state(credentials_update(
            Some(&json!({JSF: {ID_CODE: "12345678"}})),
            "",
            CODES,
        ));
        assert!(e.msg.contains("Idaho"), "{}", e.msg);
        assert!(e.msg.contains("country-level"), "{}", e.msg);
        assert!(
            credentials_update(Some(&json!({JSF: {ID_CODE: "12345678"}})), "ID", CODES).is_ok()
        );
    }

    #[test]
    fn a_422_comes_before_a_400() {
        let body = json!({"pin": "", JSF: {CA_CODE: "ABCD1234"}});
        let errs = invalid(credentials_update(Some(&body), "ID", CODES));
        expect(&errs, json!(["body", "pin"]), "value_error", json!(""));
    }
}
