//! The `/` filter: the service's product filters (a search, statuses, categories,
//! subcategories, sources).

use crate::model::ProductStatus;
use crate::model::filters::ProductFilter;
use crate::ui::panes::filter_codes::given;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The statuses of a product that still needs classification.
pub const NEEDS_CLASSIFICATION: [ProductStatus; 2] =
    [ProductStatus::Pending, ProductStatus::PartiallyApproved];

/// `a, b` → `["A", "B"]`.
fn codes(values: &FormValues, name: &str) -> Vec<String> {
    given(values, name)
        .map(|s| {
            s.split(',')
                .map(|c| c.trim().to_uppercase())
                .filter(|c| !c.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The `/` filter form, holding the filter in force.
pub fn filter_form(current: &ProductFilter) -> Form {
    let statuses = ProductStatus::KNOWN
        .iter()
        .map(|s| Choice::new(s.as_str(), s.as_str(), ""))
        .collect();
    let mut form = Form::new(vec![
        FieldSpec::new("query", "Search", FieldKind::Text)
            .rule("part of a name, code, external ID or SKU; empty for any"),
        FieldSpec::new("status", "Status", FieldKind::MultiSelect(statuses))
            .rule("none chosen for any"),
        FieldSpec::new("category", "Categories", FieldKind::Text)
            .rule("such as PHYSICAL, DIGITAL; empty for any"),
        FieldSpec::new("subcategory", "Subcategories", FieldKind::Text)
            .rule("such as GENERAL_CLOTHING, B2B_SAAS; empty for any"),
        FieldSpec::new("source", "Sources", FieldKind::Text)
            .rule("such as API, SHOPIFY, IMPORT; empty for any"),
    ]);
    if let Some(q) = &current.query {
        form = form.with_value("query", q.as_str());
    }
    if !current.status_in.is_empty() {
        let chosen: Vec<String> = current
            .status_in
            .iter()
            .map(|s| s.as_str().to_owned())
            .collect();
        form = form.with_value("status", chosen);
    }
    for (name, list) in [
        ("category", &current.product_category_in),
        ("subcategory", &current.product_subcategory_in),
        ("source", &current.source_in),
    ] {
        if !list.is_empty() {
            form = form.with_value(name, list.join(", ").as_str());
        }
    }
    form
}

/// The filter the form's values describe, keeping the sort in force.
pub fn filter_of(values: &FormValues, current: &ProductFilter) -> ProductFilter {
    ProductFilter {
        query: given(values, "query").map(str::to_owned),
        status_in: values
            .list("status")
            .into_iter()
            .map(ProductStatus::parse)
            .collect(),
        product_category_in: codes(values, "category"),
        product_subcategory_in: codes(values, "subcategory"),
        source_in: codes(values, "source"),
        order_by: current.order_by.clone(),
    }
}

/// The products that need classification, the rest of `current` kept.
pub fn needs_classification(current: &ProductFilter) -> ProductFilter {
    ProductFilter {
        status_in: NEEDS_CLASSIFICATION.to_vec(),
        ..current.clone()
    }
}

/// A one-line summary of the filter in force.
pub fn describe(filter: &ProductFilter) -> String {
    let mut parts = Vec::new();
    if let Some(q) = &filter.query {
        parts.push(format!("matching \"{q}\""));
    }
    if filter.status_in == NEEDS_CLASSIFICATION {
        parts.push("needing classification".to_owned());
    } else if !filter.status_in.is_empty() {
        let s: Vec<&str> = filter.status_in.iter().map(ProductStatus::as_str).collect();
        parts.push(format!("status {}", s.join("/")));
    }
    for (what, list) in [
        ("category", &filter.product_category_in),
        ("subcategory", &filter.product_subcategory_in),
        ("source", &filter.source_in),
    ] {
        if !list.is_empty() {
            parts.push(format!("{what} {}", list.join("/")));
        }
    }
    if parts.is_empty() {
        "all products".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    #[test]
    fn the_form_reads_as_the_filter_and_opens_on_it() {
        let values = filter_form(&ProductFilter::default())
            .with_value("query", FieldValue::from(" tee "))
            .with_value("category", FieldValue::from("physical, digital"))
            .with_value("source", FieldValue::from("api"))
            .values();
        let filter = filter_of(&values, &ProductFilter::default());
        assert_eq!(filter.query.as_deref(), Some("tee"));
        assert_eq!(filter.product_category_in, ["PHYSICAL", "DIGITAL"]);
        assert_eq!(filter.source_in, ["API"]);
        assert_eq!(
            describe(&filter),
            "matching \"tee\", category PHYSICAL/DIGITAL, source API"
        );
        let again = filter_form(&filter);
        assert_eq!(
            filter_of(&again.values(), &ProductFilter::default()),
            filter
        );
        assert!(!again.is_dirty());
    }

    #[test]
    fn needing_classification_keeps_the_rest() {
        let current = ProductFilter {
            query: Some("kbd".into()),
            ..ProductFilter::default()
        };
        let f = needs_classification(&current);
        assert_eq!(f.query.as_deref(), Some("kbd"));
        assert_eq!(describe(&f), "matching \"kbd\", needing classification");
    }
}
