//! `taxdash history`: a team's history. `copy` moves a history into another (a personal file
//! into the team's server, or back); `login` and `logout` keep a history server's password in
//! the OS keyring, as `login` keeps an API key.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;

use zeroize::Zeroizing;

use super::{CommandFailure, Context};
use crate::history::copy::{Copied, Step, copy};
use crate::history::server::connect::{ServerUrl, connect, forget_password, store_password};
use crate::history::{History, Location};

/// Where `--from` or `--to` points: a file or a server (not memory).
fn location(flag: &str, named: &Path) -> Result<Location, CommandFailure> {
    let location = Location::parse(named.as_os_str())
        .map_err(|e| CommandFailure::new(format!("{flag}: {e}")))?;
    Ok(location)
}

/// Runs `taxdash history copy --from FROM --to TO`, telling each step on `progress` (standard
/// error) and what was copied on `out`.
pub fn copy_between(
    from: &Path,
    to: &Path,
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<Copied, CommandFailure> {
    let (source, target) = (location("--from", from)?, location("--to", to)?);
    if source == target {
        return Err(CommandFailure::new(
            "--from and --to name the same history: nothing to copy",
        ));
    }
    if let Location::File(path) = &source
        && !path.exists()
    {
        return Err(CommandFailure::new(format!(
            "--from {}: there is no such file (nothing was copied)",
            path.display()
        )));
    }
    // The copy waits on both databases; a server's statements run on a thread of their own.
    let copied = History::open_at(&source)
        .and_then(|from| Ok((from, History::open_at(&target)?)))
        .and_then(|(from, mut to)| {
            copy(&from, &mut to, |step| {
                let _ = writeln!(progress, "{}", said(step));
            })
        })
        .map_err(|e| CommandFailure::new(format!("{e} (what was copied before stays)")))?;
    let _ = writeln!(
        out,
        "{copied}, from {} to {}",
        source.place(),
        target.place()
    );
    Ok(copied)
}

/// One step of a copy in words.
fn said(step: Step) -> String {
    match step {
        Step::Entries { copied, of } => format!("audit entries: {copied} of {of} copied"),
        Step::Snapshot { done, of, records } => {
            format!("snapshots: {done} of {of} ({records} records)")
        }
    }
}

/// The server `url` names, or why it is not one.
fn server(url: &str) -> Result<ServerUrl, CommandFailure> {
    match Location::parse(std::ffi::OsStr::new(url)).map_err(CommandFailure::new)? {
        Location::Server(url) => Ok(url),
        _ => Err(CommandFailure::new(format!(
            "{url} is not a history server's URL: postgres://USER@HOST:PORT/DB"
        ))),
    }
}

/// Runs `taxdash history login URL`: reads the password (without echo on a terminal, else one
/// line of standard input), checks it by connecting, then keeps it in the OS keyring. Nothing
/// is kept when the server refuses it.
pub async fn login(ctx: &Context, url: &str, out: &mut dyn Write) -> Result<(), CommandFailure> {
    let url = server(url)?;
    if url.has_password() {
        return Err(CommandFailure::new(
            "the URL holds a password: name the server without it, and type the password when asked",
        ));
    }
    let password = Zeroizing::new(read_password(&url)?);
    if password.is_empty() {
        return Err(CommandFailure::new(
            "no password was given: nothing was kept",
        ));
    }
    let (store, checked) = (ctx.store.clone(), url.clone());
    let given = password.clone();
    tokio::task::spawn_blocking(move || {
        let env = move |name: &str| {
            (name == crate::history::server::connect::ENV_PASSWORD).then(|| given.to_string())
        };
        connect(
            &checked,
            &crate::credentials::KeyStore::unavailable("checked"),
            &env,
        )
        .map(drop)
        .map_err(|e| CommandFailure::new(format!("{e}: the password was not kept")))?;
        store_password(&store, &checked, &password).map_err(CommandFailure::new)
    })
    .await
    .map_err(|e| CommandFailure::new(format!("the keyring could not be reached: {e}")))??;
    let _ = writeln!(
        out,
        "the password of {} is kept in the OS keyring",
        url.redacted()
    );
    Ok(())
}

/// Runs `taxdash history logout URL`: removes the password kept for the server.
pub async fn logout(ctx: &Context, url: &str, out: &mut dyn Write) -> Result<(), CommandFailure> {
    let url = server(url)?;
    let (store, named) = (ctx.store.clone(), url.clone());
    let removed = tokio::task::spawn_blocking(move || forget_password(&store, &named))
        .await
        .map_err(|e| CommandFailure::new(format!("the keyring could not be reached: {e}")))?
        .map_err(CommandFailure::new)?;
    let _ = if removed {
        writeln!(
            out,
            "the password of {} was removed from the OS keyring",
            url.redacted()
        )
    } else {
        writeln!(
            out,
            "no password of {} was kept in the OS keyring",
            url.redacted()
        )
    };
    Ok(())
}

fn read_password(url: &ServerUrl) -> Result<String, CommandFailure> {
    let read = if io::stdin().is_terminal() {
        rpassword::prompt_password(format!("password of {} (not shown): ", url.redacted()))
    } else {
        let mut line = String::new();
        io::stdin().lock().read_line(&mut line).map(|_| line)
    };
    read.map(|p| p.trim_end_matches(['\r', '\n']).to_owned())
        .map_err(|e| CommandFailure::new(format!("the password could not be read: {e}")))
}
