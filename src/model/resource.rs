//! The lists the service holds, by the names the command line, the snapshots and the export
//! files give them: what `taxdash export` writes, `taxdash snapshot` stores and the dashboard's
//! record history follows. The export adds the columns it writes ([`Resource::csv_columns`]).

use std::fmt;

/// A list of records: what can be exported, snapshotted and followed across snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Resource {
    Registrations,
    PhysicalNexus,
    Nexus,
    Exemptions,
    Customers,
    Transactions,
    Filings,
    Products,
}

impl Resource {
    /// Every resource, in the order the help lists them.
    pub const ALL: &'static [Resource] = &[
        Resource::Registrations,
        Resource::PhysicalNexus,
        Resource::Nexus,
        Resource::Exemptions,
        Resource::Customers,
        Resource::Transactions,
        Resource::Filings,
        Resource::Products,
    ];

    /// The name on the command line: `physical-nexus`.
    pub fn name(self) -> &'static str {
        match self {
            Resource::Registrations => "registrations",
            Resource::PhysicalNexus => "physical-nexus",
            Resource::Nexus => "nexus",
            Resource::Exemptions => "exemptions",
            Resource::Customers => "customers",
            Resource::Transactions => "transactions",
            Resource::Filings => "filings",
            Resource::Products => "products",
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
