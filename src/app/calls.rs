//! Carries out the calls panes ask for, with the client, and words their failures for users.

use crate::api::{ApiError, Client, RevealField};
use crate::effect::{Call, Failure, FailureKind, Reply};

/// Makes one call.
pub async fn execute(client: &Client, call: Call) -> Result<Reply, Failure> {
    let result = match call {
        Call::Registrations { filter, page } => client
            .list_registrations(&filter, page)
            .await
            .map(Reply::Registrations),
        Call::Registration { id, reveal: None } => {
            client.get_registration(&id).await.map(Reply::Registration)
        }
        Call::Registration {
            id,
            reveal: Some(field),
        } => {
            let field = match field.as_str() {
                "password_encrypted" => RevealField::Password,
                "pin_encrypted" => RevealField::Pin,
                other => {
                    return Err(Failure {
                        kind: FailureKind::Other,
                        message: format!(
                            "{other} cannot be revealed; only the portal password and PIN can"
                        ),
                        fields: Vec::new(),
                    });
                }
            };
            client
                .reveal_registration(&id, field)
                .await
                .map(Reply::Registration)
        }
        Call::OssCountries { registration_id } => client
            .list_oss_countries(&registration_id)
            .await
            .map(Reply::OssCountries),
        Call::JurisdictionForm { country, state } => client
            .get_jurisdiction_form(&country, &state)
            .await
            .map(Reply::JurisdictionForm),
        Call::Deregister {
            registration_id,
            body,
        } => client
            .deregister(&registration_id, &body)
            .await
            .map(Reply::Deregistered),
    };
    result.map_err(failure)
}

/// The failure a pane shows for a client error. The client's messages never hold the key.
pub fn failure(error: ApiError) -> Failure {
    let kind = match &error {
        ApiError::Unauthorized { .. } => FailureKind::Unauthorized,
        ApiError::Forbidden { .. } => FailureKind::Forbidden,
        ApiError::NotFound { .. } => FailureKind::NotFound,
        ApiError::Validation(_) => FailureKind::Validation,
        ApiError::Conflict { .. } => FailureKind::Conflict,
        ApiError::BadRequest { .. } => FailureKind::Other,
        ApiError::RateLimited { .. } => FailureKind::RateLimited,
        ApiError::Server { .. } => FailureKind::Server,
        ApiError::Network { .. } => FailureKind::Network,
        ApiError::Timeout { .. } => FailureKind::Timeout,
        ApiError::Undecodable { .. } => FailureKind::Undecodable,
        ApiError::MethodNotAllowed { .. } => FailureKind::Other,
    };
    Failure {
        kind,
        message: error.to_string(),
        fields: error.field_errors().to_vec(),
    }
}
