//! Products: the list, one product, the category catalog, a new product, an edit.

use crate::model::filters::ProductFilter;
use crate::model::{Page, PageParams, Product, ProductCategory, ProductUpdate, ProductWrite};

#[derive(Debug, Clone, PartialEq)]
pub enum ProductCall {
    List {
        filter: ProductFilter,
        page: PageParams,
    },
    Get {
        id: String,
    },
    /// The category catalog, with each subcategory's description and example.
    Categories,
    Create {
        body: ProductWrite,
    },
    /// Sends the four fields the service requires in every edit, and the others that changed.
    Update {
        id: String,
        body: ProductUpdate,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum ProductReply {
    Page(Page<Product>),
    /// A product read, created or edited.
    One(Product),
    Categories(Vec<ProductCategory>),
}

impl ProductCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            ProductCall::Create { .. } | ProductCall::Update { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            ProductCall::List { page, .. } => format!("loading products (page {})", page.page),
            ProductCall::Get { id } => format!("loading product {id}"),
            ProductCall::Categories => "loading the product categories".to_owned(),
            ProductCall::Create { .. } => "creating a product".to_owned(),
            ProductCall::Update { id, .. } => format!("saving product {id}"),
        }
    }
}
