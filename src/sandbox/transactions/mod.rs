//! Transactions at scale. Each transaction is a compact [`Row`] (about 40 bytes) kept in date
//! order; the full [`Transaction`] is built only for the rows a page shows. Demo transactions are
//! generated from the seed ([`demo`]), so a million of them cost tens of megabytes, and a
//! filtered, sorted list of row positions is cached per query until the next write ([`query`]).

mod cover;
mod demo;
mod exemptions;
mod query;
mod shape;
mod tax;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use demo::CURRENCIES;
pub use demo::{BASE_COUNT, demo_transaction_id};
pub use exemptions::with_applied_exemptions;
pub use query::{DEFAULT_ORDER, Filter, ORDER_FIELDS};
pub use shape::{CatalogItem, DemoSale};
pub use tax::calculate_tax;
use tax::cents_of;

use crate::model::{
    Customer, Direction, ProcessingStatus, RefundStatus, Timestamp, Transaction,
    TransactionExemptStatus, TransactionStatus, TransactionType,
};

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
    /// Stored transactions by id (those read from a snapshot keep the ids the service gave).
    ids: HashMap<String, Origin>,
    /// Transactions created or changed since the state was last saved.
    unsaved: Vec<Origin>,
    generation: u64,
    cache: Mutex<QueryCache>,
    /// The products the demo sales' lines name (see [`Transactions::sell_from`]).
    catalog: Vec<CatalogItem>,
}

#[derive(Default)]
struct QueryCache {
    generation: u64,
    order: VecDeque<String>,
    entries: HashMap<String, Arc<Vec<u32>>>,
}

const CACHE_ENTRIES: usize = 64;

impl Transactions {
    pub fn anchor(&self) -> NaiveDate {
        self.anchor
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn origin_of_id(&self, id: &str) -> Option<Origin> {
        if let Some(origin) = self.ids.get(id) {
            return Some(*origin);
        }
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

    /// The row a full transaction sorts and filters as.
    fn row_of(&mut self, t: &Transaction, origin: Origin, customers: &[Customer]) -> Row {
        let country = t.country.clone().unwrap_or_default();
        let state = t.state.clone().unwrap_or_default();
        let jurisdiction = if let Some(i) = self
            .jurisdictions
            .iter()
            .position(|(c, s)| *c == country && *s == state)
        {
            i
        } else {
            self.jurisdictions.push((country, state));
            self.jurisdictions.len() - 1
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

    /// The transactions created or changed since the last call, for the state to save.
    pub fn take_changed(&mut self) -> Vec<Origin> {
        std::mem::take(&mut self.unsaved)
    }

    /// Names transactions as changed again (their save failed).
    pub fn mark_changed(&mut self, origins: Vec<Origin>) {
        self.unsaved.extend(origins);
    }

    /// The `n`-th transaction created through the interface.
    pub fn stored(&self, n: u32) -> Option<&StoredTransaction> {
        self.stored.get(n as usize)
    }

    /// Demo transaction `n` as changed since generation, if it was.
    pub fn changed_demo(&self, n: u32) -> Option<&Transaction> {
        self.changed.get(&n)
    }

    /// Adds a created transaction; it stays `QUEUED` until `ready_at`.
    pub fn insert(
        &mut self,
        mut t: Transaction,
        ready_at: Option<Timestamp>,
        customers: &[Customer],
    ) -> Transaction {
        t.id = format!("tran_{}n{}", self.org_index + 1, self.stored.len());
        self.unsaved.push(Origin::Stored(self.stored.len() as u32));
        self.push_stored(
            StoredTransaction {
                transaction: t.clone(),
                ready_at,
            },
            customers,
        );
        self.touch();
        t
    }

    /// Files a stored transaction: its row in date order, its external id, its record.
    fn push_stored(&mut self, stored: StoredTransaction, customers: &[Customer]) {
        let origin = Origin::Stored(self.stored.len() as u32);
        let row = self.row_of(&stored.transaction, origin, customers);
        let at = self.rows.partition_point(|r| r.at <= row.at);
        self.rows.insert(at, row);
        self.external_ids
            .insert(stored.transaction.external_id.clone(), origin);
        self.ids.insert(stored.transaction.id.clone(), origin);
        self.stored.push(stored);
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
        let before = match origin {
            Origin::Stored(n) => Some(self.stored[n as usize].transaction.external_id.clone()),
            Origin::Demo(n) => self.changed.get(&n).map(|c| c.external_id.clone()),
        };
        if before.as_deref() != Some(t.external_id.as_str()) {
            // A new external id (a credit note rewritten) finds the record; the old one no
            // longer does.
            if let Some(old) = before {
                self.external_ids.remove(&old);
            }
            self.external_ids.insert(t.external_id.clone(), origin);
        }
        match origin {
            Origin::Stored(n) => self.stored[n as usize].transaction = t,
            Origin::Demo(n) => {
                self.changed.insert(n, t);
            }
        }
        self.unsaved.push(origin);
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

    /// The transactions recorded against the return `filing_id`, newest first: only a stored
    /// or changed one can be (the demo's own carry no filing), so the rows are not scanned.
    pub fn recorded_against(&self, filing_id: &str) -> Vec<Transaction> {
        let mut found: Vec<Transaction> = self
            .stored
            .iter()
            .map(|s| &s.transaction)
            .chain(self.changed.values())
            .filter(|t| t.filing_id.as_deref() == Some(filing_id))
            .cloned()
            .collect();
        found.sort_by(|a, b| b.date.0.cmp(&a.date.0).then_with(|| a.id.cmp(&b.id)));
        found
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

    /// Adds `transactions` as they are (read from a snapshot: their tax already in, their
    /// ids kept), in date order.
    pub fn load(&mut self, mut transactions: Vec<Transaction>, customers: &[Customer]) {
        // In date order, each row lands at the end: no row is moved.
        transactions.sort_by_key(|t| t.date.0);
        for transaction in transactions {
            self.push_stored(
                StoredTransaction {
                    transaction,
                    ready_at: None,
                },
                customers,
            );
        }
        self.touch();
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
        for stored in changes.stored {
            self.push_stored(stored, customers);
        }
        self.touch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(id: &str, day: &str, filing: Option<&str>) -> Transaction {
        serde_json::from_value(serde_json::json!({
            "id": id, "external_id": id, "date": format!("{day}T10:00:00Z"), "type": "SALE",
            "subtotal": "10.00", "total_amount": "10.00", "filing_id": filing,
            "country": "US", "state": "CA"
        }))
        .unwrap()
    }

    #[test]
    fn newest_first_sorts_as_the_general_sort_does_ties_included() {
        use crate::sandbox::query::SortKey;
        let anchor = chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let mut t = Transactions::generate(7, 0, "orgn_x", anchor, 2_000, 0);
        // Three at the same second, among the demo's own.
        t.load(
            ["tran_a", "tran_b", "tran_c", "tran_d"]
                .iter()
                .zip(["2026-09-03", "2026-09-03", "2026-09-03", "2026-10-01"])
                .map(|(id, day)| recorded(id, day, None))
                .collect(),
            &[],
        );
        let key = || SortKey {
            field: "date".into(),
            descending: true,
        };
        let filter = query::Filter::default();
        let fast = t.query(&filter, &[key()], anchor, &[]);
        // The same key twice takes the general sort.
        let general = t.query(&filter, &[key(), key()], anchor, &[]);
        assert!(fast.len() > 1_000, "{}", fast.len());
        assert_eq!(fast, general);
        let ties = fast
            .windows(2)
            .filter(|w| t.rows[w[0] as usize].at == t.rows[w[1] as usize].at)
            .count();
        assert!(ties >= 2, "three transactions at the same second");
    }

    #[test]
    fn the_transactions_recorded_against_a_return_are_found_newest_first() {
        let anchor = chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let mut t = Transactions::generate(0, 0, "orgn_x", anchor, 0, 0);
        t.load(
            vec![
                recorded("tran_1", "2026-09-03", Some("file_a")),
                recorded("tran_2", "2026-09-20", Some("file_a")),
                recorded("tran_3", "2026-09-10", Some("file_b")),
                recorded("tran_4", "2026-09-11", None),
            ],
            &[],
        );
        let ids = |filing: &str| -> Vec<String> {
            t.recorded_against(filing)
                .into_iter()
                .map(|x| x.id)
                .collect()
        };
        assert_eq!(ids("file_a"), ["tran_2", "tran_1"]);
        assert_eq!(ids("file_b"), ["tran_3"]);
        assert!(ids("file_c").is_empty());
    }
}
