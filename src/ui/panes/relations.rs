//! What a record relates to, for the jump prefix (`g` then a letter): each relation is another
//! tab's list filtered by what the service can filter on, or a sentence saying the service has
//! no such filter (never an unfiltered list passed off as related).

use crate::effect::Goto;
use crate::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, NexusFilter, RegistrationFilter,
    TransactionFilter,
};
use crate::model::{Customer, Exemption, Filing, Nexus, Registration, Transaction};
use crate::ui::pane::{Leads, Relation};

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
        None => out.push(match &t.customer_id {
            Some(id) => Relation::open('c', "its customer", id.clone()),
            None => Relation::unfiltered('c', "its customer", "The transaction names no customer."),
        }),
    }
    if let Some(id) = t
        .customer_id
        .as_deref()
        .or(t.customer.as_ref().map(|c| c.id.as_str()))
    {
        out.push(Relation::new('e', "its exemptions", exemptions_of(id)));
    }
    if let Some(id) = &t.filing_id {
        out.push(Relation::open('f', "its filing", id.clone()));
    }
    if let Some(state) = t.state.as_deref().filter(|s| !s.is_empty()) {
        // Not yet in a filing: the filing list cannot be filtered by the period holding a
        // date, so the filings of the state are the nearest list.
        if t.filing_id.is_none() {
            out.push(Relation::new('f', "its state's filings", filings(state)));
        }
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
        (Some(c), _, _) => Leads::To(Box::new(customer(c))),
        (None, _, Some(id)) => Leads::Open(id.clone()),
        (None, Some(name), None) => Leads::To(Box::new(Goto::Customers {
            filter: CustomerFilter {
                search_query: Some(name.clone()),
                ..CustomerFilter::default()
            },
            open: None,
        })),
        (None, None, None) => Leads::Say("The exemption names no customer.".to_owned()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sale(extra: &serde_json::Value) -> Transaction {
        let mut sale = json!({
            "id": "tran_1", "external_id": "ord-1", "date": "2026-03-01T10:00:00Z",
            "type": "SALE", "currency": "USD", "state": "TX", "customer_id": "cust_1",
            "transaction_items": []
        });
        for (k, v) in extra.as_object().unwrap() {
            sale[k] = v.clone();
        }
        serde_json::from_value(sale).unwrap()
    }

    fn leads(relations: &[Relation], key: char) -> Option<&Leads> {
        relations.iter().find(|r| r.key == key).map(|r| &r.to)
    }

    #[test]
    fn a_sale_in_a_filing_opens_that_filing_else_lists_its_states_filings() {
        let filed = of_transaction(&sale(&json!({"filing_id": "file_9"})));
        assert_eq!(leads(&filed, 'f'), Some(&Leads::Open("file_9".into())));
        let open = of_transaction(&sale(&json!({})));
        assert_eq!(leads(&open, 'f'), Some(&Leads::To(Box::new(filings("TX")))));
        // Without its customer record, the customer is read by id.
        assert_eq!(leads(&open, 'c'), Some(&Leads::Open("cust_1".into())));
        assert_eq!(
            leads(&open, 'e'),
            Some(&Leads::To(Box::new(exemptions_of("cust_1"))))
        );
        // No state: no state's nexus, registration or filings.
        let nowhere = of_transaction(&sale(&json!({"state": null})));
        for key in ['f', 'n', 'r'] {
            assert_eq!(leads(&nowhere, key), None, "{key}");
        }
    }
}
