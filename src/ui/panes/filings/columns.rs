//! The filing list's columns; a column's sort key is its `order_by` field.

use chrono::NaiveDate;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::checks::filings::{self, Check, Finding};
use crate::model::Tolerance;
use crate::model::{CoveredSales, Filing, FilingStatus};
use crate::ui::judging::Judging;
use crate::ui::panes::marks::{Marked, marker_column};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

type Row = Marked<Filing>;

/// The style of a filing status: filed reads as good, filing (approved, on its way) as
/// pending, unfiled (waiting for approval) as needing attention, paused as closed.
pub fn status_style(status: &FilingStatus, theme: &Theme) -> Style {
    match status {
        FilingStatus::Filed => theme.status_good,
        FilingStatus::Filing => theme.status_pending,
        FilingStatus::Unfiled => theme.status_bad,
        FilingStatus::Paused => theme.status_closed,
        FilingStatus::Other(_) => theme.base,
    }
}

/// `2026-07-01 – 2026-09-30`.
pub fn period(f: &Filing) -> String {
    text::period(f.start_date, f.end_date)
}

/// The state's code, or `country` for a filing of the whole country (2026-07-21 sends `""`,
/// 2026-10-06 null).
pub fn state(f: &Filing) -> &str {
    f.state_code
        .as_deref()
        .filter(|s| !s.is_empty())
        .unwrap_or("country")
}

/// The amount due, as money in the filing's currency.
pub fn amount(f: &Filing) -> Option<String> {
    f.amount
        .or(f.total_tax_liability)
        .map(|a| text::money(a, f.currency.as_deref()))
}

fn period_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(period(&m.row))
}

fn state_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    let s = state(&m.row);
    if m.row.state_code.as_deref().is_none_or(str::is_empty) {
        Line::from(Span::styled(s, theme.muted))
    } else {
        Line::from(s)
    }
}

fn country_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.country_code.as_str())
}

fn status_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    m.row.status.as_ref().map_or_else(Line::default, |s| {
        Line::from(Span::styled(s.as_str(), status_style(s, theme)))
    })
}

/// Days ahead within which a return not filed shows as due soon.
pub const DUE_SOON_DAYS: i64 = 7;

/// How a filing stands against its due date on `today`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Filed, or due later, or no due date.
    Fine,
    /// Not filed, due from today to [`DUE_SOON_DAYS`] days ahead.
    Soon,
    /// Not filed and its due date passed.
    Overdue,
}

/// How `f` stands against its due date on `today`.
pub fn due_on(f: &Filing, today: NaiveDate) -> Due {
    let Some(due) = f.due_date else {
        return Due::Fine;
    };
    if f.status == Some(FilingStatus::Filed) {
        return Due::Fine;
    }
    match (due - today).num_days() {
        ..0 => Due::Overdue,
        0..=DUE_SOON_DAYS => Due::Soon,
        _ => Due::Fine,
    }
}

/// The due date; an overdue one in the bad style with `⚠` (read without colour), one due
/// within a week in the pending style.
fn due_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    let date = m.row.due_date.map(text::date).unwrap_or_default();
    match due_on(&m.row, m.read_on) {
        Due::Overdue => Line::from(Span::styled(format!("{date} ⚠"), theme.status_bad)),
        Due::Soon => Line::from(Span::styled(date, theme.status_pending)),
        Due::Fine => Line::from(date),
    }
}

fn amount_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(amount(&m.row).unwrap_or_default())
}

/// `-9.0%`: a finding's share as every surface shows it, or its difference when nothing was
/// expected.
pub fn share(f: &Finding) -> String {
    f.share().unwrap_or_else(|| f.difference())
}

/// What the filing check says of `f` ([`filings::check`]: its tax collected against its
/// liability, its sales against the transactions read beside it): `None` when it has neither
/// pair of figures to compare, else its findings (empty: it adds up).
pub fn adds_up(f: &Filing, tolerance: Tolerance) -> Option<Vec<Finding>> {
    let collected = f.amount_tax_collected.is_some() && f.total_tax_liability.is_some();
    let sales = f.amount_sales.is_some() && f.covered_sales.sales().is_some();
    (collected || sales).then(|| filings::check(f, tolerance))
}

/// `✓`, `✗ -9.0% collected`, or `✗ +12.0% sales +1` when both figures are off (the marks
/// read without colour).
pub fn adds_up_text(findings: &[Finding]) -> String {
    match findings.first() {
        None => "✓".to_owned(),
        Some(f) => {
            let what = match f.check {
                Check::CollectedVsLiability => "collected",
                Check::SalesVsTransactions => "sales",
            };
            let more = match findings.len() {
                1 => String::new(),
                n => format!(" +{}", n - 1),
            };
            // The share first: where the column is narrow, the cut keeps the figure.
            format!("✗ {} {what}{more}", share(f))
        }
    }
}

/// The filing check's verdict, within the `[checks]` tolerance: `…` while the transactions it
/// compares the sales with are read (a difference already found shows at once), `?` when they
/// could not be.
fn adds_up_cell<'r>(m: &'r Row, theme: &Theme, judging: &Judging) -> Line<'r> {
    let f = &m.row;
    let found = adds_up(f, judging.filing_tolerance);
    let needs = filings::needs_transactions(f, crate::clock::today());
    match (found, f.covered_sales) {
        (Some(found), _) if !found.is_empty() => {
            Line::from(Span::styled(adds_up_text(&found), theme.status_bad))
        }
        (_, CoveredSales::NotRead) if needs => Line::from(Span::styled("…", theme.muted)),
        (_, CoveredSales::Failed) if needs => Line::from(Span::styled("?", theme.muted)),
        (Some(_), _) => Line::from(Span::styled("✓", theme.status_good)),
        (None, _) => Line::default(),
    }
}

fn approved_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(
        m.row
            .approved_at
            .as_ref()
            .map(text::timestamp)
            .unwrap_or_default(),
    )
}

fn id_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.id.as_str())
}

/// The title of the column of the filing check's verdict.
pub const ADDS_UP: &str = "Adds up";

/// The list's columns: the mark first.
pub fn columns() -> Vec<Column<Row>> {
    vec![
        marker_column(),
        Column::new("Period", period_cell)
            .sort_key("start_date")
            .width(ColumnWidth::fixed(23))
            .priority(priority::NAME),
        // As wide as the codes on screen: `country` only where a country-level return shows.
        Column::new("State", state_cell)
            .sort_key("state_code")
            .width(ColumnWidth::between(5, 7, 1))
            .priority(priority::NAME)
            .whole(),
        Column::new("Country", country_cell)
            .width(ColumnWidth::fixed(7))
            .priority(priority::DETAIL),
        Column::new("Status", status_cell)
            .sort_key("status")
            .width(ColumnWidth::between(6, 8, 1))
            .priority(priority::STATUS)
            .whole(),
        // Two cells more where an overdue return's `⚠` shows.
        Column::new("Due", due_cell)
            .sort_key("due_date")
            .width(ColumnWidth::between(10, 12, 1))
            .whole()
            // Whether a return is overdue shows here: it stays as long as the status.
            .priority(priority::STATUS),
        Column::new("Amount", amount_cell)
            .sort_key("amount")
            .right()
            .width(ColumnWidth::between(12, 18, 1))
            .keep(),
        // Whether the return adds up is the list's own question: it gives way only to what
        // names the return, its status and its due date, and takes what room is left.
        Column::judged(ADDS_UP, adds_up_cell)
            .width(ColumnWidth::between(9, 20, 1))
            .priority(priority::DATE),
        Column::new("Approved at", approved_cell)
            .width(ColumnWidth::fixed(20))
            .priority(priority::TIME),
        Column::new("Filing", id_cell)
            .width(ColumnWidth::between(12, 24, 1))
            .priority(priority::ID),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filing(status: &str, due: &str) -> Filing {
        serde_json::from_value(serde_json::json!({
            "id": "f1", "registration_id": "r1", "start_date": "2026-10-01",
            "end_date": "2026-10-31", "country_code": "US", "due_date": due, "status": status
        }))
        .unwrap()
    }

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    #[test]
    fn a_return_not_filed_past_its_due_date_reads_overdue() {
        let theme = Theme::default();
        let today = day(24);
        let row = Marked::read_on(filing("UNFILED", "2026-11-20"), today);
        let cell = due_cell(&row, &theme);
        assert_eq!(cell.to_string(), "2026-11-20 ⚠");
        assert_eq!(cell.spans[0].style, theme.status_bad);
        assert_eq!(due_on(&filing("PAUSED", "2026-11-23"), today), Due::Overdue);

        let filed = Marked::read_on(filing("FILED", "2026-11-20"), today);
        assert_eq!(due_cell(&filed, &theme).to_string(), "2026-11-20");
        assert_eq!(
            due_on(&filing("UNFILED", "2026-11-24"), today),
            Due::Soon,
            "due today"
        );
        let soon = Marked::read_on(filing("FILING", "2026-12-01"), today);
        let cell = due_cell(&soon, &theme);
        assert_eq!(cell.to_string(), "2026-12-01");
        assert_eq!(cell.spans[0].style, theme.status_pending);
        assert_eq!(due_on(&filing("UNFILED", "2026-12-02"), today), Due::Fine);
        // The same row read a week earlier was not overdue yet.
        let earlier = Marked::read_on(filing("UNFILED", "2026-11-20"), day(13));
        assert_eq!(due_cell(&earlier, &theme).to_string(), "2026-11-20");
    }

    #[test]
    fn a_filing_collecting_less_than_its_liability_does_not_add_up() {
        let theme = Theme::default();
        let mut f = filing("FILED", "2026-11-20");
        f.total_tax_liability = Some(rust_decimal::Decimal::new(110_000, 2));
        f.amount_tax_collected = Some(rust_decimal::Decimal::new(100_000, 2));
        let row = Marked::read_on(f.clone(), day(24));
        let cell = adds_up_cell(&row, &theme, &Judging::default());
        assert_eq!(cell.to_string(), "✗ -9.0% collected");
        assert_eq!(cell.spans[0].style, theme.status_bad);
        // Fifty cents off: rounding, not a finding.
        f.amount_tax_collected = Some(rust_decimal::Decimal::new(109_950, 2));
        let row = Marked::read_on(f.clone(), day(24));
        let cell = adds_up_cell(&row, &theme, &Judging::default());
        assert_eq!(cell.to_string(), "✓");
        assert_eq!(cell.spans[0].style, theme.status_good);
        // Nothing to compare: nothing said.
        f.amount_tax_collected = None;
        assert_eq!(
            adds_up_cell(&Marked::read_on(f, day(24)), &theme, &Judging::default()).to_string(),
            ""
        );
    }

    #[test]
    fn the_tolerance_of_the_context_judges_the_list_and_the_detail() {
        use crate::effect::FilingReply;
        use crate::ui::keymap::Action;
        use crate::ui::panes::filings::FilingsPane;
        use crate::ui::skeleton::testing::Fixture;
        use rust_decimal::Decimal;

        let mut f = filing("FILED", "2026-11-20");
        f.total_tax_liability = Some(Decimal::new(110_000, 2));
        f.amount_tax_collected = Some(Decimal::new(100_000, 2));
        let loose = Judging {
            filing_tolerance: Tolerance {
                percent: Decimal::from(10),
                amount: Decimal::ONE,
            },
        };
        for (judging, list, detail) in [
            (
                Judging::default(),
                "✗ -9.0% collected",
                "✗ tax collected vs liability",
            ),
            (loose, "✓", "✓ tax collected matches the liability"),
        ] {
            let mut h = Fixture::new(FilingsPane::default()).judging(judging);
            h.load(vec![f.clone()], FilingReply::Page);
            let screen = h.screen(200, 8);
            assert!(screen.contains(list), "{screen}");
            assert!(!screen.contains("✗") || list.starts_with('✗'), "{screen}");
            h.action(Action::Open);
            let screen = h.screen(200, 40);
            assert!(screen.contains(detail), "{screen}");
        }
    }
}
