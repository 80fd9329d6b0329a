//! Carries out the nexus calls, economic and physical.

use crate::api::{ApiResult, Client};
use crate::effect::{NexusCall, NexusReply};

pub(super) async fn execute(client: &Client, call: NexusCall) -> ApiResult<NexusReply> {
    match call {
        NexusCall::List { filter, page } if filter.is_local() => {
            // Judged here from three lists read whole: served a page at a time from the rows.
            let rows = crate::reads::read_standing(
                client,
                &filter,
                crate::clock::today(),
                &mut crate::reads::Quiet,
            )
            .await?;
            let total = rows.len() as u64;
            let start = (page.page.saturating_sub(1) as usize).saturating_mul(page.size as usize);
            let items = rows
                .into_iter()
                .skip(start)
                .take(page.size as usize)
                .collect();
            Ok(NexusReply::Page(crate::model::Page::new(
                items, total, page.page, page.size,
            )))
        }
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
        NexusCall::Pace { today, pages } => {
            crate::reads::read_pace_ahead(client, today, pages, &mut crate::reads::Quiet)
                .await
                .map(|(by_place, pages)| NexusReply::Pace { by_place, pages })
        }
    }
}
