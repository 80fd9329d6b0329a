//! The write forms: a new customer, and a customer's tax registration. Each checks the body it
//! would send with the service's own rule before anything is sent.

use serde_json::Value;

use crate::model::{
    Customer, CustomerStatus, CustomerTaxRegistrationWrite, CustomerWrite, FieldError,
};
use crate::rules;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The body a new-customer form sends: its values with the country code in capitals, so `ca` is
/// sent, and checked, as `CA`.
fn create_json(values: &FormValues) -> Value {
    let mut body = values.to_json();
    if let Some(Value::String(country)) = body.get_mut("country") {
        *country = country.trim().to_uppercase();
    }
    body
}

/// The new customer the form describes, or the rule errors that keep it from being sent.
pub fn create_body(values: &FormValues) -> Result<CustomerWrite, Vec<FieldError>> {
    rules::customer_write(&create_json(values))
}

/// The address form of one customer, holding the address on file; its body is checked with
/// the same rule as a new customer's, and holds only the address.
pub fn address_form(c: &Customer) -> Form {
    let text = |name, label| FieldSpec::new(name, label, FieldKind::Text).rule("optional");
    let mut form = Form::new(vec![
        text("street_1", "Street"),
        text("street_2", "Street (second line)"),
        text("city", "City"),
        text("county", "County"),
        text("state", "State"),
        text("postal_code", "Postal code"),
        FieldSpec::new("country", "Country", FieldKind::Text).rule("ISO code such as US"),
    ])
    .with_validator(|values| create_body(values).err().unwrap_or_default());
    for (name, value) in [
        ("street_1", &c.address.street_1),
        ("street_2", &c.address.street_2),
        ("city", &c.address.city),
        ("county", &c.address.county),
        ("state", &c.address.state),
        ("postal_code", &c.address.postal_code),
        ("country", &c.address.country),
    ] {
        if let Some(v) = value {
            form = form.with_value(name, v.as_str());
        }
    }
    form
}

/// The `n` form: every field optional, an email or a country given must be well formed.
pub fn create_form() -> Form {
    let statuses = std::iter::once(Choice::new("", "not given", "the service decides"))
        .chain(
            CustomerStatus::KNOWN
                .iter()
                .map(|s| Choice::new(s.as_str(), s.as_str(), "")),
        )
        .collect();
    let text = |name, label, rule| FieldSpec::new(name, label, FieldKind::Text).rule(rule);
    Form::new(vec![
        text("name", "Name", "optional"),
        text("company_name", "Company", "optional"),
        text(
            "email",
            "Email",
            "optional; an address such as name@example.com",
        ),
        text("phone", "Phone", "optional"),
        text("street_1", "Street", "optional"),
        text("street_2", "Street (2)", "optional"),
        text("city", "City", "optional"),
        text("county", "County", "optional"),
        text("state", "State", "optional; such as CA or ON"),
        text("postal_code", "Postal code", "optional"),
        text(
            "country",
            "Country",
            "optional; an ISO code such as US, CA or DE",
        ),
        text("external_id", "External ID", "optional; your system's id"),
        text("registration_number", "Registration number", "optional"),
        FieldSpec::new("status", "Status", FieldKind::Select(statuses)).rule("←/→ to choose"),
    ])
    .with_validator(|values| create_body(values).err().unwrap_or_default())
}

/// The tax registration a form describes, or the rule errors that keep it from being sent.
pub fn tax_body(values: &FormValues) -> Result<CustomerTaxRegistrationWrite, Vec<FieldError>> {
    rules::customer_tax_registration(&values.to_json())
}

/// The `e` form: the tax id to add, or to put in place of the one of the same tax type and
/// country (the service tells the type from the customer's country and the id's form).
pub fn tax_form() -> Form {
    Form::new(vec![
        FieldSpec::new("tax_id", "Tax ID", FieldKind::Text)
            .rule("such as 123456789RT0001 (GST/HST) or DE123456789 (VAT)")
            .required(),
    ])
    .with_validator(|values| tax_body(values).err().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    #[test]
    fn an_empty_customer_is_a_valid_one() {
        assert_eq!(
            create_body(&create_form().values()),
            Ok(CustomerWrite::default())
        );
    }

    #[test]
    fn a_bad_email_or_country_is_refused_under_its_field() {
        let form = create_form()
            .with_value("email", FieldValue::from("ada@"))
            .with_value("country", FieldValue::from("Canada"));
        let errors = create_body(&form.values()).unwrap_err();
        let mut paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        paths.sort();
        assert_eq!(paths, ["country", "email"]);
    }

    #[test]
    fn a_country_that_is_not_a_code_is_refused_in_words_naming_the_field() {
        let mut form = create_form().with_value("country", FieldValue::from("Q1"));
        let errors = create_body(&form.values()).unwrap_err();
        form.set_errors(&errors);
        let shown = form.errors_for("country");
        assert_eq!(shown.len(), 1, "{shown:?}");
        assert!(
            shown[0].starts_with("Country should be an ISO 3166-1 alpha-2 country code"),
            "{shown:?}"
        );
    }

    #[test]
    fn the_country_is_sent_in_capitals() {
        let form = create_form()
            .with_value("name", FieldValue::from("Ada"))
            .with_value("country", FieldValue::from(" ca "))
            .with_value("status", FieldValue::Choice("ARCHIVED".into()));
        let body = create_body(&form.values()).unwrap();
        assert_eq!(body.address.country.as_deref(), Some("CA"));
        assert_eq!(body.name.as_deref(), Some("Ada"));
        assert_eq!(body.status, Some(CustomerStatus::Archived));
        assert_eq!(body.email, None);
    }

    #[test]
    fn a_tax_id_must_not_be_blank() {
        let errors = tax_body(&tax_form().values()).unwrap_err();
        assert_eq!(errors[0].field_path(), "tax_id");
        let blank = tax_form().with_value("tax_id", FieldValue::from("  "));
        assert!(tax_body(&blank.values()).is_err());
        let given = tax_form().with_value("tax_id", FieldValue::from("123456789RT0001"));
        assert_eq!(tax_body(&given.values()).unwrap().tax_id, "123456789RT0001");
    }
}
