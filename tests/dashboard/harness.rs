//! Drives the real event loop (`taxdash::app::run`) with scripted keys against the sandbox, on a
//! `TestBackend` the test can read while the loop draws.

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures::Stream;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use taxdash::api::{Client, ClientConfig};
use taxdash::app::Stores;
use taxdash::app::platform::{Platform, PlatformError, Recorder};
pub use taxdash::app::testing::SharedBackend;
use taxdash::credentials::ApiKey;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use taxdash::ui::keymap::Keymap;
use taxdash::ui::panes;
use taxdash::ui::shell::{HeaderInfo, Shell};
use taxdash::ui::theme::Theme;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A platform the test can inspect.
#[derive(Clone, Default)]
pub struct SharedRecorder(pub Arc<Mutex<Recorder>>);

impl Platform for SharedRecorder {
    fn open_url(&mut self, url: &str) -> Result<(), PlatformError> {
        self.0.lock().unwrap().open_url(url)
    }
    fn copy(&mut self, text: &str) -> Result<(), PlatformError> {
        self.0.lock().unwrap().copy(text)
    }
    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError> {
        self.0.lock().unwrap().load_theme(name)
    }
}

pub struct Dashboard {
    pub sandbox: Sandbox,
    pub client: Client,
    pub backend: SharedBackend,
    pub platform: SharedRecorder,
    keys: mpsc::UnboundedSender<Event>,
    task: JoinHandle<io::Result<()>>,
}

pub struct Options {
    pub sandbox: SandboxConfig,
    pub read_only: bool,
    pub size: (u16, u16),
    /// The tab the dashboard opens on: the record panes' tests start on Registrations, the
    /// Overview's where the dashboard itself does.
    pub first_tab: &'static str,
    /// The day the dashboard takes as today (the clock is one per process: a test binary whose
    /// tests run at once keeps [`TODAY`]).
    pub today: chrono::NaiveDate,
    /// The demo organization [`Dashboard::start`] acts as, by its place in `DEMO_CREDENTIALS`
    /// (0: `orgn_demo_1`).
    pub organization: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sandbox: SandboxConfig {
                anchor: Some(DEMO_ANCHOR),
                ..SandboxConfig::default()
            },
            read_only: false,
            size: (140, 40),
            first_tab: "Registrations",
            today: TODAY,
            organization: 0,
        }
    }
}

fn client_for(sandbox: &Sandbox) -> Client {
    client_at(&sandbox.base_url())
}

/// A client of the first demo organization at `base`.
fn client_at(base: &str) -> Client {
    client_of(base, 0)
}

/// A client of demo organization `index` (its place in `DEMO_CREDENTIALS`) at `base`.
fn client_of(base: &str, index: usize) -> Client {
    let (org, key) = DEMO_CREDENTIALS[index];
    let config = ClientConfig::new(base.parse().unwrap(), org, ApiKey::new(key).unwrap());
    Client::new(config).unwrap()
}

/// The day the dashboard takes as today in every test: the demo filings and exemptions are
/// dated (five returns due 2026-11-20 are not filed), so what is overdue or expiring must not
/// depend on the day the tests run.
pub const TODAY: chrono::NaiveDate = match chrono::NaiveDate::from_ymd_opt(2026, 11, 24) {
    Some(day) => day,
    None => panic!("a valid date"),
};

/// The day the sandbox dates its demo data around in every test (nine days before [`TODAY`]), so
/// that the records the screens show do not depend on the day the tests run.
pub const DEMO_ANCHOR: chrono::NaiveDate = taxdash::sandbox::demo_data::DEMO_ANCHOR;

/// The sandbox of `options` on a free loopback port.
async fn sandbox_for(options: &Options) -> Sandbox {
    Sandbox::start(
        anchored(options.sandbox.clone()),
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
    )
    .await
    .unwrap()
}

/// `config` anchored at [`DEMO_ANCHOR`] unless it names another day.
fn anchored(mut config: SandboxConfig) -> SandboxConfig {
    config.anchor = config.anchor.or(Some(DEMO_ANCHOR));
    config
}

impl Dashboard {
    pub async fn start(options: Options) -> Self {
        let sandbox = sandbox_for(&options).await;
        let client = client_of(&sandbox.base_url(), options.organization);
        Self::start_with(sandbox, client, &options)
    }

    /// The dashboard talking to the server `front` starts in front of the sandbox (given the
    /// sandbox's base URL, it answers its own).
    pub async fn start_behind<F, Fut>(options: Options, front: F) -> Self
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = String>,
    {
        let sandbox = sandbox_for(&options).await;
        let client = client_of(&front(sandbox.base_url()).await, options.organization);
        Self::start_with(sandbox, client, &options)
    }

    fn start_with(sandbox: Sandbox, client: Client, options: &Options) -> Self {
        let read_only = options.read_only;
        let header = HeaderInfo {
            profile: "demo".into(),
            organization: DEMO_CREDENTIALS[options.organization].0.into(),
            generation: "v1".into(),
            demo: true,
            read_only,
            offline: None,
        };
        let shell = Shell::new(panes::all(), Keymap::default(), Theme::default(), header)
            .with_log_path("/tmp/taxdash-test.log")
            .open_on(options.first_tab);
        Self::run_loop(sandbox, client, shell, options.size, options.today)
    }

    /// The dashboard as `taxdash --demo` prepares it (its sandbox, its client, its history),
    /// run on the test backend; the directory of the history kept for the session is answered
    /// for the test to hold (it goes with it).
    pub async fn start_as_the_demo(options: &Options) -> (Self, Option<tempfile::TempDir>) {
        let demo = taxdash::app::DashboardOptions {
            demo: true,
            ..taxdash::app::DashboardOptions::default()
        };
        let prepared = taxdash::app::prepare(&demo, None)
            .await
            .expect("the demo starts");
        let sandbox = prepared.sandbox.expect("the demo's sandbox");
        let dashboard = Self::run_loop_with(
            sandbox,
            prepared.client,
            prepared.shell,
            prepared.stores,
            options.size,
            options.today,
        );
        (dashboard, prepared.history_dir)
    }

    /// The dashboard with its client recording every write in `log`, which `:audit` shows.
    pub async fn start_with_audit(options: Options, log: taxdash::history::AuditLog) -> Self {
        let sandbox = sandbox_for(&options).await;
        let client = client_for(&sandbox).with_audit(log.recorder("demo", DEMO_CREDENTIALS[0].0));
        let shell = demo_shell(&options);
        let stores = Stores::default().with_audit(log);
        Self::run_loop_with(sandbox, client, shell, stores, options.size, options.today)
    }

    /// The dashboard on `sandbox` (started by the test) reading records' histories and the
    /// rows changed since the previous snapshot from `history`.
    pub fn start_with_history(
        sandbox: Sandbox,
        history: taxdash::history::History,
        options: &Options,
    ) -> Self {
        let client = client_for(&sandbox);
        let shell = demo_shell(options);
        let stores = Stores::default().with_history(history);
        Self::run_loop_with(sandbox, client, shell, stores, options.size, options.today)
    }

    /// [`Dashboard::start_with_history`] on a sandbox started here, the dashboard talking to the
    /// server `front` starts in front of it (given the sandbox's base URL).
    pub async fn start_with_history_behind<F, Fut>(
        options: Options,
        history: taxdash::history::History,
        front: F,
    ) -> Self
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = String>,
    {
        let stores = Stores::default().with_history(history);
        Self::start_with_stores_behind(options, stores, front).await
    }

    /// The dashboard on a sandbox started here with the runtime's `stores` (the history
    /// database, the filings read ahead), talking to the server `front` starts in front of it
    /// (given the sandbox's base URL).
    pub async fn start_with_stores_behind<F, Fut>(
        options: Options,
        stores: Stores,
        front: F,
    ) -> Self
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = String>,
    {
        let sandbox = sandbox_for(&options).await;
        let client = client_at(&front(sandbox.base_url()).await);
        let shell = demo_shell(&options);
        Self::run_loop_with(sandbox, client, shell, stores, options.size, options.today)
    }

    /// Runs the real loop on `shell` with `client`, drawn on a `TestBackend` of `size`, keys sent
    /// through [`Dashboard::key`] and friends.
    fn run_loop(
        sandbox: Sandbox,
        client: Client,
        shell: Shell,
        size: (u16, u16),
        today: chrono::NaiveDate,
    ) -> Self {
        Self::run_loop_with(sandbox, client, shell, Stores::default(), size, today)
    }

    /// [`Dashboard::run_loop`], the history database read from `stores`.
    fn run_loop_with(
        sandbox: Sandbox,
        client: Client,
        mut shell: Shell,
        stores: Stores,
        size: (u16, u16),
        today: chrono::NaiveDate,
    ) -> Self {
        taxdash::clock::fix_today(Some(today));
        let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(size.0, size.1))));
        let platform = SharedRecorder::default();
        let (keys, receiver) = mpsc::unbounded_channel::<Event>();
        let events: std::pin::Pin<Box<dyn Stream<Item = io::Result<Event>> + Send>> =
            Box::pin(futures::stream::unfold(receiver, |mut rx| async move {
                rx.recv().await.map(|e| (Ok(e), rx))
            }));
        let (loop_backend, loop_client, mut loop_platform) =
            (backend.clone(), client.clone(), platform.clone());
        let task = tokio::spawn(async move {
            let mut terminal = Terminal::new(loop_backend).unwrap();
            taxdash::app::run(
                &mut terminal,
                events,
                &mut shell,
                loop_client,
                stores,
                &mut loop_platform,
            )
            .await
        });
        Dashboard {
            sandbox,
            client,
            backend,
            platform,
            keys,
            task,
        }
    }

    pub fn key(&self, code: KeyCode) {
        self.key_with(code, KeyModifiers::NONE);
    }

    pub fn key_with(&self, code: KeyCode, modifiers: KeyModifiers) {
        self.keys
            .send(Event::Key(KeyEvent::new(code, modifiers)))
            .unwrap();
    }

    pub fn char(&self, c: char) {
        let modifiers = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        self.key_with(KeyCode::Char(c), modifiers);
    }

    /// Empties the focused text field: to its end, then `Ctrl-U`.
    pub fn clear_line(&self) {
        self.key(KeyCode::End);
        self.key_with(KeyCode::Char('u'), KeyModifiers::CONTROL);
    }

    pub fn type_text(&self, text: &str) {
        text.chars().for_each(|c| self.char(c));
    }

    /// Pastes `text` as a terminal with bracketed paste sends it: one event.
    pub fn paste(&self, text: &str) {
        self.keys.send(Event::Paste(text.to_owned())).unwrap();
    }

    pub fn buffer(&self) -> Buffer {
        self.backend.0.lock().unwrap().buffer().clone()
    }

    /// The screen as text, one line per row.
    pub fn screen(&self) -> String {
        let buffer = self.buffer();
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

    /// Waits until the screen satisfies `pred`; panics with the screen after `timeout`.
    pub async fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() <= timeout,
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the Filings list's *Adds up* column has a verdict on every row in view (no
    /// `…` after an amount: the sales of each return's transactions are read as it shows).
    pub async fn wait_filings_checked(&self) -> String {
        self.wait_until("every verdict in view", Duration::from_secs(30), |s| {
            !s.lines()
                .any(|l| ["USD …", "CAD …", "EUR …"].iter().any(|m| l.contains(m)))
        })
        .await
    }

    pub async fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, Duration::from_secs(10), |s| s.contains(text))
            .await
    }

    /// Filters the Registrations list to one state (and to REGISTERED ones when `registered`)
    /// and waits for the single row to load.
    pub async fn filter_to_state(&self, state: &str, registered: bool) {
        self.char('/');
        self.wait_for("Filing frequency").await;
        if registered {
            // The status multi-select's cursor starts on REGISTERED; space chooses it.
            self.char(' ');
        }
        self.key(KeyCode::Tab);
        self.key(KeyCode::Tab);
        self.type_text(state);
        self.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
        self.wait_for(&format!("state {state}")).await;
        self.wait_for("row 1 of 1 ").await;
    }

    /// Quits with `q` and waits for the loop to end.
    pub async fn quit(self) {
        self.char('q');
        let result = tokio::time::timeout(Duration::from_secs(5), self.task)
            .await
            .expect("the loop ends on q");
        result.unwrap().unwrap();
        self.sandbox.stop().await;
    }
}

/// The dashboard on the Tenanted API, as `taxdash --demo --api tenanted` opens it: the partner
/// key reaching both demo organizations, `orgn_demo_1` selected, fresh panes on a switch.
impl Dashboard {
    pub async fn start_tenanted(options: Options) -> Self {
        Self::start_tenanted_behind(options, |target| async move { target }).await
    }

    /// [`start_tenanted`](Self::start_tenanted), the client talking to the sandbox through
    /// what `front` starts in front of it (it gets the sandbox's base URL, answers its own).
    pub async fn start_tenanted_behind<F, Fut>(options: Options, front: F) -> Self
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = String>,
    {
        use taxdash::api::{Generation, Selector};
        use taxdash::sandbox::DEMO_PARTNER_KEY;

        let sandbox = sandbox_for(&options).await;
        let organization = DEMO_CREDENTIALS[0].0;
        let mut config = ClientConfig::new(
            front(sandbox.base_url()).await.parse().unwrap(),
            organization,
            ApiKey::new(DEMO_PARTNER_KEY).unwrap(),
        );
        config.generation = Generation::TENANTED_LATEST;
        config.selector = Selector::Organization(organization.into());
        let client = Client::new(config).unwrap();
        let version = client.generation().api_version().unwrap();
        let header = HeaderInfo {
            profile: "demo".into(),
            organization: organization.into(),
            generation: client.generation().label().into(),
            demo: true,
            read_only: options.read_only,
            offline: None,
        };
        // As the dashboard builds them for a Tenanted key: the Portfolio tab last.
        let tenanted = || {
            panes::with(panes::Settings {
                portfolio: true,
                ..panes::Settings::default()
            })
        };
        let shell = Shell::new(tenanted(), Keymap::default(), Theme::default(), header)
            .with_log_path("/tmp/taxdash-test.log")
            .with_pane_factory(tenanted)
            .with_tenanted(version)
            .open_on(options.first_tab);
        Self::run_loop(sandbox, client, shell, options.size, options.today)
    }

    /// Runs `:text` on the command line.
    pub fn command(&self, text: &str) {
        self.char(':');
        self.type_text(text);
        self.key(KeyCode::Enter);
    }
}

/// The mouse, and a dashboard reading its saved views from a config file.
impl Dashboard {
    /// Sends any terminal event through the loop's event source.
    pub fn event(&self, event: Event) {
        self.keys.send(event).unwrap();
    }

    /// A click of the left button at (`x`, `y`): pressed, then let go.
    pub fn click(&self, x: u16, y: u16) {
        use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Left),
        ] {
            self.event(Event::Mouse(MouseEvent {
                kind,
                column: x,
                row: y,
                modifiers: KeyModifiers::NONE,
            }));
        }
    }

    /// A notch of the wheel at (`x`, `y`), down or up.
    pub fn wheel(&self, down: bool, x: u16, y: u16) {
        use crossterm::event::{MouseEvent, MouseEventKind};
        let kind = if down {
            MouseEventKind::ScrollDown
        } else {
            MouseEventKind::ScrollUp
        };
        self.event(Event::Mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// Where `text` first shows on screen at or below row `from`, as (x, y) in cells.
    pub fn locate(&self, text: &str, from: u16) -> Option<(u16, u16)> {
        let buffer = self.buffer();
        let area = buffer.area;
        let needle: Vec<char> = text.chars().collect();
        for y in from..area.height {
            let cells: Vec<String> = (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            for x in 0..cells.len() {
                if needle
                    .iter()
                    .enumerate()
                    .all(|(i, c)| cells.get(x + i).is_some_and(|s| s.chars().eq([*c])))
                {
                    return Some((x as u16, y));
                }
            }
        }
        None
    }

    /// The dashboard with the saved views (written there too) and the columns of the config
    /// file at `file`.
    pub async fn start_with_views(options: Options, file: std::path::PathBuf) -> Self {
        let sandbox = sandbox_for(&options).await;
        let client = client_for(&sandbox);
        let config = taxdash::config::Config::load(&file).unwrap();
        let shell = demo_shell(&options)
            .with_views(Some(file), config.views)
            .with_columns(config.columns);
        Self::run_loop(sandbox, client, shell, options.size, options.today)
    }
}

/// The dashboard browsing snapshot `id` of `history` offline, as `taxdash --offline` opens it:
/// a frozen sandbox serving the snapshot's records, the client reaching it, the header saying
/// `OFFLINE`. With `writes`, a relay in front of it records every write that reaches it.
impl Dashboard {
    pub async fn start_offline(
        options: Options,
        history: &taxdash::history::History,
        id: i64,
        writes: Option<crate::relay::Writes>,
    ) -> Self {
        use taxdash::history::offline;

        let (snapshot, frozen) = {
            let snapshot = history
                .snapshot(id)
                .unwrap()
                .expect("the snapshot is stored");
            let frozen = offline::frozen(history, &snapshot).unwrap();
            (snapshot, frozen)
        };
        let (sandbox, mut config, header) = taxdash::app::start_offline(frozen, &snapshot, false)
            .await
            .unwrap();
        if let Some(writes) = writes {
            let front = crate::relay::Relay::recording(writes)
                .serve(sandbox.base_url())
                .await;
            config.base_url = front.parse().unwrap();
        }
        let client = Client::new(config).unwrap();
        let shell = Shell::new(panes::all(), Keymap::default(), Theme::default(), header)
            .with_log_path("/tmp/taxdash-test.log")
            .open_on(options.first_tab);
        Self::run_loop(sandbox, client, shell, options.size, options.today)
    }
}

/// The shell of the first demo organization over v1, as `--demo` opens it, on `options`' tab.
fn demo_shell(options: &Options) -> Shell {
    let header = HeaderInfo {
        profile: "demo".into(),
        organization: DEMO_CREDENTIALS[0].0.into(),
        generation: "v1".into(),
        demo: true,
        read_only: options.read_only,
        offline: None,
    };
    Shell::new(panes::all(), Keymap::default(), Theme::default(), header)
        .with_log_path("/tmp/taxdash-test.log")
        .open_on(options.first_tab)
}

/// The paragraph of a dialog on `screen` that starts with the line holding `start`, read whole
/// across the lines the dialog wraps it on (up to the first empty line).
pub fn paragraph(screen: &str, start: &str) -> String {
    let Some(column) = screen
        .lines()
        .find_map(|l| l.split('│').position(|cell| cell.contains(start)))
    else {
        return String::new();
    };
    screen
        .lines()
        .filter_map(|l| l.split('│').nth(column))
        .map(str::trim)
        .skip_while(|l| !l.contains(start))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The wire names on `text`: words in `snake_case` (`final_return_acknowledged`), which a screen
/// for people writes in words.
pub fn wire_names(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.contains('_')
                && !w.starts_with('_')
                && !w.ends_with('_')
                && w.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

/// The number before `label` on the screen (`7 overdue` → 7), `None` for a count that is not
/// a number (`– awaiting approval` on v1).
pub fn count(screen: &str, label: &str) -> Option<u64> {
    for line in screen.lines() {
        let mut from = 0;
        while let Some(at) = line[from..].find(label) {
            let at = from + at;
            let token = line[..at]
                .trim_end()
                .rsplit(|c: char| c.is_whitespace() || c == '│' || c == '·')
                .next()
                .unwrap_or("");
            if let Ok(n) = token.replace(',', "").parse() {
                return Some(n);
            }
            if token == "–" {
                return None;
            }
            from = at + label.len();
        }
    }
    panic!("no count before {label:?} on the screen:\n{screen}");
}

/// The rows of the list on screen once it has settled: `row 1 of N`, or none.
pub fn rows_of(screen: &str) -> Option<u64> {
    if let Some(at) = screen.find("row 1 of ") {
        let digits: String = screen[at + 9..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect();
        return digits.replace(',', "").parse().ok();
    }
    let settled = !screen.contains("loading") && !screen.contains("Reading");
    (settled && screen.lines().any(|l| l.contains("│no "))).then_some(0)
}
