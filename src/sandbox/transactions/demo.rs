//! The demo transactions: compact rows generated from the seed, and the full record of any of
//! them rebuilt on demand from its row and its own seeded generator.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, NaiveDate, Utc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;

use super::tax::{cents_of, split_tax};
use super::{Origin, QueryCache, Row, Transactions, code, decode};
use crate::model::{
    Address, AddressStatus, AddressType, Customer, Direction, ProcessingStatus, RefundStatus,
    TaxExemption, TaxLiabilitySource, Timestamp, Transaction, TransactionAddress,
    TransactionExemptStatus, TransactionItem, TransactionStatus, TransactionType,
};
use crate::sandbox::reference;

/// Demo transactions per organization at `--scale 1`.
pub const BASE_COUNT: [u32; 2] = [10_000, 1_000];

/// Where demo sales happen, with weights (more in large states).
const JURISDICTIONS: &[(&str, &str, u32)] = &[
    ("US", "CA", 40),
    ("US", "TX", 30),
    ("US", "NY", 25),
    ("US", "FL", 20),
    ("US", "WA", 15),
    ("US", "IL", 12),
    ("US", "PA", 12),
    ("US", "OH", 10),
    ("US", "GA", 10),
    ("US", "NC", 9),
    ("US", "MI", 8),
    ("US", "NJ", 8),
    ("US", "VA", 7),
    ("US", "AZ", 7),
    ("US", "MA", 6),
    ("US", "TN", 6),
    ("US", "IN", 5),
    ("US", "MO", 5),
    ("US", "MD", 5),
    ("US", "WI", 5),
    ("US", "CO", 5),
    ("US", "MN", 5),
    ("US", "SC", 4),
    ("US", "AL", 4),
    ("US", "LA", 4),
    ("US", "KY", 3),
    ("US", "OR", 3),
    ("US", "OK", 3),
    ("US", "CT", 3),
    ("US", "UT", 3),
    ("US", "IA", 2),
    ("US", "NV", 2),
    ("US", "ID", 2),
    ("US", "NM", 2),
    ("US", "NE", 2),
    ("CA", "ON", 6),
    ("CA", "BC", 4),
    ("CA", "QC", 4),
    ("CA", "AB", 3),
    ("DE", "", 3),
    ("FR", "", 3),
    ("IE", "", 2),
    ("NL", "", 2),
    ("ES", "", 2),
    ("IT", "", 2),
    ("GB", "", 2),
];

/// Line prices, in cents, a demo sale's subtotal is drawn from (the lines themselves name the
/// organization's products, see [`Transactions::sell_from`]).
const LINE_PRICES: &[i64] = &[
    12_999, 4_950, 32_900, 18_995, 1_999, 4_900, 99_000, 25_000, 2_450, 54_999,
];

/// The id of demo transaction `n` of organization `org_index` (it exists at any `--scale` while
/// `n < BASE_COUNT[org_index]`).
pub fn demo_transaction_id(org_index: usize, n: u32) -> String {
    format!("tran_{}{n:07}", org_index + 1)
}

/// The sources of demo transactions.
pub(super) const DEMO_SOURCES: &[&str] = &["API", "CUSTOM", "CHECKOUT", "BILLING_PLATFORM"];

/// The address status of a demo transaction: its customer's (verified without one).
pub(super) fn demo_address_status(customer: Option<&Customer>) -> AddressStatus {
    customer
        .and_then(|c| c.address_status.clone())
        .unwrap_or(AddressStatus::Verified)
}

pub(super) const CURRENCIES: &[&str] = &["USD", "CAD", "EUR", "GBP"];

fn currency_for(country: &str) -> &'static str {
    match country {
        "US" => "USD",
        "CA" => "CAD",
        "GB" => "GBP",
        _ => "EUR",
    }
}

impl Transactions {
    /// Generates `count` demo transactions ending at `anchor`, over the two years before it.
    pub fn generate(
        seed: u64,
        org_index: usize,
        organization_id: &str,
        anchor: NaiveDate,
        count: u32,
        customers: usize,
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7472_616e ^ ((org_index as u64) << 40));
        let jurisdictions: Vec<(String, String)> = JURISDICTIONS
            .iter()
            .map(|(c, s, _)| ((*c).to_owned(), (*s).to_owned()))
            .collect();
        let weights: Vec<u32> = JURISDICTIONS.iter().map(|j| j.2).collect();
        let weight_total: u32 = weights.iter().sum();
        let rates: Vec<Decimal> = JURISDICTIONS
            .iter()
            .map(|(c, s, _)| reference::tax_rate(c, s))
            .collect();
        let end = anchor
            .and_hms_opt(23, 59, 59)
            .map_or(0, |d| d.and_utc().timestamp());
        let start = end - 730 * 86_400;
        let step = ((end - start) / i64::from(count.max(1))).max(1);
        let customers = customers.max(1) as u32;
        let mut rows = Vec::with_capacity(count as usize);
        for n in 0..count {
            let at = start + i64::from(n) * step + rng.random_range(0..step);
            let mut pick = rng.random_range(0..weight_total);
            let jurisdiction = weights
                .iter()
                .position(|&w| {
                    if pick < w {
                        true
                    } else {
                        pick -= w;
                        false
                    }
                })
                .unwrap_or(0);
            let country = JURISDICTIONS[jurisdiction].0;
            let roll: u32 = rng.random_range(0..1000);
            let (kind, purchase) = match roll {
                0..=39 => (TransactionType::FullCreditNote, false),
                40..=69 => (TransactionType::PartialCreditNote, false),
                70..=74 => (TransactionType::TaxRefund, false),
                75..=99 if country != "US" && country != "CA" => (TransactionType::Sale, true),
                _ => (TransactionType::Sale, false),
            };
            let items = rng.random_range(1..=4u8);
            let subtotal_cents: i64 = (0..items)
                .map(|_| LINE_PRICES[rng.random_range(0..LINE_PRICES.len())])
                .sum::<i64>()
                * i64::from(rng.random_range(1..=3u8));
            let age_days = (end - at) / 86_400;
            let processing = match (age_days, rng.random_range(0..100u8)) {
                (_, 0..=1) => ProcessingStatus::ExcludedInCalculation,
                (0..=2, 2..=11) => ProcessingStatus::Pending,
                (d, _) if d > 120 => ProcessingStatus::FilingDone,
                _ => ProcessingStatus::Processed,
            };
            let status = match rng.random_range(0..100u8) {
                0..=2 => TransactionStatus::Cancelled,
                3..=5 => TransactionStatus::Pending,
                _ => TransactionStatus::Committed,
            };
            let exempt = match rng.random_range(0..100u8) {
                0..=5 => TransactionExemptStatus::FullyExempt,
                6..=8 => TransactionExemptStatus::PartiallyExempt,
                _ => TransactionExemptStatus::NotExempt,
            };
            let marketplace = !purchase && rng.random_range(0..100u8) < 8;
            let liability = if processing.tax_is_calculated() && !marketplace {
                demo_tax(subtotal_cents, items, &exempt, rates[jurisdiction])
            } else {
                Decimal::ZERO
            };
            rows.push(Row {
                at,
                total_cents: subtotal_cents + cents_of(liability),
                subtotal_cents,
                customer: rng.random_range(0..customers),
                origin: Origin::Demo(n),
                jurisdiction: jurisdiction as u16,
                currency: code(CURRENCIES, &currency_for(country)),
                kind: code(TransactionType::KNOWN, &kind),
                status: code(TransactionStatus::KNOWN, &status),
                processing: code(ProcessingStatus::KNOWN, &processing),
                exempt: code(TransactionExemptStatus::KNOWN, &exempt),
                refund: u8::MAX,
                marketplace,
                purchase,
                items,
            });
        }
        mark_for_attention(&mut rows, end);
        Transactions {
            seed,
            org_index,
            organization_id: organization_id.to_owned(),
            anchor,
            demo_count: count,
            rows,
            jurisdictions,
            stored: Vec::new(),
            changed: HashMap::new(),
            external_ids: HashMap::new(),
            ids: HashMap::new(),
            unsaved: Vec::new(),
            generation: 0,
            cache: Mutex::new(QueryCache::default()),
            catalog: Vec::new(),
        }
    }

    pub(super) fn demo_id(&self, n: u32) -> String {
        demo_transaction_id(self.org_index, n)
    }

    pub(super) fn demo_external_id(&self, n: u32) -> String {
        format!("ORD-{}{n:07}", self.org_index + 1)
    }

    /// Where demo transaction `n` came from: `API`, `CUSTOM`, `CHECKOUT` or `BILLING_PLATFORM`,
    /// from a hash of the seed and `n`, so lists can filter on it without building the record.
    pub(super) fn demo_source(&self, n: u32) -> &'static str {
        let mut h = self.seed
            ^ u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ ((self.org_index as u64) << 56);
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        DEMO_SOURCES[(h % DEMO_SOURCES.len() as u64) as usize]
    }

    /// Builds demo transaction `n` from its row; the details come from a generator seeded by `n`.
    pub(super) fn build_demo(&self, n: u32, row: &Row, customers: &[Customer]) -> Transaction {
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed.wrapping_mul(31).wrapping_add(u64::from(n)) ^ ((self.org_index as u64) << 48),
        );
        let (country, state) = &self.jurisdictions[row.jurisdiction as usize];
        let currency = CURRENCIES
            .get(row.currency as usize)
            .copied()
            .unwrap_or("USD");
        let kind = decode(TransactionType::KNOWN, row.kind).unwrap_or(TransactionType::Sale);
        let processing = decode(ProcessingStatus::KNOWN, row.processing);
        let exempt = decode(TransactionExemptStatus::KNOWN, row.exempt)
            .unwrap_or(TransactionExemptStatus::NotExempt);
        let calculated = processing
            .as_ref()
            .is_some_and(ProcessingStatus::tax_is_calculated);
        let rate = reference::tax_rate(country, state);
        let date = Timestamp(DateTime::<Utc>::from_timestamp(row.at, 0).unwrap_or_default());
        let id = self.demo_id(n);
        let customer = customers.get(row.customer as usize).cloned();
        let address_status = demo_address_status(customers.get(row.customer as usize));

        // Split the total across items.
        let mut items = Vec::with_capacity(row.items as usize);
        let mut tax_total = Decimal::ZERO;
        let mut taxable_total = Decimal::ZERO;
        for (i, cents) in split_cents(row.subtotal_cents, row.items).enumerate() {
            let i = i as u8;
            let product = (!self.catalog.is_empty())
                .then(|| &self.catalog[rng.random_range(0..self.catalog.len())]);
            let name = product.map(|p| p.name.clone());
            let amount = Decimal::new(cents, 2);
            let item_exempt = item_is_exempt(&exempt, i);
            let taxable = if item_exempt { Decimal::ZERO } else { amount };
            let tax = (taxable * rate).round_dp(2);
            tax_total += tax;
            taxable_total += taxable;
            let tax_items = if calculated && !item_exempt {
                split_tax(country, state, rate, taxable, currency)
            } else {
                Vec::new()
            };
            items.push(TransactionItem {
                id: format!("item_{}{n:07}_{i}", self.org_index + 1),
                external_id: Some(format!("{}-{}", self.demo_external_id(n), i + 1)),
                organization_id: Some(self.organization_id.clone()),
                date: Some(date),
                description: name.clone(),
                external_product_id: product.map(|p| p.external_id.clone()),
                product: None,
                product_id: product.map(|p| p.id.clone()),
                product_name: name,
                product_description: None,
                quantity: Some(Decimal::ONE),
                amount: Some(amount),
                tax_amount_imported: None,
                tax_rate_imported: None,
                tax_amount_calculated: calculated.then_some(tax),
                tax_rate_calculated: calculated.then_some(if item_exempt {
                    Decimal::ZERO
                } else {
                    rate
                }),
                original_currency: Some(currency.to_owned()),
                destination_currency: Some(currency.to_owned()),
                converted_amount: None,
                converted_taxable_amount: None,
                converted_tax_amount_imported: None,
                converted_tax_amount_calculated: None,
                converted_total_discount: None,
                converted_subtotal: None,
                taxable_amount: calculated.then_some(taxable),
                tax_exemption: item_exempt.then_some(TaxExemption::Customer),
                exempt: Some(item_exempt),
                tax_items,
                total_discount: Some(Decimal::ZERO),
                subtotal: Some(amount),
                is_reverse_charge_self_accounted: None,
            });
        }
        let subtotal = Decimal::new(row.subtotal_cents, 2);
        let liability = if row.marketplace {
            Decimal::ZERO
        } else {
            tax_total
        };
        let (street_1, city, postal_code) = ship_to(customer.as_ref(), country, state, n);
        let address = TransactionAddress {
            kind: AddressType::ShipTo,
            id: Some(format!("addr_{}{n:07}", self.org_index + 1)),
            transaction_id: Some(id.clone()),
            phone: None,
            address: Address {
                street_1,
                street_2: None,
                city,
                county: None,
                state: Some(state.clone()).filter(|s| !s.is_empty()),
                postal_code,
                country: Some(country.clone()),
                full_address: None,
            },
            is_unincorporated: Some(false),
            status: Some(address_status.clone()),
            connection_id: None,
        };
        let converted = (currency != "USD").then(|| usd_rate(currency));
        let refund = decode(RefundStatus::KNOWN, row.refund);
        Transaction {
            id,
            external_id: self.demo_external_id(n),
            organization_id: Some(self.organization_id.clone()),
            date,
            kind: kind.clone(),
            addresses: vec![address],
            transaction_items: items,
            customer_id: customer.as_ref().map(|c| c.id.clone()),
            customer,
            shop_date: Some(date.date().to_string()),
            shop_date_tz: Some("UTC".into()),
            description: None,
            refund_status: refund.clone(),
            total_amount: Some(subtotal + if calculated { liability } else { Decimal::ZERO }),
            marketplace: Some(row.marketplace),
            exempt: Some(exempt),
            exemptions: None,
            related_to: matches!(
                kind,
                TransactionType::FullCreditNote | TransactionType::PartialCreditNote
            )
            .then(|| self.demo_id(n.saturating_sub(1 + rng.random_range(0..50)))),
            secondary_external_id: None,
            secondary_source: None,
            external_friendly_id: Some(format!("#{}", 100_000 + n)),
            total_tax_amount_imported: None,
            tax_rate_imported: None,
            total_tax_amount_calculated: calculated.then_some(tax_total),
            tax_rate_calculated: calculated.then_some(rate),
            total_tax_liability_amount: calculated.then_some(liability),
            tax_liability_source: Some(TaxLiabilitySource::Calculated),
            taxable_amount: calculated.then_some(taxable_total),
            currency: Some(currency.to_owned()),
            locked: Some(matches!(processing, Some(ProcessingStatus::FilingDone))),
            source: Some(self.demo_source(n).to_owned()),
            connection_id: None,
            filing_id: None,
            city: None,
            county: None,
            state: Some(state.clone()).filter(|s| !s.is_empty()),
            postal_code: None,
            country: Some(country.clone()),
            status: decode(TransactionStatus::KNOWN, row.status),
            document_type: None,
            created_from: None,
            address_status: Some(address_status.clone()),
            processing_status: processing,
            is_duplicate: Some(false),
            destination_currency: Some("USD".into()),
            converted_total_amount: converted.map(|r| (subtotal * r).round_dp(2)),
            converted_total_tax_amount_imported: None,
            converted_total_tax_amount_calculated: converted
                .filter(|_| calculated)
                .map(|r| (tax_total * r).round_dp(2)),
            conversion_rate: converted,
            converted_taxable_amount: None,
            converted_total_discount: None,
            converted_subtotal: converted.map(|r| (subtotal * r).round_dp(2)),
            converted_total_tax_liability_amount: None,
            converted_final_total_amount: None,
            store_name: None,
            is_deferred_transaction: Some(false),
            direction: Some(if row.purchase {
                Direction::Purchase
            } else {
                Direction::Sale
            }),
            total_recoverable_input_vat: Some(if row.purchase && calculated {
                tax_total
            } else {
                Decimal::ZERO
            }),
            converted_total_recoverable_input_vat: None,
            input_vat_recovery_rate: row.purchase.then(|| Decimal::from(100)),
            total_discount: Some(Decimal::ZERO),
            subtotal: Some(subtotal),
            final_total_amount: calculated.then_some(subtotal + liability),
        }
    }
}

/// A demo subtotal split across its items, the last taking what division leaves.
/// Where a demo sale to `country`/`state` is shipped: the customer's own address when the customer
/// lives there, else a place of that jurisdiction, so the city, the state, the postal code and the
/// rate charged always agree.
fn ship_to(
    customer: Option<&Customer>,
    country: &str,
    state: &str,
    n: u32,
) -> (Option<String>, Option<String>, Option<String>) {
    let lives_there = |c: &&Customer| {
        c.address.country.as_deref() == Some(country)
            && (state.is_empty() || c.address.state.as_deref() == Some(state))
            && c.address.city.is_some()
    };
    if let Some(c) = customer.filter(lives_there) {
        return (
            c.address.street_1.clone(),
            c.address.city.clone(),
            c.address.postal_code.clone(),
        );
    }
    match crate::sandbox::demo_data::sale_place(country, state, n) {
        Some((street, city, postal)) => {
            (Some(street), Some(city.to_owned()), Some(postal.to_owned()))
        }
        None => (None, None, None),
    }
}

/// How many demo transactions are `INVALID`, and again `NEEDS_REFETCH`, whatever the anchor.
const FLAGGED: usize = 4;

/// Marks a few sales of two to six weeks before `end` `INVALID`, and a few others
/// `NEEDS_REFETCH` (their tax not calculated then), spread evenly over that span: the statuses
/// someone has to look at, placed after the draws so that every other row stays as drawn.
fn mark_for_attention(rows: &mut [Row], end: i64) {
    let span: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| (14..=42).contains(&((end - r.at) / 86_400)))
        .map(|(i, _)| i)
        .collect();
    let slots = 2 * FLAGGED + 1;
    if span.len() < slots {
        return;
    }
    for k in 1..slots {
        let row = &mut rows[span[span.len() * k / slots]];
        if k % 2 == 1 {
            row.status = code(TransactionStatus::KNOWN, &TransactionStatus::Invalid);
        } else {
            row.processing = code(ProcessingStatus::KNOWN, &ProcessingStatus::NeedsRefetch);
            row.total_cents = row.subtotal_cents;
        }
    }
}

fn split_cents(subtotal_cents: i64, items: u8) -> impl Iterator<Item = i64> {
    let items = i64::from(items.max(1));
    (0..items).map(move |i| {
        if i + 1 == items {
            subtotal_cents - (items - 1) * (subtotal_cents / items)
        } else {
            subtotal_cents / items
        }
    })
}

/// Whether item `i` of a demo transaction is exempt.
fn item_is_exempt(exempt: &TransactionExemptStatus, i: u8) -> bool {
    match exempt {
        TransactionExemptStatus::FullyExempt => true,
        TransactionExemptStatus::PartiallyExempt => i == 0,
        _ => false,
    }
}

impl Transactions {
    /// Makes demo row `i` a sale that is not exempt: its tax (when calculated, and not a
    /// marketplace sale) on every item, and its total with it.
    pub(super) fn make_not_exempt(&mut self, i: usize) {
        let row = &mut self.rows[i];
        let (country, state) = &self.jurisdictions[row.jurisdiction as usize];
        let calculated =
            decode(ProcessingStatus::KNOWN, row.processing).is_some_and(|p| p.tax_is_calculated());
        let liability = if calculated && !row.marketplace {
            demo_tax(
                row.subtotal_cents,
                row.items,
                &TransactionExemptStatus::NotExempt,
                reference::tax_rate(country, state),
            )
        } else {
            Decimal::ZERO
        };
        row.exempt = code(
            TransactionExemptStatus::KNOWN,
            &TransactionExemptStatus::NotExempt,
        );
        row.total_cents = row.subtotal_cents + cents_of(liability);
    }
}

/// The tax of a demo transaction, item by item, rounded as the full record rounds it.
pub(super) fn demo_tax(
    subtotal_cents: i64,
    items: u8,
    exempt: &TransactionExemptStatus,
    rate: Decimal,
) -> Decimal {
    split_cents(subtotal_cents, items)
        .enumerate()
        .filter(|(i, _)| !item_is_exempt(exempt, *i as u8))
        .map(|(_, cents)| (Decimal::new(cents, 2) * rate).round_dp(2))
        .sum()
}

/// An approximate conversion rate to USD for demo currencies.
fn usd_rate(currency: &str) -> Decimal {
    match currency {
        "CAD" => Decimal::new(7_300, 4),
        "EUR" => Decimal::new(10_850, 4),
        "GBP" => Decimal::new(12_650, 4),
        _ => Decimal::ONE,
    }
}
