//! Text for cells and labels: display-width truncation and padding, and wrapping. The formats of
//! values (money, shares, rates, dates, timestamps, counts, sort labels) are
//! [`crate::model::format`]'s, re-exported here for the screens.
//!
//! Widths are terminal columns, not bytes or chars: CJK ideographs and most emoji take two. A
//! cut never falls inside a number: the whole number gives way to the `…` instead.

use std::borrow::Cow;

use ratatui::layout::Alignment;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub use crate::model::format::{
    ASCENDING, DESCENDING, count, credit, date, minor_digits, money, money_change, month, noun,
    percent_of, period, rate_percent, share, share_change, sorted_by, thousands, timestamp,
    utc_time,
};

/// The mark that ends a truncated text.
pub const ELLIPSIS: char = '…';

/// What a detail view or a cell shows for an absent value.
pub const MISSING: &str = "—";

/// Display width of one char; control characters count as zero.
fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Display width of a text in terminal columns.
pub fn width(s: &str) -> usize {
    s.width()
}

/// Cuts `s` to at most `width` columns, ending in `…` when anything was cut.
///
/// A wide char that would straddle the limit is left out, so the result may be one column short
/// of `width` but never longer. Text that fits is returned borrowed.
pub fn truncate(s: &str, width: usize) -> Cow<'_, str> {
    if s.width() <= width {
        return Cow::Borrowed(s);
    }
    if width == 0 {
        return Cow::Borrowed("");
    }
    let budget = width - 1; // one column for the ellipsis
    let mut used = 0;
    let mut end = 0;
    for (i, c) in s.char_indices() {
        let w = char_width(c);
        if used + w > budget {
            break;
        }
        used += w;
        end = i + c.len_utf8();
    }
    let end = number_start(s, end);
    let mut out = String::with_capacity(end + ELLIPSIS.len_utf8());
    out.push_str(&s[..end]);
    out.push(ELLIPSIS);
    Cow::Owned(out)
}

/// Where a cut of `s` after byte `end` must fall so that no number is cut inside its digits:
/// `end` itself when it is not inside one, else the start of that number (with its sign). A
/// number is a run of digits with its grouping commas and decimal point; a `%` right after it
/// belongs to it.
fn number_start(s: &str, end: usize) -> usize {
    let (kept, rest) = s.split_at(end);
    let digit_after = |t: &str| t.chars().nth(1).is_some_and(|c| c.is_ascii_digit());
    let digit_before = |t: &str| {
        let mut back = t.chars().rev();
        back.next();
        back.next().is_some_and(|c| c.is_ascii_digit())
    };
    let is_sign = |c: char| matches!(c, '-' | '+' | '\u{2212}');
    let (Some(prev), Some(next)) = (kept.chars().next_back(), rest.chars().next()) else {
        return end;
    };
    let next_in =
        next.is_ascii_digit() || next == '%' || (matches!(next, '.' | ',') && digit_after(rest));
    let prev_in = prev.is_ascii_digit()
        || (matches!(prev, '.' | ',') && digit_before(kept))
        || (is_sign(prev) && next.is_ascii_digit());
    if !(prev_in && next_in) {
        return end;
    }
    let body = kept.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    match body.chars().next_back() {
        Some(sign) if is_sign(sign) => {
            let before = &body[..body.len() - sign.len_utf8()];
            if before
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
            {
                before.len()
            } else {
                body.len()
            }
        }
        _ => body.len(),
    }
}

/// Truncates `s` to `width` columns and pads it with spaces to exactly `width` columns (one less
/// when a wide char could not fit), placing the text by `align`.
pub fn pad_to(s: &str, width: usize, align: Alignment) -> String {
    let cut = truncate(s, width);
    let gap = width.saturating_sub(cut.width());
    let (left, right) = match align {
        Alignment::Left => (0, gap),
        Alignment::Right => (gap, 0),
        Alignment::Center => (gap / 2, gap - gap / 2),
    };
    let mut out = String::with_capacity(cut.len() + gap);
    out.extend(std::iter::repeat_n(' ', left));
    out.push_str(&cut);
    out.extend(std::iter::repeat_n(' ', right));
    out
}

/// Cuts a styled line to at most `width` columns, ending in `…` (in the style of the span where
/// the cut fell) when anything was cut. The line's own style and alignment are kept.
pub fn truncate_line(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    let Line {
        style,
        alignment,
        spans,
    } = line;
    let mut out = Vec::with_capacity(spans.len());
    let mut left = width.saturating_sub(1);
    let mut last_style = Style::new();
    for span in spans {
        let w = span.width();
        last_style = span.style;
        if w <= left {
            left -= w;
            out.push(span);
            continue;
        }
        let mut end = 0;
        for (i, c) in span.content.char_indices() {
            let cw = char_width(c);
            if cw > left {
                break;
            }
            left -= cw;
            end = i + c.len_utf8();
        }
        let end = number_start(&span.content, end);
        if end > 0 {
            let kept = match span.content {
                Cow::Borrowed(s) => Cow::Borrowed(&s[..end]),
                Cow::Owned(mut s) => {
                    s.truncate(end);
                    Cow::Owned(s)
                }
            };
            out.push(Span::styled(kept, span.style));
        }
        break;
    }
    if width > 0 {
        out.push(Span::styled(ELLIPSIS.to_string(), last_style));
    }
    let mut line = Line::from(out).style(style);
    line.alignment = alignment;
    line
}

/// Wraps a styled line into lines of at most `width` columns, breaking after spaces where it can
/// and inside a word only when a word is longer than a whole line. Always returns at least one
/// line.
pub fn wrap_line(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let chars: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut rows: Vec<&[(char, Style)]> = Vec::new();
    let (mut start, mut used, mut last_space) = (0, 0, None);
    let mut i = 0;
    while i < chars.len() {
        let (c, _) = chars[i];
        let w = char_width(c);
        if used + w > width && i > start {
            // Break at `c` when it is a space, else after the last space of this row when
            // there is one, else before `c` (a word longer than a line).
            let cut = match last_space {
                _ if c == ' ' => i,
                Some(sp) if sp > start => sp + 1,
                _ => i,
            };
            rows.push(&chars[start..cut]);
            start = cut;
            while start < chars.len() && chars[start].0 == ' ' {
                start += 1;
            }
            i = start;
            used = 0;
            last_space = None;
            continue;
        }
        if c == ' ' {
            last_space = Some(i);
        }
        used += w;
        i += 1;
    }
    if start < chars.len() || rows.is_empty() {
        rows.push(&chars[start..]);
    }
    rows.into_iter()
        .map(|row| {
            let mut spans: Vec<Span<'static>> = Vec::new();
            for &(c, style) in row {
                match spans.last_mut() {
                    Some(span) if span.style == style => span.content.to_mut().push(c),
                    _ => spans.push(Span::styled(c.to_string(), style)),
                }
            }
            // Trailing spaces at a break carry no meaning.
            if let Some(last) = spans.last_mut() {
                let trimmed = last.content.trim_end().len();
                last.content.to_mut().truncate(trimmed);
            }
            Line::from(spans).style(line.style)
        })
        .collect()
}

/// The text of each row of a buffer, wide chars counted once (for tests of widgets).
#[cfg(test)]
pub(crate) fn buffer_lines(buf: &ratatui::buffer::Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            let mut row = String::new();
            let mut x = area.left();
            while x < area.right() {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                x += u16::try_from(symbol.width().max(1)).unwrap_or(1);
            }
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};

    use super::*;

    #[test]
    fn truncate_keeps_text_that_fits() {
        assert!(matches!(truncate("Texas", 5), Cow::Borrowed("Texas")));
        assert_eq!(truncate("", 3), "");
        assert_eq!(truncate("Texas", 0), "");
    }

    #[test]
    fn truncate_ends_in_an_ellipsis() {
        assert_eq!(truncate("California", 6), "Calif…");
        assert_eq!(truncate("California", 1), "…");
    }

    #[test]
    fn truncate_counts_wide_chars_as_two_and_never_overflows() {
        // Each ideograph is two columns wide.
        assert_eq!(truncate("東京都港区", 10), "東京都港区");
        assert_eq!(truncate("東京都港区", 7), "東京都…");
        // 6 columns: two ideographs (4) + ellipsis (1) = 5; a third would overflow.
        let cut = truncate("東京都港区", 6);
        assert_eq!(cut, "東京…");
        assert!(cut.width() <= 6);
        assert_eq!(truncate("ok 🎉🎉🎉", 6), "ok 🎉…");
        for w in 0..12 {
            assert!(truncate("株式会社 🎉 Ünïcode", w).width() <= w, "width {w}");
        }
    }

    #[test]
    fn a_cut_never_falls_inside_a_number() {
        // The whole amount gives way rather than showing `1356.`.
        assert_eq!(truncate("ord-7  SALE  1,356.00 USD", 18), "ord-7  SALE  …");
        assert_eq!(truncate("1,356.00 USD", 6), "…");
        assert_eq!(truncate("1,356.00 USD", 10), "1,356.00 …");
        assert_eq!(truncate("✗ collected -10.7%", 16), "✗ collected …");
        assert_eq!(truncate("████ 95.8%", 9), "████ …");
        assert_eq!(truncate("total 12", 7), "total …");
        // Text without digits is cut as before.
        assert_eq!(truncate("California", 6), "Calif…");
        let cut = truncate_line(Line::from(vec!["Due ".bold(), "4,731.00 USD".red()]), 9);
        assert_eq!(cut.to_string(), "Due …");
    }

    #[test]
    fn pad_to_aligns() {
        assert_eq!(pad_to("ab", 5, Alignment::Left), "ab   ");
        assert_eq!(pad_to("ab", 5, Alignment::Right), "   ab");
        assert_eq!(pad_to("ab", 5, Alignment::Center), " ab  ");
        assert_eq!(pad_to("abcdef", 4, Alignment::Right), "abc…");
        assert_eq!(pad_to("東京都", 4, Alignment::Left), "東… ");
    }

    #[test]
    fn truncate_line_cuts_across_spans_and_keeps_styles() {
        let line = Line::from(vec!["Reg ".bold(), "東京都港区".red()]);
        let cut = truncate_line(line, 9);
        assert!(cut.width() <= 9);
        assert_eq!(cut.spans.len(), 3);
        assert_eq!(cut.spans[1].content, "東京");
        assert_eq!(cut.spans[2].content, "…");
        assert_eq!(cut.spans[2].style.fg, Some(Color::Red));
        let short = Line::from("short");
        assert_eq!(truncate_line(short.clone(), 9), short);
    }

    #[test]
    fn wrap_line_breaks_at_spaces_and_inside_long_words() {
        let rows = wrap_line(&Line::from("one two three"), 7);
        let text: Vec<String> = rows.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["one two", "three"]);
        let rows = wrap_line(&Line::from("abcdefghij"), 4);
        let text: Vec<String> = rows.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_line(&Line::from(""), 4).len(), 1);
        let rows = wrap_line(&Line::from("東京都港区"), 5);
        assert!(rows.iter().all(|r| r.width() <= 5));
    }
}
