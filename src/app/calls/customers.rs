//! Carries out the customer calls.

use crate::api::{ApiResult, Client};
use crate::effect::{CustomerCall, CustomerReply};

pub(super) async fn execute(client: &Client, call: CustomerCall) -> ApiResult<CustomerReply> {
    match call {
        CustomerCall::List { filter, page } => client
            .list_customers(&filter, page)
            .await
            .map(CustomerReply::Page),
        CustomerCall::Get { id } => client.get_customer(&id).await.map(CustomerReply::One),
        CustomerCall::Transactions { id } => client
            .list_customer_transactions(&id)
            .await
            .map(CustomerReply::Transactions),
        CustomerCall::Create { body } => {
            client.create_customer(&body).await.map(CustomerReply::One)
        }
        CustomerCall::TaxRegistration { customer_id, body } => client
            .put_customer_tax_registration(&customer_id, &body)
            .await
            .map(CustomerReply::TaxRegistration),
    }
}
