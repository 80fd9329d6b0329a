//! The back-filing options (Tenanted API): the past periods that can still be filed late, each
//! with its estimated liability and a help article `o` opens.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::model::tenanted::BackFilingOption;
use crate::ui::keymap::Action;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog::render_wrapped;
use crate::ui::widgets::popup::Popup;

/// The options overlay: loading, the options, or why there are none.
#[derive(Debug, Default)]
pub struct OptionsView {
    /// `None` until they arrive.
    pub options: Option<Vec<BackFilingOption>>,
    /// Why they could not be loaded.
    pub error: Option<String>,
    cursor: usize,
}

/// `CA, US`, or `US (country-level)`.
pub fn jurisdiction(o: &BackFilingOption) -> String {
    match o.state_code.as_deref().filter(|s| !s.is_empty()) {
        Some(state) => format!("{state}, {}", o.country_code),
        None => format!("{} (country-level)", o.country_code),
    }
}

/// The help article's URL, when there is one.
pub fn help_url(o: &BackFilingOption) -> Option<&str> {
    o.help_article_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
}

impl OptionsView {
    /// The option under the cursor.
    pub fn selected(&self) -> Option<&BackFilingOption> {
        self.options.as_ref()?.get(self.cursor)
    }

    /// Moves the cursor; `false` for any other action.
    pub fn navigate(&mut self, action: Action) -> bool {
        let last = self
            .options
            .as_ref()
            .map_or(0, |o| o.len().saturating_sub(1));
        self.cursor = match action {
            Action::Up => self.cursor.saturating_sub(1),
            Action::Down => (self.cursor + 1).min(last),
            Action::Top | Action::PageUp => 0,
            Action::Bottom | Action::PageDown => last,
            _ => return false,
        };
        true
    }

    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        if let Some(error) = &self.error {
            return vec![Line::from(Span::styled(error.clone(), theme.error))];
        }
        let Some(options) = &self.options else {
            return vec![Line::from(Span::styled("loading…", theme.muted))];
        };
        if options.is_empty() {
            return vec![Line::from(Span::styled(
                "No past period is open for back-filing.",
                theme.muted,
            ))];
        }
        let mut lines = Vec::new();
        for (i, o) in options.iter().enumerate() {
            if i > 0 {
                lines.push(Line::default());
            }
            let (marker, style) = if i == self.cursor {
                ("▶ ", theme.selection)
            } else {
                ("  ", theme.base)
            };
            let liability = o.estimated_liability.map_or_else(
                || text::MISSING.to_owned(),
                |a| text::money(a, crate::rules::filing_currency(&o.country_code)),
            );
            lines.push(Line::from(vec![
                Span::styled(marker, theme.key),
                Span::styled(o.label.clone(), style),
            ]));
            lines.push(Line::from(vec![
                Span::raw("    "),
                Span::styled("Period ", theme.muted),
                Span::raw(text::period(o.period_start, o.period_end)),
                Span::styled("   Jurisdiction ", theme.muted),
                Span::raw(jurisdiction(o)),
                Span::styled("   Estimated liability ", theme.muted),
                Span::raw(liability),
            ]));
            let label = o
                .help_article_label
                .as_deref()
                .map(str::trim)
                .filter(|l| !l.is_empty());
            let help = match (label, help_url(o)) {
                (Some(label), Some(url)) => format!("{label} — {url}"),
                (Some(label), None) => label.to_owned(),
                (None, Some(url)) => url.to_owned(),
                (None, None) => "no help article".to_owned(),
            };
            lines.push(Line::from(vec![
                Span::raw("    "),
                Span::styled("Help ", theme.muted),
                Span::raw(help),
            ]));
        }
        lines
    }

    /// Draws the overlay over most of `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.saturating_sub(4).max(20).min(area.width);
        let height = area.height.saturating_sub(2).max(6).min(area.height);
        let popup = Popup::new(width, height).area(area);
        let mut lines = self.lines(theme);
        lines.push(Line::default());
        lines.push(Line::from(vec![
            Span::styled("j/k", theme.key),
            Span::styled(" move  ", theme.muted),
            Span::styled("o", theme.key),
            Span::styled(" open the help article  ", theme.muted),
            Span::styled("esc", theme.key),
            Span::styled(" close", theme.muted),
        ]));
        // Keep the selected option in view.
        let per_option = 4u16;
        let scroll = (self.cursor as u16 * per_option).saturating_sub(height.saturating_sub(6));
        let title = " Back-filing options ".to_owned();
        render_wrapped(title, lines, scroll, popup, buf, theme);
    }
}
