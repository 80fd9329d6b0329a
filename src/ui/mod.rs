//! The panes and their widgets, the theme. Nothing here performs I/O: panes ask the runtime for
//! work through [`crate::effect`], and draw what they hold.

pub mod judging;
pub mod keymap;
pub mod layer;
pub mod pane;
pub mod panes;
pub mod shell;
pub mod skeleton;
pub mod text;
pub mod theme;
pub mod widgets;
