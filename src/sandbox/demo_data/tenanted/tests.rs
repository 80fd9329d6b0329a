//! The Tenanted records agree with the organization's other records.

use super::super::{DEMO_ANCHOR, DemoOrg, generate};
use super::*;
use crate::model::NexusStatus;

fn org(index: usize) -> DemoOrg {
    generate(42, index, &format!("orgn_demo_{}", index + 1), DEMO_ANCHOR)
}

#[test]
fn the_same_seed_gives_the_same_records() {
    assert_eq!(org(0).tenanted, org(0).tenanted);
    assert_ne!(
        org(0).tenanted,
        generate(7, 0, "orgn_demo_1", DEMO_ANCHOR).tenanted
    );
}

#[test]
fn california_and_idaho_have_what_credentials_need_and_one_lacks_it() {
    let full = org(0);
    for state in ["CA", "ID"] {
        let r = full
            .registrations
            .iter()
            .find(|r| r.state_code == state)
            .unwrap();
        assert!(
            r.missing_for_credentials().is_empty(),
            "{state}: {:?}",
            r.jurisdiction_specific_fields
        );
    }
    let small = org(1);
    let pending = small
        .registrations
        .iter()
        .find(|r| r.state_code == "ID")
        .unwrap();
    assert_eq!(pending.id, "regs_demo2_00009");
    assert_eq!(pending.status, RegistrationStatus::Processing);
    assert_eq!(pending.missing_for_credentials(), vec!["sales tax id"]);
    // The records generated before it are unchanged by its addition.
    assert_eq!(small.registrations[..8].len(), 8);
    assert!(
        small.registrations[..8]
            .iter()
            .all(|r| r.state_code != "ID")
    );
}

#[test]
fn every_history_is_oldest_first_and_ends_in_the_nexus_status() {
    for o in [org(0), org(1)] {
        for n in &o.nexus {
            let events: Vec<&ExposureRecord> = o
                .tenanted
                .exposure_events
                .iter()
                .filter(|e| e.nexus_id == n.id)
                .collect();
            assert!(!events.is_empty(), "{} has a history", n.id);
            assert!(
                events
                    .windows(2)
                    .all(|w| w[0].occurred_at <= w[1].occurred_at)
            );
            let last = events.last().unwrap();
            assert_eq!(
                Some(last.status.as_str()),
                n.status.as_ref().map(crate::model::NexusStatus::as_str),
                "{}",
                n.id
            );
            assert!(
                events
                    .iter()
                    .all(|e| e.state_code.is_none() == n.state_code.is_empty())
            );
            if n.status == Some(NexusStatus::Registered) {
                assert!(
                    events.iter().any(|e| e.event_type == "REGISTERED"),
                    "{}",
                    n.id
                );
            }
            if n.status == Some(NexusStatus::Exposed) {
                assert!(
                    events
                        .iter()
                        .any(|e| ["THRESHOLD_MET", "EXPOSED"].contains(&e.event_type.as_str())),
                    "{}",
                    n.id
                );
            }
        }
        assert!(
            o.tenanted
                .exposure_events
                .iter()
                .any(|e| e.state_code.is_none()),
            "a country-level nexus has a history"
        );
    }
}

#[test]
fn imports_await_approval_one_is_requested_and_one_approved() {
    for (i, o) in [org(0), org(1)].into_iter().enumerate() {
        let imports = &o.tenanted.certificate_imports;
        let uploaded: Vec<_> = imports
            .iter()
            .filter(|c| c.status == ImportStatus::Uploaded)
            .collect();
        assert!(uploaded.len() >= 3);
        for c in &uploaded {
            assert!(c.file_name.is_some() && !c.jurisdiction.is_empty());
            assert!(o.customers.iter().any(|x| x.id == c.customer_id));
            assert_eq!(c.exemption_id, None);
        }
        let requested: Vec<_> = imports
            .iter()
            .filter(|c| c.status == ImportStatus::Requested)
            .collect();
        assert_eq!(requested.len(), 1);
        assert_eq!(
            requested[0].request_token.as_deref(),
            Some(format!("ctok_demo{}_1", i + 1).as_str())
        );
        let approved = imports
            .iter()
            .find(|c| c.status == ImportStatus::Approved)
            .unwrap();
        let exemption = approved.exemption_id.as_deref().unwrap();
        assert!(o.exemptions.iter().any(|e| e.id == exemption));
    }
}

#[test]
fn back_filing_options_show_a_country_level_one_and_one_without_article() {
    for o in [org(0), org(1)] {
        let options = &o.tenanted.back_filing_options;
        assert!(options.iter().any(|b| b.state_code.is_none()));
        assert!(options.iter().any(|b| b.help_article_label.is_none()));
        assert!(options.iter().any(|b| b.help_article_label.is_some()));
        assert!(options.iter().all(|b| b.period_start < b.period_end));
    }
}

#[test]
fn registrations_with_a_portal_account_have_security_questions() {
    let o = org(0);
    for r in o.registrations.iter().filter(|r| r.username.is_some()) {
        let (_, questions) = o
            .tenanted
            .security_questions
            .iter()
            .find(|(id, _)| *id == r.id)
            .unwrap();
        assert_eq!(questions.len(), 2);
        assert_ne!(questions[0].question, questions[1].question);
    }
}
