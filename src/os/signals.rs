//! Signals from outside the terminal, as values the event loop and `export` can race against:
//! SIGINT, SIGTERM and SIGHUP end the program (after the terminal is restored, or the partial
//! file removed), SIGTSTP suspends the dashboard, SIGCONT tells it that it runs again.
//!
//! Each listener is installed with tokio's signal handling, so a signal becomes a message in the
//! program's own loop instead of ending the process where it stands.

use std::io;
use std::pin::Pin;

use futures::Stream;

/// A signal the program acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    /// SIGINT (`kill -INT`; Ctrl-C outside raw mode).
    Interrupt,
    /// SIGTERM (`kill`, a service manager, a closing session).
    Terminate,
    /// SIGHUP (the terminal went away).
    HangUp,
    /// SIGTSTP from outside (`kill -TSTP`): suspend, as Ctrl-Z does.
    Suspend,
    /// SIGCONT: running again after a stop.
    Continue,
}

impl Signal {
    /// The signals that end the program.
    pub const ENDING: &'static [Signal] = &[Signal::Interrupt, Signal::Terminate, Signal::HangUp];

    /// Every signal the dashboard listens to.
    pub const DASHBOARD: &'static [Signal] = &[
        Signal::Interrupt,
        Signal::Terminate,
        Signal::HangUp,
        Signal::Suspend,
        Signal::Continue,
    ];

    /// Whether the signal ends the program.
    pub fn ends(self) -> bool {
        Self::ENDING.contains(&self)
    }

    /// The signal's usual name: `SIGTERM`.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::HangUp => "SIGHUP",
            Signal::Suspend => "SIGTSTP",
            Signal::Continue => "SIGCONT",
        }
    }

    /// The signal's number on this platform.
    #[cfg(unix)]
    fn number(self) -> u8 {
        let raw = match self {
            Signal::HangUp => libc::SIGHUP,
            Signal::Interrupt => libc::SIGINT,
            Signal::Terminate => libc::SIGTERM,
            Signal::Suspend => libc::SIGTSTP,
            Signal::Continue => libc::SIGCONT,
        };
        u8::try_from(raw).unwrap_or(0)
    }

    /// The numbers shells use for them.
    #[cfg(not(unix))]
    fn number(self) -> u8 {
        match self {
            Signal::HangUp => 1,
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
            Signal::Suspend => 20,
            Signal::Continue => 18,
        }
    }

    /// The exit status of a program ended by this signal, as shells report it: 128 + its
    /// number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    pub fn exit_code(self) -> u8 {
        128 + self.number()
    }

    /// What happened, for the user: `interrupted`, `terminated (SIGTERM)`.
    pub fn outcome(self) -> String {
        match self {
            Signal::Interrupt => "interrupted".to_owned(),
            Signal::Terminate => "terminated (SIGTERM)".to_owned(),
            Signal::HangUp => "hung up (SIGHUP)".to_owned(),
            other => format!("stopped by {}", other.name()),
        }
    }
}

/// A stream of the signals received, in order.
pub type Signals = Pin<Box<dyn Stream<Item = Signal> + Send>>;

/// Starts listening to `which`. From then on these signals no longer act by default (a SIGTERM
/// no longer ends the process, a SIGTSTP no longer stops it): the caller must act on each one.
#[cfg(unix)]
pub fn listen(which: &[Signal]) -> io::Result<Signals> {
    use tokio::signal::unix::{SignalKind, signal};

    let mut streams = Vec::with_capacity(which.len());
    for &wanted in which {
        let kind = match wanted {
            Signal::Interrupt => SignalKind::interrupt(),
            Signal::Terminate => SignalKind::terminate(),
            Signal::HangUp => SignalKind::hangup(),
            Signal::Suspend => SignalKind::from_raw(libc::SIGTSTP),
            Signal::Continue => SignalKind::from_raw(libc::SIGCONT),
        };
        let listener = signal(kind)?;
        let stream = futures::stream::unfold(listener, move |mut listener| async move {
            listener.recv().await.map(|()| (wanted, listener))
        });
        streams.push(Box::pin(stream) as Signals);
    }
    Ok(Box::pin(futures::stream::select_all(streams)))
}

/// Starts listening to `which`: only Ctrl-C exists outside Unix.
#[cfg(not(unix))]
pub fn listen(which: &[Signal]) -> io::Result<Signals> {
    if !which.contains(&Signal::Interrupt) {
        return Ok(Box::pin(futures::stream::pending()));
    }
    let stream = futures::stream::unfold((), |()| async {
        tokio::signal::ctrl_c()
            .await
            .ok()
            .map(|()| (Signal::Interrupt, ()))
    });
    Ok(Box::pin(stream))
}

/// Stops this process's whole process group, as Ctrl-Z in a cooked terminal would, and returns
/// once it is continued (`fg`, SIGCONT). SIGSTOP is used because SIGTSTP is listened to (see
/// [`listen`]) and so would not stop anything.
#[cfg(unix)]
pub fn stop_process_group() -> io::Result<()> {
    // SAFETY: kill(2) with pid 0 signals the caller's process group; it touches no memory.
    if unsafe { libc::kill(0, libc::SIGSTOP) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// There is no job control outside Unix: nothing to stop.
#[cfg(not(unix))]
pub fn stop_process_group() -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(Signal::Interrupt.exit_code(), 130);
        assert_eq!(Signal::Terminate.exit_code(), 143);
        assert_eq!(Signal::HangUp.exit_code(), 129);
        assert!(Signal::ENDING.iter().all(|s| s.ends()));
        assert!(!Signal::Suspend.ends() && !Signal::Continue.ends());
        assert_eq!(Signal::Interrupt.outcome(), "interrupted");
        assert_eq!(Signal::HangUp.outcome(), "hung up (SIGHUP)");
    }
}
