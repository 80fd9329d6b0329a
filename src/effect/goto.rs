//! Moving to another tab: its list filtered, a record open. The shell hands a [`Goto`] to the
//! first pane that takes it and shows that pane; the runtime never sees one.

use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter, ProductFilter,
    RegistrationFilter, TransactionFilter,
};
use crate::model::tenanted::CertificateImportStatus;
use crate::model::{
    Customer, Exemption, Filing, Nexus, PhysicalNexus, Product, Registration, Transaction,
};

/// Where to go: a list and its filter, and the record whose detail opens there, if any.
#[derive(Debug, Clone, PartialEq)]
pub enum Goto {
    Registrations {
        filter: RegistrationFilter,
        open: Option<Registration>,
    },
    Nexus {
        filter: NexusFilter,
        open: Option<Nexus>,
    },
    PhysicalNexus {
        filter: PhysicalNexusFilter,
        open: Option<PhysicalNexus>,
    },
    Exemptions {
        filter: ExemptionFilter,
        open: Option<Exemption>,
    },
    CertificateImports {
        status_in: Vec<CertificateImportStatus>,
    },
    Customers {
        filter: CustomerFilter,
        open: Option<Customer>,
    },
    Transactions {
        filter: TransactionFilter,
        open: Option<Transaction>,
    },
    Filings {
        filter: FilingFilter,
        open: Option<Filing>,
    },
    /// The register flow, on the registration form of this jurisdiction (`ZZ_EU` without a
    /// state).
    Register {
        country: String,
        state: Option<String>,
    },
    Products {
        filter: ProductFilter,
        open: Option<Product>,
    },
}

impl Goto {
    /// The tab's list, filtered by `filter`, nothing open.
    pub fn filings(filter: FilingFilter) -> Self {
        Goto::Filings { filter, open: None }
    }

    pub fn registrations(filter: RegistrationFilter) -> Self {
        Goto::Registrations { filter, open: None }
    }

    pub fn nexus(filter: NexusFilter) -> Self {
        Goto::Nexus { filter, open: None }
    }

    pub fn exemptions(filter: ExemptionFilter) -> Self {
        Goto::Exemptions { filter, open: None }
    }

    pub fn transactions(filter: TransactionFilter) -> Self {
        Goto::Transactions { filter, open: None }
    }
}
