//! The filters: the live search (its text is the list's `search_query`) and the filter form for
//! status, country and jurisdiction, codes checked as typed.

use chrono::NaiveDate;

use crate::model::filters::{DateWindow, ExemptionFilter};
use crate::model::{ExemptionStatus, FieldError};
use crate::ui::panes::filter_codes::{
    any_of_field, check_country_and_state, check_date_ranges, chosen, code, date, either,
    list_value,
};
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// The filter form's rules: a country, when given, is a country code; a jurisdiction, when
/// given, a subdivision code; an end date well formed.
fn check_codes(values: &FormValues) -> Vec<FieldError> {
    let mut errors = check_date_ranges(values, &[("end_date", "end_date")]);
    errors.extend(check_country_and_state(
        values,
        "country_code",
        "jurisdiction",
    ));
    errors
}

/// Days "expiring" looks ahead and "expired" looks back.
pub const EXPIRY_DAYS: u64 = 30;

/// "Expiring within 30 days" on `today`: active exemptions ending from today to 30 days ahead
/// (the search, country and jurisdiction of `current` stay).
pub fn expiring(current: &ExemptionFilter, today: NaiveDate) -> ExemptionFilter {
    ExemptionFilter {
        status_in: vec![ExemptionStatus::Active],
        ends: Some(DateWindow::within_next(today, EXPIRY_DAYS)),
        ..current.clone()
    }
}

/// "Expired in the last 30 days" on `today`: exemptions of any status that ended from 30 days
/// ago to yesterday (the search, country and jurisdiction of `current` stay).
pub fn expired(current: &ExemptionFilter, today: NaiveDate) -> ExemptionFilter {
    ExemptionFilter {
        status_in: Vec::new(),
        ends: Some(DateWindow::within_last(today, EXPIRY_DAYS)),
        ..current.clone()
    }
}

/// Which preset a window is: `expiring` spans 31 days starting today, `expired` 30 ending
/// yesterday.
fn preset_of(window: DateWindow) -> &'static str {
    let span = window.from.zip(window.to).map(|(f, t)| (t - f).num_days());
    match span {
        Some(n) if n == EXPIRY_DAYS as i64 - 1 => "expired",
        _ => "expiring",
    }
}

fn expiry_choices() -> Vec<Choice> {
    vec![
        Choice::new("", "any", "no filter on the end date window"),
        Choice::new(
            "expiring",
            "expiring within 30 days",
            "ACTIVE exemptions ending from today to 30 days ahead",
        ),
        Choice::new(
            "expired",
            "expired in the last 30 days",
            "exemptions that ended from 30 days ago to yesterday",
        ),
    ]
}

/// The filter form, holding the filter in force.
pub fn filter_form(current: &ExemptionFilter) -> Form {
    Form::new(vec![
        any_of_field(
            "status",
            "Status",
            ExemptionStatus::FILTERABLE,
            ExemptionStatus::as_str,
        )
        .rule("←/→ move · space toggle; none chosen for ACTIVE, INACTIVE and EXPIRED"),
        FieldSpec::new("expiry", "Expiry", FieldKind::Select(expiry_choices()))
            .rule("←/→ to choose; kept on this side: every page of the list is read"),
        FieldSpec::new("end_date", "Ends by", FieldKind::Date)
            .rule("YYYY-MM-DD: ending on or before; empty for any"),
        FieldSpec::new("country_code", "Country", FieldKind::Text)
            .rule("ISO code such as US or CA; empty for any"),
        FieldSpec::new("jurisdiction", "Jurisdiction", FieldKind::Text)
            .rule("subdivision code such as TX or ON; empty for any"),
    ])
    .with_validator(check_codes)
    .with_value(
        "status",
        list_value(&current.status_in, ExemptionStatus::as_str),
    )
    .with_value(
        "expiry",
        FieldValue::Choice(current.ends.map(preset_of).unwrap_or_default().to_owned()),
    )
    .with_value(
        "end_date",
        current.end_date.map(|d| d.to_string()).unwrap_or_default(),
    )
    .with_value(
        "country_code",
        current.country_code.first().cloned().unwrap_or_default(),
    )
    .with_value(
        "jurisdiction",
        current.jurisdiction.clone().unwrap_or_default(),
    )
}

/// The filter the form's values describe on `today`, keeping the search and the sort of
/// `current`.
pub fn filter_of(
    values: &FormValues,
    current: &ExemptionFilter,
    today: NaiveDate,
) -> ExemptionFilter {
    let base = ExemptionFilter {
        search_query: current.search_query.clone(),
        status_in: chosen(values, "status", ExemptionStatus::parse),
        country_code: code(values, "country_code").into_iter().collect(),
        jurisdiction: code(values, "jurisdiction"),
        end_date: date(values, "end_date"),
        order_by: current.order_by.clone(),
        ..ExemptionFilter::default()
    };
    let chose_statuses = !base.status_in.is_empty();
    let mut filter = match values.text("expiry") {
        Some("expiring") => expiring(&base, today),
        Some("expired") => expired(&base, today),
        _ => base.clone(),
    };
    if chose_statuses {
        filter.status_in = base.status_in;
    }
    filter
}

/// A one-line summary of the filter in force: `EXPIRED, matching "acme", country US`.
pub fn describe(filter: &ExemptionFilter) -> String {
    let mut parts = Vec::new();
    if let Some(w) = filter.ends {
        let (from, to) = (
            w.from.map(|d| d.to_string()).unwrap_or_default(),
            w.to.map(|d| d.to_string()).unwrap_or_default(),
        );
        parts.push(match preset_of(w) {
            "expired" => format!("expired in the last 30 days (ended {from} to {to})"),
            _ => format!("expiring within 30 days (ending {from} to {to})"),
        });
    }
    if filter.status_in.is_empty() {
        parts.push("active, inactive and expired".to_owned());
    } else {
        parts.push(either(&filter.status_in, ExemptionStatus::as_str));
    }
    if let Some(q) = &filter.search_query {
        parts.push(format!("matching \"{q}\""));
    }
    if let Some(d) = filter.end_date {
        parts.push(format!("ending by {d}"));
    }
    if let Some(c) = filter.country_code.first() {
        parts.push(format!("country {c}"));
    }
    if let Some(j) = &filter.jurisdiction {
        parts.push(format!("jurisdiction {j}"));
    }
    if let Some(c) = &filter.customer_id {
        parts.push(format!("customer {c}"));
    }
    if let Some(t) = &filter.transaction_id {
        parts.push(format!("transaction {t}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::widgets::form::FieldValue;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    }

    fn values(status: &str, country: &str, jurisdiction: &str) -> FormValues {
        filter_form(&ExemptionFilter::default())
            .with_value("status", FieldValue::Choice(status.into()))
            .with_value("country_code", FieldValue::from(country))
            .with_value("jurisdiction", FieldValue::from(jurisdiction))
            .values()
    }

    #[test]
    fn the_form_reads_as_the_filter_and_keeps_the_search() {
        let current = ExemptionFilter {
            search_query: Some("acme".into()),
            ..ExemptionFilter::default()
        };
        let filter = filter_of(&values("EXPIRED", " us ", "tx"), &current, today());
        assert_eq!(filter.status_in, vec![ExemptionStatus::Expired]);
        assert_eq!(filter.country_code, vec!["US".to_owned()]);
        assert_eq!(filter.jurisdiction.as_deref(), Some("TX"));
        assert_eq!(filter.search_query.as_deref(), Some("acme"));
        assert_eq!(
            describe(&filter),
            "EXPIRED, matching \"acme\", country US, jurisdiction TX"
        );
        let any = filter_of(&values("", "", ""), &ExemptionFilter::default(), today());
        assert_eq!(any, ExemptionFilter::default());
        assert_eq!(describe(&any), "active, inactive and expired");
    }

    #[test]
    fn only_the_filterable_statuses_are_offered() {
        let form = filter_form(&ExemptionFilter::default());
        let spec = form.specs().next().unwrap();
        let offered: Vec<&str> = spec.choices().iter().map(|c| c.value.as_str()).collect();
        assert_eq!(offered, ["ACTIVE", "INACTIVE", "EXPIRED"]);
    }

    #[test]
    fn malformed_codes_are_refused_under_their_fields() {
        let errors = check_codes(&values("", "USA", "Texas"));
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["country_code", "jurisdiction"]);
        assert!(check_codes(&values("", "ca", "on")).is_empty());
    }

    #[test]
    fn the_form_opens_on_the_filter_in_force() {
        let current = filter_of(
            &values("INACTIVE", "CA", "ON"),
            &ExemptionFilter::default(),
            today(),
        );
        let form = filter_form(&current);
        assert_eq!(form.values().list("status"), ["INACTIVE"]);
        assert_eq!(form.values().text("country_code"), Some("CA"));
        assert!(!form.is_dirty());
    }

    #[test]
    fn the_expiry_presets_are_windows_on_the_end_date() {
        let day = |m, d| NaiveDate::from_ymd_opt(2026, m, d);
        let current = ExemptionFilter {
            search_query: Some("acme".into()),
            ..ExemptionFilter::default()
        };
        let soon = expiring(&current, today());
        assert_eq!(soon.status_in, [ExemptionStatus::Active]);
        assert_eq!(soon.ends, Some(DateWindow::new(day(11, 24), day(12, 24))));
        assert_eq!(
            soon.search_query.as_deref(),
            Some("acme"),
            "the search stays"
        );
        assert_eq!(
            describe(&soon),
            "expiring within 30 days (ending 2026-11-24 to 2026-12-24), ACTIVE, matching \"acme\""
        );
        let gone = expired(&current, today());
        assert!(gone.status_in.is_empty());
        assert_eq!(gone.ends, Some(DateWindow::new(day(10, 25), day(11, 23))));
        assert!(describe(&gone).starts_with("expired in the last 30 days (ended 2026-10-25"));

        // The form opens on each preset and gives it back.
        for preset in [soon, gone] {
            let form = filter_form(&preset);
            assert_eq!(filter_of(&form.values(), &preset, today()), preset);
        }
        let chosen = filter_of(
            &filter_form(&ExemptionFilter::default())
                .with_value("expiry", FieldValue::Choice("expiring".into()))
                .with_value("status", FieldValue::List(vec!["INACTIVE".into()]))
                .with_value("end_date", "2026-12-01")
                .values(),
            &ExemptionFilter::default(),
            today(),
        );
        assert_eq!(
            chosen.status_in,
            [ExemptionStatus::Inactive],
            "chosen statuses stay"
        );
        assert_eq!(chosen.end_date, day(12, 1));
        assert!(chosen.is_local());
    }
}
