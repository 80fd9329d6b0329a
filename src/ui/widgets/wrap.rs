//! Word wrapping for the lines widgets lay out themselves, where the height must be known before
//! drawing (errors under a field, a dialog's message).

use unicode_width::UnicodeWidthStr;

/// Splits `text` into lines at most `width` columns wide, breaking between words, and inside a
/// word only when the word alone is wider than a line. Newlines in `text` are kept. An empty
/// text is one empty line.
pub fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let needed = if line.is_empty() { 0 } else { line.width() + 1 };
            if needed + word.width() <= width {
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                if line.width() + w > width && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                line.push(c);
            }
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_between_words() {
        assert_eq!(
            wrap("day 31 is out of range for February", 12),
            ["day 31 is", "out of range", "for February"]
        );
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("one\ntwo", 10), ["one", "two"]);
    }

    #[test]
    fn splits_a_word_wider_than_the_line() {
        assert_eq!(wrap("abcdefgh ij", 3), ["abc", "def", "gh", "ij"]);
    }
}
