//! The shell's own tests: the header offline and in trouble, the tab bar's labels.

use super::chrome::tab_labels;

/// A shell of the profile `work` on `orgn_acme`, on a snapshot taken at `offline` if given.
fn shell(offline: Option<chrono::DateTime<chrono::Utc>>) -> super::Shell {
    let header = super::HeaderInfo {
        profile: "work".into(),
        organization: "orgn_acme".into(),
        generation: "v1".into(),
        demo: false,
        read_only: false,
        offline,
    };
    super::Shell::new(
        crate::ui::panes::all(),
        crate::ui::keymap::Keymap::default(),
        crate::ui::theme::Theme::default(),
        header,
    )
}

/// The header line's text.
fn header_text(shell: &super::Shell) -> String {
    shell
        .header_line()
        .spans
        .iter()
        .map(|s| s.content.as_ref())
        .collect()
}

#[test]
fn offline_leads_the_header_with_the_snapshots_time_and_is_read_only() {
    let taken = chrono::NaiveDate::from_ymd_opt(2026, 11, 20)
        .unwrap()
        .and_hms_opt(9, 30, 0)
        .unwrap()
        .and_utc();
    let shell = shell(Some(taken));
    assert!(shell.header().read_only, "a snapshot is never changed");
    let line = header_text(&shell);
    let first: String = line.chars().take(49).collect();
    assert_eq!(first, " taxdash   OFFLINE  snapshot 2026-11-20 09:30 UTC");
    assert!(line.contains("profile work │ org orgn_acme"), "{line}");
    assert!(!line.contains("connect"), "{line}");
}

/// The header once every call the shell starts with is answered with a failure of `kind`.
fn header_after(kind: crate::effect::FailureKind) -> String {
    use crate::effect::{Answer, Effect, Failure};
    let mut shell = shell(None);
    let ids: Vec<_> = shell
        .start()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Call { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    assert!(ids.len() >= 3, "the overview asks for its tiles: {ids:?}");
    for id in ids {
        let failure = Failure {
            kind,
            message: "The service's answer to GET /v1/nexus could not be read".into(),
            fields: Vec::new(),
        };
        shell.handle_answer(Answer {
            id,
            result: Err(failure),
        });
    }
    header_text(&shell)
}

#[test]
fn a_service_that_answers_nothing_readable_is_connection_trouble() {
    use crate::effect::FailureKind;
    let header = header_after(FailureKind::Undecodable);
    assert!(header.ends_with("✕ connection trouble"), "{header}");
    let header = header_after(FailureKind::NotFound);
    assert!(
        header.ends_with("● connected"),
        "readable refusals: {header}"
    );
}

#[test]
fn a_call_the_service_leaves_unanswered_shows_in_the_header_and_a_recovery_clears_the_error() {
    use crate::effect::{
        Answer, Call, Effect, Failure, FailureKind, RegistrationCall, RegistrationReply, Reply,
    };
    let mut shell = shell(None);
    let calls: Vec<_> = shell
        .start()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Call { id, call } => Some((id, call)),
            _ => None,
        })
        .collect();
    let mut effects = Vec::new();
    for _ in 0..29 {
        shell.tick(&mut effects);
    }
    assert!(
        !header_text(&shell).contains("no answer"),
        "{}",
        header_text(&shell)
    );
    for _ in 0..21 {
        shell.tick(&mut effects);
    }
    assert!(
        header_text(&shell).ends_with("◌ no answer for 5 s"),
        "{}",
        header_text(&shell)
    );
    // The connection fails: trouble, and an error in the footer.
    let (registrations, others): (Vec<_>, Vec<_>) = calls.into_iter().partition(|(_, call)| {
        matches!(**call, Call::Registrations(RegistrationCall::List { .. }))
    });
    let (failed, _) = others.first().expect("another call");
    shell.handle_answer(Answer {
        id: *failed,
        result: Err(Failure {
            kind: FailureKind::Network,
            message: "Could not connect to the service".into(),
            fields: Vec::new(),
        }),
    });
    shell.notify_error("Could not connect to the service");
    assert!(header_text(&shell).ends_with("✕ connection trouble"));
    // It answers again: connected, and the stale error leaves the footer.
    let (answered, _) = registrations
        .first()
        .expect("the overview reads registrations");
    shell.handle_answer(Answer {
        id: *answered,
        result: Ok(Reply::Registrations(RegistrationReply::Page(
            crate::model::Page::new(Vec::new(), 0, 1, 100),
        ))),
    });
    assert!(
        !header_text(&shell).contains("trouble"),
        "{}",
        header_text(&shell)
    );
    assert_eq!(
        shell.notices.flash.current(),
        None,
        "the stale error is gone"
    );
}

fn titles() -> Vec<String> {
    [
        "Registrations",
        "Nexus",
        "Exemptions",
        "Customers",
        "Transactions",
        "Filings",
    ]
    .map(str::to_owned)
    .to_vec()
}

#[test]
fn tabs_shorten_one_way_for_all() {
    let (labels, gap) = tab_labels(&titles(), 5, 200);
    assert_eq!(labels[0], "1 Registrations");
    assert_eq!((labels[5].as_str(), gap), ("6 Filings", 3));
    // Too narrow for every title: the selected one in full, the others by three letters.
    let (labels, gap) = tab_labels(&titles(), 5, 80);
    assert_eq!(
        labels,
        ["1 Reg", "2 Nex", "3 Exe", "4 Cus", "5 Tra", "6 Filings"]
    );
    assert_eq!(gap, 2);
    // Narrower: numbers for the others; then numbers only.
    let (labels, _) = tab_labels(&titles(), 0, 32);
    assert_eq!(labels, ["1 Registrations", "2", "3", "4", "5", "6"]);
    let (labels, _) = tab_labels(&titles(), 0, 20);
    assert_eq!(labels, ["1", "2", "3", "4", "5", "6"]);
    // The same width gives the same form whichever tab is selected.
    for focus in 0..6 {
        let (labels, _) = tab_labels(&titles(), focus, 80);
        for (i, label) in labels.iter().enumerate() {
            assert_eq!(label.len() > 5, i == focus && titles()[i].len() > 3);
        }
    }
}

/// The `?` overlay as text.
fn help_text(shell: &super::Shell) -> String {
    let mut help = shell.help();
    let area = ratatui::layout::Rect::new(0, 0, 160, 120);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    help.render(area, &mut buf, &crate::ui::theme::Theme::default());
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last message shown.
fn last_message(shell: &super::Shell) -> String {
    shell
        .notices
        .messages
        .newest_first()
        .next()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

#[test]
fn the_help_lists_every_command_of_the_shell() {
    let text = help_text(&shell(None));
    for command in super::commands::SHELL_COMMANDS {
        assert!(text.contains(&format!(":{command}")), ":{command}: {text}");
    }
}

#[test]
fn snapshot_asks_the_runtime_once_at_a_time_and_never_offline() {
    use crate::effect::{Call, Effect, HistoryCall};
    let mut shell = shell(None);
    let effects = shell.run_command("snapshot");
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Call { call, .. }]
                if **call == Call::History(HistoryCall::Snapshot { profile: "work".into() })
        ),
        "{effects:?}"
    );
    assert!(shell.snapshotting());
    // A second while the first runs: said, not asked.
    assert!(shell.run_command("snapshot").is_empty());
    let said = last_message(&shell);
    assert!(
        said.starts_with("A snapshot is being taken (starting)"),
        "{said}"
    );
    // Offline, the dashboard browses a snapshot: there is nothing to take one of.
    let mut offline = self::shell(Some(chrono::Utc::now()));
    assert!(offline.run_command("snapshot").is_empty());
    assert!(!offline.snapshotting());
}

#[test]
fn a_snapshot_taken_says_what_changed_and_reads_the_changed_rows_again() {
    use crate::effect::{Answer, Call, Effect, HistoryCall, HistoryReply, Reply};
    use crate::model::Resource;
    use crate::model::history::{SnapshotTaken, Tally};
    let mut shell = shell(None);
    let Some(Effect::Call { id, .. }) = shell.run_command("snapshot").pop() else {
        panic!("a call");
    };
    let taken = SnapshotTaken {
        id: 5,
        counts: vec![(Resource::Registrations, 32), (Resource::Customers, 1200)],
        since: Some(Tally {
            from: 4,
            added: 1,
            removed: 0,
            changed: 2,
        }),
    };
    let effects = shell.handle_answer(Answer {
        id,
        result: Ok(Reply::History(HistoryReply::Snapshot(taken))),
    });
    assert!(!shell.snapshotting());
    assert_eq!(
        last_message(&shell),
        "Snapshot 5 taken: 1,232 records; since snapshot 4: 1 added, 0 removed, 2 changed \
         (32 registrations, 1,200 customers)."
    );
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Call { call, .. }] if matches!(**call, Call::History(HistoryCall::Changed { .. }))
        ),
        "{effects:?}"
    );
}
