//! What a record relates to, for the jump prefix (`g` then a letter): each relation is another
//! tab's list filtered by what the service can filter on, or a sentence saying the service has
//! no such filter (never an unfiltered list passed off as related).

use crate::effect::Goto;
use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, RegistrationFilter,
    TransactionFilter,
};
use crate::model::{Customer, Exemption, Filing, Nexus, Registration, Transaction};
use crate::ui::pane::Relation;

/// No filter of the transaction list names a customer.
const NO_CUSTOMER_FILTER: &str = "The service's transaction list has no customer filter: search the Transactions tab (/) for the customer's name instead.";

fn customer(customer: &Customer) -> Goto {
    Goto::Customers {
        filter: CustomerFilter {
            search_query: Some(customer.name.clone().unwrap_or_else(|| customer.id.clone())),
            ..CustomerFilter::default()
        },
        open: Some(customer.clone()),
    }
}

fn nexus(state_code: &str) -> Goto {
    Goto::nexus(NexusFilter {
        state_code: Some(state_code.to_owned()),
        ..NexusFilter::default()
    })
}

fn registrations(state_code: &str) -> Goto {
    Goto::registrations(RegistrationFilter {
        state_code: Some(state_code.to_owned()),
        ..RegistrationFilter::default()
    })
}

fn filings(state_code: &str) -> Goto {
    Goto::filings(FilingFilter {
        state_code: Some(state_code.to_owned()),
        ..FilingFilter::default()
    })
}

fn exemptions_of(customer_id: &str) -> Goto {
    Goto::exemptions(ExemptionFilter {
        customer_id: Some(customer_id.to_owned()),
        ..ExemptionFilter::default()
    })
}

/// A transaction: its customer, the customer's exemptions, the filings, nexus and
/// registration of its state.
pub fn of_transaction(t: &Transaction) -> Vec<Relation> {
    let mut out = Vec::new();
    match &t.customer {
        Some(c) => out.push(Relation::new('c', "its customer", customer(c))),
        None => out.push(Relation::unfiltered(
            'c',
            "its customer",
            "The transaction came without its customer record.",
        )),
    }
    if let Some(id) = t
        .customer_id
        .as_deref()
        .or(t.customer.as_ref().map(|c| c.id.as_str()))
    {
        out.push(Relation::new('e', "its exemptions", exemptions_of(id)));
    }
    if let Some(state) = t.state.as_deref().filter(|s| !s.is_empty()) {
        // The filing list cannot be filtered by a filing's id nor by the period holding a
        // date: the filings of the state are the nearest list.
        out.push(Relation::new('f', "its state's filings", filings(state)));
        out.push(Relation::new('n', "its state's nexus", nexus(state)));
        out.push(Relation::new(
            'r',
            "its state's registration",
            registrations(state),
        ));
    }
    out
}

/// A customer: their exemptions; their transactions and tax registrations cannot be listed
/// by customer, which is said.
pub fn of_customer(c: &Customer) -> Vec<Relation> {
    vec![
        Relation::unfiltered('t', "their transactions", NO_CUSTOMER_FILTER),
        Relation::new('e', "their exemptions", exemptions_of(&c.id)),
        Relation::unfiltered(
            'r',
            "their tax registrations",
            "A customer's tax registrations are listed in its detail (open it).",
        ),
    ]
}

/// An exemption: its customer; the transactions that used it cannot be listed by exemption.
pub fn of_exemption(e: &Exemption) -> Vec<Relation> {
    let to_customer = match (&e.customer, &e.customer_name, &e.customer_id) {
        (Some(c), _, _) => Ok(customer(c)),
        (None, Some(name), _) => Ok(Goto::Customers {
            filter: CustomerFilter {
                search_query: Some(name.clone()),
                ..CustomerFilter::default()
            },
            open: None,
        }),
        _ => Err("The exemption names no customer.".to_owned()),
    };
    let used = match &e.transaction_id {
        Some(id) => format!(
            "The service's transaction list has no exemption filter; this exemption names transaction {id}."
        ),
        None => "The service's transaction list has no exemption filter.".to_owned(),
    };
    vec![
        Relation {
            key: 'c',
            label: "its customer",
            to: to_customer,
        },
        Relation::unfiltered('t', "transactions that used it", used),
    ]
}

/// A registration: the nexus and the filings of its jurisdiction.
pub fn of_registration(r: &Registration) -> Vec<Relation> {
    vec![
        Relation::new('n', "nexus of its state", nexus(&r.state_code)),
        Relation::new('f', "its filings", filings(&r.state_code)),
    ]
}

/// An economic nexus: the registration and the filings of its jurisdiction.
pub fn of_nexus(n: &Nexus) -> Vec<Relation> {
    vec![
        Relation::new(
            'r',
            "registration of its state",
            registrations(&n.state_code),
        ),
        Relation::new('f', "filings of its state", filings(&n.state_code)),
    ]
}

/// A filing: its registration, and the transactions of its period and jurisdiction.
pub fn of_filing(f: &Filing) -> Vec<Relation> {
    let Some(state) = f.state_code.as_deref().filter(|s| !s.is_empty()) else {
        return vec![Relation::unfiltered(
            'r',
            "its registration",
            "The filing names no state.",
        )];
    };
    vec![
        Relation::new('r', "its registration", registrations(state)),
        Relation::new(
            't',
            "transactions of its period",
            Goto::transactions(TransactionFilter {
                state_code: Some(state.to_owned()),
                date_from: Some(f.start_date),
                date_to: Some(f.end_date),
                ..TransactionFilter::default()
            }),
        ),
    ]
}
