use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use rust_decimal::Decimal;

use super::*;
use crate::ui::text::{self, buffer_lines, money};
use crate::ui::theme::Theme;

#[derive(Debug, Clone, PartialEq)]
struct Reg {
    id: u64,
    state: String,
    amount: Decimal,
}

fn reg(id: u64) -> Reg {
    Reg {
        id,
        state: format!("State {id}"),
        amount: Decimal::new(i64::try_from(id).unwrap() * 1000 + 5, 2),
    }
}

/// Page `page` (1-based) of a list of `total` rows built by `make`.
fn page_with(page: u32, total: u64, make: impl Fn(u64) -> Reg) -> Page<Reg> {
    let start = u64::from(page - 1) * 100;
    let end = (start + 100).min(total);
    Page::new((start..end).map(make).collect(), total, page, 100)
}

fn page(page: u32, total: u64) -> Page<Reg> {
    page_with(page, total, reg)
}

fn columns() -> Vec<Column<Reg>> {
    vec![
        Column::new("ID", |r: &Reg, _| Line::from(r.id.to_string()))
            .sort_key("id")
            .width(ColumnWidth::fixed(7))
            .right(),
        Column::new("State", |r: &Reg, t: &Theme| {
            Line::styled(r.state.as_str(), t.base)
        })
        .sort_key("state")
        .width(ColumnWidth::flex(5, 1)),
        Column::new("Amount", |r: &Reg, t: &Theme| {
            Line::styled(money(r.amount, Some("USD")), t.money)
        })
        .width(ColumnWidth::between(8, 16, 1))
        .right(),
    ]
}

/// A table with `total` rows whose first page has arrived, showing `viewport` body rows.
fn loaded(total: u64, viewport: u16) -> PagedTable<Reg> {
    let mut t = PagedTable::new("registrations");
    t.viewport = viewport;
    let asked = t.wants();
    assert_eq!(asked.len(), 1);
    assert!(t.receive(asked[0].generation, 1, page(1, total)));
    t
}

fn pages(requests: &[PageRequest]) -> Vec<u32> {
    requests.iter().map(|r| r.page).collect()
}

fn draw(t: &mut PagedTable<Reg>, width: u16, height: u16, theme: &Theme) -> Buffer {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    t.render(area, &mut buf, theme, &columns(), true);
    buf
}

#[test]
fn asks_for_the_first_page_once() {
    let mut t: PagedTable<Reg> = PagedTable::new("registrations");
    assert!(t.is_loading());
    let asked = t.wants();
    assert_eq!(
        asked,
        [PageRequest {
            generation: 0,
            page: 1,
            size: 100,
            order_by: None
        }]
    );
    assert_eq!(asked[0].params(), PageParams::new(1, 100));
    assert!(t.wants().is_empty(), "asked again before the answer");
    assert!(t.receive(0, 1, page(1, 250)));
    assert_eq!(t.total(), Some(250));
    assert_eq!(t.selected(), Some(&reg(0)));
}

#[test]
fn fetches_the_neighbour_page_near_a_boundary() {
    let mut t = loaded(1_000, 10);
    t.select(79); // 21 rows from the end of page 1
    assert!(t.wants().is_empty());
    t.down(1); // 20 rows from the end
    assert_eq!(pages(&t.wants()), [2]);
    assert!(t.receive(t.generation(), 2, page(2, 1_000)));

    t.select(230); // page 3, 30 rows into it: page 3 (and nothing else) is wanted
    assert_eq!(pages(&t.wants()), [3]);
    t.up(11); // row 219: 19 rows into page 3, page 2 is cached
    assert!(t.wants().is_empty());
    t.select(415); // page 5, 15 rows in: the previous page too
    assert_eq!(pages(&t.wants()), [4, 5]);
}

#[test]
fn fetches_every_page_of_the_visible_window() {
    let mut t = loaded(1_000, 30);
    // Cursor at the top of a window that spans pages 1 and 2, 25 rows from the boundary.
    t.select(120);
    t.select(75);
    assert_eq!((t.cursor(), t.offset()), (75, 75));
    assert_eq!(pages(&t.wants()), [2]);
}

#[test]
fn bottom_of_a_million_rows_wants_only_the_last_page() {
    let mut t = loaded(1_000_000, 40);
    t.bottom();
    assert_eq!(t.cursor(), 999_999);
    assert_eq!(t.offset(), 999_960);
    let asked = t.wants();
    assert_eq!(pages(&asked), [10_000]);
    assert!(t.selected().is_none(), "its page is not here yet");
    assert!(t.receive(asked[0].generation, 10_000, page(10_000, 1_000_000)));
    assert_eq!(t.selected(), Some(&reg(999_999)));
    assert_eq!(t.cached_pages(), 2);
    t.top();
    assert!(t.wants().is_empty(), "page 1 is still cached");
}

#[test]
fn answers_of_an_old_generation_are_dropped() {
    let mut t = loaded(500, 10);
    t.down(95);
    let old = t.wants();
    assert_eq!(pages(&old), [2]);
    t.reset(); // the filter changed
    assert!(t.is_loading());
    assert!(t.selected().is_none(), "no stale row survives a reset");
    assert!(!t.receive(old[0].generation, 2, page(2, 500)));
    assert!(!t.fail(old[0].generation, 2));
    assert_eq!(t.cached_pages(), 0);
    assert!(t.is_loading());
    let fresh = t.wants();
    assert_eq!(fresh[0].generation, old[0].generation + 1);
    assert_eq!(pages(&fresh), [1]);
}

#[test]
fn the_cache_stays_bounded_and_keeps_the_pages_near_the_cursor() {
    let mut t = loaded(100_000, 20);
    for p in 2..=40u32 {
        t.select(u64::from(p - 1) * 100 + 50);
        for request in t.wants() {
            let answer = page(request.page, 100_000);
            assert!(t.receive(request.generation, request.page, answer));
        }
        assert!(t.cached_pages() <= MAX_CACHED_PAGES);
        assert!(t.selected().is_some());
    }
    assert_eq!(t.cached_pages(), MAX_CACHED_PAGES);
    assert!(t.pages.contains_key(&40) && t.pages.contains_key(&31));
    assert!(!t.pages.contains_key(&1));
    // Going back asks for the evicted page again.
    t.top();
    assert_eq!(pages(&t.wants()), [1]);
}

#[test]
fn the_cursor_is_clamped_when_the_list_shrinks() {
    let mut t = loaded(1_000, 10);
    t.select(950);
    let asked = t.wants();
    assert_eq!(pages(&asked), [10]);
    // Meanwhile rows were deleted: the answer says 500.
    assert!(t.receive(asked[0].generation, 10, page(10, 500)));
    assert_eq!(t.total(), Some(500));
    assert_eq!(t.cursor(), 499);
    assert_eq!(t.offset(), 490);
    assert_eq!(t.cached_pages(), 1, "nothing past the end is kept");
    assert_eq!(pages(&t.wants()), [5]);
    // And when it empties.
    assert!(t.receive(t.generation(), 5, page(5, 0)));
    assert_eq!((t.cursor(), t.offset(), t.total()), (0, 0, Some(0)));
    assert!(t.selected().is_none());
    assert!(t.wants().is_empty());
}

#[test]
fn movement_stays_in_the_list() {
    let mut t = loaded(250, 10);
    t.up(5);
    assert_eq!(t.cursor(), 0);
    t.page_down(10);
    assert_eq!((t.cursor(), t.offset()), (10, 10));
    t.down(1_000);
    assert_eq!((t.cursor(), t.offset()), (249, 240));
    t.page_up(10);
    assert_eq!((t.cursor(), t.offset()), (239, 230));
    t.select(3);
    assert_eq!((t.cursor(), t.offset()), (3, 3));

    // Before the first page nothing moves.
    let mut empty: PagedTable<Reg> = PagedTable::new("registrations");
    empty.bottom();
    empty.page_down(10);
    assert_eq!((empty.cursor(), empty.offset()), (0, 0));
}

#[test]
fn sorting_reloads_with_order_by() {
    let mut t = loaded(300, 10);
    let generation = t.generation();
    t.sort_by("state");
    assert_eq!(t.order_by().as_deref(), Some("state"));
    assert_eq!(t.generation(), generation + 1);
    assert!(t.is_loading());
    t.sort_by("state");
    assert_eq!(t.order_by().as_deref(), Some("-state"));
    let asked = t.wants();
    assert_eq!(asked[0].order_by.as_deref(), Some("-state"));
    t.sort_by("");
    assert_eq!(t.order_by().as_deref(), Some("-state"), "unsortable column");
    t.set_sort(None);
    assert_eq!(t.order_by(), None);
}

#[test]
fn a_failed_page_waits_for_retry() {
    let mut t = loaded(1_000, 10);
    t.select(500);
    let asked = t.wants();
    assert_eq!(pages(&asked), [5, 6]);
    for r in &asked {
        assert!(t.fail(r.generation, r.page));
    }
    assert!(t.wants().is_empty(), "no retry storm");
    let lines = buffer_lines(&draw(&mut t, 40, 5, &Theme::default()));
    assert_eq!(lines[3].trim_end(), "✗");
    assert_eq!(lines[4].trim_end(), "row 501 of 1,000 · failed to load");
    t.retry();
    assert_eq!(pages(&t.wants()), [5, 6]);
}

#[test]
fn render_shows_the_window_and_row_n_of_total() {
    let mut t = loaded(1_000_000, 3);
    t.select(1_233);
    for r in t.wants() {
        t.receive(r.generation, r.page, page(r.page, 1_000_000));
    }
    let theme = Theme::default();
    let lines = buffer_lines(&draw(&mut t, 40, 5, &theme));
    assert_eq!(lines[4].trim_end(), "row 1,234 of 1,000,000");
    assert!(lines[0].starts_with("     ID State"), "{lines:?}");
    assert!(lines[3].contains("1233") && lines[3].contains("12,330.05 USD"));
}

#[test]
fn placeholders_for_rows_on_their_way() {
    let mut t = loaded(1_000, 4);
    t.select(600);
    let lines = buffer_lines(&draw(&mut t, 40, 6, &Theme::default()));
    assert_eq!(lines[1].trim_end(), "…");
    t.wants();
    let lines = buffer_lines(&draw(&mut t, 40, 6, &Theme::default()));
    assert_eq!(lines[5].trim_end(), "row 601 of 1,000 · loading…");
}

#[test]
fn loading_and_empty_states_never_show_stale_rows() {
    let theme = Theme::default();
    let mut t = loaded(1_000, 4);
    let before = buffer_lines(&draw(&mut t, 40, 6, &theme)).join("\n");
    assert!(before.contains("State 0"));
    t.reset();
    let lines = buffer_lines(&draw(&mut t, 40, 6, &theme));
    assert!(!lines.join("\n").contains("State 0"), "{lines:?}");
    assert_eq!(lines[1].trim_end(), "⠋ loading registrations…");
    assert_eq!(lines[5].trim_end(), "loading…");
    t.wants();
    assert!(t.receive(t.generation(), 1, page(1, 0)));
    let lines = buffer_lines(&draw(&mut t, 40, 6, &theme));
    assert_eq!(lines[1].trim_end(), "no registrations");
    assert_eq!(
        lines[5].trim_end(),
        "",
        "said once, where the rows would be"
    );
    // With no room for rows, the status line says it.
    let lines = buffer_lines(&draw(&mut t, 40, 1, &theme));
    assert_eq!(lines[0].trim_end(), "no registrations");
}

#[test]
fn long_and_wide_text_is_cut_with_an_ellipsis() {
    let mut t = PagedTable::new("registrations");
    t.wants();
    let wide = |id| Reg {
        state: "東京都港区六本木 🎉 Roppongi".into(),
        ..reg(id)
    };
    t.receive(0, 1, page_with(1, 1, wide));
    // 30 wide: ID 7 + 1 + State 5 + 1 + Amount 8 leaves 8, all to the cut State: 13.
    let lines = buffer_lines(&draw(&mut t, 30, 3, &Theme::default()));
    assert_eq!(lines[1], "      0 東京都港区六… 0.05 USD");
    // An odd width: the last ideograph cannot fit half, so the cell is one short.
    let lines = buffer_lines(&draw(&mut t, 31, 3, &Theme::default()));
    assert_eq!(lines[1], "      0 東京都港区六…  0.05 USD");
    assert!(lines.iter().all(|l| crate::ui::text::width(l) <= 31));
}

#[test]
fn a_number_in_a_cut_cell_is_never_cut_inside_its_digits() {
    let mut t = PagedTable::new("registrations");
    t.wants();
    let with_figure = |id| Reg {
        state: "TX 1,356.00 USD".into(),
        ..reg(id)
    };
    t.receive(0, 1, page_with(1, 1, with_figure));
    // 30 wide leaves the State column 13: `TX 1,356.00 …` fits the figure whole.
    let lines = buffer_lines(&draw(&mut t, 30, 3, &Theme::default()));
    assert_eq!(lines[1], "      0 TX 1,356.00 … 0.05 USD");
    // 25 wide leaves it 8: the figure gives way whole, never `TX 1,35…`.
    let lines = buffer_lines(&draw(&mut t, 25, 3, &Theme::default()));
    assert_eq!(lines[1], "      0 TX …     0.05 USD");
}

#[test]
fn the_selected_row_takes_the_selection_style() {
    let theme = Theme::load("dark", None).unwrap();
    let mut t = loaded(10, 5);
    t.down(2);
    let buf = draw(&mut t, 40, 7, &theme);
    // Body starts on line 1: the cursor's row is line 3.
    assert_eq!(buf[(10, 3)].bg, theme.selection.bg.unwrap());
    assert!(buf[(10, 3)].modifier.contains(Modifier::BOLD));
    assert_ne!(buf[(10, 2)].bg, theme.selection.bg.unwrap());
    let unfocused = {
        let area = Rect::new(0, 0, 40, 7);
        let mut buf = Buffer::empty(area);
        t.render(area, &mut buf, &theme, &columns(), false);
        buf
    };
    assert!(unfocused[(10, 3)].modifier.contains(Modifier::DIM));
}

#[test]
fn the_header_marks_the_sort() {
    let mut t = loaded(10, 5);
    t.sort_by("state");
    t.sort_by("state");
    t.wants();
    t.receive(t.generation(), 1, page(1, 10));
    let lines = buffer_lines(&draw(&mut t, 40, 4, &Theme::default()));
    assert!(lines[0].contains("State ▼"), "{lines:?}");
}

#[test]
fn narrow_terminals_hide_columns_instead_of_wrapping() {
    let mut t = loaded(3, 3);
    let lines = buffer_lines(&draw(&mut t, 14, 5, &Theme::default()));
    // The ID and State fit, but the marker of the hidden columns takes the State's room.
    assert_eq!(lines[0], "     ID     +2");
    assert_eq!(lines[1].trim_end(), "      0");
    let lines = buffer_lines(&draw(&mut t, 18, 5, &Theme::default()));
    assert_eq!(lines[0], "     ID State   +1");
    assert_eq!(lines[1].trim_end(), "      0 State 0");
}

#[test]
fn snapshot_of_a_small_table() {
    let mut t = loaded(1_234, 6);
    t.sort_by("id");
    t.wants();
    t.receive(t.generation(), 1, page(1, 1_234));
    t.down(2);
    let lines = buffer_lines(&draw(&mut t, 44, 8, &Theme::default()));
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn s_cycles_the_sortable_columns_and_capital_s_turns_it_around() {
    let mut t = loaded(500, 20);
    let columns = columns();
    let first = t.next_sort(&columns, false).unwrap();
    assert_eq!((first.key, first.descending), ("id", false));
    t.set_sort(Some(first));
    let second = t.next_sort(&columns, false).unwrap();
    assert_eq!(
        (second.key, second.descending),
        ("state", false),
        "amount does not sort"
    );
    t.set_sort(Some(second));
    assert_eq!(
        t.next_sort(&columns, false).unwrap().key,
        "id",
        "back to the first"
    );
    let reversed = t.next_sort(&columns, true).unwrap();
    assert_eq!((reversed.key, reversed.descending), ("state", true));
    assert_eq!(reversed.order_by(), "-state");
    let unsortable: Vec<Column<Reg>> = columns.into_iter().filter(|c| !c.sortable()).collect();
    assert!(t.next_sort(&unsortable, false).is_none());
}

#[test]
fn movement_actions_move_the_cursor_and_others_are_left_alone() {
    let mut t = loaded(500, 20);
    assert!(t.navigate(Action::Down));
    assert_eq!(t.cursor(), 1);
    assert!(t.navigate(Action::PageDown));
    assert_eq!(t.cursor(), 21);
    assert!(t.navigate(Action::Bottom));
    assert_eq!(t.cursor(), 499);
    assert!(t.navigate(Action::Top));
    assert_eq!(t.cursor(), 0);
    assert!(!t.navigate(Action::Open), "not a movement");
    assert_eq!(t.cursor(), 0);
}

/// The columns of a pane that declares priorities: the id gives way first, the state next, the
/// status late, and the amount is never cut.
fn prioritised() -> Vec<Column<Reg>> {
    vec![
        Column::new("ID", |r: &Reg, _| Line::from(r.id.to_string()))
            .width(ColumnWidth::fixed(7))
            .priority(10)
            .right(),
        Column::new("State", |r: &Reg, _| Line::from(r.state.as_str()))
            .width(ColumnWidth::flex(8, 1)),
        Column::new("Status", |_: &Reg, _| Line::from("REGISTERED"))
            .width(ColumnWidth::between(6, 10, 1))
            .priority(90),
        Column::new("Amount", |r: &Reg, t: &Theme| {
            Line::styled(money(r.amount, Some("USD")), t.money)
        })
        .width(ColumnWidth::between(8, 10, 1))
        .keep()
        .right(),
    ]
}

fn draw_prioritised(t: &mut PagedTable<Reg>, width: u16) -> Vec<String> {
    let area = Rect::new(0, 0, width, 4);
    let mut buf = Buffer::empty(area);
    t.render(area, &mut buf, &Theme::default(), &prioritised(), true);
    buffer_lines(&buf)
}

/// A table of 2,000 rows showing rows 1,233 and 1,234, whose amounts are `12,330.05 USD` wide.
fn wide_amounts() -> PagedTable<Reg> {
    let mut t = loaded(2_000, 2);
    t.select(1_233);
    for r in t.wants() {
        t.receive(r.generation, r.page, page(r.page, 2_000));
    }
    t
}

#[test]
fn a_kept_amount_is_shown_whole_past_its_maximum() {
    let mut t = wide_amounts();
    // ID 7 + State 8 + Status 6 + Amount 13 (its widest cell, past its maximum of 10) + 3 = 37;
    // of the 3 left, 2 make the state whole and the last goes to the status.
    let lines = draw_prioritised(&mut t, 40);
    assert_eq!(lines[0], "     ID State      Status         Amount");
    assert_eq!(lines[2], "   1233 State 1233 REGIST… 12,330.05 USD");
    assert!(!lines.join("\n").contains("column"), "nothing is hidden");
}

#[test]
fn narrow_tables_hide_low_priority_columns_whole_and_say_so() {
    let mut t = wide_amounts();
    // 36 cells: the id (lowest priority) goes, though it comes first; the header says so, short
    // where the long form would cost a column.
    let lines = draw_prioritised(&mut t, 36);
    assert_eq!(lines[0], "State      Status          Amount +1");
    assert_eq!(lines[2].trim_end(), "State 1233 REGISTE… 12,330.05 USD");
    assert_eq!(lines[3].trim_end(), "row 1,234 of 2,000 · not shown: ID");
    // With room to spare the marker says what it counts.
    let wide_id = vec![
        Column::new("Filing", |r: &Reg, _| Line::from(r.id.to_string()))
            .width(ColumnWidth::fixed(20))
            .priority(10),
        Column::new("State", |r: &Reg, _| Line::from(r.state.as_str()))
            .width(ColumnWidth::flex(5, 1)),
    ];
    let area = Rect::new(0, 0, 25, 4);
    let mut buf = Buffer::empty(area);
    t.render(area, &mut buf, &Theme::default(), &wide_id, true);
    let lines = buffer_lines(&buf);
    assert_eq!(lines[0], "State           +1 column");
    assert_eq!(lines[2].trim_end(), "State 1233");
    // 22 cells: the state goes next; the status stays, and the amount is whole.
    let lines = draw_prioritised(&mut t, 24);
    assert_eq!(lines[0], "Status         Amount +2");
    assert_eq!(lines[2].trim_end(), "REGIST… 12,330.05 USD");
    for width in 14..60 {
        let lines = draw_prioritised(&mut t, width);
        let amount = lines[2].contains("12,330.05 USD");
        let status = lines[0].contains("Status");
        assert!(amount, "{width}: the amount is cut: {lines:?}");
        assert!(!status || amount, "{width}: the status outlived the amount");
        assert!(lines.iter().all(|l| text::width(l) <= usize::from(width)));
        assert!(!lines[2].contains("12,330.0…"), "{width}: {lines:?}");
    }
}

#[test]
fn a_whole_column_is_hidden_rather_than_cut() {
    let mut t = wide_amounts();
    let mut columns = prioritised();
    columns[2] = columns[2].whole();
    let area = Rect::new(0, 0, 40, 4);
    let mut buf = Buffer::empty(area);
    t.render(area, &mut buf, &Theme::default(), &columns, true);
    let lines = buffer_lines(&buf);
    // The status shows whole where it was cut to `REGIST…`; the id gives way for it.
    assert!(lines[2].contains("1233  REGISTERED"), "{lines:?}");
    assert!(!lines.join("\n").contains('…'), "{lines:?}");
    assert!(lines[3].contains("not shown: ID"), "{lines:?}");
    // Too narrow for it whole beside the amount, it goes too, never cut.
    let area = Rect::new(0, 0, 20, 4);
    let mut buf = Buffer::empty(area);
    t.render(area, &mut buf, &Theme::default(), &columns, true);
    let lines = buffer_lines(&buf);
    assert!(!lines.join("\n").contains("REGIST"), "{lines:?}");
    assert!(lines[2].contains("12,330.05 USD"), "{lines:?}");
}
