//! Carries out the registration calls.

use crate::api::{ApiResult, Client};
use crate::effect::{RegistrationCall, RegistrationReply};
use crate::model::PageParams;

pub(super) async fn execute(
    client: &Client,
    call: RegistrationCall,
) -> ApiResult<RegistrationReply> {
    match call {
        RegistrationCall::List { filter, page } => client
            .list_registrations(&filter, page)
            .await
            .map(RegistrationReply::Page),
        RegistrationCall::Get { id, reveal: None } => client
            .get_registration(&id)
            .await
            .map(RegistrationReply::One),
        RegistrationCall::Get {
            id,
            reveal: Some(field),
        } => client
            .reveal_registration(&id, field)
            .await
            .map(RegistrationReply::One),
        RegistrationCall::OssCountries { registration_id } => client
            .list_oss_countries(&registration_id)
            .await
            .map(RegistrationReply::OssCountries),
        RegistrationCall::Filings { registration_id } => client
            .list_registration_filings(&registration_id, PageParams::new(1, 24))
            .await
            .map(RegistrationReply::Filings),
        RegistrationCall::JurisdictionForm { country, state } => client
            .get_jurisdiction_form(&country, &state)
            .await
            .map(RegistrationReply::JurisdictionForm),
        RegistrationCall::Deregister {
            registration_id,
            body,
        } => client
            .deregister(&registration_id, &body)
            .await
            .map(RegistrationReply::Deregistered),
        RegistrationCall::Create { body } => client
            .create_registration(&body)
            .await
            .map(RegistrationReply::Created),
        RegistrationCall::Update {
            registration_id,
            body,
        } => client
            .update_registration(&registration_id, &body)
            .await
            .map(RegistrationReply::Updated),
        RegistrationCall::UpdateCredentials {
            registration_id,
            body,
        } => client
            .update_registration_credentials(&registration_id, &body)
            .await
            .map(RegistrationReply::CredentialsUpdated),
        RegistrationCall::RevealCredentials { registration_id } => client
            .reveal_registration_credentials(&registration_id)
            .await
            .map(|r| RegistrationReply::RevealedCredentials(Box::new(r))),
    }
}
