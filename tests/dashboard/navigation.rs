//! Moving between related records through the real loop: the jump prefix (`g` then a letter)
//! lands on another tab with its list filtered to what relates to the record, and the jump
//! list (`ctrl-o` back, `ctrl-n` / `ctrl-i` forward) puts each tab back as it was.

use crossterm::event::{KeyCode, KeyModifiers};
use taxdash::model::filters::{
    CustomerFilter, ExemptionFilter, FilingFilter, RegistrationFilter, TransactionFilter,
};
use taxdash::model::{PageParams, Transaction};

use crate::harness::{Dashboard, Options};

fn back(d: &Dashboard) {
    d.key_with(KeyCode::Char('o'), KeyModifiers::CONTROL);
}

fn forward(d: &Dashboard) {
    d.key_with(KeyCode::Char('n'), KeyModifiers::CONTROL);
}

/// The jump prefix and a letter.
fn jump(d: &Dashboard, letter: char) {
    d.char('g');
    d.char(letter);
}

/// The title line of the pane (the line under the tabs).
fn title(screen: &str) -> &str {
    screen.lines().nth(2).unwrap_or_default()
}

/// Waits until the pane's title holds every one of `parts`.
async fn title_with(d: &Dashboard, parts: &[&str]) -> String {
    let what = parts.join(", ");
    d.wait_until(&what, std::time::Duration::from_secs(10), |s| {
        parts.iter().all(|p| title(s).contains(p))
    })
    .await
}

/// Waits until the `tab` pane shows its first row.
async fn loaded(d: &Dashboard, tab: &str) {
    d.wait_until(tab, std::time::Duration::from_secs(10), |s| {
        title(s).contains(tab) && s.contains("row 1 of")
    })
    .await;
}

/// A demo sale with a customer and a state.
async fn a_sale(d: &Dashboard) -> Transaction {
    let page = d
        .client
        .list_transactions(&TransactionFilter::default(), PageParams::new(1, 50))
        .await
        .unwrap();
    page.items
        .into_iter()
        .find(|t| {
            t.customer.as_ref().is_some_and(|c| c.name.is_some())
                && t.state.as_deref().is_some_and(|s| s.len() == 2)
        })
        .expect("a demo sale with a customer and a state")
}

/// Opens the Transactions tab narrowed to `sale` alone.
async fn show_sale(d: &Dashboard, sale: &Transaction) {
    d.wait_for("row 1 of").await;
    d.char('6');
    d.wait_for("last 12 months").await;
    d.char('/');
    d.wait_for("part of an external id").await;
    d.type_text(&sale.external_id);
    d.key_with(KeyCode::Char('s'), KeyModifiers::CONTROL);
    d.wait_for(&format!("matching \"{}\"", sale.external_id))
        .await;
    d.wait_for("row 1 of 1 ").await;
}

#[tokio::test]
async fn a_transaction_leads_to_its_customer_exemptions_and_state() {
    let d = Dashboard::start(Options::default()).await;
    let sale = a_sale(&d).await;
    let state = sale.state.clone().unwrap();
    let customer = sale.customer.clone().unwrap();
    show_sale(&d, &sale).await;

    // The prefix shows the letters this record offers.
    d.char('g');
    let screen = d.wait_for("its customer").await;
    for hint in ["its exemptions", "its state's filings", "its state's nexus"] {
        assert!(screen.contains(hint), "{hint} offered: {screen}");
    }
    d.key(KeyCode::Esc);

    let state_filter = format!("state {state}");
    jump(&d, 'r');
    title_with(&d, &["Registrations", &state_filter]).await;
    back(&d);
    title_with(&d, &["Transactions", &sale.external_id]).await;
    d.wait_for("row 1 of 1 ").await;

    jump(&d, 'n');
    title_with(&d, &["Nexus", &state_filter]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    jump(&d, 'f');
    title_with(&d, &["Filings", &state_filter]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    jump(&d, 'e');
    title_with(&d, &["Exemptions", &format!("customer {}", customer.id)]).await;
    back(&d);
    loaded(&d, "Transactions").await;

    // The customer: the list searched for the name, the customer's detail open.
    jump(&d, 'c');
    let name = customer.name.clone().unwrap();
    let screen = d.wait_for(&customer.id).await;
    assert!(title(&screen).contains("Customers"), "{screen}");
    d.key(KeyCode::Esc);
    title_with(&d, &["Customers", &format!("matching \"{name}\"")]).await;
    d.quit().await;
}

#[tokio::test]
async fn back_and_forward_open_the_detail_that_was_open_whatever_row_the_list_is_on() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    // An exemption that is not the list's first row, opened by find.
    let exemption = d
        .client
        .list_exemptions(&ExemptionFilter::default(), PageParams::new(5, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    let id = exemption.id.clone();
    let detail_of = |s: &str, tab: &str, id: &str| {
        title(s).contains(tab) && s.contains(id) && !s.contains("row 1 of")
    };
    find(&d, &id);
    let opened = d
        .wait_until(
            "the exemption's detail",
            std::time::Duration::from_secs(10),
            |s| detail_of(s, "Exemptions", &id),
        )
        .await;
    jump(&d, 'c');
    title_with(&d, &["Customers"]).await;
    back(&d);
    let again = d
        .wait_until(
            "the exemption's detail again",
            std::time::Duration::from_secs(10),
            |s| detail_of(s, "Exemptions", &id),
        )
        .await;
    assert_eq!(title(&again), title(&opened), "{again}");
    // Forward, then back once more: still that detail.
    forward(&d);
    title_with(&d, &["Customers"]).await;
    back(&d);
    d.wait_until(
        "the exemption's detail a third time",
        std::time::Duration::from_secs(10),
        |s| detail_of(s, "Exemptions", &id),
    )
    .await;
    d.quit().await;
}

#[tokio::test]
async fn the_jump_list_puts_back_the_cursor_the_filter_and_the_detail() {
    let d = Dashboard::start(Options::default()).await;
    let all = d
        .client
        .list_registrations(&RegistrationFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    d.wait_for(&format!("row 1 of {all} ")).await;
    for _ in 0..3 {
        d.char('j');
    }
    d.wait_for(&format!("row 4 of {all} ")).await;

    jump(&d, 'f');
    let filings = title_with(&d, &["Filings", "state "]).await;
    let filings_title = title(&filings).to_owned();
    back(&d);
    let screen = title_with(&d, &["Registrations", "all registrations"]).await;
    assert!(!title(&screen).contains("state "), "{screen}");
    d.wait_for(&format!("row 4 of {all} ")).await;

    // Forward again: the filings of that state, as they were left.
    forward(&d);
    let again = title_with(&d, &["Filings", "state "]).await;
    assert_eq!(title(&again), filings_title);
    back(&d);
    d.wait_for(&format!("row 4 of {all} ")).await;

    // With the detail open: back comes back to the detail.
    d.key(KeyCode::Enter);
    let detail = d.wait_for("Identity").await;
    jump(&d, 'n');
    title_with(&d, &["Nexus", "state "]).await;
    back(&d);
    let again = d.wait_for("Identity").await;
    assert_eq!(title(&again), title(&detail), "the same record's detail");
    // Going back again past the detail: the list as it was, and forward once more.
    d.key(KeyCode::Esc);
    d.wait_for(&format!("row 4 of {all} ")).await;
    back(&d);
    d.wait_for("no earlier place").await;
    forward(&d);
    title_with(&d, &["Nexus", "state "]).await;
    d.quit().await;
}

#[tokio::test]
async fn a_filing_leads_to_the_sales_of_its_period_and_state() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('7');
    d.wait_for("file_demo").await;
    jump(&d, 't');
    let screen = title_with(&d, &["Transactions", "state "]).await;
    let title = title(&screen).to_owned();
    let state = title
        .split("state ")
        .nth(1)
        .and_then(|rest| rest.get(..2))
        .expect("a state in the title")
        .to_owned();
    let filings = d
        .client
        .list_filings(
            &FilingFilter {
                state_code: Some(state.clone()),
                ..FilingFilter::default()
            },
            PageParams::new(1, 100),
        )
        .await
        .unwrap()
        .items;
    assert!(
        filings
            .iter()
            .any(|f| title.contains(&format!("{} to {}", f.start_date, f.end_date))),
        "the period of one of {state}'s filings: {title}"
    );
    back(&d);
    loaded(&d, "Filings").await;

    // Its registration: the registrations of its state.
    jump(&d, 'r');
    title_with(&d, &["Registrations", "state "]).await;
    d.quit().await;
}

#[tokio::test]
async fn a_relation_the_service_cannot_filter_is_said_not_listed() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    d.char('5');
    loaded(&d, "Customers").await;
    jump(&d, 't');
    let screen = d.wait_for("no customer filter").await;
    assert!(title(&screen).contains("Customers"), "{screen}");

    // Their exemptions are listed by customer.
    jump(&d, 'e');
    title_with(&d, &["Exemptions", "customer cust_"]).await;
    // An exemption's customer.
    loaded(&d, "Exemptions").await;
    // The exemption names its customer by id: the customer is read and opened.
    jump(&d, 'c');
    d.wait_until(
        "the customer open",
        std::time::Duration::from_secs(10),
        |s| title(s).contains("Customers") && s.contains("cust_") && !s.contains("row 1 of"),
    )
    .await;
    back(&d);
    title_with(&d, &["Exemptions", "customer cust_"]).await;
    d.quit().await;
}

/// Opens find anywhere with `ctrl-k` and looks for `text`.
fn find(d: &Dashboard, text: &str) {
    d.key_with(KeyCode::Char('k'), KeyModifiers::CONTROL);
    d.type_text(text);
    d.key(KeyCode::Enter);
}

#[tokio::test]
async fn find_leads_to_all_the_records_it_could_not_list() {
    let d = Dashboard::start(Options {
        size: (160, 50),
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    // A customer's first name: more of their sales than find lists.
    let sale = a_sale(&d).await;
    let name = sale.customer.unwrap().name.unwrap();
    let word = name.split_whitespace().next().unwrap().to_owned();
    let filter = TransactionFilter {
        search_query: Some(word.clone()),
        ..TransactionFilter::default()
    };
    let total = d
        .client
        .list_transactions(&filter, PageParams::new(1, 1))
        .await
        .unwrap()
        .total;
    assert!(total > 10, "{word}: {total}");
    find(&d, &word);
    let all = format!(
        "→ all {} in Transactions, searched for \"{word}\"",
        taxdash::model::format::thousands(total)
    );
    d.wait_until(&all, std::time::Duration::from_secs(10), |s| {
        s.contains(&all) && !s.contains("searching…")
    })
    .await;
    // Down to it (the selected entry is drawn in the selection's style), then Enter.
    let selection = taxdash::ui::theme::Theme::default().selection;
    let mut on_it = false;
    for _ in 0..60 {
        if let Some((x, y)) = d.locate(&all, 0)
            && d.buffer()[(x, y)]
                .style()
                .add_modifier
                .contains(selection.add_modifier)
        {
            on_it = true;
            break;
        }
        d.char('j');
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    }
    assert!(on_it, "{}", d.screen());
    d.key(KeyCode::Enter);
    let screen = title_with(&d, &["Transactions", &format!("matching \"{word}\"")]).await;
    d.wait_for(&format!(
        "row 1 of {} ",
        taxdash::model::format::thousands(total)
    ))
    .await;
    assert!(!screen.contains("→ all"), "{screen}");
    d.quit().await;
}

#[tokio::test]
async fn find_opens_a_record_by_each_id_prefix() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    let page = PageParams::new(1, 1);
    let registration = d
        .client
        .list_registrations(&RegistrationFilter::default(), page)
        .await
        .unwrap()
        .items
        .remove(0);
    let customer = d
        .client
        .list_customers(&CustomerFilter::default(), page)
        .await
        .unwrap()
        .items
        .remove(0);
    let sale = a_sale(&d).await;
    let exemption = d
        .client
        .list_exemptions(&ExemptionFilter::default(), page)
        .await
        .unwrap()
        .items
        .remove(0);
    let filing = d
        .client
        .list_filings(&FilingFilter::default(), page)
        .await
        .unwrap()
        .items
        .remove(0);
    for (id, tab, related) in [
        (
            registration.id.as_str(),
            "Registrations",
            "nexus of its state",
        ),
        (customer.id.as_str(), "Customers", "their exemptions"),
        (sale.id.as_str(), "Transactions", "its state's nexus"),
        (
            exemption.id.as_str(),
            "Exemptions",
            "transactions that used it",
        ),
        (filing.id.as_str(), "Filings", "transactions of its period"),
    ] {
        assert!(id.contains('_'), "{id}");
        find(&d, id);
        let screen = d
            .wait_until(
                &format!("{id} open in {tab}"),
                std::time::Duration::from_secs(10),
                |s| title(s).contains(tab) && s.contains(id) && !s.contains("row 1 of"),
            )
            .await;
        assert!(
            !screen.contains("Find \""),
            "the find overlay closed: {screen}"
        );
        // The open record offers its relations.
        d.char('g');
        d.wait_for(related).await;
        d.key(KeyCode::Esc);
        // The detail is open: Esc goes back to the list.
        d.key(KeyCode::Esc);
        loaded(&d, tab).await;
    }
    // The jump list knows each of those jumps.
    back(&d);
    loaded(&d, "Exemptions").await;

    // A physical nexus cannot be read alone: said, nothing else opens.
    find(&d, "phys_demo_1");
    d.wait_for("only in its list").await;
    d.quit().await;
}

#[tokio::test]
async fn find_by_external_id_lists_the_transaction_and_enter_opens_it() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    let sale = a_sale(&d).await;
    find(&d, &sale.external_id);
    let screen = d.wait_for("Transaction by external id").await;
    assert!(
        screen.contains(&format!("Find \"{}\"", sale.external_id)),
        "{screen}"
    );
    d.wait_until("the sale listed", std::time::Duration::from_secs(10), |s| {
        s.contains(&sale.id)
    })
    .await;
    // The external id's transaction comes first only when it answered first; pick it by
    // walking down to it.
    let rows_before = {
        let screen = d.screen();
        let lines: Vec<&str> = screen.lines().collect();
        let sale_line = lines.iter().position(|l| l.contains(&sale.id)).unwrap();
        lines[..sale_line]
            .iter()
            .filter(|l| l.contains("tran_") || l.contains("cust_") || l.contains("exmp_"))
            .count()
    };
    // Every search has answered before the cursor moves.
    d.wait_until(
        "every kind answered",
        std::time::Duration::from_secs(10),
        |s| !s.contains("searching…"),
    )
    .await;
    for _ in 0..rows_before {
        d.char('j');
    }
    d.key(KeyCode::Enter);
    d.wait_until("the sale open", std::time::Duration::from_secs(10), |s| {
        title(s).contains("Transactions") && s.contains(&sale.id) && !s.contains("Find \"")
    })
    .await;
    d.quit().await;
}

#[tokio::test]
async fn find_by_text_lists_kinds_and_drops_an_older_querys_late_answers() {
    // Two demo customers' names: the first one's search is slow.
    let probe = Dashboard::start(Options::default()).await;
    let names: Vec<String> = probe
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 50))
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|c| c.name)
        .collect();
    probe.quit().await;
    let old = names[0].split_whitespace().next().unwrap().to_owned();
    let new = names
        .iter()
        .filter_map(|n| n.split_whitespace().next())
        .find(|n| !n.contains(&old) && !old.contains(n))
        .expect("two different first names")
        .to_owned();
    let slow = old.clone();
    let d = Dashboard::start_behind(Options::default(), |target| {
        crate::relay::Relay::slowing(slow, std::time::Duration::from_millis(1500)).serve(target)
    })
    .await;
    d.wait_for("row 1 of").await;

    find(&d, &old);
    d.wait_for(&format!("Find \"{old}\"")).await;
    find(&d, &new);
    let screen = d
        .wait_until(
            "the new query's answers",
            std::time::Duration::from_secs(10),
            |s| s.contains(&format!("Find \"{new}\"")) && !s.contains("searching…"),
        )
        .await;
    for kind in ["Customers", "Exemptions", "Transactions"] {
        assert!(screen.contains(kind), "{kind} listed: {screen}");
    }
    assert!(screen.contains(&new), "{screen}");
    // The old query's answers come late, and are not shown.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let later = d.screen();
    assert!(later.contains(&format!("Find \"{new}\"")), "{later}");
    let old_rows = later
        .lines()
        .filter(|l| l.contains(&old) && !l.contains(&new))
        .count();
    assert_eq!(old_rows, 0, "no answer of the older query: {later}");
    d.key(KeyCode::Esc);
    d.wait_until(
        "the overlay closed",
        std::time::Duration::from_secs(5),
        |s| !s.contains("Find \""),
    )
    .await;
    d.quit().await;
}

#[tokio::test]
async fn find_by_a_customers_external_id_lists_that_customer() {
    let d = Dashboard::start(Options::default()).await;
    d.wait_for("row 1 of").await;
    let customer = d
        .client
        .list_customers(&CustomerFilter::default(), PageParams::new(1, 50))
        .await
        .unwrap()
        .items
        .into_iter()
        .find(|c| c.external_id.as_deref().is_some_and(|e| !e.is_empty()))
        .expect("a demo customer with the shop's id");
    let external = customer.external_id.clone().unwrap();
    find(&d, &external);
    let screen = d
        .wait_until(
            "the customer by external id",
            std::time::Duration::from_secs(10),
            |s| s.contains("Customer by external id") && s.contains(&customer.id),
        )
        .await;
    assert!(
        !screen.contains("Customer by external id: none"),
        "{screen}"
    );
    d.key(KeyCode::Esc);
    d.quit().await;
}

#[tokio::test]
async fn find_names_a_jurisdiction_by_code_or_name_and_leads_to_its_lists() {
    let d = Dashboard::start(Options {
        size: (160, 50),
        ..Options::default()
    })
    .await;
    d.wait_for("row 1 of").await;
    find(&d, "Texas");
    let screen = d.wait_for("Texas (US-TX) · registrations").await;
    assert!(
        screen.contains("Texas (US-TX) · economic nexus"),
        "{screen}"
    );
    assert!(screen.contains("Texas (US-TX) · filings"), "{screen}");
    // The first result is chosen: Enter opens the registrations in Texas.
    d.key(KeyCode::Enter);
    title_with(&d, &["Registrations", "state TX"]).await;

    // By its code, the third result: its filings.
    find(&d, "tx");
    d.wait_for("Texas (US-TX) · filings").await;
    d.char('j');
    d.char('j');
    d.key(KeyCode::Enter);
    title_with(&d, &["Filings", "TX"]).await;
    d.quit().await;
}
