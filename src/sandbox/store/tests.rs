//! The store against its database: what is saved reads back as it was in memory.

use super::*;

fn vault(dir: &std::path::Path) -> Vault {
    Vault::new(Some(&dir.join("state.db")))
}

/// The organizations' records and transaction changes, comparable.
fn snapshot(store: &Store) -> Vec<(DemoOrg, Changes, u64)> {
    store
        .orgs()
        .iter()
        .map(|o| {
            let d = o.read();
            (d.demo.clone(), d.transactions.changes(), d.next_id)
        })
        .collect()
}

fn open(dir: &std::path::Path) -> Store {
    let anchor = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
    Store::open(42, 1, anchor, Some(dir.join("state.db")), &vault(dir)).unwrap()
}

#[test]
fn a_new_database_reads_back_as_generated_with_every_secret_sealed() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let first = snapshot(&store);
    drop(store);
    let again = open(dir.path());
    assert_eq!(snapshot(&again), first);
    let data = again.orgs()[0].read();
    assert!(!data.demo.secrets.is_empty());
    assert!(
        data.demo
            .secrets
            .iter()
            .all(|(_, _, v)| v.starts_with("v1."))
    );
    assert!(
        data.demo
            .tenanted
            .security_questions
            .iter()
            .flat_map(|(_, q)| q)
            .all(|q| q.answer.starts_with("v1."))
    );
}

#[test]
fn touched_records_are_saved_and_removed_ones_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    {
        let org = &store.orgs()[1];
        let mut data = org.write();
        let id = data.new_id("cust");
        let mut customer = data.demo.customers[0].clone();
        customer.id = id.clone();
        customer.name = Some("Saved one by one".into());
        data.demo.customers.push(customer);
        data.touch(Kind::Customer, id);
        let gone = data.demo.physical_nexus.remove(0).id;
        data.touch(Kind::PhysicalNexus, gone);
        data.demo.filings[2].status = Some(crate::model::FilingStatus::Paused);
        let filing = data.demo.filings[2].id.clone();
        data.touch(Kind::Filing, filing);
    }
    store.users().push(DirectoryUser {
        organization_id: "orgn_demo_2".into(),
        id: "user_2new00003".into(),
        email: "new@example.com".into(),
        role: "MEMBER".into(),
        status: "INVITED".into(),
    });
    store.save().unwrap();
    let saved = snapshot(&store);
    let users = store.users().clone();
    drop(store);
    let again = open(dir.path());
    assert_eq!(snapshot(&again), saved);
    assert_eq!(*again.users(), users);
}

#[test]
fn an_untouched_change_is_not_saved() {
    // The contract the handlers keep: what is not named is not written.
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let before = snapshot(&store);
    store.orgs()[0].write().demo.customers[0].name = Some("never named".into());
    store.save().unwrap();
    drop(store);
    assert_eq!(snapshot(&open(dir.path())), before);
}

#[test]
fn a_resumed_state_keeps_the_anchor_its_records_were_made_with() {
    let dir = tempfile::tempdir().unwrap();
    let first = open(dir.path());
    let made = snapshot(&first);
    drop(first);
    let later = NaiveDate::from_ymd_opt(2027, 2, 27).unwrap();
    let path = Some(dir.path().join("state.db"));
    let again = Store::open(42, 1, later, path, &vault(dir.path())).unwrap();
    assert_eq!(snapshot(&again), made);
    let anchor = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
    for org in again.orgs() {
        assert_eq!(org.read().transactions.anchor(), anchor);
    }
    // A new state made on the later day has its records dated from it.
    let fresh = tempfile::tempdir().unwrap();
    let path = Some(fresh.path().join("state.db"));
    let other = Store::open(42, 1, later, path, &vault(fresh.path())).unwrap();
    assert_ne!(snapshot(&other), made);
    assert_eq!(other.orgs()[0].read().transactions.anchor(), later);
}

#[cfg(unix)]
#[test]
fn a_new_database_is_readable_by_its_owner_only_like_its_key_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    drop(open(dir.path()));
    let mode = std::fs::metadata(dir.path().join("state.db"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}
