use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taxdash::sandbox::{MISSING_KEY, NO_ACCESS, SandboxConfig, UNAUTHENTICATED};

use crate::common::{Harness, ORG1, ORG2};

async fn detail(r: reqwest::Response) -> Value {
    r.json::<Value>().await.expect("JSON answer")["detail"].clone()
}

#[tokio::test]
async fn the_auth_matrix() {
    let h = Harness::start().await;
    let path = "/v1/registrations";

    let r = h.bare(Method::GET, path).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(detail(r).await, json!(MISSING_KEY));

    let r = h
        .bare(Method::GET, path)
        .header("x-api-key", "  ")
        .header("x-organization-id", ORG1.0)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(detail(r).await, json!(MISSING_KEY));

    let r = h
        .bare(Method::GET, path)
        .header("x-api-key", "not-a-key")
        .header("x-organization-id", ORG1.0)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(detail(r).await, json!(UNAUTHENTICATED));

    // A valid key with another organization, or with none.
    let r = h
        .bare(Method::GET, path)
        .header("x-api-key", ORG1.1)
        .header("x-organization-id", ORG2.0)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(detail(r).await, json!(NO_ACCESS));
    let r = h
        .bare(Method::GET, path)
        .header("x-api-key", ORG1.1)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);

    // Header names are case-insensitive.
    let r = h
        .bare(Method::GET, path)
        .header("X-API-KEY", ORG1.1)
        .header("X-Organization-Id", ORG1.0)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn unknown_paths_and_wrong_verbs() {
    let h = Harness::start().await;
    let r = h.get("/v1/nothing-here").await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(detail(r).await.is_string());
    let r = h.get("/v1/tax/estimate").await;
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(detail(r).await, json!("Method Not Allowed"));
    let r = h.get("/v1/registrations/regs_nope").await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(detail(r).await.as_str().unwrap().contains("regs_nope"));
    h.sandbox.stop().await;
}

#[tokio::test]
async fn one_organization_never_sees_another() {
    let h = Harness::start().await;
    let first = h.get_json("/v1/registrations?size=100").await;
    let second: Value = h
        .as_org(ORG2, Method::GET, "/v1/registrations?size=100")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids = |v: &Value| {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let (a, b) = (ids(&first), ids(&second));
    assert!(!a.is_empty() && !b.is_empty());
    assert!(
        a.iter().all(|id| !b.contains(id)),
        "the organizations share no registration"
    );

    // Organization 2 cannot read, or deregister, organization 1's records by id.
    let theirs = &a[0];
    let r = h
        .as_org(ORG2, Method::GET, &format!("/v1/registrations/{theirs}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let body = json!({"closure_date": "2026-12-31", "reason": "FULL_BUSINESS_CLOSURE", "final_return_acknowledged": true});
    let r = h
        .as_org(
            ORG2,
            Method::POST,
            &format!("/v1/registrations/{theirs}/deregister"),
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);

    let customer = h.get_json("/v1/customers?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = h
        .as_org(ORG2, Method::GET, &format!("/v1/customers/{customer}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let txn = h.get_json("/v1/transactions?size=1").await["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = h
        .as_org(ORG2, Method::GET, &format!("/v1/transactions/{txn}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn past_the_rate_limit_answers_429_with_retry_after() {
    let h = Harness::with(SandboxConfig {
        rate_limit_per_min: 60,
        ..SandboxConfig::default()
    })
    .await;
    // 60 per minute allows a burst of one; the next request at once is over the limit.
    assert_eq!(
        h.get("/v1/registrations?size=1").await.status(),
        StatusCode::OK
    );
    let r = h.get("/v1/registrations?size=1").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "Retry-After is {retry}");
    // The limit is per key: the other organization's key is unaffected.
    let r = h
        .as_org(ORG2, Method::GET, "/v1/registrations?size=1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    h.sandbox.stop().await;
}

#[tokio::test]
async fn injected_faults_fail_a_share_of_requests() {
    let h = Harness::with(SandboxConfig {
        error_rate: 0.5,
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    let mut failed = 0;
    for _ in 0..60 {
        let r = h.get("/v1/registrations?size=1").await;
        match r.status() {
            StatusCode::OK => {}
            StatusCode::INTERNAL_SERVER_ERROR | StatusCode::SERVICE_UNAVAILABLE => {
                failed += 1;
                assert!(detail(r).await.is_string());
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert!(
        (10..=50).contains(&failed),
        "{failed} of 60 failed at an error rate of 0.5"
    );
    h.sandbox.stop().await;
}

#[tokio::test]
async fn latency_holds_the_answer_but_the_work_is_done_on_arrival() {
    let latency = std::time::Duration::from_millis(800);
    let h = Harness::with(SandboxConfig {
        latency,
        rate_limit_per_min: 0,
        ..SandboxConfig::default()
    })
    .await;
    let before = h.get("/v1/customers?size=1").await;
    let total = |v: &Value| v["total"].as_u64().expect("a total");
    let before = total(&before.json::<Value>().await.unwrap());

    // An answer comes no sooner than the latency.
    let started = std::time::Instant::now();
    let r = h.get("/v1/registrations?size=1").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(started.elapsed() >= latency, "{:?}", started.elapsed());

    // A write given up before its answer has still been made, as on a service that far away.
    let write = h
        .as_org(ORG1, Method::POST, "/v1/customers")
        .json(&serde_json::json!({"name": "Given Up Early"}))
        .send();
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(200), write)
            .await
            .is_err(),
        "the answer was held"
    );
    let after = h.get("/v1/customers?size=1").await;
    assert_eq!(total(&after.json::<Value>().await.unwrap()), before + 1);
    h.sandbox.stop().await;
}

/// Sends `request` on `stream` and reads one answer: its status and its body.
async fn exchange(stream: &mut tokio::net::TcpStream, request: &[u8]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream
        .write_all(request)
        .await
        .expect("the request is sent whole");
    let mut read = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await.expect("the answer is read");
        assert!(n > 0, "the connection was closed before an answer");
        read.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&read).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let head = &text[..end];
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .expect("a length");
            if read.len() >= end + 4 + length {
                let status = head[9..12].parse().unwrap();
                return (status, text[end + 4..end + 4 + length].to_owned());
            }
        }
    }
}

#[tokio::test]
async fn a_refused_write_keeps_its_connection_open_for_the_next_request() {
    let h = Harness::with(SandboxConfig {
        rate_limit_per_min: 60,
        ..SandboxConfig::default()
    })
    .await;
    let address = h
        .sandbox
        .base_url()
        .trim_start_matches("http://")
        .to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    // A large body (a customer with a long note) on one kept-alive connection, three times:
    // the first is taken, the next two are over the limit; each gets its answer, on the same
    // connection, whatever was left of the body when the answer was decided.
    let body = serde_json::json!({"name": "N", "external_id": "x".repeat(200_000)}).to_string();
    let request = |key: &str| {
        format!(
            "POST /v1/customers HTTP/1.1\r\nhost: {address}\r\nx-api-key: {key}\r\n\
             x-organization-id: orgn_demo_1\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let (first, _) = exchange(&mut stream, request("demo-key-1").as_bytes()).await;
    assert!(first == 200 || first == 422, "{first}");
    for _ in 0..2 {
        let (status, answer) = exchange(&mut stream, request("demo-key-1").as_bytes()).await;
        assert_eq!(status, 429, "{answer}");
    }
    // A wrong key is refused the same way, and the connection still serves.
    let (status, _) = exchange(&mut stream, request("wrong").as_bytes()).await;
    assert_eq!(status, 401);
    let get = format!(
        "GET /v1/registrations?size=1 HTTP/1.1\r\nhost: {address}\r\nx-api-key: demo-key-2\r\n\
         x-organization-id: orgn_demo_2\r\n\r\n"
    );
    assert_eq!(exchange(&mut stream, get.as_bytes()).await.0, 200);
    h.sandbox.stop().await;
}
