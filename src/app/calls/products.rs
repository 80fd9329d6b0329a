//! Carries out the product calls.

use crate::api::{ApiResult, Client};
use crate::effect::{ProductCall, ProductReply};

pub(super) async fn execute(client: &Client, call: ProductCall) -> ApiResult<ProductReply> {
    match call {
        ProductCall::List { filter, page } => client
            .list_products(&filter, page)
            .await
            .map(ProductReply::Page),
        ProductCall::Get { id } => client.get_product(&id).await.map(ProductReply::One),
        ProductCall::Categories => client
            .list_product_categories()
            .await
            .map(ProductReply::Categories),
        ProductCall::Create { body } => client.create_product(&body).await.map(ProductReply::One),
        ProductCall::Update { id, body } => client
            .update_product(&id, &body)
            .await
            .map(ProductReply::One),
    }
}
