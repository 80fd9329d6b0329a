//! Form fields generated from a JSON Schema object (a jurisdiction's registration form).
//!
//! Each property becomes one field named `{prefix}.{property}` (nested objects are flattened into
//! dotted names, labelled `Parent › child`): strings as text (`format: date` as a date field),
//! `enum` or `oneOf`/`anyOf` of `const`s as selects (with their `title`s), booleans as checkboxes,
//! integers and numbers as decimals sent as exact JSON numbers, secrets (`writeOnly`, or names the
//! service treats as secret: passwords, PINs, access and security codes) masked. `required` marks
//! a field; a field required only under an `if`/`then` says so on its rule line, and the schema
//! itself, through [`crate::rules::schema_errors`], decides. Keywords this generator does not use
//! are ignored and logged.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value};

use super::{Choice, FieldKind, FieldSpec, FieldValue, FormValues};

/// Keywords the generator reads, or knows to have no bearing on a field.
const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "if",
    "then",
    "else",
    "allOf",
    "default",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "writeOnly",
    "readOnly",
    "examples",
];

/// How a generated field's text is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    String,
    Integer,
    Number,
    Boolean,
}

/// One field the schema asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaField {
    pub spec: FieldSpec,
    pub json: JsonType,
    pub default: Option<FieldValue>,
}

/// The fields generated from one schema, and the keywords it ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaFields {
    pub fields: Vec<SchemaField>,
    /// `(where, keyword)` of every keyword ignored, as logged.
    pub ignored: Vec<(String, String)>,
}

impl SchemaFields {
    /// The fields of `schema`, each named `{prefix}.{property}`. A schema that is not an object
    /// with properties (the default form's `{}`) gives no fields.
    pub fn generate(schema: &Value, prefix: &str) -> Self {
        let mut out = SchemaFields::default();
        if let Some(obj) = schema.as_object() {
            out.object(obj, prefix, "", &[]);
        }
        out
    }

    pub fn specs(&self) -> impl Iterator<Item = FieldSpec> + '_ {
        self.fields.iter().map(|f| f.spec.clone())
    }

    /// Turns the generated fields' text into the JSON type the schema asks for, in `body` as
    /// [`FormValues::to_json`] made it: integers and numbers as exact JSON numbers (left as text
    /// when they do not read as one, for the schema to refuse). Other fields are left as they are.
    pub fn typed(&self, values: &FormValues, body: &mut Value) {
        for field in &self.fields {
            if !matches!(field.json, JsonType::Integer | JsonType::Number) {
                continue;
            }
            let Some(text) = values.text(field.spec.name).map(str::trim) else {
                continue;
            };
            let Ok(number) = serde_json::from_str::<serde_json::Number>(text) else {
                continue;
            };
            let pointer = format!("/{}", field.spec.name.replace('.', "/"));
            if let Some(slot) = body.pointer_mut(&pointer) {
                *slot = Value::Number(number);
            }
        }
    }

    fn note_unknown(&mut self, obj: &Map<String, Value>, at: &str) {
        for key in obj.keys() {
            if !KNOWN.contains(&key.as_str()) && !key.starts_with("x-") {
                tracing::info!(keyword = %key, at = %at, "schema keyword ignored by the form");
                self.ignored.push((at.to_owned(), key.clone()));
            }
        }
    }

    fn object(
        &mut self,
        obj: &Map<String, Value>,
        prefix: &str,
        label_prefix: &str,
        conditional: &[(String, String)],
    ) {
        self.note_unknown(obj, if prefix.is_empty() { "(root)" } else { prefix });
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut conditions = conditional.to_vec();
        conditions.extend(conditional_requirements(obj));
        let Some(properties) = obj.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (key, prop) in properties {
            let Some(prop) = prop.as_object() else {
                continue;
            };
            let name = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            let label = format!("{label_prefix}{}", label_of(key, prop));
            if prop.get("type").and_then(Value::as_str) == Some("object") {
                self.object(prop, &name, &format!("{label} › "), &[]);
                continue;
            }
            self.note_unknown(prop, &name);
            let when: Vec<&str> = conditions
                .iter()
                .filter(|(field, _)| field == key)
                .map(|(_, when)| when.as_str())
                .collect();
            self.field(
                &name,
                &label,
                key,
                prop,
                required.contains(&key.as_str()),
                &when,
            );
        }
    }

    fn field(
        &mut self,
        name: &str,
        label: &str,
        key: &str,
        prop: &Map<String, Value>,
        required: bool,
        required_when: &[&str],
    ) {
        let ty = prop.get("type").and_then(Value::as_str).unwrap_or("string");
        let json = match ty {
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "boolean" => JsonType::Boolean,
            _ => JsonType::String,
        };
        let choices = choices_of(prop, required);
        let kind = if let Some(choices) = choices {
            FieldKind::Select(choices)
        } else if json == JsonType::Boolean {
            FieldKind::Checkbox
        } else if matches!(json, JsonType::Integer | JsonType::Number) {
            FieldKind::Decimal
        } else if crate::model::secrets::is_secret_property(key, prop) {
            FieldKind::Masked
        } else if prop.get("format").and_then(Value::as_str) == Some("date") {
            FieldKind::Date
        } else {
            FieldKind::Text
        };
        let mut rule = Vec::new();
        if let Some(d) = prop.get("description").and_then(Value::as_str) {
            rule.push(d.trim().to_owned());
        }
        rule.extend(constraints(prop, json));
        for when in required_when {
            rule.push(format!("required when {when}"));
        }
        let default = prop.get("default").and_then(|d| match (d, &kind) {
            (Value::Bool(b), FieldKind::Checkbox) => Some(FieldValue::Bool(*b)),
            (Value::String(s), FieldKind::Select(_)) => Some(FieldValue::Choice(s.clone())),
            (Value::String(s), _) => Some(FieldValue::Text(s.clone())),
            (Value::Number(n), _) => Some(FieldValue::Text(n.to_string())),
            _ => None,
        });
        let mut spec =
            FieldSpec::new(intern(name), intern(label), kind).rule(intern(&rule.join(" · ")));
        if let Some(max) = prop
            .get("maxLength")
            .and_then(Value::as_u64)
            .and_then(|m| usize::try_from(m).ok())
        {
            spec = spec.max_chars(max);
        }
        if required {
            spec = spec.required();
        }
        self.fields.push(SchemaField {
            spec,
            json,
            default,
        });
    }
}

/// The field names an object's `if`/`then` (alone or in `allOf`) requires, each with the
/// condition in words: `registration_type is SALES_TAX`.
fn conditional_requirements(obj: &Map<String, Value>) -> Vec<(String, String)> {
    let mut branches: Vec<&Map<String, Value>> = vec![obj];
    branches.extend(
        obj.get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object),
    );
    let mut out = Vec::new();
    for branch in branches {
        let (Some(cond), Some(then)) = (branch.get("if"), branch.get("then")) else {
            continue;
        };
        let words: Vec<String> = cond["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| {
                let value = v
                    .get("const")
                    .or_else(|| v.get("enum").and_then(|e| e.get(0)))?;
                let value = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                let prop = obj
                    .get("properties")
                    .and_then(|p| p.get(k))
                    .and_then(Value::as_object);
                let label = prop.map_or_else(|| label_of(k, &Map::new()), |p| label_of(k, p));
                let value = prop
                    .and_then(|p| choices_of(p, true))
                    .and_then(|c| c.into_iter().find(|c| c.value == value))
                    .map_or(value, |c| c.label);
                Some(format!(
                    "{} is {value}",
                    crate::model::format::label(&label)
                ))
            })
            .collect();
        let words = if words.is_empty() {
            "a condition holds".to_owned()
        } else {
            words.join(" and ")
        };
        for field in then["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            out.push((field.to_owned(), words.clone()));
        }
    }
    out
}

/// A select's choices: an `enum` (each value its own label), or a `oneOf`/`anyOf` of `const`s
/// with `title` and `description`. An optional select offers "not given" first.
fn choices_of(prop: &Map<String, Value>, required: bool) -> Option<Vec<Choice>> {
    let mut choices: Vec<Choice> = if let Some(values) = prop.get("enum").and_then(Value::as_array)
    {
        values
            .iter()
            .filter_map(Value::as_str)
            .map(|v| Choice::new(v, v, ""))
            .collect()
    } else {
        let options = prop
            .get("oneOf")
            .or_else(|| prop.get("anyOf"))
            .and_then(Value::as_array)?;
        let consts: Vec<Choice> = options
            .iter()
            .filter_map(|o| {
                let value = o.get("const")?.as_str()?;
                let title = o.get("title").and_then(Value::as_str).unwrap_or(value);
                let about = o.get("description").and_then(Value::as_str).unwrap_or("");
                Some(Choice::new(value, title, about))
            })
            .collect();
        if consts.len() != options.len() {
            return None;
        }
        consts
    };
    if choices.is_empty() {
        return None;
    }
    if !required {
        choices.insert(0, Choice::new("", "(not given)", ""));
    }
    Some(choices)
}

/// The schema's limits on a field, in words.
fn constraints(prop: &Map<String, Value>, json: JsonType) -> Vec<String> {
    let mut out = Vec::new();
    let num = |k: &str| prop.get(k).and_then(Value::as_u64);
    match (num("minLength"), num("maxLength")) {
        (Some(a), Some(b)) if a > 1 => out.push(format!("{a}-{b} characters")),
        (_, Some(b)) => out.push(format!("at most {b} characters")),
        (Some(a), None) if a > 1 => out.push(format!("at least {a} characters")),
        _ => {}
    }
    if let Some(p) = prop.get("pattern").and_then(Value::as_str) {
        out.push(crate::rules::pattern_in_words(p).unwrap_or_else(|| format!("in the form {p}")));
    }
    match prop.get("format").and_then(Value::as_str) {
        Some("date") => out.push("YYYY-MM-DD".into()),
        Some("email") => out.push("an email address".into()),
        _ => {}
    }
    if json == JsonType::Integer {
        out.push("a whole number".into());
    }
    if let Some(min) = prop.get("minimum") {
        out.push(format!("at least {min}"));
    }
    if let Some(max) = prop.get("maximum") {
        out.push(format!("at most {max}"));
    }
    out
}

/// Words of a property name that are written in capitals: `sltr_elected` → `SLTR elected`.
const ACRONYMS: &[&str] = &[
    "cdtfa", "ein", "fein", "id", "mfa", "pin", "sltr", "ssn", "ubi", "url", "vat",
];

/// The schema's `title`, or the property's name in words (`texas_taxpayer_number` → `Texas
/// taxpayer number`, `sltr_elected` → `SLTR elected`).
pub fn label_of(key: &str, prop: &Map<String, Value>) -> String {
    if let Some(t) = prop.get("title").and_then(Value::as_str) {
        return t.to_owned();
    }
    let words: Vec<String> = key
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            if ACRONYMS.contains(&w) {
                w.to_uppercase()
            } else {
                w.to_owned()
            }
        })
        .collect();
    let words = words.join(" ");
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// The label of the field `path` (`texas_taxpayer_number`, or `owner.name` in a nested object)
/// of a jurisdiction's schema, as its form shows it: for the review of what will be sent and the
/// registration's detail.
pub fn field_label(schema: &Value, path: &str) -> String {
    let mut labels = Vec::new();
    let mut at = schema;
    for key in path.split('.') {
        let prop = at
            .get("properties")
            .and_then(|p| p.get(key))
            .and_then(Value::as_object);
        labels.push(prop.map_or_else(|| label_of(key, &Map::new()), |p| label_of(key, p)));
        at = prop.map_or(&Value::Null, |_| &at["properties"][key]);
    }
    labels.join(" › ")
}

/// A `'static` copy of `s`, made once per distinct text: field descriptors name their field and
/// label with `&'static str`, and a schema's texts are few and repeat on every opening.
pub fn intern(s: &str) -> &'static str {
    static TEXTS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(found) = texts.get(s) {
        return found;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    texts.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::reference::jurisdiction_form;
    use serde_json::json;

    fn field<'a>(fields: &'a SchemaFields, name: &str) -> &'a SchemaField {
        fields
            .fields
            .iter()
            .find(|f| f.spec.name == name)
            .unwrap_or_else(|| panic!("no field {name} in {fields:#?}"))
    }

    #[test]
    fn every_sandbox_schema_generates_its_fields() {
        for state in ["CA", "ID", "TX", "AL", "WA", "NY"] {
            let form = jurisdiction_form("US", state);
            let schema = &form.jurisdiction_fields_json_schema;
            let fields = SchemaFields::generate(schema, "jurisdiction_specific_fields");
            let properties = schema["properties"].as_object().unwrap();
            assert_eq!(fields.fields.len(), properties.len(), "{state}");
            for key in schema["required"].as_array().unwrap() {
                let name = format!("jurisdiction_specific_fields.{}", key.as_str().unwrap());
                assert!(field(&fields, &name).spec.required, "{state} {name}");
            }
            assert!(fields.ignored.is_empty(), "{state}: {:?}", fields.ignored);
        }
        let default = jurisdiction_form("US", "OH");
        assert!(
            SchemaFields::generate(&default.jurisdiction_fields_json_schema, "j")
                .fields
                .is_empty()
        );
    }

    #[test]
    fn texas_fields_have_their_kinds_rules_and_secrets() {
        let form = jurisdiction_form("US", "TX");
        let fields = SchemaFields::generate(&form.jurisdiction_fields_json_schema, "j");
        let webfile = field(&fields, "j.webfile_number");
        assert_eq!(webfile.spec.kind, FieldKind::Text);
        assert_eq!(webfile.spec.label, "Webfile number");
        assert!(
            webfile
                .spec
                .rule
                .contains("2 capital letters, then 6 digits"),
            "{}",
            webfile.spec.rule
        );
        assert!(webfile.spec.rule.starts_with("WebFile number from"));
        let sltr = field(&fields, "j.sltr_elected");
        assert_eq!(
            sltr.spec.choices()[0].value,
            "",
            "optional select offers nothing first"
        );
        let location = field(&fields, "j.registered_location_number");
        assert!(
            location
                .spec
                .rule
                .contains("required when registration type is SALES_TAX"),
            "{}",
            location.spec.rule
        );
        let alabama = jurisdiction_form("US", "AL");
        let fields = SchemaFields::generate(&alabama.jurisdiction_fields_json_schema, "j");
        assert_eq!(
            field(&fields, "j.third_party_password").spec.kind,
            FieldKind::Masked
        );
        assert_eq!(field(&fields, "j.access_code").spec.kind, FieldKind::Masked);
        assert_eq!(field(&fields, "j.sign_on_id").spec.kind, FieldKind::Text);
    }

    fn edge() -> Value {
        json!({
            "type": "object",
            "required": ["kind", "owner"],
            "properties": {
                "kind": {
                    "oneOf": [
                        {"const": "LLC", "title": "Limited liability company", "description": "An LLC."},
                        {"const": "CORP", "title": "Corporation"}
                    ]
                },
                "owner": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "minLength": 2, "maxLength": 40},
                        "since": {"type": "string", "format": "date"},
                        "email": {"type": "string", "format": "email"}
                    }
                },
                "employees": {"type": "integer", "minimum": 0, "default": 1},
                "share": {"type": "number"},
                "token": {"type": "string", "writeOnly": true},
                "code": {"type": "string", "pattern": "^[0-9]{4}$", "x-ui-order": 3, "deprecatedHint": true}
            },
            "if": {"properties": {"kind": {"const": "CORP"}}},
            "then": {"required": ["share"]},
            "unevaluatedSomething": 1
        })
    }

    #[test]
    fn edge_schema_nested_titles_pattern_and_conditions() {
        let fields = SchemaFields::generate(&edge(), "f");
        let kind = field(&fields, "f.kind");
        assert!(kind.spec.required);
        assert_eq!(kind.spec.choices()[0].label, "Limited liability company");
        assert_eq!(kind.spec.choices()[0].explanation, "An LLC.");
        assert_eq!(
            kind.spec.choices().len(),
            2,
            "a required select offers no blank"
        );
        let name = field(&fields, "f.owner.name");
        assert_eq!(name.spec.label, "Owner › Name");
        assert!(name.spec.required);
        assert!(name.spec.rule.contains("2-40 characters"));
        assert_eq!(field(&fields, "f.owner.since").spec.kind, FieldKind::Date);
        assert_eq!(field(&fields, "f.employees").json, JsonType::Integer);
        assert_eq!(
            field(&fields, "f.employees").default,
            Some(FieldValue::Text("1".into()))
        );
        assert_eq!(field(&fields, "f.token").spec.kind, FieldKind::Masked);
        assert!(
            field(&fields, "f.share")
                .spec
                .rule
                .contains("required when kind is Corporation"),
            "{}",
            field(&fields, "f.share").spec.rule
        );
        let mut ignored: Vec<&str> = fields.ignored.iter().map(|(_, k)| k.as_str()).collect();
        ignored.sort_unstable();
        assert_eq!(ignored, ["deprecatedHint", "unevaluatedSomething"]);
    }

    #[test]
    fn a_fields_label_is_the_same_in_the_form_the_review_and_the_detail() {
        let texas = jurisdiction_form("US", "TX").jurisdiction_fields_json_schema;
        let fields = SchemaFields::generate(&texas, "j");
        for key in ["sltr_elected", "texas_taxpayer_number", "webfile_number"] {
            assert_eq!(
                field_label(&texas, key),
                field(&fields, &format!("j.{key}")).spec.label
            );
        }
        assert_eq!(field_label(&texas, "sltr_elected"), "SLTR elected");
        assert_eq!(field_label(&edge(), "owner.name"), "Owner › Name");
        assert_eq!(field_label(&edge(), "not_in_schema"), "Not in schema");
    }

    #[test]
    fn numbers_are_sent_exact_and_the_schema_judges_the_body() {
        let fields = SchemaFields::generate(&edge(), "f");
        let values = FormValues::new(vec![
            ("f.kind", FieldValue::Choice("CORP".into())),
            ("f.owner.name", FieldValue::Text("Jo".into())),
            ("f.employees", FieldValue::Text("12".into())),
            ("f.share", FieldValue::Text("0.125".into())),
            ("f.code", FieldValue::Text("12a".into())),
        ]);
        let mut body = values.to_json();
        fields.typed(&values, &mut body);
        assert_eq!(body["f"]["employees"], json!(12));
        assert_eq!(body["f"]["share"].to_string(), "0.125");
        let errors = crate::rules::schema_errors(&edge(), &body["f"], &["body".into(), "f".into()]);
        let paths: Vec<String> = errors
            .iter()
            .map(crate::model::FieldError::field_path)
            .collect();
        assert_eq!(paths, ["f.code"], "{errors:#?}");
        let without_share = json!({"kind": "CORP", "owner": {"name": "Jo"}});
        let errors =
            crate::rules::schema_errors(&edge(), &without_share, &["body".into(), "f".into()]);
        let paths: Vec<String> = errors
            .iter()
            .map(crate::model::FieldError::field_path)
            .collect();
        assert_eq!(
            paths,
            ["f.share"],
            "the conditional requirement lands on its field"
        );
    }
}
