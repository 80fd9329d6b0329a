//! What the runtime does outside the terminal's drawing: opening a browser, copying text.

use std::io::Write;

use base64::Engine;

/// The side effects the dashboard has on the user's machine, behind a trait so tests record them.
pub trait Platform: Send {
    fn open_url(&mut self, url: &str) -> Result<(), String>;
    fn copy(&mut self, text: &str) -> Result<(), String>;
}

/// The real machine: the system's URL opener, and OSC 52 for the clipboard (works over SSH and
/// in most terminals; the terminal may ask the user first).
pub struct System;

impl Platform for System {
    fn open_url(&mut self, url: &str) -> Result<(), String> {
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(format!("{url} is not a web address"));
        }
        let mut command = if cfg!(target_os = "macos") {
            std::process::Command::new("open")
        } else if cfg!(target_os = "windows") {
            let mut c = std::process::Command::new("cmd");
            c.args(["/C", "start", ""]);
            c
        } else {
            std::process::Command::new("xdg-open")
        };
        command
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(|_| ())
            .map_err(|e| format!("cannot open a browser ({e}); the address is {url}"))
    }

    fn copy(&mut self, text: &str) -> Result<(), String> {
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut out = std::io::stdout();
        write!(out, "\x1b]52;c;{encoded}\x07").and_then(|()| out.flush()).map_err(|e| e.to_string())
    }
}

/// A platform that only remembers what it was asked, for tests.
#[derive(Debug, Default)]
pub struct Recorder {
    pub opened: Vec<String>,
    pub copied: Vec<String>,
}

impl Platform for Recorder {
    fn open_url(&mut self, url: &str) -> Result<(), String> {
        self.opened.push(url.to_owned());
        Ok(())
    }

    fn copy(&mut self, text: &str) -> Result<(), String> {
        self.copied.push(text.to_owned());
        Ok(())
    }
}
