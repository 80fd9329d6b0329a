//! Nexus: economic nexus per jurisdiction, physical nexus records and their categories.

use reqwest::Method;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::{NexusFilter, PhysicalNexusFilter};
use crate::model::{
    Nexus, Page, PageParams, PhysicalNexus, PhysicalNexusCategoryInfo, PhysicalNexusCreate,
    PhysicalNexusUpdate,
};

impl Client {
    /// GET /v1/nexus: one page of economic nexus rows.
    pub async fn list_nexus(
        &self,
        filter: &NexusFilter,
        page: PageParams,
    ) -> ApiResult<Page<Nexus>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/nexus/{id}.
    pub async fn get_nexus(&self, id: &str) -> ApiResult<Nexus> {
        self.transport.send(Call::get(&["nexus", id])).await
    }

    /// GET /`v1/nexus/physical_nexus`: one page of physical nexus records.
    pub async fn list_physical_nexus(
        &self,
        filter: &PhysicalNexusFilter,
        page: PageParams,
    ) -> ApiResult<Page<PhysicalNexus>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// POST /`v1/nexus/physical_nexus`.
    pub async fn create_physical_nexus(
        &self,
        request: &PhysicalNexusCreate,
    ) -> ApiResult<PhysicalNexus> {
        let call = Call::new(Method::POST, &["nexus", "physical_nexus"]).json(request)?;
        self.transport.send(call).await
    }

    /// PUT /`v1/nexus/physical_nexus/{id}`: replaces the editable fields.
    pub async fn update_physical_nexus(
        &self,
        id: &str,
        request: &PhysicalNexusUpdate,
    ) -> ApiResult<PhysicalNexus> {
        let call = Call::new(Method::PUT, &["nexus", "physical_nexus", id]).json(request)?;
        self.transport.send(call).await
    }

    /// DELETE /`v1/nexus/physical_nexus/{id`}.
    pub async fn delete_physical_nexus(&self, id: &str) -> ApiResult<()> {
        let call = Call::new(Method::DELETE, &["nexus", "physical_nexus", id]);
        self.transport.send_discarding(call).await
    }

    /// GET /`v1/nexus/physical_nexus/categories`: the categories offered in a jurisdiction, each
    /// saying whether a record already uses it.
    pub async fn list_physical_nexus_categories(
        &self,
        country_code: Option<&str>,
        state_code: Option<&str>,
    ) -> ApiResult<Vec<PhysicalNexusCategoryInfo>> {
        let mut call = Call::get(&["nexus", "physical_nexus", "categories"]);
        if let Some(c) = country_code {
            call = call.param("country_code", c);
        }
        if let Some(s) = state_code {
            call = call.param("state_code", s);
        }
        self.transport.send(call).await
    }
}
