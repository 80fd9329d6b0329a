use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Harness, error_locs};

fn items(page: &Value) -> &Vec<Value> {
    page["items"].as_array().expect("a page has items")
}

fn assert_envelope(page: &Value, page_no: u64, size: u64) {
    for field in ["total", "page", "size", "pages"] {
        assert!(page[field].is_u64(), "{field} is an integer in {page}");
    }
    assert_eq!(page["page"], json!(page_no));
    assert_eq!(page["size"], json!(size));
    let total = page["total"].as_u64().unwrap();
    assert_eq!(page["pages"].as_u64().unwrap(), total.div_ceil(size));
}

#[tokio::test]
async fn registrations_list_filters_detail_reveal_and_forms() {
    let h = Harness::start().await;
    let page = h.get_json("/v1/registrations").await;
    assert_envelope(&page, 1, 50);
    let all = items(&page);
    assert!(all.len() >= 25, "about 30 registrations, got {}", all.len());
    for state in ["CA", "ID", "TX", "NY", "WA"] {
        assert!(
            all.iter().any(|r| r["state_code"] == json!(state)),
            "a registration in {state}"
        );
    }
    let canada = h.get_json("/v1/registrations?country_code__in=CA").await;
    assert!(
        !items(&canada).is_empty()
            && items(&canada)
                .iter()
                .all(|r| r["country_code"] == json!("CA"))
    );
    let texas = h.get_json("/v1/registrations?state_code=TX").await;
    assert!(items(&texas).iter().all(|r| r["state_code"] == json!("TX")));
    let registered = h.get_json("/v1/registrations?status__in=REGISTERED").await;
    assert!(
        items(&registered)
            .iter()
            .all(|r| r["status"] == json!("REGISTERED"))
    );
    let sorted = h
        .get_json("/v1/registrations?order_by=-state_code&size=100")
        .await;
    let codes: Vec<&str> = items(&sorted)
        .iter()
        .map(|r| r["state_code"].as_str().unwrap())
        .collect();
    assert!(
        codes
            .windows(2)
            .all(|w| w[0].to_lowercase() >= w[1].to_lowercase()),
        "descending: {codes:?}"
    );
    assert_eq!(
        error_locs(h.get("/v1/registrations?status__in=OPEN").await).await,
        ["query.status__in"]
    );

    // Detail, masked then revealed.
    let ca = all.iter().find(|r| r["state_code"] == json!("CA")).unwrap();
    let id = ca["id"].as_str().unwrap();
    let detail = h.get_json(&format!("/v1/registrations/{id}")).await;
    assert_eq!(detail["id"], json!(id));
    let masked = detail["password_encrypted"].as_str().unwrap().to_owned();
    let revealed = h
        .get_json(&format!("/v1/registrations/{id}?reveal=password_encrypted"))
        .await;
    let clear = revealed["password_encrypted"].as_str().unwrap();
    assert_ne!(clear, masked, "reveal shows the value, not the mask");
    assert_eq!(
        error_locs(
            h.get(&format!("/v1/registrations/{id}?reveal=colour"))
                .await
        )
        .await,
        ["query.reveal"]
    );

    // Jurisdictions and forms.
    let jurisdictions = h.get_json("/v1/registrations/jurisdictions").await;
    assert!(
        jurisdictions
            .as_array()
            .unwrap()
            .iter()
            .any(|j| j["state_code"] == json!("CA") && j["state_name"].is_string())
    );
    let form = h
        .get_json("/v1/registrations/jurisdiction-specific-fields?country_code=US&state_code=CA")
        .await;
    assert_eq!(form["default_form"], json!(false));
    assert!(form["jurisdiction_fields_json_schema"]["properties"]["sales_tax_id"].is_object());
    for state in ["ID", "TX", "AL"] {
        let form = h
            .get_json(&format!(
                "/v1/registrations/jurisdiction-specific-fields?country_code=US&state_code={state}"
            ))
            .await;
        assert_eq!(
            form["default_form"],
            json!(false),
            "{state} has its own form"
        );
    }
    let generic = h
        .get_json("/v1/registrations/jurisdiction-specific-fields?country_code=US&state_code=VT")
        .await;
    assert_eq!(
        (
            generic["default_form"].clone(),
            generic["jurisdiction_fields_json_schema"].clone()
        ),
        (json!(true), json!({}))
    );
    let missing = error_locs(
        h.get("/v1/registrations/jurisdiction-specific-fields")
            .await,
    )
    .await;
    assert_eq!(missing, ["query.country_code", "query.state_code"]);

    // OSS countries of the one-stop-shop registration.
    let eu = all
        .iter()
        .find(|r| r["country_code"] == json!("ZZ_EU"))
        .expect("a ZZ_EU registration");
    let countries = h
        .get_json(&format!(
            "/v1/registrations/{}/oss-countries",
            eu["id"].as_str().unwrap()
        ))
        .await;
    let countries = countries.as_array().unwrap();
    assert!(countries.len() >= 3);
    assert!(
        countries
            .iter()
            .all(|c| c["status"] == json!("ACTIVE") || c["status"] == json!("REMOVED"))
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn pagination_edges() {
    let h = Harness::start().await;
    let first = h.get_json("/v1/customers?size=100&page=1").await;
    assert_envelope(&first, 1, 100);
    let total = first["total"].as_u64().unwrap();
    let pages = first["pages"].as_u64().unwrap();
    let last = h
        .get_json(&format!("/v1/customers?size=100&page={pages}"))
        .await;
    assert_eq!(items(&last).len() as u64, total - (pages - 1) * 100);
    let beyond = h
        .get_json(&format!("/v1/customers?size=100&page={}", pages + 1))
        .await;
    assert!(items(&beyond).is_empty());
    assert_eq!(beyond["total"], json!(total));
    let one = h.get_json("/v1/customers?size=1").await;
    assert_eq!(items(&one).len(), 1);
    assert_eq!(
        h.get("/v1/customers?size=100").await.status(),
        StatusCode::OK
    );

    for (query, loc, kind) in [
        ("page=0", "query.page", "greater_than_equal"),
        ("size=0", "query.size", "greater_than_equal"),
        ("size=101", "query.size", "less_than_equal"),
        ("page=two", "query.page", "int_parsing"),
    ] {
        let r = h.get(&format!("/v1/transactions?{query}")).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{query}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(
            body["detail"][0]["loc"],
            json!(loc.split('.').collect::<Vec<_>>()),
            "{query}"
        );
        assert_eq!(body["detail"][0]["type"], json!(kind), "{query}");
        assert!(body["detail"][0]["msg"].is_string());
    }
    h.sandbox.stop().await;
}

#[tokio::test]
async fn transactions_list_filters_and_detail() {
    let h = Harness::start().await;
    let page = h.get_json("/v1/transactions?size=100").await;
    assert_envelope(&page, 1, 100);
    assert!(
        page["total"].as_u64().unwrap() > 3_000,
        "the last 12 months hold thousands"
    );
    let dates: Vec<&str> = items(&page)
        .iter()
        .map(|t| t["date"].as_str().unwrap())
        .collect();
    assert!(
        dates.windows(2).all(|w| w[0] <= w[1]),
        "default order is by date"
    );
    let everything = h
        .get_json("/v1/transactions?date__gte=2000-01-01&size=1")
        .await;
    assert!(
        everything["total"].as_u64().unwrap() >= 10_000,
        "at least 10,000 transactions"
    );

    let tx = h.get_json("/v1/transactions?state_code=TX&size=100").await;
    assert!(items(&tx).iter().all(|t| t["state"] == json!("TX")));
    let ca = h.get_json("/v1/transactions?country=CA&size=100").await;
    assert!(!items(&ca).is_empty() && items(&ca).iter().all(|t| t["country"] == json!("CA")));
    let eu = h
        .get_json("/v1/transactions?country=DE&country=FR&size=100")
        .await;
    assert!(
        items(&eu)
            .iter()
            .all(|t| t["country"] == json!("DE") || t["country"] == json!("FR"))
    );
    assert!(items(&eu).iter().any(|t| t["currency"] == json!("EUR")));
    let market = h
        .get_json("/v1/transactions?marketplace=true&size=100")
        .await;
    assert!(
        !items(&market).is_empty()
            && items(&market)
                .iter()
                .all(|t| t["marketplace"] == json!(true))
    );
    let exempt = h
        .get_json("/v1/transactions?exempt__in=FULLY_EXEMPT&size=100")
        .await;
    assert!(
        items(&exempt)
            .iter()
            .all(|t| t["exempt"] == json!("FULLY_EXEMPT"))
    );
    let purchases = h
        .get_json("/v1/transactions?direction=PURCHASE&size=100")
        .await;
    assert!(
        items(&purchases)
            .iter()
            .all(|t| t["direction"] == json!("PURCHASE"))
    );
    let done = h
        .get_json("/v1/transactions?processing_status__in=PROCESSED,FILING_DONE&size=100")
        .await;
    assert!(
        items(&done)
            .iter()
            .all(|t| t["processing_status"] == json!("PROCESSED")
                || t["processing_status"] == json!("FILING_DONE"))
    );
    let window = h
        .get_json("/v1/transactions?date__gte=2000-01-01&date__lte=2000-12-31")
        .await;
    assert_eq!(window["total"], json!(0));
    let dear = h
        .get_json("/v1/transactions?order_by=-total_amount&size=20")
        .await;
    let totals: Vec<rust_decimal::Decimal> = items(&dear)
        .iter()
        .map(|t| t["total_amount"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        totals.windows(2).all(|w| w[0] >= w[1]),
        "descending totals: {totals:?}"
    );
    assert_eq!(
        error_locs(h.get("/v1/transactions?order_by=colour").await).await,
        ["query.order_by"]
    );
    assert_eq!(
        error_locs(h.get("/v1/transactions?date__gte=2025-02-31").await).await,
        ["query.date__gte"]
    );

    // Detail by id and by external id, with items and tax items, amounts as strings.
    let first = &items(&page)[0];
    let id = first["id"].as_str().unwrap();
    let detail = h.get_json(&format!("/v1/transactions/{id}")).await;
    assert_eq!(&detail, first);
    let by_external = h
        .get_json(&format!(
            "/v1/transactions/external/{}",
            first["external_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(by_external["id"], json!(id));
    let processed = items(&page)
        .iter()
        .find(|t| {
            t["total_tax_amount_calculated"].is_string() && t["exempt"] == json!("NOT_EXEMPT")
        })
        .expect("a taxed transaction on the first page");
    let item = &processed["transaction_items"][0];
    assert!(item["amount"].is_string() && item["tax_amount_calculated"].is_string());
    assert!(!item["tax_items"].as_array().unwrap().is_empty());
    let search = h
        .get_json(&format!(
            "/v1/transactions?search_query={}",
            first["external_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(search["total"], json!(1));
    assert_eq!(
        h.get("/v1/transactions/tran_nope").await.status(),
        StatusCode::NOT_FOUND
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn nexus_exemptions_customers_filings_products() {
    let h = Harness::start().await;
    // Economic nexus.
    let nexus = h.get_json("/v1/nexus?size=100").await;
    assert!(items(&nexus).len() >= 20);
    let exposed = h.get_json("/v1/nexus?status__in=EXPOSED").await;
    assert!(
        items(&exposed)
            .iter()
            .all(|n| n["status"] == json!("EXPOSED"))
    );
    let one = &items(&nexus)[0];
    assert_eq!(
        &h.get_json(&format!("/v1/nexus/{}", one["id"].as_str().unwrap()))
            .await,
        one
    );

    // Physical nexus and categories.
    let physical = h.get_json("/v1/nexus/physical_nexus?size=100").await;
    assert!(items(&physical).len() >= 30);
    let keys: Vec<(String, String)> = items(&physical)
        .iter()
        .map(|p| {
            (
                p["country_code"].as_str().unwrap().to_owned(),
                p["state_code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "ordered by country, state by default"
    );
    let cats = h
        .get_json("/v1/nexus/physical_nexus/categories?country_code=US&state_code=CA")
        .await;
    let cats = cats.as_array().unwrap();
    assert!(cats.iter().all(|c| c["title"].is_string()
        && c["description"].is_string()
        && c["example"].is_string()));
    assert!(cats.iter().all(|c| c["is_category_assigned"].is_boolean()));

    // Exemptions.
    let exemptions = h.get_json("/v1/exemptions?size=100").await;
    assert!(exemptions["total"].as_u64().unwrap() >= 300);
    assert!(
        items(&exemptions)
            .iter()
            .all(|e| ["ACTIVE", "INACTIVE", "EXPIRED"].contains(&e["status"].as_str().unwrap()))
    );
    let expired = h.get_json("/v1/exemptions?status__in=EXPIRED").await;
    assert!(
        items(&expired)
            .iter()
            .all(|e| e["status"] == json!("EXPIRED"))
    );
    assert_eq!(
        error_locs(h.get("/v1/exemptions?status__in=ARCHIVED").await).await,
        ["query.status__in"]
    );
    assert_eq!(
        error_locs(h.get("/v1/exemptions?order_by=customer_name").await).await,
        ["query.order_by"]
    );
    let by_end = h
        .get_json("/v1/exemptions?order_by=-end_date&size=100")
        .await;
    let ends: Vec<&Value> = items(&by_end).iter().map(|e| &e["end_date"]).collect();
    let dated: Vec<&str> = ends.iter().filter_map(|v| v.as_str()).collect();
    assert!(dated.windows(2).all(|w| w[0] >= w[1]));
    let with_file = items(&exemptions)
        .iter()
        .find(|e| e["attachment_id"].is_string())
        .expect("an exemption with a file");
    let eid = with_file["id"].as_str().unwrap();
    assert_eq!(
        h.get_json(&format!("/v1/exemptions/{eid}")).await["id"],
        json!(eid)
    );
    let files = h
        .get_json(&format!("/v1/exemptions/{eid}/attachments"))
        .await;
    assert_eq!(files[0]["related_entity_type"], json!("EXEMPTION"));
    let name = with_file["customer_name"].as_str().unwrap();
    let found = h
        .get_json(&format!(
            "/v1/exemptions?search_query={}",
            name.replace(' ', "%20")
        ))
        .await;
    assert!(
        items(&found)
            .iter()
            .all(|e| e["customer_name"].as_str() == Some(name))
    );

    // Customers.
    let customers = h.get_json("/v1/customers?size=100").await;
    assert!(customers["total"].as_u64().unwrap() >= 150);
    let c = &items(&customers)[0];
    assert_eq!(
        &h.get_json(&format!("/v1/customers/{}", c["id"].as_str().unwrap()))
            .await,
        c
    );
    let canadians = h.get_json("/v1/customers?country=CA").await;
    assert!(
        items(&canadians)
            .iter()
            .all(|c| c["country"] == json!("CA"))
    );

    // Filings, back-filing terms.
    let filings = h.get_json("/v1/filings?size=100").await;
    let f = &items(&filings)[0];
    assert_eq!(
        &h.get_json(&format!("/v1/filings/{}", f["id"].as_str().unwrap()))
            .await,
        f
    );
    let filed = h.get_json("/v1/filings?status__in=FILED").await;
    assert!(items(&filed).iter().all(|f| f["status"] == json!("FILED")));
    let terms = h.get_json("/v1/filings/back-filing-terms/current").await;
    assert!(terms["version"].is_i64() && terms["help_article_label"].is_string());

    // Products and their catalog.
    let products = h.get_json("/v1/products?size=100").await;
    let p = &items(&products)[0];
    assert_eq!(
        &h.get_json(&format!("/v1/products/{}", p["id"].as_str().unwrap()))
            .await,
        p
    );
    let catalog = h.get_json("/v1/products/categories").await;
    assert!(!catalog.as_array().unwrap().is_empty());
    h.sandbox.stop().await;
}

#[tokio::test]
async fn tax_estimate() {
    let h = Harness::start().await;
    let body = json!({
        "date": "2026-11-01T10:00:00Z", "external_id": "est-1", "currency": "USD",
        "addresses": [{"type": "SHIP_TO", "street_1": "1 Market St", "city": "San Francisco", "state": "CA", "postal_code": "94105", "country": "US"}],
        "transaction_items": [
            {"date": "2026-11-01T10:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": 100},
            {"date": "2026-11-01T10:00:00Z", "external_product_id": "prod_sku_kbd", "quantity": 1, "amount": "50.50", "exempt": true}
        ]
    });
    let r = h.send(Method::POST, "/v1/tax/estimate", &body).await;
    assert_eq!(r.status(), StatusCode::OK);
    let e: Value = r.json().await.unwrap();
    let taxed: rust_decimal::Decimal = e["transaction_items"][0]["tax_amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let rate: rust_decimal::Decimal = e["transaction_items"][0]["tax_rate"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(taxed, (rust_decimal::Decimal::from(100) * rate).round_dp(2));
    let untaxed: rust_decimal::Decimal = e["transaction_items"][1]["tax_amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(untaxed.is_zero(), "an exempt item bears no tax");
    assert_eq!(
        e["total_tax_amount_calculated"],
        e["transaction_items"][0]["tax_amount"]
    );
    h.sandbox.stop().await;
}
