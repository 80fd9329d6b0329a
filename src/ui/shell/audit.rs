//! `:audit`: the audit log over the panes. Entries newest first, one a line; `r` and `o` step
//! through the resources and outcomes to show only those; `Enter` shows one entry whole (the
//! body as sent with secrets removed, pretty-printed, its status, request id and error); `Esc`
//! goes back, then closes.
//!
//! The entries are read by the runtime: the overlay says `reading…` until they come, and keeps
//! what it shows (its title naming the filters shown) until the entries of new filters come.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget};

use super::Shell;
use super::layers::{LayerCx, ShellLayer};
use crate::effect::{Effect, Failure, HistoryCall, HistoryReply, Reply, RequestId};
use crate::model::audit::{Entry, Filter, Outcome};
use crate::ui::layer::{Layer, LayerOutcome};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::help::page_block;
use crate::ui::widgets::keys::{is_press, typed_char};
use crate::ui::widgets::wrap::wrap;

/// What a key did to the overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
enum AuditOutcome {
    None,
    Close,
    /// Read the entries `filter` keeps.
    Read(Filter),
}

struct AuditView {
    entries: Vec<Entry>,
    resources: Vec<String>,
    /// The filters asked for last.
    resource: Option<String>,
    outcome: Option<Outcome>,
    /// The filters of the entries shown, once read.
    shown: Option<(Option<String>, Option<Outcome>)>,
    /// The read under way.
    reading: Option<RequestId>,
    cursor: usize,
    offset: usize,
    visible: usize,
    /// The entry shown whole, and how far its text is scrolled.
    open: Option<Entry>,
    scroll: u16,
    problem: Option<String>,
}

impl AuditView {
    /// The overlay before its entries are read.
    fn new() -> Self {
        AuditView {
            entries: Vec::new(),
            resources: Vec::new(),
            resource: None,
            outcome: None,
            shown: None,
            reading: None,
            cursor: 0,
            offset: 0,
            visible: 1,
            open: None,
            scroll: 0,
            problem: None,
        }
    }

    /// The entries the filters asked for last keep.
    fn filter(&self) -> Filter {
        Filter {
            since: None,
            resource: self.resource.clone(),
            outcome: self.outcome,
            who: None,
        }
    }

    /// The entries read for the filters asked for last, or why they could not be.
    fn read(&mut self, read: Result<(Vec<Entry>, Vec<String>), String>) {
        self.shown = Some((self.resource.clone(), self.outcome));
        match read {
            Ok((entries, resources)) => {
                self.entries = entries;
                self.resources = resources;
                self.problem = None;
            }
            Err(why) => {
                self.entries.clear();
                self.problem = Some(why);
            }
        }
        self.cursor = self.cursor.min(self.entries.len().saturating_sub(1));
    }

    fn handle_key(&mut self, key: KeyEvent) -> AuditOutcome {
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
                return AuditOutcome::Read(self.filter());
            }
            (_, Some('o')) => {
                self.outcome = next(&Outcome::ALL, self.outcome.as_ref());
                self.cursor = 0;
                return AuditOutcome::Read(self.filter());
            }
            (_, Some('R')) => return AuditOutcome::Read(self.filter()),
            _ => {}
        }
        AuditOutcome::None
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
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
        let reading = if self.reading.is_some() {
            " · reading…"
        } else {
            ""
        };
        let filter = match &self.shown {
            Some((resource, outcome)) => format!(
                " Audit log, newest first · resource {} · outcome {}{reading} ",
                resource.as_deref().unwrap_or("all"),
                outcome.map_or("all", Outcome::name),
            ),
            None => format!(" Audit log{reading} "),
        };
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
        } else if self.shown.is_none() {
            lines.push(Line::styled("reading…", theme.muted));
        } else if self.entries.is_empty() {
            lines.push(Line::styled(
                if self.shown == Some((None, None)) {
                    "No change recorded yet: each change taxdash sends is listed here."
                } else {
                    "No change recorded matches these filters."
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

impl Layer for AuditView {
    fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render(area, buf, theme);
    }
}

impl ShellLayer for AuditView {
    fn key(&mut self, key: KeyEvent, cx: &mut LayerCx) -> LayerOutcome {
        match self.handle_key(key) {
            AuditOutcome::None => LayerOutcome::Keep,
            AuditOutcome::Close => LayerOutcome::Close,
            AuditOutcome::Read(filter) => {
                self.reading = Some(cx.call(HistoryCall::Audit { filter }));
                LayerOutcome::Keep
            }
        }
    }

    fn awaited(&self) -> Vec<RequestId> {
        self.reading.into_iter().collect()
    }

    /// The entries read; an answer to an older read than the last is dropped.
    fn receive(
        &mut self,
        id: RequestId,
        result: Result<Reply, Failure>,
        _cx: &mut LayerCx,
    ) -> LayerOutcome {
        if self.reading != Some(id) {
            return LayerOutcome::Keep;
        }
        self.reading = None;
        self.read(match result {
            Ok(Reply::History(HistoryReply::Audit { entries, resources })) => {
                Ok((entries, resources))
            }
            Ok(_) => Err("The audit log gave an unexpected answer.".to_owned()),
            Err(failure) => Err(failure.message),
        });
        LayerOutcome::Keep
    }
}

impl Shell {
    /// `:audit`: the audit log over the panes, its entries read for it.
    pub(super) fn open_audit(&mut self) -> Vec<Effect> {
        self.open_layer(|cx| {
            let mut view = AuditView::new();
            let filter = view.filter();
            view.reading = Some(cx.call(HistoryCall::Audit { filter }));
            Box::new(view)
        })
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
    use crate::ui::widgets::testing::{all_text, assert_styled, blank, key};

    /// A write to `resource` that ended with `outcome` and `status`.
    fn entry(id: i64, resource: &str, outcome: Outcome, status: u16) -> Entry {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
            .unwrap()
            .and_hms_opt(9, 30, 0)
            .unwrap()
            .and_utc();
        Entry {
            id,
            started_at: at,
            finished_at: Some(at),
            profile: "work".into(),
            organization: "orgn_1".into(),
            generation: "v1".into(),
            api_release: None,
            method: "POST".into(),
            path: format!("/v1/{resource}"),
            resource: resource.into(),
            record_id: Some(format!("{resource}_1")),
            body: serde_json::json!({"name": resource}),
            outcome,
            status: Some(status),
            request_id: None,
            error: None,
        }
    }

    /// The entries `filter` keeps of a log of two, newest first, and the resources.
    fn read(filter: &Filter) -> (Vec<Entry>, Vec<String>) {
        let entries = [
            entry(2, "filings", Outcome::Refused, 409),
            entry(1, "customers", Outcome::Ok, 200),
        ];
        let kept = entries.into_iter().filter(|e| filter.keeps(e)).collect();
        (kept, vec!["customers".into(), "filings".into()])
    }

    #[test]
    fn at_80_columns_the_outcome_and_status_show_and_r_filters_by_resource() {
        let theme = Theme::default();
        let mut view = AuditView::new();
        let mut buf = blank(80, 10);
        view.render(buf.area, &mut buf, &theme);
        assert!(all_text(&buf).contains("reading…"), "{}", all_text(&buf));
        view.read(Ok(read(&view.filter())));
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

        let AuditOutcome::Read(filter) = view.handle_key(key(KeyCode::Char('r'))) else {
            panic!("r reads the entries of the next resource");
        };
        assert_eq!(filter.resource.as_deref(), Some("customers"));
        view.read(Ok(read(&filter)));
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
