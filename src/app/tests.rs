//! The loop's answers to signals and Ctrl-Z, on a `TestBackend` with a platform that records.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures::{Stream, StreamExt, stream};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Cell;
use url::Url;

use super::platform::{Platform, PlatformError, Recorder};
use super::{Ended, run_with_signals};
use crate::api::{Client, ClientConfig, RetryPolicy};
use crate::credentials::ApiKey;
use crate::os::signals::Signal;
use crate::ui::keymap::Keymap;
use crate::ui::panes;
use crate::ui::shell::{HeaderInfo, Shell};
use crate::ui::theme::{Theme, ThemeFiles};

/// A backend the test keeps a handle on, so a "suspend" can change the terminal's size.
type Shared = super::testing::SharedBackend;

/// A platform that records, and whose suspend resizes the terminal (the user resized the window
/// while the dashboard was stopped).
struct Resizing {
    recorder: Recorder,
    backend: Shared,
    size: (u16, u16),
}

impl Platform for Resizing {
    fn open_url(&mut self, url: &str) -> Result<(), PlatformError> {
        self.recorder.open_url(url)
    }
    fn copy(&mut self, text: &str) -> Result<(), PlatformError> {
        self.recorder.copy(text)
    }
    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError> {
        self.recorder.load_theme(name)
    }
    fn suspend(&mut self) -> std::io::Result<()> {
        self.backend
            .0
            .lock()
            .unwrap()
            .resize(self.size.0, self.size.1);
        self.recorder.suspend()
    }
    fn reenter(&mut self) -> std::io::Result<()> {
        self.recorder.reenter()
    }
}

fn shell() -> Shell {
    let header = HeaderInfo {
        profile: "test".into(),
        organization: "orgn_test".into(),
        generation: "v1".into(),
        demo: true,
        read_only: true,
        offline: None,
    };
    let theme = Theme::select(None, true, false, None::<&dyn ThemeFiles>).unwrap();
    Shell::new(panes::all(), Keymap::default(), theme, header).open_on("Registrations")
}

/// A client of a port nothing listens on: every call fails at once.
fn client() -> Client {
    let mut config = ClientConfig::new(
        Url::parse("http://127.0.0.1:9").unwrap(),
        "orgn_test",
        ApiKey::new("k").unwrap(),
    );
    config.retry = RetryPolicy::never();
    config.rate_limit_per_min = None;
    Client::new(config).unwrap()
}

fn keys(events: Vec<Event>) -> impl Stream<Item = std::io::Result<Event>> + Unpin {
    // The keys, then silence: the loop must be ended by something else.
    Box::pin(stream::iter(events.into_iter().map(Ok)).chain(stream::pending()))
}

/// `signals`, each after `delay`.
fn later(signals: Vec<Signal>, delay: Duration) -> impl Stream<Item = Signal> + Unpin {
    Box::pin(stream::iter(signals).then(move |s| async move {
        tokio::time::sleep(delay).await;
        s
    }))
}

fn ctrl(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

async fn run(
    events: Vec<Event>,
    signals: Vec<Signal>,
    platform: &mut dyn Platform,
    backend: Shared,
) -> Ended {
    let mut terminal = Terminal::new(backend).unwrap();
    let mut shell = shell();
    let run = run_with_signals(
        &mut terminal,
        keys(events),
        later(signals, Duration::from_millis(150)),
        &mut shell,
        client(),
        super::Stores::default(),
        platform,
    );
    tokio::time::timeout(Duration::from_secs(10), run)
        .await
        .expect("the loop ends")
        .expect("without an error")
}

fn backend(cols: u16, rows: u16) -> Shared {
    super::testing::SharedBackend(Arc::new(Mutex::new(TestBackend::new(cols, rows))))
}

#[tokio::test]
async fn each_ending_signal_ends_the_loop_whatever_is_on_screen() {
    for signal in Signal::ENDING {
        let mut platform = Recorder::default();
        // A form with input open: `q` would ask first; a signal does not.
        let typing = vec![Event::Key(KeyEvent::from(KeyCode::Char('/')))];
        let ended = run(typing, vec![*signal], &mut platform, backend(100, 30)).await;
        assert_eq!(ended, Ended::Signal(*signal));
        assert_eq!(platform.suspended, 0);
    }
}

#[tokio::test]
async fn ctrl_z_and_sigtstp_suspend_then_everything_is_drawn_at_the_new_size() {
    let shared = backend(100, 30);
    let mut platform = Resizing {
        recorder: Recorder::default(),
        backend: shared.clone(),
        size: (80, 24),
    };
    let ended = run(
        vec![ctrl('z')],
        vec![Signal::Suspend, Signal::Continue, Signal::Terminate],
        &mut platform,
        shared.clone(),
    )
    .await;
    assert_eq!(ended, Ended::Signal(Signal::Terminate));
    assert_eq!(platform.recorder.suspended, 2, "Ctrl-Z, then SIGTSTP");
    assert_eq!(platform.recorder.reentered, 1, "SIGCONT");
    let buffer = shared.0.lock().unwrap().buffer().clone();
    assert_eq!((buffer.area.width, buffer.area.height), (80, 24));
    let text: String = buffer.content.iter().map(Cell::symbol).collect();
    assert!(text.contains("Registrations"), "drawn again: {text}");
}

/// A terminal that hung up: taking it back fails, as writing to it does.
struct HungUp(Recorder);

impl Platform for HungUp {
    fn open_url(&mut self, url: &str) -> Result<(), PlatformError> {
        self.0.open_url(url)
    }
    fn copy(&mut self, text: &str) -> Result<(), PlatformError> {
        self.0.copy(text)
    }
    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError> {
        self.0.load_theme(name)
    }
    fn reenter(&mut self) -> std::io::Result<()> {
        Err(std::io::Error::other("Input/output error (os error 5)"))
    }
}

#[tokio::test]
async fn sigcont_heard_before_sighup_on_a_hung_up_terminal_ends_as_the_terminal_gone() {
    // A hang-up sends SIGCONT beside SIGHUP; heard first, it must not end the program as an
    // error (exit 1) because the terminal cannot be taken back.
    let mut platform = HungUp(Recorder::default());
    let ended = run(
        Vec::new(),
        vec![Signal::Continue, Signal::HangUp],
        &mut platform,
        backend(80, 24),
    )
    .await;
    assert_eq!(ended, Ended::TerminalGone);
}

#[tokio::test]
async fn the_events_running_out_is_not_a_signal() {
    let mut platform = Recorder::default();
    let mut terminal = Terminal::new(backend(80, 24)).unwrap();
    let mut shell = shell();
    let ended = run_with_signals(
        &mut terminal,
        stream::iter(vec![Ok(ctrl('z'))]),
        stream::pending(),
        &mut shell,
        client(),
        super::Stores::default(),
        &mut platform,
    )
    .await
    .unwrap();
    assert_eq!(ended, Ended::EventsEnded);
    assert_eq!(platform.suspended, 1);
}

/// A service that takes the connection and the request, then never answers.
async fn silent_service() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 4096];
            let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut buf).await;
            held.push(socket);
        }
    });
    port
}

fn screen(backend: &Shared) -> Vec<String> {
    let buffer = backend.0.lock().unwrap().buffer().clone();
    let width = usize::from(buffer.area.width);
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(Cell::symbol).collect())
        .collect()
}

#[tokio::test]
async fn the_footer_says_each_retry_of_a_silent_service_and_esc_stops_the_wait_at_once() {
    let port = silent_service().await;
    let mut config = ClientConfig::new(
        Url::parse(&format!("http://127.0.0.1:{port}")).unwrap(),
        "orgn_test",
        ApiKey::new("k").unwrap(),
    );
    config.request_timeout = Duration::from_millis(300);
    config.retry = RetryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_millis(10),
        max_wait: Duration::from_secs(1),
    };
    config.rate_limit_per_min = None;
    let client = Client::new(config).unwrap();
    let shared = backend(100, 30);
    let mut terminal = Terminal::new(shared.clone()).unwrap();
    let mut shell = shell();
    let mut platform = Recorder::default();
    let (keys, events) = futures::channel::mpsc::unbounded::<std::io::Result<Event>>();
    let run = run_with_signals(
        &mut terminal,
        events,
        stream::pending(),
        &mut shell,
        client.clone(),
        super::Stores::default(),
        &mut platform,
    );
    let drive = async {
        let started = std::time::Instant::now();
        let footer = loop {
            let rows = screen(&shared);
            let footer = rows.last().unwrap().clone();
            if footer.contains("trying again, 2 of 4") {
                break footer;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "no retry said: {rows:#?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(
            footer.starts_with(" no answer for 0.3 s, trying again, 2 of 4  Esc stop waiting"),
            "{footer}"
        );
        keys.unbounded_send(Ok(Event::Key(KeyEvent::from(KeyCode::Esc))))
            .unwrap();
        tokio::time::sleep(Duration::from_millis(150)).await;
        // Counted once Esc was handled: an attempt already on its way when the key arrived
        // is not one made after it.
        let sent = client.stats().requests;
        let rows = screen(&shared);
        let text = rows.join("\n");
        assert!(
            !rows.last().unwrap().contains("trying again"),
            "the footer is back to its keys: {text}"
        );
        assert!(
            text.contains("Stopped waiting: the service did not answer (1 attempt made)."),
            "{text}"
        );
        assert!(!text.contains("loading registrations"), "{text}");
        // No attempt after Esc: the call was dropped, not left to run out its attempts.
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(client.stats().requests, sent, "{text}");
        drop(keys);
    };
    let (ended, ()) =
        tokio::time::timeout(Duration::from_secs(15), async { tokio::join!(run, drive) })
            .await
            .expect("the test ends");
    assert_eq!(ended.unwrap(), Ended::EventsEnded);
}

#[test]
fn a_signal_ends_the_loop_while_terminal_events_keep_coming() {
    // The loop runs on a thread of its own, so that a loop that never listens again fails the
    // test instead of hanging it.
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let ended = runtime.block_on(async {
            let mut platform = Recorder::default();
            let mut terminal = Terminal::new(backend(80, 24)).unwrap();
            let mut shell = shell();
            // A terminal that never stops sending (a paste typed as keys).
            let flood = stream::repeat_with(|| Ok(Event::Key(KeyEvent::from(KeyCode::Char('j')))));
            run_with_signals(
                &mut terminal,
                flood,
                later(vec![Signal::Terminate], Duration::from_millis(150)),
                &mut shell,
                client(),
                super::Stores::default(),
                &mut platform,
            )
            .await
            .unwrap()
        });
        let _ = done.send(ended);
    });
    let ended = ended
        .recv_timeout(Duration::from_secs(10))
        .expect("the signal is heard while events keep coming");
    assert_eq!(ended, Ended::Signal(Signal::Terminate));
}

#[tokio::test]
async fn a_terminal_whose_input_fails_ends_the_loop() {
    let mut platform = Recorder::default();
    let mut terminal = Terminal::new(backend(80, 24)).unwrap();
    let mut shell = shell();
    let gone = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, super::input::GONE);
    let events = stream::iter(vec![Ok(ctrl('l')), Err(gone)]).chain(stream::pending());
    let run = run_with_signals(
        &mut terminal,
        Box::pin(events),
        stream::pending(),
        &mut shell,
        client(),
        super::Stores::default(),
        &mut platform,
    );
    let ended = tokio::time::timeout(Duration::from_secs(10), run)
        .await
        .expect("the loop ends")
        .expect("as an ending, not an error");
    assert_eq!(ended, Ended::TerminalGone);
}
