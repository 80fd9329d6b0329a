//! Products, the product category catalog, and tax estimates.

use reqwest::Method;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::ProductFilter;
use crate::model::{
    EstimateRequest, EstimateResponse, Page, PageParams, Product, ProductCategory, ProductUpdate,
    ProductWrite,
};

impl Client {
    /// GET /v1/products: one page of products.
    pub async fn list_products(
        &self,
        filter: &ProductFilter,
        page: PageParams,
    ) -> ApiResult<Page<Product>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// `GET /v1/products/{id}`.
    pub async fn get_product(&self, id: &str) -> ApiResult<Product> {
        self.transport.send(Call::get(&["products", id])).await
    }

    /// POST /v1/products: a product entered by hand.
    pub async fn create_product(&self, body: &ProductWrite) -> ApiResult<Product> {
        let call = Call::new(Method::POST, &["products"]).json(body)?;
        self.transport.send(call).await
    }

    /// `PUT /v1/products/{id}`: the fields given replace the ones on file; the body always
    /// carries the four the service requires (see [`ProductUpdate`]).
    pub async fn update_product(&self, id: &str, body: &ProductUpdate) -> ApiResult<Product> {
        let call = Call::new(Method::PUT, &["products", id]).json(body)?;
        self.transport.send(call).await
    }

    /// GET /v1/products/categories: the catalog of categories and subcategories.
    pub async fn list_product_categories(&self) -> ApiResult<Vec<ProductCategory>> {
        self.transport
            .send(Call::get(&["products", "categories"]))
            .await
    }

    /// POST /v1/tax/estimate: the tax a sale would bear, without recording it.
    pub async fn estimate_tax(&self, request: &EstimateRequest) -> ApiResult<EstimateResponse> {
        let call = Call::new(Method::POST, &["tax", "estimate"])
            .json(request)?
            .reading();
        self.transport.send(call).await
    }
}
