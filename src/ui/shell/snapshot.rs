//! `:snapshot`: a snapshot of what the dashboard is connected to, taken by the runtime in the
//! background through the dashboard's own client while the keys keep working. The status line
//! tells how far its reads have come; when it ends, the flash line says what was stored and
//! what changed since the previous snapshot, and the rows flagged `Δ` and the snapshots `H`
//! counts are read again.

use ratatui::text::{Line, Span};

use super::Shell;
use super::calls::ShellCall;
use super::chrome::SPINNER;
use crate::effect::{Effect, Failure, HistoryCall, HistoryReply, Reply, RequestId};
use crate::model::history::SnapshotProgress;
use crate::ui::pane::Level;

/// The snapshot under way: the call it answers, and how far its reads have come.
pub(super) type Running = (RequestId, SnapshotProgress);

impl Shell {
    /// `:snapshot`: asks the runtime for a snapshot of the organization the dashboard acts on,
    /// unless one is being taken (or the dashboard browses a snapshot offline).
    pub(super) fn take_snapshot(&mut self) -> Vec<Effect> {
        if self.session.header.offline.is_some() {
            self.notify_error(
                "Offline: this is a snapshot already. :snapshot takes one of the service: start \
                 taxdash without --offline.",
            );
            return Vec::new();
        }
        if let Some((_, progress)) = &self.work.snapshot {
            let text = format!(
                "A snapshot is being taken ({}): wait for it to end.",
                under_way(progress)
            );
            self.notify_error(text);
            return Vec::new();
        }
        let call = HistoryCall::Snapshot {
            profile: self.session.header.profile.clone(),
        };
        let effect = self.own_call(ShellCall::Snapshot, call.into());
        if let Effect::Call { id, .. } = &effect {
            self.work.snapshot = Some((*id, SnapshotProgress::default()));
        }
        // The status line tells how it goes: a message left over would hide it.
        self.notices.flash.clear();
        vec![effect]
    }

    /// The snapshot under way moved on: the status line says how far its reads have come.
    pub fn snapshot_progress(&mut self, progress: SnapshotProgress) {
        if let Some((_, shown)) = &mut self.work.snapshot {
            *shown = progress;
        }
    }

    /// Whether a snapshot is being taken.
    pub fn snapshotting(&self) -> bool {
        self.work.snapshot.is_some()
    }

    /// The snapshot ended: what was stored and what changed since the previous one, then the
    /// rows changed are read again (so `Δ` and `H` follow it); or why nothing was stored.
    pub(super) fn snapshot_ended(&mut self, result: Result<Reply, Failure>) -> Vec<Effect> {
        self.work.snapshot = None;
        match result {
            Ok(Reply::History(HistoryReply::Snapshot(taken))) => {
                let mut text = format!("{} ({}).", taken.summary(), taken.lists());
                if self.session.history_for_session {
                    text.push_str(
                        " Kept until the demo ends: start `taxdash --demo --history FILE` to keep \
                         snapshots.",
                    );
                }
                self.notify(Level::Success, text);
                vec![self.read_changed()]
            }
            Ok(_) => {
                self.notify_error("The history database gave an unexpected answer.");
                Vec::new()
            }
            Err(failure) => {
                self.notify_error(failure.message);
                Vec::new()
            }
        }
    }

    /// The organization changed, and with it every call under way was stopped: a snapshot
    /// among them stored nothing. Answers what to tell the user, if one was.
    pub(super) fn snapshot_stopped(&mut self) -> Option<&'static str> {
        let (id, _) = self.work.snapshot.take()?;
        self.calls.forget(id);
        Some("The snapshot under way was stopped: nothing was stored.")
    }

    /// The status line while a snapshot is being taken: how far its reads have come.
    pub(super) fn snapshot_line(&self, width: u16) -> Option<Line<'static>> {
        let (_, progress) = self.work.snapshot.as_ref()?;
        let spinner = SPINNER[self.notices.spinner];
        let text = format!(" {spinner} taking a snapshot: {}", under_way(progress));
        Some(Line::from(Span::styled(
            crate::ui::text::truncate(&text, usize::from(width)).into_owned(),
            self.theme.muted,
        )))
    }
}

/// How far a snapshot's reads have come, in words: `1,204 of 2,310 rows read, 3 of 6 lists
/// whole`, or that it is starting.
fn under_way(progress: &SnapshotProgress) -> String {
    if progress.lists == 0 {
        "starting".to_owned()
    } else {
        progress.to_string()
    }
}
