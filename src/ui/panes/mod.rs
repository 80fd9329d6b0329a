//! The dashboard's panes, one module each. A new pane is a new module and one line in [`all`].

pub mod customers;
pub mod detail_lists;
pub mod exemptions;
pub mod filings;
pub mod filter_codes;
pub mod marks;
pub mod nexus;
pub mod overview;
pub mod products;
pub mod registrations;
pub mod relations;
pub mod transactions;

use super::pane::Pane;

/// What the config file sets for the panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// How often the Overview refreshes by itself (zero: only on `r`).
    pub overview_refresh: std::time::Duration,
    /// When a filing's figures do not add up (`[checks]`).
    pub filing_tolerance: crate::model::Tolerance,
}

static FILING_TOLERANCE: std::sync::RwLock<Option<crate::model::Tolerance>> =
    std::sync::RwLock::new(None);

/// When a filing's figures do not add up, as the panes were last built with (the Filings
/// column, its filter and the Overview's tile draw from it).
pub fn filing_tolerance() -> crate::model::Tolerance {
    FILING_TOLERANCE
        .read()
        .map_or(None, |t| *t)
        .unwrap_or_default()
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            overview_refresh: overview::DEFAULT_REFRESH,
            filing_tolerance: crate::model::Tolerance::default(),
        }
    }
}

/// Every pane, in tab order, with the default settings.
pub fn all() -> Vec<Box<dyn Pane>> {
    with(Settings::default())
}

/// Every pane, in tab order.
pub fn with(settings: Settings) -> Vec<Box<dyn Pane>> {
    if let Ok(mut t) = FILING_TOLERANCE.write() {
        *t = Some(settings.filing_tolerance);
    }
    vec![
        Box::new(overview::OverviewPane::new(settings.overview_refresh)),
        Box::new(registrations::RegistrationsPane::default()),
        Box::new(nexus::pane()),
        Box::new(exemptions::pane()),
        Box::new(customers::CustomersPane::default()),
        Box::new(transactions::TransactionsPane::default()),
        Box::new(filings::FilingsPane::default()),
        Box::new(products::ProductsPane::default()),
    ]
}
