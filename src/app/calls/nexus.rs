//! Carries out the nexus calls, economic and physical.

use crate::api::{ApiResult, Client};
use crate::effect::{NexusCall, NexusReply};

pub(super) async fn execute(client: &Client, call: NexusCall) -> ApiResult<NexusReply> {
    match call {
        NexusCall::List { filter, page } => {
            client.list_nexus(&filter, page).await.map(NexusReply::Page)
        }
        NexusCall::Get { id } => client.get_nexus(&id).await.map(NexusReply::One),
        NexusCall::ExposureHistory { nexus_id, page } => client
            .nexus_exposure_history(&nexus_id, page)
            .await
            .map(NexusReply::ExposureHistory),
        NexusCall::Physical { filter, page } => client
            .list_physical_nexus(&filter, page)
            .await
            .map(NexusReply::PhysicalPage),
        NexusCall::PhysicalCategories { country, state } => client
            .list_physical_nexus_categories(Some(&country), Some(&state))
            .await
            .map(NexusReply::PhysicalCategories),
        NexusCall::CreatePhysical { body } => client
            .create_physical_nexus(&body)
            .await
            .map(NexusReply::Physical),
        NexusCall::UpdatePhysical { id, body } => client
            .update_physical_nexus(&id, &body)
            .await
            .map(NexusReply::Physical),
        NexusCall::DeletePhysical { id } => client
            .delete_physical_nexus(&id)
            .await
            .map(|()| NexusReply::PhysicalDeleted),
        NexusCall::Pace { today } => {
            crate::checks::read_pace(client, today, &mut crate::checks::Quiet)
                .await
                .map(NexusReply::Pace)
        }
    }
}
