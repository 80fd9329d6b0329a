//! A record's history (`H` on a record): the changes sent to it through taxdash, newest first,
//! each with when, who sent it, how it ended and the call; then one entry per snapshot where
//! the record changed, newest first, with the time and each changed field as `old → new`.
//! `Esc` goes back to the record.
//!
//! The history is read by the runtime from the history database (one indexed lookup per
//! snapshot of the profile and organization, and the record's entries of the audit log): the
//! overlay says `reading…` until it comes, or why it could not be read.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::Shell;
use super::layers::{LayerCx, ShellLayer};
use super::overlays::WHEEL_ROWS;
use crate::effect::{Effect, Failure, HistoryCall, HistoryReply, Reply, RequestId};
use crate::model::audit::Entry;
use crate::model::history::{RecordEntry, RecordEvent, RecordHistory};
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::help::{HelpOutcome, page_block, scroll_key};
use crate::ui::widgets::wrap::wrap;

/// What the overlay has to show.
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
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

    /// The changes sent through taxdash, when there are any, under a heading of their own
    /// (see [`write_lines`]); then each snapshot entry as
    /// `2026-11-20 09:00 UTC  #4  status ACTIVE → EXPIRED`, each further field on a line of
    /// its own under the first, wrapped to `width`.
    fn lines(&self, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        let history = match &self.shown {
            Shown::Reading { .. } => return vec![Line::styled("reading…", theme.muted)],
            Shown::Failed(why) => return vec![Line::styled(why.clone(), theme.error)],
            Shown::Read(history) => history,
        };
        let mut lines = Vec::new();
        if !history.writes.is_empty() {
            lines.push(Line::styled("Changes sent through taxdash", theme.title));
            lines.extend(write_lines(&history.writes, width, theme));
            lines.push(Line::raw(""));
            lines.push(Line::styled("Across snapshots", theme.title));
        }
        if history.entries.is_empty() {
            let empty = if history.snapshots == 0 {
                "No snapshot of this organization is stored yet: :snapshot takes one."
            } else {
                "No stored snapshot holds this record."
            };
            lines.push(Line::styled(empty, theme.muted));
        } else {
            lines.extend(entry_lines(&history.entries, width, theme));
        }
        lines
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

/// The changes sent to the record, one a line, cut to `width`:
/// `2026-11-24 09:30 UTC  Priya Preparer  refused 422  POST deregister`: when it was sent, who
/// sent it (`-` in entries older than taxdash keeping it), the outcome and HTTP status, the
/// method and what the path names after the record.
fn write_lines(writes: &[Entry], width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let who = |e: &Entry| e.who_shown().to_owned();
    let who_width = writes
        .iter()
        .map(|e| text::width(&who(e)))
        .max()
        .unwrap_or(1)
        .min(24);
    writes
        .iter()
        .map(|e| {
            // `deregister` of `/v1/registrations/reg_1/deregister`: what the call did to it.
            let segments: Vec<&str> = e.path.split('/').collect();
            let after = e
                .record_id
                .as_deref()
                .and_then(|id| segments.iter().position(|s| *s == id))
                .map(|at| segments[at + 1..].join("/"))
                .unwrap_or_default();
            let call = if after.is_empty() {
                e.method.clone()
            } else {
                format!("{} {after}", e.method)
            };
            let line = Line::from(vec![
                Span::styled(format!("{}  ", text::utc_time(e.started_at)), theme.muted),
                Span::styled(
                    format!("{}  ", text::pad_to(&who(e), who_width, Alignment::Left)),
                    theme.base,
                ),
                Span::styled(
                    format!(
                        "{:<7} {:>3}",
                        e.outcome.name(),
                        e.status.map_or_else(|| "-".to_owned(), |s| s.to_string())
                    ),
                    super::audit::outcome_style(e.outcome, theme),
                ),
                Span::styled(format!("  {call}"), theme.base),
            ]);
            text::truncate_line(line, usize::from(width))
        })
        .collect()
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
                    Span::styled(format!("{}  ", text::utc_time(entry.taken)), theme.muted),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::audit::Outcome;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank};

    fn at(day: u32, hour: u32) -> chrono::DateTime<chrono::Utc> {
        chrono::NaiveDate::from_ymd_opt(2026, 11, day)
            .unwrap()
            .and_hms_opt(hour, 0, 0)
            .unwrap()
            .and_utc()
    }

    /// A write to `path` (`reg_1` or below it), sent by `who` on day `day`, that ended with
    /// `outcome` and `status`.
    fn write(day: u32, who: &str, path: &str, outcome: Outcome, status: u16) -> Entry {
        let method = if path.ends_with("reg_1") {
            "PUT"
        } else {
            "POST"
        };
        Entry {
            id: i64::from(day),
            started_at: at(day, 14),
            finished_at: Some(at(day, 14)),
            who: who.into(),
            profile: "work".into(),
            organization: "orgn_1".into(),
            generation: "v1".into(),
            api_release: None,
            method: method.into(),
            path: path.into(),
            resource: "registrations".into(),
            record_id: Some("reg_1".into()),
            body: serde_json::Value::Null,
            outcome,
            status: Some(status),
            request_id: None,
            error: None,
        }
    }

    /// The overlay on `history`, drawn at 80x24.
    fn drawn(history: RecordHistory) -> Buffer {
        let mut view = RecordHistoryView {
            shown: Shown::Read(history),
            scroll: 0,
            visible: 0,
            total: 0,
        };
        let mut buf = blank(80, 24);
        view.render(buf.area, &mut buf, &Theme::default());
        buf
    }

    #[test]
    fn h_shows_who_sent_each_change_of_the_record_then_the_snapshots() {
        let history = RecordHistory {
            noun: "registration".into(),
            name: "reg_1 (CA)".into(),
            snapshots: 2,
            held: 2,
            entries: vec![
                RecordEntry {
                    snapshot: 2,
                    taken: at(21, 9),
                    event: RecordEvent::Changed(vec!["status ACTIVE → INACTIVE".into()]),
                },
                RecordEntry {
                    snapshot: 1,
                    taken: at(20, 9),
                    event: RecordEvent::First,
                },
            ],
            writes: vec![
                write(
                    22,
                    "Rui Reviewer",
                    "/v1/registrations/reg_1/deregister",
                    Outcome::Refused,
                    422,
                ),
                write(
                    20,
                    "Priya Preparer",
                    "/v1/registrations/reg_1",
                    Outcome::Ok,
                    200,
                ),
                write(19, "", "/v1/registrations/reg_1", Outcome::Ok, 200),
            ],
        };
        let buf = drawn(history);
        assert_styled(&buf, "refused 422", Theme::default().warning);
        let text = all_text(&buf);
        let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
        let sent = lines
            .iter()
            .position(|l| l.contains("Changes sent through taxdash"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            lines[sent + 1]
                .contains("2026-11-22 14:00 UTC  Rui Reviewer    refused 422  POST deregister"),
            "{text}"
        );
        assert!(
            lines[sent + 2].contains("2026-11-20 14:00 UTC  Priya Preparer  ok      200  PUT"),
            "{text}"
        );
        assert!(
            lines[sent + 3].contains("2026-11-19 14:00 UTC  -               ok      200  PUT"),
            "no one known: {text}"
        );
        assert!(lines[sent + 5].contains("Across snapshots"), "{text}");
        assert!(
            lines[sent + 6].contains("2026-11-21 09:00 UTC  #2  status ACTIVE → INACTIVE"),
            "{text}"
        );
        assert!(lines[sent + 7].contains("#1  first stored"), "{text}");
    }
}
