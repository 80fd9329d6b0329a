//! `:check exemptions [FROM [TO]]`: the exempt sales of a range without a certificate valid on
//! their day, one line each (date, external id, customer, jurisdiction, why). `Enter` opens the
//! sale, the customer key its customer; `Esc` goes back to the list.

use chrono::NaiveDate;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::checks::exemptions::Finding;
use crate::ui::text::{self, truncate_line};
use crate::ui::theme::Theme;

/// The check's range from the command's words: `FROM [TO]`, or the last 12 months to `today`.
pub fn range(args: &[&str], today: NaiveDate) -> Result<(NaiveDate, NaiveDate), String> {
    let day = |s: &str| {
        NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map_err(|_| format!("\"{s}\" is not a date: YYYY-MM-DD, such as 2026-01-31"))
    };
    let (from, to) = match args {
        [] => (crate::checks::exemptions::default_from(today), today),
        [from] => (day(from)?, today),
        [from, to] => (day(from)?, day(to)?),
        _ => return Err("Usage: :check exemptions [FROM [TO]]".to_owned()),
    };
    crate::rules::check_day_range(("FROM", "TO"), from, to)?;
    Ok((from, to))
}

/// The check: its range, and once read how many sales it checked and its findings.
#[derive(Debug, Clone, PartialEq)]
pub struct ExemptionCheck {
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// `None` while reading.
    pub result: Option<Result<(usize, Vec<Finding>), String>>,
    pub selected: usize,
    /// The first line shown.
    offset: usize,
}

impl ExemptionCheck {
    pub fn new(from: NaiveDate, to: NaiveDate) -> Self {
        ExemptionCheck {
            from,
            to,
            result: None,
            selected: 0,
            offset: 0,
        }
    }

    pub fn findings(&self) -> &[Finding] {
        match &self.result {
            Some(Ok((_, findings))) => findings,
            _ => &[],
        }
    }

    /// The finding under the cursor.
    pub fn current(&self) -> Option<&Finding> {
        self.findings().get(self.selected)
    }

    /// Moves the cursor; returns whether the action was one that moves it.
    pub fn navigate(&mut self, action: crate::ui::keymap::Action) -> bool {
        use crate::ui::keymap::Action;
        let last = self.findings().len().saturating_sub(1);
        self.selected = match action {
            Action::Up => self.selected.saturating_sub(1),
            Action::Down => (self.selected + 1).min(last),
            Action::PageUp => self.selected.saturating_sub(10),
            Action::PageDown => (self.selected + 10).min(last),
            Action::Top => 0,
            Action::Bottom => last,
            _ => return false,
        };
        true
    }

    /// `exempt sales 2025-11-24 to 2026-11-24 without a valid certificate`.
    pub fn subtitle(&self) -> String {
        format!(
            "exempt sales {} to {} without a valid certificate",
            text::date(self.from),
            text::date(self.to)
        )
    }

    pub fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = usize::from(area.width);
        let mut lines = Vec::new();
        let findings = match &self.result {
            None => {
                Paragraph::new(Span::styled(
                    format!(
                        "Reading the exempt sales of {} to {} and every exemption…",
                        text::date(self.from),
                        text::date(self.to)
                    ),
                    theme.muted,
                ))
                .render(area, buf);
                return;
            }
            Some(Err(why)) => {
                Paragraph::new(Span::styled(
                    format!("The check could not be made: {why}"),
                    theme.error,
                ))
                .render(area, buf);
                return;
            }
            Some(Ok((checked, findings))) => {
                let checked = text::count(*checked as u64, "exempt sale");
                let head = match findings.len() {
                    0 => format!("{checked} checked: every one had a valid certificate."),
                    n => format!(
                        "{checked} checked: {} without a valid certificate.",
                        text::thousands(n as u64)
                    ),
                };
                lines.push(Line::from(Span::styled(head, theme.title)));
                lines.push(Line::from(Span::styled(
                    format!(
                        "{:<10}  {:<18}  {:<22}  {:<6}  Why",
                        "Date", "Sale", "Customer", "Where"
                    ),
                    theme.table_header,
                )));
                findings
            }
        };
        let rows = usize::from(area.height).saturating_sub(lines.len());
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if rows > 0 && self.selected >= self.offset + rows {
            self.offset = self.selected + 1 - rows;
        }
        for (i, f) in findings.iter().enumerate().skip(self.offset).take(rows) {
            let customer = f
                .customer_name
                .clone()
                .or_else(|| f.customer_id.clone())
                .unwrap_or_else(|| "(no customer)".to_owned());
            let text = format!(
                "{:<10}  {}  {}  {:<6}  {}",
                text::date(f.date),
                text::pad_to(&f.external_id, 18, Alignment::Left),
                text::pad_to(&customer, 22, Alignment::Left),
                f.jurisdiction,
                f.reason.words()
            );
            let style = if i == self.selected {
                theme.selection
            } else {
                theme.base
            };
            lines.push(truncate_line(Line::from(Span::styled(text, style)), width));
        }
        Paragraph::new(lines).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_range_defaults_to_the_last_twelve_months() {
        let today = day(2026, 11, 24);
        assert_eq!(range(&[], today), Ok((day(2025, 11, 24), today)));
        assert_eq!(range(&["2026-01-01"], today), Ok((day(2026, 1, 1), today)));
        assert_eq!(
            range(&["2026-01-01", "2026-03-31"], today),
            Ok((day(2026, 1, 1), day(2026, 3, 31)))
        );
        assert!(range(&["2026-03-31", "2026-01-01"], today).is_err());
        assert!(
            range(&["yesterday"], today)
                .unwrap_err()
                .contains("YYYY-MM-DD")
        );
    }
}
