//! A record's history across the stored snapshots (`H` on a record): one entry per snapshot
//! where the record changed, newest first, with the time and each changed field as
//! `old → new`. `Esc` goes back to the record.
//!
//! The history is read from the history database when `H` is pressed, on the UI thread: one
//! indexed lookup per snapshot of the profile and organization, cheap next to a frame.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};
use serde_json::Value;

use crate::history::History;
use crate::history::diff::{field_changes, label, noun, shown};
use crate::history::snapshot::Snapshot;
use crate::model::Resource;
use crate::ui::theme::Theme;
use crate::ui::widgets::help::{HelpOutcome, page_block};
use crate::ui::widgets::wrap::wrap;

/// What happened to the record at one snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The first snapshot that holds it.
    First,
    /// Fields changed since the snapshot before: `status ACTIVE → EXPIRED`.
    Changed(Vec<String>),
    /// The snapshot no longer holds it.
    Gone,
    /// It is held again after a snapshot without it.
    Back,
}

/// One entry: the snapshot and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub snapshot: Snapshot,
    pub event: Event,
}

/// The entries of a record's history, newest first, from its bodies across the snapshots
/// (oldest first, as [`History::record_history`] answers). Snapshots where it did not change
/// are left out.
pub fn entries(seen: &[(Snapshot, Option<String>)]) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut before: Option<Value> = None;
    let mut held_before = false;
    for (snapshot, body) in seen {
        let now = body
            .as_deref()
            .map(|b| serde_json::from_str(b).unwrap_or_else(|_| Value::String(b.to_owned())));
        let event = match (&before, &now) {
            (None, Some(_)) if held_before => Some(Event::Back),
            (None, Some(_)) => Some(Event::First),
            (Some(_), None) => Some(Event::Gone),
            (Some(old), Some(new)) if old != new => Some(Event::Changed(
                field_changes(old, new)
                    .iter()
                    .map(|f| {
                        format!(
                            "{} {} → {}",
                            f.path,
                            shown(f.old.as_ref()),
                            shown(f.new.as_ref())
                        )
                    })
                    .collect(),
            )),
            _ => None,
        };
        if let Some(event) = event {
            out.push(Entry {
                snapshot: snapshot.clone(),
                event,
            });
        }
        held_before |= now.is_some();
        before = now;
    }
    out.reverse();
    out
}

/// The overlay. Scrolls like `:messages`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordHistoryView {
    title: String,
    entries: Vec<Entry>,
    /// Why there is nothing to show, when there is not.
    empty: String,
    scroll: u16,
    visible: u16,
    total: u16,
}

impl RecordHistoryView {
    /// The history of record `id` of `resource` in the snapshots of `scope` (profile,
    /// organization).
    pub fn read(
        history: &History,
        scope: (&str, &str),
        resource: Resource,
        id: &str,
    ) -> Result<Self, String> {
        let seen = history
            .record_history(scope, resource, id)
            .map_err(|e| e.to_string())?;
        let name = seen
            .iter()
            .rev()
            .find_map(|(_, b)| b.as_deref())
            .and_then(|b| serde_json::from_str::<Value>(b).ok())
            .map_or_else(|| id.to_owned(), |b| label(resource, id, &b));
        let held = seen.iter().filter(|(_, b)| b.is_some()).count();
        let empty = if seen.is_empty() {
            "No snapshot of this organization is stored yet: `taxdash snapshot` takes one."
        } else {
            "No stored snapshot holds this record."
        };
        Ok(RecordHistoryView {
            title: format!(
                " History of {} {name}: in {held} of {} snapshots ",
                noun(resource),
                seen.len()
            ),
            entries: entries(&seen),
            empty: empty.to_owned(),
            scroll: 0,
            visible: 0,
            total: 0,
        })
    }

    /// Esc and `q` close; `j`/`k`, arrows, PgUp/PgDn, `g`/`G` scroll.
    pub fn handle_key(&mut self, key: KeyEvent) -> HelpOutcome {
        crate::ui::widgets::help::scroll_key(&key, &mut self.scroll, self.visible, self.total)
    }

    /// Each entry as `2026-11-20 09:00 UTC  #4  status ACTIVE → EXPIRED`, each further field
    /// on a line of its own under the first, wrapped to `width`.
    fn lines(&self, width: u16, theme: &Theme) -> Vec<Line<'static>> {
        if self.entries.is_empty() {
            return vec![Line::styled(self.empty.clone(), theme.muted)];
        }
        let ids = self
            .entries
            .iter()
            .map(|e| e.snapshot.id.to_string().len())
            .max()
            .unwrap_or(1);
        // "2026-11-20 09:00 UTC" and two spaces, "#" and the id, two spaces.
        let indent = 20 + 2 + 1 + ids + 2;
        let text_width = width.saturating_sub(indent as u16).max(10);
        let mut lines = Vec::new();
        for entry in &self.entries {
            let (texts, style) = match &entry.event {
                Event::First => (vec!["first stored".to_owned()], theme.success),
                Event::Back => (vec!["stored again".to_owned()], theme.success),
                Event::Gone => (vec!["no longer listed".to_owned()], theme.warning),
                Event::Changed(fields) => (fields.clone(), theme.base),
            };
            // The first field on the snapshot's line, each other one on a line of its own.
            let parts = texts.iter().flat_map(|t| wrap(t, text_width));
            for (i, part) in parts.enumerate() {
                let mut spans = if i == 0 {
                    vec![
                        Span::styled(
                            format!("{}  ", crate::ui::text::utc_time(entry.snapshot.taken)),
                            theme.muted,
                        ),
                        Span::styled(format!("#{:<ids$}  ", entry.snapshot.id), theme.muted),
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

    /// Draws the overlay over the whole of `area`, remembering how many rows fit.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let lines = self.lines(area.width.saturating_sub(4), theme);
        self.visible = area.height.saturating_sub(2);
        self.total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        let last = self.total.saturating_sub(self.visible);
        self.scroll = self.scroll.min(last);
        let more = if self.scroll < last { " ↓ more " } else { "" };
        let block = page_block(self.title.clone(), more, theme);
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(block)
            .style(theme.base)
            .scroll((self.scroll, 0))
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, Utc};

    use super::*;
    use crate::history::snapshot::Scope;

    fn run(id: i64) -> Snapshot {
        Snapshot {
            id,
            taken: NaiveDate::from_ymd_opt(2026, 11, u32::try_from(id).unwrap())
                .unwrap()
                .and_hms_opt(9, 0, 0)
                .unwrap()
                .and_utc()
                .with_timezone(&Utc),
            scope: Scope {
                profile: "p".into(),
                organization: "o".into(),
                api: "v1".into(),
                transactions: None,
            },
            records: 1,
        }
    }

    #[test]
    fn only_the_snapshots_where_it_changed_are_entries_newest_first() {
        let body = |s: &str| Some(format!(r#"{{"status":"{s}"}}"#));
        let seen = vec![
            (run(1), None),
            (run(2), body("ACTIVE")),
            (run(3), body("ACTIVE")),
            (run(4), body("EXPIRED")),
            (run(5), None),
            (run(6), body("EXPIRED")),
        ];
        let events: Vec<(i64, Event)> = entries(&seen)
            .into_iter()
            .map(|e| (e.snapshot.id, e.event))
            .collect();
        assert_eq!(
            events,
            [
                (6, Event::Back),
                (5, Event::Gone),
                (4, Event::Changed(vec!["status ACTIVE → EXPIRED".into()])),
                (2, Event::First),
            ]
        );
    }
}
