//! One organization's Overview being read: what it knows ([`Data`]) and the calls under way.
//! The Overview tab reads the organization the dashboard acts on with one; the portfolio reads
//! each of its organizations with one, through a context that makes the calls for it
//! ([`Ctx::for_organization`]), so that every count it shows is made by the same code.

use std::collections::HashMap;

use chrono::{NaiveDate, Utc};

use super::data::{Ask, Data};
use crate::effect::{Failure, Reply, RequestId};
use crate::ui::pane::Ctx;

/// An Overview's reads: its data and the calls under way (which list, which page).
#[derive(Debug, Default)]
pub struct Reading {
    pub data: Data,
    asked: HashMap<RequestId, (Ask, u32)>,
    tenanted: bool,
}

impl Reading {
    pub fn new(today: NaiveDate) -> Self {
        Reading {
            data: Data::new(today),
            ..Reading::default()
        }
    }

    /// Asks for every list afresh as of `today`; the calls under way are cancelled.
    pub fn load(&mut self, today: NaiveDate, ctx: &mut Ctx) {
        for id in self.asked.keys() {
            ctx.cancel(*id);
        }
        self.tenanted = ctx.tenanted().is_some();
        self.data.today = today;
        self.asked = self.data.load(ctx);
    }

    /// Cancels the calls under way.
    pub fn cancel(&self, ctx: &mut Ctx) {
        for id in self.asked.keys() {
            ctx.cancel(*id);
        }
    }

    /// Files the answer to `id`, and asks for what it makes wanted (the list's other pages, the
    /// transactions of its filings); what the load learnt, once it has, is remembered. Answers
    /// the list it was of, `None` for an answer this reading did not ask for.
    pub fn receive(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
        ctx: &mut Ctx,
    ) -> Option<Ask> {
        let (ask, page) = self.asked.remove(&id)?;
        for (ask, page, call) in self.data.receive(ask, page, result, self.tenanted) {
            let id = ctx.call(call);
            self.asked.insert(id, (ask, page));
        }
        if let Some(note) = self.data.learnt() {
            ctx.remember(note);
        }
        Some(ask)
    }

    /// Whether `id` is a call of this reading's.
    pub fn waits_for(&self, id: RequestId) -> bool {
        self.asked.contains_key(&id)
    }

    /// Whether no call is under way.
    pub fn is_idle(&self) -> bool {
        self.asked.is_empty()
    }

    /// Whether every list has answered whole: nothing is under way.
    pub fn is_complete(&self) -> bool {
        self.data.is_complete() && self.asked.is_empty()
    }

    /// Asks again for the transactions queued, once one has waited a minute since first seen
    /// (and none is being asked for): whether it asked.
    pub fn check_queued(&mut self, ctx: &mut Ctx) -> bool {
        let queued_asked = self.asked.values().any(|(a, _)| *a == Ask::Queued);
        let due = !queued_asked
            && self
                .data
                .next_queued_check()
                .is_some_and(|due| due <= Utc::now());
        if !due {
            return false;
        }
        let Some(call) = self.data.reload_queued(self.tenanted) else {
            return false;
        };
        let id = ctx.call(call);
        self.asked.insert(id, (Ask::Queued, 1));
        true
    }
}
