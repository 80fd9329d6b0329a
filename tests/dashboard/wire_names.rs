//! A walk through the demo's screens (the Overview, every list and the detail of its first
//! record, that record's history, the messages, the audit log and the help) finds no wire name
//! (`snake_case`) where the screen could use a label.

use std::time::Duration;

use crossterm::event::KeyCode;

use taxdash::model::filters::{CustomerFilter, RegistrationFilter};
use taxdash::model::{CustomerWrite, PageParams};

use crate::harness::{Dashboard, Options, wire_names};

/// The wire names on `screen`, kept under `name` when there are any.
fn check(name: &str, screen: &str, found: &mut Vec<(String, Vec<String>, String)>) {
    let names = wire_names(screen);
    if !names.is_empty() {
        found.push((name.to_owned(), names, screen.to_owned()));
    }
}

#[tokio::test]
async fn every_screen_of_the_demo_speaks_in_labels() {
    let (d, _dir) = Dashboard::start_as_the_demo(&Options {
        size: (200, 50),
        ..Options::default()
    })
    .await;
    let mut found = Vec::new();
    let mut histories = Vec::new();
    let screen = d.wait_for("Overview — updated").await;
    check("the Overview", &screen, &mut found);
    d.command("snapshot");
    d.wait_for("Snapshot 1 taken").await;
    // Changes between two snapshots, so that the histories and the audit log have something to
    // say: a customer's email, and a registration's comment and whether it is filed.
    let customer = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    d.client
        .update_customer(
            &customer.id,
            &CustomerWrite {
                email: Some("changed@example.com".into()),
                ..CustomerWrite::default()
            },
        )
        .await
        .unwrap();
    let registration = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    d.client
        .update_registration(
            &registration.id,
            &serde_json::json!({"comment": "checked", "do_not_file": true}),
        )
        .await
        .unwrap();
    d.command("snapshot");
    d.wait_for("Snapshot 2 taken").await;
    for (key, tab) in [
        ('2', "Registrations"),
        ('3', "Nexus"),
        ('4', "Exemptions"),
        ('5', "Customers"),
        ('6', "Transactions"),
        ('7', "Filings"),
        ('8', "Products"),
    ] {
        d.char(key);
        let screen = d.wait_for(&format!("{tab} —")).await;
        let screen = if screen.contains("row 1 of") {
            screen
        } else {
            d.wait_for("row 1 of").await
        };
        check(&format!("the {tab} list"), &screen, &mut found);
        d.key(KeyCode::Enter);
        tokio::time::sleep(Duration::from_millis(600)).await;
        let detail = d.screen();
        check(&format!("a {tab} detail"), &detail, &mut found);
        if detail.contains("H history") {
            d.char('H');
            // The history is read off the screen's thread: its words, once it has been read.
            let screen = d
                .wait_until("the record's history", Duration::from_secs(10), |s| {
                    s.contains("History of") && !s.contains("reading…")
                })
                .await;
            check(&format!("a {tab} record's history"), &screen, &mut found);
            histories.push(screen);
            d.key(KeyCode::Esc);
        }
        d.key(KeyCode::Esc);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (command, title) in [("messages", "Messages"), ("audit", "Audit")] {
        d.command(command);
        let screen = d.wait_for(title).await;
        check(&format!(":{command}"), &screen, &mut found);
        d.key(KeyCode::Esc);
    }
    d.char('?');
    let screen = d.wait_for("┌ Help ").await;
    check("the help", &screen, &mut found);
    d.key(KeyCode::Esc);
    // The walk saw the changes it made, in words.
    assert!(
        histories
            .iter()
            .any(|h| h.contains("Email: ") && h.contains("→ changed@example.com")),
        "{histories:?}"
    );
    assert!(
        histories
            .iter()
            .any(|h| h.contains("Comment: none → checked") && h.contains("Do not file: no → yes")),
        "{histories:?}"
    );
    for (name, names, screen) in &found {
        println!("{name}: {names:?}\n{screen}");
    }
    assert!(
        found.is_empty(),
        "wire names on {:?}",
        found
            .iter()
            .map(|(n, w, _)| format!("{n}: {w:?}"))
            .collect::<Vec<_>>()
    );
    d.quit().await;
}
