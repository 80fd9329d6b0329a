//! Every list filter the service documents, over real HTTP: each one keeps exactly the rows it
//! names, and a value it does not know answers 422 in the service's shape. Sorting puts blank
//! values last in both directions.

use serde_json::{Value, json};

use crate::common::{Harness, error_locs};

fn items(page: &Value) -> &Vec<Value> {
    page["items"].as_array().expect("a page has items")
}

fn total(page: &Value) -> u64 {
    page["total"].as_u64().expect("a page has a total")
}

/// Every row of a list, page after page.
async fn all(h: &Harness, path: &str) -> Vec<Value> {
    let mut rows = Vec::new();
    for page in 1.. {
        let sep = if path.contains('?') { '&' } else { '?' };
        let answer = h
            .get_json(&format!("{path}{sep}size=100&page={page}"))
            .await;
        rows.extend(items(&answer).iter().cloned());
        if rows.len() as u64 >= total(&answer) || items(&answer).is_empty() {
            break;
        }
    }
    rows
}

#[tokio::test]
async fn filings_filter_by_date_filed_state_country_and_period() {
    let h = Harness::start().await;
    let every = all(&h, "/v1/filings").await;
    let mut filed: Vec<&str> = every
        .iter()
        .filter_map(|f| f["date_filed"].as_str())
        .map(|d| &d[..10])
        .collect();
    filed.sort_unstable();
    assert!(filed.len() > 4, "the demo has filed returns");
    let (from, to) = (filed[1], filed[filed.len() - 2]);
    let expected = filed.iter().filter(|d| **d >= from && **d <= to).count();

    let window = all(
        &h,
        &format!("/v1/filings?date_filed__gte={from}&date_filed__lte={to}"),
    )
    .await;
    assert_eq!(window.len(), expected);
    assert!(window.iter().all(|f| {
        let d = &f["date_filed"].as_str().expect("only filed filings")[..10];
        d >= from && d <= to
    }));
    let after = all(&h, &format!("/v1/filings?date_filed__gte={to}")).await;
    assert!(!after.is_empty() && after.len() < filed.len());

    let state = every
        .iter()
        .find_map(|f| f["state_code"].as_str())
        .expect("a filing with a state");
    let by_state = all(&h, &format!("/v1/filings?state_code={state}")).await;
    assert!(!by_state.is_empty() && by_state.iter().all(|f| f["state_code"] == json!(state)));
    let country = every[0]["country_code"].as_str().unwrap();
    let by_country = all(&h, &format!("/v1/filings?country_code={country}")).await;
    assert!(
        by_country
            .iter()
            .all(|f| f["country_code"] == json!(country))
    );
    assert_eq!(
        by_country.len(),
        every
            .iter()
            .filter(|f| f["country_code"] == json!(country))
            .count()
    );
    let period = all(&h, "/v1/filings?start_date=2025-01-01&end_date=2025-12-31").await;
    assert!(period.iter().all(|f| {
        f["start_date"].as_str().unwrap() >= "2025-01-01"
            && f["end_date"].as_str().unwrap() <= "2025-12-31"
    }));

    let r = h
        .get("/v1/filings?date_filed__gte=last-week&status__in=LOST")
        .await;
    assert_eq!(
        error_locs(r).await,
        ["query.status__in", "query.date_filed__gte"]
    );
}

#[tokio::test]
async fn transactions_filter_by_every_documented_parameter() {
    let h = Harness::start().await;
    let base = "/v1/transactions?date__gte=2000-01-01&size=100";
    let everything = total(&h.get_json(&format!("{base}&size=1")).await);

    let check = |path: String, field: &'static str, wanted: Vec<Value>| {
        let h = &h;
        async move {
            let page = h.get_json(&path).await;
            assert!(total(&page) > 0, "{path} keeps some rows");
            assert!(total(&page) < everything, "{path} drops some rows");
            for t in items(&page) {
                assert!(wanted.contains(&t[field]), "{path}: {field} {}", t[field]);
            }
            total(&page)
        }
    };
    let fully = check(
        format!("{base}&exempt__in=FULLY_EXEMPT"),
        "exempt",
        vec![json!("FULLY_EXEMPT")],
    )
    .await;
    let some = check(
        format!("{base}&exempt__in=FULLY_EXEMPT,PARTIALLY_EXEMPT"),
        "exempt",
        vec![json!("FULLY_EXEMPT"), json!("PARTIALLY_EXEMPT")],
    )
    .await;
    assert!(some > fully);
    check(
        format!("{base}&processing_status__in=PENDING,EXCLUDED_IN_CALCULATION"),
        "processing_status",
        vec![json!("PENDING"), json!("EXCLUDED_IN_CALCULATION")],
    )
    .await;
    let unverified = check(
        format!("{base}&address_status__in=UNVERIFIED,INVALID"),
        "address_status",
        vec![json!("UNVERIFIED"), json!("INVALID")],
    )
    .await;
    let verified = check(
        format!("{base}&address_status__in=VERIFIED"),
        "address_status",
        vec![json!("VERIFIED")],
    )
    .await;
    assert!(verified > unverified);
    check(
        format!("{base}&transaction_type=FULL_CREDIT_NOTE"),
        "type",
        vec![json!("FULL_CREDIT_NOTE")],
    )
    .await;
    check(
        format!("{base}&marketplace=false"),
        "marketplace",
        vec![json!(false)],
    )
    .await;
    check(
        format!("{base}&transaction_source=CHECKOUT"),
        "source",
        vec![json!("CHECKOUT")],
    )
    .await;
    check(
        format!("{base}&state=California"),
        "state",
        vec![json!("CA")],
    )
    .await;
    check(format!("{base}&state_code=ny"), "state", vec![json!("NY")]).await;
    check(
        format!("{base}&status=CANCELLED"),
        "status",
        vec![json!("CANCELLED")],
    )
    .await;

    let none = h.get_json(&format!("{base}&filing_id=fili_none")).await;
    assert_eq!(total(&none), 0, "no demo transaction is in a filing");
    let nowhere = h.get_json(&format!("{base}&state=Atlantis")).await;
    assert_eq!(total(&nowhere), 0);

    let r = h
        .get(&format!(
            "{base}&address_status__in=VERIFIED,LOST&exempt__in=SOMETIMES&marketplace=maybe"
        ))
        .await;
    assert_eq!(
        error_locs(r).await,
        [
            "query.exempt__in",
            "query.address_status__in",
            "query.marketplace"
        ]
    );
}

#[tokio::test]
async fn blank_end_dates_sort_last_in_both_directions() {
    let h = Harness::start().await;
    for order in ["end_date", "-end_date"] {
        let rows = all(&h, &format!("/v1/exemptions?order_by={order}")).await;
        let ends: Vec<Option<&str>> = rows.iter().map(|e| e["end_date"].as_str()).collect();
        let first_blank = ends
            .iter()
            .position(Option::is_none)
            .expect("the demo has exemptions without an end date");
        assert!(first_blank > 0, "{order}: dated exemptions come first");
        assert!(
            ends[first_blank..].iter().all(Option::is_none),
            "{order}: every blank is after every date"
        );
        let dated: Vec<&str> = ends[..first_blank].iter().flatten().copied().collect();
        let mut sorted = dated.clone();
        sorted.sort_unstable();
        if order.starts_with('-') {
            sorted.reverse();
        }
        assert_eq!(dated, sorted, "{order}");
    }
}

#[tokio::test]
async fn transactions_without_a_state_sort_last_in_both_directions() {
    let h = Harness::start().await;
    for order in ["state", "-state"] {
        let rows = all(
            &h,
            &format!("/v1/transactions?country=CA&country=DE&order_by={order}"),
        )
        .await;
        let states: Vec<Option<&str>> = rows.iter().map(|t| t["state"].as_str()).collect();
        let first_blank = states
            .iter()
            .position(Option::is_none)
            .expect("German sales have no state");
        assert!(first_blank > 0, "{order}: provinces come first");
        assert!(
            states[first_blank..].iter().all(Option::is_none),
            "{order}: every sale without a state is after the others"
        );
        let named: Vec<&str> = states[..first_blank].iter().flatten().copied().collect();
        let mut sorted = named.clone();
        sorted.sort_unstable();
        if order.starts_with('-') {
            sorted.reverse();
        }
        assert_eq!(named, sorted, "{order}");
    }
}
