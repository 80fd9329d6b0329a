//! The detail of one exemption: every field, and the files attached to it.

use ratatui::text::{Line, Span};

use super::columns::status_style;
use crate::model::{Attachment, Exemption};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, Section, opt, section, when};

/// `12.3 KB`, `1.2 MB`, `512 B`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1024 * 1024 => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
        b if b >= 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

/// One attachment on one line: `cert.pdf  application/pdf  12.3 KB  att_1`.
fn attachment_line(a: &Attachment) -> Line<'static> {
    let parts: Vec<String> = [
        a.file_name.clone(),
        a.mime_type.clone(),
        a.file_size_bytes.map(size),
        Some(a.id.clone()),
    ]
    .into_iter()
    .flatten()
    .collect();
    Line::from(parts.join("  "))
}

/// What is known of the files: `None` while they load.
fn attachments_section<'t>(files: Option<&[Attachment]>, theme: &'t Theme) -> Section<'t> {
    let section = Section::new("Attachments");
    match files {
        None => section.row("File", Span::styled("loading…", theme.muted)),
        Some([]) => section.row("File", Span::styled("none attached", theme.muted)),
        Some(files) => files
            .iter()
            .fold(section, |s, a| s.row("File", attachment_line(a))),
    }
}

/// Builds the detail view of `e` with its attachments (`None` while they load).
pub fn build<'t>(e: &Exemption, files: Option<&[Attachment]>, theme: &'t Theme) -> Detail<'t> {
    let customer = e
        .customer_name
        .clone()
        .or_else(|| e.customer.as_ref().and_then(|c| c.name.clone()));
    let reseller = e.reseller.map(crate::model::format::yes_no);
    Detail::new(
        theme,
        vec![
            section(
                "Exemption",
                vec![
                    ("ID", Some(Line::from(e.id.clone()))),
                    ("Type", Some(Line::from(e.exemption_type.to_string()))),
                    (
                        "Status",
                        e.status.as_ref().map(|s| {
                            Line::from(Span::styled(s.to_string(), status_style(s, theme)))
                        }),
                    ),
                    ("Start date", Some(Line::from(text::date(e.start_date)))),
                    ("End date", e.end_date.map(|d| Line::from(text::date(d)))),
                    ("Reseller", opt(reseller.as_ref())),
                ],
            ),
            section(
                "Customer",
                vec![
                    ("Customer", opt(customer.as_ref())),
                    ("Customer ID", opt(e.customer_id.as_ref())),
                    ("Transaction ID", opt(e.transaction_id.as_ref())),
                ],
            ),
            section(
                "Certificate",
                vec![
                    ("FEIN", opt(e.fein.as_ref())),
                    ("Sales tax ID", opt(e.sales_tax_id.as_ref())),
                    ("Jurisdiction", opt(e.jurisdiction.as_ref())),
                    ("Country", opt(e.country_code.as_ref())),
                ],
            ),
            section(
                "Record",
                vec![
                    ("Organization", opt(e.organization_id.as_ref())),
                    ("Created", when(e.created_at.as_ref())),
                    ("Updated", when(e.updated_at.as_ref())),
                ],
            ),
            attachments_section(files, theme),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RelatedEntityType;

    fn exemption() -> Exemption {
        serde_json::from_value(serde_json::json!({
            "id": "exm_1",
            "exemption_type": "wholesale",
            "status": "ACTIVE",
            "start_date": "2025-01-01",
            "end_date": "2026-12-31",
            "customer_id": "cust_1",
            "customer_name": "Ada Lovelace",
            "FEIN": "12-3456789",
            "sales_tax_id": "TX-R1",
            "jurisdiction": "TX",
            "country_code": "US",
            "reseller": true,
            "created_at": "2026-11-26T22:13:19.330661491Z",
            "updated_at": "2024-03-21T21:29:07.684802"
        }))
        .unwrap()
    }

    fn text(e: &Exemption, files: Option<&[Attachment]>) -> String {
        let theme = Theme::default();
        build(e, files, &theme)
            .lines(100)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn every_field_shows() {
        let shown = text(&exemption(), Some(&[]));
        for part in [
            "exm_1",
            "wholesale",
            "ACTIVE",
            "2025-01-01",
            "2026-12-31",
            "Ada Lovelace",
            "cust_1",
            "12-3456789",
            "TX-R1",
            "US",
            "yes",
            "none attached",
        ] {
            assert!(shown.contains(part), "{part} in {shown}");
        }
        assert!(text(&exemption(), None).contains("loading…"));
    }

    #[test]
    fn its_times_read_as_every_other_time_does() {
        let shown = text(&exemption(), None);
        let row = |label: &str| {
            shown
                .lines()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| panic!("{label} in {shown}"))
                .to_owned()
        };
        assert!(row("Created").ends_with(" 2026-11-26 22:13 UTC"), "{shown}");
        assert!(row("Updated").ends_with(" 2024-03-21 21:29 UTC"), "{shown}");
        assert!(!shown.contains("T22:13"), "{shown}");
    }

    #[test]
    fn attachments_are_listed_with_their_size() {
        let file = Attachment {
            id: "att_1".into(),
            related_entity_id: "exm_1".into(),
            related_entity_type: RelatedEntityType::Exemption,
            file_name: Some("cert.pdf".into()),
            mime_type: Some("application/pdf".into()),
            file_size_bytes: Some(2048),
            created_at: None,
            file_location: None,
            file_location_type: None,
        };
        let shown = text(&exemption(), Some(&[file]));
        assert!(
            shown.contains("cert.pdf  application/pdf  2.0 KB  att_1"),
            "{shown}"
        );
    }
}
