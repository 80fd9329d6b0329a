//! The physical nexus form: create (with the jurisdiction) or edit (without it), checked as typed
//! by the service's own rules, with the category chosen among those the jurisdiction offers.

use crate::model::{
    FieldError, PhysicalNexus, PhysicalNexusCategoryInfo, PhysicalNexusCreate, PhysicalNexusUpdate,
};
use crate::rules;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// The category field's wire name.
pub const CATEGORY: &str = "category";

/// Whether the form creates a record or edits one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Editing {
    Create,
    /// Editing the record with this id, named in words (`Inventory in US-TX, Austin`).
    Update {
        id: String,
        words: String,
    },
}

/// A form open on a physical nexus, with what it knows about its jurisdiction.
pub struct NexusForm {
    pub form: Form,
    pub editing: Editing,
    /// The jurisdiction whose categories were last asked for, to ask only once per jurisdiction.
    pub categories_for: Option<(String, String)>,
}

/// The fields every physical nexus form has, after the jurisdiction.
fn period_and_place(categories: Vec<Choice>) -> Vec<FieldSpec> {
    vec![
        FieldSpec::new("start_date", "Start date", FieldKind::Date)
            .rule("YYYY-MM-DD; when the presence began")
            .required(),
        FieldSpec::new("end_date", "End date", FieldKind::Date)
            .rule("YYYY-MM-DD, not before the start date; empty while it lasts"),
        FieldSpec::new(CATEGORY, "Category", FieldKind::Select(categories))
            .rule("←/→ to choose; offered for the country and state")
            .required(),
        FieldSpec::new("street_1", "Street", FieldKind::Text),
        FieldSpec::new("street_2", "Street (second line)", FieldKind::Text),
        FieldSpec::new("city", "City", FieldKind::Text),
        FieldSpec::new("postal_code", "Postal code", FieldKind::Text),
    ]
}

/// Errors of the create rules over the values, as they would be sent.
fn check_create(values: &FormValues) -> Vec<FieldError> {
    rules::physical_nexus_create(&values.to_json())
        .err()
        .unwrap_or_default()
}

/// Errors of the update rules over the values, as they would be sent.
fn check_update(values: &FormValues) -> Vec<FieldError> {
    rules::physical_nexus_update(&values.to_json())
        .err()
        .unwrap_or_default()
}

/// The category choices: each with its title (marked when a record already uses it) and its
/// explanation, the description and an example.
pub fn category_choices(categories: &[PhysicalNexusCategoryInfo]) -> Vec<Choice> {
    categories
        .iter()
        .map(|c| {
            // One label per category everywhere: the list's and the detail's, not the
            // jurisdiction's own title.
            let title = c.name.label();
            let label = if c.is_category_assigned {
                format!("{title} (assigned)")
            } else {
                title
            };
            let explanation = match (c.description.is_empty(), c.example.is_empty()) {
                (_, true) => c.description.clone(),
                (true, false) => format!("Example: {}", c.example),
                (false, false) => format!("{} Example: {}", c.description, c.example),
            };
            Choice::new(c.name.as_str(), label, explanation)
        })
        .collect()
}

impl NexusForm {
    /// An empty form for a new record; the categories come once country and state are typed.
    pub fn create() -> Self {
        let mut specs = vec![
            FieldSpec::new("country_code", "Country", FieldKind::Text)
                .rule("ISO code such as US or CA")
                .required(),
            FieldSpec::new("state_code", "State", FieldKind::Text)
                .rule("subdivision code such as CO or ON (not US-CO)")
                .required(),
        ];
        specs.extend(period_and_place(Vec::new()));
        NexusForm {
            form: Form::new(specs).with_validator(check_create),
            editing: Editing::Create,
            categories_for: None,
        }
    }

    /// A form holding `record`'s values; its category is the only choice until the
    /// jurisdiction's categories arrive.
    pub fn edit(record: &PhysicalNexus, words: String) -> Self {
        let current = Choice::new(record.category.as_str(), record.category.label(), "");
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let form = Form::new(period_and_place(vec![current]))
            .with_validator(check_update)
            .with_value("start_date", record.start_date.to_string())
            .with_value(
                "end_date",
                record.end_date.map(|d| d.to_string()).unwrap_or_default(),
            )
            .with_value(
                CATEGORY,
                FieldValue::Choice(record.category.as_str().to_owned()),
            )
            .with_value("street_1", text(&record.street_1))
            .with_value("street_2", text(&record.street_2))
            .with_value("city", text(&record.city))
            .with_value("postal_code", text(&record.postal_code));
        NexusForm {
            form,
            editing: Editing::Update {
                id: record.id.clone(),
                words,
            },
            categories_for: Some((record.country_code.clone(), record.state_code.clone())),
        }
    }

    /// The jurisdiction typed in a create form, when both codes are well formed.
    pub fn typed_jurisdiction(&self) -> Option<(String, String)> {
        let values = self.form.values();
        let country = values.text("country_code")?.trim().to_owned();
        let state = values.text("state_code")?.trim().to_owned();
        (rules::is_country_code(&country) && rules::check_state_code(&state).is_ok())
            .then_some((country, state))
    }

    /// The body to send, when the rules pass.
    pub fn body(&self) -> Result<Body, Vec<FieldError>> {
        let json = self.form.to_json();
        match &self.editing {
            Editing::Create => rules::physical_nexus_create(&json).map(Body::Create),
            Editing::Update { id, .. } => {
                rules::physical_nexus_update(&json).map(|b| Body::Update(id.clone(), b))
            }
        }
    }
}

/// A checked request body.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Create(PhysicalNexusCreate),
    Update(String, PhysicalNexusUpdate),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PhysicalNexusCategory;
    use chrono::NaiveDate;

    fn info(name: PhysicalNexusCategory, title: &str, assigned: bool) -> PhysicalNexusCategoryInfo {
        PhysicalNexusCategoryInfo {
            name,
            title: title.into(),
            description: "Goods stored in the state.".into(),
            example: "A pallet in a 3PL warehouse.".into(),
            is_category_assigned: assigned,
        }
    }

    #[test]
    fn choices_show_titles_explanations_and_what_is_assigned() {
        let choices = category_choices(&[
            info(PhysicalNexusCategory::Inventory, "Inventory", true),
            info(PhysicalNexusCategory::ServersDataCenters, "", false),
        ]);
        assert_eq!(choices[0].value, "INVENTORY");
        assert_eq!(choices[0].label, "Inventory (assigned)");
        assert_eq!(
            choices[0].explanation,
            "Goods stored in the state. Example: A pallet in a 3PL warehouse."
        );
        // The one label of a category, whatever the jurisdiction's own title.
        assert_eq!(choices[1].label, "Servers data centers");
    }

    #[test]
    fn an_edit_form_holds_the_record_and_checks_the_update_rules() {
        let record = PhysicalNexus {
            id: "phys_1".into(),
            country_code: "US".into(),
            state_code: "CO".into(),
            start_date: NaiveDate::from_ymd_opt(2025, 3, 1).unwrap(),
            end_date: None,
            category: PhysicalNexusCategory::Inventory,
            external_id: None,
            source: None,
            street_1: Some("1 Main St".into()),
            street_2: None,
            city: Some("Denver".into()),
            postal_code: None,
        };
        let mut f = NexusForm::edit(&record, "Inventory in US-CO".to_owned());
        assert!(!f.form.is_dirty());
        let Ok(Body::Update(id, body)) = f.body() else {
            panic!("the record's own values pass");
        };
        assert_eq!(id, "phys_1");
        assert_eq!(body.city.as_deref(), Some("Denver"));
        f.form = f.form.with_value("end_date", "2025-02-01");
        let errors = f.body().unwrap_err();
        assert_eq!(errors[0].field_path(), "end_date");
    }

    #[test]
    fn a_create_form_knows_its_jurisdiction_once_well_formed() {
        let mut f = NexusForm::create();
        assert_eq!(f.typed_jurisdiction(), None);
        f.form = f
            .form
            .with_value("country_code", "US")
            .with_value("state_code", "US-CO");
        assert_eq!(f.typed_jurisdiction(), None);
        f.form = f.form.with_value("state_code", "CO");
        assert_eq!(f.typed_jurisdiction(), Some(("US".into(), "CO".into())));
        assert!(f.body().is_err(), "no start date, no category");
    }
}
