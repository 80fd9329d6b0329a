//! Which fields hold secrets: portal passwords, PINs, access and security codes, security
//! questions and their answers. One rule for every place that must not show or keep them: the
//! forms (masked input), a registration's detail (shown as "on file"), and the audit log (the
//! value removed before the body is stored).

use serde_json::{Map, Value};

/// What replaces a secret's value in a stored body.
pub const REMOVED: &str = "[removed]";

/// Whether a field named `name` (`snake_case` or `camelCase`) holds a secret.
pub fn is_secret(name: &str) -> bool {
    let snake = super::casing::camel_to_snake(name).to_ascii_lowercase();
    snake.split('_').any(|w| {
        matches!(
            w,
            "password" | "passwd" | "passcode" | "pin" | "secret" | "answer" | "answers"
        )
    }) || [
        "access_code",
        "security_code",
        "security_question",
        "api_key",
    ]
    .iter()
    .any(|s| snake.contains(s))
}

/// Whether a JSON Schema property holds a secret: `writeOnly`, `format: password`, or a secret's
/// name.
pub fn is_secret_property(name: &str, property: &Map<String, Value>) -> bool {
    property.get("writeOnly").and_then(Value::as_bool) == Some(true)
        || property.get("format").and_then(Value::as_str) == Some("password")
        || is_secret(name)
}

/// `body` with the value of every secret field, at any depth, replaced by [`REMOVED`] (`null`
/// stays `null`: it says "left unchanged", which is no secret).
pub fn redact(body: &Value) -> Value {
    match body {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if is_secret(k) && !v.is_null() {
                        Value::String(REMOVED.to_owned())
                    } else {
                        redact(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_known_in_both_spellings() {
        for name in [
            "password",
            "pin",
            "third_party_password",
            "password_encrypted",
            "cdtfaThirdPartyAccessSecurityCode",
            "cdtfa_third_party_access_security_code",
            "accessCode",
            "access_code",
            "securityQuestions",
            "security_questions",
            "answer",
            "PIN",
        ] {
            assert!(is_secret(name), "{name}");
        }
        for name in [
            "country_code",
            "stateCode",
            "postal_code",
            "username",
            "pinned",
            "spinner",
            "shipping",
            "business_name",
        ] {
            assert!(!is_secret(name), "{name}");
        }
    }

    #[test]
    fn redaction_reaches_every_depth_and_keeps_the_rest() {
        let body = json!({
            "username": "jo",
            "password": "hunter2",
            "jurisdictionSpecificFields": {"accessCode": "ID-123", "cdtfaThirdPartyAccessSecurityCode": null},
            "security_questions": [{"question": "pet?", "answer": "rex"}],
            "items": [{"pin": "4321", "state_code": "CA"}],
        });
        let out = redact(&body);
        let text = out.to_string();
        for secret in ["hunter2", "ID-123", "pet?", "rex", "4321"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(out["username"], "jo");
        assert_eq!(out["password"], REMOVED);
        assert_eq!(out["items"][0]["state_code"], "CA");
        assert_eq!(
            out["jurisdictionSpecificFields"]["cdtfaThirdPartyAccessSecurityCode"],
            Value::Null
        );
    }
}
