//! The new-exemption form. The customer is found by typing part of a name or email: the pane
//! looks the text up and offers the matches as the choices of the customer field. The body is
//! checked with the service's own rule before anything is sent.

use serde_json::Value;

use crate::model::{Customer, ExemptionCreate, ExemptionStatus, ExemptionType, FieldError};
use crate::rules;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The field whose text looks customers up; it is never sent.
pub const CUSTOMER_SEARCH: &str = "customer_search";

/// The field offering the customers found.
pub const CUSTOMER: &str = "customer_id";

/// The body the form's values make: the lookup text left out, codes in capitals (so `us` is
/// sent, and checked, as `US`).
fn create_json(values: &FormValues) -> Value {
    let mut body = values.to_json();
    if let Some(map) = body.as_object_mut() {
        map.remove(CUSTOMER_SEARCH);
        for code in ["country_code", "jurisdiction"] {
            if let Some(Value::String(v)) = map.get_mut(code) {
                *v = v.trim().to_uppercase();
            }
        }
    }
    body
}

/// The exemption the form describes, or the rule errors that keep it from being sent.
pub fn create_body(values: &FormValues) -> Result<ExemptionCreate, Vec<FieldError>> {
    rules::exemption_create(&create_json(values))
}

/// A customer as a choice: the id sent, the name (or company, or email) shown.
pub fn customer_choice(c: &Customer) -> Choice {
    let name = [&c.name, &c.company_name, &c.email]
        .into_iter()
        .flatten()
        .find(|n| !n.trim().is_empty())
        .map_or(c.id.as_str(), String::as_str);
    let detail = [&c.email, &c.address.country]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    Choice::new(c.id.clone(), name, detail)
}

/// The `n` form.
pub fn create_form() -> Form {
    let types = ExemptionType::CREATABLE
        .iter()
        .map(|t| Choice::new(t.as_str(), t.as_str(), ""))
        .collect();
    let statuses = ExemptionStatus::KNOWN
        .iter()
        .map(|s| Choice::new(s.as_str(), s.as_str(), ""))
        .collect();
    let text = |name, label, rule| FieldSpec::new(name, label, FieldKind::Text).rule(rule);
    let date = |name, label, rule| FieldSpec::new(name, label, FieldKind::Date).rule(rule);
    Form::new(vec![
        text(
            CUSTOMER_SEARCH,
            "Find customer",
            "part of a name or email; the matches fill the next field",
        ),
        FieldSpec::new(CUSTOMER, "Customer", FieldKind::Select(Vec::new()))
            .rule("←/→ to choose among the customers found")
            .required(),
        FieldSpec::new("exemption_type", "Type", FieldKind::Select(types))
            .rule("←/→: customer, wholesale or transaction")
            .required(),
        FieldSpec::new("status", "Status", FieldKind::Select(statuses))
            .rule("←/→ to choose")
            .required(),
        text(
            "country_code",
            "Country",
            "optional; where the certificate holds: an ISO code such as US or CA",
        ),
        text(
            "jurisdiction",
            "Jurisdiction",
            "optional; the state or province, such as TX or ON",
        ),
        date("start_date", "Start date", "YYYY-MM-DD").required(),
        date(
            "end_date",
            "End date",
            "optional; YYYY-MM-DD, not before the start",
        ),
        text("FEIN", "FEIN", "federal employer id, such as 12-3456789").required(),
        text("sales_tax_id", "Sales tax ID", "the certificate's number").required(),
        FieldSpec::new("reseller", "Reseller", FieldKind::Checkbox).rule("space to toggle"),
    ])
    .with_validator(|values| create_body(values).err().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;
    use chrono::NaiveDate;

    fn filled() -> Form {
        let mut form = create_form();
        form.set_choices(
            CUSTOMER,
            vec![Choice::new("cust_1", "Ada Lovelace", "ada@example.com")],
        );
        [
            (CUSTOMER_SEARCH, FieldValue::from("ada")),
            (CUSTOMER, FieldValue::Choice("cust_1".into())),
            ("exemption_type", FieldValue::Choice("wholesale".into())),
            ("status", FieldValue::Choice("ACTIVE".into())),
            ("start_date", FieldValue::from("2025-01-01")),
            ("end_date", FieldValue::from("2026-12-31")),
            ("FEIN", FieldValue::from("12-3456789")),
            ("sales_tax_id", FieldValue::from("TX-1")),
            ("jurisdiction", FieldValue::from("tx")),
            ("country_code", FieldValue::from("us")),
        ]
        .into_iter()
        .fold(form, |form, (name, value)| form.with_value(name, value))
    }

    #[test]
    fn a_filled_form_reads_as_the_request_with_codes_in_capitals() {
        let body = create_body(&filled().values()).unwrap();
        assert_eq!(body.customer_id, "cust_1");
        assert_eq!(body.exemption_type, ExemptionType::Wholesale);
        assert_eq!(body.end_date, NaiveDate::from_ymd_opt(2026, 12, 31));
        assert_eq!(body.jurisdiction.as_deref(), Some("TX"));
        assert_eq!(body.country_code.as_deref(), Some("US"));
        assert_eq!(body.reseller, Some(false));
    }

    #[test]
    fn an_end_before_the_start_is_refused_under_the_end_date() {
        let form = filled().with_value("end_date", FieldValue::from("2024-12-31"));
        let errors = create_body(&form.values()).unwrap_err();
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["end_date"]);
    }

    #[test]
    fn an_empty_form_names_every_required_field() {
        let errors = create_body(&create_form().values()).unwrap_err();
        let mut paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                "FEIN",
                "customer_id",
                "exemption_type",
                "sales_tax_id",
                "start_date",
                "status"
            ]
        );
    }

    #[test]
    fn a_customer_is_offered_by_name_and_sent_by_id() {
        let c: Customer = serde_json::from_value(serde_json::json!({
            "id": "cust_9", "company_name": "Acme", "email": "ap@acme.test", "country": "US"
        }))
        .unwrap();
        let choice = customer_choice(&c);
        assert_eq!(choice.value, "cust_9");
        assert_eq!(choice.label, "Acme");
        assert_eq!(choice.explanation, "ap@acme.test, US");
    }
}
