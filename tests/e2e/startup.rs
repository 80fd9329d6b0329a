//! Files at start-up that cannot be used never stop the dashboard: a log file that cannot be
//! written is said once, on the terminal and in the footer, and the dashboard runs without it.

use std::time::Duration;

use crate::pty::Pty;

#[test]
fn a_log_path_naming_a_directory_runs_without_a_log_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("logs");
    std::fs::create_dir(&dir).unwrap();
    let dir_text = dir.display().to_string();
    let mut t = Pty::spawn_with_env(
        &["--demo"],
        160,
        36,
        home.path(),
        &[("TAXDASH_LOG", &dir_text)],
    );
    t.wait_for("Overview — updated", Duration::from_secs(30));
    t.wait_for("running without a log", Duration::from_secs(5));
    t.send("q");
    let status = t.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "no panic: {status:?}");
    let screen = t.screen();
    let said = format!("taxdash: cannot write the log file {dir_text}: it is a directory");
    assert_eq!(
        screen.matches(&said).count(),
        1,
        "said once on the terminal:\n{screen}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn a_view_saved_on_the_demo_is_kept_in_the_data_directory_for_the_next_run() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("data/taxdash/demo-config.toml");
    let mut t = Pty::spawn(&["--demo"], 160, 36, home.path());
    t.wait_for("Overview — updated", Duration::from_secs(30));
    t.open_registrations();
    t.send(":view save mine\r");
    t.wait_for("View mine saved in", Duration::from_secs(10));
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
    let text = std::fs::read_to_string(&file).expect("the demo's views are in its own file");
    assert!(text.contains("[views.registrations.mine]"), "{text}");
    assert!(
        !home.path().join("config/taxdash/config.toml").exists(),
        "the config file is left alone"
    );

    let mut t = Pty::spawn(&["--demo"], 160, 36, home.path());
    t.wait_for("Overview — updated", Duration::from_secs(30));
    t.open_registrations();
    t.send(":view\r");
    t.wait_for(
        "Saved views of Registrations: mine",
        Duration::from_secs(10),
    );
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}
