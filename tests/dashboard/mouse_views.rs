//! The mouse through the loop's event source, the export of the list on screen, and saved views
//! kept in the config file.

use std::time::Duration;

use crossterm::event::KeyCode;
use taxdash::model::PageParams;
use taxdash::model::filters::RegistrationFilter;

use crate::harness::{Dashboard, Options};

/// The total of the whole registrations list.
async fn registrations(d: &Dashboard) -> u64 {
    d.client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total
}

#[tokio::test]
async fn clicks_choose_rows_sort_by_headers_and_show_tabs_and_the_wheel_scrolls() {
    let d = Dashboard::start(Options::default()).await;
    let total = registrations(&d).await;
    d.wait_for(&format!("row 1 of {total}")).await;
    let (x, header) = d.locate("Jurisdiction", 2).expect("the header");

    // A click on the third row selects it.
    d.click(x, header + 3);
    d.wait_for(&format!("row 3 of {total}")).await;

    // The wheel moves three rows a notch, down and up.
    d.wheel(true, x, header + 5);
    d.wait_for(&format!("row 6 of {total}")).await;
    d.wheel(false, x, header + 5);
    d.wait_for(&format!("row 3 of {total}")).await;

    // A click on the row already selected opens it; Esc goes back to the list.
    let row = d
        .screen()
        .lines()
        .nth(usize::from(header + 3))
        .unwrap()
        .to_owned();
    let jurisdiction = row
        .trim_start_matches('│')
        .split("  ")
        .next()
        .unwrap()
        .trim()
        .to_owned();
    d.click(x, header + 3);
    d.wait_until("the detail", Duration::from_secs(10), |s| {
        !s.contains(&format!("row 3 of {total}")) && s.contains(&jurisdiction)
    })
    .await;
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row 3 of {total}")).await;

    // A click on a column's header sorts by it, a second the other way.
    let (status, header_y) = d.locate("Status", header).expect("the Status header");
    d.click(status + 1, header_y);
    d.wait_for("sorted by status ▲").await;
    d.wait_for(&format!("row 1 of {total}")).await;
    // The columns are as wide as what they show: the header is found again on the new rows.
    let (status, header_y) = d.locate("Status ▲", header).expect("the sorted header");
    d.click(status + 1, header_y);
    d.wait_for("sorted by status ▼").await;

    // A click on a tab shows it.
    let (tab, tabs_y) = d.locate("Transactions", 1).expect("the tab");
    assert_eq!(tabs_y, 1, "the tab bar is the second row");
    d.click(tab + 2, tabs_y);
    d.wait_for("Transactions —").await;
    d.quit().await;
}

#[tokio::test]
async fn a_click_chooses_an_overview_count_and_a_second_opens_its_list() {
    let d = Dashboard::start(Options {
        size: (200, 50),
        first_tab: "Overview",
        ..Options::default()
    })
    .await;
    d.wait_until("the Overview filled", Duration::from_secs(15), |s| {
        s.contains("Overview — updated")
    })
    .await;
    let (x, y) = d.locate("overdue", 2).expect("the overdue filings count");
    d.click(x, y);
    // Chosen, not opened: the Overview stays.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(d.screen().contains("Overview — updated"), "{}", d.screen());
    d.click(x, y);
    d.wait_for("overdue (due before").await;
    d.quit().await;
}

#[tokio::test]
async fn the_list_on_screen_exports_as_filtered() {
    let d = Dashboard::start(Options::default()).await;
    let total = registrations(&d).await;
    d.wait_for(&format!("row 1 of {total}")).await;
    d.filter_to_state("CA", false).await;
    let californians = d
        .client
        .list_registrations(
            &RegistrationFilter {
                state_code: Some("CA".into()),
                ..RegistrationFilter::default()
            },
            PageParams::new(1, 1),
        )
        .await
        .unwrap()
        .total;
    assert!(californians < total, "the filter leaves rows out");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("california.csv");
    d.command(&format!("export csv {}", file.display()));
    let screen = d.wait_for("Wrote ").await;
    assert!(
        screen.contains(&format!(
            "Wrote {californians} registrations to {}",
            file.display()
        )),
        "{screen}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len() as u64, californians, "{text}");
    assert!(rows.iter().all(|r| r.contains(",CA,")), "{text}");
    // Nothing but the file: the temporary one is gone.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    // A format it does not know is refused with the usage.
    d.command("export xml");
    d.wait_for("Usage: :export csv|json|jsonl [FILE]").await;
    d.quit().await;
}

#[tokio::test]
async fn a_saved_view_is_kept_in_the_config_file_and_shown_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, "# hand written\ntheme = \"dark\"\n").unwrap();

    let d = Dashboard::start_with_views(Options::default(), file.clone()).await;
    let total = registrations(&d).await;
    d.wait_for(&format!("row 1 of {total}")).await;
    d.filter_to_state("TX", false).await;
    d.char('s');
    d.wait_for("sorted by").await;
    let sorted = d.screen();
    d.command("view save texas");
    d.wait_for("View texas saved in").await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# hand written\ntheme = \"dark\"\n"),
        "{text}"
    );
    assert!(text.contains("[views.registrations.texas]"), "{text}");
    d.quit().await;

    // A new dashboard on the same file: the view shows the list as it was kept.
    let d = Dashboard::start_with_views(Options::default(), file.clone()).await;
    d.wait_for(&format!("row 1 of {total}")).await;
    d.command("view");
    d.wait_for("Saved views of Registrations: texas").await;
    d.command("view texas");
    let screen = d
        .wait_until("the view", Duration::from_secs(10), |s| {
            s.contains("state TX") && s.contains("row 1 of 1 ")
        })
        .await;
    let title = |s: &str| {
        s.lines()
            .find(|l| l.contains("Registrations —"))
            .map(str::to_owned)
    };
    assert_eq!(title(&screen), title(&sorted), "{screen}");
    d.command("view nowhere");
    d.wait_for("No view nowhere").await;
    d.quit().await;
}

#[tokio::test]
async fn a_view_the_config_file_cannot_take_is_not_saved_and_the_error_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, "theme = \"dark\"\n").unwrap();
    let d = Dashboard::start_with_views(Options::default(), file.clone()).await;
    d.wait_for("row 1 of").await;
    // The file goes bad while the dashboard runs: the write is refused, the file left as it is.
    std::fs::write(&file, "views = 3\n").unwrap();
    d.command("view save broken");
    d.wait_for("View broken was not saved").await;
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "views = 3\n");
    d.command("view");
    d.wait_for("No saved views of Registrations").await;
    d.quit().await;
}

#[tokio::test]
async fn the_config_file_chooses_the_columns_and_columns_toggles_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(
        &file,
        "[columns]\nregistrations = [\"jurisdiction\", \"status\"]\n",
    )
    .unwrap();
    let d = Dashboard::start_with_views(Options::default(), file).await;
    let screen = d.wait_for("row 1 of").await;
    let header = |s: &str| {
        s.lines()
            .find(|l| l.contains("Jurisdiction"))
            .unwrap()
            .to_owned()
    };
    assert!(header(&screen).contains("Status"), "{screen}");
    assert!(!screen.contains("Sales tax ID"), "{screen}");

    // Tab completes a column's name.
    d.char(':');
    d.type_text("columns sales");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Enter);
    d.wait_for("sales_tax_id shown").await;
    assert!(header(&d.screen()).contains("Sales tax ID"));
    d.command("columns");
    let said = d
        .wait_for("Columns: jurisdiction, status, sales_tax_id")
        .await;
    assert!(said.contains("can show: "), "{said}");
    d.command("columns status jurisdiction sales_tax_id");
    d.wait_for("Columns: the last column shown stays").await;
    d.command("columns nonesuch");
    d.wait_for("Columns: no column or field nonesuch in registrations")
        .await;
    d.quit().await;
}

#[tokio::test]
async fn any_field_of_the_record_can_be_a_column() {
    let d = Dashboard::start(Options {
        size: (200, 40),
        ..Options::default()
    })
    .await;
    d.char(crate::checks::tab("Transactions"));
    d.wait_for("Transactions — last 12 months").await;
    d.wait_for("row 1 of").await;
    let header = |s: &str| {
        s.lines()
            .find(|l| l.contains("Date") && l.contains("Customer"))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(!header(&d.screen()).contains("exempt"));

    // `:columns` names the record's other fields, and Tab completes one.
    d.command("columns");
    let said = d.wait_for("can show: ").await;
    assert!(
        said.contains("can show: address_status, addresses"),
        "{said}"
    );
    d.char(':');
    d.type_text("columns exem");
    d.key(KeyCode::Tab);
    d.key(KeyCode::Enter);
    d.wait_for("exempt shown").await;
    d.command("columns customer_id");
    let screen = d.wait_for("customer_id shown").await;
    let head = header(&screen);
    assert!(
        head.contains("Exempt") && head.contains("Customer id"),
        "titled in words: {screen}"
    );
    // Its cells say what the service sent, whole.
    assert!(
        screen.contains("NOT_EXEMPT") || screen.contains("FULLY_EXEMPT"),
        "{screen}"
    );
    assert!(!screen.contains("_EXEM…"), "{screen}");
    // An amount is money, with its currency.
    d.command("columns customer_id");
    d.wait_for("customer_id hidden").await;
    d.command("columns total_tax_amount_calculated");
    let screen = d.wait_for("total_tax_amount_calculated shown").await;
    assert!(
        header(&screen).contains("Total tax amount calculated"),
        "{screen}"
    );
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains(" USD")).collect();
    assert!(!rows.is_empty(), "money with its currency: {screen}");

    // Named again, it goes.
    d.command("columns exempt");
    let screen = d.wait_for("exempt hidden").await;
    assert!(!header(&screen).contains("exempt "), "{screen}");
    d.quit().await;
}

/// A front to the sandbox that, while `stalled` is set, never answers the registrations list.
async fn stalling_front(
    target: String,
    stalled: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> String {
    use axum::body::{Body, to_bytes};
    use axum::extract::Request;
    use axum::response::Response;
    use std::sync::atomic::Ordering;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let http = reqwest::Client::new();
    let router = axum::Router::new().fallback(move |request: Request| {
        let (http, target, stalled) = (http.clone(), target.clone(), stalled.clone());
        async move {
            if stalled.load(Ordering::SeqCst) && request.uri().path() == "/v1/registrations" {
                tokio::time::sleep(Duration::from_hours(1)).await;
            }
            let path = request
                .uri()
                .path_and_query()
                .map_or("/", |p| p.as_str())
                .to_owned();
            let method = request.method().clone();
            let headers = request.headers().clone();
            let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
            let mut call = http
                .request(method, format!("{target}{path}"))
                .body(body.to_vec());
            for (name, value) in &headers {
                if name != axum::http::header::HOST && name != axum::http::header::CONTENT_LENGTH {
                    call = call.header(name, value);
                }
            }
            let answer = call.send().await.unwrap();
            let status = answer.status();
            let mut response = Response::new(Body::from(answer.bytes().await.unwrap()));
            *response.status_mut() = status;
            response.headers_mut().insert(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            );
            response
        }
    });
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test]
async fn an_export_under_way_leaves_the_keys_working_and_esc_cancels_it_leaving_no_file() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let stalled = Arc::new(AtomicBool::new(false));
    let switch = stalled.clone();
    let d =
        Dashboard::start_behind(Options::default(), |target| stalling_front(target, switch)).await;
    let total = registrations(&d).await;
    d.wait_for(&format!("row 1 of {total}")).await;

    stalled.store(true, Ordering::SeqCst);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("registrations.jsonl");
    d.command(&format!("export jsonl {}", file.display()));
    d.wait_for("exporting registrations: waiting for the first page")
        .await;
    // The list still moves while the export waits.
    d.char('j');
    d.wait_for(&format!("row 2 of {total}")).await;

    d.key(KeyCode::Esc);
    d.wait_for("Export cancelled").await;
    assert!(!file.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary file left"
    );
    assert!(!d.screen().contains("exporting registrations"));
    d.quit().await;
}

#[tokio::test]
async fn columns_save_keeps_the_columns_shown_for_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(
        &file,
        "# mine\n[columns]\nregistrations = [\"jurisdiction\", \"status\"]\n",
    )
    .unwrap();
    let d = Dashboard::start_with_views(
        Options {
            size: (200, 40),
            ..Options::default()
        },
        file.clone(),
    )
    .await;
    d.wait_for("row 1 of").await;
    d.char(crate::checks::tab("Transactions"));
    d.wait_for("Transactions — last 12 months").await;
    d.wait_for("row 1 of").await;
    d.command("columns exempt type");
    d.wait_for("exempt shown, type hidden").await;
    d.command("columns save");
    d.wait_for("Columns of transactions saved in").await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# mine"),
        "the rest of the file kept: {text}"
    );
    assert!(
        text.contains("registrations = [\"jurisdiction\", \"status\"]"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("transactions"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("\"exempt\"") && !line.contains("\"type\""),
        "{line}"
    );
    d.quit().await;

    // The next start shows them.
    let d = Dashboard::start_with_views(
        Options {
            size: (200, 40),
            ..Options::default()
        },
        file,
    )
    .await;
    d.wait_for("row 1 of").await;
    d.char(crate::checks::tab("Transactions"));
    d.wait_for("Transactions — last 12 months").await;
    let screen = d.wait_for("row 1 of").await;
    let header = screen
        .lines()
        .find(|l| l.contains("Date") && l.contains("Customer"))
        .unwrap_or_default();
    assert!(
        header.contains("Exempt") && !header.contains("Type"),
        "{screen}"
    );
    d.quit().await;
}
