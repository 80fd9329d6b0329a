//! The calls under way: which pane waits for which answer, the shell's own calls (the
//! organizations, the history database, what an overlay reads, a view to keep in the config
//! file), the retries the footer tells of, and what the answers say of the connection. Writes
//! are refused here in read-only mode.

use std::collections::HashMap;
use std::sync::Arc;

use super::views::ViewSaving;
use super::{Connection, Shell};
use crate::effect::{
    Answer, Call, Effect, Failure, FailureKind, Goto, HistoryReply, OrganizationReply, Reply,
    RequestId,
};
use crate::model::retry::RetryNotice;
use crate::ui::pane::ChangedRecords;
use crate::ui::widgets::flash::FlashLevel;

/// Answers in a row that cannot be read (HTML, a body cut short, a shape the interface does not
/// describe) before the header calls the connection trouble: one malformed list is that list's
/// problem, a service that answers nothing readable is the connection's.
const UNREADABLE_IN_A_ROW: u32 = 3;

/// A call the shell makes for itself.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ShellCall {
    /// The organizations the key reaches.
    Organizations,
    /// The snapshots and the rows changed since the previous one.
    Changed,
    /// A read of an overlay's: the answer goes to the overlay that waits for it.
    Layer,
    /// A view on its way to the config file.
    SaveView(Box<ViewSaving>),
    /// A list's columns on their way to the config file: the pane's key and the names.
    SaveColumns(String, Vec<String>),
    /// A snapshot (`:snapshot`).
    Snapshot,
}

/// The calls under way and what their answers said of the connection.
#[derive(Default)]
pub(super) struct Calls {
    /// The last id given to a call.
    pub(super) next_id: u64,
    /// The panes' calls: which pane waits, and the words for the spinner.
    waiting: HashMap<RequestId, (usize, String)>,
    /// The tick each call of a pane under way was sent at (see [`Calls::waited`]).
    sent: HashMap<RequestId, u64>,
    /// The latest retry of each call under way that had to try again.
    retrying: HashMap<RequestId, RetryNotice>,
    /// The shell's own calls.
    own: HashMap<RequestId, ShellCall>,
    connection: Connection,
    /// Answers that could not be read since the last readable one.
    unreadable: u32,
}

impl Calls {
    /// A call the shell makes for itself, numbered.
    fn call(&mut self, kind: ShellCall, call: Call) -> Effect {
        self.next_id += 1;
        let id = RequestId(self.next_id);
        self.own.insert(id, kind);
        Effect::Call {
            id,
            call: Box::new(call),
        }
    }

    /// Makes call `id`, numbered already, one of the shell's own.
    pub(super) fn adopt(&mut self, id: RequestId, kind: ShellCall) {
        self.own.insert(id, kind);
    }

    /// Forgets the shell's own call `id` (its answer is no longer wanted).
    pub(super) fn forget(&mut self, id: RequestId) {
        self.own.remove(&id);
    }

    /// Whether pane `pane` waits for an answer.
    pub(super) fn waits_on(&self, pane: usize) -> bool {
        self.waiting.values().any(|(p, _)| *p == pane)
    }

    /// What pane `pane` waits for, in words, for the status line.
    pub(super) fn loading(&self, pane: usize) -> Option<&str> {
        self.waiting
            .values()
            .filter(|(p, what)| *p == pane && !what.is_empty())
            .map(|(_, w)| w.as_str())
            .next()
    }

    /// How many ticks the oldest call of a pane under way has waited at tick `now`, if any
    /// waits: a service that took the connection and says nothing shows in the header.
    pub(super) fn waited(&self, now: u64) -> Option<u64> {
        self.sent
            .iter()
            .filter(|(id, _)| !self.retrying.contains_key(id))
            .map(|(_, sent)| now.saturating_sub(*sent))
            .max()
    }

    /// The calls of a pane that no longer exists are of no use (the panes were built again):
    /// forgets those of every pane but the ones `kept`.
    pub(super) fn forget_panes(&mut self, kept: impl Fn(usize) -> bool) {
        self.waiting.retain(|_, (pane, _)| kept(*pane));
        let waiting = &self.waiting;
        self.sent.retain(|id, _| waiting.contains_key(id));
    }

    pub(super) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// A call under way tries again; whether the shell waits for it.
    pub(super) fn retrying(&mut self, id: RequestId, notice: RetryNotice) -> bool {
        if !self.waiting.contains_key(&id) {
            return false;
        }
        tracing::info!(id = id.0, "{}: {notice}", notice.what);
        self.retrying.insert(id, notice);
        true
    }

    /// The retry the footer tells of: the latest of pane `pane`'s calls.
    pub(super) fn retry_of(&self, pane: usize) -> Option<&RetryNotice> {
        self.retrying
            .iter()
            .filter(|(id, _)| self.waiting.get(id).is_some_and(|(p, _)| *p == pane))
            .max_by_key(|(id, _)| id.0)
            .map(|(_, notice)| notice)
    }
}

impl Shell {
    /// A call the shell makes for itself.
    pub(super) fn own_call(&mut self, kind: ShellCall, call: Call) -> Effect {
        self.calls.call(kind, call)
    }

    /// Records which pane waits for which call, and refuses writes in read-only mode.
    pub(super) fn file_effects(&mut self, pane: usize, effects: Vec<Effect>) -> Vec<Effect> {
        let mut out = Vec::new();
        let mut refused = Vec::new();
        let mut gotos = Vec::new();
        let read_only = self.session.header.read_only;
        for effect in effects {
            match effect {
                Effect::Goto(goto) => gotos.push(goto),
                Effect::OpenOrganization { organization, then } => {
                    let opened = self.open_organization(&organization, then);
                    out.extend(opened);
                }
                Effect::Import(import) => {
                    if let Some(import) = self.file_import(pane, import) {
                        out.push(Effect::Import(import));
                    }
                }
                Effect::Call { id, call } if read_only && call.is_write() => {
                    refused.push(Answer {
                        id,
                        result: Err(Failure {
                            kind: FailureKind::ReadOnly,
                            message: if self.session.header.offline.is_some() {
                                "Offline: nothing was sent. A snapshot cannot be changed; start taxdash without --offline to change records."
                            } else {
                                "Read-only mode: nothing was sent. Start taxdash without --read-only to change records."
                            }
                            .into(),
                            fields: Vec::new(),
                        }),
                    });
                    self.calls.waiting.insert(id, (pane, String::new()));
                }
                Effect::Call { id, ref call } => {
                    self.calls.waiting.insert(id, (pane, call.describe()));
                    self.calls.sent.insert(id, self.session.ticks);
                    out.push(effect);
                }
                Effect::Cancel(id) => {
                    self.calls.waiting.remove(&id);
                    self.calls.sent.remove(&id);
                    self.calls.retrying.remove(&id);
                    out.push(effect);
                }
                Effect::Quit => self.quit = true,
                other => out.push(other),
            }
        }
        for answer in refused {
            out.extend(self.handle_answer(answer));
        }
        for goto in gotos {
            out.extend(self.goto(&goto));
        }
        out
    }

    /// Shows the first tab that takes `goto`, its list filtered as asked. A tab holding unsaved
    /// input is left alone, and the user is told.
    pub(super) fn goto(&mut self, goto: &Goto) -> Vec<Effect> {
        let from = self.spot();
        let from_overview = self.focused().is_overview();
        let mut effects = Vec::new();
        for index in 0..self.tabs.panes.len() {
            if self.tabs.panes[index].has_unsaved_input() {
                continue;
            }
            let mut taken = false;
            let before = self.tabs.panes[index].save_state();
            effects.extend(self.with_pane(index, |p, ctx| taken = p.goto(goto, ctx)));
            if taken {
                if from_overview && index != self.tabs.focus {
                    self.opened_from_tile(index, before);
                }
                self.jumped_from(from);
                // What the pane that sent the user said (why the list holds more than was
                // counted) goes along: the tab is not switched with `focus_pane`, which clears it.
                self.tabs.focus = index;
                self.tabs.shown[index] = true;
                effects.extend(self.with_pane(index, |p, ctx| p.show(ctx)));
                return effects;
            }
        }
        let busy: Vec<&str> = self
            .tabs
            .panes
            .iter()
            .filter(|p| p.has_unsaved_input())
            .map(|p| p.title())
            .collect();
        let why = if busy.is_empty() {
            "No tab shows that list.".to_owned()
        } else {
            format!(
                "{} holds unsaved input: finish or cancel it there first.",
                busy.join(", ")
            )
        };
        self.notify_error(why);
        effects
    }

    /// Routes an answer to whoever asked: the pane, the shell, or the overlay reading it.
    /// Answers nobody waits for are dropped.
    pub fn handle_answer(&mut self, answer: Answer) -> Vec<Effect> {
        if let Some(kind) = self.calls.own.remove(&answer.id) {
            return self.receive_own(kind, answer);
        }
        self.calls.retrying.remove(&answer.id);
        self.calls.sent.remove(&answer.id);
        let Some((pane, _)) = self.calls.waiting.remove(&answer.id) else {
            return Vec::new();
        };
        let back = self.heard(&answer.result);
        let Answer { id, result } = answer;
        let mut effects = self.with_pane(pane, |p, ctx| p.receive(id, result, ctx));
        if back {
            effects.extend(self.reconnected());
        }
        effects
    }

    /// What an answer from the service says of the connection: trouble (it could not be
    /// reached, refused the key, or answered unreadably several times in a row), or connected
    /// again. Answers whether the connection is back after trouble; a stale error of the
    /// connection's in the footer is then cleared.
    fn heard(&mut self, result: &Result<Reply, Failure>) -> bool {
        let was_in_trouble = matches!(self.calls.connection(), Connection::Trouble(_));
        let unreadable = matches!(result, Err(f) if f.kind == FailureKind::Undecodable);
        self.calls.unreadable = if unreadable {
            self.calls.unreadable + 1
        } else {
            0
        };
        match result {
            Err(f) if unreadable => {
                if self.calls.unreadable >= UNREADABLE_IN_A_ROW {
                    self.trouble(f.message.clone());
                }
            }
            Err(f) if f.kind.is_connection() => self.trouble(f.message.clone()),
            Err(f) if f.kind == FailureKind::Unauthorized || f.kind == FailureKind::Forbidden => {
                self.trouble("the service refused the API key".into());
            }
            Ok(_) | Err(_) => self.calls.connection = Connection::Connected,
        }
        let back = was_in_trouble && result.is_ok();
        if back
            && self
                .notices
                .flash
                .current()
                .is_some_and(|f| f.level == FlashLevel::Error)
        {
            // An error still in the footer (the connection's, said before) is stale now.
            self.notices.flash.clear();
        }
        back
    }

    /// The answers to the shell's own calls.
    fn receive_own(&mut self, kind: ShellCall, answer: Answer) -> Vec<Effect> {
        match (kind, answer.result) {
            (ShellCall::Layer, result) => return self.layer_answer(answer.id, result),
            (ShellCall::SaveView(saving), result) => self.view_saved(*saving, result),
            (ShellCall::SaveColumns(pane, columns), result) => {
                self.columns_saved(pane, columns, result);
            }
            // A snapshot reads the service: what it met says how the connection stands.
            (ShellCall::Snapshot, result) => {
                let back = self.heard(&result);
                let mut effects = self.snapshot_ended(result);
                if back {
                    effects.extend(self.reconnected());
                }
                return effects;
            }
            (ShellCall::Organizations, Ok(Reply::Organizations(OrganizationReply::Page(page)))) => {
                self.organizations_listed(page.items);
            }
            (ShellCall::Organizations, Err(failure)) => {
                self.notify_error(format!(
                    "The organizations could not be listed: {}",
                    failure.message
                ));
            }
            (
                ShellCall::Changed,
                Ok(Reply::History(HistoryReply::Changed { snapshots, records })),
            ) => {
                self.session.snapshots = snapshots;
                let changed: ChangedRecords = records
                    .into_iter()
                    .map(|(resource, ids)| (resource, Arc::new(ids.into_iter().collect())))
                    .collect();
                for pane in &mut self.tabs.panes {
                    pane.mark_changed(&changed);
                }
            }
            // Another answer than was asked for: nothing to show.
            (ShellCall::Organizations | ShellCall::Changed, Ok(_)) => {}
            (ShellCall::Changed, Err(failure)) => {
                tracing::warn!("cannot read the changed records: {}", failure.message);
            }
        }
        Vec::new()
    }

    /// The retry the footer tells of: the latest of the focused pane's calls.
    pub(super) fn focused_retry(&self) -> Option<&RetryNotice> {
        self.calls.retry_of(self.tabs.focus)
    }

    /// `Esc` while the focused pane's calls are being tried again: every call of that pane
    /// under way is cancelled at once, and the pane hears that it was stopped (as a failure it
    /// can load again from).
    pub(super) fn stop_waiting(&mut self) -> Vec<Effect> {
        let notice = self.focused_retry().cloned();
        let mut ids: Vec<RequestId> = self
            .calls
            .waiting
            .iter()
            .filter(|(_, (p, _))| *p == self.tabs.focus)
            .map(|(id, _)| *id)
            .collect();
        ids.sort_by_key(|id| id.0);
        let made = notice.map_or(0, |n| n.attempt.saturating_sub(1));
        let mut effects = Vec::new();
        for id in ids {
            effects.push(Effect::Cancel(id));
            effects.extend(self.handle_answer(Answer {
                id,
                result: Err(Failure {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "Stopped waiting: the service did not answer ({} made).",
                        crate::ui::text::count(made, "attempt")
                    ),
                    fields: Vec::new(),
                }),
            }));
        }
        effects
    }

    /// The connection is in trouble for `why`, which the status line shows and `:messages`
    /// keeps (once, not for every answer that says the same).
    fn trouble(&mut self, why: String) {
        if !matches!(self.calls.connection(), Connection::Trouble(was) if *was == why) {
            self.notices
                .messages
                .push_now(FlashLevel::Error, why.clone());
        }
        self.calls.connection = Connection::Trouble(why);
    }

    /// The service answers again: every pane shown so far whose last load failed loads again.
    fn reconnected(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        for index in 0..self.tabs.panes.len() {
            if self.tabs.shown[index] || index == self.tabs.focus {
                effects.extend(self.with_pane(index, |p, ctx| p.reconnected(ctx)));
            }
        }
        effects
    }
}
