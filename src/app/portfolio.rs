//! The portfolio without a screen (`taxdash portfolio`): each organization the key reaches read
//! as the dashboard's Overview reads it, by the same [`Reading`], its calls carried out here
//! instead of by the event loop, all organizations at once under the key's one rate limit.

use chrono::NaiveDate;
use futures::StreamExt;
use futures::stream::FuturesUnordered;

use super::calls::execute;
use crate::api::Client;
use crate::effect::{Effect, Failure, OrganizationCall, OrganizationReply, Reply, RequestId};
use crate::model::PageParams;
use crate::model::tenanted::Organization;
use crate::ui::judging::Judging;
use crate::ui::pane::Ctx;
use crate::ui::panes::overview::data::Data;
use crate::ui::panes::overview::reading::Reading;

/// The organizations `client`'s key reaches (the first hundred, as the Portfolio tab lists).
pub async fn organizations(client: &Client) -> Result<Vec<Organization>, Failure> {
    let call = OrganizationCall::List {
        page: PageParams::new(1, 100),
    };
    match execute(client, call.into()).await? {
        Reply::Organizations(OrganizationReply::Page(page)) => Ok(page.items),
        _ => unreachable!("a list of organizations answers with a page of them"),
    }
}

/// What the Overview of each of `organizations` knows once every list has answered, in their
/// order: the reads of all of them go at once, paced by `client`.
pub async fn read_overviews(
    client: &Client,
    organizations: &[Organization],
    today: NaiveDate,
    judging: Judging,
) -> Vec<Data> {
    futures::future::join_all(
        organizations
            .iter()
            .map(|o| read_overview(client, &o.id, today, judging)),
    )
    .await
}

/// One organization's Overview, read to the end.
async fn read_overview(
    client: &Client,
    organization: &str,
    today: NaiveDate,
    judging: Judging,
) -> Data {
    let tenanted = client.generation().api_version();
    let mut reading = Reading::new(today);
    let (mut next_id, mut effects, mut notices) = (0_u64, Vec::new(), Vec::new());
    let mut step = |effects: &mut Vec<Effect>, work: &mut dyn FnMut(&mut Ctx)| {
        let mut ctx = Ctx::new(&mut next_id, effects, &mut notices, true)
            .with_tenanted(tenanted)
            .with_judging(judging);
        work(&mut ctx.for_organization(organization));
    };
    step(&mut effects, &mut |ctx| reading.load(today, ctx));
    let mut running = FuturesUnordered::new();
    loop {
        for effect in effects.drain(..) {
            if let Effect::Call { id, call } = effect {
                running.push(answer(client, id, *call));
            }
        }
        let Some((id, result)) = running.next().await else {
            break;
        };
        let mut result = Some(result);
        step(&mut effects, &mut |ctx| {
            if let Some(result) = result.take() {
                reading.receive(id, result, ctx);
            }
        });
    }
    reading.data
}

async fn answer(
    client: &Client,
    id: RequestId,
    call: crate::effect::Call,
) -> (RequestId, Result<Reply, Failure>) {
    (id, execute(client, call).await)
}
