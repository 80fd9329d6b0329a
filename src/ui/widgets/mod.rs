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
