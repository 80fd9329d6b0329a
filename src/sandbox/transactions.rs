//! Transactions at scale. Each transaction is a compact [`Row`] (about 40 bytes) kept in date
//! order; the full [`Transaction`] is built only for the rows a page shows. Demo transactions are
//! generated from the seed, so a million of them cost tens of megabytes, and a filtered, sorted
//! list of row positions is cached per query until the next write.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Months, NaiveDate, Utc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::reference;
use crate::model::{
    AddressStatus, AddressType, Customer, Direction, ProcessingStatus, RefundStatus, TaxExemption,
    TaxItem, TaxLiabilitySource, Timestamp, Transaction, TransactionAddress,
    TransactionExemptStatus, TransactionItem, TransactionStatus, TransactionType,
};

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

const PRODUCTS: &[(&str, &str, i64)] = &[
    ("prod_sku_kbd", "Mechanical keyboard", 12_900),
    ("prod_sku_mouse", "Wireless mouse", 4_900),
    ("prod_sku_mon27", "27-inch monitor", 32_900),
    ("prod_sku_dock", "USB-C dock", 18_900),
    ("prod_sku_cable", "Braided cable pack", 1_900),
    ("prod_saas_pro", "Pro plan, monthly", 4_900),
    ("prod_saas_team", "Team plan, annual", 99_000),
    ("prod_svc_setup", "On-site setup service", 25_000),
    ("prod_ebook", "Field guide (e-book)", 2_400),
    ("prod_chair", "Ergonomic chair", 54_900),
];

/// The id of demo transaction `n` of organization `org_index` (it exists at any `--scale` while
/// `n < BASE_COUNT[org_index]`).
pub fn demo_transaction_id(org_index: usize, n: u32) -> String {
    format!("tran_{}{n:07}", org_index + 1)
}

/// A transaction reduced to what lists filter and sort on. `origin` tells where the full record
/// comes from: a demo transaction regenerated from the seed, or a stored one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub at: i64,
    /// `total_amount` in minor units: the subtotal plus, once calculated, the tax liability.
    pub total_cents: i64,
    pub subtotal_cents: i64,
    pub customer: u32,
    pub origin: Origin,
    pub jurisdiction: u16,
    pub currency: u8,
    pub kind: u8,
    pub status: u8,
    pub processing: u8,
    pub exempt: u8,
    pub refund: u8,
    pub marketplace: bool,
    pub purchase: bool,
    pub items: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// The n-th demo transaction.
    Demo(u32),
    /// The n-th stored transaction.
    Stored(u32),
}

/// Code of an open enum value in a row: its position in `KNOWN`, or `u8::MAX` when unknown.
fn code<T: PartialEq>(known: &[T], value: &T) -> u8 {
    known
        .iter()
        .position(|k| k == value)
        .map_or(u8::MAX, |i| i as u8)
}

fn decode<T: Clone>(known: &[T], code: u8) -> Option<T> {
    known.get(code as usize).cloned()
}

const CURRENCIES: &[&str] = &["USD", "CAD", "EUR", "GBP"];

fn currency_for(country: &str) -> &'static str {
    match country {
        "US" => "USD",
        "CA" => "CAD",
        "GB" => "GBP",
        _ => "EUR",
    }
}

/// What the list endpoint filters on, already checked against the service's enumerations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Filter {
    pub search: Option<String>,
    pub state_code: Option<String>,
    pub countries: Vec<String>,
    pub statuses: Vec<TransactionStatus>,
    pub refund_status: Option<RefundStatus>,
    pub processing: Vec<ProcessingStatus>,
    pub exempt: Vec<TransactionExemptStatus>,
    pub kinds: Vec<TransactionType>,
    pub marketplace: Option<bool>,
    pub direction: Option<Direction>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// Fields `order_by` accepts.
pub const ORDER_FIELDS: &[&str] = &[
    "date",
    "state",
    "customer_name",
    "status",
    "total_amount",
    "processing_status",
    "type",
    "external_id",
];
pub const DEFAULT_ORDER: &str = "date,state,customer_name,status";

/// A transaction created through the interface, with when its tax will be in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredTransaction {
    pub transaction: Transaction,
    /// While set, the transaction is `QUEUED`; at this time tax is calculated.
    pub ready_at: Option<Timestamp>,
}

/// What a state file keeps of the transactions: the demo ones are regenerated from the seed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Changes {
    pub stored: Vec<StoredTransaction>,
    /// Demo transactions changed since generation (for example refunded by a credit note).
    pub changed: Vec<(u32, Transaction)>,
}

/// The transactions of one organization.
pub struct Transactions {
    seed: u64,
    org_index: usize,
    organization_id: String,
    anchor: NaiveDate,
    demo_count: u32,
    rows: Vec<Row>,
    jurisdictions: Vec<(String, String)>,
    stored: Vec<StoredTransaction>,
    changed: HashMap<u32, Transaction>,
    external_ids: HashMap<String, Origin>,
    generation: u64,
    cache: Mutex<QueryCache>,
}

#[derive(Default)]
struct QueryCache {
    generation: u64,
    order: VecDeque<String>,
    entries: HashMap<String, Arc<Vec<u32>>>,
}

const CACHE_ENTRIES: usize = 64;

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
                .map(|_| PRODUCTS[rng.random_range(0..PRODUCTS.len())].2)
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
            generation: 0,
            cache: Mutex::new(QueryCache::default()),
        }
    }

    pub fn anchor(&self) -> NaiveDate {
        self.anchor
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn demo_id(&self, n: u32) -> String {
        demo_transaction_id(self.org_index, n)
    }

    fn demo_external_id(&self, n: u32) -> String {
        format!("ORD-{}{n:07}", self.org_index + 1)
    }

    fn origin_of_id(&self, id: &str) -> Option<Origin> {
        let rest = id.strip_prefix("tran_")?;
        if let Some(n) = rest.strip_prefix(&format!("{}n", self.org_index + 1)) {
            let n: u32 = n.parse().ok()?;
            return ((n as usize) < self.stored.len()).then_some(Origin::Stored(n));
        }
        let n: u32 = rest
            .strip_prefix(&format!("{}", self.org_index + 1))?
            .parse()
            .ok()?;
        (rest.len() == 8 && n < self.demo_count).then_some(Origin::Demo(n))
    }

    fn origin_of_external_id(&self, external_id: &str) -> Option<Origin> {
        if let Some(origin) = self.external_ids.get(external_id) {
            return Some(*origin);
        }
        let n: u32 = external_id
            .strip_prefix(&format!("ORD-{}", self.org_index + 1))?
            .parse()
            .ok()?;
        (external_id.len() == 12 && n < self.demo_count).then_some(Origin::Demo(n))
    }

    /// Whether a transaction with this external id exists.
    pub fn has_external_id(&self, external_id: &str) -> bool {
        self.origin_of_external_id(external_id).is_some()
    }

    pub fn get(&self, id: &str, customers: &[Customer]) -> Option<Transaction> {
        self.origin_of_id(id)
            .and_then(|o| self.materialize(o, customers))
    }

    pub fn get_by_external_id(
        &self,
        external_id: &str,
        customers: &[Customer],
    ) -> Option<Transaction> {
        self.origin_of_external_id(external_id)
            .and_then(|o| self.materialize(o, customers))
    }

    /// Where a transaction's row is. Demo rows keep generation order, and each stored row
    /// inserted before one shifts it by one, so demo row `n` lies within `stored.len()` of `n`.
    fn position_of(&self, origin: Origin) -> Option<usize> {
        let window = match origin {
            Origin::Demo(n) => {
                n as usize..(n as usize + self.stored.len() + 1).min(self.rows.len())
            }
            Origin::Stored(_) => 0..self.rows.len(),
        };
        window.into_iter().find(|&i| self.rows[i].origin == origin)
    }

    /// The full record of a transaction.
    fn materialize(&self, origin: Origin, customers: &[Customer]) -> Option<Transaction> {
        self.position_of(origin)
            .map(|p| self.materialize_row(&self.rows[p], customers))
    }

    fn materialize_row(&self, row: &Row, customers: &[Customer]) -> Transaction {
        match row.origin {
            Origin::Stored(n) => self.stored[n as usize].transaction.clone(),
            Origin::Demo(n) => match self.changed.get(&n) {
                Some(t) => t.clone(),
                None => self.build_demo(n, row, customers),
            },
        }
    }

    /// Builds demo transaction `n` from its row; the details come from a generator seeded by `n`.
    fn build_demo(&self, n: u32, row: &Row, customers: &[Customer]) -> Transaction {
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed.wrapping_mul(31).wrapping_add(n as u64) ^ ((self.org_index as u64) << 48),
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

        // Split the total across items.
        let mut items = Vec::with_capacity(row.items as usize);
        let mut tax_total = Decimal::ZERO;
        let mut taxable_total = Decimal::ZERO;
        for (i, cents) in split_cents(row.subtotal_cents, row.items).enumerate() {
            let i = i as u8;
            let (sku, name, _) = PRODUCTS[rng.random_range(0..PRODUCTS.len())];
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
                description: Some(name.to_owned()),
                external_product_id: Some(sku.to_owned()),
                product: None,
                product_id: Some(sku.to_owned()),
                product_name: Some(name.to_owned()),
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
        let address = TransactionAddress {
            kind: AddressType::ShipTo,
            id: Some(format!("addr_{}{n:07}", self.org_index + 1)),
            transaction_id: Some(id.clone()),
            phone: None,
            street_1: customer.as_ref().and_then(|c| c.street_1.clone()),
            street_2: None,
            city: customer.as_ref().and_then(|c| c.city.clone()),
            county: None,
            state: Some(state.clone()).filter(|s| !s.is_empty()),
            postal_code: customer.as_ref().and_then(|c| c.postal_code.clone()),
            country: Some(country.clone()),
            full_address: None,
            is_unincorporated: Some(false),
            status: Some(AddressStatus::Verified),
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
            source: Some(
                ["API", "CUSTOM", "CHECKOUT", "BILLING_PLATFORM"][rng.random_range(0..4)]
                    .to_owned(),
            ),
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
            address_status: Some(AddressStatus::Verified),
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

    /// The row a full transaction sorts and filters as.
    fn row_of(&mut self, t: &Transaction, origin: Origin, customers: &[Customer]) -> Row {
        let country = t.country.clone().unwrap_or_default();
        let state = t.state.clone().unwrap_or_default();
        let jurisdiction = match self
            .jurisdictions
            .iter()
            .position(|(c, s)| *c == country && *s == state)
        {
            Some(i) => i,
            None => {
                self.jurisdictions.push((country, state));
                self.jurisdictions.len() - 1
            }
        };
        let cents = cents_of(t.total_amount.unwrap_or_default());
        Row {
            at: t.date.0.timestamp(),
            total_cents: cents,
            subtotal_cents: t.subtotal.map_or(cents, cents_of),
            customer: t
                .customer_id
                .as_ref()
                .and_then(|id| customers.iter().position(|c| &c.id == id))
                .map_or(u32::MAX, |i| i as u32),
            origin,
            jurisdiction: jurisdiction as u16,
            currency: t
                .currency
                .as_deref()
                .map_or(u8::MAX, |c| code(CURRENCIES, &c)),
            kind: code(TransactionType::KNOWN, &t.kind),
            status: t
                .status
                .as_ref()
                .map_or(u8::MAX, |s| code(TransactionStatus::KNOWN, s)),
            processing: t
                .processing_status
                .as_ref()
                .map_or(u8::MAX, |s| code(ProcessingStatus::KNOWN, s)),
            exempt: t
                .exempt
                .as_ref()
                .map_or(u8::MAX, |s| code(TransactionExemptStatus::KNOWN, s)),
            refund: t
                .refund_status
                .as_ref()
                .map_or(u8::MAX, |s| code(RefundStatus::KNOWN, s)),
            marketplace: t.marketplace.unwrap_or(false),
            purchase: t.direction == Some(Direction::Purchase),
            items: t.transaction_items.len().min(255) as u8,
        }
    }

    fn touch(&mut self) {
        self.generation += 1;
    }

    /// Adds a created transaction; it stays `QUEUED` until `ready_at`.
    pub fn insert(
        &mut self,
        mut t: Transaction,
        ready_at: Option<Timestamp>,
        customers: &[Customer],
    ) -> Transaction {
        let n = self.stored.len() as u32;
        t.id = format!("tran_{}n{n}", self.org_index + 1);
        let origin = Origin::Stored(n);
        let row = self.row_of(&t, origin, customers);
        let at = self.rows.partition_point(|r| r.at <= row.at);
        self.rows.insert(at, row);
        self.external_ids.insert(t.external_id.clone(), origin);
        self.stored.push(StoredTransaction {
            transaction: t.clone(),
            ready_at,
        });
        self.touch();
        t
    }

    /// Replaces a transaction (for example its refund status after a credit note).
    pub fn update(&mut self, t: Transaction, customers: &[Customer]) {
        let Some(origin) = self.origin_of_id(&t.id) else {
            return;
        };
        let row = self.row_of(&t, origin, customers);
        if let Some(i) = self.position_of(origin) {
            self.rows[i] = row;
        }
        match origin {
            Origin::Stored(n) => self.stored[n as usize].transaction = t,
            Origin::Demo(n) => {
                self.changed.insert(n, t);
            }
        }
        self.touch();
    }

    /// Calculates tax on every queued transaction whose time has come. Returns whether any did.
    pub fn settle(&mut self, now: Timestamp, customers: &[Customer]) -> bool {
        let due: Vec<usize> = (0..self.stored.len())
            .filter(|&i| self.stored[i].ready_at.is_some_and(|r| r <= now))
            .collect();
        for &i in &due {
            let mut t = self.stored[i].transaction.clone();
            calculate_tax(&mut t);
            self.stored[i].ready_at = None;
            self.update(t, customers);
        }
        !due.is_empty()
    }

    /// The stored credit notes issued against `id`.
    pub fn credit_notes_of(&self, id: &str) -> Vec<&Transaction> {
        self.stored
            .iter()
            .map(|s| &s.transaction)
            .filter(|t| t.related_to.as_deref() == Some(id))
            .collect()
    }

    /// Whether any transaction waits for its tax.
    pub fn has_queued(&self) -> bool {
        self.stored.iter().any(|s| s.ready_at.is_some())
    }

    /// The positions of the rows matching `filter`, in `order`, from the cache when possible.
    pub fn query(
        &self,
        filter: &Filter,
        order: &[super::query::SortKey],
        today: NaiveDate,
        customers: &[Customer],
    ) -> Arc<Vec<u32>> {
        let key = format!("{filter:?}|{order:?}|{today}");
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if cache.generation != self.generation {
                *cache = QueryCache {
                    generation: self.generation,
                    ..QueryCache::default()
                };
            }
            if let Some(hit) = cache.entries.get(&key) {
                return Arc::clone(hit);
            }
        }
        let positions = Arc::new(self.compute(filter, order, today, customers));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.generation == self.generation {
            if cache.order.len() >= CACHE_ENTRIES
                && let Some(old) = cache.order.pop_front()
            {
                cache.entries.remove(&old);
            }
            cache.order.push_back(key.clone());
            cache.entries.insert(key, Arc::clone(&positions));
        }
        positions
    }

    fn compute(
        &self,
        filter: &Filter,
        order: &[super::query::SortKey],
        today: NaiveDate,
        customers: &[Customer],
    ) -> Vec<u32> {
        let (from, to) = match (filter.from, filter.to) {
            (None, None) => (today.checked_sub_months(Months::new(12)), None),
            other => other,
        };
        let lo = from
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc().timestamp());
        let hi = to
            .and_then(|d| (d + Duration::days(1)).and_hms_opt(0, 0, 0))
            .map(|d| d.and_utc().timestamp());
        let start = lo.map_or(0, |lo| self.rows.partition_point(|r| r.at < lo));
        let end = hi.map_or(self.rows.len(), |hi| {
            self.rows.partition_point(|r| r.at < hi)
        });
        let m = Matcher::new(self, filter, customers);
        let mut positions: Vec<u32> = (start..end.max(start))
            .filter(|&i| m.matches(self, &self.rows[i]))
            .map(|i| i as u32)
            .collect();
        let is_date_asc = order
            .first()
            .is_some_and(|k| k.field == "date" && !k.descending)
            && order.len() == 1;
        if !order.is_empty() && !is_date_asc {
            let ranks = Ranks::new(self, customers);
            positions.sort_by(|&a, &b| {
                let (ra, rb) = (&self.rows[a as usize], &self.rows[b as usize]);
                order
                    .iter()
                    .map(|k| {
                        let o = ranks.compare(&k.field, ra, rb);
                        if k.descending { o.reverse() } else { o }
                    })
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        }
        positions
    }

    /// The transactions at `positions` (a page of a query's result).
    pub fn rows_at(&self, positions: &[u32], customers: &[Customer]) -> Vec<Transaction> {
        positions
            .iter()
            .map(|&p| self.materialize_row(&self.rows[p as usize], customers))
            .collect()
    }

    pub fn changes(&self) -> Changes {
        let mut changed: Vec<(u32, Transaction)> =
            self.changed.iter().map(|(k, v)| (*k, v.clone())).collect();
        changed.sort_by_key(|(k, _)| *k);
        Changes {
            stored: self.stored.clone(),
            changed,
        }
    }

    /// Replays changes read from a state file.
    pub fn apply(&mut self, changes: Changes, customers: &[Customer]) {
        for (n, t) in changes.changed {
            let origin = Origin::Demo(n);
            let row = self.row_of(&t, origin, customers);
            if let Some(i) = self.position_of(origin) {
                self.rows[i] = row;
            }
            self.changed.insert(n, t);
        }
        for s in changes.stored {
            let ready_at = s.ready_at;
            let t = s.transaction;
            let n = self.stored.len() as u32;
            let origin = Origin::Stored(n);
            let row = self.row_of(&t, origin, customers);
            let at = self.rows.partition_point(|r| r.at <= row.at);
            self.rows.insert(at, row);
            self.external_ids.insert(t.external_id.clone(), origin);
            self.stored.push(StoredTransaction {
                transaction: t,
                ready_at,
            });
        }
        self.touch();
    }
}

/// A filter turned into row codes once, so each row is checked with integer compares.
struct Matcher {
    jurisdictions: Option<Vec<bool>>,
    statuses: Option<Vec<u8>>,
    processing: Option<Vec<u8>>,
    exempt: Option<Vec<u8>>,
    kinds: Option<Vec<u8>>,
    refund: Option<u8>,
    marketplace: Option<bool>,
    purchase: Option<bool>,
    search: Option<(String, Vec<bool>)>,
}

impl Matcher {
    fn new(t: &Transactions, f: &Filter, customers: &[Customer]) -> Self {
        let jurisdictions = (f.state_code.is_some() || !f.countries.is_empty()).then(|| {
            t.jurisdictions
                .iter()
                .map(|(c, s)| {
                    f.state_code
                        .as_ref()
                        .is_none_or(|x| x.eq_ignore_ascii_case(s))
                        && (f.countries.is_empty()
                            || f.countries.iter().any(|x| x.eq_ignore_ascii_case(c)))
                })
                .collect()
        });
        fn codes<T: PartialEq>(known: &[T], wanted: &[T]) -> Option<Vec<u8>> {
            (!wanted.is_empty()).then(|| wanted.iter().map(|w| code(known, w)).collect())
        }
        let search = f.search.as_ref().map(|s| {
            let needle = s.to_lowercase();
            let hits = customers
                .iter()
                .map(|c| {
                    [&c.name, &c.email, &c.company_name]
                        .into_iter()
                        .flatten()
                        .any(|v| v.to_lowercase().contains(&needle))
                })
                .collect();
            (needle, hits)
        });
        Matcher {
            jurisdictions,
            statuses: codes(TransactionStatus::KNOWN, &f.statuses),
            processing: codes(ProcessingStatus::KNOWN, &f.processing),
            exempt: codes(TransactionExemptStatus::KNOWN, &f.exempt),
            kinds: codes(TransactionType::KNOWN, &f.kinds),
            refund: f
                .refund_status
                .as_ref()
                .map(|r| code(RefundStatus::KNOWN, r)),
            marketplace: f.marketplace,
            purchase: f.direction.as_ref().map(|d| *d == Direction::Purchase),
            search,
        }
    }

    fn matches(&self, t: &Transactions, r: &Row) -> bool {
        let within = |set: &Option<Vec<u8>>, v: u8| set.as_ref().is_none_or(|s| s.contains(&v));
        self.jurisdictions
            .as_ref()
            .is_none_or(|j| j.get(r.jurisdiction as usize).copied().unwrap_or(false))
            && within(&self.statuses, r.status)
            && within(&self.processing, r.processing)
            && within(&self.exempt, r.exempt)
            && within(&self.kinds, r.kind)
            && self.refund.is_none_or(|x| x == r.refund)
            && self.marketplace.is_none_or(|m| m == r.marketplace)
            && self.purchase.is_none_or(|p| p == r.purchase)
            && self.search.as_ref().is_none_or(|(needle, hits)| {
                hits.get(r.customer as usize).copied().unwrap_or(false)
                    || match r.origin {
                        Origin::Demo(n) => {
                            t.demo_external_id(n).to_lowercase().contains(needle)
                                || t.demo_id(n).contains(needle)
                        }
                        Origin::Stored(n) => {
                            let s = &t.stored[n as usize].transaction;
                            s.external_id.to_lowercase().contains(needle) || s.id.contains(needle)
                        }
                    }
            })
    }
}

/// Sort ranks of the text columns, computed once per sorted query.
struct Ranks {
    state: Vec<u32>,
    customer: Vec<u32>,
}

impl Ranks {
    fn new(t: &Transactions, customers: &[Customer]) -> Self {
        fn ranks_of(keys: Vec<String>) -> Vec<u32> {
            let mut idx: Vec<usize> = (0..keys.len()).collect();
            idx.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
            let mut ranks = vec![0; keys.len()];
            for (rank, i) in idx.into_iter().enumerate() {
                ranks[i] = rank as u32;
            }
            ranks
        }
        Ranks {
            state: ranks_of(
                t.jurisdictions
                    .iter()
                    .map(|(c, s)| format!("{s}|{c}"))
                    .collect(),
            ),
            customer: ranks_of(
                customers
                    .iter()
                    .map(|c| c.name.clone().unwrap_or_default().to_lowercase())
                    .collect(),
            ),
        }
    }

    fn compare(&self, field: &str, a: &Row, b: &Row) -> std::cmp::Ordering {
        fn text<'a>(code: u8, known: &[&'a str]) -> &'a str {
            known.get(code as usize).copied().unwrap_or("~")
        }
        match field {
            "date" => a.at.cmp(&b.at),
            "state" => self
                .state
                .get(a.jurisdiction as usize)
                .cmp(&self.state.get(b.jurisdiction as usize)),
            "customer_name" => self
                .customer
                .get(a.customer as usize)
                .unwrap_or(&u32::MAX)
                .cmp(self.customer.get(b.customer as usize).unwrap_or(&u32::MAX)),
            "status" => {
                let known: Vec<&str> = TransactionStatus::KNOWN
                    .iter()
                    .map(|s| s.as_str())
                    .collect();
                text(a.status, &known).cmp(text(b.status, &known))
            }
            "processing_status" => {
                let known: Vec<&str> = ProcessingStatus::KNOWN.iter().map(|s| s.as_str()).collect();
                text(a.processing, &known).cmp(text(b.processing, &known))
            }
            "type" => {
                let known: Vec<&str> = TransactionType::KNOWN.iter().map(|s| s.as_str()).collect();
                text(a.kind, &known).cmp(text(b.kind, &known))
            }
            "total_amount" => a.total_cents.cmp(&b.total_cents),
            "external_id" => origin_key(a.origin).cmp(&origin_key(b.origin)),
            _ => std::cmp::Ordering::Equal,
        }
    }
}

fn origin_key(o: Origin) -> (u8, u32) {
    match o {
        Origin::Demo(n) => (0, n),
        Origin::Stored(n) => (1, n),
    }
}

/// A demo subtotal split across its items, the last taking what division leaves.
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

/// The tax of a demo transaction, item by item, rounded as the full record rounds it.
fn demo_tax(
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

/// A decimal amount in minor units (cents).
fn cents_of(amount: Decimal) -> i64 {
    let mut a = amount.round_dp(2);
    a.rescale(2);
    a.mantissa() as i64
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

/// The tax items of one item: the jurisdiction's rate split the way its authorities levy it.
fn split_tax(
    country: &str,
    state: &str,
    rate: Decimal,
    taxable: Decimal,
    currency: &str,
) -> Vec<TaxItem> {
    let tax = |name: &str, kind: &str, jurisdiction: &str, r: Decimal| TaxItem {
        name: name.to_owned(),
        rate: r,
        amount: (taxable * r).round_dp(2),
        rule_id: None,
        converted_amount: None,
        currency: Some(currency.to_owned()),
        destination_currency: Some(currency.to_owned()),
        external_id: None,
        kind: Some("CALCULATED".into()),
        jurisdiction_type: Some(kind.to_owned()),
        jurisdiction_name: Some(jurisdiction.to_owned()),
    };
    let name = reference::jurisdiction_name(country, state).unwrap_or(state);
    match country {
        "US" => {
            let local = (rate * Decimal::new(25, 2)).round_dp(4);
            let mut v = vec![tax(
                &format!("{name} state tax"),
                "STATE",
                name,
                rate - local,
            )];
            if !local.is_zero() {
                v.push(tax(&format!("{name} local tax"), "CITY", name, local));
            }
            v
        }
        "CA" => {
            let gst = Decimal::new(5, 2);
            let mut v = vec![tax("GST", "COUNTRY", "Canada", gst.min(rate))];
            if rate > gst {
                v.push(tax(
                    &format!("{name} provincial tax"),
                    "STATE",
                    name,
                    rate - gst,
                ));
            }
            v
        }
        _ => vec![tax("VAT", "COUNTRY", name, rate)],
    }
}

/// Calculates the tax of a created transaction from its ship-to (or first) address, as the
/// service does once processing is over.
pub fn calculate_tax(t: &mut Transaction) {
    let address = t
        .addresses
        .iter()
        .find(|a| a.kind == AddressType::ShipTo)
        .or(t.addresses.first());
    let country = address
        .and_then(|a| a.country.clone())
        .or(t.country.clone())
        .unwrap_or_default();
    let state = address
        .and_then(|a| a.state.clone())
        .or(t.state.clone())
        .unwrap_or_default();
    let rate = reference::tax_rate(&country, &state);
    let currency = t.currency.clone().unwrap_or_else(|| "USD".into());
    let exempt_all = t.exempt == Some(TransactionExemptStatus::FullyExempt);
    let mut tax_total = Decimal::ZERO;
    let mut taxable_total = Decimal::ZERO;
    let mut subtotal = Decimal::ZERO;
    for item in &mut t.transaction_items {
        let amount = item.amount.unwrap_or_default();
        let exempt = exempt_all || item.exempt == Some(true);
        let taxable = if exempt { Decimal::ZERO } else { amount };
        let tax = (taxable * rate).round_dp(2);
        item.taxable_amount = Some(taxable);
        item.tax_amount_calculated = Some(tax);
        item.tax_rate_calculated = Some(if exempt { Decimal::ZERO } else { rate });
        item.tax_items = if exempt {
            Vec::new()
        } else {
            split_tax(&country, &state, rate, taxable, &currency)
        };
        subtotal += amount;
        tax_total += tax;
        taxable_total += taxable;
    }
    let liability = if t.marketplace == Some(true) {
        Decimal::ZERO
    } else {
        tax_total
    };
    t.country = Some(country).filter(|c| !c.is_empty());
    t.state = Some(state).filter(|s| !s.is_empty());
    t.subtotal = Some(subtotal);
    t.taxable_amount = Some(taxable_total);
    t.total_tax_amount_calculated = Some(tax_total);
    t.tax_rate_calculated = Some(rate);
    t.total_tax_liability_amount = Some(liability);
    t.tax_liability_source = Some(TaxLiabilitySource::Calculated);
    t.final_total_amount = Some(subtotal + liability);
    t.processing_status = Some(ProcessingStatus::Processed);
}
