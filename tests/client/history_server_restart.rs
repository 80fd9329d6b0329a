//! The audit log on a team's `PostgreSQL` server that crashes and comes back, while the client
//! sends real writes to the sandbox over loopback HTTP: a write the history cannot record is not
//! sent, the history connects again by itself once the server is back, nothing acknowledged is
//! lost, and a snapshot staged across the crash is not stored half.
//!
//! Runs only with the restartable test server (see `taxdash::history::server::testing`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::time::{Duration, Instant};

use chrono::Utc;
use taxdash::api::{Client, CustomerFilter};
use taxdash::history::audit::{Entry, Filter, Outcome};
use taxdash::history::server::connect::DEFAULT_CONNECT_TIMEOUT;
use taxdash::history::server::store::ANSWER_WITHIN;
use taxdash::history::server::testing::{self, Restartable};
use taxdash::history::snapshot::{Record, Scope, hash_of};
use taxdash::history::{AuditLog, History, Location};
use taxdash::model::{CustomerWrite, PageParams, Resource};
use taxdash::sandbox::SandboxConfig;

use crate::common::{ORG1, config, sandbox_with};

/// What every customer this test makes carries in its external id.
const MARK: &str = "restart-probe-";
/// Writes before the kill, and while the server is down.
const BEFORE: usize = 5;
const WHILE_DOWN: usize = 3;
/// Writes that must succeed once the history has recovered.
const AFTER: usize = 5;
/// How long the history may take to recover after the server is back.
const RECOVERY: Duration = Duration::from_secs(30);

/// Where a write was attempted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Before,
    Down,
    Restarted,
}

/// One write attempted: its customer's name, and the customer's id when it was sent and
/// answered, or the error in words.
#[derive(Debug)]
struct Attempt {
    phase: Phase,
    name: String,
    result: Result<String, String>,
    took: Duration,
}

/// Kills (`true`) or restarts the server, off the runtime's workers: how long it took.
async fn crash_or_restart(server: &Restartable, kill: bool) -> Duration {
    let server = server.clone();
    let started = Instant::now();
    tokio::task::spawn_blocking(move || {
        if kill {
            server.kill();
        } else {
            server.restart();
        }
    })
    .await
    .expect("the server's script ran");
    started.elapsed()
}

/// The server while this test has it down: started again should the test fail before it does,
/// so that the tests after it find it running.
struct Down<'a>(Option<&'a Restartable>);

impl Drop for Down<'_> {
    fn drop(&mut self) {
        if let Some(server) = self.0.take() {
            server.restart();
        }
    }
}

/// Creates customer number `n` through `client`.
async fn write(client: &Client, phase: Phase, n: usize) -> Attempt {
    let name = format!("Restart Probe {n:02}");
    let started = Instant::now();
    let result = client
        .create_customer(&CustomerWrite {
            name: Some(name.clone()),
            external_id: Some(format!("{MARK}{n:02}")),
            ..CustomerWrite::default()
        })
        .await
        .map(|c| c.id)
        .map_err(|e| e.to_string());
    Attempt {
        phase,
        name,
        result,
        took: started.elapsed(),
    }
}

/// Asserts that `attempt` was refused because the history at `place` could not record it.
fn assert_refused_for_the_history(attempt: &Attempt, place: &str) {
    let Err(error) = &attempt.result else {
        panic!(
            "{} was sent while the history's server was down ({:?})",
            attempt.name, attempt.phase
        );
    };
    assert!(
        error.contains("the audit log could not record it") && error.contains(place),
        "{}: the error does not say the history at {place} refused it: {error}",
        attempt.name
    );
}

/// Every customer of the sandbox this test made: name → id.
async fn made_in_sandbox(client: &Client) -> BTreeMap<String, String> {
    let filter = CustomerFilter {
        search_query: Some(MARK.to_owned()),
        ..CustomerFilter::default()
    };
    let page = client
        .list_customers(&filter, PageParams::new(1, PageParams::MAX_SIZE))
        .await
        .expect("the sandbox lists its customers");
    assert!(
        page.total < u64::from(PageParams::MAX_SIZE),
        "one page holds them all"
    );
    page.items
        .into_iter()
        .filter(|c| {
            c.external_id
                .as_deref()
                .is_some_and(|x| x.starts_with(MARK))
        })
        .map(|c| (c.name.unwrap_or_default(), c.id))
        .collect()
}

fn records(names: &[&str]) -> Vec<(Record, [u8; 32])> {
    names
        .iter()
        .map(|id| {
            let body = format!(r#"{{"id":"{id}"}}"#);
            let hash = hash_of(&body);
            (
                Record {
                    resource: Resource::Customers,
                    id: (*id).to_owned(),
                    body,
                },
                hash,
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_survive_a_history_server_crash_unrecorded_never_sent_acknowledged_never_lost() {
    let Some(server) = testing::restartable() else {
        return;
    };
    let started = Instant::now();
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let plain = Client::new(config(&sandbox.base_url(), ORG1.0, ORG1.1)).expect("client builds");
    let url = server.fresh_database("history server restart");
    let location = Location::parse(OsStr::new(&url)).expect("a server's URL");
    let history = History::open_at(&location).expect("the history opens on the server");
    let (client, log) = taxdash::history::audited(&plain, history, "restart", ORG1.0);
    let place = log.place().to_string();
    // A second history on the same server, for a snapshot staged across the crash.
    let mut snapshots = History::open_at(&location).expect("a second history opens");
    let scope = Scope {
        profile: "restart".into(),
        organization: ORG1.0.into(),
        api: "v1".into(),
        transactions: None,
    };

    let mut attempts = Vec::new();
    let mut n = 0;
    for _ in 0..BEFORE {
        n += 1;
        let attempt = write(&client, Phase::Before, n).await;
        assert!(attempt.result.is_ok(), "before the crash: {attempt:?}");
        attempts.push(attempt);
    }
    snapshots.begin_staged_snapshot().expect("staging begins");
    snapshots
        .stage_records(&records(&["cus_staged_1", "cus_staged_2"]))
        .expect("a first page is staged");

    // The server crashes: every write is refused, quickly, and names the history.
    let killing = crash_or_restart(&server, true).await;
    let mut down = Down(Some(&server));
    for _ in 0..WHILE_DOWN {
        n += 1;
        let attempt = write(&client, Phase::Down, n).await;
        assert_refused_for_the_history(&attempt, &place);
        let error = attempt.result.as_ref().unwrap_err();
        assert!(
            error.contains("does not answer"),
            "a server that is down is told as one that does not answer: {error}"
        );
        assert!(
            attempt.took <= DEFAULT_CONNECT_TIMEOUT + Duration::from_secs(2)
                && attempt.took < ANSWER_WITHIN,
            "a write took {:?} to be refused",
            attempt.took
        );
        attempts.push(attempt);
    }
    let staging_down = snapshots.stage_records(&records(&["cus_staged_3"]));
    assert!(
        staging_down
            .as_ref()
            .is_err_and(taxdash::history::HistoryError::is_unreachable),
        "staging while the server is down: {staging_down:?}"
    );

    // The server is back: the same client and history write again, no history opened anew.
    down.0 = None;
    let restarting = crash_or_restart(&server, false).await;
    let back = Instant::now();
    let mut ok_after = 0;
    while ok_after < AFTER {
        assert!(
            back.elapsed() < RECOVERY,
            "the history did not recover within {RECOVERY:?} of the server's restart: {:#?}",
            attempts
                .iter()
                .filter(|a| a.phase == Phase::Restarted)
                .collect::<Vec<_>>()
        );
        n += 1;
        let attempt = write(&client, Phase::Restarted, n).await;
        if attempt.result.is_ok() {
            ok_after += 1;
        } else {
            assert_refused_for_the_history(&attempt, &place);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        attempts.push(attempt);
    }
    let recovered_in = back.elapsed();

    // The snapshot staged before the crash lost its staged records with the connection: it is
    // not written, neither whole nor half; one staged anew is.
    let interrupted = match snapshots.write_staged_snapshot(&scope, Utc::now()) {
        Ok(id) => panic!("a snapshot staged across the crash was written, as {id}"),
        Err(e) => e.to_string(),
    };
    assert!(interrupted.contains(&place), "{interrupted}");
    assert_eq!(
        snapshots.snapshots(None).expect("snapshots read"),
        Vec::new(),
        "no snapshot, not even part of one, is stored"
    );
    snapshots.unstage().expect("what was staged is dropped");
    snapshots
        .begin_staged_snapshot()
        .expect("staging begins again");
    snapshots
        .stage_records(&records(&["cus_staged_1", "cus_staged_2", "cus_staged_3"]))
        .expect("staged again");
    let id = snapshots
        .write_staged_snapshot(&scope, Utc::now())
        .expect("a snapshot staged after the restart is written");
    let stored = snapshots.snapshots(None).expect("snapshots read");
    assert_eq!(
        stored.iter().map(|s| (s.id, s.records)).collect::<Vec<_>>(),
        vec![(id, 3)]
    );

    // What the sandbox holds, and what a history opened anew on the server reads.
    let in_sandbox = made_in_sandbox(&plain).await;
    drop((client, log, snapshots));
    let reread = AuditLog::new(History::open_at(&location).expect("the history opens again"));
    let entries: Vec<Entry> = reread
        .entries(&Filter::default())
        .expect("the entries read")
        .into_iter()
        .filter(|e| e.method == "POST" && e.path == "/v1/customers")
        .collect();
    let logged = |name: &str| -> Vec<&Entry> {
        entries
            .iter()
            .filter(|e| e.body["name"].as_str() == Some(name))
            .collect()
    };

    let sent: BTreeMap<&str, &str> = attempts
        .iter()
        .filter_map(|a| Some((a.name.as_str(), a.result.as_deref().ok()?)))
        .collect();
    let refused: BTreeSet<&str> = attempts
        .iter()
        .filter(|a| a.result.is_err())
        .map(|a| a.name.as_str())
        .collect();
    // Nothing sent unrecorded: the sandbox holds exactly the writes acknowledged, each with one
    // entry, answered ok, of its customer.
    let in_sandbox: BTreeMap<&str, &str> = in_sandbox
        .iter()
        .map(|(name, id)| (name.as_str(), id.as_str()))
        .collect();
    assert_eq!(
        in_sandbox, sent,
        "the sandbox holds exactly the writes acknowledged"
    );
    for (name, id) in &in_sandbox {
        let found = logged(name);
        assert_eq!(found.len(), 1, "{name} has one entry: {found:#?}");
        let e = found[0];
        assert_eq!(
            (
                e.outcome,
                e.status,
                e.record_id.as_deref(),
                e.profile.as_str()
            ),
            (Outcome::Ok, Some(200), Some(*id), "restart"),
            "{name}: {e:#?}"
        );
    }
    // Nothing acknowledged lost, nothing refused recorded as if sent.
    for name in &refused {
        assert!(
            !in_sandbox.contains_key(name),
            "{name} was refused yet reached the sandbox"
        );
        assert_eq!(
            logged(name).len(),
            0,
            "{name} was never sent, yet has an entry"
        );
    }
    assert_eq!(
        entries.len(),
        sent.len(),
        "one entry per write sent: {entries:#?}"
    );

    let count = |phase: Phase, ok: bool| {
        attempts
            .iter()
            .filter(|a| a.phase == phase && a.result.is_ok() == ok)
            .count()
    };
    let slowest_refusal = attempts
        .iter()
        .filter(|a| a.result.is_err())
        .map(|a| a.took)
        .max()
        .unwrap_or_default();
    println!(
        "sent ok before the kill: {}; refused while down: {}; refused after the restart: {}; \
         ok after the restart: {}; kill took {killing:?}, restart {restarting:?}, recovered \
         {recovered_in:?} after it; slowest refusal {slowest_refusal:?}; all in {:?}; the interrupted snapshot: \
         {interrupted}",
        count(Phase::Before, true),
        count(Phase::Down, false),
        count(Phase::Restarted, false),
        count(Phase::Restarted, true),
        started.elapsed()
    );
    sandbox.stop().await;
}
