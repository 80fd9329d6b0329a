//! The detail of one transaction: its header, amounts (tax shown as pending until the service
//! has calculated it, never as zero), converted amounts, exemption, addresses, and each item with
//! its tax items.

use ratatui::text::{Line, Span};
use rust_decimal::Decimal;
use std::fmt::Write as _;

use super::columns::{customer_name, processing_style, status_style};
use crate::model::{
    TaxItem, Transaction, TransactionAddress, TransactionExemptStatus, TransactionItem,
};
use crate::ui::text;
use crate::ui::theme::Theme;
use crate::ui::widgets::detail::{Cell, Detail, Section, opt, section};

/// Formats amounts of one currency (a credit note's negative), and tax amounts as pending while
/// the tax is not in.
struct Amounts<'t> {
    currency: Option<&'t str>,
    calculated: bool,
    credit: bool,
    theme: &'t Theme,
}

impl Amounts<'_> {
    /// `amount` in `currency`, by the transaction's sign (see [`super::columns::signed`]).
    fn write(&self, amount: Decimal, currency: Option<&str>) -> String {
        super::columns::signed(self.credit, amount, currency)
    }

    fn money(&self, amount: Option<Decimal>) -> Cell {
        self.in_currency(amount, self.currency)
    }

    fn in_currency(&self, amount: Option<Decimal>, currency: Option<&str>) -> Cell {
        amount.map(|a| Line::from(Span::styled(self.write(a, currency), self.theme.money)))
    }

    /// A calculated tax amount: "pending" until the service has calculated it.
    fn tax(&self, amount: Option<Decimal>) -> Cell {
        if self.calculated {
            self.money(amount)
        } else {
            Some(self.pending())
        }
    }

    /// A calculated tax rate: "pending" until the service has calculated it.
    fn rate(&self, rate: Option<Decimal>) -> Cell {
        if self.calculated {
            rate.map(|r| Line::from(text::rate_percent(r)))
        } else {
            Some(self.pending())
        }
    }

    fn pending(&self) -> Line<'static> {
        Line::from(Span::styled(
            "pending (the service is calculating the tax)",
            self.theme.status_pending,
        ))
    }
}

/// An address on one line: `1 Main St, Austin, TX 78701, US`.
fn address_line(a: &TransactionAddress) -> String {
    if let Some(full) = a
        .address
        .full_address
        .as_deref()
        .filter(|f| !f.trim().is_empty())
    {
        return full.to_owned();
    }
    let state_zip = [a.address.state.as_deref(), a.address.postal_code.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    [
        a.address.street_1.as_deref(),
        a.address.street_2.as_deref(),
        a.address.city.as_deref(),
        Some(state_zip.as_str()),
        a.address.country.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|s| !s.trim().is_empty())
    .collect::<Vec<_>>()
    .join(", ")
}

/// One tax item on one line: `Texas state tax  6.25%  8.06 USD  (STATE Texas)`.
fn tax_item_line(tax: &TaxItem, amounts: &Amounts) -> Line<'static> {
    let mut text = format!(
        "{}  {}  {}",
        tax.name,
        text::rate_percent(tax.rate),
        amounts.write(tax.amount, tax.currency.as_deref().or(amounts.currency))
    );
    if let Some(converted) = tax.converted_amount {
        let _ = write!(
            text,
            " = {}",
            amounts.write(converted, tax.destination_currency.as_deref())
        );
    }
    let place = [
        tax.jurisdiction_type.as_deref(),
        tax.jurisdiction_name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    if !place.is_empty() {
        let _ = write!(text, "  ({place})");
    }
    Line::from(text)
}

/// The section of one item, with its tax items.
fn item_section(n: usize, item: &TransactionItem, amounts: &Amounts) -> Section<'static> {
    let product = item
        .product_name
        .as_deref()
        .or(item.external_product_id.as_deref())
        .unwrap_or("");
    let exemption = match (&item.exempt, &item.tax_exemption) {
        (_, Some(reason)) => Some(Line::from(format!("exempt: {reason}"))),
        (Some(true), None) => Some(Line::from("exempt")),
        (Some(false), None) => Some(Line::from("not exempt")),
        (None, None) => None,
    };
    let mut s = section(
        format!("Item {n}: {product}"),
        vec![
            ("External ID", opt(item.external_id.as_ref())),
            ("Product", opt(item.external_product_id.as_ref())),
            ("Description", opt(item.description.as_ref())),
            ("Quantity", opt(item.quantity.as_ref())),
            ("Amount", amounts.money(item.amount)),
            ("Discount", amounts.money(item.total_discount)),
            ("Taxable amount", amounts.money(item.taxable_amount)),
            ("Tax", amounts.tax(item.tax_amount_calculated)),
            ("Tax rate", amounts.rate(item.tax_rate_calculated)),
            ("Tax imported", amounts.money(item.tax_amount_imported)),
            ("Exemption", exemption),
        ],
    );
    if item.converted_amount.is_some() {
        let to = item.destination_currency.as_deref();
        s = s
            .maybe(
                "Converted amount",
                amounts.in_currency(item.converted_amount, to),
            )
            .maybe(
                "Converted tax",
                if amounts.calculated {
                    amounts.in_currency(item.converted_tax_amount_calculated, to)
                } else {
                    Some(amounts.pending())
                },
            );
    }
    if !amounts.calculated {
        return s.row("Tax items", amounts.pending());
    }
    if item.tax_items.is_empty() {
        return s.row("Tax items", Span::styled("none", amounts.theme.muted));
    }
    item.tax_items
        .iter()
        .fold(s, |s, tax| s.row("Tax item", tax_item_line(tax, amounts)))
}

/// The customer's id, from the transaction or its embedded customer.
fn customer_id(t: &Transaction) -> Option<&str> {
    t.customer_id
        .as_deref()
        .or_else(|| t.customer.as_ref().map(|c| c.id.as_str()))
        .filter(|id| !id.trim().is_empty())
}

/// `Hiroshi Tremblay  cust_demo1_00042`: the name and the id (two customers may share a name);
/// the id alone when there is no name.
fn customer_line(t: &Transaction, theme: &Theme) -> Cell {
    let id = customer_id(t);
    let name = Some(customer_name(t)).filter(|n| !n.is_empty() && Some(*n) != id);
    match (name, id) {
        (Some(name), Some(id)) => Some(Line::from(vec![
            Span::raw(name.to_owned()),
            Span::raw("  "),
            Span::styled(id.to_owned(), theme.muted),
        ])),
        (Some(name), None) => Some(Line::from(name.to_owned())),
        (None, Some(id)) => Some(Line::from(id.to_owned())),
        (None, None) => None,
    }
}

/// One applied exemption on one line: `exmp_1  customer  TX, US  ACTIVE  2025-01-01 – 2027-12-31
/// sales tax id TX-1`, with what the service gave of it.
fn applied_exemption_line(e: &serde_json::Value) -> Line<'static> {
    let field = |key: &str| {
        e.get(key)
            .and_then(serde_json::Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    let place = [field("jurisdiction"), field("country_code")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let period = field("start_date").map(|start| match field("end_date") {
        Some(end) => format!("{start} – {end}"),
        None => format!("from {start}"),
    });
    let parts: Vec<String> = [
        Some(field("id").unwrap_or("(no id)").to_owned()),
        field("exemption_type").map(str::to_owned),
        Some(place).filter(|p| !p.is_empty()),
        field("status").map(str::to_owned),
        period,
        field("sales_tax_id").map(|id| format!("sales tax id {id}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    Line::from(parts.join("  "))
}

/// Whether the exempt status and which exemptions applied.
fn exemption_section(t: &Transaction, theme: &Theme) -> Section<'static> {
    let s = Section::new("Exemption").maybe("Exempt", opt(t.exempt.as_ref()));
    let exempt = matches!(
        t.exempt,
        Some(TransactionExemptStatus::FullyExempt | TransactionExemptStatus::PartiallyExempt)
    );
    match t.exemptions.as_deref() {
        Some([]) if exempt => s.row(
            "Exemptions applied",
            Span::styled("none on file for this sale", theme.status_pending),
        ),
        Some([]) => s.row("Exemptions applied", Span::styled("none", theme.muted)),
        Some(applied) => applied.iter().fold(s, |s, e| {
            s.row("Exemption applied", applied_exemption_line(e))
        }),
        None => s.maybe("Exemptions applied", None::<Line>),
    }
}

/// Builds the detail view.
pub fn build<'t>(t: &Transaction, theme: &'t Theme) -> Detail<'t> {
    let amounts = Amounts {
        currency: t.currency.as_deref(),
        calculated: t.tax_is_calculated(),
        credit: t.kind.is_credit_note(),
        theme,
    };
    let customer = customer_line(t, theme);
    let mut sections = vec![
        section(
            "Transaction",
            vec![
                ("ID", Some(Line::from(t.id.clone()))),
                ("External ID", Some(Line::from(t.external_id.clone()))),
                ("Type", Some(Line::from(t.kind.to_string()))),
                (
                    "Status",
                    t.status
                        .as_ref()
                        .map(|s| Line::from(Span::styled(s.to_string(), status_style(s, theme)))),
                ),
                (
                    "Processing status",
                    t.processing_status.as_ref().map(|s| {
                        Line::from(Span::styled(s.to_string(), processing_style(s, theme)))
                    }),
                ),
                ("Date", Some(Line::from(text::timestamp(&t.date)))),
                ("Direction", opt(t.direction.as_ref())),
                ("Customer", customer),
                ("Description", opt(t.description.as_ref())),
                ("Credit note of", opt(t.related_to.as_ref())),
                ("Refund status", opt(t.refund_status.as_ref())),
                ("Document type", opt(t.document_type.as_ref())),
                ("Marketplace", opt(t.marketplace.as_ref())),
                ("Source", opt(t.source.as_ref())),
            ],
        ),
        section(
            "Amounts",
            vec![
                ("Currency", opt(t.currency.as_ref())),
                ("Subtotal", amounts.money(t.subtotal)),
                ("Discount", amounts.money(t.total_discount)),
                ("Total", amounts.money(t.total_amount)),
                ("Taxable amount", amounts.money(t.taxable_amount)),
                ("Tax calculated", amounts.tax(t.total_tax_amount_calculated)),
                ("Tax rate", amounts.rate(t.tax_rate_calculated)),
                ("Tax imported", amounts.money(t.total_tax_amount_imported)),
                ("Tax liability", amounts.tax(t.total_tax_liability_amount)),
                ("Final total", amounts.tax(t.final_total_amount)),
            ],
        ),
    ];
    if t.converted_total_amount.is_some() || t.conversion_rate.is_some() {
        let to = t.destination_currency.as_deref();
        let converted_tax = |a| {
            if amounts.calculated {
                amounts.in_currency(a, to)
            } else {
                Some(amounts.pending())
            }
        };
        sections.push(section(
            "Converted amounts",
            vec![
                ("Currency", opt(t.destination_currency.as_ref())),
                ("Conversion rate", opt(t.conversion_rate.as_ref())),
                ("Total", amounts.in_currency(t.converted_total_amount, to)),
                (
                    "Tax calculated",
                    converted_tax(t.converted_total_tax_amount_calculated),
                ),
                ("Final total", converted_tax(t.converted_final_total_amount)),
            ],
        ));
    }
    sections.push(exemption_section(t, theme));
    let addresses = if t.addresses.is_empty() {
        Section::new("Addresses").row("Address", Span::styled("none", theme.muted))
    } else {
        t.addresses.iter().fold(Section::new("Addresses"), |s, a| {
            s.row(a.kind.to_string(), address_line(a))
        })
    };
    sections.push(addresses);
    sections.extend(
        t.transaction_items
            .iter()
            .enumerate()
            .map(|(i, item)| item_section(i + 1, item, &amounts)),
    );
    Detail::new(theme, sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn transaction(processing: &str) -> Transaction {
        serde_json::from_value(json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-03-01T10:00:00Z",
            "type": "SALE", "status": "COMMITTED", "processing_status": processing,
            "currency": "USD", "total_amount": "129.00",
            "total_tax_amount_calculated": "10.6425", "tax_rate_calculated": "0.0825",
            "addresses": [{"type": "SHIP_TO", "street_1": "1 Main St", "city": "Austin",
                           "state": "TX", "postal_code": "78701", "country": "US"}],
            "transaction_items": [{
                "id": "item_1", "external_id": "l1", "external_product_id": "sku-1",
                "quantity": "1", "amount": "129.00", "tax_amount_calculated": "10.6425",
                "tax_rate_calculated": "0.0825",
                "tax_items": [{"name": "Texas state tax", "rate": "0.0625", "amount": "8.0625",
                               "jurisdiction_type": "STATE", "jurisdiction_name": "Texas"}]
            }]
        }))
        .unwrap()
    }

    fn text(t: &Transaction) -> String {
        let theme = Theme::default();
        build(t, &theme)
            .lines(120)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_calculated_transaction_shows_its_tax_exactly() {
        let shown = text(&transaction("PROCESSED"));
        for part in [
            "129.00 USD",
            "10.6425 USD",
            "8.25%",
            "Texas state tax  6.25%  8.0625 USD  (STATE Texas)",
            "1 Main St, Austin, TX 78701, US",
            "Item 1: sku-1",
        ] {
            assert!(shown.contains(part), "{part} in {shown}");
        }
        assert!(!shown.contains("pending"), "{shown}");
    }

    #[test]
    fn a_credit_notes_amounts_read_negative() {
        let mut t = transaction("PROCESSED");
        t.kind = crate::model::TransactionType::PartialCreditNote;
        t.total_amount = Some(Decimal::new(135_600, 2));
        let shown = text(&t);
        let total = shown.lines().find(|l| l.contains("Total")).unwrap();
        assert!(total.ends_with("-1,356.00 USD"), "{shown}");
        assert!(shown.contains("-10.6425 USD"), "{shown}");
        assert!(
            shown.contains("Texas state tax  6.25%  -8.0625 USD"),
            "{shown}"
        );
        // The rate is not money: no sign.
        assert!(shown.contains(" 8.25%"), "{shown}");
        assert!(!text(&transaction("PROCESSED")).contains("-129.00"));
    }

    #[test]
    fn the_customer_shows_with_its_id_and_the_exemptions_that_applied_are_listed() {
        let mut t = transaction("PROCESSED");
        t.customer =
            serde_json::from_value(json!({"id": "cust_7", "name": "Hiroshi Tremblay"})).ok();
        t.customer_id = Some("cust_7".into());
        t.exempt = Some(TransactionExemptStatus::FullyExempt);
        t.exemptions = Some(vec![json!({
            "id": "exmp_3", "exemption_type": "customer", "jurisdiction": "TX",
            "country_code": "US", "status": "ACTIVE", "start_date": "2025-01-01",
            "end_date": "2027-12-31", "sales_tax_id": "TX-E1", "customer_id": "cust_7"
        })]);
        let shown = text(&t);
        let customer = shown.lines().find(|l| l.contains("Customer")).unwrap();
        assert!(
            customer.contains("Hiroshi Tremblay") && customer.contains("cust_7"),
            "{shown}"
        );
        assert!(shown.contains("FULLY_EXEMPT"), "{shown}");
        let applied = shown
            .lines()
            .find(|l| l.contains("Exemption applied"))
            .unwrap_or_else(|| panic!("{shown}"));
        assert!(
            applied.contains(
                "exmp_3  customer  TX, US  ACTIVE  2025-01-01 – 2027-12-31  sales tax id TX-E1"
            ),
            "{applied}"
        );

        // An exempt sale whose exemptions the service does not list says so.
        t.exemptions = Some(Vec::new());
        let shown = text(&t);
        assert!(shown.contains("none on file for this sale"), "{shown}");
        // A customer known only by its id shows the id once.
        t.customer = None;
        let shown = text(&t);
        let customer = shown.lines().find(|l| l.contains("Customer")).unwrap();
        assert_eq!(customer.matches("cust_7").count(), 1, "{customer}");
    }

    #[test]
    fn tax_not_yet_calculated_is_pending_not_zero() {
        let mut t = transaction("QUEUED");
        t.total_tax_amount_calculated = Some(Decimal::ZERO);
        let shown = text(&t);
        assert!(shown.contains("pending"), "{shown}");
        assert!(!shown.contains("0.00 USD"), "{shown}");
        assert!(!shown.contains("Texas state tax"), "{shown}");
        assert!(shown.contains("129.00 USD"), "the total is known: {shown}");
    }
}
