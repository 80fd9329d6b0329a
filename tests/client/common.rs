use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::Router;
use taxdash::api::{Client, ClientConfig, RetryPolicy};
use taxdash::credentials::ApiKey;
use taxdash::sandbox::{DEMO_CREDENTIALS, Sandbox, SandboxConfig};
use tokio::net::TcpListener;
use url::Url;

pub const ORG1: (&str, &str) = DEMO_CREDENTIALS[0];
pub const ORG2: (&str, &str) = DEMO_CREDENTIALS[1];

/// Quick retries, so tests that meet faults stay fast.
pub fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_millis(20),
        max_wait: Duration::from_secs(3),
    }
}

/// A client config for `base` acting as `org` with `key`.
pub fn config(base: &str, org: &str, key: &str) -> ClientConfig {
    let mut config = ClientConfig::new(
        Url::parse(base).expect("a base URL"),
        org,
        ApiKey::new(key).expect("a key"),
    );
    config.retry = quick_retries();
    config
}

/// The day the tests date the demo data around, so that what they expect does not depend on the
/// day they run.
pub const DEMO_ANCHOR: chrono::NaiveDate = taxdash::sandbox::demo_data::DEMO_ANCHOR;

/// A sandbox started with `config`, its demo data anchored at [`DEMO_ANCHOR`] unless `config`
/// names another day; today is [`DEMO_ANCHOR`] too, for the sandbox and the library.
pub async fn sandbox_with(mut config: SandboxConfig) -> Sandbox {
    config.anchor = config.anchor.or(Some(DEMO_ANCHOR));
    taxdash::clock::fix_today(Some(DEMO_ANCHOR));
    Sandbox::start(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("sandbox starts")
}

/// A sandbox with default settings and a client of its first demo organization.
pub async fn start() -> (Sandbox, Client) {
    start_with(SandboxConfig::default(), |_| {}).await
}

/// A sandbox with `sandbox` settings and a client of the first demo organization, its config
/// adjusted by `adjust`.
pub async fn start_with(
    sandbox: SandboxConfig,
    adjust: impl FnOnce(&mut ClientConfig),
) -> (Sandbox, Client) {
    let sandbox = sandbox_with(sandbox).await;
    let mut config = config(&sandbox.base_url(), ORG1.0, ORG1.1);
    adjust(&mut config);
    let client = Client::new(config).expect("client builds");
    (sandbox, client)
}

/// Serves `router` on a free loopback port; returns its base URL. The server lives as long as
/// the test's runtime.
pub async fn serve(router: Router) -> String {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}

/// The bytes of a small PDF.
pub fn pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n".to_vec()
}
