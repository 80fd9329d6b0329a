//! The detail of one product: what it is, and how it is classified for sales tax.

use ratatui::text::{Line, Span};

use super::columns::status_style;
use crate::model::Product;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, section};

/// Builds the detail view.
pub fn build<'t>(p: &Product, theme: &'t Theme) -> Detail<'t> {
    let text = |s: &str| (!s.is_empty()).then(|| Line::from(s.to_owned()));
    let classification = if p.classification_failed {
        Some(Line::from(Span::styled(
            "failed: choose a category and subcategory (e)",
            theme.status_bad,
        )))
    } else if p.needs_classification() {
        Some(Line::from(Span::styled(
            "needs review (e)",
            theme.status_pending,
        )))
    } else {
        None
    };
    Detail::new(
        theme,
        vec![
            section(
                "Product",
                vec![
                    ("ID", Some(Line::from(p.id.clone()))),
                    ("Name", text(&p.name)),
                    ("External ID", text(&p.external_id)),
                    ("Code", text(&p.code)),
                    ("SKU", text(&p.sku.join(", "))),
                    ("Description", text(&p.description)),
                    ("Source", p.source.clone().map(Line::from)),
                    ("Store", p.store_name.clone().map(Line::from)),
                    ("Connection", p.connection_id.clone().map(Line::from)),
                ],
            ),
            section(
                "Classification",
                vec![
                    (
                        "Status",
                        Some(Line::from(Span::styled(
                            p.status.to_string(),
                            status_style(&p.status, theme),
                        ))),
                    ),
                    ("Category", text(&p.product_category)),
                    ("Subcategory", text(&p.product_subcategory)),
                    (
                        "Tax exempt",
                        Some(Line::from(if p.tax_exempt { "yes" } else { "no" })),
                    ),
                    ("Classification", classification),
                ],
            ),
        ],
    )
}
