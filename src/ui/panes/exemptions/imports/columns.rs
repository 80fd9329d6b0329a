//! The certificate-import list's columns (the service offers no sort on this list).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::model::tenanted::{CertificateImport, CertificateImportStatus};
use crate::ui::panes::marks::{Marked, marker_column};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::paged_table::{Column, ColumnWidth, priority};

type Row = Marked<CertificateImport>;

/// The style of an import status: approved reads as good, uploaded (awaiting approval) as
/// pending, requested (no file yet) as closed.
pub fn status_style(status: &CertificateImportStatus, theme: &Theme) -> Style {
    match status {
        CertificateImportStatus::Approved => theme.status_good,
        CertificateImportStatus::Uploaded => theme.status_pending,
        CertificateImportStatus::Requested | CertificateImportStatus::Pending => {
            theme.status_closed
        }
        CertificateImportStatus::Other(_) => theme.base,
    }
}

fn status_cell<'r>(m: &'r Row, theme: &Theme) -> Line<'r> {
    let s = &m.row.status;
    Line::from(Span::styled(s.as_str(), status_style(s, theme)))
}

/// The customer's name, or its id when the import leaves the name out.
fn customer_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    let i = &m.row;
    Line::from(
        i.customer_name
            .as_deref()
            .or(i.customer_id.as_deref())
            .unwrap_or(""),
    )
}

fn file_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.file_name.as_deref().unwrap_or(""))
}

/// `CA, US`, or whichever of the two is known.
fn jurisdiction_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    let i = &m.row;
    let parts: Vec<&str> = [i.jurisdiction.as_deref(), i.country_code.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
    Line::from(parts.join(", "))
}

/// The day the certificate arrived (UTC).
fn uploaded_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(
        m.row
            .uploaded_at
            .as_ref()
            .map(|t| text::date(t.0.date_naive()))
            .unwrap_or_default(),
    )
}

fn exemption_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.exemption_id.as_deref().unwrap_or(""))
}

fn type_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.exemption_type.as_deref().unwrap_or(""))
}

fn id_cell<'r>(m: &'r Row, _: &Theme) -> Line<'r> {
    Line::from(m.row.id.as_str())
}

/// The list's columns: the mark first.
pub fn columns() -> Vec<Column<Row>> {
    vec![
        marker_column(),
        Column::new("Status", status_cell)
            .width(ColumnWidth::fixed(9))
            .priority(priority::STATUS),
        Column::new("Customer", customer_cell)
            .width(ColumnWidth::between(12, 30, 2))
            .priority(priority::NAME),
        Column::new("File", file_cell)
            .width(ColumnWidth::flex(12, 3))
            .priority(priority::DEFAULT),
        Column::new("Jurisdiction", jurisdiction_cell)
            .width(ColumnWidth::fixed(12))
            .priority(priority::NAME),
        Column::new("Uploaded", uploaded_cell)
            .width(ColumnWidth::fixed(10))
            .priority(priority::TIME),
        Column::new("Exemption", exemption_cell)
            .width(ColumnWidth::between(12, 24, 1))
            .priority(priority::ID),
        Column::new("Type", type_cell)
            .width(ColumnWidth::between(11, 14, 1))
            .priority(priority::DETAIL),
        Column::new("Import", id_cell)
            .width(ColumnWidth::between(16, 24, 1))
            .priority(priority::ID),
    ]
}
