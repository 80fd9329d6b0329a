//! The portfolio: every organization the Tenanted key reaches, one row each, with its
//! Overview's counts as columns, the one that needs its person most first.
//!
//! Each organization is read as its Overview reads it ([`Reading`]), through a context that
//! makes the calls for that organization ([`Ctx::for_organization`]): the same calls, the same
//! key and its one rate limit, the same counts (see [`columns`]). Rows fill in as answers
//! arrive. An organization that cannot be read is a row that says why. `Enter` on a count
//! opens that organization's list behind it, on its name its Overview; the portfolio stays as
//! it is when the dashboard switches organization, and `ctrl-o` comes back to it.

pub mod columns;
mod draw;

use ratatui::Frame;
use ratatui::layout::Rect;

use self::columns::{COLUMNS, Counts};
use super::overview::reading::Reading;
use crate::effect::{Failure, OrganizationCall, OrganizationReply, Reply, RequestId};
use crate::model::PageParams;
use crate::model::tenanted::Organization;
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Level, Pane, PaneHint};
use crate::ui::theme::Theme;

/// The most organizations listed (one page).
const LISTED: u32 = 100;

/// One organization of the portfolio.
struct Member {
    organization: Organization,
    reading: Reading,
    counts: Counts,
}

/// How the list of organizations stands.
enum Listing {
    NotAsked,
    Asked(RequestId),
    Failed(String),
    Listed,
}

/// The Portfolio tab.
pub struct PortfolioPane {
    listing: Listing,
    members: Vec<Member>,
    /// The selected row (an organization's id, so that it stays put as rows move) and column
    /// (0: the organization; then [`COLUMNS`]).
    selected: Option<String>,
    column: usize,
    /// The order chosen with `s` / `S`: a count's column (most first, or fewest with `S`);
    /// `None`, most pressing first.
    sorted_by: Option<(usize, bool)>,
    /// How often every organization is read again by itself, as the Overview is (zero: only on
    /// `r`), and the ticks since the last reading.
    refresh_every: std::time::Duration,
    ticks: u64,
}

impl Default for PortfolioPane {
    fn default() -> Self {
        Self::new(super::overview::DEFAULT_REFRESH)
    }
}

impl PortfolioPane {
    /// A portfolio read again by itself every `every` (zero: never), as the Overview is.
    pub fn new(every: std::time::Duration) -> Self {
        PortfolioPane {
            listing: Listing::NotAsked,
            members: Vec::new(),
            selected: None,
            column: 0,
            sorted_by: None,
            refresh_every: every,
            ticks: 0,
        }
    }

    /// The organizations in the order shown: by the column `s` chose (ties most pressing
    /// first), or most pressing first; then by name.
    fn order(&mut self) {
        let sorted_by = self.sorted_by;
        self.members.sort_by(|a, b| {
            let by_column = sorted_by.map_or(std::cmp::Ordering::Equal, |(c, fewest)| {
                let n = |m: &Member| m.counts.cells[c].0.value().unwrap_or(0);
                if fewest {
                    n(a).cmp(&n(b))
                } else {
                    n(b).cmp(&n(a))
                }
            });
            by_column
                .then_with(|| b.counts.urgency().cmp(&a.counts.urgency()))
                .then_with(|| a.organization.name.cmp(&b.organization.name))
        });
    }

    /// `s` / `S`: sorts by the selected count, most (or, `fewest`, fewest) first; on the
    /// organization's name, back to most pressing first.
    fn sort(&mut self, fewest: bool) {
        self.sorted_by = self.column.checked_sub(1).map(|c| (c, fewest));
        self.order();
    }

    /// The row of the selection.
    fn row(&self) -> usize {
        self.selected
            .as_ref()
            .and_then(|id| self.members.iter().position(|m| &m.organization.id == id))
            .unwrap_or(0)
    }

    fn select_row(&mut self, row: usize) {
        self.selected = self.members.get(row).map(|m| m.organization.id.clone());
    }

    /// Asks for the organizations afresh; each is read once listed (the rows read before stay
    /// on screen until then).
    fn load(&mut self, ctx: &mut Ctx) {
        self.ticks = 0;
        for member in &self.members {
            member.reading.cancel(ctx);
        }
        if ctx.tenanted().is_none() {
            self.listing = Listing::Failed(
                "The portfolio lists the organizations of a Tenanted API key: start taxdash \
                 with --api tenanted (or --portfolio)."
                    .to_owned(),
            );
            return;
        }
        let id = ctx.call(
            OrganizationCall::List {
                page: PageParams::new(1, LISTED),
            }
            .into(),
        );
        self.listing = Listing::Asked(id);
    }

    /// The organizations are listed: each is read as its Overview reads it.
    fn listed(&mut self, organizations: Vec<Organization>, ctx: &mut Ctx) {
        let today = crate::clock::today();
        self.members = organizations
            .into_iter()
            .map(|organization| {
                let mut reading = Reading::new(today);
                reading.load(today, &mut ctx.for_organization(&organization.id));
                let counts = Counts::of(&reading.data);
                Member {
                    organization,
                    reading,
                    counts,
                }
            })
            .collect();
        self.listing = Listing::Listed;
        self.order();
        if self.selected.is_none() {
            self.select_row(0);
        }
    }

    /// `Enter`: the selected organization's Overview, or the list behind the selected count.
    fn open(&mut self, ctx: &mut Ctx) {
        let Some(member) = self.members.get(self.row()) else {
            return;
        };
        let then = match self.column.checked_sub(1) {
            None => None,
            Some(c) => match &member.counts.cells[c] {
                (crate::ui::panes::overview::tiles::Count::Unavailable(why), _) => {
                    ctx.notify(Level::Error, format!("{}: {why}", COLUMNS[c].heading));
                    return;
                }
                (_, goto) => goto.clone(),
            },
        };
        ctx.open_organization(member.organization.id.clone(), then);
    }
}

impl Pane for PortfolioPane {
    fn title(&self) -> &'static str {
        "Portfolio"
    }

    fn hints(&self) -> Vec<PaneHint> {
        vec![
            PaneHint::action(Action::Open, "open"),
            PaneHint::keys("↑↓←→", "choose"),
            PaneHint::action(Action::Sort, "sort by the count"),
            PaneHint::action(Action::JumpBack, "back here"),
            PaneHint::action(Action::Refresh, "refresh"),
        ]
    }

    fn show(&mut self, ctx: &mut Ctx) {
        if matches!(self.listing, Listing::NotAsked) {
            self.load(ctx);
        }
    }

    fn outlives_organization(&self) -> bool {
        true
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let row = self.row();
        match action {
            Action::Refresh => self.load(ctx),
            Action::Down => self.select_row((row + 1).min(self.members.len().saturating_sub(1))),
            Action::Up => self.select_row(row.saturating_sub(1)),
            Action::Top => self.select_row(0),
            Action::Bottom => self.select_row(self.members.len().saturating_sub(1)),
            Action::Right => self.column = (self.column + 1).min(COLUMNS.len()),
            Action::Left => self.column = self.column.saturating_sub(1),
            Action::Open => self.open(ctx),
            Action::Sort => self.sort(false),
            Action::SortReverse => self.sort(true),
            _ => return false,
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        if matches!(self.listing, Listing::Asked(asked) if asked == id) {
            match result {
                Ok(Reply::Organizations(OrganizationReply::Page(page))) => {
                    self.listed(page.items, ctx);
                }
                Ok(_) => self.listing = Listing::Failed("an unexpected answer".to_owned()),
                Err(failure) => self.listing = Listing::Failed(failure.message),
            }
            return;
        }
        let Some(member) = self.members.iter_mut().find(|m| m.reading.waits_for(id)) else {
            return;
        };
        let organization = member.organization.id.clone();
        member
            .reading
            .receive(id, result, &mut ctx.for_organization(&organization));
        member.counts = Counts::of(&member.reading.data);
        self.order();
    }

    /// Every `overview_refresh_minutes`, every organization is read again (once nothing is
    /// under way); meanwhile a transaction queued a minute is asked about again, as the
    /// Overview does, so that each row keeps its Overview's counts.
    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        if !matches!(self.listing, Listing::Listed) {
            return false;
        }
        self.ticks += 1;
        let every = self.refresh_every.as_secs() * super::overview::TICKS_PER_SECOND;
        if every > 0 && self.ticks >= every && self.members.iter().all(|m| m.reading.is_idle()) {
            self.load(ctx);
            return true;
        }
        let mut asked = false;
        for member in &mut self.members {
            let organization = member.organization.id.clone();
            if member
                .reading
                .check_queued(&mut ctx.for_organization(&organization))
            {
                member.counts = Counts::of(&member.reading.data);
                asked = true;
            }
        }
        asked
    }

    fn waits_for(&self, id: RequestId) -> bool {
        matches!(self.listing, Listing::Asked(asked) if asked == id)
            || self.members.iter().any(|m| m.reading.waits_for(id))
    }

    fn draw(
        &mut self,
        frame: &mut Frame,
        area: Rect,
        theme: &Theme,
        _keys: &Keymap,
        focused: bool,
    ) {
        draw::draw(self, frame, area, theme, focused);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::panes::overview::tiles::Count;

    fn member(name: &str, counts: [u64; 8]) -> Member {
        Member {
            organization: Organization {
                id: format!("orgn_{name}"),
                name: name.to_owned(),
                state: None,
                country_code: None,
                created_at: None,
            },
            reading: Reading::default(),
            counts: Counts {
                cells: counts.iter().map(|n| (Count::Exact(*n), None)).collect(),
            },
        }
    }

    fn names(pane: &PortfolioPane) -> Vec<&str> {
        pane.members
            .iter()
            .map(|m| m.organization.name.as_str())
            .collect()
    }

    #[test]
    fn s_sorts_by_the_chosen_count_and_on_the_name_goes_back_to_most_pressing_first() {
        let mut pane = PortfolioPane {
            members: vec![
                member("Clean", [0, 0, 0, 0, 0, 0, 0, 0]),
                member("Late", [3, 0, 0, 1, 0, 0, 0, 0]),
                member("Expiring", [0, 1, 0, 0, 0, 9, 0, 0]),
            ],
            ..PortfolioPane::default()
        };
        pane.order();
        assert_eq!(names(&pane), ["Late", "Expiring", "Clean"]);
        // The Expiring column (the sixth count): most first, then fewest first.
        pane.column = 6;
        pane.sort(false);
        assert_eq!(names(&pane), ["Expiring", "Late", "Clean"]);
        pane.sort(true);
        assert_eq!(names(&pane), ["Late", "Clean", "Expiring"]);
        // On the organization's name: most pressing first again.
        pane.column = 0;
        pane.sort(false);
        assert_eq!(names(&pane), ["Late", "Expiring", "Clean"]);
    }
}
