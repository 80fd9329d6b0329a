//! The day taxdash takes as today: what "overdue" and "expiring within 30 days" are measured
//! against, in the dashboard and in `export`. The local date, unless a day was fixed (tests and recorded demos, whose
//! data is dated).

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
