//! The Tenanted-only client methods over real loopback HTTP against the sandbox, in both
//! releases: portal credentials, deregistration, exposure history, certificate imports,
//! back-filing options and bulk filing actions.

use chrono::NaiveDate;
use serde_json::json;
use taxdash::api::{
    ApiError, ApiVersion, ApproveImport, BulkApproveImports, Client, CredentialsUpdate, ErrorCode,
    FilingFilter, Generation, NexusFilter, Selector,
};
use taxdash::model::tenanted::{CertificateImportStatus, PortalCodes};
use taxdash::model::{
    DeregistrationReason, DeregistrationRequest, FilingStatus, PageParams, RegistrationStatus,
};
use taxdash::sandbox::{Sandbox, SandboxConfig};

use crate::common::{ORG1, config, sandbox_with};

const OLD: ApiVersion = ApiVersion::DEFAULT;
const NEW: ApiVersion = ApiVersion::LATEST;

/// The first demo organization's California and Idaho registrations.
const CA_REG: &str = "regs_demo1_00001";
const ID_REG: &str = "regs_demo1_00002";

fn all() -> PageParams {
    PageParams::new(1, 100)
}

/// A Tenanted client of the first demo organization at `version`.
fn client(sandbox: &Sandbox, version: ApiVersion) -> Client {
    let mut config = config(&sandbox.base_url(), "", ORG1.1);
    config.generation = Generation::Tenanted(version);
    config.selector = Selector::Home;
    Client::new(config).expect("client builds")
}

fn code(e: &ApiError) -> (u16, ErrorCode) {
    let s = e
        .service_error()
        .unwrap_or_else(|| panic!("not a Tenanted refusal: {e:?}"));
    (s.status, s.code.clone())
}

#[tokio::test]
async fn portal_credentials_are_saved_and_revealed() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let new = client(&sandbox, NEW);
    let update = CredentialsUpdate {
        password: Some("n3w-Pass!".into()),
        jurisdiction_specific_fields: Some(PortalCodes {
            cdtfa_third_party_access_security_code: Some("ZXCV9876".into()),
            access_code: None,
        }),
        ..CredentialsUpdate::default()
    };
    let updated = new
        .update_registration_credentials(CA_REG, &update)
        .await
        .unwrap();
    assert_eq!(updated.registration_id, CA_REG);
    assert_eq!(
        updated.updated_fields,
        [
            "password",
            "jurisdictionSpecificFields.cdtfaThirdPartyAccessSecurityCode"
        ]
    );
    let revealed = new.reveal_registration_credentials(CA_REG).await.unwrap();
    assert_eq!(revealed.fields.password.as_deref(), Some("n3w-Pass!"));
    assert_eq!(
        revealed
            .fields
            .cdtfa_third_party_access_security_code
            .as_deref(),
        Some("ZXCV9876")
    );
    assert!(!revealed.fields.security_questions.is_empty());

    // 2026-07-21 names the questions `security_questions` and has no codes: both read.
    let old = client(&sandbox, OLD);
    let revealed_old = old.reveal_registration_credentials(CA_REG).await.unwrap();
    assert_eq!(
        revealed_old.fields.security_questions,
        revealed.fields.security_questions
    );
    assert_eq!(
        revealed_old.fields.cdtfa_third_party_access_security_code,
        None
    );

    // A blank code is refused on its field, in snake_case.
    let blank = CredentialsUpdate {
        jurisdiction_specific_fields: Some(PortalCodes {
            access_code: Some(String::new()),
            ..PortalCodes::default()
        }),
        ..CredentialsUpdate::default()
    };
    let e = new
        .update_registration_credentials(ID_REG, &blank)
        .await
        .unwrap_err();
    assert_eq!(code(&e), (422, ErrorCode::ValidationFailed));
    assert_eq!(
        e.errors_at("jurisdiction_specific_fields.access_code")
            .count(),
        1,
        "{e}"
    );
    // Before 2026-10-05 the codes are not part of the interface.
    let idaho = CredentialsUpdate {
        jurisdiction_specific_fields: Some(PortalCodes {
            access_code: Some("ID-123".into()),
            ..PortalCodes::default()
        }),
        ..CredentialsUpdate::default()
    };
    let e = old
        .update_registration_credentials(ID_REG, &idaho)
        .await
        .unwrap_err();
    assert_eq!(
        e.errors_at("jurisdiction_specific_fields.access_code")
            .count(),
        1,
        "{e}"
    );
    // An Idaho code on the California registration: a business rule.
    let e = new
        .update_registration_credentials(CA_REG, &idaho)
        .await
        .unwrap_err();
    assert_eq!(code(&e), (400, ErrorCode::BadRequest));
    let e = new
        .reveal_registration_credentials("regs_nowhere")
        .await
        .unwrap_err();
    assert_eq!(code(&e), (404, ErrorCode::NotFound));
    sandbox.stop().await;
}

#[tokio::test]
async fn deregistration_by_release() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let new = client(&sandbox, NEW);
    // Field errors come back in snake_case, as v1 names them.
    let e = new
        .deregister_unchecked(
            "regs_demo1_00007",
            &json!({"closure_date": "2026-02-31", "reason": "BANKRUPT",
                    "final_return_acknowledged": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), (422, ErrorCode::ValidationFailed));
    for field in ["closure_date", "reason", "final_return_acknowledged"] {
        assert_eq!(e.errors_at(field).count(), 1, "{field}: {e}");
    }
    let request = DeregistrationRequest {
        closure_date: NaiveDate::from_ymd_opt(2026, 12, 31).expect("a date"),
        reason: DeregistrationReason::ClosingNexusInState,
        final_return_acknowledged: true,
    };
    let answered = new.deregister("regs_demo1_00007", &request).await.unwrap();
    assert_eq!(answered.status, RegistrationStatus::Deregistering);
    assert!(answered.deregistration_requested.is_some());
    let e = new
        .deregister("regs_demo1_00007", &request)
        .await
        .unwrap_err();
    assert_eq!(code(&e), (409, ErrorCode::Conflict));
    // 2026-07-21 takes the same typed request.
    let answered = client(&sandbox, OLD)
        .deregister("regs_demo1_00005", &request)
        .await
        .unwrap();
    assert_eq!(answered.status, RegistrationStatus::Deregistering);
    sandbox.stop().await;
}

#[tokio::test]
async fn exposure_history_reads_the_state_in_both_releases() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let nexus = client(&sandbox, NEW)
        .list_nexus(&NexusFilter::default(), all())
        .await
        .unwrap()
        .items;
    let california = nexus
        .iter()
        .find(|n| n.country_code == "US" && n.state_code == "CA")
        .expect("a California nexus");
    let canada = nexus
        .iter()
        .find(|n| n.country_code == "CA" && n.state_code.is_empty())
        .expect("a country-level nexus");
    for version in [OLD, NEW] {
        let c = client(&sandbox, version);
        let events = c
            .nexus_exposure_history(&california.id, all())
            .await
            .unwrap();
        assert!(!events.items.is_empty(), "{version}");
        assert!(
            events
                .items
                .iter()
                .all(|e| e.state_code.as_deref() == Some("CA") && e.country_code == "US"),
            "{version}"
        );
        assert!(
            events
                .items
                .windows(2)
                .all(|w| w[0].occurred_at <= w[1].occurred_at),
            "oldest first"
        );
        let events = c.nexus_exposure_history(&canada.id, all()).await.unwrap();
        assert!(
            events.items.iter().all(|e| e.state_code.is_none()),
            "{version}"
        );
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn certificate_imports_are_listed_and_approved() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let new = client(&sandbox, NEW);
    let old = client(&sandbox, OLD);
    let listed_new = new.list_certificate_imports(None, all()).await.unwrap();
    let listed_old = old.list_certificate_imports(None, all()).await.unwrap();
    // Lowercase statuses and empty exemption IDs of 2026-07-21 read the same as 2026-10-06.
    assert_eq!(listed_old.items, listed_new.items);
    let waiting = new
        .list_certificate_imports(Some("uploaded"), all())
        .await
        .unwrap()
        .items;
    assert!(waiting.len() >= 3);
    assert!(
        waiting
            .iter()
            .all(|i| i.status == CertificateImportStatus::Uploaded && i.exemption_id.is_none())
    );

    let e = new
        .approve_certificate_import(
            &waiting[0].id,
            &ApproveImport {
                exemption_type: Some("resale".into()),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(code(&e), (422, ErrorCode::ValidationFailed));
    assert_eq!(e.errors_at("exemption_type").count(), 1, "{e}");

    let approved = new
        .approve_certificate_import(
            &waiting[0].id,
            &ApproveImport {
                exemption_type: Some("WHOLESALE".into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(approved.status, CertificateImportStatus::Approved);
    let exemption_id = approved.exemption_id.clone().expect("an exemption");
    // The exemption exists for v1 too.
    let exemption = new.get_exemption(&exemption_id).await.unwrap();
    assert_eq!(exemption.id, exemption_id);
    let e = new
        .approve_certificate_import(&waiting[0].id, &ApproveImport::default())
        .await
        .unwrap_err();
    assert_eq!(code(&e), (409, ErrorCode::Conflict));

    // Bulk: all or nothing.
    let rest: Vec<String> = waiting[1..].iter().map(|i| i.id.clone()).collect();
    let mut with_unknown = rest.clone();
    with_unknown.push("cimp_nowhere".into());
    let e = new
        .bulk_approve_certificate_imports(&BulkApproveImports {
            ids: with_unknown,
            exemption_type: None,
        })
        .await
        .unwrap_err();
    assert_eq!(code(&e), (404, ErrorCode::NotFound));
    assert!(e.to_string().contains("cimp_nowhere"), "{e}");
    let done = old
        .bulk_approve_certificate_imports(&BulkApproveImports {
            ids: rest.clone(),
            exemption_type: Some("resale".into()),
        })
        .await
        .unwrap();
    assert_eq!(done.items.len(), rest.len());
    assert!(
        done.items
            .iter()
            .all(|i| { i.status == CertificateImportStatus::Approved && i.exemption_id.is_some() })
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn back_filing_options_read_in_both_releases() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let old = client(&sandbox, OLD).back_filing_options().await.unwrap();
    let new = client(&sandbox, NEW).back_filing_options().await.unwrap();
    assert!(!old.is_empty());
    assert_eq!(old.len(), new.len());
    assert!(old.iter().any(|o| o.help_article_label.is_none()));
    assert!(new.iter().all(|o| o.help_article_label.is_some()));
    assert!(new.iter().any(|o| o.state_code.is_none()));
    for (o, n) in old.iter().zip(&new) {
        assert_eq!(
            (&o.id, &o.state_code, o.period_start, o.estimated_liability),
            (&n.id, &n.state_code, n.period_start, n.estimated_liability)
        );
        assert!(n.period_start <= n.period_end);
    }
    sandbox.stop().await;
}

#[tokio::test]
async fn bulk_filing_actions_report_each_filing() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let new = client(&sandbox, NEW);
    let ids = |status: FilingStatus| {
        let new = new.clone();
        async move {
            let filter = FilingFilter {
                status_in: vec![status],
                ..FilingFilter::default()
            };
            new.list_filings(&filter, all())
                .await
                .unwrap()
                .items
                .into_iter()
                .map(|f| f.id)
                .collect::<Vec<_>>()
        }
    };
    let unfiled = ids(FilingStatus::Unfiled).await;
    assert!(unfiled.len() >= 2);
    let filed = ids(FilingStatus::Filed).await[0].clone();

    let result = client(&sandbox, OLD)
        .bulk_approve_filings(&[unfiled[0].clone(), filed.clone(), "file_nowhere".into()])
        .await
        .unwrap();
    assert_eq!(result.job_id, None);
    let r = &result.results;
    assert_eq!(r.len(), 3);
    assert_eq!(
        (r[0].filing_id.as_str(), r[0].status.as_deref(), &r[0].error),
        (unfiled[0].as_str(), Some("FILING"), &None)
    );
    assert_eq!(r[1].status.as_deref(), Some("FILED"));
    assert_eq!(
        r[1].error.as_ref().map(|e| e.code.as_str()),
        Some("conflict")
    );
    assert_eq!(
        r[2].error.as_ref().map(|e| e.code.as_str()),
        Some("not_found")
    );
    let approved = new.get_filing(&unfiled[0]).await.unwrap();
    assert_eq!(approved.status, Some(FilingStatus::Filing));

    let result = new
        .bulk_pause_filings(&[unfiled[1].clone(), unfiled[0].clone()])
        .await
        .unwrap();
    assert_eq!(result.results[0].status.as_deref(), Some("PAUSED"));
    assert!(result.results[0].error.is_none());
    assert_eq!(
        result.results[1].error.as_ref().map(|e| e.code.as_str()),
        Some("conflict")
    );
    assert_eq!(
        new.get_filing(&unfiled[1]).await.unwrap().status,
        Some(FilingStatus::Paused)
    );
    sandbox.stop().await;
}
