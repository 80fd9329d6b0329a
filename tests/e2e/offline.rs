//! `taxdash --demo --offline --history FILE` in a terminal: the dashboard opens on the snapshot
//! the file holds, says so in the header, takes the snapshot's day as today, and lists the
//! snapshot's records.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use serde_json::Value;
use taxdash::api::{Client, ClientConfig};
use taxdash::credentials::ApiKey;
use taxdash::history::History;
use taxdash::history::snapshot::{Record, Scope};
use taxdash::model::PageParams;
use taxdash::model::Resource;
use taxdash::model::filters::{CustomerFilter, RegistrationFilter};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};

use crate::pty::Pty;

/// Writes a snapshot of the demo's registrations (all but the first) and customers to the
/// history file at `path`; answers how many registrations it holds.
fn write_snapshot(path: &Path) -> usize {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let records = runtime.block_on(async {
        let sandbox = Sandbox::start(
            SandboxConfig {
                anchor: Some(taxdash::sandbox::demo_data::DEMO_ANCHOR),
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
        let mut records = Vec::new();
        let page = PageParams::new(1, PageParams::MAX_SIZE);
        let registrations = client
            .list_raw(&RegistrationFilter::default(), page)
            .await
            .unwrap();
        let customers = client
            .list_raw(&CustomerFilter::default(), page)
            .await
            .unwrap();
        for (resource, items, skipped) in [
            (Resource::Registrations, &registrations.items, 1),
            (Resource::Customers, &customers.items, 0),
        ] {
            for item in items.iter().skip(skipped) {
                let body = item.get().to_owned();
                let value: Value = serde_json::from_str(&body).unwrap();
                records.push(Record {
                    resource,
                    id: value["id"].as_str().unwrap().to_owned(),
                    body,
                });
            }
        }
        sandbox.stop().await;
        records
    });
    let mut history = History::open(path).unwrap();
    history
        .write_snapshot(
            &Scope {
                profile: "demo".into(),
                organization: DEMO_CREDENTIALS[0].0.into(),
                api: "v1".into(),
                transactions: None,
            },
            Utc.with_ymd_and_hms(2026, 11, 20, 9, 30, 0).unwrap(),
            &records,
        )
        .unwrap();
    records
        .iter()
        .filter(|r| r.resource == Resource::Registrations)
        .count()
}

#[test]
fn the_demo_opens_offline_on_the_snapshot_in_the_history_file() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("history.db");
    let registrations = write_snapshot(&file);
    let file_text = file.display().to_string();
    let mut t = Pty::spawn(
        &["--demo", "--offline", "--history", &file_text],
        200,
        50,
        home.path(),
    );
    // With no --today, the snapshot's day is today: what was due is counted from it.
    t.wait_for("Overview — updated", Duration::from_secs(30));
    t.wait_for("Friday 2026-11-20", Duration::from_secs(5));
    t.send("2");
    t.wait_for(
        &format!("row 1 of {registrations} "),
        Duration::from_secs(10),
    );
    let screen = t.screen();
    let header = screen.lines().next().unwrap_or_default();
    assert!(
        header.contains("OFFLINE") && header.contains("snapshot 2026-11-20 09:30 UTC"),
        "{screen}"
    );
    // A list the snapshot does not hold says so.
    t.send("6");
    t.wait_for("holds no transactions", Duration::from_secs(10));
    t.send("q");
    let status = t.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
}
