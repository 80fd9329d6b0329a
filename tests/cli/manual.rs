//! `taxdash completions SHELL` and `taxdash man` through the real binary: the scripts and pages
//! are generated from the command line itself, so they name every subcommand and flag.

use std::process::Command;

fn taxdash(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args(args)
        .env_remove("TAXDASH_PROFILE")
        .output()
        .expect("taxdash runs")
}

fn stdout(args: &[&str]) -> String {
    let out = taxdash(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn completions_for_bash_zsh_and_fish_name_the_subcommands_and_their_flags() {
    for (shell, opening) in [
        ("bash", "_taxdash()"),
        ("zsh", "#compdef taxdash"),
        ("fish", "complete -c taxdash"),
    ] {
        let script = stdout(&["completions", shell]);
        assert!(script.contains(opening), "{shell}: {script:.200}");
        for word in [
            "export",
            "snapshot",
            "check",
            "demo",
            "due-within",
            "history",
        ] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let out = taxdash(&["completions", "tcsh"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("bash"));
}

#[test]
fn the_manual_page_is_roff_and_a_folder_gets_one_page_per_subcommand() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH taxdash 1"), "{page:.300}");
    assert!(page.contains(".SH SYNOPSIS"));
    assert!(page.contains("\\-\\-demo"));
    assert!(page.contains("snapshot"));

    let dir = tempfile::tempdir().expect("a temporary folder");
    let said = stdout(&["man", "--dir", dir.path().to_str().expect("UTF-8 path")]);
    for name in ["taxdash.1", "taxdash-export.1", "taxdash-check-filings.1"] {
        let path = dir.path().join(name);
        assert!(path.is_file(), "{name} not written: {said}");
        assert!(said.contains(name), "{said}");
    }
    let export = std::fs::read_to_string(dir.path().join("taxdash-export.1")).expect("read");
    assert!(export.contains("\\-\\-due\\-within"), "{export:.400}");

    let out = taxdash(&["man", "--dir", "/nonexistent/taxdash-man"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a directory"));
}
