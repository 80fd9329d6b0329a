//! Colours by meaning. Widgets and panes ask for `theme.error`, never for red, so a theme file
//! can restyle everything and the mono theme can rely on bold, reverse and underline alone.

use ratatui::style::{Color, Modifier, Style};

/// The styles of every semantic role the interface draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    /// Ordinary text on the background (`reset` keeps the terminal's own background).
    pub base: Style,
    /// Secondary text: hints, placeholders, rules under fields, disabled items.
    pub muted: Style,
    /// The profile's accent: header bar, focused borders (a profile may override it).
    pub accent: Style,
    pub border: Style,
    pub border_focus: Style,
    pub title: Style,
    pub header: Style,
    pub tab: Style,
    pub tab_active: Style,
    /// The selected row of a table or list.
    pub selection: Style,
    /// A key in a key hint (`q`, `?`).
    pub key: Style,
    pub input: Style,
    pub input_focus: Style,
    pub error: Style,
    pub warning: Style,
    pub success: Style,
    pub info: Style,
    pub badge_demo: Style,
    pub badge_read_only: Style,
    /// Statuses: in good standing (REGISTERED, ACTIVE, PROCESSED).
    pub status_good: Style,
    /// Under way (PROCESSING, QUEUED, DEREGISTERING, APPROACHING).
    pub status_pending: Style,
    /// Needs attention (EXPOSED, AWAITING_CLARIFICATION, INVALID).
    pub status_bad: Style,
    /// Over (DEREGISTERED, CANCELLED, EXPIRED, ARCHIVED).
    pub status_closed: Style,
    /// Amounts of money.
    pub money: Style,
}

impl Default for Theme {
    /// A dark theme in the 16 ANSI colours, usable on any terminal.
    fn default() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Theme {
            name: "default".into(),
            base: Style::new(),
            muted: fg(Color::DarkGray),
            accent: fg(Color::Cyan),
            border: fg(Color::DarkGray),
            border_focus: fg(Color::Cyan),
            title: Style::new().add_modifier(Modifier::BOLD),
            header: Style::new().fg(Color::Black).bg(Color::Cyan),
            tab: fg(Color::Gray),
            tab_active: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            selection: Style::new().add_modifier(Modifier::REVERSED),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            input: Style::new(),
            input_focus: Style::new().add_modifier(Modifier::UNDERLINED),
            error: fg(Color::Red),
            warning: fg(Color::Yellow),
            success: fg(Color::Green),
            info: fg(Color::Cyan),
            badge_demo: Style::new().fg(Color::Black).bg(Color::Yellow).add_modifier(Modifier::BOLD),
            badge_read_only: Style::new().fg(Color::White).bg(Color::Blue).add_modifier(Modifier::BOLD),
            status_good: fg(Color::Green),
            status_pending: fg(Color::Yellow),
            status_bad: fg(Color::Red),
            status_closed: fg(Color::DarkGray),
            money: Style::new(),
        }
    }
}
