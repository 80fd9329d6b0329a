//! `taxdash snapshot`, `taxdash diff` and `taxdash watch`: the profile or the demo sandbox, the
//! history database, the progress lines and the output around [`crate::history`].

use std::io::{IsTerminal, Write};
use std::time::Duration;

use futures::StreamExt;
use indicatif::ProgressBar;

use super::export::Service;
use super::{CommandFailure, Context};
use crate::api::{Client, ClientConfig};
use crate::cli::{DiffArgs, DiffFormat, SnapshotArgs, WatchArgs};
use crate::history::capture::{Lists, Plan, Taken, scope_of, take_and_compare, take_snapshot};
use crate::history::diff::{Diff, Kind, noun};
use crate::history::snapshot::{Scope, Snapshot};
use crate::history::{History, HistoryError};
use crate::model::Resource;
use crate::model::format;
use crate::os::signals::{Signal, Signals, listen};
use crate::sandbox::{DEMO_CREDENTIALS, Sandbox};

/// The exit code of `watch --exit-on-change` when something changed.
pub const EXIT_CHANGED: u8 = 3;

impl From<HistoryError> for CommandFailure {
    fn from(e: HistoryError) -> Self {
        CommandFailure::new(e)
    }
}

/// The client of the profile or of the demo sandbox (started here; the caller stops it), and
/// the profile's name.
async fn connect(
    ctx: &Context,
    service: Service,
) -> Result<(Client, Option<Sandbox>, String), CommandFailure> {
    let c = super::connect(ctx, service).await?;
    Ok((c.client, c.sandbox, c.profile))
}

/// One progress line for the whole snapshot on stderr when it is a terminal: the rows read of
/// the rows announced, and the lists read whole, summed from the lists' bars every 200 ms.
struct Progress {
    line: ProgressBar,
    lists: Lists,
    ticker: tokio::task::JoinHandle<()>,
}

impl Progress {
    fn start() -> Self {
        let line = if std::io::stderr().is_terminal() {
            let line = ProgressBar::new_spinner();
            line.set_style(
                indicatif::ProgressStyle::with_template("{prefix}: {spinner} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            line.set_prefix("snapshot");
            line.enable_steady_tick(Duration::from_millis(200));
            line
        } else {
            ProgressBar::hidden()
        };
        let lists = Lists::default();
        let (shown, read) = (line.clone(), lists.clone());
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                shown.set_message(read.read().to_string());
            }
        });
        Progress {
            line,
            lists,
            ticker,
        }
    }

    /// The hidden bar one list is read with.
    fn list(&self, _resource: Resource) -> ProgressBar {
        self.lists.list()
    }

    fn finish(self) {
        self.ticker.abort();
        self.line.finish_and_clear();
    }
}

/// What a stored snapshot holds, in words: `snapshot 4: 18 registrations, 51 nexus, …`.
fn stored(taken: &Taken) -> String {
    let counts: Vec<String> = taken
        .counts
        .iter()
        .map(|(resource, n)| format!("{n} {resource}"))
        .collect();
    format!(
        "snapshot {} stored: {} records ({})",
        taken.id,
        taken.records(),
        counts.join(", ")
    )
}

/// Runs `taxdash snapshot`.
pub async fn snapshot(
    ctx: &Context,
    args: &SnapshotArgs,
    service: Service,
    out: &mut dyn Write,
) -> Result<Taken, CommandFailure> {
    transactions_range(args.transactions)?;
    let mut db = ctx
        .open_history(matches!(service, Service::Demo(_)))
        .await?;
    let (client, sandbox, profile) = connect(ctx, service).await?;
    let plan = Plan::new(args.transactions);
    let scope = scope_of(&client, &profile, &plan);
    let signals = listen(Signal::ENDING)
        .map_err(|e| CommandFailure::new(format!("could not listen to signals: {e}")))?;
    let progress = Progress::start();
    let result = tokio::select! {
        taken = take_snapshot(&client, &mut db, &scope, &plan, |r| progress.list(r)) => taken.map_err(CommandFailure::new),
        signal = first(signals) => Err(interrupted(signal)),
    };
    progress.finish();
    if let Some(sandbox) = sandbox {
        sandbox.stop().await;
    }
    let taken = result?;
    let _ = writeln!(out, "{}", stored(&taken));
    if let Some(keep) = args.keep {
        let pruned = db.prune_snapshots(key(&scope), keep as usize)?;
        if pruned > 0 {
            let _ = writeln!(out, "removed {pruned} older snapshots (--keep {keep})");
        }
    }
    Ok(taken)
}

/// Refuses `--transactions FROM..TO` ending before it starts, as every range is refused.
fn transactions_range(
    range: Option<(chrono::NaiveDate, chrono::NaiveDate)>,
) -> Result<(), CommandFailure> {
    match range {
        Some((from, to)) => super::day_range(("--transactions FROM", "TO"), from, to),
        None => Ok(()),
    }
}

fn key(scope: &Scope) -> (&str, &str) {
    (&scope.profile, &scope.organization)
}

fn interrupted(signal: Signal) -> CommandFailure {
    CommandFailure {
        message: format!("{}; no snapshot was stored", signal.outcome()),
        exit_code: signal.exit_code(),
    }
}

/// The first signal received; never, if the stream ends.
async fn first(mut signals: Signals) -> Signal {
    match signals.next().await {
        Some(signal) => signal,
        None => std::future::pending().await,
    }
}

/// Runs `taxdash diff`: the snapshots `--from`/`--to` name, else those of the profile's
/// organization (`--since`, or the two latest).
pub async fn diff(
    ctx: &Context,
    args: &DiffArgs,
    service: Service,
    out: &mut dyn Write,
) -> Result<Diff, CommandFailure> {
    let db = ctx
        .open_history(matches!(service, Service::Demo(_)))
        .await?;
    let (from, to) = if let (Some(from), Some(to)) = (args.from, args.to) {
        (from, to)
    } else {
        let (profile, organization) = match service {
            // The demo's snapshots: its profile name and first organization.
            Service::Demo(_) => ("demo".to_owned(), DEMO_CREDENTIALS[0].0.to_owned()),
            Service::Profile => {
                let profile = ctx.resolve().await.map_err(CommandFailure::new)?;
                let config = ClientConfig::from_profile(&profile)
                    .with_env(&*ctx.env)
                    .map_err(CommandFailure::new)?;
                (profile.name, config.organization_id)
            }
        };
        let runs = db.snapshots(Some((&profile, &organization)))?;
        pick(&runs, args.since).map_err(|why| {
            CommandFailure::new(format!(
                "{why} of profile {profile} and organization {organization} in {}",
                place(&db)
            ))
        })?
    };
    let found = db.diff(from, to)?.ok_or_else(|| {
        CommandFailure::new(format!(
            "snapshot {} is not in {}",
            if db.snapshot(from).ok().flatten().is_none() {
                from
            } else {
                to
            },
            place(&db)
        ))
    })?;
    match args.format {
        DiffFormat::Table => print_table(&found, out),
        DiffFormat::Json => {
            let _ = writeln!(out, "{}", found.to_json());
        }
    }
    Ok(found)
}

/// The database's file, or what an in-memory one is.
fn place(db: &History) -> String {
    match db.place() {
        crate::history::Place::Memory => {
            "the demo's history, kept in memory (--history FILE keeps snapshots)".to_owned()
        }
        place => place.to_string(),
    }
}

/// The two snapshots to compare, from the scope's snapshots (newest first): the latest, and the
/// one before it or the newest taken before `since`.
fn pick(runs: &[Snapshot], since: Option<chrono::NaiveDate>) -> Result<(i64, i64), String> {
    let latest = runs.first().ok_or("there is no snapshot")?;
    let older = match since {
        Some(day) => {
            let start = day.and_time(chrono::NaiveTime::MIN).and_utc();
            runs.iter()
                .find(|s| s.taken < start)
                .ok_or_else(|| format!("there is no snapshot taken before {day}"))?
        }
        None => runs
            .get(1)
            .ok_or("there is only one snapshot (two are compared)")?,
    };
    Ok((older.id, latest.id))
}

fn when(s: &Snapshot) -> String {
    format::utc_time_seconds(s.taken)
}

/// The changes, one a line, under a line naming both snapshots.
fn print_table(diff: &Diff, out: &mut dyn Write) {
    let n = diff.changes.len();
    let _ = writeln!(
        out,
        "from snapshot {} ({}) to snapshot {} ({}): {}",
        diff.from.id,
        when(&diff.from),
        diff.to.id,
        when(&diff.to),
        match n {
            0 => "no changes".to_owned(),
            n => format!("{} changed", format::count(n as u64, "record")),
        }
    );
    let width = diff
        .changes
        .iter()
        .map(|c| noun(c.resource).len() + 1 + c.label.len())
        .max()
        .unwrap_or(0);
    for c in &diff.changes {
        let who = format!("{} {}", noun(c.resource), c.label);
        match &c.kind {
            Kind::Added => {
                let _ = writeln!(out, "{who:<width$}  added");
            }
            Kind::Removed => {
                let _ = writeln!(out, "{who:<width$}  removed");
            }
            Kind::Changed { fields } => {
                for f in fields {
                    let _ = writeln!(out, "{who:<width$}  {f}");
                }
            }
        }
    }
}

/// Runs `taxdash watch`: a snapshot every `--every`, the changes since the previous one
/// printed; answers only on an error, on a signal, or (with `--exit-on-change`) on a change,
/// as the failure with [`EXIT_CHANGED`].
pub async fn watch(
    ctx: &Context,
    args: &WatchArgs,
    service: Service,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    transactions_range(args.transactions)?;
    let mut db = ctx
        .open_history(matches!(service, Service::Demo(_)))
        .await?;
    let (client, sandbox, profile) = connect(ctx, service).await?;
    let signals = listen(Signal::ENDING)
        .map_err(|e| CommandFailure::new(format!("could not listen to signals: {e}")))?;
    let result = tokio::select! {
        r = watch_loop(&client, &mut db, &profile, args, out) => r,
        signal = first(signals) => Err(CommandFailure {
            message: signal.outcome(),
            exit_code: signal.exit_code(),
        }),
    };
    if let Some(sandbox) = sandbox {
        sandbox.stop().await;
    }
    result
}

async fn watch_loop(
    client: &Client,
    db: &mut History,
    profile: &str,
    args: &WatchArgs,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    let plan = Plan::new(args.transactions);
    let scope = scope_of(client, profile, &plan);
    loop {
        let started = tokio::time::Instant::now();
        let progress = Progress::start();
        let taken = take_and_compare(client, db, &scope, &plan, |r| progress.list(r)).await;
        progress.finish();
        match taken {
            Ok((taken, found)) => {
                let _ = writeln!(out, "{}", stored(&taken));
                if let Some(found) = found {
                    print_table(&found, out);
                    let _ = out.flush();
                    if args.exit_on_change && !found.is_empty() {
                        return Err(CommandFailure {
                            message: format!(
                                "{} changed between snapshots {} and {}",
                                plural(found.changes.len()),
                                found.from.id,
                                found.to.id
                            ),
                            exit_code: EXIT_CHANGED,
                        });
                    }
                }
                let _ = out.flush();
                if let Some(keep) = args.keep
                    && let Err(e) = db.prune_snapshots(key(&scope), keep as usize)
                {
                    if !e.is_unreachable() {
                        return Err(e.into());
                    }
                    let _ = writeln!(
                        std::io::stderr(),
                        "taxdash: {e}; pruning at the next period"
                    );
                }
            }
            // A team's server away for a while is waited for, as a service away is; a history
            // that refuses the snapshot for good (a file that cannot be written) ends the watch.
            Err(crate::history::capture::CaptureError::History(e)) if !e.is_unreachable() => {
                return Err(e.into());
            }
            Err(e) => {
                let _ = writeln!(
                    std::io::stderr(),
                    "taxdash: {e}; trying again in {}",
                    humantime(args.every)
                );
            }
        }
        tokio::time::sleep_until(started + args.every).await;
    }
}

fn plural(n: usize) -> String {
    format::count(n as u64, "record")
}

/// A period as it was written: `1h`, `15m`, `30s`.
fn humantime(d: Duration) -> String {
    let s = d.as_secs();
    if s.is_multiple_of(86_400) {
        format!("{}d", s / 86_400)
    } else if s.is_multiple_of(3600) {
        format!("{}h", s / 3600)
    } else if s.is_multiple_of(60) {
        format!("{}m", s / 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, NaiveDate, Utc};

    use super::*;

    fn run(id: i64, day: u32) -> Snapshot {
        Snapshot {
            id,
            taken: DateTime::<Utc>::from_naive_utc_and_offset(
                NaiveDate::from_ymd_opt(2026, 11, day)
                    .unwrap()
                    .and_hms_opt(12, 0, 0)
                    .unwrap(),
                Utc,
            ),
            scope: Scope {
                profile: "p".into(),
                organization: "o".into(),
                api: "v1".into(),
                transactions: None,
            },
            records: 0,
            taken_by: String::new(),
            uid: String::new(),
        }
    }

    #[test]
    fn since_picks_the_newest_snapshot_before_the_day_and_the_latest() {
        let runs = [run(4, 20), run(3, 10), run(2, 9), run(1, 1)];
        assert_eq!(pick(&runs, None), Ok((3, 4)));
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d);
        assert_eq!(pick(&runs, day(10)), Ok((2, 4)));
        assert_eq!(pick(&runs, day(11)), Ok((3, 4)));
        assert!(
            pick(&runs, day(1))
                .unwrap_err()
                .contains("before 2026-11-01")
        );
        assert!(pick(&runs[..1], None).unwrap_err().contains("only one"));
        assert!(pick(&[], None).is_err());
    }

    #[test]
    fn periods_read_as_written() {
        use crate::cli::parse_every;
        assert_eq!(parse_every("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_every("15m"), Ok(Duration::from_mins(15)));
        assert_eq!(parse_every("1h"), Ok(Duration::from_hours(1)));
        assert_eq!(parse_every("2d"), Ok(Duration::from_hours(48)));
        assert!(parse_every("0s").is_err());
        assert!(parse_every("1w").is_err());
        assert!(parse_every("h").is_err());
        assert_eq!(humantime(Duration::from_mins(15)), "15m");
    }
}
