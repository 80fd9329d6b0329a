//! An attachment's file fetched from its location: with the credentials on the service's own
//! origin, without them anywhere else, and never from plain http to another host.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::HeaderMap;
use axum::routing::get;
use taxdash::api::{ApiError, Upload};
use taxdash::model::PageParams;
use taxdash::model::filters::ExemptionFilter;

use crate::common::{serve, start};

#[tokio::test]
async fn a_file_comes_from_its_location_and_the_key_stays_with_the_service() {
    let (sandbox, client) = start().await;
    let exemption = client
        .list_exemptions(&ExemptionFilter::default(), PageParams::new(1, 1))
        .await
        .unwrap()
        .items
        .remove(0);
    let bytes = b"%PDF-1.4\nsigned\n%%EOF\n".to_vec();
    let uploaded = client
        .upload_attachment(&exemption.id, Upload::pdf("signed.pdf", bytes.clone()))
        .await
        .unwrap();
    let listed = client.list_attachments(&exemption.id).await.unwrap();
    let location = listed
        .iter()
        .find(|a| a.id == uploaded.id)
        .and_then(|a| a.file_location.clone())
        .expect("a location");
    assert_eq!(client.download_attachment(&location).await.unwrap(), bytes);

    // Elsewhere (a storage link on another origin): fetched without the credentials.
    let seen: Arc<Mutex<Vec<HeaderMap>>> = Arc::default();
    let record = Arc::clone(&seen);
    let storage = serve(Router::new().route(
        "/bucket/cert.pdf",
        get(move |headers: HeaderMap| {
            record.lock().unwrap().push(headers);
            async { b"%PDF-1.4 stored".to_vec() }
        }),
    ))
    .await;
    let fetched = client
        .download_attachment(&format!("{storage}/bucket/cert.pdf"))
        .await
        .unwrap();
    assert_eq!(fetched, b"%PDF-1.4 stored");
    let headers = seen.lock().unwrap().remove(0);
    assert!(
        headers.get("x-api-key").is_none() && headers.get("x-organization-id").is_none(),
        "no credentials left the service: {headers:?}"
    );

    let refused = client
        .download_attachment("http://files.example.com/cert.pdf")
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, ApiError::BadRequest { detail } if detail.contains("only https")),
        "{refused:?}"
    );
    sandbox.stop().await;
}
