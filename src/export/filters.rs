//! The export's filter flags and how they map onto each resource's filter.
//!
//! | flag | registrations | physical-nexus | nexus | exemptions | customers | transactions | filings | products |
//! |---|---|---|---|---|---|---|---|---|
//! | `--status` | `status__in` | - | `status__in` | `status__in` | - | `status` (one) | `status__in` | `status__in` |
//! | `--state` | `state_code` | `state_code` | `state_code` | `jurisdiction` | `state` | `state_code` | `state_code` | - |
//! | `--country` | `country_code__in` | `country_code` (one) | `country_code__in` | `country_code` | `country` | `country` | `country_code` | - |
//! | `--from` / `--to` | - | - | - | `start_date` / `end_date` | - | `date__gte` / `date__lte` | `start_date` / `end_date` (the period) | - |
//! | `--search` | - | - | `search_query` | `search_query` | `search_query` | `search_query` | - | `query` |
//! | `--exempt` | - | - | - | - | - | `exempt__in` | - | - |
//! | `--processing-status` | - | - | - | - | - | `processing_status__in` | - | - |
//! | `--address-status` | - | - | - | - | - | `address_status__in` | - | - |
//! | `--type` | - | - | - | - | - | `transaction_type` | - | - |
//! | `--direction` | - | - | - | - | - | `direction` (one) | - | - |
//! | `--marketplace` | - | - | - | - | - | `marketplace` | - | - |
//! | `--filing-frequency` | `filing_frequency__in` | - | - | - | - | - | - | - |
//! | `--tax-type` | `tax_type__in` | - | - | - | - | - | - | - |
//! | `--filed-from` / `--filed-to` | - | - | - | - | - | - | `date_filed__gte` / `date_filed__lte` | - |
//! | `--overdue`, `--due-within` | - | - | - | - | - | - | kept here (`end_date` narrows the read) | - |
//! | `--expiring-within`, `--expired-within` | - | - | - | kept here (`end_date` narrows the read) | - | - | - | - |
//! | `--order-by` | yes | yes | yes | yes | yes | yes | yes | yes |
//!
//! A flag a resource does not take is an error naming the resources that do take it; a status,
//! exempt status, processing status, address status or type is checked against its enumeration,
//! and the error lists the allowed values.
//!
//! The windows the service cannot filter by are kept on this side ([`FilingFilter::due`],
//! [`ExemptionFilter::ends`]): every page is read and only the rows inside the window are
//! written. Relative to `today`:
//!
//! - `--overdue`: due before today; `--due-within N`: due from today to today + N. Both leave
//!   out filed returns: without `--status`, only `UNFILED`, `FILING` and `PAUSED` ones. Given
//!   together, a filing that is either is kept.
//! - `--expiring-within N`: ending from today to today + N, and without `--status` only
//!   `ACTIVE` ones; `--expired-within N`: ending from today - N to yesterday. Given together, an
//!   exemption that is either is kept (of any status).

use std::fmt;

use chrono::NaiveDate;
use clap::Args;

use crate::effect::ListQuery;
use crate::model::filters::{
    CustomerFilter, DateWindow, ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter,
    ProductFilter, RegistrationFilter, Sort, TransactionFilter,
};
use crate::model::{
    AddressStatus, Direction, ExemptionStatus, FilingFrequency, FilingStatus, NexusStatus,
    ProcessingStatus, ProductStatus, RegistrationStatus, Resource, TaxType,
    TransactionExemptStatus, TransactionStatus, TransactionType,
};

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
    /// From this date, YYYY-MM-DD (transactions: their date; exemptions: their start date;
    /// filings: their period's start). Without --from or --to, the service lists only the last
    /// 12 months of transactions.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub from: Option<NaiveDate>,
    /// Up to this date, YYYY-MM-DD (transactions: their date; exemptions: their end date;
    /// filings: their period's end).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub to: Option<NaiveDate>,
    /// Only records matching this text (the service decides which fields it searches).
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// Transactions: only these exempt statuses, e.g. `FULLY_EXEMPT` (repeat or use commas).
    #[arg(long, value_name = "STATUS", value_delimiter = ',')]
    pub exempt: Vec<String>,
    /// Transactions: only these processing statuses, e.g. `PENDING` (repeat or use commas).
    #[arg(long, value_name = "STATUS", value_delimiter = ',')]
    pub processing_status: Vec<String>,
    /// Transactions: only these address statuses, e.g. `UNVERIFIED` (repeat or use commas).
    #[arg(long, value_name = "STATUS", value_delimiter = ',')]
    pub address_status: Vec<String>,
    /// Transactions: only these types, e.g. `SALE`, `FULL_CREDIT_NOTE` (repeat or use commas).
    #[arg(long = "type", value_name = "TYPE", value_delimiter = ',')]
    pub kind: Vec<String>,
    /// Transactions: only sales or only purchases (`SALE`, `PURCHASE`).
    #[arg(long, value_name = "DIRECTION")]
    pub direction: Option<String>,
    /// Registrations: only these filing frequencies, e.g. `MONTHLY` (repeat or use commas).
    #[arg(long, value_name = "FREQUENCY", value_delimiter = ',')]
    pub filing_frequency: Vec<String>,
    /// Registrations: only these tax types, e.g. `SALES_TAX` (repeat or use commas).
    #[arg(long, value_name = "TYPE", value_delimiter = ',')]
    pub tax_type: Vec<String>,
    /// Transactions: only marketplace sales (true) or only the others (false).
    #[arg(long, value_name = "true|false")]
    pub marketplace: Option<bool>,
    /// Filings: only those filed on or after this date, YYYY-MM-DD.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub filed_from: Option<NaiveDate>,
    /// Filings: only those filed on or before this date, YYYY-MM-DD.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub filed_to: Option<NaiveDate>,
    /// Filings: only overdue ones (due before today and not filed).
    #[arg(long)]
    pub overdue: bool,
    /// Filings: only those due from today to DAYS days from now (and not filed).
    #[arg(long, value_name = "DAYS")]
    pub due_within: Option<u32>,
    /// Exemptions: only active ones ending from today to DAYS days from now.
    #[arg(long, value_name = "DAYS")]
    pub expiring_within: Option<u32>,
    /// Exemptions: only those that ended in the last DAYS days (up to yesterday).
    #[arg(long, value_name = "DAYS")]
    pub expired_within: Option<u32>,
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
    Exempt,
    ProcessingStatus,
    AddressStatus,
    Type,
    Direction,
    FilingFrequency,
    TaxType,
    Marketplace,
    FiledFrom,
    FiledTo,
    Overdue,
    DueWithin,
    ExpiringWithin,
    ExpiredWithin,
}

impl Flag {
    /// Every flag.
    const ALL: &'static [Flag] = &[
        Flag::Status,
        Flag::State,
        Flag::Country,
        Flag::From,
        Flag::To,
        Flag::Search,
        Flag::Exempt,
        Flag::ProcessingStatus,
        Flag::AddressStatus,
        Flag::Type,
        Flag::Direction,
        Flag::FilingFrequency,
        Flag::TaxType,
        Flag::Marketplace,
        Flag::FiledFrom,
        Flag::FiledTo,
        Flag::Overdue,
        Flag::DueWithin,
        Flag::ExpiringWithin,
        Flag::ExpiredWithin,
    ];

    /// The resources that take the flag.
    fn takers(self) -> &'static [Resource] {
        use Resource::{
            Customers, Exemptions, Filings, Nexus, PhysicalNexus, Products, Registrations,
            Transactions,
        };
        match self {
            Flag::Status => &[
                Registrations,
                Nexus,
                Exemptions,
                Transactions,
                Filings,
                Products,
            ],
            Flag::State | Flag::Country => &[
                Registrations,
                PhysicalNexus,
                Nexus,
                Exemptions,
                Customers,
                Transactions,
                Filings,
            ],
            Flag::From | Flag::To => &[Exemptions, Transactions, Filings],
            Flag::Search => &[Nexus, Exemptions, Customers, Transactions, Products],
            Flag::Exempt
            | Flag::ProcessingStatus
            | Flag::AddressStatus
            | Flag::Type
            | Flag::Direction
            | Flag::Marketplace => &[Transactions],
            Flag::FilingFrequency | Flag::TaxType => &[Registrations],
            Flag::FiledFrom | Flag::FiledTo | Flag::Overdue | Flag::DueWithin => &[Filings],
            Flag::ExpiringWithin | Flag::ExpiredWithin => &[Exemptions],
        }
    }

    /// What one value of the flag is, in an error message: `a status`.
    fn value_kind(self) -> &'static str {
        match self {
            Flag::Exempt => "an exempt status",
            Flag::ProcessingStatus => "a processing status",
            Flag::AddressStatus => "an address status",
            Flag::Type => "a transaction type",
            Flag::Direction => "a direction",
            Flag::FilingFrequency => "a filing frequency",
            Flag::TaxType => "a tax type",
            _ => "a status",
        }
    }
}

/// The refusal of an empty range, in the words every command uses.
fn empty_range(flags: (Flag, Flag), from: NaiveDate, to: NaiveDate) -> String {
    let names = (flags.0.to_string(), flags.1.to_string());
    crate::rules::check_day_range((&names.0, &names.1), from, to)
        .err()
        .unwrap_or_default()
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
            Flag::Exempt => "--exempt",
            Flag::ProcessingStatus => "--processing-status",
            Flag::AddressStatus => "--address-status",
            Flag::Type => "--type",
            Flag::Direction => "--direction",
            Flag::FilingFrequency => "--filing-frequency",
            Flag::TaxType => "--tax-type",
            Flag::Marketplace => "--marketplace",
            Flag::FiledFrom => "--filed-from",
            Flag::FiledTo => "--filed-to",
            Flag::Overdue => "--overdue",
            Flag::DueWithin => "--due-within",
            Flag::ExpiringWithin => "--expiring-within",
            Flag::ExpiredWithin => "--expired-within",
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
    /// A value of an enumerated filter (`--status`, `--exempt`, `--type`, …) the resource does
    /// not have.
    #[error(
        "{flag} {value} is not {} {resource} can be filtered by; allowed values: {}",
        flag.value_kind(),
        allowed.join(", ")
    )]
    UnknownStatus {
        flag: Flag,
        value: String,
        resource: Resource,
        allowed: Vec<String>,
    },
    /// `--from` after `--to`, or `--filed-from` after `--filed-to`.
    #[error("{}", empty_range(*.flags, *.from, *.to))]
    EmptyRange {
        flags: (Flag, Flag),
        from: NaiveDate,
        to: NaiveDate,
    },
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

/// The export's side of a list query: the command-line flags it is made from.
impl ListQuery {
    /// Maps the flags onto `resource`'s filter, refusing any flag or value it does not take;
    /// the windows count from [`crate::clock::today`], the day the dashboard counts from too.
    pub fn from_flags(resource: Resource, flags: &FilterFlags) -> Result<Self, FilterError> {
        Self::from_flags_on(resource, flags, crate::clock::today())
    }

    /// [`ListQuery::from_flags`] with the windows (`--overdue`, `--due-within`,
    /// `--expiring-within`, `--expired-within`) counted from `today`.
    pub fn from_flags_on(
        resource: Resource,
        flags: &FilterFlags,
        today: NaiveDate,
    ) -> Result<Self, FilterError> {
        let m = Mapper { resource, flags };
        m.refuse_others()?;
        for (from, to, flags) in [
            (flags.from, flags.to, (Flag::From, Flag::To)),
            (
                flags.filed_from,
                flags.filed_to,
                (Flag::FiledFrom, Flag::FiledTo),
            ),
        ] {
            if let (Some(from), Some(to)) = (from, to)
                && from > to
            {
                return Err(FilterError::EmptyRange { flags, from, to });
            }
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
            Resource::Registrations => ListQuery::Registrations(RegistrationFilter {
                status_in: m.values(Flag::Status, RegistrationStatus::KNOWN, |s| s.as_str())?,
                state_code: state,
                filing_frequency_in: m.values(
                    Flag::FilingFrequency,
                    FilingFrequency::KNOWN,
                    |s| s.as_str(),
                )?,
                country_code_in: countries,
                tax_type_in: m.values(Flag::TaxType, TaxType::KNOWN, |s| s.as_str())?,
                order_by,
                ..RegistrationFilter::default()
            }),
            Resource::PhysicalNexus => ListQuery::PhysicalNexus(PhysicalNexusFilter {
                country_code: m.at_most_one(Flag::Country, countries)?,
                state_code: state,
                order_by,
            }),
            Resource::Nexus => ListQuery::Nexus(NexusFilter {
                search_query: search,
                status_in: m.values(Flag::Status, NexusStatus::KNOWN, |s| s.as_str())?,
                state_code: state,
                country_code_in: countries,
                order_by,
                ..Default::default()
            }),
            Resource::Exemptions => {
                let mut status_in =
                    m.values(Flag::Status, ExemptionStatus::FILTERABLE, |s| s.as_str())?;
                let expiring = flags
                    .expiring_within
                    .map(|n| DateWindow::within_next(today, u64::from(n)));
                let expired = flags
                    .expired_within
                    .map(|n| DateWindow::within_last(today, u64::from(n)));
                let ends = match (expiring, expired) {
                    (Some(window), None) => {
                        if status_in.is_empty() {
                            status_in = vec![ExemptionStatus::Active];
                        }
                        Some(window)
                    }
                    (None, Some(window)) => Some(window),
                    // Both: from the start of the past window to the end of the coming one.
                    (Some(ahead), Some(past)) => Some(DateWindow::new(past.from, ahead.to)),
                    (None, None) => None,
                };
                ListQuery::Exemptions(ExemptionFilter {
                    search_query: search,
                    status_in,
                    country_code: countries,
                    jurisdiction: state,
                    start_date: flags.from,
                    end_date: flags.to,
                    ends,
                    order_by,
                    ..Default::default()
                })
            }
            Resource::Products => ListQuery::Products(ProductFilter {
                query: search,
                status_in: m.values(Flag::Status, ProductStatus::KNOWN, |s| s.as_str())?,
                order_by,
                ..Default::default()
            }),
            Resource::Customers => ListQuery::Customers(CustomerFilter {
                search_query: search,
                country: countries,
                state,
                order_by,
                ..Default::default()
            }),
            Resource::Transactions => {
                let statuses = m.values(Flag::Status, TransactionStatus::KNOWN, |s| s.as_str())?;
                ListQuery::Transactions(TransactionFilter {
                    search_query: search,
                    state_code: state,
                    country: countries,
                    status: m.at_most_one(Flag::Status, statuses)?,
                    processing_status_in: m.values(
                        Flag::ProcessingStatus,
                        ProcessingStatus::KNOWN,
                        |s| s.as_str(),
                    )?,
                    exempt_in: m
                        .values(Flag::Exempt, TransactionExemptStatus::KNOWN, |s| s.as_str())?,
                    address_status_in: m.values(
                        Flag::AddressStatus,
                        AddressStatus::KNOWN,
                        |s| s.as_str(),
                    )?,
                    transaction_type: m
                        .values(Flag::Type, TransactionType::KNOWN, |s| s.as_str())?,
                    marketplace: flags.marketplace,
                    direction: m.at_most_one(
                        Flag::Direction,
                        m.values(Flag::Direction, Direction::KNOWN, |s| s.as_str())?,
                    )?,
                    date_from: flags.from,
                    date_to: flags.to,
                    order_by,
                    ..Default::default()
                })
            }
            Resource::Filings => {
                let mut status_in = m.values(Flag::Status, FilingStatus::KNOWN, |s| s.as_str())?;
                let ahead = flags
                    .due_within
                    .map(|n| DateWindow::within_next(today, u64::from(n)));
                let due = match (flags.overdue, ahead) {
                    (false, None) => None,
                    (true, None) => Some(DateWindow::before(today)),
                    (false, Some(window)) => Some(window),
                    // Both: everything due before the end of the coming window.
                    (true, Some(window)) => Some(DateWindow::new(None, window.to)),
                };
                if due.is_some() && status_in.is_empty() {
                    status_in = FilingStatus::TO_FILE.to_vec();
                }
                ListQuery::Filings(FilingFilter {
                    status_in,
                    state_code: state,
                    country_code: countries,
                    start_date: flags.from,
                    end_date: flags.to,
                    filed_from: flags.filed_from,
                    filed_to: flags.filed_to,
                    due,
                    not_adding_up: None,
                    order_by,
                })
            }
        })
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
            Flag::Exempt => !f.exempt.is_empty(),
            Flag::ProcessingStatus => !f.processing_status.is_empty(),
            Flag::AddressStatus => !f.address_status.is_empty(),
            Flag::Type => !f.kind.is_empty(),
            Flag::Direction => f.direction.is_some(),
            Flag::FilingFrequency => !f.filing_frequency.is_empty(),
            Flag::TaxType => !f.tax_type.is_empty(),
            Flag::Marketplace => f.marketplace.is_some(),
            Flag::FiledFrom => f.filed_from.is_some(),
            Flag::FiledTo => f.filed_to.is_some(),
            Flag::Overdue => f.overdue,
            Flag::DueWithin => f.due_within.is_some(),
            Flag::ExpiringWithin => f.expiring_within.is_some(),
            Flag::ExpiredWithin => f.expired_within.is_some(),
        }
    }

    /// Refuses the first flag given that the resource does not take.
    fn refuse_others(&self) -> Result<(), FilterError> {
        match Flag::ALL
            .iter()
            .find(|flag| self.given(**flag) && !flag.takers().contains(&self.resource))
        {
            Some(&flag) => Err(FilterError::NotApplicable {
                flag,
                resource: self.resource,
            }),
            None => Ok(()),
        }
    }

    /// The raw values of an enumerated flag.
    fn raw(&self, flag: Flag) -> &[String] {
        let f = self.flags;
        match flag {
            Flag::Exempt => &f.exempt,
            Flag::ProcessingStatus => &f.processing_status,
            Flag::AddressStatus => &f.address_status,
            Flag::Type => &f.kind,
            Flag::Direction => f.direction.as_slice(),
            Flag::FilingFrequency => &f.filing_frequency,
            Flag::TaxType => &f.tax_type,
            _ => &f.status,
        }
    }

    /// The values of `flag` as `allowed` members (case-insensitive).
    fn values<T: Clone>(
        &self,
        flag: Flag,
        allowed: &[T],
        name: fn(&T) -> &str,
    ) -> Result<Vec<T>, FilterError> {
        self.raw(flag)
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(|value| {
                allowed
                    .iter()
                    .find(|a| name(a).eq_ignore_ascii_case(value))
                    .cloned()
                    .ok_or_else(|| FilterError::UnknownStatus {
                        flag,
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
            ListQuery::Filings(f) => f.write(&mut q),
            ListQuery::Products(f) => f.write(&mut q),
        }
        q.page(PageParams::new(1, 100));
        q.encode()
    }

    fn date(s: &str) -> Option<NaiveDate> {
        parse_date(s).ok()
    }

    #[test]
    fn no_flag_is_the_whole_list() {
        for &resource in Resource::ALL {
            assert_eq!(
                ListQuery::from_flags(resource, &FilterFlags::default()),
                Ok(ListQuery::all(resource)),
                "{resource}"
            );
        }
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
            "--from does not apply to registrations; it applies to exemptions, transactions and \
             filings"
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

    #[test]
    fn transaction_flags_map_onto_the_service_parameters() {
        let flags = FilterFlags {
            exempt: vec!["fully_exempt".into(), "PARTIALLY_EXEMPT".into()],
            processing_status: vec!["PENDING".into()],
            address_status: vec!["unverified".into(), "INVALID".into()],
            kind: vec!["SALE".into()],
            marketplace: Some(false),
            from: date("2000-01-01"),
            ..Default::default()
        };
        assert_eq!(
            encode(Resource::Transactions, &flags),
            "processing_status__in=PENDING&exempt__in=FULLY_EXEMPT%2CPARTIALLY_EXEMPT\
             &address_status__in=UNVERIFIED%2CINVALID&transaction_type=SALE&marketplace=false\
             &date__gte=2000-01-01&page=1&size=100"
        );
        let flags = FilterFlags {
            exempt: vec!["SOMETIMES".into()],
            ..Default::default()
        };
        assert_eq!(
            ListQuery::from_flags(Resource::Transactions, &flags)
                .unwrap_err()
                .to_string(),
            "--exempt SOMETIMES is not an exempt status transactions can be filtered by; \
             allowed values: NOT_EXEMPT, PARTIALLY_EXEMPT, FULLY_EXEMPT, ZERO_RATE_NOT_EXEMPT"
        );
        let flags = FilterFlags {
            marketplace: Some(true),
            ..Default::default()
        };
        assert_eq!(
            ListQuery::from_flags(Resource::Filings, &flags)
                .unwrap_err()
                .to_string(),
            "--marketplace does not apply to filings; it applies to transactions"
        );
    }

    #[test]
    fn filing_flags_and_their_windows_count_from_the_given_day() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
        let flags = FilterFlags {
            state: Some("ca".into()),
            country: vec!["US".into()],
            from: date("2025-01-01"),
            filed_from: date("2025-02-01"),
            filed_to: date("2025-12-31"),
            ..Default::default()
        };
        assert_eq!(
            encode(Resource::Filings, &flags),
            "state_code=CA&country_code=US&start_date=2025-01-01&date_filed__gte=2025-02-01\
             &date_filed__lte=2025-12-31&page=1&size=100"
        );
        let query =
            |flags: &FilterFlags| match ListQuery::from_flags_on(Resource::Filings, flags, today)
                .unwrap()
            {
                ListQuery::Filings(f) => f,
                other => panic!("{other:?}"),
            };
        let overdue = query(&FilterFlags {
            overdue: true,
            ..Default::default()
        });
        assert_eq!(
            overdue.due,
            Some(DateWindow::new(None, date("2026-11-14"))),
            "due before today"
        );
        assert_eq!(
            overdue.status_in,
            [FilingStatus::Unfiled, FilingStatus::Filing],
            "filed returns are not overdue"
        );
        let soon = query(&FilterFlags {
            due_within: Some(30),
            status: vec!["UNFILED".into()],
            ..Default::default()
        });
        assert_eq!(
            soon.due,
            Some(DateWindow::new(date("2026-11-15"), date("2026-12-15")))
        );
        assert_eq!(soon.status_in, [FilingStatus::Unfiled], "--status wins");
        let either = query(&FilterFlags {
            overdue: true,
            due_within: Some(7),
            ..Default::default()
        });
        assert_eq!(either.due, Some(DateWindow::new(None, date("2026-11-22"))));
        let filed_backwards = FilterFlags {
            filed_from: date("2025-03-01"),
            filed_to: date("2025-02-01"),
            ..Default::default()
        };
        assert_eq!(
            ListQuery::from_flags(Resource::Filings, &filed_backwards)
                .unwrap_err()
                .to_string(),
            "--filed-from 2025-03-01 is after --filed-to 2025-02-01: the range is empty"
        );
    }

    #[test]
    fn exemption_windows_count_from_the_given_day() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
        let query = |flags: &FilterFlags| match ListQuery::from_flags_on(
            Resource::Exemptions,
            flags,
            today,
        )
        .unwrap()
        {
            ListQuery::Exemptions(f) => f,
            other => panic!("{other:?}"),
        };
        let expiring = query(&FilterFlags {
            expiring_within: Some(30),
            ..Default::default()
        });
        assert_eq!(
            expiring.ends,
            Some(DateWindow::new(date("2026-11-15"), date("2026-12-15")))
        );
        assert_eq!(expiring.status_in, [ExemptionStatus::Active]);
        let expired = query(&FilterFlags {
            expired_within: Some(30),
            ..Default::default()
        });
        assert_eq!(
            expired.ends,
            Some(DateWindow::new(date("2026-10-16"), date("2026-11-14")))
        );
        assert!(expired.status_in.is_empty(), "any status");
        let both = query(&FilterFlags {
            expiring_within: Some(10),
            expired_within: Some(5),
            ..Default::default()
        });
        assert_eq!(
            both.ends,
            Some(DateWindow::new(date("2026-11-10"), date("2026-11-25")))
        );
        let refused = FilterFlags {
            overdue: true,
            ..Default::default()
        };
        assert_eq!(
            ListQuery::from_flags(Resource::Exemptions, &refused)
                .unwrap_err()
                .to_string(),
            "--overdue does not apply to exemptions; it applies to filings"
        );
    }
}
