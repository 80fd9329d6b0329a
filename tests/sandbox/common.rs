use std::net::{Ipv4Addr, SocketAddr};

use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::Value;
use taxdash::sandbox::{Sandbox, SandboxConfig};

pub const ORG1: (&str, &str) = ("orgn_demo_1", "demo-key-1");
pub const ORG2: (&str, &str) = ("orgn_demo_2", "demo-key-2");

/// The day the tests date the demo data around, so that what they expect does not depend on the
/// day they run.
pub const DEMO_ANCHOR: chrono::NaiveDate = taxdash::sandbox::demo_data::DEMO_ANCHOR;

/// A sandbox on a free loopback port and a client for it.
pub struct Harness {
    pub sandbox: Sandbox,
    pub http: reqwest::Client,
}

impl Harness {
    pub async fn start() -> Self {
        Self::with(SandboxConfig::default()).await
    }

    /// A sandbox started with `config`, its demo data anchored at [`DEMO_ANCHOR`] unless
    /// `config` names another day; the sandbox's today is [`DEMO_ANCHOR`] too.
    pub async fn with(mut config: SandboxConfig) -> Self {
        config.anchor = config.anchor.or(Some(DEMO_ANCHOR));
        taxdash::clock::fix_today(Some(DEMO_ANCHOR));
        let sandbox = Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .expect("sandbox starts");
        Harness {
            sandbox,
            http: reqwest::Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.sandbox.base_url())
    }

    /// A request with no credentials.
    pub fn bare(&self, method: Method, path: &str) -> RequestBuilder {
        self.http.request(method, self.url(path))
    }

    /// A request as organization `org`.
    pub fn as_org(&self, org: (&str, &str), method: Method, path: &str) -> RequestBuilder {
        self.bare(method, path)
            .header("x-api-key", org.1)
            .header("x-organization-id", org.0)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.as_org(ORG1, Method::GET, path)
            .send()
            .await
            .expect("request sent")
    }

    pub async fn get_json(&self, path: &str) -> Value {
        let r = self.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "GET {path}");
        r.json().await.expect("JSON answer")
    }

    pub async fn send(&self, method: Method, path: &str, body: &Value) -> Response {
        self.as_org(ORG1, method, path)
            .json(body)
            .send()
            .await
            .expect("request sent")
    }
}

/// The `loc` paths of a 422 answer, as dotted strings (`body.closure_date`).
pub async fn error_locs(r: Response) -> Vec<String> {
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = r.json().await.expect("JSON answer");
    body["detail"]
        .as_array()
        .expect("a validation detail is a list")
        .iter()
        .map(|e| {
            e["loc"]
                .as_array()
                .expect("loc is a list")
                .iter()
                .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect()
}

/// The fields `PUT /v1/products/{id}` requires in every edit, as the live document's
/// `ProductUpdate` has them.
pub const PRODUCT_EDIT_REQUIRED: [&str; 4] = [
    "name",
    "product_category",
    "product_subcategory",
    "tax_exempt",
];

/// An edit of `product` (a record as the sandbox answers it): its required fields as they are
/// on file, then `changes` over them.
pub fn product_edit(product: &Value, changes: &Value) -> Value {
    let mut body = serde_json::Map::new();
    for field in PRODUCT_EDIT_REQUIRED {
        body.insert(field.to_owned(), product[field].clone());
    }
    if let Value::Object(changes) = changes {
        body.extend(changes.clone());
    }
    Value::Object(body)
}

/// A small deterministic generator, so that every run sends the same bodies.
pub struct Draw(pub u64);

impl Draw {
    pub fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % below as u64) as usize
    }
}
