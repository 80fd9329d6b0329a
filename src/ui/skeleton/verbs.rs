//! A pane's verbs, each said once: its key, its `:` command, its words, where it acts, whether
//! it changes records, and what it does. From that one declaration ([`PaneSpec::VERBS`]) the
//! skeleton derives the footer's hints, the key's dispatch, the `:` command and its completion,
//! and the `?` help's lines; a verb that writes is refused in read-only mode here, once.

use super::{PaneSpec, Parts, Screen};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Level, PaneHint, VerbHelp};

/// Where a verb's key acts and is offered. Its `:` command acts wherever no form has the keys
/// (what it needs, a record open, its own code says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// The list, nothing open over it.
    List,
    /// A record's detail.
    Detail,
    /// The list or a record's detail, not while a form or page of the pane's own is open.
    Both,
}

impl On {
    fn covers<D, V>(self, screen: &Screen<D, V>) -> bool {
        matches!(
            (self, screen),
            (On::List | On::Both, Screen::List) | (On::Detail | On::Both, Screen::Detail(_))
        )
    }
}

/// What a verb is done with: the pane, its parts, the command's words (none for a key), and
/// the context.
pub struct Doing<'a, 'c, S: PaneSpec> {
    pub spec: &'a mut S,
    pub parts: &'a mut Parts<S>,
    pub args: &'a [&'a str],
    pub ctx: &'a mut Ctx<'c>,
}

/// What a verb does.
pub type Run<S> = fn(Doing<'_, '_, S>);

/// One thing a pane does. Built with [`Verb::key`] or [`Verb::command`], then the builders.
pub struct Verb<S: PaneSpec> {
    /// The keymap action that does it, if a key does.
    pub key: Option<Action>,
    /// The `:` command that does it, if one does.
    pub command: Option<&'static str>,
    /// What follows the command, as the help shows it: `[N]`, `exemptions [FROM [TO]]`.
    pub args: &'static str,
    /// What the footer and the help call it.
    pub label: &'static str,
    /// Where the key acts and is offered.
    pub on: On,
    /// It changes records: hidden and refused in read-only mode.
    pub writes: bool,
    /// It starts something new rather than acting on the record: on a record's detail it is
    /// offered after the record's own verbs.
    pub starts_new: bool,
    /// When the footer offers it, where it acts (on the Tenanted API only, on a sale only):
    /// its key still acts, and says what it needs.
    pub offered: fn(&Parts<S>) -> bool,
    pub run: Run<S>,
}

fn always<S: PaneSpec>(_: &Parts<S>) -> bool {
    true
}

/// Offered on the Tenanted API only.
pub fn tenanted<S: PaneSpec>(parts: &Parts<S>) -> bool {
    parts.tenanted
}

impl<S: PaneSpec> Verb<S> {
    /// A verb done by `key` where `on` says.
    pub const fn key(key: Action, label: &'static str, on: On, run: Run<S>) -> Self {
        Verb {
            key: Some(key),
            command: None,
            args: "",
            label,
            on,
            writes: false,
            starts_new: false,
            offered: always::<S>,
            run,
        }
    }

    /// A verb done by the `:` command `name` only.
    pub const fn command(name: &'static str, label: &'static str, run: Run<S>) -> Self {
        Verb {
            key: None,
            command: Some(name),
            args: "",
            label,
            on: On::Both,
            writes: false,
            starts_new: false,
            offered: always::<S>,
            run,
        }
    }

    /// The same verb also as the `:` command `name`.
    pub const fn also(self, name: &'static str) -> Self {
        Verb {
            command: Some(name),
            ..self
        }
    }

    /// The command's words after its name, for the help.
    pub const fn args(self, args: &'static str) -> Self {
        Verb { args, ..self }
    }

    pub const fn writes(self) -> Self {
        Verb {
            writes: true,
            ..self
        }
    }

    pub const fn starts_new(self) -> Self {
        Verb {
            starts_new: true,
            ..self
        }
    }

    pub const fn offered(self, when: fn(&Parts<S>) -> bool) -> Self {
        Verb {
            offered: when,
            ..self
        }
    }

    fn hint(&self) -> Option<PaneHint> {
        self.key.map(|key| PaneHint::action(key, self.label))
    }

    /// What the help says of it.
    pub fn help(&self) -> VerbHelp {
        VerbHelp {
            key: self.key,
            command: self.command.map(|c| {
                if self.args.is_empty() {
                    format!(":{c}")
                } else {
                    format!(":{c} {}", self.args)
                }
            }),
            label: self.label.to_owned(),
            writes: self.writes,
        }
    }
}

/// The hints of the verbs whose keys act on the screen shown, in the order declared; on a
/// record's detail, those that start something new come last.
pub fn hints<S: PaneSpec>(parts: &Parts<S>) -> Vec<PaneHint> {
    let here: Vec<&Verb<S>> = S::VERBS
        .iter()
        .filter(|v| v.on.covers(&parts.screen) && (v.offered)(parts))
        .collect();
    let detail = parts.screen.is_detail();
    let record = here.iter().filter(|v| !(detail && v.starts_new));
    let new = here.iter().filter(|v| detail && v.starts_new);
    record.chain(new).filter_map(|v| v.hint()).collect()
}

/// The verb `action` does on the screen shown.
pub fn keyed<S: PaneSpec>(action: Action, parts: &Parts<S>) -> Option<&'static Verb<S>> {
    S::VERBS
        .iter()
        .find(|v| v.key == Some(action) && v.on.covers(&parts.screen))
}

/// The verb of the `:` command `name`.
pub fn named<S: PaneSpec>(name: &str) -> Option<&'static Verb<S>> {
    S::VERBS.iter().find(|v| v.command == Some(name))
}

/// Does `verb`, unless it writes and writes are off.
pub fn run<S: PaneSpec>(
    verb: &Verb<S>,
    spec: &mut S,
    parts: &mut Parts<S>,
    args: &[&str],
    ctx: &mut Ctx,
) {
    if verb.writes && ctx.read_only() {
        ctx.notify(Level::Error, READ_ONLY);
        return;
    }
    (verb.run)(Doing {
        spec,
        parts,
        args,
        ctx,
    });
}

/// What a write refused in read-only mode says.
pub const READ_ONLY: &str = "Read-only mode: changes are turned off.";

/// The `?` help's lines of a tab's verbs, with their live keys: each key (but the hints of the
/// screen shown, already listed), then each `:` command; writes left out in read-only mode.
pub fn help_lines(
    verbs: &[VerbHelp],
    shown: &[(String, &'static str)],
    keys: &Keymap,
    read_only: bool,
) -> Vec<(String, String)> {
    let verbs: Vec<&VerbHelp> = verbs.iter().filter(|v| !(read_only && v.writes)).collect();
    let keyed = verbs
        .iter()
        .filter_map(|v| Some((keys.keys_for(v.key?), v.label.clone())))
        .filter(|(keys, _)| !keys.is_empty());
    let commands = verbs
        .iter()
        .filter_map(|v| Some((v.command.clone()?, v.label.clone())));
    let mut lines: Vec<(String, String)> = Vec::new();
    for line in keyed.chain(commands) {
        let listed = shown.iter().any(|(k, l)| *k == line.0 && *l == line.1);
        if !listed && !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::help_lines;
    use crate::ui::keymap::Keymap;
    use crate::ui::pane::{Pane, VerbHelp};

    /// What every tab, and the second view of each tab with two, does.
    fn every_view() -> Vec<(String, Vec<VerbHelp>)> {
        let mut views: Vec<(String, Vec<VerbHelp>)> = crate::ui::panes::all()
            .iter()
            .map(|p| (p.title().to_owned(), p.verbs()))
            .collect();
        let imports = crate::ui::panes::exemptions::pane();
        views.push(("Imports".to_owned(), imports.second().verbs()));
        let nexus = crate::ui::panes::nexus::pane();
        views.push(("Economic".to_owned(), nexus.second().verbs()));
        views
    }

    #[test]
    fn a_verb_bound_to_a_key_writes_exactly_when_its_key_is_a_write() {
        for (view, verbs) in every_view() {
            for verb in verbs {
                if let Some(key) = verb.key {
                    assert_eq!(verb.writes, key.is_write(), "{view}: {verb:?}");
                }
            }
        }
    }

    #[test]
    fn the_help_of_every_tab_lists_each_of_the_commands_it_offers() {
        for tab in crate::ui::panes::all() {
            let verbs = tab.verbs();
            let lines = help_lines(&verbs, &[], &Keymap::default(), false);
            for command in verbs.iter().filter_map(|v| v.command.as_deref()) {
                let name = command.split(' ').next();
                assert!(
                    lines.iter().any(|(keys, _)| keys.split(' ').next() == name),
                    "{} lists {command}: {lines:?}",
                    tab.title()
                );
            }
        }
        // A verb of the other API is left out of the help, as the footer leaves it out; its
        // command still answers (saying that it needs the Tenanted API).
        let filings = crate::ui::panes::all()
            .into_iter()
            .find(|t| t.title() == "Filings")
            .unwrap();
        let lines = help_lines(&filings.verbs(), &[], &Keymap::default(), false);
        assert!(
            !lines.iter().any(|(keys, _)| keys == ":back-filing"),
            "{lines:?}"
        );
        assert!(filings.commands().contains(&"back-filing"));
    }

    #[test]
    fn read_only_help_leaves_the_writes_out_and_a_shown_hint_is_not_listed_twice() {
        let tab = crate::ui::panes::customers::CustomersPane::default();
        let keys = Keymap::default();
        let shown = [(
            keys.keys_for(crate::ui::keymap::Action::New),
            "new customer",
        )];
        let lines = help_lines(&tab.verbs(), &shown, &keys, false);
        assert!(!lines.iter().any(|(k, _)| *k == shown[0].0), "{lines:?}");
        assert!(lines.iter().any(|(k, _)| k == ":new"), "{lines:?}");
        let read_only = help_lines(&tab.verbs(), &[], &keys, true);
        assert_eq!(
            read_only
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>(),
            [":addresses"],
            "only the read: {read_only:?}"
        );
    }
}
