//! A tile-grid map of the jurisdictions: one cell per US state and DC in the usual tile-grid
//! layout, the Canadian provinces and territories in a band of their own under it (west to east),
//! and one cell for the EU one-stop shop. Each cell shows its code and a symbol of its
//! [`Standing`], coloured by the theme; the arrows move the selection to the nearest cell that
//! way, and a line under the grid tells what stands in the selected jurisdiction.
//!
//! ```text
//!  AK·                                               ME·
//!                           WI·                 VT·  NH+
//!  WA!  ID·  MT·  ND·  MN·  IL·  MI~       NY+  MA+
//!  ...
//!  HI·           [TX!]                     FL·
//!
//!  YT·  NT·  NU·                      NL·
//!  BC~  AB·  SK·  MB·  ON!  QC+  NB·  PE·  NS·       EU+
//! ! exposed, not registered  ~ approaching
//! p physical nexus, not current  + registered  · nothing
//! TX Texas · nexus EXPOSED (economic) · sales 122.4% · registration none
//! ```
//!
//! The symbols (`!` exposed and not registered, `~` approaching, `p` physical nexus not
//! current, `+` registered, `·` nothing) carry the standing without colour, so the map reads in
//! the mono theme too; the selected cell is bracketed (full form) and drawn in the selection
//! style when the map has the focus.
//!
//! Two forms: the full one (cells five columns apart, a blank line between the countries) when
//! the area is at least [`FULL_WIDTH`] x [`FULL_HEIGHT`], and a compact one (cells three columns
//! apart) for smaller areas, [`COMPACT_WIDTH`] x [`COMPACT_HEIGHT`] to show everything. What does
//! not fit is left out, never drawn past the area: first the legend, then the selected line.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use rust_decimal::Decimal;

use crate::model::Nexus;
use crate::rules::attention::{ExposedBy, Jurisdiction, Standing, threshold_share};
use crate::rules::{EU_ONE_STOP_SHOP, NexusRoute};
use crate::ui::text;
use crate::ui::theme::Theme;

/// Logical grid rows: the US in 0..8, Canada and the EU in 8..10.
const US_ROWS: u8 = 8;
const ROWS: u8 = 10;
const COLUMNS: u16 = 11;
/// Columns from one cell to the next in each form.
const FULL_STRIDE: u16 = 5;
const COMPACT_STRIDE: u16 = 3;

/// The smallest area the full form is drawn in: the grid with a blank line between the
/// countries, a legend line and the selected line (a second legend line when there is room).
pub const FULL_WIDTH: u16 = COLUMNS * FULL_STRIDE;
pub const FULL_HEIGHT: u16 = ROWS as u16 + 3;
/// The area the compact form needs to show the grid, a legend line and the selected line.
pub const COMPACT_WIDTH: u16 = COLUMNS * COMPACT_STRIDE;
pub const COMPACT_HEIGHT: u16 = ROWS as u16 + 2;

/// A direction the selection moves in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    /// The direction of an arrow key.
    pub fn of_key(key: &KeyEvent) -> Option<Direction> {
        match key.code {
            KeyCode::Up => Some(Self::Up),
            KeyCode::Down => Some(Self::Down),
            KeyCode::Left => Some(Self::Left),
            KeyCode::Right => Some(Self::Right),
            _ => None,
        }
    }
}

/// One cell of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tile {
    /// What the cell shows: `TX`, `ON`, `EU`.
    pub code: &'static str,
    pub name: &'static str,
    /// The jurisdiction as the service names it: `US`/`TX`, `CA`/`ON`, `ZZ_EU` without a state.
    pub country: &'static str,
    pub state: Option<&'static str>,
    row: u8,
    col: u8,
}

const fn us(code: &'static str, name: &'static str, row: u8, col: u8) -> Tile {
    Tile {
        code,
        name,
        country: "US",
        state: Some(code),
        row,
        col,
    }
}

const fn ca(code: &'static str, name: &'static str, row: u8, col: u8) -> Tile {
    Tile {
        code,
        name,
        country: "CA",
        state: Some(code),
        row: US_ROWS + row,
        col,
    }
}

/// Every cell, row by row, west to east.
pub const TILES: &[Tile] = &[
    us("AK", "Alaska", 0, 0),
    us("ME", "Maine", 0, 10),
    us("WI", "Wisconsin", 1, 5),
    us("VT", "Vermont", 1, 9),
    us("NH", "New Hampshire", 1, 10),
    us("WA", "Washington", 2, 0),
    us("ID", "Idaho", 2, 1),
    us("MT", "Montana", 2, 2),
    us("ND", "North Dakota", 2, 3),
    us("MN", "Minnesota", 2, 4),
    us("IL", "Illinois", 2, 5),
    us("MI", "Michigan", 2, 6),
    us("NY", "New York", 2, 8),
    us("MA", "Massachusetts", 2, 9),
    us("OR", "Oregon", 3, 0),
    us("NV", "Nevada", 3, 1),
    us("WY", "Wyoming", 3, 2),
    us("SD", "South Dakota", 3, 3),
    us("IA", "Iowa", 3, 4),
    us("IN", "Indiana", 3, 5),
    us("OH", "Ohio", 3, 6),
    us("PA", "Pennsylvania", 3, 7),
    us("NJ", "New Jersey", 3, 8),
    us("CT", "Connecticut", 3, 9),
    us("RI", "Rhode Island", 3, 10),
    us("CA", "California", 4, 0),
    us("UT", "Utah", 4, 1),
    us("CO", "Colorado", 4, 2),
    us("NE", "Nebraska", 4, 3),
    us("MO", "Missouri", 4, 4),
    us("KY", "Kentucky", 4, 5),
    us("WV", "West Virginia", 4, 6),
    us("VA", "Virginia", 4, 7),
    us("MD", "Maryland", 4, 8),
    us("DE", "Delaware", 4, 9),
    us("AZ", "Arizona", 5, 1),
    us("NM", "New Mexico", 5, 2),
    us("KS", "Kansas", 5, 3),
    us("AR", "Arkansas", 5, 4),
    us("TN", "Tennessee", 5, 5),
    us("NC", "North Carolina", 5, 6),
    us("SC", "South Carolina", 5, 7),
    us("DC", "District of Columbia", 5, 8),
    us("OK", "Oklahoma", 6, 3),
    us("LA", "Louisiana", 6, 4),
    us("MS", "Mississippi", 6, 5),
    us("AL", "Alabama", 6, 6),
    us("GA", "Georgia", 6, 7),
    us("HI", "Hawaii", 7, 0),
    us("TX", "Texas", 7, 3),
    us("FL", "Florida", 7, 8),
    ca("YT", "Yukon", 0, 0),
    ca("NT", "Northwest Territories", 0, 1),
    ca("NU", "Nunavut", 0, 2),
    ca("NL", "Newfoundland and Labrador", 0, 7),
    ca("BC", "British Columbia", 1, 0),
    ca("AB", "Alberta", 1, 1),
    ca("SK", "Saskatchewan", 1, 2),
    ca("MB", "Manitoba", 1, 3),
    ca("ON", "Ontario", 1, 4),
    ca("QC", "Quebec", 1, 5),
    ca("NB", "New Brunswick", 1, 6),
    ca("PE", "Prince Edward Island", 1, 7),
    ca("NS", "Nova Scotia", 1, 8),
    Tile {
        code: "EU",
        name: "European Union one-stop shop",
        country: EU_ONE_STOP_SHOP,
        state: None,
        row: US_ROWS + 1,
        col: 10,
    },
];

/// The cell of a jurisdiction, if the map has one (codes compared without regard to case).
pub fn tile_of(country: &str, state: Option<&str>) -> Option<usize> {
    let state = state.map(str::trim).filter(|s| !s.is_empty());
    TILES.iter().position(|t| {
        t.country.eq_ignore_ascii_case(country.trim())
            && match (t.state, state) {
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                (None, None) => true,
                _ => false,
            }
    })
}

/// Whether the map has a cell for `j` (a US state or DC, a Canadian province or territory, the
/// EU one-stop shop); the others (Canada's federal GST/HST, EU member states, other countries)
/// are for the embedding view to show some other way.
pub fn on_map(j: &Jurisdiction) -> bool {
    tile_of(&j.country, j.state.as_deref()).is_some()
}

/// The symbol a standing is shown with.
pub fn symbol(standing: Standing) -> &'static str {
    match standing {
        Standing::ExposedUnregistered => "!",
        Standing::Approaching => "~",
        Standing::PhysicalOnly => "p",
        Standing::Registered => "+",
        Standing::Nothing => "·",
    }
}

/// The style a standing is drawn in.
pub fn standing_style(standing: Standing, theme: &Theme) -> Style {
    match standing {
        Standing::ExposedUnregistered => theme.status_bad,
        Standing::Approaching => theme.status_pending,
        Standing::PhysicalOnly => theme.info,
        Standing::Registered => theme.status_good,
        Standing::Nothing => theme.muted,
    }
}

/// The legend's word for a standing where room is short.
fn short_word(standing: Standing) -> &'static str {
    match standing {
        Standing::ExposedUnregistered => "exposed",
        Standing::Approaching => "near",
        Standing::PhysicalOnly => "phys.",
        Standing::Registered => "reg.",
        Standing::Nothing => "none",
    }
}

/// The map with its selection and what it shows.
#[derive(Debug, Clone)]
pub struct StateMap {
    selected: usize,
    /// The jurisdiction of each tile, by index into [`TILES`].
    data: Vec<Option<Jurisdiction>>,
}

impl Default for StateMap {
    fn default() -> Self {
        Self::new()
    }
}

impl StateMap {
    /// An empty map, California selected.
    pub fn new() -> Self {
        StateMap {
            selected: tile_of("US", Some("CA")).unwrap_or(0),
            data: vec![None; TILES.len()],
        }
    }

    /// Shows `jurisdictions` (from [`standings`](crate::rules::attention::standings)); those
    /// the map has no cell for are left out. The selection stays where it was.
    pub fn set(&mut self, jurisdictions: &[Jurisdiction]) {
        self.data = vec![None; TILES.len()];
        for j in jurisdictions {
            if let Some(i) = tile_of(&j.country, j.state.as_deref()) {
                self.data[i] = Some(j.clone());
            }
        }
    }

    /// The selected cell.
    pub fn selected_tile(&self) -> &'static Tile {
        &TILES[self.selected]
    }

    /// The jurisdiction of the selected cell; `None` when nothing is known of it.
    pub fn selected(&self) -> Option<&Jurisdiction> {
        self.data[self.selected].as_ref()
    }

    /// The standing of a cell: `Nothing` when nothing is known of it.
    fn standing(&self, i: usize) -> Standing {
        self.data[i]
            .as_ref()
            .map_or(Standing::Nothing, |j| j.standing)
    }

    /// Selects the cell of `country`/`state`; false (the selection unchanged) when the map has
    /// none.
    pub fn select(&mut self, country: &str, state: Option<&str>) -> bool {
        match tile_of(country, state) {
            Some(i) => {
                self.selected = i;
                true
            }
            None => false,
        }
    }

    /// Moves the selection to the nearest cell in `direction`: left and right keep to the row
    /// when it has a cell that way; otherwise the nearest cell that way, straight lines first.
    /// False when there is none.
    pub fn move_by(&mut self, direction: Direction) -> bool {
        let from = &TILES[self.selected];
        let (r, c) = (i32::from(from.row), i32::from(from.col));
        // (distance along the direction, distance across it) of each cell ahead.
        let ahead = TILES.iter().enumerate().filter_map(|(i, t)| {
            let (dr, dc) = (i32::from(t.row) - r, i32::from(t.col) - c);
            let (along, across) = match direction {
                Direction::Up => (-dr, dc.abs()),
                Direction::Down => (dr, dc.abs()),
                Direction::Left => (-dc, dr.abs()),
                Direction::Right => (dc, dr.abs()),
            };
            (along > 0).then_some((i, along, across))
        });
        let horizontal = matches!(direction, Direction::Left | Direction::Right);
        let best = ahead.min_by_key(|&(_, along, across)| {
            let leaves_row = horizontal && across > 0;
            (leaves_row, along + 2 * across, across)
        });
        match best {
            Some((i, _, _)) => {
                self.selected = i;
                true
            }
            None => false,
        }
    }

    /// What Enter opens on the selected cell: its country, its state, and whether it is
    /// registered (open its registrations, else its nexus). `None` when nothing is known of it.
    pub fn target(&self) -> Option<(String, Option<String>, bool)> {
        self.selected().map(|j| {
            (
                j.country.clone(),
                j.state.clone(),
                j.standing == Standing::Registered,
            )
        })
    }

    /// Draws the map in `area`: the full form when there is room, else the compact one.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focused: bool) {
        let full = area.width >= FULL_WIDTH && area.height >= FULL_HEIGHT;
        let (stride, gap) = if full {
            (FULL_STRIDE, 1)
        } else {
            (COMPACT_STRIDE, 0)
        };
        let grid_height = u16::from(ROWS) + gap;
        for (i, tile) in TILES.iter().enumerate() {
            let row = u16::from(tile.row) + if tile.row >= US_ROWS { gap } else { 0 };
            let x = u16::from(tile.col) * stride;
            if row >= area.height || x >= area.width {
                continue;
            }
            let standing = self.standing(i);
            let mut style = standing_style(standing, theme);
            let selected = i == self.selected;
            if selected {
                style = if focused {
                    style.patch(theme.selection)
                } else {
                    style.add_modifier(Modifier::UNDERLINED)
                };
            }
            let cell = match (full, selected) {
                (true, true) => format!("[{}{}]", tile.code, symbol(standing)),
                (true, false) => format!(" {}{} ", tile.code, symbol(standing)),
                (false, _) => format!("{}{}", tile.code, symbol(standing)),
            };
            let room = usize::from(area.width - x);
            buf.set_stringn(area.x + x, area.y + row, cell, room, style);
        }
        // Under the grid: the legend (when there is room for it as well), then the selected line.
        let below = area.height.saturating_sub(grid_height);
        let width = usize::from(area.width);
        let mut y = area.y + grid_height;
        if below >= 2 {
            let max_lines = usize::from(below - 1).min(2);
            for line in legend(theme, width, max_lines, full) {
                buf.set_line(area.x, y, &line, area.width);
                y += 1;
            }
        }
        if below >= 1 {
            let line = self.selected_line(theme, width);
            buf.set_line(area.x, y, &line, area.width);
        }
    }

    /// The line about the selected cell, at most `width` columns: `CA California · nexus EXPOSED
    /// (economic) · sales 612,400.00 USD of 500,000.00 USD (122.4%) · registration none`. Where it
    /// is too long the sales read as their share alone (`sales 122.4%`), then a presence without
    /// its date (`physical`), then the line tightens to
    /// `CA EXPOSED · sales 122.4% · reg. none`, and only then is it cut.
    pub fn selected_line(&self, theme: &Theme, width: usize) -> Line<'static> {
        let mut line = Line::default();
        for wording in [
            Wording::Full,
            Wording::Short,
            Wording::Undated,
            Wording::Tight,
        ] {
            line = self.describe(theme, wording);
            if line.width() <= width {
                return line;
            }
        }
        text::truncate_line(line, width)
    }

    fn describe(&self, theme: &Theme, wording: Wording) -> Line<'static> {
        let tile = self.selected_tile();
        let tight = wording == Wording::Tight;
        let sep = || Span::styled(" · ", theme.muted);
        let title = if tight {
            tile.code.to_owned()
        } else {
            format!("{} {}", tile.code, tile.name)
        };
        let mut spans = vec![Span::styled(title, theme.title)];
        let Some(j) = self.selected() else {
            spans.extend([sep(), Span::styled("no records", theme.muted)]);
            return Line::from(spans);
        };
        let style = standing_style(j.standing, theme);
        // The economic status, or "met" when only a physical presence makes the nexus.
        let status = j
            .nexus_status()
            .map(|s| s.as_str().to_owned())
            .or_else(|| j.exposed_by.as_ref().map(|_| "met".to_owned()));
        let route = j.exposed_by.as_ref().map(ExposedBy::in_words).or_else(|| {
            j.nexus
                .as_ref()
                .and_then(NexusRoute::of_nexus)
                .map(NexusRoute::as_str)
        });
        let nexus = match (status, route) {
            (Some(s), _) if tight => {
                spans.push(Span::raw(" "));
                s
            }
            (None, _) => {
                spans.push(sep());
                "no nexus record".to_owned()
            }
            (Some(s), route) => {
                spans.push(sep());
                match route {
                    Some(route) => format!("nexus {s} ({route})"),
                    None => format!("nexus {s}"),
                }
            }
        };
        spans.push(Span::styled(nexus, style));
        if let Some(since) = j.physical.iter().map(|p| p.start_date).min() {
            let words = if matches!(wording, Wording::Full | Wording::Short) {
                format!("physical since {}", text::date(since))
            } else {
                "physical".to_owned()
            };
            spans.extend([sep(), Span::raw(words)]);
        } else if j.standing == Standing::PhysicalOnly {
            spans.extend([sep(), Span::styled("physical not current", style)]);
        }
        if let Some(sales) = j
            .nexus
            .as_ref()
            .and_then(|n| sales_words(n, wording != Wording::Full))
        {
            spans.extend([sep(), Span::raw(sales)]);
        }
        let registration = j
            .registration
            .as_ref()
            .map_or("none", |r| r.status.as_str());
        let label = if tight { "reg." } else { "registration" };
        spans.extend([sep(), Span::raw(format!("{label} {registration}"))]);
        Line::from(spans)
    }
}

/// How much the selected line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wording {
    Full,
    /// The sales as their share of the threshold alone.
    Short,
    /// Besides, a physical presence without its date.
    Undated,
    /// Besides, the code without the name, the status without the route, `reg.`.
    Tight,
}

/// `sales 612,400.00 USD of 500,000.00 USD (122.4%)` (`short`: `sales 122.4%`); the sales alone
/// without a threshold, `None` when the record gives neither.
fn sales_words(n: &Nexus, short: bool) -> Option<String> {
    let currency = n.currency.as_deref();
    let amount = n.transactions_amount.unwrap_or_default();
    match (
        n.threshold_sales.filter(|t| *t > Decimal::ZERO),
        threshold_share(n).0,
    ) {
        (Some(threshold), Some(share)) => {
            let percent = text::share(share);
            Some(if short {
                format!("sales {percent}")
            } else {
                format!(
                    "sales {} of {} ({percent})",
                    text::money(amount, currency),
                    text::money(threshold, currency),
                )
            })
        }
        _ => n
            .transactions_amount
            .map(|a| format!("sales {}", text::money(a, currency))),
    }
}

/// The legend in at most `max_lines` lines of `width`: every standing's symbol and words, the
/// long words when they fit (`full`), else the short ones; items that still do not fit are left
/// out.
fn legend(theme: &Theme, width: usize, max_lines: usize, full: bool) -> Vec<Line<'static>> {
    let try_words = |long: bool| {
        let sep = if full { 2 } else { 1 };
        let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
        let mut used = 0;
        let mut all = true;
        for standing in Standing::ALL {
            let words = if long {
                standing.in_words()
            } else {
                short_word(standing)
            };
            let item = 2 + text::width(words);
            let gap = if used == 0 { 0 } else { sep };
            if used + gap + item > width {
                if lines.len() == max_lines || item > width {
                    all = false;
                    break;
                }
                lines.push(Vec::new());
                used = 0;
            }
            let line = lines.last_mut().expect("one line at least");
            if used > 0 {
                line.push(Span::raw(" ".repeat(sep)));
                used += sep;
            }
            line.push(Span::styled(
                symbol(standing),
                standing_style(standing, theme),
            ));
            line.push(Span::styled(format!(" {words}"), theme.muted));
            used += item;
        }
        (all, lines)
    };
    let (fits, lines) = try_words(true);
    let lines = if fits { lines } else { try_words(false).1 };
    lines.into_iter().map(Line::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::attention::standings;
    use crate::ui::widgets::testing::{all_text, blank, find, row_text};
    use ratatui::style::Color;
    use serde_json::json;

    fn data() -> Vec<Jurisdiction> {
        let nexus = |state: &str, status: &str, extra: serde_json::Value| {
            let mut body = json!({
                "id": format!("nexu_{state}"), "country_code": "US", "state_code": state,
                "state_name": state, "status": status, "currency": "USD",
            });
            for (k, v) in extra.as_object().unwrap() {
                body[k] = v.clone();
            }
            serde_json::from_value(body).unwrap()
        };
        let registration = |country: &str, state: &str| {
            serde_json::from_value(json!({
                "id": format!("regi_{state}"), "status": "REGISTERED", "country_code": country,
                "state_code": state, "filing_frequency": "QUARTERLY"
            }))
            .unwrap()
        };
        standings(
            &[
                nexus(
                    "CA",
                    "EXPOSED",
                    json!({"economic_nexus_met": true, "threshold_sales": 500_000,
                           "transactions_amount": "612400.00"}),
                ),
                nexus("TX", "APPROACHING", json!({})),
                nexus("NY", "EXPOSED", json!({})),
                nexus("ID", "SOMETHING_NEW", json!({})),
            ],
            &[serde_json::from_value(json!({
                "id": "phys_nv", "country_code": "US", "state_code": "NV",
                "start_date": "2027-01-01", "end_date": null,
                "category": "INVENTORY", "external_id": null, "source": null,
                "street_1": null, "street_2": null, "city": null, "postal_code": null
            }))
            .unwrap()],
            &[
                registration("US", "NY"),
                registration("CA", "ON"),
                registration("ZZ_EU", ""),
            ],
            "2026-11-24".parse().unwrap(),
        )
    }

    fn map() -> StateMap {
        let mut m = StateMap::new();
        m.set(&data());
        m
    }

    fn theme(name: &str) -> Theme {
        Theme::load(name, None).unwrap()
    }

    fn draw(m: &StateMap, width: u16, height: u16, theme: &Theme) -> Buffer {
        let mut buf = blank(width, height);
        m.render(buf.area, &mut buf, theme, true);
        buf
    }

    #[test]
    fn every_state_dc_province_and_the_eu_has_one_cell_of_its_own() {
        let mut codes: Vec<(&str, &str)> = TILES.iter().map(|t| (t.country, t.code)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), TILES.len(), "no code twice");
        assert_eq!(TILES.iter().filter(|t| t.country == "US").count(), 51);
        assert_eq!(TILES.iter().filter(|t| t.country == "CA").count(), 13);
        let mut places: Vec<(u8, u8)> = TILES.iter().map(|t| (t.row, t.col)).collect();
        places.sort_unstable();
        places.dedup();
        assert_eq!(places.len(), TILES.len(), "no two cells in one place");
        assert!(
            TILES
                .iter()
                .all(|t| t.row < ROWS && u16::from(t.col) < COLUMNS)
        );
    }

    #[test]
    fn the_full_form_places_the_cells_as_on_a_tile_map() {
        let buf = draw(&map(), 80, 14, &theme("dark"));
        let screen = all_text(&buf);
        assert!(row_text(&buf, 0).starts_with(" AK"), "{screen}");
        assert!(row_text(&buf, 0).ends_with("ME·"), "{screen}");
        let (wa, y) = find(&buf, "WA");
        let (ny, ny_y) = find(&buf, "NY");
        assert_eq!(y, ny_y, "{screen}");
        assert!(wa < ny);
        let (hi_x, hi_y) = find(&buf, "HI");
        let (tx_x, tx_y) = find(&buf, "TX");
        assert_eq!((hi_x, hi_y), (1, 7));
        assert_eq!(tx_y, 7);
        assert!(tx_x > hi_x);
        assert_eq!(row_text(&buf, 8), "", "a blank line between the countries");
        assert!(row_text(&buf, 9).starts_with(" YT"), "{screen}");
        assert!(row_text(&buf, 10).starts_with(" BC·  AB·"), "{screen}");
        assert!(row_text(&buf, 10).ends_with("EU+"), "{screen}");
        // The standing symbols.
        find(&buf, "CA!]");
        find(&buf, "TX~");
        find(&buf, "NY+");
        find(&buf, "ON+");
        find(&buf, "NVp");
        find(&buf, "ID·");
        // Legend and the selected line at the bottom.
        assert_eq!(
            row_text(&buf, 11),
            "! exposed, not registered  ~ approaching  p physical nexus, not current"
        );
        assert_eq!(row_text(&buf, 12), "+ registered  · nothing");
        assert_eq!(
            row_text(&buf, 13),
            "CA California · nexus EXPOSED (economic) · sales 122.4% · registration none"
        );
    }

    #[test]
    fn every_demo_jurisdiction_of_the_us_canada_and_the_eu_shop_has_a_cell() {
        use crate::sandbox::demo_data::{DEMO_ANCHOR, generate};
        let org = generate(42, 0, "orgn_demo_1", DEMO_ANCHOR);
        let all = standings(
            &org.nexus,
            &org.physical_nexus,
            &org.registrations,
            DEMO_ANCHOR,
        );
        let mapped = |j: &Jurisdiction| {
            matches!(
                (j.country.as_str(), &j.state),
                ("US" | "CA", Some(_)) | ("ZZ_EU", None)
            )
        };
        for j in &all {
            assert_eq!(on_map(j), mapped(j), "{} {:?}", j.country, j.state);
        }
        let mut m = StateMap::new();
        m.set(&all);
        let shown: Vec<Standing> = (0..TILES.len()).map(|i| m.standing(i)).collect();
        for standing in [Standing::ExposedUnregistered, Standing::Registered] {
            assert!(shown.contains(&standing), "{standing:?} in {shown:?}");
        }
    }

    #[test]
    fn snapshots_of_both_forms() {
        use ratatui::Terminal;
        use ratatui::backend::TestBackend;
        let m = map();
        let t = theme("mono");
        for (name, w, h) in [("full", 80, 14), ("compact", 38, 12)] {
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            terminal
                .draw(|f| m.render(f.area(), f.buffer_mut(), &t, true))
                .unwrap();
            insta::assert_snapshot!(name, terminal.backend());
        }
    }

    #[test]
    fn the_selected_line_tells_the_whole_standing() {
        let m = map();
        let line = m.selected_line(&theme("dark"), usize::MAX);
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(
            text,
            "CA California · nexus EXPOSED (economic) · sales 612,400.00 USD of 500,000.00 USD \
             (122.4%) · registration none"
        );
        let mut m = map();
        assert!(m.select("US", Some("NV")));
        let text: String = m
            .selected_line(&theme("dark"), usize::MAX)
            .spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(
            text,
            "NV Nevada · no nexus record · physical not current · registration none"
        );
        assert!(m.select("us", Some("wy")));
        assert_eq!(m.selected(), None);
        assert_eq!(m.target(), None, "nothing to open");
        let text: String = m
            .selected_line(&theme("dark"), usize::MAX)
            .spans
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(text, "WY Wyoming · no records");

        // Nexus by a physical presence alone, no economic record.
        let presence: crate::model::PhysicalNexus = serde_json::from_value(json!({
            "id": "phys_co", "country_code": "US", "state_code": "CO",
            "start_date": "2026-01-05", "end_date": null, "category": "INVENTORY",
            "external_id": null, "source": null, "street_1": null, "street_2": null,
            "city": null, "postal_code": null
        }))
        .unwrap();
        let mut m = StateMap::new();
        m.set(&standings(
            &[],
            &[presence],
            &[],
            "2026-11-24".parse().unwrap(),
        ));
        m.select("US", Some("CO"));
        let line = |width| {
            m.selected_line(&theme("dark"), width)
                .spans
                .iter()
                .map(|s| s.content.to_string())
                .collect::<String>()
        };
        assert_eq!(
            line(usize::MAX),
            "CO Colorado · nexus met (physical) · physical since 2026-01-05 · registration none"
        );
        assert_eq!(line(40), "CO met · physical · reg. none");
    }

    #[test]
    fn the_compact_form_fits_a_small_area_and_keeps_the_symbols() {
        let buf = draw(&map(), 38, 12, &theme("dark"));
        let screen = all_text(&buf);
        assert!(row_text(&buf, 0).starts_with("AK·"), "{screen}");
        assert!(row_text(&buf, 0).ends_with("ME·"), "{screen}");
        assert_eq!(find(&buf, "CA!"), (0, 4));
        assert_eq!(find(&buf, "TX~"), (9, 7));
        assert_eq!(find(&buf, "YT·"), (0, 8), "Canada right under the US");
        assert_eq!(find(&buf, "EU+"), (30, 9));
        assert_eq!(row_text(&buf, 10), "! exposed ~ near p phys. + reg. · none");
        assert_eq!(
            row_text(&buf, 11),
            "CA EXPOSED · sales 122.4% · reg. none",
            "{screen}"
        );
        // Shorter: the legend goes first, then the selected line; nothing overflows.
        let buf = draw(&map(), 33, 11, &theme("dark"));
        assert!(row_text(&buf, 10).starts_with("CA EXPOSED · sales 122.4%"));
        let buf = draw(&map(), 20, 6, &theme("dark"));
        assert_eq!(row_text(&buf, 0), "AK·");
        assert_eq!(row_text(&buf, 2), "WA·ID·MT·ND·MN·IL·MI");
    }

    #[test]
    fn at_80_columns_no_cell_runs_past_the_area() {
        for (w, h) in [(80, 24), (55, 13), (54, 13), (38, 12), (30, 10)] {
            let mut buf = blank(w + 5, h + 2);
            map().render(Rect::new(0, 0, w, h), &mut buf, &theme("dark"), true);
            for y in 0..h + 2 {
                let row = row_text(&buf, y);
                assert!(
                    text::width(&row) <= usize::from(w),
                    "{w}x{h}, row {y}: {row:?}"
                );
                if y >= h {
                    assert_eq!(row, "", "{w}x{h}: drawn below the area");
                }
            }
        }
    }

    #[test]
    fn cells_are_coloured_by_standing() {
        let t = theme("dark");
        let buf = draw(&map(), 80, 14, &t);
        let fg_of = |needle: &str| {
            let (x, y) = find(&buf, needle);
            buf[(x, y)].style().fg
        };
        assert_eq!(fg_of("TX~"), t.status_pending.fg);
        assert_eq!(fg_of("NY+"), t.status_good.fg);
        assert_eq!(fg_of("NVp"), t.info.fg);
        assert_eq!(fg_of("WY·"), t.muted.fg);
        let (x, y) = find(&buf, "[CA!]");
        assert_eq!(
            buf[(x, y)].style().bg,
            t.selection.bg,
            "the selection style when focused"
        );
        // Without the focus the selected cell is still bracketed, not reversed.
        let mut buf = blank(80, 14);
        map().render(buf.area, &mut buf, &t, false);
        let (x, y) = find(&buf, "[CA!]");
        assert_eq!(buf[(x, y)].style().fg, t.status_bad.fg);
        assert_ne!(buf[(x, y)].style().bg, t.selection.bg);
    }

    #[test]
    fn the_mono_theme_reads_by_symbols_and_reverse_alone() {
        let t = theme("mono");
        for (w, h) in [(80, 14), (38, 12)] {
            let buf = draw(&map(), w, h, &t);
            let screen = all_text(&buf);
            for needle in ["CA!", "TX~", "NY+", "NVp", "WY·"] {
                find(&buf, needle);
            }
            assert!(screen.contains("! exposed"), "{screen}");
            for cell in buf.content() {
                assert!(
                    matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
                    "{w}x{h}: a colour in mono: {cell:?}"
                );
            }
            let (x, y) = find(&buf, "CA!");
            assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED), "{w}x{h}");
            let (x, y) = find(&buf, "TX~");
            assert!(!buf[(x, y)].modifier.contains(Modifier::REVERSED));
        }
    }

    #[test]
    fn arrows_move_to_the_nearest_cell_that_way() {
        let mut m = map();
        let at = |m: &StateMap| m.selected_tile().code;
        assert!(m.select("US", Some("TX")));
        assert!(m.move_by(Direction::Up));
        assert_eq!(at(&m), "OK", "straight up");
        m.select("US", Some("TX"));
        assert!(m.move_by(Direction::Right));
        assert_eq!(at(&m), "FL", "the next cell on the row");
        m.select("US", Some("TX"));
        assert!(m.move_by(Direction::Left));
        assert_eq!(at(&m), "HI");
        assert!(!m.move_by(Direction::Left), "nothing left of Hawaii");
        assert_eq!(at(&m), "HI");
        assert!(m.move_by(Direction::Down));
        assert_eq!(at(&m), "YT", "from the US down into Canada");
        assert!(m.move_by(Direction::Down));
        assert_eq!(at(&m), "BC");
        assert!(!m.move_by(Direction::Down));
        m.select("US", Some("AK"));
        assert!(!m.move_by(Direction::Up));
        assert!(m.move_by(Direction::Right));
        assert_eq!(at(&m), "ME", "left and right keep to the row");
        m.select("US", Some("ME"));
        assert!(m.move_by(Direction::Down));
        assert_eq!(at(&m), "NH");
        m.select("CA", Some("NS"));
        assert!(m.move_by(Direction::Right));
        assert_eq!(at(&m), "EU");
        // The arrow keys name the directions; other keys none.
        let key = crate::ui::widgets::testing::key;
        assert_eq!(Direction::of_key(&key(KeyCode::Up)), Some(Direction::Up));
        assert_eq!(
            Direction::of_key(&key(KeyCode::Left)),
            Some(Direction::Left)
        );
        assert_eq!(Direction::of_key(&key(KeyCode::Char('k'))), None);
    }

    #[test]
    fn enter_opens_registrations_when_registered_else_nexus() {
        let mut m = map();
        assert_eq!(m.target(), Some(("US".into(), Some("CA".into()), false)));
        m.select("ZZ_EU", None);
        assert_eq!(m.selected_tile().code, "EU");
        assert_eq!(m.target(), Some(("ZZ_EU".into(), None, true)));
        m.select("CA", Some("ON"));
        assert_eq!(m.target(), Some(("CA".into(), Some("ON".into()), true)));
        assert!(!m.select("DE", None), "no cell for an EU member state");
        assert_eq!(m.selected_tile().code, "ON");
    }
}
