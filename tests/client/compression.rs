//! Fewer bytes on the wire: the client asks for compressed answers and reads them, and the
//! sandbox answers compressed when asked, as the service's front does.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::HeaderMap;
use taxdash::model::PageParams;
use taxdash::model::filters::TransactionFilter;

use crate::common::{ORG1, config, serve, start};

#[tokio::test]
async fn the_sandbox_answers_gzip_when_asked_and_the_client_reads_it() {
    let (sandbox, client) = start().await;
    let url = format!("{}/v1/transactions?page=1&size=100", sandbox.base_url());
    // A client that leaves the bytes as they come, to see them.
    let raw = reqwest::Client::builder().no_gzip().build().unwrap();
    let ask = |encoding: Option<&str>| {
        let mut request = raw
            .get(&url)
            .header("x-api-key", ORG1.1)
            .header("x-organization-id", ORG1.0);
        if let Some(encoding) = encoding {
            request = request.header("accept-encoding", encoding);
        }
        request.send()
    };
    let plain = ask(None).await.unwrap();
    assert_eq!(plain.headers().get("content-encoding"), None);
    let plain = plain.bytes().await.unwrap();
    let packed = ask(Some("gzip")).await.unwrap();
    assert_eq!(packed.headers()["content-encoding"], "gzip");
    let packed = packed.bytes().await.unwrap();
    assert!(
        packed.len() * 4 < plain.len(),
        "{} bytes compressed of {}",
        packed.len(),
        plain.len()
    );
    // The dashboard's client gets the same page, read from the compressed answer.
    let page = client
        .list_transactions(&TransactionFilter::default(), PageParams::new(1, 100))
        .await
        .unwrap();
    let expected: serde_json::Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(
        page.items.len(),
        expected["items"].as_array().unwrap().len()
    );
    assert_eq!(
        page.items[0].id,
        expected["items"][0]["id"].as_str().unwrap()
    );
    sandbox.stop().await;
}

#[tokio::test]
async fn the_client_asks_for_compressed_answers() {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let kept = Arc::clone(&seen);
    let router = Router::new().fallback(move |headers: HeaderMap| {
        let kept = Arc::clone(&kept);
        async move {
            let asked = headers
                .get("accept-encoding")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            kept.lock().unwrap().push(asked);
            axum::Json(
                serde_json::json!({"items": [], "total": 0, "page": 1, "size": 1, "pages": 0}),
            )
        }
    });
    let base = serve(router).await;
    let client = taxdash::api::Client::new(config(&base, ORG1.0, ORG1.1)).unwrap();
    let _ = client
        .list_transactions(&TransactionFilter::default(), PageParams::new(1, 1))
        .await;
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter().any(|asked| asked.contains("gzip")),
        "the requests asked for {seen:?}"
    );
}
