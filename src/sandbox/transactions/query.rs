//! Filtering and sorting rows: a filter turned into row codes once, ranks for text columns, and
//! the result cached per query until the next write.

use std::sync::Arc;

use chrono::{Duration, Months, NaiveDate};

use super::demo::demo_address_status;
use super::{CACHE_ENTRIES, Origin, QueryCache, Row, Transactions, code};
use crate::model::{
    AddressStatus, Customer, Direction, ProcessingStatus, RefundStatus, Transaction,
    TransactionExemptStatus, TransactionStatus, TransactionType,
};
use crate::sandbox::listing::sort_key_order;
use crate::sandbox::query::SortKey;
use crate::sandbox::reference;

/// What the list endpoint filters on, already checked against the service's enumerations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Filter {
    pub search: Option<String>,
    pub state_code: Option<String>,
    /// `state`: the full state or province name (`California`).
    pub state_name: Option<String>,
    pub countries: Vec<String>,
    pub statuses: Vec<TransactionStatus>,
    pub refund_status: Option<RefundStatus>,
    pub processing: Vec<ProcessingStatus>,
    pub exempt: Vec<TransactionExemptStatus>,
    pub kinds: Vec<TransactionType>,
    pub address: Vec<AddressStatus>,
    pub marketplace: Option<bool>,
    pub direction: Option<Direction>,
    pub filing_id: Option<String>,
    /// `transaction_source`: where the transaction came from (`API`, `CHECKOUT`, …).
    pub source: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    /// The customer's position in the organization's customers (its transactions only).
    pub customer: Option<u32>,
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

impl Transactions {
    /// The positions of the rows matching `filter`, in `order`, from the cache when possible.
    pub fn query(
        &self,
        filter: &Filter,
        order: &[SortKey],
        today: NaiveDate,
        customers: &[Customer],
    ) -> Arc<Vec<u32>> {
        let key = format!("{filter:?}|{order:?}|{today}");
        {
            let mut cache = self
                .cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
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
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
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
        order: &[SortKey],
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
        let is_date_desc = order
            .first()
            .is_some_and(|k| k.field == "date" && k.descending)
            && order.len() == 1;
        if is_date_desc {
            // Newest first, the rows' own order kept on a tie, as the general sort below
            // would: no ranks of names to build for it.
            positions.sort_by(|&a, &b| self.rows[b as usize].at.cmp(&self.rows[a as usize].at));
        } else if !order.is_empty() && !is_date_asc {
            let ranks = Ranks::new(self, customers);
            positions.sort_by(|&a, &b| {
                let (ra, rb) = (&self.rows[a as usize], &self.rows[b as usize]);
                order
                    .iter()
                    .map(|k| {
                        sort_key_order(
                            k,
                            ranks.is_blank(&k.field, ra),
                            ranks.is_blank(&k.field, rb),
                            || ranks.compare(&k.field, ra, rb),
                        )
                    })
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        }
        positions
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
    customer: Option<u32>,
    /// The checks that need more than the row: address status, filing and source.
    detail: Option<Detail>,
}

/// The checks of a filter on what a [`Row`] does not hold, read from the stored record, or for
/// an unchanged demo transaction from what it is built from.
struct Detail {
    /// The address statuses wanted, and each customer's (a demo transaction's is its
    /// customer's).
    address: Option<(Vec<AddressStatus>, Vec<AddressStatus>)>,
    filing_id: Option<String>,
    source: Option<String>,
}

impl Detail {
    fn new(f: &Filter, customers: &[Customer]) -> Option<Self> {
        let address = (!f.address.is_empty()).then(|| {
            let of_customers = customers
                .iter()
                .map(|c| demo_address_status(Some(c)))
                .collect();
            (f.address.clone(), of_customers)
        });
        let detail = Detail {
            address,
            filing_id: f.filing_id.clone(),
            source: f.source.clone(),
        };
        (detail.address.is_some() || detail.filing_id.is_some() || detail.source.is_some())
            .then_some(detail)
    }

    fn matches(&self, t: &Transactions, r: &Row) -> bool {
        let record: Option<&Transaction> = match r.origin {
            Origin::Stored(n) => t.stored.get(n as usize).map(|s| &s.transaction),
            Origin::Demo(n) => t.changed.get(&n),
        };
        let address_ok = self.address.as_ref().is_none_or(|(wanted, of_customers)| {
            let status = match record {
                Some(x) => x.address_status.clone(),
                None => Some(
                    of_customers
                        .get(r.customer as usize)
                        .cloned()
                        .unwrap_or_else(|| demo_address_status(None)),
                ),
            };
            status.is_some_and(|s| wanted.contains(&s))
        });
        let filing_ok = self
            .filing_id
            .as_ref()
            .is_none_or(|id| record.is_some_and(|x| x.filing_id.as_deref() == Some(id.as_str())));
        let source_ok = self.source.as_ref().is_none_or(|wanted| {
            let source = match (record, r.origin) {
                (Some(x), _) => x.source.as_deref(),
                (None, Origin::Demo(n)) => Some(t.demo_source(n)),
                (None, Origin::Stored(_)) => None,
            };
            source.is_some_and(|s| s.eq_ignore_ascii_case(wanted))
        });
        address_ok && filing_ok && source_ok
    }
}

/// The codes of the `wanted` values among `known`; `None` when nothing is wanted (any value).
fn codes<T: PartialEq>(known: &[T], wanted: &[T]) -> Option<Vec<u8>> {
    (!wanted.is_empty()).then(|| wanted.iter().map(|w| code(known, w)).collect())
}

impl Matcher {
    fn new(t: &Transactions, f: &Filter, customers: &[Customer]) -> Self {
        let jurisdictions = (f.state_code.is_some()
            || f.state_name.is_some()
            || !f.countries.is_empty())
        .then(|| {
            t.jurisdictions
                .iter()
                .map(|(c, s)| {
                    f.state_code
                        .as_ref()
                        .is_none_or(|x| x.eq_ignore_ascii_case(s))
                        && f.state_name.as_ref().is_none_or(|x| {
                            !s.is_empty()
                                && reference::lookup(c, s)
                                    .is_some_and(|j| j.name.eq_ignore_ascii_case(x.trim()))
                        })
                        && (f.countries.is_empty()
                            || f.countries.iter().any(|x| x.eq_ignore_ascii_case(c)))
                })
                .collect()
        });
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
            customer: f.customer,
            detail: Detail::new(f, customers),
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
            && self.customer.is_none_or(|c| c == r.customer)
            && self.detail.as_ref().is_none_or(|d| d.matches(t, r))
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
    /// Jurisdictions without a state (EU countries), customers without a name.
    no_state: Vec<bool>,
    no_name: Vec<bool>,
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
            no_state: t.jurisdictions.iter().map(|(_, s)| s.is_empty()).collect(),
            no_name: customers
                .iter()
                .map(|c| c.name.as_deref().is_none_or(|n| n.trim().is_empty()))
                .collect(),
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

    /// Whether the row has no value in `field`, so it sorts last either way.
    fn is_blank(&self, field: &str, r: &Row) -> bool {
        match field {
            "state" => self
                .no_state
                .get(r.jurisdiction as usize)
                .copied()
                .unwrap_or(true),
            "customer_name" => self
                .no_name
                .get(r.customer as usize)
                .copied()
                .unwrap_or(true),
            "status" => r.status == u8::MAX,
            "processing_status" => r.processing == u8::MAX,
            _ => false,
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
                    .map(TransactionStatus::as_str)
                    .collect();
                text(a.status, &known).cmp(text(b.status, &known))
            }
            "processing_status" => {
                let known: Vec<&str> = ProcessingStatus::KNOWN
                    .iter()
                    .map(ProcessingStatus::as_str)
                    .collect();
                text(a.processing, &known).cmp(text(b.processing, &known))
            }
            "type" => {
                let known: Vec<&str> = TransactionType::KNOWN
                    .iter()
                    .map(TransactionType::as_str)
                    .collect();
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
