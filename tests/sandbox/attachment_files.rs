//! An exemption's attachments carry where their file is fetched from, and the file is the one
//! uploaded, to the organization's own credentials only.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::common::{Harness, ORG1, ORG2};

#[tokio::test]
async fn an_attachments_file_is_fetched_from_its_location() {
    let h = Harness::start().await;
    let page = h.get_json("/v1/exemptions?size=1").await;
    let id = page["items"][0]["id"].as_str().unwrap().to_owned();
    let bytes = b"%PDF-1.4\nthe signed certificate\n%%EOF\n".to_vec();
    let part = reqwest::multipart::Part::bytes(bytes.clone())
        .file_name("signed.pdf")
        .mime_str("application/pdf")
        .unwrap();
    let r = h
        .as_org(
            ORG1,
            Method::POST,
            &format!("/v1/exemptions/{id}/attachments"),
        )
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let uploaded: Value = r.json().await.unwrap();

    let files = h
        .get_json(&format!("/v1/exemptions/{id}/attachments"))
        .await;
    let file = files
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == uploaded["id"])
        .expect("the upload is listed");
    let location = file["file_location"].as_str().expect("a location");
    assert!(location.starts_with(&h.sandbox.base_url()), "{location}");

    let r = h
        .http
        .get(location)
        .header("x-api-key", ORG1.1)
        .header("x-organization-id", ORG1.0)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert!(
        r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("signed.pdf")
    );
    assert_eq!(r.bytes().await.unwrap().to_vec(), bytes);

    let bare = h.http.get(location).send().await.unwrap();
    assert_eq!(bare.status(), StatusCode::UNAUTHORIZED, "not without a key");
    let other = h
        .http
        .get(location)
        .header("x-api-key", ORG2.1)
        .header("x-organization-id", ORG2.0)
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        StatusCode::NOT_FOUND,
        "not another organization's"
    );
    h.sandbox.stop().await;
}
