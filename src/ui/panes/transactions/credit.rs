//! The credit note form: prefilled from the sale it credits, its total recomputed from the items
//! as they are typed, and every rule of the service checked on the body before it is sent.

use chrono::NaiveDate;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::model::{CreditNoteRequest, CreditNoteStatus, FieldError, LocPart, Transaction};
use crate::rules;
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::{Choice, FieldKind, FieldSpec, FieldValue, Form, FormValues};

/// The wire names and labels of one item's fields.
struct ItemFields {
    external_id: (&'static str, &'static str),
    product: (&'static str, &'static str),
    quantity: (&'static str, &'static str),
    amount: (&'static str, &'static str),
    discount: (&'static str, &'static str),
}

/// The fields of item `$i` (0-based on the wire), labelled `Item $n`.
macro_rules! item_fields {
    ($($i:literal => $n:literal),+ $(,)?) => {
        [$(ItemFields {
            external_id: (
                concat!("transaction_items.", $i, ".external_id"),
                concat!("Item ", $n, " external ID"),
            ),
            product: (
                concat!("transaction_items.", $i, ".external_product_id"),
                concat!("Item ", $n, " product"),
            ),
            quantity: (
                concat!("transaction_items.", $i, ".quantity"),
                concat!("Item ", $n, " quantity"),
            ),
            amount: (
                concat!("transaction_items.", $i, ".amount"),
                concat!("Item ", $n, " amount"),
            ),
            discount: (
                concat!("transaction_items.", $i, ".discount_amount"),
                concat!("Item ", $n, " discount"),
            ),
        }),+]
    };
}

/// The items a credit note form offers at most: the sale's first ones.
pub const MAX_ITEMS: usize = 8;

const ITEMS: [ItemFields; MAX_ITEMS] = item_fields!(
    0 => 1, 1 => 2, 2 => 3, 3 => 4, 4 => 5, 5 => 6, 6 => 7, 7 => 8,
);

/// The credit note's total: the sum of its items' amounts less their discounts, items left out
/// (no amount) not counted; `None` while an amount or a discount of an item sent does not read
/// as a decimal (its field says why) or the sum leaves `Decimal`'s range: the total is never
/// shown short of a line.
pub fn total(values: &FormValues) -> Option<Decimal> {
    let read = |name: &str| match values.text(name) {
        None | Some("") => Some(Decimal::ZERO),
        Some(v) => rules::parse_decimal(v),
    };
    ITEMS
        .iter()
        .filter(|f| values.text(f.amount.0).is_some_and(|v| !v.is_empty()))
        .try_fold(Decimal::ZERO, |sum, f| {
            sum.checked_add(read(f.amount.0)?.checked_sub(read(f.discount.0)?)?)
        })
}

/// The body the form's values make, exactly as it would be sent, and for each item sent the
/// index of its fields in the form: an item whose amount is left empty is left out, the others
/// are dated with the credit note's date, and the total is computed from them.
fn credit_json(values: &FormValues) -> (Value, Vec<u64>) {
    let mut body = values.to_json();
    let date = body.get("date").cloned();
    let mut kept = Vec::new();
    if let Some(Value::Array(items)) = body.get_mut("transaction_items") {
        let mut index = 0;
        items.retain(|item| {
            let keep = item.get("amount").is_some();
            if keep {
                kept.push(index);
            }
            index += 1;
            keep
        });
        for item in items.iter_mut() {
            if let Some(date) = &date {
                item["date"] = date.clone();
            }
        }
    }
    // Unknown only while an item's amount does not read: the body is refused at that field.
    body["total_amount"] = Value::String(total(values).unwrap_or_default().to_string());
    (body, kept)
}

/// The credit note the form describes against `sale`, or the rule errors that keep it from being
/// sent, each naming the form's field even when items before it were left out: the note's own
/// rules, then its lines against what the sale's lines hold (credit notes issued before are
/// checked by the service, which knows them).
pub fn credit_body(
    values: &FormValues,
    sale: &Transaction,
) -> Result<CreditNoteRequest, Vec<FieldError>> {
    let (body, kept) = credit_json(values);
    let remap = |mut errors: Vec<FieldError>| {
        for error in &mut errors {
            if let [_, LocPart::Key(list), LocPart::Index(i), ..] = error.loc.as_mut_slice()
                && list == "transaction_items"
                && let Some(original) = kept.get(*i as usize)
            {
                *i = *original;
            }
        }
        errors
    };
    let note = rules::credit_note(&body).map_err(remap)?;
    rules::credit_note_lines(&note, sale, &[]).map_err(remap)?;
    Ok(note)
}

/// The `c` form against `sale`, dated `today`, crediting every item in full until edited.
pub fn credit_form(sale: &Transaction, today: NaiveDate) -> Form {
    let statuses = CreditNoteStatus::KNOWN
        .iter()
        .map(|s| Choice::new(s.as_str(), s.as_str(), ""))
        .collect();
    let mut specs = vec![
        FieldSpec::new("external_id", "External ID", FieldKind::Text)
            .rule("your id for the credit note; unique")
            .required(),
        FieldSpec::new("date", "Date", FieldKind::Date)
            .rule("YYYY-MM-DD")
            .required(),
        FieldSpec::new("status", "Status", FieldKind::Select(statuses))
            .rule("←/→ to choose")
            .required(),
        FieldSpec::new("currency", "Currency", FieldKind::Text)
            .rule("the sale's currency, such as USD")
            .required(),
    ];
    let items = &sale.transaction_items[..sale.transaction_items.len().min(MAX_ITEMS)];
    for f in &ITEMS[..items.len()] {
        specs.extend([
            FieldSpec::new(f.external_id.0, f.external_id.1, FieldKind::Text)
                .rule("your id for the line")
                .required(),
            FieldSpec::new(f.product.0, f.product.1, FieldKind::Text)
                .rule("the product's external id")
                .required(),
            FieldSpec::new(f.quantity.0, f.quantity.1, FieldKind::Decimal)
                .rule("a decimal such as 1")
                .required(),
            FieldSpec::new(f.amount.0, f.amount.1, FieldKind::Decimal)
                .rule("the amount credited, such as 19.99; empty to leave the item out"),
            FieldSpec::new(f.discount.0, f.discount.1, FieldKind::Decimal)
                .rule("optional; less than the amount"),
        ]);
    }
    let checked = sale.clone();
    let mut form = Form::new(specs)
        .with_validator(move |values| credit_body(values, &checked).err().unwrap_or_default())
        .with_value("external_id", format!("{}-credit", sale.external_id))
        .with_value("date", today.to_string())
        .with_value(
            "status",
            FieldValue::Choice(CreditNoteStatus::Committed.as_str().to_owned()),
        )
        .with_value("currency", sale.currency.clone().unwrap_or_default());
    for (n, (f, item)) in ITEMS.iter().zip(items).enumerate() {
        let line_id = item
            .external_id
            .clone()
            .unwrap_or_else(|| format!("{}-credit-{}", sale.external_id, n + 1));
        let decimal = |d: Option<Decimal>| d.map(|d| d.to_string()).unwrap_or_default();
        form = form
            .with_value(f.external_id.0, line_id)
            .with_value(
                f.product.0,
                item.external_product_id.clone().unwrap_or_default(),
            )
            .with_value(f.quantity.0, decimal(item.quantity))
            .with_value(f.amount.0, decimal(item.amount));
    }
    form
}

/// The form that rewrites pending credit note `note` against `sale`: the `c` form, each of the
/// sale's lines holding what the note credits on it (left empty where it credits nothing).
/// Refused, with the reason, when a line of the note credits no line the form offers: the form
/// would drop it unseen.
pub fn edit_form(sale: &Transaction, note: &Transaction) -> Result<Form, String> {
    let offered = &sale.transaction_items[..sale.transaction_items.len().min(MAX_ITEMS)];
    let mut placed: Vec<Option<&crate::model::TransactionItem>> = vec![None; offered.len()];
    for line in &note.transaction_items {
        let slot = offered.iter().enumerate().position(|(i, item)| {
            placed[i].is_none()
                && item.external_product_id.is_some()
                && item.external_product_id == line.external_product_id
        });
        match slot {
            Some(i) => placed[i] = Some(line),
            None => {
                return Err(format!(
                    "Credit note {} has a line for {} that the form cannot show against {}",
                    note.external_id,
                    line.external_product_id.as_deref().unwrap_or("no product"),
                    sale.external_id
                ));
            }
        }
    }
    let decimal = |d: Option<Decimal>| d.map(|d| d.to_string()).unwrap_or_default();
    let status = note
        .status
        .as_ref()
        .map_or(CreditNoteStatus::Pending.as_str(), |s| s.as_str())
        .to_owned();
    let mut form = credit_form(sale, note.date.0.date_naive())
        .with_value("external_id", note.external_id.clone())
        .with_value("status", FieldValue::Choice(status));
    if let Some(currency) = &note.currency {
        form = form.with_value("currency", currency.clone());
    }
    for (f, line) in ITEMS.iter().zip(&placed) {
        form = match line {
            Some(line) => {
                let mut form = form
                    .with_value(f.quantity.0, decimal(line.quantity))
                    .with_value(f.amount.0, decimal(line.amount))
                    .with_value(f.discount.0, decimal(line.total_discount));
                if let Some(id) = &line.external_id {
                    form = form.with_value(f.external_id.0, id.clone());
                }
                form
            }
            None => form.with_value(f.amount.0, ""),
        };
    }
    Ok(form)
}

/// The credit note form under a line with its total, recomputed from what is typed.
pub fn draw_credit(
    sale: &Transaction,
    form: &mut Form,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let [total_area, form_area] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(area);
    let currency = sale.currency.as_deref();
    let shown = match total(&form.values()) {
        Some(total) => Span::styled(text::money(total, currency), theme.money),
        None => Span::styled("unknown until every amount reads", theme.warning),
    };
    let mut spans = vec![Span::styled("Credit note total: ", theme.title), shown];
    if let Some(sale_total) = sale.total_amount {
        spans.push(Span::styled(
            format!(" (sale total {})", text::money(sale_total, currency)),
            theme.muted,
        ));
    }
    if sale.transaction_items.len() > MAX_ITEMS {
        spans.push(Span::styled(
            format!(" — the first {MAX_ITEMS} items are offered"),
            theme.warning,
        ));
    }
    Paragraph::new(Line::from(spans)).render(total_area, buf);
    form.render(form_area, buf, theme);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sale() -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-03-01T10:00:00Z",
            "type": "SALE", "currency": "USD", "total_amount": "150.00",
            "transaction_items": [
                {"id": "i1", "external_id": "l1", "external_product_id": "sku-1",
                 "quantity": "1", "amount": "100.00"},
                {"id": "i2", "external_id": "l2", "external_product_id": "sku-2",
                 "quantity": "2", "amount": "50.00"}
            ]
        }))
        .unwrap()
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 5).unwrap()
    }

    #[test]
    fn a_line_crediting_more_than_the_sale_holds_or_a_negative_one_is_refused_at_its_field() {
        let form = credit_form(&sale(), today()).with_value("transaction_items.1.amount", "50.01");
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.field_path() == "transaction_items.1.amount"),
            "{errors:?}"
        );
        let form = credit_form(&sale(), today()).with_value("transaction_items.0.amount", "-5.00");
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.field_path() == "transaction_items.0.amount"),
            "{errors:?}"
        );
        let form = credit_form(&sale(), today()).with_value("transaction_items.1.amount", "50.00");
        assert!(
            credit_body(&form.values(), &sale()).is_ok(),
            "the whole line is fine"
        );
    }

    #[test]
    fn the_form_credits_the_whole_sale_until_edited() {
        let form = credit_form(&sale(), today());
        let body = credit_body(&form.values(), &sale()).unwrap();
        assert_eq!(body.external_id, "ord-1-credit");
        assert_eq!(body.currency, "USD");
        assert_eq!(body.status, CreditNoteStatus::Committed);
        assert_eq!(body.total_amount, Decimal::new(15000, 2));
        assert_eq!(body.transaction_items.len(), 2);
        assert_eq!(body.transaction_items[1].external_product_id, "sku-2");
        assert_eq!(body.transaction_items[1].date, body.date);
        assert!(!form.is_dirty());
    }

    #[test]
    fn the_total_follows_amounts_and_discounts_exactly() {
        let form = credit_form(&sale(), today())
            .with_value("transaction_items.0.amount", "10.10")
            .with_value("transaction_items.0.discount_amount", "0.05")
            .with_value("transaction_items.1.amount", "0.20");
        assert_eq!(total(&form.values()), Some(Decimal::new(1025, 2)));
        let (body, _) = credit_json(&form.values());
        assert_eq!(body["total_amount"], json!("10.25"));
    }

    #[test]
    fn a_discount_or_a_currency_that_breaks_a_rule_is_refused_under_its_field() {
        let form = credit_form(&sale(), today())
            .with_value("transaction_items.1.discount_amount", "50")
            .with_value("currency", "DOLLARS");
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        let mut paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        paths.sort();
        assert_eq!(paths, ["currency", "transaction_items.1.discount_amount"]);
    }

    #[test]
    fn an_item_without_an_amount_is_left_out_and_errors_still_land_on_their_fields() {
        let form = credit_form(&sale(), today())
            .with_value("transaction_items.0.amount", "")
            .with_value("transaction_items.0.discount_amount", "5")
            .with_value("transaction_items.1.discount_amount", "80");
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["transaction_items.1.discount_amount"]);
        let form = form.with_value("transaction_items.1.discount_amount", "");
        assert_eq!(total(&form.values()), Some(Decimal::new(5000, 2)));
        let body = credit_body(&form.values(), &sale()).unwrap();
        assert_eq!(body.transaction_items.len(), 1);
        assert_eq!(body.transaction_items[0].external_product_id, "sku-2");
        assert_eq!(body.total_amount, Decimal::new(5000, 2));
    }

    fn note(lines: serde_json::Value) -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_9", "external_id": "cn-1", "date": "2026-03-04T00:00:00Z",
            "type": "PARTIAL_CREDIT_NOTE", "status": "PENDING", "currency": "USD",
            "related_to": "tran_1", "total_amount": "30.00", "transaction_items": lines
        }))
        .unwrap()
    }

    #[test]
    fn the_edit_form_holds_the_notes_lines_on_the_sales_lines_they_credit() {
        let pending = note(json!([
            {"id": "n1", "external_id": "c2", "external_product_id": "sku-2",
             "quantity": "1", "amount": "30.00", "total_discount": "1.00"}
        ]));
        let form = edit_form(&sale(), &pending).unwrap();
        let body = credit_body(&form.values(), &sale()).unwrap();
        assert_eq!(body.external_id, "cn-1");
        assert_eq!(body.status, CreditNoteStatus::Pending);
        assert_eq!(body.date.0.date_naive().to_string(), "2026-03-04");
        assert_eq!(body.transaction_items.len(), 1, "sku-1 is not credited");
        assert_eq!(body.transaction_items[0].external_id, "c2");
        assert_eq!(body.transaction_items[0].amount, Decimal::new(3000, 2));
        assert_eq!(
            body.transaction_items[0].discount_amount,
            Some(Decimal::new(100, 2))
        );
        assert_eq!(body.total_amount, Decimal::new(2900, 2));

        let stray = note(json!([
            {"id": "n1", "external_product_id": "sku-9", "quantity": "1", "amount": "5.00"}
        ]));
        let why = edit_form(&sale(), &stray).unwrap_err();
        assert!(why.contains("sku-9"), "{why}");
    }

    #[test]
    fn the_total_is_unknown_while_an_amount_does_not_read_and_says_so() {
        let mut form =
            credit_form(&sale(), today()).with_value("transaction_items.0.amount", "12,50");
        assert_eq!(
            total(&form.values()),
            None,
            "not 50.00: the first line is not left out"
        );
        let mut buf = crate::ui::widgets::testing::blank(90, 30);
        draw_credit(
            &sale(),
            &mut form,
            buf.area,
            &mut buf,
            &crate::ui::theme::Theme::default(),
        );
        assert_eq!(
            crate::ui::widgets::testing::row_text(&buf, 0),
            "Credit note total: unknown until every amount reads (sale total 150.00 USD)"
        );
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].field_path(), "transaction_items.0.amount");
        form.set_errors(&errors);
        assert_eq!(
            form.errors_for("transaction_items.0.amount"),
            [
                "Item 1 amount should be a valid decimal, such as 12.50, within 28 significant digits"
            ],
            "the error names its field"
        );
        let huge = "79228162514264337593543950335";
        let form = credit_form(&sale(), today())
            .with_value("transaction_items.0.amount", huge)
            .with_value("transaction_items.1.amount", huge);
        assert_eq!(
            total(&form.values()),
            None,
            "past Decimal's range: no panic"
        );
    }

    #[test]
    fn a_negative_amount_is_refused_once_whatever_its_discount() {
        let form = credit_form(&sale(), today())
            .with_value("transaction_items.0.amount", "-5.00")
            .with_value("transaction_items.0.discount_amount", "0.00");
        let errors = credit_body(&form.values(), &sale()).unwrap_err();
        let paths: Vec<String> = errors.iter().map(FieldError::field_path).collect();
        assert_eq!(paths, ["transaction_items.0.amount"], "{errors:?}");
    }

    #[test]
    fn only_the_first_items_are_offered() {
        let mut long = sale();
        let item = long.transaction_items[0].clone();
        long.transaction_items = vec![item; MAX_ITEMS + 2];
        let form = credit_form(&long, today());
        let body = credit_body(&form.values(), &long).unwrap();
        assert_eq!(body.transaction_items.len(), MAX_ITEMS);
    }
}
