//! Drawing the frame: the header (profile, organization, API, badges, the connection), the tab
//! bar, the focused pane, the status line (work under way, a loading pane, connection trouble)
//! and the footer (the keys, a retry, the command line), then the overlays over them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Connection, Shell};
use crate::ui::widgets::flash::pointed_line;
use crate::ui::widgets::help::{Hint, footer_line};

/// Ticks (of 100 ms) a call waits before the header says the service has not answered: 3 s.
pub(super) const SILENT_TICKS: u64 = 30;

/// The spinner's frames, one a tick: the spinner widget's.
pub(super) const SPINNER: &[&str] = crate::ui::widgets::spinner::BRAILLE_FRAMES;

impl Shell {
    pub fn draw(&mut self, frame: &mut Frame) {
        let [header, tabs, body, status, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        // The theme's background under everything: its colours were chosen for it.
        let whole = frame.area();
        frame.buffer_mut().set_style(whole, self.theme.base);
        frame.render_widget(
            Paragraph::new(self.header_line()).style(self.theme.header),
            header,
        );
        frame.render_widget(Paragraph::new(self.tabs_line(tabs.width)), tabs);
        self.hits.tabs = self.tab_areas(tabs);
        self.hits.body = body;
        let theme = self.theme.clone();
        self.tabs.panes[self.tabs.focus].draw(frame, body, &theme, &self.keymap, true);
        if self.notices.flash.current().is_some() {
            self.notices
                .flash
                .render(status, frame.buffer_mut(), &theme);
        } else {
            frame.render_widget(Paragraph::new(self.status_line(status.width)), status);
        }
        if self.layers.iter().any(|l| l.in_footer()) {
            // The command line is drawn there with the overlays.
        } else if let Some(notice) = self.focused_retry() {
            let line = Line::from(vec![
                Span::styled(format!(" {notice}"), theme.warning),
                Span::styled("  Esc", theme.key),
                Span::styled(" stop waiting", theme.muted),
            ]);
            frame.render_widget(Paragraph::new(line), footer);
        } else {
            let hints: Vec<Hint> = self
                .hints()
                .into_iter()
                .map(|(k, l)| Hint::new(k, l, ""))
                .collect();
            let kept = self.shell_hints().len();
            let line = footer_line(&hints, kept, footer.width.saturating_sub(1), &theme);
            let indented = Rect {
                x: footer.x + 1,
                width: footer.width.saturating_sub(1),
                ..footer
            };
            frame.render_widget(Paragraph::new(line), indented);
        }
        for layer in &mut self.layers {
            let area = if layer.in_footer() { footer } else { body };
            layer.draw(area, frame.buffer_mut(), &theme);
        }
    }

    pub(super) fn header_line(&self) -> Line<'static> {
        let h = &self.session.header;
        let name = Span::styled(
            " taxdash ",
            self.theme
                .header
                .add_modifier(ratatui::style::Modifier::BOLD),
        );
        if let Some(taken) = h.offline {
            // What is browsed comes first, so that a narrow terminal still shows it; there is no
            // connection to tell of.
            let mut spans = vec![
                name,
                Span::raw(" "),
                Span::styled(" OFFLINE ", self.theme.badge_read_only),
                Span::raw(format!(" snapshot {} ", crate::ui::text::utc_time(taken))),
                Span::raw(format!("│ profile {} ", h.profile)),
                Span::raw(format!("│ org {} ", self.organization_label())),
                Span::raw(format!("│ API {} ", h.generation)),
            ];
            if h.demo {
                spans.push(Span::styled(" DEMO ", self.theme.badge_demo));
            }
            return Line::from(spans);
        }
        let mut spans = vec![
            name,
            Span::raw(format!(" profile {} ", h.profile)),
            Span::raw(format!("│ org {} ", self.organization_label())),
            Span::raw(format!("│ API {} ", h.generation)),
        ];
        if h.demo {
            spans.push(Span::styled(" DEMO ", self.theme.badge_demo));
            spans.push(Span::raw(" "));
        }
        if h.read_only {
            spans.push(Span::styled(" READ-ONLY ", self.theme.badge_read_only));
            spans.push(Span::raw(" "));
        }
        // A call unanswered for a while says more of the connection than the last answer did.
        let silent = self
            .calls
            .waited(self.session.ticks)
            .filter(|ticks| *ticks >= SILENT_TICKS)
            .map(|ticks| ticks / 10);
        spans.push(Span::raw(match (self.calls.connection(), silent) {
            (Connection::Trouble(_), _) => "│ ✕ connection trouble".to_owned(),
            (_, Some(seconds)) => format!("│ ◌ no answer for {seconds} s"),
            (Connection::Connecting, None) => "│ ○ connecting".to_owned(),
            (Connection::Connected, None) => "│ ● connected".to_owned(),
        }));
        Line::from(spans)
    }

    /// The tabs' labels in a bar `width` cells wide, and the spaces between them.
    fn tab_labels(&self, width: u16) -> (Vec<String>, usize) {
        let titles: Vec<String> = self
            .tabs
            .panes
            .iter()
            .map(|p| p.title().to_owned())
            .collect();
        tab_labels(&titles, self.tabs.focus, usize::from(width))
    }

    /// The tab bar in `width` cells. Every tab in full when they all fit; else the selected tab
    /// in full and the others as their number and first three letters (`2 Nex`); else the
    /// others as their number only; else every tab as its number. So a tab is never cut where
    /// the edge happens to fall.
    fn tabs_line(&self, width: u16) -> Line<'static> {
        let (labels, gap) = self.tab_labels(width);
        let gap = " ".repeat(gap);
        let mut spans = vec![Span::raw(" ")];
        for (i, label) in labels.into_iter().enumerate() {
            let style = if i == self.tabs.focus {
                self.theme.tab_active
            } else {
                self.theme.tab
            };
            if i > 0 {
                spans.push(Span::raw(gap.clone()));
            }
            spans.push(Span::styled(label, style));
        }
        Line::from(spans)
    }

    /// Where each tab's label is in the tab bar `area` (as [`Shell::tabs_line`] draws it).
    fn tab_areas(&self, area: Rect) -> Vec<Rect> {
        use unicode_width::UnicodeWidthStr;
        let (labels, gap) = self.tab_labels(area.width);
        let mut x = area.x.saturating_add(1);
        let mut areas = Vec::with_capacity(labels.len());
        for label in labels {
            let width = u16::try_from(label.width()).unwrap_or(u16::MAX);
            let visible = Rect::new(x, area.y, width, 1).intersection(area);
            areas.push(visible);
            x = x
                .saturating_add(width)
                .saturating_add(u16::try_from(gap).unwrap_or(u16::MAX));
        }
        areas
    }

    /// What is under way on the focused pane, else the connection's trouble (cut to `width`,
    /// pointing to `:messages` when too long).
    fn status_line(&self, width: u16) -> Line<'static> {
        if let Some(line) = self.work_line(width) {
            return line;
        }
        if let Some(what) = self.calls.loading(self.tabs.focus) {
            return Line::from(Span::styled(
                format!(" {} {what}…", SPINNER[self.notices.spinner]),
                self.theme.muted,
            ));
        }
        if let Connection::Trouble(why) = self.calls.connection() {
            return pointed_line(
                &format!(" {why}"),
                usize::from(width),
                self.theme.warning,
                &self.theme,
            );
        }
        Line::default()
    }
}

/// How a tab is named in the tab bar.
#[derive(Debug, Clone, Copy)]
enum TabForm {
    /// `5 Transactions`
    Full,
    /// `5 Tra`
    Short,
    /// `5`
    Number,
}

impl TabForm {
    fn label(self, index: usize, title: &str) -> String {
        match self {
            TabForm::Full => format!("{} {title}", index + 1),
            TabForm::Short => {
                let letters: String = title.chars().take(3).collect();
                format!("{} {letters}", index + 1)
            }
            TabForm::Number => (index + 1).to_string(),
        }
    }
}

/// The tabs' labels for a bar `width` cells wide (see [`Shell::tabs_line`]): the first of the
/// four forms that fits, each applied to every tab alike, and the spaces between tabs.
pub(super) fn tab_labels(titles: &[String], focus: usize, width: usize) -> (Vec<String>, usize) {
    use unicode_width::UnicodeWidthStr;
    // The selected tab's form, the others', and the gap.
    let forms = [
        (TabForm::Full, TabForm::Full, 3),
        (TabForm::Full, TabForm::Short, 2),
        (TabForm::Full, TabForm::Number, 2),
        (TabForm::Number, TabForm::Number, 2),
    ];
    let mut labels = (Vec::new(), 2);
    for (selected, other, gap) in forms {
        let these: Vec<String> = titles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let form = if i == focus { selected } else { other };
                form.label(i, t)
            })
            .collect();
        let used: usize = 1
            + these.iter().map(|l| l.width()).sum::<usize>()
            + gap * these.len().saturating_sub(1);
        labels = (these, gap);
        if used <= width {
            break;
        }
    }
    labels
}
