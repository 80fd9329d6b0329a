use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use taxdash::app::{DashboardOptions, Ended, SnapshotChoice};
use taxdash::cli::{Cli, Command, HistoryCommand, SandboxCommand, ServeArgs};
use taxdash::commands::{self, CommandFailure, Context};
use taxdash::sandbox::{
    DEMO_CREDENTIALS, DEMO_PARTNER_KEY, DEMO_SESSION_MEMBER, DEMO_SESSION_OWNER, Sandbox,
    SandboxConfig,
};

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.today.is_some() {
        taxdash::clock::fix_today(cli.today);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("taxdash: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut ctx = Context::from_cli(cli.profile.clone(), cli.config.as_deref());
    ctx.history.clone_from(&cli.history);
    // The person the audit log and the snapshots name: the config file's `who`.
    taxdash::history::who::name_as(ctx.load_config().ok().and_then(|c| c.who).as_deref());
    let mut stdout = std::io::stdout();
    // The commands log to the dashboard's file; the dashboard opens it itself, and `sandbox
    // serve` logs to its terminal.
    let _log = match cli.command {
        None | Some(Command::Sandbox(_)) => None,
        Some(_) => commands::start_log(),
    };
    let result: Result<(), CommandFailure> = match cli.command {
        Some(ref command) if cli.demo && !command.takes_demo() => {
            Err(CommandFailure::new(format!(
                "--demo does not apply to `{}`; it runs the dashboard, `export`, `import`, `check`, `audit`, \
             `nexus`, `snapshot`, `diff` or `watch` on the demo sandbox",
                command.name()
            )))
        }
        Some(ref command) if cli.offline => Err(CommandFailure::new(format!(
            "--offline opens the dashboard on a snapshot; it does not apply to `{}`",
            command.name()
        ))),
        Some(Command::Sandbox(SandboxCommand::Serve(args))) => {
            runtime.block_on(serve(args)).map_err(CommandFailure::new)
        }
        Some(Command::Login(args)) => runtime
            .block_on(commands::login::login(
                &ctx,
                &args,
                &mut commands::login::StdinPrompt,
                &mut stdout,
            ))
            .map_err(CommandFailure::from),
        Some(Command::Logout) => runtime
            .block_on(commands::login::logout(&ctx, &mut stdout))
            .map_err(CommandFailure::from),
        Some(Command::Profiles) => runtime
            .block_on(commands::login::profiles(&ctx, &mut stdout))
            .map_err(CommandFailure::from),
        Some(Command::Export(args)) => runtime
            .block_on(commands::export::run(
                &ctx,
                &args,
                if cli.demo {
                    commands::export::Service::Demo(cli.api.map(taxdash::cli::ApiFlag::kind))
                } else {
                    commands::export::Service::Profile
                },
            ))
            .map(drop)
            .map_err(CommandFailure::from),
        Some(Command::Check(ref args)) => runtime.block_on(commands::check::check(
            &ctx,
            &args.check,
            service(&cli),
            &mut stdout,
        )),
        Some(Command::Nexus(ref args)) => runtime.block_on(commands::check::nexus(
            &ctx,
            &args.command,
            service(&cli),
            &mut stdout,
        )),
        Some(Command::Portfolio { format }) => {
            // The demo's portfolio is the partner key's: the Tenanted API unless asked otherwise.
            let service = if cli.demo {
                commands::export::Service::Demo(Some(cli.api.map_or(
                    taxdash::config::ApiKind::Tenanted,
                    taxdash::cli::ApiFlag::kind,
                )))
            } else {
                service(&cli)
            };
            runtime.block_on(commands::portfolio::run(&ctx, format, service, &mut stdout))
        }
        Some(Command::Audit(ref args)) => {
            runtime.block_on(commands::audit::run(&ctx, args, cli.demo, &mut stdout))
        }
        Some(Command::Import(ref args)) => runtime.block_on(commands::import::run(
            &ctx,
            args,
            service(&cli),
            &mut stdout,
        )),
        Some(Command::Snapshot(ref args)) => runtime
            .block_on(commands::snapshot::snapshot(
                &ctx,
                args,
                service(&cli),
                &mut stdout,
            ))
            .map(drop),
        Some(Command::Diff(ref args)) => runtime
            .block_on(commands::snapshot::diff(
                &ctx,
                args,
                service(&cli),
                &mut stdout,
            ))
            .map(drop),
        Some(Command::Watch(ref args)) => runtime.block_on(commands::snapshot::watch(
            &ctx,
            args,
            service(&cli),
            &mut stdout,
        )),
        Some(Command::History(HistoryCommand::Copy { ref from, ref to })) => {
            commands::history::copy_between(from, to, &mut stdout, &mut std::io::stderr()).map(drop)
        }
        Some(Command::History(HistoryCommand::Login { ref url })) => {
            runtime.block_on(commands::history::login(&ctx, url, &mut stdout))
        }
        Some(Command::History(HistoryCommand::Logout { ref url })) => {
            runtime.block_on(commands::history::logout(&ctx, url, &mut stdout))
        }
        Some(Command::Completions { shell }) => commands::manual::completions(shell, &mut stdout),
        Some(Command::Man { ref dir }) => commands::manual::man(dir.as_deref(), &mut stdout),
        None => match runtime.block_on(dashboard(cli)) {
            Ok(Ended::Signal(signal)) => Err(CommandFailure {
                message: signal.outcome(),
                exit_code: signal.exit_code(),
            }),
            Ok(Ended::TerminalGone) => Err(CommandFailure {
                message: taxdash::app::input::GONE.to_owned(),
                exit_code: taxdash::app::EXIT_TERMINAL_GONE,
            }),
            Ok(_) => Ok(()),
            Err(e) => Err(CommandFailure::new(e)),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // Not eprintln!: after SIGHUP the terminal may be gone, and a failed write must
            // not turn into a panic.
            let _ = writeln!(std::io::stderr(), "taxdash: {failure}");
            ExitCode::from(failure.exit_code)
        }
    }
}

/// Where the commands that read the service read from: the demo sandbox or the profile's.
fn service(cli: &Cli) -> commands::export::Service {
    if cli.demo {
        commands::export::Service::Demo(cli.api.map(taxdash::cli::ApiFlag::kind))
    } else {
        commands::export::Service::Profile
    }
}

async fn dashboard(cli: Cli) -> Result<Ended, Box<dyn std::error::Error>> {
    let options = DashboardOptions {
        demo: cli.demo,
        profile: cli.profile,
        config: cli.config,
        read_only: cli.read_only,
        no_mouse: cli.no_mouse,
        theme: cli.theme,
        api: cli.api.map(taxdash::cli::ApiFlag::kind),
        history: cli.history,
        offline: cli.offline.then_some(
            cli.snapshot
                .map_or(SnapshotChoice::Latest, SnapshotChoice::Id),
        ),
        portfolio: cli.portfolio,
    };
    taxdash::app::run_dashboard(options)
        .await
        .map_err(|e| e as Box<dyn std::error::Error>)
}

async fn serve(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let config = SandboxConfig {
        seed: args.seed,
        scale: args.scale,
        state_file: args.state.clone(),
        latency: Duration::from_millis(args.latency_ms),
        error_rate: args.error_rate,
        rate_limit_per_min: args.rate_limit,
        processing_delay: Duration::from_millis(args.processing_delay_ms),
        anchor: args.anchor,
    };
    if args.anchor.is_some() {
        // The sandbox answers as on the day its data is built around.
        taxdash::clock::fix_today(args.anchor);
    }
    let sandbox =
        Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, args.port))).await?;
    let url = sandbox.base_url();
    println!("taxdash sandbox: serving the v1 interface at {url}/v1 and the Tenanted API at {url}");
    for (org, key) in DEMO_CREDENTIALS {
        println!("  organization {org}  key {key}");
    }
    println!(
        "  Tenanted only: partner key {DEMO_PARTNER_KEY} (both organizations); session tokens \
         {DEMO_SESSION_OWNER} (Owner), {DEMO_SESSION_MEMBER} (Member)"
    );
    let state = match &args.state {
        Some(path) => format!("writes saved to {}", path.display()),
        None => "writes kept in memory only (--state FILE saves them)".into(),
    };
    let limit = match args.rate_limit {
        0 => "no rate limit".to_owned(),
        n => format!("{n} requests/min per key"),
    };
    println!(
        "  seed {}, scale {}, today {}; {state}; {limit}",
        args.seed,
        args.scale,
        taxdash::clock::today()
    );
    println!(
        "try: curl -H 'x-api-key: demo-key-1' -H 'x-organization-id: orgn_demo_1' {url}/v1/registrations"
    );
    println!(
        "     curl -H 'Api-Key: {DEMO_PARTNER_KEY}' -H 'Api-Version: 2026-10-06' {url}/organizations"
    );
    println!("Ctrl-C stops it.");
    tokio::signal::ctrl_c().await?;
    println!("stopping");
    sandbox.stop().await;
    Ok(())
}
