//! What the portfolio shows of each organization: a few of its Overview's counts, taken from
//! the tiles its Overview makes ([`tiles`]), never counted again, and the order that puts the
//! organization that needs its person most first. The dashboard's table and `taxdash
//! portfolio` read them from here.

use crate::effect::Goto;
use crate::ui::panes::overview::data::Data;
use crate::ui::panes::overview::tiles::{Count, Tile, tiles};

/// One column: its heading, and the tile (by title) and entry (by its words; `None`: the
/// whole tile) of the Overview it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub heading: &'static str,
    /// The heading as a machine reads it (CSV, JSON).
    pub key: &'static str,
    tile: &'static str,
    entry: Option<&'static str>,
}

const fn column(
    heading: &'static str,
    key: &'static str,
    tile: &'static str,
    entry: Option<&'static str>,
) -> Column {
    Column {
        heading,
        key,
        tile,
        entry,
    }
}

/// The counts of the portfolio, in the order of the table.
pub const COLUMNS: [Column; 8] = [
    column("Overdue", "overdue", "Filings", Some("overdue")),
    column("Exposed", "exposed", "Exposed, not registered", None),
    column(
        "Not adding up",
        "not_adding_up",
        "Filings that do not add up",
        None,
    ),
    column("Due", "due", "Filings", Some("due in 30 days")),
    column("Approaching", "approaching", "Approaching thresholds", None),
    column(
        "Expiring",
        "expiring",
        "Exemptions",
        Some("expiring in 30 days"),
    ),
    column(
        "Registrations",
        "registrations_waiting",
        "Registrations waiting on you",
        None,
    ),
    column(
        "Transactions",
        "transactions_with_problems",
        "Transactions with problems",
        None,
    ),
];

/// The column that decides the exit status of `taxdash portfolio`: something overdue.
pub const OVERDUE: usize = 0;

impl Column {
    /// The count this column shows of the Overview's `tiles`, and the list it opens.
    pub fn cell(&self, tiles: &[Tile]) -> (Count, Option<Goto>) {
        let Some(tile) = tiles.iter().find(|t| t.title == self.tile) else {
            return (Count::Unavailable("not on the Overview"), None);
        };
        match self.entry {
            None => (tile.count(), tile.entries.first().map(|e| e.goto.clone())),
            Some(words) => tile
                .entries
                .iter()
                .find(|e| e.words() == words)
                .map_or((Count::Unavailable("not on the Overview"), None), |e| {
                    (e.count.clone(), Some(e.goto.clone()))
                }),
        }
    }
}

/// One organization's row: each column's count, as its Overview's tiles make it.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    pub cells: Vec<(Count, Option<Goto>)>,
}

impl Counts {
    /// The counts of the Overview that knows `data`.
    pub fn of(data: &Data) -> Counts {
        let tiles = tiles(data);
        Counts {
            cells: COLUMNS.iter().map(|c| c.cell(&tiles)).collect(),
        }
    }

    /// Why no count could be made, when none could: the organization cannot be read.
    pub fn failure(&self) -> Option<&str> {
        let mut why = None;
        for (count, _) in &self.cells {
            match count {
                Count::Failed(reason) => why = why.or(Some(reason.as_str())),
                Count::Unavailable(_) => {}
                _ => return None,
            }
        }
        why
    }

    /// Whether some count is still awaited.
    pub fn is_waiting(&self) -> bool {
        self.cells.iter().any(|(c, _)| *c == Count::Waiting)
    }

    /// The order of the portfolio, most pressing first: an organization that cannot be read,
    /// then by each column in turn, largest first (what is not known yet counts as none).
    pub fn urgency(&self) -> (bool, Vec<u64>) {
        (
            self.failure().is_some(),
            self.cells
                .iter()
                .map(|(c, _)| c.value().unwrap_or(0))
                .collect(),
        )
    }

    /// Whether the organization has something overdue.
    pub fn overdue(&self) -> bool {
        self.cells[OVERDUE].0.value().is_some_and(|n| n > 0)
    }
}
