//! Whether the returns a new registration asks for cover the time since nexus was met.
//!
//! The service creates returns from the period that holds `create_filings_from`, and with
//! `create_back_filing` also the one period before it. Sales made between the day nexus was met
//! and the first day those returns cover are owed all the same; the register form's review says
//! so before anything is sent.

use chrono::{Datelike, Months, NaiveDate};

use crate::model::FilingFrequency;

/// Days since nexus was met that no return asked for covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoverageGap {
    /// The day nexus was met.
    pub nexus_met: NaiveDate,
    /// The first day the returns asked for cover.
    pub first_covered: NaiveDate,
}

impl CoverageGap {
    /// The last day left uncovered.
    pub fn last_uncovered(&self) -> NaiveDate {
        self.first_covered.pred_opt().unwrap_or(self.first_covered)
    }
}

/// The first day of the period of `frequency` that holds `day` (periods aligned on the
/// calendar year; a semi-monthly period is the 1st to the 15th or the 16th to the month's end).
/// `None` for a frequency with no periods known here.
pub fn period_start(frequency: &FilingFrequency, day: NaiveDate) -> Option<NaiveDate> {
    if *frequency == FilingFrequency::SemiMonthly {
        return day.with_day(if day.day() <= 15 { 1 } else { 16 });
    }
    let months = frequency.months()?;
    let month0 = day.month0() - day.month0() % months;
    NaiveDate::from_ymd_opt(day.year(), month0 + 1, 1)
}

/// The first day the returns cover: the start of the period holding `filings_from`, or of the
/// period before it with `back_filing`. For a frequency with no periods known here,
/// `filings_from` itself.
pub fn first_covered(
    frequency: &FilingFrequency,
    filings_from: NaiveDate,
    back_filing: bool,
) -> NaiveDate {
    let Some(start) = period_start(frequency, filings_from) else {
        return filings_from;
    };
    if !back_filing {
        return start;
    }
    let before = start.pred_opt().unwrap_or(start);
    if *frequency == FilingFrequency::SemiMonthly {
        return period_start(frequency, before).unwrap_or(start);
    }
    frequency
        .months()
        .and_then(|m| start.checked_sub_months(Months::new(m)))
        .unwrap_or(start)
}

/// The gap between `nexus_met` and the first day the returns asked for cover, if any.
pub fn coverage_gap(
    nexus_met: NaiveDate,
    frequency: &FilingFrequency,
    filings_from: NaiveDate,
    back_filing: bool,
) -> Option<CoverageGap> {
    let first_covered = first_covered(frequency, filings_from, back_filing);
    (first_covered > nexus_met).then_some(CoverageGap {
        nexus_met,
        first_covered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FilingFrequency as F;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn kansas_met_in_may_with_filings_from_june_leaves_may_uncovered() {
        let gap =
            coverage_gap(day("2026-05-05"), &F::Monthly, day("2026-06-01"), false).expect("a gap");
        assert_eq!(gap.first_covered, day("2026-06-01"));
        assert_eq!(gap.last_uncovered(), day("2026-05-31"));
        // Back-filing the one period before covers May.
        assert_eq!(
            coverage_gap(day("2026-05-05"), &F::Monthly, day("2026-06-01"), true),
            None
        );
    }

    #[test]
    fn periods_align_on_the_calendar_for_each_frequency() {
        let from = day("2026-08-20");
        for (frequency, start, back) in [
            (F::Monthly, "2026-08-01", "2026-07-01"),
            (F::Quarterly, "2026-07-01", "2026-04-01"),
            (F::SemiAnnually, "2026-07-01", "2026-01-01"),
            (F::Annually, "2026-01-01", "2025-01-01"),
            (F::BiMonthly, "2026-07-01", "2026-05-01"),
            (F::FourMonthly, "2026-05-01", "2026-01-01"),
            (F::SemiMonthly, "2026-08-16", "2026-08-01"),
        ] {
            assert_eq!(
                first_covered(&frequency, from, false),
                day(start),
                "{frequency}"
            );
            assert_eq!(
                first_covered(&frequency, from, true),
                day(back),
                "{frequency}"
            );
        }
        assert_eq!(
            first_covered(&F::SemiMonthly, day("2026-08-03"), true),
            day("2026-07-16")
        );
        // A frequency with no periods known here: the day asked for, as asked.
        assert_eq!(first_covered(&F::Unknown, from, true), from);
    }

    #[test]
    fn returns_that_start_before_nexus_leave_no_gap() {
        assert_eq!(
            coverage_gap(day("2026-05-05"), &F::Quarterly, day("2026-06-01"), false),
            None,
            "the quarter from April 1 covers May 5"
        );
        assert_eq!(
            coverage_gap(day("2026-06-01"), &F::Monthly, day("2026-06-01"), false),
            None
        );
    }
}
