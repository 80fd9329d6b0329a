//! The attention tiles, made from what the Overview read: each a few counts that open the list
//! they count (with the same filter), and the most urgent records.

use chrono::{Duration, Utc};
use rust_decimal::Decimal;

use super::data::{Data, Slot, filters};
use crate::effect::Goto;
use crate::model::tenanted::CertificateImportStatus;
use crate::model::{Filing, FilingStatus, NexusStatus, ProcessingStatus, RegistrationStatus};
use crate::rules::attention::{Standing, standings, threshold_share};
use crate::ui::text;

/// How many records a tile names.
const URGENT: usize = 3;

/// A count as far as it is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Count {
    Waiting,
    Exact(u64),
    /// At least this many: more were not read.
    AtLeast(u64),
    Failed(String),
    Unavailable(&'static str),
}

impl Count {
    /// The count made here from the rows of `slot` that pass `keep`.
    fn of<T>(slot: &Slot<T>, keep: impl Fn(&T) -> bool) -> Count {
        match slot {
            Slot::Waiting => Count::Waiting,
            Slot::Failed(why) => Count::Failed(why.clone()),
            Slot::Unavailable(why) => Count::Unavailable(why),
            Slot::Loaded { rows, complete, .. } => {
                let n = rows.iter().filter(|r| keep(r)).count() as u64;
                if *complete {
                    Count::Exact(n)
                } else {
                    Count::AtLeast(n)
                }
            }
        }
    }

    /// The service's own total of the list `slot` read.
    fn total<T>(slot: &Slot<T>) -> Count {
        match slot {
            Slot::Loaded { total, .. } => Count::Exact(*total),
            other => Count::of(other, |_| true),
        }
    }

    /// The number, when there is one.
    pub fn value(&self) -> Option<u64> {
        match self {
            Count::Exact(n) | Count::AtLeast(n) => Some(*n),
            _ => None,
        }
    }

    /// `12`, `100+`, `…`, `?`.
    pub fn label(&self) -> String {
        match self {
            Count::Waiting => "…".into(),
            Count::Exact(n) => text::thousands(*n),
            Count::AtLeast(n) => format!("{}+", text::thousands(*n)),
            Count::Failed(_) => "?".into(),
            Count::Unavailable(_) => "–".into(),
        }
    }
}

/// What an entry counts, as it reads after its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// Words that read the same for any count: `overdue`, `due in 30 days`.
    Words(&'static str),
    /// A noun, in the singular: `1 jurisdiction`, `3 jurisdictions`.
    Noun(&'static str),
}

impl Label {
    /// The label as it reads after `count`: a noun agrees with it (plural unless exactly one).
    pub fn after(self, count: &Count) -> String {
        match (self, count) {
            (Label::Words(words), _) => words.to_owned(),
            (Label::Noun(noun), Count::Exact(n)) => text::noun(*n, noun),
            (Label::Noun(noun), _) => text::noun(2_u64, noun),
        }
    }
}

/// One count of a tile, and where choosing it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub label: Label,
    pub count: Count,
    pub goto: Goto,
    /// What the list opened shows beyond the count, when the service cannot filter as
    /// precisely: said when the entry is chosen.
    pub caveat: Option<&'static str>,
    /// Whether anything counted here calls for action today (shown in the alarm colour).
    pub urgent: bool,
}

impl Entry {
    /// The label after this entry's count.
    pub fn words(&self) -> String {
        self.label.after(&self.count)
    }
}

/// A record a tile names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub text: String,
    /// Shown in the alarm colour (overdue, exposed).
    pub urgent: bool,
}

/// One tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    pub title: &'static str,
    pub entries: Vec<Entry>,
    pub items: Vec<Item>,
}

impl Tile {
    /// The tile's count: its entries' added up (`…` while one is awaited).
    pub fn count(&self) -> Count {
        let mut sum = 0;
        let mut lower = false;
        for entry in &self.entries {
            match &entry.count {
                Count::Exact(n) => sum += n,
                Count::AtLeast(n) => {
                    sum += n;
                    lower = true;
                }
                other => return other.clone(),
            }
        }
        if lower {
            Count::AtLeast(sum)
        } else {
            Count::Exact(sum)
        }
    }

    /// Why a count could not be made, if one could not.
    pub fn trouble(&self) -> Option<String> {
        self.entries.iter().find_map(|e| match &e.count {
            Count::Failed(why) => Some(format!("{}: could not count: {why}", e.words())),
            Count::Unavailable(why) => Some((*why).to_owned()),
            _ => None,
        })
    }
}

/// Every tile, most pressing first.
pub fn tiles(data: &Data) -> Vec<Tile> {
    vec![
        exposed(data),
        approaching(data),
        filings(data),
        registrations(data),
        exemptions(data),
        transactions(data),
        imports(data),
        not_adding_up(data),
    ]
}

/// The slot of the jurisdictions' standings: waiting or failed while one of its three lists is.
fn standing_count(data: &Data, keep: impl Fn(&Standing) -> bool) -> Count {
    for count in [
        Count::of(&data.nexus, |_| true),
        Count::of(&data.physical, |_| true),
        Count::of(&data.registrations, |_| true),
    ] {
        if !matches!(count, Count::Exact(_) | Count::AtLeast(_)) {
            return count;
        }
    }
    let all = standings(
        data.nexus.rows(),
        data.physical.rows(),
        data.registrations.rows(),
        data.today,
    );
    let n = all.iter().filter(|j| keep(&j.standing)).count() as u64;
    if data.nexus.complete() && data.physical.complete() && data.registrations.complete() {
        Count::Exact(n)
    } else {
        Count::AtLeast(n)
    }
}

fn exposed(data: &Data) -> Tile {
    let count = standing_count(data, |s| *s == Standing::ExposedUnregistered);
    let items = if count.value().is_some() {
        standings(
            data.nexus.rows(),
            data.physical.rows(),
            data.registrations.rows(),
            data.today,
        )
        .into_iter()
        .filter(|j| j.standing == Standing::ExposedUnregistered)
        .take(URGENT)
        // Why, in the words of the list's *Why* column (one rule, `Jurisdiction::reason`).
        .map(|j| Item {
            text: format!(
                "{} · {}",
                place(&j.country, j.state.as_deref(), &j.name),
                j.reason()
            ),
            urgent: true,
        })
        .collect()
    } else {
        Vec::new()
    };
    Tile {
        title: "Exposed, not registered",
        entries: vec![Entry {
            label: Label::Noun("jurisdiction"),
            count,
            goto: Goto::nexus(filters::exposed()),
            caveat: None,
            urgent: true,
        }],
        items,
    }
}

fn approaching(data: &Data) -> Tile {
    let count = Count::of(&data.nexus, |n| n.status == Some(NexusStatus::Approaching));
    let mut near: Vec<(Option<chrono::NaiveDate>, Decimal, String)> = data
        .nexus
        .rows()
        .iter()
        .filter(|n| n.status == Some(NexusStatus::Approaching))
        .map(|n| {
            let (sales, count) = threshold_share(n);
            let share = sales.max(count).unwrap_or_default();
            let mut parts = Vec::new();
            if let Some(s) = sales {
                parts.push(format!("{} of sales", text::share(s)));
            }
            if let Some(c) = count {
                parts.push(format!("{} of transactions", text::share(c)));
            }
            let state = Some(n.state_code.as_str()).filter(|s| !s.is_empty());
            let crossing = data.crossing(n);
            let when = crossing.map(|d| format!(" ~{}", text::month(d)));
            (
                crossing,
                share,
                format!(
                    "{}{} · {}",
                    place(&n.country_code, state, &n.state_name),
                    when.unwrap_or_default(),
                    parts.join(", ")
                ),
            )
        })
        .collect();
    // Soonest projected crossing first, those without one after; nearest the threshold next.
    near.sort_by_key(|(crossing, share, _)| {
        (crossing.is_none(), *crossing, std::cmp::Reverse(*share))
    });
    Tile {
        title: "Approaching thresholds",
        entries: vec![Entry {
            label: Label::Words("approaching"),
            count,
            goto: Goto::nexus(filters::approaching()),
            caveat: None,
            urgent: false,
        }],
        items: near
            .into_iter()
            .take(URGENT)
            .map(|(_, _, text)| Item {
                text,
                urgent: false,
            })
            .collect(),
    }
}

/// A jurisdiction in a few letters: `TX Texas`, `ON Ontario`, `DE-BE`, `ZZ_EU`.
pub fn place(country: &str, state: Option<&str>, name: &str) -> String {
    let code = match state {
        Some(state) if country == "US" || country == "CA" => state.to_owned(),
        Some(state) => format!("{country}-{state}"),
        None => country.to_owned(),
    };
    // A place named by its code (`ON`, `BE`) is named by the standard (`Ontario`, `Berlin`).
    let name = match (name, state) {
        (name, Some(state)) if name.is_empty() || name == state => {
            crate::model::format::subdivision_name(country, state).unwrap_or("")
        }
        (name, _) => name,
    };
    if name.is_empty() || name == code {
        code
    } else {
        format!("{code} {name}")
    }
}

/// A filing's period in a few letters: `2026-10` for a month, `2026-07–09` within a year.
pub fn period(start: chrono::NaiveDate, end: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    if (start.year(), start.month()) == (end.year(), end.month()) {
        text::month(start)
    } else if start.year() == end.year() {
        format!("{}–{:02}", text::month(start), end.month())
    } else {
        format!("{}–{}", text::month(start), text::month(end))
    }
}

/// `TX 2026-10 · due 11-20 · 1,234.00 USD`.
fn filing_item(f: &Filing, today: chrono::NaiveDate) -> Item {
    let place = f
        .state_code
        .clone()
        .unwrap_or_else(|| f.country_code.clone());
    let amount = f
        .amount
        .or(f.total_tax_liability)
        .map(|a| format!(" · {}", text::money(a, f.currency.as_deref())))
        .unwrap_or_default();
    let due = f
        .due_date
        .map(|d| format!(" · due {}", d.format("%m-%d")))
        .unwrap_or_default();
    let paused = f.status == Some(FilingStatus::Paused);
    let state = if paused { " · paused" } else { "" };
    Item {
        text: format!(
            "{place} {}{state}{due}{amount}",
            period(f.start_date, f.end_date)
        ),
        urgent: !paused && f.due_date.is_some_and(|d| d < today),
    }
}

fn filings(data: &Data) -> Tile {
    let today = data.today;
    let overdue = crate::model::filters::FilingFilter::overdue(today);
    let soon = filters::due_soon(today);
    let paused = filters::paused();
    // Each return once: overdue and due soon count the ones still to be filed, paused the
    // paused ones (their lines say so).
    let mut urgent: Vec<&Filing> = data
        .filings
        .rows()
        .iter()
        .filter(|f| overdue.holds(f) || soon.holds(f) || paused.holds(f))
        .collect();
    urgent.sort_by_key(|f| f.due_date);
    Tile {
        title: "Filings",
        entries: vec![
            Entry {
                label: Label::Words("overdue"),
                count: Count::of(&data.filings, |f| overdue.holds(f)),
                goto: Goto::filings(overdue.clone()),
                caveat: None,
                urgent: true,
            },
            Entry {
                label: Label::Words("due in 30 days"),
                count: Count::of(&data.filings, |f| soon.holds(f)),
                goto: Goto::filings(soon.clone()),
                caveat: None,
                urgent: false,
            },
            Entry {
                label: Label::Words("paused"),
                count: Count::total(&data.paused),
                goto: Goto::filings(paused.clone()),
                caveat: None,
                urgent: false,
            },
        ],
        items: urgent
            .into_iter()
            .take(URGENT)
            .map(|f| filing_item(f, today))
            .collect(),
    }
}

/// `TX 2026-07–09 · -110.00 USD (-10.0%)`: the tax collected less the liability.
fn balance_item(finding: &crate::checks::filings::Finding, f: &Filing) -> Item {
    let place = f
        .state_code
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| f.country_code.clone());
    let difference = finding.difference();
    let share = finding
        .share()
        .map(|share| format!(" ({share})"))
        .unwrap_or_default();
    Item {
        text: format!(
            "{place} {} · {difference}{share}",
            period(f.start_date, f.end_date)
        ),
        urgent: false,
    }
}

/// Filings whose tax collected differs from the liability beyond the `[checks]` tolerance: how
/// many, and the three largest differences.
fn not_adding_up(data: &Data) -> Tile {
    let tolerance = data.judging.filing_tolerance;
    let filter = filters::not_adding_up(tolerance);
    let mut found: Vec<(crate::checks::filings::Finding, &Filing)> = data
        .balances
        .rows()
        .iter()
        .flat_map(|f| {
            crate::checks::filings::check(f, tolerance)
                .into_iter()
                .map(move |x| (x, f))
        })
        .collect();
    found.sort_by_key(|x| std::cmp::Reverse(x.0.difference.abs()));
    Tile {
        title: "Filings that do not add up",
        entries: vec![Entry {
            label: Label::Words("not adding up"),
            count: Count::of(&data.balances, |f| filter.holds(f)),
            goto: Goto::filings(filter.clone()),
            caveat: None,
            urgent: false,
        }],
        items: found
            .iter()
            .take(URGENT)
            .map(|(x, f)| balance_item(x, f))
            .collect(),
    }
}

fn registrations(data: &Data) -> Tile {
    let regs = &data.registrations;
    let awaiting = filters::registrations(RegistrationStatus::AwaitingClarification);
    let deregistering = filters::registrations(RegistrationStatus::Deregistering);
    let collecting = crate::model::filters::RegistrationFilter {
        to_mark_as_collecting: true,
        ..Default::default()
    };
    let credentials = crate::model::filters::RegistrationFilter {
        missing_credentials: true,
        ..Default::default()
    };
    let items = regs
        .rows()
        .iter()
        .filter_map(|r| {
            let why = if r.status == RegistrationStatus::AwaitingClarification {
                "awaiting clarification"
            } else if r.needs_mark_as_collecting == Some(true) {
                "mark as collecting"
            } else if r.status == RegistrationStatus::Deregistering {
                "deregistering"
            } else if r.misses_credentials() {
                "credentials missing"
            } else {
                return None;
            };
            let state = Some(r.state_code.as_str()).filter(|s| !s.is_empty());
            Some(Item {
                text: format!("{} · {why}", place(&r.country_code, state, &r.state_name)),
                urgent: r.status == RegistrationStatus::AwaitingClarification,
            })
        })
        .take(URGENT)
        .collect();
    Tile {
        title: "Registrations waiting on you",
        entries: vec![
            Entry {
                label: Label::Words("awaiting clarification"),
                count: Count::of(regs, |r| awaiting.holds(r)),
                goto: Goto::registrations(awaiting.clone()),
                caveat: None,
                urgent: true,
            },
            Entry {
                label: Label::Words("to mark as collecting"),
                count: Count::of(regs, |r| collecting.holds(r)),
                goto: Goto::registrations(collecting.clone()),
                caveat: None,
                urgent: false,
            },
            Entry {
                label: Label::Words("missing credentials"),
                count: Count::of(regs, |r| credentials.holds(r)),
                goto: Goto::registrations(credentials.clone()),
                caveat: None,
                urgent: false,
            },
            Entry {
                label: Label::Words("deregistering"),
                count: Count::of(regs, |r| deregistering.holds(r)),
                goto: Goto::registrations(deregistering.clone()),
                caveat: None,
                urgent: false,
            },
        ],
        items,
    }
}

fn exemptions(data: &Data) -> Tile {
    let today = data.today;
    let expiring = filters::expiring_exemptions(today);
    let expired = filters::expired_exemptions(today);
    let keeps = |f: &crate::model::filters::ExemptionFilter, e: &crate::model::Exemption| {
        f.keeps(e)
            && (f.status_in.is_empty()
                || e.status.as_ref().is_some_and(|s| f.status_in.contains(s)))
    };
    let mut soon: Vec<&crate::model::Exemption> = data
        .exemptions
        .rows()
        .iter()
        .filter(|e| keeps(&expiring, e))
        .collect();
    soon.sort_by_key(|e| e.end_date);
    Tile {
        title: "Exemptions",
        entries: vec![
            Entry {
                label: Label::Words("expiring in 30 days"),
                count: Count::of(&data.exemptions, |e| keeps(&expiring, e)),
                goto: Goto::exemptions(expiring.clone()),
                caveat: None,
                urgent: false,
            },
            Entry {
                label: Label::Words("expired in 30 days"),
                count: Count::of(&data.exemptions, |e| keeps(&expired, e)),
                goto: Goto::exemptions(expired.clone()),
                caveat: None,
                urgent: false,
            },
        ],
        items: soon
            .into_iter()
            .take(URGENT)
            .map(|e| Item {
                text: format!(
                    "{} · {} · ends {}",
                    e.customer_name.as_deref().unwrap_or(&e.id),
                    e.jurisdiction.as_deref().unwrap_or("-"),
                    e.end_date.map(text::date).unwrap_or_default()
                ),
                urgent: false,
            })
            .collect(),
    }
}

fn transactions(data: &Data) -> Tile {
    let minute_ago = Utc::now() - Duration::minutes(1);
    let stuck = |t: &crate::model::Transaction| {
        data.queued_since
            .get(&t.id)
            .is_some_and(|since| *since <= minute_ago)
    };
    let items = data
        .invalid
        .rows()
        .iter()
        .map(|t| Item {
            text: format!("{} · INVALID · {}", t.external_id, text::timestamp(&t.date)),
            urgent: true,
        })
        .chain(data.refetch.rows().iter().map(|t| Item {
            text: format!("{} · NEEDS_REFETCH", t.external_id),
            urgent: false,
        }))
        .take(URGENT)
        .collect();
    Tile {
        title: "Transactions with problems",
        entries: vec![
            Entry {
                label: Label::Words("invalid"),
                count: Count::total(&data.invalid),
                goto: Goto::transactions(filters::invalid()),
                caveat: None,
                urgent: true,
            },
            Entry {
                label: Label::Words("to fetch again"),
                count: Count::total(&data.refetch),
                goto: Goto::transactions(filters::processing(ProcessingStatus::NeedsRefetch)),
                caveat: None,
                urgent: false,
            },
            Entry {
                label: Label::Words("queued over a minute"),
                count: Count::of(&data.queued, stuck),
                goto: Goto::transactions(crate::model::filters::TransactionFilter {
                    // The service tells no creation time: the ones seen queued for a minute.
                    only_ids: Some(
                        data.queued
                            .rows()
                            .iter()
                            .filter(|t| stuck(t))
                            .map(|t| t.id.clone())
                            .collect(),
                    ),
                    ..filters::processing(ProcessingStatus::Queued)
                }),
                caveat: None,
                urgent: false,
            },
        ],
        items,
    }
}

fn imports(data: &Data) -> Tile {
    Tile {
        title: "Certificate imports",
        entries: vec![Entry {
            label: Label::Words("awaiting approval"),
            count: Count::total(&data.imports),
            goto: Goto::CertificateImports {
                status_in: vec![CertificateImportStatus::Uploaded],
            },
            caveat: None,
            urgent: false,
        }],
        items: data
            .imports
            .rows()
            .iter()
            .take(URGENT)
            .map(|i| Item {
                text: format!(
                    "{} · {}",
                    i.customer_name.as_deref().unwrap_or(&i.id),
                    i.file_name.as_deref().unwrap_or("")
                ),
                urgent: false,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn places_and_periods_in_a_few_letters() {
        assert_eq!(place("US", Some("TX"), "Texas"), "TX Texas");
        // A place named by its code is named by the standard, in Europe too.
        assert_eq!(place("CA", Some("ON"), "ON"), "ON Ontario");
        assert_eq!(place("US", Some("FL"), ""), "FL Florida");
        assert_eq!(place("DE", Some("BE"), "BE"), "DE-BE Berlin");
        assert_eq!(place("IE", Some("D"), "D"), "IE-D Dublin");
        assert_eq!(place("ZZ_EU", None, ""), "ZZ_EU");
        assert_eq!(period(day(2026, 10, 1), day(2026, 10, 31)), "2026-10");
        assert_eq!(period(day(2026, 7, 1), day(2026, 9, 30)), "2026-07–09");
        assert_eq!(period(day(2025, 7, 1), day(2026, 6, 30)), "2025-07–2026-06");
    }

    #[test]
    fn a_tile_adds_its_counts_and_waits_or_fails_with_any_of_them() {
        let entry = |count| Entry {
            label: Label::Words("x"),
            count,
            goto: Goto::filings(crate::model::filters::FilingFilter::default()),
            caveat: None,
            urgent: false,
        };
        let tile = |counts: Vec<Count>| Tile {
            title: "t",
            entries: counts.into_iter().map(entry).collect(),
            items: Vec::new(),
        };
        assert_eq!(
            tile(vec![Count::Exact(2), Count::Exact(3)]).count(),
            Count::Exact(5)
        );
        assert_eq!(
            tile(vec![Count::Exact(2), Count::AtLeast(500)]).count(),
            Count::AtLeast(502)
        );
        assert_eq!(
            tile(vec![Count::Exact(2), Count::Waiting]).count(),
            Count::Waiting
        );
        let failed = tile(vec![Count::Exact(2), Count::Failed("timed out".into())]);
        assert_eq!(failed.count().label(), "?");
        assert_eq!(failed.trouble().unwrap(), "x: could not count: timed out");
        assert_eq!(Count::AtLeast(1500).label(), "1,500+");
    }

    fn empty<T>() -> Slot<T> {
        Slot::Loaded {
            rows: Vec::new(),
            total: 0,
            complete: true,
        }
    }

    fn approaching_row(state: &str, sales: &str, month: &str) -> crate::model::Nexus {
        serde_json::from_value(serde_json::json!({
            "id": format!("nx_{state}"), "country_code": "US", "state_code": state,
            "state_name": state, "status": "APPROACHING", "period_model": "CALENDAR_YEAR",
            "period_start_date": format!("2026-{month}-01"), "period_end_date": "2026-12-31",
            "threshold_sales": 100000, "sales_or_transactions": "SALES",
            "transactions_amount": sales, "transaction_count": 10,
            "economic_nexus_met": false
        }))
        .unwrap()
    }

    #[test]
    fn the_approaching_tile_lists_the_soonest_projected_crossing_first() {
        let mut data = Data::new(day(2026, 6, 1));
        // Nearest the threshold but without sales lately; further, crossing sooner or later.
        let rows = vec![
            // 95,864.92 of 100,000: 95.8%, never rounded up to 96.
            approaching_row("TX", "95864.92", "01"),
            approaching_row("GA", "80000", "01"),
            approaching_row("FL", "60000", "01"),
        ];
        data.nexus = Slot::Loaded {
            rows,
            total: 3,
            complete: true,
        };
        let activity = |sales: i64| crate::model::PeriodActivity {
            sales: Decimal::from(sales),
            transactions: 5,
            ..crate::model::PeriodActivity::default()
        };
        let place = |s: &str| ("US".to_owned(), s.to_owned());
        // GA: 20,000 left at 100 a day, 2026-12-18; FL: 40,000 left at 1,000 a day, 2026-07-11.
        data.pace = Some(Ok([
            (place("GA"), activity(9_000)),
            (place("FL"), activity(90_000)),
        ]
        .into_iter()
        .collect()));
        let tile = approaching(&data);
        let items: Vec<&str> = tile.items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            items,
            [
                "FL Florida ~2026-07 · 60.0% of sales",
                "GA Georgia ~2026-12 · 80.0% of sales",
                "TX Texas · 95.8% of sales"
            ]
        );

        // Before the pace is in (or when it could not be read): nearest the threshold first.
        data.pace = None;
        let tile = approaching(&data);
        let items: Vec<&str> = tile.items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            items,
            [
                "TX Texas · 95.8% of sales",
                "GA Georgia · 80.0% of sales",
                "FL Florida · 60.0% of sales"
            ]
        );
    }

    #[test]
    fn a_counted_noun_agrees_with_its_count() {
        let noun = Label::Noun("jurisdiction");
        assert_eq!(noun.after(&Count::Exact(1)), "jurisdiction");
        assert_eq!(noun.after(&Count::Exact(0)), "jurisdictions");
        assert_eq!(noun.after(&Count::AtLeast(500)), "jurisdictions");
        assert_eq!(Label::Words("overdue").after(&Count::Exact(1)), "overdue");
    }

    #[test]
    fn counts_on_an_empty_organization_are_zero_not_missing() {
        let mut data = Data::new(day(2026, 11, 24));
        data.nexus = empty();
        data.physical = empty();
        data.registrations = empty();
        data.filings = empty();
        data.paused = empty();
        data.exemptions = empty();
        data.invalid = empty();
        data.refetch = empty();
        data.queued = empty();
        data.imports = Slot::Unavailable("needs the Tenanted API");
        data.balances = empty();
        let all = tiles(&data);
        assert_eq!(all.len(), 8);
        for tile in &all[..6] {
            assert_eq!(tile.count(), Count::Exact(0), "{}", tile.title);
        }
        assert_eq!(all[6].count().label(), "–");
        assert_eq!(all[7].count(), Count::Exact(0));
    }

    #[test]
    fn the_filings_that_do_not_add_up_are_counted_largest_difference_first() {
        let filing = |id: &str, state: &str, liability: &str, collected: &str| -> Filing {
            serde_json::from_value(serde_json::json!({
                "id": id, "registration_id": "r1", "start_date": "2026-07-01",
                "end_date": "2026-09-30", "country_code": "US", "state_code": state,
                "total_tax_liability": liability, "amount_tax_collected": collected,
                "currency": "USD"
            }))
            .unwrap()
        };
        let mut data = Data::new(day(2026, 11, 24));
        data.balances = Slot::Loaded {
            rows: vec![
                filing("f1", "TX", "1000.00", "900.00"),
                filing("f2", "CA", "1000.00", "1000.00"),
                filing("f3", "NY", "5000.00", "4500.00"),
                filing("f4", "WA", "100.00", "120.00"),
                filing("f5", "FL", "10.00", "5.00"),
            ],
            total: 5,
            complete: true,
        };
        let tile = not_adding_up(&data);
        assert_eq!(tile.count(), Count::Exact(4));
        let items: Vec<&str> = tile.items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            items,
            vec![
                "NY 2026-07–09 · -500.00 USD (-10.0%)",
                "TX 2026-07–09 · -100.00 USD (-10.0%)",
                "WA 2026-07–09 · +20.00 USD (+20.0%)",
            ]
        );
        let Goto::Filings { filter, .. } = &tile.entries[0].goto else {
            panic!("opens Filings");
        };
        assert!(filter.not_adding_up.is_some());
    }
}
