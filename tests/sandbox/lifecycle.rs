//! Writes and what follows them: the 202-then-PROCESSED flow, credit notes, deregistration,
//! edits, uploads, and the state file across a restart.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use taxdash::sandbox::{SandboxConfig, SandboxError};

use crate::common::{Harness, ORG1, error_locs, product_edit};
use crate::rules::sale;

fn dec(v: &Value) -> Decimal {
    v.as_str()
        .unwrap_or_else(|| panic!("{v} is a decimal string"))
        .parse()
        .unwrap()
}

fn quick() -> SandboxConfig {
    SandboxConfig {
        processing_delay: Duration::from_millis(300),
        ..SandboxConfig::default()
    }
}

#[tokio::test]
async fn a_created_transaction_is_queued_then_processed() {
    let h = Harness::with(quick()).await;
    let r = h
        .send(Method::POST, "/v1/transactions", &sale("ord-new-1"))
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let created: Value = r.json().await.unwrap();
    let t = &created[0];
    assert_eq!(t["processing_status"], json!("QUEUED"));
    assert!(
        t["total_tax_amount_calculated"].is_null(),
        "no tax before processing"
    );
    assert_eq!(dec(&t["total_amount"]), Decimal::new(22700, 2));
    let id = t["id"].as_str().unwrap().to_owned();

    // The same external id again is a conflict.
    assert_eq!(
        h.send(Method::POST, "/v1/transactions", &sale("ord-new-1"))
            .await
            .status(),
        StatusCode::CONFLICT
    );

    tokio::time::sleep(Duration::from_millis(400)).await;
    let t = h.get_json(&format!("/v1/transactions/{id}")).await;
    assert_eq!(t["processing_status"], json!("PROCESSED"));
    let rate = dec(&t["tax_rate_calculated"]);
    assert!(rate > Decimal::ZERO, "Texas has sales tax");
    assert_eq!(
        dec(&t["total_tax_amount_calculated"]),
        (Decimal::new(12900, 2) * rate).round_dp(2) + (Decimal::from(98) * rate).round_dp(2)
    );
    assert_eq!(t["customer"]["email"], json!("ada@example.com"));
    let listed = h.get_json("/v1/transactions?search_query=ord-new-1").await;
    assert_eq!(listed["items"][0]["id"], json!(id));
    assert_eq!(listed["items"][0]["processing_status"], json!("PROCESSED"));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn credit_notes_refund_part_then_all_of_a_sale() {
    let h = Harness::with(quick()).await;
    let created: Value = h
        .send(Method::POST, "/v1/transactions", &sale("ord-cn"))
        .await
        .json()
        .await
        .unwrap();
    let id = created[0]["id"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let original = h.get_json(&format!("/v1/transactions/{id}")).await;
    let total = dec(&original["final_total_amount"]);
    let line = |product: &str, amount: &str| json!({"external_id": "l1", "date": "2026-11-05T00:00:00Z", "external_product_id": product, "quantity": 1, "amount": amount});
    // A credit note of `amount` in all, its lines crediting `lines` (product, amount).
    let credit = |ext: &str, amount: Decimal, lines: &[(&str, &str)]| {
        let items: Vec<Value> = lines.iter().map(|(p, a)| line(p, a)).collect();
        json!({
            "external_id": ext, "date": "2026-11-05T00:00:00Z", "status": "COMMITTED", "total_amount": amount.to_string(),
            "currency": "USD", "transaction_items": items
        })
    };
    let note =
        |ext: &str, amount: Decimal| credit(ext, amount, &[("prod_sku_kbd", &amount.to_string())]);
    let path = format!("/v1/transactions/{id}/credit_notes");
    let r = h
        .send(Method::POST, &path, &note("cn-1", Decimal::from(20)))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let partial: Value = r.json().await.unwrap();
    assert_eq!(partial["type"], json!("PARTIAL_CREDIT_NOTE"));
    assert_eq!(partial["related_to"], json!(id));
    assert_eq!(
        h.get_json(&format!("/v1/transactions/{id}")).await["refund_status"],
        json!("PARTIALLY_REFUNDED")
    );

    // More than is left is refused; exactly what is left closes the sale.
    let r = h.send(Method::POST, &path, &note("cn-2", total)).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    // The rest of the sale: its lines less what cn-1 credited, and the tax.
    let rest = credit(
        "cn-3",
        total - Decimal::from(20),
        &[("prod_sku_kbd", "109.00"), ("prod_sku_mouse", "98")],
    );
    let r = h.send(Method::POST, &path, &rest).await;
    assert_eq!(r.status(), StatusCode::OK);
    let full: Value = r.json().await.unwrap();
    assert_eq!(full["type"], json!("FULL_CREDIT_NOTE"));
    assert_eq!(
        h.get_json(&format!("/v1/transactions/{id}")).await["refund_status"],
        json!("FULLY_REFUNDED")
    );
    let r = h
        .send(
            Method::POST,
            &format!(
                "/v1/transactions/{}/credit_notes",
                full["id"].as_str().unwrap()
            ),
            &note("cn-4", Decimal::ONE),
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::BAD_REQUEST,
        "no credit note against a credit note"
    );
    h.sandbox.stop().await;
}

async fn deregister(h: &Harness, id: &str) -> reqwest::Response {
    let body = json!({"closure_date": "2026-12-31", "reason": "CLOSING_NEXUS_IN_STATE", "final_return_acknowledged": true});
    h.send(
        Method::POST,
        &format!("/v1/registrations/{id}/deregister"),
        &body,
    )
    .await
}

#[tokio::test]
async fn deregistration_moves_a_registration_to_deregistering() {
    let h = Harness::start().await;
    let id = h
        .get_json("/v1/registrations?status__in=REGISTERED&state_code=WA")
        .await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = deregister(&h, &id).await;
    assert_eq!(r.status(), StatusCode::OK);
    let answered: Value = r.json().await.unwrap();
    assert_eq!(answered["status"], json!("DEREGISTERING"));
    assert!(answered["deregistration_requested"].is_string());
    assert_eq!(
        h.get_json(&format!("/v1/registrations/{id}")).await["status"],
        json!("DEREGISTERING")
    );
    assert_eq!(
        deregister(&h, &id).await.status(),
        StatusCode::CONFLICT,
        "not twice"
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn physical_nexus_create_edit_delete() {
    let h = Harness::start().await;
    let offered = h
        .get_json("/v1/nexus/physical_nexus/categories?country_code=US&state_code=CO")
        .await;
    let free = offered
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["is_category_assigned"] == json!(false))
        .expect("a category not yet assigned in Colorado");
    let category = free["name"].as_str().unwrap().to_owned();
    let body = json!({"country_code": "US", "state_code": "CO", "start_date": "2025-01-01", "category": category, "city": "Denver"});
    let r = h
        .send(Method::POST, "/v1/nexus/physical_nexus", &body)
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let created: Value = r.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("phys_"));
    assert_eq!(created["source"], json!("USER"));
    let cats = h
        .get_json("/v1/nexus/physical_nexus/categories?country_code=US&state_code=CO")
        .await;
    let now = cats
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == json!(category))
        .expect("still offered");
    assert_eq!(
        now["is_category_assigned"],
        json!(true),
        "the new record assigns the category"
    );

    let update = json!({"start_date": "2025-02-01", "end_date": "2025-12-31", "category": category, "city": "Boulder"});
    let r = h
        .send(
            Method::PUT,
            &format!("/v1/nexus/physical_nexus/{id}"),
            &update,
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let listed = h
        .get_json("/v1/nexus/physical_nexus?state_code=CO&size=100")
        .await;
    let row = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == json!(id))
        .unwrap()
        .clone();
    assert_eq!(
        (row["city"].clone(), row["end_date"].clone()),
        (json!("Boulder"), json!("2025-12-31"))
    );

    let r = h
        .as_org(
            ORG1,
            Method::DELETE,
            &format!("/v1/nexus/physical_nexus/{id}"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let r = h
        .as_org(
            ORG1,
            Method::DELETE,
            &format!("/v1/nexus/physical_nexus/{id}"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    h.sandbox.stop().await;
}

fn pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec()
}

#[tokio::test]
async fn exemption_create_and_certificate_upload() {
    let h = Harness::start().await;
    let customer = h.get_json("/v1/customers?size=1").await["items"][0].clone();
    let body = json!({
        "exemption_type": "customer", "status": "ACTIVE", "start_date": "2026-01-01", "end_date": "2027-12-31",
        "customer_id": customer["id"], "FEIN": "12-3456789", "sales_tax_id": "ST-99", "jurisdiction": "TX", "country_code": "US"
    });
    let r = h.send(Method::POST, "/v1/exemptions", &body).await;
    assert_eq!(r.status(), StatusCode::OK);
    let created: Value = r.json().await.unwrap();
    assert_eq!(created["customer"]["id"], customer["id"]);
    assert_eq!(created["attachment"], json!([]));
    let id = created["id"].as_str().unwrap().to_owned();
    let mut unknown = body.clone();
    unknown["customer_id"] = json!("cust_nobody");
    assert_eq!(
        h.send(Method::POST, "/v1/exemptions", &unknown)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );

    let upload = |bytes: Vec<u8>, part: &'static str| {
        let form = reqwest::multipart::Form::new().part(
            part,
            reqwest::multipart::Part::bytes(bytes)
                .file_name("cert.pdf")
                .mime_str("application/pdf")
                .unwrap(),
        );
        h.as_org(
            ORG1,
            Method::POST,
            &format!("/v1/exemptions/{id}/attachments"),
        )
        .multipart(form)
        .send()
    };
    let r = upload(pdf(), "file").await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let attachment: Value = r.json().await.unwrap();
    assert_eq!(
        (
            attachment["related_entity_id"].clone(),
            attachment["related_entity_type"].clone()
        ),
        (json!(id), json!("EXEMPTION"))
    );
    assert_eq!(
        error_locs(upload(b"hello".to_vec(), "file").await.unwrap()).await,
        ["body.file"]
    );
    assert_eq!(
        error_locs(upload(pdf(), "document").await.unwrap()).await,
        ["body.file"]
    );
    let mut big = pdf();
    big.resize(10 * 1024 * 1024 + 1, b' ');
    assert_eq!(
        error_locs(upload(big, "file").await.unwrap()).await,
        ["body.file"]
    );
    let files = h
        .get_json(&format!("/v1/exemptions/{id}/attachments"))
        .await;
    assert_eq!(
        files.as_array().unwrap().len(),
        1,
        "only the valid upload was kept"
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn customers_and_their_tax_registrations() {
    let h = Harness::start().await;
    let r = h.send(Method::POST, "/v1/customers", &json!({"name": "Maple Goods", "email": "ap@maple.example", "country": "CA", "state": "ON"})).await;
    assert_eq!(r.status(), StatusCode::OK);
    let c: Value = r.json().await.unwrap();
    let id = c["id"].as_str().unwrap().to_owned();
    assert_eq!(c["organization_id"], json!(ORG1.0));
    let r = h
        .send(
            Method::PUT,
            &format!("/v1/customers/{id}"),
            &json!({"phone": "+1 416 555 0100"}),
        )
        .await;
    let updated: Value = r.json().await.unwrap();
    assert_eq!(
        (updated["phone"].clone(), updated["name"].clone()),
        (json!("+1 416 555 0100"), json!("Maple Goods"))
    );

    let path = format!("/v1/customers/{id}/tax-registrations");
    let first: Value = h
        .send(Method::POST, &path, &json!({"tax_id": "123456789RT0001"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            first["tax_type"].clone(),
            first["country_code"].clone(),
            first["is_valid"].clone()
        ),
        (json!("gst_hst"), json!("CA"), json!(true))
    );
    let second: Value = h
        .send(Method::POST, &path, &json!({"tax_id": "987654321RT0001"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        second["id"], first["id"],
        "same tax type and country: updated, not added"
    );
    let customer = h.get_json(&format!("/v1/customers/{id}")).await;
    let regs = customer["customer_tax_registrations"].as_array().unwrap();
    assert_eq!(regs.len(), 1);
    assert_eq!(regs[0]["tax_id"], json!("987654321RT0001"));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn the_state_file_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.json");
    let config = SandboxConfig {
        state_file: Some(path.clone()),
        ..quick()
    };

    let h = Harness::with(config.clone()).await;
    let reg = h
        .get_json("/v1/registrations?status__in=REGISTERED&state_code=NY")
        .await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(deregister(&h, &reg).await.status(), StatusCode::OK);
    let nexus: Value = h
        .send(Method::POST, "/v1/nexus/physical_nexus", &json!({"country_code": "US", "state_code": "UT", "start_date": "2025-03-01", "category": "INVENTORY"}))
        .await
        .json()
        .await
        .unwrap();
    let created: Value = h
        .send(Method::POST, "/v1/transactions", &sale("ord-persist"))
        .await
        .json()
        .await
        .unwrap();
    let txn = created[0]["id"].as_str().unwrap().to_owned();
    let total_before = h
        .get_json("/v1/transactions?date__gte=2000-01-01&size=1")
        .await["total"]
        .clone();
    h.sandbox.stop().await;
    assert!(path.exists(), "writes were saved");

    let h = Harness::with(config.clone()).await;
    assert_eq!(
        h.get_json(&format!("/v1/registrations/{reg}")).await["status"],
        json!("DEREGISTERING")
    );
    let listed = h
        .get_json("/v1/nexus/physical_nexus?state_code=UT&size=100")
        .await;
    assert!(
        listed["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == nexus["id"])
    );
    assert_eq!(
        h.get_json(&format!("/v1/transactions/{txn}")).await["external_id"],
        json!("ord-persist")
    );
    assert_eq!(
        h.get_json("/v1/transactions?date__gte=2000-01-01&size=1")
            .await["total"],
        total_before
    );
    h.sandbox.stop().await;

    // A corrupt file stops the start with a message naming it, and is left as it was.
    std::fs::write(&path, "{ this is not a state file").unwrap();
    let err = taxdash::sandbox::Sandbox::start(config, "127.0.0.1:0".parse().unwrap())
        .await
        .err()
        .expect("refused");
    assert!(matches!(err, SandboxError::StateCorrupt { .. }));
    assert!(err.to_string().contains(&path.display().to_string()));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{ this is not a state file"
    );
}

#[tokio::test]
async fn a_products_edit_approves_it_as_the_live_document_defaults_its_status() {
    let h = Harness::start().await;
    let waiting = h.get_json("/v1/products?status__in=PENDING&size=100").await;
    let failed = waiting["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["classification_failed"] == json!(true))
        .expect("a demo product whose classification failed")
        .clone();
    let path = format!("/v1/products/{}", failed["id"].as_str().unwrap());

    // A subcategory of another category: refused, nothing changed.
    let wrong = product_edit(
        &failed,
        &json!({"product_category": "SERVICE", "product_subcategory": "GENERAL_CLOTHING"}),
    );
    let r = h.send(Method::PUT, &path, &wrong).await;
    assert_eq!(error_locs(r).await, ["body.product_subcategory"]);
    assert_eq!(h.get_json(&path).await["status"], "PENDING");

    // The classification sent without a status: the document's default, APPROVED.
    let classified = product_edit(
        &failed,
        &json!({"product_category": "SERVICE", "product_subcategory": "PROFESSIONAL_SERVICE"}),
    );
    let r = h.send(Method::PUT, &path, &classified).await;
    assert_eq!(r.status(), StatusCode::OK);
    let answer: Value = r.json().await.unwrap();
    assert_eq!(answer["status"], "APPROVED");
    assert_eq!(answer["classification_failed"], json!(false));
    assert_eq!(h.get_json(&path).await, answer, "read again, as answered");
    let still = h
        .get_json("/v1/products?status__in=PENDING,PARTIALLY_APPROVED&size=100")
        .await;
    assert!(
        still["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["id"] != failed["id"]),
        "off the list of products waiting"
    );

    // A status named is kept; an archived product stays archived unless one is named.
    let edit = |changes: Value| product_edit(&answer, &changes);
    let r = h
        .send(Method::PUT, &path, &edit(json!({"status": "PENDING"})))
        .await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "PENDING");
    let r = h
        .send(Method::PUT, &path, &edit(json!({"status": "ARCHIVED"})))
        .await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "ARCHIVED");
    let r = h
        .send(Method::PUT, &path, &edit(json!({"name": "Old"})))
        .await;
    let archived: Value = r.json().await.unwrap();
    assert_eq!(archived["status"], "ARCHIVED");
    assert_eq!(archived["name"], "Old");
    assert_eq!(archived["product_subcategory"], "PROFESSIONAL_SERVICE");
    h.sandbox.stop().await;
}
