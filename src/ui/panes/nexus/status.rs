//! How an economic nexus reads anywhere it is shown: its jurisdiction's code and the colour of
//! its status (the list, the detail and the exposure history).

use ratatui::style::Style;

use crate::model::{Nexus, NexusStatus};
use crate::ui::theme::Theme;

/// The style of an economic nexus status, by what it asks of the user.
pub fn status_style(status: Option<&NexusStatus>, theme: &Theme) -> Style {
    match status {
        Some(NexusStatus::Exposed) => theme.status_bad,
        Some(
            NexusStatus::Approaching
            | NexusStatus::PendingRegistration
            | NexusStatus::OssPendingRegistration,
        ) => theme.status_pending,
        Some(NexusStatus::Registered | NexusStatus::OssRegistered) => theme.status_good,
        Some(NexusStatus::NotExposed) => theme.status_closed,
        Some(NexusStatus::Other(_)) | None => theme.base,
    }
}

/// `US-CA`, or the country alone for a country-wide row.
pub fn jurisdiction(n: &Nexus) -> String {
    if n.state_code.is_empty() {
        n.country_code.clone()
    } else {
        format!("{}-{}", n.country_code, n.state_code)
    }
}
