//! The real binary in a pseudo-terminal: `taxdash --demo`, driven by keystrokes, read back
//! through a terminal emulator. (Unix pseudo-terminals: the suite runs on Unix.)
#![cfg(unix)]

mod burst;
mod export;
mod hangup;
mod history;
mod mouse;
mod offline;
mod pty;
#[cfg(target_os = "linux")]
mod signals;
mod startup;
mod svg;

use std::time::{Duration, Instant};

use pty::Pty;

/// The day the dashboard runs on in these tests (`--today`): the demo data is dated around it, so
/// what is overdue, and the dates typed into forms, do not depend on the day the tests run.
const TODAY: &str = "2026-11-24";

#[test]
fn demo_deregistration_in_a_real_terminal_then_quit_restores_it() {
    let state = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 120, 36, state.path());
    t.open_registrations();
    let screen = t.screen();
    assert!(
        screen.contains("DEMO") && screen.contains("Registrations"),
        "{screen}"
    );

    // Only Washington, then the wizard.
    t.send("/");
    t.wait_for("Filing frequency", Duration::from_secs(5));
    t.send("\t\tWA");
    t.send("\x13"); // ctrl-s
    t.wait_for("state WA", Duration::from_secs(10));
    t.wait_for("row 1 of 1 ", Duration::from_secs(10));
    t.send("D");
    t.wait_for("step 1 of 6", Duration::from_secs(5));
    t.send("\r");
    t.wait_for("step 2 of 6", Duration::from_secs(5));
    t.send("\x1b[C"); // right: the first reason
    t.send("\r");
    t.wait_for("step 3 of 6", Duration::from_secs(5));
    t.send("2026-12-31\r");
    t.wait_for("step 4 of 6", Duration::from_secs(5));
    t.send(" \r");
    t.wait_for("step 5 of 6", Duration::from_secs(5));
    t.send("\r");
    t.wait_for("step 6 of 6", Duration::from_secs(5));
    t.send("WA\r");
    t.wait_for("DEREGISTERING", Duration::from_secs(10));

    t.send("q");
    let status = t.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "taxdash exited with {status:?}");
    let raw = t.raw();
    let entered = raw
        .rfind("\x1b[?1049h")
        .expect("the dashboard used the alternate screen");
    let left = raw
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left");
    assert!(left > entered, "left after entering");
    assert!(
        raw[left..].contains("\x1b[?25h") || raw.rfind("\x1b[?25h") > raw.rfind("\x1b[?25l"),
        "the cursor is shown again"
    );
    assert!(!t.parser_alternate_screen(), "back on the normal screen");
}

#[test]
fn a_profile_from_the_environment_opens_read_only_with_no_keyring() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime
        .block_on(taxdash::sandbox::Sandbox::start(
            taxdash::sandbox::SandboxConfig::default(),
            "127.0.0.1:0".parse().unwrap(),
        ))
        .unwrap();
    let url = sandbox.base_url();
    let state = tempfile::tempdir().unwrap();
    let env = [
        ("TAXDASH_API_KEY", "demo-key-2"),
        ("TAXDASH_ORGANIZATION_ID", "orgn_demo_2"),
        ("TAXDASH_BASE_URL", url.as_str()),
    ];
    let mut t = Pty::spawn_with_env(&["--read-only"], 120, 30, state.path(), &env);
    t.open_registrations();
    let screen = t.screen();
    assert!(
        screen.contains("profile default") && screen.contains("org orgn_demo_2"),
        "{screen}"
    );
    assert!(
        screen.contains("READ-ONLY") && !screen.contains("DEMO"),
        "{screen}"
    );
    assert!(
        !screen.contains("demo-key-2"),
        "the key never reaches the screen"
    );
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
    let log = std::fs::read_to_string(state.path().join("taxdash.log")).unwrap_or_default();
    assert!(!log.contains("demo-key-2"), "nor the log");
    runtime.block_on(sandbox.stop());
}

#[test]
fn demo_edit_a_physical_nexus_then_create_an_exemption_with_its_certificate() {
    let state = tempfile::tempdir().unwrap();
    let pdf = state.path().join("resale-certificate.pdf");
    std::fs::write(
        &pdf,
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF",
    )
    .unwrap();
    // The home has a downloads folder, where `w` offers to save a certificate.
    std::fs::create_dir_all(state.path().join("Downloads")).unwrap();
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 140, 40, state.path());
    t.open_registrations();

    // Nexus: edit the first physical nexus's city.
    t.send(":");
    t.send("nexus\r");
    t.wait_for("Nexus — physical", Duration::from_secs(10));
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("e");
    t.wait_for("Postal code", Duration::from_secs(10));
    for _ in 0..5 {
        t.send("\t");
    }
    for _ in 0..30 {
        t.send("\x7f");
    }
    t.send("Nanaimo");
    t.send("\x13"); // ctrl-s
    // The form closes, and the reloaded list shows the new city.
    t.wait_until_gone("Postal code", Duration::from_secs(10));
    t.wait_for("Nanaimo", Duration::from_secs(10));

    // Exemptions: a new one for a customer found by typing, then its certificate.
    t.send(":");
    t.send("exemptions\r");
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("n");
    t.wait_for("Find customer", Duration::from_secs(10));
    t.send("a");
    std::thread::sleep(Duration::from_millis(800));
    t.send("\t\x1b[C"); // the first customer found
    t.send("\t\x1b[C"); // type: customer
    t.send("\t\x1b[C"); // status: ACTIVE
    t.send("\tUS\t"); // country, then the jurisdiction left empty
    t.send("\t2026-01-01");
    t.send("\t\t12-3456789");
    t.send("\tST-E2E-0001");
    t.send("\x13");
    // The form closes and the new exemption's detail opens.
    t.wait_until_gone("Find customer", Duration::from_secs(10));
    t.wait_for("ST-E2E-0001", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(300));
    t.send("a");
    t.wait_for("path of a PDF of at most 10 MB", Duration::from_secs(10));
    t.send(&pdf.display().to_string());
    t.send("\r");
    // Uploaded: the detail's files now list it with its type.
    t.wait_for(
        "resale-certificate.pdf  application/pdf",
        Duration::from_secs(10),
    );
    // `w` offers to save it in the downloads folder, under its own name.
    t.send("w");
    t.wait_for(
        "~/Downloads/resale-certificate.pdf",
        Duration::from_secs(10),
    );
    t.send("\x1b");
    t.wait_for(
        "resale-certificate.pdf  application/pdf",
        Duration::from_secs(10),
    );

    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}

/// Waits, up to ten seconds, until no spinner is on screen: a screenshot shows what has loaded,
/// not how far the loading got when it was taken.
fn settled(t: &Pty) {
    let started = Instant::now();
    while taxdash::ui::widgets::spinner::BRAILLE_FRAMES
        .iter()
        .any(|frame| t.screen().contains(frame))
        && started.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Regenerates `screenshots/` from the real program on demo data:
/// `cargo test --test e2e -- --ignored screenshots`.
#[test]
#[ignore = "writes screenshots/; run it when what the user sees changes"]
fn screenshots() {
    let state = tempfile::tempdir().unwrap();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out).unwrap();
    let save = |t: &Pty, name: &str| {
        settled(t);
        std::fs::write(out.join(format!("{name}.svg")), svg::render(&t.vt_screen())).unwrap();
    };
    // The Overview, the first tab, wide and on a small terminal with the map in use.
    for (name, width, height, keys) in [("overview", 180, 48, ""), ("overview-80x24", 80, 24, "]")]
    {
        let mut o = Pty::spawn(&["--demo", "--today", TODAY], width, height, state.path());
        o.wait_for("Overview — updated", Duration::from_secs(30));
        o.send(keys);
        std::thread::sleep(Duration::from_millis(400));
        save(&o, name);
        o.send("q");
        o.wait_exit(Duration::from_secs(10));
    }
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 140, 40, state.path());
    t.open_registrations();
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "registrations");
    t.send("\r");
    t.wait_for("Identity", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(500));
    save(&t, "registration-detail");
    t.send("?");
    t.wait_for("this help", Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "help");
    t.send("\x1b");
    t.send("\x1b");
    t.wait_for("row 1 of", Duration::from_secs(5));
    t.send("/\t\tCO\x13");
    t.wait_for("state CO", Duration::from_secs(10));
    t.wait_for("row 1 of 1 ", Duration::from_secs(10));
    t.send("D");
    t.send("\r");
    t.send("\x1b[C");
    t.send("\r");
    t.send("2026-02-31\r");
    t.wait_for("February", Duration::from_secs(5));
    save(&t, "deregistration-error");
    t.send("\x7f\x7f27\r");
    t.send(" ");
    t.send("\r");
    t.wait_for("step 5 of 6", Duration::from_secs(5));
    // Colorado still has a return past its due date: the review lists it.
    t.wait_for("overdue", Duration::from_secs(5));
    save(&t, "deregistration-review");
    // The other panes, reached by name on the command line.
    t.send("\x1b");
    t.send("\x1b");
    t.send("\x1b");
    t.send("\x1b");
    t.send("\x1b");
    t.wait_for("Discard", Duration::from_secs(5));
    t.send("y");
    for (pane, shot) in [
        ("nexus", "nexus"),
        ("exemptions", "exemptions"),
        ("customers", "customers"),
        ("transactions", "transactions"),
        ("products", "products"),
    ] {
        t.send(":");
        t.send(&format!("{pane}\r"));
        t.wait_for("row 1 of", Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(300));
        save(&t, shot);
    }
    // Registering in Texas: the form generated from the jurisdiction's schema.
    t.send(":");
    t.send("registrations\r");
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("n");
    t.wait_for("Register", Duration::from_secs(10));
    t.send("Texas");
    std::thread::sleep(Duration::from_millis(300));
    t.send("\r");
    t.wait_for("Filing frequency", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(500));
    save(&t, "register-texas");
    t.send("\x1b");
    std::thread::sleep(Duration::from_millis(300));
    t.send("q");
    std::thread::sleep(Duration::from_millis(300));
    t.send("y");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}

/// The portfolio of the demo's partner key, as `taxdash --demo --portfolio` opens it: part of
/// `cargo test --test e2e -- --ignored screenshots`.
#[test]
#[ignore = "writes screenshots/; run it when what the user sees changes"]
fn screenshots_portfolio() {
    let state = tempfile::tempdir().unwrap();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out).unwrap();
    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--portfolio"],
        140,
        20,
        state.path(),
    );
    t.wait_for("Portfolio — 2 organizations ", Duration::from_secs(30));
    settled(&t);
    std::fs::write(out.join("portfolio.svg"), svg::render(&t.vt_screen())).unwrap();
}

/// The screens only the Tenanted API has, on the Tenanted demo (partner key): part of
/// `cargo test --test e2e -- --ignored screenshots`.
#[test]
#[ignore = "writes screenshots/; run it when what the user sees changes"]
fn screenshots_tenanted() {
    let state = tempfile::tempdir().unwrap();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out).unwrap();
    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--api", "tenanted"],
        140,
        40,
        state.path(),
    );
    let save = |t: &Pty, name: &str| {
        settled(t);
        std::fs::write(out.join(format!("{name}.svg")), svg::render(&t.vt_screen())).unwrap();
    };
    t.open_registrations();
    t.wait_for("Acme Outdoor Supply (orgn_demo_1)", Duration::from_secs(10));
    // The portal credentials of the California registration, a password typed hidden.
    t.send("C");
    t.wait_for("Portal credentials", Duration::from_secs(10));
    t.send("acme-tax\t");
    t.send("hunter22");
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "credentials");
    t.send("\x1b");
    t.wait_for("Discard", Duration::from_secs(5));
    t.send("y");
    // The exposure history of the fourth economic nexus row (Arizona, exposed then registering).
    t.send(":nexus\r");
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("V");
    t.wait_for("economic", Duration::from_secs(10));
    t.wait_for("Sales vs threshold", Duration::from_secs(10));
    // One row at a time: a key sent while the view's rows are still coming is not a move.
    for row in 2..=4 {
        let at = format!("row {row} of");
        for _ in 0..20 {
            t.send("j");
            if t.try_wait_for(&at, Duration::from_millis(500)) {
                break;
            }
        }
        t.wait_for(&at, Duration::from_secs(5));
    }
    t.send("h");
    t.wait_for("Exposure history", Duration::from_secs(10));
    t.wait_for("events", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "exposure-history");
    t.send("\x1b");
    // Certificate imports awaiting approval, two marked.
    t.send(":exemptions\r");
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("I");
    t.wait_for("certificate imports", Duration::from_secs(10));
    t.wait_for("cimp_", Duration::from_secs(10));
    t.send("  ");
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "certificate-imports");
    // Filings and the back-filing options.
    t.send(":filings\r");
    t.wait_for("Filings", Duration::from_secs(10));
    t.wait_for("row 1 of", Duration::from_secs(10));
    // The filing check's verdicts, once the transactions they compare with are read.
    t.wait_for("✓", Duration::from_secs(20));
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "filings");
    t.send("b");
    t.wait_for("Back-filing options", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(500));
    save(&t, "back-filing-options");
    t.send("\x1b");
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn demo_on_the_tenanted_api_switches_organization() {
    let state = tempfile::tempdir().unwrap();
    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--api", "tenanted"],
        120,
        36,
        state.path(),
    );
    t.open_registrations();
    t.wait_for("Acme Outdoor Supply (orgn_demo_1)", Duration::from_secs(10));
    assert!(
        t.screen().contains("API tenanted 2026-10-06"),
        "{}",
        t.screen()
    );

    t.send(":org orgn_demo_2\r");
    t.wait_for("Northwind Digital (orgn_demo_2)", Duration::from_secs(10));
    t.wait_for("row 1 of", Duration::from_secs(10));

    t.send("q");
    let status = t.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "taxdash exited with {status:?}");
}

/// `screenshots/record-history.svg`: a registration's history across three snapshots, the first
/// taken by `taxdash snapshot` from the demo, the two after it as the registration changed.
#[test]
#[ignore = "writes screenshots/; run with --ignored"]
fn screenshots_record_history() {
    use taxdash::history::History;
    use taxdash::model::Resource;

    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("history.db");
    let file_arg = file.to_string_lossy().into_owned();
    let taken = std::process::Command::new(env!("CARGO_BIN_EXE_taxdash"))
        .args([
            "--demo",
            "--today",
            TODAY,
            "--history",
            &file_arg,
            "snapshot",
        ])
        .env("XDG_DATA_HOME", home.path().join("data"))
        .output()
        .unwrap();
    assert!(
        taken.status.success(),
        "{}",
        String::from_utf8_lossy(&taken.stderr)
    );

    let mut t = Pty::spawn(
        &["--demo", "--today", TODAY, "--history", &file_arg],
        140,
        40,
        home.path(),
    );
    t.open_registrations();
    t.send("\r");
    t.wait_for("Identity", Duration::from_secs(10));
    let screen = t.screen();
    let id = screen
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| w.starts_with("regs_"))
        .expect("the registration's id on screen")
        .to_owned();

    // Two later snapshots: the registration's filing frequency, then its status, changed.
    let mut history = History::open(&file).unwrap();
    let first = history.snapshots(None).unwrap().remove(0);
    let mut records = Vec::new();
    for resource in [Resource::Registrations, Resource::Nexus] {
        records.extend(history.snapshot_records(first.id, resource).unwrap());
    }
    let change = |records: &mut Vec<taxdash::history::snapshot::Record>,
                  key: &str,
                  value: serde_json::Value| {
        for r in records.iter_mut().filter(|r| r.id == id) {
            let mut body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            body[key] = value.clone();
            r.body = body.to_string();
        }
    };
    change(
        &mut records,
        "filing_frequency",
        serde_json::json!("QUARTERLY"),
    );
    history
        .write_snapshot(
            &first.scope,
            first.taken + chrono::Duration::days(7),
            &records,
        )
        .unwrap();
    change(&mut records, "status", serde_json::json!("DEREGISTERED"));
    history
        .write_snapshot(
            &first.scope,
            first.taken + chrono::Duration::days(14),
            &records,
        )
        .unwrap();

    t.send("H");
    t.wait_for("→", Duration::from_secs(10));
    settled(&t);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::write(out.join("record-history.svg"), svg::render(&t.vt_screen())).unwrap();
    t.send("\x1b");
    t.send("q");
    t.wait_exit(Duration::from_secs(10));
}

/// `screenshots/product-classify.svg` and `product-classified.svg`: a product whose
/// classification failed given a category, the picker offering that category's subcategories;
/// then its detail once saved, approved.
#[test]
#[ignore = "writes screenshots/; run with --ignored"]
fn screenshots_classify() {
    let state = tempfile::tempdir().unwrap();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let save = |t: &Pty, name: &str| {
        settled(t);
        std::fs::write(out.join(format!("{name}.svg")), svg::render(&t.vt_screen())).unwrap();
    };
    let mut t = Pty::spawn(&["--demo", "--today", TODAY], 140, 40, state.path());
    t.wait_for("Overview — updated", Duration::from_secs(30));
    t.send(":");
    t.send("products\r");
    t.wait_for("row 1 of", Duration::from_secs(10));
    t.send("u");
    t.wait_for("needing classification", Duration::from_secs(10));
    // The onboarding workshop, whose classification failed.
    t.wait_for("Onboarding Workshop", Duration::from_secs(10));
    for _ in 0..9 {
        t.send("\x1b[B");
    }
    t.wait_for("row 10 of", Duration::from_secs(5));
    t.send("\r");
    t.wait_for(
        "failed: choose its category with e",
        Duration::from_secs(10),
    );
    t.send("e");
    t.wait_for("classify Onboarding Workshop", Duration::from_secs(10));
    t.wait_for("saving approves it)", Duration::from_secs(10));
    // The category (the fourth field): SERVICE; then one of its subcategories.
    t.send("\t\t\tS");
    t.wait_for(
        "cleared: not a choice for category SERVICE",
        Duration::from_secs(5),
    );
    t.send("\tP");
    t.wait_for("PROFESSIONAL_SERVICE ›", Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "product-classify");
    t.send("\x13");
    t.wait_for("approved: nothing left to do", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(300));
    save(&t, "product-classified");
    t.send("q");
    assert!(t.wait_exit(Duration::from_secs(10)).success());
}
