//! Acting on another organization with `:org` (Tenanted API), and the refusal on v1.

use std::time::Duration;

use crossterm::event::KeyCode;
use taxdash::model::PageParams;
use taxdash::model::filters::RegistrationFilter;

use crate::harness::{Dashboard, Options};

/// The header line of the screen.
fn header(screen: &str) -> &str {
    screen.lines().next().unwrap_or_default()
}

#[tokio::test]
async fn org_switches_the_organization_and_reloads_the_registrations() {
    let d = Dashboard::start_tenanted(Options::default()).await;
    let all = RegistrationFilter::default();
    let first = d
        .client
        .list_registrations(&all, PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    let other = d.client.with_organization("orgn_demo_2");
    let second = other
        .list_registrations(&all, PageParams::new(1, 100))
        .await
        .unwrap();
    assert_ne!(first, second.total, "the demo organizations differ");
    let screen = d.wait_for(&format!("row 1 of {first} ")).await;
    let screen = if header(&screen).contains("Acme Outdoor Supply") {
        screen
    } else {
        d.wait_until("the organization's name", Duration::from_secs(10), |s| {
            header(s).contains("Acme Outdoor Supply")
        })
        .await
    };
    assert!(
        header(&screen).contains("org Acme Outdoor Supply (orgn_demo_1)")
            && header(&screen).contains("API tenanted 2026-10-06"),
        "the header names the organization and the generation: {screen}"
    );

    // An organization the key does not reach is refused, naming those it does.
    d.command("org orgn_elsewhere");
    let refused = d.wait_for("reaches no organization").await;
    assert!(
        refused.contains("orgn_demo_2 (Northwind Digital)")
            && header(&refused).contains("(orgn_demo_1)"),
        "{refused}"
    );

    // Completion offers the organizations the key reaches.
    d.char(':');
    d.type_text("org orgn");
    d.key(KeyCode::Tab);
    let completing = d
        .wait_until("the completion", Duration::from_secs(5), |s| {
            s.contains(":org orgn_demo_")
        })
        .await;
    assert!(
        completing.contains("orgn_demo_1") && completing.contains("orgn_demo_2"),
        "{completing}"
    );
    d.type_text("2");
    d.key(KeyCode::Enter);

    let screen = d
        .wait_until(
            "the other organization's registrations",
            Duration::from_secs(10),
            |s| {
                header(s).contains("org Northwind Digital (orgn_demo_2)")
                    && s.contains(&format!("row 1 of {} ", second.total))
            },
        )
        .await;
    assert!(
        screen.contains("Now acting on Northwind Digital"),
        "{screen}"
    );
    // Switching back restores the first organization's list.
    d.command("org orgn_demo_1");
    d.wait_until(
        "the first organization again",
        Duration::from_secs(10),
        |s| header(s).contains("(orgn_demo_1)") && s.contains(&format!("row 1 of {first} ")),
    )
    .await;
    d.quit().await;
}

#[tokio::test]
async fn org_on_v1_says_it_needs_the_tenanted_api() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.command("org orgn_demo_2");
    let screen = d.wait_for("needs the Tenanted API").await;
    assert!(
        screen.contains("set api = \"tenanted\" in the profile"),
        "{screen}"
    );
    assert!(
        header(&screen).contains("org orgn_demo_1") && header(&screen).contains("API v1"),
        "nothing switched: {screen}"
    );
    d.quit().await;
}
