//! `taxdash check exemptions|filings` and `taxdash nexus forecast`: the checks of
//! [`crate::checks`] on the profile's service or the demo sandbox, printed as a table, CSV or
//! JSON. Exit 0 when clean, 3 with findings ([`crate::checks::EXIT_FINDINGS`]), 1 on errors.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rust_decimal::Decimal;

use super::{CommandFailure, Context};
use crate::checks;
use crate::cli::{CheckCommand, CheckFormat, NexusCommand};
use crate::model::filters::FilingFilter;
use crate::model::format;
use crate::reads;
use crate::reads::Progress;

/// Where a check reads from: the profile's service, or (`--demo`) the embedded sandbox.
pub use super::export::Service;

/// A progress line on stderr when it is a terminal.
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Self {
        if !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden());
        }
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        let style =
            ProgressStyle::with_template("reading {msg} [{bar:30}] {human_pos}/{human_len}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        Bar(bar)
    }
}

impl Progress for Bar {
    fn reading(&mut self, what: &str, read: u64, total: u64) {
        self.0.set_message(what.to_owned());
        self.0.set_length(total);
        self.0.set_position(read);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// Exit 3 with a line saying what was found (`what` of the count, in words), or success.
fn outcome(found: usize, what: impl Fn(u64) -> String) -> Result<(), CommandFailure> {
    if found == 0 {
        Ok(())
    } else {
        Err(CommandFailure {
            message: what(found as u64),
            exit_code: u8::try_from(checks::EXIT_FINDINGS).unwrap_or(3),
        })
    }
}

/// `1 filing figure does not add up`, `3 filing figures do not add up`.
fn not_adding_up(n: u64, what: &str) -> String {
    let verb = if n == 1 { "does" } else { "do" };
    format!("{} {verb} not add up", format::count(n, what))
}

/// Runs `taxdash check …`.
pub async fn check(
    ctx: &Context,
    command: &CheckCommand,
    service: Service,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    let today = crate::clock::today();
    // The range first: an empty one is refused before anything is read.
    match command {
        CheckCommand::Exemptions {
            from: Some(from),
            to,
            ..
        } => match to {
            Some(to) => super::day_range(("--from", "--to"), *from, *to)?,
            None => super::day_range(("--from", "today"), *from, today)?,
        },
        CheckCommand::Exemptions { from: None, .. } => {}
        CheckCommand::Filings { from, to, .. } => {
            if let (Some(from), Some(to)) = (from, to) {
                super::day_range(("--from", "--to"), *from, *to)?;
            }
        }
    }
    let connected = super::connect(ctx, service).await?;
    let client = &connected.client;
    let mut bar = Bar::new();
    let result = match command {
        CheckCommand::Exemptions { from, to, format } => {
            let to = to.unwrap_or(today);
            let from = &from.unwrap_or_else(|| checks::exemptions::default_from(to));
            match reads::read_exemption_findings(client, *from, to, &mut bar).await {
                Ok((checked, found)) => {
                    drop(bar);
                    print_exemptions(&found, *format, out)
                        .map_err(|e| CommandFailure::new(format!("cannot write: {e}")))?;
                    if *format == CheckFormat::Table {
                        let _ = writeln!(
                            out,
                            "{} from {} to {} checked, {} without a valid certificate",
                            format::count(checked as u64, "exempt sale"),
                            format::date(*from),
                            format::date(to),
                            format::thousands(found.len() as u64)
                        );
                    }
                    outcome(found.len(), |n| {
                        format!(
                            "{} without a valid certificate",
                            format::count(n, "exempt sale")
                        )
                    })
                }
                Err(e) => Err(CommandFailure::new(e)),
            }
        }
        CheckCommand::Filings { from, to, format } => {
            let tolerance = ctx
                .load_config()
                .map(|c| c.checks.filing_tolerance())
                .unwrap_or_default();
            let filter = FilingFilter {
                start_date: *from,
                end_date: *to,
                ..FilingFilter::default()
            };
            match reads::read_filing_findings(client, &filter, tolerance, today, &mut bar).await {
                Ok((checked, found)) => {
                    drop(bar);
                    print_filings(&found, *format, out)
                        .map_err(|e| CommandFailure::new(format!("cannot write: {e}")))?;
                    if *format == CheckFormat::Table {
                        let _ = writeln!(
                            out,
                            "{} checked (a difference {} is listed), {}",
                            format::count(checked as u64, "filing"),
                            tolerance.words(),
                            not_adding_up(found.len() as u64, "figure")
                        );
                    }
                    outcome(found.len(), |n| not_adding_up(n, "filing figure"))
                }
                Err(e) => Err(CommandFailure::new(e)),
            }
        }
    };
    connected.close().await;
    result
}

/// Runs `taxdash nexus …`.
pub async fn nexus(
    ctx: &Context,
    command: &NexusCommand,
    service: Service,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    let NexusCommand::Forecast { format } = command;
    let connected = super::connect(ctx, service).await?;
    let client = &connected.client;
    let mut bar = Bar::new();
    let result = match reads::read_forecasts(client, crate::clock::today(), &mut bar).await {
        Ok(forecasts) => {
            drop(bar);
            print_forecasts(&forecasts, *format, out)
                .map_err(|e| CommandFailure::new(format!("cannot write: {e}")))?;
            let crossing = forecasts.iter().filter(|f| f.day().is_some()).count();
            outcome(crossing, |n| {
                let their = if n == 1 { "its" } else { "their" };
                format!(
                    "{} will cross {their} threshold at this pace",
                    format::count(n, "jurisdiction")
                )
            })
        }
        Err(e) => Err(CommandFailure::new(e)),
    };
    connected.close().await;
    result
}

/// Rows as aligned columns under a header.
fn table(out: &mut dyn Write, header: &[&str], rows: &[Vec<String>]) -> std::io::Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(cell);
            } else {
                let _ = write!(s, "{cell:<w$}  ");
            }
        }
        s.trim_end().to_owned()
    };
    writeln!(out, "{}", line(header.to_vec()))?;
    for row in rows {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

fn csv_out(out: &mut dyn Write, header: &[&str], rows: &[Vec<String>]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(header)?;
    for row in rows {
        w.write_record(row)?;
    }
    w.flush()
}

fn json_out<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// `items` as JSON, or as rows under `header` (CSV or an aligned table), one per item.
pub(super) fn print<T: serde::Serialize>(
    items: &[T],
    format: CheckFormat,
    out: &mut dyn Write,
    header: &[&str],
    row: impl Fn(&T) -> Vec<String>,
) -> std::io::Result<()> {
    if format == CheckFormat::Json {
        return json_out(out, &items);
    }
    let rows: Vec<Vec<String>> = items.iter().map(row).collect();
    match format {
        CheckFormat::Csv => csv_out(out, header, &rows),
        _ => table(out, header, &rows),
    }
}

/// An amount as every table writes it (`41,228.32 USD`); empty when absent.
fn money(amount: Option<Decimal>, currency: Option<&str>) -> String {
    amount.map_or_else(String::new, |a| format::money(a, currency))
}

fn print_exemptions(
    found: &[checks::exemptions::Finding],
    format: CheckFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    print(
        found,
        format,
        out,
        &[
            "date",
            "external_id",
            "transaction_id",
            "customer",
            "customer_id",
            "jurisdiction",
            "exempt",
            "total",
            "reason",
            "detail",
        ],
        |f| {
            vec![
                format::date(f.date),
                f.external_id.clone(),
                f.transaction_id.clone(),
                f.customer_name
                    .clone()
                    .or_else(|| f.customer_id.clone())
                    .unwrap_or_default(),
                f.customer_id.clone().unwrap_or_default(),
                f.jurisdiction.clone(),
                f.exempt.clone().unwrap_or_default(),
                money(f.total_amount, f.currency.as_deref()),
                f.reason.kind().to_owned(),
                f.reason.words(),
            ]
        },
    )
}

fn print_filings(
    found: &[checks::filings::Finding],
    format: CheckFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    print(
        found,
        format,
        out,
        &[
            "filing_id",
            "jurisdiction",
            "period",
            "status",
            "check",
            "expected",
            "actual",
            "difference",
            "share",
        ],
        |f| {
            vec![
                f.filing_id.clone(),
                f.jurisdiction.clone(),
                f.period_words(),
                f.status.clone().unwrap_or_default(),
                f.check.words().to_owned(),
                f.money(f.expected),
                f.money(f.actual),
                f.difference(),
                f.share().unwrap_or_default(),
            ]
        },
    )
}

fn print_forecasts(
    forecasts: &[checks::forecast::Forecast],
    format: CheckFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    print(
        forecasts,
        format,
        out,
        &[
            "jurisdiction",
            "status",
            "period_model",
            "rule",
            "sales_so_far",
            "threshold_sales",
            "transactions_so_far",
            "threshold_transactions",
            "sales_last_90_days",
            "crosses",
            "forecast",
        ],
        |f| {
            let currency = f.currency.as_deref();
            vec![
                f.jurisdiction(),
                f.status.clone().unwrap_or_default(),
                f.period_model.clone().unwrap_or_default(),
                f.sales_or_transactions.clone().unwrap_or_default(),
                money(Some(f.sales_so_far), currency),
                money(f.threshold_sales, currency),
                format::thousands(f.transactions_so_far),
                f.threshold_transactions
                    .map(format::thousands)
                    .unwrap_or_default(),
                money(Some(f.pace_sales), currency),
                f.day().map(format::month).unwrap_or_default(),
                f.words(),
            ]
        },
    )
}
