//! Registration writes the sandbox refuses or keeps to what the live service takes: an update
//! changes only the keys of `RegistrationUpdateAPI` (never the id), a wrongly typed value is a
//! 422 naming its field, a created registration carries what the live record always carries and
//! names a real jurisdiction, and a jurisdiction held by a registration (one being deregistered
//! included) is not registered twice. Then a bounded fuzz of update bodies.

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::common::{Draw, Harness, error_locs};
use super::live_shapes::faults_of;

/// The demo registration of `state` (a US state), read from the list.
async fn registration_in(h: &Harness, state: &str) -> Value {
    let page = h
        .get_json(&format!(
            "/v1/registrations?state_code={state}&country_code__in=US"
        ))
        .await;
    page["items"][0].clone()
}

async fn put(h: &Harness, id: &str, body: &Value) -> reqwest::Response {
    h.send(Method::PUT, &format!("/v1/registrations/{id}"), body)
        .await
}

async fn get(h: &Harness, id: &str) -> reqwest::Response {
    h.get(&format!("/v1/registrations/{id}")).await
}

/// Every registration id on file, in list order.
async fn ids(h: &Harness) -> Vec<String> {
    let page = h.get_json("/v1/registrations?size=100").await;
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_update_never_renames_a_registration_nor_keeps_a_key_it_does_not_take() {
    let h = Harness::start().await;
    let ohio = registration_in(&h, "OH").await;
    let id = ohio["id"].as_str().unwrap().to_owned();
    let before = ids(&h).await;

    // Another record's id, or a new one: the id stays, the old one still answers.
    for other in ["regs_hijack", before.iter().find(|i| **i != id).unwrap()] {
        let r = put(&h, &id, &json!({ "id": other, "comment": "renamed?" })).await;
        assert_eq!(r.status(), StatusCode::OK);
        let answered: Value = r.json().await.unwrap();
        assert_eq!(answered["id"], json!(id));
        assert_eq!(
            answered["comment"],
            json!("renamed?"),
            "the update's own key is kept"
        );
        assert_eq!(get(&h, &id).await.status(), StatusCode::OK);
    }
    assert_eq!(get(&h, "regs_hijack").await.status(), StatusCode::NOT_FOUND);
    let after = ids(&h).await;
    assert_eq!(after, before, "the same records, each id once");
    assert_eq!(after.iter().collect::<BTreeSet<_>>().len(), after.len());

    // A field the service sets is not the update's to change.
    let r = put(&h, &id, &json!({ "marked_collecting_date": "x" })).await;
    assert_eq!(r.status(), StatusCode::OK);
    let read: Value = get(&h, &id).await.json().await.unwrap();
    assert_eq!(
        read["marked_collecting_date"],
        ohio["marked_collecting_date"]
    );
    assert_ne!(read["marked_collecting_date"], json!("x"));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn a_wrongly_typed_value_is_a_422_naming_its_field_and_changes_nothing() {
    let h = Harness::start().await;
    let id = registration_in(&h, "OH").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let before: Value = get(&h, &id).await.json().await.unwrap();
    for (field, value) in [
        ("deregistration_completed", json!("x")),
        ("filing_days", json!("abc")),
        ("amount_fees", json!("abc")),
    ] {
        let r = put(&h, &id, &json!({ field: value, "comment": "not kept" })).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        let body: Value = r.json().await.unwrap();
        let detail = body["detail"].as_array().expect("the 422 shape");
        assert_eq!(detail.len(), 1, "{body}");
        let e = &detail[0];
        assert_eq!(e["loc"], json!(["body", field]), "{body}");
        assert_eq!(e["input"], value, "{body}");
        assert!(e["type"].is_string() && e["msg"].is_string() && e["ctx"].is_object());
        assert_eq!(get(&h, &id).await.json::<Value>().await.unwrap(), before);
    }
    h.sandbox.stop().await;
}

fn regular(state: &str, name: &str) -> Value {
    json!({
        "registration_import_type": "REGULAR", "country_code": "US", "state_code": state,
        "state_name": name, "filing_frequency": "QUARTERLY", "registration_email": "tax@example.com"
    })
}

#[tokio::test]
async fn a_created_registration_carries_what_the_live_record_does_in_a_real_jurisdiction() {
    let h = Harness::start().await;
    // Wyoming under another state's name: the name follows the code.
    let r = h
        .send(Method::POST, "/v1/registrations", &regular("WY", "Texas"))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let made: Value = r.json().await.unwrap();
    assert_eq!(made["state_name"], json!("Wyoming"));
    assert_eq!(made["filing_days"], json!(20));
    assert_eq!(made["registration_type"], json!("OTHER"));
    assert_eq!(faults_of("RegistrationRead", &made), Vec::<String>::new());

    // An SST import is a US registration, its days and name computed.
    let sst = json!({"registration_import_type": "SST", "username": "sst_user",
                     "password_plain_text": "sst_pass"});
    let r = h.send(Method::POST, "/v1/registrations", &sst).await;
    assert_eq!(r.status(), StatusCode::OK);
    let made: Value = r.json().await.unwrap();
    assert_eq!(made["country_code"], json!("US"));
    assert_eq!(made["sst_import"], json!(true));
    assert!(made["filing_days"].is_i64(), "{made}");
    assert_eq!(faults_of("RegistrationRead", &made), Vec::<String>::new());
    // One SST registration holds the programme.
    let r = h.send(Method::POST, "/v1/registrations", &sst).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);

    // Every created one reads back, in the list too, with the live record's fields.
    let page = h.get_json("/v1/registrations?size=100").await;
    for item in page["items"].as_array().unwrap() {
        assert_eq!(
            faults_of("RegistrationReadWithPassword", item),
            Vec::<String>::new()
        );
        let country = item["country_code"].as_str().unwrap();
        assert!(taxdash::rules::is_country_code(country), "{item}");
    }

    // Not a jurisdiction: refused on the field, nothing kept.
    let total = page["total"].clone();
    for (body, field) in [
        (regular("QC", "Ohio"), "state_code"),
        (regular("ZZ", "Nowhere"), "state_code"),
        (
            json!({"country_code": "JP", "state_code": "13", "state_name": "Tokyo",
                   "filing_frequency": "MONTHLY"}),
            "country_code",
        ),
    ] {
        let r = h.send(Method::POST, "/v1/registrations", &body).await;
        assert_eq!(error_locs(r).await, [format!("body.{field}")], "{body}");
    }
    let page = h.get_json("/v1/registrations?size=1").await;
    assert_eq!(page["total"], total);
    h.sandbox.stop().await;
}

fn texas() -> Value {
    json!({
        "registration_import_type": "REGULAR", "country_code": "US", "state_code": "TX",
        "state_name": "Texas", "filing_frequency": "MONTHLY", "tax_type": "SALES_AND_USE_TAX",
        "jurisdiction_specific_fields": {
            "registration_type": "REMOTE_SELLER", "business_name": "Acme",
            "texas_taxpayer_number": "12345678901", "webfile_number": "AB123456"
        }
    })
}

#[tokio::test]
async fn a_jurisdiction_held_by_a_registration_being_deregistered_is_not_registered_twice() {
    let h = Harness::start().await;
    let tx = registration_in(&h, "TX").await;
    let id = tx["id"].as_str().unwrap();
    let r = h
        .send(
            Method::POST,
            &format!("/v1/registrations/{id}/deregister"),
            &json!({"closure_date": "2026-12-31", "reason": "CLOSING_NEXUS_IN_STATE",
                    "final_return_acknowledged": true}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        get(&h, id).await.json::<Value>().await.unwrap()["status"],
        json!("DEREGISTERING")
    );
    let r = h.send(Method::POST, "/v1/registrations", &texas()).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let said = r.json::<Value>().await.unwrap()["detail"].to_string();
    assert!(
        said.contains(id) && said.contains("DEREGISTERING"),
        "{said}"
    );

    // Awaiting clarification holds too; a closed registration does not.
    for (state, name, status, answer) in [
        (
            "MN",
            "Minnesota",
            "AWAITING_CLARIFICATION",
            StatusCode::CONFLICT,
        ),
        ("VA", "Virginia", "DEREGISTERED", StatusCode::OK),
    ] {
        assert_eq!(registration_in(&h, state).await["status"], json!(status));
        let r = h
            .send(Method::POST, "/v1/registrations", &regular(state, name))
            .await;
        assert_eq!(r.status(), answer, "{state} {status}");
    }
    h.sandbox.stop().await;
}

/// The keys of `RegistrationUpdateAPI`, the two the sandbox adds, fields the service sets, and
/// keys no registration has.
fn fuzz_keys() -> Vec<&'static str> {
    let mut keys = taxdash::model::RegistrationUpdate::LIVE_KEYS.to_vec();
    keys.extend([
        "sales_tax_id",
        "jurisdiction_specific_fields",
        "id",
        "filing_days",
        "amount_fees",
        "state_name",
        "marked_collecting_date",
        "status",
        "unknown",
        "__proto__",
        "ID",
        "registration-date",
    ]);
    keys
}

fn fuzz_values() -> Vec<Value> {
    vec![
        json!("x"),
        json!(""),
        json!("2026-02-30"),
        json!("2026-03-01"),
        json!("2026-03-01T10:00:00Z"),
        json!("QUARTERLY"),
        json!("REQUESTED"),
        json!("tax@example.com"),
        json!("regs_hijack"),
        Value::String("y".repeat(100_000)),
        json!(0),
        json!(-1),
        json!(2.5),
        json!(1e300),
        json!(true),
        json!(false),
        Value::Null,
        json!([]),
        json!([1, "a", null]),
        json!({}),
        json!({"webfile_number": "AB123456", "nested": {"deep": [1]}}),
    ]
}

/// The record's fields an update key may change (the key itself, and what follows from it).
fn changed_by(key: &str) -> &'static [&'static str] {
    match key {
        "marked_collecting" => &[
            "marked_collecting",
            "marked_collecting_date",
            "needs_mark_as_collecting",
        ],
        "filing_frequency" => &["filing_frequency", "filing_days"],
        // `encrypted_username`, `is_approaching` and `tax_id` have no field to change.
        _ => &[],
    }
}

#[tokio::test]
async fn fuzzed_updates_never_fail_the_server_move_the_id_or_keep_an_unknown_key() {
    // Over six hundred requests at once: past the default burst, so without the rate limit.
    let h = Harness::with(taxdash::sandbox::SandboxConfig {
        rate_limit_per_min: 0,
        ..taxdash::sandbox::SandboxConfig::default()
    })
    .await;
    let targets = [
        registration_in(&h, "OH").await["id"]
            .as_str()
            .unwrap()
            .to_owned(),
        registration_in(&h, "TX").await["id"]
            .as_str()
            .unwrap()
            .to_owned(),
    ];
    let keys = fuzz_keys();
    let values = fuzz_values();
    let updatable: BTreeSet<&str> = taxdash::model::RegistrationUpdate::LIVE_KEYS
        .iter()
        .copied()
        .chain(["sales_tax_id", "jurisdiction_specific_fields"])
        .collect();
    let mut draw = Draw(0x5eed);
    let mut records = Vec::new();
    for id in &targets {
        records.push(get(&h, id).await.json::<Value>().await.unwrap());
    }
    let (mut accepted, mut refused) = (0, 0);
    for n in 0..300 {
        let which = n % targets.len();
        let id = &targets[which];
        let mut body = serde_json::Map::new();
        for _ in 0..=draw.next(4) {
            let key = keys[draw.next(keys.len())];
            body.insert(key.to_owned(), values[draw.next(values.len())].clone());
        }
        let body = Value::Object(body);
        let r = put(&h, id, &body).await;
        let status = r.status();
        assert!(!status.is_server_error(), "{status} for {body}");
        let read = get(&h, id).await;
        assert_eq!(read.status(), StatusCode::OK, "{body}");
        let after: Value = read.json().await.unwrap();
        assert_eq!(after["id"], json!(id), "{body}");
        let before = &records[which];
        let may_change: BTreeSet<&str> = if status == StatusCode::OK {
            accepted += 1;
            body.as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .filter(|k| updatable.contains(k))
                .flat_map(|k| changed_by(k).iter().copied().chain([k]))
                .collect()
        } else {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            refused += 1;
            BTreeSet::new()
        };
        for (field, value) in after.as_object().unwrap() {
            if !may_change.contains(field.as_str()) {
                assert_eq!(&before[field], value, "{field} changed by {body}");
            }
        }
        records[which] = after;
    }
    assert!(
        accepted > 20 && refused > 20,
        "{accepted} accepted, {refused} refused"
    );
    let all = ids(&h).await;
    assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len());
    h.sandbox.stop().await;
}

#[tokio::test]
async fn a_sales_tax_id_is_never_blank_and_has_the_shape_its_states_form_gives() {
    let h = Harness::start().await;
    let california = registration_in(&h, "CA").await;
    let id = california["id"].as_str().unwrap().to_owned();
    let before: Value = get(&h, &id).await.json().await.unwrap();
    // A client's empty value sent as text, a blank, and a number of another shape: refused,
    // naming the field, and the id on file stays.
    for sent in ["null", "", "  ", "12-34"] {
        let r = put(&h, &id, &json!({ "sales_tax_id": sent })).await;
        assert_eq!(error_locs(r).await, ["body.sales_tax_id"], "{sent:?}");
        assert_eq!(get(&h, &id).await.json::<Value>().await.unwrap(), before);
    }
    // A CDTFA number of the form's shape is taken.
    let r = put(&h, &id, &json!({ "sales_tax_id": "123-456789" })).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        get(&h, &id).await.json::<Value>().await.unwrap()["sales_tax_id"],
        "123-456789"
    );
    // A state of the default form takes any text but a blank.
    let ohio = registration_in(&h, "OH").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = put(&h, &ohio, &json!({ "sales_tax_id": "" })).await;
    assert_eq!(error_locs(r).await, ["body.sales_tax_id"]);
    let r = put(&h, &ohio, &json!({ "sales_tax_id": "OH-99-1" })).await;
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}
