//! `--offline`: the dashboard browsing a snapshot. The snapshot is taken here from the demo
//! sandbox through the client's raw pages, then a few records are changed in it, so that what
//! the screen shows can only have come from the snapshot.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};
use crossterm::event::KeyCode;
use serde_json::Value;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::history::History;
use taxdash::history::snapshot::{Record, Scope};
use taxdash::model::Resource;
use taxdash::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, ListFilter, NexusFilter, PhysicalNexusFilter,
    RegistrationFilter, Sort, TransactionFilter,
};
use taxdash::model::{CustomerWrite, PageParams};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};

use crate::harness::{DEMO_ANCHOR, Dashboard, Options};
use crate::relay::Writes;

/// The sales tax ID the snapshot gives one registration (the demo has no such ID).
const SNAPSHOT_ID: &str = "SNAP-0001";

/// When the snapshots of these tests were taken.
fn taken() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(2026, 11, 20)
        .unwrap()
        .and_hms_opt(9, 30, 0)
        .unwrap()
        .and_utc()
}

/// Every record of the list `filter` names, as the service sent it, `pages` pages at most.
async fn read_all<F: ListFilter>(
    client: &Client,
    filter: &F,
    resource: Resource,
    pages: u32,
) -> Vec<Record> {
    let mut records = Vec::new();
    for page in 1..=pages {
        let answer = client
            .list_raw(filter, PageParams::new(page, PageParams::MAX_SIZE))
            .await
            .unwrap();
        for item in &answer.items {
            let body = item.get().to_owned();
            let value: Value = serde_json::from_str(&body).unwrap();
            records.push(Record {
                resource,
                id: value["id"].as_str().unwrap().to_owned(),
                body,
            });
        }
        if page >= answer.pages {
            break;
        }
    }
    records
}

/// A snapshot of the first demo organization (with its first `transactions` pages of
/// transactions when given), one registration given [`SNAPSHOT_ID`] and the last registration
/// dropped; answers the history, the snapshot's id and the changed registration's state.
async fn snapshot(transactions: Option<u32>) -> (History, i64, String) {
    let sandbox = Sandbox::start(
        SandboxConfig {
            anchor: Some(DEMO_ANCHOR),
            ..SandboxConfig::default()
        },
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap();
    let (org, key) = DEMO_CREDENTIALS[0];
    let client = Client::new(ClientConfig::new(
        sandbox.base_url().parse().unwrap(),
        org,
        ApiKey::new(key).unwrap(),
    ))
    .unwrap();
    let all = u32::MAX;
    let mut records = read_all(
        &client,
        &RegistrationFilter::default(),
        Resource::Registrations,
        all,
    )
    .await;
    records.extend(
        read_all(
            &client,
            &PhysicalNexusFilter::default(),
            Resource::PhysicalNexus,
            all,
        )
        .await,
    );
    records.extend(read_all(&client, &NexusFilter::default(), Resource::Nexus, all).await);
    records.extend(
        read_all(
            &client,
            &ExemptionFilter::default(),
            Resource::Exemptions,
            all,
        )
        .await,
    );
    records.extend(
        read_all(
            &client,
            &CustomerFilter::default(),
            Resource::Customers,
            all,
        )
        .await,
    );
    records.extend(read_all(&client, &FilingFilter::default(), Resource::Filings, all).await);
    if let Some(pages) = transactions {
        records.extend(
            read_all(
                &client,
                &TransactionFilter::default(),
                Resource::Transactions,
                pages,
            )
            .await,
        );
    }
    sandbox.stop().await;

    // One REGISTERED registration alone in its state gets an ID of the snapshot's own.
    let bodies: Vec<Value> = records
        .iter()
        .filter(|r| r.resource == Resource::Registrations)
        .map(|r| serde_json::from_str(&r.body).unwrap())
        .collect();
    let alone = bodies
        .iter()
        .find(|b| {
            b["status"] == "REGISTERED"
                && bodies
                    .iter()
                    .filter(|o| o["state_code"] == b["state_code"])
                    .count()
                    == 1
        })
        .expect("a state with one registration");
    let state = alone["state_code"].as_str().unwrap().to_owned();
    let changed_id = alone["id"].as_str().unwrap().to_owned();
    for record in &mut records {
        if record.resource == Resource::Registrations && record.id == changed_id {
            let mut body: Value = serde_json::from_str(&record.body).unwrap();
            body["sales_tax_id"] = Value::from(SNAPSHOT_ID);
            record.body = body.to_string();
        }
    }
    let last = records
        .iter()
        .rposition(|r| r.resource == Resource::Registrations && r.id != changed_id)
        .unwrap();
    records.remove(last);

    let mut history = History::in_memory();
    let day = DEMO_ANCHOR;
    let scope = Scope {
        profile: "work".into(),
        organization: org.into(),
        api: "v1".into(),
        transactions: transactions.map(|_| (day, day)),
    };
    let id = history.write_snapshot(&scope, taken(), &records).unwrap();
    (history, id, state)
}

/// How many registrations the snapshot holds.
fn registrations_in(history: &History, id: i64) -> usize {
    history
        .snapshot_records(id, Resource::Registrations)
        .unwrap()
        .len()
}

/// The first data row of the table on screen: the line after the column titles.
fn first_table_row(screen: &str) -> Option<&str> {
    let mut lines = screen.lines().skip_while(|l| !l.contains("Jurisdiction"));
    lines.next()?;
    lines
        .next()
        .filter(|l| l.starts_with('│') && l.contains('('))
}

#[tokio::test]
async fn the_snapshot_is_browsed_with_its_filters_sorts_and_details() {
    let (history, id, state) = snapshot(None).await;
    let total = registrations_in(&history, id);
    let d = Dashboard::start_offline(Options::default(), &history, id, None).await;

    // The snapshot's list, not the demo's: one registration fewer.
    let screen = d.wait_for(&format!("row 1 of {total} ")).await;
    let header = screen.lines().next().unwrap();
    assert!(
        header.contains("OFFLINE") && header.contains("snapshot 2026-11-20 09:30 UTC"),
        "{header}"
    );
    assert!(
        header.contains("profile work") && header.contains("orgn_demo_1"),
        "{header}"
    );
    assert!(
        !header.contains("connected") && !header.contains("DEMO"),
        "{header}"
    );

    // Sorted by jurisdiction, then reversed: the first row is the snapshot's last state.
    d.char('s');
    d.wait_for("sorted by jurisdiction ▲").await;
    let sorted = d
        .client
        .list_registrations(
            &RegistrationFilter {
                order_by: vec![Sort::desc("state_code")],
                ..RegistrationFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap();
    assert_eq!(sorted.total, total as u64, "the client reads the snapshot");
    let first = taxdash::ui::panes::registrations::wizard::jurisdiction(&sorted.items[0]);
    d.char('S');
    d.wait_for("sorted by jurisdiction ▼").await;
    d.wait_until("the re-sorted first row", Duration::from_secs(10), |s| {
        first_table_row(s).is_some_and(|row| row.contains(&first))
    })
    .await;

    // Filtered to the state whose registration the snapshot changed: its ID is the snapshot's.
    d.filter_to_state(&state, true).await;
    let screen = d.screen();
    assert!(screen.contains(SNAPSHOT_ID), "{screen}");
    d.key(KeyCode::Enter);
    let detail = d.wait_for("Identity").await;
    assert!(detail.contains(SNAPSHOT_ID), "{detail}");
    d.quit().await;
}

#[tokio::test]
async fn writes_are_refused_with_a_message_and_nothing_is_sent() {
    let (history, id, _) = snapshot(None).await;
    let writes: Writes = Arc::default();
    let d =
        Dashboard::start_offline(Options::default(), &history, id, Some(Arc::clone(&writes))).await;
    d.wait_for("row 1 of").await;
    d.char('D');
    let screen = d
        .wait_for("Offline: this is a snapshot; changes are turned off.")
        .await;
    assert!(!screen.contains("step 1 of 6"), "{screen}");
    d.char(':');
    d.type_text("deregister");
    d.key(KeyCode::Enter);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!d.screen().contains("step 1 of 6"), "{}", d.screen());
    // Customers: no new-customer form either.
    d.char('5');
    d.wait_for("Customers").await;
    d.char('n');
    d.wait_for("Offline: this is a snapshot").await;
    assert!(writes.lock().unwrap().is_empty(), "{:?}", writes.lock());

    // Belt and braces: a write that reached the sandbox would be refused there too.
    let before = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    let refused = d
        .client
        .create_customer(&CustomerWrite {
            name: Some("Written offline".into()),
            ..CustomerWrite::default()
        })
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("it cannot be changed"), "{refused}");
    let after = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    assert_eq!(before, after);
    d.quit().await;
}

#[tokio::test]
async fn lists_the_snapshot_does_not_hold_say_so_and_the_ones_it_does_list_its_records() {
    let (history, id, _) = snapshot(Some(2)).await;
    let held = history
        .snapshot_records(id, Resource::Transactions)
        .unwrap()
        .len();
    assert!(held > 100, "two pages of transactions: {held}");
    let d = Dashboard::start_offline(Options::default(), &history, id, None).await;
    d.wait_for("row 1 of").await;
    d.char('6');
    d.wait_for(&format!("row 1 of {held} ")).await;
    d.char('8');
    let screen = d
        .wait_for("Not in this snapshot: the snapshot taken 2026-11-20 09:30 UTC holds no products")
        .await;
    assert!(screen.contains("products could not be loaded"), "{screen}");
    d.quit().await;

    // Without transactions, their list says it is not in the snapshot, and the Overview
    // fills in what it can.
    let (history, id, _) = snapshot(None).await;
    let d = Dashboard::start_offline(
        Options {
            first_tab: "Overview",
            ..Options::default()
        },
        &history,
        id,
        None,
    )
    .await;
    d.wait_until("the Overview filled", Duration::from_secs(15), |s| {
        s.contains("Overview — updated")
    })
    .await;
    d.char('6');
    d.wait_for("holds no transactions").await;
    d.quit().await;
}
