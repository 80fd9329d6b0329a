//! Related records listed under a detail (a customer's transactions, a registration's returns):
//! one line each. Jumps to related records are in `relations`.

use crate::model::{Filing, Transaction};
use crate::ui::skeleton::Related;

/// `2026-11-02` → `ord-1001  SALE  COMMITTED  129.00 USD  TX`, newest first as the service
/// lists them.
pub fn transactions(title: &'static str, list: &[Transaction]) -> Related {
    let rows = list
        .iter()
        .map(|t| {
            let mut parts = vec![t.external_id.clone(), t.kind.to_string()];
            if let Some(s) = &t.status {
                parts.push(s.to_string());
            }
            if let Some(total) = t.total_amount {
                parts.push(format!(
                    "{total} {}",
                    t.currency.as_deref().unwrap_or_default()
                ));
            }
            if let Some(state) = t.state.as_deref().filter(|s| !s.is_empty()) {
                parts.push(state.to_owned());
            }
            (t.date.0.date_naive().to_string(), parts.join("  "))
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
                parts.push(format!("due {due}"));
            }
            if let Some(amount) = f.amount {
                parts.push(format!(
                    "{amount} {}",
                    f.currency.as_deref().unwrap_or_default()
                ));
            }
            parts.push(f.id.clone());
            (
                format!("{} – {}", f.start_date, f.end_date),
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
}
