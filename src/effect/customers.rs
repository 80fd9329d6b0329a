//! Customers: the list, one customer, a new customer, a customer's tax registration.

use crate::model::filters::CustomerFilter;
use crate::model::{
    AddressCheck, AddressFields, Customer, CustomerTaxRegistration, CustomerTaxRegistrationWrite,
    CustomerWrite, Page, PageParams, Transaction,
};

#[derive(Debug, Clone, PartialEq)]
pub enum CustomerCall {
    List {
        filter: CustomerFilter,
        page: PageParams,
    },
    Get {
        id: String,
    },
    /// The customer a shop knows by its own id (`GET /v1/customers/external/{external_id}`).
    GetByExternal {
        external_id: String,
    },
    Create {
        body: Box<CustomerWrite>,
    },
    /// Checks an address: the service's verdict, and the addresses it offers instead.
    CheckAddress {
        address: AddressFields,
    },
    /// Changes the fields given of customer `id` (PUT).
    Update {
        id: String,
        body: Box<CustomerWrite>,
    },
    /// The customer's transactions, newest first.
    Transactions {
        id: String,
    },
    /// Adds the customer's tax id, or replaces the one of the same tax type and country.
    TaxRegistration {
        customer_id: String,
        body: CustomerTaxRegistrationWrite,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum CustomerReply {
    Page(Page<Customer>),
    /// A customer read or created.
    One(Customer),
    TaxRegistration(CustomerTaxRegistration),
    Transactions(Vec<Transaction>),
    AddressChecked(AddressCheck),
}

impl CustomerCall {
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            CustomerCall::Create { .. }
                | CustomerCall::Update { .. }
                | CustomerCall::TaxRegistration { .. }
        )
    }

    pub fn describe(&self) -> String {
        match self {
            CustomerCall::List { page, .. } => format!("loading customers (page {})", page.page),
            CustomerCall::Get { id } => format!("loading customer {id}"),
            CustomerCall::GetByExternal { external_id } => {
                format!("finding the customer known as {external_id}")
            }
            CustomerCall::CheckAddress { .. } => "checking the address".to_owned(),
            CustomerCall::Transactions { id } => format!("loading the transactions of {id}"),
            CustomerCall::Create { .. } => "creating a customer".to_owned(),
            CustomerCall::Update { id, .. } => format!("saving customer {id}"),
            CustomerCall::TaxRegistration { customer_id, .. } => {
                format!("saving a tax registration of {customer_id}")
            }
        }
    }
}
