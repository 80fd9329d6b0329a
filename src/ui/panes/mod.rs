//! The dashboard's panes, one module each. A new pane is a new module and one line in [`all`].

pub mod customers;
pub mod detail_lists;
pub mod exemptions;
pub mod filings;
pub mod filter_codes;
pub mod marks;
pub mod nexus;
pub mod overview;
pub mod portfolio;
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
    /// What records are judged by (`[checks]`): not built into the panes, it reaches them in
    /// their context ([`crate::ui::pane::Ctx::judging`]), which the shell fills.
    pub judging: crate::ui::judging::Judging,
    /// Whether the Portfolio tab is there (a Tenanted key, which may reach several
    /// organizations): the last tab.
    pub portfolio: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            overview_refresh: overview::DEFAULT_REFRESH,
            judging: crate::ui::judging::Judging::default(),
            portfolio: false,
        }
    }
}

/// Every pane, in tab order, with the default settings.
pub fn all() -> Vec<Box<dyn Pane>> {
    with(Settings::default())
}

/// Every pane, in tab order.
pub fn with(settings: Settings) -> Vec<Box<dyn Pane>> {
    let mut panes: Vec<Box<dyn Pane>> = vec![
        Box::new(overview::OverviewPane::new(settings.overview_refresh)),
        Box::new(registrations::RegistrationsPane::default()),
        Box::new(nexus::pane()),
        Box::new(exemptions::pane()),
        Box::new(customers::CustomersPane::default()),
        Box::new(transactions::TransactionsPane::default()),
        Box::new(filings::FilingsPane::default()),
        Box::new(products::ProductsPane::default()),
    ];
    if settings.portfolio {
        panes.push(Box::new(portfolio::PortfolioPane::new(
            settings.overview_refresh,
        )));
    }
    panes
}
