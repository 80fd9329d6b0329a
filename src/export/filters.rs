//! The export's filter flags and how they map onto each resource's filter.
//!
//! | flag | registrations | physical-nexus | nexus | exemptions | customers | transactions |
//! |---|---|---|---|---|---|---|
//! | `--status` | `status__in` | - | `status__in` | `status__in` | - | `status` (one) |
//! | `--state` | `state_code` | `state_code` | `state_code` | `jurisdiction` | `state` | `state_code` |
//! | `--country` | `country_code__in` | `country_code` (one) | `country_code__in` | `country_code` | `country` | `country` |
//! | `--from` / `--to` | - | - | - | `start_date` / `end_date` | - | `date__gte` / `date__lte` |
//! | `--search` | - | - | `search_query` | `search_query` | `search_query` | `search_query` |
//! | `--order-by` | yes | yes | yes | yes | yes | yes |
//!
//! A flag a resource does not take is an error naming the resources that do take it; a status
//! is checked against the resource's enumeration, and the error lists the allowed values.

use std::fmt;

use chrono::NaiveDate;
use clap::Args;

use super::Resource;
use crate::model::filters::{
    CustomerFilter, ExemptionFilter, NexusFilter, PhysicalNexusFilter, RegistrationFilter, Sort,
    TransactionFilter,
};
use crate::model::{ExemptionStatus, NexusStatus, RegistrationStatus, TransactionStatus};

/// Filter flags of `taxdash export`, common to every resource; each resource takes some of them.
#[derive(Debug, Clone, Default, PartialEq, Args)]
#[command(next_help_heading = "Filters (each resource takes some of them)")]
pub struct FilterFlags {
    /// Only these statuses (repeat the flag or separate with commas).
    #[arg(long, value_name = "STATUS", value_delimiter = ',')]
    pub status: Vec<String>,
    /// Only this state or province code (exemptions: their jurisdiction).
    #[arg(long, value_name = "CODE")]
    pub state: Option<String>,
    /// Only these country codes (repeat the flag or separate with commas).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub country: Vec<String>,
    /// From this date, YYYY-MM-DD (transactions: their date; exemptions: their start date).
    /// Without --from or --to, the service lists only the last 12 months of transactions.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub from: Option<NaiveDate>,
    /// Up to this date, YYYY-MM-DD (transactions: their date; exemptions: their end date).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub to: Option<NaiveDate>,
    /// Only records matching this text (the service decides which fields it searches).
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// Sort by these fields, `-field` for descending (comma-separated or repeated).
    #[arg(
        long,
        value_name = "FIELD",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub order_by: Vec<String>,
}

fn parse_date(s: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| format!("{s:?} is not a date in the form YYYY-MM-DD"))
}

/// One filter flag, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    Status,
    State,
    Country,
    From,
    To,
    Search,
}

impl Flag {
    /// The resources that take the flag.
    fn takers(self) -> &'static [Resource] {
        use Resource::{Customers, Exemptions, Nexus, Registrations, Transactions};
        match self {
            Flag::Status => &[Registrations, Nexus, Exemptions, Transactions],
            Flag::State | Flag::Country => Resource::ALL,
            Flag::From | Flag::To => &[Exemptions, Transactions],
            Flag::Search => &[Nexus, Exemptions, Customers, Transactions],
        }
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Flag::Status => "--status",
            Flag::State => "--state",
            Flag::Country => "--country",
            Flag::From => "--from",
            Flag::To => "--to",
            Flag::Search => "--search",
        })
    }
}

/// A filter flag that cannot be used as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// The resource has no such filter.
    #[error("{flag} does not apply to {resource}; it applies to {}", list(flag.takers()))]
    NotApplicable { flag: Flag, resource: Resource },
    /// The resource filters on one value only.
    #[error("{resource} can be filtered by only one {flag} value, not {given}")]
    OneOnly {
        flag: Flag,
        resource: Resource,
        given: usize,
    },
    /// A status the resource does not have.
    #[error(
        "--status {value} is not a status {resource} can be filtered by; allowed values: {}",
        allowed.join(", ")
    )]
    UnknownStatus {
        value: String,
        resource: Resource,
        allowed: Vec<String>,
    },
    /// `--from` after `--to`.
    #[error("--from {from} is after --to {to}")]
    EmptyRange { from: NaiveDate, to: NaiveDate },
    /// An empty `--order-by` field.
    #[error("--order-by needs field names, such as `date` or `-date` for descending")]
    EmptyOrderField,
}

fn list(resources: &[Resource]) -> String {
    let names: Vec<String> = resources.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// A resource and its filter: what one export lists.
#[derive(Debug, Clone, PartialEq)]
pub enum ListQuery {
    Registrations(RegistrationFilter),
    PhysicalNexus(PhysicalNexusFilter),
    Nexus(NexusFilter),
    Exemptions(ExemptionFilter),
    Customers(CustomerFilter),
    Transactions(TransactionFilter),
}

impl ListQuery {
    /// The whole list of `resource` (the service's own defaults apply: transactions of the
    /// last 12 months, nexus without the OSS statuses).
    pub fn all(resource: Resource) -> Self {
        Self::from_flags(resource, &FilterFlags::default()).expect("no flag, nothing to refuse")
    }

    /// Maps the flags onto `resource`'s filter, refusing any flag or value it does not take.
    pub fn from_flags(resource: Resource, flags: &FilterFlags) -> Result<Self, FilterError> {
        let m = Mapper { resource, flags };
        if let (Some(from), Some(to)) = (flags.from, flags.to)
            && from > to
        {
            return Err(FilterError::EmptyRange { from, to });
        }
        let order_by = order_by(&flags.order_by)?;
        let state = flags.state.as_ref().map(|s| s.trim().to_ascii_uppercase());
        let countries: Vec<String> = flags
            .country
            .iter()
            .map(|c| c.trim().to_ascii_uppercase())
            .filter(|c| !c.is_empty())
            .collect();
        let search = flags.search.clone();
        Ok(match resource {
            Resource::Registrations => {
                m.refuse(&[Flag::From, Flag::To, Flag::Search])?;
                ListQuery::Registrations(RegistrationFilter {
                    status_in: m.statuses(RegistrationStatus::KNOWN, RegistrationStatus::as_str)?,
                    state_code: state,
                    country_code_in: countries,
                    order_by,
                    ..Default::default()
                })
            }
            Resource::PhysicalNexus => {
                m.refuse(&[Flag::Status, Flag::From, Flag::To, Flag::Search])?;
                ListQuery::PhysicalNexus(PhysicalNexusFilter {
                    country_code: m.at_most_one(Flag::Country, countries)?,
                    state_code: state,
                    order_by,
                })
            }
            Resource::Nexus => {
                m.refuse(&[Flag::From, Flag::To])?;
                ListQuery::Nexus(NexusFilter {
                    search_query: search,
                    status_in: m.statuses(NexusStatus::KNOWN, NexusStatus::as_str)?,
                    state_code: state,
                    country_code_in: countries,
                    order_by,
                    ..Default::default()
                })
            }
            Resource::Exemptions => ListQuery::Exemptions(ExemptionFilter {
                search_query: search,
                status_in: m.statuses(ExemptionStatus::FILTERABLE, ExemptionStatus::as_str)?,
                country_code: countries,
                jurisdiction: state,
                start_date: flags.from,
                end_date: flags.to,
                order_by,
                ..Default::default()
            }),
            Resource::Customers => {
                m.refuse(&[Flag::Status, Flag::From, Flag::To])?;
                ListQuery::Customers(CustomerFilter {
                    search_query: search,
                    country: countries,
                    state,
                    order_by,
                    ..Default::default()
                })
            }
            Resource::Transactions => {
                let statuses = m.statuses(TransactionStatus::KNOWN, TransactionStatus::as_str)?;
                ListQuery::Transactions(TransactionFilter {
                    search_query: search,
                    state_code: state,
                    country: countries,
                    status: m.at_most_one(Flag::Status, statuses)?,
                    date_from: flags.from,
                    date_to: flags.to,
                    order_by,
                    ..Default::default()
                })
            }
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
        }
    }
}

/// Checks the flags against one resource.
struct Mapper<'a> {
    resource: Resource,
    flags: &'a FilterFlags,
}

impl Mapper<'_> {
    fn given(&self, flag: Flag) -> bool {
        let f = self.flags;
        match flag {
            Flag::Status => !f.status.is_empty(),
            Flag::State => f.state.is_some(),
            Flag::Country => !f.country.is_empty(),
            Flag::From => f.from.is_some(),
            Flag::To => f.to.is_some(),
            Flag::Search => f.search.is_some(),
        }
    }

    /// Refuses the first of `flags` that was given.
    fn refuse(&self, flags: &[Flag]) -> Result<(), FilterError> {
        match flags.iter().find(|flag| self.given(**flag)) {
            Some(&flag) => Err(FilterError::NotApplicable {
                flag,
                resource: self.resource,
            }),
            None => Ok(()),
        }
    }

    /// The `--status` values as `allowed` members (case-insensitive).
    fn statuses<T: Clone>(
        &self,
        allowed: &[T],
        name: fn(&T) -> &str,
    ) -> Result<Vec<T>, FilterError> {
        self.flags
            .status
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(|value| {
                allowed
                    .iter()
                    .find(|a| name(a).eq_ignore_ascii_case(value))
                    .cloned()
                    .ok_or_else(|| FilterError::UnknownStatus {
                        value: value.to_owned(),
                        resource: self.resource,
                        allowed: allowed.iter().map(|a| name(a).to_owned()).collect(),
                    })
            })
            .collect()
    }

    fn at_most_one<T>(&self, flag: Flag, mut values: Vec<T>) -> Result<Option<T>, FilterError> {
        match values.len() {
            0 | 1 => Ok(values.pop()),
            given => Err(FilterError::OneOnly {
                flag,
                resource: self.resource,
                given,
            }),
        }
    }
}

fn order_by(fields: &[String]) -> Result<Vec<Sort>, FilterError> {
    fields
        .iter()
        .map(|f| f.trim())
        .filter(|f| !f.is_empty())
        .map(|f| match f.strip_prefix('-') {
            Some("") => Err(FilterError::EmptyOrderField),
            Some(field) => Ok(Sort::desc(field)),
            None => Ok(Sort::asc(f)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PageParams;
    use crate::model::filters::{ListFilter, Query};

    fn encode(resource: Resource, flags: &FilterFlags) -> String {
        let query = ListQuery::from_flags(resource, flags).unwrap();
        let mut q = Query::default();
        match &query {
            ListQuery::Registrations(f) => f.write(&mut q),
            ListQuery::PhysicalNexus(f) => f.write(&mut q),
            ListQuery::Nexus(f) => f.write(&mut q),
            ListQuery::Exemptions(f) => f.write(&mut q),
            ListQuery::Customers(f) => f.write(&mut q),
            ListQuery::Transactions(f) => f.write(&mut q),
        }
        q.page(PageParams::new(1, 100));
        q.encode()
    }

    fn date(s: &str) -> Option<NaiveDate> {
        parse_date(s).ok()
    }

    #[test]
    fn flags_map_onto_each_resource() {
        let flags = FilterFlags {
            status: vec!["registered".into(), "PROCESSING".into()],
            state: Some("tx".into()),
            country: vec!["US".into(), "ca".into()],
            order_by: vec!["-state_code".into()],
            ..Default::default()
        };
        assert_eq!(
            encode(Resource::Registrations, &flags),
            "status__in=REGISTERED%2CPROCESSING&state_code=TX&country_code__in=US\
             &country_code__in=CA&order_by=-state_code&page=1&size=100"
        );
        let flags = FilterFlags {
            status: vec!["COMMITTED".into()],
            from: date("2000-01-01"),
            to: date("2025-12-31"),
            search: Some("ord".into()),
            ..Default::default()
        };
        assert_eq!(
            encode(Resource::Transactions, &flags),
            "search_query=ord&status=COMMITTED&date__gte=2000-01-01&date__lte=2025-12-31\
             &page=1&size=100"
        );
        let flags = FilterFlags {
            state: Some("CA".into()),
            from: date("2024-01-01"),
            ..Default::default()
        };
        assert_eq!(
            encode(Resource::Exemptions, &flags),
            "jurisdiction=CA&start_date=2024-01-01&page=1&size=100"
        );
    }

    #[test]
    fn a_flag_the_resource_does_not_take_is_refused() {
        let flags = FilterFlags {
            from: date("2024-01-01"),
            ..Default::default()
        };
        let err = ListQuery::from_flags(Resource::Registrations, &flags).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--from does not apply to registrations; it applies to exemptions and transactions"
        );
        let flags = FilterFlags {
            status: vec!["ACTIVE".into()],
            ..Default::default()
        };
        let err = ListQuery::from_flags(Resource::Customers, &flags).unwrap_err();
        assert!(matches!(
            err,
            FilterError::NotApplicable {
                flag: Flag::Status,
                ..
            }
        ));
    }

    #[test]
    fn statuses_are_checked_against_the_enumeration() {
        let flags = FilterFlags {
            status: vec!["DEACTIVATED".into()],
            ..Default::default()
        };
        let err = ListQuery::from_flags(Resource::Exemptions, &flags).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--status DEACTIVATED is not a status exemptions can be filtered by; \
             allowed values: ACTIVE, INACTIVE, EXPIRED"
        );
        let flags = FilterFlags {
            status: vec!["PENDING".into(), "COMMITTED".into()],
            ..Default::default()
        };
        let err = ListQuery::from_flags(Resource::Transactions, &flags).unwrap_err();
        assert_eq!(
            err.to_string(),
            "transactions can be filtered by only one --status value, not 2"
        );
    }

    #[test]
    fn ranges_and_order_fields_are_checked() {
        let flags = FilterFlags {
            from: date("2025-02-01"),
            to: date("2025-01-01"),
            ..Default::default()
        };
        assert!(matches!(
            ListQuery::from_flags(Resource::Transactions, &flags),
            Err(FilterError::EmptyRange { .. })
        ));
        let flags = FilterFlags {
            order_by: vec!["-".into()],
            ..Default::default()
        };
        assert_eq!(
            ListQuery::from_flags(Resource::Nexus, &flags),
            Err(FilterError::EmptyOrderField)
        );
        assert!(parse_date("2025-02-30").is_err());
    }
}
