//! The terminal's input as the event loop reads it: crossterm's events, read on a thread of
//! their own, and the end of the terminal, watched on another.
//!
//! crossterm's reader never returns once its terminal is gone: a read that answers end of
//! input (a hung-up terminal) or an error (a closed pseudo-terminal) is tried again at once,
//! forever. Read on the loop's own thread (as its `EventStream` may do), that would stop the
//! loop for good, deaf to signals. So the reader has a thread of its own, and a watcher waits
//! for the terminal to hang up ([`poll(2)`] reports `POLLHUP`, without reading): the stream
//! then ends with an error, the loop ends, and the process exits (which also ends a reader
//! caught in crossterm's loop).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use crossterm::event::Event;
use futures::Stream;
use tokio::sync::{mpsc, oneshot};

/// Events read ahead of the loop at most: a paste typed as keys waits in the terminal.
const READ_AHEAD: usize = 1024;

/// What the stream ends with when the terminal goes away.
pub const GONE: &str = "the terminal went away (it hung up or was closed)";

/// The terminal's events, then one error when it goes away.
pub struct TerminalInput {
    events: mpsc::Receiver<io::Result<Event>>,
    gone: Option<oneshot::Receiver<()>>,
}

impl TerminalInput {
    /// Starts reading the terminal, and watching for its end.
    pub fn start() -> io::Result<TerminalInput> {
        let (sender, events) = mpsc::channel(READ_AHEAD);
        std::thread::Builder::new()
            .name("terminal input".into())
            .spawn(move || {
                loop {
                    let event = crossterm::event::read();
                    let failed = event.is_err();
                    if sender.blocking_send(event).is_err() || failed {
                        break;
                    }
                }
            })?;
        let (hung_up, gone) = oneshot::channel();
        watch_hangup(hung_up)?;
        Ok(TerminalInput {
            events,
            gone: Some(gone),
        })
    }
}

impl Stream for TerminalInput {
    type Item = io::Result<Event>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(gone) = self.gone.as_mut()
            && let Poll::Ready(said) = Pin::new(gone).poll(cx)
        {
            self.gone = None;
            if said.is_ok() {
                return Poll::Ready(Some(Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    GONE,
                ))));
            }
        }
        self.events.poll_recv(cx)
    }
}

/// Tells `hung_up` once the terminal hangs up: `poll(2)` on it, asking for no event, wakes
/// only for a hang-up or an error.
#[cfg(unix)]
fn watch_hangup(hung_up: oneshot::Sender<()>) -> io::Result<()> {
    use std::os::fd::AsRawFd;

    // The terminal crossterm reads: standard input when it is one, else /dev/tty.
    // SAFETY: isatty(3) only inspects the descriptor.
    let tty = if unsafe { libc::isatty(libc::STDIN_FILENO) } == 1 {
        None
    } else {
        Some(std::fs::File::open("/dev/tty")?)
    };
    std::thread::Builder::new()
        .name("terminal hang-up".into())
        .spawn(move || {
            let fd = tty.as_ref().map_or(libc::STDIN_FILENO, AsRawFd::as_raw_fd);
            loop {
                let mut watched = libc::pollfd {
                    fd,
                    events: 0,
                    revents: 0,
                };
                // SAFETY: poll(2) on one pollfd through a valid pointer; no timeout.
                let ready = unsafe { libc::poll(&raw mut watched, 1, -1) };
                if ready < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                // A descriptor poll(2) cannot watch (macOS answers POLLNVAL for terminals), or
                // a failed poll: nothing is watched, the reader's own errors still end.
                if ready < 0 || watched.revents & libc::POLLNVAL != 0 {
                    tracing::debug!("the terminal's hang-up is not watched");
                    return;
                }
                if watched.revents & (libc::POLLHUP | libc::POLLERR) != 0 {
                    let _ = hung_up.send(());
                    return;
                }
            }
        })?;
    Ok(())
}

/// Elsewhere the reader's own errors end the stream.
#[cfg(not(unix))]
fn watch_hangup(hung_up: oneshot::Sender<()>) -> io::Result<()> {
    drop(hung_up);
    Ok(())
}
