//! Text for cells and labels: display-width truncation and padding, wrapping, and the formats of
//! money, rates, dates and counts.
//!
//! Widths are terminal columns, not bytes or chars: CJK ideographs and most emoji take two.
//! Money and rates are [`Decimal`]s formatted exactly; no floating point is involved.

use std::borrow::Cow;

use chrono::NaiveDate;
use ratatui::layout::Alignment;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use rust_decimal::Decimal;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::model::Timestamp;

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
    let mut out = String::with_capacity(end + ELLIPSIS.len_utf8());
    out.push_str(&s[..end]);
    out.push(ELLIPSIS);
    Cow::Owned(out)
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

/// Groups the digits of a whole number in threes: `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    group_digits(&n.to_string())
}

fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Digits after the decimal point of a currency's minor unit (ISO 4217); 2 when not listed.
pub fn minor_digits(currency: &str) -> u32 {
    const ZERO: &[&str] = &[
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV",
        "XAF", "XOF", "XPF",
    ];
    const THREE: &[&str] = &["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"];
    let code = currency.trim().to_ascii_uppercase();
    if ZERO.contains(&code.as_str()) {
        0
    } else if THREE.contains(&code.as_str()) {
        3
    } else {
        2
    }
}

/// Formats `value` with at least `min_scale` decimals and grouped thousands. Digits beyond
/// `min_scale` are kept (trailing zeros dropped) so nothing is ever rounded away.
fn decimal(value: Decimal, min_scale: u32) -> String {
    let mut d = value.normalize();
    if d.scale() < min_scale {
        d.rescale(min_scale);
    }
    let text = d.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(text.len() + int.len() / 3 + 1);
    if d.is_sign_negative() && !d.is_zero() {
        out.push('-');
    }
    out.push_str(&group_digits(int));
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// An amount of money: `1,234,567.89 USD`, `-12.50 EUR`, `1,500 JPY`.
///
/// At least the currency's minor-unit decimals (two unless the currency has none or three), more
/// when the amount really has them (`0.125 USD`): the value shown is always exact. Without a
/// currency the code is left off.
pub fn money(amount: Decimal, currency: Option<&str>) -> String {
    let code = currency.map(str::trim).filter(|c| !c.is_empty());
    let digits = code.map_or(2, minor_digits);
    let mut out = decimal(amount, digits);
    if let Some(code) = code {
        out.push(' ');
        out.push_str(&code.to_ascii_uppercase());
    }
    out
}

/// A rate given as a fraction, in percent with at least two decimals: `0.0725` → `7.25%`,
/// `0.08875` → `8.875%`, `0.06` → `6.00%`.
pub fn rate_percent(rate: Decimal) -> String {
    let mut out = decimal(rate * Decimal::ONE_HUNDRED, 2);
    out.push('%');
    out
}

/// A calendar date: `2026-11-15`.
pub fn date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// A point in time to the minute, in UTC: `2026-11-15 13:04 UTC`.
pub fn timestamp(t: &Timestamp) -> String {
    t.0.format("%Y-%m-%d %H:%M UTC").to_string()
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
    use std::str::FromStr;

    use ratatui::style::{Color, Stylize};

    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

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

    #[test]
    fn money_is_exact_and_grouped() {
        assert_eq!(money(dec("1234567.89"), Some("USD")), "1,234,567.89 USD");
        assert_eq!(money(dec("-1234.5"), Some("eur")), "-1,234.50 EUR");
        assert_eq!(money(dec("0"), Some("USD")), "0.00 USD");
        assert_eq!(money(dec("-0.00"), None), "0.00");
        assert_eq!(money(dec("999"), None), "999.00");
        assert_eq!(money(dec("1000"), None), "1,000.00");
        assert_eq!(money(dec("0.125"), Some("USD")), "0.125 USD");
        assert_eq!(money(dec("1500"), Some("JPY")), "1,500 JPY");
        assert_eq!(money(dec("-1.5"), Some("KWD")), "-1.500 KWD");
        assert_eq!(money(dec("-100000.10"), Some("CAD")), "-100,000.10 CAD");
    }

    #[test]
    fn rates_in_percent() {
        assert_eq!(rate_percent(dec("0.0725")), "7.25%");
        assert_eq!(rate_percent(dec("0.08875")), "8.875%");
        assert_eq!(rate_percent(dec("0.06")), "6.00%");
        assert_eq!(rate_percent(dec("0")), "0.00%");
    }

    #[test]
    fn counts_dates_and_timestamps() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(1234), "1,234");
        let d = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
        assert_eq!(date(d), "2026-11-15");
        let t = Timestamp::parse("2026-11-15T08:04:59-05:00").unwrap();
        assert_eq!(timestamp(&t), "2026-11-15 13:04 UTC");
    }
}
