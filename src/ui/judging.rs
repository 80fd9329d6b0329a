//! What the config file sets for how the panes judge records: the tolerance within which a
//! filing's figures add up (`[checks]`). The shell sets it in every pane's context
//! ([`crate::ui::pane::Ctx`]); the skeleton hands it on to the lists and details it draws, and to
//! the filters it makes from a form.

use crate::model::Tolerance;

/// The settings a record is judged by when it is drawn or filtered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Judging {
    /// When a filing's figures do not add up: the Filings column, its detail, its filter and
    /// the Overview's tile.
    pub filing_tolerance: Tolerance,
}
