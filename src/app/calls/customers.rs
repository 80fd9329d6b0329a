//! Carries out the customer calls.

use crate::api::{ApiResult, Client};
use crate::effect::{CustomerCall, CustomerReply};
use crate::model::{AddressCheck, AddressFields, SuggestionQuery};

pub(super) async fn execute(client: &Client, call: CustomerCall) -> ApiResult<CustomerReply> {
    match call {
        CustomerCall::List { filter, page } => client
            .list_customers(&filter, page)
            .await
            .map(CustomerReply::Page),
        CustomerCall::Get { id } => client.get_customer(&id).await.map(CustomerReply::One),
        CustomerCall::GetByExternal { external_id } => client
            .get_customer_by_external_id(&external_id)
            .await
            .map(CustomerReply::One),
        CustomerCall::CheckAddress { address } => check_address(client, &address)
            .await
            .map(CustomerReply::AddressChecked),
        CustomerCall::Transactions { id } => client
            .list_customer_transactions(&id)
            .await
            .map(CustomerReply::Transactions),
        CustomerCall::Create { body } => {
            client.create_customer(&body).await.map(CustomerReply::One)
        }
        CustomerCall::Update { id, body } => client
            .update_customer(&id, &body)
            .await
            .map(CustomerReply::One),
        CustomerCall::TaxRegistration { customer_id, body } => client
            .put_customer_tax_registration(&customer_id, &body)
            .await
            .map(CustomerReply::TaxRegistration),
    }
}

/// The service's verdict on `address`, and the addresses to offer instead: the standardized
/// one (unless the address is invalid), then each suggested place with the street kept.
async fn check_address(client: &Client, address: &AddressFields) -> ApiResult<AddressCheck> {
    let found = client.validate_address(address).await?;
    let query = SuggestionQuery {
        line1: address.street_1.clone(),
        city: address.city.clone(),
        state: address.state.clone(),
        country: address.country.clone(),
        postal_code: address.postal_code.clone(),
    };
    let suggested = client.suggest_addresses(&query).await?;
    let first = found.into_iter().next();
    let status = first.as_ref().map_or_else(
        || "UNVERIFIED".to_owned(),
        |f| f.verification_status.clone(),
    );
    let mut candidates: Vec<AddressFields> = first
        .filter(|f| f.verification_status != "INVALID")
        .map(|f| f.response_address)
        .into_iter()
        .collect();
    for s in suggested {
        let place = AddressFields {
            street_1: address.street_1.clone(),
            street_2: address.street_2.clone(),
            city: Some(s.city),
            county: s.county,
            state: Some(s.state),
            postal_code: Some(s.postal_code),
            country: Some(s.country),
            full_address: None,
        };
        let same = |c: &AddressFields| {
            c.postal_code == place.postal_code
                && c.city.as_deref().map(str::to_uppercase)
                    == place.city.as_deref().map(str::to_uppercase)
        };
        if !candidates.iter().any(same) {
            candidates.push(place);
        }
    }
    Ok(AddressCheck { status, candidates })
}
