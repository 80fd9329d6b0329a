//! A record's history across the stored snapshots (`H` on a record): one entry per snapshot
//! where the record changed, newest first, with the time and each changed field as
//! `old → new`. `Esc` goes back to the record.
//!
//! The history is read by the runtime from the history database (one indexed lookup per
//! snapshot of the profile and organization): the overlay says `reading…` until it comes, or
//! why it could not be read.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::Shell;
use super::layers::{LayerCx, ShellLayer};
use super::overlays::WHEEL_ROWS;
use crate::effect::{Effect, Failure, HistoryCall, HistoryReply, Reply, RequestId};
use crate::model::history::{RecordEntry, RecordEvent, RecordHistory};
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::theme::Theme;
use crate::ui::widgets::help::{HelpOutcome, page_block, scroll_key};
use crate::ui::widgets::wrap::wrap;

/// What the overlay has to show.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shown {
    /// The read under way, for record `id`.
    Reading {
        id: String,
        read: RequestId,
    },
    /// Why the history could not be read.
    Failed(String),
    Read(RecordHistory),
}

/// The overlay. Scrolls like `:messages`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RecordHistoryView {
    shown: Shown,
    scroll: u16,
    visible: u16,
    total: u16,
}

impl RecordHistoryView {
    fn title(&self) -> String {
        match &self.shown {
            Shown::Reading { id, .. } => format!(" History of {id} "),
            Shown::Failed(_) => " History ".to_owned(),
            Shown::Read(h) => format!(
                " History of {} {}: in {} of {} snapshots ",
                h.noun, h.name, h.held, h.snapshots
            ),
        }
    }

    /// Each entry as `2026-11-20 09:00 UTC  #4  status ACTIVE → EXPIRED`, each further field
    /// on a line of its own under the first, wrapped to `width`.
    fn lines(&self, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        let history = match &self.shown {
            Shown::Reading { .. } => return vec![Line::styled("reading…", theme.muted)],
            Shown::Failed(why) => return vec![Line::styled(why.clone(), theme.error)],
            Shown::Read(history) => history,
        };
        if history.entries.is_empty() {
            let empty = if history.snapshots == 0 {
                "No snapshot of this organization is stored yet: :snapshot takes one."
            } else {
                "No stored snapshot holds this record."
            };
            return vec![Line::styled(empty, theme.muted)];
        }
        entry_lines(&history.entries, width, theme)
    }

    /// Draws the overlay over the whole of `area`, remembering how many rows fit.
    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let lines = self.lines(area.width.saturating_sub(4), theme);
        self.visible = area.height.saturating_sub(2);
        self.total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        let last = self.total.saturating_sub(self.visible);
        self.scroll = self.scroll.min(last);
        let more = if self.scroll < last { " ↓ more " } else { "" };
        let block = page_block(self.title(), more, theme);
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(block)
            .style(theme.base)
            .scroll((self.scroll, 0))
            .render(area, buf);
    }
}

/// The entries, each snapshot's time and number leading its first line.
fn entry_lines(entries: &[RecordEntry], width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let ids = entries
        .iter()
        .map(|e| e.snapshot.to_string().len())
        .max()
        .unwrap_or(1);
    // "2026-11-20 09:00 UTC" and two spaces, "#" and the id, two spaces.
    let indent = 20 + 2 + 1 + ids + 2;
    let text_width = width.saturating_sub(indent as u16).max(10);
    let mut lines = Vec::new();
    for entry in entries {
        let (texts, style) = match &entry.event {
            RecordEvent::First => (vec!["first stored".to_owned()], theme.success),
            RecordEvent::Back => (vec!["stored again".to_owned()], theme.success),
            RecordEvent::Gone => (vec!["no longer listed".to_owned()], theme.warning),
            RecordEvent::Changed(fields) => (fields.clone(), theme.base),
        };
        // The first field on the snapshot's line, each other one on a line of its own.
        let parts = texts.iter().flat_map(|t| wrap(t, text_width));
        for (i, part) in parts.enumerate() {
            let mut spans = if i == 0 {
                vec![
                    Span::styled(
                        format!("{}  ", crate::ui::text::utc_time(entry.taken)),
                        theme.muted,
                    ),
                    Span::styled(format!("#{:<ids$}  ", entry.snapshot), theme.muted),
                ]
            } else {
                vec![Span::raw(" ".repeat(indent))]
            };
            spans.push(Span::styled(part, style));
            lines.push(Line::from(spans));
        }
    }
    lines
}

impl Layer for RecordHistoryView {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render(area, buf, theme);
    }
}

impl ShellLayer for RecordHistoryView {
    /// Esc and `q` close; `j`/`k`, arrows, PgUp/PgDn, `g`/`G` scroll.
    fn key(&mut self, key: KeyEvent, _cx: &mut LayerCx) -> LayerOutcome {
        match scroll_key(&key, &mut self.scroll, self.visible, self.total) {
            HelpOutcome::None => LayerOutcome::Keep,
            HelpOutcome::Close => LayerOutcome::Close,
        }
    }

    fn wheel(&mut self, key: KeyEvent) {
        for _ in 0..WHEEL_ROWS {
            scroll_key(&key, &mut self.scroll, self.visible, self.total);
        }
    }

    fn awaited(&self) -> Vec<RequestId> {
        match &self.shown {
            Shown::Reading { read, .. } => vec![*read],
            _ => Vec::new(),
        }
    }

    fn receive(
        &mut self,
        _id: RequestId,
        result: Result<Reply, Failure>,
        _cx: &mut LayerCx,
    ) -> LayerOutcome {
        self.shown = match result {
            Ok(Reply::History(HistoryReply::Record(history))) => Shown::Read(history),
            Ok(_) => Shown::Failed("The history database gave an unexpected answer.".to_owned()),
            Err(failure) => Shown::Failed(failure.message),
        };
        LayerOutcome::Keep
    }
}

impl Shell {
    /// Opens the history of the record the focused pane is on (`H`), read for it.
    pub(super) fn open_record_history(&mut self) -> Vec<Effect> {
        let Some((resource, id)) = self.focused().current_record() else {
            self.notify_error("No record here has a history: open one first.");
            return Vec::new();
        };
        let header = &self.session.header;
        let call = HistoryCall::Record {
            profile: header.profile.clone(),
            organization: header.organization.clone(),
            resource,
            id: id.clone(),
        };
        self.open_layer(|cx| {
            Box::new(RecordHistoryView {
                shown: Shown::Reading {
                    id,
                    read: cx.call(call),
                },
                scroll: 0,
                visible: 0,
                total: 0,
            })
        })
    }
}
