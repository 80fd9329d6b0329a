//! Files the user names: a certificate to upload, checked before anything is sent, a file
//! written whole or not at all, and the completion of a path as it is typed. A file refused is
//! a [`Refusal`] naming the form field it came from, which the runtime shows as any failure.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model::{FieldError, LocPart};

/// Whether `path` names something that is neither a file nor a directory (a device such as
/// `/dev/null`, a pipe), following links: what is written there goes straight to it, never
/// through a temporary file renamed over it, which would put a plain file in its place.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// `e` without the temporary file's path that `tempfile` adds to the system's words
/// (`… at path "/dir/.x.csv.DBkeiP.part"`): the user named another file, which the message
/// names instead.
pub fn without_temporary_path(e: std::io::Error) -> std::io::Error {
    let text = e.to_string();
    match text.find(" at path ") {
        Some(at) => std::io::Error::new(e.kind(), &text[..at]),
        None => e,
    }
}

/// The largest certificate the service takes.
pub const MAX_CERTIFICATE_BYTES: u64 = 10 * 1024 * 1024;

/// A file refused: why, in words, and the form field it names.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
    pub fields: Vec<FieldError>,
}

/// What kind of refusal it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The file or its path breaks a rule (not a PDF, too big, a directory).
    Validation,
    /// The file exists: writing over it needs the user's word.
    Conflict,
    /// The system refused (permissions, a full disk).
    Other,
}

fn refuse(msg: String, path: &Path) -> Refusal {
    let error = FieldError::new(
        "value_error",
        vec![LocPart::from("body"), LocPart::from("file")],
        msg.clone(),
        Value::String(path.display().to_string()),
    );
    Refusal {
        kind: RefusalKind::Validation,
        message: msg,
        fields: vec![error],
    }
}

/// Reads a certificate for upload: it must exist, be a readable file, be a PDF by its content
/// (not its name) and weigh at most 10 MB. Returns its file name and bytes; a refusal names the
/// `file` field and the rule, and nothing is sent.
pub fn read_certificate(path: &Path) -> Result<(String, Vec<u8>), Refusal> {
    let expanded = expand_home(path);
    let path = expanded.as_path();
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| refuse(format!("file {shown} cannot be read: {e}"), path))?;
    if !meta.is_file() {
        return Err(refuse(format!("file {shown} is not a file"), path));
    }
    if meta.len() > MAX_CERTIFICATE_BYTES {
        return Err(refuse(
            format!(
                "file must be at most 10 MB; {shown} is {} bytes",
                meta.len()
            ),
            path,
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| refuse(format!("file {shown} cannot be read: {e}"), path))?;
    if !bytes.starts_with(b"%PDF-") {
        return Err(refuse(
            format!(
                "file must be a PDF; {shown} is not one (its content does not start with %PDF-)"
            ),
            path,
        ));
    }
    let name = path.file_name().map_or_else(
        || "certificate.pdf".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok((name, bytes))
}

/// The field of the save form a refusal names.
const SAVE_FIELD: &str = "path";

fn refuse_save(kind: RefusalKind, msg: String, path: &Path) -> Refusal {
    let error = FieldError::new(
        "value_error",
        vec![LocPart::from("body"), LocPart::from(SAVE_FIELD)],
        msg.clone(),
        Value::String(path.display().to_string()),
    );
    Refusal {
        kind,
        message: msg,
        fields: vec![error],
    }
}

/// The refusal to write over `path`, which exists: a conflict the user may confirm.
pub fn exists(path: &Path) -> Refusal {
    refuse_save(
        RefusalKind::Conflict,
        format!("{} exists; save again to replace it", path.display()),
        path,
    )
}

/// Writes `bytes` to `path` in one step: into a temporary file beside it, then renamed over it,
/// so `path` is the whole file or untouched. An existing `path` is refused unless `overwrite`
/// (also when it appeared meanwhile).
pub fn write_whole(path: &Path, bytes: &[u8], overwrite: bool) -> Result<(), Refusal> {
    use std::io::Write as _;
    let shown = path.display();
    let cannot = |e: &dyn std::fmt::Display| {
        refuse_save(
            RefusalKind::Other,
            format!("{shown} cannot be written: {e}"),
            path,
        )
    };
    if path.is_dir() {
        return Err(refuse_save(
            RefusalKind::Validation,
            format!("{shown} is a directory; name the file"),
            path,
        ));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(refuse_save(
            RefusalKind::Validation,
            format!("the directory {} does not exist", dir.display()),
            path,
        ));
    }
    if is_special(path) {
        if !overwrite {
            return Err(exists(path));
        }
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(|e| cannot(&e));
    }
    let mut temp =
        tempfile::NamedTempFile::new_in(&dir).map_err(|e| cannot(&without_temporary_path(e)))?;
    temp.write_all(bytes).map_err(|e| cannot(&e))?;
    temp.as_file().sync_all().map_err(|e| cannot(&e))?;
    if overwrite {
        temp.persist(path).map_err(|e| cannot(&e.error))?;
    } else {
        temp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                exists(path)
            } else {
                cannot(&e.error)
            }
        })?;
    }
    Ok(())
}

/// Writes `bytes` as `file_name` (its last part only) in a directory of its own under the
/// system's temporary directory, for a viewer to open; answers the file's path.
pub fn write_for_viewing(file_name: &str, bytes: &[u8]) -> Result<PathBuf, Refusal> {
    let name = Path::new(file_name)
        .file_name()
        .map_or_else(|| "attachment".into(), |n| n.to_string_lossy().into_owned());
    let dir = tempfile::Builder::new()
        .prefix("taxdash-")
        .tempdir()
        .map_err(|e| Refusal {
            kind: RefusalKind::Other,
            message: format!("no temporary directory for the file: {e}"),
            fields: Vec::new(),
        })?
        .keep();
    let path = dir.join(name);
    write_whole(&path, bytes, true)?;
    Ok(path)
}

/// The folder a saved file is offered in, as the path field shows it: `~/Downloads/` when it
/// exists, else the platform's downloads folder, else the home folder (`~/`), else the current
/// one (`""`).
pub fn save_folder() -> String {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let platform =
        directories::UserDirs::new().and_then(|d| d.download_dir().map(Path::to_path_buf));
    save_folder_in(home.as_deref(), platform.as_deref())
}

/// [`save_folder`] for the home folder `home` and the platform's downloads folder `platform`.
fn save_folder_in(home: Option<&Path>, platform: Option<&Path>) -> String {
    let shown = |dir: &Path| match home.and_then(|h| dir.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~/".to_owned(),
        Some(rest) => format!("~/{}/", rest.display()),
        None => format!("{}/", dir.display()),
    };
    if let Some(downloads) = home.map(|h| h.join("Downloads")).filter(|d| d.is_dir()) {
        return shown(&downloads);
    }
    if let Some(platform) = platform.filter(|d| d.is_dir()) {
        return shown(platform);
    }
    home.map_or_else(String::new, shown)
}

/// `~/x` as `$HOME/x`; other paths unchanged.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// The paths that complete `partial`: entries of its directory starting with its last part,
/// directories ending in `/`, sorted, at most 50. `~/` stands for the home directory.
pub fn complete_path(partial: &str) -> Vec<String> {
    let expanded = match partial.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME").map(|h| PathBuf::from(h).join(rest)),
        None => Some(PathBuf::from(partial)),
    };
    let Some(expanded) = expanded else {
        return Vec::new();
    };
    let (dir, stem) = if partial.is_empty() || partial.ends_with('/') {
        (expanded.clone(), String::new())
    } else {
        let stem = expanded
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        (
            expanded.parent().map(Path::to_path_buf).unwrap_or_default(),
            stem,
        )
    };
    let listing = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.clone()
    };
    let Ok(entries) = std::fs::read_dir(&listing) else {
        return Vec::new();
    };
    let typed_dir = &partial[..partial.len() - stem.len()];
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with(&stem) || (name.starts_with('.') && !stem.starts_with('.')) {
                return None;
            }
            let slash = if e.file_type().is_ok_and(|t| t.is_dir()) {
                "/"
            } else {
                ""
            };
            Some(format!("{typed_dir}{name}{slash}"))
        })
        .collect();
    out.sort();
    out.truncate(50);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_written_into_never_replaced_by_a_file() {
        let dir = tempfile::tempdir().unwrap();
        // A link to /dev/null stands for it: were the device replaced, the link would be.
        let link = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(is_special(&link));
        assert!(write_whole(&link, b"certificate", true).is_ok());
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let refused = write_whole(&link, b"certificate", false).unwrap_err();
        assert_eq!(refused.kind, RefusalKind::Conflict);
        assert!(!is_special(dir.path()));
        assert!(!is_special(&dir.path().join("absent")));
    }

    #[test]
    fn a_file_is_offered_in_the_downloads_folder_else_home() {
        let home = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        // No downloads folder at all: the home folder, never the current one.
        assert_eq!(save_folder_in(Some(home.path()), None), "~/");
        // The platform's, where there is one.
        let platform = home.path().join("Téléchargements");
        std::fs::create_dir(&platform).unwrap();
        assert_eq!(
            save_folder_in(Some(home.path()), Some(&platform)),
            "~/Téléchargements/"
        );
        assert_eq!(
            save_folder_in(Some(home.path()), Some(elsewhere.path())),
            format!("{}/", elsewhere.path().display())
        );
        // ~/Downloads first.
        std::fs::create_dir(home.path().join("Downloads")).unwrap();
        assert_eq!(
            save_folder_in(Some(home.path()), Some(&platform)),
            "~/Downloads/"
        );
        assert_eq!(save_folder_in(None, None), "");
    }

    #[test]
    fn a_certificate_must_exist_be_a_pdf_and_be_small() {
        let dir = tempfile::tempdir().unwrap();
        let missing = read_certificate(&dir.path().join("nope.pdf")).unwrap_err();
        assert_eq!(missing.fields[0].field_path(), "file");
        assert!(missing.message.contains("cannot be read"));

        let text = dir.path().join("cert.pdf");
        std::fs::write(&text, "not a pdf").unwrap();
        assert!(
            read_certificate(&text)
                .unwrap_err()
                .message
                .contains("must be a PDF")
        );

        let big = dir.path().join("big.pdf");
        let mut bytes = b"%PDF-1.4\n".to_vec();
        bytes.resize(MAX_CERTIFICATE_BYTES as usize + 1, b' ');
        std::fs::write(&big, bytes).unwrap();
        assert!(
            read_certificate(&big)
                .unwrap_err()
                .message
                .contains("at most 10 MB")
        );

        assert!(
            read_certificate(dir.path())
                .unwrap_err()
                .message
                .contains("not a file")
        );

        let good = dir.path().join("resale.pdf");
        std::fs::write(&good, b"%PDF-1.4\n%%EOF").unwrap();
        let (name, bytes) = read_certificate(&good).unwrap();
        assert_eq!((name.as_str(), bytes.len()), ("resale.pdf", 14));
    }

    #[test]
    fn a_home_relative_path_is_expanded() {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        if let Some(home) = home {
            assert_eq!(
                expand_home(Path::new("~/certs/a.pdf")),
                home.join("certs/a.pdf")
            );
        }
        assert_eq!(
            expand_home(Path::new("/tmp/a.pdf")),
            PathBuf::from("/tmp/a.pdf")
        );
    }

    #[test]
    fn paths_complete_from_their_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("cert-a.pdf"), "").unwrap();
        std::fs::write(dir.path().join("cert-b.pdf"), "").unwrap();
        std::fs::create_dir(dir.path().join("certs")).unwrap();
        std::fs::write(dir.path().join(".hidden"), "").unwrap();
        let base = format!("{}/", dir.path().display());
        assert_eq!(
            complete_path(&format!("{base}cert")),
            vec![
                format!("{base}cert-a.pdf"),
                format!("{base}cert-b.pdf"),
                format!("{base}certs/")
            ]
        );
        assert_eq!(
            complete_path(&base).len(),
            3,
            "hidden files only when asked for"
        );
        assert!(complete_path(&format!("{base}zzz")).is_empty());
    }
}
