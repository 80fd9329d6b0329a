//! A schema's `pattern` in a user's words: `^[0-9]{1,5}$` is "1 to 5 digits", `^[A-Z]{2}[0-9]{6}$`
//! "2 capital letters, then 6 digits". The state forms' identifiers are runs of character
//! classes with counts; a pattern outside that shape has no words, and its caller says it as a
//! format to follow.

/// One run of the pattern: the characters it takes and how many.
struct Run {
    what: Vec<&'static str>,
    min: u32,
    max: Option<u32>,
}

/// `pattern` in words, or `None` when it is not a plain sequence of character classes and
/// literal characters with counts (anchored at both ends).
pub fn pattern_in_words(pattern: &str) -> Option<String> {
    let body = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let mut runs = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        let what = match c {
            '[' => {
                let mut class = String::new();
                loop {
                    match chars.next()? {
                        ']' => break,
                        c => class.push(c),
                    }
                }
                class_words(&class)?
            }
            '\\' => match chars.next()? {
                'd' => vec!["digits"],
                c @ ('-' | '.' | '/' | ' ') => vec![literal(c)?],
                _ => return None,
            },
            c => vec![literal(c)?],
        };
        let quantifier = chars.next_if(|c| matches!(c, '?' | '+' | '*' | '{'));
        let (min, max) = match quantifier {
            Some('?') => (0, Some(1)),
            Some('+') => (1, None),
            Some('*') => (0, None),
            Some(_) => {
                let mut count = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        c => count.push(c),
                    }
                }
                let (min, max) = count.split_once(',').unwrap_or((&count, &count));
                let min = min.trim().parse().ok()?;
                let max = if max.trim().is_empty() {
                    None
                } else {
                    Some(max.trim().parse().ok()?)
                };
                if max.is_some_and(|m| m < min) {
                    return None;
                }
                (min, max)
            }
            _ => (1, Some(1)),
        };
        // A lazy or possessive quantifier is not an identifier's shape.
        if quantifier.is_some() && matches!(chars.peek(), Some('?' | '+')) {
            return None;
        }
        runs.push(Run { what, min, max });
    }
    if runs.is_empty() {
        return None;
    }
    let parts: Vec<String> = runs.iter().map(run_words).collect();
    Some(parts.join(", then "))
}

/// The words of a character class's contents: `0-9A-Z-` is digits, capital letters or hyphens.
fn class_words(class: &str) -> Option<Vec<&'static str>> {
    let mut out = Vec::new();
    let mut rest = class;
    while !rest.is_empty() {
        let (word, len) = if rest.starts_with("0-9") {
            ("digits", 3)
        } else if rest.starts_with("A-Z") {
            ("capital letters", 3)
        } else if rest.starts_with("a-z") {
            ("small letters", 3)
        } else if rest.starts_with("\\d") {
            ("digits", 2)
        } else {
            let c = rest.chars().next()?;
            (literal(c)?, c.len_utf8())
        };
        if !out.contains(&word) {
            out.push(word);
        }
        rest = &rest[len..];
    }
    if out.contains(&"capital letters") && out.contains(&"small letters") {
        out.retain(|w| *w != "capital letters" && *w != "small letters");
        out.insert(0, "letters");
    }
    Some(out)
}

/// The plural name of a literal character a pattern allows.
fn literal(c: char) -> Option<&'static str> {
    Some(match c {
        '-' => "hyphens",
        '.' => "full stops",
        '/' => "slashes",
        ' ' => "spaces",
        _ => return None,
    })
}

/// One run in words: "1 to 5 digits", "an optional hyphen", "digits, capital letters or
/// hyphens".
fn run_words(run: &Run) -> String {
    let what = match run.what.as_slice() {
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    };
    let one = |plural: &str| match plural {
        "digits" => "a digit".to_owned(),
        "hyphens" => "a hyphen".to_owned(),
        "full stops" => "a full stop".to_owned(),
        "slashes" => "a slash".to_owned(),
        "spaces" => "a space".to_owned(),
        "capital letters" => "a capital letter".to_owned(),
        "small letters" => "a small letter".to_owned(),
        "letters" => "a letter".to_owned(),
        other => format!("one of {other}"),
    };
    match (run.min, run.max) {
        (1, Some(1)) if run.what.len() == 1 => one(&what),
        (0, Some(1)) if run.what.len() == 1 => format!("an optional {}", &one(&what)[2..]),
        (n, Some(m)) if n == m => format!("{n} {what}"),
        (0, Some(m)) => format!("up to {m} {what}"),
        (n, Some(m)) => format!("{n} to {m} {what}"),
        (0, None) => format!("any number of {what}"),
        (1, None) => format!("one or more {what}"),
        (n, None) => format!("at least {n} {what}"),
    }
}

#[cfg(test)]
mod tests {
    use super::pattern_in_words;

    #[test]
    fn the_state_forms_identifiers_read_in_words() {
        for (pattern, words) in [
            ("^[0-9]{1,5}$", "1 to 5 digits"),
            ("^[0-9]{11}$", "11 digits"),
            ("^[0-9]{9}$", "9 digits"),
            ("^[0-9]{6,9}$", "6 to 9 digits"),
            (
                "^[0-9]{3}-?[0-9]{6}$",
                "3 digits, then an optional hyphen, then 6 digits",
            ),
            ("^[A-Z]{2}[0-9]{6}$", "2 capital letters, then 6 digits"),
            (
                "^[A-Z0-9-]{6,15}$",
                "6 to 15 capital letters, digits or hyphens",
            ),
            ("^[0-9A-Z]{9,15}$", "9 to 15 digits or capital letters"),
            ("^[a-zA-Z]+$", "one or more letters"),
            ("^\\d{4}$", "4 digits"),
        ] {
            assert_eq!(
                pattern_in_words(pattern).as_deref(),
                Some(words),
                "{pattern}"
            );
        }
    }

    #[test]
    fn a_pattern_of_another_shape_has_no_words() {
        for pattern in [
            "[0-9]{3}",
            "^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$",
            "^[0-9]{5}(-[0-9]{4})?$",
            "^[0-9]{3,2}$",
            "^[0-9]}$",
            "^[0-9]+?$",
            "^x$",
            "^$",
        ] {
            assert_eq!(pattern_in_words(pattern), None, "{pattern}");
        }
    }
}
