//! The imports view on its own: keys and answers in, calls and notices out.

use crate::effect::{ExemptionCall, ExemptionReply};
use crossterm::event::KeyCode;

use super::*;
use crate::effect::{Failure, FailureKind};
use crate::model::Page;
use crate::model::tenanted::CertificateImportStatus;
use crate::ui::pane::Pane;
use crate::ui::skeleton::testing::Fixture;

fn import(id: &str) -> CertificateImport {
    CertificateImport {
        id: id.into(),
        status: CertificateImportStatus::Uploaded,
        exemption_id: None,
        customer_id: Some("cus_1".into()),
        customer_name: Some("Ada".into()),
        file_name: Some("cert.pdf".into()),
        country_code: Some("US".into()),
        jurisdiction: Some("CA".into()),
        exemption_type: None,
        uploaded_at: None,
    }
}

type Harness = Fixture<ImportsPane>;

/// The view showing imports `ids`, all awaiting approval.
fn with_rows(ids: &[&str]) -> Harness {
    let mut h = Fixture::new(ImportsPane::default()).tenanted();
    h.show();
    let (id, call) = h.calls().pop().expect("the first page");
    assert_eq!(
        call,
        Call::Exemptions(ExemptionCall::Imports {
            status: Some(CertificateImportStatus::Uploaded),
            page: crate::model::PageParams::new(1, 100),
        }),
        "awaiting approval by default"
    );
    let rows: Vec<_> = ids.iter().map(|i| import(i)).collect();
    let page = Page::new(rows, ids.len() as u64, 1, 100);
    h.answer(id, Ok(Reply::Exemptions(ExemptionReply::ImportsPage(page))));
    h
}

fn marked(h: &Harness, index: u64) -> bool {
    h.pane
        .parts
        .list
        .table()
        .row(index)
        .is_some_and(|m| m.marked)
}

#[test]
fn two_marked_imports_go_in_one_bulk_approval_of_the_chosen_type() {
    let mut h = with_rows(&["ci_1", "ci_2", "ci_3"]);
    h.action(Action::Mark);
    h.action(Action::Down);
    h.action(Action::Mark);
    assert!(marked(&h, 0) && !marked(&h, 1) && marked(&h, 2));
    assert!(h.pane.subtitle().contains("2 marked"));

    h.action(Action::Approve);
    // CUSTOMER first; Right twice gives TRANSACTION.
    h.press(KeyCode::Right);
    h.press(KeyCode::Right);
    h.press(KeyCode::Enter);
    assert!(
        h.calls().is_empty(),
        "nothing is sent before the confirmation"
    );
    h.press(KeyCode::Char('y'));
    let (id, call) = h.calls().pop().expect("the approval");
    assert_eq!(
        call,
        Call::Exemptions(ExemptionCall::BulkApproveImports {
            body: BulkApproveImports {
                ids: vec!["ci_1".into(), "ci_3".into()],
                exemption_type: Some("TRANSACTION".into()),
            }
        })
    );

    let approved: Vec<_> = ["ci_1", "ci_3"]
        .iter()
        .enumerate()
        .map(|(n, i)| CertificateImport {
            status: CertificateImportStatus::Approved,
            exemption_id: Some(format!("exm_{n}")),
            exemption_type: Some("TRANSACTION".into()),
            ..import(i)
        })
        .collect();
    h.answer(
        id,
        Ok(Reply::Exemptions(ExemptionReply::ImportsApproved(approved))),
    );
    assert!(h.pane.changed_elsewhere(), "the exemptions view reloads");
    let row = &h.pane.parts.list.table().row(2).unwrap().row;
    assert_eq!(row.status, CertificateImportStatus::Approved);
    assert_eq!(row.exemption_id.as_deref(), Some("exm_1"));
    assert!(
        !marked(&h, 0) && !marked(&h, 2),
        "approved rows lose their mark"
    );
    let (level, text) = h.notices.last().unwrap();
    assert_eq!(*level, Level::Success);
    assert!(text.contains("exm_0, exm_1"), "{text}");
}

#[test]
fn one_import_goes_in_the_single_approval_and_a_refusal_keeps_the_marks() {
    let mut h = with_rows(&["ci_1", "ci_2"]);
    // Nothing marked: the selected row.
    h.action(Action::Approve);
    h.press(KeyCode::Enter);
    h.press(KeyCode::Char('y'));
    let (_, call) = h.calls().pop().unwrap();
    assert_eq!(
        call,
        Call::Exemptions(ExemptionCall::ApproveImport {
            id: "ci_1".into(),
            body: ApproveImport {
                exemption_type: Some("CUSTOMER".into())
            }
        }),
        "CUSTOMER by default"
    );

    let mut h = with_rows(&["ci_1", "ci_2"]);
    h.action(Action::Mark);
    h.action(Action::Mark);
    h.action(Action::Approve);
    h.press(KeyCode::Enter);
    h.press(KeyCode::Char('y'));
    let (id, _) = h.calls().pop().unwrap();
    let refusal = Failure {
        kind: FailureKind::Conflict,
        message: "Certificate import ci_2 is not awaiting approval.".into(),
        fields: Vec::new(),
    };
    h.answer(id, Err(refusal));
    assert!(!h.pane.changed_elsewhere());
    assert!(marked(&h, 0) && marked(&h, 1), "nothing lost");
    let (level, text) = h.notices.last().unwrap();
    assert_eq!(*level, Level::Error);
    assert!(text.contains("ci_2 is not awaiting approval"), "{text}");
    assert!(text.contains("marks are kept"), "{text}");
}

#[test]
fn esc_or_no_sends_nothing() {
    let mut h = with_rows(&["ci_1"]);
    h.action(Action::Approve);
    h.press(KeyCode::Esc);
    assert!(!h.pane.captures_text());
    h.action(Action::Approve);
    h.press(KeyCode::Enter);
    h.press(KeyCode::Char('n'));
    assert!(!h.pane.captures_text());
    assert!(h.calls().is_empty());
}

#[test]
fn on_v1_the_view_says_what_it_needs_without_a_call() {
    let mut h = Fixture::new(ImportsPane::default());
    h.show();
    assert!(h.calls().is_empty(), "nothing is asked of the service");
    let why = h
        .pane
        .parts
        .list
        .unavailable()
        .expect("the view's message")
        .to_owned();
    assert!(
        h.screen(80, 10).contains("needs the Tenanted API"),
        "said in the pane"
    );
    assert!(why.contains("needs the Tenanted API"), "{why}");
    h.notices.clear();
    h.action(Action::Approve);
    h.action(Action::Refresh);
    assert!(!h.pane.captures_text(), "no dialog for what cannot be done");
    assert!(h.calls().is_empty());
    assert_eq!(
        h.notices,
        vec![(Level::Error, why.clone()), (Level::Error, why)],
        "each refused key says why"
    );
}

#[test]
fn the_status_filter_reloads_and_forgets_the_marks() {
    let mut h = with_rows(&["ci_1"]);
    h.action(Action::Mark);
    h.action(Action::Filter);
    // UPLOADED is chosen (in force); the cursor on REQUESTED: → PENDING → UPLOADED (space
    // drops it) → APPROVED (space chooses it).
    h.press(KeyCode::Right);
    h.press(KeyCode::Right);
    h.press(KeyCode::Char(' '));
    h.press(KeyCode::Right);
    h.press(KeyCode::Char(' '));
    h.submit();
    let (_, call) = h.calls().pop().unwrap();
    assert!(
        matches!(
            call,
            Call::Exemptions(ExemptionCall::Imports {
                status: Some(CertificateImportStatus::Approved),
                ..
            })
        ),
        "{call:?}"
    );
    assert_eq!(h.pane.parts.list.marked(), 0);
}

#[test]
fn several_statuses_ask_for_every_import_and_keep_those_chosen() {
    let mut h = with_rows(&["ci_1"]);
    h.with(|p, ctx| {
        let filter = ImportFilter {
            status_in: vec![
                CertificateImportStatus::Uploaded,
                CertificateImportStatus::Approved,
            ],
        };
        p.parts.list.apply_filter(filter, ctx);
    });
    let (id, call) = h.calls().pop().unwrap();
    assert!(
        matches!(
            call,
            Call::Exemptions(ExemptionCall::Imports { status: None, .. })
        ),
        "{call:?}"
    );
    let mut approved = import("ci_2");
    approved.status = CertificateImportStatus::Approved;
    let mut rejected = import("ci_3");
    rejected.status = CertificateImportStatus::Other("REJECTED".into());
    let rows = vec![import("ci_1"), approved, rejected];
    h.answer(
        id,
        Ok(Reply::Exemptions(ExemptionReply::ImportsPage(Page::new(
            rows, 3, 1, 100,
        )))),
    );
    let list = &h.pane.parts.list;
    assert_eq!(list.table().total(), Some(2));
    assert_eq!(
        list.subtitle(),
        "certificate imports UPLOADED or APPROVED: 2 of 3 certificate imports checked"
    );
}
