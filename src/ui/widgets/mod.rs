//! Reusable widgets: each holds its state, handles its keys and draws itself with the theme.

pub mod command_line;
pub mod confirm;
pub mod detail;
pub mod dialog;
pub mod flash;
pub mod form;
pub mod help;
pub mod keys;
pub mod line_edit;
pub mod messages;
pub mod paged_table;
pub mod picker;
pub mod popup;
pub mod scroll_view;
pub mod spinner;
pub mod state_map;
pub mod timeline;
pub(crate) mod wrap;

#[cfg(test)]
pub mod testing;

use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

/// The frame of a tab: `title`, then `— subtitle` in the muted style, the border lit when the
/// tab has the keys.
pub fn pane_block(
    title: &str,
    subtitle: &str,
    theme: &crate::ui::theme::Theme,
    focused: bool,
) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.border_focus
        } else {
            theme.border
        })
        .title(Line::from(vec![
            Span::styled(format!(" {title} "), theme.title),
            Span::styled(format!("— {subtitle} "), theme.muted),
        ]))
}
