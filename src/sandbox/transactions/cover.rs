//! The demo's exempt sales made to hold together with its certificates: each exempt sale goes to
//! a customer holding a certificate in force for its jurisdiction on its day (or, where no
//! customer holds one, is taxed as a plain sale), as in a company that checks, except a few left
//! uncovered on purpose, one for each reason the exemption check
//! names (no certificate, expired before the sale, started after it, another jurisdiction's, not
//! active), so that the check has something to find.

use chrono::{DateTime, NaiveDate};

use super::{Origin, Transactions, code, decode};
use crate::model::{
    Customer, Exemption, ExemptionStatus, ExemptionType, TransactionExemptStatus,
    TransactionStatus, TransactionType,
};

/// The row codes of a fully and of a partially exempt transaction.
pub(super) fn exempt_codes() -> [u8; 2] {
    [
        code(
            TransactionExemptStatus::KNOWN,
            &TransactionExemptStatus::FullyExempt,
        ),
        code(
            TransactionExemptStatus::KNOWN,
            &TransactionExemptStatus::PartiallyExempt,
        ),
    ]
}

pub(super) fn day_of(at: i64) -> NaiveDate {
    DateTime::from_timestamp(at, 0).map_or(NaiveDate::MIN, |t| t.date_naive())
}

/// Whether `e` is in the sale's place: its state, or its whole country.
fn places(e: &Exemption, country: &str, state: &str) -> bool {
    e.country_code
        .as_deref()
        .filter(|c| !c.is_empty())
        .is_none_or(|c| c == country)
        && e.jurisdiction
            .as_deref()
            .filter(|j| !j.is_empty())
            .is_none_or(|j| j == state)
}

fn in_period(e: &Exemption, day: NaiveDate) -> bool {
    e.start_date <= day && e.end_date.is_none_or(|end| day <= end)
}

fn active(e: &Exemption) -> bool {
    matches!(
        e.status,
        Some(ExemptionStatus::Active | ExemptionStatus::Expired)
    )
}

fn by_customer(e: &Exemption) -> bool {
    matches!(
        e.exemption_type,
        ExemptionType::Customer | ExemptionType::Wholesale
    )
}

impl Transactions {
    /// Gives each exempt demo sale a customer whose certificate covers it, then leaves one
    /// uncovered per reason, among the latest sales where one fits.
    pub fn cover_exempt_sales(&mut self, exemptions: &[Exemption], customers: &[Customer]) {
        let exempt_codes = exempt_codes();
        let sale = code(TransactionType::KNOWN, &TransactionType::Sale);
        let index_of = |id: &Option<String>| {
            id.as_deref()
                .and_then(|id| customers.iter().position(|c| c.id == id))
        };
        let held: Vec<(usize, &Exemption)> = exemptions
            .iter()
            .filter(|e| by_customer(e))
            .filter_map(|e| index_of(&e.customer_id).map(|i| (i, e)))
            .collect();
        let covers = |customer: usize, country: &str, state: &str, day: NaiveDate| {
            held.iter().any(|(c, e)| {
                *c == customer && active(e) && in_period(e, day) && places(e, country, state)
            })
        };
        let exempt_sales: Vec<usize> = (0..self.rows.len())
            .filter(|&i| {
                let r = &self.rows[i];
                matches!(r.origin, Origin::Demo(_))
                    && r.kind == sale
                    && !r.purchase
                    && exempt_codes.contains(&r.exempt)
            })
            .collect();
        for &i in &exempt_sales {
            let r = &self.rows[i];
            let (country, state) = &self.jurisdictions[r.jurisdiction as usize];
            let day = day_of(r.at);
            if covers(r.customer as usize, country, state, day) {
                continue;
            }
            let candidates: Vec<usize> = held
                .iter()
                .filter(|(_, e)| active(e) && in_period(e, day) && places(e, country, state))
                .map(|(c, _)| *c)
                .collect();
            if candidates.is_empty() {
                // No customer could have bought it exempt there and then: a taxed sale.
                self.make_not_exempt(i);
            } else {
                let pick = candidates[(r.at.unsigned_abs() as usize) % candidates.len()];
                self.rows[i].customer = u32::try_from(pick).unwrap_or(0);
            }
        }
        // Planted only on sales that count for tax, as the check counts them.
        let exempt_sales: Vec<usize> = exempt_sales
            .into_iter()
            .filter(|&i| exempt_codes.contains(&self.rows[i].exempt))
            .filter(|&i| {
                let status = decode(TransactionStatus::KNOWN, self.rows[i].status);
                TransactionStatus::counts_for_tax(status.as_ref())
            })
            .collect();
        self.plant(&exempt_sales, &held, customers.len());
    }

    /// One uncovered exempt sale per reason, among the last days' exempt sales.
    fn plant(&mut self, exempt_sales: &[usize], held: &[(usize, &Exemption)], customers: usize) {
        // Latest first (the rows are in date order).
        let recent = exempt_sales;
        let mut used: Vec<usize> = Vec::new();
        let place = |t: &Transactions, i: usize| {
            let r = &t.rows[i];
            let (c, s) = &t.jurisdictions[r.jurisdiction as usize];
            (c.clone(), s.clone(), day_of(r.at))
        };
        // Whether customer `c`'s certificates of the sale's place leave `reason` as the one the
        // check names: nothing covering the sale, and nothing the check would name first.
        let only = |c: usize, country: &str, state: &str, day: NaiveDate, reason: &str| {
            held.iter().filter(|(h, _)| *h == c).all(|(_, e)| {
                if !places(e, country, state) {
                    return true;
                }
                let covering = active(e) && in_period(e, day);
                let inactive = e.status == Some(ExemptionStatus::Inactive) && in_period(e, day);
                let ended = active(e) && e.end_date.is_some_and(|end| end < day);
                let later = active(e) && e.start_date > day;
                match reason {
                    "expired" => !covering && !inactive && !later,
                    "started" => !covering && !inactive && !ended,
                    "inactive" => !covering,
                    // Another jurisdiction's: nothing at all for this place.
                    _ => false,
                }
            })
        };
        // No certificate: a customer holding none.
        if let Some(c) = (0..customers).find(|c| held.iter().all(|(h, _)| h != c))
            && let Some(&i) = recent.iter().rev().find(|i| !used.contains(i))
        {
            self.rows[i].customer = u32::try_from(c).unwrap_or(0);
            used.push(i);
        }
        // Expired before the sale, started after it, not active: a certificate of the sale's
        // state, and a sale placed against it.
        for reason in ["expired", "started", "inactive"] {
            let found = recent.iter().rev().copied().find_map(|i| {
                if used.contains(&i) {
                    return None;
                }
                let (country, state, day) = place(self, i);
                held.iter().find_map(|(c, e)| {
                    let fits = places(e, &country, &state)
                        && match reason {
                            "expired" => active(e) && e.end_date.is_some_and(|end| end < day),
                            "started" => active(e) && e.start_date > day,
                            _ => e.status == Some(ExemptionStatus::Inactive) && in_period(e, day),
                        };
                    (fits && only(*c, &country, &state, day, reason)).then_some((i, *c))
                })
            });
            if let Some((i, c)) = found {
                self.rows[i].customer = u32::try_from(c).unwrap_or(0);
                used.push(i);
            }
        }
        // Another jurisdiction's: a customer whose certificates are all elsewhere.
        let found = recent.iter().rev().copied().find_map(|i| {
            if used.contains(&i) {
                return None;
            }
            let (country, state, day) = place(self, i);
            held.iter().find_map(|(c, e)| {
                (active(e) && in_period(e, day) && only(*c, &country, &state, day, "other"))
                    .then_some((i, *c))
            })
        });
        if let Some((i, c)) = found {
            self.rows[i].customer = u32::try_from(c).unwrap_or(0);
        }
    }
}

impl Transactions {
    /// The sales of the demo transactions of `country` (and `state`, when not empty) dated
    /// `from` to `to`, as the filings check adds them: sales' subtotals less credit notes',
    /// purchases left out; and how many transactions that is.
    pub fn demo_sales_in(
        &self,
        country: &str,
        state: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> (rust_decimal::Decimal, i64) {
        let sale = code(TransactionType::KNOWN, &TransactionType::Sale);
        let credits = [
            code(TransactionType::KNOWN, &TransactionType::FullCreditNote),
            code(TransactionType::KNOWN, &TransactionType::PartialCreditNote),
        ];
        let mut cents = 0i64;
        let mut count = 0i64;
        for r in &self.rows {
            let (c, s) = &self.jurisdictions[r.jurisdiction as usize];
            if c != country || (!state.is_empty() && s != state) {
                continue;
            }
            let day = day_of(r.at);
            if day < from || day > to {
                continue;
            }
            count += 1;
            // What the filing check adds up: sales that count for tax, less their credit notes.
            let status = decode(TransactionStatus::KNOWN, r.status);
            if r.purchase || !TransactionStatus::counts_for_tax(status.as_ref()) {
                continue;
            }
            if r.kind == sale {
                cents += r.subtotal_cents;
            } else if credits.contains(&r.kind) {
                cents -= r.subtotal_cents.abs();
            }
        }
        (rust_decimal::Decimal::new(cents, 2), count)
    }
}
