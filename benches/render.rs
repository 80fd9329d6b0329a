//! Frame time at 200x50: the whole dashboard on the Registrations list, and a paged table
//! holding 1,000 and 1,000,000 rows (only the pages near the cursor are held, so frame time and
//! memory must not grow with the row count).
//!
//! Run: `cargo bench --bench render` (env `BENCH_FRAMES` to vary the number of frames).

use std::time::{Duration, Instant};
use taxdash::effect::RegistrationReply;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use taxdash::effect::{Answer, Effect, Reply};
use taxdash::model::Page;
use taxdash::sandbox::demo_data;
use taxdash::sandbox::transactions::{Filter, Transactions};
use taxdash::ui::keymap::Keymap;
use taxdash::ui::panes::{self, registrations, transactions};
use taxdash::ui::shell::{HeaderInfo, Shell};
use taxdash::ui::theme::Theme;
use taxdash::ui::widgets::paged_table::{Column, PagedTable};

const WIDTH: u16 = 200;
const HEIGHT: u16 = 50;

fn frames() -> usize {
    std::env::var("BENCH_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// Median and 99th percentile of `run` over the frames, after a warm-up.
fn measure(mut run: impl FnMut()) -> (Duration, Duration) {
    for _ in 0..100 {
        run();
    }
    let mut times: Vec<Duration> = (0..frames())
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// A page of `size` rows cycling through `rows`.
fn page<R: Clone>(rows: &[R], number: u32, size: u32, total: u64) -> Page<R> {
    let start = u64::from(number - 1) * u64::from(size);
    let end = (start + u64::from(size)).min(total);
    let items = (start..end)
        .map(|i| rows[(i % rows.len() as u64) as usize].clone())
        .collect();
    Page::new(items, total, number, size)
}

fn table_frames<R: Clone>(label: &str, rows: &[R], columns: &[Column<R>], total: u64) {
    let theme = Theme::default();
    let columns = columns.to_vec();
    let mut table: PagedTable<R> = PagedTable::new("rows");
    let area = Rect::new(0, 0, WIDTH, HEIGHT);
    let mut buf = Buffer::empty(area);
    // First frame sizes the window; then answer what the table asks for.
    table.render(area, &mut buf, &theme, &columns, true);
    let feed = |table: &mut PagedTable<R>| {
        for want in table.wants() {
            table.receive(
                want.generation,
                want.page,
                page(rows, want.page, want.size, total),
            );
        }
    };
    feed(&mut table);
    let (top_median, top_p99) = measure(|| table.render(area, &mut buf, &theme, &columns, true));
    // Walk through 50 pages, then jump to the end: the cache stays bounded.
    for _ in 0..50 {
        table.page_down(HEIGHT * 2);
        table.render(area, &mut buf, &theme, &columns, true);
        feed(&mut table);
    }
    table.bottom();
    table.render(area, &mut buf, &theme, &columns, true);
    feed(&mut table);
    table.render(area, &mut buf, &theme, &columns, true);
    let (end_median, end_p99) = measure(|| table.render(area, &mut buf, &theme, &columns, true));
    println!(
        "  {label} table, {total:>9} rows: top median {} (p99 {}), end median {} (p99 {}); pages held {} ({} rows)",
        ms(top_median),
        ms(top_p99),
        ms(end_median),
        ms(end_p99),
        table.cached_pages(),
        table.cached_pages() * 100
    );
}

fn main() {
    let demo = demo_data::generate(42, 0, "orgn_demo_1", demo_data::DEMO_ANCHOR);
    let rows = demo.registrations.clone();
    println!("frame time at {WIDTH}x{HEIGHT}, {} frames each", frames());

    // The whole dashboard: header, tabs, the registrations list, status and footer.
    let header = HeaderInfo {
        profile: "demo".into(),
        organization: "orgn_demo_1".into(),
        generation: "v1".into(),
        demo: true,
        read_only: false,
        offline: None,
    };
    let mut shell = Shell::new(panes::all(), Keymap::default(), Theme::default(), header);
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("a terminal");
    terminal.draw(|f| shell.draw(f)).expect("draw");
    for effect in shell.start() {
        if let Effect::Call { id, .. } = effect {
            let total = rows.len() as u64;
            shell.handle_answer(Answer {
                id,
                result: Ok(Reply::Registrations(RegistrationReply::Page(Page::new(
                    rows.clone(),
                    total,
                    1,
                    100,
                )))),
            });
        }
    }
    let (median, p99) = measure(|| {
        terminal.draw(|f| shell.draw(f)).expect("draw");
    });
    println!(
        "  dashboard on the registrations list ({} rows): median {} (p99 {})",
        rows.len(),
        ms(median),
        ms(p99)
    );

    let columns = registrations::columns();
    for total in [1_000, 1_000_000] {
        table_frames("registrations", &rows, &columns, total);
    }

    // The Transactions pane's table on demo transactions, at the sandbox's --scale 100 count.
    let today = chrono::Utc::now().date_naive();
    let store = Transactions::generate(42, 0, "orgn_demo_1", today, 1_000, demo.customers.len());
    let positions = store.query(&Filter::default(), &[], today, &demo.customers);
    let sample = store.rows_at(&positions[..positions.len().min(300)], &demo.customers);
    let columns = transactions::columns();
    for total in [1_000, 1_000_000] {
        table_frames("transactions", &sample, &columns, total);
    }
}
