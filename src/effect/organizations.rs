//! Organizations: the ones the credential reaches (Tenanted API).

use crate::model::tenanted::Organization;
use crate::model::{Page, PageParams};

#[derive(Debug, Clone, PartialEq)]
pub enum OrganizationCall {
    /// The organizations the credential reaches (GET /organizations).
    List { page: PageParams },
}

#[derive(Debug, Clone, PartialEq)]
pub enum OrganizationReply {
    Page(Page<Organization>),
}

impl OrganizationCall {
    pub fn describe(&self) -> String {
        match self {
            OrganizationCall::List { .. } => "loading the organizations".to_owned(),
        }
    }
}
