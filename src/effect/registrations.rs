//! Registrations: the list, one registration (with a masked field revealed), its OSS countries,
//! its jurisdiction's form, deregistration, and the portal credentials (Tenanted API).

use crate::model::filters::RegistrationFilter;
use crate::model::tenanted::{CredentialsUpdate, CredentialsUpdated, RevealedCredentials};
use crate::model::{
    DeregistrationRequest, Filing, JurisdictionForm, OssCountry, Page, PageParams, Registration,
    RevealField,
};

#[derive(Debug, Clone, PartialEq)]
pub enum RegistrationCall {
    List {
        filter: RegistrationFilter,
        page: PageParams,
    },
    /// One registration; `reveal` names a masked field to show in clear.
    Get {
        id: String,
        reveal: Option<RevealField>,
    },
    OssCountries {
        registration_id: String,
    },
    /// The registration's returns, the latest first (one page).
    Filings {
        registration_id: String,
    },
    JurisdictionForm {
        country: String,
        state: String,
    },
    Deregister {
        registration_id: String,
        body: DeregistrationRequest,
    },
    /// Creates a registration from the body the register form made (POST /v1/registrations).
    Create {
        body: serde_json::Value,
    },
    /// Changes the fields the body names (PUT /v1/registrations/{id}).
    Update {
        registration_id: String,
        body: serde_json::Value,
    },
    /// Saves the portal credentials given; fields left out keep their saved values.
    UpdateCredentials {
        registration_id: String,
        body: CredentialsUpdate,
    },
    /// Reads the saved portal credentials back in clear (on the user's explicit request).
    RevealCredentials {
        registration_id: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum RegistrationReply {
    Page(Page<Registration>),
    One(Registration),
    OssCountries(Vec<OssCountry>),
    Filings(Page<Filing>),
    JurisdictionForm(JurisdictionForm),
    Deregistered(Registration),
    Created(Registration),
    Updated(Registration),
    /// Which credentials changed (never their values).
    CredentialsUpdated(CredentialsUpdated),
    RevealedCredentials(Box<RevealedCredentials>),
}

impl RegistrationCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            RegistrationCall::Deregister { .. }
                | RegistrationCall::UpdateCredentials { .. }
                | RegistrationCall::Create { .. }
                | RegistrationCall::Update { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            RegistrationCall::List { page, .. } => {
                format!("loading registrations (page {})", page.page)
            }
            RegistrationCall::Get { id, reveal: None } => format!("loading registration {id}"),
            RegistrationCall::Get {
                id,
                reveal: Some(field),
            } => format!("revealing the {} of {id}", field.label()),
            RegistrationCall::OssCountries { registration_id } => {
                format!("loading OSS countries of {registration_id}")
            }
            RegistrationCall::Filings { registration_id } => {
                format!("loading the returns of {registration_id}")
            }
            RegistrationCall::JurisdictionForm { country, state } => {
                format!("loading the {country}-{state} registration form")
            }
            RegistrationCall::Deregister {
                registration_id, ..
            } => format!("requesting deregistration of {registration_id}"),
            RegistrationCall::Create { body } => {
                let at = [&body["country_code"], &body["state_code"]]
                    .iter()
                    .filter_map(|v| v.as_str())
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("-");
                format!(
                    "registering in {}",
                    if at.is_empty() { "ZZ_EU" } else { &at }
                )
            }
            RegistrationCall::Update {
                registration_id, ..
            } => format!("saving the changes of {registration_id}"),
            RegistrationCall::UpdateCredentials {
                registration_id, ..
            } => format!("saving the portal credentials of {registration_id}"),
            RegistrationCall::RevealCredentials { registration_id } => {
                format!("revealing the portal credentials of {registration_id}")
            }
        }
    }
}
