//! Sorting and paging of in-memory lists, for the resources small enough to sort per request.

use std::cmp::Ordering;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;

use super::query::SortKey;
use crate::model::{Page, PageParams};

/// Whether a value is blank: absent, null or an empty (or all-space) string.
pub fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// Compares two JSON values the way a user expects a column to sort: numbers and decimal strings
/// by value, other strings case-insensitively. Blanks ([`is_blank`]) compare equal to each other
/// and before everything else; [`sort_key_order`] puts them last in either direction.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (is_blank(a), is_blank(b)) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (false, false) => {}
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x
            .as_f64()
            .partial_cmp(&y.as_f64())
            .unwrap_or(Ordering::Equal),
        (Value::String(x), Value::String(y)) => {
            match (Decimal::from_str(x), Decimal::from_str(y)) {
                (Ok(dx), Ok(dy)) => dx.cmp(&dy),
                _ => x.to_lowercase().cmp(&y.to_lowercase()),
            }
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// The order of two values under one sort key: blanks last whether the key is ascending or
/// descending, the others by `compare` (ascending), reversed for a descending key.
pub fn sort_key_order(
    key: &SortKey,
    a_blank: bool,
    b_blank: bool,
    compare: impl FnOnce() -> Ordering,
) -> Ordering {
    match (a_blank, b_blank) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) if key.descending => compare().reverse(),
        (false, false) => compare(),
    }
}

/// Sorts `items` by `keys` (stable: equal rows keep their order) and cuts page `params`.
pub fn sorted_page<T: Serialize + Clone>(
    items: Vec<&T>,
    keys: &[SortKey],
    params: PageParams,
) -> Page<T> {
    let total = items.len() as u64;
    let rows: Vec<&T> = if keys.is_empty() {
        items
    } else {
        let mut keyed: Vec<(Vec<Value>, &T)> = items
            .into_iter()
            .map(|item| {
                let v = serde_json::to_value(item).unwrap_or(Value::Null);
                (
                    keys.iter()
                        .map(|k| v.get(&k.field).cloned().unwrap_or(Value::Null))
                        .collect(),
                    item,
                )
            })
            .collect();
        keyed.sort_by(|(a, _), (b, _)| {
            keys.iter()
                .zip(a.iter().zip(b))
                .map(|(k, (x, y))| {
                    sort_key_order(k, is_blank(x), is_blank(y), || compare_values(x, y))
                })
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        });
        keyed.into_iter().map(|(_, item)| item).collect()
    };
    let page_items = rows
        .into_iter()
        .skip(params.offset())
        .take(params.size as usize)
        .cloned()
        .collect();
    Page::new(page_items, total, params.page, params.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decimal_strings_sort_by_value() {
        assert_eq!(
            compare_values(&json!("9.00"), &json!("100.00")),
            Ordering::Less
        );
        assert_eq!(compare_values(&json!("b"), &json!("A")), Ordering::Greater);
        assert_eq!(compare_values(&Value::Null, &json!("A")), Ordering::Less);
        assert_eq!(compare_values(&json!(""), &Value::Null), Ordering::Equal);
    }

    #[test]
    fn blanks_sort_last_in_both_directions() {
        let rows = [
            json!({"d": null}),
            json!({"d": "2025-03-01"}),
            json!({"d": ""}),
            json!({"d": "2024-01-01"}),
            json!({}),
            json!({"d": "2026-07-15"}),
        ];
        let dates = |descending: bool| -> Vec<Value> {
            let keys = [SortKey {
                field: "d".into(),
                descending,
            }];
            sorted_page(rows.iter().collect(), &keys, PageParams::new(1, 10))
                .items
                .into_iter()
                .map(|r| r.get("d").cloned().unwrap_or(Value::Null))
                .collect()
        };
        assert_eq!(
            dates(false),
            [
                json!("2024-01-01"),
                json!("2025-03-01"),
                json!("2026-07-15"),
                Value::Null,
                json!(""),
                Value::Null
            ]
        );
        assert_eq!(
            dates(true),
            [
                json!("2026-07-15"),
                json!("2025-03-01"),
                json!("2024-01-01"),
                Value::Null,
                json!(""),
                Value::Null
            ],
            "blanks stay last, in their original order"
        );
    }

    #[test]
    fn pages_after_sorting() {
        let rows = [json!({"n": "3"}), json!({"n": "1"}), json!({"n": "2"})];
        let keys = [SortKey {
            field: "n".into(),
            descending: true,
        }];
        let page = sorted_page(rows.iter().collect(), &keys, PageParams::new(2, 2));
        assert_eq!(page.items, vec![json!({"n": "1"})]);
        assert_eq!((page.total, page.pages), (3, 2));
    }
}
