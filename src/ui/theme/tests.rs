use std::collections::HashMap;

use ratatui::style::{Color, Modifier, Style};

use super::*;

/// Theme files held in memory.
#[derive(Default)]
struct Files(HashMap<&'static str, &'static str>);

impl Files {
    fn with(mut self, name: &'static str, text: &'static str) -> Self {
        self.0.insert(name, text);
        self
    }
}

impl ThemeFiles for Files {
    fn read(&self, name: &str) -> Result<Option<(String, String)>, ThemeError> {
        Ok(self
            .0
            .get(name)
            .map(|t| (format!("themes/{name}.toml"), (*t).to_owned())))
    }

    fn names(&self) -> Vec<String> {
        self.0.keys().map(|k| (*k).to_owned()).collect()
    }
}

fn colours(theme: &Theme) -> Vec<(&'static str, Color)> {
    theme
        .styles()
        .flat_map(|(name, s)| {
            [s.fg, s.bg, s.underline_color]
                .into_iter()
                .flatten()
                .map(move |c| (name, c))
        })
        .collect()
}

#[test]
fn every_built_in_theme_parses_and_sets_every_field() {
    for (name, _) in BUILT_IN {
        let theme = Theme::load(name, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(theme.name, *name);
    }
    assert_eq!(
        Theme::available(None),
        ["dark", "high-contrast", "light", "mono"]
    );
    assert_eq!(Theme::FIELDS.len(), Theme::default().styles().count());
}

#[test]
fn every_theme_with_colours_sets_its_own_background() {
    // Colours chosen for one background are unreadable on the other: a theme that colours its
    // text paints the background it was chosen for.
    for (name, _) in BUILT_IN {
        let theme = Theme::load(name, None).unwrap();
        if theme.is_monochrome() {
            continue;
        }
        let (fg, bg) = (theme.base.fg, theme.base.bg);
        assert!(
            matches!(fg, Some(c) if c != Color::Reset)
                && matches!(bg, Some(c) if c != Color::Reset),
            "{name}: base is {fg:?} on {bg:?}"
        );
    }
}

#[test]
fn mono_has_no_colour_but_reset() {
    let mono = Theme::load("mono", None).unwrap();
    for (field, c) in colours(&mono) {
        assert_eq!(c, Color::Reset, "field {field}");
    }
    assert!(mono.is_monochrome());
    assert_eq!(mono.depth, ColorDepth::Monochrome);
    // Meaning survives without colour.
    assert!(mono.selection.add_modifier.contains(Modifier::REVERSED));
    assert!(mono.error.add_modifier.contains(Modifier::BOLD));
}

#[test]
fn no_color_selects_mono_whatever_was_asked() {
    let theme = Theme::select(Some("dark"), true, true, None).unwrap();
    assert_eq!(theme.name, "mono");
    assert!(theme.is_monochrome());
    // A profile accent cannot bring colour back.
    assert!(theme.with_accent(Color::Magenta).is_monochrome());
}

#[test]
fn no_color_strips_colour_from_an_overriding_mono_file() {
    let files = Files::default().with("mono", "inherits = \"mono\"\nerror = \"red\"\n");
    let theme = Theme::select(None, true, true, Some(&files)).unwrap();
    assert!(theme.is_monochrome());
}

#[test]
fn without_truecolor_every_colour_fits_256() {
    for (name, _) in BUILT_IN {
        let theme = Theme::select(Some(name), false, false, None).unwrap();
        for (field, c) in colours(&theme) {
            assert!(!matches!(c, Color::Rgb(..)), "{name}.{field} is {c:?}");
        }
    }
    let dark = Theme::select(Some("dark"), false, false, None).unwrap();
    assert_eq!(dark.depth, ColorDepth::Indexed256);
    // #3e4451 → grey 238.
    assert_eq!(dark.selection.bg, Some(Color::Indexed(238)));
    // An accent given later keeps to the palette.
    let accented = dark.with_accent(Color::Rgb(0xff, 0, 0));
    assert_eq!(accented.accent.fg, Some(Color::Indexed(196)));
}

#[test]
fn truecolor_keeps_hex_colours() {
    let dark = Theme::select(None, false, true, None).unwrap();
    assert_eq!(dark.name, DEFAULT_THEME);
    assert_eq!(dark.selection.bg, Some(Color::Rgb(0x3e, 0x44, 0x51)));
}

#[test]
fn accent_replaces_accent_focus_border_and_header_background() {
    let theme = Theme::load("dark", None)
        .unwrap()
        .with_accent(Color::Magenta);
    assert_eq!(theme.accent.fg, Some(Color::Magenta));
    assert_eq!(theme.border_focus.fg, Some(Color::Magenta));
    assert_eq!(theme.header.bg, Some(Color::Magenta));
    // The rest is untouched, modifiers included.
    assert!(theme.accent.add_modifier.contains(Modifier::BOLD));
    assert_eq!(theme.header.fg, Some(Color::Rgb(0x1e, 0x21, 0x27)));
}

#[test]
fn override_dir_wins_and_adds_themes() {
    let files = Files::default()
        .with(
            "dark",
            "inherits = \"dark\"\nerror = { fg = \"light-red\", modifiers = [\"underlined\"] }\n",
        )
        .with("solar", "inherits = \"light\"\naccent = 33\n");
    let dark = Theme::load("dark", Some(&files)).unwrap();
    assert_eq!(
        dark.error,
        Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::UNDERLINED)
    );
    // Unset fields come from the built-in theme.
    assert_eq!(dark.muted, Theme::load("dark", None).unwrap().muted);

    let solar = Theme::load("solar", Some(&files)).unwrap();
    assert_eq!(solar.name, "solar");
    assert_eq!(solar.accent.fg, Some(Color::Indexed(33)));
    assert!(
        Theme::available(Some(&files)).contains(&"solar".to_owned()),
        "{:?}",
        Theme::available(Some(&files))
    );
    // No file of that name: the built-in theme loads.
    assert!(Theme::load("light", Some(&Files::default())).is_ok());
}

#[test]
fn unknown_name_lists_available_themes() {
    let err = Theme::load("solarized", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown theme \"solarized\"; available themes: dark, high-contrast, light, mono"
    );
    // A name is never a path.
    assert!(matches!(
        Theme::load("../dark", None),
        Err(ThemeError::Unknown { .. })
    ));
}

fn load_text(text: &'static str) -> ThemeError {
    Theme::load("mine", Some(&Files::default().with("mine", text))).unwrap_err()
}

#[test]
fn a_bad_colour_names_file_line_and_field() {
    let err = load_text("inherits = \"dark\"\n\nerror = { fg = \"redd\" }\n");
    let ThemeError::Field {
        file, line, field, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert!(file.ends_with("mine.toml"), "{file}");
    assert_eq!((*line, field.as_str()), (3, "error"));
    let text = err.to_string();
    assert!(
        text.contains(":3: field `error`: unknown colour \"redd\""),
        "{text}"
    );
}

#[test]
fn other_mistakes_are_explained() {
    let err = load_text("inherits = \"dark\"\nerorr = \"red\"\n").to_string();
    assert!(
        err.contains(":2: field `erorr`: not a theme field"),
        "{err}"
    );

    let err =
        load_text("inherits = \"dark\"\nmuted = { fg = \"red\", blink = true }\n").to_string();
    assert!(err.contains("unknown key `blink`"), "{err}");

    let err = load_text("inherits = \"dark\"\nmuted = { modifiers = [\"shiny\"] }\n").to_string();
    assert!(err.contains("unknown modifier \"shiny\""), "{err}");

    let err = load_text("inherits = \"dusk\"\n").to_string();
    assert!(
        err.contains("field `inherits`: no built-in theme \"dusk\""),
        "{err}"
    );

    let err = load_text("muted = \"red\"\n").to_string();
    assert!(err.contains("missing base, accent"), "{err}");

    let err = load_text("inherits = \"dark\"\n\nmuted = { fg = \"red\"\n");
    assert!(matches!(err, ThemeError::Syntax { line: 3, .. }), "{err}");
}
