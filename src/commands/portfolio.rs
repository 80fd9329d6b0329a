//! `taxdash portfolio`: the Portfolio tab's table on stdout, for a scheduled job. Every count is
//! the one the organization's Overview shows (the same reads, the same tiles); exits 3 when an
//! organization has a return overdue.

use std::io::Write;

use serde::Serialize;

use super::{CommandFailure, Context, export::Service};
use crate::checks;
use crate::cli::CheckFormat;
use crate::ui::judging::Judging;
use crate::ui::panes::portfolio::columns::{COLUMNS, Counts};

/// One organization as written: CSV and the table write each count as the dashboard does
/// (`100+`, `?` for a count that could not be made); JSON writes numbers, `null` for those.
#[derive(Serialize)]
struct Line {
    organization_id: String,
    organization: String,
    counts: serde_json::Map<String, serde_json::Value>,
    /// Whether the counts are whole (`false`: a list was longer than read, or failed).
    complete: bool,
    status: String,
}

/// Runs `taxdash portfolio`.
pub async fn run(
    ctx: &Context,
    format: CheckFormat,
    service: Service,
    out: &mut dyn Write,
) -> Result<(), CommandFailure> {
    let connected = super::connect(ctx, service).await?;
    let client = &connected.client;
    if client.generation().api_version().is_none() {
        connected.close().await;
        return Err(CommandFailure::new(
            "the portfolio lists the organizations of a Tenanted API key, and this profile \
             speaks v1: add --api tenanted (or set the profile's api)",
        ));
    }
    let organizations = match crate::app::portfolio::organizations(client).await {
        Ok(organizations) => organizations,
        Err(failure) => {
            connected.close().await;
            return Err(CommandFailure::new(format!(
                "cannot list the organizations: {}",
                failure.message
            )));
        }
    };
    let judging = Judging {
        filing_tolerance: ctx
            .load_config()
            .map(|c| c.checks.filing_tolerance())
            .unwrap_or_default(),
    };
    let read = crate::app::portfolio::read_overviews(
        client,
        &organizations,
        crate::clock::today(),
        judging,
    )
    .await;
    connected.close().await;
    let mut rows: Vec<(Counts, &crate::model::tenanted::Organization)> =
        read.iter().map(Counts::of).zip(&organizations).collect();
    rows.sort_by(|(a, oa), (b, ob)| b.urgency().cmp(&a.urgency()).then(oa.name.cmp(&ob.name)));
    let lines: Vec<Line> = rows
        .iter()
        .map(|(counts, o)| Line {
            organization_id: o.id.clone(),
            organization: o.name.clone(),
            counts: COLUMNS
                .iter()
                .zip(&counts.cells)
                .map(|(c, (count, _))| (c.key.to_owned(), count.value().into()))
                .collect(),
            complete: counts
                .cells
                .iter()
                .all(|(c, _)| matches!(c, crate::ui::panes::overview::tiles::Count::Exact(_))),
            status: counts
                .failure()
                .map_or_else(|| "read".to_owned(), |why| format!("cannot be read: {why}")),
        })
        .collect();
    let mut header = vec!["organization_id", "organization"];
    header.extend(COLUMNS.iter().map(|c| c.key));
    header.push("status");
    super::check::print(&lines, format, out, &header, |line| {
        let (counts, _) = &rows
            .iter()
            .find(|(_, o)| o.id == line.organization_id)
            .expect("a line of each row");
        let mut cells = vec![line.organization_id.clone(), line.organization.clone()];
        cells.extend(counts.cells.iter().map(|(c, _)| c.label()));
        cells.push(line.status.clone());
        cells
    })
    .map_err(|e| CommandFailure::new(format!("cannot write: {e}")))?;
    let overdue = rows.iter().filter(|(c, _)| c.overdue()).count();
    if overdue == 0 {
        return Ok(());
    }
    Err(CommandFailure {
        message: format!(
            "{} with a return overdue",
            crate::model::format::count(overdue as u64, "organization")
        ),
        exit_code: u8::try_from(checks::EXIT_FINDINGS).unwrap_or(3),
    })
}
