//! Rules on products: what a create and an edit need, and a category and subcategory that the
//! catalog pairs.
//!
//! The table of which subcategories belong to which category is the catalog the service
//! serves (`GET /v1/products/categories`; the sandbox's in `sandbox::reference`), read here
//! through [`subcategories_of`] alone: the sandbox's 422, the forms' check and the
//! subcategories a form offers for the chosen category all ask it.

use serde_json::Value;

use super::check::{Check, Checked};
use crate::model::{
    ProductCategory, ProductStatus, ProductSubcategory, ProductUpdate, ProductWrite, SOURCES,
};

/// The category named `name` (case aside) in `catalog`.
pub fn category_of<'c>(catalog: &'c [ProductCategory], name: &str) -> Option<&'c ProductCategory> {
    catalog.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// The subcategories of `category` (case aside) in `catalog`; none for a category it does not
/// have.
pub fn subcategories_of<'c>(
    catalog: &'c [ProductCategory],
    category: &str,
) -> &'c [ProductSubcategory] {
    category_of(catalog, category).map_or(&[], |c| c.subcategories.as_slice())
}

/// Whether `subcategory` is one of `category`'s in `catalog`.
pub fn pairs(catalog: &[ProductCategory], category: &str, subcategory: &str) -> bool {
    subcategories_of(catalog, category)
        .iter()
        .any(|s| s.name.eq_ignore_ascii_case(subcategory))
}

/// Checks the category and subcategory read against the catalog.
fn catalog_pair(
    c: &mut Check,
    catalog: &[ProductCategory],
    category: Option<&str>,
    subcategory: Option<&str>,
) {
    let Some(category) = category else { return };
    if category_of(catalog, category).is_none() {
        let names: Vec<&str> = catalog.iter().map(|c| c.name.as_str()).collect();
        c.rule(
            "product_category",
            format_args!(
                "product_category must be one of the catalog's: {}",
                names.join(", ")
            ),
        );
        return;
    }
    match subcategory {
        Some(sub) if sub.trim().is_empty() => c.rule(
            "product_subcategory",
            format_args!("product_subcategory must be one of {category}'s subcategories"),
        ),
        Some(sub) if !pairs(catalog, category, sub) => c.rule(
            "product_subcategory",
            format_args!("product_subcategory {sub} is not a subcategory of {category}"),
        ),
        _ => {}
    }
}

/// Body of POST /v1/products: `external_id` and `name` (not blank), `product_category` and
/// `product_subcategory` (a pair of `catalog`) and `tax_exempt` required; `description`,
/// `status` and `source` optional.
pub fn product_create(body: &Value, catalog: &[ProductCategory]) -> Checked<ProductWrite> {
    let mut c = Check::body(body)?;
    c.non_blank_str("external_id");
    c.non_blank_str("name");
    c.optional_strs(&["description"]);
    c.optional_word_of("source", SOURCES);
    c.optional_enum_of("status", ProductStatus::KNOWN);
    c.bool("tax_exempt");
    let category = c.non_blank_str("product_category");
    let subcategory = c.non_blank_str("product_subcategory");
    catalog_pair(&mut c, catalog, category, subcategory);
    c.finish(body)
}

/// Body of `PUT /v1/products/{id}`, as the live document's `ProductUpdate` has it: `name` (not
/// blank), `product_category` and `product_subcategory` (a pair of `catalog`) and `tax_exempt`
/// required in every edit, each missing one refused as `missing`; `external_id` (not blank),
/// `description`, `status`, `source` and `classification_failed` optional.
pub fn product_update(body: &Value, catalog: &[ProductCategory]) -> Checked<ProductUpdate> {
    let mut c = Check::body(body)?;
    if c.raw("external_id").is_some_and(|v| !v.is_null()) {
        c.non_blank_str("external_id");
    }
    c.non_blank_str("name");
    c.optional_strs(&["description"]);
    c.optional_word_of("source", SOURCES);
    c.optional_enum_of("status", ProductStatus::KNOWN);
    c.bool("tax_exempt");
    c.optional_bool("classification_failed");
    // A blank subcategory is left to the pair's rule, which names the category's.
    let category = c.required_str("product_category");
    let subcategory = c.required_str("product_subcategory");
    catalog_pair(&mut c, catalog, category, subcategory);
    c.finish(body)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{FieldError, ProductSubcategory};
    use crate::rules::testing::errors_of;

    fn catalog() -> Vec<ProductCategory> {
        let sub = |name: &str| ProductSubcategory {
            name: name.into(),
            description: String::new(),
            example: String::new(),
            is_frequent: None,
        };
        vec![
            ProductCategory {
                name: "PHYSICAL".into(),
                subcategories: vec![sub("GENERAL_CLOTHING")],
            },
            ProductCategory {
                name: "DIGITAL".into(),
                subcategories: vec![sub("B2B_SAAS")],
            },
        ]
    }

    fn paths<T: std::fmt::Debug>(checked: Checked<T>) -> Vec<String> {
        let mut p: Vec<String> = errors_of(checked)
            .iter()
            .map(FieldError::field_path)
            .collect();
        p.sort();
        p
    }

    #[test]
    fn a_create_needs_its_fields_and_a_pair_of_the_catalog() {
        let ok = json!({"external_id": "sku-1", "name": "Tee", "product_category": "PHYSICAL",
                        "product_subcategory": "GENERAL_CLOTHING", "tax_exempt": false});
        let body = product_create(&ok, &catalog()).unwrap();
        assert_eq!(body.name.as_deref(), Some("Tee"));
        assert_eq!(
            paths(product_create(&json!({}), &catalog())),
            [
                "external_id",
                "name",
                "product_category",
                "product_subcategory",
                "tax_exempt"
            ]
        );
        let mut other = ok.clone();
        other["product_subcategory"] = json!("B2B_SAAS");
        assert_eq!(
            paths(product_create(&other, &catalog())),
            ["product_subcategory"]
        );
        let mut unknown = ok;
        unknown["product_category"] = json!("FOOD");
        assert_eq!(
            paths(product_create(&unknown, &catalog())),
            ["product_category"]
        );
    }

    #[test]
    fn an_edit_needs_the_four_fields_the_service_requires_and_a_pair_of_the_catalog() {
        let ok = json!({"name": "Tee 2", "product_category": "PHYSICAL",
                        "product_subcategory": "GENERAL_CLOTHING", "tax_exempt": false});
        let body = product_update(&ok, &catalog()).unwrap();
        assert_eq!(body.name, "Tee 2");
        assert_eq!(body.description, None);
        assert_eq!(
            paths(product_update(
                &json!({"description": "Cotton"}),
                &catalog()
            )),
            [
                "name",
                "product_category",
                "product_subcategory",
                "tax_exempt"
            ]
        );
        for field in [
            "name",
            "product_category",
            "product_subcategory",
            "tax_exempt",
        ] {
            let mut without = ok.clone();
            without.as_object_mut().unwrap().remove(field);
            let errors = errors_of(product_update(&without, &catalog()));
            let e = crate::rules::testing::only(&errors);
            assert_eq!(e.field_path(), field);
            assert_eq!(
                (e.kind.as_str(), e.msg.as_str()),
                ("missing", "Field required")
            );
        }

        let mut other = ok.clone();
        other["product_subcategory"] = json!("B2B_SAAS");
        assert_eq!(
            paths(product_update(&other, &catalog())),
            ["product_subcategory"]
        );
        let mut moved = ok.clone();
        moved["product_category"] = json!("DIGITAL");
        moved["product_subcategory"] = json!("B2B_SAAS");
        assert!(product_update(&moved, &catalog()).is_ok());
        let mut blank = ok.clone();
        blank["name"] = json!(" ");
        assert_eq!(paths(product_update(&blank, &catalog())), ["name"]);
        let mut emptied = moved;
        emptied["product_subcategory"] = json!("");
        let errors = errors_of(product_update(&emptied, &catalog()));
        assert_eq!(errors[0].field_path(), "product_subcategory");
        assert!(errors[0].msg.contains("one of DIGITAL's subcategories"));
    }

    #[test]
    fn a_category_has_its_own_subcategories_and_an_unknown_one_none() {
        let names = |category: &str| -> Vec<String> {
            subcategories_of(&catalog(), category)
                .iter()
                .map(|s| s.name.clone())
                .collect()
        };
        assert_eq!(names("digital"), ["B2B_SAAS"]);
        assert!(names("FOOD").is_empty());
        assert!(pairs(&catalog(), "DIGITAL", "b2b_saas"));
        assert!(!pairs(&catalog(), "PHYSICAL", "B2B_SAAS"));
    }
}
