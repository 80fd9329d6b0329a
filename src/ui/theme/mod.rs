//! Colours by meaning. Widgets and panes ask for `theme.error`, never for red, so a theme file
//! can restyle everything and the mono theme can rely on bold, reverse and underline alone.
//!
//! # Theme files
//!
//! A theme is a TOML file whose keys are the fields of [`Theme`] (`base`, `muted`, `error`, ...).
//! Each value is either a colour, which sets the foreground only, or a table:
//!
//! ```toml
//! inherits  = "dark"                                   # optional: take unset fields from a built-in theme
//! muted     = "dark-gray"                              # shorthand for { fg = "dark-gray" }
//! error     = { fg = "#e06c75", modifiers = ["bold"] }
//! header    = { fg = "black", bg = "reset" }
//! selection = { modifiers = ["reversed"] }
//! ```
//!
//! - `fg`, `bg`: a named ANSI colour (`black`, `red`, `green`, `yellow`, `blue`, `magenta`,
//!   `cyan`, `gray`, `dark-gray`, `light-red` ... `light-cyan`, `white`), `reset` (the terminal's
//!   own colour, so the terminal's background shows through), `#rrggbb`, or an xterm-256 index
//!   (`208` or `"208"`).
//! - `modifiers`: any of `bold`, `dim`, `italic`, `underlined`, `reversed`, `slow-blink`,
//!   `rapid-blink`, `hidden`, `crossed-out`.
//! - Without `inherits`, every field must be set; with it, unset fields come from that built-in
//!   theme. Unknown keys are errors, so a typo never goes unnoticed.
//!
//! The built-in themes (`dark`, `light`, `high-contrast`, `mono`) are embedded from `themes/` at
//! build time; a file of the same name in the user's themes directory replaces one, and other
//! files there add themes. Errors name the file, the line and the field.
//!
//! # Terminals
//!
//! [`Theme::select`] honours `NO_COLOR` (the mono theme, every colour stripped) and, on a terminal
//! without truecolor, maps every `#rrggbb` to the nearest xterm-256 colour.

mod color;
mod file;

use std::collections::BTreeSet;
use std::io;
use std::path::PathBuf;

use ratatui::style::{Color, Modifier, Style};

pub use color::{parse_color, rgb_to_256, to_256};
use file::parse_theme;

/// The theme used when none is asked for.
pub const DEFAULT_THEME: &str = "dark";

/// The theme `NO_COLOR` selects.
pub const MONO_THEME: &str = "mono";

/// The built-in themes, embedded at build time: (name, TOML text).
const BUILT_IN: &[(&str, &str)] = &[
    ("dark", include_str!("../../../themes/dark.toml")),
    ("light", include_str!("../../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../../themes/high-contrast.toml"),
    ),
    ("mono", include_str!("../../../themes/mono.toml")),
];

/// Which colours a theme may emit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorDepth {
    /// Any colour, `#rrggbb` included.
    #[default]
    TrueColor,
    /// Named and indexed colours only: `#rrggbb` has been mapped to the xterm-256 palette.
    Indexed256,
    /// No colours at all (`NO_COLOR`, or the mono theme): meaning is carried by modifiers.
    Monochrome,
}

/// Declares [`Theme`] from one list of style fields, so that the struct, the theme-file keys and
/// the iteration over every style can never disagree.
macro_rules! theme_struct {
    ($($(#[$doc:meta])* $field:ident,)+) => {
        /// The styles of every semantic role the interface draws.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            pub name: String,
            /// The colours this theme may emit; [`Theme::with_accent`] keeps to it.
            pub depth: ColorDepth,
            $($(#[$doc])* pub $field: Style,)+
        }

        impl Theme {
            /// The names of every style field, as written in theme files.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),+];

            /// Every style with its field name.
            pub fn styles(&self) -> impl Iterator<Item = (&'static str, &Style)> {
                [$((stringify!($field), &self.$field)),+].into_iter()
            }

            fn styles_mut(&mut self) -> impl Iterator<Item = &mut Style> {
                [$(&mut self.$field),+].into_iter()
            }

            fn style_mut(&mut self, field: &str) -> Option<&mut Style> {
                match field {
                    $(stringify!($field) => Some(&mut self.$field),)+
                    _ => None,
                }
            }
        }
    };
}

theme_struct! {
    /// Ordinary text on the background (`reset` keeps the terminal's own background).
    base,
    /// Secondary text: hints, placeholders, rules under fields, disabled items.
    muted,
    /// The profile's accent: header bar, focused borders (a profile may override it).
    accent,
    border,
    border_focus,
    title,
    header,
    tab,
    tab_active,
    /// The selected row of a table or list.
    selection,
    /// A key in a key hint (`q`, `?`).
    key,
    input,
    input_focus,
    error,
    warning,
    success,
    info,
    badge_demo,
    badge_read_only,
    /// Statuses: in good standing (REGISTERED, ACTIVE, PROCESSED).
    status_good,
    /// Under way (PROCESSING, QUEUED, DEREGISTERING, APPROACHING).
    status_pending,
    /// Needs attention (`EXPOSED`, `AWAITING_CLARIFICATION`, `INVALID`).
    status_bad,
    /// Over (DEREGISTERED, CANCELLED, EXPIRED, ARCHIVED).
    status_closed,
    /// Amounts of money.
    money,
    /// The column titles of a table.
    table_header,
}

impl Default for Theme {
    /// A dark theme in the 16 ANSI colours, usable on any terminal.
    fn default() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Theme {
            name: "default".into(),
            depth: ColorDepth::TrueColor,
            base: Style::new(),
            muted: fg(Color::DarkGray),
            accent: fg(Color::Cyan),
            border: fg(Color::DarkGray),
            border_focus: fg(Color::Cyan),
            title: Style::new().add_modifier(Modifier::BOLD),
            header: Style::new().fg(Color::Black).bg(Color::Cyan),
            tab: fg(Color::Gray),
            tab_active: Style::new()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            selection: Style::new().add_modifier(Modifier::REVERSED),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            input: Style::new(),
            input_focus: Style::new().add_modifier(Modifier::UNDERLINED),
            error: fg(Color::Red),
            warning: fg(Color::Yellow),
            success: fg(Color::Green),
            info: fg(Color::Cyan),
            badge_demo: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            badge_read_only: Style::new()
                .fg(Color::White)
                .bg(Color::Blue)
                .add_modifier(Modifier::BOLD),
            status_good: fg(Color::Green),
            status_pending: fg(Color::Yellow),
            status_bad: fg(Color::Red),
            status_closed: fg(Color::DarkGray),
            money: Style::new(),
            table_header: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        }
    }
}

/// Why a theme could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error("unknown theme {name:?}; available themes: {}", available.join(", "))]
    Unknown {
        name: String,
        available: Vec<String>,
    },
    #[error("cannot read theme file {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}:{line}: field `{field}`: {message}")]
    Field {
        file: String,
        line: usize,
        field: String,
        message: String,
    },
    #[error(
        "{file}: missing {} (set them, or add `inherits = \"dark\"` to take unset fields from a \
         built-in theme)",
        fields.join(", ")
    )]
    Missing { file: String, fields: Vec<String> },
}

/// Whether a colour is a real colour rather than the terminal's own.
fn is_colour(c: Option<Color>) -> bool {
    c.is_some_and(|c| c != Color::Reset)
}

/// Theme files besides the built-in ones. The runtime supplies one that reads the user's themes
/// directory, so nothing in the user interface reads a file itself.
pub trait ThemeFiles {
    /// The text of the theme called `name` and where it comes from (for error messages); `None`
    /// when there is no such file.
    fn read(&self, name: &str) -> Result<Option<(String, String)>, ThemeError>;

    /// The names of the themes there.
    fn names(&self) -> Vec<String>;
}

impl Theme {
    /// The theme called `name`: the file of that name in `files` when there is one, else the
    /// built-in theme of that name.
    pub fn load(name: &str, files: Option<&dyn ThemeFiles>) -> Result<Theme, ThemeError> {
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if valid
            && let Some(files) = files
            && let Some((origin, text)) = files.read(name)?
        {
            return parse_theme(name, &origin, &text, 0);
        }
        match valid.then(|| Theme::built_in(name)).flatten() {
            Some(theme) => theme,
            None => Err(ThemeError::Unknown {
                name: name.to_owned(),
                available: Theme::available(files),
            }),
        }
    }

    /// Loads a built-in theme; `None` when there is none of that name.
    fn built_in(name: &str) -> Option<Result<Theme, ThemeError>> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        Some(parse_theme(
            name,
            &format!("themes/{name}.toml (built in)"),
            text,
            0,
        ))
    }

    /// The names of the built-in themes and of the theme files in `files`, sorted.
    pub fn available(files: Option<&dyn ThemeFiles>) -> Vec<String> {
        let mut names: BTreeSet<String> = BUILT_IN.iter().map(|(n, _)| (*n).to_owned()).collect();
        if let Some(files) = files {
            names.extend(files.names());
        }
        names.into_iter().collect()
    }

    /// The theme to draw with, given the facts of the environment: `no_color` when `NO_COLOR` is
    /// set to a non-empty value (selects the mono theme and strips any colour from it), and
    /// `truecolor` when the terminal takes 24-bit colour (otherwise `#rrggbb` is mapped to the
    /// xterm-256 palette). `requested` is the configured theme, [`DEFAULT_THEME`] when `None`.
    pub fn select(
        requested: Option<&str>,
        no_color: bool,
        truecolor: bool,
        files: Option<&dyn ThemeFiles>,
    ) -> Result<Theme, ThemeError> {
        if no_color {
            return Ok(Theme::load(MONO_THEME, files)?.without_colours());
        }
        let theme = Theme::load(requested.unwrap_or(DEFAULT_THEME), files)?;
        Ok(if truecolor { theme } else { theme.to_256() })
    }

    /// Replaces the accent colour: the accent's and the focused border's foreground and the
    /// header's background. Keeps to the theme's [`ColorDepth`]: a monochrome theme ignores it,
    /// a 256-colour one receives the nearest indexed colour.
    #[must_use]
    pub fn with_accent(mut self, colour: Color) -> Theme {
        let colour = match self.depth {
            ColorDepth::Monochrome => return self,
            ColorDepth::Indexed256 => to_256(colour),
            ColorDepth::TrueColor => colour,
        };
        self.accent = self.accent.fg(colour);
        self.border_focus = self.border_focus.fg(colour);
        self.header = self.header.bg(colour);
        self
    }

    /// The same theme for a 256-colour terminal: every `#rrggbb` becomes its nearest xterm-256
    /// colour.
    #[must_use]
    pub fn to_256(mut self) -> Theme {
        if self.depth == ColorDepth::TrueColor {
            self.depth = ColorDepth::Indexed256;
        }
        for style in self.styles_mut() {
            style.fg = style.fg.map(to_256);
            style.bg = style.bg.map(to_256);
            style.underline_color = style.underline_color.map(to_256);
        }
        self
    }

    /// The same theme with every colour removed (`reset` is kept); modifiers stay.
    #[must_use]
    pub fn without_colours(mut self) -> Theme {
        self.depth = ColorDepth::Monochrome;
        for style in self.styles_mut() {
            for c in [&mut style.fg, &mut style.bg, &mut style.underline_color] {
                if is_colour(*c) {
                    *c = None;
                }
            }
        }
        self
    }

    /// True when no style uses a colour other than `reset`.
    pub fn is_monochrome(&self) -> bool {
        self.styles()
            .all(|(_, s)| !is_colour(s.fg) && !is_colour(s.bg) && !is_colour(s.underline_color))
    }
}

#[cfg(test)]
mod tests;
