//! What an export or an import of a list carries: the list and its filter ([`ListQuery`]), the
//! format it is written in ([`Format`]), the list a file is imported into ([`ImportResource`]).
//! The dashboard asks for them as effects, and the commands take them from the command line;
//! the export and the import add how each is carried out (`crate::export`, `crate::import`).

use std::fmt;

use super::{
    Call, CustomerCall, ExemptionCall, FilingCall, NexusCall, RegistrationCall, TransactionCall,
};
use crate::model::Resource;
use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter, ProductFilter,
    RegistrationFilter, TransactionFilter,
};

/// A resource and its filter: what one export lists.
#[derive(Debug, Clone, PartialEq)]
pub enum ListQuery {
    Registrations(RegistrationFilter),
    PhysicalNexus(PhysicalNexusFilter),
    Nexus(NexusFilter),
    Exemptions(ExemptionFilter),
    Customers(CustomerFilter),
    Transactions(TransactionFilter),
    Filings(FilingFilter),
    Products(ProductFilter),
}

impl ListQuery {
    /// The whole list of `resource` (the service's own defaults apply: transactions of the
    /// last 12 months, nexus without the OSS statuses).
    pub fn all(resource: Resource) -> Self {
        match resource {
            Resource::Registrations => ListQuery::Registrations(RegistrationFilter::default()),
            Resource::PhysicalNexus => ListQuery::PhysicalNexus(PhysicalNexusFilter::default()),
            Resource::Nexus => ListQuery::Nexus(NexusFilter::default()),
            Resource::Exemptions => ListQuery::Exemptions(ExemptionFilter::default()),
            Resource::Customers => ListQuery::Customers(CustomerFilter::default()),
            Resource::Transactions => ListQuery::Transactions(TransactionFilter::default()),
            Resource::Filings => ListQuery::Filings(FilingFilter::default()),
            Resource::Products => ListQuery::Products(ProductFilter::default()),
        }
    }

    /// The list a dashboard page call asks for (its filter and sort, the page left out), so a
    /// list on screen is exported as shown; `None` for a call that lists no exportable resource.
    pub fn from_call(call: &Call) -> Option<Self> {
        Some(match call {
            Call::Registrations(RegistrationCall::List { filter, .. }) => {
                ListQuery::Registrations(filter.clone())
            }
            Call::Nexus(NexusCall::List { filter, .. }) => ListQuery::Nexus(filter.clone()),
            Call::Nexus(NexusCall::Physical { filter, .. }) => {
                ListQuery::PhysicalNexus(filter.clone())
            }
            Call::Exemptions(ExemptionCall::List { filter, .. }) => {
                ListQuery::Exemptions(filter.clone())
            }
            Call::Customers(CustomerCall::List { filter, .. }) => {
                ListQuery::Customers(filter.clone())
            }
            Call::Transactions(TransactionCall::List { filter, .. }) => {
                ListQuery::Transactions(filter.clone())
            }
            Call::Filings(FilingCall::List { filter, .. }) => ListQuery::Filings(filter.clone()),
            _ => return None,
        })
    }

    /// The resource listed.
    pub fn resource(&self) -> Resource {
        match self {
            ListQuery::Registrations(_) => Resource::Registrations,
            ListQuery::PhysicalNexus(_) => Resource::PhysicalNexus,
            ListQuery::Nexus(_) => Resource::Nexus,
            ListQuery::Exemptions(_) => Resource::Exemptions,
            ListQuery::Customers(_) => Resource::Customers,
            ListQuery::Transactions(_) => Resource::Transactions,
            ListQuery::Filings(_) => Resource::Filings,
            ListQuery::Products(_) => Resource::Products,
        }
    }

    /// Whether part of the filter is kept on this side, so rows of each page are dropped before
    /// they are written.
    pub fn is_local(&self) -> bool {
        match self {
            ListQuery::Exemptions(f) => f.is_local(),
            ListQuery::Filings(f) => f.is_local(),
            ListQuery::Nexus(f) => f.is_local(),
            ListQuery::Registrations(f) => f.is_local(),
            ListQuery::Transactions(f) => f.is_local(),
            _ => false,
        }
    }
}

/// How the records are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A header line, then one row per record with the resource's documented columns.
    #[default]
    Csv,
    /// One JSON array of the full records as the service sent them, one record per line.
    Json,
    /// JSON Lines: one full record (a JSON object, as the service sent it) per line.
    Jsonl,
}

/// A list that can be imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum ImportResource {
    /// Physical presences (create; update when the row has an `id`).
    PhysicalNexus,
    /// Customers with their tax ids (create; update when the row has an `id`).
    Customers,
    /// Exemption certificates, with an optional PDF named in `certificate`.
    Exemptions,
    /// Sales and credit notes, one line each.
    Transactions,
}

impl ImportResource {
    /// Every resource, in the order the help lists them.
    pub const ALL: &'static [ImportResource] = &[
        ImportResource::PhysicalNexus,
        ImportResource::Customers,
        ImportResource::Exemptions,
        ImportResource::Transactions,
    ];

    /// The name on the command line: `physical-nexus`.
    pub fn name(self) -> &'static str {
        match self {
            ImportResource::PhysicalNexus => "physical-nexus",
            ImportResource::Customers => "customers",
            ImportResource::Exemptions => "exemptions",
            ImportResource::Transactions => "transactions",
        }
    }
}

impl fmt::Display for ImportResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
