//! The Nexus pane: two views of where the business owes tax, switched with `t` (or `:physical`
//! and `:economic`). The physical view lists, creates, edits and deletes physical presence
//! records; the economic view lists each jurisdiction's economic nexus against its thresholds,
//! with its exposure history on the Tenanted API.

mod economic;
mod filter;
mod form;
mod history;
mod physical;
mod status;

pub use self::history::event_in_words;
use crate::ui::keymap::Action;
use crate::ui::skeleton::Switch;

/// The Nexus tab.
pub type NexusPane = Switch<physical::PhysicalPane, economic::EconomicPane>;

/// The Nexus tab, on the physical view.
pub fn pane() -> NexusPane {
    Switch::new(
        "Nexus",
        (physical::PhysicalPane::default(), "physical"),
        (economic::EconomicPane::default(), "economic"),
        Action::ToggleView,
    )
}
