//! The editing keys every text input answers to, as in a shell: one function, used by the form's
//! text fields, the command line, the typed confirmation and the exemption search.
//!
//! | key | does |
//! |---|---|
//! | `Ctrl-A` / `Home`, `Ctrl-E` / `End` | to the start / end of the line |
//! | `Ctrl-B` / `←`, `Ctrl-F` / `→` | one character back / forward |
//! | `Alt-B` / `Ctrl-←`, `Alt-F` / `Ctrl-→` | one word back / forward |
//! | `Ctrl-U` | delete to the start of the line |
//! | `Ctrl-K` | delete to the end of the line |
//! | `Ctrl-W`, `Alt-Backspace` | delete the word before the cursor |
//! | `Alt-D` | delete the word after the cursor |
//! | `Ctrl-H` / `Backspace`, `Ctrl-D` / `Delete` | delete the character before / under the cursor |
//! | `Ctrl-Z` | undo the last edit |
//!
//! Printable characters are typed as they are. The text area's own bindings are not used: they
//! differ from the shell's (its `Ctrl-U` is undo), and its clipboard keys would surprise.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea};

use super::keys::typed_char;

/// The keys, for the help overlay.
pub const KEYS: &[(&str, &str)] = &[
    (
        "Ctrl-A/E, Alt-B/F",
        "start/end of the line, word back/forward",
    ),
    (
        "Ctrl-U/K, Ctrl-W",
        "delete to the start/end, the word before",
    ),
    ("Ctrl-Z", "undo"),
];

/// What a key did to a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEdit {
    /// Not an editing key: the caller may use it.
    Ignored,
    /// The cursor moved; the text is the same.
    Moved,
    /// The text changed.
    Changed,
}

impl LineEdit {
    /// Whether the key was an editing key.
    pub fn handled(self) -> bool {
        self != LineEdit::Ignored
    }

    /// Whether the text changed.
    pub fn changed(self) -> bool {
        self == LineEdit::Changed
    }
}

/// Applies one editing key to `area` (see the module table). Enter is not an editing key here:
/// the caller decides whether it makes a new line.
pub fn edit(area: &mut TextArea<'_>, key: &KeyEvent) -> LineEdit {
    if let Some(c) = typed_char(key) {
        area.insert_char(c);
        return LineEdit::Changed;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let moved = |area: &mut TextArea<'_>, m: CursorMove| {
        area.move_cursor(m);
        LineEdit::Moved
    };
    let changed = |did: bool| {
        if did {
            LineEdit::Changed
        } else {
            LineEdit::Moved
        }
    };
    match key.code {
        KeyCode::Char(c) if ctrl && !alt => match c.to_ascii_lowercase() {
            'a' => moved(area, CursorMove::Head),
            'e' => moved(area, CursorMove::End),
            'b' => moved(area, CursorMove::Back),
            'f' => moved(area, CursorMove::Forward),
            'u' => changed(area.delete_line_by_head()),
            'k' => changed(area.delete_line_by_end()),
            'w' => changed(area.delete_word()),
            'h' => changed(area.delete_char()),
            'd' => changed(area.delete_next_char()),
            'z' => changed(area.undo()),
            _ => LineEdit::Ignored,
        },
        KeyCode::Char(c) if alt && !ctrl => match c.to_ascii_lowercase() {
            'b' => moved(area, CursorMove::WordBack),
            'f' => moved(area, CursorMove::WordForward),
            'd' => changed(area.delete_next_word()),
            _ => LineEdit::Ignored,
        },
        KeyCode::Backspace if alt || ctrl => changed(area.delete_word()),
        KeyCode::Backspace => changed(area.delete_char()),
        KeyCode::Delete if alt || ctrl => changed(area.delete_next_word()),
        KeyCode::Delete => changed(area.delete_next_char()),
        KeyCode::Left if ctrl || alt => moved(area, CursorMove::WordBack),
        KeyCode::Right if ctrl || alt => moved(area, CursorMove::WordForward),
        KeyCode::Left => moved(area, CursorMove::Back),
        KeyCode::Right => moved(area, CursorMove::Forward),
        KeyCode::Home => moved(area, CursorMove::Head),
        KeyCode::End => moved(area, CursorMove::End),
        _ => LineEdit::Ignored,
    }
}

/// Pasted `text` as a text input takes it: line breaks (`\r\n`, `\n`, `\r`) kept as `\n` when
/// the input has several lines, made spaces on a single line, as tabs are; other control
/// characters (a pasted escape sequence) dropped.
pub fn pasted_chars(text: &str, multi_line: bool) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.chars().peekable();
    std::iter::from_fn(move || {
        loop {
            let c = chars.next()?;
            let c = match c {
                '\r' if chars.peek() == Some(&'\n') => continue,
                '\r' | '\n' if multi_line => '\n',
                '\r' | '\n' | '\t' => ' ',
                c if c.is_control() => continue,
                c => c,
            };
            return Some(c);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> TextArea<'static> {
        let mut area = TextArea::new(vec![text.to_owned()]);
        area.move_cursor(CursorMove::End);
        area
    }

    fn press(area: &mut TextArea<'_>, code: KeyCode, modifiers: KeyModifiers) -> LineEdit {
        edit(area, &KeyEvent::new(code, modifiers))
    }

    fn ctrl(area: &mut TextArea<'_>, c: char) -> LineEdit {
        press(area, KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    fn alt(area: &mut TextArea<'_>, c: char) -> LineEdit {
        press(area, KeyCode::Char(c), KeyModifiers::ALT)
    }

    fn text(area: &TextArea<'_>) -> String {
        area.lines().join("\n")
    }

    fn typed(area: &mut TextArea<'_>, s: &str) {
        for c in s.chars() {
            press(area, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    #[test]
    fn ctrl_u_and_ctrl_k_delete_to_the_start_and_the_end() {
        let mut area = line("Acme Industrial Supply");
        // Cursor after "Acme ".
        ctrl(&mut area, 'a');
        for _ in 0..5 {
            ctrl(&mut area, 'f');
        }
        assert_eq!(ctrl(&mut area, 'k'), LineEdit::Changed);
        assert_eq!(text(&area), "Acme ");
        typed(&mut area, "Corp");
        assert_eq!(ctrl(&mut area, 'u'), LineEdit::Changed);
        assert_eq!(
            text(&area),
            "",
            "Ctrl-U deletes the whole line before the cursor"
        );
    }

    #[test]
    fn ctrl_w_and_alt_backspace_delete_a_word() {
        let mut area = line("ship to Denver CO");
        assert!(ctrl(&mut area, 'w').changed());
        assert_eq!(text(&area), "ship to Denver ");
        assert!(press(&mut area, KeyCode::Backspace, KeyModifiers::ALT).changed());
        assert_eq!(text(&area), "ship to ");
    }

    #[test]
    fn ctrl_a_e_and_alt_b_f_move_without_changing() {
        let mut area = line("one two three");
        assert_eq!(ctrl(&mut area, 'a'), LineEdit::Moved);
        typed(&mut area, ">");
        assert_eq!(text(&area), ">one two three");
        assert_eq!(ctrl(&mut area, 'e'), LineEdit::Moved);
        alt(&mut area, 'b');
        alt(&mut area, 'b');
        typed(&mut area, "_");
        assert_eq!(text(&area), ">one _two three");
        alt(&mut area, 'f');
        typed(&mut area, "^");
        assert_eq!(text(&area), ">one _two ^three");
    }

    #[test]
    fn other_keys_are_left_to_the_caller() {
        let mut area = line("x");
        assert_eq!(
            press(&mut area, KeyCode::Enter, KeyModifiers::NONE),
            LineEdit::Ignored
        );
        assert_eq!(ctrl(&mut area, 's'), LineEdit::Ignored);
        assert_eq!(
            press(&mut area, KeyCode::Tab, KeyModifiers::NONE),
            LineEdit::Ignored
        );
        assert_eq!(text(&area), "x");
        assert_eq!(ctrl(&mut area, 'z'), LineEdit::Moved, "nothing to undo");
    }
}
