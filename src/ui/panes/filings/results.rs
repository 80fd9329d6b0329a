//! What a bulk approval or pause did to each filing: which went through, which the service
//! refused and why.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use std::fmt::Write as _;

use crate::model::tenanted::BulkFilingItem;
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog::render_wrapped;
use crate::ui::widgets::popup::Popup;

/// Which bulk action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bulk {
    Approve,
    Pause,
}

impl Bulk {
    /// `approve`, `pause`.
    pub fn verb(self) -> &'static str {
        match self {
            Bulk::Approve => "approve",
            Bulk::Pause => "pause",
        }
    }

    /// `approved`, `paused`.
    pub fn done(self) -> &'static str {
        match self {
            Bulk::Approve => "approved",
            Bulk::Pause => "paused",
        }
    }
}

/// `1 filing`, `3 filings`.
pub fn filings_noun(n: usize) -> String {
    crate::ui::text::count(n as u64, "filing")
}

/// The answer of one bulk action, item by item.
#[derive(Debug, Clone)]
pub struct BulkReport {
    pub action: Bulk,
    pub items: Vec<BulkFilingItem>,
}

impl BulkReport {
    /// How many went through.
    pub fn succeeded(&self) -> usize {
        self.items.iter().filter(|i| i.error.is_none()).count()
    }

    /// `Approved 1 of 2 filings; 1 refused.`
    pub fn summary(&self) -> String {
        let done = self.action.done();
        let ok = self.succeeded();
        let refused = self.items.len() - ok;
        let mut out = format!(
            "{}{} {ok} of {}",
            done[..1].to_ascii_uppercase(),
            &done[1..],
            filings_noun(self.items.len())
        );
        if refused > 0 {
            let _ = write!(out, "; {refused} refused");
        }
        out.push('.');
        out
    }

    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = vec![Line::from(self.summary()), Line::default()];
        for item in &self.items {
            let status = item.status.clone().unwrap_or_default();
            match &item.error {
                None => lines.push(Line::from(vec![
                    Span::styled("✓ ", theme.status_good),
                    Span::raw(format!("{}  {} ", item.filing_id, self.action.done())),
                    Span::styled(format!("(now {status})"), theme.muted),
                ])),
                Some(e) => lines.push(Line::from(vec![
                    Span::styled("✕ ", theme.error),
                    Span::raw(format!("{}  refused ", item.filing_id)),
                    Span::styled(format!("({})", e.code), theme.muted),
                    Span::raw(format!(": {}", e.message)),
                ])),
            }
        }
        lines
    }

    /// Draws the report in a dialog centered in `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.saturating_sub(8).clamp(20, 100).min(area.width);
        let mut lines = self.lines(theme);
        lines.push(Line::default());
        lines.push(Line::from(vec![
            Span::styled("esc", theme.key),
            Span::styled(" close", theme.muted),
        ]));
        let height = (lines.len() as u16 + 4).min(area.height);
        let popup = Popup::new(width, height).area(area);
        let title = format!(" Bulk {} ", self.action.verb());
        render_wrapped(title, lines, 0, popup, buf, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tenanted::BulkFilingError;
    use ratatui::layout::Rect;

    use crate::ui::text::buffer_lines;

    fn item(id: &str, status: &str, refused: Option<&str>) -> BulkFilingItem {
        BulkFilingItem {
            filing_id: id.into(),
            status: Some(status.into()),
            error: refused.map(|m| BulkFilingError {
                code: "conflict".into(),
                message: m.into(),
            }),
        }
    }

    #[test]
    fn the_report_says_which_went_through_and_why_the_others_did_not() {
        let report = BulkReport {
            action: Bulk::Approve,
            items: vec![
                item("file_1", "FILING", None),
                item("file_2", "FILED", Some("Filing file_2 is FILED.")),
            ],
        };
        assert_eq!(report.summary(), "Approved 1 of 2 filings; 1 refused.");
        let theme = Theme::default();
        let mut buf = Buffer::empty(Rect::new(0, 0, 100, 14));
        report.render(buf.area, &mut buf, &theme);
        let text = buffer_lines(&buf).join("\n");
        assert!(text.contains("✓ file_1  approved (now FILING)"), "{text}");
        assert!(
            text.contains("✕ file_2  refused (conflict): Filing file_2 is FILED."),
            "{text}"
        );
        let paused = BulkReport {
            action: Bulk::Pause,
            items: vec![item("file_3", "PAUSED", None)],
        };
        assert_eq!(paused.summary(), "Paused 1 of 1 filing.");
    }
}
