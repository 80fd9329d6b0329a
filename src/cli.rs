//! The command line.

use std::path::PathBuf;

use chrono::NaiveDate;
use clap::{Args, Parser, Subcommand};

use crate::effect::Format;
use crate::effect::ImportResource;
use crate::export::FilterFlags;
use crate::model::Resource;

/// A keyboard-driven terminal dashboard for sales-tax compliance.
///
/// With no command, opens the dashboard on the default profile. `--demo` opens it on the
/// embedded sandbox instead: no account, no key, no config file; the commands that read the
/// service (`export --demo`, `check --demo`, …) run on that sandbox the same way. `--today DAY` takes DAY as today, and dates the demo data
/// around it.
#[derive(Debug, Parser)]
#[command(name = "taxdash", version, about, long_about)]
#[expect(clippy::struct_excessive_bools)] // each is a flag of its own
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Run on the embedded sandbox with demo data instead of a profile's service: the dashboard,
    /// `export`, `import`, `check`, `nexus`, `snapshot`, `diff` or `watch` (touches neither the
    /// keyring nor the config file).
    #[arg(long, global = true, conflicts_with = "profile")]
    pub demo: bool,

    /// The profile to use (default: the config file's default profile).
    #[arg(long, global = true, env = "TAXDASH_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,

    /// The config file (default: config.toml in the platform config directory).
    #[arg(long, global = true, env = "TAXDASH_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    // The help text names PostgreSQL as people write it, not as code.
    #[expect(clippy::doc_markdown)]
    /// The history: the audit log and the snapshots, in a file or on a team's PostgreSQL server
    /// (postgres://USER@HOST:PORT/DB; its password from PGPASSWORD, the keyring or ~/.pgpass).
    /// Default: the profile's `history` key, else history.db in the platform data directory;
    /// with --demo, kept for the session unless named.
    #[arg(long, global = true, env = "TAXDASH_HISTORY", value_name = "FILE|URL")]
    pub history: Option<PathBuf>,

    /// Hide and refuse every change: browse only.
    #[arg(long)]
    pub read_only: bool,

    /// Open the dashboard on a snapshot of the history database instead of the service: the
    /// latest of the profile's organization (with --demo, the latest in the --history file).
    /// Every list, filter, sort and detail works; changes are refused. Needs no network and no
    /// key.
    #[arg(long)]
    pub offline: bool,

    /// With --offline: the snapshot to open, by id (default: the latest).
    #[arg(long, value_name = "ID", requires = "offline")]
    pub snapshot: Option<i64>,

    /// Open on the Portfolio: every organization the Tenanted key reaches, a row each with its
    /// Overview's counts, the one that needs you most first (with --demo, the partner key).
    #[arg(long, conflicts_with = "offline")]
    pub portfolio: bool,

    /// Leave the mouse to the terminal (its own selection and copy) instead of clicking tabs,
    /// rows and buttons; the config file's `mouse = false` does the same.
    #[arg(long)]
    pub no_mouse: bool,

    /// Colour theme: dark, light, high-contrast or mono (`NO_COLOR` selects mono).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,

    /// Take DAY (YYYY-MM-DD) as today everywhere: what is overdue, due soon or expiring is
    /// counted from it, in the dashboard and in `export`, and with --demo the demo data is dated
    /// around it (default: the local date).
    #[arg(long, global = true, value_name = "YYYY-MM-DD", value_parser = parse_day)]
    pub today: Option<NaiveDate>,

    /// The API to speak, over the profile's `api` and `TAXDASH_API`: `v1`, or `tenanted` (the
    /// dated Tenanted API, at the profile's `api_version` or the latest release; with --demo, on
    /// a partner key reaching both demo organizations).
    #[arg(long, value_enum, value_name = "API")]
    pub api: Option<ApiFlag>,
}

/// The values of `--api`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ApiFlag {
    V1,
    Tenanted,
}

impl ApiFlag {
    /// The interface the flag asks for.
    pub fn kind(self) -> crate::config::ApiKind {
        match self {
            ApiFlag::V1 => crate::config::ApiKind::V1,
            ApiFlag::Tenanted => crate::config::ApiKind::Tenanted,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The local sandbox of the service.
    #[command(subcommand)]
    Sandbox(SandboxCommand),
    /// Check an API key against the service, then keep it in the OS keyring and save the
    /// profile.
    ///
    /// The key is read without echo when stdin is a terminal; otherwise one line is read from
    /// stdin, for scripts: `printf '%s\n' "$KEY" | taxdash login --organization ORG`. Nothing is
    /// stored unless the service accepts the key for the organization.
    Login(LoginArgs),
    /// Delete the profile's API key from the OS keyring (the profile itself stays).
    Logout,
    /// List the profiles and where each one's key is kept.
    Profiles,
    /// Write every record of a list to CSV, JSON or JSON Lines.
    ///
    /// Uses the profile's settings, overridden by `TAXDASH_API_KEY`, `TAXDASH_ORGANIZATION_ID` and
    /// `TAXDASH_BASE_URL`; with --demo, the embedded sandbox's demo data instead (no profile, no
    /// key). Every filter of the dashboard's lists is a flag below; --overdue, --due-within,
    /// --expiring-within and --expired-within count from today and are applied here to every
    /// page read, so all pages are read and only the matching rows written. Exits with 130 on
    /// Ctrl-C and leaves no partial --out file.
    Export(Box<ExportArgs>),
    /// Checks: exempt sales without a valid certificate, filings that do not add up.
    ///
    /// `exemptions`: exempt sales without a certificate valid on the day of the sale. `filings`:
    /// tax collected against the liability, sales against the filing's transactions. Reads at the service's pace with a progress line on a terminal; takes --demo and the
    /// profile options like `export`. Exits 0 when clean, 3 with findings, other non-zero on
    /// errors.
    Check(CheckArgs),
    /// Economic nexus: when each state will be crossed at the current pace.
    ///
    /// `forecast` says when each state approaching or below its threshold will be crossed at the
    /// pace of the last 90 days. Exits 0 when none will cross this period, 3 when some will,
    /// other non-zero on errors.
    Nexus(NexusArgs),
    /// Every organization the Tenanted key reaches, a row each with its Overview's counts, the
    /// one that needs you most first: the Portfolio tab's table.
    ///
    /// Each count is the one the organization's Overview shows. Takes --demo (the partner key)
    /// and the profile options like `export`. Exits 0, or 3 when an organization has a return
    /// overdue (for a scheduled job), other non-zero on errors.
    Portfolio {
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
    },
    /// List the changes taxdash has sent, newest first (the audit log).
    ///
    /// From the audit log in the history database, whatever sent them (the dashboard or a
    /// command): when, profile, organization, API, method and
    /// path, record, outcome (ok, refused, failed, unknown, pending), HTTP status and the
    /// service's request id. Bodies are kept with secrets removed; `json`/`jsonl` include them.
    Audit(AuditArgs),
    /// Create or update records from a CSV, JSON or JSON Lines file, checked row by row first.
    ///
    /// The columns are those `export` writes for the same resource (plus `tax_id` for customers,
    /// `certificate` for exemptions, `external_product_id` and `quantity` for transactions).
    /// Every row is checked by the rules the dashboard's forms use before anything is sent; a
    /// run refuses to start while any row fails (unless --skip-invalid). Rows are sent at the
    /// service's pace and each outcome is written to FILE.results.csv as it is known; Ctrl-C
    /// finishes the rows in flight and stops. Uses the profile like `export`, or the demo
    /// sandbox with --demo.
    Import(Box<ImportArgs>),
    /// Read registrations, economic and physical nexus, exemptions, customers and filings (and
    /// transactions with --transactions) and store them as one snapshot in the history database.
    ///
    /// Uses the profile as `export` does; with --demo, the demo sandbox (and, unless --history
    /// names a file, a database in memory). Nothing is stored when a list cannot be read whole.
    /// Prints the new snapshot's id and what it holds.
    Snapshot(SnapshotArgs),
    /// List what changed between two snapshots: records added, removed, and each changed field
    /// with its old and new value.
    ///
    /// Default: the two latest snapshots of the profile's organization (with --demo, of the
    /// demo's). Reads the history database only.
    Diff(DiffArgs),
    /// A team's history: copy one history into another, keep a history server's password.
    ///
    /// `copy --from FILE --to postgres://USER@HOST:PORT/DB` moves a personal history into the
    /// team's (and back, the other way round): every audit entry and snapshot the target does
    /// not hold yet, each once however often it runs. `login URL` keeps the server's password
    /// in the OS keyring (checked by connecting first; read without echo, or one line from
    /// stdin), `logout URL` removes it.
    #[command(subcommand)]
    History(HistoryCommand),
    /// Take a snapshot every period and print what changed since the previous one.
    ///
    /// With --exit-on-change, exits with 3 at the first change (for cron and CI); errors exit
    /// with another non-zero code. A list that cannot be read is reported and tried again at the
    /// next period.
    Watch(WatchArgs),
    /// Print the completion script for a shell, generated from this command line.
    ///
    /// bash: `taxdash completions bash > ~/.local/share/bash-completion/completions/taxdash`;
    /// zsh: `taxdash completions zsh > ~/.zfunc/_taxdash` (with `fpath+=~/.zfunc` before
    /// `compinit`); fish: `taxdash completions fish > ~/.config/fish/completions/taxdash.fish`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), generated from this command line.
    ///
    /// `taxdash man > ~/.local/share/man/man1/taxdash.1`, then `man taxdash`; `--dir` writes a
    /// page for every subcommand as well (`man taxdash-export`).
    Man {
        /// Write taxdash.1 and one page per subcommand into DIR instead of printing.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The subcommands of `taxdash history`.
#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// Copy every audit entry and snapshot of one history that another does not hold yet.
    Copy {
        /// The history to copy from: a file, or a server's `postgres://` URL.
        #[arg(long, value_name = "FILE|URL")]
        from: PathBuf,
        /// The history to copy into (made when it is a file that does not exist yet).
        #[arg(long, value_name = "FILE|URL")]
        to: PathBuf,
    },
    /// Keep a history server's password in the OS keyring, once the server accepts it.
    Login {
        /// The server: postgres://USER@HOST:PORT/DB, without a password.
        url: String,
    },
    /// Remove a history server's password from the OS keyring.
    Logout {
        /// The server: postgres://USER@HOST:PORT/DB.
        url: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct SnapshotArgs {
    /// Also read the transactions dated FROM to TO (both included), e.g.
    /// `2026-01-01..2026-03-31`.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_range)]
    pub transactions: Option<(NaiveDate, NaiveDate)>,
    /// Then keep only the newest N snapshots of this profile and organization.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub keep: Option<u32>,
}

#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// Compare the newest snapshot taken before DAY (YYYY-MM-DD, UTC) with the latest.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day, conflicts_with_all = ["from", "to"])]
    pub since: Option<NaiveDate>,
    /// The older snapshot's id (with --to).
    #[arg(long, value_name = "ID", requires = "to")]
    pub from: Option<i64>,
    /// The newer snapshot's id (with --from).
    #[arg(long, value_name = "ID", requires = "from")]
    pub to: Option<i64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub format: DiffFormat,
}

/// The formats of `taxdash diff`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// One line per change: `nexus US-GA status APPROACHING -> EXPOSED`.
    #[default]
    Table,
    /// One JSON object: both snapshots and the changes.
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// How often to take a snapshot: `30s`, `15m`, `1h`, `1d`.
    #[arg(long, value_name = "DURATION", value_parser = parse_every)]
    pub every: std::time::Duration,
    /// Exit with 3 at the first change.
    #[arg(long)]
    pub exit_on_change: bool,
    /// After each snapshot, keep only the newest N of this profile and organization.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    pub keep: Option<u32>,
    /// Also read the transactions dated FROM to TO (both included).
    #[arg(long, value_name = "FROM..TO", value_parser = parse_range)]
    pub transactions: Option<(NaiveDate, NaiveDate)>,
}

/// How a check prints what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Aligned columns for a person.
    Table,
    Csv,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    #[command(subcommand)]
    pub check: CheckCommand,
}

#[derive(Debug, Clone, Subcommand)]
pub enum CheckCommand {
    /// Every fully or partially exempt sale from FROM to TO against its customer's exemptions:
    /// covered when one was in force on the day (started, not ended, not deactivated) for the
    /// sale's jurisdiction or its whole country; otherwise listed with the reason.
    Exemptions {
        /// The first day of the sales checked (default: 12 months before the last day, as
        /// `:check exemptions` in the dashboard).
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
        from: Option<NaiveDate>,
        /// The last day (default: today).
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
        to: Option<NaiveDate>,
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
    },
    /// Every filing: tax collected against the liability, and (for a period that has ended) its
    /// sales against the transactions the service says it covers. A difference over 5.0% and
    /// over 1.00 of the currency is listed, its share cut to one decimal as shown (`[checks]`
    /// in the config file changes both).
    Filings {
        /// Only periods starting on or after this day.
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
        from: Option<NaiveDate>,
        /// Only periods ending on or before this day.
        #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
        to: Option<NaiveDate>,
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
    },
}

#[derive(Debug, Clone, Args)]
pub struct NexusArgs {
    #[command(subcommand)]
    pub command: NexusCommand,
}

#[derive(Debug, Clone, Subcommand)]
pub enum NexusCommand {
    /// When each jurisdiction approaching or below its threshold will be crossed at the pace of
    /// the last 90 days, by its own rule (period model, sales or transactions), soonest first.
    Forecast {
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
    },
}

#[derive(Debug, Clone, Args)]
pub struct AuditArgs {
    /// Only changes started on or after DAY (YYYY-MM-DD, UTC).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
    pub since: Option<NaiveDate>,
    /// Only changes to RESOURCE: registrations, customers, exemptions, filings, transactions,
    /// `physical_nexus`, products, certificate-imports…
    #[arg(long, value_name = "RESOURCE")]
    pub resource: Option<String>,
    /// Only changes with OUTCOME: ok, refused, failed, unknown or pending.
    #[arg(long, value_name = "OUTCOME")]
    pub outcome: Option<String>,
    /// Only the changes sent by this person (part of the name, any case).
    #[arg(long, value_name = "NAME")]
    pub who: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
    pub format: AuditFormat,
}

/// How `taxdash audit` prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AuditFormat {
    /// Aligned columns for people.
    #[default]
    Table,
    /// A header line, then one row per entry (the body as JSON text in its column).
    Csv,
    /// One JSON array of the entries.
    Json,
    /// JSON Lines: one entry per line.
    Jsonl,
}

#[derive(Debug, Clone, Args)]
pub struct LoginArgs {
    /// Root URL of the service (default: the profile's, else the live service).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The organization to act as (default: the profile's).
    #[arg(long, visible_alias = "organization-id", value_name = "ID")]
    pub organization: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The list to export.
    #[arg(value_enum)]
    pub resource: Resource,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Write to FILE (replaced only when the export succeeds) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub filters: FilterFlags,
}

#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// What the file holds.
    #[arg(value_enum)]
    pub resource: ImportResource,
    /// The file: CSV (`,` or `;`, with or without a BOM), `.json` (an array) or `.jsonl`.
    pub file: PathBuf,
    /// Check every row and list the problems (row, column, value, rule); send nothing. Exits
    /// with 1 when any row fails.
    #[arg(long)]
    pub dry_run: bool,
    /// Send the rows that pass the checks and record the others as `invalid` in the results.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Continue the run whose results file this is: rows already done are skipped, rows that
    /// were on their way are looked up before being sent again.
    #[arg(long, value_name = "RESULTS")]
    pub resume: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// Serve the v1 interface and the Tenanted API on a loopback port, on demo data, until Ctrl-C.
    Serve(ServeArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Seed of the demo data: the same seed gives the same records.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Multiply the demo transactions (10,000 at 1; 100 gives a million).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub scale: u32,
    /// Save every accepted write to FILE (atomically) and resume from it on start.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Send every answer this many milliseconds after its request arrived (the sandbox's own work
    /// included, as on a service that far away).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub latency_ms: u64,
    /// Answer this share of requests (0 to 1) with 500 or 503.
    #[arg(long, value_name = "R", default_value_t = 0.0, value_parser = parse_rate)]
    pub error_rate: f64,
    /// Requests per minute per key before 429 (0: no limit).
    #[arg(long, value_name = "PER_MIN", default_value_t = 10_000)]
    pub rate_limit: u32,
    /// How long a created transaction stays QUEUED before its tax is calculated.
    #[arg(long, value_name = "MS", default_value_t = 2_000)]
    pub processing_delay_ms: u64,
    /// The day the demo data is built around, and that the sandbox answers as today: returns
    /// come due, certificates expire and the transactions end around it (default: --today, else
    /// the local date). A resumed --state keeps the day its records were made with.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_day)]
    pub anchor: Option<NaiveDate>,
}

/// A calendar day written `YYYY-MM-DD`.
fn parse_day(s: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .map_err(|_| format!("{s:?} is not a day written YYYY-MM-DD"))
}

/// A range of days written `FROM..TO`. One that ends before it starts is refused by the
/// command, as every range is ([`crate::rules::check_day_range`]).
fn parse_range(s: &str) -> Result<(NaiveDate, NaiveDate), String> {
    let (from, to) = s
        .split_once("..")
        .ok_or_else(|| format!("{s:?} is not a range written FROM..TO"))?;
    Ok((parse_day(from.trim())?, parse_day(to.trim())?))
}

/// A period written as a whole number and a unit: `30s`, `15m`, `1h`, `1d`.
pub fn parse_every(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let n: u64 = number
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{s:?} is not a period such as 30s, 15m, 1h or 1d"))?;
    let seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("{s:?} is not a period such as 30s, 15m, 1h or 1d")),
    };
    Ok(std::time::Duration::from_secs(n.saturating_mul(seconds)))
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let r: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if (0.0..=1.0).contains(&r) {
        Ok(r)
    } else {
        Err(format!("{r} is not between 0 and 1"))
    }
}

impl Command {
    /// The subcommand's name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Sandbox(_) => "sandbox",
            Command::Login(_) => "login",
            Command::Logout => "logout",
            Command::Profiles => "profiles",
            Command::Export(_) => "export",
            Command::Check(_) => "check",
            Command::Nexus(_) => "nexus",
            Command::Portfolio { .. } => "portfolio",
            Command::Audit(_) => "audit",
            Command::Import(_) => "import",
            Command::Snapshot(_) => "snapshot",
            Command::Diff(_) => "diff",
            Command::Watch(_) => "watch",
            Command::History(_) => "history",
            Command::Completions { .. } => "completions",
            Command::Man { .. } => "man",
        }
    }

    /// Whether `--demo` applies: only to the commands that read the service's lists (`login`
    /// checks a key against a real service, the others touch no service or serve the sandbox
    /// themselves).
    pub fn takes_demo(&self) -> bool {
        matches!(
            self,
            Command::Export(_)
                | Command::Audit(_)
                | Command::Import(_)
                | Command::Check(_)
                | Command::Nexus(_)
                | Command::Portfolio { .. }
                | Command::Snapshot(_)
                | Command::Diff(_)
                | Command::Watch(_)
        )
    }
}
