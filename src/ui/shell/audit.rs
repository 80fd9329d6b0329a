//! `:audit`: the audit log over the panes. Entries newest first, one a line, each with who sent
//! it; `r`, `o` and `w` step through the resources, outcomes and people to show only those;
//! `Enter` shows one entry whole (the body as sent with secrets removed, pretty-printed, its
//! status, request id and error); `Esc` goes back, then closes.
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
    /// The people who sent the entries read since the overlay opened, sorted (`w` steps
    /// through them).
    people: Vec<String>,
    /// The filters asked for last.
    resource: Option<String>,
    outcome: Option<Outcome>,
    who: Option<String>,
    /// The filters of the entries shown, once read.
    shown: Option<Filter>,
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
            people: Vec::new(),
            resource: None,
            outcome: None,
            who: None,
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
            who: self.who.clone(),
        }
    }

    /// The entries read for the filters asked for last, or why they could not be.
    fn read(&mut self, read: Result<(Vec<Entry>, Vec<String>), String>) {
        self.shown = Some(self.filter());
        match read {
            Ok((entries, resources)) => {
                // Kept across reads: once filtered by one person, the others stay a key away.
                for e in &entries {
                    let who = e.who.trim();
                    if !who.is_empty()
                        && let Err(at) = self.people.binary_search_by(|p| p.as_str().cmp(who))
                    {
                        self.people.insert(at, who.to_owned());
                    }
                }
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
            (_, Some('w')) => {
                self.who = next(&self.people, self.who.as_ref());
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
        let keys = Line::from(vec![
            Span::styled(" Enter", theme.key),
            Span::styled(" show  ", theme.muted),
            Span::styled("r", theme.key),
            Span::styled(" resource  ", theme.muted),
            Span::styled("o", theme.key),
            Span::styled(" outcome  ", theme.muted),
            Span::styled("w", theme.key),
            Span::styled(" who ", theme.muted),
        ]);
        let title = title(self.shown.as_ref(), reading, usize::from(area.width));
        let block = page_block(title, "", theme).title_bottom(keys.left_aligned());
        let inner = block.inner(area);
        block.render(area, buf);
        self.visible = usize::from(inner.height.saturating_sub(1)).max(1);
        let widths = Widths::of(&self.entries, usize::from(inner.width));
        let mut lines = vec![Line::styled(
            format!(
                "{:<16}  {}  {:<11}  {:<6}  {}  record",
                "started (UTC)",
                text::pad_to("who", widths.who, Alignment::Left),
                "outcome",
                "method",
                text::pad_to("resource", widths.resource, Alignment::Left),
            ),
            theme.table_header,
        )];
        if let Some(problem) = &self.problem {
            lines.push(Line::styled(problem.clone(), theme.error));
        } else if self.shown.is_none() {
            lines.push(Line::styled("reading…", theme.muted));
        } else if self.entries.is_empty() {
            lines.push(Line::styled(
                if self.shown == Some(Filter::default()) {
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
            lines.push(Line::from(vec![
                Span::styled(
                    format!(
                        "{}  {}  ",
                        e.started_at.format("%Y-%m-%d %H:%M"),
                        text::pad_to(e.who_shown(), widths.who, Alignment::Left),
                    ),
                    pick(theme.base),
                ),
                Span::styled(
                    format!(
                        "{:<7} {:>3}",
                        e.outcome.name(),
                        e.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
                    ),
                    pick(outcome_style(e.outcome, theme)),
                ),
                Span::styled(
                    format!(
                        "  {:<6}  {}  {}",
                        e.method,
                        text::pad_to(&e.resource, widths.resource, Alignment::Left),
                        text::truncate(e.record_id.as_deref().unwrap_or("-"), widths.record),
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

/// The title: the filters of the entries shown (`all` for none), the person cut short, and
/// `newest first` when there is room for it in `width` columns.
fn title(shown: Option<&Filter>, reading: &str, width: usize) -> String {
    let Some(shown) = shown else {
        return format!(" Audit log{reading} ");
    };
    let filters = format!(
        "resource {} · outcome {} · who {}",
        shown.resource.as_deref().unwrap_or("all"),
        shown.outcome.map_or("all", Outcome::name),
        text::truncate(shown.who.as_deref().unwrap_or("all"), 20),
    );
    // The corners take a column each.
    let room = width.saturating_sub(2);
    let long = format!(" Audit log, newest first · {filters}{reading} ");
    if text::width(&long) <= room {
        return long;
    }
    text::truncate(&format!(" Audit log · {filters}{reading} "), room).into_owned()
}

/// The widths of the columns that give and take room: who, the resource and the record.
struct Widths {
    who: usize,
    resource: usize,
    record: usize,
}

impl Widths {
    /// The started time (16), the outcome and status (11), the method (6) and the gaps take
    /// 43 columns of `width`; who, the resource and the record share the rest, each no wider
    /// than its longest among `entries`: at 80 columns, about 11, 13 and 9.
    fn of(entries: &[Entry], width: usize) -> Self {
        let longest = |least: usize, f: &dyn Fn(&Entry) -> &str| {
            entries
                .iter()
                .map(|e| text::width(f(e)))
                .max()
                .unwrap_or(0)
                .max(least)
        };
        let room = width.saturating_sub(16 + 2 + 11 + 2 + 6 + 2 + 2 + 2);
        let who = longest(3, &Entry::who_shown).min((room / 3).max(10));
        let resource = longest(8, &|e| e.resource.as_str()).min((room / 3).max(13));
        Widths {
            who,
            resource,
            record: room.saturating_sub(who + resource).max(8),
        }
    }
}

pub(super) fn outcome_style(outcome: Outcome, theme: &Theme) -> Style {
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
        ("Sent by", e.who_shown().to_owned(), theme.base),
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

    /// A write to `resource` that ended with `outcome` and `status`, sent by no one known.
    fn entry(id: i64, resource: &str, outcome: Outcome, status: u16) -> Entry {
        sent_by(id, "", resource, outcome, status)
    }

    /// A write to `resource` sent by `who` that ended with `outcome` and `status`.
    fn sent_by(id: i64, who: &str, resource: &str, outcome: Outcome, status: u16) -> Entry {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
            .unwrap()
            .and_hms_opt(9, 30, 0)
            .unwrap()
            .and_utc();
        Entry {
            id,
            started_at: at,
            finished_at: Some(at),
            who: who.into(),
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
            rows[0].contains("refused 409") && rows[0].contains("filings"),
            "{text}"
        );
        assert!(
            rows[1].contains("ok      200") && rows[1].contains("customers"),
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

    /// The entries `filter` keeps of a log of a preparer's, a reviewer's and an old entry that
    /// names no one, newest first, and the resources.
    fn read_people(filter: &Filter) -> (Vec<Entry>, Vec<String>) {
        let entries = [
            sent_by(3, "Rui Reviewer", "filings", Outcome::Ok, 200),
            sent_by(2, "Priya Preparer", "registrations", Outcome::Refused, 422),
            entry(1, "customers", Outcome::Ok, 201),
        ];
        let kept = entries.into_iter().filter(|e| filter.keeps(e)).collect();
        (
            kept,
            vec!["customers".into(), "filings".into(), "registrations".into()],
        )
    }

    #[test]
    fn at_80_columns_who_sent_each_entry_shows_and_w_filters_by_person() {
        let theme = Theme::default();
        let mut view = AuditView::new();
        view.read(Ok(read_people(&view.filter())));
        let mut buf = blank(80, 24);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("who all"), "{text}");
        assert!(text.contains("w who"), "the key is offered: {text}");
        let header = text.lines().find(|l| l.contains("started (UTC)")).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("POST")).collect();
        assert_eq!(rows.len(), 3, "{text}");
        // The person after the time, under its header, elided to fit; `-` for no one known.
        let column = header.find("who").unwrap();
        assert_eq!(rows[0].find("Rui Revie"), Some(column), "{text}");
        assert_eq!(rows[1].find("Priya Prep"), Some(column), "{text}");
        assert!(rows[1].contains("refused 422"), "{text}");
        assert_eq!(rows[2].find("- "), Some(column), "{text}");
        for line in text.lines() {
            assert!(text::width(line) <= 80, "{line}");
        }

        // `w`: the first person read, then the next, then all of them again.
        let AuditOutcome::Read(filter) = view.handle_key(key(KeyCode::Char('w'))) else {
            panic!("w reads the entries of the next person");
        };
        assert_eq!(filter.who.as_deref(), Some("Priya Preparer"));
        view.read(Ok(read_people(&filter)));
        let mut buf = blank(80, 24);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("who Priya Preparer"), "{text}");
        assert!(text.contains("registrations"), "{text}");
        assert!(!text.contains("Rui"), "{text}");
        assert!(!text.contains("filings"), "{text}");

        // The other people stay a key away though the entries read are one person's.
        let AuditOutcome::Read(filter) = view.handle_key(key(KeyCode::Char('w'))) else {
            panic!("w reads the entries of the next person");
        };
        assert_eq!(filter.who.as_deref(), Some("Rui Reviewer"));
        view.read(Ok(read_people(&filter)));
        let AuditOutcome::Read(filter) = view.handle_key(key(KeyCode::Char('w'))) else {
            panic!("w goes back to everyone");
        };
        assert_eq!(filter.who, None);
        view.read(Ok(read_people(&filter)));
        assert_eq!(view.entries.len(), 3);

        // The entry whole names who sent it.
        view.cursor = 1;
        view.handle_key(key(KeyCode::Enter));
        let mut buf = blank(80, 24);
        view.render(buf.area, &mut buf, &theme);
        let text = all_text(&buf);
        assert!(text.contains("Sent by       Priya Preparer"), "{text}");
    }
}
