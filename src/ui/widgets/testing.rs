//! Helpers shared by the widget tests: key events and reading a rendered buffer.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// A plain key press.
pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Ctrl plus a letter.
pub fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Shift-Tab as crossterm reports it.
pub fn back_tab() -> KeyEvent {
    KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)
}

/// The key presses that type `text`.
pub fn typing(text: &str) -> impl Iterator<Item = KeyEvent> + '_ {
    text.chars().map(|c| key(KeyCode::Char(c)))
}

/// A blank buffer of `width` x `height` at the origin.
pub fn blank(width: u16, height: u16) -> Buffer {
    Buffer::empty(Rect::new(0, 0, width, height))
}

/// The text of row `y`, trailing spaces removed.
pub fn row_text(buf: &Buffer, y: u16) -> String {
    let area = buf.area;
    let row: String = (area.left()..area.right())
        .map(|x| buf[(x, y)].symbol())
        .collect();
    row.trim_end().to_owned()
}

/// The whole buffer as text, one row per line.
pub fn all_text(buf: &Buffer) -> String {
    (buf.area.top()..buf.area.bottom())
        .map(|y| row_text(buf, y))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where `needle` first starts, as (x, y); panics with the whole screen when it is absent.
pub fn find(buf: &Buffer, needle: &str) -> (u16, u16) {
    for y in buf.area.top()..buf.area.bottom() {
        let cells: Vec<&str> = (buf.area.left()..buf.area.right())
            .map(|x| buf[(x, y)].symbol())
            .collect();
        let wanted: Vec<String> = needle.chars().map(String::from).collect();
        if let Some(x) = cells.windows(wanted.len()).position(|w| w == wanted) {
            return (buf.area.left() + x as u16, y);
        }
    }
    panic!("{needle:?} not found in:\n{}", all_text(buf));
}

/// Checks that every cell of `needle`, where it first appears, carries `style`'s colours and
/// modifiers (other attributes of the cell may add to them).
pub fn assert_styled(buf: &Buffer, needle: &str, style: Style) {
    let (x, y) = find(buf, needle);
    for dx in 0..needle.chars().count() as u16 {
        let cell = &buf[(x + dx, y)];
        let got = cell.style();
        if let Some(fg) = style.fg {
            assert_eq!(got.fg, Some(fg), "fg of {needle:?} at column {}", x + dx);
        }
        if let Some(bg) = style.bg {
            assert_eq!(got.bg, Some(bg), "bg of {needle:?} at column {}", x + dx);
        }
        assert!(
            got.add_modifier.contains(style.add_modifier),
            "modifiers of {needle:?} at column {}: {:?}, expected {:?}",
            x + dx,
            got.add_modifier,
            style.add_modifier
        );
    }
}
