//! Products and the product category catalog.

use serde::{Deserialize, Serialize};
use serde_json::Value;

open_enum! {
    pub enum ProductStatus {
        Approved = "APPROVED",
        PartiallyApproved = "PARTIALLY_APPROVED",
        Pending = "PENDING",
        Archived = "ARCHIVED",
    }
}

/// A product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Product {
    pub id: String,
    #[serde(default)]
    pub external_id: String,
    #[serde(default)]
    pub sku: Vec<String>,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub status: ProductStatus,
    #[serde(default)]
    pub product_category: String,
    #[serde(default)]
    pub product_subcategory: String,
    #[serde(default)]
    pub tax_exempt: bool,
    pub source: Option<String>,
    pub connection_id: Option<String>,
    #[serde(default)]
    pub classification_failed: bool,
    pub store_name: Option<String>,
    pub source_taxonomy_type: Option<String>,
    pub source_taxonomy_code: Option<String>,
    pub source_taxonomy_id: Option<String>,
    pub source_taxonomy_name: Option<String>,
    pub source_taxonomy_categories: Option<Vec<Value>>,
    pub source_taxonomy_metadata: Option<Value>,
}

impl Product {
    /// Whether the product still waits for its classification: `PENDING` or
    /// `PARTIALLY_APPROVED`, or its classification failed.
    pub fn needs_classification(&self) -> bool {
        self.classification_failed
            || matches!(
                self.status,
                ProductStatus::Pending | ProductStatus::PartiallyApproved
            )
    }
}

/// Body of POST /v1/products: a create sends `external_id`, `name`, `product_category`,
/// `product_subcategory` and `tax_exempt` (the rest optional). An edit sends a
/// [`ProductUpdate`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProductWrite {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ProductStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_subcategory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_exempt: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Body of `PUT /v1/products/{id}`. The live document's `ProductUpdate` requires `name`,
/// `product_category`, `product_subcategory` and `tax_exempt` in every edit, so they are always
/// sent (the product's values when unchanged); the other fields are sent when they change.
/// `status` and `classification_failed` not sent take the document's defaults, `APPROVED` and
/// `false`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProductUpdate {
    pub name: String,
    pub product_category: String,
    pub product_subcategory: String,
    pub tax_exempt: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ProductStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classification_failed: Option<bool>,
}

impl ProductUpdate {
    /// An edit of `p` that changes nothing: its four required fields as they are on file.
    pub fn of(p: &Product) -> Self {
        ProductUpdate {
            name: p.name.clone(),
            product_category: p.product_category.clone(),
            product_subcategory: p.product_subcategory.clone(),
            tax_exempt: p.tax_exempt,
            ..ProductUpdate::default()
        }
    }
}

/// One main category of the catalog with its subcategories. The interface does not show the
/// catalog's fields; the subcategories follow the live service's (`name`, `description`,
/// `example`, optional `is_frequent`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductCategory {
    pub name: String,
    #[serde(default)]
    pub subcategories: Vec<ProductSubcategory>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductSubcategory {
    pub name: String,
    /// What the subcategory covers for sales tax (empty when the service sends none).
    #[serde(default)]
    pub description: String,
    /// Products or services that belong to it (empty when the service sends none).
    #[serde(default)]
    pub example: String,
    /// Deprecated by the service; absent stays absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_frequent: Option<bool>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_catalog_is_read_in_either_shape() {
        let live: Vec<ProductCategory> = serde_json::from_value(json!([
            {"name": "Physical", "subcategories": [
                {"name": "Footwear", "description": "", "example": "", "is_frequent": true}
            ]}
        ]))
        .expect("the live shape");
        assert_eq!(live[0].subcategories[0].name, "Footwear");
        assert_eq!(live[0].subcategories[0].is_frequent, Some(true));
        let labelled: Vec<ProductCategory> = serde_json::from_value(json!([
            {"name": "PHYSICAL", "label": "Physical",
             "subcategories": [{"name": "FOOTWEAR", "label": "Footwear"}]}
        ]))
        .expect("an older shape with labels and no description");
        assert_eq!(labelled[0].subcategories[0].name, "FOOTWEAR");
        assert_eq!(labelled[0].subcategories[0].description, "");
    }
}
