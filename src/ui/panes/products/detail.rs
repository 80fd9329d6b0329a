//! The detail of one product: what it is, how it is classified for sales tax, and what is left
//! to do about its classification.

use ratatui::text::{Line, Span};

use super::columns::status_style;
use crate::model::{Product, ProductStatus};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Detail, section};

/// Where the product's classification stands, in words: what is left to do and the key for it
/// (`keys`' for an edit), or that nothing is.
fn classification(p: &Product, theme: &Theme, keys: &Keymap) -> Option<Line<'static>> {
    let edit = keys.keys_for(Action::Edit);
    let (words, style) = if p.classification_failed {
        (
            format!("failed: choose its category with {edit}; saving approves it"),
            theme.status_bad,
        )
    } else if p.needs_classification() {
        (
            format!("waiting for approval: check it with {edit}; saving approves it"),
            theme.status_pending,
        )
    } else if p.status == ProductStatus::Approved {
        ("approved: nothing left to do".to_owned(), theme.status_good)
    } else {
        return None;
    };
    Some(Line::from(Span::styled(words, style)))
}

/// Builds the detail view.
pub fn build<'t>(p: &Product, theme: &'t Theme, keys: &Keymap) -> Detail<'t> {
    let text = |s: &str| (!s.is_empty()).then(|| Line::from(s.to_owned()));
    let classification = classification(p, theme, keys);
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
                        Some(Line::from(crate::model::format::yes_no(p.tax_exempt))),
                    ),
                    ("Classification", classification),
                ],
            ),
        ],
    )
}
