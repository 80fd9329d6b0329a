//! `taxdash completions SHELL` and `taxdash man`: the shell completion scripts and the manual
//! page, generated from the command line's own definition ([`crate::cli::Cli`]), so they never
//! fall behind a flag.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use super::CommandFailure;
use crate::cli::Cli;

/// Writes the completion script for `shell` to `out`.
pub fn completions(shell: Shell, out: &mut dyn Write) -> Result<(), CommandFailure> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "taxdash", &mut script);
    out.write_all(&script)
        .map_err(|e| CommandFailure::new(format!("cannot write the completion script: {e}")))
}

/// Writes the manual page (roff, section 1) to `out`; with `dir`, writes instead `taxdash.1`
/// and one page per subcommand (`taxdash-export.1`, `taxdash-check-filings.1`, …) into it and
/// names them on `out`.
pub fn man(dir: Option<&Path>, out: &mut dyn Write) -> Result<(), CommandFailure> {
    let failed =
        |e: std::io::Error| CommandFailure::new(format!("cannot write the manual page: {e}"));
    let Some(dir) = dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(Cli::command())
            .render(&mut page)
            .map_err(failed)?;
        return out.write_all(&page).map_err(failed);
    };
    if !dir.is_dir() {
        return Err(CommandFailure::new(format!(
            "{} is not a directory: --dir names the folder the pages go to",
            dir.display()
        )));
    }
    clap_mangen::generate_to(Cli::command(), dir).map_err(failed)?;
    let mut pages = Vec::new();
    page_names(&Cli::command(), "taxdash", &mut pages);
    pages.sort();
    writeln!(
        out,
        "{} in {}: {}",
        crate::model::format::count(pages.len() as u64, "page"),
        dir.display(),
        pages.join(", ")
    )
    .map_err(failed)
}

/// The file names `clap_mangen::generate_to` gives `command` (named `name`) and its
/// subcommands: `taxdash.1`, `taxdash-check-filings.1`.
fn page_names(command: &clap::Command, name: &str, out: &mut Vec<String>) {
    out.push(format!("{name}.1"));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        page_names(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}
