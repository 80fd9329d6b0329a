//! A form's values, by field name, and the JSON body they make.

use serde_json::{Map, Value};

use crate::model::FieldError;

/// The value of one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// What a text, date, decimal, multi-line or masked field holds, as typed.
    Text(String),
    /// A checkbox.
    Bool(bool),
    /// The value of a select's choice; empty while nothing is chosen.
    Choice(String),
    /// The values of a multi-select's chosen choices, in the choices' order; empty while
    /// nothing is chosen.
    List(Vec<String>),
}

impl FieldValue {
    /// The text of a text field or the value of a choice.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            FieldValue::Text(s) | FieldValue::Choice(s) => Some(s),
            FieldValue::Bool(_) | FieldValue::List(_) => None,
        }
    }

    /// The JSON this value is sent as, or `None` when it is left out of the body: empty text
    /// and no choice are absent, which is how the service tells "not given".
    pub fn to_json(&self) -> Option<Value> {
        match self {
            FieldValue::Text(s) | FieldValue::Choice(s) if s.is_empty() => None,
            FieldValue::Text(s) | FieldValue::Choice(s) => Some(Value::String(s.clone())),
            FieldValue::Bool(b) => Some(Value::Bool(*b)),
            FieldValue::List(values) if values.is_empty() => None,
            FieldValue::List(values) => Some(Value::Array(
                values.iter().cloned().map(Value::String).collect(),
            )),
        }
    }
}

impl From<&str> for FieldValue {
    fn from(s: &str) -> Self {
        FieldValue::Text(s.to_owned())
    }
}

impl From<String> for FieldValue {
    fn from(s: String) -> Self {
        FieldValue::Text(s)
    }
}

impl From<Vec<String>> for FieldValue {
    fn from(values: Vec<String>) -> Self {
        FieldValue::List(values)
    }
}

impl From<bool> for FieldValue {
    fn from(b: bool) -> Self {
        FieldValue::Bool(b)
    }
}

/// Every field's value, in the form's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormValues {
    entries: Vec<(&'static str, FieldValue)>,
}

impl FormValues {
    pub(super) fn new(entries: Vec<(&'static str, FieldValue)>) -> Self {
        FormValues { entries }
    }

    pub fn get(&self, name: &str) -> Option<&FieldValue> {
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The text or choice of field `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(FieldValue::as_str)
    }

    /// The state of checkbox `name`.
    pub fn bool(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            Some(FieldValue::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// The chosen values of multi-select `name`, in the choices' order; empty when nothing is
    /// chosen or there is no such field.
    pub fn list(&self, name: &str) -> Vec<&str> {
        match self.get(name) {
            Some(FieldValue::List(values)) => values.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &FieldValue)> {
        self.entries.iter().map(|(n, v)| (*n, v))
    }

    /// The request body these values make, exactly as it would be sent: empty text and unchosen
    /// selects left out, checkboxes as booleans, everything else as strings. A dotted name
    /// (`transaction_items.0.amount`) is placed nested, a number being an array index.
    pub fn to_json(&self) -> Value {
        let mut body = Value::Object(Map::new());
        for (name, value) in &self.entries {
            if let Some(json) = value.to_json() {
                let path: Vec<&str> = name.split('.').collect();
                insert_at(&mut body, &path, json);
            }
        }
        body
    }
}

/// Puts `value` at `path` inside `into`, creating the objects and arrays on the way (an array
/// grows with nulls up to the index). A slot already holding another type is replaced.
fn insert_at(into: &mut Value, path: &[&str], value: Value) {
    let Some((head, rest)) = path.split_first() else {
        *into = value;
        return;
    };
    let slot = if let Ok(index) = head.parse::<usize>() {
        if !into.is_array() {
            *into = Value::Array(Vec::new());
        }
        let Value::Array(items) = into else {
            unreachable!("made an array above")
        };
        if items.len() <= index {
            items.resize(index + 1, Value::Null);
        }
        &mut items[index]
    } else {
        if !into.is_object() {
            *into = Value::Object(Map::new());
        }
        let Value::Object(map) = into else {
            unreachable!("made an object above")
        };
        map.entry(head.to_string()).or_insert(Value::Null)
    };
    insert_at(slot, rest, value);
}

/// Turns one of the body validators of [`crate::rules`] (`rules::deregistration`) into a form
/// validator: it checks the body the values make, exactly as it would be sent.
pub fn body_rule<T>(
    validate: impl Fn(Option<&Value>) -> Result<T, Vec<FieldError>> + Send + 'static,
) -> impl Fn(&FormValues) -> Vec<FieldError> + Send + 'static {
    move |values| validate(Some(&values.to_json())).err().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_text_and_no_choice_are_left_out() {
        let values = FormValues::new(vec![
            ("closure_date", FieldValue::Text("2026-06-30".into())),
            ("note", FieldValue::Text(String::new())),
            ("reason", FieldValue::Choice(String::new())),
            ("final_return_acknowledged", FieldValue::Bool(false)),
            ("status", FieldValue::List(Vec::new())),
        ]);
        assert_eq!(
            values.to_json(),
            json!({"closure_date": "2026-06-30", "final_return_acknowledged": false})
        );
        let chosen = FormValues::new(vec![(
            "status",
            FieldValue::List(vec!["EXPOSED".into(), "PENDING_REGISTRATION".into()]),
        )]);
        assert_eq!(
            chosen.to_json(),
            json!({"status": ["EXPOSED", "PENDING_REGISTRATION"]})
        );
        assert_eq!(chosen.list("status"), ["EXPOSED", "PENDING_REGISTRATION"]);
        assert!(chosen.list("other").is_empty());
    }

    #[test]
    fn dotted_names_are_sent_nested() {
        let values = FormValues::new(vec![
            (
                "transaction_items.0.amount",
                FieldValue::Text("12.50".into()),
            ),
            ("transaction_items.0.quantity", FieldValue::Text("2".into())),
            ("transaction_items.1.amount", FieldValue::Text("3".into())),
            ("address.country", FieldValue::Choice("US".into())),
        ]);
        assert_eq!(
            values.to_json(),
            json!({
                "transaction_items": [{"amount": "12.50", "quantity": "2"}, {"amount": "3"}],
                "address": {"country": "US"}
            })
        );
    }

    #[test]
    fn a_body_rule_reports_the_rules_errors() {
        let check = body_rule(crate::rules::deregistration);
        let values = FormValues::new(vec![
            ("closure_date", FieldValue::Text("2026-02-31".into())),
            ("reason", FieldValue::Choice("FULL_BUSINESS_CLOSURE".into())),
            ("final_return_acknowledged", FieldValue::Bool(true)),
        ]);
        let errors = check(&values);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert_eq!(errors[0].field_path(), "closure_date");
    }
}
