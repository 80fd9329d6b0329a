//! The product forms: a new product, and an edit. The category and subcategory are chosen from
//! the service's catalog: the subcategories offered are the chosen category's, drawn again when
//! the category changes (a subcategory shows its description and an example while chosen;
//! typing a letter jumps to the next one starting with it), and the pair is checked with the
//! service's rule before anything is sent.
//!
//! An edit sends the four fields the service requires in every edit (`name`,
//! `product_category`, `product_subcategory`, `tax_exempt`: the form's values, which start as
//! the product's) and the other fields only when they changed; when nothing changed, nothing is
//! sent. Editing a product that needs classification classifies it: saved unchanged, the edit
//! is still sent and confirms the category and subcategory, and the service approves the
//! product on the save (its `PUT` sets `status`, `APPROVED` unless the body names another).
//! `UNKNOWN`, the catalog's "not yet classified", is refused there.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::model::{FieldError, Product, ProductCategory, ProductUpdate, ProductWrite};
use crate::rules;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The catalog, shared by the pane and the validators of its open forms.
pub type Catalog = Arc<Vec<ProductCategory>>;

/// The catalog's category meaning "not yet classified".
const UNCLASSIFIED: &str = "UNKNOWN";

/// The catalog's categories.
fn category_choices(catalog: &[ProductCategory]) -> Vec<Choice> {
    catalog
        .iter()
        .map(|c| {
            let n = c.subcategories.len() as u64;
            Choice::new(
                c.name.as_str(),
                c.name.as_str(),
                crate::ui::text::count(n, "subcategory"),
            )
        })
        .collect()
}

/// The subcategories of `category` in the catalog, each explained with its description and
/// example; none until a category is chosen.
fn subcategory_choices(catalog: &[ProductCategory], category: &str) -> Vec<Choice> {
    rules::product_subcategories(catalog, category)
        .iter()
        .map(|s| {
            let mut explanation = s.description.clone();
            if !s.example.is_empty() {
                if !explanation.is_empty() {
                    explanation.push_str(". ");
                }
                explanation.push_str("Such as ");
                explanation.push_str(&s.example);
            }
            Choice::new(s.name.as_str(), s.name.as_str(), explanation)
        })
        .collect()
}

/// `form` with its subcategories following its category.
fn with_subcategories(form: Form, catalog: &Catalog) -> Form {
    let catalog = Arc::clone(catalog);
    form.with_choices_from("product_subcategory", "product_category", move |category| {
        subcategory_choices(&catalog, category.as_str().unwrap_or_default())
    })
}

fn fields(catalog: &[ProductCategory]) -> Vec<FieldSpec> {
    vec![
        FieldSpec::new("external_id", "External ID", FieldKind::Text)
            .rule("your system's id for it")
            .required(),
        FieldSpec::new("name", "Name", FieldKind::Text).required(),
        FieldSpec::new("description", "Description", FieldKind::Text).rule("optional"),
        FieldSpec::new(
            "product_category",
            "Category",
            FieldKind::Select(category_choices(catalog)),
        )
        .rule("←/→ to choose")
        .required(),
        // Its choices follow the category (see `with_subcategories`).
        FieldSpec::new(
            "product_subcategory",
            "Subcategory",
            FieldKind::Select(Vec::new()),
        )
        .rule("←/→ to choose, a letter jumps; the chosen category's subcategories")
        .required(),
        FieldSpec::new("tax_exempt", "Tax exempt", FieldKind::Checkbox).rule("space toggles"),
    ]
}

/// The body of a new product, or the rule errors that keep it from being sent.
pub fn create_body(
    values: &FormValues,
    catalog: &[ProductCategory],
) -> Result<ProductWrite, Vec<FieldError>> {
    let mut body = values.to_json();
    if let Value::Object(map) = &mut body {
        map.entry("tax_exempt").or_insert(Value::Bool(false));
    }
    rules::product_create(&body, catalog)
}

/// The `n` form.
pub fn create_form(catalog: &Catalog) -> Form {
    let checked = Arc::clone(catalog);
    with_subcategories(Form::new(fields(catalog)), catalog)
        .with_value("tax_exempt", false)
        .with_validator(move |values| create_body(values, &checked).err().unwrap_or_default())
}

/// The product's value of each field the forms edit.
fn current_json(p: &Product) -> Map<String, Value> {
    let mut map = Map::new();
    for (name, value) in [
        ("external_id", &p.external_id),
        ("name", &p.name),
        ("description", &p.description),
        ("product_category", &p.product_category),
        ("product_subcategory", &p.product_subcategory),
    ] {
        map.insert(name.to_owned(), Value::String(value.clone()));
    }
    map.insert("tax_exempt".to_owned(), Value::Bool(p.tax_exempt));
    map
}

/// The fields every edit carries, the service requiring them (`ProductUpdate`).
const REQUIRED: [&str; 4] = [
    "name",
    "product_category",
    "product_subcategory",
    "tax_exempt",
];

/// The edit's body as JSON: the four required fields with the form's values, and each other
/// field whose value differs from the product's (a field emptied is sent as `""`); and whether
/// any field differs.
fn edit_json(values: &FormValues, p: &Product) -> (Value, bool) {
    let now = values.to_json();
    let mut body = Map::new();
    let mut changed = false;
    for (name, old) in current_json(p) {
        let new = now.get(&name).cloned().unwrap_or_else(|| match old {
            Value::Bool(_) => Value::Bool(false),
            _ => Value::String(String::new()),
        });
        let differs = new != old;
        changed |= differs;
        if differs || REQUIRED.contains(&name.as_str()) {
            body.insert(name, new);
        }
    }
    (Value::Object(body), changed)
}

/// The edit's body, `None` when there is nothing to send, or the rule errors that keep it from
/// being sent. The body carries the four fields the service requires in every edit (the
/// product's values unless changed) and the other fields that changed. Nothing is sent when
/// nothing changed, unless the product needs classification: saving it unchanged confirms its
/// category and subcategory, which classifies it.
pub fn edit_body(
    values: &FormValues,
    p: &Product,
    catalog: &[ProductCategory],
) -> Result<Option<ProductUpdate>, Vec<FieldError>> {
    let classifying = p.needs_classification();
    let (body, changed) = edit_json(values, p);
    if !changed && !classifying {
        return Ok(None);
    }
    let checked = rules::product_update(&body, catalog);
    if classifying && values.text("product_category") == Some(UNCLASSIFIED) {
        let mut errors = checked.err().unwrap_or_default();
        errors.push(FieldError::new(
            "value_error",
            vec!["body".into(), "product_category".into()],
            "UNKNOWN means not yet classified: choose the product's category",
            Value::String(UNCLASSIFIED.to_owned()),
        ));
        return Err(errors);
    }
    checked.map(Some)
}

/// The `e` form, holding the product's values.
pub fn edit_form(catalog: &Catalog, p: &Product) -> Form {
    let checked = Arc::clone(catalog);
    let product = p.clone();
    let mut form = with_subcategories(Form::new(fields(catalog)), catalog);
    // The map holds the category before the subcategory, whose choices it draws.
    for (name, value) in current_json(p) {
        form = match value {
            Value::Bool(b) => form.with_value(&name, b),
            Value::String(s) => form.with_value(&name, s.as_str()),
            _ => form,
        };
    }
    form.with_validator(move |values| {
        edit_body(values, &product, &checked)
            .err()
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    fn catalog() -> Catalog {
        Arc::new(crate::sandbox::reference::product_catalog())
    }

    fn product() -> Product {
        serde_json::from_value(serde_json::json!({
            "id": "prod_1", "external_id": "shop-1", "sku": [], "code": "TEE-100",
            "name": "Tee", "description": "Cotton tee", "status": "APPROVED",
            "product_category": "PHYSICAL", "product_subcategory": "GENERAL_CLOTHING",
            "tax_exempt": false, "source": "API", "connection_id": null,
            "classification_failed": false
        }))
        .unwrap()
    }

    /// The values a select of `form` offers.
    fn offered(form: &Form, name: &str) -> Vec<String> {
        let spec = form.specs().find(|s| s.name == name).unwrap();
        spec.choices().iter().map(|c| c.value.clone()).collect()
    }

    #[test]
    fn a_new_product_is_offered_only_its_categorys_subcategories() {
        let c = catalog();
        let form = create_form(&c)
            .with_value("external_id", FieldValue::from("sku-9"))
            .with_value("name", FieldValue::from("Mug"));
        assert!(offered(&form, "product_subcategory").is_empty());
        let errors = create_body(&form.values(), &c).unwrap_err();
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["product_category", "product_subcategory"]);

        // DIGITAL offers its own ten, not clothing.
        let form = form.with_value("product_category", FieldValue::Choice("DIGITAL".into()));
        let digital: Vec<String> = rules::product_subcategories(&c, "DIGITAL")
            .iter()
            .map(|s| s.name.clone())
            .collect();
        assert_eq!(offered(&form, "product_subcategory"), digital);
        let form = form.with_value(
            "product_subcategory",
            FieldValue::Choice("GENERAL_CLOTHING".into()),
        );
        assert_eq!(form.values().text("product_subcategory"), Some(""));

        let form = form
            .with_value("product_category", FieldValue::Choice("PHYSICAL".into()))
            .with_value(
                "product_subcategory",
                FieldValue::Choice("GENERAL_CLOTHING".into()),
            );
        let body = create_body(&form.values(), &c).unwrap();
        assert_eq!(body.tax_exempt, Some(false));
        assert_eq!(
            body.product_subcategory.as_deref(),
            Some("GENERAL_CLOTHING")
        );
    }

    fn pending() -> Product {
        Product {
            status: crate::model::ProductStatus::Pending,
            ..product()
        }
    }

    #[test]
    fn classifying_sends_the_classification_even_unchanged_but_never_unknown() {
        let c = catalog();
        let form = edit_form(&c, &pending());
        assert_eq!(
            form.values().text("product_subcategory"),
            Some("GENERAL_CLOTHING")
        );
        assert_eq!(
            edit_body(&form.values(), &pending(), &c),
            Ok(Some(ProductUpdate::of(&pending())))
        );

        // Another category clears the subcategory, which the rule then asks for.
        let mut form = form;
        assert!(form.fill("product_category", FieldValue::Choice("SERVICE".into())));
        assert_eq!(form.values().text("product_subcategory"), Some(""));
        let errors = edit_body(&form.values(), &pending(), &c).unwrap_err();
        assert_eq!(errors[0].field_path(), "product_subcategory");
        assert!(
            errors[0].msg.contains("one of SERVICE's subcategories"),
            "{errors:?}"
        );

        // A failed classification left UNKNOWN is not approved as it is.
        let failed = Product {
            product_category: "UNKNOWN".into(),
            product_subcategory: "UNKNOWN".into(),
            classification_failed: true,
            ..pending()
        };
        let form = edit_form(&c, &failed);
        assert_eq!(form.values().text("product_subcategory"), Some("UNKNOWN"));
        let errors = edit_body(&form.values(), &failed, &c).unwrap_err();
        assert_eq!(errors[0].field_path(), "product_category");
        assert!(errors[0].msg.contains("not yet classified"), "{errors:?}");
    }

    #[test]
    fn an_edit_sends_the_required_fields_and_only_the_others_that_changed() {
        let c = catalog();
        let form = edit_form(&c, &product());
        assert!(!form.is_dirty());
        assert_eq!(edit_body(&form.values(), &product(), &c), Ok(None));
        let form = form.with_value("name", FieldValue::from("Tee (organic)"));
        let body = edit_body(&form.values(), &product(), &c).unwrap().unwrap();
        assert_eq!(
            body,
            ProductUpdate {
                name: "Tee (organic)".into(),
                ..ProductUpdate::of(&product())
            }
        );
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({
                "name": "Tee (organic)", "product_category": "PHYSICAL",
                "product_subcategory": "GENERAL_CLOTHING", "tax_exempt": false
            })
        );
        let form = form.with_value("description", FieldValue::from(""));
        assert_eq!(
            edit_body(&form.values(), &product(), &c),
            Ok(Some(ProductUpdate {
                name: "Tee (organic)".into(),
                description: Some(String::new()),
                ..ProductUpdate::of(&product())
            }))
        );
    }

    #[test]
    fn a_subcategory_shows_its_description_and_example() {
        let choices = subcategory_choices(&catalog(), "PHYSICAL");
        let clothing = choices
            .iter()
            .find(|c| c.value == "GENERAL_CLOTHING")
            .unwrap();
        assert_eq!(clothing.label, "GENERAL_CLOTHING");
        assert_eq!(
            clothing.explanation,
            "Clothing. Such as T-shirts, jackets, shoes"
        );
        assert!(subcategory_choices(&catalog(), "").is_empty());
    }
}
