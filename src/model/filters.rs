//! Typed filters of the paged lists, encoded as the service reads them:
//!
//! - arrays of codes repeat the key: `country_code__in=US&country_code__in=CA`;
//! - enumerated `…__in` filters (`status__in`, `tax_type__in`, …) and `order_by` are one
//!   comma-separated value, as the interface documents `status__in`;
//! - dates are `YYYY-MM-DD`; booleans `true`/`false`;
//! - `page` and `size` close every list query.
//!
//! Every filter is `Default` (no filtering) and encodes only the fields that are set.

use chrono::NaiveDate;

use super::{
    AddressStatus, Direction, Exemption, ExemptionStatus, Filing, FilingFrequency, FilingStatus,
    NexusStatus, PageParams, ProcessingStatus, ProductStatus, RefundStatus, RegistrationStatus,
    TaxType, TransactionExemptStatus, TransactionStatus, TransactionType,
};

/// One `order_by` key: a field name, ascending or descending (`-field`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sort {
    pub field: String,
    pub descending: bool,
}

impl Sort {
    pub fn asc(field: impl Into<String>) -> Self {
        Sort {
            field: field.into(),
            descending: false,
        }
    }

    pub fn desc(field: impl Into<String>) -> Self {
        Sort {
            field: field.into(),
            descending: true,
        }
    }
}

/// Query pairs in the order they are written.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Query(Vec<(&'static str, String)>);

impl Query {
    pub fn pairs(&self) -> &[(&'static str, String)] {
        &self.0
    }

    /// The pairs as a query string (without the `?`).
    pub fn encode(&self) -> String {
        serde_urlencoded::to_string(&self.0).unwrap_or_default()
    }

    pub(crate) fn text(&mut self, key: &'static str, value: Option<&str>) -> &mut Self {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            self.0.push((key, v.to_owned()));
        }
        self
    }

    /// One pair per value.
    pub(crate) fn repeated<S: AsRef<str>>(&mut self, key: &'static str, values: &[S]) -> &mut Self {
        for v in values {
            self.text(key, Some(v.as_ref()));
        }
        self
    }

    /// All values in one pair, comma-separated.
    pub(crate) fn comma<T: AsRef<str>>(&mut self, key: &'static str, values: &[T]) -> &mut Self {
        let joined: Vec<&str> = values.iter().map(AsRef::as_ref).collect();
        self.text(key, Some(&joined.join(",")))
    }

    /// Enumeration values, comma-separated.
    fn comma_of<T>(&mut self, key: &'static str, values: &[T], f: fn(&T) -> &str) -> &mut Self {
        let names: Vec<&str> = values.iter().map(f).collect();
        self.comma(key, &names)
    }

    fn date(&mut self, key: &'static str, value: Option<NaiveDate>) -> &mut Self {
        if let Some(d) = value {
            self.0.push((key, d.format("%Y-%m-%d").to_string()));
        }
        self
    }

    fn flag(&mut self, key: &'static str, value: Option<bool>) -> &mut Self {
        if let Some(b) = value {
            self.0.push((key, b.to_string()));
        }
        self
    }

    fn order_by(&mut self, sort: &[Sort]) -> &mut Self {
        let keys: Vec<String> = sort
            .iter()
            .map(|s| format!("{}{}", if s.descending { "-" } else { "" }, s.field))
            .collect();
        self.comma("order_by", &keys)
    }

    pub(crate) fn page(&mut self, page: PageParams) -> &mut Self {
        self.0.push(("page", page.page.to_string()));
        self.0.push(("size", page.size.to_string()));
        self
    }
}

/// Dates from one day to another, both included; an open end is no bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DateWindow {
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

impl DateWindow {
    pub fn new(from: Option<NaiveDate>, to: Option<NaiveDate>) -> Self {
        DateWindow { from, to }
    }

    /// Before `today`: "overdue".
    pub fn before(today: NaiveDate) -> Self {
        DateWindow::new(None, today.pred_opt())
    }

    /// From `today` to `days` days ahead, both included: "due within", "expiring within".
    pub fn within_next(today: NaiveDate, days: u64) -> Self {
        DateWindow::new(Some(today), today.checked_add_days(chrono::Days::new(days)))
    }

    /// From `days` days ago to yesterday: "expired in the last `days` days".
    pub fn within_last(today: NaiveDate, days: u64) -> Self {
        DateWindow::new(
            today.checked_sub_days(chrono::Days::new(days)),
            today.pred_opt(),
        )
    }

    /// Whether `date` lies in the window; a missing date lies in no window.
    pub fn contains(&self, date: Option<NaiveDate>) -> bool {
        date.is_some_and(|d| self.from.is_none_or(|f| d >= f) && self.to.is_none_or(|t| d <= t))
    }
}

/// The earlier of a bound given by the user and one implied by a window kept on this side.
fn tighter(given: Option<NaiveDate>, implied: Option<NaiveDate>) -> Option<NaiveDate> {
    match (given, implied) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A filter of one paged list.
pub trait ListFilter {
    /// The list's path below the generation's prefix: `["nexus", "physical_nexus"]`.
    const PATH: &'static [&'static str];

    /// Writes the filter's pairs (not `page`/`size`).
    fn write(&self, q: &mut Query);

    /// The full query of one page.
    fn query(&self, page: PageParams) -> Query {
        let mut q = Query::default();
        self.write(&mut q);
        q.page(page);
        q
    }
}

/// GET /v1/registrations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RegistrationFilter {
    /// Empty: every status.
    pub status_in: Vec<RegistrationStatus>,
    pub state_code: Option<String>,
    pub filing_frequency_in: Vec<FilingFrequency>,
    pub country_code_in: Vec<String>,
    pub tax_type_in: Vec<TaxType>,
    /// Kept on this side (the service has no filter for it): only registrations the service
    /// says are to be marked as collecting.
    pub to_mark_as_collecting: bool,
    /// Kept on this side (the service has no filter for it): only registrations missing
    /// portal credentials that can hold them ([`super::Registration::misses_credentials`]).
    pub missing_credentials: bool,
    pub order_by: Vec<Sort>,
}

impl RegistrationFilter {
    /// Whether part of the filter is kept on this side: every page is read and the rows passed
    /// through [`RegistrationFilter::keeps`].
    pub fn is_local(&self) -> bool {
        self.to_mark_as_collecting || self.missing_credentials
    }

    /// Whether `row` passes the part of the filter the service cannot apply.
    pub fn keeps(&self, row: &super::Registration) -> bool {
        (!self.to_mark_as_collecting || row.needs_mark_as_collecting == Some(true))
            && (!self.missing_credentials || row.misses_credentials())
    }

    /// Whether `row` passes the statuses and the part kept on this side (see
    /// [`FilingFilter::holds`]).
    pub fn holds(&self, row: &super::Registration) -> bool {
        (self.status_in.is_empty() || self.status_in.contains(&row.status)) && self.keeps(row)
    }
}

impl ListFilter for RegistrationFilter {
    const PATH: &'static [&'static str] = &["registrations"];

    fn write(&self, q: &mut Query) {
        q.comma_of("status__in", &self.status_in, RegistrationStatus::as_str)
            .text("state_code", self.state_code.as_deref())
            .comma_of(
                "filing_frequency__in",
                &self.filing_frequency_in,
                FilingFrequency::as_str,
            )
            .repeated("country_code__in", &self.country_code_in)
            .comma_of("tax_type__in", &self.tax_type_in, TaxType::as_str)
            .order_by(&self.order_by);
    }
}

/// GET /v1/nexus (economic nexus per jurisdiction).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NexusFilter {
    pub search_query: Option<String>,
    /// Empty: the service's default (every status but the OSS ones).
    pub status_in: Vec<NexusStatus>,
    pub state_code: Option<String>,
    pub state_code_in: Vec<String>,
    pub country_code_in: Vec<String>,
    pub collected_tax_nexus_met: Option<bool>,
    /// Kept on this side: only the jurisdictions in this standing, judged from the economic
    /// nexus, the physical presences and the registrations read together (see
    /// `rules::attention::standings`): the Overview's exposed tile opens this list. A
    /// jurisdiction with no economic nexus record is shown as a row of its own.
    pub standing: Option<super::Standing>,
    pub order_by: Vec<Sort>,
}

impl NexusFilter {
    /// Whether part of the filter is kept on this side (the standing): the list is then read
    /// whole and judged here.
    pub fn is_local(&self) -> bool {
        self.standing.is_some()
    }

    /// Every row served for a standing was judged where it was read (it takes three lists,
    /// not one row): nothing more is dropped here.
    pub fn keeps(&self, _row: &super::Nexus) -> bool {
        true
    }

    /// The filter without what is kept on this side: what the service is asked.
    pub fn remote(&self) -> NexusFilter {
        NexusFilter {
            standing: None,
            ..self.clone()
        }
    }
}

impl ListFilter for NexusFilter {
    const PATH: &'static [&'static str] = &["nexus"];

    fn write(&self, q: &mut Query) {
        q.text("search_query", self.search_query.as_deref())
            .comma_of("status__in", &self.status_in, NexusStatus::as_str)
            .text("state_code", self.state_code.as_deref())
            .repeated("state_code__in", &self.state_code_in)
            .repeated("country_code__in", &self.country_code_in)
            .flag("collected_tax_nexus_met", self.collected_tax_nexus_met)
            .order_by(&self.order_by);
    }
}

/// GET /`v1/nexus/physical_nexus`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhysicalNexusFilter {
    pub country_code: Option<String>,
    pub state_code: Option<String>,
    pub order_by: Vec<Sort>,
}

impl ListFilter for PhysicalNexusFilter {
    const PATH: &'static [&'static str] = &["nexus", "physical_nexus"];

    fn write(&self, q: &mut Query) {
        q.text("country_code", self.country_code.as_deref())
            .text("state_code", self.state_code.as_deref())
            .order_by(&self.order_by);
    }
}

/// GET /v1/exemptions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExemptionFilter {
    /// Matches the exemption ID, the customer's name or email.
    pub search_query: Option<String>,
    /// Only `ACTIVE`, `INACTIVE` and `EXPIRED` are accepted; empty: those three.
    pub status_in: Vec<ExemptionStatus>,
    pub country_code: Vec<String>,
    pub jurisdiction: Option<String>,
    pub start_date: Option<NaiveDate>,
    pub end_date: Option<NaiveDate>,
    pub customer_id: Option<String>,
    pub transaction_id: Option<String>,
    /// Kept on this side: only exemptions whose end date lies in the window ("expiring within
    /// 30 days", "expired in the last 30 days"). The service is asked for end dates up to the
    /// window's end; the rest is dropped here.
    pub ends: Option<DateWindow>,
    /// Allowed fields: `end_date`, `FEIN`, `sales_tax_id`, `status`.
    pub order_by: Vec<Sort>,
}

impl ExemptionFilter {
    /// Whether part of the filter is kept on this side: every page must be read and the rows
    /// passed through [`ExemptionFilter::keeps`].
    pub fn is_local(&self) -> bool {
        self.ends.is_some()
    }

    /// Whether `row` passes the part of the filter the service cannot apply.
    pub fn keeps(&self, row: &Exemption) -> bool {
        self.ends.is_none_or(|w| w.contains(row.end_date))
    }
}

impl ListFilter for ExemptionFilter {
    const PATH: &'static [&'static str] = &["exemptions"];

    fn write(&self, q: &mut Query) {
        q.text("search_query", self.search_query.as_deref())
            .comma_of("status__in", &self.status_in, ExemptionStatus::as_str)
            .repeated("country_code", &self.country_code)
            .text("jurisdiction", self.jurisdiction.as_deref())
            .date("start_date", self.start_date)
            .date(
                "end_date",
                tighter(self.end_date, self.ends.and_then(|w| w.to)),
            )
            .text("customer_id", self.customer_id.as_deref())
            .text("transaction_id", self.transaction_id.as_deref())
            .order_by(&self.order_by);
    }
}

/// GET /v1/customers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CustomerFilter {
    pub search_query: Option<String>,
    pub country: Vec<String>,
    pub state: Option<String>,
    pub source_in: Vec<String>,
    /// Kept on this side: the service does not filter customers by address status.
    pub address_status_in: Vec<AddressStatus>,
    pub order_by: Vec<Sort>,
}

impl CustomerFilter {
    /// Whether part of the filter is kept on this side (the address status).
    pub fn is_local(&self) -> bool {
        !self.address_status_in.is_empty()
    }

    /// Whether `customer` is kept by the part of the filter kept on this side.
    pub fn keeps(&self, customer: &crate::model::Customer) -> bool {
        self.address_status_in.is_empty()
            || customer
                .address_status
                .as_ref()
                .is_some_and(|s| self.address_status_in.contains(s))
    }
}

impl ListFilter for CustomerFilter {
    const PATH: &'static [&'static str] = &["customers"];

    fn write(&self, q: &mut Query) {
        q.text("search_query", self.search_query.as_deref())
            .repeated("country", &self.country)
            .text("state", self.state.as_deref())
            .comma("source__in", &self.source_in)
            .order_by(&self.order_by);
    }
}

/// GET /v1/transactions. With neither date bound the service lists the last 12 months.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TransactionFilter {
    pub search_query: Option<String>,
    pub state_code: Option<String>,
    pub country: Vec<String>,
    pub status: Option<TransactionStatus>,
    pub refund_status: Option<RefundStatus>,
    pub processing_status_in: Vec<ProcessingStatus>,
    pub exempt_in: Vec<TransactionExemptStatus>,
    pub address_status_in: Vec<AddressStatus>,
    pub transaction_type: Vec<TransactionType>,
    pub marketplace: Option<bool>,
    pub direction: Option<Direction>,
    /// `date__gte`.
    pub date_from: Option<NaiveDate>,
    /// `date__lte`.
    pub date_to: Option<NaiveDate>,
    /// Kept on this side: only these transactions (the ones the Overview has seen queued for
    /// over a minute: the service tells no creation time). `None`: no such filter; an empty
    /// list keeps none.
    pub only_ids: Option<Vec<String>>,
    pub order_by: Vec<Sort>,
}

impl TransactionFilter {
    /// Whether part of the filter is kept on this side.
    pub fn is_local(&self) -> bool {
        self.only_ids.is_some()
    }

    /// Whether `row` passes the part of the filter the service cannot apply.
    pub fn keeps(&self, row: &super::Transaction) -> bool {
        self.only_ids
            .as_ref()
            .is_none_or(|ids| ids.contains(&row.id))
    }
}

impl ListFilter for TransactionFilter {
    const PATH: &'static [&'static str] = &["transactions"];

    fn write(&self, q: &mut Query) {
        q.text("search_query", self.search_query.as_deref())
            .text("state_code", self.state_code.as_deref())
            .repeated("country", &self.country)
            .text(
                "status",
                self.status.as_ref().map(TransactionStatus::as_str),
            )
            .text(
                "refund_status",
                self.refund_status.as_ref().map(RefundStatus::as_str),
            )
            .comma_of(
                "processing_status__in",
                &self.processing_status_in,
                ProcessingStatus::as_str,
            )
            .comma_of(
                "exempt__in",
                &self.exempt_in,
                TransactionExemptStatus::as_str,
            )
            .comma_of(
                "address_status__in",
                &self.address_status_in,
                AddressStatus::as_str,
            )
            .comma_of(
                "transaction_type",
                &self.transaction_type,
                TransactionType::as_str,
            )
            .flag("marketplace", self.marketplace)
            .text("direction", self.direction.as_ref().map(Direction::as_str))
            .date("date__gte", self.date_from)
            .date("date__lte", self.date_to)
            .order_by(&self.order_by);
    }
}

/// GET /v1/filings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FilingFilter {
    pub status_in: Vec<FilingStatus>,
    pub state_code: Option<String>,
    pub country_code: Vec<String>,
    /// Periods starting on or after this date.
    pub start_date: Option<NaiveDate>,
    /// Periods ending on or before this date.
    pub end_date: Option<NaiveDate>,
    /// `date_filed__gte`.
    pub filed_from: Option<NaiveDate>,
    /// `date_filed__lte`.
    pub filed_to: Option<NaiveDate>,
    /// Kept on this side: only filings due in the window ("overdue", "due within 30 days").
    /// A return is due after its period ends, so the service is asked for periods ending by
    /// the window's end; the rest is dropped here.
    pub due: Option<DateWindow>,
    /// Kept on this side: only filings the filing check finds do not add up beyond this
    /// tolerance (tax collected against the liability, sales against the transactions the
    /// service lists for the return, read beside each page).
    pub not_adding_up: Option<super::Tolerance>,
    pub order_by: Vec<Sort>,
}

impl FilingFilter {
    /// Returns still to be filed whose due date has passed on `today`: the one rule for
    /// "overdue", in the Overview's tile and the list it opens, and for the returns an approval
    /// says will be filed late.
    pub fn overdue(today: NaiveDate) -> Self {
        FilingFilter {
            status_in: FilingStatus::TO_FILE.to_vec(),
            due: Some(DateWindow::before(today)),
            ..FilingFilter::default()
        }
    }

    /// Whether part of the filter is kept on this side: every page must be read and the rows
    /// passed through [`FilingFilter::keeps`].
    pub fn is_local(&self) -> bool {
        self.due.is_some() || self.not_adding_up.is_some()
    }

    /// Whether `row` passes the statuses and the part kept on this side: what a count made from
    /// rows read with a wider query (the Overview's) keeps, so that it is the list the filter
    /// opens.
    pub fn holds(&self, row: &Filing) -> bool {
        (self.status_in.is_empty()
            || row
                .status
                .as_ref()
                .is_some_and(|s| self.status_in.contains(s)))
            && self.keeps(row)
    }

    /// Whether `row` passes the part of the filter the service cannot apply.
    pub fn keeps(&self, row: &Filing) -> bool {
        self.due.is_none_or(|w| w.contains(row.due_date))
            && self.not_adding_up.is_none_or(|t| !row.adds_up(t))
    }
}

impl ListFilter for FilingFilter {
    const PATH: &'static [&'static str] = &["filings"];

    fn write(&self, q: &mut Query) {
        q.comma_of("status__in", &self.status_in, FilingStatus::as_str)
            .text("state_code", self.state_code.as_deref())
            .repeated("country_code", &self.country_code)
            .date("start_date", self.start_date)
            .date(
                "end_date",
                tighter(self.end_date, self.due.and_then(|w| w.to)),
            )
            .date("date_filed__gte", self.filed_from)
            .date("date_filed__lte", self.filed_to)
            .order_by(&self.order_by);
    }
}

/// GET /v1/products.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProductFilter {
    /// Matches name, code, external ID or SKU.
    pub query: Option<String>,
    pub status_in: Vec<ProductStatus>,
    pub product_category_in: Vec<String>,
    pub product_subcategory_in: Vec<String>,
    pub source_in: Vec<String>,
    pub order_by: Vec<Sort>,
}

impl ListFilter for ProductFilter {
    const PATH: &'static [&'static str] = &["products"];

    fn write(&self, q: &mut Query) {
        q.text("query", self.query.as_deref())
            .comma_of("status__in", &self.status_in, ProductStatus::as_str)
            .comma("product_category__in", &self.product_category_in)
            .comma("product_subcategory__in", &self.product_subcategory_in)
            .comma("source__in", &self.source_in)
            .order_by(&self.order_by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(y, m, d)
    }

    #[test]
    fn an_empty_filter_sends_only_the_page() {
        assert_eq!(
            RegistrationFilter::default()
                .query(PageParams::default())
                .encode(),
            "page=1&size=50"
        );
        assert_eq!(
            TransactionFilter::default()
                .query(PageParams::new(7, 100))
                .encode(),
            "page=7&size=100"
        );
    }

    #[test]
    fn registrations_repeat_countries_and_join_statuses() {
        let f = RegistrationFilter {
            status_in: vec![
                RegistrationStatus::Registered,
                RegistrationStatus::Processing,
            ],
            country_code_in: vec!["US".into(), "CA".into()],
            state_code: Some("TX".into()),
            tax_type_in: vec![TaxType::SalesTax],
            order_by: vec![Sort::desc("state_code"), Sort::asc("country_code")],
            ..Default::default()
        };
        assert_eq!(
            f.query(PageParams::new(2, 25)).encode(),
            "status__in=REGISTERED%2CPROCESSING&state_code=TX&country_code__in=US&country_code__in=CA\
             &tax_type__in=SALES_TAX&order_by=-state_code%2Ccountry_code&page=2&size=25"
        );
    }

    #[test]
    fn transactions_write_dates_flags_and_enums() {
        let f = TransactionFilter {
            search_query: Some("ord 1&2".into()),
            country: vec!["US".into(), "CA".into()],
            status: Some(TransactionStatus::Committed),
            processing_status_in: vec![ProcessingStatus::Queued, ProcessingStatus::Processed],
            marketplace: Some(false),
            direction: Some(Direction::Sale),
            date_from: date(2026, 1, 1),
            date_to: date(2026, 3, 31),
            order_by: vec![Sort::desc("date")],
            ..Default::default()
        };
        assert_eq!(
            f.query(PageParams::default()).encode(),
            "search_query=ord+1%262&country=US&country=CA&status=COMMITTED\
             &processing_status__in=QUEUED%2CPROCESSED&marketplace=false&direction=SALE\
             &date__gte=2026-01-01&date__lte=2026-03-31&order_by=-date&page=1&size=50"
        );
    }

    #[test]
    #[expect(clippy::many_single_char_names)] // one letter per filter kind
    fn other_lists_encode_their_own_keys() {
        let e = ExemptionFilter {
            status_in: vec![ExemptionStatus::Active],
            country_code: vec!["US".into(), "CA".into()],
            start_date: date(2025, 2, 1),
            order_by: vec![Sort::asc("FEIN")],
            ..Default::default()
        };
        assert_eq!(
            e.query(PageParams::default()).encode(),
            "status__in=ACTIVE&country_code=US&country_code=CA&start_date=2025-02-01\
             &order_by=FEIN&page=1&size=50"
        );
        let n = NexusFilter {
            state_code_in: vec!["CA".into(), "NY".into()],
            collected_tax_nexus_met: Some(true),
            ..Default::default()
        };
        assert_eq!(
            n.query(PageParams::default()).encode(),
            "state_code__in=CA&state_code__in=NY&collected_tax_nexus_met=true&page=1&size=50"
        );
        let c = CustomerFilter {
            country: vec!["DE".into()],
            source_in: vec!["API".into(), "IMPORT".into()],
            ..Default::default()
        };
        assert_eq!(
            c.query(PageParams::default()).encode(),
            "country=DE&source__in=API%2CIMPORT&page=1&size=50"
        );
        let f = FilingFilter {
            status_in: vec![FilingStatus::Filed, FilingStatus::Unfiled],
            country_code: vec!["US".into()],
            end_date: date(2025, 12, 31),
            ..Default::default()
        };
        assert_eq!(
            f.query(PageParams::default()).encode(),
            "status__in=FILED%2CUNFILED&country_code=US&end_date=2025-12-31&page=1&size=50"
        );
        let p = ProductFilter {
            query: Some("kbd".into()),
            status_in: vec![ProductStatus::Approved],
            product_category_in: vec!["PHYSICAL".into(), "DIGITAL".into()],
            ..Default::default()
        };
        assert_eq!(
            p.query(PageParams::default()).encode(),
            "query=kbd&status__in=APPROVED&product_category__in=PHYSICAL%2CDIGITAL&page=1&size=50"
        );
        let ph = PhysicalNexusFilter {
            country_code: Some("US".into()),
            state_code: Some(String::new()),
            ..Default::default()
        };
        assert_eq!(
            ph.query(PageParams::default()).encode(),
            "country_code=US&page=1&size=50",
            "empty text is no filter"
        );
    }

    #[test]
    fn not_adding_up_is_kept_here_and_asks_the_service_for_nothing_more() {
        let filter = FilingFilter {
            not_adding_up: Some(crate::model::Tolerance::default()),
            ..Default::default()
        };
        assert!(filter.is_local());
        assert_eq!(
            filter.query(PageParams::default()).encode(),
            "page=1&size=50"
        );
        let filing = |collected: &str| -> Filing {
            serde_json::from_value(serde_json::json!({
                "id": "f1", "registration_id": "r1", "start_date": "2026-10-01",
                "end_date": "2026-10-31", "country_code": "US",
                "total_tax_liability": "1000.00", "amount_tax_collected": collected
            }))
            .unwrap()
        };
        assert!(filter.keeps(&filing("900.00")), "10 % short");
        assert!(!filter.keeps(&filing("999.00")), "within 5 %");
        assert!(FilingFilter::default().keeps(&filing("900.00")));
    }

    #[test]
    fn windows_kept_here_narrow_what_is_asked() {
        let today = date(2026, 11, 24).unwrap();
        let overdue = FilingFilter {
            status_in: vec![FilingStatus::Unfiled],
            due: Some(DateWindow::new(None, today.pred_opt())),
            filed_from: date(2026, 1, 1),
            ..Default::default()
        };
        assert!(overdue.is_local());
        assert_eq!(
            overdue.query(PageParams::default()).encode(),
            "status__in=UNFILED&end_date=2026-11-23&date_filed__gte=2026-01-01&page=1&size=50",
            "a return due by the 23rd has a period ending by then"
        );
        let mut filing: Filing = serde_json::from_value(serde_json::json!({
            "id": "f1", "registration_id": "r1", "start_date": "2026-10-01", "end_date": "2026-10-31",
            "country_code": "US", "due_date": "2026-11-20"
        }))
        .unwrap();
        assert!(overdue.keeps(&filing));
        filing.due_date = date(2026, 11, 24);
        assert!(!overdue.keeps(&filing), "due today is not overdue");
        filing.due_date = None;
        assert!(!overdue.keeps(&filing), "no due date, not overdue");
        assert!(FilingFilter::default().keeps(&filing));

        let expiring = ExemptionFilter {
            end_date: date(2026, 12, 1),
            ends: Some(DateWindow::new(Some(today), date(2026, 12, 24))),
            ..Default::default()
        };
        assert_eq!(
            expiring.query(PageParams::default()).encode(),
            "end_date=2026-12-01&page=1&size=50",
            "the tighter of the two bounds is asked"
        );
        let t = TransactionFilter {
            address_status_in: vec![AddressStatus::Invalid, AddressStatus::Unverified],
            ..Default::default()
        };
        assert_eq!(
            t.query(PageParams::default()).encode(),
            "address_status__in=INVALID%2CUNVERIFIED&page=1&size=50"
        );
    }
}
