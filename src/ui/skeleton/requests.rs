//! The calls a pane waits for, each with the operation it belongs to. A pane holds one
//! [`Requests`] instead of a field per call: an answer is matched to its operation by id, an
//! answer nobody waits for is dropped, and leaving a screen cancels what only that screen
//! wanted.

use std::collections::HashMap;

use crate::effect::{Call, RequestId};
use crate::ui::pane::Ctx;

/// What an operation is tied to: the whole pane, or the detail on screen (cancelled when the
/// detail closes or shows another record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Pane,
    Detail,
}

/// A pane's operation waiting for an answer.
pub trait Operation: Send {
    /// What the operation is tied to; [`Scope::Pane`] unless said otherwise.
    fn scope(&self) -> Scope {
        Scope::Pane
    }
}

/// The calls on their way, by id, with the operation each answers.
#[derive(Debug)]
pub struct Requests<Op> {
    waiting: HashMap<RequestId, Op>,
}

impl<Op> Default for Requests<Op> {
    fn default() -> Self {
        Requests {
            waiting: HashMap::new(),
        }
    }
}

impl<Op: Operation> Requests<Op> {
    /// Asks for `call` on behalf of `op`.
    pub fn call(&mut self, ctx: &mut Ctx, call: impl Into<Call>, op: Op) -> RequestId {
        let id = ctx.call(call.into());
        self.waiting.insert(id, op);
        id
    }

    /// The operation `id` answers, no longer waiting; `None` when nobody waits for it.
    pub fn take(&mut self, id: RequestId) -> Option<Op> {
        self.waiting.remove(&id)
    }

    /// Asks for `call` on behalf of `op`, instead of any operation of the same kind still on
    /// its way (whose answer would be stale by the time it came).
    pub fn again(&mut self, ctx: &mut Ctx, call: impl Into<Call>, op: Op) -> RequestId {
        let kind = std::mem::discriminant(&op);
        self.cancel_where(ctx, |waiting| std::mem::discriminant(waiting) == kind);
        self.call(ctx, call, op)
    }

    /// Whether an operation for which `pred` holds is on its way; if so the footer says that
    /// `what` is on its way, and what to do.
    pub fn on_its_way(&self, pred: impl Fn(&Op) -> bool, what: &str, ctx: &mut Ctx) -> bool {
        let waiting = self.any(pred);
        if waiting {
            ctx.notify(
                crate::ui::pane::Level::Info,
                format!("{what} is on its way; wait for its answer."),
            );
        }
        waiting
    }

    /// Whether the answer to `id` is awaited.
    pub fn waits_for(&self, id: RequestId) -> bool {
        self.waiting.contains_key(&id)
    }

    /// Whether an operation for which `pred` holds is on its way.
    pub fn any(&self, pred: impl Fn(&Op) -> bool) -> bool {
        self.waiting.values().any(pred)
    }

    /// Cancels every operation for which `pred` holds.
    pub fn cancel_where(&mut self, ctx: &mut Ctx, pred: impl Fn(&Op) -> bool) {
        let ids: Vec<RequestId> = self
            .waiting
            .iter()
            .filter(|(_, op)| pred(op))
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.waiting.remove(&id);
            ctx.cancel(id);
        }
    }

    /// Cancels what the detail waits for.
    pub fn cancel_detail(&mut self, ctx: &mut Ctx) {
        self.cancel_where(ctx, |op| op.scope() == Scope::Detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::Effect;
    use crate::effect::TransactionCall;

    #[derive(Debug, PartialEq)]
    enum Op {
        Save,
        Record,
    }

    impl Operation for Op {
        fn scope(&self) -> Scope {
            match self {
                Op::Save => Scope::Pane,
                Op::Record => Scope::Detail,
            }
        }
    }

    #[test]
    fn answers_find_their_operation_once_and_detail_calls_cancel_together() {
        let (mut next, mut effects, mut notices) = (0, Vec::new(), Vec::new());
        let mut ctx = Ctx::new(&mut next, &mut effects, &mut notices, false);
        let mut requests = Requests::default();
        let save = requests.call(
            &mut ctx,
            Call::Transactions(TransactionCall::BackFilingTerms),
            Op::Save,
        );
        let record = requests.call(
            &mut ctx,
            Call::Transactions(TransactionCall::BackFilingTerms),
            Op::Record,
        );
        assert!(requests.any(|op| *op == Op::Record));
        requests.cancel_detail(&mut ctx);
        assert_eq!(requests.take(record), None, "cancelled with the detail");
        assert_eq!(requests.take(save), Some(Op::Save));
        assert_eq!(requests.take(save), None, "answered once");
        assert!(effects.contains(&Effect::Cancel(record)));
        assert!(!effects.contains(&Effect::Cancel(save)));
    }
}
