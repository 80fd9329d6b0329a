//! A pseudo-terminal running the taxdash binary, and a terminal emulator reading its output.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};

pub struct Pty {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
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
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let writer = pair.master.take_writer().expect("a writer");
        let size = |n: u16| std::num::NonZeroU16::new(n).expect("a terminal has rows and columns");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(rows), size(cols), 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, r) = (Arc::clone(&parser), Arc::clone(&raw));
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock().unwrap().process(&buf[..n]);
                r.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            master: pair.master,
            writer,
            child,
            parser,
            raw,
        }
    }

    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
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
        self.master
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
    #[cfg(unix)]
    pub fn local_modes(&self) -> libc::tcflag_t {
        let fd = self.master.as_raw_fd().expect("a pty descriptor");
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
