//! Reading the text of a theme file (the schema is described in the parent module).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use ratatui::style::{Color, Modifier, Style};
use toml::{Spanned, Value};

use super::color::parse_color;
use super::{BUILT_IN, ColorDepth, Theme, ThemeError};

/// Keys of a theme file that are not styles.
const INHERITS: &str = "inherits";
const DESCRIPTION: &str = "description";

/// How many built-in themes may stand behind one another through `inherits`.
const MAX_INHERITANCE: usize = 4;

/// Reads a theme from the TOML `text` of `file` (named in errors). `depth` counts the themes
/// already being read through `inherits`.
pub(super) fn parse_theme(
    name: &str,
    file: &str,
    text: &str,
    depth: usize,
) -> Result<Theme, ThemeError> {
    let entries: BTreeMap<String, Spanned<Value>> =
        toml::from_str(text).map_err(|e| ThemeError::Syntax {
            file: file.to_owned(),
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            message: e.message().trim().to_owned(),
        })?;
    let field_error = |field: &str, span: Range<usize>, message: String| ThemeError::Field {
        file: file.to_owned(),
        line: line_of(text, span.start),
        field: field.to_owned(),
        message,
    };

    let inherits = entries.get(INHERITS);
    let mut theme = match inherits {
        Some(value) => {
            let span = value.span();
            let base = value.get_ref().as_str().ok_or_else(|| {
                field_error(INHERITS, span.clone(), "expected a theme name".into())
            })?;
            if depth >= MAX_INHERITANCE {
                return Err(field_error(
                    INHERITS,
                    span,
                    "themes inherit too deeply".into(),
                ));
            }
            let Some((_, base_text)) = BUILT_IN.iter().find(|(n, _)| *n == base) else {
                let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
                return Err(field_error(
                    INHERITS,
                    span,
                    format!(
                        "no built-in theme {base:?}; built-in themes: {}",
                        names.join(", ")
                    ),
                ));
            };
            let base_file = format!("themes/{base}.toml (built in)");
            parse_theme(base, &base_file, base_text, depth + 1)?
        }
        None => Theme::default(),
    };

    let mut set = BTreeSet::new();
    for (key, value) in &entries {
        if key == INHERITS || key == DESCRIPTION {
            continue;
        }
        let Some(slot) = theme.style_mut(key) else {
            return Err(field_error(
                key,
                value.span(),
                format!(
                    "not a theme field (fields: {}, {INHERITS}, {DESCRIPTION})",
                    Theme::FIELDS.join(", ")
                ),
            ));
        };
        *slot = parse_style(value.get_ref()).map_err(|m| field_error(key, value.span(), m))?;
        set.insert(key.as_str());
    }

    if inherits.is_none() {
        let missing: Vec<String> = Theme::FIELDS
            .iter()
            .filter(|f| !set.contains(**f))
            .map(|f| (*f).to_owned())
            .collect();
        if !missing.is_empty() {
            return Err(ThemeError::Missing {
                file: file.to_owned(),
                fields: missing,
            });
        }
    }

    name.clone_into(&mut theme.name);
    theme.depth = if theme.is_monochrome() {
        ColorDepth::Monochrome
    } else {
        ColorDepth::TrueColor
    };
    Ok(theme)
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text[..end].matches('\n').count() + 1
}

const STYLE_HELP: &str =
    "expected a colour or a table such as { fg = \"red\", bg = \"reset\", modifiers = [\"bold\"] }";

/// One style: a colour (the foreground) or a table of `fg`, `bg` and `modifiers`.
fn parse_style(value: &Value) -> Result<Style, String> {
    let table = match value {
        Value::String(_) | Value::Integer(_) => return Ok(Style::new().fg(colour(value)?)),
        Value::Table(table) => table,
        _ => return Err(STYLE_HELP.into()),
    };
    let mut style = Style::new();
    for (key, value) in table {
        match key.as_str() {
            "fg" => style = style.fg(colour(value)?),
            "bg" => style = style.bg(colour(value)?),
            "modifiers" => {
                let Value::Array(items) = value else {
                    return Err(
                        "`modifiers` must be a list such as [\"bold\", \"reversed\"]".into(),
                    );
                };
                for item in items {
                    let name = item
                        .as_str()
                        .ok_or_else(|| format!("modifier {item} is not a string"))?;
                    style = style.add_modifier(modifier(name)?);
                }
            }
            other => {
                return Err(format!(
                    "unknown key `{other}` (expected fg, bg, modifiers)"
                ));
            }
        }
    }
    Ok(style)
}

fn colour(value: &Value) -> Result<Color, String> {
    match value {
        Value::String(s) => parse_color(s),
        Value::Integer(i) => u8::try_from(*i)
            .map(Color::Indexed)
            .map_err(|_| format!("colour index {i} is out of range 0-255")),
        other => Err(format!(
            "{other} is not a colour (expected a name, \"#rrggbb\" or 0-255)"
        )),
    }
}

const MODIFIER_NAMES: &str =
    "bold, dim, italic, underlined, reversed, slow-blink, rapid-blink, hidden, crossed-out";

fn modifier(name: &str) -> Result<Modifier, String> {
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    Ok(match key.as_str() {
        "bold" => Modifier::BOLD,
        "dim" => Modifier::DIM,
        "italic" => Modifier::ITALIC,
        "underlined" | "underline" => Modifier::UNDERLINED,
        "reversed" | "reverse" => Modifier::REVERSED,
        "slowblink" | "blink" => Modifier::SLOW_BLINK,
        "rapidblink" => Modifier::RAPID_BLINK,
        "hidden" => Modifier::HIDDEN,
        "crossedout" | "strikethrough" => Modifier::CROSSED_OUT,
        _ => {
            return Err(format!(
                "unknown modifier {name:?} (expected: {MODIFIER_NAMES})"
            ));
        }
    })
}
