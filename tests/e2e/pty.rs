//! A pseudo-terminal running the taxdash binary, and a terminal emulator reading its output.
//! The test may also close the terminal under the program ([`Pty::hang_up`]), as a closed
//! window or a dropped SSH connection does, even while a paste is still being sent.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};

pub struct Pty {
    /// The terminal's side: `None` once hung up.
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    child: Box<dyn Child + Send + Sync>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    /// Tells the reader, and a flood being sent, to let go of their descriptors.
    closing: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

/// A copy of the terminal's descriptor `fd`, closed when dropped.
fn copy_of(fd: std::os::fd::RawFd) -> std::fs::File {
    // SAFETY: dup(2) of an open descriptor; the copy is owned by the File made of it.
    let copy = unsafe { libc::dup(fd) };
    assert!(copy >= 0, "dup: {}", std::io::Error::last_os_error());
    unsafe { std::fs::File::from_raw_fd(copy) }
}

/// Waits up to 50 ms for `events` on `file`; answers the events that came (`POLLHUP` and
/// `POLLERR` come unasked).
fn wait_for_ready(file: &std::fs::File, events: libc::c_short) -> libc::c_short {
    let mut watched = libc::pollfd {
        fd: file.as_raw_fd(),
        events,
        revents: 0,
    };
    // SAFETY: poll(2) on one pollfd through a valid pointer.
    match unsafe { libc::poll(&raw mut watched, 1, 50) } {
        n if n > 0 => watched.revents,
        _ => 0,
    }
}

impl Pty {
    /// Starts `taxdash ARGS` in a `cols`×`rows` terminal, with its state and config kept under
    /// `home` (never the user's own).
    pub fn spawn(args: &[&str], cols: u16, rows: u16, home: &Path) -> Pty {
        Self::spawn_with_env(args, cols, rows, home, &[])
    }

    /// The same, with extra environment variables.
    pub fn spawn_with_env(
        args: &[&str],
        cols: u16,
        rows: u16,
        home: &Path,
        env: &[(&str, &str)],
    ) -> Pty {
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_taxdash"));
        command.args(args);
        Self::spawn_command(command, cols, rows, home, env)
    }

    /// `taxdash ARGS` run by `sh`, as a user's shell would, followed by what the user would see
    /// of the terminal afterwards: the exit status (`taxdash exited N`), `stty -a`, then one
    /// line read back (`read back: ...`).
    pub fn spawn_under_sh(args: &[&str], cols: u16, rows: u16, home: &Path) -> Pty {
        let script = r#""$0" "$@"; echo "taxdash exited $?"; stty -a; IFS= read -r line; echo "read back: $line""#;
        let mut command = CommandBuilder::new("sh");
        command.arg("-c");
        command.arg(script);
        command.arg(env!("CARGO_BIN_EXE_taxdash"));
        command.args(args);
        Self::spawn_command(command, cols, rows, home, &[])
    }

    fn spawn_command(
        mut command: CommandBuilder,
        cols: u16,
        rows: u16,
        home: &Path,
        env: &[(&str, &str)],
    ) -> Pty {
        let system = native_pty_system();
        let pair = system
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        command.env("TERM", "xterm-256color");
        command.env("HOME", home);
        command.env("XDG_STATE_HOME", home.join("state"));
        command.env("XDG_CONFIG_HOME", home.join("config"));
        command.env("XDG_DATA_HOME", home.join("data"));
        command.env("TAXDASH_LOG", home.join("taxdash.log"));
        command.env_remove("NO_COLOR");
        for (name, value) in env {
            command.env(name, value);
        }
        let child = pair.slave.spawn_command(command).expect("taxdash starts");
        drop(pair.slave);
        let mut reader = copy_of(pair.master.as_raw_fd().expect("a pty descriptor"));
        let writer = pair.master.take_writer().expect("a writer");
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a terminal has rows and columns");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(rows), size(cols), 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, r) = (Arc::clone(&parser), Arc::clone(&raw));
        let closing = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&closing);
        let reading = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while !stop.load(Ordering::SeqCst) {
                if wait_for_ready(&reader, libc::POLLIN) == 0 {
                    continue;
                }
                match reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        p.lock().unwrap().process(&buf[..n]);
                        r.lock().unwrap().extend_from_slice(&buf[..n]);
                    }
                    // The descriptor is non-blocking while a flood is sent.
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(_) => break,
                }
            }
        });
        Pty {
            master: Some(pair.master),
            writer: Some(writer),
            child,
            parser,
            raw,
            closing,
            threads: vec![reading],
        }
    }

    fn master(&self) -> &(dyn MasterPty + Send) {
        self.master.as_deref().expect("the terminal is open")
    }

    /// Starts sending `bytes` as the terminal would (a paste), in the background, while the
    /// test goes on; [`Pty::hang_up`] stops it wherever it is.
    pub fn send_in_background(&mut self, bytes: Vec<u8>) {
        let mut out = copy_of(self.master().as_raw_fd().expect("a pty descriptor"));
        // Non-blocking (for every copy of the descriptor): the flood never waits in a write
        // that a hang-up could not interrupt.
        // SAFETY: fcntl(2) on an open descriptor.
        unsafe {
            let flags = libc::fcntl(out.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(out.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        let stop = Arc::clone(&self.closing);
        self.threads.push(std::thread::spawn(move || {
            let mut rest = &bytes[..];
            while !rest.is_empty() && !stop.load(Ordering::SeqCst) {
                match out.write(rest) {
                    Ok(n) => rest = &rest[n..],
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        wait_for_ready(&out, libc::POLLOUT);
                    }
                    Err(_) => break,
                }
            }
        }));
    }

    /// Closes the terminal under the program, as a closed window or a dropped connection
    /// does: every descriptor of its side is closed, so the program's terminal hangs up.
    pub fn hang_up(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
        for thread in self.threads.drain(..) {
            thread.join().expect("the pty's threads end");
        }
        self.writer = None;
        self.master = None;
    }

    /// The program's exit status, once it has exited.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    pub fn send(&mut self, keys: &str) {
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer.write_all(keys.as_bytes()).unwrap();
        writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(60));
    }

    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The emulated screen, with colours, for pictures.
    pub fn vt_screen(&self) -> vt100::Screen {
        self.parser.lock().unwrap().screen().clone()
    }

    pub fn parser_alternate_screen(&self) -> bool {
        self.parser.lock().unwrap().screen().alternate_screen()
    }

    /// Whether the emulated terminal shows the cursor.
    pub fn cursor_shown(&self) -> bool {
        !self.parser.lock().unwrap().screen().hide_cursor()
    }

    /// Resizes the terminal (the window was made smaller or larger).
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.master()
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resized");
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("rows and columns");
        self.parser.lock().unwrap().set_size(size(rows), size(cols));
    }

    /// The process the pty runs (`sh` under [`Pty::spawn_under_sh`]).
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("a process id")
    }

    /// The terminal's local modes (`c_lflag`) as the program left them.
    pub fn local_modes(&self) -> libc::tcflag_t {
        let fd = self.master().as_raw_fd().expect("a pty descriptor");
        // SAFETY: tcgetattr writes one termios through a valid pointer; fd is the open master.
        let mut termios: libc::termios = unsafe { std::mem::zeroed() };
        assert_eq!(
            unsafe { libc::tcgetattr(fd, &raw mut termios) },
            0,
            "tcgetattr"
        );
        termios.c_lflag
    }

    pub fn raw(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    /// Whether the screen shows `text` within `timeout`.
    pub fn try_wait_for(&mut self, text: &str, timeout: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() <= timeout {
            if self.screen().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    pub fn wait_for(&mut self, text: &str, timeout: Duration) {
        let start = Instant::now();
        while !self.screen().contains(text) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "taxdash exited ({status:?}) before showing {text:?}:\n{}",
                    self.screen()
                );
            }
            assert!(
                start.elapsed() <= timeout,
                "timed out waiting for {text:?}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the dashboard's first tab, the Overview, then opens Registrations (tab 2) and
    /// waits for its rows.
    pub fn open_registrations(&mut self) {
        self.wait_for("Overview — ", Duration::from_secs(30));
        self.send("2");
        self.wait_for("row 1 of", Duration::from_secs(30));
    }

    /// Waits until `text` is no longer on screen.
    pub fn wait_until_gone(&mut self, text: &str, timeout: Duration) {
        let start = Instant::now();
        while self.screen().contains(text) {
            assert!(
                start.elapsed() <= timeout,
                "timed out waiting for {text:?} to go:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until `done` holds, checking every 50 ms.
    pub fn wait_until(&self, what: &str, timeout: Duration, mut done: impl FnMut(&Pty) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() <= timeout,
                "timed out waiting until {what}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                std::thread::sleep(Duration::from_millis(100));
                return status;
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("taxdash did not exit:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}
