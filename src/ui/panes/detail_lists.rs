//! Related records listed under a detail (a customer's transactions, a registration's returns):
//! one line each. Jumps to related records are in `relations`.

use crate::model::{Filing, Transaction};
use crate::ui::panes::transactions::columns::total;
use crate::ui::skeleton::Related;
use crate::ui::text;

/// `2026-11-02` → `ord-1001  SALE  COMMITTED  1,290.00 USD  TX`, newest first as the service
/// lists them; a credit note's total reads negative.
pub fn transactions(title: &'static str, list: &[Transaction]) -> Related {
    let rows = list
        .iter()
        .map(|t| {
            let mut parts = vec![t.external_id.clone(), t.kind.to_string()];
            if let Some(s) = &t.status {
                parts.push(s.to_string());
            }
            if let Some(total) = total(t) {
                parts.push(total);
            }
            if let Some(state) = t.state.as_deref().filter(|s| !s.is_empty()) {
                parts.push(state.to_owned());
            }
            (text::date(t.date.date()), parts.join("  "))
        })
        .collect();
    Related {
        title,
        rows: Ok(rows),
    }
}

/// `2026-10-01 – 2026-10-31` → `FILED  due 2026-11-30  2,369.02 USD  file_…`.
pub fn filings(title: &'static str, list: &[Filing]) -> Related {
    let rows = list
        .iter()
        .map(|f| {
            let mut parts = Vec::new();
            if let Some(s) = &f.status {
                parts.push(s.to_string());
            }
            if let Some(due) = f.due_date {
                parts.push(format!("due {}", text::date(due)));
            }
            if let Some(amount) = crate::ui::panes::filings::columns::amount(f) {
                parts.push(amount);
            }
            parts.push(f.id.clone());
            (
                crate::ui::panes::filings::columns::period(f),
                parts.join("  "),
            )
        })
        .collect();
    Related {
        title,
        rows: Ok(rows),
    }
}

/// The section saying why the related records could not be read.
pub fn failed(title: &'static str, message: String) -> Related {
    Related {
        title,
        rows: Err(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_reads_on_one_line() {
        let t: Transaction = serde_json::from_value(serde_json::json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-11-02T09:30:00Z",
            "type": "SALE", "status": "COMMITTED", "total_amount": "129.00",
            "currency": "USD", "state": "TX"
        }))
        .unwrap();
        let related = transactions("Transactions", &[t]);
        assert_eq!(
            related.rows,
            Ok(vec![(
                "2026-11-02".to_owned(),
                "ord-1  SALE  COMMITTED  129.00 USD  TX".to_owned()
            )])
        );
    }

    #[test]
    fn amounts_read_grouped_with_their_currency_and_a_credit_negative() {
        let t: Transaction = serde_json::from_value(serde_json::json!({
            "id": "tran_2", "external_id": "ord-2", "date": "2026-11-03T09:30:00Z",
            "type": "PARTIAL_CREDIT_NOTE", "status": "COMMITTED", "total_amount": "4731.00",
            "currency": "USD"
        }))
        .unwrap();
        let related = transactions("Transactions", &[t]);
        assert_eq!(
            related.rows,
            Ok(vec![(
                "2026-11-03".to_owned(),
                "ord-2  PARTIAL_CREDIT_NOTE  COMMITTED  -4,731.00 USD".to_owned()
            )])
        );
        let f: Filing = serde_json::from_value(serde_json::json!({
            "id": "file_1", "registration_id": "reg_1", "start_date": "2026-10-01",
            "end_date": "2026-10-31", "country_code": "US", "status": "FILED",
            "due_date": "2026-11-30", "amount": "2369.02", "currency": "USD"
        }))
        .unwrap();
        assert_eq!(
            filings("Returns", &[f]).rows,
            Ok(vec![(
                "2026-10-01 – 2026-10-31".to_owned(),
                "FILED  due 2026-11-30  2,369.02 USD  file_1".to_owned()
            )])
        );
    }
}
