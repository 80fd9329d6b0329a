//! `:estimate`: the tax estimate form (a ship-to address, the currency, the date and up to
//! three amounts), and the estimate the service calculated, per item and in total. `:terms`:
//! the current back-filing terms. Neither changes anything, so read-only mode allows both.

use chrono::NaiveDate;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::model::{BackFilingTerms, EstimateRequest, EstimateResponse, FieldError};
use crate::rules;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, Section};
use crate::ui::widgets::form::address::AddressNames;
use crate::ui::widgets::form::{FieldKind, FieldSpec, Form, FormValues};

/// The `external_id` an estimate is sent with (the service requires one; nothing is stored).
const ESTIMATE_ID: &str = "taxdash-estimate";

/// The amount fields of the items, in order.
const AMOUNTS: [(&str, &str); 3] = [
    ("transaction_items.0.amount", "Item 1 amount"),
    ("transaction_items.1.amount", "Item 2 amount"),
    ("transaction_items.2.amount", "Item 3 amount"),
];

/// The body the form's values make, exactly as it would be sent: a `SHIP_TO` address, items
/// after the last amount given left out, each item dated with the estimate's date.
pub fn estimate_json(values: &FormValues) -> Value {
    let mut body = values.to_json();
    body["external_id"] = Value::String(ESTIMATE_ID.to_owned());
    if let Some(Value::Array(addresses)) = body.get_mut("addresses") {
        for a in addresses.iter_mut().filter(|a| a.is_object()) {
            a["type"] = Value::String("SHIP_TO".to_owned());
        }
    }
    let date = body.get("date").cloned();
    if body.get("transaction_items").is_none() {
        body["transaction_items"] = Value::Array(vec![Value::Null]);
    }
    if let Some(Value::Array(items)) = body.get_mut("transaction_items") {
        while items.len() > 1 && items.last().is_some_and(Value::is_null) {
            items.pop();
        }
        for item in items.iter_mut() {
            if !item.is_object() {
                *item = Value::Object(serde_json::Map::new());
            }
            if let Some(date) = &date {
                item["date"] = date.clone();
            }
        }
    }
    body
}

/// The estimate request the form describes, or the rule errors that keep it from being sent.
pub fn estimate_body(values: &FormValues) -> Result<EstimateRequest, Vec<FieldError>> {
    rules::estimate(&estimate_json(values))
}

/// The estimate form's address fields.
pub const ADDRESS: AddressNames = AddressNames {
    street_1: "addresses.0.street_1",
    street_2: "addresses.0.street_2",
    city: "addresses.0.city",
    county: "addresses.0.county",
    state: "addresses.0.state",
    postal_code: "addresses.0.postal_code",
    country: "addresses.0.country",
};

/// The `:estimate` form, dated `today`, in US dollars until changed.
pub fn estimate_form(today: NaiveDate) -> Form {
    let text = |name, label, rule| {
        FieldSpec::new(name, label, FieldKind::Text)
            .rule(rule)
            .required()
    };
    let mut specs = vec![
        FieldSpec::new("addresses.0.street_1", "Ship-to street", FieldKind::Text)
            .rule("optional; ctrl-l checks the address"),
        FieldSpec::new("addresses.0.city", "Ship-to city", FieldKind::Text).rule("optional"),
        text(
            "addresses.0.state",
            "Ship-to state",
            "subdivision code such as TX or ON",
        ),
        text(
            "addresses.0.postal_code",
            "Ship-to postal code",
            "such as 78701",
        ),
        text(
            "addresses.0.country",
            "Ship-to country",
            "ISO code such as US or CA",
        ),
        text("currency", "Currency", "such as USD or CAD"),
        FieldSpec::new("date", "Date", FieldKind::Date)
            .rule("YYYY-MM-DD")
            .required(),
    ];
    for (i, (name, label)) in AMOUNTS.into_iter().enumerate() {
        let spec = FieldSpec::new(name, label, FieldKind::Decimal);
        specs.push(if i == 0 {
            spec.rule("the line's amount, such as 100.00").required()
        } else {
            spec.rule("optional; another line")
        });
    }
    Form::new(specs)
        .with_validator(|values| estimate_body(values).err().unwrap_or_default())
        .with_value("addresses.0.country", "US")
        .with_value("currency", "USD")
        .with_value("date", today.to_string())
}

/// The estimate the service calculated: the totals, then each item with its taxes.
pub fn estimate_detail<'t>(e: &EstimateResponse, theme: &'t Theme) -> Detail<'t> {
    let currency = Some(e.currency.as_str());
    let money = |a: Option<rust_decimal::Decimal>| {
        a.map(|a| Line::from(Span::styled(text::money(a, currency), theme.money)))
    };
    let rate = |r: Option<rust_decimal::Decimal>| r.map(|r| Line::from(text::rate_percent(r)));
    let yes_no = crate::ui::widgets::detail::flag;
    let mut sections = vec![
        Section::new("Estimate")
            .maybe("Total tax", money(e.total_tax_amount_calculated))
            .maybe("Tax rate", rate(e.tax_rate_calculated))
            .maybe("Taxable amount", money(e.taxable_amount))
            .maybe("Nexus met", yes_no(e.nexus_met))
            .maybe("Active registration", yes_no(e.has_active_registration)),
    ];
    for (n, item) in e.transaction_items.iter().enumerate() {
        let mut s = Section::new(format!("Item {}", n + 1))
            .maybe("Amount", money(Some(item.amount)))
            .maybe("Tax", money(item.tax_amount))
            .maybe("Tax rate", rate(item.tax_rate))
            .maybe("Taxable amount", money(item.taxable_amount))
            .maybe("Exempt", yes_no(item.exempt))
            .maybe(
                "Exempt reason",
                item.exempt_reason
                    .as_ref()
                    .map(|r| Line::from(r.to_string())),
            );
        for tax in &item.tax_items {
            let amount = tax
                .amount
                .map(|a| text::money(a, currency))
                .unwrap_or_default();
            let r = tax.rate.map(text::rate_percent).unwrap_or_default();
            s = s.row("Tax item", format!("{}  {r}  {amount}", tax.name));
        }
        sections.push(s);
    }
    Detail::new(theme, sections)
}

/// The back-filing terms, one section each.
pub fn terms_detail<'t>(t: &BackFilingTerms, theme: &'t Theme) -> Detail<'t> {
    let help = t.help_article_url.as_ref().map(|url| {
        Line::from(vec![
            Span::raw(format!("{}: ", t.help_article_label)),
            Span::styled(url.clone(), theme.accent),
        ])
    });
    Detail::new(
        theme,
        vec![
            Section::new("Back-filing terms")
                .row("Version", t.version.to_string())
                .row("ID", t.id.clone())
                .maybe("Help", help),
            Section::new("Timeline").row("", t.timeline.clone()),
            Section::new("Penalties and interest").row("", t.penalties_and_interest.clone()),
            Section::new("What you are approving").row("", t.what_you_are_approving.clone()),
            Section::new("Fees").row("", t.fees.clone()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;
    use serde_json::json;
    use std::fmt::Write as _;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 5).unwrap()
    }

    #[test]
    fn one_amount_in_texas_makes_a_valid_request() {
        let form = estimate_form(today())
            .with_value("addresses.0.state", "TX")
            .with_value("addresses.0.postal_code", "78701")
            .with_value("transaction_items.0.amount", "100.00");
        let body = estimate_body(&form.values()).unwrap();
        assert_eq!(body.transaction_items.len(), 1);
        assert_eq!(body.transaction_items[0].amount, Decimal::new(10000, 2));
        assert_eq!(body.addresses[0].address.state.as_deref(), Some("TX"));
        assert_eq!(body.currency, "USD");
    }

    #[test]
    fn a_gap_between_amounts_is_refused_under_the_empty_one() {
        let form = estimate_form(today())
            .with_value("addresses.0.state", "TX")
            .with_value("addresses.0.postal_code", "78701")
            .with_value("transaction_items.0.amount", "1")
            .with_value("transaction_items.2.amount", "3");
        let errors = estimate_body(&form.values()).unwrap_err();
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["transaction_items.1.amount"]);
    }

    #[test]
    fn an_empty_form_names_what_is_missing() {
        let errors = estimate_body(&estimate_form(today()).values()).unwrap_err();
        let mut paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                "addresses.0.postal_code",
                "addresses.0.state",
                "transaction_items.0.amount"
            ]
        );
    }

    #[test]
    fn the_estimate_shows_tax_per_item_and_in_total() {
        let e: EstimateResponse = serde_json::from_value(json!({
            "date": "2026-03-05T00:00:00Z", "external_id": "x", "currency": "USD",
            "total_tax_amount_calculated": "8.25", "tax_rate_calculated": "0.0825",
            "transaction_items": [{"amount": "100.00", "tax_amount": "8.25",
                                   "tax_rate": "0.0825",
                                   "tax_items": [{"name": "Texas", "rate": "0.0625",
                                                  "amount": "6.25"}]}]
        }))
        .unwrap();
        let theme = Theme::default();
        let shown: String =
            estimate_detail(&e, &theme)
                .lines(100)
                .iter()
                .fold(String::new(), |mut out, l| {
                    let _ = writeln!(out, "{l}");
                    out
                });
        assert!(shown.contains("8.25 USD"), "{shown}");
        assert!(shown.contains("Texas  6.25%  6.25 USD"), "{shown}");
    }
}
