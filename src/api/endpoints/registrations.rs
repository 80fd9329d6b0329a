//! Registrations: list, detail (with a revealed credential), jurisdictions, jurisdiction forms,
//! OSS countries, deregistration.

use reqwest::Method;
use serde_json::Value;

use crate::api::transport::Call;
use crate::api::{ApiResult, Client};
use crate::model::filters::{Query, RegistrationFilter};
use crate::model::{
    DeregistrationRequest, JurisdictionForm, OssCountry, Page, PageParams, Registration,
    RegistrationJurisdiction, RegistrationStatus,
};

pub use crate::model::RevealField;

impl Client {
    /// GET /v1/registrations: one page of registrations.
    pub async fn list_registrations(
        &self,
        filter: &RegistrationFilter,
        page: PageParams,
    ) -> ApiResult<Page<Registration>> {
        let call = Call::list(filter, page);
        self.transport.send(call).await
    }

    /// GET /v1/registrations/{id}, portal credentials masked.
    pub async fn get_registration(&self, id: &str) -> ApiResult<Registration> {
        self.transport.send(Call::get(&["registrations", id])).await
    }

    /// GET /v1/registrations/{id}?reveal=FIELD: the registration with one credential in clear.
    pub async fn reveal_registration(
        &self,
        id: &str,
        field: RevealField,
    ) -> ApiResult<Registration> {
        let call = Call::get(&["registrations", id]).param("reveal", field.as_str());
        self.transport.send(call).await
    }

    /// GET /v1/registrations/jurisdictions: the distinct country and state pairs with
    /// registrations in `statuses` (empty: every status).
    pub async fn list_registration_jurisdictions(
        &self,
        statuses: &[RegistrationStatus],
    ) -> ApiResult<Vec<RegistrationJurisdiction>> {
        let names: Vec<&str> = statuses.iter().map(RegistrationStatus::as_str).collect();
        let mut query = Query::default();
        query.comma("status__in", &names);
        let call = Call::get(&["registrations", "jurisdictions"]).query(query);
        self.transport.send(call).await
    }

    /// GET /v1/registrations/jurisdiction-specific-fields: the registration form of one
    /// jurisdiction.
    pub async fn get_jurisdiction_form(
        &self,
        country_code: &str,
        state_code: &str,
    ) -> ApiResult<JurisdictionForm> {
        let call = Call::get(&["registrations", "jurisdiction-specific-fields"])
            .param("country_code", country_code)
            .param("state_code", state_code);
        self.transport.send(call).await
    }

    /// GET /v1/registrations/{id}/oss-countries: the EU countries a one-stop-shop registration
    /// covers.
    pub async fn list_oss_countries(&self, registration_id: &str) -> ApiResult<Vec<OssCountry>> {
        let call = Call::get(&["registrations", registration_id, "oss-countries"]);
        self.transport.send(call).await
    }

    /// POST /v1/registrations/{id}/deregister: asks to close a registration. Answers the
    /// registration, now `DEREGISTERING`.
    pub async fn deregister(
        &self,
        registration_id: &str,
        request: &DeregistrationRequest,
    ) -> ApiResult<Registration> {
        let call = Call::new(
            Method::POST,
            &["registrations", registration_id, "deregister"],
        )
        .json(request)?;
        self.transport.send(call).await
    }

    /// The same call with a body as typed, for a form that lets the service judge values it
    /// could not read itself (a closure date typed as text, say); its 422 names the fields.
    pub async fn deregister_unchecked(
        &self,
        registration_id: &str,
        body: &Value,
    ) -> ApiResult<Registration> {
        let call = Call::new(
            Method::POST,
            &["registrations", registration_id, "deregister"],
        )
        .json(body)?;
        self.transport.send(call).await
    }

    /// POST /v1/registrations: creates (imports) a registration from a body as the form made it,
    /// `registration_import_type` telling a REGULAR, OSS or SST payload apart. Answers the new
    /// registration; a 422 names the fields, a 409 an active registration already on file.
    pub async fn create_registration(&self, body: &Value) -> ApiResult<Registration> {
        let call = Call::new(Method::POST, &["registrations"]).json(body)?;
        self.transport.send(call).await
    }

    /// PUT /v1/registrations/{id}: changes the fields `body` names and no others.
    pub async fn update_registration(
        &self,
        registration_id: &str,
        body: &Value,
    ) -> ApiResult<Registration> {
        let call = Call::new(Method::PUT, &["registrations", registration_id]).json(body)?;
        self.transport.send(call).await
    }
}
