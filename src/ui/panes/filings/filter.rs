//! The `/` filter: the statuses, the jurisdiction, the period, the date filed, and when the
//! filings are due ("overdue", "due within N days", kept on this side), and whether their
//! figures add up (kept on this side too).

use chrono::NaiveDate;

use crate::model::Tolerance;
use crate::model::filters::{DateWindow, FilingFilter};
use crate::model::{FieldError, FilingStatus};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, check_date_ranges, chosen, code, date, either, given,
    list_value, query_error,
};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// Days ahead "due within" looks when none is typed.
pub const DEFAULT_DUE_DAYS: u64 = 30;

fn due_choices() -> Vec<Choice> {
    vec![
        Choice::new("", "any", "no filter on the due date"),
        Choice::new(
            "overdue",
            "overdue",
            "due before today and not filed (UNFILED, FILING or PAUSED unless statuses are chosen)",
        ),
        Choice::new(
            "within",
            "due within N days",
            "due from today to N days ahead (N below)",
        ),
    ]
}

fn adds_up_choices() -> Vec<Choice> {
    vec![
        Choice::new("", "any", "no filter on the figures"),
        Choice::new(
            "no",
            "does not add up",
            "tax collected differs from the liability by more than the [checks] tolerance",
        ),
    ]
}

/// The `/` filter form, holding the filter in force.
pub fn filter_form(current: &FilingFilter) -> Form {
    let text = |d: Option<NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
    let (due, days) = match current.due {
        None => ("", DEFAULT_DUE_DAYS),
        Some(DateWindow { from: None, .. }) => ("overdue", DEFAULT_DUE_DAYS),
        Some(DateWindow {
            from: Some(from),
            to,
        }) => (
            "within",
            to.map_or(DEFAULT_DUE_DAYS, |to| {
                u64::try_from((to - from).num_days()).unwrap_or(DEFAULT_DUE_DAYS)
            }),
        ),
    };
    // Overdue narrowed the statuses to the ones not filed; the form shows them as chosen.
    Form::new(vec![
        any_of_field(
            "status",
            "Status",
            FilingStatus::KNOWN,
            FilingStatus::as_str,
        ),
        FieldSpec::new("due", "Due", FieldKind::Select(due_choices()))
            .rule("←/→ to choose; kept on this side: every page of the list is read"),
        FieldSpec::new("due_days", "Due within (days)", FieldKind::Text)
            .rule("days ahead for \"due within N days\""),
        FieldSpec::new("adds_up", "Adds up", FieldKind::Select(adds_up_choices()))
            .rule("←/→ to choose; kept on this side: every page of the list is read"),
        FieldSpec::new("state", "State", FieldKind::Text)
            .rule("subdivision code such as TX or ON; empty for any"),
        FieldSpec::new("country", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        FieldSpec::new("start_date", "Period from", FieldKind::Date)
            .rule("YYYY-MM-DD: periods starting on or after; empty for any"),
        FieldSpec::new("end_date", "Period to", FieldKind::Date)
            .rule("YYYY-MM-DD: periods ending on or before; empty for any"),
        FieldSpec::new("filed_from", "Filed from", FieldKind::Date)
            .rule("YYYY-MM-DD: filed on or after; empty for any"),
        FieldSpec::new("filed_to", "Filed to", FieldKind::Date)
            .rule("YYYY-MM-DD: filed on or before; empty for any"),
    ])
    .with_validator(check)
    .with_value(
        "status",
        list_value(&current.status_in, FilingStatus::as_str),
    )
    .with_value("due", FieldValue::Choice(due.to_owned()))
    .with_value("due_days", days.to_string())
    .with_value(
        "adds_up",
        FieldValue::Choice(
            if current.not_adding_up.is_some() {
                "no"
            } else {
                ""
            }
            .to_owned(),
        ),
    )
    .with_value("state", current.state_code.clone().unwrap_or_default())
    .with_value(
        "country",
        current.country_code.first().cloned().unwrap_or_default(),
    )
    .with_value("start_date", text(current.start_date))
    .with_value("end_date", text(current.end_date))
    .with_value("filed_from", text(current.filed_from))
    .with_value("filed_to", text(current.filed_to))
}

/// The filter form's rules: dates well formed and in order, codes well formed, and a whole
/// number of days for "due within".
fn check(values: &FormValues) -> Vec<FieldError> {
    let mut errors = check_date_ranges(
        values,
        &[("start_date", "end_date"), ("filed_from", "filed_to")],
    );
    errors.extend(check_country_and_state(values, "country", "state"));
    if values.text("due") == Some("within") {
        let typed = given(values, "due_days").unwrap_or("");
        if typed.parse::<u64>().is_err() {
            errors.push(query_error(
                "due_days",
                "a whole number of days, such as 30",
                typed,
            ));
        }
    }
    errors
}

/// The filter the form's values describe on `today`, with `tolerance` for "does not add up"
/// (the sort stays with the table).
pub fn filter_of(values: &FormValues, today: NaiveDate, tolerance: Tolerance) -> FilingFilter {
    let mut status_in = chosen(values, "status", FilingStatus::parse);
    let due = match values.text("due") {
        Some("overdue") => {
            if status_in.is_empty() {
                status_in = FilingStatus::TO_FILE.to_vec();
            }
            Some(DateWindow::before(today))
        }
        Some("within") => {
            let days = given(values, "due_days")
                .and_then(|d| d.parse().ok())
                .unwrap_or(DEFAULT_DUE_DAYS);
            Some(DateWindow::within_next(today, days))
        }
        _ => None,
    };
    FilingFilter {
        status_in,
        state_code: code(values, "state"),
        country_code: code(values, "country").into_iter().collect(),
        start_date: date(values, "start_date"),
        end_date: date(values, "end_date"),
        filed_from: date(values, "filed_from"),
        filed_to: date(values, "filed_to"),
        due,
        not_adding_up: (values.text("adds_up") == Some("no")).then_some(tolerance),
        order_by: Vec::new(),
    }
}

/// The filings shown: `every status`, or `overdue (due before 2026-11-24), UNFILED or FILING
/// or PAUSED, state TX`.
pub fn describe(filter: &FilingFilter) -> String {
    let mut parts = Vec::new();
    match filter.due {
        Some(DateWindow { from: None, to }) => parts.push(match to.and_then(|t| t.succ_opt()) {
            Some(today) => format!("overdue (due before {today})"),
            None => "overdue".to_owned(),
        }),
        Some(DateWindow {
            from: Some(from),
            to,
        }) => parts.push(match to {
            Some(to) => format!("due {from} to {to}"),
            None => format!("due from {from}"),
        }),
        None => {}
    }
    if filter.not_adding_up.is_some() {
        parts.push("not adding up".to_owned());
    }
    parts.push(if filter.status_in.is_empty() {
        "every status".to_owned()
    } else {
        either(&filter.status_in, FilingStatus::as_str)
    });
    if let Some(s) = &filter.state_code {
        parts.push(format!("state {s}"));
    }
    if let Some(c) = filter.country_code.first() {
        parts.push(format!("country {c}"));
    }
    match (filter.start_date, filter.end_date) {
        (Some(from), Some(to)) => parts.push(format!("periods {from} to {to}")),
        (Some(from), None) => parts.push(format!("periods from {from}")),
        (None, Some(to)) => parts.push(format!("periods up to {to}")),
        (None, None) => {}
    }
    match (filter.filed_from, filter.filed_to) {
        (Some(from), Some(to)) => parts.push(format!("filed {from} to {to}")),
        (Some(from), None) => parts.push(format!("filed from {from}")),
        (None, Some(to)) => parts.push(format!("filed up to {to}")),
        (None, None) => {}
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    }

    fn values(pairs: &[(&str, FieldValue)]) -> FormValues {
        pairs
            .iter()
            .fold(filter_form(&FilingFilter::default()), |f, (n, v)| {
                f.with_value(n, v.clone())
            })
            .values()
    }

    #[test]
    fn overdue_is_due_before_today_and_not_filed() {
        let filter = filter_of(
            &values(&[("due", FieldValue::Choice("overdue".into()))]),
            today(),
            Tolerance::default(),
        );
        assert_eq!(filter.status_in, FilingStatus::TO_FILE.to_vec());
        assert_eq!(
            filter.due,
            Some(DateWindow::new(None, NaiveDate::from_ymd_opt(2026, 11, 23)))
        );
        assert!(filter.is_local());
        assert_eq!(
            describe(&filter),
            "overdue (due before 2026-11-24), UNFILED or FILING"
        );
        // Statuses chosen by the user stay as chosen.
        let chosen = filter_of(
            &values(&[
                ("due", FieldValue::Choice("overdue".into())),
                ("status", FieldValue::List(vec!["UNFILED".into()])),
            ]),
            today(),
            Tolerance::default(),
        );
        assert_eq!(chosen.status_in, vec![FilingStatus::Unfiled]);
        // The form opens on it again, unchanged.
        let again = filter_form(&filter);
        assert_eq!(
            filter_of(&again.values(), today(), Tolerance::default()),
            filter
        );
        assert!(!again.is_dirty());
    }

    #[test]
    fn due_within_n_days_reaches_n_days_ahead() {
        let filter = filter_of(
            &values(&[
                ("due", FieldValue::Choice("within".into())),
                ("due_days", "7".into()),
            ]),
            today(),
            Tolerance::default(),
        );
        assert_eq!(filter.due, Some(DateWindow::within_next(today(), 7)));
        assert!(filter.status_in.is_empty());
        assert_eq!(
            describe(&filter),
            "due 2026-11-24 to 2026-12-01, every status"
        );
        assert_eq!(
            filter_of(
                &filter_form(&filter).values(),
                today(),
                Tolerance::default()
            ),
            filter
        );
        let bad = check(&values(&[
            ("due", FieldValue::Choice("within".into())),
            ("due_days", "soon".into()),
        ]));
        assert_eq!(bad[0].field_path(), "due_days");
    }

    #[test]
    fn the_service_filters_read_as_the_filter_and_back() {
        let filter = filter_of(
            &values(&[
                (
                    "status",
                    FieldValue::List(vec!["FILED".into(), "FILING".into()]),
                ),
                ("state", " tx ".into()),
                ("country", "us".into()),
                ("start_date", "2026-01-01".into()),
                ("end_date", "2026-06-30".into()),
                ("filed_from", "2026-02-01".into()),
            ]),
            today(),
            Tolerance::default(),
        );
        assert_eq!(filter.state_code.as_deref(), Some("TX"));
        assert_eq!(filter.country_code, vec!["US".to_owned()]);
        assert_eq!(filter.filed_from, NaiveDate::from_ymd_opt(2026, 2, 1));
        assert!(!filter.is_local());
        assert_eq!(
            describe(&filter),
            "FILED or FILING, state TX, country US, periods 2026-01-01 to 2026-06-30, \
             filed from 2026-02-01"
        );
        assert_eq!(
            filter_of(
                &filter_form(&filter).values(),
                today(),
                Tolerance::default()
            ),
            filter
        );
        let errors = check(&values(&[
            ("filed_from", "2026-03-01".into()),
            ("filed_to", "2026-02-01".into()),
            ("start_date", "2026-13-01".into()),
        ]));
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["start_date", "filed_to"]);
        assert_eq!(describe(&FilingFilter::default()), "every status");
    }

    #[test]
    fn does_not_add_up_is_kept_here_with_the_configured_tolerance() {
        let tolerance = Tolerance {
            percent: rust_decimal::Decimal::from(10),
            amount: rust_decimal::Decimal::from(2),
        };
        let filter = filter_of(
            &values(&[("adds_up", FieldValue::Choice("no".into()))]),
            today(),
            tolerance,
        );
        assert_eq!(filter.not_adding_up, Some(tolerance));
        assert!(filter.is_local());
        assert_eq!(describe(&filter), "not adding up, every status");
        let again = filter_form(&filter);
        assert_eq!(filter_of(&again.values(), today(), tolerance), filter);
        let any = filter_of(&values(&[]), today(), tolerance);
        assert_eq!(any.not_adding_up, None);
    }
}
