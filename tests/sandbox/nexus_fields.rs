//! Every economic nexus item the sandbox serves carries the fields the live service requires,
//! non-null and on the live enumerations, in the list and in the detail, and in both Tenanted
//! releases under their camelCase names.

use reqwest::Method;
use serde_json::Value;

use crate::common::{Harness, ORG1};

/// The fields the live service requires on an economic nexus record, with the type each holds.
const REQUIRED: &[(&str, Kind)] = &[
    ("id", Kind::Text),
    ("country_code", Kind::Text),
    ("state_code", Kind::Text),
    ("state_name", Kind::Text),
    ("treatment_of_exempt_transactions", Kind::OneOf(TREATMENTS)),
    ("trigger", Kind::Text),
    ("sales_or_transactions", Kind::OneOf(SALES_OR_TRANSACTIONS)),
    ("threshold_sales", Kind::Integer),
    ("threshold_transactions", Kind::Integer),
    ("start_date", Kind::Date),
    ("period_model", Kind::OneOf(PERIOD_MODELS)),
    ("period_start_date", Kind::Date),
    ("period_end_date", Kind::Date),
    ("previous_period_start_date", Kind::Date),
    ("previous_period_end_date", Kind::Date),
    ("created_at", Kind::Text),
    ("updated_at", Kind::Text),
    ("organization_id", Kind::Text),
    ("is_vda_eligible", Kind::Bool),
    ("nexus_type", Kind::OneOf(NEXUS_TYPES)),
    ("total_transactions", Kind::Integer),
    ("total_transactions_included", Kind::Integer),
    ("total_transactions_exempted", Kind::Integer),
    ("total_transactions_marketplace", Kind::Integer),
    ("marketplace_included", Kind::Bool),
];

const TREATMENTS: &[&str] = &[
    "INCLUDED",
    "EXCLUDED",
    "DEPENDS",
    "INCLUDE_IF_PRESENCE",
    "YES_SALES_NO_TRANSACTIONS",
];
const SALES_OR_TRANSACTIONS: &[&str] = &["EITHER", "SALES", "BOTH", "TRANSACTIONS"];
const PERIOD_MODELS: &[&str] = &[
    "CURRENT_OR_PREVIOUS",
    "PRECEDING_YEAR_FROM_OCTOBER",
    "CALENDAR_YEAR",
    "PREVIOUS_12_MONTHS",
    "PREVIOUS_4_QUARTERS",
    "PREVIOUS_4_QUARTERS_OFFSET",
    "PRECEDING_YEAR",
    "PRECEDING_YEAR_QUARTERLY",
    "PRECEDING_YEAR_QUARTERLY_OFFSET",
];
const NEXUS_TYPES: &[&str] = &[
    "CANADA_FEDERAL",
    "EU_AGGREGATOR",
    "STATE",
    "EU_MEMBER_STATE",
];

#[derive(Clone, Copy)]
enum Kind {
    Text,
    Integer,
    Bool,
    Date,
    OneOf(&'static [&'static str]),
}

/// What is wrong with `item`'s required fields, empty when nothing is; `names` gives the name
/// each field travels under.
fn faults(item: &Value, name: impl Fn(&str) -> String, strict_numbers: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (field, kind) in REQUIRED {
        let key = name(field);
        let v = &item[&key];
        let ok = match kind {
            Kind::Text => v.is_string(),
            // The Tenanted API writes amounts as decimal strings.
            Kind::Integer if !strict_numbers && *field == "threshold_sales" => {
                v.as_str().is_some_and(|s| s.parse::<f64>().is_ok())
            }
            Kind::Integer => v.is_i64(),
            Kind::Bool => v.is_boolean(),
            Kind::Date => v
                .as_str()
                .is_some_and(|s| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()),
            Kind::OneOf(values) => v.as_str().is_some_and(|s| values.contains(&s)),
        };
        if !ok {
            out.push(format!("{key} = {v}"));
        }
    }
    out
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

const EVERY_STATUS: &str = "APPROACHING,NOT_EXPOSED,PENDING_REGISTRATION,EXPOSED,REGISTERED,\
                            OSS_PENDING_REGISTRATION,OSS_REGISTERED";

#[tokio::test]
async fn every_nexus_item_carries_every_required_field_of_the_live_service() {
    let h = Harness::start().await;
    let page = h
        .get_json(&format!("/v1/nexus?size=100&status__in={EVERY_STATUS}"))
        .await;
    let items = page["items"].as_array().expect("a page of items");
    assert!(items.len() >= 40, "{}", items.len());
    let mut rules = std::collections::BTreeSet::new();
    for item in items {
        let f = faults(item, str::to_owned, true);
        assert!(f.is_empty(), "{}: {f:?}", item["id"]);
        rules.insert(item["sales_or_transactions"].as_str().unwrap().to_owned());
        // The detail answers the same record.
        let id = item["id"].as_str().unwrap();
        let one = h.get_json(&format!("/v1/nexus/{id}")).await;
        let f = faults(&one, str::to_owned, true);
        assert!(f.is_empty(), "/v1/nexus/{id}: {f:?}");
        assert_eq!(&one, item, "the detail is the listed record");
    }
    for rule in ["EITHER", "SALES", "BOTH"] {
        assert!(rules.contains(rule), "{rules:?}");
    }
}

#[tokio::test]
async fn the_tenanted_api_carries_them_under_their_camel_case_names() {
    let h = Harness::start().await;
    for version in ["2026-07-21", "2026-10-06"] {
        let page: Value = h
            .bare(Method::GET, "/nexus?size=100")
            .header("Api-Key", ORG1.1)
            .header("Api-Version", version)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let items = page["items"].as_array().expect("a page of items");
        assert!(!items.is_empty(), "{page}");
        for item in items {
            let f = faults(item, camel, false);
            assert!(f.is_empty(), "{version} {}: {f:?}", item["id"]);
        }
    }
}
