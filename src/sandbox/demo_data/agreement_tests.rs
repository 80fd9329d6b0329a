//! The demo records agree with each other as a real company's would, whatever the seed and the
//! anchor: each relation is checked on the records as served, against what their transactions
//! say when counted independently (the forecast's and the filings check's own counting).

use std::collections::HashMap;
use std::sync::OnceLock;

use chrono::{Days, NaiveDate};
use rust_decimal::Decimal;

use super::*;
use crate::checks::{activity_by_place, filings::sales_of, forecast};
use crate::model::PeriodActivity;
use crate::model::{Direction, NexusStatus, PeriodModel, RegistrationStatus, Transaction};

const SEEDS: [u64; 3] = [42, 7, 2026];
const ANCHORS: [&str; 3] = ["2026-11-15", "2027-01-31", "2027-06-30"];

/// One generated organization and its transactions in full.
struct Case {
    what: String,
    anchor: NaiveDate,
    org: DemoOrg,
    transactions: Vec<Transaction>,
    /// Each sale (purchases are not sales) as the forecast counts it: its day, its place and
    /// its activity.
    sales: Vec<(NaiveDate, Place, PeriodActivity)>,
}

type Place = (String, String);

/// Every seed, anchor and organization, generated once for all the tests here.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut out = Vec::new();
        for seed in SEEDS {
            for anchor in ANCHORS {
                let anchor: NaiveDate = anchor.parse().unwrap();
                for (index, id) in ["orgn_demo_1", "orgn_demo_2"].into_iter().enumerate() {
                    let (org, t) = generate_scaled(seed, index, id, anchor, 1);
                    let all: Vec<u32> = (0..t.len() as u32).collect();
                    let transactions = t.rows_at(&all, &org.customers);
                    let sales = transactions
                        .iter()
                        .filter(|t| t.direction != Some(Direction::Purchase))
                        .flat_map(|t| {
                            activity_by_place(&[crate::model::SaleFigures::from(t)])
                                .into_iter()
                                .map(|(place, a)| (t.date.date(), place, a))
                        })
                        .collect();
                    out.push(Case {
                        what: format!("seed {seed}, {id}, anchor {anchor}"),
                        anchor,
                        org,
                        transactions,
                        sales,
                    });
                }
            }
        }
        out
    })
}

#[test]
fn an_exemption_names_its_customer_by_the_customers_name() {
    for case in cases() {
        let names: HashMap<&str, &Option<String>> = case
            .org
            .customers
            .iter()
            .map(|c| (c.id.as_str(), &c.name))
            .collect();
        for e in &case.org.exemptions {
            let customer = e
                .customer_id
                .as_deref()
                .expect("an exemption has a customer");
            let name = names.get(customer).expect("its customer exists");
            assert!(name.is_some(), "{}: {customer} has a name", case.what);
            assert_eq!(&e.customer_name, *name, "{}: {}", case.what, e.id);
        }
    }
}

#[test]
fn every_product_a_sale_names_is_in_the_catalog() {
    for case in cases() {
        let catalog: HashMap<&str, &Product> = case
            .org
            .products
            .iter()
            .map(|p| (p.id.as_str(), p))
            .collect();
        let mut lines = 0;
        for t in &case.transactions {
            for item in &t.transaction_items {
                lines += 1;
                let id = item.product_id.as_deref();
                let product = id.and_then(|id| catalog.get(id));
                let Some(product) = product else {
                    panic!("{}: {} names {id:?}, not in the catalog", case.what, t.id);
                };
                assert_eq!(
                    item.external_product_id.as_deref(),
                    Some(product.external_id.as_str()),
                    "{}: {}",
                    case.what,
                    t.id
                );
                assert_eq!(item.product_name.as_deref(), Some(product.name.as_str()));
                assert!(!product.tax_exempt, "{}: a taxed line", case.what);
            }
        }
        assert!(lines > case.transactions.len(), "{}", case.what);
    }
}

/// Whether a sale to `country`/`state` counts toward nexus row `n`, written apart from the
/// generator's own: Canada's federal row takes every province, the EU's every member state.
fn toward(n: &Nexus, country: &str, state: &str) -> bool {
    match (n.country_code.as_str(), n.state_code.as_str()) {
        ("ZZ_EU", _) => crate::sandbox::reference::is_eu_member(country),
        (c, "") => c == country,
        (c, s) => c == country && s == state,
    }
}

/// The activity of the sales toward `n` dated `from` to `to`, as the forecast counts its pace.
fn activity(n: &Nexus, case: &Case, (from, to): (NaiveDate, NaiveDate)) -> PeriodActivity {
    let mut total = PeriodActivity::default();
    for (day, (country, state), a) in &case.sales {
        if (from..=to).contains(day) && toward(n, country, state) {
            total.sales += a.sales;
            total.exempt_sales += a.exempt_sales;
            total.marketplace_sales += a.marketplace_sales;
            total.transactions += a.transactions;
            total.exempt_transactions += a.exempt_transactions;
            total.marketplace_transactions += a.marketplace_transactions;
        }
    }
    total
}

#[test]
fn economic_nexus_figures_are_what_the_transactions_give_by_the_states_rule() {
    let mut approaching_by_figures = 0;
    let mut rules_seen = std::collections::HashSet::new();
    for case in cases() {
        for n in &case.org.nexus {
            let at = format!("{}: {} {}", case.what, n.id, n.state_code);
            let rule = forecast::rule_of(n);
            rules_seen.insert(rule.sales_or_transactions.as_str().to_owned());
            assert!(
                n.period_model.as_ref().is_some_and(PeriodModel::is_known),
                "{at}"
            );
            assert!(n.trigger.is_some() && n.start_date.is_some(), "{at}");
            assert!(n.previous_period_end_date < n.period_start_date, "{at}");
            let physical = n.physical_nexus_met == Some(true);
            let period = (n.period_start_date.unwrap(), n.period_end_date.unwrap());
            let previous = (
                n.previous_period_start_date.unwrap(),
                n.previous_period_end_date.unwrap(),
            );
            let now = activity(n, case, period);
            let before = activity(n, case, previous);
            let has_rule = n.threshold_sales.is_some_and(|t| t > Decimal::ZERO)
                || n.threshold_transactions.is_some_and(|t| t > 0);
            let counted = |a: &PeriodActivity| {
                if has_rule {
                    rule.counted(a, physical)
                } else {
                    (a.sales, a.transactions)
                }
            };
            assert_eq!(
                (n.transactions_amount.unwrap(), n.transaction_count.unwrap()),
                counted(&now),
                "{at}: sales so far"
            );
            assert_eq!(
                (
                    n.previous_transactions_amount.unwrap(),
                    n.previous_transaction_count.unwrap()
                ),
                counted(&before),
                "{at}: the previous period"
            );
            assert_eq!(n.total_transactions, Some(now.transactions), "{at}");
            assert_eq!(n.total_transactions_included, n.transaction_count, "{at}");
            assert_eq!(
                n.total_transactions_exempted,
                Some(now.exempt_transactions),
                "{at}"
            );
            assert_eq!(
                n.total_transactions_marketplace,
                Some(now.marketplace_transactions),
                "{at}"
            );
            // Sales so far hold the last 90 days' that fall in the period (Missouri showed less).
            let pace_from = case.anchor - Days::new(u64::from(forecast::PACE_DAYS) - 1);
            let recent = activity(
                n,
                case,
                (pace_from.max(period.0), case.anchor.min(period.1)),
            );
            assert!(counted(&recent).0 <= counted(&now).0, "{at}: {recent:?}");

            // Met, and the status, follow from the figures.
            let judged = if n.period_model == Some(PeriodModel::CurrentOrPrevious) {
                vec![&before, &now]
            } else {
                vec![&now]
            };
            let met = has_rule && judged.iter().any(|a| rule.judge(a, physical).met);
            assert_eq!(n.economic_nexus_met, Some(met), "{at}");
            let progress = judged
                .iter()
                .filter_map(|a| rule.progress(a, physical))
                .max()
                .filter(|_| has_rule);
            let registration = case
                .org
                .registrations
                .iter()
                .find(|r| r.country_code == n.country_code && r.state_code == n.state_code);
            let expected = match registration.map(|r| &r.status) {
                Some(
                    RegistrationStatus::Registered
                    | RegistrationStatus::SelfManaged
                    | RegistrationStatus::Deregistering,
                ) => NexusStatus::Registered,
                Some(
                    RegistrationStatus::Processing
                    | RegistrationStatus::Validating
                    | RegistrationStatus::AwaitingClarification,
                ) => NexusStatus::PendingRegistration,
                _ if met || physical => NexusStatus::Exposed,
                _ if progress.is_some_and(|p| p >= crate::rules::APPROACHING_AT) => {
                    approaching_by_figures += 1;
                    NexusStatus::Approaching
                }
                _ => NexusStatus::NotExposed,
            };
            assert_eq!(n.status, Some(expected), "{at}: {progress:?}");
        }
    }
    assert!(approaching_by_figures >= 3 * SEEDS.len() * ANCHORS.len());
    for which in ["EITHER", "SALES", "BOTH"] {
        assert!(rules_seen.contains(which), "{rules_seen:?}");
    }
}

#[test]
fn returns_report_their_transactions_sales_except_the_listed_ones() {
    for case in cases() {
        let mut off = Vec::new();
        let mut compared = 0;
        for f in &case.org.filings {
            let state = f.state_code.as_deref().unwrap_or("");
            let covered: Vec<Transaction> = case
                .transactions
                .iter()
                .filter(|t| t.country.as_deref() == Some(f.country_code.as_str()))
                .filter(|t| state.is_empty() || t.state.as_deref() == Some(state))
                .filter(|t| (f.start_date..=f.end_date).contains(&t.date.date()))
                .cloned()
                .collect();
            if covered.is_empty() {
                // The service holds no transactions for it: nothing to compare.
                continue;
            }
            compared += 1;
            let summed = sales_of(&crate::model::SaleFigures::of(&covered));
            if f.amount_sales != Some(summed) {
                assert_eq!(
                    f.amount_sales,
                    Some((summed * Decimal::new(112, 2)).round_dp(2)),
                    "{}: {} is 12 % over",
                    case.what,
                    f.id
                );
                off.push(f.id.as_str());
            }
            let part = |v: Option<Decimal>| v.unwrap();
            assert_eq!(
                f.amount,
                Some(
                    part(f.amount_calculated) - part(f.amount_discounts)
                        + part(f.amount_penalties)
                        + part(f.amount_fees)
                ),
                "{}: {}",
                case.what,
                f.id
            );
        }
        // The lists name organization 0's returns.
        let first = case.org.organization_id == "orgn_demo_1";
        let (over, short) = if first {
            (SALES_OVER, COLLECTED_SHORT)
        } else {
            (&[][..], &[][..])
        };
        assert_eq!(off, over, "{}: off on purpose, and only those", case.what);
        assert!(
            compared * 2 > case.org.filings.len(),
            "{}: {compared}",
            case.what
        );
        for id in short {
            let f = case.org.filings.iter().find(|f| f.id == *id).unwrap();
            let liability = f.total_tax_liability.unwrap();
            assert_eq!(
                f.amount_tax_collected,
                Some((liability * Decimal::new(90, 2)).round_dp(2)),
                "{}: {id}",
                case.what
            );
        }
    }
}
