//! What the runtime does outside the terminal's drawing: opening a browser, copying text,
//! handing the terminal back to the shell on Ctrl-Z and taking it again after `fg`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use base64::Engine;

use super::themes::ThemeDir;
use crate::ui::theme::{Theme, ThemeError, ThemeFiles};

/// Why the machine did not do what the dashboard asked of it; each message is the user's.
#[derive(Debug, thiserror::Error)]
pub enum PlatformError {
    /// A link that is not `http://` or `https://`: no browser is started for it.
    #[error("{url} is not a web address")]
    NotWebAddress { url: String },
    /// The browser could not be started.
    #[error("cannot open a browser ({source}); the address is {url}")]
    Browser { url: String, source: io::Error },
    /// This platform opens no files.
    #[error("No program to open {} was found", path.display())]
    NoOpener { path: PathBuf },
    /// The system's file opener ([`VIEWER`]) is not installed.
    #[error(
        "No program to open files was found ({VIEWER} is not installed); the file is at {}",
        path.display()
    )]
    NoViewer { path: PathBuf },
    /// The viewer could not be started.
    #[error("{} could not open {} ({source})", viewer.display(), path.display())]
    Viewer {
        viewer: PathBuf,
        path: PathBuf,
        source: io::Error,
    },
    /// The text could not be handed to the terminal's clipboard.
    #[error("{0}")]
    Clipboard(#[source] io::Error),
    /// The theme could not be loaded.
    #[error(transparent)]
    Theme(#[from] ThemeError),
}

/// The side effects the dashboard has on the user's machine, behind a trait so tests record them.
pub trait Platform: Send {
    fn open_url(&mut self, url: &str) -> Result<(), PlatformError>;
    fn copy(&mut self, text: &str) -> Result<(), PlatformError>;

    /// Opens a local file with the system's viewer. By default there is none.
    fn open_file(&mut self, path: &Path) -> Result<(), PlatformError> {
        Err(PlatformError::NoOpener {
            path: path.to_path_buf(),
        })
    }
    /// The named theme, as this terminal can show it.
    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError>;

    /// Ctrl-Z: hands the terminal back (raw mode off, the normal screen, the cursor shown),
    /// stops the process until it is continued, then takes the terminal again. The caller
    /// redraws everything afterwards. By default there is no terminal to hand back.
    fn suspend(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// After a stop the program did not ask for (SIGSTOP from outside, then SIGCONT): takes the
    /// terminal again, as the shell may have reset it. The caller redraws everything afterwards.
    fn reenter(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The real machine: the system's URL opener, OSC 52 for the clipboard (works over SSH and in
/// most terminals; the terminal may ask the user first), themes from the config directory.
pub struct System {
    /// `NO_COLOR` is set.
    pub no_color: bool,
    /// The terminal takes 24-bit colour.
    pub truecolor: bool,
    /// Where theme files override the embedded ones.
    pub theme_dir: Option<PathBuf>,
    /// The program that opens a file with the user's viewer (`xdg-open`, `open`), if found.
    pub viewer: Option<PathBuf>,
    /// The dashboard takes the mouse (and takes it again after a suspend).
    pub mouse: bool,
}

/// The system's file opener by name: `open` on macOS, `xdg-open` elsewhere.
pub const VIEWER: &str = if cfg!(target_os = "macos") {
    "open"
} else {
    "xdg-open"
};

/// The program `name` on the `PATH`, if there is one.
pub fn find_program(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

impl System {
    /// Reads the facts from the environment.
    pub fn from_env() -> Self {
        System {
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            truecolor: std::env::var("COLORTERM")
                .is_ok_and(|v| v.contains("truecolor") || v.contains("24bit")),
            theme_dir: directories::ProjectDirs::from("", "", "taxdash")
                .map(|d| d.config_dir().join("themes")),
            viewer: find_program(VIEWER, std::env::var_os("PATH").as_deref()),
            mouse: false,
        }
    }
}

impl System {
    /// The user's theme files, when there is a config directory.
    pub fn theme_files(&self) -> Option<ThemeDir> {
        self.theme_dir.clone().map(ThemeDir)
    }
}

/// Gives the terminal back to the shell: cooked mode, the normal screen, the cursor shown,
/// pastes as plain text again.
pub fn leave_terminal() -> io::Result<()> {
    crossterm::terminal::disable_raw_mode()?;
    crossterm::execute!(
        io::stdout(),
        crossterm::event::DisableBracketedPaste,
        crossterm::terminal::LeaveAlternateScreen,
        crossterm::cursor::Show
    )
}

/// Asks the terminal to mark the start and end of what is pasted, so that a paste arrives as
/// one event (see [`crate::ui::shell::Shell::handle_paste`]), or to send it as typed keys again.
pub fn bracketed_paste(on: bool) -> io::Result<()> {
    if on {
        crossterm::execute!(io::stdout(), crossterm::event::EnableBracketedPaste)
    } else {
        crossterm::execute!(io::stdout(), crossterm::event::DisableBracketedPaste)
    }
}

/// Asks the terminal to report the mouse (clicks, the wheel) to the dashboard, or to keep it
/// for its own selection again.
pub fn capture_mouse(on: bool) -> io::Result<()> {
    if on {
        crossterm::execute!(io::stdout(), crossterm::event::EnableMouseCapture)
    } else {
        crossterm::execute!(io::stdout(), crossterm::event::DisableMouseCapture)
    }
}

/// Takes the terminal for the dashboard: raw mode, the alternate screen, the cursor hidden,
/// pastes bracketed.
pub fn enter_terminal() -> io::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(
        io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        crossterm::cursor::Hide,
        crossterm::event::EnableBracketedPaste
    )
}

impl Platform for System {
    fn suspend(&mut self) -> io::Result<()> {
        if self.mouse {
            capture_mouse(false)?;
        }
        leave_terminal()?;
        tracing::info!("suspended");
        crate::os::signals::stop_process_group()?;
        tracing::info!("continued");
        enter_terminal()?;
        if self.mouse {
            capture_mouse(true)?;
        }
        Ok(())
    }

    fn reenter(&mut self) -> io::Result<()> {
        enter_terminal()?;
        if self.mouse {
            capture_mouse(true)?;
        }
        Ok(())
    }

    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError> {
        let files = self.theme_files();
        Ok(Theme::select(
            Some(name),
            self.no_color,
            self.truecolor,
            files.as_ref().map(|f| f as &dyn ThemeFiles),
        )?)
    }

    fn open_url(&mut self, url: &str) -> Result<(), PlatformError> {
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(PlatformError::NotWebAddress {
                url: url.to_owned(),
            });
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
            .map_err(|source| PlatformError::Browser {
                url: url.to_owned(),
                source,
            })
    }

    fn open_file(&mut self, path: &Path) -> Result<(), PlatformError> {
        let Some(viewer) = &self.viewer else {
            return Err(PlatformError::NoViewer {
                path: path.to_path_buf(),
            });
        };
        std::process::Command::new(viewer)
            .arg(path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(|_| ())
            .map_err(|source| PlatformError::Viewer {
                viewer: viewer.clone(),
                path: path.to_path_buf(),
                source,
            })
    }

    fn copy(&mut self, text: &str) -> Result<(), PlatformError> {
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut out = std::io::stdout();
        write!(out, "\x1b]52;c;{encoded}\x07")
            .and_then(|()| out.flush())
            .map_err(PlatformError::Clipboard)
    }
}

/// A platform that only remembers what it was asked, for tests.
#[derive(Debug, Default)]
pub struct Recorder {
    pub opened: Vec<String>,
    /// Files opened with the viewer.
    pub opened_files: Vec<PathBuf>,
    pub copied: Vec<String>,
    /// Times the terminal was handed back (Ctrl-Z).
    pub suspended: u32,
    /// Times the terminal was taken again after an outside stop.
    pub reentered: u32,
}

impl Platform for Recorder {
    fn load_theme(&mut self, name: &str) -> Result<Theme, PlatformError> {
        Ok(Theme::load(name, None)?)
    }

    fn open_url(&mut self, url: &str) -> Result<(), PlatformError> {
        self.opened.push(url.to_owned());
        Ok(())
    }

    fn open_file(&mut self, path: &Path) -> Result<(), PlatformError> {
        self.opened_files.push(path.to_path_buf());
        Ok(())
    }

    fn copy(&mut self, text: &str) -> Result<(), PlatformError> {
        self.copied.push(text.to_owned());
        Ok(())
    }

    fn suspend(&mut self) -> io::Result<()> {
        self.suspended += 1;
        Ok(())
    }

    fn reenter(&mut self) -> io::Result<()> {
        self.reentered += 1;
        Ok(())
    }
}

#[cfg(test)]
mod viewer_tests {
    use super::*;

    #[test]
    fn without_a_viewer_opening_a_file_says_so() {
        let mut system = System {
            no_color: true,
            truecolor: false,
            theme_dir: None,
            viewer: None,
            mouse: false,
        };
        let e = system
            .open_file(Path::new("/tmp/cert.pdf"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("No program to open files was found") && e.contains("/tmp/cert.pdf"),
            "{e}"
        );
    }

    #[test]
    fn the_viewer_is_looked_up_on_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("xdg-open"), b"").unwrap();
        let path = std::env::join_paths([dir.path()]).unwrap();
        assert_eq!(
            find_program("xdg-open", Some(&path)),
            Some(dir.path().join("xdg-open"))
        );
        assert_eq!(find_program("open-nothing", Some(&path)), None);
        assert_eq!(find_program("xdg-open", None), None);
    }
}
