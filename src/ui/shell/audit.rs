//! `:audit`: the audit log over the panes. Entries newest first, one a line; `r` and `o` step
//! through the resources and outcomes to show only those; `Enter` shows one entry whole (the
//! body as sent with secrets removed, pretty-printed, its status, request id and error); `Esc`
//! goes back, then closes.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget};

use crate::history::AuditLog;
use crate::history::audit::{Entry, Filter, Outcome};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::help::page_block;
use crate::ui::widgets::keys::{is_press, typed_char};
use crate::ui::widgets::wrap::wrap;

/// What a key did to the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditOutcome {
    None,
    Close,
}

pub struct AuditView {
    log: AuditLog,
    entries: Vec<Entry>,
    resources: Vec<String>,
    resource: Option<String>,
    outcome: Option<Outcome>,
    cursor: usize,
    offset: usize,
    visible: usize,
    /// The entry shown whole, and how far its text is scrolled.
    open: Option<Entry>,
    scroll: u16,
    problem: Option<String>,
}

impl AuditView {
    pub fn new(log: AuditLog) -> Self {
        let mut view = AuditView {
            log,
            entries: Vec::new(),
            resources: Vec::new(),
            resource: None,
            outcome: None,
            cursor: 0,
            offset: 0,
            visible: 1,
            open: None,
            scroll: 0,
            problem: None,
        };
        view.reload();
        view
    }

    /// Reads the entries again, as the filters say.
    fn reload(&mut self) {
        let filter = Filter {
            since: None,
            resource: self.resource.clone(),
            outcome: self.outcome,
        };
        match self
            .log
            .entries(&filter)
            .and_then(|entries| self.log.resources().map(|resources| (entries, resources)))
        {
            Ok((entries, resources)) => {
                self.entries = entries;
                self.resources = resources;
                self.problem = None;
            }
            Err(e) => {
                self.entries.clear();
                self.problem = Some(e.to_string());
            }
        }
        self.cursor = self.cursor.min(self.entries.len().saturating_sub(1));
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> AuditOutcome {
        if !is_press(&key) {
            return AuditOutcome::None;
        }
        let typed = typed_char(&key);
        if self.open.is_some() {
            match (key.code, typed) {
                (KeyCode::Esc | KeyCode::Backspace | KeyCode::Enter, _) | (_, Some('q')) => {
                    self.open = None;
                }
                (KeyCode::Down, _) | (_, Some('j')) => self.scroll = self.scroll.saturating_add(1),
                (KeyCode::Up, _) | (_, Some('k')) => self.scroll = self.scroll.saturating_sub(1),
                (KeyCode::Home, _) | (_, Some('g')) => self.scroll = 0,
                _ => {}
            }
            return AuditOutcome::None;
        }
        let last = self.entries.len().saturating_sub(1);
        match (key.code, typed) {
            (KeyCode::Esc, _) | (_, Some('q')) => return AuditOutcome::Close,
            (KeyCode::Down, _) | (_, Some('j')) => self.cursor = (self.cursor + 1).min(last),
            (KeyCode::Up, _) | (_, Some('k')) => self.cursor = self.cursor.saturating_sub(1),
            (KeyCode::PageDown, _) => self.cursor = (self.cursor + self.visible).min(last),
            (KeyCode::PageUp, _) => self.cursor = self.cursor.saturating_sub(self.visible),
            (KeyCode::Home, _) | (_, Some('g')) => self.cursor = 0,
            (KeyCode::End, _) | (_, Some('G')) => self.cursor = last,
            (KeyCode::Enter, _) => {
                self.open = self.entries.get(self.cursor).cloned();
                self.scroll = 0;
            }
            (_, Some('r')) => {
                self.resource = next(&self.resources, self.resource.as_ref());
                self.cursor = 0;
                self.reload();
            }
            (_, Some('o')) => {
                self.outcome = next(&Outcome::ALL, self.outcome.as_ref());
                self.cursor = 0;
                self.reload();
            }
            (_, Some('R')) => self.reload(),
            _ => {}
        }
        AuditOutcome::None
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        Clear.render(area, buf);
        if let Some(entry) = &self.open {
            let lines = entry_lines(entry, area.width.saturating_sub(4), theme);
            let visible = area.height.saturating_sub(2);
            let total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
            self.scroll = self.scroll.min(total.saturating_sub(visible));
            let more = if self.scroll < total.saturating_sub(visible) {
                " ↓ more "
            } else {
                ""
            };
            let title = format!(" Audit entry {} ", entry.id);
            let block = Block::bordered()
                .title(Span::styled(title, theme.title))
                .title_bottom(Line::styled(more, theme.muted).left_aligned())
                .title_bottom(
                    Line::from(vec![
                        Span::styled(" Esc", theme.key),
                        Span::styled(" back ", theme.muted),
                    ])
                    .right_aligned(),
                )
                .border_style(theme.border_focus)
                .padding(Padding::horizontal(1));
            Paragraph::new(lines)
                .block(block)
                .style(theme.base)
                .scroll((self.scroll, 0))
                .render(area, buf);
            return;
        }
        let filter = format!(
            " Audit log, newest first · resource {} · outcome {} ",
            self.resource.as_deref().unwrap_or("all"),
            self.outcome.map_or("all", Outcome::name),
        );
        let keys = Line::from(vec![
            Span::styled(" Enter", theme.key),
            Span::styled(" show  ", theme.muted),
            Span::styled("r", theme.key),
            Span::styled(" resource  ", theme.muted),
            Span::styled("o", theme.key),
            Span::styled(" outcome ", theme.muted),
        ]);
        let block = page_block(filter, "", theme).title_bottom(keys.left_aligned());
        let inner = block.inner(area);
        block.render(area, buf);
        self.visible = usize::from(inner.height.saturating_sub(1)).max(1);
        let mut lines = vec![Line::styled(
            format!(
                "{:<16}  {:<8}  {:<6}  {:<6}  {:<19}  {}",
                "started (UTC)", "outcome", "status", "method", "resource", "record"
            ),
            theme.table_header,
        )];
        if let Some(problem) = &self.problem {
            lines.push(Line::styled(problem.clone(), theme.error));
        } else if self.entries.is_empty() {
            lines.push(Line::styled(
                if self.resource.is_some() || self.outcome.is_some() {
                    "No change recorded matches these filters."
                } else {
                    "No change recorded yet: each change taxdash sends is listed here."
                },
                theme.muted,
            ));
        }
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + self.visible {
            self.offset = self.cursor + 1 - self.visible;
        }
        for (i, e) in self
            .entries
            .iter()
            .enumerate()
            .skip(self.offset)
            .take(self.visible)
        {
            let selected = i == self.cursor;
            let pick = |style: Style| {
                if selected {
                    style.patch(theme.selection)
                } else {
                    style
                }
            };
            let record = e.record_id.as_deref().unwrap_or("-");
            let room = usize::from(inner.width).saturating_sub(20 + 8 + 6 + 6 + 19 + 10);
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{:<20}  ", text::utc_time(e.started_at)),
                    pick(theme.base),
                ),
                Span::styled(
                    format!("{:<8}", e.outcome.name()),
                    pick(outcome_style(e.outcome, theme)),
                ),
                Span::styled(
                    format!(
                        "  {:<6}  {:<6}  {}  {}",
                        e.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
                        e.method,
                        text::pad_to(&e.resource, 19, Alignment::Left),
                        text::truncate(record, room.max(8)),
                    ),
                    pick(theme.base),
                ),
            ]));
        }
        Paragraph::new(lines).style(theme.base).render(inner, buf);
    }
}

/// The value after `current` in `all`, `None` after the last (all of them shown).
fn next<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|x| x == c)) {
        None => all.first().cloned(),
        Some(i) => all.get(i + 1).cloned(),
    }
}

fn outcome_style(outcome: Outcome, theme: &Theme) -> Style {
    match outcome {
        Outcome::Ok => theme.success,
        Outcome::Refused => theme.warning,
        Outcome::Failed => theme.error,
        Outcome::Pending => theme.info,
        Outcome::Unknown => theme.status_pending,
    }
}

/// One entry whole: its facts, then the body as sent (secrets removed), pretty-printed.
fn entry_lines(e: &Entry, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let time = |t: &chrono::DateTime<chrono::Utc>| crate::model::format::utc_time_millis(*t);
    let release = e
        .api_release
        .as_deref()
        .map(|r| format!(" {r}"))
        .unwrap_or_default();
    let facts: Vec<(&str, String, Style)> = vec![
        ("Call", format!("{} {}", e.method, e.path), theme.base),
        (
            "Outcome",
            e.outcome.name().to_owned(),
            outcome_style(e.outcome, theme),
        ),
        (
            "Status",
            e.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
            theme.base,
        ),
        ("Started", time(&e.started_at), theme.base),
        (
            "Finished",
            e.finished_at.as_ref().map_or_else(|| "-".to_owned(), time),
            theme.base,
        ),
        ("Profile", e.profile.clone(), theme.base),
        ("Organization", e.organization.clone(), theme.base),
        ("API", format!("{}{release}", e.generation), theme.base),
        ("Resource", e.resource.clone(), theme.base),
        (
            "Record",
            e.record_id.clone().unwrap_or_else(|| "-".to_owned()),
            theme.base,
        ),
        (
            "Request id",
            e.request_id.clone().unwrap_or_else(|| "-".to_owned()),
            theme.base,
        ),
    ];
    let label_width = 14;
    let text_width = width.saturating_sub(label_width).max(10);
    let mut lines = Vec::new();
    for (label, value, style) in facts {
        lines.push(Line::from(vec![
            Span::styled(format!("{label:<14}"), theme.muted),
            Span::styled(value, style),
        ]));
    }
    if let Some(error) = &e.error {
        for (i, part) in wrap(error, text_width).into_iter().enumerate() {
            let label = if i == 0 { "Error" } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<14}"), theme.muted),
                Span::styled(part, theme.error),
            ]));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Body as sent (secrets removed)", theme.title));
    let body = if e.body.is_null() {
        "(none)".to_owned()
    } else {
        serde_json::to_string_pretty(&e.body).unwrap_or_default()
    };
    lines.extend(body.lines().map(|l| Line::raw(l.to_owned())));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Generation, SentBody, WriteAnswer, WriteOutcome, WriteSent};
    use crate::history::History;
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, key};

    fn log_with_two() -> AuditLog {
        let log = AuditLog::new(History::in_memory());
        for (resource, outcome, status) in [
            ("customers", WriteOutcome::Ok, 200),
            ("filings", WriteOutcome::Refused, 409),
        ] {
            let path = format!("/v1/{resource}");
            let id = log
                .record_sent(
                    "work",
                    "orgn_1",
                    &WriteSent {
                        method: "POST",
                        path: &path,
                        resource,
                        record_id: None,
                        organization: "orgn_1",
                        generation: Generation::V1,
                        body: SentBody::Json(serde_json::json!({"name": resource})),
                    },
                )
                .unwrap();
            log.record_answer(
                id,
                &WriteAnswer {
                    outcome,
                    status: Some(status),
                    record_id: Some(format!("{resource}_1")),
                    request_id: None,
                    error: None,
                },
            )
            .unwrap();
        }
        log
    }

    #[test]
    fn at_80_columns_the_outcome_and_status_show_and_r_filters_by_resource() {
        let theme = Theme::default();
        let mut view = AuditView::new(log_with_two());
        let mut buf = blank(80, 10);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("POST")).collect();
        assert_eq!(rows.len(), 2, "{text}");
        assert!(
            rows[0].contains("refused   409") && rows[0].contains("filings"),
            "{text}"
        );
        assert!(
            rows[1].contains("ok        200") && rows[1].contains("customers"),
            "{text}"
        );
        assert_styled(&buf, "refused", theme.warning.patch(theme.selection));

        view.handle_key(key(KeyCode::Char('r')));
        let mut buf = blank(80, 10);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("resource customers"), "{text}");
        assert!(!text.contains("filings_1"), "{text}");

        view.handle_key(key(KeyCode::Enter));
        let mut buf = blank(80, 20);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("\"name\": \"customers\""), "{text}");
        assert_eq!(view.handle_key(key(KeyCode::Esc)), AuditOutcome::None);
        assert_eq!(view.handle_key(key(KeyCode::Esc)), AuditOutcome::Close);
    }
}
