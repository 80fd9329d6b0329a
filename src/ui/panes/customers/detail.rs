//! The detail of one customer: identity, contact, address, and the tax registrations on file.

use ratatui::text::{Line, Span};

use super::columns::status_style;
use crate::model::{AddressStatus, Customer, CustomerTaxRegistration};
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, Section, opt, section};

/// The style of an address verification result.
fn address_style(status: &AddressStatus, theme: &Theme) -> ratatui::style::Style {
    match status {
        AddressStatus::Verified => theme.status_good,
        AddressStatus::PartiallyVerified | AddressStatus::Unverified => theme.status_pending,
        AddressStatus::Invalid | AddressStatus::Unverifiable => theme.status_bad,
        AddressStatus::Blank | AddressStatus::Other(_) => theme.muted,
    }
}

/// One tax registration on one line: `CA  gst_hst  123456789RT0001  valid yes`.
fn registration_line(r: &CustomerTaxRegistration, theme: &Theme) -> Line<'static> {
    let (valid, style) = if r.is_valid {
        ("yes", theme.status_good)
    } else {
        ("no", theme.status_bad)
    };
    Line::from(vec![
        Span::raw(format!(
            "{}  {}  {}  valid ",
            r.country_code, r.tax_type, r.tax_id
        )),
        Span::styled(valid, style),
    ])
}

/// Builds the detail view.
pub fn build<'t>(c: &Customer, theme: &'t Theme) -> Detail<'t> {
    let mut registrations = Section::new("Tax registrations");
    match c.customer_tax_registrations.as_deref() {
        Some(list) if !list.is_empty() => {
            for r in list {
                registrations = registrations.row("Registration", registration_line(r, theme));
            }
        }
        _ => {
            registrations =
                registrations.row("Registration", Span::styled("none on file", theme.muted));
        }
    }
    Detail::new(
        theme,
        vec![
            section(
                "Identity",
                vec![
                    ("ID", Some(Line::from(c.id.clone()))),
                    ("Name", opt(c.name.as_ref())),
                    ("Company", opt(c.company_name.as_ref())),
                    (
                        "Status",
                        c.status.as_ref().map(|s| {
                            Line::from(Span::styled(s.to_string(), status_style(s, theme)))
                        }),
                    ),
                    ("External ID", opt(c.external_id.as_ref())),
                    ("Friendly ID", opt(c.external_friendly_id.as_ref())),
                    ("Registration number", opt(c.registration_number.as_ref())),
                    ("Source", opt(c.source.as_ref())),
                    ("Store", opt(c.store_name.as_ref())),
                ],
            ),
            section(
                "Contact",
                vec![
                    ("Email", opt(c.email.as_ref())),
                    ("Phone", opt(c.phone.as_ref())),
                ],
            ),
            section(
                "Address",
                vec![
                    ("Street", opt(c.address.street_1.as_ref())),
                    ("Street (2)", opt(c.address.street_2.as_ref())),
                    ("City", opt(c.address.city.as_ref())),
                    ("County", opt(c.address.county.as_ref())),
                    ("State", opt(c.address.state.as_ref())),
                    ("Postal code", opt(c.address.postal_code.as_ref())),
                    ("Country", opt(c.address.country.as_ref())),
                    ("Full address", opt(c.address.full_address.as_ref())),
                    (
                        "Address status",
                        c.address_status.as_ref().map(|s| {
                            Line::from(Span::styled(s.to_string(), address_style(s, theme)))
                        }),
                    ),
                ],
            ),
            registrations,
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CustomerStatus, CustomerTaxType};

    fn customer() -> Customer {
        serde_json::from_value(serde_json::json!({
            "id": "cust_1",
            "name": "Ada Lovelace",
            "status": "ACTIVE",
            "email": "ada@example.com",
            "phone": null,
            "company_name": null,
            "street_1": "12 King St",
            "street_2": null,
            "city": "Toronto",
            "county": null,
            "state": "ON",
            "postal_code": "M5H 1A1",
            "country": "CA",
            "full_address": null,
            "source": "API",
            "connection_id": null,
            "address_status": "VERIFIED",
            "registration_number": null,
            "external_id": null,
            "external_friendly_id": null,
            "store_name": null
        }))
        .unwrap()
    }

    fn text(c: &Customer) -> String {
        let theme = Theme::default();
        build(c, &theme)
            .lines(100)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_section_shows() {
        let shown = text(&customer());
        for part in [
            "Identity",
            "Contact",
            "Address",
            "Tax registrations",
            "Ada Lovelace",
            "ada@example.com",
            "M5H 1A1",
            "VERIFIED",
            "none on file",
        ] {
            assert!(shown.contains(part), "{part} in {shown}");
        }
        assert_eq!(customer().status, Some(CustomerStatus::Active));
    }

    #[test]
    fn tax_registrations_say_whether_they_are_valid() {
        let mut c = customer();
        c.customer_tax_registrations = Some(vec![CustomerTaxRegistration {
            id: "txr_1".into(),
            customer_id: c.id.clone(),
            country_code: "CA".into(),
            tax_type: CustomerTaxType::GstHst,
            tax_id: "123456789RT0001".into(),
            is_valid: true,
        }]);
        let shown = text(&c);
        assert!(
            shown.contains("CA  gst_hst  123456789RT0001  valid yes"),
            "{shown}"
        );
        assert!(!shown.contains("none on file"), "{shown}");
    }
}
