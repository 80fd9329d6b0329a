//! A team's history on one `PostgreSQL` database: two dashboards and a `watch` at once, each on
//! connections of its own, as three people of a team (and their scheduled `watch`) would run
//! them. Each dashboard is started as `taxdash` starts one on a team's server: its client
//! records every write in the audit log there, and its records' histories, the rows changed
//! since the previous snapshot and `:audit` are read from there.
//!
//! The harness's dashboards have a client without an audit log, so the dashboards here are run
//! by a small driver of their own ([`Seat`]) over the same real loop (`taxdash::app::run`).
//!
//! Needs a test server (`TAXDASH_TEST_POSTGRES`): without one the test says so and passes.

use std::ffi::OsStr;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures::Stream;
use indicatif::ProgressBar;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use taxdash::api::{Client, ClientConfig, CustomerFilter};
use taxdash::app::Stores;
use taxdash::credentials::ApiKey;
use taxdash::history::capture::{Plan, scope_of, take_and_compare};
use taxdash::history::diff::Diff;
use taxdash::history::{History, Location};
use taxdash::model::{Customer, CustomerWrite, PageParams};
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use taxdash::ui::keymap::Keymap;
use taxdash::ui::panes;
use taxdash::ui::shell::{HeaderInfo, Shell};
use taxdash::ui::theme::Theme;
use taxdash::ui::widgets::paged_table::FLAG;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::harness::{DEMO_ANCHOR, SharedBackend, SharedRecorder, TODAY};

/// The profile every process of the team uses here.
const PROFILE: &str = "demo";

/// A plain client of the first demo organization at `base`.
fn client_at(base: &str) -> Client {
    let (org, key) = DEMO_CREDENTIALS[0];
    let config = ClientConfig::new(base.parse().unwrap(), org, ApiKey::new(key).unwrap());
    Client::new(config).unwrap()
}

/// The history on the server database at `url`, on a connection of its own (opened on a
/// blocking thread, as the dashboard opens it).
async fn open(url: &str) -> History {
    let location = Location::parse(OsStr::new(url)).expect("a server's URL");
    assert!(matches!(location, Location::Server(_)), "{location:?}");
    tokio::task::spawn_blocking(move || History::open_at(&location))
        .await
        .unwrap()
        .expect("the test server's history opens")
}

/// One person's dashboard: the real loop on a `TestBackend`, its client recording every write
/// in the team's audit log, its reads of the history on connections of their own.
struct Seat {
    /// The audited client the dashboard sends its writes through.
    client: Client,
    backend: SharedBackend,
    keys: mpsc::UnboundedSender<Event>,
    task: JoinHandle<io::Result<()>>,
}

impl Seat {
    /// The dashboard on the service at `base`, on the Customers tab, with the history at `url`
    /// as `taxdash --history postgres://…` opens it: one connection for the audit log its
    /// client records in (and `:audit` reads), another for the snapshots' reads.
    async fn start(base: &str, url: &str) -> Seat {
        let (org, _) = DEMO_CREDENTIALS[0];
        let (client, log) =
            taxdash::history::audited(&client_at(base), open(url).await, PROFILE, org);
        let stores = Stores::default()
            .with_audit(log)
            .with_history(open(url).await);
        let header = HeaderInfo {
            profile: PROFILE.into(),
            organization: org.into(),
            generation: "v1".into(),
            demo: true,
            read_only: false,
            offline: None,
        };
        let mut shell = Shell::new(panes::all(), Keymap::default(), Theme::default(), header)
            .with_log_path("/tmp/taxdash-test.log")
            .open_on("Customers");
        taxdash::clock::fix_today(Some(TODAY));
        let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(200, 45))));
        let (keys, receiver) = mpsc::unbounded_channel::<Event>();
        let events: std::pin::Pin<Box<dyn Stream<Item = io::Result<Event>> + Send>> =
            Box::pin(futures::stream::unfold(receiver, |mut rx| async move {
                rx.recv().await.map(|e| (Ok(e), rx))
            }));
        let (loop_backend, loop_client) = (backend.clone(), client.clone());
        let task = tokio::spawn(async move {
            let mut terminal = Terminal::new(loop_backend).unwrap();
            let mut platform = SharedRecorder::default();
            taxdash::app::run(
                &mut terminal,
                events,
                &mut shell,
                loop_client,
                stores,
                &mut platform,
            )
            .await
        });
        Seat {
            client,
            backend,
            keys,
            task,
        }
    }

    fn key_with(&self, code: KeyCode, modifiers: KeyModifiers) {
        self.keys
            .send(Event::Key(KeyEvent::new(code, modifiers)))
            .unwrap();
    }

    fn key(&self, code: KeyCode) {
        self.key_with(code, KeyModifiers::NONE);
    }

    fn char(&self, c: char) {
        let modifiers = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        self.key_with(KeyCode::Char(c), modifiers);
    }

    fn type_text(&self, text: &str) {
        text.chars().for_each(|c| self.char(c));
    }

    /// Runs `:text` on the command line.
    fn command(&self, text: &str) {
        self.char(':');
        self.type_text(text);
        self.key(KeyCode::Enter);
    }

    /// The screen as text, one line per row.
    fn screen(&self) -> String {
        let backend = self.backend.0.lock().unwrap();
        let buffer = backend.buffer();
        let area = buffer.area;
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Waits until the screen satisfies `pred`; panics with the screen after ten seconds.
    async fn wait_until(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() <= Duration::from_secs(10),
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, |s| s.contains(text)).await
    }

    /// Quits with `q` and waits for the loop to end.
    async fn quit(self) {
        self.char('q');
        let ended = tokio::time::timeout(Duration::from_secs(5), self.task)
            .await
            .expect("the loop ends on q");
        ended.unwrap().unwrap();
    }
}

/// A snapshot asked of the watch, answered with its id and what changed since the previous.
type Ask = oneshot::Sender<(i64, Option<Diff>)>;

/// The team's `taxdash watch`: its own client and its own connection to the history, taking a
/// snapshot (every list but the transactions) each time it is asked, as `watch` does each
/// `--every`, while the dashboards run.
fn watch(base: &str, mut history: History) -> (mpsc::UnboundedSender<Ask>, JoinHandle<()>) {
    let client = client_at(base);
    let (asks, mut asked) = mpsc::unbounded_channel::<Ask>();
    let task = tokio::spawn(async move {
        let plan = Plan::new(None);
        let scope = scope_of(&client, PROFILE, &plan);
        while let Some(answer) = asked.recv().await {
            let (taken, diff) = take_and_compare(&client, &mut history, &scope, &plan, |_| {
                ProgressBar::hidden()
            })
            .await
            .expect("the watch stores its snapshot");
            let _ = answer.send((taken.id, diff));
        }
    });
    (asks, task)
}

/// Asks the watch for a snapshot; answers its id and the tally of what changed since the
/// previous one (added, removed, changed).
async fn snapshot(watch: &mpsc::UnboundedSender<Ask>) -> (i64, Option<(usize, usize, usize)>) {
    let (answer, answered) = oneshot::channel();
    watch.send(answer).unwrap();
    let (id, diff) = tokio::time::timeout(Duration::from_secs(20), answered)
        .await
        .expect("the watch's snapshot within 20 s")
        .expect("the watch answers");
    let tally = diff.map(|d| {
        let t = d.tally();
        (t.added, t.removed, t.changed)
    });
    (id, tally)
}

/// The screen's line that holds `text`.
fn line_of(screen: &str, text: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_default()
        .to_owned()
}

/// Refreshes the Customers list with `r` (which reads the history again) and waits until the
/// row of `name` is flagged as changed since the previous snapshot (`flagged`) or not.
async fn marks_follow(seat: &Seat, who: &str, name: &str, flagged: bool) -> String {
    seat.char('r');
    let marked = format!("{FLAG} {name}");
    seat.wait_until(
        &format!("{who}: the row of {name} flagged {flagged}"),
        |s| {
            let row = line_of(s, name);
            !row.is_empty() && row.contains(&marked) == flagged
        },
    )
    .await
}

/// The record history (`H`) of the customer on the list's first row, as its title and dated
/// lines, back on the list after.
async fn history_of_first_row(seat: &Seat, id: &str) -> Vec<String> {
    seat.key(KeyCode::Enter);
    seat.wait_for("Tax registrations").await;
    seat.char('H');
    let title = format!("History of customer {id}");
    let screen = seat
        .wait_until(&title, |s| s.contains(&title) && !s.contains("reading…"))
        .await;
    seat.key(KeyCode::Esc);
    seat.key(KeyCode::Esc);
    seat.wait_until("the list again", |s| {
        s.contains("all customers") && !s.contains("Tax registrations")
    })
    .await;
    screen
        .lines()
        .filter(|l| l.contains(&title) || l.contains(" UTC  "))
        .map(|l| {
            l.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_owned()
        })
        .collect()
}

/// The lines of `:audit` once it lists every one of `ids`, then closed.
async fn audit_lines(seat: &Seat, who: &str, ids: &[&str]) -> Vec<String> {
    seat.command("audit");
    let screen = seat
        .wait_until(&format!("{who}: {ids:?} in :audit"), |s| {
            s.contains("Audit log, newest first") && ids.iter().all(|id| s.contains(id))
        })
        .await;
    seat.key(KeyCode::Esc);
    seat.wait_until("the audit log to close", |s| !s.contains("Audit log"))
        .await;
    screen
        .lines()
        .filter(|l| l.contains(" customers "))
        .map(|l| {
            l.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_owned()
        })
        .collect()
}

/// Creates the customer `name` through the dashboard's new-customer form; answers its id, read
/// back from the service.
async fn create_through_the_form(seat: &Seat, name: &str, email: &str) -> String {
    seat.char('n');
    seat.wait_for("new customer").await;
    seat.type_text(name);
    seat.key(KeyCode::Tab);
    seat.key(KeyCode::Tab);
    seat.type_text(email);
    seat.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    seat.wait_for(&format!("Customer {name} created.")).await;
    let filter = CustomerFilter {
        search_query: Some(email.into()),
        ..CustomerFilter::default()
    };
    let found = seat
        .client
        .list_customers(&filter, PageParams::new(1, 10))
        .await
        .unwrap();
    assert_eq!(found.total, 1, "one customer {email}");
    found.items[0].id.clone()
}

/// The customer on the first row of the Customers list.
async fn first_customer(client: &Client) -> Customer {
    client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_dashboards_and_one_watch_at_once_on_one_database() {
    let Some(url) = taxdash::history::server::testing::fresh_database("two dashboards one watch")
    else {
        return;
    };
    let sandbox = Sandbox::start(
        SandboxConfig {
            anchor: Some(DEMO_ANCHOR),
            ..SandboxConfig::default()
        },
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap();
    let base = sandbox.base_url();
    let first = first_customer(&client_at(&base)).await;
    let name = first.name.clone().expect("the first demo customer's name");

    let (a, b) = (
        Seat::start(&base, &url).await,
        Seat::start(&base, &url).await,
    );
    let (watch, watching) = watch(&base, open(&url).await);
    // The watch's first snapshot while both dashboards load their lists.
    assert_eq!(snapshot(&watch).await, (1, None));
    for (seat, who) in [(&a, "A"), (&b, "B")] {
        seat.wait_until(&format!("{who}: the customer list"), |s| {
            s.contains("all customers") && s.contains(&name)
        })
        .await;
    }

    // B keeps `:audit` open while A creates a customer through its form: `R` in B reads it.
    b.command("audit");
    b.wait_for("No change recorded yet").await;
    let added = create_through_the_form(&a, "Team Added", "team-added@example.com").await;
    b.char('R');
    let screen = b
        .wait_until("B: A's write in :audit", |s| s.contains(&added))
        .await;
    let line = line_of(&screen, &added);
    assert!(
        line.contains("ok      200") && line.contains("POST") && line.contains("customers"),
        "{screen}"
    );
    b.key(KeyCode::Esc);
    b.wait_until("B: the audit log to close", |s| !s.contains("Audit log"))
        .await;
    // A change sent by B's client (as a form of B's would send it).
    let changed = CustomerWrite {
        email: Some("team@example.com".into()),
        ..CustomerWrite::default()
    };
    b.client
        .update_customer(&first.id, &changed)
        .await
        .expect("B's change is sent and recorded");

    // The watch's second snapshot holds both.
    assert_eq!(snapshot(&watch).await, (2, Some((1, 0, 1))));
    after_the_second_snapshot(&a, &b, &first.id, &name, &added).await;

    // A third, with nothing changed since: the marks clear in both once read again.
    assert_eq!(snapshot(&watch).await, (3, Some((0, 0, 0))));
    for (seat, who) in [(&a, "A"), (&b, "B")] {
        marks_follow(seat, who, &name, false).await;
    }
    let (in_a, in_b) = (
        history_of_first_row(&a, &first.id).await,
        history_of_first_row(&b, &first.id).await,
    );
    assert!(in_a[0].contains("in 3 of 3 snapshots"), "{in_a:#?}");
    assert_eq!(in_a, in_b, "both dashboards read the same history");

    drop(watch);
    watching.await.unwrap();
    a.quit().await;
    b.quit().await;
    sandbox.stop().await;
}

/// After the watch's second snapshot (one customer added by A's form, the first changed by B):
/// the marks, `H` and `:audit` in both dashboards, without a restart.
async fn after_the_second_snapshot(a: &Seat, b: &Seat, first: &str, name: &str, added: &str) {
    // A is on the detail of the customer it created: `H` names A's write and the snapshot.
    a.char('H');
    let title = format!("History of customer {added}");
    let screen = a
        .wait_until("A: H on its new customer", |s| {
            s.contains(&title) && !s.contains("reading…")
        })
        .await;
    assert!(
        line_of(&screen, &title).contains("in 1 of 2 snapshots"),
        "{screen}"
    );
    assert!(screen.contains("Changes sent through taxdash"), "{screen}");
    assert!(line_of(&screen, "ok      200").contains("POST"), "{screen}");
    assert!(screen.contains("#2  first stored"), "{screen}");
    a.key(KeyCode::Esc);
    a.key(KeyCode::Esc);
    a.wait_until("A: back on the list", |s| {
        s.contains("all customers") && s.contains(name) && !s.contains("History of")
    })
    .await;

    // `Δ` follows the watch's snapshot in both, on `r`.
    for (seat, who) in [(a, "A"), (b, "B")] {
        let screen = marks_follow(seat, who, name, true).await;
        // The added row, when it is in view (the list shows its first rows).
        let row = line_of(&screen, "team-added@example.com");
        assert!(
            row.is_empty() || row.contains(&format!("{FLAG} Team Added")),
            "{who}: the added row is flagged too: {screen}"
        );
    }

    // `H` on the changed customer: the same in both, B's change and both snapshots.
    let (in_a, in_b) = (
        history_of_first_row(a, first).await,
        history_of_first_row(b, first).await,
    );
    assert_eq!(in_a, in_b, "both dashboards read the same history");
    let text = in_a.join("\n");
    assert!(in_a[0].contains("in 2 of 2 snapshots"), "{text}");
    assert!(
        text.contains("#2  Email: ") && text.contains("→ team@example.com"),
        "{text}"
    );
    assert!(text.contains("#1  first stored"), "{text}");
    assert!(
        in_a.iter()
            .any(|l| l.contains("PUT") && l.contains("ok      200")),
        "B's change is listed: {text}"
    );

    // `:audit`: the same two entries in both, newest first.
    let (in_a, in_b) = (
        audit_lines(a, "A", &[added, first]).await,
        audit_lines(b, "B", &[added, first]).await,
    );
    assert_eq!(in_a, in_b, "both dashboards list the same entries");
    assert_eq!(in_a.len(), 2, "{in_a:#?}");
    assert!(
        in_a[0].contains("PUT") && in_a[0].contains(first),
        "{in_a:#?}"
    );
    assert!(
        in_a[1].contains("POST") && in_a[1].contains(added),
        "{in_a:#?}"
    );
}
