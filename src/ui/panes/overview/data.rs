//! What the Overview asks the service, and what came back. Every list is asked for at once
//! (about ten calls, one round trip); a list longer than one page asks for the rest of its
//! pages (up to [`MAX_PAGES`]) together the moment its first page answers, and a count the
//! service gives (`total` of a one-row page) is read as given. The filings checked for figures
//! that do not add up ask for the transactions of each the moment their page answers, but for
//! those the last load checked: their transactions are asked for with the first calls
//! ([`FilingCall::CheckedBefore`]), and a page that answers first waits for them.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, Utc};

use super::paging::Paging;
use crate::checks::{Place, forecast};
use crate::effect::{
    Call, ExemptionCall, ExemptionReply, Failure, FailureKind, FilingCall, FilingReply, NexusCall,
    NexusReply, ReadAheadNote, RegistrationCall, RegistrationReply, Reply, RequestId,
    TransactionCall, TransactionReply,
};
use crate::model::PeriodActivity;
use crate::model::filters::{
    ExemptionFilter, FilingFilter, NexusFilter, PhysicalNexusFilter, RegistrationFilter, Sort,
    TransactionFilter,
};
use crate::model::tenanted::{CertificateImport, CertificateImportStatus};
use crate::model::{
    Exemption, Filing, FilingStatus, Nexus, Page, PageParams, PhysicalNexus, ProcessingStatus,
    Registration, Transaction, TransactionStatus,
};
use crate::ui::judging::Judging;
use crate::ui::pane::Ctx;
use crate::ui::panes::exemptions::filter::EXPIRY_DAYS;
use crate::ui::shell::NEEDS_TENANTED;

/// Pages read of one list at most; past them a count is a lower bound.
pub const MAX_PAGES: u32 = 5;

/// Rows asked for per page.
const PAGE_SIZE: u32 = 100;

/// Rows asked for where only the count and the first few rows are wanted.
const FEW: u32 = 3;

/// The "page" of [`Ask::BalanceSales`] that reads ahead the filings checked last time.
const AHEAD: u32 = 0;

/// One list the Overview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ask {
    Nexus,
    Physical,
    Registrations,
    /// Returns not filed whose period ends by the calendar's last day: the calendar, overdue,
    /// due soon.
    Filings,
    Paused,
    /// Exemptions ending by 30 days from today, latest end first, read back to 30 days ago.
    Exemptions,
    Invalid,
    Refetch,
    Queued,
    Imports,
    /// The trailing 90 days' sales per jurisdiction, every page in one call: the pace of the
    /// approaching tile's forecast.
    Pace,
    /// Every filing, latest period first, for the ones whose figures do not add up.
    Balances,
    /// The transactions of the filings of one page of [`Ask::Balances`] (the page's number is
    /// the call's), beside which each is checked; page 0 reads those of the filings checked
    /// last time, before the list answers ([`FilingCall::CheckedBefore`]).
    BalanceSales,
}

impl Ask {
    /// Whether the list reads its pages one after the other: the exemptions read back to a
    /// date, so whether a page is wanted depends on the page before. The others ask for every
    /// page their first announces at once.
    fn one_by_one(self) -> bool {
        self == Ask::Exemptions
    }
}

/// What is known of one list.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Slot<T> {
    #[default]
    Waiting,
    /// The rows read, the service's total, and whether every row that matters was read.
    Loaded {
        rows: Vec<T>,
        total: u64,
        complete: bool,
    },
    Failed(String),
    /// The service cannot be asked (the Tenanted API is needed).
    Unavailable(&'static str),
}

impl<T> Slot<T> {
    pub fn rows(&self) -> &[T] {
        match self {
            Slot::Loaded { rows, .. } => rows,
            _ => &[],
        }
    }

    /// Whether every row that matters was read (so counts made here are exact).
    pub fn complete(&self) -> bool {
        matches!(self, Slot::Loaded { complete: true, .. })
    }

    pub fn is_waiting(&self) -> bool {
        matches!(self, Slot::Waiting)
    }

    /// Adds one page; returns whether the next page is wanted (`more` says whether the caller
    /// still wants rows beyond these).
    fn add(&mut self, page: Page<T>, more: bool) -> bool {
        let last = is_last(&page);
        let wanted = more && !last && page.page < MAX_PAGES;
        match self {
            Slot::Loaded {
                rows,
                total,
                complete,
            } => {
                rows.extend(page.items);
                *total = page.total;
                *complete = last || !more;
            }
            _ => {
                *self = Slot::Loaded {
                    rows: page.items,
                    total: page.total,
                    complete: last || !more,
                };
            }
        }
        wanted
    }
}

/// Whether `page` is its list's last: the last announced, or an empty one.
fn is_last<T>(page: &Page<T>) -> bool {
    page.page >= page.pages || page.items.is_empty()
}

/// Everything the Overview knows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Data {
    pub today: NaiveDate,
    pub nexus: Slot<Nexus>,
    pub physical: Slot<PhysicalNexus>,
    pub registrations: Slot<Registration>,
    pub filings: Slot<Filing>,
    pub paused: Slot<Filing>,
    pub exemptions: Slot<Exemption>,
    pub invalid: Slot<Transaction>,
    pub refetch: Slot<Transaction>,
    pub queued: Slot<Transaction>,
    pub imports: Slot<CertificateImport>,
    /// Every filing (up to [`MAX_PAGES`]), latest period first.
    pub balances: Slot<Filing>,
    /// When each transaction was first seen `QUEUED` (the service tells no creation time), so
    /// that one still queued a minute later can be told from one just made. Kept across loads.
    pub queued_since: HashMap<String, DateTime<Utc>>,
    /// When the queued transactions were last read.
    pub queued_read_at: Option<DateTime<Utc>>,
    /// The trailing 90 days' sales per jurisdiction: `None` while read, the error when reading
    /// them failed.
    pub pace: Option<Result<HashMap<Place, PeriodActivity>, String>>,
    /// What the filings are judged by (the pane's context, at the last load).
    pub judging: Judging,
    /// The pages under way, filed in order.
    paging: Paging,
    /// Pages of [`Ask::Balances`] waiting for the transactions of their filings, by number.
    balance_pages: HashMap<u32, Page<Filing>>,
    /// The sales of the filings checked last time, read with the first calls: `None` until
    /// they answer (the pages of [`Ask::Balances`] that come back first wait for them).
    ahead: Option<HashMap<String, crate::model::CoveredSales>>,
    /// The pages the pace's transactions took, once read.
    pace_pages: Option<u32>,
    /// Whether what this load learnt was handed on to be remembered ([`Data::learnt`]).
    remembered: bool,
}

/// A call the Overview makes: for which list, which page.
pub type Asked = (Ask, u32, Call);

/// The last day the filing calendar shows: the end of the second month after today's.
pub fn calendar_end(today: NaiveDate) -> NaiveDate {
    let first = today.with_day(1).unwrap_or(today);
    first
        .checked_add_months(Months::new(3))
        .and_then(|d| d.pred_opt())
        .unwrap_or(today)
}

/// The filter of each list (the drill-downs use the same filters, so counts agree).
pub mod filters {
    use super::{
        Days, ExemptionFilter, FilingFilter, FilingStatus, NaiveDate, NexusFilter,
        ProcessingStatus, RegistrationFilter, TransactionFilter, TransactionStatus,
    };
    use crate::model::filters::DateWindow;
    use crate::model::{NexusStatus, RegistrationStatus};
    use crate::ui::panes::exemptions::filter::{expired, expiring};

    /// The jurisdictions exposed and not registered: judged from nexus, physical presences and
    /// registrations together, as the tile counts them.
    pub fn exposed() -> NexusFilter {
        NexusFilter {
            standing: Some(crate::model::Standing::ExposedUnregistered),
            ..NexusFilter::default()
        }
    }

    pub fn approaching() -> NexusFilter {
        NexusFilter {
            status_in: vec![NexusStatus::Approaching],
            ..NexusFilter::default()
        }
    }

    /// Returns not filed, due from today to 30 days ahead.
    pub fn due_soon(today: NaiveDate) -> FilingFilter {
        FilingFilter {
            status_in: FilingStatus::TO_FILE.to_vec(),
            due: Some(DateWindow::within_next(today, 30)),
            ..FilingFilter::default()
        }
    }

    /// Filings that do not add up by the filing check (tax collected against the liability,
    /// sales against the transactions read beside each) beyond `tolerance`.
    pub fn not_adding_up(tolerance: crate::model::Tolerance) -> FilingFilter {
        FilingFilter {
            not_adding_up: Some(tolerance),
            ..FilingFilter::default()
        }
    }

    pub fn paused() -> FilingFilter {
        FilingFilter {
            status_in: vec![FilingStatus::Paused],
            ..FilingFilter::default()
        }
    }

    pub fn registrations(status: RegistrationStatus) -> RegistrationFilter {
        RegistrationFilter {
            status_in: vec![status],
            ..RegistrationFilter::default()
        }
    }

    pub fn expiring_exemptions(today: NaiveDate) -> ExemptionFilter {
        expiring(&ExemptionFilter::default(), today)
    }

    pub fn expired_exemptions(today: NaiveDate) -> ExemptionFilter {
        expired(&ExemptionFilter::default(), today)
    }

    pub fn invalid() -> TransactionFilter {
        TransactionFilter {
            status: Some(TransactionStatus::Invalid),
            ..TransactionFilter::default()
        }
    }

    pub fn processing(status: ProcessingStatus) -> TransactionFilter {
        TransactionFilter {
            processing_status_in: vec![status],
            ..TransactionFilter::default()
        }
    }

    /// The day 30 days before `today`, the oldest end an "expired" exemption may have.
    pub fn expired_since(today: NaiveDate) -> NaiveDate {
        today
            .checked_sub_days(Days::new(super::EXPIRY_DAYS))
            .unwrap_or(today)
    }
}

impl Data {
    pub fn new(today: NaiveDate) -> Self {
        Data {
            today,
            ..Data::default()
        }
    }

    /// The call for page `page` of `ask`; `None` when the service cannot be asked.
    fn call(&self, ask: Ask, page: u32, tenanted: bool) -> Option<Call> {
        let today = self.today;
        let many = PageParams::new(page, PAGE_SIZE);
        let few = PageParams::new(1, FEW);
        Some(match ask {
            Ask::Nexus => NexusCall::List {
                filter: NexusFilter::default(),
                page: many,
            }
            .into(),
            Ask::Physical => NexusCall::Physical {
                filter: PhysicalNexusFilter::default(),
                page: many,
            }
            .into(),
            Ask::Registrations => RegistrationCall::List {
                filter: RegistrationFilter::default(),
                page: many,
            }
            .into(),
            Ask::Filings => FilingCall::List {
                filter: FilingFilter {
                    status_in: FilingStatus::NOT_FILED.to_vec(),
                    end_date: Some(calendar_end(today)),
                    order_by: vec![Sort::asc("due_date")],
                    ..FilingFilter::default()
                },
                page: many,
            }
            .into(),
            Ask::Paused => FilingCall::List {
                filter: filters::paused(),
                page: few,
            }
            .into(),
            Ask::Exemptions => ExemptionCall::List {
                filter: ExemptionFilter {
                    end_date: today.checked_add_days(Days::new(EXPIRY_DAYS)),
                    order_by: vec![Sort::desc("end_date")],
                    ..ExemptionFilter::default()
                },
                page: many,
            }
            .into(),
            Ask::Invalid => TransactionCall::List {
                filter: filters::invalid(),
                page: few,
            }
            .into(),
            Ask::Refetch => TransactionCall::List {
                filter: filters::processing(ProcessingStatus::NeedsRefetch),
                page: few,
            }
            .into(),
            Ask::Queued => TransactionCall::List {
                filter: filters::processing(ProcessingStatus::Queued),
                page: many,
            }
            .into(),
            Ask::Imports if tenanted => ExemptionCall::Imports {
                status: Some(CertificateImportStatus::Uploaded),
                page: few,
            }
            .into(),
            // Imports need the Tenanted API; the transactions of a page of `Balances` are
            // asked with its filings' ids (see `balances_page`).
            Ask::Imports | Ask::BalanceSales => return None,
            Ask::Pace => NexusCall::Pace { today, pages: 1 }.into(),
            // The list of `filters::not_adding_up`, as the service is asked for it: the check
            // itself is made here once each filing's transactions are read beside it.
            Ask::Balances => FilingCall::List {
                filter: FilingFilter {
                    order_by: vec![Sort::desc("end_date")],
                    ..FilingFilter::default()
                },
                page: many,
            }
            .into(),
        })
    }

    /// The day `n` crosses its threshold at the pace read, when it will (see
    /// [`forecast::forecast`]).
    pub fn crossing(&self, n: &Nexus) -> Option<NaiveDate> {
        let Some(Ok(pace)) = &self.pace else {
            return None;
        };
        if !forecast::wanted(n) {
            return None;
        }
        let activity = pace
            .get(&(n.country_code.clone(), n.state_code.clone()))
            .copied()
            .unwrap_or_default();
        forecast::forecast(n, &activity, self.today).day()
    }

    /// Asks for every list afresh; returns the calls under way.
    pub fn load(&mut self, ctx: &mut Ctx) -> HashMap<RequestId, (Ask, u32)> {
        let tenanted = ctx.tenanted().is_some();
        let queued_since = std::mem::take(&mut self.queued_since);
        *self = Data::new(self.today);
        self.queued_since = queued_since;
        self.judging = ctx.judging();
        let mut asked = HashMap::new();
        // The lists whose answers make more calls first: what they need next starts one pacing
        // slot after the round trip, not behind the whole first batch.
        for ask in [
            Ask::Pace,
            Ask::Balances,
            Ask::Nexus,
            Ask::Physical,
            Ask::Registrations,
            Ask::Filings,
            Ask::Paused,
            Ask::Exemptions,
            Ask::Invalid,
            Ask::Refetch,
            Ask::Queued,
            Ask::Imports,
        ] {
            match self.call(ask, 1, tenanted) {
                Some(call) => {
                    asked.insert(ctx.call(call), (ask, 1));
                }
                None => self.imports = Slot::Unavailable(NEEDS_TENANTED),
            }
        }
        // Last: its reads (one per filing) are paced behind every list's first page.
        let ahead = FilingCall::CheckedBefore { ids: Vec::new() }.into();
        asked.insert(ctx.call(ahead), (Ask::BalanceSales, AHEAD));
        asked
    }

    /// Files the answer to page `page` of `ask` (in page order, whatever order the pages come
    /// back in); returns the calls its answer makes wanted: the list's other pages, the
    /// transactions of its filings.
    pub fn receive(
        &mut self,
        ask: Ask,
        page: u32,
        result: Result<Reply, Failure>,
        tenanted: bool,
    ) -> Vec<Asked> {
        match ask {
            Ask::Balances => self.balances_page(page, result, tenanted),
            Ask::BalanceSales if page == AHEAD => self.ahead_answered(result, tenanted),
            Ask::BalanceSales => self.balance_sales(page, result, tenanted),
            _ => self.file(ask, page, result, tenanted),
        }
    }

    /// Files page `page` of `ask` and any of its pages that came back before it.
    fn file(
        &mut self,
        ask: Ask,
        page: u32,
        result: Result<Reply, Failure>,
        tenanted: bool,
    ) -> Vec<Asked> {
        let mut calls = Vec::new();
        let mut due = self.paging.arrived(ask, page, result).map(|r| (page, r));
        while let Some((page, result)) = due {
            let announced = self.file_one(ask, result);
            if let Some(pages) = announced {
                let through = if ask.one_by_one() {
                    page + 1
                } else {
                    pages.min(MAX_PAGES)
                };
                calls.extend(self.pages(ask, through, tenanted));
            }
            due = self.paging.filed(ask, page, announced.is_none());
        }
        calls
    }

    /// The calls for the pages of `ask` up to `through` not asked for yet.
    fn pages(&mut self, ask: Ask, through: u32, tenanted: bool) -> Vec<Asked> {
        self.paging
            .ask_through(ask, through)
            .filter_map(|page| Some((ask, page, self.call(ask, page, tenanted)?)))
            .collect()
    }

    /// A page of the filings checked for figures that do not add up: the rest of the list is
    /// asked for (on the first page), and the transactions of the filings that need them and
    /// were not read ahead; the page is filed once they are read beside it.
    fn balances_page(
        &mut self,
        page: u32,
        result: Result<Reply, Failure>,
        tenanted: bool,
    ) -> Vec<Asked> {
        let p = match result {
            Ok(Reply::Filings(FilingReply::Page(p))) if !self.paging.ended(Ask::Balances) => p,
            other => return self.file(Ask::Balances, page, other, tenanted),
        };
        let mut calls = Vec::new();
        if !is_last(&p) && p.page < MAX_PAGES {
            calls = self.pages(Ask::Balances, p.pages.min(MAX_PAGES), tenanted);
        }
        if self.ahead.is_some() {
            calls.extend(self.check_page(page, p, tenanted));
        } else {
            // The sales read ahead tell which filings are still to ask for.
            self.balance_pages.insert(page, p);
        }
        calls
    }

    /// Page `page` of [`Ask::Balances`] once the sales read ahead are in: the filings read
    /// ahead get theirs, the transactions of the others that need them are asked for, and the
    /// page is filed when none is left.
    fn check_page(&mut self, page: u32, mut p: Page<Filing>, tenanted: bool) -> Vec<Asked> {
        let ahead = self.ahead.as_ref();
        let mut ids = Vec::new();
        for f in &mut p.items {
            if !crate::checks::filings::needs_transactions(f, self.today) {
                continue;
            }
            match ahead.and_then(|a| a.get(&f.id)) {
                Some(covered) => f.covered_sales = *covered,
                None => ids.push(f.id.clone()),
            }
        }
        if ids.is_empty() {
            let page_of = Ok(Reply::Filings(FilingReply::Page(p)));
            self.file(Ask::Balances, page, page_of, tenanted)
        } else {
            self.balance_pages.insert(page, p);
            vec![(
                Ask::BalanceSales,
                page,
                FilingCall::CoveredSales { ids }.into(),
            )]
        }
    }

    /// The sales of the filings checked last time: the pages that came back before them are
    /// checked now. Failing to read them costs nothing but the time: the pages ask as if none
    /// had been read ahead.
    fn ahead_answered(&mut self, result: Result<Reply, Failure>, tenanted: bool) -> Vec<Asked> {
        let sales = match result {
            Ok(Reply::Filings(FilingReply::CoveredSales(sales))) => sales.into_iter().collect(),
            _ => HashMap::new(),
        };
        self.ahead = Some(sales);
        if self.paging.ended(Ask::Balances) {
            self.balance_pages.clear();
            return Vec::new();
        }
        let mut waiting: Vec<(u32, Page<Filing>)> = self.balance_pages.drain().collect();
        waiting.sort_by_key(|(page, _)| *page);
        waiting
            .into_iter()
            .flat_map(|(page, p)| self.check_page(page, p, tenanted))
            .collect()
    }

    /// What this load learnt of its reads, once the filings are checked and the pace read,
    /// and only once: the filings read beside their transactions, the pages of the pace. What
    /// the next load asks for with its first calls.
    pub fn learnt(&mut self) -> Option<ReadAheadNote> {
        let checked = self.balances.complete() && self.balance_pages.is_empty();
        if self.remembered || !checked || self.pace.is_none() {
            return None;
        }
        self.remembered = true;
        Some(ReadAheadNote {
            filings_checked: self
                .balances
                .rows()
                .iter()
                .filter(|f| crate::checks::filings::needs_transactions(f, self.today))
                .map(|f| f.id.clone())
                .collect(),
            pace_pages: self.pace_pages,
            organization: None,
        })
    }

    /// The transactions of the filings of page `page` of [`Ask::Balances`]: each filing gets
    /// its sales, and the page is filed.
    fn balance_sales(
        &mut self,
        page: u32,
        result: Result<Reply, Failure>,
        tenanted: bool,
    ) -> Vec<Asked> {
        let Some(mut p) = self.balance_pages.remove(&page) else {
            return Vec::new();
        };
        let filed = match result {
            Ok(Reply::Filings(FilingReply::CoveredSales(sales))) => {
                let sales: HashMap<String, crate::model::CoveredSales> =
                    sales.into_iter().collect();
                for f in &mut p.items {
                    if let Some(covered) = sales.get(&f.id) {
                        f.covered_sales = *covered;
                    }
                }
                Ok(Reply::Filings(FilingReply::Page(p)))
            }
            Ok(other) => Ok(other),
            Err(failure) => Err(failure),
        };
        self.file(Ask::Balances, page, filed, tenanted)
    }

    /// Files one answer of `ask`; returns the number of pages the list announced when it wants
    /// more of them, `None` when it has ended (read to its end, or failed).
    fn file_one(&mut self, ask: Ask, result: Result<Reply, Failure>) -> Option<u32> {
        let reply = match result {
            Ok(reply) => reply,
            Err(failure) => {
                self.fail(ask, &failure);
                return None;
            }
        };
        let since = filters::expired_since(self.today);
        let (pages, more) = match (ask, reply) {
            (Ask::Nexus, Reply::Nexus(NexusReply::Page(p))) => (p.pages, self.nexus.add(p, true)),
            (Ask::Physical, Reply::Nexus(NexusReply::PhysicalPage(p))) => {
                (p.pages, self.physical.add(p, true))
            }
            (Ask::Registrations, Reply::Registrations(RegistrationReply::Page(p))) => {
                (p.pages, self.registrations.add(p, true))
            }
            (Ask::Filings, Reply::Filings(FilingReply::Page(p))) => {
                (p.pages, self.filings.add(p, true))
            }
            (Ask::Paused, Reply::Filings(FilingReply::Page(p))) => {
                (p.pages, self.paused.add(p, false))
            }
            (Ask::Exemptions, Reply::Exemptions(ExemptionReply::Page(p))) => {
                // Latest end first: once a row ended before the window, the rest did too.
                let reached = p
                    .items
                    .last()
                    .is_some_and(|e| e.end_date.is_none_or(|end| end < since));
                (p.pages, self.exemptions.add(p, !reached))
            }
            (Ask::Invalid, Reply::Transactions(TransactionReply::Page(p))) => {
                (p.pages, self.invalid.add(p, false))
            }
            (Ask::Refetch, Reply::Transactions(TransactionReply::Page(p))) => {
                (p.pages, self.refetch.add(p, false))
            }
            (Ask::Queued, Reply::Transactions(TransactionReply::Page(p))) => {
                let now = Utc::now();
                self.queued_read_at = Some(now);
                for t in &p.items {
                    self.queued_since.entry(t.id.clone()).or_insert(now);
                }
                let pages = p.pages;
                let more = self.queued.add(p, true);
                if self.queued.complete() {
                    let queued: std::collections::HashSet<&str> =
                        self.queued.rows().iter().map(|t| t.id.as_str()).collect();
                    self.queued_since
                        .retain(|id, _| queued.contains(id.as_str()));
                }
                (pages, more)
            }
            (Ask::Imports, Reply::Exemptions(ExemptionReply::ImportsPage(p))) => {
                (p.pages, self.imports.add(p, false))
            }
            (Ask::Pace, Reply::Nexus(NexusReply::Pace { by_place, pages })) => {
                self.pace = Some(Ok(by_place));
                self.pace_pages = Some(pages);
                (1, false)
            }
            (Ask::Balances, Reply::Filings(FilingReply::Page(p))) => {
                (p.pages, self.balances.add(p, true))
            }
            (ask, other) => {
                tracing::warn!(?ask, ?other, "the Overview got an answer of another kind");
                self.fail(
                    ask,
                    &Failure {
                        kind: FailureKind::Undecodable,
                        message: "the service answered with something else".into(),
                        fields: Vec::new(),
                    },
                );
                return None;
            }
        };
        more.then_some(pages)
    }

    fn fail(&mut self, ask: Ask, failure: &Failure) {
        let why = match failure.kind {
            FailureKind::Unsupported => {
                self.imports = Slot::Unavailable(NEEDS_TENANTED);
                return;
            }
            _ => failure.message.clone(),
        };
        match ask {
            Ask::Nexus => self.nexus = Slot::Failed(why),
            Ask::Physical => self.physical = Slot::Failed(why),
            Ask::Registrations => self.registrations = Slot::Failed(why),
            Ask::Filings => self.filings = Slot::Failed(why),
            Ask::Paused => self.paused = Slot::Failed(why),
            Ask::Exemptions => self.exemptions = Slot::Failed(why),
            Ask::Invalid => self.invalid = Slot::Failed(why),
            Ask::Refetch => self.refetch = Slot::Failed(why),
            Ask::Queued => self.queued = Slot::Failed(why),
            Ask::Imports => self.imports = Slot::Failed(why),
            Ask::Pace => self.pace = Some(Err(why)),
            Ask::Balances | Ask::BalanceSales => self.balances = Slot::Failed(why),
        }
    }

    /// Asks for the queued transactions again (to tell which are still queued a minute on).
    pub fn reload_queued(&mut self, tenanted: bool) -> Option<Call> {
        self.queued = Slot::Waiting;
        self.paging.restart(Ask::Queued);
        self.call(Ask::Queued, 1, tenanted)
    }

    /// When to read the queued transactions again: the first time one that had not waited a
    /// minute when last read will have.
    pub fn next_queued_check(&self) -> Option<DateTime<Utc>> {
        let minute = chrono::Duration::minutes(1);
        let read = self.queued_read_at?;
        self.queued
            .rows()
            .iter()
            .filter_map(|t| self.queued_since.get(&t.id))
            .map(|since| *since + minute)
            .filter(|due| *due > read)
            .min()
    }

    /// Whether a list could not be read.
    pub fn any_failed(&self) -> bool {
        [
            matches!(self.nexus, Slot::Failed(_)),
            matches!(self.physical, Slot::Failed(_)),
            matches!(self.registrations, Slot::Failed(_)),
            matches!(self.filings, Slot::Failed(_)),
            matches!(self.paused, Slot::Failed(_)),
            matches!(self.exemptions, Slot::Failed(_)),
            matches!(self.invalid, Slot::Failed(_)),
            matches!(self.refetch, Slot::Failed(_)),
            matches!(self.queued, Slot::Failed(_)),
            matches!(self.imports, Slot::Failed(_)),
            matches!(self.pace, Some(Err(_))),
            matches!(self.balances, Slot::Failed(_)),
        ]
        .into_iter()
        .any(|f| f)
    }

    /// Whether every list has answered.
    pub fn is_complete(&self) -> bool {
        ![
            self.nexus.is_waiting(),
            self.physical.is_waiting(),
            self.registrations.is_waiting(),
            self.filings.is_waiting(),
            self.paused.is_waiting(),
            self.exemptions.is_waiting(),
            self.invalid.is_waiting(),
            self.refetch.is_waiting(),
            self.queued.is_waiting(),
            self.imports.is_waiting(),
            self.pace.is_none(),
            self.balances.is_waiting(),
        ]
        .into_iter()
        .any(|w| w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_calendar_ends_with_the_second_month_after_todays() {
        assert_eq!(calendar_end(day(2026, 11, 24)), day(2027, 1, 31));
        assert_eq!(calendar_end(day(2027, 1, 31)), day(2027, 3, 31));
        assert_eq!(calendar_end(day(2027, 12, 1)), day(2028, 2, 29));
    }

    #[test]
    fn every_load_judges_the_filings_by_the_contexts_tolerance() {
        use rust_decimal::Decimal;
        let loose = Judging {
            filing_tolerance: crate::model::Tolerance {
                percent: Decimal::from(10),
                amount: Decimal::ONE,
            },
        };
        let (mut next_id, mut effects, mut notices) = (0, Vec::new(), Vec::new());
        let mut ctx = Ctx::new(&mut next_id, &mut effects, &mut notices, false).with_judging(loose);
        let mut data = Data::new(day(2026, 11, 24));
        // The first load and each one after it (a load starts the data afresh).
        for _ in 0..2 {
            data.load(&mut ctx);
            assert_eq!(data.judging, loose);
        }
    }

    #[test]
    fn a_list_reads_on_up_to_the_page_limit_then_counts_are_lower_bounds() {
        let mut slot: Slot<u32> = Slot::Waiting;
        let total = u64::from(PAGE_SIZE) * 10;
        for page in 1..=MAX_PAGES {
            let rows = vec![page; PAGE_SIZE as usize];
            let more = slot.add(Page::new(rows, total, page, PAGE_SIZE), true);
            assert_eq!(more, page < MAX_PAGES, "page {page}");
        }
        assert_eq!(slot.rows().len(), (PAGE_SIZE * MAX_PAGES) as usize);
        assert!(!slot.complete(), "ten pages announced, five read");
        // A list that ends within the limit is complete.
        let mut short: Slot<u32> = Slot::Waiting;
        assert!(short.add(Page::new(vec![1, 2], 3, 1, 2), true));
        assert!(!short.add(Page::new(vec![3], 3, 2, 2), true));
        assert!(short.complete());
        // A count-only list is complete after its one page, whatever its total.
        let mut few: Slot<u32> = Slot::Waiting;
        assert!(!few.add(Page::new(vec![1, 2, 3], 40, 1, 3), false));
        assert!(few.complete());
    }

    /// A return of October 2026 with `sales` (`None`: the filing sends none).
    fn filing(id: &str, end: &str, sales: Option<&str>) -> Filing {
        serde_json::from_value(serde_json::json!({
            "id": id, "registration_id": "r1", "start_date": "2026-10-01",
            "end_date": end, "country_code": "US", "state_code": "CA",
            "due_date": "2026-11-20", "status": "FILED", "amount_sales": sales,
            "currency": "USD"
        }))
        .unwrap()
    }

    /// The first (and only) page of [`Ask::Balances`]: two past returns with sales, one whose
    /// period has not ended.
    fn balances() -> Reply {
        let rows = vec![
            filing("file_1", "2026-10-31", Some("100")),
            filing("file_2", "2026-10-31", Some("50")),
            filing("file_3", "2026-12-31", Some("10")),
        ];
        FilingReply::Page(Page::new(rows, 3, 1, PAGE_SIZE)).into()
    }

    fn sales(of: &[(&str, CoveredSales)]) -> Reply {
        let sales = of.iter().map(|(id, s)| ((*id).to_owned(), *s)).collect();
        FilingReply::CoveredSales(sales).into()
    }

    /// The ids whose transactions the calls `asked` ask for, by the page they are for.
    fn asked_for(asked: &[Asked]) -> Vec<(u32, Vec<String>)> {
        asked
            .iter()
            .map(|(ask, page, call)| match call {
                Call::Filings(FilingCall::CoveredSales { ids }) if *ask == Ask::BalanceSales => {
                    (*page, ids.clone())
                }
                other => panic!("another call: {other:?}"),
            })
            .collect()
    }

    use crate::model::CoveredSales;

    #[test]
    fn filings_read_ahead_are_not_asked_for_again_whichever_answers_first() {
        let today = day(2026, 11, 24);
        let ten = CoveredSales::Sales(rust_decimal::Decimal::TEN);
        // The list first: its page waits for the sales read ahead, then asks for the rest.
        let mut data = Data::new(today);
        assert!(
            data.receive(Ask::Balances, 1, Ok(balances()), false)
                .is_empty()
        );
        assert!(data.balances.is_waiting());
        let rest = data.receive(
            Ask::BalanceSales,
            AHEAD,
            Ok(sales(&[("file_1", ten)])),
            false,
        );
        assert_eq!(asked_for(&rest), [(1, vec!["file_2".to_owned()])]);
        data.pace = Some(Ok(HashMap::new()));
        data.pace_pages = Some(3);
        assert!(data.learnt().is_none(), "file_2 is still being read");
        let none = Ok(sales(&[("file_2", CoveredSales::NoneListed)]));
        assert!(data.receive(Ask::BalanceSales, 1, none, false).is_empty());
        let rows = data.balances.rows();
        assert_eq!(rows[0].covered_sales, ten);
        assert_eq!(rows[1].covered_sales, CoveredSales::NoneListed);
        assert_eq!(rows[2].covered_sales, CoveredSales::NotRead, "not ended");
        let note = ReadAheadNote {
            filings_checked: vec!["file_1".into(), "file_2".into()],
            pace_pages: Some(3),
            organization: None,
        };
        assert_eq!(data.learnt(), Some(note));
        assert_eq!(data.learnt(), None, "handed on once a load");

        // The sales read ahead first, covering every filing: nothing more is asked for.
        let mut data = Data::new(today);
        let both = Ok(sales(&[("file_1", ten), ("file_2", ten), ("file_9", ten)]));
        assert!(
            data.receive(Ask::BalanceSales, AHEAD, both, false)
                .is_empty()
        );
        assert!(
            data.receive(Ask::Balances, 1, Ok(balances()), false)
                .is_empty()
        );
        assert!(data.balances.complete());
        assert_eq!(data.balances.rows()[1].covered_sales, ten);

        // Reading ahead failed: the page asks for all of its filings.
        let mut data = Data::new(today);
        let failed = Err(Failure {
            kind: FailureKind::Network,
            message: "connection refused".into(),
            fields: Vec::new(),
        });
        assert!(
            data.receive(Ask::Balances, 1, Ok(balances()), false)
                .is_empty()
        );
        let all = data.receive(Ask::BalanceSales, AHEAD, failed, false);
        assert_eq!(
            asked_for(&all),
            [(1, vec!["file_1".to_owned(), "file_2".to_owned()])]
        );
    }

    #[test]
    fn a_failed_list_is_said_and_the_others_still_wait() {
        let mut data = Data::new(day(2026, 11, 24));
        let failure = Failure {
            kind: FailureKind::Server,
            message: "503 Service Unavailable".into(),
            fields: Vec::new(),
        };
        assert!(
            data.receive(Ask::Filings, 1, Err(failure), false)
                .is_empty()
        );
        assert_eq!(data.filings, Slot::Failed("503 Service Unavailable".into()));
        assert!(data.any_failed());
        assert!(!data.is_complete(), "the other lists are still awaited");
    }
}
