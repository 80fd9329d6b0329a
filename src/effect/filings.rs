//! Filings: the list, one filing, the back-filing options and the bulk actions (Tenanted API).

use crate::model::filters::FilingFilter;
use crate::model::tenanted::{BackFilingOption, BulkFilingResult};
use crate::model::{Filing, Page, PageParams, Transaction};

#[derive(Debug, Clone, PartialEq)]
pub enum FilingCall {
    List {
        filter: FilingFilter,
        page: PageParams,
    },
    /// The sales of the transactions each of these returns covers (`checks`' reading): what
    /// the filing check compares a return's sales with, read for the rows in view.
    CoveredSales {
        ids: Vec<String>,
    },
    /// The same for the filings the Overview checked last time for this organization, asked
    /// for before the filings list answers: the runtime fills `ids` from what it remembered
    /// (see [`Effect::Remember`](crate::effect::Effect::Remember)). A filing
    /// whose transactions cannot be read is left out of the answer, to be asked for again.
    CheckedBefore {
        ids: Vec<String>,
    },
    Get {
        id: String,
    },
    /// The transactions the return covers.
    Transactions {
        id: String,
    },
    /// The past periods that can be filed late (Tenanted API only).
    BackFilingOptions,
    /// Approves filings for filing; each filing answers on its own (Tenanted API only).
    BulkApprove {
        ids: Vec<String>,
    },
    /// Pauses filings; each filing answers on its own (Tenanted API only).
    BulkPause {
        ids: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum FilingReply {
    Page(Page<Filing>),
    One(Box<Filing>),
    BackFilingOptions(Vec<BackFilingOption>),
    Transactions(Vec<Transaction>),
    /// The answer to [`FilingCall::CoveredSales`]: each id with its sales, in the order asked.
    CoveredSales(Vec<(String, crate::model::CoveredSales)>),
    /// What a bulk approval or pause did to each filing.
    Bulk(BulkFilingResult),
}

impl FilingCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            FilingCall::BulkApprove { .. } | FilingCall::BulkPause { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            FilingCall::List { page, .. } => format!("loading filings (page {})", page.page),
            FilingCall::CoveredSales { ids } | FilingCall::CheckedBefore { ids } => {
                format!("loading the transactions of {} filings", ids.len())
            }
            FilingCall::Get { id } => format!("loading filing {id}"),
            FilingCall::Transactions { id } => format!("loading the transactions of {id}"),
            FilingCall::BackFilingOptions => "loading the back-filing options".to_owned(),
            FilingCall::BulkApprove { ids } => format!("approving {} filings", ids.len()),
            FilingCall::BulkPause { ids } => format!("pausing {} filings", ids.len()),
        }
    }
}
