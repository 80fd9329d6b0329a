//! Small questions every widget asks of a key event: is it a press, is it text, is it Ctrl-x.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Whether the event is a press or a repeat. Terminals that report key releases (Windows, or the
/// kitty protocol) send every key twice; widgets act on presses only.
pub fn is_press(key: &KeyEvent) -> bool {
    key.kind != KeyEventKind::Release
}

/// The character a key types, if it types one: a `Char` key without Ctrl or Alt (Shift is part of
/// the character). Ctrl and Alt together count as text, as that is how `AltGr` arrives on Windows.
pub fn typed_char(key: &KeyEvent) -> Option<char> {
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    (ctrl == alt && !c.is_control()).then_some(c)
}

/// Whether the key is Ctrl plus the letter `c` (`is_ctrl(key, 's')` for Ctrl-S).
pub fn is_ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && !key.modifiers.contains(KeyModifiers::ALT)
        && matches!(key.code, KeyCode::Char(k) if k.eq_ignore_ascii_case(&c))
}

/// Whether the key moves backwards through fields: Shift-Tab, which crossterm reports as
/// `BackTab`, or as `Tab` with Shift on some terminals.
pub fn is_back_tab(key: &KeyEvent) -> bool {
    key.code == KeyCode::BackTab
        || (key.code == KeyCode::Tab && key.modifiers.contains(KeyModifiers::SHIFT))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn text_is_a_char_without_ctrl_or_alt() {
        assert_eq!(
            typed_char(&with(KeyCode::Char('a'), KeyModifiers::NONE)),
            Some('a')
        );
        assert_eq!(
            typed_char(&with(KeyCode::Char('A'), KeyModifiers::SHIFT)),
            Some('A')
        );
        assert_eq!(
            typed_char(&with(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            None
        );
        assert_eq!(
            typed_char(&with(KeyCode::Char('b'), KeyModifiers::ALT)),
            None
        );
        let alt_gr = KeyModifiers::CONTROL | KeyModifiers::ALT;
        assert_eq!(typed_char(&with(KeyCode::Char('@'), alt_gr)), Some('@'));
        assert_eq!(typed_char(&with(KeyCode::Enter, KeyModifiers::NONE)), None);
    }

    #[test]
    fn ctrl_letters_and_back_tab() {
        assert!(is_ctrl(
            &with(KeyCode::Char('s'), KeyModifiers::CONTROL),
            's'
        ));
        assert!(!is_ctrl(&with(KeyCode::Char('s'), KeyModifiers::NONE), 's'));
        assert!(is_back_tab(&with(KeyCode::BackTab, KeyModifiers::SHIFT)));
        assert!(is_back_tab(&with(KeyCode::Tab, KeyModifiers::SHIFT)));
        assert!(!is_back_tab(&with(KeyCode::Tab, KeyModifiers::NONE)));
    }

    #[test]
    fn releases_are_not_presses() {
        let mut key = with(KeyCode::Char('a'), KeyModifiers::NONE);
        assert!(is_press(&key));
        key.kind = KeyEventKind::Release;
        assert!(!is_press(&key));
    }
}
