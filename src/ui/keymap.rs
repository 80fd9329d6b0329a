//! Keys to actions: the defaults users of k9s and gitui expect, merged with the config file's
//! `[keys]` overrides. While a text field has focus the keymap is not consulted: printable keys
//! go to the field.

use std::collections::BTreeMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Declares [`Action`] with each action's name in the config file's `[keys]` table, so the list
/// of actions and their names come from one place: an action cannot be left out of
/// [`Action::ALL`] or be missing a name.
macro_rules! actions {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)+) => {
        /// Everything a key can ask for outside a text field.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $($(#[$doc])* $variant,)+
            /// Shows tab `n` (1-based).
            Pane(u8),
        }

        impl Action {
            /// Every action but the tabs, in declaration order.
            const NAMED: &'static [Action] = &[$(Action::$variant,)+];

            /// The name used in the config file's `[keys]` table: `copy_id`, `pane_2`.
            pub fn name(self) -> String {
                match self {
                    $(Action::$variant => $name.to_owned(),)+
                    Action::Pane(n) => format!("pane_{n}"),
                }
            }
        }
    };
}

actions! {
    Quit = "quit",
    Help = "help",
    CommandLine = "command_line",
    Filter = "filter",
    Refresh = "refresh",
    Up = "up",
    Down = "down",
    Top = "top",
    Bottom = "bottom",
    PageUp = "page_up",
    PageDown = "page_down",
    Open = "open",
    Back = "back",
    NextPane = "next_pane",
    PrevPane = "prev_pane",
    Sort = "sort",
    SortReverse = "sort_reverse",
    CopyId = "copy_id",
    Reveal = "reveal",
    OpenUrl = "open_url",
    /// Switches between the views of a pane (physical and economic nexus).
    ToggleView = "toggle_view",
    New = "new",
    Edit = "edit",
    Delete = "delete",
    Deregister = "deregister",
    /// Issues a credit note against the selected sale.
    CreditNote = "credit_note",
    /// Attaches a file (an exemption's certificate).
    Attach = "attach",
    /// Adds or replaces a customer's tax id.
    TaxId = "tax_id",
    /// Sets a registration's portal credentials and access code.
    Credentials = "credentials",
    /// Opens an economic nexus's exposure history.
    History = "history",
    /// Marks or unmarks the selected row for an action on several rows.
    Mark = "mark",
    /// Approves the marked rows (or the selected one): certificate imports, filings.
    Approve = "approve",
    /// Pauses the marked filings (or the selected one).
    Pause = "pause",
    /// Switches the Exemptions pane between exemptions and certificate imports.
    Imports = "imports",
    /// Shows the past periods that can be filed late.
    BackFiling = "back_filing",
    /// Filters the exemptions to the active ones ending within 30 days.
    Expiring = "expiring",
    /// Filters the exemptions to those that ended in the last 30 days.
    Expired = "expired",
    /// Saves an attached file (an exemption's certificate) to a path.
    SaveFile = "save_file",
    /// Opens an attached file with the system's viewer.
    OpenFile = "open_file",
    /// Filters the products to those that need classification.
    NeedsClassification = "needs_classification",
    /// A finding's customer (the exempt sales check).
    Customer = "customer",
    /// Moves left, and right (the Overview's tiles, map and calendar).
    Left = "left",
    Right = "right",
    /// Moves to the next part of a pane, and to the previous one (the Overview's tiles, map
    /// and calendar).
    NextSection = "next_section",
    PrevSection = "prev_section",
    /// The jump prefix: then a letter opens what the record relates to; pressed twice, the
    /// first row (as `top`).
    Jump = "jump",
    /// Back to where the last jump left from, and forward again (the jump list).
    JumpBack = "jump_back",
    JumpForward = "jump_forward",
    /// Find anywhere: an id, an external id or text.
    Find = "find",
    /// Opens the record's history across the stored snapshots.
    RecordHistory = "record_history",
}

/// A `[keys]` name that names no action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no such action (actions: {known})")]
pub struct UnknownAction {
    pub name: String,
    known: String,
}

impl Action {
    /// Actions that change records. Read-only mode hides and refuses every one of them.
    pub const WRITES: &'static [Action] = &[
        Action::New,
        Action::Edit,
        Action::Delete,
        Action::Deregister,
        Action::CreditNote,
        Action::Attach,
        Action::TaxId,
        Action::Credentials,
        Action::Approve,
        Action::Pause,
    ];

    pub fn is_write(self) -> bool {
        Self::WRITES.contains(&self)
    }

    /// Every action, the tabs 1 to 9 included.
    pub fn all() -> impl Iterator<Item = Action> {
        Self::NAMED.iter().copied().chain((1..=9).map(Action::Pane))
    }

    /// The action a `[keys]` name names.
    pub fn from_name(name: &str) -> Result<Action, UnknownAction> {
        Self::all()
            .find(|a| a.name() == name)
            .ok_or_else(|| UnknownAction {
                name: name.to_owned(),
                known: Self::NAMED
                    .iter()
                    .map(|a| a.name())
                    .chain(std::iter::once("pane_1 … pane_9".to_owned()))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// A key with its modifiers, as written in the config file: `q`, `G`, `ctrl-r`, `shift-tab`,
/// `pgdn`, `f5`, `enter`, `esc`, `space`, `up`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl Key {
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> Self {
        Key { code, modifiers }
    }

    pub const fn plain(c: char) -> Self {
        Key {
            code: KeyCode::Char(c),
            modifiers: KeyModifiers::NONE,
        }
    }

    /// The key of an event; shift is folded into the character for printable keys (`G`).
    pub fn of(event: &KeyEvent) -> Self {
        let mut modifiers =
            event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match event.code {
            KeyCode::Char(c) => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::Char(c)
            }
            KeyCode::BackTab => {
                modifiers.insert(KeyModifiers::SHIFT);
                KeyCode::Tab
            }
            other => other,
        };
        Key { code, modifiers }
    }

    pub fn parse(text: &str) -> Result<Key, String> {
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower
                .strip_prefix("ctrl-")
                .or_else(|| lower.strip_prefix("c-"))
            {
                modifiers |= KeyModifiers::CONTROL;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("alt-") {
                modifiers |= KeyModifiers::ALT;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("shift-") {
                modifiers |= KeyModifiers::SHIFT;
                rest = &rest[rest.len() - r.len()..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => {
                modifiers |= KeyModifiers::SHIFT;
                KeyCode::Tab
            }
            "space" => KeyCode::Char(' '),
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => {
                        if modifiers.contains(KeyModifiers::SHIFT) && c.is_ascii_alphabetic() {
                            modifiers.remove(KeyModifiers::SHIFT);
                            KeyCode::Char(c.to_ascii_uppercase())
                        } else {
                            KeyCode::Char(c)
                        }
                    }
                    _ => {
                        return Err(format!(
                            "{text:?} is not a key (examples: q, G, ctrl-r, shift-tab, pgdn, f5)"
                        ));
                    }
                }
            }
        };
        Ok(Key { code, modifiers })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::F(n) => write!(f, "f{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// The bindings in force.
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: Vec<(Key, Action)>,
}

impl Default for Keymap {
    fn default() -> Self {
        use Action::{
            Approve, Attach, Back, BackFiling, Bottom, CommandLine, CopyId, Credentials,
            CreditNote, Customer, Delete, Deregister, Down, Edit, Expired, Expiring, Filter, Find,
            Help, History, Imports, Jump, JumpBack, JumpForward, Left, Mark, NeedsClassification,
            New, NextPane, NextSection, Open, OpenFile, OpenUrl, PageDown, PageUp, Pane, Pause,
            PrevPane, PrevSection, Quit, RecordHistory, Refresh, Reveal, Right, SaveFile, Sort,
            SortReverse, TaxId, ToggleView, Top, Up,
        };
        use KeyCode as K;
        let none = KeyModifiers::NONE;
        let mut bindings = vec![
            (Key::plain('q'), Quit),
            (Key::new(K::Char('c'), KeyModifiers::CONTROL), Quit),
            (Key::plain('?'), Help),
            (Key::plain(':'), CommandLine),
            (Key::plain('/'), Filter),
            (Key::plain('r'), Refresh),
            (Key::plain('k'), Up),
            (Key::new(K::Up, none), Up),
            (Key::plain('j'), Down),
            (Key::new(K::Down, none), Down),
            // `g g` goes to the first row through the jump prefix.
            (Key::plain('g'), Jump),
            (Key::new(K::Home, none), Top),
            (Key::plain('G'), Bottom),
            (Key::new(K::End, none), Bottom),
            (Key::new(K::PageUp, none), PageUp),
            (Key::new(K::PageDown, none), PageDown),
            (Key::new(K::Enter, none), Open),
            (Key::new(K::Esc, none), Back),
            (Key::new(K::Tab, none), NextPane),
            (Key::new(K::Tab, KeyModifiers::SHIFT), PrevPane),
            (Key::plain('s'), Sort),
            (Key::plain('S'), SortReverse),
            (Key::plain('y'), CopyId),
            (Key::plain('v'), Reveal),
            (Key::plain('o'), OpenUrl),
            (Key::plain('V'), ToggleView),
            (Key::plain('a'), Attach),
            (Key::plain('t'), TaxId),
            (Key::plain('n'), New),
            (Key::plain('e'), Edit),
            (Key::plain('x'), Delete),
            (Key::plain('D'), Deregister),
            (Key::plain('c'), CreditNote),
            // Tenanted API: portal credentials, exposure history.
            (Key::plain('C'), Credentials),
            (Key::plain('h'), History),
            // The record across the stored snapshots.
            (Key::plain('H'), RecordHistory),
            (Key::plain(' '), Mark),
            (Key::plain('A'), Approve),
            (Key::plain('P'), Pause),
            (Key::plain('I'), Imports),
            (Key::plain('b'), BackFiling),
            // Exemptions: the expiry windows one key away.
            (Key::plain('E'), Expiring),
            (Key::plain('X'), Expired),
            // Products: the ones that need classification one key away.
            (Key::plain('u'), NeedsClassification),
            // The exempt sales check: the finding's customer.
            (Key::plain('U'), Customer),
            (Key::plain('w'), SaveFile),
            (Key::plain('O'), OpenFile),
            (Key::new(K::Left, none), Left),
            (Key::new(K::Right, none), Right),
            (Key::plain(']'), NextSection),
            (Key::plain('['), PrevSection),
            (Key::new(K::Char('k'), KeyModifiers::CONTROL), Find),
            (Key::new(K::Char('o'), KeyModifiers::CONTROL), JumpBack),
            // Most terminals send ctrl-i as Tab (the next tab): ctrl-n goes forward there.
            (Key::new(K::Char('i'), KeyModifiers::CONTROL), JumpForward),
            (Key::new(K::Char('n'), KeyModifiers::CONTROL), JumpForward),
        ];
        bindings.extend((1..=9u8).map(|n| (Key::plain(char::from(b'0' + n)), Pane(n))));
        Keymap { bindings }
    }
}

impl Keymap {
    /// The defaults with `overrides` (action name → key) applied: an override replaces every
    /// default key of that action. Unknown actions or keys are reported, not ignored.
    pub fn with_overrides(overrides: &BTreeMap<String, String>) -> Result<Keymap, String> {
        let mut map = Keymap::default();
        for (name, key) in overrides {
            let action = Action::from_name(name).map_err(|e| format!("[keys] {name}: {e}"))?;
            let key = Key::parse(key).map_err(|e| format!("[keys] {name}: {e}"))?;
            map.bindings.retain(|(k, a)| *a != action && *k != key);
            map.bindings.push((key, action));
        }
        Ok(map)
    }

    pub fn action(&self, event: &KeyEvent) -> Option<Action> {
        let key = Key::of(event);
        self.bindings
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| *a)
    }

    /// The keys bound to `action`, as shown in hints (`j/↓`).
    pub fn keys_for(&self, action: Action) -> String {
        let keys: Vec<String> = self
            .bindings
            .iter()
            .filter(|(_, a)| *a == action)
            .map(|(k, _)| k.to_string())
            .collect();
        keys.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn defaults_follow_the_conventions() {
        let map = Keymap::default();
        assert_eq!(
            map.action(&ev(KeyCode::Char('q'), KeyModifiers::NONE)),
            Some(Action::Quit)
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::Bottom)
        );
        assert_eq!(
            map.action(&ev(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Action::PrevPane)
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('2'), KeyModifiers::NONE)),
            Some(Action::Pane(2))
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(map.keys_for(Action::Down), "j/↓");
    }

    #[test]
    fn overrides_replace_the_default_keys() {
        let overrides = BTreeMap::from([
            ("refresh".to_owned(), "ctrl-r".to_owned()),
            ("quit".to_owned(), "Q".to_owned()),
        ]);
        let map = Keymap::with_overrides(&overrides).unwrap();
        assert_eq!(
            map.action(&ev(KeyCode::Char('r'), KeyModifiers::CONTROL)),
            Some(Action::Refresh)
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('r'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('Q'), KeyModifiers::SHIFT)),
            Some(Action::Quit)
        );
        assert_eq!(
            map.action(&ev(KeyCode::Char('q'), KeyModifiers::NONE)),
            None
        );
    }

    #[test]
    fn bad_overrides_are_reported() {
        let unknown = BTreeMap::from([("fly".to_owned(), "f".to_owned())]);
        assert!(
            Keymap::with_overrides(&unknown)
                .unwrap_err()
                .contains("fly")
        );
        let bad_key = BTreeMap::from([("quit".to_owned(), "ctrl-".to_owned())]);
        assert!(
            Keymap::with_overrides(&bad_key)
                .unwrap_err()
                .contains("quit")
        );
    }

    #[test]
    fn names_round_trip() {
        let all: Vec<Action> = Action::all().collect();
        for a in &all {
            assert_eq!(Action::from_name(&a.name()), Ok(*a), "{a:?}");
        }
        let names: std::collections::BTreeSet<String> = all.iter().map(|a| a.name()).collect();
        assert_eq!(names.len(), all.len(), "every action has a name of its own");
        assert!(
            Action::from_name("fly")
                .unwrap_err()
                .to_string()
                .contains("copy_id")
        );
        assert_eq!(Action::CopyId.name(), "copy_id");
        assert!(Action::Deregister.is_write() && !Action::Refresh.is_write());
    }
}
