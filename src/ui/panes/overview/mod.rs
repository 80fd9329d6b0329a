//! The Overview: what needs attention today, at a glance. Attention tiles count what the
//! service's lists hold (each count opens its list, filtered the same way), a map shows how
//! every jurisdiction stands, and a calendar shows the returns due in the next three months.
//!
//! Every list is asked for at once when the tab first shows, on `r`, and every
//! `overview_refresh_minutes`; what needs an earlier answer (a list's other pages, the
//! transactions of the filings checked) is asked for the moment that answer arrives, unless the
//! last Overview learnt it (the runtime remembers the filings it checked and the pages of its
//! pace: see [`Data::learnt`](data::Data::learnt)), and then with the first calls. The tab
//! draws at once with placeholders and each tile fills in as its own answers arrive. A list
//! that fails shows its error on its own tile; the others fill in regardless.

pub mod data;
mod draw;
mod paging;
pub mod reading;
pub mod tiles;

use std::time::Duration;

use chrono::{DateTime, Local};
use ratatui::Frame;
use ratatui::layout::Rect;

use self::data::{Ask, Data};
use self::reading::Reading;
use self::tiles::{Tile, tiles};
use crate::effect::{Failure, Goto, Reply, RequestId};
use crate::model::filters::{FilingFilter, NexusFilter, RegistrationFilter};
use crate::rules::attention::{Standing, standings};
use crate::ui::keymap::{Action, Keymap};
use crate::ui::pane::{Ctx, Level, Pane, PaneHint, VerbHelp};
use crate::ui::panes::filings::calendar::FilingCalendar;
use crate::ui::theme::Theme;
use crate::ui::widgets::state_map::{Direction, StateMap};

/// How often the Overview refreshes by itself unless the config says otherwise.
pub const DEFAULT_REFRESH: Duration = Duration::from_mins(10);

/// Ticks a second (the runtime ticks about every 100 ms).
pub(crate) const TICKS_PER_SECOND: u64 = 10;

/// The part of the Overview the arrows move in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Tiles,
    Map,
    Calendar,
}

impl Section {
    const ALL: [Section; 3] = [Section::Tiles, Section::Map, Section::Calendar];

    fn step(self, forward: bool) -> Section {
        let i = Self::ALL.iter().position(|s| *s == self).unwrap_or(0);
        let n = Self::ALL.len();
        Self::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// The Overview tab.
pub struct OverviewPane {
    reading: Reading,
    loaded_once: bool,
    refreshed_at: Option<DateTime<Local>>,
    refresh_every: Duration,
    /// Ticks since the last refresh.
    ticks: u64,
    section: Section,
    /// The selected count: its tile and its entry.
    cursor: (usize, usize),
    tiles: Vec<Tile>,
    calendar: FilingCalendar,
    map: StateMap,
    /// Where the last draw put each tile's entries, for the mouse.
    hits: Vec<(Rect, (usize, usize))>,
}

impl Default for OverviewPane {
    fn default() -> Self {
        Self::new(DEFAULT_REFRESH)
    }
}

impl OverviewPane {
    /// An Overview refreshing by itself every `every` (zero: never).
    pub fn new(every: Duration) -> Self {
        let today = crate::clock::today();
        let reading = Reading::new(today);
        let tiles = tiles(&reading.data);
        OverviewPane {
            reading,
            loaded_once: false,
            refreshed_at: None,
            refresh_every: every,
            ticks: 0,
            section: Section::Tiles,
            cursor: (0, 0),
            tiles,
            calendar: FilingCalendar::new(today),
            map: StateMap::new(),
            hits: Vec::new(),
        }
    }

    /// What the Overview knows so far.
    pub fn data(&self) -> &Data {
        &self.reading.data
    }

    /// The tiles as they stand.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    fn load(&mut self, ctx: &mut Ctx) {
        let today = crate::clock::today();
        if self.calendar.today() != today {
            // A new day (or the first load): the calendar starts on it.
            self.calendar.set_today(today);
            self.calendar.select_today();
        }
        self.reading.load(today, ctx);
        self.loaded_once = true;
        self.ticks = 0;
        self.tiles = tiles(&self.reading.data);
    }

    /// Moves the selection among the counts: `step` entries forward or back, across tiles.
    fn move_entry(&mut self, forward: bool) {
        let flat: Vec<(usize, usize)> = self
            .tiles
            .iter()
            .enumerate()
            .flat_map(|(t, tile)| (0..tile.entries.len()).map(move |e| (t, e)))
            .collect();
        let Some(at) = flat.iter().position(|c| *c == self.cursor) else {
            self.cursor = (0, 0);
            return;
        };
        let next = if forward {
            (at + 1).min(flat.len() - 1)
        } else {
            at.saturating_sub(1)
        };
        self.cursor = flat[next];
    }

    /// Moves to the first count of the next tile (or the previous one).
    fn move_tile(&mut self, forward: bool) {
        let n = self.tiles.len();
        let tile = if forward {
            (self.cursor.0 + 1).min(n - 1)
        } else {
            self.cursor.0.saturating_sub(1)
        };
        self.cursor = (tile, 0);
    }

    /// Opens the list the selected count counts.
    fn open_entry(&mut self, tile: usize, entry: usize, ctx: &mut Ctx) {
        let Some(entry) = self.tiles.get(tile).and_then(|t| t.entries.get(entry)) else {
            return;
        };
        if let tiles::Count::Unavailable(why) = &entry.count {
            ctx.notify(Level::Error, format!("{}: {why}", self.tiles[tile].title));
            return;
        }
        if let Some(caveat) = entry.caveat {
            ctx.notify(Level::Info, caveat);
        }
        ctx.goto(entry.goto.clone());
    }

    /// Whether every list has answered whole: nothing is under way.
    fn is_complete(&self) -> bool {
        self.reading.is_complete()
    }

    fn subtitle(&self) -> String {
        let waiting = !self.is_complete();
        match (&self.refreshed_at, waiting) {
            (None, _) => "loading…".to_owned(),
            (Some(_), true) => "refreshing…".to_owned(),
            (Some(at), false) => format!("updated {}", at.format("%H:%M")),
        }
    }
}

impl Pane for OverviewPane {
    fn title(&self) -> &'static str {
        "Overview"
    }

    fn is_overview(&self) -> bool {
        true
    }

    fn hints(&self) -> Vec<PaneHint> {
        let mut hints = vec![PaneHint::action(Action::Open, "open")];
        match self.section {
            Section::Tiles => hints.push(PaneHint::keys("↑↓←→", "choose")),
            Section::Map => {
                hints.push(PaneHint::keys("←↑↓→", "move"));
                hints.push(PaneHint::action(Action::New, "register"));
            }
            Section::Calendar => {
                hints.push(PaneHint::keys("←↑↓→", "day"));
                hints.push(PaneHint::keys("PgUp/PgDn", "return"));
            }
        }
        hints.push(PaneHint::action(Action::Refresh, "refresh"));
        hints.push(PaneHint::action(Action::NextSection, "next part"));
        hints.push(PaneHint::action(Action::PrevSection, "previous part"));
        hints.push(PaneHint::keys(":tile N", "open tile N"));
        hints
    }

    fn show(&mut self, ctx: &mut Ctx) {
        if !self.loaded_once {
            self.load(ctx);
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            Action::Refresh => {
                self.load(ctx);
                true
            }
            Action::NextSection | Action::PrevSection => {
                self.section = self.section.step(action == Action::NextSection);
                true
            }
            _ => match self.section {
                Section::Tiles => self.tiles_action(action, ctx),
                Section::Calendar => self.calendar_action(action, ctx),
                Section::Map => self.map_action(action, ctx),
            },
        }
    }

    /// A click on a tile's entry chooses it; a click on the entry already chosen opens it.
    fn on_click(&mut self, column: u16, row: u16, ctx: &mut Ctx) -> bool {
        let position = ratatui::layout::Position::new(column, row);
        let Some(&(_, entry)) = self.hits.iter().find(|(r, _)| r.contains(position)) else {
            return false;
        };
        if self.section == Section::Tiles && self.cursor == entry {
            self.open_entry(entry.0, entry.1, ctx);
        } else {
            self.section = Section::Tiles;
            self.cursor = entry;
        }
        true
    }

    fn receive(&mut self, id: RequestId, result: Result<Reply, Failure>, ctx: &mut Ctx) {
        let Some(ask) = self.reading.receive(id, result, ctx) else {
            return;
        };
        if self.is_complete() {
            self.refreshed_at = Some(Local::now());
        }
        if ask == Ask::Filings {
            self.calendar
                .set_filings(self.reading.data.filings.rows().to_vec());
        }
        if matches!(ask, Ask::Nexus | Ask::Physical | Ask::Registrations) {
            let data = &self.reading.data;
            self.map.set(&standings(
                data.nexus.rows(),
                data.physical.rows(),
                data.registrations.rows(),
                data.today,
            ));
        }
        self.tiles = tiles(&self.reading.data);
    }

    fn waits_for(&self, id: RequestId) -> bool {
        self.reading.waits_for(id)
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["tile"]
    }

    /// `n` registers where the map's cursor is; `:tile N` opens a tile.
    fn verbs(&self) -> Vec<VerbHelp> {
        let verb = |key, command: Option<&str>, label: &str, writes| VerbHelp {
            key,
            command: command.map(str::to_owned),
            label: label.to_owned(),
            writes,
        };
        vec![
            verb(Some(Action::New), None, "register", true),
            verb(None, Some(":tile N"), "open tile N", false),
        ]
    }

    fn command(&mut self, name: &str, args: &[&str], ctx: &mut Ctx) -> bool {
        if name != "tile" {
            return false;
        }
        match args.first().and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if (1..=self.tiles.len()).contains(&n) => {
                self.cursor = (n - 1, 0);
                self.open_entry(n - 1, 0, ctx);
            }
            _ => ctx.notify(
                Level::Error,
                format!(
                    "Usage: :tile N (1 to {}), the tile's number",
                    self.tiles.len()
                ),
            ),
        }
        true
    }

    fn tick(&mut self, ctx: &mut Ctx) -> bool {
        if !self.loaded_once {
            return false;
        }
        self.ticks += 1;
        let every = self.refresh_every.as_secs() * TICKS_PER_SECOND;
        if every > 0 && self.ticks >= every && self.reading.is_idle() {
            self.load(ctx);
            return true;
        }
        // A queued transaction has waited a minute since first seen: is it still queued?
        if !self.reading.check_queued(ctx) {
            return false;
        }
        self.tiles = tiles(&self.reading.data);
        true
    }

    /// The service answers again: counts that failed for want of it are made again.
    fn reconnected(&mut self, ctx: &mut Ctx) {
        if self.loaded_once && self.reading.is_idle() && self.reading.data.any_failed() {
            self.load(ctx);
        }
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &Keymap, focused: bool) {
        draw::draw(self, frame, area, theme, keys, focused);
    }
}

impl OverviewPane {
    fn map_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        let direction = match action {
            Action::Up => Direction::Up,
            Action::Down => Direction::Down,
            Action::Left => Direction::Left,
            Action::Right => Direction::Right,
            Action::Open => {
                self.open_jurisdiction(ctx);
                return true;
            }
            Action::New => {
                self.register_jurisdiction(ctx);
                return true;
            }
            _ => return false,
        };
        self.map.move_by(direction);
        true
    }

    /// `n` on the map: the register flow on the selected jurisdiction, unless it is registered.
    fn register_jurisdiction(&mut self, ctx: &mut Ctx) {
        if self
            .map
            .selected()
            .is_some_and(|j| j.standing == Standing::Registered)
        {
            ctx.notify(
                Level::Info,
                format!("{} is registered already.", self.map.selected_tile().name),
            );
            return;
        }
        let tile = self.map.selected_tile();
        ctx.goto(Goto::Register {
            country: tile.country.to_owned(),
            state: tile.state.map(str::to_owned),
        });
    }

    /// Opens the selected jurisdiction: its registration when it is registered, else its
    /// economic nexus.
    fn open_jurisdiction(&mut self, ctx: &mut Ctx) {
        let Some(j) = self.map.selected() else {
            ctx.notify(
                Level::Info,
                format!(
                    "Nothing is on record for {}.",
                    self.map.selected_tile().name
                ),
            );
            return;
        };
        if j.standing == Standing::Registered {
            ctx.goto(Goto::Registrations {
                filter: RegistrationFilter {
                    state_code: j.state.clone(),
                    country_code_in: vec![j.country.clone()],
                    ..RegistrationFilter::default()
                },
                open: j.registration.clone(),
            });
        } else {
            ctx.goto(Goto::Nexus {
                filter: NexusFilter {
                    state_code: j.state.clone(),
                    country_code_in: vec![j.country.clone()],
                    ..NexusFilter::default()
                },
                open: j.nexus.clone(),
            });
        }
    }

    fn calendar_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        if action != Action::Open {
            return self.calendar.handle(action);
        }
        match self.calendar.selected_filing() {
            Some(filing) => ctx.goto(Goto::Filings {
                filter: FilingFilter {
                    state_code: filing.state_code.clone(),
                    country_code: vec![filing.country_code.clone()],
                    start_date: Some(filing.start_date),
                    end_date: Some(filing.end_date),
                    ..FilingFilter::default()
                },
                open: Some(filing.clone()),
            }),
            None => ctx.notify(Level::Info, "No return is due on that day."),
        }
        true
    }

    fn tiles_action(&mut self, action: Action, ctx: &mut Ctx) -> bool {
        match action {
            Action::Down => self.move_entry(true),
            Action::Up => self.move_entry(false),
            Action::Right => self.move_tile(true),
            Action::Left => self.move_tile(false),
            Action::Open => {
                let (t, e) = self.cursor;
                self.open_entry(t, e, ctx);
            }
            _ => return false,
        }
        true
    }
}
