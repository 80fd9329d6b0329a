//! The user's theme files: `<config dir>/themes/NAME.toml`, read for the theme module.

use std::io::ErrorKind;
use std::path::PathBuf;

use crate::ui::theme::{ThemeError, ThemeFiles};

/// A directory of theme files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeDir(pub PathBuf);

impl ThemeFiles for ThemeDir {
    fn read(&self, name: &str) -> Result<Option<(String, String)>, ThemeError> {
        let path = self.0.join(format!("{name}.toml"));
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some((path.display().to_string(), text))),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ThemeError::Read { path, source }),
        }
    }

    fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.0) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::theme::Theme;

    #[test]
    fn a_file_in_the_directory_overrides_and_adds_themes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("dark.toml"),
            "inherits = \"dark\"\nerror = \"light-red\"\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("solar.toml"), "inherits = \"light\"\n").unwrap();
        let files = ThemeDir(dir.path().to_path_buf());
        let dark = Theme::load("dark", Some(&files)).unwrap();
        assert_eq!(dark.error.fg, Some(ratatui::style::Color::LightRed));
        assert!(Theme::available(Some(&files)).contains(&"solar".to_owned()));
        let err = Theme::load("nothing", Some(&files)).unwrap_err();
        assert!(err.to_string().contains("solar"), "{err}");
    }

    #[test]
    fn an_unreadable_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("dark.toml")).unwrap();
        let err = Theme::load("dark", Some(&ThemeDir(dir.path().to_path_buf()))).unwrap_err();
        assert!(err.to_string().contains("dark.toml"), "{err}");
    }
}
