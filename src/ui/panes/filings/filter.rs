//! The `/` filter: the status of the filings shown.

use crate::model::FilingStatus;
use crate::model::filters::FilingFilter;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, Form, FormValues};

/// The `/` filter form, holding the filter in force.
pub fn filter_form(current: &FilingFilter) -> Form {
    let choices = std::iter::once(Choice::new("", "any", "filings of every status"))
        .chain(
            FilingStatus::KNOWN
                .iter()
                .map(|s| Choice::new(s.as_str(), s.as_str(), format!("filings {}", s.as_str()))),
        )
        .collect();
    let form = Form::new(vec![
        FieldSpec::new("status", "Status", FieldKind::Select(choices))
            .rule("the filings shown; any for every status"),
    ]);
    match current.status_in.first() {
        Some(s) => form.with_value("status", s.as_str()),
        None => form.with_value("status", ""),
    }
}

/// The filter the form's values describe.
pub fn filter_of(values: &FormValues) -> FilingFilter {
    FilingFilter {
        status_in: values
            .text("status")
            .filter(|s| !s.is_empty())
            .map(FilingStatus::parse)
            .into_iter()
            .collect(),
        ..FilingFilter::default()
    }
}

/// The filings shown: `every status`, or one.
pub fn describe(filter: &FilingFilter) -> String {
    match filter.status_in.first() {
        Some(s) => s.as_str().to_owned(),
        None => "every status".to_owned(),
    }
}
