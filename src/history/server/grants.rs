//! The README's grants for a team, run on a fresh database of the test server, and what each
//! role may then do: the dashboards' role records and completes its own entries and may not
//! change or remove anyone's; the auditor's role reads only.

use std::ffi::OsStr;

use super::testing::{fresh_database, role_url};
use crate::api::{Generation, SentBody, WriteAnswer, WriteOutcome, WriteSent};
use crate::history::store::Param;
use crate::history::{AuditLog, History, HistoryError, Location};

/// The grants, as the README shows them.
fn readme_grants() -> String {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("<!-- team-grants -->")
        .expect("the README's grants");
    let end = readme.find("<!-- /team-grants -->").expect("their end");
    readme[start..end]
        .lines()
        .filter(|l| !l.starts_with("```") && !l.starts_with("<!--"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn open(url: &str) -> History {
    History::open_at(&Location::parse(OsStr::new(url)).unwrap()).unwrap()
}

/// Runs `sql` on `url` as it is (roles, database owners), on a thread of its own.
fn admin(url: &str, sql: &str) {
    let (url, sql) = (url.to_owned(), sql.to_owned());
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        client.batch_execute(&sql).unwrap();
    })
    .join()
    .unwrap();
}

fn write<'a>() -> WriteSent<'a> {
    WriteSent {
        method: "PATCH",
        path: "/v1/nexus/US-TX",
        resource: "nexus",
        record_id: Some("US-TX"),
        organization: "",
        generation: Generation::V1,
        body: SentBody::None,
    }
}

fn answer() -> WriteAnswer {
    WriteAnswer {
        outcome: WriteOutcome::Ok,
        status: Some(200),
        record_id: None,
        request_id: Some("req_1".into()),
        error: None,
    }
}

fn refused(result: Result<u64, HistoryError>) -> bool {
    matches!(result, Err(HistoryError::Denied { .. }))
}

#[test]
fn a_teams_roles_do_what_the_readme_grants_and_no_more() {
    let Some(url) = fresh_database("grants") else {
        return;
    };
    let database = url.rsplit('/').next().unwrap().to_owned();
    // The README's roles, once per server (other runs of this test may have made them).
    admin(
        &url,
        &format!(
            "DO $$ BEGIN
                 CREATE ROLE taxdash_owner LOGIN;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             DO $$ BEGIN CREATE ROLE taxdash_team NOLOGIN;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             DO $$ BEGIN CREATE ROLE taxdash_auditor NOLOGIN;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             DO $$ BEGIN CREATE ROLE taxdash_test_dana LOGIN IN ROLE taxdash_team;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             DO $$ BEGIN CREATE ROLE taxdash_test_lee LOGIN IN ROLE taxdash_team;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             DO $$ BEGIN CREATE ROLE taxdash_test_alex LOGIN IN ROLE taxdash_auditor;
             EXCEPTION WHEN duplicate_object THEN NULL; END $$;
             ALTER DATABASE {database} OWNER TO taxdash_owner;"
        ),
    );
    let owner = role_url(&url, "taxdash_owner");
    // A role that may not create the schema is told so, in words.
    let early = History::open_at(
        &Location::parse(OsStr::new(&role_url(&url, "taxdash_test_dana"))).unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(early.contains("may not make"), "{early}");
    // The owner's first run makes the schema; then the README's grants.
    drop(open(&owner));
    admin(&owner, &readme_grants());

    let dana = AuditLog::new(open(&role_url(&url, "taxdash_test_dana")));
    let lee = open(&role_url(&url, "taxdash_test_lee"));
    let alex = open(&role_url(&url, "taxdash_test_alex"));

    // Dana records a change and completes it: her own entry.
    let id = dana.record_sent("acme", "orgn_1", &write()).unwrap();
    dana.record_answer(id, &answer()).unwrap();
    let entry = dana.entry(id).unwrap().unwrap();
    assert_eq!(entry.status, Some(200));
    // Another pending entry of hers: Lee may not complete it (no row is his to change).
    let pending = dana.record_sent("acme", "orgn_1", &write()).unwrap();
    let completed = lee
        .exec(
            "UPDATE audit_entries SET outcome = 'ok' WHERE id = ?1",
            &[Param::Int(pending)],
        )
        .unwrap();
    assert_eq!(completed, 0, "Lee completed Dana's entry");
    // Nobody of the team changes an answered entry, removes one, or alters the table.
    let answered = lee
        .exec(
            "UPDATE audit_entries SET outcome = 'refused' WHERE id = ?1",
            &[Param::Int(id)],
        )
        .unwrap();
    assert_eq!(answered, 0);
    assert!(refused(lee.exec(
        "DELETE FROM audit_entries WHERE id = ?1",
        &[Param::Int(id)]
    )));
    assert!(refused(lee.exec(
        "UPDATE audit_entries SET who = 'someone else' WHERE id = ?1",
        &[Param::Int(id)]
    )));
    assert!(refused(
        lee.exec("ALTER TABLE audit_entries DROP COLUMN who", &[])
    ));
    assert!(refused(lee.exec("TRUNCATE audit_entries", &[])));
    let still = dana.entry(id).unwrap().unwrap();
    assert_eq!((still.outcome, still.status), (entry.outcome, entry.status));

    // The team takes and prunes snapshots.
    let mut lee = lee;
    let scope = crate::history::snapshot::Scope {
        profile: "acme".into(),
        organization: "orgn_1".into(),
        api: "v1".into(),
        transactions: None,
    };
    let record = crate::history::snapshot::Record {
        resource: crate::model::Resource::Nexus,
        id: "US-TX".into(),
        body: r#"{"status":"REGISTERED"}"#.into(),
    };
    for _ in 0..2 {
        lee.write_snapshot(&scope, chrono::Utc::now(), std::slice::from_ref(&record))
            .unwrap();
    }
    assert_eq!(lee.prune_snapshots(("acme", "orgn_1"), 1).unwrap(), 1);

    // The auditor reads everything and writes nothing.
    let alex_log = AuditLog::new(alex);
    assert_eq!(
        alex_log
            .entries(&crate::history::audit::Filter::default())
            .unwrap()
            .len(),
        2
    );
    match alex_log.record_sent("acme", "orgn_1", &write()) {
        Err(HistoryError::Denied { .. }) => {}
        other => panic!("the auditor recorded an entry: {other:?}"),
    }
    let mut alex = open(&role_url(&url, "taxdash_test_alex"));
    let err = alex
        .write_snapshot(&scope, chrono::Utc::now(), &[])
        .unwrap_err();
    assert!(matches!(err, HistoryError::Denied { .. }), "{err}");
    assert_eq!(alex.snapshots(None).unwrap().len(), 1);
}
