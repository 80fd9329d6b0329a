//! The day taxdash takes as today: what "overdue" and "expiring within 30 days" are measured
//! against, in the dashboard, in `export` and in the embedded sandbox (whose demo data is dated
//! around it unless given another anchor). The local date, unless a day was fixed: by
//! `--today DAY` (or `sandbox serve --anchor DAY`), and by the tests.

use std::sync::RwLock;

use chrono::{Local, NaiveDate};

static FIXED: RwLock<Option<NaiveDate>> = RwLock::new(None);

/// Today: the fixed day when one is set, else the local date.
pub fn today() -> NaiveDate {
    let fixed = FIXED.read().map_or(None, |f| *f);
    fixed.unwrap_or_else(|| Local::now().date_naive())
}

/// Fixes the day [`today`] answers (`None`: the local date again).
pub fn fix_today(day: Option<NaiveDate>) {
    if let Ok(mut fixed) = FIXED.write() {
        *fixed = day;
    }
}

/// Whether a day is fixed (by `--today`, or by a test).
pub fn is_fixed() -> bool {
    FIXED.read().is_ok_and(|f| f.is_some())
}
