//! The demo sales as the economic nexus figures count them, and the two ways the demo data makes
//! its transactions agree with its other records: a sale moved from one US state to another (so
//! that a jurisdiction the demo means to be approaching or exposed is, by its own figures), and
//! the product catalog the sales' lines name.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::cover::{day_of, exempt_codes};
use super::demo::demo_tax;
use super::{Origin, Transactions, code, decode};
use crate::model::{ProcessingStatus, Product, TransactionExemptStatus, TransactionType};
use crate::sandbox::reference;

/// A product the demo sales name: its id, its id in the shop (the lines' `external_product_id`)
/// and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogItem {
    pub id: String,
    pub external_id: String,
    pub name: String,
}

/// One demo sale (a `SALE` that is not a purchase), with what the nexus figures count of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoSale {
    /// Its row (for [`Transactions::move_sale`]).
    pub row: usize,
    /// Its jurisdiction (see [`Transactions::jurisdiction`]).
    pub jurisdiction: u16,
    pub day: NaiveDate,
    /// The subtotal (before tax), in cents.
    pub cents: i64,
    pub marketplace: bool,
    /// Fully or partially exempt.
    pub exempt: bool,
}

impl DemoSale {
    pub fn amount(&self) -> Decimal {
        Decimal::new(self.cents, 2)
    }
}

impl Transactions {
    /// The products the demo sales' lines name: every product of `products` that is taxed
    /// (a tax-exempt product such as a gift card is not sold as a taxed line).
    pub fn sell_from(&mut self, products: &[Product]) {
        self.catalog = products
            .iter()
            .filter(|p| !p.tax_exempt)
            .map(|p| CatalogItem {
                id: p.id.clone(),
                external_id: p.external_id.clone(),
                name: p.name.clone(),
            })
            .collect();
    }

    /// Every demo sale that counts for tax (see `TransactionStatus::counts_for_tax`: what the
    /// checks count), in date order.
    pub fn demo_sales(&self) -> Vec<DemoSale> {
        let sale = code(TransactionType::KNOWN, &TransactionType::Sale);
        let exempt = exempt_codes();
        let counts = |status: u8| {
            let status = super::decode(crate::model::TransactionStatus::KNOWN, status);
            crate::model::TransactionStatus::counts_for_tax(status.as_ref())
        };
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                matches!(r.origin, Origin::Demo(_))
                    && r.kind == sale
                    && !r.purchase
                    && counts(r.status)
            })
            .map(|(i, r)| DemoSale {
                row: i,
                jurisdiction: r.jurisdiction,
                day: day_of(r.at),
                cents: r.subtotal_cents,
                marketplace: r.marketplace,
                exempt: exempt.contains(&r.exempt),
            })
            .collect()
    }

    /// The country and state of jurisdiction `j`.
    pub fn jurisdiction(&self, j: u16) -> (&str, &str) {
        self.jurisdictions
            .get(j as usize)
            .map_or(("", ""), |(c, s)| (c.as_str(), s.as_str()))
    }

    /// The index of `country`/`state` among the jurisdictions, added when no sale was made there.
    pub fn jurisdiction_index(&mut self, country: &str, state: &str) -> u16 {
        if let Some(i) = self
            .jurisdictions
            .iter()
            .position(|(c, s)| c == country && s == state)
        {
            return i as u16;
        }
        self.jurisdictions
            .push((country.to_owned(), state.to_owned()));
        (self.jurisdictions.len() - 1) as u16
    }

    /// Moves the demo sale of row `row` to jurisdiction `to`, of the same country: shipped there,
    /// and taxed at its rate (when the tax is calculated and it is not a marketplace sale).
    pub fn move_sale(&mut self, row: usize, to: u16) {
        let (country, state) = self.jurisdiction(to);
        let rate = reference::tax_rate(country, state);
        let r = &mut self.rows[row];
        let calculated =
            decode(ProcessingStatus::KNOWN, r.processing).is_some_and(|p| p.tax_is_calculated());
        let exempt = decode(TransactionExemptStatus::KNOWN, r.exempt)
            .unwrap_or(TransactionExemptStatus::NotExempt);
        let tax = if calculated && !r.marketplace {
            demo_tax(r.subtotal_cents, r.items, &exempt, rate)
        } else {
            Decimal::ZERO
        };
        r.jurisdiction = to;
        r.total_cents = r.subtotal_cents + super::tax::cents_of(tax);
        self.touch();
    }
}
