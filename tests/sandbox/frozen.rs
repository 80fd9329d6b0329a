//! A frozen sandbox (what `taxdash --offline` browses) serving records read from the demo: its
//! lists, filters, sorts and details answer as the demo's did for the same records, writes and
//! lists it does not hold are refused saying why, and only its own key reaches it.

use std::net::{Ipv4Addr, SocketAddr};

use chrono::{NaiveDate, TimeZone, Utc};
use serde_json::value::RawValue;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::model::Resource;
use taxdash::model::filters::{
    CustomerFilter, ExemptionFilter, ListFilter, ProductFilter, RegistrationFilter, Sort,
    TransactionFilter,
};
use taxdash::model::{CustomerWrite, Page, PageParams, RegistrationStatus};
use taxdash::sandbox::{ALWAYS_HELD, DEMO_CREDENTIALS, Frozen, Sandbox};

use crate::common::Harness;

fn client(base: &str, organization: &str, key: &str) -> Client {
    let mut config = ClientConfig::new(
        base.parse().unwrap(),
        organization,
        ApiKey::new(key).unwrap(),
    );
    config.rate_limit_per_min = None;
    Client::new(config).unwrap()
}

/// Every item of the list `filter` names.
async fn every<F: ListFilter>(client: &Client, filter: &F) -> Vec<Box<RawValue>> {
    let mut items = Vec::new();
    for page in 1.. {
        let answer: Page<Box<RawValue>> = client
            .list_raw(filter, PageParams::new(page, PageParams::MAX_SIZE))
            .await
            .unwrap();
        items.extend(answer.items);
        if page >= answer.pages {
            break;
        }
    }
    items
}

/// The ids of one page of a list, and its total.
async fn ids<F: ListFilter>(client: &Client, filter: &F) -> (u64, Vec<String>) {
    let page = client
        .list_raw(filter, PageParams::new(1, 20))
        .await
        .unwrap();
    let ids = page
        .items
        .iter()
        .map(|item| {
            let value: serde_json::Value = serde_json::from_str(item.get()).unwrap();
            value["id"].as_str().unwrap().to_owned()
        })
        .collect();
    (page.total, ids)
}

#[tokio::test]
async fn a_frozen_sandbox_answers_the_demos_queries_for_the_same_records_and_changes_nothing() {
    let live = Harness::start().await;
    let (org, key) = DEMO_CREDENTIALS[0];
    let demo = client(&live.sandbox.base_url(), org, key);
    let october = TransactionFilter {
        date_from: NaiveDate::from_ymd_opt(2026, 10, 1),
        date_to: NaiveDate::from_ymd_opt(2026, 10, 31),
        ..TransactionFilter::default()
    };
    let mut records = Vec::new();
    for item in every(&demo, &RegistrationFilter::default()).await {
        records.push((Resource::Registrations, item.get().to_owned()));
    }
    for item in every(&demo, &CustomerFilter::default()).await {
        records.push((Resource::Customers, item.get().to_owned()));
    }
    // Held in every snapshot: a sale's detail names the certificates that exempt it.
    for item in every(&demo, &ExemptionFilter::default()).await {
        records.push((Resource::Exemptions, item.get().to_owned()));
    }
    for item in every(&demo, &october).await {
        records.push((Resource::Transactions, item.get().to_owned()));
    }
    let mut held = ALWAYS_HELD.to_vec();
    held.push(Resource::Transactions);
    let (frozen, frozen_key) = Sandbox::start_frozen(
        Frozen {
            organization_id: org.into(),
            taken: Utc.with_ymd_and_hms(2026, 11, 14, 8, 0, 0).unwrap(),
            held,
            records,
        },
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap();
    let offline = client(&frozen.base_url(), org, &frozen_key);

    // The same filters and sorts give the same rows.
    let registered = RegistrationFilter {
        status_in: vec![RegistrationStatus::Registered],
        order_by: vec![Sort::desc("state_code")],
        ..RegistrationFilter::default()
    };
    assert_eq!(
        ids(&offline, &registered).await,
        ids(&demo, &registered).await
    );
    let searched = CustomerFilter {
        search_query: Some("supply".into()),
        ..CustomerFilter::default()
    };
    let found = ids(&offline, &searched).await;
    assert!(found.0 > 0);
    assert_eq!(found, ids(&demo, &searched).await);
    let californian = TransactionFilter {
        state_code: Some("CA".into()),
        order_by: vec![Sort::desc("total_amount")],
        ..october.clone()
    };
    let found = ids(&offline, &californian).await;
    assert!(found.0 > 0);
    assert_eq!(found, ids(&demo, &californian).await);
    // The frozen sandbox holds October's only.
    assert_eq!(
        ids(&offline, &TransactionFilter::default()).await.0,
        ids(&demo, &october).await.0
    );

    // A transaction's detail, by id and by external id, as the demo gave it.
    let id = &found.1[0];
    let detail = offline.get_transaction(id).await.unwrap();
    assert_eq!(detail, demo.get_transaction(id).await.unwrap());
    assert_eq!(
        offline
            .get_transaction_by_external_id(&detail.external_id)
            .await
            .unwrap()
            .id,
        *id
    );

    // Writes are refused, and change nothing.
    let refused = offline
        .create_customer(&CustomerWrite {
            name: Some("Written offline".into()),
            ..CustomerWrite::default()
        })
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains(
            "Offline: this is the snapshot taken 2026-11-14 08:00 UTC; it cannot be changed"
        ),
        "{refused}"
    );
    assert_eq!(
        ids(&offline, &CustomerFilter::default()).await.0,
        ids(&demo, &CustomerFilter::default()).await.0
    );
    // A list it does not hold says so.
    let products = offline
        .list_products(&ProductFilter::default(), PageParams::new(1, 10))
        .await
        .unwrap_err()
        .to_string();
    assert!(products.contains("Not in this snapshot"), "{products}");
    assert!(products.contains("holds no products"), "{products}");
    // The demo's key does not reach it.
    let stranger = client(&frozen.base_url(), org, key);
    assert!(
        stranger
            .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
            .await
            .unwrap_err()
            .is_unauthorized()
    );
    frozen.stop().await;
}
