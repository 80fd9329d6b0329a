//! The page calls of a list: what each pane's paged table asks for, which call asked for which
//! page, and the answers filed back into the table. Shared by every list view.

use std::collections::HashMap;

use crate::effect::{Call, Failure, Reply, RequestId};
use crate::model::Page;
use crate::ui::pane::{Ctx, Level};
use crate::ui::widgets::paged_table::{PageRequest, PagedTable};

/// The page requests on their way, by call: the table generation and page each asked for.
#[derive(Debug, Default)]
pub struct PageCalls(HashMap<RequestId, (u64, u32)>);

impl PageCalls {
    /// Asks for every page `table` wants, each call made by `call`.
    pub fn fetch<R>(
        &mut self,
        table: &mut PagedTable<R>,
        ctx: &mut Ctx,
        call: impl Fn(&PageRequest) -> Call,
    ) {
        for want in table.wants() {
            let id = ctx.call(call(&want));
            self.0.insert(id, (want.generation, want.page));
        }
    }

    /// Records call `id` as asking for `page` of table generation `generation` (a page asked
    /// outside [`PageCalls::fetch`]).
    pub fn insert(&mut self, id: RequestId, generation: u64, page: u32) {
        self.0.insert(id, (generation, page));
    }

    /// Cancels every page request still on its way.
    pub fn cancel_all(&mut self, ctx: &mut Ctx) {
        for (id, _) in self.0.drain() {
            ctx.cancel(id);
        }
    }

    /// How many page calls are on their way.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no page call is on its way.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The generation and page call `id` asked for, no longer waiting.
    pub fn take(&mut self, id: RequestId) -> Option<(u64, u32)> {
        self.0.remove(&id)
    }

    /// Whether `id` is one of these page calls.
    pub fn owns(&self, id: RequestId) -> bool {
        self.0.contains_key(&id)
    }

    /// Files the answer to page call `id` into `table` (`page_of` picks the page out of the
    /// reply); a failure marks the page failed and says why, once.
    pub fn receive<R>(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
        table: &mut PagedTable<R>,
        ctx: &mut Ctx,
        page_of: impl FnOnce(Reply) -> Option<Page<R>>,
    ) {
        let Some((generation, page)) = self.0.remove(&id) else {
            return;
        };
        match result.map(page_of) {
            Ok(Some(rows)) => {
                table.receive(generation, page, rows);
            }
            Ok(None) => {}
            Err(failure) => {
                if table.fail(generation, page) {
                    ctx.notify(Level::Error, failure.message);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{CustomerCall, NexusReply};
    use crate::effect::{Effect, FailureKind};
    use crate::model::PageParams;
    use crate::model::filters::CustomerFilter;

    fn call(want: &PageRequest) -> Call {
        Call::Customers(CustomerCall::List {
            filter: CustomerFilter::default(),
            page: want.params(),
        })
    }

    fn ids(effects: &[Effect]) -> Vec<RequestId> {
        effects
            .iter()
            .filter_map(|e| {
                if let Effect::Call { id, .. } = e {
                    Some(*id)
                } else {
                    None
                }
            })
            .collect()
    }

    #[test]
    fn pages_asked_answered_failed_and_cancelled() {
        let (mut next, mut effects, mut notices) = (0, Vec::new(), Vec::new());
        let mut table: PagedTable<u32> = PagedTable::new("rows");
        let mut calls = PageCalls::default();
        {
            let mut ctx = Ctx::new(&mut next, &mut effects, &mut notices, false);
            calls.fetch(&mut table, &mut ctx, call);
        }
        let asked = ids(&effects);
        assert_eq!(asked.len(), 1, "the first page");
        assert!(calls.owns(asked[0]) && !calls.owns(RequestId(99)));
        {
            let mut ctx = Ctx::new(&mut next, &mut effects, &mut notices, false);
            let page = Page::new(vec![1, 2, 3], 3, 1, PageParams::DEFAULT_SIZE);
            let pick = |reply: Reply| match reply {
                Reply::Nexus(NexusReply::PhysicalDeleted) => None,
                _ => Some(page.clone()),
            };
            calls.receive(
                asked[0],
                Ok(Reply::Nexus(NexusReply::PhysicalDeleted)),
                &mut table,
                &mut ctx,
                pick,
            );
            assert!(!calls.owns(asked[0]), "answered once");
            assert_eq!(table.total(), None, "a reply that is no page fills nothing");
            table.reset();
            calls.fetch(&mut table, &mut ctx, call);
        }
        let again = *ids(&effects).last().unwrap();
        {
            let mut ctx = Ctx::new(&mut next, &mut effects, &mut notices, false);
            let failure = Failure {
                kind: FailureKind::Server,
                message: "down".into(),
                fields: Vec::new(),
            };
            calls.receive(again, Err(failure), &mut table, &mut ctx, |_| {
                None::<Page<u32>>
            });
            calls.fetch(&mut table, &mut ctx, call);
            calls.cancel_all(&mut ctx);
        }
        assert_eq!(
            notices,
            vec![(Level::Error, "down".to_owned())],
            "the failure is said once"
        );
        assert!(
            !calls.owns(again),
            "nothing left on its way after cancelling"
        );
    }
}
