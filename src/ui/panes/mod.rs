//! The dashboard's panes, one module each. A new pane is a new module and one line in [`all`].

pub mod customers;
pub mod exemptions;
pub mod filings;
pub mod filter_codes;
pub mod marks;
pub mod nexus;
pub mod registrations;
pub mod transactions;

use super::pane::Pane;

/// Every pane, in tab order.
pub fn all() -> Vec<Box<dyn Pane>> {
    vec![
        Box::new(registrations::RegistrationsPane::default()),
        Box::new(nexus::pane()),
        Box::new(exemptions::pane()),
        Box::new(customers::CustomersPane::default()),
        Box::new(transactions::TransactionsPane::default()),
        Box::new(filings::FilingsPane::default()),
    ]
}
