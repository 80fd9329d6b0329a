//! Customers and their tax registrations.

use reqwest::Method;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::CustomerFilter;
use crate::model::{
    Customer, CustomerTaxRegistration, CustomerTaxRegistrationWrite, CustomerWrite, Page,
    PageParams,
};

impl Client {
    /// GET /v1/customers: one page of customers.
    pub async fn list_customers(
        &self,
        filter: &CustomerFilter,
        page: PageParams,
    ) -> ApiResult<Page<Customer>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/customers/{id}.
    pub async fn get_customer(&self, id: &str) -> ApiResult<Customer> {
        self.transport.send(Call::get(&["customers", id])).await
    }

    /// POST /v1/customers.
    pub async fn create_customer(&self, request: &CustomerWrite) -> ApiResult<Customer> {
        let call = Call::new(Method::POST, &["customers"]).json(request)?;
        self.transport.send(call).await
    }

    /// PUT /v1/customers/{id}: changes the fields given.
    pub async fn update_customer(&self, id: &str, request: &CustomerWrite) -> ApiResult<Customer> {
        let call = Call::new(Method::PUT, &["customers", id]).json(request)?;
        self.transport.send(call).await
    }

    /// POST /v1/customers/{id}/tax-registrations: adds the customer's tax ID, or updates the one
    /// of the same tax type and country.
    pub async fn put_customer_tax_registration(
        &self,
        customer_id: &str,
        request: &CustomerTaxRegistrationWrite,
    ) -> ApiResult<CustomerTaxRegistration> {
        let call = Call::new(
            Method::POST,
            &["customers", customer_id, "tax-registrations"],
        )
        .json(request)?;
        self.transport.send(call).await
    }
}
